// SPDX-License-Identifier: GPL-2.0-only
/* vigil: the control and statistics files in /sys/kernel/security/vigil/. */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string_helpers.h>
#include <linux/uaccess.h>

#include "vigil_limits.h"
#include "person.h"
#include "policy.h"
#include "state.h"
#include "stats.h"
#include "subject.h"
#include "table.h"
#include "vigil.h"

/* Longest write accepted by the mode and table_kb files. */
#define SMALL_WRITE_MAX 32

/* The reason the last policy write was rejected; empty after a success. */
static char policy_error[256];
static DEFINE_MUTEX(policy_error_lock);

/*
 * Changing vigil's state needs CAP_MAC_ADMIN in the initial user
 * namespace, both for the task writing and for the one that opened the
 * file, so a privileged writer cannot be handed an unprivileged fd.
 */
static bool vigil_may_admin(const struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_MAC_ADMIN) &&
	       ns_capable(&init_user_ns, CAP_MAC_ADMIN);
}

/* Copy a small write in; checks in the order ARCHITECTURE.md gives. */
static ssize_t small_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos, char *buf)
{
	if (!vigil_may_admin(file))
		return -EPERM;
	if (*ppos != 0)
		return -EINVAL;
	if (count >= SMALL_WRITE_MAX)
		return -E2BIG;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return count;
}

static ssize_t mode_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	char tmp[SMALL_WRITE_MAX];
	int len;

	len = scnprintf(tmp, sizeof(tmp), "%s\n",
			vigil_mode_name(vigil_mode_get()));
	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

static ssize_t mode_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	char buf[SMALL_WRITE_MAX];
	enum vigil_mode m;
	ssize_t rc;

	rc = small_write(file, ubuf, count, ppos, buf);
	if (rc < 0)
		return rc;
	if (vigil_mode_parse(buf, count, &m))
		return -EINVAL;
	mutex_lock(&vigil_state_lock);
	vigil_mode_set(m);
	vigil_active_update();
	mutex_unlock(&vigil_state_lock);
	return count;
}

static const struct file_operations mode_fops = {
	.read = mode_read,
	.write = mode_write,
	.llseek = generic_file_llseek,
};

static ssize_t table_kb_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	char tmp[SMALL_WRITE_MAX];
	int len;

	len = scnprintf(tmp, sizeof(tmp), "%zu\n",
			READ_ONCE(vigil_table.max_bytes) / 1024);
	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

static ssize_t table_kb_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[SMALL_WRITE_MAX];
	unsigned long kb;
	ssize_t rc;

	rc = small_write(file, ubuf, count, ppos, buf);
	if (rc < 0)
		return rc;
	if (kstrtoul(buf, 0, &kb) || kb < VIGIL_TABLE_KB_MIN ||
	    kb > VIGIL_TABLE_KB_MAX)
		return -EINVAL;
	vigil_table_set_max(&vigil_table, kb * 1024);
	return count;
}

static const struct file_operations table_kb_fops = {
	.read = table_kb_read,
	.write = table_kb_write,
	.llseek = generic_file_llseek,
};

/*
 * policy: a write replaces the candidate policy atomically, in one
 * write(2) from offset 0 (a writer that splits it gets -EINVAL for the
 * rest); a read gives the canonical form of the one in force, generated
 * when the file is opened for reading.
 */
struct policy_dump {
	size_t len;
	char text[];
};

static int policy_open(struct inode *inode, struct file *file)
{
	struct vigil_loaded_policy *lp;
	struct policy_dump *d;
	size_t len;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	mutex_lock(&vigil_state_lock);
	lp = rcu_dereference_protected(vigil_policy_current,
				       lockdep_is_held(&vigil_state_lock));
	len = lp ? vigil_policy_dump(lp->policy, NULL, 0) : 0;
	d = kvmalloc(struct_size(d, text, len + 1), GFP_KERNEL);
	if (d) {
		d->len = lp ? vigil_policy_dump(lp->policy, d->text, len + 1) :
			      0;
		d->len = min(d->len, len);
	}
	mutex_unlock(&vigil_state_lock);
	if (!d)
		return -ENOMEM;
	file->private_data = d;
	return 0;
}

static int policy_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static ssize_t policy_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	struct policy_dump *d = file->private_data;

	if (!d)
		return -EBADF;
	return simple_read_from_buffer(buf, count, ppos, d->text, d->len);
}

