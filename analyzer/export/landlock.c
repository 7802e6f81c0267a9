// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: export to Landlock, one ruleset per subject in the
 * landlockconfig JSON format (applied by "vigil run --landlock").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/landlock.h>

#include "vigil.h"
#include "driver.h"
#include "object.h"
#include "landlock.h"
#include "blast.h"

const struct vl_name vl_fs_names[] = {
	{ "execute", VL_FS_EXECUTE },
	{ "write_file", VL_FS_WRITE_FILE },
	{ "read_file", VL_FS_READ_FILE },
	{ "read_dir", VL_FS_READ_DIR },
	{ "remove_dir", VL_FS_REMOVE_DIR },
	{ "remove_file", VL_FS_REMOVE_FILE },
	{ "make_char", VL_FS_MAKE_CHAR },
	{ "make_dir", VL_FS_MAKE_DIR },
	{ "make_reg", VL_FS_MAKE_REG },
	{ "make_sock", VL_FS_MAKE_SOCK },
	{ "make_fifo", VL_FS_MAKE_FIFO },
	{ "make_block", VL_FS_MAKE_BLOCK },
	{ "make_sym", VL_FS_MAKE_SYM },
	{ "refer", VL_FS_REFER },
	{ "truncate", VL_FS_TRUNCATE },
	{ "ioctl_dev", VL_FS_IOCTL_DEV },
};
const unsigned int vl_nr_fs_names = ARRAY_SIZE(vl_fs_names);
const struct vl_name vl_net_names[] = {
	{ "bind_tcp", VL_NET_BIND_TCP },
	{ "connect_tcp", VL_NET_CONNECT_TCP },
};
const unsigned int vl_nr_net_names = ARRAY_SIZE(vl_net_names);
const struct vl_name vl_scope_names[] = {
	{ "abstract_unix_socket", VL_SCOPE_ABSTRACT_UNIX },
	{ "signal", VL_SCOPE_SIGNAL },
};
const unsigned int vl_nr_scope_names = ARRAY_SIZE(vl_scope_names);

uint64_t vl_fs_rights(unsigned int abi)
{
	uint64_t r = 0;

	if (abi >= 1)
		r |= (VL_FS_MAKE_SYM << 1) - 1;
	if (abi >= 2)
		r |= VL_FS_REFER;
	if (abi >= 3)
		r |= VL_FS_TRUNCATE;
	if (abi >= 5)
		r |= VL_FS_IOCTL_DEV;
	return r;
}

uint64_t vl_net_rights(unsigned int abi)
{
	return abi >= 4 ? VL_NET_BIND_TCP | VL_NET_CONNECT_TCP : 0;
}

uint64_t vl_scopes(unsigned int abi)
{
	return abi >= 6 ? VL_SCOPE_ABSTRACT_UNIX | VL_SCOPE_SIGNAL : 0;
}

int landlock_abi_version(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0,
			 LANDLOCK_CREATE_RULESET_VERSION);

	return v < 0 ? 0 : (int)v;
}

#define VL_MAKE_ANY (VL_FS_MAKE_REG | VL_FS_MAKE_DIR | VL_FS_MAKE_SYM | \
		     VL_FS_MAKE_SOCK | VL_FS_MAKE_FIFO)

struct ll_ent {
	char *path;
	uint64_t rights;
};

struct ll_port {
	uint64_t port;
	uint64_t rights;
};

struct ll {
	unsigned int abi;
	struct ll_ent *ents;
	size_t nents;
	/*
	 * Paths the program created while learning (literal rules with c):
	 * they and what is beneath them may not exist when the ruleset is
	 * applied. cfold/dfold: the folders it created (c, l) and removed
	 * (d) names in, for refer.
	 */
	char **created, **cfold, **dfold;
	size_t ncreated, ncfold, ndfold;
	struct ll_port *ports;
	size_t nports;
	struct export_notes *general, *left;
};

