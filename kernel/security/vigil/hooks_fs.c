// SPDX-License-Identifier: GPL-2.0-only
/* vigil: file system hooks (open, exec, mmap, create ... ioctl, mount). */

#include <linux/binfmts.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hugetlb.h>
#include <linux/ipc.h>
#include <linux/kernel_read_file.h>
#include <linux/magic.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/security.h>
#include <linux/shmem_fs.h>
#include <linux/stat.h>

#include "access.h"
#include "hooks.h"
#include "path.h"
#include "subject.h"
#include "vigil.h"

/*
 * @may_sleep: the hook is called where it may sleep with no inode lock
 * held (exec, mmap, flock, ioctl, mount, module reading), so a record may
 * wait for audit's backlog. The path_* hooks run under the parent
 * directory's lock, which auditd may need: they never wait. Nor does
 * file_open: it may run under the directory's lock (atomic_open on 9p,
 * NFS, FUSE), with mnt_want_write() held (O_TRUNC) or under io_uring's
 * locks; a record it could not hand over is kept in the table (pinned)
 * for vigil snapshot.
 */
/*
 * A file access the fast path did not count. Apart, so that the access is
 * cleared only here (CONFIG_INIT_STACK_ALL_ZERO clears it where it is
 * declared: a "rep stos" of 112 bytes, slow under emulation, that every
 * repeat paid before).
 */
static noinline void path_event_slow(const struct cred *cred,
				     enum vigil_op op, u64 access,
				     const struct path *path, bool may_sleep)
{
	struct vigil_access acc = {
		.op = op,
		.access = access,
		.path = path,
		.ad.type = LSM_AUDIT_DATA_NONE,
		.may_sleep = may_sleep,
	};

	vigil_observe(cred, &acc);
}

static void path_event(enum vigil_op op, u64 access, const struct path *path,
		       bool may_sleep)
{
	const struct cred *cred = current_real_cred();

	/* A repeat: counted before the access is built (access.c). */
	if (!vigil_observe_file(cred, op, access, path))
		path_event_slow(cred, op, access, path, may_sleep);
}

/*
 * A name in a directory: the name may not exist yet, or be on its way
 * out, so the object is the directory's path and the name, never the
 * dentry's own path (which d_path() would mark " (deleted)").
 */
static void dentry_event(enum vigil_op op, u64 access, const struct path *dir,
			 const struct dentry *dentry)
{
	struct vigil_access acc = {
		.op = op,
		.access = access,
		.path = dir,
		.child = dentry,
		.ad.type = LSM_AUDIT_DATA_NONE,
	};

	vigil_observe(current_real_cred(), &acc);
}

/*
 * An O_TMPFILE file, created unlinked in a folder: an open with create in
 * that folder, named as the kernel names it there ("DIR/#INO", without
 * " (deleted)"), one tuple per folder and access whatever its number.
 */
static void tmpfile_event(u64 access, struct file *file)
{
	struct path dir = {
		.mnt = file->f_path.mnt,
		.dentry = file->f_path.dentry->d_parent,
	};
	struct vigil_access acc = {
		.op = VIGIL_OP_OPEN,
		.access = access,
		.path = &dir,
		.child = file->f_path.dentry,
		.tmpfile = true,
		.ad.type = LSM_AUDIT_DATA_NONE,
	};

	vigil_observe(current_real_cred(), &acc);
}

/* An executable mapping of no file: its object is "(anonymous)". */
/*
 * An access to an object with no path (an anonymous mapping, a module
 * loaded from memory): NAME, a constant such as "(anonymous)", stands for
 * it.
 */
static void unnamed_event(enum vigil_op op, u64 access, const char *name,
			  bool may_sleep)
{
	struct vigil_access acc = {
		.op = op,
		.access = access,
		.target = name,
		.target_len = strlen(name),
		.ad.type = LSM_AUDIT_DATA_NONE,
		.may_sleep = may_sleep,
	};

	vigil_observe(current_real_cred(), &acc);
}

