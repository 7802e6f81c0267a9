// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: recognise and decode vigil's audit records (auparse). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vigil.h"
#include "util.h"
#include "record.h"
#include "policy.h"

#define AUDIT_KERNEL_OTHER 1316
#define AUDIT_USER_AVC 1107
#define AUDIT_AVC 1400
#define AUDIT_LANDLOCK_ACCESS 1423
#define AUDIT_LANDLOCK_DOMAIN 1424

const char *const rec_kind_names[] = {
	[REC_CONTEXT] = "context",
	[REC_VIGIL] = "vigil",
	[REC_APPARMOR] = "apparmor",
	[REC_SELINUX] = "selinux",
	[REC_LANDLOCK] = "landlock",
	[REC_FOREIGN_OTHER] = "other",
};

/* Ops whose object is path= (the others use target=). */
static const char *const file_ops[] = {
	"open", "exec", "mmap", "create", "unlink", "rename", "link",
	"symlink", "truncate", "chmod", "chown", "mkdir", "rmdir", "mknod",
	"lock", "ioctl", "mount", "umount", "module", "setxattr",
	"removexattr",
};

bool vigil_op_is_file(const char *op)
{
	for (size_t i = 0; i < ARRAY_SIZE(file_ops); i++)
		if (!strcmp(op, file_ops[i]))
			return true;
	return false;
}

/* Move to the first field after node= and type=; false when none. */
static bool first_data_field(auparse_state_t *au)
{
	if (auparse_first_field(au) <= 0)
		return false;
	do {
		const char *name = auparse_get_field_name(au);

		if (!name)
			return false;
		if (strcmp(name, "node") && strcmp(name, "type"))
			return true;
	} while (auparse_next_field(au) > 0);
	return false;
}

/* Is there a field called name in the current record (only)? */
static bool record_has_field(auparse_state_t *au, const char *name)
{
	if (auparse_first_field(au) <= 0)
		return false;
	do {
		const char *n = auparse_get_field_name(au);

		if (n && !strcmp(n, name))
			return true;
	} while (auparse_next_field(au) > 0);
	return false;
}

int vigil_record_type(auparse_state_t *au)
{
	int type = auparse_get_type(au);
	const char *name;

	if (type > 0)
		return type;
	/* names newer than this libauparse (audit 3.0.9 predates these) */
	name = NULL;
	if (auparse_first_field(au) > 0) {
		do {
			const char *n = auparse_get_field_name(au);

			if (n && !strcmp(n, "type")) {
				name = auparse_get_field_str(au);
				break;
			}
		} while (auparse_next_field(au) > 0);
	}
	if (name && !strcmp(name, "LANDLOCK_ACCESS"))
		return AUDIT_LANDLOCK_ACCESS;
	if (name && !strcmp(name, "LANDLOCK_DOMAIN"))
		return AUDIT_LANDLOCK_DOMAIN;
	return type;
}

enum rec_kind vigil_record_kind(auparse_state_t *au)
{
	int type = vigil_record_type(au);

