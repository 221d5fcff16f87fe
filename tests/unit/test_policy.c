// SPDX-License-Identifier: GPL-2.0-only
/*
 * Directed host tests of drivers/md/dm-swaptier-policy-clock.c and dm-swaptier-plan.c: the heat model,
 * the knobs, and the planner's decisions on synthetic access traces.
 */
#include "dm-swaptier-plan.h"
#include "unit.h"
#include <errno.h>

unsigned long shim_warnings;
long shim_fail_alloc_after = -1;
long shim_live_allocs;
long shim_vmallocs;

static struct swt_map m;
static struct swt_policy pol;
static struct swt_planner pl;

/* Tier 0 of 100 blocks over tier 1 of 400; 450 logical blocks. */
static void setup(void)
{
	const u32 tiers[] = { 100, 400 };

	EXPECT_EQ(swt_map_create(&m, 450, 2, tiers, 50, 1, 16), 0);
	EXPECT_EQ(swt_policy_create(&pol, NULL, 450), 0);
	swt_plan_init(&pl);
	/*
	 * The cases below count blocks on a 100-block tier 0 that demotes
	 * when fewer than 10 are free, until 20 are; test_default_watermarks
	 * checks the defaults.
	 */
	pl.knob[SWT_K_LOW_WM] = 10;
	pl.knob[SWT_K_HIGH_WM] = 20;
	/* the cases read nothing, which keeps the gate closed: they turn it on */
	pl.knob[SWT_K_DEMOTE_GATE] = 0;
}

static void teardown(void)
{
	u32 bad;

	EXPECT_EQ(swt_map_check(&m, &bad), 0);
	swt_policy_destroy(&pol);
	swt_map_destroy(&m);
	EXPECT_EQ(shim_live_allocs, 0);
	EXPECT_EQ(shim_warnings, 0);
}

static void write_blocks(u32 from, u32 n)
{
	struct swt_alloc a;
	u32 l = from;

	while (l < from + n) {
		EXPECT(swt_map_alloc(&m, 0, from + n - l, &a));
		swt_map_commit(&m, to_lblk(l), a.pblk, a.len);
		pol.ops->fill(&pol, l, a.len);
		l += a.len;
	}
}

static unsigned int tier_of_lblk(u32 l)
{
	struct swt_extent e;

	swt_map_lookup(&m, to_lblk(l), 1, &e);
	return e.pblk == SWT_NO_PBLK ? 99 : e.tier;
}

/* Run the planner with instant copies until it has nothing to move. */
static u32 migrate_all(bool idle, enum swt_mig_kind *kind_seen)
{
	enum swt_plan_result r;
	struct swt_plan plan;
	unsigned int ticket, rounds = 0;
	u32 moved = 0;

	for (;;) {
		ticket = swt_map_read_begin(&m);
		r = swt_plan_next(&pl, &m, &pol, idle, 64, 256, &plan);
		if (r == SWT_PLAN_MOVE) {
			if (kind_seen)
				*kind_seen = plan.kind;
			moved += swt_map_move(&m, plan.lblk, plan.src, plan.dst,
					      plan.len);
		}
		swt_map_read_end(&m, ticket);
		swt_map_reclaim(&m, ~0U);
		if (r != SWT_PLAN_MOVE && r != SWT_PLAN_SCANNING)
			break;
		if (++rounds > 10000) {
			EXPECT(!"planner never settles");
			break;
		}
	}
	return moved;
}

static void test_heat_model(void)
{
	unsigned int i;

	setup();
	pol.ops->fill(&pol, 5, 1);
	EXPECT_EQ(pol.ops->heat(&pol, 5), 1);
	for (i = 0; i < 300; i++)
		pol.ops->hit(&pol, 5, 1);
	EXPECT_EQ(pol.ops->heat(&pol, 5), 255);
	pol.ops->age(&pol, 0, 450);
	EXPECT_EQ(pol.ops->heat(&pol, 5), 127);
	pol.ops->clear(&pol, 5, 1);
	EXPECT_EQ(pol.ops->heat(&pol, 5), 0);
	EXPECT_EQ(pol.ops->bytes(&pol), 450 + 225);	/* heat, age classes */
	swt_policy_destroy(&pol);
	EXPECT_EQ(swt_policy_create(&pol, "nonesuch", 10), -EINVAL);
	swt_policy_create(&pol, "clock", 450);
	teardown();
}

