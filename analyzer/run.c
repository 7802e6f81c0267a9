// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil run --landlock FILE -- COMMAND", which applies a
 * landlockconfig JSON ruleset (as "vigil export --to landlock" writes it)
 * to itself and execs COMMAND. The JSON reader is strict and small: it
 * knows exactly this format.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "vigil.h"
#include "export.h"
#include "landlock.h"

#define VL_CONFIG_MAX (1 << 20)
#define JSON_MAX_DEPTH 16

/* ---- a JSON value tree ---- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	enum jtype type;
	unsigned int line;
	char *str;		/* J_STR */
	uint64_t num;		/* J_NUM: non-negative integers only */
	bool boolean;
	struct jv *kids;	/* J_ARR, J_OBJ */
	char **keys;		/* J_OBJ */
	size_t n;
};

struct jp {
	const char *s, *end;
	unsigned int line;
	char *err;
	size_t errlen;
};

static void jv_free(struct jv *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		jv_free(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

static int jp_fail(struct jp *p, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int jp_fail(struct jp *p, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(p->err, p->errlen, "line %u: ", line);
	if (n < 0 || (size_t)n >= p->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void jp_ws(struct jp *p)
{
	while (p->s < p->end && strchr(" \t\r\n", *p->s)) {
		if (*p->s == '\n')
			p->line++;
		p->s++;
	}
}

static int hex4(const char *s, unsigned int *ret)
{
	unsigned int v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -EINVAL;
	}
	*ret = v;
	return 0;
}

static size_t utf8_put(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int jp_string(struct jp *p, char **ret)
{
	const char *s = p->s + 1;
	char *out, *o;

	/* The decoded text is never longer than the source. */
	out = malloc(p->end - s + 1);
	if (!out)
		return -ENOMEM;
	o = out;
	while (s < p->end && *s != '"') {
		unsigned char c = (unsigned char)*s;
		unsigned int cp, lo;

		if (c < 0x20) {
			free(out);
			return jp_fail(p, p->line, "control character in a "
				       "string (write \\u%04x)", c);
		}
		if (c != '\\') {
			*o++ = (char)c;
			s++;
			continue;
		}
		if (s + 1 >= p->end)
			break;
		switch (s[1]) {
		case '"': case '\\': case '/':
			*o++ = s[1];
			s += 2;
			continue;
		case 'b':
			*o++ = '\b';
			s += 2;
			continue;
		case 'f':
			*o++ = '\f';
			s += 2;
			continue;
		case 'n':
			*o++ = '\n';
			s += 2;
			continue;
		case 'r':
			*o++ = '\r';
			s += 2;
			continue;
		case 't':
			*o++ = '\t';
			s += 2;
			continue;
		case 'u':
			if (p->end - s < 6 || hex4(s + 2, &cp))
				goto bad_escape;
			s += 6;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (p->end - s < 6 || s[0] != '\\' ||
				    s[1] != 'u' || hex4(s + 2, &lo) ||
				    lo < 0xdc00 || lo >= 0xe000)
					goto bad_escape;
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
				s += 6;
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				goto bad_escape;
			}
			if (!cp) {
				free(out);
				return jp_fail(p, p->line, "\\u0000 in a "
					       "string");
			}
			o += utf8_put(o, cp);
			continue;
		default:
			goto bad_escape;
		}
	}
	if (s >= p->end) {
		free(out);
		return jp_fail(p, p->line, "unterminated string");
	}
	*o = '\0';
	p->s = s + 1;
	*ret = out;
	return 0;
bad_escape:
	free(out);
	return jp_fail(p, p->line, "bad escape in a string");
}

static int jp_value(struct jp *p, struct jv *v, int depth);

static int jp_push(struct jv *v, struct jv *kid, char *key)
{
	struct jv *k = realloc(v->kids, (v->n + 1) * sizeof(*k));

	if (!k)
		return -ENOMEM;
	v->kids = k;
	if (v->type == J_OBJ) {
		char **keys = realloc(v->keys, (v->n + 1) * sizeof(*keys));

		if (!keys)
			return -ENOMEM;
		v->keys = keys;
		keys[v->n] = key;
	}
	k[v->n++] = *kid;
	return 0;
}

static int jp_container(struct jp *p, struct jv *v, int depth)
{
	bool obj = *p->s == '{';
	char close = obj ? '}' : ']';
	int rc;

	v->type = obj ? J_OBJ : J_ARR;
	if (depth >= JSON_MAX_DEPTH)
		return jp_fail(p, p->line, "nested too deep");
	p->s++;
	jp_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return 0;
	}
	for (;;) {
		struct jv kid = { 0 };
		char *key = NULL;
		size_t i;

		jp_ws(p);
		if (obj) {
			if (p->s >= p->end || *p->s != '"')
				return jp_fail(p, p->line, "expected a key");
			rc = jp_string(p, &key);
			if (rc)
				return rc;
			for (i = 0; i < v->n; i++) {
				if (!strcmp(v->keys[i], key)) {
					rc = jp_fail(p, p->line,
						     "duplicate key '%s'", key);
					free(key);
					return rc;
				}
			}
			jp_ws(p);
			if (p->s >= p->end || *p->s != ':') {
				free(key);
				return jp_fail(p, p->line, "expected ':'");
			}
			p->s++;
		}
		rc = jp_value(p, &kid, depth + 1);
		if (!rc)
			rc = jp_push(v, &kid, key);
		if (rc) {
			jv_free(&kid);
			free(key);
			return rc;
		}
		jp_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			return 0;
		}
		return jp_fail(p, p->line, "expected ',' or '%c'", close);
	}
}

static int jp_value(struct jp *p, struct jv *v, int depth)
{
	jp_ws(p);
	memset(v, 0, sizeof(*v));
	v->line = p->line;
	if (p->s >= p->end)
		return jp_fail(p, p->line, "unexpected end of file");
	switch (*p->s) {
	case '{':
	case '[':
		return jp_container(p, v, depth);
	case '"':
		v->type = J_STR;
		return jp_string(p, &v->str);
	case '-':
		return jp_fail(p, p->line, "negative number");
	default:
		break;
	}
	if (*p->s >= '0' && *p->s <= '9') {
		uint64_t n = 0;

		if (*p->s == '0' && p->s + 1 < p->end &&
		    p->s[1] >= '0' && p->s[1] <= '9')
			return jp_fail(p, p->line, "leading zero in a number");
		while (p->s < p->end && *p->s >= '0' && *p->s <= '9') {
			unsigned int d = *p->s++ - '0';

			if (n > (UINT64_MAX - d) / 10)
				return jp_fail(p, p->line, "number too large");
			n = n * 10 + d;
		}
		if (p->s < p->end && strchr(".eE", *p->s))
			return jp_fail(p, p->line, "expected an integer");
		v->type = J_NUM;
		v->num = n;
		return 0;
	}
	if (p->end - p->s >= 4 && !memcmp(p->s, "true", 4)) {
		v->type = J_BOOL;
		v->boolean = true;
		p->s += 4;
		return 0;
	}
	if (p->end - p->s >= 5 && !memcmp(p->s, "false", 5)) {
		v->type = J_BOOL;
		p->s += 5;
		return 0;
	}
	if (p->end - p->s >= 4 && !memcmp(p->s, "null", 4)) {
		v->type = J_NULL;
		p->s += 4;
		return 0;
	}
	return jp_fail(p, p->line, "unexpected '%c'", *p->s);
}

/* ---- the landlockconfig format ---- */

struct vl_config_path {
	char *path;
	uint64_t allowed;
	unsigned int line;
};

struct vl_config {
	unsigned int abi;
	uint64_t handled_fs, handled_net, scoped;
	struct vl_config_path *paths;
	size_t npaths;
	struct vl_net_port_attr *ports;
	size_t nports;
};

static void vl_config_free(struct vl_config *c)
{
	size_t i;

	for (i = 0; i < c->npaths; i++)
		free(c->paths[i].path);
	free(c->paths);
	free(c->ports);
	memset(c, 0, sizeof(*c));
}

enum vl_kind { VL_FS, VL_NET, VL_SCOPE };

static int vl_names(struct jp *p, const struct vl_config *c,
		    const struct jv *arr, enum vl_kind kind, const char *what,
		    uint64_t *ret)
{
	const struct vl_name *names = kind == VL_FS ? vl_fs_names :
				      kind == VL_NET ? vl_net_names :
						       vl_scope_names;
	unsigned int nn = kind == VL_FS ? vl_nr_fs_names :
			  kind == VL_NET ? vl_nr_net_names :
					   vl_nr_scope_names;
	uint64_t all = kind == VL_FS ? vl_fs_rights(c->abi) :
		       kind == VL_NET ? vl_net_rights(c->abi) :
					vl_scopes(c->abi);
	uint64_t r = 0;
	size_t i;
	unsigned int k;

	if (arr->type != J_ARR || !arr->n)
		return jp_fail(p, arr->line, "%s: expected a non-empty array "
			       "of names", what);
	for (i = 0; i < arr->n; i++) {
		const struct jv *e = &arr->kids[i];
		bool found = false;

		if (e->type != J_STR)
			return jp_fail(p, e->line, "%s: expected a string",
				       what);
		if (!strncmp(e->str, "abi.", 4) && !c->abi)
			return jp_fail(p, e->line, "'%s' needs \"abi\"",
				       e->str);
		if (!strcmp(e->str, "abi.all")) {
			r |= all;
			continue;
		}
		if (kind == VL_FS && !strcmp(e->str, "abi.read_execute")) {
			r |= all & (VL_FS_EXECUTE | VL_FS_READ_FILE |
				    VL_FS_READ_DIR);
			continue;
		}
		if (kind == VL_FS && !strcmp(e->str, "abi.read_write")) {
			r |= all & ~VL_FS_EXECUTE;
			continue;
		}
		for (k = 0; k < nn && !found; k++) {
			if (!strcmp(e->str, names[k].name)) {
				r |= names[k].bit;
				found = true;
			}
		}
		if (!found)
			return jp_fail(p, e->line, "%s: unknown access '%s'",
				       what, e->str);
	}
	*ret = r;
	return 0;
}

static const struct jv *obj_get(const struct jv *o, const char *key)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return &o->kids[i];
	return NULL;
}

/* Every key of o must be one of keys (NULL-terminated). */
static int obj_check(struct jp *p, const struct jv *o, const char *what,
		     const char *const *keys)
{
	size_t i, k;

	if (o->type != J_OBJ)
		return jp_fail(p, o->line, "%s: expected an object", what);
	for (i = 0; i < o->n; i++) {
		for (k = 0; keys[k] && strcmp(keys[k], o->keys[i]); k++)
			;
		if (!keys[k])
			return jp_fail(p, o->kids[i].line, "%s: unknown key "
				       "'%s'", what, o->keys[i]);
	}
	return 0;
}

static int vl_ruleset(struct jp *p, struct vl_config *c, const struct jv *v)
{
	static const char *const keys[] = {
		"handledAccessFs", "handledAccessNet", "scoped", NULL,
	};
	const struct jv *e;
	uint64_t r;
	size_t i;
	int rc;

	if (v->type != J_ARR || !v->n)
		return jp_fail(p, v->line, "ruleset: expected a non-empty "
			       "array");
	for (i = 0; i < v->n; i++) {
		rc = obj_check(p, &v->kids[i], "ruleset", keys);
		if (rc)
			return rc;
		if (!v->kids[i].n)
			return jp_fail(p, v->kids[i].line, "ruleset: empty "
				       "object");
		e = obj_get(&v->kids[i], "handledAccessFs");
		if (e) {
			rc = vl_names(p, c, e, VL_FS, "handledAccessFs", &r);
			if (rc)
				return rc;
			c->handled_fs |= r;
		}
		e = obj_get(&v->kids[i], "handledAccessNet");
		if (e) {
			rc = vl_names(p, c, e, VL_NET, "handledAccessNet", &r);
			if (rc)
				return rc;
			c->handled_net |= r;
		}
		e = obj_get(&v->kids[i], "scoped");
		if (e) {
			rc = vl_names(p, c, e, VL_SCOPE, "scoped", &r);
			if (rc)
				return rc;
			c->scoped |= r;
		}
	}
	return 0;
}

static int vl_path_beneath(struct jp *p, struct vl_config *c,
			   const struct jv *v)
{
	static const char *const keys[] = { "allowedAccess", "parent", NULL };
	size_t i, j;
	int rc;

	if (v->type != J_ARR || !v->n)
		return jp_fail(p, v->line, "pathBeneath: expected a non-empty "
			       "array");
	for (i = 0; i < v->n; i++) {
		const struct jv *o = &v->kids[i], *acc, *par;
		uint64_t r;

		rc = obj_check(p, o, "pathBeneath", keys);
		if (rc)
			return rc;
		acc = obj_get(o, "allowedAccess");
		par = obj_get(o, "parent");
		if (!acc || !par)
			return jp_fail(p, o->line, "pathBeneath: needs "
				       "\"allowedAccess\" and \"parent\"");
		rc = vl_names(p, c, acc, VL_FS, "allowedAccess", &r);
		if (rc)
			return rc;
		if (par->type != J_ARR || !par->n)
			return jp_fail(p, par->line, "parent: expected a "
				       "non-empty array of paths");
		for (j = 0; j < par->n; j++) {
			struct vl_config_path *np;

			if (par->kids[j].type != J_STR ||
			    !par->kids[j].str[0])
				return jp_fail(p, par->kids[j].line,
					       "parent: expected a path");
			np = realloc(c->paths, (c->npaths + 1) * sizeof(*np));
			if (!np)
				return -ENOMEM;
			c->paths = np;
			np[c->npaths].path = strdup(par->kids[j].str);
			if (!np[c->npaths].path)
				return -ENOMEM;
			np[c->npaths].allowed = r;
			np[c->npaths++].line = par->kids[j].line;
		}
	}
	return 0;
}

static int vl_net_port(struct jp *p, struct vl_config *c, const struct jv *v)
{
	static const char *const keys[] = { "allowedAccess", "port", NULL };
	size_t i, j;
	int rc;

	if (v->type != J_ARR || !v->n)
		return jp_fail(p, v->line, "netPort: expected a non-empty "
			       "array");
	for (i = 0; i < v->n; i++) {
		const struct jv *o = &v->kids[i], *acc, *port;
		uint64_t r;

		rc = obj_check(p, o, "netPort", keys);
		if (rc)
			return rc;
		acc = obj_get(o, "allowedAccess");
		port = obj_get(o, "port");
		if (!acc || !port)
			return jp_fail(p, o->line, "netPort: needs "
				       "\"allowedAccess\" and \"port\"");
		rc = vl_names(p, c, acc, VL_NET, "allowedAccess", &r);
		if (rc)
			return rc;
		if (port->type != J_ARR || !port->n)
			return jp_fail(p, port->line, "port: expected a "
				       "non-empty array of numbers");
		for (j = 0; j < port->n; j++) {
			struct vl_net_port_attr *np;

			if (port->kids[j].type != J_NUM ||
			    port->kids[j].num > 65535)
				return jp_fail(p, port->kids[j].line,
					       "port: expected 0..65535");
			np = realloc(c->ports, (c->nports + 1) * sizeof(*np));
			if (!np)
				return -ENOMEM;
			c->ports = np;
			np[c->nports].allowed_access = r;
			np[c->nports++].port = port->kids[j].num;
		}
	}
	return 0;
}

/*
 * Parse text as landlockconfig JSON into ret. 0, -EINVAL (err says why,
 * "line N: ..."), -ENOMEM.
 */
static int vl_config_parse(const char *text, size_t len,
			   struct vl_config *ret, char *err, size_t errlen)
{
	static const char *const keys[] = {
		"abi", "ruleset", "pathBeneath", "netPort", "variable", NULL,
	};
	struct jp p = { text, text + len, 1, err, errlen };
	struct vl_config c = { 0 };
	struct jv root = { 0 };
	const struct jv *e;
	int rc;

	err[0] = '\0';
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "NUL byte in the file");
		return -EINVAL;
	}
	rc = jp_value(&p, &root, 0);
	if (rc)
		goto out;
	jp_ws(&p);
	if (p.s != p.end) {
		rc = jp_fail(&p, p.line, "text after the JSON value");
		goto out;
	}
	rc = obj_check(&p, &root, "top level", keys);
	if (rc)
		goto out;
	if (obj_get(&root, "variable")) {
		rc = jp_fail(&p, obj_get(&root, "variable")->line,
			     "\"variable\" is not supported by vigil run");
		goto out;
	}
	e = obj_get(&root, "abi");
	if (e) {
		if (e->type != J_NUM || !e->num || e->num > INT32_MAX) {
			rc = jp_fail(&p, e->line, "abi: expected a positive "
				     "integer");
			goto out;
		}
		c.abi = e->num > VL_ABI_MAX ? VL_ABI_MAX : (unsigned int)e->num;
	}
	if (!root.n) {
		rc = jp_fail(&p, root.line, "empty configuration");
		goto out;
	}
	e = obj_get(&root, "ruleset");
	if (e)
		rc = vl_ruleset(&p, &c, e);
	e = obj_get(&root, "pathBeneath");
	if (!rc && e)
		rc = vl_path_beneath(&p, &c, e);
	e = obj_get(&root, "netPort");
	if (!rc && e)
		rc = vl_net_port(&p, &c, e);
