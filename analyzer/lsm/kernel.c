// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the kernel side through securityfs: "vigil status",
 * "vigil mode", "vigil load", "vigil snapshot".
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libaudit.h>

#include "escape.h"
#include "vigil.h"
#include "util.h"
#include "ptext.h"
#include "store.h"
#include "kernel.h"
#include "ingest.h"
#include "policy.h"
#include "record.h"

#define POLICY_MAX (1024 * 1024) /* bytes; the kernel caps writes too */
#define LEARNED_MAX (512 * 1024 * 1024)
#define SMALL_MAX (1024 * 1024)

static char *sfs_path(const char *file)
{
	char *p;

	if (asprintf(&p, "%s/%s", vigil_securityfs(), file) < 0)
		return NULL;
	return p;
}

/* Read a securityfs file; prints the error. */
static int sfs_read(const char *file, size_t max, char **ret, size_t *ret_len)
{
	char *path = sfs_path(file);
	int rc;

	if (!path)
		return -ENOMEM;
	rc = read_file(path, max, ret, ret_len);
	if (rc == -ENOENT && access(vigil_securityfs(), F_OK))
		p_err("%s: missing: is this kernel running vigil (lsm=...,"
		      "vigil) with securityfs mounted?",
		      vigil_securityfs());
	else if (rc)
		p_err("%s: %s", path, strerror(-rc));
	free(path);
	return rc;
}

/* Write buf to a securityfs file in one write(2). 0 or -errno. */
static int sfs_write(const char *file, const char *buf, size_t len)
{
	char *path = sfs_path(file);
	ssize_t n;
	int fd, rc = 0;

	if (!path)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	n = write(fd, buf, len);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != len)
		rc = -EIO; /* the kernel must take it whole */
	if (close(fd) && !rc)
		rc = -errno;
out:
	free(path);
	return rc;
}

static void chomp(char *s)
{
	size_t l = strlen(s);

	while (l && (s[l - 1] == '\n' || s[l - 1] == ' '))
		s[--l] = '\0';
}

/* A decimal number without sign or leading zero (JSON's form). */
static bool json_number(const char *s)
{
	if (!*s || (s[0] == '0' && s[1]))
		return false;
	return strspn(s, "0123456789") == strlen(s) && strlen(s) <= 19;
}

/*
 * status --format json: {"version":1,"mode":M,"stats":{KEY:VALUE,...}},
 * each value a number when it is one, else a string; a stats line
 * without a value is left out. 0 or -ENOMEM.
 */
static int status_json(const char *mode, char *stats, FILE *f)
{
	char *line = stats, *nl;
	bool first = true;
	int rc;

	fputs("{\"version\":1,", f);
	rc = esc_json_member(f, "mode", mode);
	fputs(",\"stats\":{", f);
	for (; !rc && line && *line; line = nl) {
		char *sp;

		nl = strchrnul(line, '\n');
		if (*nl)
			*nl++ = '\0';
		sp = strchr(line, ' ');
		if (!sp || !strncmp(line, "mode ", 5))
			continue;
		*sp++ = '\0';
		chomp(sp);
		if (!first)
			fputc(',', f);
		first = false;
		if (json_number(sp)) {
			rc = esc_json_key(f, line);
			fputs(sp, f);
		} else {
			rc = esc_json_member(f, line, sp);
		}
	}
	fputs("}}\n", f);
	return rc;
}

/*
 * The options of status and snapshot: --db PATH, --format text|json, -h;
 * no operand. 0 with *json set, or -1 (help printed: exit 0) or -2
 * (error said: exit 2).
 */
static int kernel_verb_opts(int argc, char **argv, const char *usage,
			    bool *json)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = "text";
	struct verb_opts vo;
	int c, rc = 0;

	if (verb_opts_init(&vo, usage, argc))
		return -2;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "+h", opts, &vo)) > 0)
		if (c == 'f')
			format = optarg;
	if (c < 0) {
		rc = c == VERB_GETOPT_HELP ? -1 : -2;
	} else if (optind != argc) {
		verb_usage_error(&vo);
		rc = -2;
	} else if (strcmp(format, "text") && strcmp(format, "json")) {
		p_err("--format %s: unknown format (text or json)", format);
		rc = -2;
	}
	*json = !strcmp(format, "json");
	verb_opts_free(&vo);
	return rc;
}

