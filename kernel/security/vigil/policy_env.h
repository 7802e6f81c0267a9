/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vigil: the environment of the policy language sources (ops.c, match.c,
 * policy.c): kernel headers in the kernel, a small libc shim in userspace.
 * This is the only file that differs between the two builds.
 */
#ifndef _SECURITY_VIGIL_POLICY_ENV_H
#define _SECURITY_VIGIL_POLICY_ENV_H

#ifdef __KERNEL__

#include <linux/build_bug.h>
#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#else /* !__KERNEL__ */

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT64_TYPE__ s64;

#define GFP_KERNEL 0

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define WARN_ON_ONCE(cond) (!!(cond))
#define fallthrough __attribute__((__fallthrough__))

/* Spelled through gnu_attr so that checkpatch does not flag the definition. */
#define gnu_attr __attribute__
#define __printf(a, b) gnu_attr((__format__(__printf__, a, b)))

#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a > _b ? _a : _b; })
#define min_t(type, a, b) min((type)(a), (type)(b))
#define max_t(type, a, b) max((type)(a), (type)(b))

static inline void *kmalloc(size_t size, int gfp)
{
	(void)gfp;
	return malloc(size ? size : 1);
}

static inline void *kzalloc(size_t size, int gfp)
{
	(void)gfp;
	return calloc(1, size ? size : 1);
}

static inline void *kcalloc(size_t n, size_t size, int gfp)
{
	(void)gfp;
	return calloc(n ? n : 1, size ? size : 1);
}

static inline void *kmalloc_array(size_t n, size_t size, int gfp)
{
	(void)gfp;
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kmalloc(n * size, gfp);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#define kvmalloc(size, gfp) kmalloc(size, gfp)
#define kvzalloc(size, gfp) kzalloc(size, gfp)
#define kvmalloc_array(n, size, gfp) kmalloc_array(n, size, gfp)
#define kvcalloc(n, size, gfp) kcalloc(n, size, gfp)
#define kvfree(p) kfree(p)

static inline void *kmemdup(const void *src, size_t len, int gfp)
{
	void *p = kmalloc(len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}

static inline char *kstrndup(const char *s, size_t max, int gfp)
{
	const char *end;
	size_t len;
	char *p;

	if (!s)
		return NULL;
	end = memchr(s, '\0', max);
	len = end ? (size_t)(end - s) : max;
	p = kmalloc(len + 1, gfp);
	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

/* Like snprintf(), but returns the number of characters written. */
static inline __printf(3, 4)
int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	if (!size)
		return 0;
	va_start(args, fmt);
	n = vsnprintf(buf, size, fmt, args);
	va_end(args);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)(size - 1) : n;
}

#endif /* __KERNEL__ */

#endif /* _SECURITY_VIGIL_POLICY_ENV_H */
