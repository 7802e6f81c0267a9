// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: "vigil plugin", an auditd plugin (auditd-plugins(5)):
 * records arrive on stdin in string format, go through the auparse feed
 * API and are stored as "vigil ingest" stores them. SIGTERM: flush,
 * commit, exit 0. SIGHUP: commit and reopen the database.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vigil.h"
#include "util.h"
#include "store.h"
#include "ingest.h"

#define COMMIT_RECORDS 2000 /* or every second, whichever comes first */

static volatile sig_atomic_t got_term, got_hup;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else
		got_term = 1;
}

struct plugin {
	struct ingest in;
	uint64_t recno;
	unsigned int pending;
	int err;
};

static void on_event(auparse_state_t *au, auparse_cb_event_t type, void *data)
{
	struct plugin *pl = data;

	if (type != AUPARSE_CB_EVENT_READY || pl->err)
		return;
	if (auparse_first_record(au) <= 0)
		return;
	do {
		const char *text = auparse_get_record_text(au);
		const char *enriched;
		size_t len;

		pl->recno++;
		if (!text) {
			ingest_malformed(&pl->in, "-", pl->recno,
					 "record without text");
			continue;
		}
		len = strlen(text);
		enriched = memchr(text, 0x1d, len);
		if (enriched)
			len = enriched - text;
		while (len && text[len - 1] == ' ')
			len--;
		pl->err = ingest_record(&pl->in, au, text, len, "-", pl->recno);
		pl->pending++;
	} while (!pl->err && auparse_next_record(au) > 0);
}

static int reopen(struct plugin *pl)
{
	char err[256];

	vigil_store_close(pl->in.store);
	pl->in.store = NULL;
	if (vigil_store_open(vigil_db_path(), &pl->in.store, err,
			     sizeof(err))) {
		p_err("--db %s: %s", shown(vigil_db_path()), err);
		return -EIO;
	}
	return vigil_store_begin(pl->in.store);
}

int do_plugin(int argc, char **argv)
{
	struct plugin pl = { 0 };
	struct vigil_store *store = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	auparse_state_t *au = NULL;
	time_t last_commit = time(NULL);
	static char buf[65536];
	char err[256];
	int first, ret = EXIT_USAGE;

	first = verb_getopt_db(argc, argv, "plugin [--db PATH]");
	if (first < 0)
		return first == -2 ? EXIT_OK : EXIT_USAGE;
	if (first != argc) {
		fprintf(stderr, "usage: %s plugin [--db PATH]\n", progname);
		return EXIT_USAGE;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL); /* no SA_RESTART: read returns */
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (vigil_store_open(vigil_db_path(), &store, err, sizeof(err))) {
		p_err("--db %s: %s", shown(vigil_db_path()), err);
		return EXIT_USAGE;
	}
	ingest_init(&pl.in, store);
	au = auparse_init(AUSOURCE_FEED, NULL);
	if (!au) {
		p_err("auparse_init: %s", strerror(errno));
		goto out;
	}
	auparse_add_callback(au, on_event, &pl, NULL);
	if (vigil_store_begin(pl.in.store))
		goto out_db;

	while (!got_term) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		int n = poll(&pfd, 1, 1000);

		if (got_hup) {
			got_hup = 0;
			if (vigil_store_commit(pl.in.store) || reopen(&pl))
				goto out_db;
			pl.pending = 0;
		}
		if (n > 0) {
			ssize_t r = read(STDIN_FILENO, buf, sizeof(buf));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break; /* auditd closed the pipe */
			auparse_feed(au, buf, r);
		} else if (n == 0) {
			auparse_feed_age_events(au);
		}
		if (pl.err)
			goto out_db;
		if (pl.pending >= COMMIT_RECORDS ||
		    (pl.pending && time(NULL) != last_commit)) {
			if (vigil_store_commit(pl.in.store) ||
			    vigil_store_begin(pl.in.store))
				goto out_db;
			pl.pending = 0;
			last_commit = time(NULL);
		}
	}
	auparse_flush_feed(au);
	if (pl.err || vigil_store_commit(pl.in.store))
		goto out_db;
	ingest_summary(&pl.in, "plugin");
	ret = pl.in.malformed ? EXIT_FINDING : EXIT_OK;
	goto out;
out_db:
	p_err("%s: %s", vigil_db_path(), vigil_store_errmsg(pl.in.store));
	if (pl.in.store)
		vigil_store_rollback(pl.in.store);
out:
	if (au)
		auparse_destroy(au);
	vigil_store_close(pl.in.store);
	ingest_fini(&pl.in);
	return ret;
}
