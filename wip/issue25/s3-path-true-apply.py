import sys
root='/work/wt-25/kernel/security/vigil/'
def sub(p, old, new, count=1):
    s=open(root+p).read()
    if old not in s:
        sys.exit("not found in %s: %s" % (p, old[:80]))
    s=s.replace(old,new,count)
    open(root+p,'w').write(s)

# vigil.h: the inode blob, the key
sub('vigil.h','''/* An inode's identity: never reused, given when vigil first keys it. */
struct vigil_inode {
	atomic64_t id;
};
''','''/*
 * An inode's identity: never reused, given when vigil first keys it; and
 * for a folder, its last move (access.c: path_moved()).
 */
struct vigil_inode {
	atomic64_t id;
	u64 moved;	/* the move's number when its rename was asked; 0: none */
	u64 moved_to;	/* where to: move_sig() of its new parent and name */
};

static inline struct vigil_inode *vigil_inode(const struct inode *inode)
{
	return inode->i_security + vigil_blob_sizes.lbs_inode;
}

void vigil_folder_moving(const struct dentry *dentry,
			 const struct dentry *to);
''')
sub('vigil.h','''	u32 uid_key;	/* vigil_uid_key() of the task's real uid */
''','''	u32 uid_key;	/* vigil_uid_key() of the task's real uid */
	/*
	 * A file's: the newest move of a folder above it (access.c), so
	 * that no tuple made through a folder's old path is found through
	 * its new one.
	 */
	u64 moved;
''')

# table.c: hash and compare it
sub('table.c','''	u32 words[14];
''','''	u32 words[16];
''')
sub('table.c','''	words[13] = key->uid_key;
''','''	words[13] = key->uid_key;
	words[14] = (u32)key->moved;
	words[15] = (u32)(key->moved >> 32);
''')
sub('table.c','''	    k->uid_key != key->uid_key)
''','''	    k->uid_key != key->uid_key || k->moved != key->moved)
''')

# access.c
sub('access.c','''	vi = inode->i_security + vigil_blob_sizes.lbs_inode;
	id = atomic64_read(&vi->id);''','''	vi = vigil_inode(inode);
	id = atomic64_read(&vi->id);''')
sub('access.c','''/*
 * A file object's identity without a path walk:''','''/*
 * Folder moves since boot: each rename of a folder takes the next number.
 * A file's key holds the newest number of the folders above it, so a
 * rename of any of them gives the names beneath new tuples: the verdict
 * and the record of a tuple are its path's, and that path changed.
 */
static atomic64_t folder_moves = ATOMIC64_INIT(0);

/* Moved, but not where its rename takes it (under way, or it failed). */
#define VIGIL_MOVING BIT_ULL(63)
/* Folders above a file looked at, at most: past them, a stamp of its own. */
#define VIGIL_MOVED_DEPTH 256

/* A folder's place: its parent and its name's hash and length. */
static u64 move_sig(const struct dentry *parent, u64 hash_len)
{
	return (u64)(unsigned long)parent ^ hash_len;
}

/**
 * vigil_folder_moving - a folder is about to be renamed
 * @dentry: the folder
 * @to: the dentry whose place it takes
 *
 * Called before the rename (security_inode_rename(), for each side of an
 * exchange): from now on the names beneath it count it as moved, with
 * VIGIL_MOVING until it is at @to's place (path_moved()), so that an
 * access made between this hook and the move never leaves a tuple that
 * the new path finds.
 */
void vigil_folder_moving(const struct dentry *dentry, const struct dentry *to)
{
	struct inode *inode = d_backing_inode(dentry);
	struct vigil_inode *vi;

	if (!inode || !inode->i_security)
		return;
	vi = vigil_inode(inode);
	WRITE_ONCE(vi->moved_to, move_sig(to->d_parent, to->d_name.hash_len));
	/* A walk that reads the new number reads the new place too. */
	smp_store_release(&vi->moved, atomic64_inc_return(&folder_moves));
}

/*
 * The newest move of the folders from @d up to its file system's root, 0
 * when none moved since boot. Under rcu_read_lock(): dentries and inode
 * blobs are freed after a grace period. A rename racing with the walk
 * gives at worst a number no tuple has yet (a first sighting more); a
 * rename of a folder above the file system's mount point is not seen.
 */
static u64 path_moved(const struct dentry *d)
{
	const struct dentry *parent;
	const struct vigil_inode *vi;
	const struct inode *inode;
	unsigned int depth;
	u64 newest = 0, m;

	if (!atomic64_read(&folder_moves))
		return 0;
	for (depth = 0; depth < VIGIL_MOVED_DEPTH; depth++) {
		parent = READ_ONCE(d->d_parent);
		if (parent == d)
			return newest;
		inode = d_backing_inode(d);
		if (inode && inode->i_security) {
			vi = vigil_inode(inode);
			m = smp_load_acquire(&vi->moved);
			if (m && READ_ONCE(vi->moved_to) !=
				 move_sig(parent, READ_ONCE(d->d_name.hash_len)))
				m |= VIGIL_MOVING;
			newest = max(newest, m);
		}
		d = parent;
	}
	return U64_MAX;
}

/*
 * A file object's identity without a path walk:''')
sub('access.c',''' * share a tuple, so each name is judged and learned by its own path.
 * Under rcu_read_lock(): names and dentries are freed after a grace period.''',''' * share a tuple, so each name is judged and learned by its own path; nor
 * do its names before and after a move of a folder above it (the newest
 * move's number, path_moved()).
 * Under rcu_read_lock(): names and dentries are freed after a grace period.''')
sub('access.c','''	if (acc->child) {
		name = READ_ONCE(acc->child->d_name.name);
	} else {
		parent = READ_ONCE(d->d_parent);
		if (parent != d)
			key->obj_b = inode_id(d_backing_inode(parent));
		name = READ_ONCE(d->d_name.name);
	}''','''	if (acc->child) {
		name = READ_ONCE(acc->child->d_name.name);
		key->moved = path_moved(d);
	} else {
		parent = READ_ONCE(d->d_parent);
		if (parent != d)
			key->obj_b = inode_id(d_backing_inode(parent));
		key->moved = path_moved(parent);
		name = READ_ONCE(d->d_name.name);
	}''')

# hooks_fs.c: the rename hook
sub('hooks_fs.c','''static int vigil_path_truncate(const struct path *path)''','''/*
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

static int vigil_path_truncate(const struct path *path)''')
sub('hooks_fs.c','''	LSM_HOOK_INIT(path_rename, vigil_path_rename),
''','''	LSM_HOOK_INIT(path_rename, vigil_path_rename),
	LSM_HOOK_INIT(inode_rename, vigil_inode_rename),
''')
print("ok")