int do_status(int argc, char **argv)
{
	static const char usage[] =
		"status [--format text|json]\n"
		"  The kernel's mode and counters (securityfs stats).";
	char *mode = NULL, *stats = NULL;
	bool json;
	int c, ret = EXIT_USAGE;

	c = kernel_verb_opts(argc, argv, usage, &json);
	if (c)
		return c == -1 ? EXIT_OK : EXIT_USAGE;
	if (sfs_read("mode", SMALL_MAX, &mode, NULL))
		return EXIT_USAGE;
	chomp(mode);
	if (json) {
		/* the stats as far as they could be read (said if not) */
		(void)sfs_read("stats", SMALL_MAX, &stats, NULL);
		if (status_json(mode, stats, stdout))
			p_err("out of memory");
		else
			ret = EXIT_OK;
		goto out;
	}
	printf("mode %s\n", mode);
	/* stats is "key value" lines: print them as they are, but for its
	 * own mode line (printed above, once) */
	if (!sfs_read("stats", SMALL_MAX, &stats, NULL)) {
		char *line = stats, *nl;

		for (; *line; line = nl) {
			nl = strchrnul(line, '\n');
			if (*nl)
				nl++;
			if (!strncmp(line, "mode ", 5))
				continue;
			/* the kernel's words, as terminal text all the same */
			if (nl[-1] == '\n')
				nl[-1] = '\0';
			esc_text(stdout, line);
			putchar('\n');
		}
	}
	ret = EXIT_OK;
out:
	free(mode);
	free(stats);
	return ret;
}

int do_mode(int argc, char **argv)
{
	static const char usage[] = "mode [learn|observe|off]";
	char *cur = NULL;
	int first, rc;

	first = verb_getopt_db(argc, argv, usage);
	if (first < 0)
		return first == -2 ? EXIT_OK : EXIT_USAGE;
	if (first == argc) {
		if (sfs_read("mode", SMALL_MAX, &cur, NULL))
			return EXIT_USAGE;
		chomp(cur);
		printf("%s\n", cur);
		free(cur);
		return EXIT_OK;
	}
	if (first + 1 != argc) {
		fprintf(stderr, "usage: %s %s\n", progname, usage);
		return EXIT_USAGE;
	}
	if (strcmp(argv[first], "learn") && strcmp(argv[first], "observe") &&
	    strcmp(argv[first], "off")) {
		p_err("unknown mode '%s' (learn, observe or off)",
		      argv[first]);
		return EXIT_USAGE;
	}
	rc = sfs_write("mode", argv[first], strlen(argv[first]));
	if (rc) {
		p_err("%s/mode: %s%s", vigil_securityfs(), strerror(-rc),
		      rc == -EPERM || rc == -EACCES ?
			      " (CAP_MAC_ADMIN is needed)" :
			      "");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int do_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "check", no_argument, NULL, 'n' },
		{ "dump", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char usage[] =
		"load [-n|--check] [--dump] POLICY|-\n"
		"  Validate POLICY, then load it as the candidate policy\n"
		"  (-n: validate only; --dump: validate, print the canonical\n"
		"  form, load nothing).";
	bool check_only = false, dump = false;
	const char *file;
	char *text = NULL;
	size_t len;
	int c, rc, ret = EXIT_USAGE;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+nh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			vigil_db_opt = optarg;	/* accepted, unused */
			break;
		case 'n':
			check_only = true;
			break;
		case 'D':
			dump = check_only = true;
			break;
		case 'h':
			printf("usage: %s %s\n", progname, usage);
			return EXIT_OK;
		default:
			fprintf(stderr, "usage: %s %s\n", progname, usage);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: %s %s\n", progname, usage);
		return EXIT_USAGE;
	}
	file = argv[optind];
	rc = read_file(file, POLICY_MAX, &text, &len);
	if (rc) {
		p_err("%s: %s", file,
		      rc == -EFBIG ? "larger than the kernel's 1 MiB limit" :
				     strerror(-rc));
		return EXIT_USAGE;
	}
	{
		struct vigil_policy_error perr = { 0 };
		struct vigil_policy *pol = NULL;

		rc = vigil_policy_parse(text, len, &pol, &perr);
		if (rc) {
			p_err("%s:%u: %s", file, perr.line,
			      perr.msg[0] ? perr.msg : strerror(-rc));
			goto out;
		}
		/* a repeated block is legal, and never used: said */
		if (ptext_warn_repeated(file, text, len) == -ENOMEM) {
			vigil_policy_free(pol);
			p_err("out of memory");
			goto out;
		}
		if (dump) {
			size_t n = vigil_policy_dump(pol, NULL, 0);
			char *out = malloc(n + 1);

			if (!out) {
				vigil_policy_free(pol);
				p_err("out of memory");
				goto out;
			}
			vigil_policy_dump(pol, out, n + 1);
			fwrite(out, 1, n, stdout);
			free(out);
		}
		vigil_policy_free(pol);
	}
	if (check_only) {
		ret = EXIT_OK;
		goto out;
	}
	rc = sfs_write("policy", text, len);
	if (rc == -EINVAL) {
		char *why = NULL;

		if (!sfs_read("policy_errors", SMALL_MAX, &why, NULL))
			chomp(why);
		p_err("%s: the kernel rejected the policy%s%s", file,
		      why && *why ? ": " : "", why ? why : "");
		free(why);
		goto out;
	}
	if (rc) {
		p_err("%s/policy: %s%s", vigil_securityfs(), strerror(-rc),
		      rc == -EPERM || rc == -EACCES ?
			      " (CAP_MAC_ADMIN is needed)" :
			      "");
		goto out;
	}
	ret = EXIT_OK;
out:
	free(text);
	return ret;
}

