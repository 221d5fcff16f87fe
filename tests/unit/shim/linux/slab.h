/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host shim for kvmalloc and friends. shim_fail_alloc_after counts down
 * the allocations that may succeed (negative: all succeed), so tests can
 * make the Nth allocation fail the way failslab does in the kernel.
 */
#ifndef SHIM_LINUX_SLAB_H
#define SHIM_LINUX_SLAB_H
#include <stdlib.h>
#include <linux/types.h>

#define GFP_KERNEL 0u
#define __GFP_ZERO 1u
#define __GFP_NOWARN 2u
#define __GFP_RETRY_MAYFAIL 4u

extern long shim_fail_alloc_after;
extern long shim_live_allocs;

static inline void *kvmalloc_array(size_t n, size_t size, gfp_t flags)
{
	void *p;

	if (shim_fail_alloc_after == 0)
		return NULL;
	if (shim_fail_alloc_after > 0)
		shim_fail_alloc_after--;
	if (size && n > SIZE_MAX / size)
		return NULL;
	p = (flags & __GFP_ZERO) ? calloc(n ? n : 1, size ? size : 1) :
				   malloc(n * size > 0 ? n * size : 1);
	if (p)
		shim_live_allocs++;
	return p;
}

#define kvcalloc(n, size, flags) kvmalloc_array(n, size, (flags) | __GFP_ZERO)

static inline void kvfree(const void *p)
{
	if (p)
		shim_live_allocs--;
	free((void *)p);
}
#endif
