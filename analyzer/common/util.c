// SPDX-License-Identifier: GPL-2.0-only
/* vigil analyzer: small helpers (messages, paths, numbers, files). */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "vigil.h"
#include "util.h"

const char *vigil_db_opt;
const char *progname = "vigil";
const char *vigil_verb;

/* Every message: "vigil: VERB: ..." (or "vigil: ..." before a verb). */
static void prefix(void)
{
	fprintf(stderr, "%s: ", progname);
	if (vigil_verb)
		fprintf(stderr, "%s: ", vigil_verb);
}

/* A message with what it quotes shown as terminal text (escape.h): a
 * name from a record or a file cannot act on the terminal. */
static void message(const char *warn, const char *fmt, va_list ap)
{
	char *m = NULL;

	prefix();
	fputs(warn, stderr);
	if (vasprintf(&m, fmt, ap) < 0)
		fputs("(out of memory)", stderr);
	else
		esc_text(stderr, m);
	free(m);
	fputc('\n', stderr);
}

void p_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message("", fmt, ap);
	va_end(ap);
}

void p_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message("warning: ", fmt, ap);
	va_end(ap);
}

const char *vigil_db_path(void)
{
	const char *env;

	if (vigil_db_opt)
		return vigil_db_opt;
	env = getenv("VIGIL_DB");
	if (env && *env)
		return env;
	if (geteuid() == 0) {
		/* make the folder the first time; if that fails, the open
		 * of the database will say why */
		(void)mkdir("/var/lib/vigil", 0700);
		return "/var/lib/vigil/vigil.db";
	}
	return "vigil.db";
}

const char *shown(const char *s)
{
	static char buf[4 * 4096 + 1];
	char *e = esc_text_dup(s);

	snprintf(buf, sizeof(buf), "%s", e ? e : "(out of memory)");
	free(e);
	return buf;
}

const char *vigil_securityfs(void)
{
	const char *env = getenv("VIGIL_SECURITYFS");

	if (env && *env)
		return env;
	return "/sys/kernel/security/vigil";
}

int parse_u64(const char *s, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned int d;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		d = *s - '0';
		if (v > (max - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

static int uid_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int parse_uid_list(const char *arg, uint32_t **v, size_t *n)
{
	char *copy, *tok, *save = NULL;
	size_t i, out;
	int rc = 0;

	copy = strdup(arg);
	if (!copy)
		return -ENOMEM;
	if (!*arg) {
		p_err("--uid: empty: expected UID[,UID...] (numbers or user "
		      "names)");
		rc = -EINVAL;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		uint32_t *nv;
		uint64_t u;

		if ((tok[0] >= '0' && tok[0] <= '9') || tok[0] == '-' ||
		    tok[0] == '+') {
			/* (uid_t)-1 is no uid: it means "unchanged" */
			if (parse_u64(tok, UINT32_MAX - 1, &u)) {
				p_err("--uid: '%s' is not a uid (0..%u) or a "
				      "user name", shown(tok),
				      UINT32_MAX - 1);
				rc = -EINVAL;
				break;
			}
		} else {
			struct passwd *pw;

			errno = 0;
			pw = getpwnam(tok);
			if (!pw) {
				p_err("--uid: '%s': %s", shown(tok),
				      errno && errno != ENOENT ?
				      strerror(errno) : "no such user");
				rc = -EINVAL;
				break;
			}
			u = pw->pw_uid;
		}
		nv = realloc(*v, (*n + 1) * sizeof(**v));
		if (!nv) {
			rc = -ENOMEM;
			break;
		}
		*v = nv;
		(*v)[(*n)++] = (uint32_t)u;
	}
	/* ",," or a trailing comma: an empty name */
	if (!rc && (strstr(arg, ",,") || arg[0] == ',' ||
		    arg[strlen(arg) - 1] == ',')) {
		p_err("--uid: '%s': an empty uid between commas", shown(arg));
		rc = -EINVAL;
	}
	free(copy);
	if (rc)
		return rc;
	qsort(*v, *n, sizeof(**v), uid_cmp);
	for (i = 0, out = 0; i < *n; i++)
		if (!out || (*v)[out - 1] != (*v)[i])
			(*v)[out++] = (*v)[i];
	*n = out;
	return 0;
}

int grow_array(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, ncap * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

uint64_t fnv1a64(const void *data, size_t len, uint64_t h)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

int read_file(const char *path, size_t max, char **ret_buf, size_t *ret_len)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int fd, ret;

	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) :
				 dup(STDIN_FILENO);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nbuf;

			if (ncap > max + 1)
				ncap = max + 1;
			if (ncap <= len + 1) {
				ret = -EFBIG;
				goto out_free;
			}
			nbuf = realloc(buf, ncap);
			if (!nbuf) {
				ret = -ENOMEM;
				goto out_free;
			}
			buf = nbuf;
			cap = ncap;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out_free;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	*ret_buf = buf;
	if (ret_len)
		*ret_len = len;
	return 0;
out_free:
	free(buf);
	close(fd);
	return ret;
}

/* Write all of data to fd. 0 or -errno. */
static int write_all(int fd, const char *data, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		off += n;
	}
	return 0;
}

/* A device, FIFO or socket: written through, as a shell's > would. */
static int write_through(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = write_all(fd, data, len);
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

static int replace_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = NULL;
	mode_t mask;
	int fd, rc = 0;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask)) {
		rc = -errno;
		goto out_close;
	}
	rc = write_all(fd, data, len);
	if (!rc && fsync(fd))
		rc = -errno;