static void test_knobs(void)
{
	u32 v, knob[SWT_NR_KNOBS];
	unsigned int k;

	EXPECT_EQ(swt_plan_knob_find("promote_heat"), SWT_K_PROMOTE_HEAT);
	EXPECT_EQ(swt_plan_knob_find("PROMOTE_HEAT"), SWT_K_PROMOTE_HEAT);
	EXPECT_EQ(swt_plan_knob_find("nope"), -1);
	EXPECT_EQ(swt_plan_knob_parse(SWT_K_MIGRATION, "off", &v), 0);
	EXPECT_EQ(v, 0);
	EXPECT_EQ(swt_plan_knob_parse(SWT_K_MIGRATION, "1", &v), -EINVAL);
	EXPECT_EQ(swt_plan_knob_parse(SWT_K_PROMOTE_HEAT, "0", &v), -EINVAL);
	EXPECT_EQ(swt_plan_knob_parse(SWT_K_PROMOTE_HEAT, "256", &v), -EINVAL);
	EXPECT_EQ(swt_plan_knob_parse(SWT_K_PROMOTE_HEAT, "-1", &v), -EINVAL);
	EXPECT_EQ(swt_plan_knob_parse(SWT_K_PROMOTE_HEAT, "99999999999", &v), -EINVAL);
	EXPECT_EQ(swt_plan_knob_parse(SWT_K_PROMOTE_HEAT, "7x", &v), -EINVAL);
	EXPECT_EQ(swt_plan_knob_parse(SWT_K_PROMOTE_HEAT, "255", &v), 0);
	for (k = 0; k < SWT_NR_KNOBS; k++) {
		EXPECT(swt_plan_knobs[k].def >= swt_plan_knobs[k].min);
		EXPECT(swt_plan_knobs[k].def <= swt_plan_knobs[k].max);
		knob[k] = swt_plan_knobs[k].def;
	}
	EXPECT(swt_plan_knobs_conflict(knob) == NULL);
	knob[SWT_K_LOW_WM] = knob[SWT_K_HIGH_WM];
	EXPECT(swt_plan_knobs_conflict(knob) != NULL);
}

/*
 * By default demotion starts below 3 % free and stops at 6 %: the fast
 * tier stays nearly full of blocks swap may read back.
 */
static void test_default_watermarks(void)
{
	setup();
	swt_plan_init(&pl);			/* the defaults, not setup()'s */
	EXPECT_EQ(pl.knob[SWT_K_LOW_WM], 3);
	EXPECT_EQ(pl.knob[SWT_K_HIGH_WM], 6);
	EXPECT_EQ(pl.knob[SWT_K_DEMOTE_GATE], 1);
	pl.knob[SWT_K_DEMOTE_GATE] = 0;		/* nothing is read here */
	write_blocks(0, 97);			/* 3 free: not below 3 % */
	EXPECT(!swt_plan_wanted(&pl, &m, 0));
	EXPECT_EQ(migrate_all(false, NULL), 0);
	write_blocks(97, 1);			/* 2 free */
	EXPECT(swt_plan_wanted(&pl, &m, 0));
	EXPECT(migrate_all(false, NULL) >= 4);
	EXPECT(swt_plan_tier_free(&m, 0) >= 6);
	EXPECT(!pl.demoting[0]);
	teardown();
}

/* Tier 0 filled: cold blocks go down first, hot ones stay, to the high mark. */
static void test_demote_cold_first(void)
{
	unsigned int i;
	u32 l, moved;

	setup();
	write_blocks(0, 95);
	pol.ops->age(&pol, 0, 450);		/* all written a period ago */
	for (l = 0; l < 40; l++)
		for (i = 0; i < 3; i++)
			pol.ops->hit(&pol, l, 1);
	EXPECT(swt_plan_wanted(&pl, &m, 0));
	moved = migrate_all(false, NULL);
	EXPECT(moved >= 15);
	EXPECT(swt_plan_tier_free(&m, 0) >= 20);
	EXPECT(swt_plan_tier_free(&m, 0) < 20 + 64);
	for (l = 0; l < 40; l++)
		EXPECT_EQ(tier_of_lblk(l), 0);
	EXPECT(!pl.demoting[0]);
	teardown();
}

/*
 * By default (demote_heat 1) blocks written and never read go down at
 * once, without waiting for an aging: an idle program's pages leave the
 * fast tier while those read since (likely in memory again, or freed)
 * stay.
 */