/* Pipes, sockets and anonymous inodes have no name worth learning. */
static bool file_is_internal(const struct file *file)
{
	return file->f_path.mnt->mnt_sb->s_flags & SB_NOUSER;
}

/*
 * An executable mapping of a file with no path: shared memory (a memfd,
 * SysV shm, on shmem or hugetlbfs), which is how code runs without a
 * file, is named as /proc/PID/maps names it ("/memfd:NAME",
 * "/SYSV0000002a"), one tuple per name; any other internal file is
 * skipped. A memfd's creator is the subject of the credentials it was
 * opened with (memfd_create() opens it): code one program wrote and
 * another runs (a descriptor passed, inherited or opened by
 * /proc/PID/fd) is a tuple of its own, its record names the writer. A
 * SysV segment's mapping is a file shmat() made for the mapping task
 * (its f_cred is the mapper's), but of the segment's own inode, which
 * names the segment's creator (vigil_inode_alloc_security()): shmat()
 * and mprotect() of any attachment, by any task, and of the segment's
 * file reopened through /proc/PID/map_files.
 */
static void internal_mmap_event(struct file *file, bool may_sleep)
{
	const struct inode *inode = file_inode(file);
	char name[NAME_MAX + 2];
	struct vigil_access acc = {
		.op = VIGIL_OP_MMAP,
		.access = VIGIL_FILE_M,
		.target = name,
		.ad.type = LSM_AUDIT_DATA_NONE,
		.may_sleep = may_sleep,
	};

	if (!shmem_file(file) && !is_file_hugepages(file))
		return;
	rcu_read_lock();
	snprintf(name, sizeof(name), "/%s",
		 READ_ONCE(file->f_path.dentry->d_name.name));
	rcu_read_unlock();
	acc.target_len = strlen(name);
	if (str_has_prefix(name, "/memfd:"))
		acc.creator = vigil_subject_of(file->f_cred);
	else if (str_has_prefix(name, "/SYSV") && inode->i_security)
		acc.creator = READ_ONCE(vigil_inode(inode)->shm_creator);
	vigil_observe(current_real_cred(), &acc);
}

/* What an open file gives: r, w or a. */
static u64 file_access(const struct file *file)
{
	u64 access = 0;

	if (file->f_mode & FMODE_READ)
		access |= VIGIL_FILE_R;
	if (file->f_mode & FMODE_WRITE)
		access |= (file->f_flags & O_APPEND) ? VIGIL_FILE_A :
						       VIGIL_FILE_W;
	return access;
}

static int vigil_file_open(struct file *file)
{
	u64 access;

	if (!vigil_should_observe() || file_is_internal(file))
		return 0;
	access = file_access(file);
	/*
	 * O_CREAT asks for create even when the file exists (AppArmor asks
	 * for its create bit then too): recorded as c, so that a policy
	 * tried in observe mode needs what the exported policy will need.
	 * The VFS clears O_CREAT from f_flags only after this hook.
	 */
	if (file->f_flags & O_CREAT)
		access |= VIGIL_FILE_C;
	if (!access)
		return 0;
	if ((file->f_flags & __O_TMPFILE) && d_unlinked(file->f_path.dentry))
		tmpfile_event(access | VIGIL_FILE_C, file);
	else
		path_event(VIGIL_OP_OPEN, access, &file->f_path, false);
	return 0;
}

/*
 * A descriptor received (SCM_RIGHTS, pidfd_getfd(), seccomp's addfd,
 * binder): an open by the receiver with the access the descriptor gives,
 * as AppArmor checks it then, so that a file handed to a program is judged
 * and learned as the program's own open of it. Sockets and pipes are
 * skipped as at open. Never waits for audit: a caller may hold a socket's
 * lock.
 */
static int vigil_file_receive(struct file *file)
{
	u64 access;

	if (!vigil_should_observe() || file_is_internal(file))
		return 0;
	access = file_access(file);
	if (access)
		path_event(VIGIL_OP_OPEN, access, &file->f_path, false);
	return 0;
}

