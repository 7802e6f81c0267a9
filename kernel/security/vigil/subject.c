// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil: subjects, the executables tasks run, resolved once per exec.
 *
 * A subject is an executable in a mount namespace under an exec chain
 * (chain.c): the executables its task's exec ancestors ran, so "grep run
 * by a service's script" and "grep run by a login shell" are two.
 *
 * A subject is shared by the creds that run it and the table's tuples that
 * name it, and freed when the last of them goes. New subjects are charged
 * to the person (person.c: the real uid, or the owner of its subordinate
 * range) that exec'd them first: an unprivileged person may hold at most
 * a share of vigil.max_subjects, and all of them together 3/4 of it, or
 * 7/8 for new subjects of a person holding few (bounds.h), so that a
 * service account's new program gets its own subject however many uids
 * keep theirs alive; beyond that its execs share the subject "?". An exec
 * by root, or of a set-user-ID or set-group-ID program, always gets its
 * own subject, so no user can make a root program's accesses anonymous.
 */

#include <linux/binfmts.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/idr.h>
#include <linux/jhash.h>
#include <linux/limits.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "bounds.h"
#include "hooks.h"
#include "vigil_limits.h"
#include "path.h"
#include "person.h"
#include "subject.h"
#include "vigil.h"

#define SUBJECT_HASH_BITS 10
#define UID_HASH_BITS 6

/* Subjects beyond this many share the overflow subject "?". */
unsigned int vigil_max_subjects __ro_after_init = VIGIL_MAX_SUBJECTS_DEFAULT;

/* How many subjects one unprivileged person may create: a share of the cap. */
static unsigned int uid_share(void)
{
	return max_t(unsigned int, VIGIL_SUBJECTS_SHARE_MIN,
		     vigil_max_subjects / VIGIL_SUBJECTS_SHARE_DIV);
}

/* Subjects charged to one person. */
struct uid_charge {
	struct hlist_node node;
	kuid_t uid;
	unsigned int n;
};

/* Taken from RCU callbacks too (the last put of a cred): irq-safe. */
static DEFINE_SPINLOCK(subject_lock);
static DEFINE_HASHTABLE(subject_hash, SUBJECT_HASH_BITS);
static DEFINE_HASHTABLE(uid_hash, UID_HASH_BITS);
static DEFINE_IDA(subject_ida);
static unsigned int subject_count;	/* all live subjects */
static unsigned int charged_count;	/* those charged to a uid */
static atomic64_t folded = ATOMIC64_INIT(0);
static struct vigil_subject *overflow_subject;

static int __init vigil_max_subjects_setup(char *str)
{
	unsigned int v;

	if (!kstrtouint(str, 0, &v) && v >= VIGIL_MAX_SUBJECTS_MIN &&
	    v <= VIGIL_MAX_SUBJECTS_MAX)
		vigil_max_subjects = v;
	else
		pr_warn("vigil: vigil.max_subjects=%s out of range %u..%u\n", str,
			VIGIL_MAX_SUBJECTS_MIN, VIGIL_MAX_SUBJECTS_MAX);
	return 1;
}
__setup("vigil.max_subjects=", vigil_max_subjects_setup);

static struct vigil_subject *subject_new(const char *exe, size_t len,
					 const char *via, size_t via_len,
					 u32 mntns, u32 hash)
{
	struct vigil_subject *s;

	s = kzalloc(struct_size(s, exe, len + 1 + via_len + 1), GFP_KERNEL);
	if (!s)
		return NULL;
	s->events = alloc_percpu(u64);
	if (!s->events) {
		kfree(s);
		return NULL;
	}
	memcpy(s->exe, exe, len);
	s->len = len;
	memcpy(s->exe + len + 1, via, via_len);
	s->via_len = via_len;
	s->mntns = mntns;
	s->hash = hash;
	refcount_set(&s->ref, 1);
	return s;
}

static struct uid_charge *charge_find(kuid_t uid)
{
	struct uid_charge *c;

