// SPDX-License-Identifier: GPL-2.0-only
/* vigil: names of operations, classes, access bits, capabilities, signals. */

#include "policy_env.h"
#include "ops.h"

static const char *const op_names[] = {
	[VIGIL_OP_OPEN] = "open",
	[VIGIL_OP_EXEC] = "exec",
	[VIGIL_OP_MMAP] = "mmap",
	[VIGIL_OP_CREATE] = "create",
	[VIGIL_OP_UNLINK] = "unlink",
	[VIGIL_OP_RENAME] = "rename",
	[VIGIL_OP_LINK] = "link",
	[VIGIL_OP_SYMLINK] = "symlink",
	[VIGIL_OP_TRUNCATE] = "truncate",
	[VIGIL_OP_CHMOD] = "chmod",
	[VIGIL_OP_CHOWN] = "chown",
	[VIGIL_OP_MKDIR] = "mkdir",
	[VIGIL_OP_RMDIR] = "rmdir",
	[VIGIL_OP_MKNOD] = "mknod",
	[VIGIL_OP_LOCK] = "lock",
	[VIGIL_OP_IOCTL] = "ioctl",
	[VIGIL_OP_CAPABLE] = "capable",
	[VIGIL_OP_SOCKET] = "socket",
	[VIGIL_OP_BIND] = "bind",
	[VIGIL_OP_CONNECT] = "connect",
	[VIGIL_OP_LISTEN] = "listen",
	[VIGIL_OP_ACCEPT] = "accept",
	[VIGIL_OP_SIGNAL] = "signal",
	[VIGIL_OP_PTRACE] = "ptrace",
	[VIGIL_OP_MOUNT] = "mount",
	[VIGIL_OP_UMOUNT] = "umount",
	[VIGIL_OP_MODULE] = "module",
	[VIGIL_OP_SETXATTR] = "setxattr",
	[VIGIL_OP_REMOVEXATTR] = "removexattr",
};

static_assert(ARRAY_SIZE(op_names) == VIGIL_OP_COUNT, "op_names");

static const unsigned char op_classes[] = {
	[VIGIL_OP_OPEN] = VIGIL_CLASS_FILE,
	[VIGIL_OP_EXEC] = VIGIL_CLASS_FILE,
	[VIGIL_OP_MMAP] = VIGIL_CLASS_FILE,
	[VIGIL_OP_CREATE] = VIGIL_CLASS_FILE,
	[VIGIL_OP_UNLINK] = VIGIL_CLASS_FILE,
	[VIGIL_OP_RENAME] = VIGIL_CLASS_FILE,
	[VIGIL_OP_LINK] = VIGIL_CLASS_FILE,
	[VIGIL_OP_SYMLINK] = VIGIL_CLASS_FILE,
	[VIGIL_OP_TRUNCATE] = VIGIL_CLASS_FILE,
	[VIGIL_OP_CHMOD] = VIGIL_CLASS_FILE,
	[VIGIL_OP_CHOWN] = VIGIL_CLASS_FILE,
	[VIGIL_OP_MKDIR] = VIGIL_CLASS_FILE,
	[VIGIL_OP_RMDIR] = VIGIL_CLASS_FILE,
	[VIGIL_OP_MKNOD] = VIGIL_CLASS_FILE,
	[VIGIL_OP_LOCK] = VIGIL_CLASS_FILE,
	[VIGIL_OP_IOCTL] = VIGIL_CLASS_FILE,
	[VIGIL_OP_CAPABLE] = VIGIL_CLASS_CAP,
	[VIGIL_OP_SOCKET] = VIGIL_CLASS_NET,
	[VIGIL_OP_BIND] = VIGIL_CLASS_NET,
	[VIGIL_OP_CONNECT] = VIGIL_CLASS_NET,
	[VIGIL_OP_LISTEN] = VIGIL_CLASS_NET,
	[VIGIL_OP_ACCEPT] = VIGIL_CLASS_NET,
	[VIGIL_OP_SIGNAL] = VIGIL_CLASS_SIGNAL,
	[VIGIL_OP_PTRACE] = VIGIL_CLASS_PTRACE,
	[VIGIL_OP_MOUNT] = VIGIL_CLASS_MOUNT,
	[VIGIL_OP_UMOUNT] = VIGIL_CLASS_MOUNT,
	[VIGIL_OP_MODULE] = VIGIL_CLASS_MODULE,
	[VIGIL_OP_SETXATTR] = VIGIL_CLASS_FILE,
	[VIGIL_OP_REMOVEXATTR] = VIGIL_CLASS_FILE,
};

static_assert(ARRAY_SIZE(op_classes) == VIGIL_OP_COUNT, "op_classes");