	switch (type) {
	case AUDIT_KERNEL_OTHER:
		if (first_data_field(au)) {
			const char *name = auparse_get_field_name(au);

			if (name && !strcmp(name, "vigil"))
				return REC_VIGIL;
		}
		return REC_FOREIGN_OTHER;
	case AUDIT_AVC:
		if (record_has_field(au, "apparmor"))
			return REC_APPARMOR;
		/* auparse reads "avc:  denied  { x }" as seresult, seperms */
		if (record_has_field(au, "seresult"))
			return REC_SELINUX;
		return REC_FOREIGN_OTHER;
	case AUDIT_LANDLOCK_ACCESS:
	case AUDIT_LANDLOCK_DOMAIN:
		return REC_LANDLOCK;
	case AUDIT_USER_AVC:
		return REC_FOREIGN_OTHER;
	default:
		if (type >= 1500 && type <= 1599)	/* AUDIT_APPARMOR_* */
			return REC_APPARMOR;
		/* SELINUX_ERR, AVC_PATH, MAC_* */
		if (type > AUDIT_AVC && type <= 1499)
			return REC_FOREIGN_OTHER;
		return REC_CONTEXT;
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int audit_value_decode(const char *val, char *out)
{
	size_t len = strlen(val);

	if (!strcmp(val, "?"))
		return 1;
	if (val[0] == '"') {
		if (len < 2 || val[len - 1] != '"')
			return -EINVAL;
		if (memchr(val + 1, '"', len - 2))
			return -EINVAL;
		memcpy(out, val + 1, len - 2);
		out[len - 2] = '\0';
		return 0;
	}
	/* Untrusted strings with special bytes are hex, no quotes. */
	if (len == 0 || len % 2)
		return -EINVAL;
	for (size_t i = 0; i < len; i += 2) {
		int hi = hexval(val[i]), lo = hexval(val[i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i / 2] = (char)(hi << 4 | lo);
		if (!out[i / 2])
			return -EINVAL;
	}
	out[len / 2] = '\0';
	return 0;
}

/* The fixed fields of a vigil record, in their order. */
enum {
	F_VIGIL, F_SEQ, F_VERDICT, F_OP, F_ACCESS, F_UID, F_EXE, F_PATH,
	F_TARGET, F_PID, F_COMM, F_COUNT,
};
static const char *const field_names[F_COUNT] = {
	"vigil", "seq", "verdict", "op", "access", "uid", "exe", "path",
	"target", "pid", "comm",
};

static bool is_word(const char *s, const char *extra_chars)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || strchr(extra_chars, *s)))
			return false;
	return true;
}

/* Copy a string into r->mem; the record's pointers stay valid. */
static char *mem_put(struct vigil_record *r, size_t len)
{
	char *p;

	if (r->used + len + 1 > r->cap)
		return NULL;
	p = r->mem + r->used;
	r->used += len + 1;
	return p;
}

