// SPDX-License-Identifier: GPL-2.0-only
/*
 * Directed host tests of drivers/md/dm-swaptier-map.c, compiled unchanged
 * against tests/unit/shim.
 */
#include "dm-swaptier-map.h"
#include "dm-swaptier-plan.h"
#include "unit.h"
#include <errno.h>
#include <linux/bitops.h>

unsigned long shim_warnings;
long shim_fail_alloc_after = -1;
long shim_live_allocs;
long shim_vmallocs;

static struct swt_map m;
static struct swt_policy pol;

static int mk(u32 nr_logical, unsigned int nr_tiers, const u32 *tiers,
	      unsigned int cpus, u32 frontier)
{
	u32 total = 0;
	unsigned int t;

	for (t = 0; t < nr_tiers; t++)
		total += tiers[t];
	return swt_map_create(&m, nr_logical, nr_tiers, tiers,
			      total - nr_logical, cpus, frontier);
}

static void expect_consistent(void)
{
	u32 bad;
	int r = swt_map_check(&m, &bad);

	if (r)
		fprintf(stderr, "  map check %d at %u\n", r, bad);
	EXPECT_EQ(r, 0);
}

/* Allocate and commit one block for @l on @cpu; returns the block. */
static u32 write1(u32 l, unsigned int cpu)
{
	struct swt_alloc a;

	if (!swt_map_alloc(&m, cpu, 1, &a))
		return 0xffffffffU;
	swt_map_commit(&m, to_lblk(l), a.pblk, 1);
	return from_pblk(a.pblk);
}

static u32 phys_of(u32 l)
{
	struct swt_extent e;

	swt_map_lookup(&m, to_lblk(l), 1, &e);
	return from_pblk(e.pblk);
}

static void finish(void)
{
	expect_consistent();
	swt_map_destroy(&m);
	EXPECT_EQ(shim_live_allocs, 0);
}

/*----------------------------------------------------------------*/

static void test_fastest_tier_first(void)
{
	const u32 tiers[] = { 64, 256 };
	u32 l, p;

	EXPECT_EQ(mk(300, 2, tiers, 1, 16), 0);
	for (l = 0; l < 64; l++) {
		p = write1(l, 0);
		EXPECT_EQ(p, l);	/* tier 0, in order */
	}
	EXPECT_EQ(m.tier[0].nr_mapped, 64);
	p = write1(64, 0);
	EXPECT_EQ(swt_map_tier_of(&m, to_pblk(p)), 1);
	EXPECT_EQ(swt_map_tier_offset(&m, to_pblk(p)), 0);
	EXPECT_EQ(m.tier[1].nr_mapped, 1);
	finish();
}

static void test_frontier_per_cpu(void)
{
	const u32 tiers[] = { 1024 };
	u32 prev[2] = { 0, 0 }, p, i;
	unsigned int cpu;

	EXPECT_EQ(mk(1000, 1, tiers, 2, 64), 0);
	/* Two CPUs interleave: each one's blocks stay consecutive. */
	for (i = 0; i < 128; i++) {
		cpu = i & 1;
		p = write1(i, cpu);
		if (i >= 2 && (i / 2) % 64)
			EXPECT_EQ(p, prev[cpu] + 1);
		prev[cpu] = p;
	}
	/* 128 allocations, one extent opening per 64 for each CPU. */
	EXPECT(m.st.seq_writes >= 124);
	EXPECT_EQ(m.st.write_allocs, 128);
	finish();
}

static void test_multi_block_alloc(void)
{
	const u32 tiers[] = { 100, 100 };
	struct swt_alloc a;
	struct swt_extent e;

	EXPECT_EQ(mk(150, 2, tiers, 1, 32), 0);
	EXPECT(swt_map_alloc(&m, 0, 10, &a));
	EXPECT_EQ(a.len, 10);
	swt_map_commit(&m, to_lblk(5), a.pblk, 10);
	/* Only what is left of the open extent: the caller splits. */
	EXPECT(swt_map_alloc(&m, 0, 40, &a));
	EXPECT_EQ(a.len, 22);
	EXPECT(a.seq);
	swt_map_commit(&m, to_lblk(15), a.pblk, 22);
	swt_map_lookup(&m, to_lblk(0), 100, &e);
	EXPECT_EQ(from_pblk(e.pblk), 0xffffffffU);
	EXPECT_EQ(e.len, 5);
	swt_map_lookup(&m, to_lblk(5), 100, &e);
	EXPECT_EQ(from_pblk(e.pblk), 0);
	EXPECT_EQ(e.len, 32);	/* both writes merge into one extent */
	finish();
}