	hash_for_each_possible(uid_hash, c, node, __kuid_val(uid))
		if (uid_eq(c->uid, uid))
			return c;
	return NULL;
}

/**
 * vigil_subject_get - take a reference
 * @s: a subject, or NULL
 *
 * Return: @s.
 */
struct vigil_subject *vigil_subject_get(struct vigil_subject *s)
{
	if (s && !s->permanent)
		refcount_inc(&s->ref);
	return s;
}

/* Under rcu_read_lock(): a reference, or NULL when @s is on its way out. */
struct vigil_subject *vigil_subject_tryget(struct vigil_subject *s)
{
	if (!s || s->permanent)
		return s;
	return refcount_inc_not_zero(&s->ref) ? s : NULL;
}

/* Free @s, which was never published, or after a grace period. */
static void subject_free(struct vigil_subject *s)
{
	if (s) {
		free_percpu(s->events);
		kfree(s);
	}
}

static void subject_free_rcu(struct rcu_head *head)
{
	subject_free(container_of(head, struct vigil_subject, rcu));
}

/**
 * vigil_subject_events - the accesses counted for a subject
 * @s: the subject
 *
 * Return: the sum of its per-CPU counts (0 for a subject that has none:
 * KUnit's).
 */
u64 vigil_subject_events(const struct vigil_subject *s)
{
	u64 sum = 0;
	int cpu;

	if (!s->events)
		return 0;
	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(s->events, cpu);
	return sum;
}

/**
 * vigil_subject_put - drop a reference
 * @s: a subject, or NULL
 *
 * Any context, RCU callbacks included: the last one unhashes the subject,
 * returns its id and its uid's charge, and frees it after a grace period.
 */
void vigil_subject_put(struct vigil_subject *s)
{
	struct uid_charge *c = NULL;
	unsigned long flags;

	if (!s || s->permanent)
		return;
	if (!refcount_dec_and_lock_irqsave(&s->ref, &subject_lock, &flags))
		return;
	hash_del_rcu(&s->node);
	subject_count--;
	if (s->charged) {
		charged_count--;
		c = charge_find(s->owner);
		if (c && !--c->n)
			hash_del(&c->node);
		else
			c = NULL;
	}
	spin_unlock_irqrestore(&subject_lock, flags);
	ida_free(&subject_ida, s->id);
	kfree(c);
	call_rcu(&s->rcu, subject_free_rcu);
}

/*
 * What a subject is interned by: its exe, namespace, chain and the uid
 * class that exec'd it (and whether that changed the class).
 */
struct subject_id {
	const char *exe;
	size_t len;
	const char *via;
	size_t via_len;
	u32 mntns;
	u64 mntns_id;	/* the namespace: its number may be reused, not this */
	u32 hash;
	u8 uclass;
	u8 crossed;
};

static struct vigil_subject *subject_alloc(const struct subject_id *sid)
{
	struct vigil_subject *s;

	s = subject_new(sid->exe, sid->len, sid->via, sid->via_len,
			sid->mntns, sid->hash);
	if (s) {
		s->mntns_id = sid->mntns_id;
		s->uclass = sid->uclass;
		s->crossed = sid->crossed;
	}
	return s;
}

static bool subject_is(const struct vigil_subject *s,
		       const struct subject_id *id)
{
	return s->hash == id->hash && s->mntns == id->mntns &&
	       s->mntns_id == id->mntns_id &&
	       s->uclass == id->uclass && s->crossed == id->crossed &&
	       s->len == id->len && s->via_len == id->via_len &&
	       !memcmp(s->exe, id->exe, id->len) &&
	       !memcmp(vigil_subject_via(s), id->via, id->via_len);
}

/* Under subject_lock or RCU: a referenced subject already interned. */
static struct vigil_subject *subject_lookup(const struct subject_id *id)
{
	struct vigil_subject *s;

	hash_for_each_possible_rcu(subject_hash, s, node, id->hash)
		if (subject_is(s, id) && refcount_inc_not_zero(&s->ref))
			return s;
	return NULL;
}

