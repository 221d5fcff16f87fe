/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dm-swaptier: the migration knobs, and the planner that picks which
 * blocks move between tiers from their heat (dm-swaptier-policy.h).
 *
 * Like the map, this is plain C with no bio or locking code, compiled
 * unchanged into the host unit tests. No function sleeps or allocates.
 * The knob helpers (swt_plan_knob_find/_parse/_knobs_conflict) are pure:
 * any context, no lock (the constructor and the set message call them).
 * swt_plan_init() runs before the planner is shared (constructor). Every
 * other function is called with the owner's lock held (pool->lock).
 */
#ifndef DM_SWAPTIER_PLAN_H
#define DM_SWAPTIER_PLAN_H

#include "dm-swaptier-policy.h"

/* Most blocks one copy moves (256 KiB); they are physically consecutive. */
#define SWT_MIG_MAX_BLOCKS	64U

/* The promotion budget counts hundredths of a block. */
#define SWT_CREDIT_UNIT		100U

/* Most budget a tier saves up while promotions find nothing: four copies. */
#define SWT_CREDIT_MAX		(4 * SWT_MIG_MAX_BLOCKS * SWT_CREDIT_UNIT)

/* The knobs (enum swt_knob), their names and ranges: dm-swaptier-abi.h. */
extern const struct swt_knob_desc swt_plan_knobs[SWT_NR_KNOBS];

/* Index of the knob called @name, or -1. */
int swt_plan_knob_find(const char *name);

/*
 * Parse @s as a value of knob @k into @v. Returns 0, or -EINVAL if it is
 * not a number (or on/off) inside the knob's range.
 */
int swt_plan_knob_parse(unsigned int k, const char *s, u32 *v);

/* Check knob values against each other; returns a reason or NULL. */
const char *swt_plan_knobs_conflict(const u32 *knob);

/*----------------------------------------------------------------*/

/* What the planner keeps between calls; part of the pool. */
struct swt_planner {
	u32 knob[SWT_NR_KNOBS];
	int evacuate;			/* tier being emptied, or -1 */
	u32 hand[SWT_MAX_TIERS];	/* clock hand, block offset in tier */
	u32 swept[SWT_MAX_TIERS];	/* blocks looked at since a pick */
	u8 level[SWT_MAX_TIERS];	/* demotion: highest heat taken */
	bool demoting[SWT_MAX_TIERS];	/* fell below low, not yet at high */
	/* a whole sweep found nothing up to demote_heat: wait for an aging */
	bool exhausted[SWT_MAX_TIERS];
	/* demote_gate closed at the last look: writes do not wake the worker */
	bool gated[SWT_MAX_TIERS];
	/* promotion budget of each tier, in SWT_CREDIT_UNITs */
	u32 credit[SWT_MAX_TIERS];
	u64 io_seen[SWT_MAX_TIERS];	/* the tier's user I/O counted so far */
};

/* One copy: @len blocks from @src (tier @from) to @dst (tier @to). */
struct swt_plan {
	enum swt_mig_kind kind;
	unsigned int from;
	unsigned int to;
	swt_pblk_t src;
	swt_pblk_t dst;
	u32 len;
	swt_lblk_t lblk[SWT_MIG_MAX_BLOCKS];	/* what src + i held when planned */
};

enum swt_plan_result {
	SWT_PLAN_MOVE,		/* *plan is filled in, dst allocated */
	SWT_PLAN_SCANNING,	/* the scan budget ran out: call again */
	SWT_PLAN_WAIT_IDLE,	/* promotions wait for budget or idle I/O */
	SWT_PLAN_NOTHING,	/* nothing to move now */
};

void swt_plan_init(struct swt_planner *pl);

/* Free space of tier @t, as the watermarks see it, and their levels. */
u32 swt_plan_tier_free(const struct swt_map *m, unsigned int t);
u32 swt_plan_tier_low(const struct swt_planner *pl, const struct swt_map *m,
		      unsigned int t);

/*
 * Blocks that copies between tiers may hold at once: migration_max_io,
 * and never more than half the relocation reserve, so that writes always
 * find the other half.
 */
u32 swt_plan_inflight_cap(const struct swt_planner *pl,
			  const struct swt_map *m);

/*
 * Every heat was halved, or the knobs changed: blocks may have become cold
 * enough to demote, or hot enough to promote. Demotion starts again from
 * the coldest, and both sweep each tier whole again.
 */
void swt_plan_aged(struct swt_planner *pl);

/* Should a write that just landed on tier @t wake the planner? */
bool swt_plan_wanted(const struct swt_planner *pl, const struct swt_map *m,
		     unsigned int t);

/*
 * Pick the next copy, looking at no more than @budget blocks: evacuation
 * first, then demotion of cold blocks from tiers below their low
 * watermark, then promotion of hot blocks: without limit when @idle (user
 * I/O has stopped), else within the tier's promotion budget, which grows
 * by promote_share % of a block for each user read and write request its
 * tier served (the tier's stats). Allocates the destination on the target
 * tier's migration frontier; the caller copies and then calls
 * swt_map_move() or, on error, swt_map_abort() on it.
 */
enum swt_plan_result swt_plan_next(struct swt_planner *pl, struct swt_map *m,
				   const struct swt_policy *p, bool idle,
				   u32 max_len, u32 budget,
				   struct swt_plan *plan);

/*
 * Start (@tier < nr_tiers) or cancel (@tier < 0) an evacuation. Returns 0,
 * -EBUSY if another tier is being evacuated, or -ENOSPC if the other tiers
 * cannot hold every logical block.
 */
int swt_plan_evacuate(struct swt_planner *pl, struct swt_map *m, int tier);

/*
 * Add the mapped blocks among @len blocks of tier @t from offset @off to
 * @bucket[SWT_HEAT_BUCKETS], by heat.
 */
void swt_plan_heat_histogram(const struct swt_map *m, const struct swt_policy *p,
			     unsigned int t, u32 off, u32 len, u32 *bucket);

#endif
