// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: export to AppArmor, one profile per subject attached by
 * path (abi 3.0), for apparmor_parser.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "vigil.h"
#include "driver.h"
#include "object.h"
#include "record.h"
#include "escape.h"

struct aa {
	const struct vigil_ruleset *rs;
	const bool *reach;	/* reach[i * n + j]: j runs under i (ix) */
	FILE *f;		/* the profile's body */
	struct export_notes *general, *left;
	char **names;		/* profile name per subject */
	/* the network lines of the profile being written, each once */
	struct export_notes net;
	char *from;		/* "(CHILD) ": whose rules are written */
	/*
	 * Cx: the via children of the profile being written that get a
	 * child profile (cx[j], why[j]: the capability or network they need
	 * that the service's own block lacks), written into nf (nested),
	 * then into the profile before its end (the driver's nest step).
	 * nesting: writing one (its exec rules stay ix); top, top_net: the
	 * profile's stream and network lines while it is written.
	 */
	bool *cx;
	char **why;
	FILE *nf, *top;
	char *nested;
	size_t nlen;
	struct export_notes top_net;
	bool nesting;
};

/* A "network ..." line, unless the profile has it already. */
static int aa_network(struct aa *a, const char *family, const char *type)
{
	size_t n = a->net.n;
	int rc;

	rc = note_add(&a->net, "%s%s%s", family, type ? " " : "",
		      type ? type : "");
	if (rc || a->net.n == n)
		return rc;
	fprintf(a->f, "  network %s,\n", a->net.v[n]);
	return 0;
}

/*
 * A path character at s (at most max bytes): the glob metacharacters and
 * the quote escaped; a byte of what is not printable UTF-8 (escape.h:
 * control bytes, C1, stray bytes) in octal (AppArmor reads \ooo inside
 * quotes). The bytes written from s.
 */
static size_t aa_lit(FILE *f, const char *s, size_t max)
{
	unsigned char c = (unsigned char)*s;
	size_t n = esc_printable(s, max);

	if (!n)
		fprintf(f, "\\%03o", c);
	else if (n == 1 && strchr("\"\\*?[]{},^@", c))
		fprintf(f, "\\%c", c);
	else
		fwrite(s, 1, n, f);
	return n ? n : 1;
}

/* A glob, always quoted (a space or '#' would end an unquoted one). */
static void aa_path(FILE *f, const struct glob_toks *g, const char *suffix)
{
	size_t i, k;
	char ch[4];

	fputc('"', f);
	for (i = 0; i < g->n; i++) {
		switch (g->t[i].kind) {
		case GT_LIT:
			/* the literal bytes of one character */
			for (k = 0; k < sizeof(ch) && i + k < g->n &&
			     g->t[i + k].kind == GT_LIT; k++)
				ch[k] = (char)g->t[i + k].c;
			i += aa_lit(f, ch, k) - 1;
			break;
		case GT_STAR:
			fputc('*', f);
			break;
		case GT_STAR2:
			fputs("**", f);
			break;
		case GT_QMARK:
			fputc('?', f);
			break;
		case GT_LBRACE:
			fputc('{', f);
			break;
		case GT_COMMA:
			fputc(',', f);
			break;
		case GT_RBRACE:
			fputc('}', f);
			break;
		}
	}
	fprintf(f, "%s\"", suffix);
}

static void aa_literal_path(FILE *f, const char *s)
{
	size_t len = strlen(s);

	fputc('"', f);
	while (*s) {
		size_t n = aa_lit(f, s, len);

		s += n;
		len -= n;
	}
	fputc('"', f);
}

static ssize_t subject_index(const struct vigil_ruleset *rs, const char *exe)
{
	const struct vigil_subject_rules *sr = export_find_subject(rs, exe);

	return sr ? sr - rs->subjects : -1;
}

/* "peer=NAME" or "peer={A,B}": the profiles a process of exe runs under. */
static bool aa_peer(struct aa *a, const char *exe)
{
	size_t n = a->rs->nsubjects, i, m = 0;
	ssize_t t = subject_index(a->rs, exe);

	if (t < 0) {
		fputs("peer=unconfined", a->f);
		return false;
	}
	for (i = 0; i < n; i++)
		m += a->reach[i * n + t] && !a->rs->subjects[i].via;
	fputs(m > 1 ? "peer={" : "peer=", a->f);
	for (i = 0, m = 0; i < n; i++) {
		/* a via block has no profile: it runs in its parent's */
		if (!a->reach[i * n + t] || a->rs->subjects[i].via)
			continue;
		fprintf(a->f, "%s%s", m++ ? "," : "", a->names[i]);
	}
	if (m > 1)
		fputc('}', a->f);
	return true;
}