/* iterate_fd()'s callback: the first open descriptor from where it starts. */
static int next_fd(const void *unused, struct file *file, unsigned int fd)
{
	return fd + 1;
}

/**
 * vigil_inherited_files - judge the descriptors a program inherits
 * @cred: the credentials of the exec, with the new program's subject
 *
 * From bprm_committing_creds, after the close-on-exec descriptors are
 * closed and the table unshared: each file the task still holds (not
 * pipes or sockets, as at open; not O_PATH) is learned and judged as the
 * new program's open of it, with its f_mode's access, as AppArmor
 * revalidates inherited files at an exec. Otherwise a file opened by a
 * shell (or any program allowed to) and inherited as stdin or another
 * descriptor is read or written by the new program with no record and no
 * would-be denial.
 *
 * Each file is judged with a reference of its own, outside the table's
 * lock: vigil_observe() may take task_lock(), which /proc/PID/fdinfo
 * takes before the table's lock. The exec holds its exec_update_lock:
 * a record never waits for audit (a lost one is pinned). May sleep.
 */
void vigil_inherited_files(const struct cred *cred)
{
	struct file *file;
	int fd = 0;

	if (!vigil_should_observe())
		return;
	while ((fd = iterate_fd(current->files, fd, next_fd, NULL)) > 0) {
		file = fget(fd - 1);
		if (file && !file_is_internal(file)) {
			struct vigil_access acc = {
				.op = VIGIL_OP_OPEN,
				.access = file_access(file),
				.path = &file->f_path,
				.ad.type = LSM_AUDIT_DATA_NONE,
			};

			if (acc.access)
				vigil_observe(cred, &acc);
		}
		if (file)
			fput(file);
		cond_resched();
	}
}

static int vigil_bprm_check_security(struct linux_binprm *bprm)
{
	if (vigil_should_observe())
		path_event(VIGIL_OP_EXEC, VIGIL_FILE_X, &bprm->file->f_path,
			   true);
	return 0;
}

static int vigil_mmap_file(struct file *file, unsigned long reqprot,
			   unsigned long prot, unsigned long flags)
{
	if (!vigil_should_observe() || !(prot & PROT_EXEC))
		return 0;
	if (!file)
		unnamed_event(VIGIL_OP_MMAP, VIGIL_FILE_M, "(anonymous)", true);
	else if (file_is_internal(file))
		internal_mmap_event(file, true);
	else
		path_event(VIGIL_OP_MMAP, VIGIL_FILE_M, &file->f_path, true);
	return 0;
}

/* mprotect() making a file mapping executable: as mmap with PROT_EXEC. */
static int vigil_file_mprotect(struct vm_area_struct *vma,
			       unsigned long reqprot, unsigned long prot)
{
	struct file *file = vma->vm_file;

	if (!vigil_should_observe() || !(prot & PROT_EXEC) ||
	    (vma->vm_flags & VM_EXEC))
		return 0;
	/* mmap_lock is held: never wait for audit. */
	if (!file)
		unnamed_event(VIGIL_OP_MMAP, VIGIL_FILE_M, "(anonymous)", false);
	else if (file_is_internal(file))
		internal_mmap_event(file, false);
	else
		path_event(VIGIL_OP_MMAP, VIGIL_FILE_M, &file->f_path, false);
	return 0;
}

static int vigil_file_lock(struct file *file, unsigned int cmd)
{
	if (vigil_should_observe() && !file_is_internal(file))
		path_event(VIGIL_OP_LOCK, VIGIL_FILE_K, &file->f_path, true);
	return 0;
}

static int vigil_file_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	if (vigil_should_observe() && !file_is_internal(file))
		path_event(VIGIL_OP_IOCTL, VIGIL_FILE_I, &file->f_path, true);
	return 0;
}