static void test_demote_unread_first(void)
{
	u32 l;

	setup();
	EXPECT_EQ(pl.knob[SWT_K_DEMOTE_HEAT], 1);
	write_blocks(0, 95);			/* heat 1: written, not read */
	for (l = 0; l < 40; l++)
		pol.ops->hit(&pol, l, 1);	/* heat 2: read once */
	EXPECT(migrate_all(false, NULL) >= 15);
	EXPECT(swt_plan_tier_free(&m, 0) >= 20);
	for (l = 0; l < 40; l++)
		EXPECT_EQ(tier_of_lblk(l), 0);
	teardown();
}

/*
 * With no cold block left, demotion takes warmer ones up to demote_heat
 * rather than stall.
 */
static void test_demote_escalates(void)
{
	u32 l;

	setup();
	pl.knob[SWT_K_DEMOTE_HEAT] = 255;
	write_blocks(0, 100);
	for (l = 0; l < 100; l++)
		pol.ops->hit(&pol, l, 1);	/* every block at heat 2 */
	EXPECT(migrate_all(false, NULL) >= 20);
	EXPECT(swt_plan_tier_free(&m, 0) >= 20);
	EXPECT(pl.level[0] == 0);		/* reset once demotion stopped */
	teardown();
}

/*
 * With demote_heat 0 only blocks unread for a heat period move down: a
 * tier full of recent blocks stays full (writes go to the slower tier)
 * until an aging makes some cold.
 */
static void test_demote_waits_for_cold(void)
{
	struct swt_alloc a;
	u32 l;

	setup();
	pl.knob[SWT_K_DEMOTE_HEAT] = 0;
	write_blocks(0, 95);			/* heat 1: written, not read */
	for (l = 0; l < 40; l++)
		pol.ops->hit(&pol, l, 1);
	EXPECT(swt_plan_wanted(&pl, &m, 0));
	EXPECT_EQ(migrate_all(false, NULL), 0);
	EXPECT(pl.exhausted[0]);
	EXPECT(!swt_plan_wanted(&pl, &m, 0));
	/* once the tier is full, new writes go to tier 1 */
	for (l = 300; l < 310; l++) {
		EXPECT(swt_map_alloc(&m, 0, 1, &a));
		swt_map_commit(&m, to_lblk(l), a.pblk, 1);
		pol.ops->fill(&pol, l, 1);
	}
	EXPECT_EQ(a.tier, 1);
	EXPECT_EQ(m.tier[0].nr_mapped, 100);
	/* one aging: the blocks never read are cold now, the read ones not */
	pol.ops->age(&pol, 0, 450);
	swt_plan_aged(&pl);
	EXPECT(migrate_all(false, NULL) >= 15);
	EXPECT(swt_plan_tier_free(&m, 0) >= 20);
	for (l = 0; l < 40; l++)
		EXPECT_EQ(tier_of_lblk(l), 0);
	teardown();
}

/*
 * A knob change (swt_plan_aged() is what the set message calls) ends the
 * wait for an aging, and an aging starts demotion again from the coldest.
 */
static void test_demote_heat_raised(void)
{
	struct swt_plan plan;
	unsigned int ticket, i;

	setup();
	write_blocks(0, 95);
	for (i = 0; i < 10; i++)
		pol.ops->hit(&pol, 0, 95);	/* every block at heat 11 */
	pl.knob[SWT_K_DEMOTE_HEAT] = 7;
	EXPECT_EQ(migrate_all(false, NULL), 0);
	EXPECT(pl.exhausted[0]);
	EXPECT_EQ(pl.level[0], 7);
	pol.ops->age(&pol, 0, 450);		/* 11 -> 5 */
	pol.ops->clear(&pol, 60, 4);		/* and four at 0 */
	swt_plan_aged(&pl);
	EXPECT(!pl.exhausted[0]);
	EXPECT_EQ(pl.level[0], 0);
	/* the coldest go first */
	ticket = swt_map_read_begin(&m);
	EXPECT_EQ(swt_plan_next(&pl, &m, &pol, false, 64, 1000, &plan),
		  SWT_PLAN_MOVE);
	EXPECT_EQ(plan.len, 4);
	EXPECT_EQ(plan.lblk[0], 60);
	swt_map_move(&m, plan.lblk, plan.src, plan.dst, plan.len);
	swt_map_read_end(&m, ticket);
	/* raising demote_heat takes the rest at once */
	pl.knob[SWT_K_DEMOTE_HEAT] = 5;
	swt_plan_aged(&pl);
	EXPECT(migrate_all(false, NULL) >= 10);
	EXPECT(swt_plan_tier_free(&m, 0) >= 20);
	teardown();
}

