// SPDX-License-Identifier: GPL-2.0-only
/* vigil: the audit record of a first sighting or a would-be denial. */

#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/lsm_audit.h>
#include <linux/sched.h>
#include <linux/uidgid.h>

#include "access.h"
#include "vigil_limits.h"
#include "record.h"
#include "stats.h"
#include "subject.h"
#include "table.h"
#include "vigil.h"

/*
 * A record's exe and object are cut at VIGIL_AUDIT_STR_MAX bytes, and
 * exe, via (at most VIGIL_VIA_MAX) and object together at
 * VIGIL_AUDIT_STR_BUDGET (vigil_limits.h): an object past what the exe and via
 * leave is cut shorter. The learned file keeps them whole.
 */

int vigil_audit_type __ro_after_init = CONFIG_SECURITY_VIGIL_AUDIT_TYPE;

static void log_string(struct audit_buffer *ab, const char *name,
		       const char *s, size_t len)
{
	audit_log_format(ab, " %s=", name);
	if (!s) {
		audit_log_format(ab, "?");
		return;
	}
	audit_log_n_untrustedstring(ab, s, min_t(size_t, len,
						 VIGIL_AUDIT_STR_MAX));
}

/* " pid=N comm=..." of @tsk, as audit_log_lsm_data() writes current's. */
static void log_task(struct audit_buffer *ab, const char *pid,
		     const char *comm, struct task_struct *tsk)
{
	char buf[sizeof(tsk->comm)];

	/* Without task_lock (we may hold tasklist_lock): a racy copy. */
	memcpy(buf, tsk->comm, sizeof(buf));
	buf[sizeof(buf) - 1] = '\0';
	audit_log_format(ab, " %s=%d %s=", pid, task_tgid_nr(tsk), comm);
	audit_log_untrustedstring(ab, buf);
}

/**
 * vigil_record - emit one vigil record
 * @subj: the subject
 * @cred: its credentials
 * @verdict: learned or would-deny
 * @acc: the access
 * @obj: the object, resolved
 * @len: its length
 * @mntns: 0, or the mount namespace the names were resolved in
 * @mntns_id: its unique id, or 0 when not known
 * @seq: the tuple's sequence number
 *
 * Joins the current syscall's audit event when there is one. Where the
 * hook may sleep (@acc->may_sleep) a full backlog makes the task wait, up
 * to audit's backlog_wait_time, like the syscall's own records; elsewhere
 * the record is never waited for. When audit cannot take the record
 * (disabled, backlog still full, no memory) it counts as lost: its
 * sequence number is then missing from the log.
 *
 * Return: whether audit took the record.
 */
