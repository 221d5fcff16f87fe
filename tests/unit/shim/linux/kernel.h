/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim for <linux/kernel.h>: min/max and a counting WARN_ON. */
#ifndef SHIM_LINUX_KERNEL_H
#define SHIM_LINUX_KERNEL_H
#include <assert.h>	/* static_assert, as <linux/build_bug.h> gives it */
#include <limits.h>
#include <stdio.h>
#include <linux/types.h>

extern unsigned long shim_warnings;

#define WARN_ON(cond) ({						\
	int __c = !!(cond);						\
	if (__c) {							\
		shim_warnings++;					\
		fprintf(stderr, "WARN_ON(%s) at %s:%d\n", #cond,	\
			__FILE__, __LINE__);				\
	}								\
	__c;								\
})

#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min3(a, b, c) min(min(a, b), c)
#define min_t(t, a, b) min((t)(a), (t)(b))
#define max_t(t, a, b) max((t)(a), (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define U8_MAX ((u8)~0U)
#define U32_MAX ((u32)~0U)

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/* Base-10 only, like every caller here; rejects signs, junk and overflow. */
static inline int kstrtou32(const char *s, unsigned int base, u32 *res)
{
	unsigned long long v = 0;

	if (base != 10 || !*s)
		return -22;
	if (*s == '+')
		s++;
	for (; *s; s++) {
		if (*s == '\n' && !s[1])
			break;
		if (*s < '0' || *s > '9')
			return -22;
		v = v * 10 + (unsigned int)(*s - '0');
		if (v > 0xffffffffULL)
			return -34;
	}
	*res = (u32)v;
	return 0;
}
#endif
