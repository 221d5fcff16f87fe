/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SHIM_LINUX_BITMAP_H
#define SHIM_LINUX_BITMAP_H
#include <linux/bitops.h>

static inline void bitmap_set(unsigned long *map, unsigned int start,
			      unsigned int len)
{
	while (len--)
		__set_bit(start++, map);
}

static inline void bitmap_clear(unsigned long *map, unsigned int start,
				unsigned int len)
{
	while (len--)
		__clear_bit(start++, map);
}
#endif
