// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: an AppArmor complain trial's ALLOWED record as the access
 * vigil would have recorded. The record formats are AppArmor's of Linux
 * 6.1 (security/apparmor: file.c, capability.c, net.c audit_net_cb, ipc.c
 * audit_signal_cb, task.c audit_ptrace_cb): file accesses (name= and
 * requested_mask= letters), capabilities (capname=), network (family=,
 * sock_type=: no address), signals (signal=, peer=) and ptrace (peer=).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aa_access.h"
#include "ops.h"

/*
 * AppArmor's requested_mask letters as vigil's file access letters (the
 * same letters mean the same: r w a x m c d l k), or false for one it
 * has not.
 */
static bool mask_letters(const char *mask, char *out, size_t size)
{
	size_t n = 0;

	for (; *mask; mask++) {
		if (!strchr("rwaxmcdlk", *mask) || n + 1 >= size)
			return false;
		if (!memchr(out, *mask, n))
			out[n++] = *mask;
	}
	out[n] = '\0';
	return n > 0;
}

/* AppArmor's family names (lowercased AF_ names of include/linux/socket.h,
 * security/apparmor/Makefile), by number. */
static const char *const af_names[] = {
	NULL, "unix", "inet", "ax25", "ipx", "appletalk", "netrom", "bridge",
	"atmpvc", "x25", "inet6", "rose", "decnet", "netbeui", "security",
	"key", "netlink", "packet", "ash", "econet", "atmsvc", "rds", "sna",
	"irda", "pppox", "wanpipe", "llc", "ib", "mpls", "can", "tipc",
	"bluetooth", "iucv", "rxrpc", "isdn", "phonet", "ieee802154", "caif",
	"alg", "nfc", "vsock", "kcm", "qipcrtr", "smc", "xdp", "mctp",
};

/* Its sock_type names (enum sock_type of include/linux/net.h). */
static const char *const type_names[] = {
	NULL, "stream", "dgram", "raw", "rdm", "seqpacket", "dccp", NULL,
	NULL, NULL, "packet",
};

/* name's number in t[0..n) or in AppArmor's "unknown(N)" form, or -1. */
static int name_number(const char *name, const char *const *t, size_t n)
{
	size_t i;
	int v, len = 0;

	for (i = 0; i < n; i++)
		if (t[i] && !strcmp(t[i], name))
			return (int)i;
	if (sscanf(name, "unknown(%d)%n", &v, &len) == 1 && !name[len] &&
	    v >= 0 && v < 256)
		return v;
	return -1;
}

/* "FAMILY:TYPE" as vigil's kernel writes it (hooks_net.c), or false. */
static bool net_object(const char *family, const char *type, char *out,
		       size_t size)
{
	static const char *const vf[] = {
		[1] = "unix", [2] = "inet", [10] = "inet6", [16] = "netlink",
		[17] = "packet",
	};
	static const char *const vt[] = {
		[1] = "stream", [2] = "dgram", [3] = "raw", [4] = "rdm",
		[5] = "seqpacket", [10] = "packet",
	};
	int f = name_number(family, af_names, sizeof(af_names) /
						sizeof(af_names[0]));
	int t = name_number(type, type_names, sizeof(type_names) /
					      sizeof(type_names[0]));
	char fb[16], tb[16];

	if (f <= 0 || t <= 0)
		return false;
	if (f < (int)(sizeof(vf) / sizeof(vf[0])) && vf[f])
		snprintf(fb, sizeof(fb), "%s", vf[f]);
	else
		snprintf(fb, sizeof(fb), "af%d", f);
	if (t < (int)(sizeof(vt) / sizeof(vt[0])) && vt[t])
		snprintf(tb, sizeof(tb), "%s", vt[t]);
	else
		snprintf(tb, sizeof(tb), "type%d", t);
	return snprintf(out, size, "%s:%s", fb, tb) < (int)size;
}

/* AppArmor's signal names (security/apparmor/include/sig_names.h), by its
 * number, which is x86's for 1..31. */
static const char *const sig_names[] = {
	"unknown", "hup", "int", "quit", "ill", "trap", "abrt", "bus", "fpe",
	"kill", "usr1", "segv", "usr2", "pipe", "alrm", "term", "stkflt",
	"chld", "cont", "stop", "stp", "ttin", "ttou", "urg", "xcpu", "xfsz",
	"vtalrm", "prof", "winch", "io", "pwr", "sys",
};

/* vigil's name of AppArmor's signal (sig_names, or "rtmin+N": SIGRTMIN,
 * 32, plus N), or NULL: "exists" (kill(pid, 0)), vigil records none. */