static ssize_t policy_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char err[sizeof(policy_error)];
	char *text;
	int rc;

	if (!vigil_may_admin(file))
		return -EPERM;
	if (*ppos != 0)
		return -EINVAL;
	if (count > VIGIL_POLICY_MAX_BYTES)
		return -E2BIG;
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	rc = vigil_policy_replace(text, count, err, sizeof(err));
	kfree(text);
	mutex_lock(&policy_error_lock);
	strscpy(policy_error, err, sizeof(policy_error));
	mutex_unlock(&policy_error_lock);
	if (rc)
		return rc;
	/* A second chunk of the same write stream is refused, not loaded. */
	*ppos = count;
	return count;
}

static const struct file_operations policy_fops = {
	.open = policy_open,
	.release = policy_release,
	.read = policy_read,
	.write = policy_write,
	.llseek = generic_file_llseek,
};

static int policy_errors_show(struct seq_file *m, void *v)
{
	mutex_lock(&policy_error_lock);
	seq_puts(m, policy_error);
	mutex_unlock(&policy_error_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(policy_errors);

/*
 * Per unprivileged person: its tuples, their bytes, its pinned bytes,
 * first sightings held back (over its record rate), released (recorded
 * later) and dropped (its share all pinned, or no pin left).
 */
static void share_show(struct seq_file *m, const char *who,
		       const struct vigil_uid_share *us)
{
	seq_printf(m, "uid.%s.tuples %u\n", who, us->nr);
	seq_printf(m, "uid.%s.bytes %zu\n", who, us->bytes);
	seq_printf(m, "uid.%s.pinned_bytes %zu\n", who, us->pinned_bytes);
	seq_printf(m, "uid.%s.held %llu\n", who, us->held);
	seq_printf(m, "uid.%s.released %llu\n", who, us->released);
	seq_printf(m, "uid.%s.dropped %llu\n", who, us->dropped);
}

static void stats_shares(struct seq_file *m)
{
	struct vigil_uid_share *us;
	char who[16];
	int bkt;

	lockdep_assert_held(&vigil_table.lock);
	hash_for_each(vigil_table.uids, bkt, us, node) {
		scnprintf(who, sizeof(who), "%u",
			  from_kuid(&init_user_ns, us->uid));
		share_show(m, who, us);
	}
	share_show(m, "other", vigil_table.other);
}

static int stats_show(struct seq_file *m, void *v)
{
	struct vigil_loaded_policy *lp;
	enum vigil_stat s;
	enum vigil_op op;

	seq_printf(m, "mode %s\n", vigil_mode_name(vigil_mode_get()));
	rcu_read_lock();
	lp = rcu_dereference(vigil_policy_current);
	seq_printf(m, "policy.generation %u\n", lp ? lp->gen : 0);
	seq_printf(m, "policy.subjects %u\n",
		   lp ? vigil_policy_nr_subjects(lp->policy) : 0);
	seq_printf(m, "policy.rules %u\n",
		   lp ? vigil_policy_nr_rules(lp->policy) : 0);
	rcu_read_unlock();
	seq_printf(m, "subjects %u\n", vigil_subject_count());
	seq_printf(m, "subjects.folded %llu\n", vigil_subject_folded());
	spin_lock(&vigil_table.lock);
	seq_printf(m, "table.entries %u\n", vigil_table.nr);
	seq_printf(m, "table.bytes %zu\n", vigil_table.bytes);
	seq_printf(m, "table.max_bytes %zu\n", vigil_table.max_bytes);
	seq_printf(m, "table.evictions %lld\n",
		   atomic64_read(&vigil_table.evictions));
	seq_printf(m, "records.seq %llu\n", vigil_table.seq);
	seq_printf(m, "table.full %llu\n", vigil_table.full);
	seq_printf(m, "table.pinned %u\n", vigil_table.nr_pinned);
	seq_printf(m, "table.pinned_bytes %zu\n", vigil_table.pinned_bytes);
	seq_printf(m, "table.pin_refused %llu\n", vigil_table.pin_refused);
	seq_printf(m, "table.pinned_unprivileged_bytes %zu\n",
		   vigil_table.upinned_bytes);
	seq_printf(m, "table.held %u\n", vigil_table.nr_held);
	seq_printf(m, "records.released %llu\n", vigil_table.released);
	seq_printf(m, "records.dropped %llu\n", vigil_table.dropped);
	seq_printf(m, "table.persons %u\n", vigil_table.nr_uids);
	seq_printf(m, "table.persons_reclaimed %llu\n",
		   vigil_table.reclaimed);
	stats_shares(m);
	spin_unlock(&vigil_table.lock);
	for (s = 0; s < VIGIL_STAT_COUNT; s++)
		seq_printf(m, "%s %llu\n", vigil_stat_name(s),
			   vigil_stat_sum(s));
	for (op = 0; op < VIGIL_OP_COUNT; op++)
		seq_printf(m, "hook.%s %llu\n", vigil_op_name(op),
			   vigil_hook_sum(op));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/* Strings in the learned and subjects files: no space, no control bytes. */
static void seq_field(struct seq_file *m, const char *s, size_t len)
{
	seq_putc(m, ' ');
	seq_escape_mem(m, s, len, ESCAPE_OCTAL | ESCAPE_NAP | ESCAPE_APPEND,
		       " \\");
}

/*
 * The mount namespace: 0 (the initial one), its inode number, or
 * "INUM:ID" with its unique id, as a dead namespace's number may be
 * another's now.
 */
static void mntns_field(struct seq_file *m, u32 mntns, u64 id)
{
	if (mntns && id)
		seq_printf(m, " %u:%llu", mntns, id);
	else
		seq_printf(m, " %u", mntns);
}

/* A subject's exec chain, "-" when it has none. */
static void via_field(struct seq_file *m, const struct vigil_subject *s)
{
	if (s->via_len)
		seq_field(m, vigil_subject_via(s), s->via_len);
	else
		seq_puts(m, " -");
}

static void subject_show(const struct vigil_subject *s, void *arg)
{
	struct seq_file *m = arg;

	seq_printf(m, "%lld %lld %lld %lld",
		   atomic64_read(&s->execs), vigil_subject_events(s),
		   atomic64_read(&s->first_sightings),
		   atomic64_read(&s->would_deny));
	mntns_field(m, s->mntns, s->mntns_id);
	seq_field(m, s->exe, s->len);
	via_field(m, s);
	seq_putc(m, '\n');
}

static int subjects_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# execs events first_sightings would_deny mntns exe via\n");
	vigil_subjects_for_each(subject_show, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(subjects);

/*
 * The learned file: each open has a cursor in the table's fifo, parked
 * before the first tuple a read has not returned. A read resumes there in
 * O(1) with the lock held only for its chunk; tuples evicted meanwhile
 * are not counted against it (no skip), and the ones added come after it
 * (read once, at the end).
 *
 * A pinned tuple (its record was lost, or is held back) may go once a
 * snapshot has its line: only when the reader got that line whole. A
 * line seq_file buffered may be copied in part, or never, if the reader
 * closes the file; so a second cursor, done, stays before the tuples
 * read but not known delivered, and they are shown (unpinned) only when
 * seq_file starts a new chunk (it does only once the last one is copied
 * out whole) or the file is closed with nothing left in the buffer. The
 * file cannot seek: seq_file's traverse() would pass over lines it never
 * copies.
 */
struct learned_reader {
	struct vigil_entry cursor;
	struct vigil_entry done;
};

static void *learned_start(struct seq_file *m, loff_t *pos)
	__acquires(&vigil_table.lock)
{
	struct learned_reader *r = m->private;

	spin_lock(&vigil_table.lock);
	if (*pos == 0) {
		/* From the start again: nothing read is delivered. */
		list_del_init(&r->done.fifo);
		return SEQ_START_TOKEN;
	}
	/* seq_file's buffer is empty: every line in it was copied out. */
	vigil_table_delivered(&vigil_table, &r->done, &r->cursor);
	if (list_empty(&r->cursor.fifo))
		return NULL;
	return vigil_table_next(&vigil_table, &r->cursor.fifo);
}

static void *learned_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct vigil_entry *e = v;

	++*pos;
	return vigil_table_next(&vigil_table, v == SEQ_START_TOKEN ?
				&vigil_table.fifo : &e->fifo);
}

/* @v: the tuple the next read starts with, NULL at the end. */
static void learned_stop(struct seq_file *m, void *v)
	__releases(&vigil_table.lock)
{
	struct learned_reader *r = m->private;

	if (v == SEQ_START_TOKEN)
		list_del_init(&r->cursor.fifo);
	else
		vigil_table_cursor_park(&vigil_table, &r->cursor, v);
	spin_unlock(&vigil_table.lock);
}

static int learned_show(struct seq_file *m, void *v)
{
	struct vigil_entry *e;
	char access[64];

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "# seq verdict op access count first last uid mntns exe object via [netns]\n");
		return 0;
	}
	e = v;
	vigil_access_format(vigil_op_class(e->key.op), e->key.access, access,
			    sizeof(access));
	seq_printf(m, "%llu %s %s %s %lld %lld %lld %u", e->seq,
		   vigil_verdict_name(e->verdict), vigil_op_name(e->key.op),
		   access, atomic64_read(&e->count), e->first,
		   vigil_entry_last(e), from_kuid(&init_user_ns, e->uid));
	mntns_field(m, e->mntns, e->mntns_id);
	seq_field(m, e->key.subj->exe, e->key.subj->len);
	if (e->objlen)
		seq_field(m, e->obj, e->objlen);
	else
		seq_puts(m, " ?");
	via_field(m, e->key.subj);
	/* Another network namespace's abstract unix name: its cookie. */
	if (vigil_entry_netns(e))
		seq_printf(m, " %llu", vigil_entry_netns(e));
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations learned_sops = {
	.start = learned_start,
	.next = learned_next,
	.stop = learned_stop,
	.show = learned_show,
};

static int learned_open(struct inode *inode, struct file *file)
{
	struct learned_reader *r;

	r = __seq_open_private(file, &learned_sops, sizeof(*r));
	if (!r)
		return -ENOMEM;
	vigil_table_cursor_init(&r->cursor);
	vigil_table_cursor_init(&r->done);
	return nonseekable_open(inode, file);
}

static int learned_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct learned_reader *r = m->private;

	spin_lock(&vigil_table.lock);
	/* The last chunk was copied out whole: its tuples were delivered. */
	if (!m->count)
		vigil_table_delivered(&vigil_table, &r->done, &r->cursor);
	list_del_init(&r->done.fifo);
	spin_unlock(&vigil_table.lock);
	vigil_table_cursor_drop(&vigil_table, &r->cursor);
	return seq_release_private(inode, file);
}

static const struct file_operations learned_fops = {
	.open = learned_open,
	.read = seq_read,
	.llseek = noop_llseek,	/* never called: nonseekable_open() */
	.release = learned_release,
};

/*
 * owners: the subordinate uid ranges and their owners, "FIRST COUNT
 * OWNER" a line (person.c); a write replaces the map in one write(2)
 * from offset 0, an empty one removes it. Root only: it says who holds
 * which uids.
 */
#define OWNERS_MAX_BYTES (VIGIL_OWNERS_MAX * 33)

static ssize_t owners_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	size_t len;
	char *text = vigil_owners_dump(&len);
	ssize_t rc;

	if (!text)
		return -ENOMEM;
	rc = simple_read_from_buffer(buf, count, ppos, text, len);
	kvfree(text);
	return rc;
}