static void aa_signals(FILE *f, uint64_t sigs)
{
	char buf[16];
	int s, m = 0;

	fputs("set=(", f);
	for (s = 1; s <= VIGIL_SIGNAL_MAX; s++) {
		const char *name;

		if (!(sigs & (1ULL << (s - 1))))
			continue;
		if (s >= 32)
			snprintf(buf, sizeof(buf), "rtmin+%d", s - 32);
		name = s >= 32 ? buf : vigil_signal_name(s, buf, sizeof(buf));
		if (name && !strcmp(name, "tstp"))
			name = "stp";
		fprintf(f, "%s%s", m++ ? " " : "", name ? name : "?");
	}
	fputc(')', f);
}

static const char *const aa_families[] = {
	"unix", "inet", "inet6", "netlink", "packet",
};
static const char *const aa_types[] = {
	"stream", "dgram", "raw", "seqpacket", "rdm", "packet",
};

static bool in_list(const char *s, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, v[i]))
			return true;
	return false;
}

/* The suffix that makes a path rule match directories too. */
static const char *aa_dir_suffix(const struct glob_toks *g, uint64_t acc)
{
	struct stat st;
	char *lit;
	int rc;

	if (g->n && g->t[g->n - 1].kind == GT_STAR2)
		return "";
	if (g->n && g->t[g->n - 1].kind == GT_LIT && g->t[g->n - 1].c == '/')
		return "";
	lit = glob_toks_text(g);
	/*
	 * Only read (opendir), create, delete and chmod apply to folders;
	 * but a glob with c may name folders the program makes (mkdir asks
	 * AppArmor for the name with its trailing '/'), whatever else it
	 * grants: ".git/STAR" with rwcd must let git make ".git/hooks/".
	 */
	if ((lit || !(acc & VIGIL_FILE_C)) &&
	    (acc & ~(uint64_t)(VIGIL_FILE_R | VIGIL_FILE_C | VIGIL_FILE_D |
			       VIGIL_FILE_S))) {
		free(lit);
		return "";
	}
	if (!lit)
		return "{,/}";
	rc = stat(lit, &st);
	free(lit);
	if (rc)
		return "{,/}";
	return S_ISDIR(st.st_mode) ? "/" : "";
}

/* The index of the Cx child whose exe rule r (an exec rule) names. */
static ssize_t aa_cx_child(const struct aa *a, const struct vigil_rule *r)
{
	size_t j;

	if (a->nesting || !a->cx || r->generalised ||
	    !(r->access & VIGIL_FILE_X))
		return -1;
	for (j = 0; j < a->rs->nsubjects; j++)
		if (a->cx[j] && !strcmp(a->rs->subjects[j].exe, r->object))
			return (ssize_t)j;
	return -1;
}