out:
	jv_free(&root);
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		vl_config_free(&c);
		return rc;
	}
	*ret = c;
	return 0;
}

/* ---- applying it ---- */

static long vl_create_ruleset(const struct vl_ruleset_attr *attr,
			      size_t size, unsigned int flags)
{
	return syscall(SYS_landlock_create_ruleset, attr, size, flags);
}

static long vl_add_rule(int fd, int type, const void *attr)
{
	return syscall(SYS_landlock_add_rule, fd, type, attr, 0);
}

static long vl_restrict_self(int fd)
{
	return syscall(SYS_landlock_restrict_self, fd, 0);
}

/* Make the ruleset of c for this kernel and restrict this process. */
static int vl_apply(const char *file, const struct vl_config *c,
		    unsigned int kabi)
{
	struct vl_ruleset_attr attr = {
		.handled_access_fs = c->handled_fs & vl_fs_rights(kabi),
		.handled_access_net = c->handled_net & vl_net_rights(kabi),
		.scoped = c->scoped & vl_scopes(kabi),
	};
	size_t size = kabi >= 6 ? 24 : kabi >= 4 ? 16 : 8;
	size_t i;
	int fd, rc = 0;

	if (attr.handled_access_fs != c->handled_fs ||
	    attr.handled_access_net != c->handled_net ||
	    attr.scoped != c->scoped)
		p_warn("%s: this kernel has Landlock ABI %u: rights of newer "
		       "ABIs are not enforced", file, kabi);
	if (!attr.handled_access_fs && !attr.handled_access_net &&
	    !attr.scoped) {
		p_err("%s: the ruleset handles no access this kernel knows",
		      file);
		return -EINVAL;
	}
	fd = (int)vl_create_ruleset(&attr, size, 0);
	if (fd < 0) {
		rc = -errno;
		p_err("%s: landlock_create_ruleset: %s", file, strerror(errno));
		return rc;
	}
	for (i = 0; i < c->npaths; i++) {
		const struct vl_config_path *cp = &c->paths[i];
		struct vl_path_beneath_attr pb = { 0 };
		struct stat st;

		pb.allowed_access = cp->allowed & attr.handled_access_fs;
		pb.parent_fd = open(cp->path, O_PATH | O_CLOEXEC);
		if (pb.parent_fd < 0) {
			p_warn("%s: line %u: %s: %s (rule skipped)", file,
			       cp->line, cp->path, strerror(errno));
			continue;
		}
		if (!fstat(pb.parent_fd, &st) && !S_ISDIR(st.st_mode))
			pb.allowed_access &= VL_FS_FILE_RIGHTS;
		if (pb.allowed_access &&
		    vl_add_rule(fd, VL_RULE_PATH_BENEATH, &pb)) {
			rc = -errno;
			p_err("%s: line %u: %s: landlock_add_rule: %s", file,
			      cp->line, cp->path, strerror(errno));
		}
		close(pb.parent_fd);
		if (rc)
			goto out;
	}
	for (i = 0; i < c->nports && attr.handled_access_net; i++) {
		struct vl_net_port_attr np = c->ports[i];

		np.allowed_access &= attr.handled_access_net;
		if (np.allowed_access &&
		    vl_add_rule(fd, VL_RULE_NET_PORT, &np)) {
			rc = -errno;
			p_err("%s: port %llu: landlock_add_rule: %s", file,
			      (unsigned long long)np.port, strerror(errno));
			goto out;
		}
	}
	if (c->nports && !attr.handled_access_net)
		p_warn("%s: this kernel (ABI %u) has no network rules: "
		       "netPort ignored", file, kabi);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		rc = -errno;
		p_err("prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
		goto out;
	}
	if (vl_restrict_self(fd)) {
		rc = -errno;
		p_err("%s: landlock_restrict_self: %s", file, strerror(errno));
	}
out:
	close(fd);
	return rc;
}