bool vigil_record(const struct vigil_subject *subj, const struct cred *cred,
		  enum vigil_verdict verdict, const struct vigil_access *acc,
		  const char *obj, size_t len, u32 mntns, u64 mntns_id,
		  u64 seq)
{
	gfp_t gfp = acc->may_sleep ? GFP_KERNEL : GFP_ATOMIC | __GFP_NOWARN;
	size_t exe_len = min_t(size_t, subj->len, VIGIL_AUDIT_STR_MAX);
	size_t via_len = min_t(size_t, subj->via_len, VIGIL_VIA_MAX);
	enum vigil_uclass uclass;
	struct audit_buffer *ab;
	char access[64];

	if (acc->may_sleep)
		might_sleep();
	ab = audit_log_start(audit_context(), gfp, vigil_audit_type);
	if (!ab) {
		vigil_stat_inc(VIGIL_STAT_LOST);
		return false;
	}
	vigil_access_format(vigil_op_class(acc->op), acc->access, access,
			    sizeof(access));
	audit_log_format(ab, "vigil=1 seq=%llu verdict=%s op=%s access=%s uid=%u",
			 seq, vigil_verdict_name(verdict),
			 vigil_op_name(acc->op), access,
			 from_kuid(&init_user_ns, cred->uid));
	len = min(len, VIGIL_AUDIT_STR_BUDGET - exe_len - via_len);
	log_string(ab, "exe", subj->exe, exe_len);
	log_string(ab, "path", acc->path ? obj : NULL, len);
	log_string(ab, "target", acc->path ? NULL : obj, len);
	if (acc->actor) {
		/* Not current's access: pid and comm of the task that made it. */
		log_task(ab, "pid", "comm", acc->actor);
		if (acc->ad.type == LSM_AUDIT_DATA_TASK && acc->ad.u.tsk)
			log_task(ab, "opid", "ocomm", acc->ad.u.tsk);
	} else {
		audit_log_lsm_data(ab, &acc->ad);
	}
	/* An executable memfd's: the program that made it, in the budget. */
	if (acc->creator)
		log_string(ab, "creator", acc->creator->exe,
			   min_t(size_t, acc->creator->len,
				 VIGIL_AUDIT_STR_BUDGET - exe_len - via_len -
				 len));
	/* The programs its task's exec ancestors ran, nearest last. */
	if (via_len)
		log_string(ab, "via", vigil_subject_via(subj), via_len);
	/* Not the initial mount namespace: its names are not the host's. */
	if (mntns)
		audit_log_format(ab, " mntns=%u", mntns);
	/* Its number may be a dead namespace's too: this id is its own. */
	if (mntns && mntns_id)
		audit_log_format(ab, " mntnsid=%llu", mntns_id);
	/* An abstract unix name of another network namespace. */
	if (acc->netns)
		audit_log_format(ab, " netns=%llu", acc->netns);
	/* The class of uids the tuple stands for (vigil_uid_key()). */
	uclass = vigil_uclass_of(vigil_uid_key(cred->uid));
	audit_log_format(ab, " uclass=%s", vigil_uclass_name(uclass));
	audit_log_end(ab);
	vigil_stat_inc(VIGIL_STAT_EMITTED);
	return true;
}

/**
 * vigil_record_released - the record of a tuple held back over its rate
 * @e: the tuple, pinned and marked releasing (it stays while this runs)
 *
 * From the release work (vigil_table_release()), when its person's rate
 * allows: the record a first sighting would have had, with the uid,
 * subject and object of the tuple, pid 0 and no comm (the task may be
 * gone), and "released=1 first=T" (T: when it was first seen, in seconds
 * since the epoch). May wait for room in audit's backlog.
 *
 * Return: whether audit took the record.
 */
bool vigil_record_released(const struct vigil_entry *e)
{
	const struct vigil_subject *subj = e->key.subj;
	size_t exe_len = min_t(size_t, subj->len, VIGIL_AUDIT_STR_MAX);
	size_t via_len = min_t(size_t, subj->via_len, VIGIL_VIA_MAX);
	const char *obj = e->objlen ? e->obj : NULL;
	struct audit_buffer *ab;
	char access[64];
	size_t len;

	might_sleep();
	ab = audit_log_start(NULL, GFP_KERNEL, vigil_audit_type);
	if (!ab)
		return false;
	vigil_access_format(vigil_op_class(e->key.op), e->key.access, access,
			    sizeof(access));
	audit_log_format(ab, "vigil=1 seq=%llu verdict=%s op=%s access=%s uid=%u",
			 e->seq, vigil_verdict_name(e->verdict),
			 vigil_op_name(e->key.op), access,
			 from_kuid(&init_user_ns, e->uid));
	len = min_t(size_t, e->objlen,
		    VIGIL_AUDIT_STR_BUDGET - exe_len - via_len);
	log_string(ab, "exe", subj->exe, exe_len);
	log_string(ab, "path", e->key.by_name ? NULL : obj, len);
	log_string(ab, "target", e->key.by_name ? obj : NULL, len);
	audit_log_format(ab, " pid=0 comm=? released=1 first=%lld",
			 (long long)e->first);
	if (via_len)
		log_string(ab, "via", vigil_subject_via(subj), via_len);
	if (e->mntns)
		audit_log_format(ab, " mntns=%u", e->mntns);
	if (e->mntns && e->mntns_id)
		audit_log_format(ab, " mntnsid=%llu", e->mntns_id);
	if (vigil_entry_netns(e))
		audit_log_format(ab, " netns=%llu", vigil_entry_netns(e));
	audit_log_format(ab, " uclass=%s",
			 vigil_uclass_name(vigil_uclass_of(e->key.uid_key)));
	audit_log_end(ab);
	return true;
}