static int vigil_path_mknod(const struct path *dir, struct dentry *dentry,
			    umode_t mode, unsigned int dev)
{
	if (vigil_should_observe())
		dentry_event(S_ISREG(mode) || !(mode & S_IFMT) ?
			     VIGIL_OP_CREATE : VIGIL_OP_MKNOD,
			     VIGIL_FILE_C, dir, dentry);
	return 0;
}

static int vigil_path_mkdir(const struct path *dir, struct dentry *dentry,
			    umode_t mode)
{
	if (vigil_should_observe())
		dentry_event(VIGIL_OP_MKDIR, VIGIL_FILE_C, dir, dentry);
	return 0;
}

static int vigil_path_rmdir(const struct path *dir, struct dentry *dentry)
{
	if (vigil_should_observe())
		dentry_event(VIGIL_OP_RMDIR, VIGIL_FILE_D, dir, dentry);
	return 0;
}

static int vigil_path_unlink(const struct path *dir, struct dentry *dentry)
{
	if (vigil_should_observe())
		dentry_event(VIGIL_OP_UNLINK, VIGIL_FILE_D, dir, dentry);
	return 0;
}

static int vigil_path_symlink(const struct path *dir, struct dentry *dentry,
			      const char *old_name)
{
	if (vigil_should_observe())
		dentry_event(VIGIL_OP_SYMLINK, VIGIL_FILE_C, dir, dentry);
	return 0;
}

/* Both names: the new one, and the file linked (same mount as new_dir). */
static int vigil_path_link(struct dentry *old_dentry,
			   const struct path *new_dir,
			   struct dentry *new_dentry)
{
	struct path old = { .mnt = new_dir->mnt, .dentry = old_dentry };

	if (!vigil_should_observe())
		return 0;
	dentry_event(VIGIL_OP_LINK, VIGIL_FILE_L, new_dir, new_dentry);
	path_event(VIGIL_OP_LINK, VIGIL_FILE_L, &old, false);
	return 0;
}

static int vigil_path_rename(const struct path *old_dir,
			     struct dentry *old_dentry,
			     const struct path *new_dir,
			     struct dentry *new_dentry, unsigned int flags)
{
	if (!vigil_should_observe())
		return 0;
	dentry_event(VIGIL_OP_RENAME, VIGIL_FILE_D, old_dir, old_dentry);
	dentry_event(VIGIL_OP_RENAME, VIGIL_FILE_C, new_dir, new_dentry);
	return 0;
}

/*
 * A folder's rename (each side of an exchange comes here on its own): the
 * names beneath it get new paths, so new tuples (vigil_folder_moving()).
 * Not behind vigil_active: a move while vigil is off must still part the
 * tuples made before it from those made after.
 */
static int vigil_inode_rename(struct inode *old_dir, struct dentry *old_dentry,
			      struct inode *new_dir, struct dentry *new_dentry)
{
	if (d_is_dir(old_dentry))
		vigil_folder_moving(old_dentry, new_dentry);
	return 0;
}

static int vigil_path_truncate(const struct path *path)
{
	if (vigil_should_observe())
		path_event(VIGIL_OP_TRUNCATE, VIGIL_FILE_T, path, false);
	return 0;
}

/* 6.12: ftruncate(2) and open(O_TRUNC); 6.1 calls path_truncate for them. */
static int __maybe_unused vigil_file_truncate(struct file *file)
{
	return vigil_path_truncate(&file->f_path);
}

static int vigil_path_chmod(const struct path *path, umode_t mode)
{
	if (vigil_should_observe())
		path_event(VIGIL_OP_CHMOD, VIGIL_FILE_S, path, false);
	return 0;
}

static int vigil_path_chown(const struct path *path, kuid_t uid, kgid_t gid)
{
	if (vigil_should_observe())
		path_event(VIGIL_OP_CHOWN, VIGIL_FILE_S, path, false);
	return 0;
}

/*
 * Setting and removing extended attributes: 6.1's hooks give only the
 * dentry, so the path is found through a mount of its file system that
 * reaches it (vigil_dentry_mount): the initial root's, else the task's
 * root's or working folder's. Called under the inode's lock: never waits.
 */
