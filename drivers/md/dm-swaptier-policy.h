/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dm-swaptier: the heat of each logical block, kept by a policy behind
 * struct swt_policy_ops, so that another one can be added without touching
 * the data path or the planner. "clock" (dm-swaptier-policy-clock.c) is the
 * only one today.
 *
 * Like the map, this is plain C with no bio or locking code, compiled
 * unchanged into the host unit tests. Every op is called with the owner's
 * lock held and neither sleeps nor allocates, except create and destroy
 * (process context).
 */
#ifndef DM_SWAPTIER_POLICY_H
#define DM_SWAPTIER_POLICY_H

#include "dm-swaptier-map.h"

struct swt_policy;

struct swt_policy_ops {
	const char *name;
	int (*create)(struct swt_policy *p, u32 nr_logical);
	void (*destroy)(struct swt_policy *p);
	/* @len blocks from @lblk were read */
	void (*hit)(struct swt_policy *p, swt_lblk_t lblk, u32 len);
	/* @len blocks from @lblk were written */
	void (*fill)(struct swt_policy *p, swt_lblk_t lblk, u32 len);
	/* @len blocks from @lblk were discarded */
	void (*clear)(struct swt_policy *p, swt_lblk_t lblk, u32 len);
	/* one aging step over @len blocks from @lblk */
	void (*age)(struct swt_policy *p, swt_lblk_t lblk, u32 len);
	/* every block had its aging step: the period is over */
	void (*period)(struct swt_policy *p);
	/* 0 (cold) to 255 */
	unsigned int (*heat)(const struct swt_policy *p, swt_lblk_t lblk);
	/* how long unread and unwritten: an age class, 0 to SWT_AGE_CLASSES - 1 */
	unsigned int (*since)(const struct swt_policy *p, swt_lblk_t lblk);
	/*
	 * The youngest age class demotion may take: older than what recent
	 * reads found, or SWT_AGE_CLASSES when none were read of late.
	 */
	unsigned int (*gate)(const struct swt_policy *p);
	u64 (*bytes)(const struct swt_policy *p);
};

/*
 * Age classes count the heat periods since a block was last written or
 * read, coarser as they grow: classes 0-3 one period each, 4-7 about two,
 * 8-11 about four, 12-14 about eight (each class's length is counted in
 * whole periods, so the first of a group may be shorter), and 15 is from
 * 45 to 52 periods on.
 */
#define SWT_AGE_CLASSES		16U

/*
 * Reads above the gate's class are at most 1/SWT_GATE_TAIL of them all.
 * Below SWT_GATE_TAIL reads counted, one read is more than that share and
 * the gate stays closed: a stray read (a probe by blkid) opens nothing.
 */
#define SWT_GATE_TAIL		32U

struct swt_policy {
	const struct swt_policy_ops *ops;
	u32 nr_logical;
	u8 *heat;		/* clock: one byte per logical block */
	u8 *since;		/* clock: an age class per block, two a byte */
	u32 periods;		/* heat periods so far */
	/* reads by the age class the block had, halved every period */
	u32 read_age[SWT_AGE_CLASSES];
};

/*
 * Create the policy called @name (NULL: the default), or free what
 * swt_policy_create() allocated (process context: both may sleep; the
 * policy is not shared yet, or no longer).
 */
int swt_policy_create(struct swt_policy *p, const char *name, u32 nr_logical);
void swt_policy_destroy(struct swt_policy *p);

extern const struct swt_policy_ops swt_clock_ops;

#endif