out_close:
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
out:
	free(tmp);
	return rc;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *real = NULL;
	struct stat sb;
	int rc;

	if (lstat(path, &sb))
		return errno == ENOENT ? replace_atomic(path, data, len) :
					 -errno;
	if (S_ISLNK(sb.st_mode)) {
		/* the link stays; what it points to gets the text */
		real = realpath(path, NULL);
		if (!real)
			return -errno;
		if (stat(real, &sb)) {
			rc = -errno;
			free(real);
			return rc;
		}
		path = real;
	}
	if (S_ISDIR(sb.st_mode))
		rc = -EISDIR;
	else if (S_ISREG(sb.st_mode))
		rc = replace_atomic(path, data, len);
	else
		rc = write_through(path, data, len);
	free(real);
	return rc;
}

int verb_opts_init(struct verb_opts *v, const char *usage, int argc)
{
	memset(v, 0, sizeof(*v));
	v->usage = usage;
	v->subjects = calloc(argc + 1, sizeof(*v->subjects));
	v->nodes = calloc(argc + 1, sizeof(*v->nodes));
	if (!v->subjects || !v->nodes) {
		free(v->subjects);
		free(v->nodes);
		v->subjects = NULL;
		v->nodes = NULL;
		p_err("out of memory");
		return -ENOMEM;
	}
	return 0;
}

int verb_opt(struct verb_opts *v, int c)
{
	switch (c) {
	case 'd':
		vigil_db_opt = optarg;
		return VERB_OPT_DONE;
	case 's':
		v->subjects[v->nsubjects++] = optarg;
		return VERB_OPT_DONE;
	case VERB_OPT_NODE:
		v->nodes[v->nnodes++] = optarg;
		return VERB_OPT_DONE;
	case VERB_OPT_ALL_NODES:
		v->all_nodes = true;
		return VERB_OPT_DONE;
	case VERB_OPT_CHECKPOINT:
		v->checkpoint = optarg;
		return VERB_OPT_DONE;
	case 'u':
		return parse_uid_list(optarg, &v->uids, &v->nuids) ?
			VERB_OPT_EXIT_USAGE : VERB_OPT_DONE;
	case 'h':
		printf("usage: %s %s\n", progname, v->usage);
		return VERB_OPT_EXIT_OK;
	case '?':
	case ':':
		return verb_usage_error(v) ? VERB_OPT_EXIT_USAGE : 0;
	default:
		return VERB_OPT_OTHER;
	}
}

int verb_getopt(int argc, char **argv, const char *optstring,
		const struct option *opts, struct verb_opts *v)
{
	int c, rc;

	while ((c = getopt_long(argc, argv, optstring, opts, NULL)) != -1) {
		rc = verb_opt(v, c);
		if (rc == VERB_OPT_OTHER)
			return c;
		if (rc == VERB_OPT_EXIT_OK)
			return VERB_GETOPT_HELP;
		if (rc == VERB_OPT_EXIT_USAGE)
			return VERB_GETOPT_ERROR;
	}
	return 0;
}

int verb_usage_error(const struct verb_opts *v)
{
	fprintf(stderr, "usage: %s %s\n", progname, v->usage);
	return EXIT_USAGE;
}

void verb_opts_free(struct verb_opts *v)
{
	free(v->subjects);
	free(v->uids);
	free(v->nodes);
	memset(v, 0, sizeof(*v));
}

/*
 * Options every database verb takes: --db PATH, -h. Returns optind, or -1
 * after printing usage (exit 2), or -2 for -h (printed, exit 0).
 */
int verb_getopt_db(int argc, char **argv, const char *usage)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			vigil_db_opt = optarg;
			break;
		case 'h':
			printf("usage: %s %s\n", progname, usage);
			return -2;
		default:
			fprintf(stderr, "usage: %s %s\n", progname, usage);
			return -1;
		}
	}
	return optind;
}