static int aa_file(struct aa *a, const struct vigil_rule *r)
{
	const char *from = a->from ? a->from : "";
	uint64_t acc = r->access;
	struct glob_toks g = { 0 };
	char mode[16];
	size_t m = 0;
	ssize_t cx;
	int rc;

	if ((acc & VIGIL_FILE_I)) {
		rc = note_add(a->general, "i (ioctl) is not mediated by "
			      "AppArmor 3.0 file rules: ioctl is allowed on "
			      "any file the profile lets the program open");
		if (rc)
			return rc;
	}
	rc = glob_toks_of_rule(r, &g);
	if (rc == -EINVAL || (!rc && (!g.n || g.t[0].kind != GT_LIT ||
				      g.t[0].c != '/'))) {
		glob_toks_free(&g);
		return note_rule(a->left, r, "not an absolute path: "
				 "AppArmor file rules need one");
	}
	if (rc)
		return rc;
	if (acc & VIGIL_FILE_M)
		mode[m++] = 'm';
	/*
	 * AppArmor asks for r as well as w on the source of a rename; vigil's
	 * d covers unlink and rename sources alike, so d grants r too.
	 */
	if (acc & (VIGIL_FILE_R | VIGIL_FILE_D))
		mode[m++] = 'r';
	if (acc & (VIGIL_FILE_W | VIGIL_FILE_C | VIGIL_FILE_D |
		   VIGIL_FILE_T | VIGIL_FILE_S))
		mode[m++] = 'w';
	else if (acc & VIGIL_FILE_A)
		mode[m++] = 'a';
	if (acc & VIGIL_FILE_L)
		mode[m++] = 'l';
	if (acc & VIGIL_FILE_K)
		mode[m++] = 'k';
	cx = aa_cx_child(a, r);
	if ((acc & VIGIL_FILE_X) && cx < 0) {
		mode[m++] = 'i';
		mode[m++] = 'x';
	}
	mode[m] = '\0';
	if (cx >= 0) {
		/* the child's own profile: Cx to it, the other letters
		 * apart */
		if (m) {
			fputs("  ", a->f);
			aa_path(a->f, &g, "");
			fprintf(a->f, " %s,\n", mode);
		}
		fputs("  ", a->f);
		aa_path(a->f, &g, "");
		fprintf(a->f, " Cx -> %s,\n", a->names[cx]);
		glob_toks_free(&g);
		return 0;
	}
	if (!m) {
		glob_toks_free(&g);
		return note_rule(a->left, r, "ioctl only: AppArmor 3.0 has "
				 "no ioctl permission (allowed on open files)");
	}
	if (r->generalised && r->why)
		fprintf(a->f, "  # %sgeneralised: %s\n", from, r->why);
	fputs("  ", a->f);
	aa_path(a->f, &g, aa_dir_suffix(&g, acc));
	fprintf(a->f, " %s,\n", mode);
	glob_toks_free(&g);
	return 0;
}

static int aa_net(struct aa *a, const struct vigil_rule *r)
{
	struct net_obj no;
	int rc;

	rc = net_obj_parse(r, &no);
	if (rc == -EINVAL)
		return note_rule(a->left, r, "not a FAMILY:TYPE object");
	if (rc)
		return rc;
	if (!in_list(no.family, aa_families, ARRAY_SIZE(aa_families))) {
		rc = note_rule(a->left, r, "family unknown to AppArmor 3.0");
		goto out;
	}
	if (in_list(no.type, aa_types, ARRAY_SIZE(aa_types))) {
		rc = aa_network(a, no.family, no.type);
	} else {
		rc = aa_network(a, no.family, NULL);
		if (!rc)
			rc = note_rule(a->left, r, "socket type unknown to "
				       "AppArmor: every type of the family "
				       "allowed");
	}
	if (rc)
		goto out;
	if (no.addr && !strcmp(no.family, "unix") && no.addr[0] == '/') {
		/* A named socket is a file: bind creates it, connect
		 * writes it. */
		fputs("  ", a->f);
		aa_literal_path(a->f, no.addr);
		fputs(" rw,\n", a->f);
	} else if (no.addr && !strcmp(no.family, "unix")) {
		rc = note_rule(a->left, r, "abstract unix address: AppArmor "
			       "3.0 network rules name no address (any "
			       "allowed)");
	} else if (no.addr) {
		rc = note_rule(a->left, r, "port: AppArmor 3.0 network rules "
			       "have no ports (every port allowed)");
	}
out:
	net_obj_free(&no);
	return rc;
}