int do_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "landlock", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"run --landlock FILE|- -- COMMAND [ARGS...]\n"
		"  Apply the Landlock ruleset FILE (landlockconfig JSON, as\n"
		"  vigil export --to landlock writes it) to this process,\n"
		"  set no_new_privs, and exec COMMAND. Exit 2 on a bad FILE\n"
		"  or when the kernel has no Landlock, 126/127 when COMMAND\n"
		"  cannot be run (like a shell).";
	struct vl_config cfg = { 0 };
	const char *file = NULL;
	char *text = NULL, err[256];
	size_t len = 0;
	int c, rc, kabi;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			vigil_db_opt = optarg;	/* accepted, unused */
			break;
		case 'l':
			file = optarg;
			break;
		case 'h':
			printf("usage: %s %s\n", progname, usage);
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s %s\n", progname, usage);
			return EXIT_USAGE;
		}
	}
	if (!file || optind >= argc) {
		p_err("%s", !file ? "--landlock FILE is required" :
				    "no COMMAND given");
		fprintf(stderr, "usage: %s %s\n", progname, usage);
		return EXIT_USAGE;
	}
	rc = read_file(file, VL_CONFIG_MAX, &text, &len);
	if (rc) {
		p_err("%s: %s", file, rc == -EFBIG || rc == -E2BIG ?
		      "larger than 1 MiB" : strerror(-rc));
		return EXIT_USAGE;
	}
	rc = vl_config_parse(text, len, &cfg, err, sizeof(err));
	free(text);
	if (rc) {
		p_err("%s: %s", file, err);
		return EXIT_USAGE;
	}
	kabi = landlock_abi_version();
	if (kabi <= 0) {
		p_err("%s: this kernel has no Landlock (landlock_create_"
		      "ruleset: %s); not running %s unconfined", file,
		      strerror(errno), argv[optind]);
		vl_config_free(&cfg);
		return EXIT_USAGE;
	}
	rc = vl_apply(file, &cfg, (unsigned int)kabi);
	vl_config_free(&cfg);
	if (rc)
		return EXIT_USAGE;
	execvp(argv[optind], argv + optind);
	rc = errno;
	p_err("%s: %s", argv[optind], strerror(rc));
	return rc == ENOENT ? 127 : 126;
}

/* For the unit tests: parse only. */
int vigil_landlock_check(const char *text, size_t len, char *err,
			 size_t errlen)
{
	struct vl_config cfg;
	int rc = vl_config_parse(text, len, &cfg, err, errlen);

	if (!rc)
		vl_config_free(&cfg);
	return rc;
}