int vigil_record_parse(auparse_state_t *au, struct vigil_record *r,
		       const char **ret_reason)
{
	const char *text = auparse_get_record_text(au);
	size_t need = text ? strlen(text) * 2 + 64 : 4096;
	const char *reason = NULL;
	char *extra, *p;
	int i = 0;

	if (need > r->cap) {
		char *m = realloc(r->mem, need);

		if (!m)
			return -ENOMEM;
		r->mem = m;
		r->cap = need;
	}
	r->used = 0;
	r->exe = r->path = r->target = r->comm = r->object = NULL;
	r->verdict = r->op = r->access = NULL;
	/* extra gets the largest slot: the rest of the record at most */
	extra = mem_put(r, text ? strlen(text) : 0);
	if (!extra)
		return -ENOMEM;
	extra[0] = '\0';
	p = extra;
	r->mntns = 0;
	r->mntnsid = 0;
	r->netns = 0;
	r->via = NULL;
	r->uclass = NULL;

	if (!first_data_field(au)) {
		reason = "vigil record without fields";
		goto bad;
	}
	do {
		const char *name = auparse_get_field_name(au);
		const char *val = auparse_get_field_str(au);
		uint64_t v;
		char *s;
		int rc;

		if (!name || !val) {
			reason = "unreadable field";
			goto bad;
		}
		if (i >= F_COUNT && !strcmp(name, "mntns")) {
			/* another mount namespace than the initial one */
			if (parse_u64(val, UINT32_MAX, &v) || !v) {
				reason = "bad mntns=";
				goto bad;
			}
			r->mntns = (uint32_t)v;
			continue;
		}
		if (i >= F_COUNT && !strcmp(name, "mntnsid")) {
			/* that namespace's unique id (after mntns=) */
			if (!r->mntns || r->mntnsid ||
			    parse_u64(val, INT64_MAX, &v) || !v) {
				reason = "bad mntnsid=";
				goto bad;
			}
			r->mntnsid = v;
			continue;
		}
		if (i >= F_COUNT && !strcmp(name, "netns")) {
			/* an abstract unix name of another network namespace */
			if (r->netns || parse_u64(val, INT64_MAX, &v) || !v) {
				reason = "bad netns=";
				goto bad;
			}
			r->netns = v;
			continue;
		}
		if (i >= F_COUNT && !strcmp(name, "uclass")) {
			/* the uid class the kernel keyed the tuple by */
			if (r->uclass || (strcmp(val, "root") &&
					  strcmp(val, "system") &&
					  strcmp(val, "user"))) {
				reason = r->uclass ? "uclass= twice" :
						     "bad uclass=";
				goto bad;
			}
			r->uclass = val[0] == 'r' ? "root" :
				    val[0] == 's' ? "system" : "user";
			continue;
		}
		if (i >= F_COUNT && !strcmp(name, "via")) {
			/* the exec ancestors (before mntns=) */
			s = mem_put(r, strlen(val));
			if (!s)
				return -ENOMEM;
			if (r->via || audit_value_decode(val, s)) {
				reason = r->via ? "via= twice" :
						  "bad via= string";
				goto bad;
			}
			if (!vigil_via_valid(s, &reason))
				goto bad;
			r->via = s;
			continue;
		}
		if (i >= F_COUNT) {
			/* op-specific lsm_audit fields, kept as written */
			size_t nl = strlen(name), vl = strlen(val);

			if (p != extra)
				*p++ = ' ';
			memcpy(p, name, nl);
			p += nl;
			*p++ = '=';
			memcpy(p, val, vl);
			p += vl;
			*p = '\0';
			continue;
		}
		if (strcmp(name, field_names[i])) {
			reason = "vigil record fields out of order or missing";
			goto bad;
		}
		switch (i) {
		case F_VIGIL:
			if (strcmp(val, "1")) {
				reason = "unknown vigil record version";
				goto bad;
			}
			break;
		case F_SEQ:
			if (parse_u64(val, UINT64_MAX, &r->seq)) {
				reason = "bad seq=";
				goto bad;
			}
			break;
		case F_VERDICT:
			if (strcmp(val, "learned") &&
			    strcmp(val, "would-deny")) {
				reason = "bad verdict=";
				goto bad;
			}
			r->verdict = val[0] == 'l' ? "learned" : "would-deny";
			break;
		case F_OP:
		case F_ACCESS:
			if (!is_word(val, i == F_ACCESS ? ",-" : "") ||
			    strlen(val) > 64) {
				reason = i == F_OP ? "bad op=" : "bad access=";
				goto bad;
			}
			s = mem_put(r, strlen(val));
			if (!s)
				return -ENOMEM;
			strcpy(s, val);
			if (i == F_OP)
				r->op = s;
			else
				r->access = s;
			break;
		case F_UID:
			if (parse_u64(val, UINT32_MAX, &v)) {
				reason = "bad uid=";
				goto bad;
			}
			r->uid = (uint32_t)v;
			break;
		case F_PID:
			if (parse_u64(val, INT32_MAX, &v)) {
				reason = "bad pid=";
				goto bad;
			}
			r->pid = (int32_t)v;
			break;
		default: /* exe, path, target, comm */
			s = mem_put(r, strlen(val));
			if (!s)
				return -ENOMEM;
			rc = audit_value_decode(val, s);
			if (rc < 0) {
				static const char *const why[] = {
					[F_EXE] = "bad exe= string",
					[F_PATH] = "bad path= string",
					[F_TARGET] = "bad target= string",
					[F_COMM] = "bad comm= string",
				};
				reason = why[i];
				goto bad;
			}
			if (rc == 1)
				s = NULL;
			if (i == F_EXE)
				r->exe = s;
			else if (i == F_PATH)
				r->path = s;
			else if (i == F_TARGET)
				r->target = s;
			else
				r->comm = s;
			break;
		}
		i++;
	} while (auparse_next_field(au) > 0);
	if (i < F_COUNT) {
		reason = "truncated vigil record (missing fields)";
		goto bad;
	}
	r->extra = extra;
	/* module loaded from memory: path=? target="(memory)" */
	r->object = vigil_op_is_file(r->op) && r->path ? r->path : r->target;
	return 0;
bad:
	*ret_reason = reason;
	return -EINVAL;
}

/* The end of the element of via that starts at p: the next "//" or
 * the end. */
static const char *via_element_end(const char *p)
{
	const char *e = strstr(p + 1, "//");

	return e ? e : p + strlen(p);
}