int unescape_octal(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		if (r[1] < '0' || r[1] > '3' || r[2] < '0' || r[2] > '7' ||
		    r[3] < '0' || r[3] > '7')
			return -EINVAL;
		*w = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 |
			    (r[3] - '0'));
		if (!*w)
			return -EINVAL;
		w++;
		r += 3;
	}
	*w = '\0';
	return 0;
}

/*
 * "seq verdict op access count first last uid mntns exe object via";
 * kernels before the via column wrote the same without it (no
 * ancestors), those before the mntns column without both (namespace 0).
 * mntns is 0, the namespace's number, or NUMBER:ID with its unique id
 * (kernels before issue 25 §7: the number alone). A 13th column, netns,
 * only on an abstract unix name of another network namespace: its cookie.
 */
int vigil_learned_parse_why(char *line, struct vigil_tuple *t,
			    const char **why)
{
	char *f[13], *p = line;
	uint64_t v;
	int n = 0;

	*why = "malformed tuple";
	if (!*line || *line == '#')
		return 1;
	while (n < 13) {
		char *sp = strchr(p, ' ');

		f[n++] = p;
		if (!sp || n == 13)
			break;
		*sp = '\0';
		p = sp + 1;
	}
	if (n < 10 || strchr(f[n - 1], ' ')) {
		*why = "malformed tuple (not 10 to 13 fields)";
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		if (!*f[i]) {
			*why = "malformed tuple (an empty field)";
			return -EINVAL;
		}
	}
	t->mntns = 0;
	t->mntnsid = 0;
	t->netns = 0;
	t->via = NULL;
	if (n == 13) {
		if (parse_u64(f[12], INT64_MAX, &t->netns) || !t->netns) {
			*why = "bad netns";
			return -EINVAL;
		}
		n = 12;
	}
	if (n == 12) {
		const char *vwhy;

		if (unescape_octal(f[11])) {
			*why = "bad via (escape)";
			return -EINVAL;
		}
		if (strcmp(f[11], "-")) {
			if (!vigil_via_valid(f[11], &vwhy)) {
				*why = vwhy;
				return -EINVAL;
			}
			t->via = f[11];
		}
	}
	if (n >= 11) {
		char *id = strchr(f[8], ':');

		if (id)
			*id++ = '\0';
		if (parse_u64(f[8], UINT32_MAX, &v) ||
		    (id && (!v || parse_u64(id, INT64_MAX, &t->mntnsid) ||
			    !t->mntnsid))) {
			*why = "bad mntns";
			return -EINVAL;
		}
		t->mntns = (uint32_t)v;
		f[8] = f[9];
		f[9] = f[10];
	}
	if (parse_u64(f[0], UINT64_MAX, &t->seq) ||
	    parse_u64(f[4], UINT64_MAX, &t->count))
		return -EINVAL;
	if (parse_u64(f[5], INT64_MAX, &v))
		return -EINVAL;
	t->first = (int64_t)v;
	if (parse_u64(f[6], INT64_MAX, &v))
		return -EINVAL;
	t->last = (int64_t)v;
	if (parse_u64(f[7], UINT32_MAX, &v))
		return -EINVAL;
	t->uid = (uint32_t)v;
	if (strcmp(f[1], "learned") && strcmp(f[1], "would-deny") &&
	    strcmp(f[1], "allowed"))
		return -EINVAL;
	t->verdict = f[1];
	t->op = f[2];
	t->access = f[3];
	if (unescape_octal(f[8]) || unescape_octal(f[9]))
		return -EINVAL;
	t->exe = strcmp(f[8], "?") ? f[8] : NULL;
	t->object = strcmp(f[9], "?") ? f[9] : NULL;
	return 0;
}

