// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil ingest", audit logs into the database: the verb,
 * its inputs (auditd's log_file and its rotations, files, stdin).
 *
 * Lines are read bounded (ingest_lines.c), each record is handed to
 * auparse alone (AUSOURCE_BUFFER, one record at a time) and events are
 * grouped by their (node, time, serial) key (ingest_record.c), so
 * auparse's own event assembly, slow on bursty logs, never runs. Each
 * batch of rows is committed together with the position reached in the
 * file (ingest_files.c).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vigil.h"
#include "util.h"
#include "store.h"
#include "ingest.h"
#include "ingest_int.h"

#define DEFAULT_LOG "/var/log/audit/audit.log"
#define AUDITD_CONF "/etc/audit/auditd.conf"
#define MAX_ROTATED 99

static const char ingest_usage[] =
	"ingest [--db PATH] [--checkpoint FILE] [FILE...|-]\n"
	"  Store the vigil records of audit logs (default: auditd's\n"
	"  log_file of " AUDITD_CONF ", else " DEFAULT_LOG ",\n"
	"  its rotations LOG.N ... LOG.1 first). --checkpoint FILE: skip\n"
	"  the events older than the newest one of each node a previous\n"
	"  run with FILE stored, and store the newest of this run.";

static long env_long(const char *name, long def)
{
	const char *v = getenv(name);
	uint64_t n;

	if (!v || parse_u64(v, 1000000000, &n) || !n)
		return def;
	return (long)n;
}

/*
 * auditd's log file: log_file of auditd.conf ($VIGIL_AUDITD_CONF, else
 * AUDITD_CONF; "key = value" lines, '#' comments, as auditd reads it),
 * else DEFAULT_LOG. A new string, or NULL.
 */
static char *auditd_log_file(void)
{
	const char *conf = getenv("VIGIL_AUDITD_CONF");
	char *text = NULL, *line, *next, *log = NULL;
	unsigned int lineno = 0;
	int rc;

	if (!conf || !*conf)
		conf = AUDITD_CONF;
	rc = read_file(conf, 1 << 20, &text, NULL);
	if (rc) {
		if (rc != -ENOENT)
			p_warn("%s: %s: reading %s", conf, strerror(-rc),
			       DEFAULT_LOG);
		return strdup(DEFAULT_LOG);
	}
	for (line = text; line && *line && !log; line = next) {
		char *k, *v, *e;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		for (k = line; isspace((unsigned char)*k); k++)
			;
		if (strncmp(k, "log_file", 8))
			continue;
		for (v = k + 8; *v == ' ' || *v == '\t'; v++)
			;
		if (*v++ != '=')
			continue;
		for (; *v == ' ' || *v == '\t'; v++)
			;
		for (e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);
		     e--)
			;
		*e = '\0';
		if (*v != '/') {
			p_warn("%s:%u: log_file %s is not an absolute path: "
			       "reading %s", conf, lineno, v, DEFAULT_LOG);
			break;
		}
		log = strdup(v);
	}
	free(text);
	return log ? log : strdup(DEFAULT_LOG);
}

/* The default inputs: LOG.N (oldest first) then LOG, auditd's log_file. */
static char **default_inputs(int *ret_count)
{
	char **list = calloc(MAX_ROTATED + 2, sizeof(*list));
	char *log = auditd_log_file();
	int n = 0;

	if (!list || !log) {
		free(list);
		free(log);
		return NULL;
	}
	for (int i = MAX_ROTATED; i >= 1; i--) {
		char *p;

		if (asprintf(&p, "%s.%d", log, i) < 0)
			continue;
		if (access(p, F_OK) == 0)
			list[n++] = p;
		else
			free(p);
	}
	list[n++] = log;
	*ret_count = n;
	return list;
}

/*
 * Can input be opened as a file to read (standard input always can)? A
 * regular file holding compressed data cannot: -EILSEQ, and *ret_c (when
 * not NULL) says which kind.
 */
static int try_input(const char *input, const struct compressed **ret_c)
{
	struct stat sb;
	int fd, rc = 0;

	if (!strcmp(input, "-"))
		return 0;
	fd = open(input, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb)) {
		rc = -errno;
	} else if (S_ISDIR(sb.st_mode)) {
		rc = -EISDIR;
	} else if (S_ISREG(sb.st_mode)) {
		char head[8];
		ssize_t n = pread(fd, head, sizeof(head), 0);
		const struct compressed *c =
			n > 0 ? ingest_compressed_kind(head, (size_t)n) : NULL;

		if (c) {
			if (ret_c)
				*ret_c = c;
			rc = -EILSEQ;
		}
	}
	close(fd);
	return rc;
}

