/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil: the loaded candidate policy (state.c). */
#ifndef _SECURITY_VIGIL_STATE_H
#define _SECURITY_VIGIL_STATE_H

#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include "subject.h"
#include "vigil.h"

/* state.c: the loaded candidate policy, published with RCU. */
struct vigil_policy;
struct vigil_policy_subject;
struct vigil_loaded_policy {
	struct vigil_policy *policy;
	u32 gen;
	bool has_modes;
};

extern struct vigil_loaded_policy __rcu *vigil_policy_current;
extern struct mutex vigil_state_lock;
const struct vigil_policy_subject *
vigil_policy_block(struct vigil_loaded_policy *lp, struct vigil_subject *subj,
		   enum vigil_uclass uclass);
u64 vigil_policy_block_word(struct vigil_loaded_policy *lp,
			    struct vigil_subject *subj,
			    enum vigil_uclass uclass);

/*
 * A subject's block word (vigil_subject.block[], one per uid class): the
 * policy generation it was found in, << 32; the block's index + 1 in the
 * low bits (0: no block names the subject); and between them, for each
 * global mode G, the mode the fast path counts the subject's accesses in
 * (2 bits at VIGIL_BLOCK_MODES_SHIFT + 2 * G): the block's own mode if it
 * sets one, else G; and VIGIL_FAST_UNNAMED when that is observe with no
 * block (nothing would deny: the access is only counted). A word is a function
 * of the policy and the subject only: every CPU computes the same one for
 * a generation, and the global mode is read at each access, so a policy
 * load, a block's mode and a change of the global mode are all seen by
 * the next access.
 */
#define VIGIL_BLOCK_INDEX_MASK GENMASK_ULL(23, 0)
#define VIGIL_BLOCK_MODES_SHIFT 24
/*
 * A fast mode besides enum vigil_mode's: observe mode for a subject no
 * block names. Nothing would deny its accesses and no tuple is kept for
 * them: they are only counted, as vigil_observe() counts them
 * (vigil_count_unnamed()).
 */
#define VIGIL_FAST_UNNAMED 3
/*
 * The word of every subject while no policy is loaded: generation 0 (no
 * policy has it: vigil_no_policy's), each global mode's own mode.
 */
#define VIGIL_BLOCK_WORD_NO_POLICY					\
	((u64)VIGIL_MODE_LEARN << (VIGIL_BLOCK_MODES_SHIFT + 2 * VIGIL_MODE_LEARN) | \
	 (u64)VIGIL_MODE_OBSERVE << (VIGIL_BLOCK_MODES_SHIFT + 2 * VIGIL_MODE_OBSERVE))
extern const struct vigil_loaded_policy vigil_no_policy;

/*
 * The fast path's mode under global mode @global (< VIGIL_MODE_COUNT): an
 * enum vigil_mode or VIGIL_FAST_UNNAMED.
 */
static inline unsigned int vigil_block_fast_mode(u64 word,
						 enum vigil_mode global)
{
	return (word >> (VIGIL_BLOCK_MODES_SHIFT + 2 * global)) & 3;
}

/**
 * vigil_fast_mode_of - the mode and generation of a repeat, inline
 * @lp: the loaded policy (under rcu_read_lock()), or NULL
 * @subj: the subject
 * @uid_key: vigil_uid_key() of the access's uid
 * @global: the global mode (vigil_mode_get())
 * @ret_gen: set to the policy generation the subject's tuples carry in
 *	observe mode, else to 0
 *
 * With no policy, the global mode. With one, the subject's block word for
 * the uid class: a load and a compare of its generation with @lp's, the
 * policy looked up out of line (vigil_policy_block_word()) only when they
 * differ (the first access after a load). Without a branch on whether a
 * policy is loaded (under emulation each branch taken costs): with none,
 * the word is VIGIL_BLOCK_WORD_NO_POLICY, of vigil_no_policy's generation.
 *
 * Return: the mode (VIGIL_MODE_OFF: the fast path counts nothing), or
 * VIGIL_FAST_UNNAMED.
 */
static __always_inline unsigned int
vigil_fast_mode_of(struct vigil_loaded_policy *lp, struct vigil_subject *subj,
		   u32 uid_key, enum vigil_mode global, u32 *ret_gen)
{
	const struct vigil_loaded_policy *p = lp ? lp : &vigil_no_policy;
	enum vigil_uclass uclass = vigil_uclass_of(uid_key);
	u64 loaded = -(u64)!!lp;	/* all ones with a policy */
	unsigned int mode;
	u64 word;

	word = (atomic64_read(&subj->block[uclass]) & loaded) |
	       (VIGIL_BLOCK_WORD_NO_POLICY & ~loaded);
	if (unlikely(word >> 32 != p->gen))
		word = vigil_policy_block_word(lp, subj, uclass);
	mode = vigil_block_fast_mode(word, global);
	/* The generation in observe mode, else 0; no branch either. */
	*ret_gen = (word >> 32) & -(u32)(mode == VIGIL_MODE_OBSERVE);
	return mode;
}
int vigil_policy_replace(const char *text, size_t len, char *err,
			 size_t errsize);
void vigil_active_update(void);
u32 vigil_policy_gen(void);

#endif /* _SECURITY_VIGIL_STATE_H */