static int aa_rule(struct export_ctx *c, const struct vigil_rule *r)
{
	struct aa *a = c->priv;
	bool caps[VIGIL_CAP_COUNT];
	bool known;
	int i, rc;

	switch (r->class) {
	case VIGIL_CLASS_FILE:
		return aa_file(a, r);
	case VIGIL_CLASS_CAP:
		rc = export_caps(r, caps);
		if (rc == -EINVAL)
			return note_rule(a->left, r, "bad capability glob");
		if (rc)
			return rc;
		for (i = 0; i < VIGIL_CAP_COUNT; i++)
			if (caps[i])
				fprintf(a->f, "  capability %s,\n",
					vigil_cap_name(i));
		return 0;
	case VIGIL_CLASS_NET:
		return aa_net(a, r);
	case VIGIL_CLASS_SIGNAL:
		fputs("  signal (send) ", a->f);
		aa_signals(a->f, r->access);
		fputc(' ', a->f);
		known = aa_peer(a, r->object);
		fputs(",\n", a->f);
		return known ? 0 : note_rule(a->left, r,
			"target is not a subject here: peer=unconfined "
			"(denied if it runs under another profile)");
	case VIGIL_CLASS_PTRACE:
		fprintf(a->f, "  ptrace (%s%s%s) ",
			r->access & VIGIL_PTRACE_READ ? "read" : "",
			r->access == (VIGIL_PTRACE_READ | VIGIL_PTRACE_ATTACH) ?
				", " : "",
			r->access & VIGIL_PTRACE_ATTACH ? "trace" : "");
		known = aa_peer(a, r->object);
		fputs(",\n", a->f);
		return known ? 0 : note_rule(a->left, r,
			"target is not a subject here: peer=unconfined "
			"(denied if it runs under another profile)");
	case VIGIL_CLASS_MOUNT:
		if (r->object[0] != '/')
			return note_rule(a->left, r, "not an absolute path");
		if (r->access & VIGIL_MOUNT_MOUNT) {
			struct glob_toks g = { 0 };

			rc = glob_toks_of_rule(r, &g);
			if (rc)
				return rc == -EINVAL ?
					note_rule(a->left, r, "bad glob") : rc;
			fputs("  mount -> ", a->f);
			aa_path(a->f, &g, "");
			fputs(",\n", a->f);
			if (r->access & VIGIL_MOUNT_UMOUNT) {
				fputs("  umount ", a->f);
				aa_path(a->f, &g, "");
				fputs(",\n", a->f);
			}
			glob_toks_free(&g);
		} else if (r->access & VIGIL_MOUNT_UMOUNT) {
			struct glob_toks g = { 0 };

			rc = glob_toks_of_rule(r, &g);
			if (rc)
				return rc == -EINVAL ?
					note_rule(a->left, r, "bad glob") : rc;
			fputs("  umount ", a->f);
			aa_path(a->f, &g, "");
			fputs(",\n", a->f);
			glob_toks_free(&g);
		}
		return note_add(a->general, "mount rules allow any source, "
				"file system type and options at the mount "
				"point (vigil records only the mount point)");
	case VIGIL_CLASS_MODULE:
		fputs("  capability sys_module,\n", a->f);
		return note_rule(a->left, r, "AppArmor cannot restrict which "
				 "module is loaded: capability sys_module "
				 "allows any");
	case VIGIL_CLASS_COUNT:	/* not a class: the driver notes it */
		break;
	}
	return -EINVAL;
}

/* The receive side of signals and ptrace from other subjects. */
static int aa_receive(struct aa *a, size_t self)
{
	const struct vigil_ruleset *rs = a->rs;
	size_t n = rs->nsubjects, i, j;

	for (i = 0; i < n; i++) {
		const struct vigil_subject_rules *sr = &rs->subjects[i];

		for (j = 0; j < sr->nrules; j++) {
			const struct vigil_rule *r = &sr->rules[j];
			ssize_t t;

			if (r->class != VIGIL_CLASS_SIGNAL &&
			    r->class != VIGIL_CLASS_PTRACE)
				continue;
			t = subject_index(rs, r->object);
			if (t < 0 || !a->reach[self * n + t])
				continue;
			if (r->class == VIGIL_CLASS_SIGNAL) {
				fputs("  signal (receive) ", a->f);
				aa_signals(a->f, r->access);
				fputc(' ', a->f);
			} else {
				fprintf(a->f, "  ptrace (%s%s%s) ",
					r->access & VIGIL_PTRACE_READ ?
						"readby" : "",
					r->access == (VIGIL_PTRACE_READ |
						      VIGIL_PTRACE_ATTACH) ?
						", " : "",
					r->access & VIGIL_PTRACE_ATTACH ?
						"tracedby" : "");
			}
			aa_peer(a, sr->exe);
			fputs(",\n", a->f);
		}
	}
	return 0;
}

/*
 * A "#!" script's interpreter (its first line, on this machine), or NULL.
 * AppArmor attaches the profile by the script's path and then asks it for
 * the interpreter the kernel runs; vigil records that exec under the
 * parent, so the profile would lack it.
 */
