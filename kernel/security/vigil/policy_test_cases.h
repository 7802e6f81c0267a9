/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: test tables of the policy language, shared by the KUnit tests
 * (policy_test.c) and the userspace unit tests (tests/unit/test_policy.c).
 */
#ifndef _SECURITY_VIGIL_POLICY_TEST_CASES_H
#define _SECURITY_VIGIL_POLICY_TEST_CASES_H

#include "policy.h"

struct glob_match_case {
	const char *pat;
	const char *text;
	bool match;
};

static const struct glob_match_case glob_match_cases[] = {
	{ "/etc/passwd", "/etc/passwd", true },
	{ "/etc/passwd", "/etc/passw", false },
	{ "/etc/passwd", "/etc/passwdx", false },
	{ "*", "", true },
	{ "*", "abc", true },
	{ "*", "a/b", false },
	{ "**", "", true },
	{ "**", "a/b/c", true },
	{ "/a/*", "/a/", true },
	{ "/a/*", "/a/b", true },
	{ "/a/*", "/a/b/c", false },
	{ "/a/**", "/a/b/c", true },
	{ "/a/**", "/a/", true },
	{ "/a/**", "/a", false },
	{ "/a/**/b", "/a/x/b", true },
	{ "/a/**/b", "/a/x/y/b", true },
	{ "/a/**/b", "/a//b", true },
	{ "/a/**/b", "/a/b", false },
	{ "**/b", "/x/y/b", true },
	{ "**/b", "b", false },
	{ "?", "a", true },
	{ "?", "/", false },
	{ "?", "", false },
	{ "?", "ab", false },
	{ "/a?c", "/abc", true },
	{ "/a?c", "/a/c", false },
	{ "?*", "", false },
	{ "?*", "a", true },
	{ "a*", "a", true },
	{ "*.so*", "libc.so.6", true },
	{ "*.so*", "libc.s", false },
	{ "/usr/lib/*.so*", "/usr/lib/x/libc.so", false },
	{ "*a*a*a*b", "aaab", true },
	{ "*a*a*a*b", "aaa", false },
	{ "*a*a*a*b", "xaxaxaxb", true },
	{ "{a,b}", "a", true },
	{ "{a,b}", "b", true },
	{ "{a,b}", "c", false },
	{ "{a,b}", "ab", false },
	{ "{,x}y", "y", true },
	{ "{,x}y", "xy", true },
	{ "{}", "", true },
	{ "/{usr/,}lib/*.so", "/usr/lib/a.so", true },
	{ "/{usr/,}lib/*.so", "/lib/a.so", true },
	{ "/{usr/,}lib/*.so", "/usr/lib/x/a.so", false },
	{ "{a,b{c,d{e,f}}}", "a", true },
	{ "{a,b{c,d{e,f}}}", "bc", true },
	{ "{a,b{c,d{e,f}}}", "bde", true },
	{ "{a,b{c,d{e,f}}}", "bdf", true },
	{ "{a,b{c,d{e,f}}}", "bd", false },
	{ "{{{a}}}", "a", true },
	{ "/etc/{passwd,group}", "/etc/group", true },
	{ "/etc/{passwd,group}", "/etc/shadow", false },
	{ "\\*", "*", true },
	{ "\\*", "a", false },
	{ "\\x2a", "*", true },
	{ "\\x2a", "ab", false },
	{ "\\{a,b\\}", "{a,b}", true },
	{ "\\{a,b\\}", "a", false },
	{ "a,b", "a,b", true },
	{ "{a\\,b,c}", "a,b", true },
	{ "{a\\,b,c}", "c", true },
	{ "{a\\,b,c}", "a", false },
	{ "a\\ b\\#c", "a b#c", true },
	{ "\\x41\\x0a", "A\n", true },
	{ "a\\\\b", "a\\b", true },
	{ "a*{*,b}", "axx", true },
	{ "a*{*,b}", "ax/x", false },
	{ "a*{**,b}", "ax/x", true },
	{ "***", "a/b", true },
	{ "inet:stream:*", "inet:stream:8080", true },
	{ "inet:stream:*", "inet:dgram:53", false },
	{ "unix:stream:/run/*.sock", "unix:stream:/run/demo.sock", true },
	{ "net_*", "net_bind_service", true },
	{ "net_*", "sys_admin", false },
	{ "/x/\xc3\xa9*", "/x/\xc3\xa9t\xc3\xa9", true },
};

