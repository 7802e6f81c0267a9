/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: the operations vigil observes, their classes and access bits.
 * Shared by the kernel and the analyzer (compiled unchanged in both).
 */
#ifndef _SECURITY_VIGIL_OPS_H
#define _SECURITY_VIGIL_OPS_H

#include "policy_env.h"

/* Policy rule classes: "CLASS ACCESS OBJECT" (see docs/policy-language.md). */
enum vigil_class {
	VIGIL_CLASS_FILE,
	VIGIL_CLASS_CAP,
	VIGIL_CLASS_NET,
	VIGIL_CLASS_SIGNAL,
	VIGIL_CLASS_PTRACE,
	VIGIL_CLASS_MOUNT,
	VIGIL_CLASS_MODULE,
	VIGIL_CLASS_COUNT,
};

/* Operations, as named in records (op=) and in the learned table. */
enum vigil_op {
	VIGIL_OP_OPEN,
	VIGIL_OP_EXEC,
	VIGIL_OP_MMAP,
	VIGIL_OP_CREATE,
	VIGIL_OP_UNLINK,
	VIGIL_OP_RENAME,
	VIGIL_OP_LINK,
	VIGIL_OP_SYMLINK,
	VIGIL_OP_TRUNCATE,
	VIGIL_OP_CHMOD,
	VIGIL_OP_CHOWN,
	VIGIL_OP_MKDIR,
	VIGIL_OP_RMDIR,
	VIGIL_OP_MKNOD,
	VIGIL_OP_LOCK,
	VIGIL_OP_IOCTL,
	VIGIL_OP_CAPABLE,
	VIGIL_OP_SOCKET,
	VIGIL_OP_BIND,
	VIGIL_OP_CONNECT,
	VIGIL_OP_LISTEN,
	VIGIL_OP_ACCEPT,
	VIGIL_OP_SIGNAL,
	VIGIL_OP_PTRACE,
	VIGIL_OP_MOUNT,
	VIGIL_OP_UMOUNT,
	VIGIL_OP_MODULE,
	VIGIL_OP_SETXATTR,
	VIGIL_OP_REMOVEXATTR,
	VIGIL_OP_COUNT,
};

/*
 * File access bits, written as letters in this order: "rwaxmcdtslki".
 * r read, w write, a append (also granted by w), x execute, m mmap with
 * PROT_EXEC, c create (file, dir, node, symlink, rename target), d delete
 * (unlink, rmdir, rename source), t truncate, s set attributes (chmod,
 * chown, setting and removing extended attributes), l hard link (the new name), k lock, i ioctl.
 */
#define VIGIL_FILE_LETTERS "rwaxmcdtslki"
enum {
	VIGIL_FILE_R = 1 << 0,
	VIGIL_FILE_W = 1 << 1,
	VIGIL_FILE_A = 1 << 2,
	VIGIL_FILE_X = 1 << 3,
	VIGIL_FILE_M = 1 << 4,
	VIGIL_FILE_C = 1 << 5,
	VIGIL_FILE_D = 1 << 6,
	VIGIL_FILE_T = 1 << 7,
	VIGIL_FILE_S = 1 << 8,
	VIGIL_FILE_L = 1 << 9,
	VIGIL_FILE_K = 1 << 10,
	VIGIL_FILE_I = 1 << 11,
};

/* Net access bits, written as words: socket,bind,connect,listen,accept. */
enum {
	VIGIL_NET_SOCKET = 1 << 0,
	VIGIL_NET_BIND = 1 << 1,
	VIGIL_NET_CONNECT = 1 << 2,
	VIGIL_NET_LISTEN = 1 << 3,
	VIGIL_NET_ACCEPT = 1 << 4,
};

/* Ptrace access bits: read, attach. */
enum {
	VIGIL_PTRACE_READ = 1 << 0,
	VIGIL_PTRACE_ATTACH = 1 << 1,
};

/* Mount access bits: mount, umount. */
enum {
	VIGIL_MOUNT_MOUNT = 1 << 0,
	VIGIL_MOUNT_UMOUNT = 1 << 1,
};

/* Cap access: "use". Module access: "load". Both are bit 0. */
#define VIGIL_CAP_USE 1
#define VIGIL_MODULE_LOAD 1

/*
 * Signal access: bit (N - 1) for signal N, 1..64, written as lowercase
 * names without "SIG" ("hup", "kill", "term"...) or "sigN" for signals
 * without a name (real-time ones).
 */

#define VIGIL_VERDICT_LEARNED "learned"
#define VIGIL_VERDICT_WOULD_DENY "would-deny"

/* Capabilities 0..VIGIL_CAP_COUNT - 1 (Linux 6.1), signals 1..64. */
#define VIGIL_CAP_COUNT 41
#define VIGIL_SIGNAL_MAX 64

/* Name tables and conversions, in ops.c. */
const char *vigil_op_name(enum vigil_op op);
enum vigil_class vigil_op_class(enum vigil_op op);
const char *vigil_class_name(enum vigil_class class);
/* Return: the op or class named by name[0..len), or -1. */
int vigil_op_from_name(const char *name, size_t len);
int vigil_class_from_name(const char *name, size_t len);
/*
 * Format access bits of a class as policies and records write them
 * (letters in VIGIL_FILE_LETTERS order for files, comma-separated words in
 * bit order otherwise). snprintf semantics: returns the length needed.
 */
int vigil_access_format(enum vigil_class class, u64 access, char *buf,
			size_t size);
/* Parse the same forms (file letters in any order). 0 or -EINVAL. */
int vigil_access_parse(enum vigil_class class, const char *s, size_t len,
		       u64 *ret_access);
/* "net_bind_service" for CAP_NET_BIND_SERVICE; NULL when unknown. */
const char *vigil_cap_name(int cap);
/* The capability named (without "cap_", lowercase), or -1. */
int vigil_cap_from_name(const char *name, size_t len);
/*
 * "term" for SIGTERM, "sig34" style for unnamed ones; buf >= 8 bytes.
 * NULL when sig is outside 1..64.
 */
const char *vigil_signal_name(int sig, char *buf, size_t size);

#endif /* _SECURITY_VIGIL_OPS_H */