/* Hot blocks on tier 1 move up only when idle; cold ones stay. */
static void test_promote_hot_when_idle(void)
{
	enum swt_mig_kind kind = SWT_MIG_KINDS;
	u32 l, moved;

	setup();
	write_blocks(0, 95);		/* tier 0 fills; 80..94 spill */
	migrate_all(false, NULL);	/* tier 0 back at 20 % free */
	write_blocks(100, 200);		/* lands on tier 0 then tier 1 */
	migrate_all(false, NULL);
	for (l = 250; l < 260; l++) {
		EXPECT_EQ(tier_of_lblk(l), 1);
		pol.ops->hit(&pol, l, 1);
		pol.ops->hit(&pol, l, 1);
	}
	/* make room above the low watermark for the promotion */
	swt_map_unmap(&m, to_lblk(0), 95);
	swt_map_reclaim(&m, ~0U);
	EXPECT_EQ(migrate_all(false, NULL), 0);
	EXPECT_EQ(tier_of_lblk(250), 1);
	moved = migrate_all(true, &kind);
	EXPECT_EQ(moved, 10);
	EXPECT_EQ(kind, SWT_MIG_PROMOTE);
	for (l = 250; l < 260; l++)
		EXPECT_EQ(tier_of_lblk(l), 0);
	EXPECT_EQ(tier_of_lblk(270), 1);
	EXPECT(swt_plan_tier_free(&m, 0) >= swt_plan_tier_low(&pl, &m, 0));
	teardown();
}

/*
 * Blocks read twice on tier 1 move up while I/O goes on, but never more
 * than promote_share % of the reads and writes tier 1 served; with a share
 * of 0 they wait for idle I/O.
 */
static void test_promote_within_budget(void)
{
	u32 l;

	setup();
	write_blocks(0, 95);
	migrate_all(false, NULL);
	write_blocks(100, 200);
	migrate_all(false, NULL);
	for (l = 250; l < 270; l++) {
		EXPECT_EQ(tier_of_lblk(l), 1);
		pol.ops->hit(&pol, l, 1);
		pol.ops->hit(&pol, l, 1);
	}
	swt_map_unmap(&m, to_lblk(0), 95);
	swt_map_reclaim(&m, ~0U);
	pl.knob[SWT_K_PROMOTE_SHARE] = 0;
	m.st.tier[1].reads += 1000;
	EXPECT_EQ(migrate_all(false, NULL), 0);
	pl.knob[SWT_K_PROMOTE_SHARE] = 25;
	/* 40 reads of tier 1: a budget of 10 blocks */
	m.st.tier[1].reads += 40;
	EXPECT_EQ(migrate_all(false, NULL), 10);
	EXPECT_EQ(pl.credit[1], 0);
	EXPECT_EQ(tier_of_lblk(250), 0);
	EXPECT_EQ(tier_of_lblk(269), 1);
	/* a cleared stats counter does not make a budget */
	m.st.tier[1].reads = 0;
	EXPECT_EQ(migrate_all(false, NULL), 0);
	m.st.tier[1].writes += 40;
	EXPECT_EQ(migrate_all(false, NULL), 10);
	for (l = 250; l < 270; l++)
		EXPECT_EQ(tier_of_lblk(l), 0);
	/* a long quiet budget saves up at most four copies' worth */
	m.st.tier[1].reads += 1000000;
	migrate_all(false, NULL);
	EXPECT_EQ(pl.credit[1], SWT_CREDIT_MAX);
	teardown();
}

/*
 * An aging in the middle of a sweep: what was swept before it was judged
 * by the old heats, so it does not count towards "a whole sweep found
 * nothing" (else the tier would wait a whole heat period for nothing).
 */
