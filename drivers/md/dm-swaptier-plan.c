// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-swaptier: the migration knobs and the planner.
 *
 * The planner sweeps each tier's physical blocks with a clock hand and
 * takes runs of consecutive mapped blocks whose heat qualifies, so that one
 * copy reads a contiguous source and writes a contiguous destination.
 */
#include "dm-swaptier-plan.h"

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

const struct swt_knob_desc swt_plan_knobs[SWT_NR_KNOBS] = SWT_KNOB_DESCS;

int swt_plan_knob_find(const char *name)
{
	int k;

	for (k = 0; k < SWT_NR_KNOBS; k++)
		if (!strcasecmp(name, swt_plan_knobs[k].name))
			return k;
	return -1;
}

int swt_plan_knob_parse(unsigned int k, const char *s, u32 *v)
{
	const struct swt_knob_desc *d = &swt_plan_knobs[k];
	u32 val;

	if (d->onoff) {
		if (!strcasecmp(s, "on"))
			val = 1;
		else if (!strcasecmp(s, "off"))
			val = 0;
		else
			return -EINVAL;
	} else if (kstrtou32(s, 10, &val) || val < d->min || val > d->max) {
		return -EINVAL;
	}
	*v = val;
	return 0;
}

const char *swt_plan_knobs_conflict(const u32 *knob)
{
	if (knob[SWT_K_LOW_WM] >= knob[SWT_K_HIGH_WM])
		return "low_watermark must be below high_watermark";
	return NULL;
}

/*----------------------------------------------------------------*/

void swt_plan_init(struct swt_planner *pl)
{
	unsigned int k;

	memset(pl, 0, sizeof(*pl));
	for (k = 0; k < SWT_NR_KNOBS; k++)
		pl->knob[k] = swt_plan_knobs[k].def;
	pl->evacuate = -1;
}

u32 swt_plan_tier_free(const struct swt_map *m, unsigned int t)
{
	return m->tier[t].nr_blocks - m->tier[t].nr_mapped;
}

static u32 swt_plan_pct(u32 blocks, u32 pct)
{
	return (u32)(((u64)blocks * pct) / 100);
}

u32 swt_plan_tier_low(const struct swt_planner *pl, const struct swt_map *m,
		      unsigned int t)
{
	return swt_plan_pct(m->tier[t].nr_blocks, pl->knob[SWT_K_LOW_WM]);
}

static u32 swt_plan_tier_high(const struct swt_planner *pl, const struct swt_map *m,
			      unsigned int t)
{
	return swt_plan_pct(m->tier[t].nr_blocks, pl->knob[SWT_K_HIGH_WM]);
}

/* The first tier after @t that takes new blocks, or nr_tiers. */
static unsigned int swt_plan_slower(const struct swt_map *m, unsigned int t)
{
	while (++t < m->nr_tiers)
		if (!m->tier[t].no_alloc)
			break;
	return t;
}

void swt_plan_aged(struct swt_planner *pl)
{
	memset(pl->exhausted, 0, sizeof(pl->exhausted));
	memset(pl->gated, 0, sizeof(pl->gated));
	memset(pl->level, 0, sizeof(pl->level));
	/* what was swept before was judged by the old heats */
	memset(pl->swept, 0, sizeof(pl->swept));
}

bool swt_plan_wanted(const struct swt_planner *pl, const struct swt_map *m,
		     unsigned int t)
{
	return pl->knob[SWT_K_MIGRATION] && !pl->demoting[t] &&
	       !pl->exhausted[t] && !pl->gated[t] &&
	       swt_plan_slower(m, t) < m->nr_tiers &&
	       swt_plan_tier_free(m, t) < swt_plan_tier_low(pl, m, t);
}

/* Which blocks a sweep takes. */
struct swt_want {
	const struct swt_policy *p;
	enum swt_mig_kind kind;
	unsigned int heat;	/* demote: at most this; promote: at least */
	unsigned int gate;	/* demote: of this age class or older */
};

static bool swt_plan_takes(const struct swt_want *w, u32 lblk)
{
	unsigned int h;

	if (lblk >= SWT_MAX_BLOCKS)
		return false;
	if (w->kind == SWT_MIG_EVACUATE)
		return true;
	h = w->p->ops->heat(w->p, to_lblk(lblk));
	if (w->kind != SWT_MIG_DEMOTE)
		return h >= w->heat;
	return h <= w->heat &&
	       (!w->gate || w->p->ops->since(w->p, to_lblk(lblk)) >= w->gate);
}