int vigil_learned_parse(char *line, struct vigil_tuple *t)
{
	const char *why;

	return vigil_learned_parse_why(line, t, &why);
}

/*
 * Audit's own lost counter (AUDIT_GET through libaudit, as auditctl -s
 * reads it): 0 and *ret, or -errno (no CAP_AUDIT_CONTROL, no audit).
 * $VIGIL_AUDIT_LOST (tests only): that number, or an errno name's value
 * when it is "EPERM".
 */
static int audit_lost_read(int64_t *ret)
{
	const char *env = getenv("VIGIL_AUDIT_LOST");
	struct audit_reply rep;
	struct pollfd pfd;
	uint64_t v;
	int fd, rc, tries;

	if (env) {
		if (!strcmp(env, "EPERM"))
			return -EPERM;
		if (parse_u64(env, UINT32_MAX, &v))
			return -EINVAL;
		*ret = (int64_t)v;
		return 0;
	}
	fd = audit_open();
	if (fd < 0)
		return errno ? -errno : -EIO;
	rc = audit_request_status(fd);
	if (rc <= 0) {
		rc = errno ? -errno : -EIO;
		audit_close(fd);
		return rc;
	}
	/* the kernel answers at once; give up after 2 s of silence */
	for (tries = 0; tries < 20; tries++) {
		pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
		rc = poll(&pfd, 1, 100);
		if (rc < 0 && errno != EINTR)
			break;
		if (rc <= 0)
			continue;
		rc = audit_get_reply(fd, &rep, GET_REPLY_NONBLOCKING, 0);
		if (rc <= 0)
			continue;
		if (rep.type == NLMSG_ERROR && rep.error && rep.error->error) {
			audit_close(fd);
			return rep.error->error;
		}
		if (rep.type == AUDIT_GET && rep.status) {
			*ret = rep.status->lost;
			audit_close(fd);
			return 0;
		}
	}
	audit_close(fd);
	return -ETIMEDOUT;
}

/*
 * The value of KEY in the kernel's stats ("key value" lines), or -1 when
 * the file cannot be read or has no such key (an older kernel).
 */
static long long stats_value(const char *key)
{
	char *stats = NULL, *line, *next, *end;
	size_t klen = strlen(key);
	long long v = -1;

	if (sfs_read("stats", SMALL_MAX, &stats, NULL))
		return -1;
	for (line = stats; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			next++;
		if (strncmp(line, key, klen) || line[klen] != ' ')
			continue;
		errno = 0;
		v = strtoll(line + klen + 1, &end, 10);
		if (errno || end == line + klen + 1 || v < 0)
			v = -1;
		break;
	}
	free(stats);
	return v;
}