static char *aa_interpreter(const char *exe)
{
	char buf[256], *p, *e;
	FILE *f = fopen(exe, "re");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (n < 3 || buf[0] != '#' || buf[1] != '!')
		return NULL;
	for (p = buf + 2; *p == ' ' || *p == '\t'; p++)
		;
	for (e = p; *e && *e != ' ' && *e != '\t' && *e != '\n'; e++)
		;
	if (*p != '/' || e == p || (*e != ' ' && *e != '\t' && *e != '\n'))
		return NULL;
	*e = '\0';
	/* AppArmor matches the path with symlinks resolved (/bin/sh is
	 * /usr/bin/dash on Debian) */
	e = realpath(p, NULL);
	return e ? e : strdup(p);
}

/* Whether the capabilities and networks of sr's rules are all in the
 * service's own; else the first one that is not, malloc'd, in *ret. */
static int aa_needs_more(const struct vigil_subject_rules *svc,
			 const struct vigil_subject_rules *sr, char **ret)
{
	bool have[VIGIL_CAP_COUNT] = { false }, caps[VIGIL_CAP_COUNT];
	size_t i, k;
	int c, rc = 0;

	*ret = NULL;
	for (i = 0; i < svc->nrules; i++) {
		if (svc->rules[i].class != VIGIL_CLASS_CAP ||
		    export_caps(&svc->rules[i], caps))
			continue;
		for (c = 0; c < VIGIL_CAP_COUNT; c++)
			have[c] |= caps[c];
	}
	for (i = 0; i < sr->nrules && !*ret && !rc; i++) {
		const struct vigil_rule *r = &sr->rules[i];
		struct net_obj no, o2;
		bool found = false;

		if (r->class == VIGIL_CLASS_CAP) {
			if (export_caps(r, caps))
				continue;
			for (c = 0; c < VIGIL_CAP_COUNT && !*ret; c++)
				if (caps[c] && !have[c] &&
				    asprintf(ret, "capability %s",
					     vigil_cap_name(c)) < 0) {
					*ret = NULL;
					rc = -ENOMEM;
					break;
				}
			continue;
		}
		if (r->class != VIGIL_CLASS_NET || net_obj_parse(r, &no))
			continue;
		for (k = 0; k < svc->nrules && !found; k++) {
			if (svc->rules[k].class != VIGIL_CLASS_NET ||
			    net_obj_parse(&svc->rules[k], &o2))
				continue;
			found = !strcmp(no.family, o2.family) &&
				!strcmp(no.type, o2.type);
			net_obj_free(&o2);
		}
		if (!found && asprintf(ret, "network %s %s", no.family,
				       no.type) < 0) {
			*ret = NULL;
			rc = -ENOMEM;
		}
		net_obj_free(&no);
	}
	return rc;
}

/* Whether the service's own block has a literal exec rule for exe. */
static bool aa_runs_literal(const struct vigil_subject_rules *svc,
			    const char *exe)
{
	size_t i;

	for (i = 0; i < svc->nrules; i++)
		if (svc->rules[i].class == VIGIL_CLASS_FILE &&
		    (svc->rules[i].access & VIGIL_FILE_X) &&
		    !svc->rules[i].generalised &&
		    !strcmp(svc->rules[i].object, exe))
			return true;
	return false;
}

/*
 * Which via children of the profile get Cx: those whose rules add a
 * capability or a network the service's own block does not have (ix
 * would give it to the service), when the service runs them by a literal
 * exec rule (a glob cannot be told apart).
 */
static int aa_choose_cx(struct export_ctx *c)
{
	const struct vigil_ruleset *rs = c->rs;
	struct aa *a = c->priv;
	size_t n = rs->nsubjects, j;
	int rc = 0;

	for (j = 0; j < n; j++) {
		free(a->why[j]);
		a->why[j] = NULL;
		a->cx[j] = false;
	}
	for (j = 0; j < n && !rc; j++) {
		const struct vigil_subject_rules *sr = &rs->subjects[j];

		if (j == c->self || !sr->via || sr->parent != c->self ||
		    !aa_runs_literal(c->sr, sr->exe))
			continue;
		rc = aa_needs_more(c->sr, sr, &a->why[j]);
		a->cx[j] = a->why[j] != NULL;
	}
	return rc;
}