static void test_aging_mid_sweep(void)
{
	struct swt_plan plan;
	unsigned int ticket, i;
	enum swt_plan_result r = SWT_PLAN_SCANNING;

	setup();
	write_blocks(0, 95);
	for (i = 0; i < 3; i++)
		pol.ops->hit(&pol, 50, 45);	/* 50..94 at heat 4, 0..49 at 1 */
	EXPECT(swt_plan_wanted(&pl, &m, 0));
	ticket = swt_map_read_begin(&m);
	EXPECT_EQ(swt_plan_next(&pl, &m, &pol, false, 64, 50, &plan),
		  SWT_PLAN_SCANNING);
	swt_map_read_end(&m, ticket);
	pol.ops->age(&pol, 0, 450);		/* 0..49 cold now */
	swt_plan_aged(&pl);
	/* demotion sweeps the 450 logical blocks, 50 per call */
	for (i = 0; i < 10 && r == SWT_PLAN_SCANNING; i++) {
		ticket = swt_map_read_begin(&m);
		r = swt_plan_next(&pl, &m, &pol, false, 64, 50, &plan);
		if (r == SWT_PLAN_MOVE)
			swt_map_move(&m, plan.lblk, plan.src, plan.dst, plan.len);
		swt_map_read_end(&m, ticket);
	}
	EXPECT_EQ(r, SWT_PLAN_MOVE);
	EXPECT(!pl.exhausted[0]);
	teardown();
}

/*
 * Demotion leaves no block behind when a destination run comes out
 * shorter than the run found (the end of a migration frontier's extent):
 * the hand goes on right after what was moved, so the slower tier gets
 * the fast tier's blocks in their order, none skipped until a later sweep.
 */
static void test_demote_in_order(void)
{
	u32 l, p0;

	setup();
	pl.knob[SWT_K_HIGH_WM] = 60;
	write_blocks(0, 95);
	pol.ops->age(&pol, 0, 450);	/* all cold */
	EXPECT(migrate_all(false, NULL) >= 55);
	p0 = from_pblk(m.l2p[0]);
	for (l = 1; l < 95 && tier_of_lblk(l) == 1; l++)
		EXPECT_EQ(from_pblk(m.l2p[l]), p0 + l);
	EXPECT(l >= 55);
	for (; l < 95; l++)
		EXPECT_EQ(tier_of_lblk(l), 0);
	teardown();
}

/*
 * A tier that refuses writes (zram at its mem_limit) demotes its cold
 * blocks however many of its blocks are free, until a discard of its
 * blocks makes it take writes again.
 */
static void test_refusing_tier_demotes(void)
{
	enum swt_mig_kind kind = SWT_MIG_PROMOTE;

	setup();
	write_blocks(0, 30);		/* 70 of 100 free: above high */
	pol.ops->age(&pol, 0, 450);	/* all cold */
	EXPECT_EQ(migrate_all(false, NULL), 0);
	swt_map_tier_refused(&m, 0);
	EXPECT(migrate_all(false, &kind) > 0);
	EXPECT_EQ(kind, SWT_MIG_DEMOTE);
	EXPECT_EQ(tier_of_lblk(0), 1);
	teardown();
}

/* Evacuation empties a tier, keeps writes off it, and refuses what cannot fit. */
static void test_evacuate(void)
{
	const u32 tiers[] = { 100, 400 };
	struct swt_alloc a;
	u32 l;

	setup();
	write_blocks(0, 150);
	EXPECT_EQ(swt_plan_evacuate(&pl, &m, 0), -ENOSPC);	/* 400 < 450 */
	EXPECT_EQ(swt_plan_evacuate(&pl, &m, 1), -ENOSPC);
	swt_policy_destroy(&pol);
	swt_map_destroy(&m);

	EXPECT_EQ(swt_map_create(&m, 300, 2, tiers, 200, 1, 16), 0);
	EXPECT_EQ(swt_policy_create(&pol, NULL, 300), 0);
	swt_plan_init(&pl);
	write_blocks(0, 150);
	EXPECT_EQ(swt_plan_evacuate(&pl, &m, 0), 0);
	EXPECT_EQ(swt_plan_evacuate(&pl, &m, 1), -EBUSY);
	EXPECT(migrate_all(false, NULL) >= 100);
	EXPECT_EQ(m.tier[0].nr_mapped, 0);
	for (l = 0; l < 150; l++)
		EXPECT_EQ(tier_of_lblk(l), 1);
	EXPECT(swt_map_alloc(&m, 0, 1, &a));
	EXPECT_EQ(a.tier, 1);
	swt_map_commit(&m, to_lblk(200), a.pblk, 1);
	EXPECT_EQ(swt_plan_evacuate(&pl, &m, -1), 0);
	EXPECT(swt_map_alloc(&m, 0, 1, &a));
	EXPECT_EQ(a.tier, 0);
	swt_map_commit(&m, to_lblk(201), a.pblk, 1);
	teardown();
}

