// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil owners": tell the kernel who owns which
 * subordinate uids (/etc/subuid), so that it bounds a user's 65,536
 * subordinate uids as that one user (docs/kernel.md, "Bounds per person").
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vigil.h"
#include "util.h"

#define SUBUID_MAX (16 * 1024 * 1024)
#define OWNERS_RANGES_MAX 4096	/* the kernel's VIGIL_OWNERS_MAX */

/* An owner's name or number: its uid, or -ENOENT (unknown name). */
static int owner_uid(const char *s, uint32_t *ret)
{
	const struct passwd *pw;
	uint64_t v;

	if (!parse_u64(s, UINT32_MAX - 1, &v)) {
		*ret = (uint32_t)v;
		return 0;
	}
	pw = getpwnam(s);
	if (!pw)
		return -ENOENT;
	*ret = pw->pw_uid;
	return 0;
}

/*
 * The owners map from subuid's text ("NAME_OR_UID:FIRST:COUNT" lines):
 * "FIRST COUNT OWNER" lines into *ret (malloc'ed). A malformed line is an
 * error naming file, line and field; a user unknown here is skipped with
 * a warning (its range is not charged to anyone: each uid its own).
 */
static int owners_text(const char *fname, char *text, char **ret,
		       size_t *ret_len)
{
	/* shown() has one buffer: the file's name, shown once, kept. */
	char *file = strdup(shown(fname));
	char *line, *next, *out = NULL;
	size_t len = 0, cap = 0;
	unsigned int lineno = 0, n = 0;

	if (!file) {
		p_err("out of memory");
		return -ENOMEM;
	}
	for (line = text; line && *line; line = next) {
		char *name, *first, *count, *end;
		uint64_t f, c;
		uint32_t owner;
		char buf[64];
		int w;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!*line || *line == '#')
			continue;
		name = line;
		first = strchr(name, ':');
		count = first ? strchr(first + 1, ':') : NULL;
		if (!count || strchr(count + 1, ':')) {
			p_err("%s:%u: expected NAME:FIRST:COUNT", file,
			      lineno);
			goto bad;
		}
		*first++ = '\0';
		*count++ = '\0';
		end = count + strlen(count);
		if (end > count && end[-1] == '\r')
			end[-1] = '\0';
		if (parse_u64(first, UINT32_MAX - 1, &f)) {
			p_err("%s:%u: FIRST '%s' is not a uid", file,
			      lineno, shown(first));
			goto bad;
		}
		if (parse_u64(count, UINT32_MAX, &c) || !c ||
		    c - 1 > UINT32_MAX - 1 - f) {
			p_err("%s:%u: COUNT '%s' is not a count of uids from %s",
			      file, lineno, shown(count), first);
			goto bad;
		}
		if (owner_uid(name, &owner)) {
			p_warn("%s:%u: no user '%s' here: its range is not charged to it",
			       file, lineno, shown(name));
			continue;
		}
		if (++n > OWNERS_RANGES_MAX) {
			p_err("%s:%u: more than %d ranges (the kernel's limit)",
			      file, lineno, OWNERS_RANGES_MAX);
			goto bad;
		}
		w = snprintf(buf, sizeof(buf), "%llu %llu %u\n",
			     (unsigned long long)f, (unsigned long long)c,
			     owner);
		if (grow_array((void **)&out, &cap, len + (size_t)w + 1, 1)) {
			p_err("out of memory");
			goto bad;
		}
		memcpy(out + len, buf, (size_t)w + 1);
		len += (size_t)w;
	}
	if (!out) {
		out = strdup("");
		if (!out) {
			free(file);
			p_err("out of memory");
			return -ENOMEM;
		}
	}
	free(file);
	*ret = out;
	*ret_len = len;
	return 0;
bad:
	free(file);
	free(out);
	return -EINVAL;
}

int do_owners(int argc, char **argv)
{
	static const char usage[] = "owners [--db PATH] [-n] [--subuid FILE]";
	static const struct option opts[] = {
		/* every verb takes --db (this one keeps nothing there) */
		{ "db", required_argument, NULL, 'd' },
		{ "subuid", required_argument, NULL, 's' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = "/etc/subuid";
	char *text = NULL, *map = NULL, *path = NULL;
	size_t len = 0;
	int c, fd, rc, ret = EXIT_USAGE, dry = 0;
	ssize_t w;

	optind = 1;
	while ((c = getopt_long(argc, argv, "nh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			break;
		case 's':
			file = optarg;
			break;
		case 'n':
			dry = 1;
			break;
		case 'h':
			printf("usage: %s %s\n"
			       "Charge each range of subordinate uids in FILE (default\n"
			       "/etc/subuid) to its owner in the kernel's bounds: writes\n"
			       "the owners file; -n prints it instead.\n",
			       progname, usage);
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s %s\n", progname, usage);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "usage: %s %s\n", progname, usage);
		return EXIT_USAGE;
	}
	rc = read_file(file, SUBUID_MAX, &text, NULL);
	if (rc) {
		p_err("%s: %s", shown(file), strerror(-rc));
		return EXIT_USAGE;
	}
	if (owners_text(file, text, &map, &len))
		goto out;
	if (dry) {
		fputs(map, stdout);
		ret = EXIT_OK;
		goto out;
	}
	if (asprintf(&path, "%s/owners", vigil_securityfs()) < 0) {
		path = NULL;
		p_err("out of memory");
		goto out;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		p_err("%s: %s%s", shown(path), strerror(errno),
		      errno == ENOENT ? " (a kernel with vigil's owners file is needed)" :
		      errno == EACCES || errno == EPERM ?
				" (CAP_MAC_ADMIN is needed)" : "");
		goto out;
	}
	/* One write(2): the kernel replaces its map whole, or refuses it. */
	w = write(fd, map, len);
	rc = w < 0 ? errno : 0;
	close(fd);
	if (rc) {
		p_err("%s: %s%s", shown(path), strerror(rc),
		      rc == EINVAL ? " (the kernel log says why)" : "");
		goto out;
	}
	if ((size_t)w != len) {
		p_err("%s: short write", shown(path));
		goto out;
	}
	ret = EXIT_OK;
out:
	free(path);
	free(map);
	free(text);
	return ret;
}
