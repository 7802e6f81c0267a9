/* SPDX-License-Identifier: GPL-2.0-only */
/* vigil analyzer: the schema migrations embedded from schemas/. */
#ifndef VIGIL_ANALYZER_SCHEMAS_H
#define VIGIL_ANALYZER_SCHEMAS_H

struct vigil_migration {
	int version;
	const char *name;
	const char *sql;
};

/* In version order; generated from schemas/NNN-name.sql. */
extern const struct vigil_migration vigil_migrations[];
extern const unsigned int vigil_migrations_count;

#endif /* VIGIL_ANALYZER_SCHEMAS_H */
