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

/*
 * Swap uses its cluster allocator, and so discards the clusters it frees,
 * only on a non-rotational device, and dm makes a device rotational as
 * soon as one of its devices is. The target reports itself non-rotational
 * when its first tier is (where every new write lands): since 6.11 by
 * clearing the feature that io_hints sees stacked from the tiers; before,
 * by setting the queue flag at resume, after dm set it from the tiers when
 * it bound the table.
 */
static inline void swt_hint_nonrot(struct queue_limits *limits, bool nonrot)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	if (nonrot)
		limits->features &= ~BLK_FEAT_ROTATIONAL;
#endif
}

static inline void swt_resume_nonrot(struct gendisk *disk, bool nonrot)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 11, 0)
	if (nonrot)
		blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
#endif
}

#endif