/*
 * Find or create the subject @sid, charged to @uid unless @privileged.
 * Sleeps. Return: a reference, or the overflow subject.
 */
static struct vigil_subject *subject_get(struct subject_id *sid, kuid_t uid,
					 bool privileged)
{
	struct uid_charge *c, *newc = NULL;
	struct vigil_subject *s, *new;
	int id;

	sid->hash = jhash(sid->via, sid->via_len,
			  jhash(sid->exe, sid->len,
				sid->mntns ^ (u32)sid->mntns_id << 2 ^
				sid->uclass << 1 ^ sid->crossed));
	rcu_read_lock();
	s = subject_lookup(sid);
	rcu_read_unlock();
	if (s)
		return s;

	new = subject_alloc(sid);
	if (!privileged)
		newc = kzalloc(sizeof(*newc), GFP_KERNEL);
	id = ida_alloc(&subject_ida, GFP_KERNEL);
	if (!new || (!privileged && !newc) || id < 0)
		goto out_fold;
	new->id = id;

	spin_lock_irq(&subject_lock);
	s = subject_lookup(sid);
	if (s) {
		spin_unlock_irq(&subject_lock);
		ida_free(&subject_ida, id);
		subject_free(new);
		kfree(newc);
		return s;
	}
	if (!privileged) {
		c = charge_find(uid);
		if ((c && c->n >= uid_share()) ||
		    !vigil_pool_admit(vigil_max_subjects, charged_count,
				      c ? c->n : 0, 1)) {
			spin_unlock_irq(&subject_lock);
			goto out_fold;
		}
		if (!c) {
			c = newc;
			newc = NULL;
			c->uid = uid;
			hash_add(uid_hash, &c->node, __kuid_val(uid));
		}
		c->n++;
		charged_count++;
		new->charged = true;
		new->owner = uid;
	}
	subject_count++;
	hash_add_rcu(subject_hash, &new->node, sid->hash);
	spin_unlock_irq(&subject_lock);
	kfree(newc);
	return new;

out_fold:
	if (id >= 0)
		ida_free(&subject_ida, id);
	subject_free(new);
	kfree(newc);
	atomic64_inc(&folded);
	return overflow_subject;
}

unsigned int vigil_subject_count(void)
{
	return READ_ONCE(subject_count);
}

u64 vigil_subject_folded(void)
{
	return atomic64_read(&folded);
}

void vigil_subjects_for_each(void (*fn)(const struct vigil_subject *, void *),
			     void *arg)
{
	struct vigil_subject *s;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(subject_hash, bkt, s, node)
		fn(s, arg);
	rcu_read_unlock();
	fn(overflow_subject, arg);
}

/*
 * Will this exec run with other ids than the caller's? Root's execs, and
 * set-user-ID (to another user) or set-group-ID programs on a mount that
 * honours them. Decided before the binary handler applies them.
 */
static bool exec_privileged(const struct linux_binprm *bprm)
{
	const struct cred *cred = current_cred();
	const struct inode *inode = file_inode(bprm->file);
	umode_t mode = inode->i_mode;

	if (uid_eq(cred->uid, GLOBAL_ROOT_UID) ||
	    uid_eq(cred->euid, GLOBAL_ROOT_UID))
		return true;
	if (bprm->file->f_path.mnt->mnt_flags & MNT_NOSUID)
		return false;
	if ((mode & S_ISUID) && !uid_eq(inode->i_uid, cred->uid))
		return true;
	/* Set-group-ID without group execute marks mandatory locking. */
	return (mode & S_ISGID) && (mode & 0010) &&
	       !gid_eq(inode->i_gid, cred->gid);
}

/*
 * The chain of a program exec'd by a task running @parent (NULL: a kernel
 * thread, init, a usermode helper: no chain), into @buf (VIGIL_VIA_MAX + 1
 * bytes). The chain of a program in the initial mount namespace names
 * nothing resolved in another one: such an ancestor, like the overflow
 * subject, cuts it.
 */
