// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests: the generaliser of names that vary between runs
 * (rules_vary.c, issue 24 §1). A corpus of observed names, each set with
 * the glob it must give, or none: names that must not be merged.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "rules_int.h"

#define MAXN 6

/* One case: names (with when they were used and their pid), the glob. */
struct vcase {
	const char *what;
	struct vary_name n[MAXN];
	const char *glob;	/* NULL: none may be made */
	unsigned int kind;
};

/* Runs: each name in its own second, apart (t = 10, 20, 30, ...). */
#define RUN(p, t) { p, t, t, 0, 0 }
#define PID(p, t, pid) { p, t, t, pid, 0 }
#define EVERY(p) { p, 10, 40, 0, 0 }	/* used in every run */
/* Made by the program itself (c: create, rename's target), t0..t1. */
#define MADE(p, t0, t1) { p, t0, t1, 0, VIGIL_FILE_C | VIGIL_FILE_D }
/* Written or appended to, never made (no c). */
#define WRITTEN(p, t0, t1) { p, t0, t1, 0, VIGIL_FILE_W | VIGIL_FILE_A }

static const struct vcase corpus[] = {
	/* numbers that differ between runs: the number only */
	{ "pid-numbered temp file of three runs",
	  { RUN("/var/lib/x/.state.6745.tmp", 10),
	    RUN("/var/lib/x/.state.6752.tmp", 20),
	    RUN("/var/lib/x/.state.6759.tmp", 30) },
	  "/var/lib/x/.state.*.tmp", VIGIL_HEUR_NUMBER },
	{ "a snapshot's pid temp name, numbers of different lengths",
	  { RUN("/var/lib/redis/temp-6745.rdb", 10),
	    RUN("/var/lib/redis/temp-812.rdb", 20),
	    RUN("/var/lib/redis/temp-10233.rdb", 30) },
	  "/var/lib/redis/temp-*.rdb", VIGIL_HEUR_NUMBER },
	{ "a number after a shared word",
	  { RUN("/srv/s/snap12345.db", 10), RUN("/srv/s/snap99812.db", 20) },
	  "/srv/s/snap*.db", VIGIL_HEUR_NUMBER },
	{ "epoch seconds",
	  { RUN("/var/backups/app/dump-1733452380.sql", 10),
	    RUN("/var/backups/app/dump-1733538781.sql", 20) },
	  "/var/backups/app/dump-*.sql", VIGIL_HEUR_NUMBER },
	{ "pids of workers within one run (overlapping times)",
	  { { "/run/w/worker.1234.sock", 10, 20, 1234, 0 },
	    { "/run/w/worker.1240.sock", 11, 20, 1240, 0 } },
	  "/run/w/worker.*.sock", VIGIL_HEUR_PID },
	/* one name alone: only when its number is the pid */
	{ "a pid-numbered hard link seen once, its pid known",
	  { PID("/run/d/admin.sock.4242.bak", 10, 4242) },
	  "/run/d/admin.sock.*.bak", VIGIL_HEUR_PID },
	{ "a pid-numbered name seen once, another pid",
	  { PID("/run/d/admin.sock.4242.bak", 10, 4243) }, NULL, 0 },
	{ "a pid-numbered name seen once, no pid",
	  { PID("/run/d/admin.sock.4242.bak", 10, 0) }, NULL, 0 },
	/* random runs: mkstemp, hex, base64-like, growing ids */
	{ "mkstemp suffixes of two runs",
	  { RUN("/var/lib/svc/state.Ab3dE9", 10),
	    RUN("/var/lib/svc/state.x9Kq2M", 20) },
	  "/var/lib/svc/state.*", VIGIL_HEUR_RANDOM },
	{ "ids that grow a character as the queue ages",
	  { RUN("/var/spool/q/msg-a7f3k2q", 10),
	    RUN("/var/spool/q/msg-b81kq9xz", 20) },
	  "/var/spool/q/msg-*", VIGIL_HEUR_RANDOM },
	{ "hex pack names",
	  { RUN("/r/.git/objects/pack/pack-3f2a9c0e1b7d4a6f8e2c1d0b9a8f7e6d5c4b3a29.idx", 10),
	    RUN("/r/.git/objects/pack/pack-91b0c7d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a1b3.idx", 20) },
	  "/r/.git/objects/pack/pack-*.idx", VIGIL_HEUR_RANDOM },
	{ "temp names after a shared word with '_'",
	  { RUN("/r/.git/objects/ed/tmp_obj_PV8brY", 10),
	    RUN("/r/.git/objects/ed/tmp_obj_aB3xYz", 20) },
	  "/r/.git/objects/ed/tmp_obj_*", VIGIL_HEUR_RANDOM },
	{ "incoming folders with random suffixes",
	  { RUN("/r/.git/objects/tmp_objdir-incoming-6WNIDC", 10),
	    RUN("/r/.git/objects/tmp_objdir-incoming-q1Zx9k", 20) },
	  "/r/.git/objects/tmp_objdir-incoming-*", VIGIL_HEUR_RANDOM },
	{ "Python tempfile names ([a-z0-9_])",
	  { RUN("/tmp/x/vigil-py-oed3caeu", 10),
	    RUN("/tmp/x/vigil-py-k2j4_h5g", 20) },
	  "/tmp/x/vigil-py-*", VIGIL_HEUR_RANDOM },
	{ "a number and a random part together",
	  { RUN("/srv/c/cache-4411.Ab3dE9.part", 10),
	    RUN("/srv/c/cache-5120.x9Kq2M.part", 20) },
	  "/srv/c/cache-*.*.part", VIGIL_HEUR_NUMBER | VIGIL_HEUR_RANDOM },
	{ "mkstemp drew one plain word among three",
	  { RUN("/r/.git/objects/pack/tmp_pack_aB3xYz", 10),
	    RUN("/r/.git/objects/pack/tmp_pack_qwerty", 20),
	    RUN("/r/.git/objects/pack/tmp_pack_7Gh2Kp", 30) },
	  "/r/.git/objects/pack/tmp_pack_*", VIGIL_HEUR_RANDOM },
	/* short numbers: only when the program made each name itself */
	{ "rotations it does itself (renamed log.1 -> log.2, overlapping)",
	  { MADE("/var/log/app/log.1", 10, 40), MADE("/var/log/app/log.2", 10, 40),
	    MADE("/var/log/app/log.3", 20, 40) },
	  "/var/log/app/log.*", VIGIL_HEUR_MADE },
	{ "compressed rotations it made",
	  { MADE("/var/log/app/log.2.gz", 10, 40),
	    MADE("/var/log/app/log.3.gz", 10, 40) },
	  "/var/log/app/log.*.gz", VIGIL_HEUR_MADE },
	{ "a two-digit counter of the jobs it writes",
	  { MADE("/var/spool/j/job.07", 10, 10), MADE("/var/spool/j/job.12", 20, 20) },
	  "/var/spool/j/job.*", VIGIL_HEUR_MADE },
	/* the whole name a counter of fixed width (PostgreSQL's pg_wal):
	 * it grows from the right, carries into any digit, goes hex
	 * (..0A): one '?' a digit, the same width (93-next-postgres: as
	 * NULL, the enforced server failed at its next segment) */
	{ "a WAL segment it creates, the number advancing",
	  { MADE("/var/lib/db/wal/000000010000000000000001", 10, 20),
	    MADE("/var/lib/db/wal/000000010000000000000002", 15, 30) },
	  "/var/lib/db/wal/????????????????????????", VIGIL_HEUR_MADE },
	{ "WAL segments in hex",
	  { MADE("/var/lib/db/wal/00000001000000000000000F", 10, 20),
	    MADE("/var/lib/db/wal/000000010000000000000010", 15, 30),
	    MADE("/var/lib/db/wal/000000010000000100000000", 25, 30) },
	  "/var/lib/db/wal/????????????????????????", VIGIL_HEUR_MADE },
	{ "a WAL segment with a prefix, the number advancing",
	  { MADE("/var/lib/db/wal/seg-0001.wal", 10, 20),
	    MADE("/var/lib/db/wal/seg-0005.wal", 15, 30) },
	  "/var/lib/db/wal/seg-*.wal", VIGIL_HEUR_MADE },
	/* must not be merged */
	{ "rotations it only appends to (log.1 and log.2, no c)",
	  { WRITTEN("/var/log/app/log.1", 10, 40),
	    WRITTEN("/var/log/app/log.2", 10, 40) }, NULL, 0 },
	{ "one rotation made, the other only read",
	  { MADE("/var/log/app/log.1", 10, 40), RUN("/var/log/app/log.2", 20) },
	  NULL, 0 },
	{ "one name made alone",
	  { MADE("/var/log/app/log.1", 10, 40) }, NULL, 0 },
	{ "whole names of fixed width it only writes (no c)",
	  { WRITTEN("/var/lib/db/wal/000000010000000000000001", 10, 40),
	    WRITTEN("/var/lib/db/wal/000000010000000000000002", 10, 40) },
	  NULL, 0 },
	{ "whole names it made, narrower than 8",
	  { MADE("/var/spool/q/0001", 10, 20), MADE("/var/spool/q/0002", 15, 30) },
	  NULL, 0 },
	{ "whole names it made, of two widths",
	  { MADE("/var/spool/q/000000001", 10, 20),
	    MADE("/var/spool/q/0000000002", 15, 30) },
	  NULL, 0 },
	{ "whole names it made, not hex",
	  { MADE("/var/spool/q/job_abcdefgh", 10, 20),
	    MADE("/var/spool/q/job_abcdefgi", 15, 30) },
	  NULL, 0 },
	{ "configs that differ by a digit, written in place",
	  { WRITTEN("/etc/app/site1.conf", 10, 40),
	    WRITTEN("/etc/app/site2.conf", 10, 40) }, NULL, 0 },
	{ "words of six letters or more, none random",
	  { RUN("/srv/x/config.backup", 10), RUN("/srv/x/config.stored", 20) },
	  NULL, 0 },
	{ "two configs that differ by a digit",
	  { EVERY("/etc/app/site1.conf"), EVERY("/etc/app/site2.conf") },
	  NULL, 0 },
	{ "versions: python2 and python3",
	  { RUN("/srv/x/python2.cfg", 10), RUN("/srv/x/python3.cfg", 20) },
	  NULL, 0 },
	{ "rotations log.1 and log.2",
	  { RUN("/var/log/app/log.1", 10), RUN("/var/log/app/log.2", 20) },
	  NULL, 0 },
	{ "configs with long numbers read in every run",
	  { EVERY("/etc/app/conf-100.conf"), EVERY("/etc/app/conf-200.conf") },
	  NULL, 0 },
	{ "words that are not random",
	  { RUN("/srv/x/state.json", 10), RUN("/srv/x/state.yaml", 20) },
	  NULL, 0 },
	{ "random parts that differ in one byte",
	  { RUN("/srv/x/data.abcdef12", 10), RUN("/srv/x/data.abcdef13", 20) },
	  NULL, 0 },
	{ "the whole name varies: not a name's glob",
	  { RUN("/srv/x/aB3xYz", 10), RUN("/srv/x/x9Kq2M", 20) }, NULL, 0 },
	{ "only the pid, the whole name",
	  { PID("/srv/x/4242", 10, 4242) }, NULL, 0 },
	{ "two folders",
	  { RUN("/srv/a/.state.6745.tmp", 10),
	    RUN("/srv/b/.state.6752.tmp", 20) }, NULL, 0 },
	{ "other shapes",
	  { RUN("/srv/a/.state.6745.tmp", 10),
	    RUN("/srv/a/.state.6752.tmp.old", 20) }, NULL, 0 },
	{ "a name alone without a pid",
	  { RUN("/var/lib/x/.state.6745.tmp", 10) }, NULL, 0 },
};

static void test_corpus(void **state)
{
	size_t c, n;
	unsigned int kind;
	char *glob;

	(void)state;
	for (c = 0; c < sizeof(corpus) / sizeof(corpus[0]); c++) {
		const struct vcase *v = &corpus[c];

		for (n = 0; n < MAXN && v->n[n].path; n++)
			;
		assert_int_equal(rules_vary_glob(v->n, n, &glob, &kind), 0);
		if (!v->glob && glob)
			fail_msg("%s: made %s", v->what, glob);
		if (v->glob && (!glob || strcmp(glob, v->glob)))
			fail_msg("%s: made %s, not %s", v->what,
				 glob ? glob : "nothing", v->glob);
		if (v->glob && kind != v->kind)
			fail_msg("%s: kind %#x, not %#x", v->what, kind,
				 v->kind);
		free(glob);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
