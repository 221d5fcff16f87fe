// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz drivers/md/dm-swaptier-map.c and the migration planner of
 * dm-swaptier-plan.c against a simple reference model.
 *
 * The input bytes are a geometry followed by a sequence of operations on a
 * small map: start and complete writes (successfully or not), start and end
 * reads, discard, reclaim, trim, close frontiers, age the heat, change the
 * knobs, start and cancel an evacuation, and start and complete copies
 * between tiers (successfully or not), interleaved in any order with the
 * rest. Besides the map's own
 * invariant check, the model checks what users rely on:
 *   - after each committed write or discard, every logical block maps where
 *     the model says (the latest completed write wins, discard unmaps);
 *   - a block handed to a new write is reachable neither from the map nor
 *     from any read still in flight (no foreign data, ever);
 *   - once everything has completed and been reclaimed, every physical
 *     block is free or mapped (nothing leaked or duplicated).
 *
 * Built with clang -fsanitize=fuzzer it is a libFuzzer target; built
 * without, main() runs a fixed number of pseudo-random inputs.
 */
#include "dm-swaptier-map.h"
#include "dm-swaptier-plan.h"
#include "unit.h"
#include <linux/errno.h>
#include <linux/kernel.h>

unsigned long shim_warnings;
static unsigned long total_moved, total_lost;
long shim_fail_alloc_after = -1;
long shim_live_allocs;
long shim_vmallocs;

#define MAX_LOG 512
#define MAX_IO 64
#define MAX_MIG 8
#define NONE 0xffffffffU

struct mig {
	struct swt_plan plan;
	unsigned int ticket;
};

struct io {
	bool write;
	u32 lblk, pblk, len;
	unsigned int ticket;
	u32 token[8];		/* reads: what each block held at start */
};

struct fz {
	const u8 *d;
	size_t n, pos;
	struct swt_map m;
	u32 model[MAX_LOG];	/* logical -> physical, NONE */
	u32 *content;		/* physical -> token of the last write to it */
	u32 token;
	struct io io[MAX_IO];
	unsigned int nio;
	struct swt_policy pol;
	struct swt_planner pl;
	struct mig mig[MAX_MIG];
	unsigned int nmig;
	u32 moved, lost;
};

static u32 next(struct fz *f, u32 mod)
{
	u32 v = 0;
	int i;

	for (i = 0; i < 3; i++)
		v = (v << 8) | (f->pos < f->n ? f->d[f->pos++] : 0);
	return mod ? v % mod : v;
}

static void fail(const char *what, u32 a, u32 b)
{
	fprintf(stderr, "fuzz_map: %s (%u, %u)\n", what, a, b);
	abort();
}

static void check_map(struct fz *f)
{
	const struct swt_tier *tr;
	u32 bad;
	int r = swt_map_check(&f->m, &bad);
	unsigned int t;

	if (r)
		fail("map invariant broken", (u32)-r, bad);
	/*
	 * A refusal's backoff is bounded, and each refusal ends in time (a
	 * write that succeeds during one shortens it: the next aging ends it)
	 */
	for (t = 0; t < f->m.nr_tiers; t++) {
		tr = &f->m.tier[t];
		if (tr->refuse_shift > SWT_REFUSE_MAX_SHIFT)
			fail("refusal backoff past its bound", t, tr->refuse_shift);
		if (tr->refusing &&
		    tr->refuse_ages >= 2U << SWT_REFUSE_MAX_SHIFT)
			fail("refusal outlived its agings", t, tr->refuse_ages);
	}
}

static void check_lookup(struct fz *f, u32 l)
{
	struct swt_extent e;
	u32 i;

	swt_map_lookup(&f->m, to_lblk(l), f->m.nr_logical - l, &e);
	for (i = 0; i < e.len; i++) {
		u32 want = f->model[l + i];
		u32 got = from_pblk(e.pblk) == NONE ? NONE : from_pblk(e.pblk) + i;

		if (want != got)
			fail("lookup disagrees with model", l + i, got);
		if (got != NONE && swt_map_tier_of(&f->m, to_pblk(got)) != e.tier)
			fail("extent crosses a tier boundary", l + i, e.tier);
	}
	if (l + e.len < f->m.nr_logical && f->model[l + e.len] != NONE &&
	    from_pblk(e.pblk) != NONE && e.tier ==
	    swt_map_tier_of(&f->m, to_pblk(f->model[l + e.len])) &&
	    f->model[l + e.len] == from_pblk(e.pblk) + e.len)
		fail("lookup stopped short of a contiguous run", l, e.len);
}