/*
 * Move tier @t's clock hand over at most *@budget blocks, to the first
 * block @w wants; take it and the wanted blocks right after it, up to
 * @max. Returns the run's length, 0 if none was found.
 */
static u32 swt_plan_sweep(struct swt_planner *pl, const struct swt_map *m,
			  unsigned int t, const struct swt_want *w, u32 max,
		     u32 *budget, struct swt_plan *plan)
{
	const struct swt_tier *tr = &m->tier[t];
	u32 off, l, n;

	while (*budget) {
		(*budget)--;
		off = pl->hand[t];
		pl->hand[t] = off + 1 < tr->nr_blocks ? off + 1 : 0;
		pl->swept[t]++;
		l = swt_map_owner(m, tr->start + off);
		if (!swt_plan_takes(w, l))
			continue;
		plan->lblk[0] = to_lblk(l);
		for (n = 1; n < max && off + n < tr->nr_blocks; n++) {
			l = swt_map_owner(m, tr->start + off + n);
			if (!swt_plan_takes(w, l))
				break;
			plan->lblk[n] = to_lblk(l);
		}
		pl->hand[t] = off + n < tr->nr_blocks ? off + n : 0;
		pl->swept[t] = 0;
		plan->src = to_pblk(tr->start + off);
		plan->from = t;
		return n;
	}
	return 0;
}

/* The clock hand goes on right after what @plan moves. */
static void swt_plan_rewind(struct swt_planner *pl, const struct swt_map *m,
			    const struct swt_plan *plan)
{
	const struct swt_tier *tr = &m->tier[plan->from];
	u32 next = from_pblk(plan->src) - tr->start + plan->len;

	pl->hand[plan->from] = next < tr->nr_blocks ? next : 0;
}

/* Allocate the destination of a @len block run on tier @to. */
static bool swt_plan_dst(struct swt_map *m, unsigned int to, u32 len,
			 struct swt_plan *plan)
{
	struct swt_alloc a;

	if (!swt_map_alloc_on(m, to, len, &a))
		return false;
	plan->to = to;
	plan->dst = a.pblk;
	plan->len = a.len;
	return true;
}

static enum swt_plan_result swt_plan_evac(struct swt_planner *pl,
					  struct swt_map *m,
					  const struct swt_policy *p, u32 max,
					  u32 *budget, struct swt_plan *plan)
{
	struct swt_want w = { .p = p, .kind = SWT_MIG_EVACUATE };
	unsigned int e = pl->evacuate, to;
	u32 n;

	if (!m->tier[e].nr_mapped)
		return SWT_PLAN_NOTHING;
	/* The fastest other tier with a free block takes them. */
	for (to = 0; to < m->nr_tiers; to++)
		if (to != e && !m->tier[to].no_alloc && !m->tier[to].refusing &&
		    swt_plan_tier_free(m, to) > max)
			break;
	if (to == m->nr_tiers)
		return SWT_PLAN_NOTHING;
	n = swt_plan_sweep(pl, m, e, &w, max, budget, plan);
	if (!n)
		return SWT_PLAN_SCANNING;
	if (!swt_plan_dst(m, to, n, plan))
		return SWT_PLAN_NOTHING;
	swt_plan_rewind(pl, m, plan);
	plan->kind = SWT_MIG_EVACUATE;
	return SWT_PLAN_MOVE;
}

