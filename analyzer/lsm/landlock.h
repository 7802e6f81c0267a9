/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: the Landlock uapi as vigil uses it, with vigil's own
 * names (so the build does not depend on how new <linux/landlock.h> is),
 * and the access names of the landlockconfig JSON format.
 */
#ifndef VIGIL_ANALYZER_LANDLOCK_H
#define VIGIL_ANALYZER_LANDLOCK_H

#include <stdint.h>

/* Access rights for files (uapi LANDLOCK_ACCESS_FS_*), by ABI. */
#define VL_FS_EXECUTE		(1ULL << 0)
#define VL_FS_WRITE_FILE	(1ULL << 1)
#define VL_FS_READ_FILE		(1ULL << 2)
#define VL_FS_READ_DIR		(1ULL << 3)
#define VL_FS_REMOVE_DIR	(1ULL << 4)
#define VL_FS_REMOVE_FILE	(1ULL << 5)
#define VL_FS_MAKE_CHAR		(1ULL << 6)
#define VL_FS_MAKE_DIR		(1ULL << 7)
#define VL_FS_MAKE_REG		(1ULL << 8)
#define VL_FS_MAKE_SOCK		(1ULL << 9)
#define VL_FS_MAKE_FIFO		(1ULL << 10)
#define VL_FS_MAKE_BLOCK	(1ULL << 11)
#define VL_FS_MAKE_SYM		(1ULL << 12)
#define VL_FS_REFER		(1ULL << 13)	/* ABI 2 */
#define VL_FS_TRUNCATE		(1ULL << 14)	/* ABI 3 */
#define VL_FS_IOCTL_DEV		(1ULL << 15)	/* ABI 5 */
/* Rights that apply to a file (the others need a directory). */
#define VL_FS_FILE_RIGHTS (VL_FS_EXECUTE | VL_FS_WRITE_FILE | \
			   VL_FS_READ_FILE | VL_FS_TRUNCATE | VL_FS_IOCTL_DEV)
#define VL_NET_BIND_TCP		(1ULL << 0)	/* ABI 4 */
#define VL_NET_CONNECT_TCP	(1ULL << 1)	/* ABI 4 */
#define VL_SCOPE_ABSTRACT_UNIX	(1ULL << 0)	/* ABI 6 */
#define VL_SCOPE_SIGNAL		(1ULL << 1)	/* ABI 6 */

#define VL_RULE_PATH_BENEATH 1
#define VL_RULE_NET_PORT 2
#define VL_CREATE_RULESET_VERSION (1U << 0)

/* struct landlock_ruleset_attr, grown by ABI 4 (net) and 6 (scoped). */
struct vl_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct vl_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

struct vl_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

/* The highest ABI vigil knows. */
#define VL_ABI_MAX 7

/* What an ABI handles. */
uint64_t vl_fs_rights(unsigned int abi);
uint64_t vl_net_rights(unsigned int abi);
uint64_t vl_scopes(unsigned int abi);

/* Access names of landlockconfig (export/landlock.c). */
struct vl_name {
	const char *name;
	uint64_t bit;
};
extern const struct vl_name vl_fs_names[];
extern const unsigned int vl_nr_fs_names;
extern const struct vl_name vl_net_names[];
extern const unsigned int vl_nr_net_names;
extern const struct vl_name vl_scope_names[];
extern const unsigned int vl_nr_scope_names;

/*
 * run.c: check landlockconfig text as vigil run reads it. 0, -EINVAL
 * (err: "line N: why"), -ENOMEM.
 */
#include <stddef.h>
int vigil_landlock_check(const char *text, size_t len, char *err,
			 size_t errlen);

/* The running kernel's Landlock ABI, or 0 when it has none
 * (export/landlock.c). */
int landlock_abi_version(void);

#endif /* VIGIL_ANALYZER_LANDLOCK_H */