struct glob_error_case {
	const char *pat;
	const char *msg;
};

static const struct glob_error_case glob_error_cases[] = {
	{ "a\\q", "bad escape '\\q'" },
	{ "a\\", "bad escape '\\'" },
	{ "a\\x0", "bad escape '\\x0'" },
	{ "a\\x00", "bad escape '\\x00'" },
	{ "a\\xg1", "bad escape '\\xg1'" },
	{ "{a", "unterminated '{' in '{a'" },
	{ "a}", "unbalanced '}' in 'a}'" },
	{ "{{{{a}}}}", "braces nested too deep (> 3) in '{{{{a}}}}'" },
	{ "/{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}",
	  "too many alternatives in '/{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}' (> 64)" },
	{
	  "{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	  "'{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}xxxxxxxxxx...' expands to too many bytes (4864 > 4096)" },
	{ "", "empty glob" },
};

struct glob_source_case {
	const char *pat;
	const char *src;
};

static const struct glob_source_case glob_source_cases[] = {
	{ "/etc/{passwd,group}", "/etc/{passwd,group}" },
	{ "\\x41", "A" },
	{ "a b", "a\\ b" },
	{ "a\tb", "a\\x09b" },
	{ "a\\\tb", "a\\x09b" },
	{ "\\#x", "\\#x" },
	{ "\\,", "," },
	{ "{a\\,b}", "{a\\,b}" },
	{ "\\x2c", "," },
	{ "\\x7b\\x2A", "\\{\\*" },
	{ "\\x01\\x7f", "\\x01\\x7f" },
	{ "\\\\", "\\\\" },
	{ "\\**", "\\**" },
	{ "***", "***" },
	{ "\xc3\xa9", "\xc3\xa9" },
};

struct access_case {
	enum vigil_class class;
	const char *s;
	int err;
	u64 access;
	const char *canon;
};

static const struct access_case access_cases[] = {
	{ VIGIL_CLASS_FILE, "r", 0, VIGIL_FILE_R, "r" },
	{ VIGIL_CLASS_FILE, "rwaxmcdtslki", 0, 0xfff, "rwaxmcdtslki" },
	{ VIGIL_CLASS_FILE, "ir", 0, VIGIL_FILE_R | VIGIL_FILE_I, "ri" },
	{ VIGIL_CLASS_FILE, "wrr", 0, VIGIL_FILE_R | VIGIL_FILE_W, "rw" },
	{ VIGIL_CLASS_FILE, "rz", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_FILE, "R", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_FILE, "", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_NET, "socket,bind,connect,listen,accept", 0, 0x1f,
	  "socket,bind,connect,listen,accept" },
	{ VIGIL_CLASS_NET, "accept,socket", 0,
	  VIGIL_NET_SOCKET | VIGIL_NET_ACCEPT, "socket,accept" },
	{ VIGIL_CLASS_NET, "bind,bind", 0, VIGIL_NET_BIND, "bind" },
	{ VIGIL_CLASS_NET, "socket,,bind", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_NET, "socket,", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_NET, ",socket", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_NET, "sock", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_NET, "r", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_SIGNAL, "term,kill", 0, (1ULL << 8) | (1ULL << 14),
	  "kill,term" },
	{ VIGIL_CLASS_SIGNAL, "hup,sys", 0, 1ULL | (1ULL << 30), "hup,sys" },
	{ VIGIL_CLASS_SIGNAL, "sig34,hup", 0, 1ULL | (1ULL << 33),
	  "hup,sig34" },
	{ VIGIL_CLASS_SIGNAL, "sig32,sig64", 0, (1ULL << 31) | (1ULL << 63),
	  "sig32,sig64" },
	{ VIGIL_CLASS_SIGNAL, "sig65", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_SIGNAL, "sig31", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_SIGNAL, "sig9", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_SIGNAL, "sig032", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_SIGNAL, "TERM", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_PTRACE, "attach,read", 0, 3, "read,attach" },
	{ VIGIL_CLASS_PTRACE, "trace", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_MOUNT, "umount", 0, VIGIL_MOUNT_UMOUNT, "umount" },
	{ VIGIL_CLASS_CAP, "use", 0, VIGIL_CAP_USE, "use" },
	{ VIGIL_CLASS_CAP, "load", -EINVAL, 0, NULL },
	{ VIGIL_CLASS_MODULE, "load", 0, VIGIL_MODULE_LOAD, "load" },
	{ VIGIL_CLASS_COUNT, "r", -EINVAL, 0, NULL },
};

struct policy_case {
	const char *name;
	const char *text;
	size_t len;		/* 0: strlen(text); set for texts with NULs */
	int err;
	const char *out;	/* the dump, or the error message */
};

static inline size_t policy_case_len(const struct policy_case *c)
{
	return c->len ? c->len : strlen(c->text);
}

/* An error as reported to users: "line N: message", or the message. */
static inline void policy_error_format(const struct vigil_policy_error *err,
				       char *buf, size_t size)
{
	if (err->line)
		snprintf(buf, size, "line %u: %s", err->line, err->msg);
	else
		snprintf(buf, size, "%s", err->msg);
}

static const struct policy_case policy_cases[] = {
	{ "example",
"# comment\n"
"subject /usr/bin/demo {\n"
"\tfile r /etc/hostname\n"
"\tfile rw /var/lib/demo/**\n"
"\tfile m /usr/lib/x86_64-linux-gnu/*.so*\n"
"\tcap use net_bind_service\n"
"\tnet socket,bind,listen,accept inet:stream:8080\n"
"\tnet socket,connect unix:stream:/run/demo.sock\n"
"\tsignal term,kill /usr/bin/demo\n"
"\tptrace read /usr/bin/*\n"
"\tmount mount,umount /mnt/**\n"
"\tmodule load /lib/modules/**\n"
"}\n"
"subject /usr/sbin/* observe {\n"
"\tfile r /etc/{passwd,group}\n"
"}\n", 0, 0,
"subject /usr/bin/demo {\n"
"\tfile r /etc/hostname\n"
"\tfile rw /var/lib/demo/**\n"
"\tfile m /usr/lib/x86_64-linux-gnu/*.so*\n"
"\tcap use net_bind_service\n"
"\tnet socket,bind,listen,accept inet:stream:8080\n"
"\tnet socket,connect unix:stream:/run/demo.sock\n"
"\tsignal kill,term /usr/bin/demo\n"
"\tptrace read /usr/bin/*\n"
"\tmount mount,umount /mnt/**\n"
"\tmodule load /lib/modules/**\n"
"}\n"
"\n"
"subject /usr/sbin/* observe {\n"
"\tfile r /etc/{passwd,group}\n"
"}\n" },
	{ "empty", "", 0, 0, "" },
	{ "comments only", "# a\n\n   # b\r\n\t\n", 0, 0, "" },
	{ "crlf, tabs, comments",
"subject\t/bin/a\tlearn {   # why\r\n"
"  file   wr\t/tmp/x # trailing\r\n"
"}\r\n", 0, 0,
"subject /bin/a learn {\n\tfile rw /tmp/x\n}\n" },
	{ "no final newline", "subject /bin/a {\n}", 0, 0,
	  "subject /bin/a {\n}\n" },
	{ "grouped by class",
"subject /bin/a off {\n"
" module load /m/**\n"
" cap use sys_admin\n"
" file r /b\n"
" cap use net_*\n"
" file ir /a\n"
"}\n", 0, 0,
"subject /bin/a off {\n"
"\tfile r /b\n"
"\tfile ri /a\n"
"\tcap use sys_admin\n"
"\tcap use net_*\n"
"\tmodule load /m/**\n"
"}\n" },
	{ "escapes",
"subject /opt/my\\ app/bin {\n"
" file r /tmp/a\\ b\\#c\\x09d\\x41\n"
" file r /tmp/#x\n"
" file r /tmp/\\{lit\\}\\,\n"
" file rw /tmp/\\\\\n"
"}\n", 0, 0,
"subject /opt/my\\ app/bin {\n"
"\tfile r /tmp/a\\ b\\#c\\x09dA\n"
"\tfile r /tmp/\\#x\n"
"\tfile r /tmp/\\{lit\\},\n"
"\tfile rw /tmp/\\\\\n"
"}\n" },
	{ "signals, caps, objects",
"subject ** {\n"
" signal sig34,hup **\n"
" cap use {net_admin,sys_admin}\n"
" file r **/x\n"
" net accept *\n"
" ptrace attach,read /usr/bin/{a,b}\n"
"}\n", 0, 0,
"subject ** {\n"
"\tfile r **/x\n"
"\tcap use {net_admin,sys_admin}\n"
"\tnet accept *\n"
"\tsignal hup,sig34 **\n"
"\tptrace read,attach /usr/bin/{a,b}\n"
"}\n" },
	{ "unknown class", "subject /a {\n\tfiel r /x\n}\n", 0, -EINVAL,
	  "line 2: unknown class 'fiel'" },
	{ "rule outside", "# x\nfile r /x\n", 0, -EINVAL,
	  "line 2: rule outside a subject block" },
	{ "rule after block", "subject /a {\n}\nfile r /x\n", 0, -EINVAL,
	  "line 3: rule outside a subject block" },
	{ "unknown keyword", "subjet /a {\n", 0, -EINVAL,
	  "line 1: unknown keyword 'subjet' (expected 'subject')" },
	{ "unterminated", "subject /a {\n file r /x\n", 0, -EINVAL,
	  "line 2: unterminated subject block opened at line 1" },
	{ "unterminated crlf", "\r\nsubject /a {\r\n file r /x\r\n\r\n", 0,
	  -EINVAL, "line 4: unterminated subject block opened at line 2" },
	{ "bad access", "subject /a {\n file rz /x\n}\n", 0, -EINVAL,
	  "line 2: access 'rz' invalid for class file" },
	{ "bad net access", "subject /a {\n net socket,,bind *\n}\n", 0,
	  -EINVAL, "line 2: access 'socket,,bind' invalid for class net" },
	{ "unknown capability", "subject /a {\n cap use net_bind\n}\n", 0,
	  -EINVAL, "line 2: unknown capability 'net_bind'" },
	{ "bad escape", "subject /a {\n file r /a\\q\n}\n", 0, -EINVAL,
	  "line 2: bad escape '\\q'" },
	{ "backslash at end", "subject /a {\n file r /a\\\n}\n", 0, -EINVAL,
	  "line 2: bad escape '\\'" },
	{ "bad hex escape", "subject /a {\n file r /a\\xZ1\n}\n", 0, -EINVAL,
	  "line 2: bad escape '\\xZ1'" },
	{ "NUL escape", "subject /a {\n file r /a\\x00\n}\n", 0, -EINVAL,
	  "line 2: bad escape '\\x00'" },
	{ "too many alternatives",
"subject /a {\n file r /{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}\n}\n", 0, -EINVAL,
	  "line 2: too many alternatives in '/{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}' (> 64)" },
	{ "NUL byte", "subject /a {\n\0}\n", 16, -EINVAL,
	  "line 2: NUL byte in policy" },
	{ "NUL byte first", "\0", 1, -EINVAL, "line 1: NUL byte in policy" },
	{ "four tokens", "subject /a {\n file r /x /y\n}\n", 0, -EINVAL,
	  "line 2: expected 'CLASS ACCESS OBJECT', got 4 tokens" },
	{ "one token", "subject /a {\n file\n}\n", 0, -EINVAL,
	  "line 2: expected 'CLASS ACCESS OBJECT', got 1 token" },
	{ "escaped brace", "subject /a \\{\n}\n", 0, -EINVAL,
	  "line 1: expected '{' at the end of the subject line" },
	{ "nested", "subject /a {\nsubject /b {\n}\n}\n", 0, -EINVAL,
	  "line 2: subject inside the subject block opened at line 1" },
	{ "close without open", "}\n", 0, -EINVAL,
	  "line 1: '}' without an open subject block" },
	{ "close with more", "subject /a {\n} x\n", 0, -EINVAL,
	  "line 2: expected '}' alone on a line" },
	{ "via", "subject /usr/bin/grep   via /usr/sbin/{svc,svcd} observe {\n}\n", 0, 0,
	  "subject /usr/bin/grep via /usr/sbin/{svc,svcd} observe {\n}\n" },
	{ "uid classes, canonical order", "subject /a via /b uid user,root observe {\n}\n", 0, 0,
	  "subject /a via /b uid root,user observe {\n}\n" },
	{ "uid without via", "subject /a uid system {\n}\n", 0, 0,
	  "subject /a uid system {\n}\n" },
	{ "every uid class is no uid word", "subject /a uid system,root,user {\n}\n", 0, 0,
	  "subject /a {\n}\n" },
	{ "unknown uid class", "subject /a uid admin {\n}\n", 0, -EINVAL,
	  "line 1: unknown uid class in 'admin' (root, system or user, joined by ',')" },
	{ "empty uid class", "subject /a uid root, {\n}\n", 0, -EINVAL,
	  "line 1: unknown uid class in 'root,' (root, system or user, joined by ',')" },
	{ "uid class twice", "subject /a uid user,user {\n}\n", 0, -EINVAL,
	  "line 1: uid class user named twice in 'user,user'" },
	{ "uid without classes", "subject /a uid {\n", 0, -EINVAL,
	  "line 1: expected uid classes after 'uid' (root, system or user, joined by ',')" },
	{ "uid after the mode", "subject /a learn uid root {\n", 0, -EINVAL,
	  "line 1: expected '{' after the mode, got 'uid'" },
	{ "unknown mode", "subject /a enforce {\n}\n", 0, -EINVAL,
	  "line 1: unknown mode 'enforce' (learn, observe or off)" },
	{ "missing brace", "subject /a learn\n}\n", 0, -EINVAL,
	  "line 1: expected '{' at the end of the subject line" },
	{ "subject too short", "subject {\n", 0, -EINVAL,
	  "line 1: expected 'subject GLOB [via GLOB] [uid CLASSES] [MODE] {', got 2 tokens" },
	{ "subject too long", "subject /a via /b uid root learn x {\n", 0, -EINVAL,
	  "line 1: expected 'subject GLOB [via GLOB] [uid CLASSES] [MODE] {', got 9 tokens" },
	{ "word after the mode", "subject /a learn x {\n", 0, -EINVAL,
	  "line 1: expected '{' after the mode, got 'x'" },
	{ "via without a glob", "subject /a via {\n", 0, -EINVAL,
	  "line 1: expected a glob after 'via'" },
	{ "relative via", "subject /a via b {\n}\n", 0, -EINVAL,
	  "line 1: via glob must start with '/' or '**': 'b'" },
	{ "relative subject", "subject demo {\n}\n", 0, -EINVAL,
	  "line 1: subject glob must start with '/' or '**': 'demo'" },
	{ "relative object", "subject /a {\n file r etc/x\n}\n", 0, -EINVAL,
	  "line 2: object must start with '/' or '**': 'etc/x'" },
	{ "relative alternative", "subject /a {\n module load {/a,b}\n}\n", 0,
	  -EINVAL, "line 2: object must start with '/' or '**': '{/a,b}'" },
	{ "unterminated brace", "subject /a {\n file r /{a\n}\n", 0, -EINVAL,
	  "line 2: unterminated '{' in '/{a'" },
	{ "unbalanced brace", "subject /a {\n file r /a}\n}\n", 0, -EINVAL,
	  "line 2: unbalanced '}' in '/a}'" },
	{ "long token quoted",
"subject /a {\n fileeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee r /x\n}\n", 0,
	  -EINVAL,
	  "line 2: unknown class 'fileeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee...'" },
	{ "control byte quoted", "subject /a {\n f\x01 r /x\n}\n", 0, -EINVAL,
	  "line 2: unknown class 'f\\x01'" },
	{ "net port too large", "subject /a {\n net bind inet:stream:99999\n}\n",
	  0, -EINVAL, "line 2: invalid port '99999' (a number 0..65535)" },
	{ "net port negative", "subject /a {\n net bind inet:stream:-5\n}\n",
	  0, -EINVAL, "line 2: invalid port '-5' (a number 0..65535)" },
	{ "net port empty", "subject /a {\n net bind inet6:dgram:\n}\n",
	  0, -EINVAL, "line 2: invalid port '' (a number 0..65535)" },
	{ "net port leading zero",
	  "subject /a {\n net bind inet:stream:08089\n}\n", 0, -EINVAL,
	  "line 2: invalid port '08089' (no leading zero)" },
	{ "net port zero", "subject /a {\n net bind inet:stream:0\n}\n",
	  0, 0, "subject /a {\n\tnet bind inet:stream:0\n}\n" },
	{ "net unknown family",
	  "subject /a {\n net bind nosuchfamily:weird:xyz\n}\n", 0, -EINVAL,
	  "line 2: unknown socket family 'nosuchfamily'" },
	{ "net unknown type", "subject /a {\n net bind inet:weird:80\n}\n",
	  0, -EINVAL,
	  "line 2: unknown socket type 'weird'" },
	{ "net no type", "subject /a {\n net socket unix\n}\n", 0, -EINVAL,
	  "line 2: net object must be FAMILY:TYPE[:ADDRESS]: 'unix'" },
};

/* Expected answers of vigil_policy_allows() on eval_policy. */
#define EVAL_NOT_NAMED (-1)
#define EVAL_DENY 0
#define EVAL_ALLOW 1

static const char eval_policy[] =
"subject /usr/bin/demo {\n"
"\tfile r /etc/hostname\n"
"\tfile rw /var/lib/demo/**\n"
"\tfile m /usr/lib/x86_64-linux-gnu/*.so*\n"
"\tfile x /usr/lib/x86_64-linux-gnu/*.so*\n"
"\tcap use net_*\n"
"\tnet socket,bind inet:stream:*\n"
"\tnet listen inet:stream:8080\n"
"\tsignal term,kill /usr/bin/*\n"
"\tptrace read /usr/bin/*\n"
"\tmount mount /mnt/**\n"
"\tmodule load /lib/modules/**\n"
"}\n"
"subject /usr/bin/* observe {\n"
"\tfile r /etc/{passwd,group}\n"
"}\n"
"subject /usr/sbin/nothing off {\n"
"}\n";

/*
 * Blocks scoped to an exec ancestor ("via") and to uid classes ("uid"):
 * the first that matches wins.
 */
static const char chain_policy[] =
"subject /usr/bin/grep via /usr/sbin/svc uid root,system {\n}\n"
"subject /usr/bin/sort via /usr/lib/svc/** {\n}\n"
"subject /usr/sbin/svc uid root observe {\n}\n"
"subject /usr/sbin/svc uid user {\n}\n"
"subject /usr/bin/* {\n}\n";

struct chain_case {
	const char *exe;
	const char *chain;	/* the ancestors, nearest first, ':' between */
	unsigned int uclasses;	/* of the access; 0: VIGIL_POLICY_UCLASS_ALL */
	int block;		/* the block found, -1: none */
};

static const struct chain_case chain_cases[] = {
	{ "/usr/bin/grep", "/usr/sbin/svc", 0, 0 },
	{ "/usr/bin/grep", "/usr/bin/dash:/usr/sbin/svc:/sbin/init", 0, 0 },
	{ "/usr/bin/grep", "/usr/bin/bash:/sbin/init", 0, 4 },
	{ "/usr/bin/grep", "/usr/sbin/svcd", 0, 4 },
	{ "/usr/bin/grep", "", 0, 4 },
	{ "/usr/bin/sort", "/usr/lib/svc/bin/run", 0, 1 },
	{ "/usr/bin/sort", "/usr/lib/svcx/run", 0, 4 },
	{ "/usr/sbin/svc", "/usr/sbin/svc", 0, 2 },
	/* A user's run of the service's chain: not the service's block. */
	{ "/usr/bin/grep", "/usr/sbin/svc", VIGIL_POLICY_UCLASS_ROOT, 0 },
	{ "/usr/bin/grep", "/usr/sbin/svc", VIGIL_POLICY_UCLASS_SYSTEM, 0 },
	{ "/usr/bin/grep", "/usr/sbin/svc", VIGIL_POLICY_UCLASS_USER, 4 },
	{ "/usr/sbin/svc", "", VIGIL_POLICY_UCLASS_ROOT, 2 },
	{ "/usr/sbin/svc", "", VIGIL_POLICY_UCLASS_SYSTEM, -1 },
	{ "/usr/sbin/svc", "", VIGIL_POLICY_UCLASS_USER, 3 },
	{ "/usr/sbin/svc", "", VIGIL_POLICY_UCLASS_SYSTEM |
	  VIGIL_POLICY_UCLASS_USER, 3 },
};

/* Split a case's chain into names (at most max); returns how many. */
static inline unsigned int chain_case_split(const char *chain,
					    struct vigil_policy_name *names,
					    unsigned int max)
{
	unsigned int n = 0;

	while (*chain && n < max) {
		const char *end = strchr(chain, ':');
		size_t len = end ? (size_t)(end - chain) : strlen(chain);

		names[n].s = chain;
		names[n++].len = len;
		chain += len + (end ? 1 : 0);
	}
	return n;
}

struct eval_case {
	const char *exe;
	enum vigil_class class;
	u64 access;
	const char *object;
	int expect;
	int mode;
};

#define DEMO "/usr/bin/demo"
#define LIBDIR "/usr/lib/x86_64-linux-gnu/"

static const struct eval_case eval_cases[] = {
	{ DEMO, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/hostname", EVAL_ALLOW,
	  -1 },
	{ DEMO, VIGIL_CLASS_FILE, VIGIL_FILE_W, "/etc/hostname", EVAL_DENY,
	  -1 },
	{ DEMO, VIGIL_CLASS_FILE, VIGIL_FILE_R | VIGIL_FILE_W,
	  "/var/lib/demo/x/y", EVAL_ALLOW, -1 },
	{ DEMO, VIGIL_CLASS_FILE, VIGIL_FILE_A, "/var/lib/demo/log", EVAL_ALLOW,
	  -1 },
	{ DEMO, VIGIL_CLASS_FILE, VIGIL_FILE_A, "/etc/hostname", EVAL_DENY,
	  -1 },
	{ DEMO, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/var/lib/demo", EVAL_DENY,
	  -1 },
	{ DEMO, VIGIL_CLASS_FILE, VIGIL_FILE_M | VIGIL_FILE_X,
	  LIBDIR "libc.so.6", EVAL_ALLOW, -1 },
	{ DEMO, VIGIL_CLASS_FILE, VIGIL_FILE_M | VIGIL_FILE_R,
	  LIBDIR "libc.so.6", EVAL_DENY, -1 },
	{ DEMO, VIGIL_CLASS_FILE, VIGIL_FILE_M, LIBDIR "sub/libc.so",
	  EVAL_DENY, -1 },
	{ DEMO, VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/passwd", EVAL_DENY, -1 },
	{ DEMO, VIGIL_CLASS_FILE, 0, "/anything", EVAL_ALLOW, -1 },
	{ DEMO, VIGIL_CLASS_CAP, VIGIL_CAP_USE, "net_admin", EVAL_ALLOW, -1 },
	{ DEMO, VIGIL_CLASS_CAP, VIGIL_CAP_USE, "sys_admin", EVAL_DENY, -1 },
	{ DEMO, VIGIL_CLASS_NET,
	  VIGIL_NET_SOCKET | VIGIL_NET_BIND | VIGIL_NET_LISTEN,
	  "inet:stream:8080", EVAL_ALLOW, -1 },
	{ DEMO, VIGIL_CLASS_NET, VIGIL_NET_LISTEN, "inet:stream:80", EVAL_DENY,
	  -1 },
	{ DEMO, VIGIL_CLASS_NET, VIGIL_NET_CONNECT, "inet:stream:8080",
	  EVAL_DENY, -1 },
	{ DEMO, VIGIL_CLASS_SIGNAL, 1ULL << 14, "/usr/bin/x", EVAL_ALLOW, -1 },
	{ DEMO, VIGIL_CLASS_SIGNAL, 1ULL << 0, "/usr/bin/x", EVAL_DENY, -1 },
	{ DEMO, VIGIL_CLASS_PTRACE, VIGIL_PTRACE_READ, "/usr/bin/top",
	  EVAL_ALLOW, -1 },
	{ DEMO, VIGIL_CLASS_PTRACE, VIGIL_PTRACE_ATTACH, "/usr/bin/top",
	  EVAL_DENY, -1 },
	{ DEMO, VIGIL_CLASS_MOUNT, VIGIL_MOUNT_MOUNT, "/mnt/usb", EVAL_ALLOW,
	  -1 },
	{ DEMO, VIGIL_CLASS_MOUNT, VIGIL_MOUNT_UMOUNT, "/mnt/usb", EVAL_DENY,
	  -1 },
	{ DEMO, VIGIL_CLASS_MODULE, VIGIL_MODULE_LOAD,
	  "/lib/modules/6.1/x.ko", EVAL_ALLOW, -1 },
	{ DEMO, VIGIL_CLASS_COUNT, 1, "/x", EVAL_DENY, -1 },
	{ "/usr/bin/other", VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/group",
	  EVAL_ALLOW, VIGIL_POLICY_MODE_OBSERVE },
	{ "/usr/bin/other", VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/hostname",
	  EVAL_DENY, VIGIL_POLICY_MODE_OBSERVE },
	{ "/usr/bin/sub/x", VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/group",
	  EVAL_NOT_NAMED, -1 },
	{ "/usr/bin/demo2", VIGIL_CLASS_CAP, VIGIL_CAP_USE, "net_admin",
	  EVAL_DENY, VIGIL_POLICY_MODE_OBSERVE },
	{ "/usr/sbin/nothing", VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/group",
	  EVAL_DENY, VIGIL_POLICY_MODE_OFF },
	{ "/usr/sbin/other", VIGIL_CLASS_FILE, VIGIL_FILE_R, "/etc/group",
	  EVAL_NOT_NAMED, -1 },
};

#undef DEMO
#undef LIBDIR

#endif /* _SECURITY_VIGIL_POLICY_TEST_CASES_H */