static enum swt_plan_result swt_plan_demote(struct swt_planner *pl,
					    struct swt_map *m,
					    const struct swt_policy *p,
					    unsigned int t, u32 max,
					    u32 *budget, struct swt_plan *plan)
{
	struct swt_want w = { .p = p, .kind = SWT_MIG_DEMOTE };
	unsigned int to = swt_plan_slower(m, t);
	u32 n;

	w.heat = min_t(u32, pl->level[t], pl->knob[SWT_K_DEMOTE_HEAT]);
	/*
	 * With the gate, only blocks older than nearly every block read of
	 * late move down, and none while few are read (policy gate()): a new write then
	 * goes to the slower tier rather than push out a block that is as
	 * likely to be read. A tier refusing writes frees what it can. A
	 * closed gate is looked at again on the worker's next run (at most
	 * a second later), as reads may open it.
	 */
	pl->gated[t] = false;
	if (pl->knob[SWT_K_DEMOTE_GATE] && !m->tier[t].refusing) {
		w.gate = p->ops->gate(p);
		if (w.gate >= SWT_AGE_CLASSES) {
			pl->gated[t] = true;
			return SWT_PLAN_NOTHING;
		}
	}
	n = swt_plan_sweep(pl, m, t, &w, max, budget, plan);
	if (!n) {
		if (pl->swept[t] < m->tier[t].nr_blocks)
			return SWT_PLAN_SCANNING;
		/*
		 * A whole sweep found nothing this cold: take warmer ones, up
		 * to demote_heat; past it, let writes go to the slower tier
		 * until the next aging.
		 */
		pl->swept[t] = 0;
		if (w.heat >= pl->knob[SWT_K_DEMOTE_HEAT]) {
			pl->exhausted[t] = true;
			return SWT_PLAN_NOTHING;
		}
		pl->level[t] = pl->level[t] * 2 + 1;
		return SWT_PLAN_SCANNING;
	}
	/* The next slower tier with room, else the one after it. */
	for (; to < m->nr_tiers; to = swt_plan_slower(m, to))
		if (swt_plan_dst(m, to, n, plan))
			break;
	if (to == m->nr_tiers)
		return SWT_PLAN_NOTHING;
	/* a shorter destination: the rest of the run goes next, in order */
	swt_plan_rewind(pl, m, plan);
	plan->kind = SWT_MIG_DEMOTE;
	return SWT_PLAN_MOVE;
}

/*
 * Add promote_share % of the user I/O tier @t served since the last call
 * to its promotion budget.
 */
static void swt_plan_credit(struct swt_planner *pl, const struct swt_map *m,
			    unsigned int t)
{
	u64 io = m->st.tier[t].reads + m->st.tier[t].writes;
	u64 c;

	/* the stats were cleared */
	if (io < pl->io_seen[t])
		pl->io_seen[t] = io;
	c = pl->credit[t] +
	    (io - pl->io_seen[t]) * pl->knob[SWT_K_PROMOTE_SHARE];
	pl->credit[t] = min_t(u64, c, SWT_CREDIT_MAX);
	pl->io_seen[t] = io;
}

static enum swt_plan_result swt_plan_promote(struct swt_planner *pl,
					     struct swt_map *m,
					     const struct swt_policy *p,
					     unsigned int t, u32 max,
					     u32 *budget,
					     struct swt_plan *plan)
{
	struct swt_want w = { .p = p, .kind = SWT_MIG_PROMOTE };
	unsigned int to;
	u32 n;

	/* The fastest tier that keeps above its low watermark after it. */
	for (to = 0; to < t; to++)
		if (!m->tier[to].no_alloc && !pl->demoting[to] &&
		    swt_plan_tier_free(m, to) > swt_plan_tier_low(pl, m, to) + max)
			break;
	if (to == t)
		return SWT_PLAN_NOTHING;
	w.heat = pl->knob[SWT_K_PROMOTE_HEAT];
	n = swt_plan_sweep(pl, m, t, &w, max, budget, plan);
	/*
	 * After a whole sweep found nothing, each call looks at one budget
	 * until the next aging starts a full sweep again.
	 */
	if (!n)
		return pl->swept[t] >= m->tier[t].nr_blocks ?
		       SWT_PLAN_NOTHING : SWT_PLAN_SCANNING;
	if (!swt_plan_dst(m, to, n, plan))
		return SWT_PLAN_NOTHING;
	swt_plan_rewind(pl, m, plan);
	plan->kind = SWT_MIG_PROMOTE;
	return SWT_PLAN_MOVE;
}

/*
 * Start or stop demoting each tier by its watermarks. A tier that refuses
 * writes (zram at its mem_limit) demotes whatever its free blocks: the
 * discards that follow give it back what it ran out of.
 */