int do_snapshot(int argc, char **argv)
{
	long long refused;
	struct vigil_store *store = NULL;
	int64_t snap, tuples, missing, alost = -1;
	char *text = NULL, *line, *next, err[256], abuf[80], *host = NULL;
	const char *why;
	int arc;
	unsigned int lineno = 0, bad = 0;
	int64_t pos = 0;
	int c, ret = EXIT_USAGE;
	bool json;

	c = kernel_verb_opts(argc, argv, "snapshot [--db PATH] [--format "
			     "text|json]", &json);
	if (c)
		return c == -1 ? EXIT_OK : EXIT_USAGE;
	if (sfs_read("learned", LEARNED_MAX, &text, NULL))
		return EXIT_USAGE;
	if (vigil_store_open(vigil_db_path(), &store, err, sizeof(err))) {
		p_err("--db %s: %s", shown(vigil_db_path()), err);
		goto out;
	}
	if (vigil_store_begin(store) ||
	    vigil_store_snapshot_begin(store, time(NULL), &snap))
		goto out_db;
	for (line = text; line && *line; line = next) {
		struct vigil_tuple t;
		int rc;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		rc = vigil_learned_parse_why(line, &t, &why);
		if (rc == 1)
			continue;
		if (rc) {
			if (bad++ < INGEST_MAX_LOCATIONS)
				p_err("%s/learned:%u: %s",
				      vigil_securityfs(), lineno, why);
			continue;
		}
		if (vigil_store_add_tuple(store, snap, ++pos, &t))
			goto out_db;
	}
	arc = audit_lost_read(&alost);
	if (arc) {
		alost = -1;
		p_warn("audit's own lost counter not read: %s",
		       strerror(-arc));
	}
	if (vigil_store_snapshot_end(store, snap, &tuples, &missing) ||
	    vigil_store_snapshot_audit_lost(store, snap, alost) ||
	    vigil_store_commit(store))
		goto out_db;
	if (alost >= 0)
		snprintf(abuf, sizeof(abuf), "; audit lost %lld records since "
			 "boot", (long long)alost);
	else
		snprintf(abuf, sizeof(abuf), "; audit's lost counter not read");
	/* the kernel read is this machine's: the local host's, whose
	 * records carry no node= (docs/fleet.md) */
	if (vigil_store_local_node(store, &host))
		host = NULL;
	/*
	 * A lost record's tuple is kept for this snapshot only while pins
	 * hold at most half the table: say when some were not.
	 */
	refused = stats_value("table.pin_refused");
	if (json) {
		printf("{\"version\":1,\"snapshot\":%lld,\"tuples\":%lld,"
		       "\"missing\":%lld,", (long long)snap, (long long)tuples,
		       (long long)missing);
		if (esc_json_member(stdout, "host", host))
			p_err("out of memory");
		printf(",\"malformed\":%u,\"audit_lost\":", bad);
		if (alost >= 0)
			printf("%lld", (long long)alost);
		else
			fputs("null", stdout);
		printf(",\"pin_refused\":%lld}\n", refused > 0 ? refused : 0);
	} else {
		printf("vigil snapshot: %lld tuples in the kernel table, %lld "
		       "missing from the database%s; host %s (this machine's "
		       "kernel); %u malformed%s\n",
		       (long long)tuples, (long long)missing,
		       missing ? " (audit records lost or not ingested yet)" :
				 "",
		       host ? shown(host) : "?", bad, abuf);
	}
	free(host);
	if (refused > 0)
		p_warn("%lld lost records since boot found no room to be kept "
		       "for a snapshot (table.pin_refused): their tuples may be "
		       "gone from the table; each is recorded again when seen "
		       "again", refused);
	ret = missing || bad ? EXIT_FINDING : EXIT_OK;
	goto out;
out_db:
	p_err("%s: %s", vigil_db_path(), vigil_store_errmsg(store));
	vigil_store_rollback(store);
out:
	vigil_store_close(store);
	free(text);
	return ret;
}
