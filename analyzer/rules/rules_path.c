// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: the heuristics on one absolute path (rules.c applies
 * them to each observed object): per-pid /proc, home folders, versioned
 * libraries, temporary names; whether a name looks random.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "rules_int.h"

static bool all_digits(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/*
 * A random-looking name: 6 or more of [A-Za-z0-9_], with two digits and a
 * letter, or upper and lower case letters mixed as no word is ("aB3xYz",
 * "k3j_x9a2", "PV8brY", hex); not "python3" or "utf8ab" (one digit in a
 * word), nor a name in camel case ("PostgreSQL", "LibreOffice",
 * "XMLHttpRequest": letters only, every run of lower case letters at
 * least two long, a run of capitals at the end at least two), so that a
 * program's own prefix stays in its glob (PostgreSQL.* in /dev/shm, not
 * *.*). Random names that look like camel case are left to the
 * heuristics over several names (rules_vary.c), which see them vary.
 */
bool rules_looks_random(const char *s, size_t len)
{
	bool upper = false, lower = false, camel = true;
	unsigned int digit = 0;
	size_t i, lrun = 0, urun = 0;

	if (len < 6)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!rules_is_word(c))
			return false;
		if (c >= 'a' && c <= 'z') {
			lower = true;
			lrun++;
			urun = 0;
			continue;
		}
		if (lrun == 1)
			camel = false;
		lrun = 0;
		if (c >= 'A' && c <= 'Z') {
			upper = true;
			urun++;
			continue;
		}
		camel = false;	/* a digit or '_' */
		urun = 0;
		if (c >= '0' && c <= '9')
			digit++;
	}
	if (lrun == 1 || urun == 1)
		camel = false;
	return (digit >= 2 && (upper || lower)) || (upper && lower && !camel);
}

/* Path components, for the heuristics. */
#define MAX_COMPS 256
struct comps {
	char *c[MAX_COMPS];	/* each NUL-terminated, owned */
	size_t n;
};

static void comps_free(struct comps *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		free(cs->c[i]);
	cs->n = 0;
}

/* Split an absolute path; -E2BIG when it has too many components. */
static int comps_split(const char *path, struct comps *cs)
{
	const char *p = path + 1, *e;

	cs->n = 0;
	for (;;) {
		e = strchr(p, '/');
		if (!e)
			e = p + strlen(p);
		if (cs->n == MAX_COMPS) {
			comps_free(cs);
			return -E2BIG;
		}
		cs->c[cs->n] = strndup(p, e - p);
		if (!cs->c[cs->n]) {
			comps_free(cs);
			return -ENOMEM;
		}
		cs->n++;
		if (!*e)
			return 0;
		p = e + 1;
	}
}

static int comp_set(struct comps *cs, size_t i, const char *v)
{
	char *d = strdup(v);

	if (!d)
		return -ENOMEM;
	free(cs->c[i]);
	cs->c[i] = d;
	return 0;
}

static char *comps_join(const struct comps *cs)
{
	size_t len = 0, i;
	char *s, *p;

	for (i = 0; i < cs->n; i++)
		len += 1 + strlen(cs->c[i]);
	s = malloc(len + 1);
	if (!s)
		return NULL;
	p = s;
	for (i = 0; i < cs->n; i++) {
		size_t n = strlen(cs->c[i]);

		*p++ = '/';
		memcpy(p, cs->c[i], n);
		p += n;
	}
	*p = '\0';
	return s;
}

static bool is_pid_comp(const char *c)
{
	return all_digits(c, strlen(c)) || !strcmp(c, "self") ||
	       !strcmp(c, "thread-self");
}

static int heur_proc(struct comps *cs, unsigned int *heur)
{
	int rc;

	if (cs->n < 2 || strcmp(cs->c[0], "proc") || !is_pid_comp(cs->c[1]))
		return 0;
	rc = comp_set(cs, 1, "*");
	if (rc)
		return rc;
	*heur |= VIGIL_HEUR_PROC;
	if (cs->n >= 4 && !strcmp(cs->c[2], "task") &&
	    all_digits(cs->c[3], strlen(cs->c[3])))
		return comp_set(cs, 3, "*");
	return 0;
}

/*
 * /dev/pts/N: the kernel gives a pseudo-terminal the lowest free number
 * at each open of /dev/ptmx, so the next run's pty (a login daemon's, a
 * terminal's) has another one -> /dev/pts/STAR.
 */
static int heur_pty(struct comps *cs, unsigned int *heur)
{
	if (cs->n != 3 || strcmp(cs->c[0], "dev") || strcmp(cs->c[1], "pts") ||
	    !all_digits(cs->c[2], strlen(cs->c[2])))
		return 0;
	*heur |= VIGIL_HEUR_PTY;
	return comp_set(cs, 2, "*");
}

static int heur_home(struct comps *cs, unsigned int *heur)
{
	if (cs->n < 2 || strcmp(cs->c[0], "home") || !cs->c[1][0])
		return 0;
	*heur |= VIGIL_HEUR_HOME;
	return comp_set(cs, 1, "*");
}