static void swt_plan_watermarks(struct swt_planner *pl,
				const struct swt_map *m)
{
	unsigned int t;
	u32 free;

	for (t = 0; t < m->nr_tiers; t++) {
		free = swt_plan_tier_free(m, t);
		if (m->tier[t].no_alloc || swt_plan_slower(m, t) == m->nr_tiers ||
		    (free >= swt_plan_tier_high(pl, m, t) && !m->tier[t].refusing)) {
			pl->demoting[t] = false;
			pl->level[t] = 0;
		} else if (free < swt_plan_tier_low(pl, m, t) ||
			   m->tier[t].refusing) {
			pl->demoting[t] = true;
		}
	}
}

/* The more pressing of two results (they are ordered). */
static enum swt_plan_result swt_plan_better(enum swt_plan_result a,
					    enum swt_plan_result b)
{
	return a < b ? a : b;
}

enum swt_plan_result swt_plan_next(struct swt_planner *pl, struct swt_map *m,
				   const struct swt_policy *p, bool idle,
				   u32 max_len, u32 budget,
				   struct swt_plan *plan)
{
	enum swt_plan_result r, best = SWT_PLAN_NOTHING;
	unsigned int t;

	max_len = clamp(max_len, 1U, SWT_MIG_MAX_BLOCKS);
	swt_plan_watermarks(pl, m);

	if (pl->evacuate >= 0) {
		r = swt_plan_evac(pl, m, p, max_len, &budget, plan);
		if (r != SWT_PLAN_NOTHING)
			return r;
	}
	if (!pl->knob[SWT_K_MIGRATION])
		return SWT_PLAN_NOTHING;

	for (t = 0; t < m->nr_tiers; t++) {
		if (!pl->demoting[t] || pl->exhausted[t])
			continue;
		r = swt_plan_demote(pl, m, p, t, max_len, &budget, plan);
		if (r == SWT_PLAN_MOVE)
			return r;
		best = swt_plan_better(best, r);
	}

	for (t = 1; t < m->nr_tiers; t++) {
		u32 len = max_len;

		swt_plan_credit(pl, m, t);
		if (!m->tier[t].nr_mapped)
			continue;
		if (!idle) {
			len = min(len, pl->credit[t] / SWT_CREDIT_UNIT);
			if (!len) {
				best = swt_plan_better(best, SWT_PLAN_WAIT_IDLE);
				continue;
			}
		}
		r = swt_plan_promote(pl, m, p, t, len, &budget, plan);
		if (r == SWT_PLAN_MOVE) {
			if (!idle)
				pl->credit[t] -= plan->len * SWT_CREDIT_UNIT;
			return r;
		}
		best = swt_plan_better(best, r);
	}
	return best;
}

u32 swt_plan_inflight_cap(const struct swt_planner *pl,
			  const struct swt_map *m)
{
	return max(min(pl->knob[SWT_K_MIG_MAX_IO], m->reserve / 2), 1U);
}

int swt_plan_evacuate(struct swt_planner *pl, struct swt_map *m, int tier)
{
	u64 room = 0;
	unsigned int t;

	if (tier < 0) {
		if (pl->evacuate >= 0)
			swt_map_set_alloc(m, pl->evacuate, true);
		pl->evacuate = -1;
		return 0;
	}
	if (pl->evacuate >= 0 && pl->evacuate != tier)
		return -EBUSY;
	for (t = 0; t < m->nr_tiers; t++)
		if (t != (unsigned int)tier)
			room += m->tier[t].nr_blocks;
	/* Every logical block must fit, or writes could wait forever. */
	if (room < (u64)m->nr_logical + m->reserve / 2)
		return -ENOSPC;
	pl->evacuate = tier;
	swt_map_set_alloc(m, tier, false);
	return 0;
}

void swt_plan_heat_histogram(const struct swt_map *m, const struct swt_policy *p,
			     unsigned int t, u32 off, u32 len, u32 *bucket)
{
	const struct swt_tier *tr = &m->tier[t];
	unsigned int h, b;
	u32 i, l;

	for (i = off; i < off + len && i < tr->nr_blocks; i++) {
		l = swt_map_owner(m, tr->start + i);
		if (l >= SWT_MAX_BLOCKS)
			continue;
		h = p->ops->heat(p, to_lblk(l));
		b = h ? min_t(unsigned int, fls(h), SWT_HEAT_BUCKETS - 1) : 0;
		bucket[b]++;
	}
}
