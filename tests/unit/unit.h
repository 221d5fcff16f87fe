/* SPDX-License-Identifier: GPL-2.0-only */
/* A very small test runner for the host unit tests. */
#ifndef SWT_UNIT_H
#define SWT_UNIT_H
#include <stdio.h>
#include <stdlib.h>

extern unsigned long shim_warnings;
extern long shim_fail_alloc_after;
extern long shim_live_allocs;

static int unit_failed_checks;

#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "  %s:%d: expected %s\n", __FILE__,	\
			__LINE__, #cond);				\
		unit_failed_checks++;					\
	}								\
} while (0)

#define EXPECT_EQ(a, b) do {						\
	long long __a = (long long)(a), __b = (long long)(b);		\
	if (__a != __b) {						\
		fprintf(stderr, "  %s:%d: %s == %lld, expected %s == %lld\n", \
			__FILE__, __LINE__, #a, __a, #b, __b);		\
		unit_failed_checks++;					\
	}								\
} while (0)

struct unit_test {
	const char *name;
	void (*fn)(void);
};

static inline int unit_run(const char *suite, const struct unit_test *t,
			   int n)
{
	int passed = 0, failed = 0, i;

	for (i = 0; i < n; i++) {
		unit_failed_checks = 0;
		shim_warnings = 0;
		shim_fail_alloc_after = -1;
		t[i].fn();
		if (shim_warnings) {
			fprintf(stderr, "  %lu WARN_ON fired\n", shim_warnings);
			unit_failed_checks++;
		}
		if (unit_failed_checks) {
			printf("not ok %s/%s: %d check(s) failed\n", suite,
			       t[i].name, unit_failed_checks);
			failed++;
		} else {
			printf("ok %s/%s\n", suite, t[i].name);
			passed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
#endif