static void test_overwrite_frees_old(void)
{
	const u32 tiers[] = { 32 };
	u32 p1, p2;

	EXPECT_EQ(mk(16, 1, tiers, 1, 8), 0);
	p1 = write1(3, 0);
	p2 = write1(3, 0);
	EXPECT(p1 != p2);
	EXPECT_EQ(phys_of(3), p2);
	EXPECT_EQ(m.nr_mapped, 1);
	/* No reader: the old block is free at once. */
	swt_map_close_frontiers(&m);
	EXPECT_EQ(m.tier[0].nr_free, 31);
	finish();
}

static void test_reader_holds_freed_block(void)
{
	const u32 tiers[] = { 24 };
	struct swt_alloc a;
	u32 old, l, n = 0;
	unsigned int tk;

	EXPECT_EQ(mk(8, 1, tiers, 1, 8), 0);
	old = write1(0, 0);
	tk = swt_map_read_begin(&m);	/* a read of block 0 is in flight */
	write1(0, 0);			/* overwrite: old is freed */
	EXPECT_EQ(m.nr_pending, 1);
	/* Exhaust the device: the old block must never come back. */
	for (l = 1; swt_map_alloc(&m, 0, 1, &a); l++) {
		EXPECT(from_pblk(a.pblk) != old);
		n++;
	}
	EXPECT_EQ(n, 22);
	swt_map_read_end(&m, tk);
	EXPECT_EQ(m.nr_pending, 0);
	EXPECT(swt_map_reclaim_pending(&m));
	EXPECT(swt_map_alloc(&m, 0, 1, &a));	/* reclaims inline */
	EXPECT_EQ(from_pblk(a.pblk), old);
	swt_map_abort(&m, a.pblk, 1);
	finish();
}

static void test_epochs_advance(void)
{
	const u32 tiers[] = { 64 };
	unsigned int t1, t2;
	u32 a, b;

	EXPECT_EQ(mk(16, 1, tiers, 1, 8), 0);
	write1(0, 0);
	write1(1, 0);
	t1 = swt_map_read_begin(&m);
	a = phys_of(0);
	write1(0, 0);			/* frees a, in t1's epoch */
	t2 = swt_map_read_begin(&m);	/* later read: a new epoch */
	EXPECT(t1 != t2);
	b = phys_of(1);
	write1(1, 0);			/* frees b, in t2's epoch */
	swt_map_read_end(&m, t1);	/* a is free to go, b is not */
	EXPECT_EQ(m.ready.count, 1);
	EXPECT_EQ(m.ready.head, a);
	swt_map_read_end(&m, t2);
	EXPECT_EQ(m.ready.count, 2);
	EXPECT_EQ(m.ready.tail, b);
	EXPECT_EQ(swt_map_reclaim(&m, 100), 2);
	finish();
}

static void test_discard_unmaps(void)
{
	const u32 tiers[] = { 64 };
	struct swt_extent e;
	u32 l;

	EXPECT_EQ(mk(32, 1, tiers, 1, 8), 0);
	for (l = 0; l < 20; l++)
		write1(l, 0);
	swt_map_unmap(&m, to_lblk(4), 10);
	EXPECT_EQ(m.nr_mapped, 10);
	swt_map_lookup(&m, to_lblk(4), 28, &e);
	EXPECT_EQ(from_pblk(e.pblk), 0xffffffffU);
	EXPECT_EQ(e.len, 10);
	swt_map_lookup(&m, to_lblk(14), 18, &e);
	EXPECT_EQ(from_pblk(e.pblk), 14);
	EXPECT_EQ(e.len, 6);
	/* unmapping what is unmapped is harmless */
	swt_map_unmap(&m, to_lblk(0), 32);
	EXPECT_EQ(m.nr_mapped, 0);
	finish();
}