static bool any_readable(char **inputs, int n)
{
	for (int i = 0; i < n; i++)
		if (!try_input(inputs[i], NULL))
			return true;
	return false;
}

static void report_unreadable(const char *input)
{
	const struct compressed *c = NULL;
	int rc = try_input(input, &c);

	if (rc == -EISDIR)
		p_err("%s: is a folder", input);
	else if (rc == -EILSEQ && c)
		ingest_report_compressed(input, c);
	else if (rc)
		p_err("%s: %s", input, strerror(-rc));
}

int do_ingest(int argc, char **argv)
{
	struct ingest_run run = { 0 };
	struct vigil_store *store = NULL;
	char **inputs, **defaults = NULL;
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "checkpoint", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *checkpoint = NULL;
	struct ingest_checkpoint *cp = NULL;
	int ninputs, first, ret = EXIT_USAGE, rc, c;
	char err[256];

	struct verb_opts vo;

	if (verb_opts_init(&vo, ingest_usage, argc))
		return EXIT_USAGE;
	optind = 1;
	while ((c = verb_getopt(argc, argv, "+h", opts, &vo)) > 0)
		if (c == 'c')
			checkpoint = optarg;
	verb_opts_free(&vo);
	if (c < 0)
		return c == VERB_GETOPT_HELP ? EXIT_OK : EXIT_USAGE;
	first = optind;
	if (first < argc) {
		inputs = argv + first;
		ninputs = argc - first;
	} else {
		defaults = default_inputs(&ninputs);
		if (!defaults)
			return EXIT_USAGE;
		inputs = defaults;
	}
	/* Nothing readable: say why, and make no database. */
	if (!any_readable(inputs, ninputs)) {
		for (int i = 0; i < ninputs; i++)
			report_unreadable(inputs[i]);
		p_err("nothing to read: no database written");
		goto out;
	}
	/* a bad checkpoint file: said before a database is made */
	if (checkpoint) {
		cp = ingest_cp_read(checkpoint);
		if (!cp)
			goto out;
	}
	if (vigil_store_open(vigil_db_path(), &store, err, sizeof(err))) {
		p_err("--db %s: %s", shown(vigil_db_path()), err);
		goto out;
	}
	if (ingest_run_init(&run, store)) {
		p_err("auparse_init: %s", strerror(errno));
		goto out;
	}
	run.cp = cp;
	cp = NULL;
	run.batch = env_long("VIGIL_INGEST_BATCH", DEFAULT_BATCH);
	run.crash_after = env_long("VIGIL_TEST_CRASH_AFTER", 0);
	for (int i = 0; i < ninputs; i++) {
		rc = ingest_file(&run, inputs[i]);
		if (rc == -EBADF) {
			run.inputs_failed++;
			continue;
		}
		if (rc) {
			p_err("%s: %s", vigil_db_path(),
			      rc == -ENOMEM ? "out of memory" :
					      vigil_store_errmsg(store));
			p_err("stopped in %s: the batch being written was "
			      "rolled back; the database holds every batch "
			      "committed before it and the next run resumes "
			      "from there",
			      inputs[i]);
			goto out_fini;
		}
	}
	ingest_summary(&run.in, "ingest");
	/* 2 when nothing could be read, 1 for malformed records or
	 * unreadable inputs, else 0. */
	if (!run.inputs_read || (!run.in.records && run.in.malformed))
		ret = EXIT_USAGE;
	else if (run.inputs_failed || run.in.malformed)
		ret = EXIT_FINDING;
	else
		ret = EXIT_OK;
	/* every batch committed: the next run may skip what this one read */
	if (run.cp && ingest_cp_write(run.cp))
		ret = EXIT_USAGE;
out_fini:
	ingest_run_fini(&run);
out:
	ingest_checkpoint_free(cp);
	vigil_store_close(store);
	if (defaults) {
		for (int i = 0; i < ninputs; i++)
			free(defaults[i]);
		free(defaults);
	}
	return ret;
}