static void xattr_event(enum vigil_op op, struct dentry *dentry)
{
	struct vigil_access acc = {
		.op = op,
		.access = VIGIL_FILE_S,
		.ad.type = LSM_AUDIT_DATA_NONE,
	};
	static const char unknown[] = "?";
	struct path path;

	if (vigil_dentry_mount(dentry, &path)) {
		acc.path = &path;
		vigil_observe(current_real_cred(), &acc);
		path_put(&path);
		return;
	}
	/* No mount reaches it: still an access, named "?". */
	acc.target = unknown;
	acc.target_len = sizeof(unknown) - 1;
	vigil_observe(current_real_cred(), &acc);
}

/* The capability check these hooks integrate: see compat.h. */
static int vigil_inode_setxattr(vigil_xattr_idmap *idmap,
				struct dentry *dentry, const char *name,
				const void *value, size_t size, int flags)
{
	if (vigil_should_observe())
		xattr_event(VIGIL_OP_SETXATTR, dentry);
	return vigil_setxattr_cap(idmap, dentry, name, value, size, flags);
}

static int vigil_inode_removexattr(vigil_xattr_idmap *idmap,
				   struct dentry *dentry, const char *name)
{
	if (vigil_should_observe())
		xattr_event(VIGIL_OP_REMOVEXATTR, dentry);
	return vigil_removexattr_cap(idmap, dentry, name);
}

static int vigil_sb_mount(const char *dev_name, const struct path *path,
			  const char *type, unsigned long flags, void *data)
{
	if (vigil_should_observe())
		path_event(VIGIL_OP_MOUNT, VIGIL_MOUNT_MOUNT, path, true);
	return 0;
}

/* The new mount API: move_mount(2) attaches a mount at to_path. */
static int vigil_move_mount(const struct path *from_path,
			    const struct path *to_path)
{
	if (vigil_should_observe())
		path_event(VIGIL_OP_MOUNT, VIGIL_MOUNT_MOUNT, to_path, true);
	return 0;
}

static int vigil_sb_umount(struct vfsmount *mnt, int flags)
{
	struct path path = { .mnt = mnt, .dentry = mnt->mnt_root };

	if (vigil_should_observe())
		path_event(VIGIL_OP_UMOUNT, VIGIL_MOUNT_UMOUNT, &path, true);
	return 0;
}

static int vigil_kernel_read_file(struct file *file,
				  enum kernel_read_file_id id, bool contents)
{
	if (vigil_should_observe() && id == READING_MODULE && file)
		path_event(VIGIL_OP_MODULE, VIGIL_MODULE_LOAD, &file->f_path,
			   true);
	return 0;
}

static int vigil_kernel_load_data(enum kernel_load_data_id id, bool contents)
{
	if (vigil_should_observe() && id == LOADING_MODULE)
		unnamed_event(VIGIL_OP_MODULE, VIGIL_MODULE_LOAD, "(memory)",
			      true);
	return 0;
}

/*
 * A SysV shared memory segment's creator. shmget() (ipc/shm.c: newseg())
 * calls shm_alloc_security, then makes the segment's file on the internal
 * tmpfs mount: the task's next inode allocation is the segment's inode,
 * which every shmat() of the segment maps (alloc_file_clone() shares its
 * path) and which lives as long as the segment or any attachment.
 * The inode keeps a reference to the creator's subject, so its id names
 * no other subject while a mapping can name it. A shmget() that fails
 * between the two leaves the mark to the task's next inode allocation,
 * which clears it, and tags it only if it is an internal tmpfs inode (a
 * memfd, shared anonymous memory), with the task's own subject; only a
 * "SYSV" name reads the tag, and only newseg() makes those, each after
 * marking afresh. Not for hugetlbfs segments: their mount is not an
 * internal one (SB_NOUSER), so their mapping takes the file way.
 */