static void test_reserve_and_limits(void)
{
	const u32 tiers[] = { 100, 50 };
	const u32 zero[] = { 100, 0 };

	EXPECT_EQ(swt_map_create(&m, 140, 2, tiers, 10, 1, 16), 0);
	swt_map_destroy(&m);
	EXPECT_EQ(swt_map_create(&m, 141, 2, tiers, 10, 1, 16), -EINVAL);
	EXPECT_EQ(swt_map_create(&m, 10, 2, zero, 10, 1, 16), -EINVAL);
	EXPECT_EQ(swt_map_create(&m, 0, 2, tiers, 10, 1, 16), -EINVAL);
	EXPECT_EQ(swt_map_create(&m, 10, 9, tiers, 10, 1, 16), -EINVAL);
	EXPECT_EQ(swt_map_create(&m, 10, 2, tiers, 10, 1, 4), -EINVAL);
	EXPECT_EQ(swt_map_default_reserve(1000), 256);
	EXPECT_EQ(swt_map_default_reserve(1000000), 10000);
	EXPECT_EQ(shim_live_allocs, 0);
}

static void test_exhaustion_and_recovery(void)
{
	const u32 tiers[] = { 16, 16 };
	struct swt_alloc a[40];
	u32 n = 0, i;

	EXPECT_EQ(mk(24, 2, tiers, 2, 8), 0);
	while (n < 40 && swt_map_alloc(&m, n & 1, 1, &a[n]))
		n++;
	EXPECT_EQ(n, 32);	/* every block, across both CPUs' frontiers */
	for (i = 0; i < 24; i++)
		swt_map_commit(&m, to_lblk(i), a[i].pblk, 1);
	for (i = 24; i < 32; i++)
		swt_map_abort(&m, a[i].pblk, 1);
	EXPECT_EQ(m.tier[0].nr_free + m.tier[1].nr_free, 8);
	EXPECT(swt_map_alloc(&m, 0, 1, &a[0]));
	swt_map_commit(&m, to_lblk(0), a[0].pblk, 1);
	EXPECT_EQ(m.nr_mapped, 24);
	finish();
}

static void test_steal_keeps_fast_tier_first(void)
{
	const u32 tiers[] = { 16, 64 };
	struct swt_alloc a;
	u32 i;

	EXPECT_EQ(mk(60, 2, tiers, 2, 8), 0);
	/* CPU 1 opens an extent on tier 0 and uses one block of it. */
	EXPECT(swt_map_alloc(&m, 1, 1, &a));
	swt_map_commit(&m, to_lblk(0), a.pblk, 1);
	/* CPU 0 fills the rest of tier 0, taking CPU 1's unused blocks. */
	for (i = 1; i < 16; i++) {
		EXPECT(swt_map_alloc(&m, 0, 1, &a));
		EXPECT_EQ(a.tier, 0);
		swt_map_commit(&m, to_lblk(i), a.pblk, 1);
	}
	EXPECT(swt_map_alloc(&m, 0, 1, &a));
	EXPECT_EQ(a.tier, 1);
	swt_map_abort(&m, a.pblk, 1);
	finish();
}

static void test_two_writes_same_block(void)
{
	const u32 tiers[] = { 32 };
	struct swt_alloc a, b;

	EXPECT_EQ(mk(8, 1, tiers, 2, 8), 0);
	EXPECT(swt_map_alloc(&m, 0, 1, &a));
	EXPECT(swt_map_alloc(&m, 1, 1, &b));
	swt_map_commit(&m, to_lblk(2), b.pblk, 1);
	swt_map_commit(&m, to_lblk(2), a.pblk, 1);
	EXPECT_EQ(phys_of(2), from_pblk(a.pblk));
	EXPECT_EQ(m.nr_mapped, 1);
	swt_map_close_frontiers(&m);
	EXPECT_EQ(m.tier[0].nr_free, 31);	/* b's block came back */
	finish();
}

