/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim for the non-atomic bit operations and the find_*_bit helpers. */
#ifndef SHIM_LINUX_BITOPS_H
#define SHIM_LINUX_BITOPS_H
#include <limits.h>
#include <linux/types.h>

#define BITS_PER_LONG (sizeof(long) * CHAR_BIT)
#define BIT(nr) (1UL << (nr))
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return (addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1;
}

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

/* Deliberately bit by bit: the reference for the kernel's word-wise ones. */
static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long offset)
{
	while (offset < size && !test_bit(offset, addr))
		offset++;
	return offset < size ? offset : size;
}

static inline unsigned long find_next_zero_bit(const unsigned long *addr,
					       unsigned long size,
					       unsigned long offset)
{
	while (offset < size && test_bit(offset, addr))
		offset++;
	return offset < size ? offset : size;
}
#endif
