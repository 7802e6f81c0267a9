import sys
root='/work/wt-25/kernel/security/vigil/'
def sub(p, old, new):
    s=open(root+p).read()
    if old not in s:
        sys.exit("not found in %s: %s" % (p, old[:80]))
    s=s.replace(old,new,1)
    open(root+p,'w').write(s)
sub('hooks_fs.c','''#include <linux/security.h>
''','''#include <linux/security.h>
#include <linux/shmem_fs.h>
''')
sub('hooks_fs.c','''/* Pipes, sockets and anonymous inodes have no name worth learning. */
static bool file_is_internal(const struct file *file)
{
	return file->f_path.mnt->mnt_sb->s_flags & SB_NOUSER;
}
''','''/* Pipes, sockets and anonymous inodes have no name worth learning. */
static bool file_is_internal(const struct file *file)
{
	return file->f_path.mnt->mnt_sb->s_flags & SB_NOUSER;
}

/*
 * An executable mapping of a file with no path: shared memory (a memfd,
 * SysV shm), which is how code runs without a file, is named as
 * /proc/PID/maps names it ("/memfd:NAME", "/SYSV0000002a"); any other
 * internal file is skipped.
 */
static void internal_mmap_event(struct file *file, bool may_sleep)
{
	char name[NAME_MAX + 2];

	if (!shmem_file(file))
		return;
	rcu_read_lock();
	snprintf(name, sizeof(name), "/%s",
		 READ_ONCE(file->f_path.dentry->d_name.name));
	rcu_read_unlock();
	unnamed_event(VIGIL_OP_MMAP, VIGIL_FILE_M, name, may_sleep);
}
''')
sub('hooks_fs.c','''	if (!file)
		unnamed_event(VIGIL_OP_MMAP, VIGIL_FILE_M, "(anonymous)", true);
	else if (!file_is_internal(file))
		path_event(VIGIL_OP_MMAP, VIGIL_FILE_M, &file->f_path, true);
	return 0;''','''	if (!file)
		unnamed_event(VIGIL_OP_MMAP, VIGIL_FILE_M, "(anonymous)", true);
	else if (file_is_internal(file))
		internal_mmap_event(file, true);
	else
		path_event(VIGIL_OP_MMAP, VIGIL_FILE_M, &file->f_path, true);
	return 0;''')
sub('hooks_fs.c','''	if (!file)
		unnamed_event(VIGIL_OP_MMAP, VIGIL_FILE_M, "(anonymous)", false);
	else if (!file_is_internal(file))
		path_event(VIGIL_OP_MMAP, VIGIL_FILE_M, &file->f_path, false);
	return 0;''','''	if (!file)
		unnamed_event(VIGIL_OP_MMAP, VIGIL_FILE_M, "(anonymous)", false);
	else if (file_is_internal(file))
		internal_mmap_event(file, false);
	else
		path_event(VIGIL_OP_MMAP, VIGIL_FILE_M, &file->f_path, false);
	return 0;''')
print("ok")
