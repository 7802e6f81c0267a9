/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil analyzer: checkpoint.c: --checkpoint FILE of the verbs that show
 * the database's records (report, subjects, diff), as ausearch's: a run
 * reads only the records newer than the cut-off FILE holds, per host
 * (node=), and leaves the newest it read there for the next run.
 */
#ifndef VIGIL_ANALYZER_CHECKPOINT_H
#define VIGIL_ANALYZER_CHECKPOINT_H

#include <stdbool.h>
#include <stdint.h>

struct vigil_store;
struct verb_checkpoint;

/*
 * Read FILE (missing: the first run, everything), take this run's cut-off
 * (the newest record of each host the store reads, none after until_ms)
 * and make store s read only the records between the two. file NULL: 0,
 * *ret NULL. 0 or -errno after saying why (FILE:LINE for a damaged file).
 */
int verb_checkpoint_begin(struct vigil_store *s, const char *db,
			  const char *file, int64_t until_ms,
			  struct verb_checkpoint **ret);
/* After a run that did its work (exit 0 or 1): write the cut-off to FILE
 * atomically. cp NULL: 0. 0 or -errno (said). */
int verb_checkpoint_commit(const struct verb_checkpoint *cp);
/* Whether this run reads every record of the hosts it reads (cp NULL, or
 * FILE had no cut-off for any of them: a first run). */
bool verb_checkpoint_whole(const struct verb_checkpoint *cp);
void verb_checkpoint_free(struct verb_checkpoint *cp);

#endif /* VIGIL_ANALYZER_CHECKPOINT_H */