/* A write during a copy wins; the copy's block is given back. */
static void test_write_wins_over_copy(void)
{
	struct swt_plan plan;
	struct swt_alloc a;
	unsigned int ticket;
	u32 src, free_before;

	setup();
	write_blocks(0, 100);
	pol.ops->age(&pol, 0, 450);
	ticket = swt_map_read_begin(&m);
	EXPECT_EQ(swt_plan_next(&pl, &m, &pol, false, 8, 1000, &plan),
		  SWT_PLAN_MOVE);
	EXPECT_EQ(plan.kind, SWT_MIG_DEMOTE);
	EXPECT_EQ(plan.len, 8);
	src = from_pblk(plan.src);
	/* rewrite the copy's third block while it is in flight */
	EXPECT(swt_map_alloc(&m, 0, 1, &a));
	swt_map_commit(&m, to_lblk(plan.lblk[2]), a.pblk, 1);
	free_before = m.tier[1].nr_free;
	EXPECT_EQ(swt_map_move(&m, plan.lblk, plan.src, plan.dst, plan.len), 7);
	EXPECT_EQ(m.st.move_lost, 1);
	EXPECT_EQ(tier_of_lblk(plan.lblk[0]), 1);
	EXPECT(from_pblk(m.l2p[plan.lblk[2]]) == from_pblk(a.pblk));
	EXPECT(m.tier[1].nr_free >= free_before + 1 || m.trim.count);
	/* the sources wait for the copy's ticket before reuse */
	EXPECT(m.p2l[src] >= SWT_MAX_BLOCKS);
	swt_map_read_end(&m, ticket);
	teardown();
}

static void test_heat_histogram(void)
{
	u32 b[SWT_HEAT_BUCKETS] = { 0 }, l;

	setup();
	write_blocks(0, 10);
	for (l = 0; l < 5; l++)
		pol.ops->hit(&pol, l, 1);	/* heat 2 */
	swt_plan_heat_histogram(&m, &pol, 0, 0, 100, b);
	EXPECT_EQ(b[1], 5);
	EXPECT_EQ(b[2], 5);
	EXPECT_EQ(b[0] + b[3] + b[7], 0);
	teardown();
}

/* One heat period ends: every block ages, as the engine does it. */
static void period_all(void)
{
	pol.ops->age(&pol, 0, 450);
	pol.ops->period(&pol);
	swt_plan_aged(&pl);
}

/*
 * Age classes: one period each up to 4, then about two, four and eight
 * periods each, and 15 stays; a read or a write starts again at 0, and a
 * read counts the class its block had.
 */
static void test_age_classes(void)
{
	unsigned int i, c, first[SWT_AGE_CLASSES] = { 0 };

	setup();
	write_blocks(0, 3);
	EXPECT_EQ(pol.ops->since(&pol, 0), 0);
	for (i = 1; i <= 64; i++) {
		period_all();
		c = pol.ops->since(&pol, 1);
		if (!first[c])
			first[c] = i;
	}
	for (c = 1; c < SWT_AGE_CLASSES; c++) {
		EXPECT(first[c] > first[c - 1]);
		EXPECT(first[c] - first[c - 1] <= 1U << ((c - 1) >> 2));
	}
	EXPECT_EQ(first[4], 4);
	EXPECT(first[15] >= 40 && first[15] <= 52);
	EXPECT_EQ(pol.ops->since(&pol, 0), 15);
	EXPECT_EQ(pol.ops->since(&pol, 2), 15);
	/* blocks 0 and 1 share a byte: each keeps its own class */
	pol.ops->hit(&pol, 1, 1);
	EXPECT_EQ(pol.ops->since(&pol, 0), 15);
	EXPECT_EQ(pol.ops->since(&pol, 1), 0);
	EXPECT_EQ(pol.ops->since(&pol, 2), 15);
	EXPECT_EQ(pol.read_age[15], 1);
	pol.ops->fill(&pol, 2, 1);
	EXPECT_EQ(pol.ops->since(&pol, 2), 0);
	pol.ops->clear(&pol, 0, 1);
	EXPECT_EQ(pol.ops->since(&pol, 0), 0);
	EXPECT_EQ(pol.ops->since(&pol, 1), 0);
	/* odd starts and ends: only the blocks asked for */
	pol.ops->clear(&pol, 98, 20);
	period_all();
	period_all();
	pol.ops->fill(&pol, 101, 5);
	pol.ops->fill(&pol, 110, 3);
	for (i = 99; i < 115; i++)
		EXPECT_EQ(pol.ops->since(&pol, i),
			  (i >= 101 && i < 106) || (i >= 110 && i < 113) ? 0 : 2);
	teardown();
}