/* The profile's first lines, the interpreter of a #! script. */
static int aa_subject_begin(struct export_ctx *c)
{
	struct aa *a = c->priv;
	char *interp = aa_interpreter(c->sr->exe);
	int rc;

	a->reach = c->reach;
	a->f = c->f;
	notes_free(&a->net);
	free(a->nested);
	a->nested = NULL;
	a->nlen = 0;
	a->nesting = false;
	rc = aa_choose_cx(c);
	if (rc) {
		free(interp);
		return rc;
	}
	fputs("abi <abi/3.0>,\n\ninclude <tunables/global>\n\n", c->f);
	fprintf(c->f, "profile %s ", a->names[c->self]);
	aa_literal_path(c->f, c->sr->exe);
	fputs(" {\n  include <abstractions/base>\n\n", c->f);
	if (interp) {
		fputs("  # a #! script: the interpreter of its first line runs "
		      "under this profile\n  ", c->f);
		aa_literal_path(c->f, interp);
		fputs(" mrix,\n", c->f);
		free(interp);
	}
	return 0;
}

/* Whether a reached subject is a Cx child (the driver's nest step). */
static int aa_nest(struct export_ctx *c, const struct vigil_subject_rules *sr)
{
	struct aa *a = c->priv;

	return a->cx[sr - c->rs->subjects] ? 1 : 0;
}

/*
 * A Cx child: its profile, nested in the service's (written at its end),
 * with its rules and those of the subjects it runs (ix there, aa_reached
 * says so); the service's exec rule for it is "Cx -> NAME".
 */
static int aa_nest_begin(struct export_ctx *c,
			 const struct vigil_subject_rules *sr)
{
	struct aa *a = c->priv;
	size_t self = (size_t)(sr - c->rs->subjects);
	char *e, *v;

	free(a->from);
	a->from = NULL;
	e = vigil_glob_escape_dup(sr->exe, strlen(sr->exe), false);
	v = vigil_glob_escape_dup(sr->via, strlen(sr->via), false);
	if (!e || !v) {
		free(e);
		free(v);
		return -ENOMEM;
	}
	fprintf(c->f, "\n  # subject %s via %s (a child scoped to this "
		"service): Cx -> %s, a child profile of its own below: it "
		"needs %s, which this service's own rules do not have (ix "
		"would grant it to the service too)\n", e, v,
		a->names[self], a->why[self]);
	free(e);
	free(v);
	if (!a->nf) {
		a->nf = open_memstream(&a->nested, &a->nlen);
		if (!a->nf)
			return -ENOMEM;
	}
	a->top = a->f;
	a->f = a->nf;
	a->top_net = a->net;
	memset(&a->net, 0, sizeof(a->net));
	a->nesting = true;
	fprintf(a->f, "\n  profile %s {\n    include <abstractions/base>\n\n",
		a->names[self]);
	return 0;
}

static int aa_nest_end(struct export_ctx *c,
		       const struct vigil_subject_rules *sr)
{
	struct aa *a = c->priv;

	(void)sr;
	fputs("  }\n", a->f);
	notes_free(&a->net);
	a->net = a->top_net;
	memset(&a->top_net, 0, sizeof(a->top_net));
	a->f = a->top;
	a->top = NULL;
	a->nesting = false;
	return 0;
}