/* A block about to be written must be unreachable. */
static void check_unreachable(struct fz *f, u32 p)
{
	unsigned int i;
	u32 l;

	for (l = 0; l < f->m.nr_logical; l++)
		if (f->model[l] == p)
			fail("allocated a mapped block", p, l);
	for (i = 0; i < f->nio; i++)
		if (!f->io[i].write && f->io[i].pblk != NONE &&
		    p >= f->io[i].pblk && p < f->io[i].pblk + f->io[i].len)
			fail("allocated a block a read is using", p, i);
	for (i = 0; i < f->nmig; i++)
		if (p >= from_pblk(f->mig[i].plan.src) &&
		    p < from_pblk(f->mig[i].plan.src) + f->mig[i].plan.len)
			fail("allocated a block a copy is reading", p, i);
}

/* Plan a copy between tiers, as the target's migration worker does. */
static void op_mig_start(struct fz *f)
{
	struct mig *mg;
	u32 i, src, l;

	if (f->nmig == MAX_MIG)
		return;
	mg = &f->mig[f->nmig];
	mg->ticket = swt_map_read_begin(&f->m);
	if (swt_plan_next(&f->pl, &f->m, &f->pol, next(f, 2), 1 + next(f, 16),
			  1 + next(f, 600), &mg->plan) != SWT_PLAN_MOVE) {
		swt_map_read_end(&f->m, mg->ticket);
		return;
	}
	src = from_pblk(mg->plan.src);
	if (!mg->plan.len || mg->plan.len > SWT_MIG_MAX_BLOCKS ||
	    swt_map_tier_of(&f->m, mg->plan.src) != mg->plan.from ||
	    swt_map_tier_of(&f->m, to_pblk(src + mg->plan.len - 1)) != mg->plan.from ||
	    swt_map_tier_of(&f->m, mg->plan.dst) != mg->plan.to ||
	    mg->plan.from == mg->plan.to)
		fail("bad plan", src, mg->plan.len);
	if (f->m.tier[mg->plan.to].no_alloc)
		fail("copy to a tier being evacuated", mg->plan.to, 0);
	for (i = 0; i < mg->plan.len; i++) {
		l = mg->plan.lblk[i];
		if (l >= f->m.nr_logical || f->model[l] != src + i)
			fail("plan copies a block that is not what it says", src + i, l);
		check_unreachable(f, from_pblk(mg->plan.dst) + i);
	}
	f->nmig++;
}

static void op_mig_complete(struct fz *f)
{
	struct mig mg;
	unsigned int k;
	u32 i, src, dst, moved = 0;

	if (!f->nmig)
		return;
	k = next(f, f->nmig);
	mg = f->mig[k];
	f->mig[k] = f->mig[--f->nmig];
	src = from_pblk(mg.plan.src);
	dst = from_pblk(mg.plan.dst);
	if (next(f, 8) == 0) {	/* a tier failed the copy */
		swt_map_abort(&f->m, mg.plan.dst, mg.plan.len);
	} else {
		for (i = 0; i < mg.plan.len; i++)
			f->content[dst + i] = f->content[src + i];
		for (i = 0; i < mg.plan.len; i++) {
			if (f->model[mg.plan.lblk[i]] == src + i) {
				f->model[mg.plan.lblk[i]] = dst + i;
				moved++;
			}
		}
		if (swt_map_move(&f->m, mg.plan.lblk, mg.plan.src, mg.plan.dst,
				 mg.plan.len) != moved)
			fail("move count disagrees with model", moved, mg.plan.len);
		f->moved += moved;
		f->lost += mg.plan.len - moved;
	}
	swt_map_read_end(&f->m, mg.ticket);
	for (i = 0; i < mg.plan.len; i++)
		check_lookup(f, mg.plan.lblk[i]);
}

static void op_knobs(struct fz *f)
{
	u32 low = next(f, 60), high = low + 1 + next(f, 35);

	f->pl.knob[SWT_K_MIGRATION] = next(f, 4) != 0;
	f->pl.knob[SWT_K_LOW_WM] = low;
	f->pl.knob[SWT_K_HIGH_WM] = high;
	f->pl.knob[SWT_K_PROMOTE_HEAT] = 1 + next(f, 4);
	f->pl.knob[SWT_K_PROMOTE_SHARE] = next(f, 3) * 50;
	f->pl.knob[SWT_K_DEMOTE_HEAT] = next(f, 2) ? 255 : next(f, 4);
	f->pl.knob[SWT_K_DEMOTE_GATE] = next(f, 2);
	swt_plan_aged(&f->pl);
	if (swt_plan_knobs_conflict(f->pl.knob))
		fail("valid knobs refused", low, high);
}

