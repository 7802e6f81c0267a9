// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil run --landlock FILE -- COMMAND", which applies a
 * landlockconfig JSON ruleset (as "vigil export --to landlock" writes it)
 * to itself and execs COMMAND. The JSON is read with jansson; the format's
 * own rules are checked here.
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

#include <jansson.h>

#include "vigil.h"
#include "util.h"
#include "export.h"
#include "landlock.h"

#define VL_CONFIG_MAX (1 << 20)

/*
 * ---- the landlockconfig format ----
 *
 * Read with jansson (Debian's libjansson): duplicate keys and a NUL in a
 * string are refused, a syntax error names its line and column. What the
 * format itself forbids is named by its place in the document
 * ("pathBeneath[0].parent[1]: expected a path").
 */

struct vl_config_path {
	char *path;
	uint64_t allowed;
	char *where;		/* "pathBeneath[I].parent[J]", for messages */
};

struct vl_config {
	unsigned int abi;
	uint64_t handled_fs, handled_net, scoped;
	struct vl_config_path *paths;
	size_t npaths;
	struct vl_net_port_attr *ports;
	size_t nports;
};

/* Where an error was found, and the message buffer. */
struct vl_ctx {
	char *err;
	size_t errlen;
};

static int vl_fail(struct vl_ctx *x, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int vl_fail(struct vl_ctx *x, const char *where, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(x->err, x->errlen, "%s: ", where);
	if (n < 0 || (size_t)n >= x->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(x->err + n, x->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void vl_config_free(struct vl_config *c)
{
	size_t i;

	for (i = 0; i < c->npaths; i++) {
		free(c->paths[i].path);
		free(c->paths[i].where);
	}
	free(c->paths);
	free(c->ports);
	memset(c, 0, sizeof(*c));
}

enum vl_kind { VL_FS, VL_NET, VL_SCOPE };

static int vl_names(struct vl_ctx *x, const struct vl_config *c,
		    const json_t *arr, enum vl_kind kind, const char *where,
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

	if (!json_is_array(arr) || !json_array_size(arr))
		return vl_fail(x, where, "expected a non-empty array of names");
	for (i = 0; i < json_array_size(arr); i++) {
		const char *e = json_string_value(json_array_get(arr, i));
		bool found = false;

		if (!e) {
			char w[128];

			snprintf(w, sizeof(w), "%s[%zu]", where, i);
			return vl_fail(x, w, "expected a string");
		}
		if (!strncmp(e, "abi.", 4) && !c->abi)
			return vl_fail(x, where, "'%s' needs \"abi\"", e);
		if (!strcmp(e, "abi.all")) {
			r |= all;
			continue;
		}
		if (kind == VL_FS && !strcmp(e, "abi.read_execute")) {
			r |= all & (VL_FS_EXECUTE | VL_FS_READ_FILE |
				    VL_FS_READ_DIR);
			continue;
		}
		if (kind == VL_FS && !strcmp(e, "abi.read_write")) {
			r |= all & ~VL_FS_EXECUTE;
			continue;
		}
		for (k = 0; k < nn && !found; k++) {
			if (!strcmp(e, names[k].name)) {
				r |= names[k].bit;
				found = true;
			}
		}
		if (!found)
			return vl_fail(x, where, "unknown access '%s'", e);
	}
	*ret = r;
	return 0;
}

/* o must be an object whose every key is one of keys (NULL-terminated). */
static int obj_check(struct vl_ctx *x, const json_t *o, const char *where,
		     const char *const *keys)
{
	const char *key;
	json_t *val;
	size_t k;

	if (!json_is_object(o))
		return vl_fail(x, where, "expected an object");
	json_object_foreach((json_t *)o, key, val) {
		(void)val;
		for (k = 0; keys[k] && strcmp(keys[k], key); k++)
			;
		if (!keys[k])
			return vl_fail(x, where, "unknown key '%s'", key);
	}
	return 0;
}

/* A non-empty array of objects with keys: the array, or an error. */
static int obj_array(struct vl_ctx *x, const json_t *v, const char *name,
		     const char *const *keys)
{
	char where[64];
	size_t i;
	int rc;

	if (!json_is_array(v) || !json_array_size(v))
		return vl_fail(x, name, "expected a non-empty array");
	for (i = 0; i < json_array_size(v); i++) {
		snprintf(where, sizeof(where), "%s[%zu]", name, i);
		rc = obj_check(x, json_array_get(v, i), where, keys);
		if (rc)
			return rc;
		if (!json_object_size(json_array_get(v, i)))
			return vl_fail(x, where, "empty object");
	}
	return 0;
}

static int vl_ruleset(struct vl_ctx *x, struct vl_config *c, const json_t *v)
{
	static const char *const keys[] = {
		"handledAccessFs", "handledAccessNet", "scoped", NULL,
	};
	static const struct {
		const char *key;
		enum vl_kind kind;
	} parts[] = {
		{ "handledAccessFs", VL_FS },
		{ "handledAccessNet", VL_NET },
		{ "scoped", VL_SCOPE },
	};
	char where[96];
	uint64_t r;
	size_t i, k;
	int rc;

	rc = obj_array(x, v, "ruleset", keys);
	for (i = 0; !rc && i < json_array_size(v); i++) {
		for (k = 0; !rc && k < ARRAY_SIZE(parts); k++) {
			json_t *e = json_object_get(json_array_get(v, i),
						    parts[k].key);

			if (!e)
				continue;
			snprintf(where, sizeof(where), "ruleset[%zu].%s", i,
				 parts[k].key);
			rc = vl_names(x, c, e, parts[k].kind, where, &r);
			if (rc)
				break;
			*(parts[k].kind == VL_FS ? &c->handled_fs :
			  parts[k].kind == VL_NET ? &c->handled_net :
						    &c->scoped) |= r;
		}
	}
	return rc;
}

static int vl_path_beneath(struct vl_ctx *x, struct vl_config *c,
			   const json_t *v)
{
	static const char *const keys[] = { "allowedAccess", "parent", NULL };
	char where[96];
	size_t i, j;
	int rc;

	rc = obj_array(x, v, "pathBeneath", keys);
	for (i = 0; !rc && i < json_array_size(v); i++) {
		const json_t *o = json_array_get(v, i), *acc, *par;
		uint64_t r;

		acc = json_object_get(o, "allowedAccess");
		par = json_object_get(o, "parent");
		snprintf(where, sizeof(where), "pathBeneath[%zu]", i);
		if (!acc || !par)
			return vl_fail(x, where, "needs \"allowedAccess\" and "
				       "\"parent\"");
		snprintf(where, sizeof(where), "pathBeneath[%zu].allowedAccess",
			 i);
		rc = vl_names(x, c, acc, VL_FS, where, &r);
		if (rc)
			return rc;
		snprintf(where, sizeof(where), "pathBeneath[%zu].parent", i);
		if (!json_is_array(par) || !json_array_size(par))
			return vl_fail(x, where, "expected a non-empty array "
				       "of paths");
		for (j = 0; j < json_array_size(par); j++) {
			const char *path = json_string_value(
				json_array_get(par, j));
			struct vl_config_path *np;

			snprintf(where, sizeof(where),
				 "pathBeneath[%zu].parent[%zu]", i, j);
			if (!path || !*path)
				return vl_fail(x, where, "expected a path");
			np = realloc(c->paths, (c->npaths + 1) * sizeof(*np));
			if (!np)
				return -ENOMEM;
			c->paths = np;
			np += c->npaths;
			np->allowed = r;
			np->path = strdup(path);
			np->where = strdup(where);
			c->npaths++;
			if (!np->path || !np->where)
				return -ENOMEM;
		}
	}
	return rc;
}

static int vl_net_port(struct vl_ctx *x, struct vl_config *c, const json_t *v)
{
	static const char *const keys[] = { "allowedAccess", "port", NULL };
	char where[96];
	size_t i, j;
	int rc;

	rc = obj_array(x, v, "netPort", keys);
	for (i = 0; !rc && i < json_array_size(v); i++) {
		const json_t *o = json_array_get(v, i), *acc, *port;
		uint64_t r;

		acc = json_object_get(o, "allowedAccess");
		port = json_object_get(o, "port");
		snprintf(where, sizeof(where), "netPort[%zu]", i);
		if (!acc || !port)
			return vl_fail(x, where, "needs \"allowedAccess\" and "
				       "\"port\"");
		snprintf(where, sizeof(where), "netPort[%zu].allowedAccess",
			 i);
		rc = vl_names(x, c, acc, VL_NET, where, &r);
		if (rc)
			return rc;
		snprintf(where, sizeof(where), "netPort[%zu].port", i);
		if (!json_is_array(port) || !json_array_size(port))
			return vl_fail(x, where, "expected a non-empty array "
				       "of numbers");
		for (j = 0; j < json_array_size(port); j++) {
			const json_t *e = json_array_get(port, j);
			struct vl_net_port_attr *np;

			if (!json_is_integer(e) || json_integer_value(e) < 0 ||
			    json_integer_value(e) > 65535) {
				snprintf(where, sizeof(where),
					 "netPort[%zu].port[%zu]", i, j);
				return vl_fail(x, where, "expected 0..65535");
			}
			np = realloc(c->ports, (c->nports + 1) * sizeof(*np));
			if (!np)
				return -ENOMEM;
			c->ports = np;
			np[c->nports].allowed_access = r;
			np[c->nports++].port = (uint64_t)json_integer_value(e);
		}
	}
	return rc;
}

/*
 * Parse text as landlockconfig JSON into ret. 0, -EINVAL (err says why:
 * "line L, column C: ..." for the syntax, "PLACE: ..." for the format),
 * -ENOMEM.
 */
static int vl_config_parse(const char *text, size_t len,
			   struct vl_config *ret, char *err, size_t errlen)
{
	static const char *const keys[] = {
		"abi", "ruleset", "pathBeneath", "netPort", "variable", NULL,
	};
	struct vl_ctx x = { err, errlen };
	struct vl_config c = { 0 };
	json_error_t jerr;
	json_t *root, *e;
	int rc;

	err[0] = '\0';
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "NUL byte in the file");
		return -EINVAL;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		snprintf(err, errlen, "line %d, column %d: %s", jerr.line,
			 jerr.column, jerr.text);
		return json_error_code(&jerr) == json_error_out_of_memory ?
			-ENOMEM : -EINVAL;
	}
	rc = obj_check(&x, root, "top level", keys);
	if (rc)
		goto out;
	if (json_object_get(root, "variable")) {
		rc = vl_fail(&x, "variable", "not supported by vigil run");
		goto out;
	}
	e = json_object_get(root, "abi");
	if (e) {
		if (!json_is_integer(e)) {
			rc = vl_fail(&x, "abi", "expected an integer");
			goto out;
		}
		if (json_integer_value(e) < 1 ||
		    json_integer_value(e) > INT32_MAX) {
			rc = vl_fail(&x, "abi", "expected a positive integer");
			goto out;
		}
		c.abi = json_integer_value(e) > VL_ABI_MAX ? VL_ABI_MAX :
			(unsigned int)json_integer_value(e);
	}
	if (!json_object_size(root)) {
		rc = vl_fail(&x, "top level", "empty configuration");
		goto out;
	}
	e = json_object_get(root, "ruleset");
	if (e)
		rc = vl_ruleset(&x, &c, e);
	e = json_object_get(root, "pathBeneath");
	if (!rc && e)
		rc = vl_path_beneath(&x, &c, e);
	e = json_object_get(root, "netPort");
	if (!rc && e)
		rc = vl_net_port(&x, &c, e);
out:
	json_decref(root);
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
			p_warn("%s: %s: %s: %s (rule skipped)", file,
			       cp->where, cp->path, strerror(errno));
			continue;
		}
		if (!fstat(pb.parent_fd, &st) && !S_ISDIR(st.st_mode))
			pb.allowed_access &= VL_FS_FILE_RIGHTS;
		if (pb.allowed_access &&
		    vl_add_rule(fd, VL_RULE_PATH_BENEATH, &pb)) {
			rc = -errno;
			p_err("%s: %s: %s: landlock_add_rule: %s", file,
			      cp->where, cp->path, strerror(errno));
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
