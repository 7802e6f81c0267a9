// SPDX-License-Identifier: GPL-2.0-only
/* vigil: the control and statistics files in /sys/kernel/security/vigil/. */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "vigil.h"

/* Longest write accepted by the mode file: a name and a newline. */
#define MODE_WRITE_MAX 16

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

static ssize_t mode_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	char tmp[MODE_WRITE_MAX];
	int len;

	len = scnprintf(tmp, sizeof(tmp), "%s\n",
			vigil_mode_name(vigil_mode_get()));
	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

static ssize_t mode_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	char tmp[MODE_WRITE_MAX];
	enum vigil_mode m;

	if (!vigil_may_admin(file))
		return -EPERM;
	if (*ppos != 0)
		return -EINVAL;
	if (count >= sizeof(tmp))
		return -E2BIG;
	if (copy_from_user(tmp, buf, count))
		return -EFAULT;
	if (vigil_mode_parse(tmp, count, &m))
		return -EINVAL;
	vigil_mode_set(m);
	return count;
}

static const struct file_operations mode_fops = {
	.read = mode_read,
	.write = mode_write,
	.llseek = generic_file_llseek,
};

static int stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "hook.capable %llu\n", vigil_capable_calls());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static const struct {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
} vigil_files[] = {
	{ "mode", 0644, &mode_fops },
	{ "stats", 0444, &stats_fops },
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
	return 0;

out_remove:
	while (n--)
		securityfs_remove(vigil_dentries[n]);
	return PTR_ERR(d);
}
fs_initcall(vigil_securityfs_init);