bool vigil_via_valid(const char *via, const char **why)
{
	const char *p = via;
	unsigned int n = 0;

	if (!*via) {
		*why = "bad via= (empty)";
		return false;
	}
	if (strlen(via) > VIGIL_VIA_MAX_BYTES) {
		*why = "bad via= (longer than 1024 bytes)";
		return false;
	}
	if (*p == '?') {
		p++;	/* the cut: not one of the 8 kept */
		if (*p && strncmp(p, "//", 2)) {
			*why = "bad via= ('?' is not an element of its own)";
			return false;
		}
		if (*p)
			p++;	/* the separator; the element starts at '/' */
	}
	while (*p) {
		const char *e = via_element_end(p);
		size_t len = (size_t)(e - p);

		if (*p != '/' || len < 2 || p[1] == '/' || p[len - 1] == '/') {
			*why = *p == '?' ? "bad via= ('?' not first)" :
					   "bad via= (an element is not an "
					   "absolute path)";
			return false;
		}
		if (++n > VIGIL_VIA_MAX_ELEMENTS) {
			*why = "bad via= (more than 8 elements)";
			return false;
		}
		p = *e ? e + 1 : e;
		if (*e && !e[2]) {
			*why = "bad via= (ends with a separator)";
			return false;
		}
	}
	return true;
}

unsigned int vigil_via_chain(const char *via, struct vigil_policy_name *chain,
			     unsigned int max)
{
	const char *p = via;
	unsigned int n = 0;

	if (!p || !*p)
		return 0;
	if (*p == '?')
		p += p[1] ? 2 : 1;
	while (*p && n < max) {
		const char *e = via_element_end(p);

		chain[n].s = p;
		chain[n].len = (size_t)(e - p);
		n++;
		p = *e ? e + 1 : e;
	}
	return n;
}

bool vigil_via_has(const char *via, const char *exe)
{
	struct vigil_policy_name chain[VIGIL_VIA_MAX_ELEMENTS];
	unsigned int n = vigil_via_chain(via, chain, VIGIL_VIA_MAX_ELEMENTS);
	size_t l = strlen(exe);

	for (unsigned int i = 0; i < n; i++)
		if (chain[i].len == l && !memcmp(chain[i].s, exe, l))
			return true;
	return false;
}

void vigil_record_free(struct vigil_record *r)
{
	if (!r)
		return;
	free(r->mem);
	r->mem = NULL;
	r->cap = r->used = 0;
}

/*
 * The value of field key="..." (or key=HEX, decoded for name and profile)
 * in the text of an audit record, malloc'd, or NULL.
 */
char *audit_field(const char *text, const char *key)
{
	size_t kl = strlen(key);
	const char *p = text, *e;
	char *v;

	while ((p = strstr(p, key))) {
		if ((p == text || p[-1] == ' ') && p[kl] == '=')
			break;
		p += kl;
	}
	if (!p)
		return NULL;
	p += kl + 1;
	if (*p == '"') {
		e = strchr(++p, '"');
		return e ? strndup(p, e - p) : NULL;
	}
	for (e = p; *e && *e != ' ' && *e != '\x1d'; e++)
		;
	v = strndup(p, e - p);
	/* an unquoted value is hex (a path with a space or a quote) */
	if (v && *v && (!strcmp(key, "name") || !strcmp(key, "profile") ||
			!strcmp(key, "peer"))) {
		char *d = malloc(strlen(v) + 1);

		if (d && !audit_value_decode(v, d)) {
			free(v);
			return d;
		}
		free(d);
	}
	return v;
}

/* Is an AppArmor record's profile the one of the program exe or one of
 * its children's (PROFILE//CHILD)? */
static bool aa_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* The path exe names its profile after (leading '/' dropped). */
static const char *aa_name_source(const char *exe)
{
	while (*exe == '/')
		exe++;
	return *exe ? exe : "root";
}

/* Byte i of the profile name of a path whose byte i is c. */
static char aa_name_byte(unsigned char c, size_t i)
{
	char m = c == '/' ? '.' :
		 aa_alnum(c) || (c && strchr("._+-", c)) ? (char)c : '_';

	if (!i && !aa_alnum((unsigned char)m))
		m = 'x';
	return m;
}

