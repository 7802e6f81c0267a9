// SPDX-License-Identifier: GPL-2.0-only
/* vigil: capability, signal and ptrace hooks. */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/security.h>

#include "access.h"
#include "hooks.h"
#include "subject.h"
#include "vigil.h"

/* A capability check the fast path did not count: a first sighting. */
static noinline void capable_event(const struct cred *cred, int cap, u64 fast)
{
	struct vigil_access acc = {
		.op = VIGIL_OP_CAPABLE,
		.access = VIGIL_CAP_USE,
		.ad.type = LSM_AUDIT_DATA_CAP,
		.ad.u.cap = cap,
		.fast = fast,
	};

	acc.target = vigil_cap_name(cap);
	if (!acc.target)
		acc.target = "?";
	acc.target_len = strlen(acc.target);
	vigil_observe(cred, &acc);
}

static int vigil_capable(const struct cred *cred, struct user_namespace *ns,
			 int cap, unsigned int opts)
{
	const struct cred *c;
	u64 fast;

	if (!vigil_should_observe() || (opts & CAP_OPT_NOAUDIT))
		return 0;
	/*
	 * The task that asks, whichever credentials are checked (an
	 * overlayfs mounter's, a file opener's): its pid and comm are in the
	 * record, so its subject and uid must be too.
	 */
	fast = VIGIL_FAST_CAP | (u32)cap;
	if (unlikely(!in_task())) {
		capable_event(cred, cap, fast);	/* counted as skipped */
		return 0;
	}
	c = current_real_cred();
	if (!vigil_observe_fast(c, VIGIL_OP_CAPABLE, VIGIL_CAP_USE, fast))
		capable_event(c, cap, fast);
	return 0;
}

/*
 * The executable @task runs, as its subject names it. Return: a reference
 * on that subject, which keeps the name valid; vigil_subject_put() it.
 */
static struct vigil_subject *target_of(struct task_struct *task,
				       struct vigil_access *acc)
{
	struct vigil_subject *s;

	rcu_read_lock();
	s = vigil_subject_tryget(vigil_subject_of(__task_cred(task)));
	rcu_read_unlock();
	acc->target = s ? s->exe : "?";
	acc->target_len = s ? s->len : 1;
	acc->ad.type = LSM_AUDIT_DATA_TASK;
	acc->ad.u.tsk = task;
	return s;
}

static int vigil_task_kill(struct task_struct *p, struct kernel_siginfo *info,
			   int sig, const struct cred *cred)
{
	struct vigil_access acc = {
		.op = VIGIL_OP_SIGNAL,
	};
	struct vigil_subject *s;

	if (!vigil_should_observe() || sig <= 0 || sig > 64)
		return 0;
	acc.access = 1ULL << (sig - 1);
	s = target_of(p, &acc);
	/*
	 * @cred is set when current is not the sender (a USB URB's
	 * completion signals its submitter with the submitter's
	 * credentials); otherwise current sends, named by its real
	 * credentials as in every hook, not by credentials it may have
	 * overridden.
	 */
	vigil_observe(cred ? cred : current_real_cred(), &acc);
	vigil_subject_put(s);
	return 0;
}

static int vigil_ptrace_access_check(struct task_struct *child,
				     unsigned int mode)
{
	struct vigil_access acc = {
		.op = VIGIL_OP_PTRACE,
	};
	struct vigil_subject *s;

	if (!vigil_should_observe() || (mode & PTRACE_MODE_NOAUDIT))
		return 0;
	acc.access = (mode & PTRACE_MODE_ATTACH) ? VIGIL_PTRACE_ATTACH :
						   VIGIL_PTRACE_READ;
	s = target_of(child, &acc);
	vigil_observe(current_real_cred(), &acc);
	vigil_subject_put(s);
	return 0;
}

/*
 * PTRACE_TRACEME: the parent becomes the tracer of the current task. The
 * access is the parent's (it may then trace this task), so its subject,
 * uid, pid and comm are the parent's; the target is this task. Runs under
 * tasklist_lock with interrupts off: the parent cannot go away.
 */
static int vigil_ptrace_traceme(struct task_struct *parent)
{
	struct vigil_access acc = {
		.op = VIGIL_OP_PTRACE,
		.access = VIGIL_PTRACE_ATTACH,
		.actor = parent,
	};
	struct vigil_subject *s;
	const struct cred *pcred;

	if (!vigil_should_observe())
		return 0;
	s = target_of(current, &acc);
	pcred = get_task_cred(parent);
	vigil_observe(pcred, &acc);
	put_cred(pcred);
	vigil_subject_put(s);
	return 0;
}

static struct security_hook_list task_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(capable, vigil_capable),
	LSM_HOOK_INIT(task_kill, vigil_task_kill),
	LSM_HOOK_INIT(ptrace_access_check, vigil_ptrace_access_check),
	LSM_HOOK_INIT(ptrace_traceme, vigil_ptrace_traceme),
};

void __init vigil_task_hooks_init(void)
{
	security_add_hooks(task_hooks, ARRAY_SIZE(task_hooks), VIGIL_LSM_ID);
}