static void op_evacuate(struct fz *f)
{
	int t = (int)next(f, f->m.nr_tiers + 1) - 1;
	int r = swt_plan_evacuate(&f->pl, &f->m, t);

	if (r && r != -EBUSY && r != -ENOSPC)
		fail("evacuate returned an unknown error", (u32)-r, 0);
}

static void op_write(struct fz *f)
{
	u32 l = next(f, f->m.nr_logical);
	u32 want = 1 + next(f, 8);
	struct swt_alloc a;
	struct io *io;
	u32 i;

	if (f->nio == MAX_IO)
		return;
	want = min(want, f->m.nr_logical - l);
	if (!swt_map_alloc(&f->m, next(f, 4), want, &a))
		return;
	if (!a.len || a.len > want)
		fail("bad allocation length", a.len, want);
	for (i = 0; i < a.len; i++) {
		check_unreachable(f, from_pblk(a.pblk) + i);
		f->content[from_pblk(a.pblk) + i] = ++f->token;
	}
	io = &f->io[f->nio++];
	io->write = true;
	io->lblk = l;
	io->pblk = from_pblk(a.pblk);
	io->len = a.len;
}

static void op_read(struct fz *f)
{
	u32 l = next(f, f->m.nr_logical);
	struct swt_extent e;
	struct io *io;
	u32 i;

	if (f->nio == MAX_IO)
		return;
	swt_map_lookup(&f->m, to_lblk(l), min(8U, f->m.nr_logical - l), &e);
	io = &f->io[f->nio++];
	io->write = false;
	io->lblk = l;
	io->pblk = from_pblk(e.pblk);
	io->len = e.len;
	io->ticket = swt_map_read_begin(&f->m);
	for (i = 0; i < e.len && io->pblk != NONE; i++)
		io->token[i] = f->content[io->pblk + i];
	if (io->pblk != NONE) {
		f->pol.ops->hit(&f->pol, l, e.len);
		f->m.st.tier[e.tier].reads++;	/* the promotion budget */
	}
}

static void op_complete(struct fz *f)
{
	struct io io;
	unsigned int k;
	u32 i;

	if (!f->nio)
		return;
	k = next(f, f->nio);
	io = f->io[k];
	f->io[k] = f->io[--f->nio];
	if (!io.write) {
		for (i = 0; i < io.len && io.pblk != NONE; i++)
			if (f->content[io.pblk + i] != io.token[i])
				fail("block overwritten under a read", io.pblk + i, i);
		swt_map_read_end(&f->m, io.ticket);
		return;
	}
	if (next(f, 8) == 0) {	/* the tier failed the write */
		swt_map_abort(&f->m, to_pblk(io.pblk), io.len);
		return;
	}
	swt_map_commit(&f->m, to_lblk(io.lblk), to_pblk(io.pblk), io.len);
	f->pol.ops->fill(&f->pol, io.lblk, io.len);
	for (i = 0; i < io.len; i++)
		f->model[io.lblk + i] = io.pblk + i;
	check_lookup(f, io.lblk);
}

static void op_discard(struct fz *f)
{
	u32 l = next(f, f->m.nr_logical);
	u32 len = min(1 + next(f, 32), f->m.nr_logical - l);
	u32 i;

	swt_map_unmap(&f->m, to_lblk(l), len);
	f->pol.ops->clear(&f->pol, l, len);
	for (i = 0; i < len; i++)
		f->model[l + i] = NONE;
	check_lookup(f, l);
}

static void op_trim(struct fz *f)
{
	swt_pblk_t p;
	unsigned int t;
	u32 len;

	if (swt_map_trim_next(&f->m, 1 + next(f, 16), &p, &len, &t)) {
		if (swt_map_tier_of(&f->m, p) != t ||
		    swt_map_tier_of(&f->m, to_pblk(from_pblk(p) + len - 1)) != t)
			fail("trim run crosses tiers", from_pblk(p), len);
		swt_map_trim_done(&f->m, p, len);
	}
}

