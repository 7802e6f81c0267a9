// SPDX-License-Identifier: GPL-2.0-only
/* vigil: subjects, the executables tasks run, resolved once per exec. */

#include <linux/binfmts.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/limits.h>
#include <linux/slab.h>

#include "vigil.h"

#define SUBJECT_HASH_BITS 10

/* Subjects beyond this many share the overflow subject "?". */
unsigned int vigil_max_subjects __ro_after_init = 4096;

static DEFINE_SPINLOCK(subject_lock);
static DEFINE_HASHTABLE(subject_hash, SUBJECT_HASH_BITS);
static unsigned int subject_count;
static struct vigil_subject *overflow_subject;

static int __init vigil_max_subjects_setup(char *str)
{
	unsigned int v;

	if (!kstrtouint(str, 0, &v) && v >= 16 && v <= 65536)
		vigil_max_subjects = v;
	else
		pr_warn("vigil: vigil.max_subjects=%s out of range 16..65536\n",
			str);
	return 1;
}
__setup("vigil.max_subjects=", vigil_max_subjects_setup);

static struct vigil_subject *subject_alloc(const char *exe, size_t len,
					   u32 hash)
{
	struct vigil_subject *s;

	s = kzalloc(struct_size(s, exe, len + 1), GFP_KERNEL);
	if (!s)
		return NULL;
	memcpy(s->exe, exe, len);
	s->len = len;
	s->hash = hash;
	return s;
}

/* Find or create the subject for @exe. Sleeps. */
static struct vigil_subject *subject_get(const char *exe, size_t len)
{
	u32 hash = jhash(exe, len, 0);
	struct vigil_subject *s, *new;

	rcu_read_lock();
	hash_for_each_possible_rcu(subject_hash, s, node, hash) {
		if (s->hash == hash && s->len == len &&
		    !memcmp(s->exe, exe, len)) {
			rcu_read_unlock();
			return s;
		}
	}
	rcu_read_unlock();

	new = subject_alloc(exe, len, hash);
	if (!new)
		return overflow_subject;

	spin_lock(&subject_lock);
	hash_for_each_possible(subject_hash, s, node, hash) {
		if (s->hash == hash && s->len == len &&
		    !memcmp(s->exe, exe, len)) {
			spin_unlock(&subject_lock);
			kfree(new);
			return s;
		}
	}
	if (subject_count >= vigil_max_subjects) {
		spin_unlock(&subject_lock);
		kfree(new);
		return overflow_subject;
	}
	new->id = subject_count++;
	hash_add_rcu(subject_hash, &new->node, hash);
	spin_unlock(&subject_lock);
	return new;
}

unsigned int vigil_subject_count(void)
{
	return READ_ONCE(subject_count);
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

/* The new program's subject, resolved before the point of no return. */
static int vigil_bprm_creds_for_exec(struct linux_binprm *bprm)
{
	struct vigil_subject *s = overflow_subject;
	char *buf, *exe;

	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (buf) {
		exe = d_path(&bprm->file->f_path, buf, PATH_MAX);
		if (!IS_ERR(exe))
			s = subject_get(exe, strlen(exe));
		kfree(buf);
	}
	vigil_cred(bprm->cred)->subject = s;
	return 0;
}

static void vigil_bprm_committing_creds(struct linux_binprm *bprm)
{
	struct vigil_subject *s = vigil_subject_of(bprm->cred);

	if (s)
		atomic64_inc(&s->execs);
}

static int vigil_cred_prepare(struct cred *new, const struct cred *old,
			      gfp_t gfp)
{
	vigil_cred(new)->subject = vigil_subject_of(old);
	return 0;
}

static void vigil_cred_transfer(struct cred *new, const struct cred *old)
{
	vigil_cred(new)->subject = vigil_subject_of(old);
}

static struct security_hook_list subject_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(bprm_creds_for_exec, vigil_bprm_creds_for_exec),
	LSM_HOOK_INIT(bprm_committing_creds, vigil_bprm_committing_creds),
	LSM_HOOK_INIT(cred_prepare, vigil_cred_prepare),
	LSM_HOOK_INIT(cred_transfer, vigil_cred_transfer),
};

int __init vigil_subject_hooks_init(void)
{
	overflow_subject = subject_alloc("?", 1, 0);
	if (!overflow_subject)
		return -ENOMEM;
	overflow_subject->id = U32_MAX;
	security_add_hooks(subject_hooks, ARRAY_SIZE(subject_hooks), "vigil");
	return 0;
}