static int vigil_shm_alloc_security(struct kern_ipc_perm *perm)
{
	if (vigil_should_observe() && current->security)
		vigil_task(current)->shm_creating = true;
	return 0;
}

static int vigil_inode_alloc_security(struct inode *inode)
{
	struct vigil_task *vt;
	struct super_block *sb = inode->i_sb;

	if (!vigil_should_observe() || !current->security)
		return 0;
	vt = vigil_task(current);
	if (likely(!vt->shm_creating))
		return 0;
	vt->shm_creating = false;
	if (inode->i_security && sb->s_magic == TMPFS_MAGIC &&
	    (sb->s_flags & SB_NOUSER))
		vigil_inode(inode)->shm_creator =
			vigil_subject_get(vigil_subject_of(current_real_cred()));
	return 0;
}

/* Any context: vigil_subject_put() may be called from any. */
static void vigil_inode_free_security(struct inode *inode)
{
	struct vigil_inode *vi;

	if (!inode->i_security)
		return;
	vi = vigil_inode(inode);
	if (unlikely(vi->shm_creator)) {
		vigil_subject_put(vi->shm_creator);
		vi->shm_creator = NULL;
	}
}

static struct security_hook_list fs_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(file_open, vigil_file_open),
	LSM_HOOK_INIT(file_receive, vigil_file_receive),
	LSM_HOOK_INIT(bprm_check_security, vigil_bprm_check_security),
	LSM_HOOK_INIT(mmap_file, vigil_mmap_file),
	LSM_HOOK_INIT(file_mprotect, vigil_file_mprotect),
	LSM_HOOK_INIT(file_lock, vigil_file_lock),
	LSM_HOOK_INIT(file_ioctl, vigil_file_ioctl),
	/* 32-bit ioctls on a 64-bit kernel (backported to 6.1.y from 6.8) */
	LSM_HOOK_INIT(file_ioctl_compat, vigil_file_ioctl),
	LSM_HOOK_INIT(path_mknod, vigil_path_mknod),
	LSM_HOOK_INIT(path_mkdir, vigil_path_mkdir),
	LSM_HOOK_INIT(path_rmdir, vigil_path_rmdir),
	LSM_HOOK_INIT(path_unlink, vigil_path_unlink),
	LSM_HOOK_INIT(path_symlink, vigil_path_symlink),
	LSM_HOOK_INIT(path_link, vigil_path_link),
	LSM_HOOK_INIT(path_rename, vigil_path_rename),
	LSM_HOOK_INIT(inode_rename, vigil_inode_rename),
	LSM_HOOK_INIT(path_truncate, vigil_path_truncate),
#ifdef VIGIL_HAS_FILE_TRUNCATE
	LSM_HOOK_INIT(file_truncate, vigil_file_truncate),
#endif
	LSM_HOOK_INIT(path_chmod, vigil_path_chmod),
	LSM_HOOK_INIT(path_chown, vigil_path_chown),
	LSM_HOOK_INIT(inode_setxattr, vigil_inode_setxattr),
	LSM_HOOK_INIT(inode_removexattr, vigil_inode_removexattr),
	LSM_HOOK_INIT(sb_mount, vigil_sb_mount),
	LSM_HOOK_INIT(move_mount, vigil_move_mount),
	LSM_HOOK_INIT(sb_umount, vigil_sb_umount),
	LSM_HOOK_INIT(kernel_read_file, vigil_kernel_read_file),
	LSM_HOOK_INIT(kernel_load_data, vigil_kernel_load_data),
	LSM_HOOK_INIT(shm_alloc_security, vigil_shm_alloc_security),
	LSM_HOOK_INIT(inode_alloc_security, vigil_inode_alloc_security),
	LSM_HOOK_INIT(inode_free_security, vigil_inode_free_security),
};

void __init vigil_fs_hooks_init(void)
{
	security_add_hooks(fs_hooks, ARRAY_SIZE(fs_hooks), VIGIL_LSM_ID);
}
