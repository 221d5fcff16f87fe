/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim for __vmalloc: the same counted allocator as kvmalloc. */
#ifndef SHIM_LINUX_VMALLOC_H
#define SHIM_LINUX_VMALLOC_H
#include <linux/slab.h>

extern long shim_vmallocs;

static inline void *__vmalloc(size_t size, gfp_t flags)
{
	shim_vmallocs++;
	return kvmalloc_array(size, 1, flags);
}
#endif