static const char *const class_names[] = {
	[VIGIL_CLASS_FILE] = "file",
	[VIGIL_CLASS_CAP] = "cap",
	[VIGIL_CLASS_NET] = "net",
	[VIGIL_CLASS_SIGNAL] = "signal",
	[VIGIL_CLASS_PTRACE] = "ptrace",
	[VIGIL_CLASS_MOUNT] = "mount",
	[VIGIL_CLASS_MODULE] = "module",
};

static_assert(ARRAY_SIZE(class_names) == VIGIL_CLASS_COUNT, "class_names");

/* Capability names in CAP_* number order (include/uapi/linux/capability.h). */
static const char *const cap_names[] = {
	"chown",		/* 0 */
	"dac_override",
	"dac_read_search",
	"fowner",
	"fsetid",
	"kill",			/* 5 */
	"setgid",
	"setuid",
	"setpcap",
	"linux_immutable",
	"net_bind_service",	/* 10 */
	"net_broadcast",
	"net_admin",
	"net_raw",
	"ipc_lock",
	"ipc_owner",		/* 15 */
	"sys_module",
	"sys_rawio",
	"sys_chroot",
	"sys_ptrace",
	"sys_pacct",		/* 20 */
	"sys_admin",
	"sys_boot",
	"sys_nice",
	"sys_resource",
	"sys_time",		/* 25 */
	"sys_tty_config",
	"mknod",
	"lease",
	"audit_write",
	"audit_control",	/* 30 */
	"setfcap",
	"mac_override",
	"mac_admin",
	"syslog",
	"wake_alarm",		/* 35 */
	"block_suspend",
	"audit_read",
	"perfmon",
	"bpf",
	"checkpoint_restore",	/* 40 */
};

static_assert(ARRAY_SIZE(cap_names) == VIGIL_CAP_COUNT, "cap_names");
#ifdef CAP_LAST_CAP
static_assert(CAP_LAST_CAP + 1 == VIGIL_CAP_COUNT, "CAP_LAST_CAP");
#endif

/* Signal names 1..31, x86 numbering; sig - 1 indexes this table. */
static const char *const signal_names[] = {
	"hup", "int", "quit", "ill", "trap", "abrt", "bus", "fpe",
	"kill", "usr1", "segv", "usr2", "pipe", "alrm", "term", "stkflt",
	"chld", "cont", "stop", "tstp", "ttin", "ttou", "urg", "xcpu",
	"xfsz", "vtalrm", "prof", "winch", "io", "pwr", "sys",
};

static_assert(ARRAY_SIZE(signal_names) == 31, "signal_names");

static const char *const net_words[] = {
	"socket", "bind", "connect", "listen", "accept",
};

static const char *const ptrace_words[] = { "read", "attach" };
static const char *const mount_words[] = { "mount", "umount" };
static const char *const cap_words[] = { "use" };
static const char *const module_words[] = { "load" };

/* True when name[0..len) spells the NUL-terminated word exactly. */
static bool name_eq(const char *word, const char *name, size_t len)
{
	return strlen(word) == len && !memcmp(word, name, len);
}

static int table_lookup(const char *const *table, size_t n, const char *name,
			size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (table[i] && name_eq(table[i], name, len))
			return (int)i;
	return -1;
}

const char *vigil_op_name(enum vigil_op op)
{
	if ((unsigned int)op >= VIGIL_OP_COUNT)
		return "?";
	return op_names[op];
}

enum vigil_class vigil_op_class(enum vigil_op op)
{
	if ((unsigned int)op >= VIGIL_OP_COUNT)
		return VIGIL_CLASS_COUNT;
	return (enum vigil_class)op_classes[op];
}

const char *vigil_class_name(enum vigil_class class)
{
	if ((unsigned int)class >= VIGIL_CLASS_COUNT)
		return "?";
	return class_names[class];
}

int vigil_op_from_name(const char *name, size_t len)
{
	return table_lookup(op_names, ARRAY_SIZE(op_names), name, len);
}

int vigil_class_from_name(const char *name, size_t len)
{
	return table_lookup(class_names, ARRAY_SIZE(class_names), name, len);
}

const char *vigil_cap_name(int cap)
{
	if (cap < 0 || cap >= VIGIL_CAP_COUNT)
		return NULL;
	return cap_names[cap];
}

int vigil_cap_from_name(const char *name, size_t len)
{
	return table_lookup(cap_names, ARRAY_SIZE(cap_names), name, len);
}

const char *vigil_signal_name(int sig, char *buf, size_t size)
{
	if (sig < 1 || sig > VIGIL_SIGNAL_MAX)
		return NULL;
	if (sig <= (int)ARRAY_SIZE(signal_names))
		return signal_names[sig - 1];
	if (!buf || !size)
		return NULL;
	scnprintf(buf, size, "sig%d", sig);
	return buf;
}

