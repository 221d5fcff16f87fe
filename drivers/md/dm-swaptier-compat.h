/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dm-swaptier: the one place where kernel series differ (6.1 and 6.12).
 */
#ifndef DM_SWAPTIER_COMPAT_H
#define DM_SWAPTIER_COMPAT_H

#include <linux/blkdev.h>
#include <linux/version.h>

/*
 * Since 6.9 the block layer derives max_discard_sectors from
 * max_hw_discard_sectors and the user's limit; before, a stacking driver
 * set both.
 */
static inline void swt_set_discard_limits(struct queue_limits *limits,
					  unsigned int max_sectors)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
	limits->max_discard_sectors = max_sectors;
#endif
	limits->max_hw_discard_sectors = max_sectors;
}

#endif