static const char *signal_name(const char *s, char *buf, size_t size)
{
	size_t i;
	int n, len = 0;

	for (i = 1; i < sizeof(sig_names) / sizeof(sig_names[0]); i++)
		if (!strcmp(sig_names[i], s))
			return vigil_signal_name((int)i, buf, size);
	if (sscanf(s, "rtmin+%d%n", &n, &len) == 1 && !s[len] && n >= 0)
		return vigil_signal_name(32 + n, buf, size);
	return NULL;
}

/* The program a label is: a stored program's, or a path-named profile's
 * path (not a child's PROFILE//CHILD). */
static const char *target_of(const char *label,
			     const char *(*exe_of)(void *ctx, const char *),
			     void *ctx)
{
	const char *e = exe_of(ctx, label);

	if (e)
		return e;
	if (label[0] == '/' && !strstr(label, "//"))
		return label;
	return NULL;
}

/* Signals and ptrace: the sender's or tracer's block, the other's exe. */
static int peer_access(const struct aa_fields *f,
		       const char *(*exe_of)(void *ctx, const char *),
		       void *ctx, struct aa_access *a, const char **why)
{
	bool sig = !strcmp(f->op, "signal"), back;
	const char *by, *target;
	char buf[16];

	if (!f->peer || !f->mask) {
		*why = "no peer or no requested_mask";
		return 2;
	}
	if (sig) {
		const char *n = f->signal ?
				signal_name(f->signal, buf, sizeof(buf)) :
				NULL;

		if (!n) {
			*why = "a signal vigil records none of (0, exists)";
			return 2;
		}
		snprintf(a->access, sizeof(a->access), "%s", n);
		back = !strcmp(f->mask, "receive");
		if (!back && strcmp(f->mask, "send")) {
			*why = "a signal mask other than send or receive";
			return 2;
		}
	} else {
		back = !strcmp(f->mask, "readby") ||
		       !strcmp(f->mask, "tracedby");
		if (!strcmp(f->mask, "read") || !strcmp(f->mask, "readby"))
			strcpy(a->access, "read");
		else if (!strcmp(f->mask, "trace") ||
			 !strcmp(f->mask, "tracedby"))
			strcpy(a->access, "attach");
		else {
			*why = "a ptrace mask other than read or trace";
			return 2;
		}
	}
	/* receive, readby, tracedby: the record is the target's profile's,
	 * the peer did it, so the rule is the peer's */
	by = exe_of(ctx, back ? f->peer : f->profile);
	target = target_of(back ? f->profile : f->peer, exe_of, ctx);
	if (!by) {
		*why = back ? "its sender or tracer is no program vigil has "
			      "records of (unconfined, or another profile)" :
			      "a profile vigil's export gives no program";
		return 2;
	}
	if (!target) {
		*why = "its target's program is not in AppArmor's record "
		       "(unconfined, or another profile)";
		return 2;
	}
	a->exe = by;
	a->op = sig ? "signal" : "ptrace";
	a->object = strdup(target);
	return a->object ? 0 : -ENOMEM;
}

int aa_access_of(const struct aa_fields *f,
		 const char *(*exe_of)(void *ctx, const char *label),
		 void *ctx, struct aa_access *a, const char **why)
{
	char net[48];

	memset(a, 0, sizeof(*a));
	*why = NULL;
	if (aa_optional(f))
		return 1;
	if (!f->profile || !f->op) {
		*why = "no profile or no operation";
		return 2;
	}
	if (!strcmp(f->op, "signal") || !strcmp(f->op, "ptrace"))
		return peer_access(f, exe_of, ctx, a, why);
	a->exe = exe_of(ctx, f->profile);
	if (!a->exe) {
		*why = "a profile vigil's export gives no program (a child's, "
		       "another program's)";
		return 2;
	}
	if (!strcmp(f->op, "capable") && f->cap) {
		a->op = "capable";
		strcpy(a->access, "use");
		a->object = strdup(f->cap);
	} else if (f->family && f->sock_type) {
		/*
		 * AppArmor's network records and rules name no address, and
		 * any net rule of a family and type makes vigil's export
		 * write "network FAMILY TYPE,", which allows every
		 * operation: the least such rule is net socket FAMILY:TYPE
		 */
		if (!net_object(f->family, f->sock_type, net, sizeof(net))) {
			*why = "a socket family or type vigil has no name for";
			return 2;
		}
		a->op = "socket";
		strcpy(a->access, "socket");
		a->object = strdup(net);
	} else if (f->name && f->mask &&
		   mask_letters(f->mask, a->access, sizeof(a->access))) {
		a->op = !strcmp(f->op, "exec") ? "exec" :
			!strcmp(f->op, "file_mmap") ? "mmap" : "open";
		a->path = true;
		a->object = strdup(f->name);
	} else {
		*why = "an operation vigil has no rule for (mount, "
		       "change_profile, ...)";
		return 2;
	}
	return a->object ? 0 : -ENOMEM;
}