static void drain(struct fz *f)
{
	swt_pblk_t p;
	unsigned int t;
	u32 len, i, mapped = 0, free = 0;

	while (f->nio)
		op_complete(f);
	while (f->nmig)
		op_mig_complete(f);
	swt_map_reclaim(&f->m, NONE);
	while (swt_map_trim_next(&f->m, 64, &p, &len, &t))
		swt_map_trim_done(&f->m, p, len);
	swt_map_close_frontiers(&f->m);
	check_map(f);
	for (i = 0; i < f->m.nr_tiers; i++) {
		mapped += f->m.tier[i].nr_mapped;
		free += f->m.tier[i].nr_free;
	}
	if (mapped + free != f->m.nr_physical || f->m.nr_pending)
		fail("blocks leaked", mapped + free, f->m.nr_physical);
	for (i = 0; i < f->m.nr_logical; i++)
		if (f->model[i] != NONE)
			mapped--;
	if (mapped)
		fail("mapped count disagrees with model", mapped, 0);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);
int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct fz f;
	u32 tiers[SWT_MAX_TIERS], total = 0, logical, steps;
	unsigned int nt, t, cpus;

	memset(&f, 0, sizeof(f));
	f.d = data;
	f.n = size;
	nt = 1 + next(&f, 3);
	for (t = 0; t < nt; t++) {
		tiers[t] = 1 + next(&f, 200);
		total += tiers[t];
	}
	logical = 1 + next(&f, min(total, (u32)MAX_LOG));
	cpus = 1 + next(&f, 3);
	if (swt_map_create(&f.m, logical, nt, tiers, total - logical, cpus,
			   SWT_FRONTIER_MIN + next(&f, 32)))
		fail("create failed", logical, total);
	f.m.trim_mask = next(&f, 1U << nt);
	f.content = calloc(total, sizeof(*f.content));
	if (swt_policy_create(&f.pol, NULL, logical))
		fail("policy create failed", logical, 0);
	swt_plan_init(&f.pl);
	for (t = 0; t < logical; t++)
		f.model[t] = NONE;

	for (steps = 0; f.pos < f.n && steps < 4096; steps++) {
		switch (next(&f, 25)) {
		case 0 ... 4: op_write(&f); break;
		case 5 ... 8: op_complete(&f); break;
		case 9 ... 11: op_read(&f); break;
		case 12: op_discard(&f); break;
		case 13: swt_map_reclaim(&f.m, 1 + next(&f, 64)); break;
		case 14: op_trim(&f); break;
		case 15: swt_map_close_frontiers(&f.m); break;
		case 16 ... 18: op_mig_start(&f); break;
		case 19 ... 20: op_mig_complete(&f); break;
		case 21:
			f.pol.ops->age(&f.pol, 0, logical);
			f.pol.ops->period(&f.pol);
			swt_map_age_refusals(&f.m);
			swt_plan_aged(&f.pl);
			break;
		case 22: op_knobs(&f); break;
		case 23: op_evacuate(&f); break;
		/* a tier failed a write: it refuses new ones for a while */
		case 24: swt_map_tier_refused(&f.m, next(&f, nt)); break;
		}
		if (steps % 64 == 0)
			check_map(&f);
	}
	drain(&f);
	total_moved += f.moved;
	total_lost += f.lost;
	swt_policy_destroy(&f.pol);
	swt_map_destroy(&f.m);
	free(f.content);
	if (shim_warnings)
		fail("WARN_ON fired", (u32)shim_warnings, 0);
	return 0;
}

#ifndef SWT_LIBFUZZER
int main(int argc, char **argv)
{
	unsigned long runs = argc > 1 ? strtoul(argv[1], NULL, 0) : 3000;
	static u8 buf[16384];
	unsigned long r, seed = 0x5eed;
	size_t i, len;

	for (r = 0; r < runs; r++) {
		len = 64 + (r * 7919) % (sizeof(buf) - 64);
		for (i = 0; i < len; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			buf[i] = seed >> 56;
		}
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("# copies between tiers: %lu blocks moved, %lu dropped for a racing write or discard\n",
	       total_moved, total_lost);
	if (!total_moved || !total_lost) {
		printf("not ok fuzz/map_model: the sequences never moved a block or never raced one\n");
		return 1;
	}
	printf("ok fuzz/map_model: %lu random sequences\n", runs);
	printf("1 passed, 0 failed\n");
	return 0;
}
#endif
