// SPDX-License-Identifier: GPL-2.0-only
/* vigil: the loaded candidate policy (RCU) and when hooks are active. */

#include <linux/build_bug.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vigil_limits.h"
#include "policy.h"
#include "state.h"
#include "subject.h"
#include "table.h"
#include "vigil.h"

DEFINE_STATIC_KEY_FALSE(vigil_active);
struct vigil_loaded_policy __rcu *vigil_policy_current;
/* What the fast path reads while no policy is loaded (state.h). */
const struct vigil_loaded_policy vigil_no_policy = { .gen = 0 };
/* Serialises policy replacement, mode changes and the static key. */
DEFINE_MUTEX(vigil_state_lock);
static u32 policy_gen;

u32 vigil_policy_gen(void)
{
	return READ_ONCE(policy_gen);
}

/*
 * Block modes are modes (a block word holds them as such), a word's fast
 * modes (VIGIL_FAST_UNNAMED too) fit 2 bits each, and a block's index
 * fits its field.
 */
static_assert((int)VIGIL_MODE_OFF == VIGIL_POLICY_MODE_OFF);
static_assert((int)VIGIL_MODE_LEARN == VIGIL_POLICY_MODE_LEARN);
static_assert((int)VIGIL_MODE_OBSERVE == VIGIL_POLICY_MODE_OBSERVE);
static_assert((int)VIGIL_MODE_COUNT <= VIGIL_FAST_UNNAMED);
static_assert(VIGIL_FAST_UNNAMED <= 3);
static_assert(VIGIL_BLOCK_MODES_SHIFT + 2 * VIGIL_MODE_COUNT <= 32);
static_assert(VIGIL_POLICY_MAX_SUBJECTS < VIGIL_BLOCK_INDEX_MASK);

/* The block word (state.h) of block @ps, index @n - 1, in generation @gen. */
static u64 block_word(u32 gen, unsigned int n,
		      const struct vigil_policy_subject *ps)
{
	int own = vigil_policy_subject_mode(ps);
	u64 word = (u64)gen << 32 | n;
	enum vigil_mode global;
	unsigned int mode;

	for (global = 0; global < VIGIL_MODE_COUNT; global++) {
		mode = own >= 0 ? own : global;
		if (mode == VIGIL_MODE_OBSERVE && !ps)
			mode = VIGIL_FAST_UNNAMED;
		word |= (u64)mode << (VIGIL_BLOCK_MODES_SHIFT + 2 * global);
	}
	return word;
}

/*
 * @subj's block word for @uclass in @lp (state.h), looked up and cached
 * when the cache holds another generation's; *@ret_ps set to the block.
 */
static u64 policy_block(struct vigil_loaded_policy *lp,
			struct vigil_subject *subj, enum vigil_uclass uclass,
			const struct vigil_policy_subject **ret_ps)
{
	struct vigil_policy_name chain[VIGIL_VIA_ELEMS + 1];
	const struct vigil_policy_subject *ps;
	unsigned int n;
	bool cut;
	u64 word;

	word = atomic64_read(&subj->block[uclass]);
	if (word >> 32 == lp->gen) {
		n = word & VIGIL_BLOCK_INDEX_MASK;
		*ret_ps = n ? vigil_policy_subject_at(lp->policy, n - 1) : NULL;
		return word;
	}
	/* The chain's elements, a leading "?" (not a name) left out. */
	n = vigil_via_split(vigil_subject_via(subj), subj->via_len, chain,
			    ARRAY_SIZE(chain), &cut);
	ps = vigil_policy_find_subject(lp->policy, subj->exe, subj->len,
				       chain, n, BIT(uclass));
	n = ps ? vigil_policy_subject_index(lp->policy, ps) + 1 : 0;
	word = block_word(lp->gen, n, ps);
	atomic64_set(&subj->block[uclass], word);
	*ret_ps = ps;
	return word;
}

