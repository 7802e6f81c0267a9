// SPDX-License-Identifier: GPL-2.0-only
/*
 * vigil analyzer: ingest's bounded line reader: the lines of an input,
 * each at most MAX_LINE bytes, a stream stopped past MAX_RUN bytes
 * without a newline.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "ingest_int.h"

/*
 * Next line, without its newline, writable, with one spare byte after it.
 * Lines longer than MAX_LINE are consumed whole and returned truncated
 * with LINE_TOO_LONG; in a stream (bounded), past MAX_RUN bytes without a
 * newline (/dev/zero) the reader stops there: LINE_ENDLESS, and the input
 * is read no further (a regular file is finite: read to its end). Return 1, 0 at the end, or -errno.
 */
int ingest_lr_next(struct line_reader *lr, char **ret_line, size_t *ret_len,
		   unsigned int *ret_flags)
{
	unsigned int flags = 0;
	size_t scanned = 0;
	uint64_t dropped = 0;

	for (;;) {
		char *nl = memchr(lr->buf + lr->pos + scanned, '\n',
				  lr->end - lr->pos - scanned);
		size_t have;
		ssize_t n;

		if (nl) {
			size_t len = nl - (lr->buf + lr->pos);

			if (len + dropped > MAX_LINE)
				flags |= LINE_TOO_LONG;
			*ret_line = lr->buf + lr->pos;
			*ret_len = len;
			*ret_flags = flags;
			lr->pos += len + 1;
			lr->next_off += dropped + len + 1;
			return 1;
		}
		have = lr->end - lr->pos;
		if (lr->bounded && have + dropped >= MAX_RUN) {
			*ret_line = lr->buf + lr->pos;
			*ret_len = have < 256 ? have : 256;
			*ret_flags = flags | LINE_TOO_LONG | LINE_ENDLESS;
			return 1;
		}
		if (have >= MAX_LINE) {
			/* keep a prefix for the message, drop the rest */
			flags |= LINE_TOO_LONG;
			dropped += have - 256;
			lr->end = lr->pos + 256;
			have = 256;
		}
		scanned = have;
		if (lr->eof) {
			if (!have && !(flags & LINE_TOO_LONG))
				return 0;
			*ret_line = lr->buf + lr->pos;
			*ret_len = have;
			*ret_flags = flags | LINE_NO_NEWLINE;
			lr->pos = lr->end;
			lr->next_off += dropped + have;
			return 1;
		}
		if (lr->pos) {
			memmove(lr->buf, lr->buf + lr->pos, have);
			lr->pos = 0;
			lr->end = have;
		}
		do {
			n = read(lr->fd, lr->buf + lr->end, READ_BUF - lr->end);
		} while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
		if (n == 0)
			lr->eof = true;
		lr->end += n;
	}
}

/* Read until the buffer holds need bytes or the input ends. 0 or -errno. */
int ingest_lr_fill(struct line_reader *lr, size_t need)
{
	while (!lr->eof && lr->end - lr->pos < need) {
		ssize_t n = read(lr->fd, lr->buf + lr->end, READ_BUF - lr->end);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			lr->eof = true;
		lr->end += n;
	}
	return 0;
}