/*
 * The gate is closed while fewer than 32 reads are counted, and then lets
 * through the classes older than all but 1/32 of the recent reads; the
 * counts halve every period.
 */
static void test_gate_from_reads(void)
{
	u32 l;

	setup();
	EXPECT_EQ(pol.ops->gate(&pol), SWT_AGE_CLASSES);
	write_blocks(100, 10);
	period_all();
	write_blocks(0, 80);
	period_all();
	period_all();			/* 0..79 class 2, 100..109 class 3 */
	/* fewer than SWT_GATE_TAIL reads: a stray probe opens nothing */
	for (l = 0; l < SWT_GATE_TAIL - 1; l++)
		pol.ops->hit(&pol, l, 1);
	EXPECT_EQ(pol.ops->gate(&pol), SWT_AGE_CLASSES);
	for (; l < 62; l++)
		pol.ops->hit(&pol, l, 1);
	EXPECT_EQ(pol.ops->gate(&pol), 3);
	pol.ops->hit(&pol, 100, 1);
	pol.ops->hit(&pol, 101, 1);	/* 2 of 64 older: 1/32, not above */
	EXPECT_EQ(pol.ops->gate(&pol), 3);
	pol.ops->hit(&pol, 102, 1);	/* 3 of 65: above */
	EXPECT_EQ(pol.ops->gate(&pol), 4);
	period_all();			/* counts halve: 31 and 1 */
	EXPECT_EQ(pol.read_age[2], 31);
	EXPECT_EQ(pol.read_age[3], 1);
	EXPECT_EQ(pol.ops->gate(&pol), 3);
	for (l = 0; l < 8; l++)
		period_all();
	EXPECT_EQ(pol.ops->gate(&pol), SWT_AGE_CLASSES);
	teardown();
}

/*
 * demote_gate on: a full fast tier whose blocks nobody reads keeps them,
 * new writes going to the slower tier; once reads show how old the blocks
 * swap reads back are, the older ones go down and the younger stay.
 */
static void test_demote_gate(void)
{
	struct swt_alloc a;
	u32 l;

	setup();
	pl.knob[SWT_K_DEMOTE_GATE] = 1;
	write_blocks(0, 95);
	period_all();				/* all cold, class 1 */
	EXPECT(swt_plan_wanted(&pl, &m, 0));
	EXPECT_EQ(migrate_all(false, NULL), 0);
	EXPECT(pl.gated[0]);
	EXPECT(!swt_plan_wanted(&pl, &m, 0));
	/* a full tier 0: the next write goes to tier 1 */
	write_blocks(95, 5);
	EXPECT(swt_map_alloc(&m, 0, 1, &a));
	EXPECT_EQ(swt_map_tier_of(&m, a.pblk), 1);
	swt_map_abort(&m, a.pblk, a.len);
	/*
	 * 0..54 are rewritten and read back twice a period later, the first
	 * read at class 1 and the second at 0; another period halves the 110
	 * reads counted to 55 (above SWT_GATE_TAIL) and the heat to 1: 0..54
	 * are at class 1, below the gate (2), and 55..99 at class 3 or 4.
	 */
	period_all();
	for (l = 0; l < 55; l++)
		pol.ops->fill(&pol, l, 1);
	period_all();
	for (l = 0; l < 55; l++) {
		pol.ops->hit(&pol, l, 1);
		pol.ops->hit(&pol, l, 1);
	}
	period_all();
	EXPECT_EQ(pol.ops->gate(&pol), 2);
	EXPECT_EQ(pol.ops->heat(&pol, 0), 1);
	EXPECT_EQ(pol.ops->heat(&pol, 60), 0);
	EXPECT_EQ(pol.ops->since(&pol, 0), 1);
	EXPECT_EQ(pol.ops->since(&pol, 94), 4);
	EXPECT_EQ(pol.ops->since(&pol, 99), 3);	/* written a period later */
	EXPECT(migrate_all(false, NULL) >= 20);
	EXPECT(!pl.gated[0]);
	for (l = 0; l < 55; l++)
		EXPECT_EQ(tier_of_lblk(l), 0);
	EXPECT(swt_plan_tier_free(&m, 0) >= 20);
	/* off, it takes unread blocks whatever their age, as before */
	pl.knob[SWT_K_DEMOTE_GATE] = 0;
	write_blocks(100, swt_plan_tier_free(&m, 0));
	EXPECT(swt_plan_wanted(&pl, &m, 0));
	EXPECT(migrate_all(false, NULL) > 0);
	teardown();
}