/**
 * vigil_policy_block - the policy block that names a subject
 * @lp: the loaded policy, under rcu_read_lock()
 * @subj: the subject
 * @uclass: the uid class of the access (vigil_uclass_of())
 *
 * The block is the first whose glob matches the subject's exe, that
 * judges @uclass ("uid CLASSES", all without) and, for a "via" block,
 * one of its exec chain's elements. The answer is cached in the subject
 * per uid class (vigil_subject.block: the block word, state.h), tagged
 * with @lp's generation, so every subject has it, whatever its id: the
 * overflow subject "?" and the uncharged subjects of privileged execs
 * too. Every CPU that computes it for a generation computes the same
 * value, so racing writers are harmless; one of an older policy is only a
 * miss for the newer one.
 *
 * Return: the block, or NULL when the policy does not name @subj.
 */
const struct vigil_policy_subject *
vigil_policy_block(struct vigil_loaded_policy *lp, struct vigil_subject *subj,
		   enum vigil_uclass uclass)
{
	const struct vigil_policy_subject *ps;

	policy_block(lp, subj, uclass, &ps);
	return ps;
}

/**
 * vigil_policy_block_word - a subject's block word, looked up
 * @lp: the loaded policy, under rcu_read_lock()
 * @subj: the subject
 * @uclass: the uid class of the access
 *
 * The fast path's miss (vigil_fast_mode_of()): the block word of @subj
 * for @uclass in @lp, computed and cached as vigil_policy_block() does.
 * Never sleeps.
 *
 * Return: the block word (state.h), of @lp's generation.
 */
u64 vigil_policy_block_word(struct vigil_loaded_policy *lp,
			    struct vigil_subject *subj,
			    enum vigil_uclass uclass)
{
	const struct vigil_policy_subject *ps;

	return policy_block(lp, subj, uclass, &ps);
}

/* Hooks run while the global mode or any subject's mode is not off. */
void vigil_active_update(void)
{
	struct vigil_loaded_policy *lp;
	bool on;

	lockdep_assert_held(&vigil_state_lock);
	lp = rcu_dereference_protected(vigil_policy_current,
				       lockdep_is_held(&vigil_state_lock));
	on = vigil_mode_get() != VIGIL_MODE_OFF || (lp && lp->has_modes);
	if (on)
		static_branch_enable(&vigil_active);
	else
		static_branch_disable(&vigil_active);
}

/**
 * vigil_policy_replace - parse and publish a new candidate policy
 * @text: the policy text
 * @len: its length
 * @err: set to the reason when the policy is rejected
 * @errsize: size of @err
 *
 * Either the new policy is in force when this returns 0, or the old one
 * still is. Sleeps.
 *
 * Return: 0, -EINVAL (reason in @err), -E2BIG or -ENOMEM.
 */
int vigil_policy_replace(const char *text, size_t len, char *err,
			 size_t errsize)
{
	struct vigil_loaded_policy *lp, *old;
	struct vigil_policy_error perr = { 0 };
	struct vigil_policy *p;
	int rc;

	rc = vigil_policy_parse(text, len, &p, &perr);
	if (rc) {
		if (rc == -EINVAL)
			scnprintf(err, errsize, "line %u: %s\n", perr.line,
				  perr.msg);
		else
			scnprintf(err, errsize, "policy rejected: error %d\n",
				  rc);
		return rc;
	}
	lp = kzalloc(sizeof(*lp), GFP_KERNEL);
	if (!lp) {
		vigil_policy_free(p);
		scnprintf(err, errsize, "policy rejected: out of memory\n");
		return -ENOMEM;
	}
	lp->policy = p;
	lp->has_modes = vigil_policy_has_modes(p);

	mutex_lock(&vigil_state_lock);
	lp->gen = ++policy_gen;
	old = rcu_replace_pointer(vigil_policy_current, lp,
				  lockdep_is_held(&vigil_state_lock));
	vigil_active_update();
	mutex_unlock(&vigil_state_lock);

	/* Verdicts of the old policy no longer hold. */
	vigil_table_flush_observed(&vigil_table);
	if (old) {
		synchronize_rcu();
		vigil_policy_free(old->policy);
		kfree(old);
	}
	err[0] = '\0';
	return 0;
}