static void test_trim_chain(void)
{
	const u32 tiers[] = { 32, 32 };
	swt_pblk_t p;
	u32 len, l;
	unsigned int t;

	EXPECT_EQ(mk(48, 2, tiers, 1, 8), 0);
	m.trim_mask = 1;	/* tier 0 discards what it frees */
	for (l = 0; l < 12; l++)
		write1(l, 0);
	swt_map_unmap(&m, to_lblk(2), 5);
	EXPECT_EQ(m.trim.count, 5);
	EXPECT(swt_map_trim_next(&m, 3, &p, &len, &t));
	EXPECT_EQ(from_pblk(p), 2);
	EXPECT_EQ(len, 3);
	EXPECT_EQ(t, 0);
	expect_consistent();
	swt_map_trim_done(&m, p, len);
	EXPECT(swt_map_trim_next(&m, 100, &p, &len, &t));
	EXPECT_EQ(from_pblk(p), 5);
	EXPECT_EQ(len, 2);
	swt_map_trim_done(&m, p, len);
	EXPECT(!swt_map_trim_next(&m, 100, &p, &len, &t));
	finish();
}

static void test_fragmented_tier_prefers_long_run(void)
{
	const u32 tiers[] = { 256 };
	struct swt_alloc a;
	u32 l;

	EXPECT_EQ(mk(240, 1, tiers, 1, 64), 0);
	for (l = 0; l < 240; l++)
		write1(l, 0);
	/* holes of one block at 1, 3 and 5, and a 32-block run at 100 */
	for (l = 1; l < 6; l += 2)
		swt_map_unmap(&m, to_lblk(l), 1);
	swt_map_unmap(&m, to_lblk(100), 32);
	swt_map_close_frontiers(&m);
	m.tier[0].cursor = 0;
	EXPECT(swt_map_alloc(&m, 0, 64, &a));
	EXPECT_EQ(from_pblk(a.pblk), 100);
	EXPECT_EQ(a.len, 32);
	swt_map_commit(&m, to_lblk(100), a.pblk, 32);
	finish();
}

/*
 * A gathered batch asks for many blocks at once: the frontier skips a hole
 * that is long enough for one extent's quarter but not for the batch, and
 * opens in a run the whole batch fits in. A single write takes the hole.
 * The counters count blocks.
 */
static void test_batch_fits_one_run(void)
{
	const u32 tiers[] = { 512 };
	struct swt_alloc a;
	u32 l;

	EXPECT_EQ(mk(496, 1, tiers, 1, 256), 0);
	for (l = 0; l < 496; l++)
		write1(l, 0);
	/* a 70-block hole at 10, a 200-block run at 200 */
	swt_map_unmap(&m, to_lblk(10), 70);
	swt_map_unmap(&m, to_lblk(200), 200);
	swt_map_close_frontiers(&m);
	m.tier[0].cursor = 0;
	m.st.write_allocs = 0;
	m.st.seq_writes = 0;
	EXPECT(swt_map_alloc(&m, 0, 150, &a));
	EXPECT_EQ(from_pblk(a.pblk), 200);
	EXPECT_EQ(a.len, 150);
	EXPECT_EQ(m.st.write_allocs, 150);
	EXPECT_EQ(m.st.seq_writes, 149);
	swt_map_commit(&m, to_lblk(200), a.pblk, a.len);
	EXPECT(swt_map_alloc(&m, 0, 50, &a));
	EXPECT_EQ(from_pblk(a.pblk), 350);
	EXPECT_EQ(m.st.seq_writes, 199);
	swt_map_commit(&m, to_lblk(350), a.pblk, a.len);
	/* one block: the first hole of a quarter extent will do */
	swt_map_close_frontiers(&m);
	m.tier[0].cursor = 0;
	EXPECT_EQ(write1(10, 0), 10);
	finish();
}

static void test_alloc_failure_unwinds(void)
{
	const u32 tiers[] = { 64 };
	long k;

	for (k = 0; k < 4; k++) {
		shim_fail_alloc_after = k;
		EXPECT_EQ(mk(32, 1, tiers, 1, 8), -ENOMEM);
		EXPECT_EQ(shim_live_allocs, 0);
	}
	shim_fail_alloc_after = -1;
}