static int ll_add(struct ll *l, const char *path, size_t len, uint64_t rights)
{
	struct ll_ent *v;
	size_t i;

	if (!rights)
		return 0;
	while (len > 1 && path[len - 1] == '/')
		len--;
	for (i = 0; i < l->nents; i++) {
		if (strlen(l->ents[i].path) == len &&
		    !memcmp(l->ents[i].path, path, len)) {
			l->ents[i].rights |= rights;
			return 0;
		}
	}
	v = realloc(l->ents, (l->nents + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->ents = v;
	v[l->nents].path = strndup(path, len);
	if (!v[l->nents].path)
		return -ENOMEM;
	v[l->nents++].rights = rights;
	return 0;
}

static int ll_add_port(struct ll *l, uint64_t port, uint64_t rights)
{
	struct ll_port *v;
	size_t i;

	for (i = 0; i < l->nports; i++) {
		if (l->ports[i].port == port) {
			l->ports[i].rights |= rights;
			return 0;
		}
	}
	v = realloc(l->ports, (l->nports + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->ports = v;
	v[l->nports].port = port;
	v[l->nports++].rights = rights;
	return 0;
}

/* The length of path's parent ("/a/b" -> "/a", "/a" -> "/"). */
static size_t parent_len(const char *path)
{
	const char *s = strrchr(path, '/');

	if (!s || s == path)
		return 1;
	return s - path;
}

/* Add path[0..len) to a list of strings, once. */
static int list_add(char ***v, size_t *n, const char *path, size_t len)
{
	char **w;
	size_t i;

	for (i = 0; i < *n; i++)
		if (strlen((*v)[i]) == len && !memcmp((*v)[i], path, len))
			return 0;
	w = realloc(*v, (*n + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	*v = w;
	w[*n] = strndup(path, len);
	if (!w[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static void list_free(char ***v, size_t *n)
{
	size_t i;

	for (i = 0; i < *n; i++)
		free((*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

/* Whether p is a or beneath it. */
static bool path_within(const char *p, const char *a)
{
	size_t n = strlen(a);

	if (!strcmp(a, "/"))
		return true;
	return !strncmp(p, a, n) && (p[n] == '\0' || p[n] == '/');
}

/*
 * What the program did to names while learning, for the ruleset's
 * lifting and refer: the paths it created, the folders it created or
 * linked names in and those it removed names from.
 */
static int ll_evidence(struct ll *l, const char *path, bool lit,
		       uint64_t acc)
{
	size_t fl = lit ? parent_len(path) : strlen(path);
	int rc = 0;

	if (lit && (acc & VIGIL_FILE_C))
		rc = list_add(&l->created, &l->ncreated, path, strlen(path));
	if (!rc && (acc & (VIGIL_FILE_C | VIGIL_FILE_L)))
		rc = list_add(&l->cfold, &l->ncfold, path, fl);
	if (!rc && (acc & VIGIL_FILE_D))
		rc = list_add(&l->dfold, &l->ndfold, path, fl);
	return rc;
}

/* Whether path can go into JSON unchanged as UTF-8. */
static bool utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n;

		if (*p < 0x80) {
			p++;
			continue;
		}
		if ((*p & 0xe0) == 0xc0 && *p >= 0xc2)
			n = 1;
		else if ((*p & 0xf0) == 0xe0)
			n = 2;
		else if ((*p & 0xf8) == 0xf0 && *p <= 0xf4)
			n = 3;
		else
			return false;
		for (p++; n; n--, p++)
			if ((*p & 0xc0) != 0x80)
				return false;
	}
	return true;
}

static int ll_file(struct ll *l, const struct vigil_rule *r)
{
	uint64_t acc = r->access, f = 0, d = 0;
	char *path = NULL;
	struct stat st;
	bool lit;
	int rc;

	rc = export_rule_path(r, l->left, "not an absolute path: "
			      "Landlock rules name files (left out)",
			      &path, &lit);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (!utf8_ok(path)) {
		rc = note_rule(l->left, r, "not UTF-8: JSON cannot carry it "
			       "(left out)");
		goto out;
	}
	if (acc & VIGIL_FILE_R)
		f |= VL_FS_READ_FILE;
	if (acc & (VIGIL_FILE_W | VIGIL_FILE_A))
		f |= VL_FS_WRITE_FILE;
	if (acc & VIGIL_FILE_X)
		f |= VL_FS_EXECUTE;
	if (acc & VIGIL_FILE_M)
		f |= VL_FS_READ_FILE | VL_FS_EXECUTE;
	if (acc & VIGIL_FILE_T) {
		if (l->abi >= 3)
			f |= VL_FS_TRUNCATE;
		else
			rc = note_add(l->general, "t (truncate): not "
				      "controlled before ABI 3 (allowed)");
	}
	if (acc & VIGIL_FILE_I) {
		if (l->abi >= 5)
			f |= VL_FS_IOCTL_DEV;
		else
			rc = note_add(l->general, "i (ioctl): not controlled "
				      "before ABI 5 (allowed)");
	}
	if (acc & (VIGIL_FILE_S | VIGIL_FILE_K))
		rc = note_add(l->general, "s (chmod, chown) and k (lock) "
			      "are never controlled by Landlock (allowed)");
	if (rc)
		goto out;
	if (acc & VIGIL_FILE_C)
		d |= VL_MAKE_ANY;
	if (acc & VIGIL_FILE_D)
		d |= VL_FS_REMOVE_FILE | VL_FS_REMOVE_DIR;
	if (acc & VIGIL_FILE_L)
		d |= VL_FS_MAKE_REG;
	rc = ll_evidence(l, path, lit, acc);
	if (rc)
		goto out;
	if (!lit) {
		/* Everything beneath the glob's literal folder. */
		if (acc & VIGIL_FILE_R)
			f |= VL_FS_READ_DIR;
		rc = ll_add(l, path, strlen(path), f | d);
		if (!rc)
			rc = note_rule(l->left, r, "glob: allowed beneath its "
				       "glob-free folder (broader)");
		goto out;
	}
	if (acc & VIGIL_FILE_C) {
		/* Created by the program: it may not exist when the
		 * ruleset is made, so its folder gets its rights. */
		if (acc & VIGIL_FILE_R)
			f |= VL_FS_READ_DIR;
		rc = ll_add(l, path, parent_len(path), f | d);
		if (!rc)
			rc = note_rule(l->left, r, "created by the program: "
				       "allowed in its whole folder (broader)");
		goto out;
	}
	if ((f & VL_FS_READ_FILE) && !stat(path, &st) && S_ISDIR(st.st_mode))
		f = (f & ~VL_FS_READ_FILE) | VL_FS_READ_DIR;
	rc = ll_add(l, path, strlen(path), f);
	if (!rc && d)
		rc = ll_add(l, path, parent_len(path), d);
	if (!rc && d)
		rc = note_rule(l->left, r, "delete/link: allowed in its "
			       "whole folder (broader)");
out:
	free(path);
	return rc;
}

static int ll_net(struct ll *l, const struct vigil_rule *r)
{
	struct net_obj no;
	uint64_t n = 0;
	bool tcp;
	int rc;

	rc = net_obj_parse(r, &no);
	if (rc == -EINVAL)
		return note_rule(l->left, r, "not a FAMILY:TYPE object");
	if (rc)
		return rc;
	tcp = (!strcmp(no.family, "inet") || !strcmp(no.family, "inet6")) &&
	      !strcmp(no.type, "stream");
	if (!strcmp(no.family, "unix") && no.addr && no.addr[0] == '/' &&
	    (r->access & VIGIL_NET_BIND)) {
		/* Binding a named socket makes a file. */
		rc = ll_add(l, no.addr, parent_len(no.addr), VL_FS_MAKE_SOCK);
		if (!rc)
			rc = note_rule(l->left, r, "bind of a named socket: "
				       "make_sock in its whole folder "
				       "(broader); Landlock does not control "
				       "the other operations (allowed)");
	} else if (tcp && l->abi >= 4 && no.port >= 0 &&
		   (r->access & (VIGIL_NET_BIND | VIGIL_NET_CONNECT))) {
		if (r->access & VIGIL_NET_BIND)
			n |= VL_NET_BIND_TCP;
		if (r->access & VIGIL_NET_CONNECT)
			n |= VL_NET_CONNECT_TCP;
		rc = ll_add_port(l, (uint64_t)no.port, n);
	} else if (tcp && l->abi >= 4 &&
		   (r->access & (VIGIL_NET_BIND | VIGIL_NET_CONNECT))) {
		rc = note_rule(l->left, r, "TCP bind/connect without a port "
			       "observed: denied by this ruleset");
	} else if (tcp && (r->access & (VIGIL_NET_BIND | VIGIL_NET_CONNECT))) {
		rc = note_rule(l->left, r, "TCP ports need ABI 4 (Linux "
			       "6.7): not controlled here (allowed)");
	} else {
		rc = note_rule(l->left, r, "Landlock controls only TCP bind "
			       "and connect: not controlled (allowed)");
	}
	net_obj_free(&no);
	return rc;
}

static int ll_rule(struct export_ctx *c, const struct vigil_rule *r)
{
	struct ll *l = c->priv;

	switch (r->class) {
	case VIGIL_CLASS_FILE:
		return ll_file(l, r);
	case VIGIL_CLASS_NET:
		return ll_net(l, r);
	case VIGIL_CLASS_CAP:
		return note_rule(l->left, r, "Landlock does not control "
				 "capabilities (allowed; no_new_privs stops "
				 "setuid gains)");
	case VIGIL_CLASS_SIGNAL:
		return note_rule(l->left, r, l->abi >= 6 ?
				 "signals are not scoped by this ruleset "
				 "(allowed)" :
				 "signals: not controlled before ABI 6 "
				 "(allowed)");
	case VIGIL_CLASS_PTRACE:
		return note_rule(l->left, r, "ptrace: Landlock only lets a "
				 "sandboxed process trace processes in its own "
				 "domain (denied otherwise)");
	case VIGIL_CLASS_MOUNT:
		return note_rule(l->left, r, "mount and umount are always "
				 "denied to a Landlock-sandboxed process");
	case VIGIL_CLASS_MODULE:
		return note_rule(l->left, r, "Landlock does not control "
				 "module loading (allowed by path)");
	case VIGIL_CLASS_COUNT:	/* not a class: the driver notes it */
		break;
	}
	return -EINVAL;
}

static int ent_cmp(const void *a, const void *b)
{
	const struct ll_ent *x = a, *y = b;

	return strcmp(x->path, y->path);
}

static int port_cmp(const void *a, const void *b)
{
	const struct ll_port *x = a, *y = b;

	return x->port < y->port ? -1 : x->port > y->port;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_rights(FILE *f, uint64_t rights, const struct vl_name *v,
			unsigned int n)
{
	unsigned int i, m = 0;

	fputc('[', f);
	for (i = 0; i < n; i++)
		if (rights & v[i].bit)
			fprintf(f, "%s\"%s\"", m++ ? ", " : "", v[i].name);
	fputc(']', f);
}

/* The parent of path (a new string; "/" stays "/"). */
static char *parent_dup(const char *path)
{
	return strndup(path, parent_len(path));
}

/*
 * A ruleset never names a path that may not exist when it is applied:
 * each entry on a path the program created while learning, or beneath
 * one, goes to the created path's parent, or the nearest folder above
 * that exists here, with its own rights (the rules beneath it need
 * them), said in the .txt; unless that folder holds what a sensitive
 * pattern names (/var/lib, /home/NAME, /): then it stays. Then, when
 * the program created or linked names in one folder and removed names
 * in another while learning (a rename or link across folders, which
 * fails with EXDEV without it), refer (ABI 2) on every entry that may
 * make or remove names.
 */
static int ll_settle(struct ll *l)
{
	struct ll_ent *old = l->ents;
	size_t nold = l->nents, i, j;
	bool cross = false;
	int rc = 0;

	l->ents = NULL;
	l->nents = 0;
	for (i = 0; i < nold; i++) {
		char *t = strdup(old[i].path), *p;
		const char *top = NULL, *why = NULL, *sens = NULL;
		struct stat st;

		if (!t) {
			rc = -ENOMEM;
			break;
		}
		/* the topmost created path it is, or is beneath */
		for (j = 0; j < l->ncreated; j++)
			if (path_within(t, l->created[j]) &&
			    (!top || strlen(l->created[j]) < strlen(top)))
				top = l->created[j];
		if (top) {
			free(t);
			t = parent_dup(top);
			why = "created by the program while learning";
		}
		/* up to the nearest folder that exists here */
		while (t && top && strcmp(t, "/") && lstat(t, &st)) {
			p = parent_dup(t);
			free(t);
			t = p;
		}
		if (!t) {
			rc = -ENOMEM;
			break;
		}
		if (top) {
			rc = vigil_sensitive_beneath(t, &sens);
			if (rc)
				break;
		}
		if (sens) {
			/* never rights over a folder of secrets */
			char *e = vigil_glob_escape_dup(old[i].path,
							strlen(old[i].path),
							false);
			char *et = vigil_glob_escape_dup(t, strlen(t), false);

			rc = e && et ? note_add(l->left, "%s: created by the "
						"program while learning, kept: "
						"%s holds what the sensitive "
						"pattern %s names (vigil run "
						"skips it when absent)", e, et,
						sens) : -ENOMEM;
			free(e);
			free(et);
			free(t);
			t = strdup(old[i].path);
			if (!t)
				rc = -ENOMEM;
		} else if (strcmp(t, old[i].path)) {
			char *e = vigil_glob_escape_dup(old[i].path,
							strlen(old[i].path),
							false);
			char *et = vigil_glob_escape_dup(t, strlen(t), false);

			rc = e && et ? note_add(l->left, "%s: may not exist "
						"when the ruleset is applied "
						"(%s): its rights are granted "
						"on %s, the nearest folder "
						"that exists (broader)", e,
						why, et) : -ENOMEM;
			free(e);
			free(et);
		}
		if (!rc)
			rc = ll_add(l, t, strlen(t), old[i].rights);
		free(t);
		if (rc)
			break;
	}
	for (i = 0; i < nold; i++)
		free(old[i].path);
	free(old);
	if (rc || l->abi < 2)
		return rc;
	for (i = 0; i < l->ncfold && !cross; i++)
		for (j = 0; j < l->ndfold && !cross; j++)
			cross = strcmp(l->cfold[i], l->dfold[j]) != 0;
	if (!cross)
		return 0;
	for (i = 0; i < l->nents; i++)
		if (l->ents[i].rights & (VL_MAKE_ANY | VL_FS_REMOVE_FILE |
					 VL_FS_REMOVE_DIR))
			l->ents[i].rights |= VL_FS_REFER;
	return note_add(l->general, "refer (ABI 2) granted where names may "
			"be made or removed: the program created or linked "
			"names in one folder and removed names from another "
			"while learning (a rename or link across folders, "
			"EXDEV without refer); Landlock still refuses a move "
			"that would gain rights");
}

static int ll_json(struct ll *l, FILE *f)
{
	size_t i, j, m = 0;
	bool *done;

	if (l->nents)
		qsort(l->ents, l->nents, sizeof(*l->ents), ent_cmp);
	if (l->nports)
		qsort(l->ports, l->nports, sizeof(*l->ports), port_cmp);
	fprintf(f, "{\n  \"abi\": %u,\n  \"ruleset\": [\n    {\n"
		"      \"handledAccessFs\": [\"abi.all\"]", l->abi);
	if (l->abi >= 4)
		fputs(",\n      \"handledAccessNet\": [\"abi.all\"]", f);
	fputs("\n    }\n  ]", f);
	done = calloc(l->nents + 1, sizeof(*done));
	if (!done)
		return -ENOMEM;
	if (l->nents)
		fputs(",\n  \"pathBeneath\": [", f);
	/* One entry per distinct set of rights, paths sorted. */
	for (i = 0; i < l->nents; i++) {
		if (done[i])
			continue;
		fprintf(f, "%s\n    {\n      \"allowedAccess\": ",
			m++ ? "," : "");
		json_rights(f, l->ents[i].rights, vl_fs_names, vl_nr_fs_names);
		fputs(",\n      \"parent\": [", f);
		for (j = i; j < l->nents; j++) {
			if (done[j] || l->ents[j].rights != l->ents[i].rights)
				continue;
			done[j] = true;
			fputs(j == i ? "\n        " : ",\n        ", f);
			json_str(f, l->ents[j].path);
		}
		fputs("\n      ]\n    }", f);
	}
	if (l->nents)
		fputs("\n  ]", f);
	free(done);
	if (l->nports) {
		fputs(",\n  \"netPort\": [", f);
		for (i = 0; i < l->nports; i++) {
			fprintf(f, "%s\n    {\n      \"allowedAccess\": ",
				i ? "," : "");
			json_rights(f, l->ports[i].rights, vl_net_names,
				    vl_nr_net_names);
			fprintf(f, ",\n      \"port\": [%llu]\n    }",
				(unsigned long long)l->ports[i].port);
		}
		fputs("\n  ]", f);
	}
	fputs("\n}\n", f);
	return 0;
}

static void ll_reset(struct ll *l)
{
	size_t i;

	for (i = 0; i < l->nents; i++)
		free(l->ents[i].path);
	free(l->ents);
	free(l->ports);
	l->ents = NULL;
	l->ports = NULL;
	l->nents = l->nports = 0;
	list_free(&l->created, &l->ncreated);
	list_free(&l->cfold, &l->ncfold);
	list_free(&l->dfold, &l->ndfold);
}

static const char *const ll_general[] = {
	"Landlock rules allow rights on a file or beneath a folder; "
	"every other file access is denied (handledAccessFs: all "
	"rights of the ABI)",
	"r->read_file (read_dir for folders), w and a->write_file, "
	"x->execute, m->read_file and execute (Landlock has no mmap "
	"right; the dynamic loader needs execute), c->make_reg, "
	"make_dir, make_sym, make_sock, make_fifo on the folder, "
	"d->remove_file and remove_dir on the folder, l->make_reg "
	"on the folder, t->truncate (ABI 3), i->ioctl_dev (ABI 5); "
	"refer only where the program moved names across folders",
	"the subject's executable, and those of the children it runs "
	"that are subjects here, get execute and read_file (so vigil "
	"run can exec it); the children's rules are included (a "
	"Landlock domain is inherited across exec)",
	"a path the program created while learning (or one beneath it) "
	"is never named: its rights go to the nearest folder above it that "
	"exists (listed below), unless that folder holds sensitive objects; "
	"vigil run skips a path that does not exist when it starts (with "
	"a warning)",
	"the header is this file because JSON has no comments; "
	"the .json file is "
	"plain landlockconfig",
};

static int ll_begin(struct export_ctx *c)
{
	struct ll *l = c->priv;

	l->abi = c->o && c->o->landlock_abi ? c->o->landlock_abi :
		 (unsigned int)landlock_abi_version();
	if (!l->abi)
		l->abi = 1;
	if (l->abi > VL_ABI_MAX)
		l->abi = VL_ABI_MAX;
	l->general = &c->general;
	l->left = &c->left;
	return 0;
}

/* What the ABI cannot control, after the general notes. */
static int ll_subject_begin(struct export_ctx *c)
{
	struct ll *l = c->priv;
	int rc = 0;

	ll_reset(l);
	if (l->abi < 4)
		rc = note_add(l->general, "ABI %u has no network rules (ABI "
			      "4, Linux 6.7): TCP bind and connect are "
			      "allowed", l->abi);
	if (!rc && l->abi < 3)
		rc = note_add(l->general, "ABI %u cannot control truncate "
			      "(ABI 3, Linux 6.2)", l->abi);
	if (!rc && l->abi < 5)
		rc = note_add(l->general, "ABI %u cannot control ioctl (ABI "
			      "5, Linux 6.10)", l->abi);
	if (!rc)
		rc = note_add(l->general, "never expressible in Landlock: "
			      "capabilities, ptrace targets, mount, module "
			      "loading, chmod/chown, locks; signals only as "
			      "a scope (ABI 6)");
	return rc;
}

/* Each executable run under the ruleset: execute and read_file. */
static int ll_reached(struct export_ctx *c,
		      const struct vigil_subject_rules *sr)
{
	struct ll *l = c->priv;
	char *e;
	int rc;

	if (utf8_ok(sr->exe))
		return ll_add(l, sr->exe, strlen(sr->exe),
			      VL_FS_EXECUTE | VL_FS_READ_FILE);
	e = vigil_glob_escape_dup(sr->exe, strlen(sr->exe), false);
	if (!e)
		return -ENOMEM;
	rc = note_add(l->left, "execute %s: not UTF-8: JSON cannot carry it "
		      "(left out)", e);
	free(e);
	return rc;
}

/* The JSON, then the text file with the header beside it. */
static int ll_subject_end(struct export_ctx *c)
{
	struct ll *l = c->priv;
	char *text = NULL, *name = NULL, *json = NULL, *txt = NULL,
	     *lead = NULL;
	size_t len = 0;
	FILE *f;
	int rc = -ENOMEM;

	name = export_subject_name(c->sr->exe);
	if (!name)
		goto out;
	rc = ll_settle(l);
	if (rc)
		goto out;
	rc = -ENOMEM;
	f = open_memstream(&text, &len);
	if (!f)
		goto out;
	rc = ll_json(l, f);
	if (fclose(f) || rc) {
		rc = -ENOMEM;
		goto out;
	}
	rc = -ENOMEM;
	if (asprintf(&json, "%s.landlock.json", name) < 0) {
		json = NULL;
		goto out;
	}
	if (asprintf(&txt, "%s.landlock.txt", name) < 0) {
		txt = NULL;
		goto out;
	}
	if (asprintf(&lead, "# apply with: vigil run --landlock %s -- "
		     "COMMAND [ARGS]\n", json) < 0) {
		lead = NULL;
		goto out;
	}
	rc = export_emit(c, &(struct export_file){
		.name = json, .text = text, .len = len, .raw = true,
	});
	if (!rc)
		rc = export_emit(c, &(struct export_file){
			.name = txt, .lead = lead,
		});
out:
	free(text);
	free(name);
	free(json);
	free(txt);
	free(lead);
	return rc;
}

static void ll_release(struct export_ctx *c)
{
	ll_reset(c->priv);
}

const struct export_target export_landlock = {
	.name = "landlock",
	.title = "Landlock ruleset",
	.via_note = "a Landlock ruleset applies to every program the subject runs: "
		    "the blocks 'via' it (its children) are included (the union of "
		    "their rules) and get no ruleset of their own",
	.inherit = true,
	.general = ll_general,
	.ngeneral = ARRAY_SIZE(ll_general),
	.priv_size = sizeof(struct ll),
	.begin = ll_begin,
	.subject_begin = ll_subject_begin,
	.reached = ll_reached,
	.rule = ll_rule,
	.subject_end = ll_subject_end,
	.release = ll_release,
};