/* A child run with ix: its rules follow, said so. */
static int aa_reached(struct export_ctx *c,
		      const struct vigil_subject_rules *sr)
{
	struct aa *a = c->priv;
	char *e;
	int rc;

	free(a->from);
	a->from = NULL;
	if (sr == c->sr || sr == c->nest)
		return 0;
	e = vigil_glob_escape_dup(sr->exe, strlen(sr->exe), false);
	if (!e)
		return -ENOMEM;
	if (c->nest) {
		/* a subject the Cx child runs: ix in the child profile */
		fprintf(a->f, "\n  # subject %s, run from here with ix: its "
			"rules too\n", e);
		free(e);
		return 0;
	}
	if (sr->via) {
		char *v = vigil_glob_escape_dup(sr->via, strlen(sr->via),
						false);

		if (!v) {
			free(e);
			return -ENOMEM;
		}
		fprintf(c->f, "\n  # subject %s via %s (a child scoped to "
			"this service): ix, its rules folded in here, so it "
			"runs under this profile and no profile of its own "
			"confines it when run outside the service (it needs no "
			"capability or network the service lacks: else Cx, a "
			"child profile, docs/export.md)\n", e,
			v);
		free(v);
	} else {
		fprintf(c->f, "\n  # subject %s, run from here with ix: its "
			"rules too\n", e);
	}
	rc = asprintf(&a->from, "(%s) ", e);
	free(e);
	if (rc < 0) {
		a->from = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int aa_subject_end(struct export_ctx *c)
{
	struct aa *a = c->priv;
	const char *body;
	size_t len;
	int rc;

	free(a->from);
	a->from = NULL;
	rc = aa_receive(a, c->self);
	if (rc)
		return rc;
	if (a->nf) {
		rc = fclose(a->nf) ? -ENOMEM : 0;
		a->nf = NULL;
		if (rc)
			return rc;
		fwrite(a->nested, 1, a->nlen, c->f);
	}
	fputs("}\n", c->f);
	rc = export_body(c, &body, &len);
	if (rc)
		return rc;
	return export_emit(c, &(struct export_file){
		.name = a->names[c->self], .text = body, .len = len,
	});
}

static const char *const aa_general[] = {
	"file letters: r->r, w->w, a->a (w covers it), m->m, l->l, k->k, "
	"x->ix; c (create), d (delete), t (truncate) and s (chmod, chown) "
	"->w, because AppArmor 3.0 has no finer permission (w is broader)",
	"x is ix: a child runs under this profile; the rules of children "
	"that are subjects of this export are included below",
	"a #! script's interpreter (its first line) gets mrix: AppArmor "
	"asks the script's profile for it",
	"each network line once, however many rules map to it",
	"paths that may be directories end in {,/} (AppArmor names a "
	"directory with a trailing /)",
	"network rules allow every operation (create, bind, connect, "
	"listen, accept) on every address of their family and type",
	"include <abstractions/base> allows what every program needs "
	"(libc, locales, /dev/null...): more than was observed",
};

/* The profile names, one per subject. */
static int aa_begin(struct export_ctx *c)
{
	const struct vigil_ruleset *rs = c->rs;
	struct aa *a = c->priv;
	size_t i;

	a->rs = rs;
	a->general = &c->general;
	a->left = &c->left;
	a->names = calloc(rs->nsubjects + 1, sizeof(*a->names));
	a->cx = calloc(rs->nsubjects + 1, sizeof(*a->cx));
	a->why = calloc(rs->nsubjects + 1, sizeof(*a->why));
	if (!a->names || !a->cx || !a->why)
		return -ENOMEM;
	for (i = 0; i < rs->nsubjects; i++) {
		/* the name report and diff know it by (record.h) */
		a->names[i] = aa_profile_name(rs->subjects[i].exe);
		if (!a->names[i])
			return -ENOMEM;
	}
	return 0;
}

static void aa_release(struct export_ctx *c)
{
	struct aa *a = c->priv;
	size_t i;

	if (a->names)
		for (i = 0; i < c->rs->nsubjects; i++)
			free(a->names[i]);
	free(a->names);
	if (a->why)
		for (i = 0; i < c->rs->nsubjects; i++)
			free(a->why[i]);
	free(a->why);
	free(a->cx);
	if (a->nf)
		fclose(a->nf);
	free(a->nested);
	free(a->from);
	notes_free(&a->net);
	notes_free(&a->top_net);
}

const struct export_target export_apparmor = {
	.name = "apparmor",
	.title = "AppArmor profile",
	.via_note = "a block 'via' this subject (a child scoped to it) is folded into "
		    "this profile with ix, or gets Cx to a child profile nested "
		    "here when it needs a capability or network this subject's "
		    "own rules lack, said at each: it gets no profile of its "
		    "own, so loading this export never confines that program "
		    "run outside the service",
	.inherit = true,
	.general = aa_general,
	.ngeneral = ARRAY_SIZE(aa_general),
	.priv_size = sizeof(struct aa),
	.begin = aa_begin,
	.subject_begin = aa_subject_begin,
	.reached = aa_reached,
	.nest = aa_nest,
	.nest_begin = aa_nest_begin,
	.nest_end = aa_nest_end,
	.rule = aa_rule,
	.subject_end = aa_subject_end,
	.release = aa_release,
};