/*
 * A tier that refuses writes (zram at its limit) demotes whatever the
 * gate says, also when the gate had closed before the refusals began.
 */
static void test_gate_refusing(void)
{
	setup();
	pl.knob[SWT_K_DEMOTE_GATE] = 1;
	write_blocks(0, 95);
	period_all();
	EXPECT_EQ(migrate_all(false, NULL), 0);
	EXPECT(pl.gated[0]);
	swt_map_tier_refused(&m, 0);
	EXPECT(migrate_all(false, NULL) > 0);
	EXPECT_EQ(tier_of_lblk(0), 1);
	teardown();
}

/*
 * Read back in the order written (a fill then a scan): every read finds
 * the oldest block, so none is older than the gate and nothing moves.
 */
static void test_gate_keeps_scan(void)
{
	u32 l;

	setup();
	pl.knob[SWT_K_DEMOTE_GATE] = 1;
	write_blocks(0, 95);
	period_all();
	period_all();
	for (l = 0; l < 40; l++)
		pol.ops->hit(&pol, l, 1);	/* the oldest, class 2 */
	EXPECT_EQ(pol.ops->gate(&pol), 3);
	write_blocks(300, 10);			/* new swap-outs */
	EXPECT(swt_plan_wanted(&pl, &m, 0));
	EXPECT_EQ(migrate_all(false, NULL), 0);
	for (l = 40; l < 95; l++)
		EXPECT_EQ(tier_of_lblk(l), 0);
	teardown();
}

/* Copies in flight never hold more than half the reserve (>= 16). */
static void test_inflight_cap(void)
{
	const u32 tiers[] = { 100, 400 };
	u32 r;

	swt_plan_init(&pl);
	for (r = SWT_RESERVE_MIN; r <= 4096; r *= 2) {
		EXPECT_EQ(swt_map_create(&m, 400, 2, tiers, r < 100 ? r : 100,
					 1, 16), 0);
		m.reserve = r;
		EXPECT(swt_plan_inflight_cap(&pl, &m) <= r / 2);
		EXPECT(swt_plan_inflight_cap(&pl, &m) >= 1);
		swt_map_destroy(&m);
	}
	m.reserve = 10000;
	EXPECT_EQ(swt_plan_inflight_cap(&pl, &m), pl.knob[SWT_K_MIG_MAX_IO]);
	EXPECT_EQ(shim_live_allocs, 0);
}

int main(void)
{
	static const struct unit_test tests[] = {
		{ "heat_model", test_heat_model },
		{ "knobs", test_knobs },
		{ "default_watermarks", test_default_watermarks },
		{ "demote_cold_first", test_demote_cold_first },
		{ "demote_escalates", test_demote_escalates },
		{ "promote_hot_when_idle", test_promote_hot_when_idle },
		{ "promote_within_budget", test_promote_within_budget },
		{ "demote_waits_for_cold", test_demote_waits_for_cold },
		{ "demote_unread_first", test_demote_unread_first },
		{ "demote_heat_raised", test_demote_heat_raised },
		{ "aging_mid_sweep", test_aging_mid_sweep },
		{ "demote_in_order", test_demote_in_order },
		{ "refusing_tier_demotes", test_refusing_tier_demotes },
		{ "evacuate", test_evacuate },
		{ "write_wins_over_copy", test_write_wins_over_copy },
		{ "heat_histogram", test_heat_histogram },
		{ "inflight_cap", test_inflight_cap },
		{ "age_classes", test_age_classes },
		{ "gate_from_reads", test_gate_from_reads },
		{ "demote_gate", test_demote_gate },
		{ "gate_refusing", test_gate_refusing },
		{ "gate_keeps_scan", test_gate_keeps_scan },
	};

	return unit_run("policy", tests, sizeof(tests) / sizeof(tests[0]));
}