static ssize_t owners_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct vigil_owners *o;
	char err[128];
	char *text;
	int rc;

	if (!vigil_may_admin(file))
		return -EPERM;
	if (*ppos != 0)
		return -EINVAL;
	if (count > OWNERS_MAX_BYTES)
		return -E2BIG;
	text = kvmalloc(count + 1, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	if (copy_from_user(text, ubuf, count)) {
		kvfree(text);
		return -EFAULT;
	}
	text[count] = '\0';
	rc = vigil_owners_parse(text, &o, err, sizeof(err));
	kvfree(text);
	if (rc) {
		pr_warn_ratelimited("vigil: owners rejected: %s\n", err);
		return rc;
	}
	vigil_owners_replace(o);
	*ppos = count;
	return count;
}

static const struct file_operations owners_fops = {
	.read = owners_read,
	.write = owners_write,
	.llseek = generic_file_llseek,
};

static const struct {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
} vigil_files[] = {
	{ "mode", 0644, &mode_fops },
	{ "policy", 0600, &policy_fops },
	{ "policy_errors", 0400, &policy_errors_fops },
	/* Its counters would let any user watch the others' activity. */
	{ "stats", 0400, &stats_fops },
	{ "subjects", 0400, &subjects_fops },
	{ "learned", 0400, &learned_fops },
	{ "table_kb", 0644, &table_kb_fops },
	{ "owners", 0600, &owners_fops },
};

static struct dentry *vigil_dentries[ARRAY_SIZE(vigil_files) + 1];

static int __init vigil_securityfs_init(void)
{
	struct dentry *d;
	int i, n = 0;

	if (!vigil_enabled)
		return 0;
	d = securityfs_create_dir("vigil", NULL);
	if (IS_ERR(d))
		return PTR_ERR(d);
	vigil_dentries[n++] = d;
	for (i = 0; i < ARRAY_SIZE(vigil_files); i++) {
		d = securityfs_create_file(vigil_files[i].name,
					   vigil_files[i].mode, vigil_dentries[0],
					   NULL, vigil_files[i].fops);
		if (IS_ERR(d))
			goto out_remove;
		vigil_dentries[n++] = d;
	}
	/* The boot parameter's mode takes effect now that hooks can record. */
	mutex_lock(&vigil_state_lock);
	vigil_active_update();
	mutex_unlock(&vigil_state_lock);
	return 0;

out_remove:
	while (n--)
		securityfs_remove(vigil_dentries[n]);
	return PTR_ERR(d);
}
fs_initcall(vigil_securityfs_init);