static size_t subject_chain(const struct vigil_subject *parent, u32 mntns,
			    char *buf)
{
	buf[0] = '\0';
	if (!parent)
		return 0;
	return vigil_via_build(buf, vigil_subject_via(parent),
			       parent->via_len, parent->exe, parent->len,
			       parent == overflow_subject ||
			       (!mntns && parent->mntns), parent->crossed);
}

/*
 * The new program's subject, resolved before the point of no return: its
 * path from the initial root, so a chroot cannot rename it. In another
 * mount namespace (or when the initial root cannot reach the file) the
 * subject is that namespace's: a bind mount over a daemon's binary in a
 * private namespace does not make its program that daemon. Its chain is
 * the exec'ing task's subject's chain and exe: only a task that ran a
 * program can put it in its descendants' chains.
 */
static int vigil_bprm_creds_for_exec(struct linux_binprm *bprm)
{
	struct vigil_subject *s = overflow_subject;
	struct vigil_cred *vc = vigil_cred(bprm->cred);
	struct subject_id sid = { };
	char *buf, *via;
	bool foreign;

	/*
	 * While vigil is off nothing is interned: the program runs with no
	 * subject, like a kernel thread, until it execs again with vigil on.
	 */
	if (!vigil_should_observe()) {
		vigil_subject_put(vc->subject);
		vc->subject = NULL;
		return 0;
	}
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	via = kmalloc(VIGIL_VIA_MAX + 1, GFP_KERNEL);
	if (buf && via) {
		sid.exe = vigil_path_resolve(&bprm->file->f_path, buf,
					     &foreign);
		if (foreign || !vigil_mntns_initial())
			sid.mntns = vigil_mntns_current(&sid.mntns_id);
		sid.uclass = vigil_uclass_of(vigil_uid_key(current_uid()));
		sid.crossed = vc->subject && vc->subject != overflow_subject &&
			      vc->subject->uclass != sid.uclass;
		if (sid.exe[0] == '/') {
			sid.len = strlen(sid.exe);
			sid.via = via;
			sid.via_len = subject_chain(vc->subject, sid.mntns,
						    via);
			s = subject_get(&sid, vigil_person(current_uid()),
					exec_privileged(bprm));
		}
	}
	kfree(via);
	kfree(buf);
	/* bprm->cred was prepared with the caller's subject. */
	vigil_subject_put(vc->subject);
	vc->subject = s;
	return 0;
}

static void vigil_bprm_committing_creds(vigil_committing_bprm *bprm)
{
	struct vigil_subject *s = vigil_subject_of(bprm->cred);

	if (s) {
		atomic64_inc(&s->execs);
		vigil_inherited_files(bprm->cred);
	}
}

static int vigil_cred_prepare(struct cred *new, const struct cred *old,
			      gfp_t gfp)
{
	vigil_cred(new)->subject = vigil_subject_get(vigil_subject_of(old));
	return 0;
}

static void vigil_cred_transfer(struct cred *new, const struct cred *old)
{
	vigil_cred(new)->subject = vigil_subject_get(vigil_subject_of(old));
}

static void vigil_cred_free(struct cred *cred)
{
	vigil_subject_put(vigil_subject_of(cred));
	vigil_cred(cred)->subject = NULL;
}

static struct security_hook_list subject_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(bprm_creds_for_exec, vigil_bprm_creds_for_exec),
	LSM_HOOK_INIT(bprm_committing_creds, vigil_bprm_committing_creds),
	LSM_HOOK_INIT(cred_prepare, vigil_cred_prepare),
	LSM_HOOK_INIT(cred_transfer, vigil_cred_transfer),
	LSM_HOOK_INIT(cred_free, vigil_cred_free),
};

int __init vigil_subject_hooks_init(void)
{
	overflow_subject = subject_new("?", 1, "", 0, 0, 0);
	if (!overflow_subject)
		return -ENOMEM;
	overflow_subject->id = U32_MAX;
	overflow_subject->permanent = true;
	security_add_hooks(subject_hooks, ARRAY_SIZE(subject_hooks), VIGIL_LSM_ID);
	return 0;
}