static void test_memory_budget(void)
{
	const u32 tiers[] = { 1U << 18, 3U << 18 };
	u32 logical = (4U << 18) - swt_map_default_reserve(4U << 18);
	u64 bytes;

	EXPECT_EQ(swt_map_create(&m, logical, 2, tiers,
				 swt_map_default_reserve(4U << 18), 64, 256), 0);
	EXPECT_EQ(swt_policy_create(&pol, NULL, logical), 0);
	bytes = swt_map_bytes(&m) + pol.ops->bytes(&pol);
	printf("# map memory with heat: %llu bytes for %u logical blocks (%.2f B/block)\n",
	       (unsigned long long)bytes, logical, (double)bytes / logical);
	EXPECT(bytes * 100 <= (u64)logical * 1000);
	swt_policy_destroy(&pol);
	finish();
}

/*
 * A 3 TiB disk under a 1 GiB device: only what <len> can need of it is
 * used, so the reverse map stays small (the whole disk's would be 3 GiB,
 * which kvmalloc refuses with a warning).
 */
static void test_big_tier_uses_what_len_needs(void)
{
	const u64 three_tib = 3ULL << 28, small = 1U << 14;
	u32 logical = 1U << 18, tiers[2];

	EXPECT_EQ(swt_map_tier_use(small, logical), small);
	EXPECT_EQ(swt_map_tier_use(three_tib, logical), 2 * logical);
	EXPECT_EQ(swt_map_tier_use(three_tib, 16), 16 + SWT_TIER_SLACK);
	EXPECT_EQ(swt_map_tier_use(1ULL << 40, SWT_MAX_BLOCKS), SWT_MAX_BLOCKS);
	/* a tier no larger than twice <len> is used whole, as before */
	EXPECT_EQ(swt_map_tier_use(2 * (u64)logical, logical), 2 * logical);

	/* two 4 TB disks under a 3 TiB device: the map addresses 2^31 blocks */
	{
		const u64 big[3] = { small, 1ULL << 30, 1ULL << 30 };
		u32 use[3], n = 3U << 28;

		swt_map_tiers_use(big, 3, n, use);
		EXPECT_EQ(use[0], small);
		EXPECT_EQ(use[1], 1U << 30);
		EXPECT_EQ((u64)use[0] + use[1] + use[2], (u64)SWT_MAX_BLOCKS);
		EXPECT(use[2] >= 1);
		swt_map_tiers_use(big, 3, logical, use);
		EXPECT_EQ(use[2], 2 * logical);
	}
	tiers[0] = small;
	tiers[1] = swt_map_tier_use(three_tib, logical);
	EXPECT_EQ(swt_map_create(&m, logical, 2, tiers, 256, 2, 256), 0);
	EXPECT(swt_map_bytes(&m) < 16ULL << 20);
	EXPECT_EQ(shim_vmallocs, 0);
	finish();
}

/* Write block 0 on tier 0 past its refusal, discard it: blocks trimmed. */
static u32 rewrite_and_trim0(void)
{
	swt_pblk_t p;
	unsigned int t;
	u32 len, n = 0;

	m.tier[0].refusing = false;
	EXPECT(write1(0, 0) < 32);
	m.tier[0].refusing = true;
	swt_map_unmap(&m, to_lblk(0), 1);
	while (swt_map_trim_next(&m, 8, &p, &len, &t)) {
		EXPECT_EQ(t, 0);
		swt_map_trim_done(&m, p, len);
		n += len;
	}
	return n;
}

/*
 * A tier that failed a write refuses new ones while a slower one takes
 * them; it takes them again once SWT_REFUSE_TRIMS of its blocks are
 * discarded, after a whole heat period (the second aging after its
 * failure), when nothing else has room, or at a resume; the slowest tier
 * never refuses (its failed writes have nowhere else to go).
 */