/* The signal named name[0..len): a table name, or "sigN" for N 32..64. */
static int signal_from_name(const char *name, size_t len)
{
	int i = table_lookup(signal_names, ARRAY_SIZE(signal_names), name, len);
	int sig = 0;
	size_t k;

	if (i >= 0)
		return i + 1;
	if (len != 5 || memcmp(name, "sig", 3))
		return -1;
	for (k = 3; k < len; k++) {
		if (name[k] < '0' || name[k] > '9')
			return -1;
		sig = sig * 10 + (name[k] - '0');
	}
	if (sig <= (int)ARRAY_SIZE(signal_names) || sig > VIGIL_SIGNAL_MAX)
		return -1;
	return sig;
}

/* The word table of a class with comma-separated words, or NULL. */
static const char *const *class_words(enum vigil_class class, size_t *ret_n)
{
	switch (class) {
	case VIGIL_CLASS_NET:
		*ret_n = ARRAY_SIZE(net_words);
		return net_words;
	case VIGIL_CLASS_PTRACE:
		*ret_n = ARRAY_SIZE(ptrace_words);
		return ptrace_words;
	case VIGIL_CLASS_MOUNT:
		*ret_n = ARRAY_SIZE(mount_words);
		return mount_words;
	case VIGIL_CLASS_CAP:
		*ret_n = ARRAY_SIZE(cap_words);
		return cap_words;
	case VIGIL_CLASS_MODULE:
		*ret_n = ARRAY_SIZE(module_words);
		return module_words;
	default:
		*ret_n = 0;
		return NULL;
	}
}

/* Appends s[0..n) at *pos, writing only what fits below size - 1. */
static void put(char *buf, size_t size, size_t *pos, const char *s, size_t n)
{
	if (*pos + 1 < size) {
		size_t room = size - 1 - *pos;

		memcpy(buf + *pos, s, min(room, n));
	}
	*pos += n;
}

int vigil_access_format(enum vigil_class class, u64 access, char *buf,
			size_t size)
{
	const char *const *words;
	size_t pos = 0, n, i;
	char tmp[8];

	if (class == VIGIL_CLASS_FILE) {
		for (i = 0; i < sizeof(VIGIL_FILE_LETTERS) - 1; i++)
			if (access & (1ULL << i))
				put(buf, size, &pos, &VIGIL_FILE_LETTERS[i], 1);
	} else if (class == VIGIL_CLASS_SIGNAL) {
		for (i = 0; i < VIGIL_SIGNAL_MAX; i++) {
			const char *name;

			if (!(access & (1ULL << i)))
				continue;
			name = vigil_signal_name((int)i + 1, tmp, sizeof(tmp));
			if (pos)
				put(buf, size, &pos, ",", 1);
			put(buf, size, &pos, name, strlen(name));
		}
	} else {
		words = class_words(class, &n);
		for (i = 0; i < n; i++) {
			if (!(access & (1ULL << i)))
				continue;
			if (pos)
				put(buf, size, &pos, ",", 1);
			put(buf, size, &pos, words[i], strlen(words[i]));
		}
	}
	if (size)
		buf[min(pos, size - 1)] = '\0';
	return (int)pos;
}

static int file_access_parse(const char *s, size_t len, u64 *ret_access)
{
	u64 access = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		const char *p = memchr(VIGIL_FILE_LETTERS, s[i],
				       sizeof(VIGIL_FILE_LETTERS) - 1);

		if (!p || !s[i])
			return -EINVAL;
		access |= 1ULL << (p - VIGIL_FILE_LETTERS);
	}
	*ret_access = access;
	return 0;
}

int vigil_access_parse(enum vigil_class class, const char *s, size_t len,
		       u64 *ret_access)
{
	const char *const *words = NULL;
	size_t n = 0, start = 0, end;
	u64 access = 0;

	if ((unsigned int)class >= VIGIL_CLASS_COUNT || !len)
		return -EINVAL;
	if (class == VIGIL_CLASS_FILE)
		return file_access_parse(s, len, ret_access);
	if (class != VIGIL_CLASS_SIGNAL)
		words = class_words(class, &n);
	while (start <= len) {
		int bit;

		for (end = start; end < len && s[end] != ','; end++)
			;
		if (end == start)
			return -EINVAL;
		if (words)
			bit = table_lookup(words, n, s + start, end - start);
		else
			bit = signal_from_name(s + start, end - start) - 1;
		if (bit < 0)
			return -EINVAL;
		access |= 1ULL << bit;
		start = end + 1;
	}
	*ret_access = access;
	return 0;
}
