/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim for <linux/kernel.h>: min/max and a counting WARN_ON. */
#ifndef SHIM_LINUX_KERNEL_H
#define SHIM_LINUX_KERNEL_H
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
#define min_t(t, a, b) min((t)(a), (t)(b))
#define max_t(t, a, b) max((t)(a), (t)(b))
#endif