static void test_refusing_tier(void)
{
	const u32 tiers[] = { 32, 64 };
	struct swt_alloc a;
	u32 l, i, n;

	EXPECT_EQ(mk(80, 2, tiers, 1, 8), 0);
	m.trim_mask = 1;	/* tier 0 discards what it frees */
	EXPECT(write1(0, 0) < 32);
	EXPECT(swt_map_tier_refused(&m, 0));
	EXPECT(m.tier[0].refusing);
	EXPECT(write1(1, 0) >= 32);
	EXPECT(!swt_map_alloc_on(&m, 0, 1, &a));
	EXPECT(!swt_map_tier_refused(&m, 1));
	EXPECT(!m.tier[1].refusing);

	/* discards on the refusing tier give it back its writes */
	for (l = 2; l < 2 + 8; l++)
		EXPECT(write1(l, 0) >= 32);
	for (i = 0, n = 0; n < SWT_REFUSE_TRIMS; i++) {
		n += rewrite_and_trim0();
		if (n < SWT_REFUSE_TRIMS)
			EXPECT(m.tier[0].refusing);
		if (i > 2 * SWT_REFUSE_TRIMS)
			break;
	}
	EXPECT(!m.tier[0].refusing);
	EXPECT(write1(20, 0) < 32);

	/* a write that failed on tier 0 is placed elsewhere */
	EXPECT(swt_map_alloc_avoid(&m, 0, 1, BIT(0), &a));
	EXPECT(from_pblk(a.pblk) >= 32);
	swt_map_abort(&m, a.pblk, 1);

	/* a resume, or restarting allocation, ends a refusal */
	EXPECT(swt_map_tier_refused(&m, 0));
	swt_map_end_refusals(&m);
	EXPECT(!m.tier[0].refusing);
	EXPECT(swt_map_tier_refused(&m, 0));
	swt_map_set_alloc(&m, 0, true);
	EXPECT(!m.tier[0].refusing);

	/* without discards, the second aging after the failure ends it */
	EXPECT(swt_map_tier_refused(&m, 0));
	swt_map_age_refusals(&m);
	EXPECT(m.tier[0].refusing);
	EXPECT(write1(20, 0) >= 32);
	swt_map_age_refusals(&m);
	EXPECT(!m.tier[0].refusing);
	/* a new failure starts a new period */
	EXPECT(swt_map_tier_refused(&m, 0));
	swt_map_age_refusals(&m);
	EXPECT(m.tier[0].refusing);
	swt_map_end_refusals(&m);
	EXPECT(!m.tier[0].refusing);

	/* tier 1 full: the refusing tier is used rather than none */
	EXPECT(swt_map_tier_refused(&m, 0));
	for (l = 21; l < 80; l++)
		if (write1(l, 0) < 32)
			break;
	EXPECT(l < 80);
	EXPECT(m.tier[1].nr_mapped + m.tier[1].nr_free < 64 ||
	       !m.tier[1].nr_free);
	EXPECT(!m.tier[0].refusing);
	finish();
}

/*
 * A tier that fails again on the retry after a refusal (zram still at its
 * mem_limit) refuses for twice as long each time, up to 1 <<
 * SWT_REFUSE_MAX_SHIFT times, in agings and in discarded blocks alike; a
 * failure of a write placed before the refusal began does not lengthen
 * it; one write that succeeds, or a resume, makes the next refusal short.
 */
static u32 ages_to_end_refusal(void)
{
	u32 n = 0;

	while (m.tier[0].refusing && n < 1000) {
		swt_map_age_refusals(&m);
		n++;
	}
	return n;
}

static u32 trims_to_end_refusal(void)
{
	u32 n = 0;

	while (m.tier[0].refusing && n < 100000)
		n += rewrite_and_trim0();
	return n;
}