/* libfoo.so.1.2.3 (any NAME.so.DIGITS[.DIGITS...]) -> libfoo.so* */
static int heur_library(struct comps *cs, unsigned int *heur)
{
	char *b, *so, *v;
	size_t i;

	if (!cs->n)
		return 0;
	b = cs->c[cs->n - 1];
	so = strstr(b, ".so.");
	if (!so || so == b || strchr(b, '*'))
		return 0;
	v = so + 4;
	if (*v < '0' || *v > '9')
		return 0;
	for (i = 0; v[i]; i++)
		if ((v[i] < '0' || v[i] > '9') && v[i] != '.')
			return 0;
	so[3] = '*';
	so[4] = '\0';
	*heur |= VIGIL_HEUR_LIBRARY;
	return 0;
}

/*
 * One component under a temporary folder: "tmp" then 6+ word characters
 * -> "tmp*"; random-looking as a whole -> "*"; else each random-looking
 * segment between '.' and '-' -> "*" ("foo.aB3xYz" -> "foo.*").
 */
static int temp_comp(struct comps *cs, size_t i, unsigned int *heur,
		     bool star_ok)
{
	const char *c = cs->c[i];
	size_t len = strlen(c), j, start, out = 0;
	bool changed = false;
	char *buf;
	int rc;

	/* star_ok: a glob a heuristic made ('*' stays, as a literal part) */
	if (!star_ok && strchr(c, '*'))
		return 0;
	if (len >= 9 && !strncmp(c, "tmp", 3)) {
		for (j = 3; j < len && rules_is_word(c[j]); j++)
			;
		if (j == len) {
			*heur |= VIGIL_HEUR_TEMP;
			return comp_set(cs, i, "tmp*");
		}
	}
	if (rules_looks_random(c, len)) {
		*heur |= VIGIL_HEUR_TEMP;
		return comp_set(cs, i, "*");
	}
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	for (start = 0; start <= len;) {
		for (j = start; j < len && c[j] != '.' && c[j] != '-'; j++)
			;
		if (rules_looks_random(c + start, j - start)) {
			buf[out++] = '*';
			changed = true;
		} else {
			memcpy(buf + out, c + start, j - start);
			out += j - start;
		}
		if (j < len)
			buf[out++] = c[j];
		start = j + 1;
	}
	buf[out] = '\0';
	rc = 0;
	if (changed) {
		*heur |= VIGIL_HEUR_TEMP;
		rc = comp_set(cs, i, buf);
	}
	free(buf);
	return rc;
}

/*
 * An O_TMPFILE file: the kernel names it "#INO" in the folder it was
 * made in, a new number each time -> "#*", whatever the folder.
 */
static int heur_tmpfile(struct comps *cs, unsigned int *heur)
{
	const char *c;
	size_t i;

	if (!cs->n)
		return 0;
	c = cs->c[cs->n - 1];
	if (c[0] != '#' || !c[1])
		return 0;
	for (i = 1; c[i]; i++)
		if (c[i] < '0' || c[i] > '9')
			return 0;
	*heur |= VIGIL_HEUR_TEMP;
	return comp_set(cs, cs->n - 1, "#*");
}

static int heur_temp(struct comps *cs, unsigned int *heur, bool star_ok)
{
	size_t skip, i;
	int rc;

	if (cs->n >= 2 && !strcmp(cs->c[0], "tmp"))
		skip = 1;
	else if (cs->n >= 3 && !strcmp(cs->c[0], "var") &&
		 !strcmp(cs->c[1], "tmp"))
		skip = 2;
	else if (cs->n >= 2 && !strcmp(cs->c[0], "run"))
		skip = 1;
	else if (cs->n >= 3 && !strcmp(cs->c[0], "dev") &&
		 !strcmp(cs->c[1], "shm"))
		skip = 2;
	else
		return 0;
	for (i = skip; i < cs->n; i++) {
		rc = temp_comp(cs, i, heur, star_ok);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The glob of an absolute path without metacharacters, generalised:
 * *ret is NULL when no heuristic applies.
 */
int rules_generalise_path(const char *path, char **ret, unsigned int *heur,
			  unsigned int flags)
{
	struct comps cs;
	unsigned int h = 0;
	int rc;

	*ret = NULL;
	rc = comps_split(path, &cs);
	if (rc == -E2BIG)
		return 0;
	if (rc)
		return rc;
	rc = heur_proc(&cs, &h);
	if (!rc)
		rc = heur_pty(&cs, &h);
	if (!rc)
		rc = heur_home(&cs, &h);
	if (!rc)
		rc = heur_library(&cs, &h);
	if (!rc)
		rc = heur_tmpfile(&cs, &h);
	if (!rc && !(flags & GEN_NO_TEMP))
		rc = heur_temp(&cs, &h, flags & GEN_STAR_OK);
	if (!rc && h) {
		*ret = comps_join(&cs);
		if (!*ret)
			rc = -ENOMEM;
		*heur = h;
	}
	comps_free(&cs);
	return rc;
}