char *aa_profile_name(const char *exe)
{
	const char *src = aa_name_source(exe);
	size_t i, l = strlen(src);
	char *s = malloc(l + 1);

	if (!s)
		return NULL;
	for (i = 0; i < l; i++)
		s[i] = aa_name_byte((unsigned char)src[i], i);
	s[l] = '\0';
	return s;
}

/* prof is l bytes of a profile name, then nothing or //CHILD. */
static bool aa_profile_end(const char *prof, size_t l)
{
	return !prof[l] || !strncmp(prof + l, "//", 2);
}

bool aa_profile_of(const char *prof, const char *exe)
{
	const char *src = aa_name_source(exe);
	size_t l = strlen(exe), i;

	if (!strncmp(prof, exe, l) && aa_profile_end(prof, l))
		return true;
	for (i = 0; src[i]; i++)
		if (prof[i] != aa_name_byte((unsigned char)src[i], i))
			return false;
	return aa_profile_end(prof, i);
}

void aa_fields_parse(struct aa_fields *f, const char *text)
{
	f->verdict = audit_field(text, "apparmor");
	f->profile = audit_field(text, "profile");
	f->op = audit_field(text, "operation");
	f->name = audit_field(text, "name");
	f->cap = audit_field(text, "capname");
	f->family = audit_field(text, "family");
	f->mask = audit_field(text, "requested_mask");
	f->info = audit_field(text, "info");
	f->sock_type = audit_field(text, "sock_type");
	f->signal = audit_field(text, "signal");
	f->peer = audit_field(text, "peer");
}

bool aa_optional(const struct aa_fields *f)
{
	return f->info && !strcmp(f->info, "optional: no audit");
}

const char aa_optional_heading[] =
	"AppArmor's optional checks (made without auditing: enforced, "
	"AppArmor denies them with no record and the kernel takes its "
	"fallback; vigil records none; not would-be denials)";

/* The VERDICT of an optional check's key in an aa_tally. */
static const char aa_tally_opt[] = "optional";

bool aa_tally_optional(const struct aa_tally *t, size_t id)
{
	const char *k = t->keys.names[id];
	size_t l = sizeof(aa_tally_opt) - 1;

	return !strncmp(k, aa_tally_opt, l) && k[l] == '\t';
}

void aa_fields_free(struct aa_fields *f)
{
	free(f->verdict);
	free(f->profile);
	free(f->op);
	free(f->name);
	free(f->cap);
	free(f->family);
	free(f->mask);
	free(f->info);
	free(f->sock_type);
	free(f->signal);
	free(f->peer);
}

const char *aa_fields_object(const struct aa_fields *f)
{
	return f->name ? f->name : f->cap ? f->cap : f->family;
}

int aa_tally_add(struct aa_tally *t, const char *text,
		 bool (*keep)(void *ctx, const char *profile), void *ctx)
{
	struct aa_fields f;
	const char *obj;
	char *key = NULL;
	uint32_t id;
	int rc = 0, len;
	bool opt;

	aa_fields_parse(&f, text);
	if (!f.verdict || !f.profile || !keep(ctx, f.profile))
		goto out;
	opt = !strcmp(f.verdict, "ALLOWED") && aa_optional(&f);
	obj = aa_fields_object(&f);
	len = asprintf(&key, "%s\t%s\t%s\t%s\t%s",
		       opt ? aa_tally_opt : f.verdict, f.profile,
		       f.op ? f.op : "?", obj ? obj : "?",
		       f.mask ? f.mask : "");
	if (len < 0) {
		key = NULL;
		rc = -ENOMEM;
		goto out;
	}
	rc = strtab_intern(&t->keys, key, (size_t)len, &id);
	if (rc < 0)
		goto out;
	if (rc) {	/* new: grow_array leaves its count unset */
		rc = grow_array((void **)&t->count, &t->cap, id + 1,
				sizeof(*t->count));
		if (rc)
			goto out;
		t->count[id] = 0;
	}
	rc = 0;
	t->count[id]++;
	if (opt)
		t->optional++;
	else if (!strcmp(f.verdict, "ALLOWED"))
		t->allowed++;
	else
		t->denied++;
out:
	aa_fields_free(&f);
	free(key);
	return rc;
}

void aa_tally_free(struct aa_tally *t)
{
	strtab_free(&t->keys);
	free(t->count);
}