static void test_refusal_backoff(void)
{
	const u32 tiers[] = { 32, 64 };
	unsigned int r, shift;
	struct swt_alloc a;

	EXPECT_EQ(mk(80, 2, tiers, 1, 8), 0);
	m.trim_mask = 1;
	for (r = 0; r <= SWT_REFUSE_MAX_SHIFT + 1; r++) {
		shift = r < SWT_REFUSE_MAX_SHIFT ? r : SWT_REFUSE_MAX_SHIFT;
		EXPECT(swt_map_tier_refused(&m, 0));
		/* a write placed earlier fails late: the same refusal */
		swt_map_age_refusals(&m);
		EXPECT(swt_map_tier_refused(&m, 0));
		EXPECT_EQ(ages_to_end_refusal(), 2U << shift);
	}
	/* the tier took a write: short again */
	EXPECT(write1(1, 0) < 32);
	EXPECT(swt_map_tier_refused(&m, 0));
	EXPECT_EQ(ages_to_end_refusal(), 2);

	/* discards end it after SWT_REFUSE_TRIMS, twice as many next time */
	EXPECT(write1(2, 0) < 32);
	EXPECT(swt_map_tier_refused(&m, 0));
	EXPECT_EQ(trims_to_end_refusal(), SWT_REFUSE_TRIMS);
	EXPECT(swt_map_tier_refused(&m, 0));
	EXPECT_EQ(m.tier[0].refuse_shift, 1);
	EXPECT_EQ(trims_to_end_refusal(), 2 * SWT_REFUSE_TRIMS);

	/* no other tier has room: the refusal ends, and its retry counts */
	EXPECT(swt_map_tier_refused(&m, 0));
	EXPECT_EQ(m.tier[0].refuse_shift, 2);
	swt_map_set_alloc(&m, 1, false);
	EXPECT(swt_map_alloc(&m, 0, 1, &a));
	EXPECT_EQ(swt_map_tier_of(&m, a.pblk), 0);
	swt_map_abort(&m, a.pblk, 1);
	EXPECT(!m.tier[0].refusing);
	EXPECT(m.tier[0].refuse_retry);
	swt_map_set_alloc(&m, 1, true);
	/* a write placed before the refusal that succeeds: short again */
	EXPECT(swt_map_alloc(&m, 0, 1, &a));
	EXPECT(swt_map_tier_refused(&m, 0));
	EXPECT_EQ(m.tier[0].refuse_shift, 3);
	swt_map_commit(&m, to_lblk(3), a.pblk, 1);
	EXPECT_EQ(m.tier[0].refuse_shift, 0);
	EXPECT_EQ(ages_to_end_refusal(), 2);
	/* evacuate on or off (swt_map_set_alloc) forgets the backoff */
	EXPECT(swt_map_tier_refused(&m, 0));
	EXPECT_EQ(m.tier[0].refuse_shift, 1);
	swt_map_set_alloc(&m, 0, true);
	EXPECT(!m.tier[0].refusing);
	EXPECT(!m.tier[0].refuse_retry);
	EXPECT_EQ(m.tier[0].refuse_shift, 0);

	/* a resume forgets how long the last refusal was */
	EXPECT(swt_map_tier_refused(&m, 0));
	EXPECT_EQ(ages_to_end_refusal(), 2);
	EXPECT(swt_map_tier_refused(&m, 0));
	EXPECT_EQ(m.tier[0].refuse_shift, 1);
	swt_map_end_refusals(&m);
	EXPECT(swt_map_tier_refused(&m, 0));
	EXPECT_EQ(ages_to_end_refusal(), 2);
	finish();
}

int main(void)
{
	static const struct unit_test tests[] = {
		{ "fastest_tier_first", test_fastest_tier_first },
		{ "refusal_backoff", test_refusal_backoff },
		{ "frontier_per_cpu", test_frontier_per_cpu },
		{ "multi_block_alloc", test_multi_block_alloc },
		{ "overwrite_frees_old", test_overwrite_frees_old },
		{ "reader_holds_freed_block", test_reader_holds_freed_block },
		{ "epochs_advance", test_epochs_advance },
		{ "discard_unmaps", test_discard_unmaps },
		{ "reserve_and_limits", test_reserve_and_limits },
		{ "exhaustion_and_recovery", test_exhaustion_and_recovery },
		{ "steal_keeps_fast_tier_first", test_steal_keeps_fast_tier_first },
		{ "two_writes_same_block", test_two_writes_same_block },
		{ "trim_chain", test_trim_chain },
		{ "fragmented_tier_prefers_long_run", test_fragmented_tier_prefers_long_run },
		{ "batch_fits_one_run", test_batch_fits_one_run },
		{ "alloc_failure_unwinds", test_alloc_failure_unwinds },
		{ "memory_budget", test_memory_budget },
		{ "big_tier_uses_what_len_needs", test_big_tier_uses_what_len_needs },
		{ "refusing_tier", test_refusing_tier },
	};

	return unit_run("map", tests, sizeof(tests) / sizeof(tests[0]));
}
