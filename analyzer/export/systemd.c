// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: export to systemd, a [Service] drop-in per subject
 * (vigil-NAME.conf) for the unit that runs it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vigil.h"
#include "driver.h"
#include "object.h"

struct sd {
	char **rw;		/* ReadWritePaths, deduplicated */
	size_t nrw;
	bool families[5];
	char **binds;		/* "tcp:8080" */
	size_t nbinds;
	bool caps[VIGIL_CAP_COUNT];
	bool home_read, home_write, modules;
	struct export_notes *general, *left;
};

static const char *const sd_families[] = {
	"unix", "inet", "inet6", "netlink", "packet",
};
static const char *const sd_af[] = {
	"AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK", "AF_PACKET",
};

static int strv_add(char ***v, size_t *n, const char *s, size_t len)
{
	char **nv;
	size_t i;

	for (i = 0; i < *n; i++)
		if (strlen((*v)[i]) == len && !memcmp((*v)[i], s, len))
			return 0;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strndup(s, len);
	if (!nv[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static void strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The deepest existing folder or file at or above path[0..len). */
static size_t existing_len(const char *path, size_t len)
{
	char *p = strndup(path, len);
	struct stat st;

	if (!p)
		return 1;
	while (len > 1) {
		p[len] = '\0';
		if (!stat(p, &st))
			break;
		while (len > 1 && p[len - 1] != '/')
			len--;
		if (len > 1)
			len--;	/* drop the '/' */
	}
	free(p);
	return len;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

static int sd_file(struct sd *s, const struct vigil_rule *r)
{
	uint64_t w = VIGIL_FILE_W | VIGIL_FILE_A | VIGIL_FILE_C |
		     VIGIL_FILE_D | VIGIL_FILE_T | VIGIL_FILE_S |
		     VIGIL_FILE_L | VIGIL_FILE_K;
	char *path;
	size_t len;
	bool lit;
	int rc;

	rc = export_rule_path(r, s->left,
			      "not an absolute path (left out)",
			      &path, &lit);
	if (rc)
		return rc > 0 ? 0 : rc;
	if (under(path, "/home") || under(path, "/root") ||
	    under(path, "/run/user")) {
		s->home_read = true;
		if (r->access & w)
			s->home_write = true;
	}
	if (!(r->access & w)) {
		free(path);
		return 0;
	}
	len = strlen(path);
	/* Created or deleted: the folder must be writable. */
	if (lit && (r->access & (VIGIL_FILE_C | VIGIL_FILE_D | VIGIL_FILE_L)))
		while (len > 1 && path[--len] != '/')
			;
	while (len > 1 && path[len - 1] == '/')
		len--;
	len = existing_len(path, len);
	rc = strv_add(&s->rw, &s->nrw, path, len);
	if (!rc && (!lit || len != strlen(path)))
		rc = note_rule(s->left, r, "written: its deepest existing "
			       "glob-free folder is writable (broader)");
	free(path);
	return rc;
}

static int sd_net(struct sd *s, const struct vigil_rule *r)
{
	struct net_obj no;
	char buf[32];
	size_t i;
	int rc;

	rc = net_obj_parse(r, &no);
	if (rc == -EINVAL)
		return note_rule(s->left, r, "not a FAMILY:TYPE object");
	if (rc)
		return rc;
	for (i = 0; i < ARRAY_SIZE(sd_families); i++)
		if (!strcmp(no.family, sd_families[i]))
			break;
	if (i < ARRAY_SIZE(sd_families)) {
		s->families[i] = true;
	} else {
		rc = note_rule(s->left, r, "address family unknown to vigil's "
			       "systemd export: not in RestrictAddressFamilies"
			       "= (denied)");
		goto out;
	}
	if ((r->access & VIGIL_NET_BIND) && no.port >= 0 &&
	    (!strcmp(no.type, "stream") || !strcmp(no.type, "dgram"))) {
		snprintf(buf, sizeof(buf), "%s:%d",
			 strcmp(no.type, "stream") ? "udp" : "tcp", no.port);
		rc = strv_add(&s->binds, &s->nbinds, buf, strlen(buf));
	} else if ((r->access & VIGIL_NET_BIND) &&
		   strcmp(no.family, "unix") && strcmp(no.family, "netlink")) {
		rc = note_rule(s->left, r, "bind without a TCP/UDP port: "
			       "denied by SocketBindDeny=any");
	}
	if (!rc && (r->access & VIGIL_NET_CONNECT) && no.port >= 0)
		rc = note_add(s->general, "connect: systemd cannot restrict "
			      "ports or addresses connected to (allowed)");
out:
	net_obj_free(&no);
	return rc;
}

static int sd_rule(struct export_ctx *c, const struct vigil_rule *r)
{
	struct sd *s = c->priv;
	bool caps[VIGIL_CAP_COUNT];
	int i, rc;

	switch (r->class) {
	case VIGIL_CLASS_FILE:
		return sd_file(s, r);
	case VIGIL_CLASS_NET:
		return sd_net(s, r);
	case VIGIL_CLASS_CAP:
		rc = export_caps(r, caps);
		if (rc == -EINVAL)
			return note_rule(s->left, r, "bad capability glob");
		for (i = 0; i < VIGIL_CAP_COUNT && !rc; i++)
			s->caps[i] |= caps[i];
		return rc;
	case VIGIL_CLASS_MODULE:
		s->modules = true;
		s->caps[vigil_cap_from_name("sys_module", 10)] = true;
		return note_rule(s->left, r, "which module: not expressible "
				 "(CAP_SYS_MODULE allows any)");
	case VIGIL_CLASS_MOUNT:
		return note_rule(s->left, r, "mount points: not expressible "
				 "(mounting needs CAP_SYS_ADMIN, kept only "
				 "if observed; ProtectSystem= mounts may "
				 "hide it)");
	case VIGIL_CLASS_SIGNAL:
	case VIGIL_CLASS_PTRACE:
		return note_rule(s->left, r, "signals and ptrace targets: not "
				 "expressible in systemd (allowed)");
	case VIGIL_CLASS_COUNT:	/* not a class: the driver notes it */
		break;
	}
	return -EINVAL;
}

static void sd_path(FILE *f, const char *p)
{
	const char *q;
	bool plain = true;

	for (q = p; *q; q++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789/._+-:@,=~", *q))
			plain = false;
	if (plain) {
		fputs(p, f);
		return;
	}
	fputc('"', f);
	for (q = p; *q; q++) {
		unsigned char c = (unsigned char)*q;

		if (c == '%')
			fputs("%%", f);
		else if (c == '"' || c == '\\' || c == '\'')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void sd_write(struct sd *s, FILE *f)
{
	size_t i;
	int c, m = 0;

	fputs("[Service]\nNoNewPrivileges=yes\nProtectSystem=strict\n", f);
	fputs(s->home_write ? "" : s->home_read ? "ProtectHome=read-only\n" :
						 "ProtectHome=yes\n", f);
	if (!s->modules)
		fputs("ProtectKernelModules=yes\n", f);
	if (s->nrw) {
		fputs("ReadWritePaths=", f);
		for (i = 0; i < s->nrw; i++) {
			fputs(i ? " " : "", f);
			sd_path(f, s->rw[i]);
		}
		fputc('\n', f);
	}
	fputs("CapabilityBoundingSet=", f);
	for (c = 0; c < VIGIL_CAP_COUNT; c++) {
		const char *n = vigil_cap_name(c);
		const char *p;

		if (!s->caps[c] || !n)
			continue;
		fputs(m++ ? " CAP_" : "CAP_", f);
		for (p = n; *p; p++)
			fputc(*p >= 'a' && *p <= 'z' ? *p - 32 : *p, f);
	}
	fputs("\nRestrictAddressFamilies=", f);
	for (i = 0, m = 0; i < ARRAY_SIZE(sd_af); i++)
		if (s->families[i])
			fprintf(f, "%s%s", m++ ? " " : "", sd_af[i]);
	if (!m)
		fputs("none", f);
	fputc('\n', f);
	for (i = 0; i < s->nbinds; i++)
		fprintf(f, "SocketBindAllow=%s\n", s->binds[i]);
	fputs("SocketBindDeny=any\n", f);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *const sd_general[] = {
	"ProtectSystem=strict: the whole file system is read-only but for "
	"ReadWritePaths= (each written path, or its deepest existing "
	"glob-free folder); reads are not restricted (systemd has no "
	"per-file read rules: ReadOnlyPaths= adds nothing under strict, "
	"InaccessiblePaths= would need what was NOT used)",
	"ProtectHome=yes when nothing under /home, /root, /run/user was "
	"used, read-only when it was only read",
	"PrivateTmp= is not set: vigil cannot tell whether files in /tmp "
	"are shared with other programs (set it if they are not)",
	"RestrictAddressFamilies= lists the families used; "
	"SocketBindAllow= the TCP/UDP ports bound, SocketBindDeny=any the "
	"rest",
	"CapabilityBoundingSet= lists the capabilities used (empty: none); "
	"NoNewPrivileges=yes: setuid programs it runs gain nothing",
	"what the program executes and maps is not restricted (ExecPaths= "
	"would need every library: not set)",
};

static void sd_reset(struct sd *s)
{
	struct export_notes *general = s->general, *left = s->left;

	strv_free(s->rw, s->nrw);
	strv_free(s->binds, s->nbinds);
	memset(s, 0, sizeof(*s));
	s->general = general;
	s->left = left;
}

static int sd_subject_begin(struct export_ctx *c)
{
	struct sd *s = c->priv;

	s->general = &c->general;
	s->left = &c->left;
	sd_reset(s);
	return 0;
}

static int sd_subject_end(struct export_ctx *c)
{
	struct sd *s = c->priv;
	char *name, *fname = NULL, *lead = NULL;
	const char *body;
	size_t len;
	int rc;

	if (s->nrw)
		qsort(s->rw, s->nrw, sizeof(*s->rw), str_cmp);
	sd_write(s, c->f);
	rc = export_body(c, &body, &len);
	if (rc)
		return rc;
	rc = -ENOMEM;
	name = export_subject_name(c->sr->exe);
	if (!name || asprintf(&fname, "vigil-%s.conf", name) < 0) {
		fname = NULL;
		goto out;
	}
	if (asprintf(&lead, "# install as /etc/systemd/system/UNIT.service.d/"
		     "%s for the unit that runs it\n", fname) < 0) {
		lead = NULL;
		goto out;
	}
	rc = export_emit(c, &(struct export_file){
		.name = fname, .lead = lead, .text = body, .len = len,
	});
out:
	free(name);
	free(fname);
	free(lead);
	return rc;
}

static void sd_release(struct export_ctx *c)
{
	sd_reset(c->priv);
}

const struct export_target export_systemd = {
	.name = "systemd",
	.title = "systemd drop-in",
	.inherit = true,
	.general = sd_general,
	.ngeneral = ARRAY_SIZE(sd_general),
	.via_note = "a unit's settings apply to every program the service runs: "
		    "the blocks 'via' it (its children) are included (the union of "
		    "their rules) and get no unit of their own",
	.children_note = "the unit's children run under the same settings: "
			 "the rules of those that are subjects here are "
			 "included",
	.priv_size = sizeof(struct sd),
	.subject_begin = sd_subject_begin,
	.rule = sd_rule,
	.subject_end = sd_subject_end,
	.release = sd_release,
};
