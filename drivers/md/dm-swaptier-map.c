// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-swaptier: block map, reverse map, per-tier allocators and the epochs
 * that keep a freed block away from new writes until no read can reach it.
 *
 * Memory per block: 4 bytes of logical->physical map per logical block,
 * 4 bytes of reverse map and one bit of allocation bitmap per physical
 * block.
 *
 * The reverse map entry of a physical block tells its state:
 *   < SWT_MAX_BLOCKS   mapped: the logical block that points here
 *   SWT_P_FREE         free (its bit in @used is clear)
 *   SWT_P_FRONTIER     held by a CPU's open extent, not handed out yet
 *   SWT_P_WRITING      handed to a write that has not completed
 *   SWT_P_TRIMMING     being discarded on its tier
 *   SWT_P_LINK | next  freed, on a chain (an epoch's, ready or trim)
 */
#include "dm-swaptier-map.h"

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#define SWT_P_FREE	0xffffffffU
#define SWT_P_WRITING	0xfffffffeU
#define SWT_P_FRONTIER	0xfffffffdU
#define SWT_P_TRIMMING	0xfffffffcU
#define SWT_P_LINK	0x80000000U
#define SWT_LINK_END	0x7ffffff0U
#define SWT_NONE	0xffffffffU

/* Free runs a new extent looks at before it settles for a short one. */
#define SWT_RUN_PROBES		8

/* Reclaim done inline by an allocation, so a write rarely has to wait. */
#define SWT_RECLAIM_INLINE	32U

u32 swt_map_default_reserve(u64 nr_physical)
{
	return swt_default_reserve(nr_physical);
}

u32 swt_map_tier_use(u64 tier_blocks, u32 nr_logical)
{
	u64 cap = (u64)nr_logical + max(nr_logical, SWT_TIER_SLACK);

	return (u32)min3(tier_blocks, cap, (u64)SWT_MAX_BLOCKS);
}

void swt_map_tiers_use(const u64 *tier_blocks, unsigned int nr_tiers,
		       u32 nr_logical, u32 *use)
{
	u64 total = 0, over;
	unsigned int t;

	for (t = 0; t < nr_tiers; t++) {
		use[t] = swt_map_tier_use(tier_blocks[t], nr_logical);
		total += use[t];
	}
	/* the map addresses SWT_MAX_BLOCKS in all: the slowest tiers give way */
	for (t = nr_tiers; t-- > 0 && total > SWT_MAX_BLOCKS;) {
		over = min(total - SWT_MAX_BLOCKS, (u64)use[t] - 1);
		use[t] -= over;
		total -= over;
	}
}

static bool swt_is_link(u32 v)
{
	return (v & SWT_P_LINK) && v < SWT_P_TRIMMING;
}

/*----------------------------------------------------------------*/

static void swt_chain_init(struct swt_chain *c)
{
	c->head = SWT_NONE;
	c->tail = SWT_NONE;
	c->count = 0;
}

static void swt_chain_push(struct swt_map *m, struct swt_chain *c, u32 p)
{
	m->p2l[p] = SWT_P_LINK | SWT_LINK_END;
	if (c->head == SWT_NONE)
		c->head = p;
	else
		m->p2l[c->tail] = SWT_P_LINK | p;
	c->tail = p;
	c->count++;
}

static u32 swt_chain_pop(struct swt_map *m, struct swt_chain *c)
{
	u32 p = c->head;
	u32 next = m->p2l[p] & ~SWT_P_LINK;

	c->head = next == SWT_LINK_END ? SWT_NONE : next;
	if (c->head == SWT_NONE)
		c->tail = SWT_NONE;
	c->count--;
	return p;
}

/* Move all of @from to the end of @to. */
static void swt_chain_splice(struct swt_map *m, struct swt_chain *to,
			     struct swt_chain *from)
{
	if (!from->count)
		return;
	if (to->head == SWT_NONE)
		to->head = from->head;
	else
		m->p2l[to->tail] = SWT_P_LINK | from->head;
	to->tail = from->tail;
	to->count += from->count;
	swt_chain_init(from);
}

/*----------------------------------------------------------------*/

unsigned int swt_map_tier_of(const struct swt_map *m, swt_pblk_t pblk)
{
	u32 p = from_pblk(pblk);
	unsigned int t;

	for (t = m->nr_tiers - 1; t > 0; t--)
		if (p >= m->tier[t].start)
			break;
	return t;
}

/* The block is free again: clear its bit, or queue it for a discard. */
static void swt_release(struct swt_map *m, u32 p, bool may_trim)
{
	unsigned int t = swt_map_tier_of(m, to_pblk(p));

	if (may_trim && (m->trim_mask & (1U << t))) {
		if (m->trim.count < SWT_TRIM_BACKLOG) {
			swt_chain_push(m, &m->trim, p);
			return;
		}
		m->st.trims_skipped++;
	}
	m->p2l[p] = SWT_P_FREE;
	__clear_bit(p, m->used);
	m->tier[t].nr_free++;
}

/* A block nobody points to any more: free it once no reader can see it. */
static void swt_defer_free(struct swt_map *m, u32 p)
{
	struct swt_epoch *ep = &m->ep[m->ep_cur];
	unsigned int next;

	if (m->ep_old == m->ep_cur && !ep->readers) {
		swt_release(m, p, true);
		return;
	}

	swt_chain_push(m, &ep->freed, p);
	m->nr_pending++;

	/*
	 * Reads that start from now on cannot reach @p: let them join a new
	 * epoch so that they do not hold it back. With every epoch in use the
	 * current one just grows, which is slower to drain but still correct.
	 */
	if (ep->readers) {
		next = (m->ep_cur + 1) % SWT_EPOCHS;
		if (next != m->ep_old)
			m->ep_cur = next;
	}
}

unsigned int swt_map_read_begin(struct swt_map *m)
{
	m->ep[m->ep_cur].readers++;
	return m->ep_cur;
}

static void swt_epoch_drain(struct swt_map *m, struct swt_epoch *ep)
{
	m->nr_pending -= ep->freed.count;
	swt_chain_splice(m, &m->ready, &ep->freed);
}

void swt_map_read_end(struct swt_map *m, unsigned int ticket)
{
	if (WARN_ON(ticket >= SWT_EPOCHS || !m->ep[ticket].readers))
		return;
	m->ep[ticket].readers--;

	while (m->ep_old != m->ep_cur && !m->ep[m->ep_old].readers) {
		swt_epoch_drain(m, &m->ep[m->ep_old]);
		m->ep_old = (m->ep_old + 1) % SWT_EPOCHS;
	}
	if (m->ep_old == m->ep_cur && !m->ep[m->ep_cur].readers)
		swt_epoch_drain(m, &m->ep[m->ep_cur]);
}

u32 swt_map_reclaim(struct swt_map *m, u32 max)
{
	u32 n = 0;

	while (n < max && m->ready.count) {
		swt_release(m, swt_chain_pop(m, &m->ready), true);
		n++;
	}
	return n;
}

bool swt_map_trim_next(struct swt_map *m, u32 max, swt_pblk_t *pblk, u32 *len,
		       unsigned int *tier)
{
	u32 p, n = 1;
	unsigned int t;
	u32 tend;

	if (!m->trim.count || !max)
		return false;
	p = swt_chain_pop(m, &m->trim);
	m->p2l[p] = SWT_P_TRIMMING;
	t = swt_map_tier_of(m, to_pblk(p));
	tend = m->tier[t].start + m->tier[t].nr_blocks;
	while (n < max && m->trim.count && m->trim.head == p + n &&
	       p + n < tend) {
		swt_chain_pop(m, &m->trim);
		m->p2l[p + n] = SWT_P_TRIMMING;
		n++;
	}
	*pblk = to_pblk(p);
	*len = n;
	*tier = t;
	return true;
}

/* refuse_ages (a u8) must reach the longest refusal's agings */
static_assert((2U << SWT_REFUSE_MAX_SHIFT) <= U8_MAX,
	      "SWT_REFUSE_MAX_SHIFT too large for refuse_ages");

/* A refusal ends: the tier is tried again; see swt_map_tier_refused(). */
static void swt_refusal_end(struct swt_tier *tr)
{
	tr->refusing = false;
	tr->refuse_retry = true;
}

void swt_map_trim_done(struct swt_map *m, swt_pblk_t pblk, u32 len)
{
	struct swt_tier *tr = &m->tier[swt_map_tier_of(m, pblk)];
	u32 p = from_pblk(pblk);
	u32 i;

	/* what a refusing tier was short of (zram: memory) came back */
	if (tr->refusing) {
		tr->refuse_trims += len;
		if (tr->refuse_trims >= SWT_REFUSE_TRIMS << tr->refuse_shift)
			swt_refusal_end(tr);
	}

	for (i = 0; i < len; i++) {
		if (WARN_ON(m->p2l[p + i] != SWT_P_TRIMMING))
			continue;
		swt_release(m, p + i, false);
	}
}

/*----------------------------------------------------------------*/

static struct swt_frontier *swt_front(struct swt_map *m, unsigned int cpu,
				      unsigned int t)
{
	return &m->front[(cpu % m->nr_cpus) * m->nr_tiers + t];
}

static struct swt_frontier *swt_mig_front(struct swt_map *m, unsigned int t)
{
	return &m->front[m->nr_cpus * m->nr_tiers + t];
}

static void swt_frontier_close(struct swt_map *m, struct swt_frontier *f)
{
	while (f->next < f->end)
		swt_release(m, f->next++, false);
}

/* Give the unused part of every CPU's extent on tier @t back to the tier. */
static void swt_tier_steal(struct swt_map *m, unsigned int t)
{
	unsigned int cpu;

	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		swt_frontier_close(m, swt_front(m, cpu, t));
	swt_frontier_close(m, swt_mig_front(m, t));
}

/*
 * The tier took a write: its next refusal is a short one, and so is the
 * current one's successor if writes placed before it succeed after all
 * (zram near its limit may still fit some).
 */
static void swt_refusal_took(struct swt_tier *tr)
{
	tr->refuse_retry = false;
	if (tr->refusing)
		tr->refuse_shift = 0;
}

/* Forget a tier's refusals, and how long the last one lasted. */
static void swt_refusal_reset(struct swt_tier *tr)
{
	tr->refusing = false;
	tr->refuse_retry = false;
	tr->refuse_shift = 0;
}

void swt_map_set_alloc(struct swt_map *m, unsigned int t, bool on)
{
	m->tier[t].no_alloc = !on;
	swt_refusal_reset(&m->tier[t]);
	if (!on)
		swt_tier_steal(m, t);
}

bool swt_map_tier_refused(struct swt_map *m, unsigned int t)
{
	struct swt_tier *tr = &m->tier[t];
	unsigned int s;

	for (s = t + 1; s < m->nr_tiers; s++)
		if (!m->tier[s].no_alloc && !m->tier[s].refusing)
			break;
	/* the slowest tier that takes writes never refuses them */
	if (s == m->nr_tiers)
		return false;
	/*
	 * A new refusal (not a write placed before this one began and
	 * failing late): twice as long as the last if its retry found the
	 * tier as full, the shortest if a write succeeded since.
	 */
	if (!tr->refusing) {
		if (!tr->refuse_retry)
			tr->refuse_shift = 0;
		else if (tr->refuse_shift < SWT_REFUSE_MAX_SHIFT)
			tr->refuse_shift++;
		tr->refuse_retry = false;
	}
	tr->refusing = true;
	tr->refuse_ages = 0;
	tr->refuse_trims = 0;
	return true;
}

void swt_map_end_refusals(struct swt_map *m)
{
	unsigned int t;

	for (t = 0; t < m->nr_tiers; t++)
		swt_refusal_reset(&m->tier[t]);
}

void swt_map_age_refusals(struct swt_map *m)
{
	struct swt_tier *tr;
	unsigned int t;

	for (t = 0; t < m->nr_tiers; t++) {
		tr = &m->tier[t];
		if (!tr->refusing)
			continue;
		/* one aging may come just after the failure: wait for two */
		if (++tr->refuse_ages >= 2U << tr->refuse_shift)
			swt_refusal_end(tr);
	}
}

void swt_map_close_frontiers(struct swt_map *m)
{
	unsigned int t;

	for (t = 0; t < m->nr_tiers; t++)
		swt_tier_steal(m, t);
}

/*
 * The next free run of tier @t at or after block @from (wrapping once),
 * at most @max long. Returns false if the tier has no free block.
 */
static bool swt_next_run(struct swt_map *m, unsigned int t, unsigned long from,
			 u32 max, unsigned long *s, unsigned long *e)
{
	struct swt_tier *tr = &m->tier[t];
	unsigned long tend = tr->start + tr->nr_blocks;

	*s = find_next_zero_bit(m->used, tend, from);
	if (*s >= tend)
		*s = find_next_zero_bit(m->used, tend, tr->start);
	if (*s >= tend)
		return false;
	*e = find_next_bit(m->used, min_t(unsigned long, tend, *s + max), *s);
	return true;
}

/*
 * Open a new extent on tier @t for @f, searching from the tier's cursor in
 * rising block order, so that one CPU's successive extents usually touch.
 * A tier whose free space is fragmented offers short runs: look at a few
 * and take the first long enough for @want blocks (and at least a quarter
 * of an extent), or else the longest seen, so that writes keep merging
 * below.
 */
static bool swt_frontier_open(struct swt_map *m, struct swt_frontier *f,
			      unsigned int t, u32 want)
{
	struct swt_tier *tr = &m->tier[t];
	unsigned long s, e, bs = 0, be = 0, from = tr->start + tr->cursor;
	u32 need = clamp(want, m->frontier_blocks / 4, m->frontier_blocks);
	unsigned int i;

	if (!tr->nr_free)
		return false;
	for (i = 0; i < SWT_RUN_PROBES; i++) {
		if (!swt_next_run(m, t, from, m->frontier_blocks, &s, &e))
			break;
		if (e - s > be - bs) {
			bs = s;
			be = e;
		}
		if (be - bs >= need || be - bs >= tr->nr_free)
			break;
		from = e;
	}
	if (WARN_ON(be == bs))
		return false;

	bitmap_set(m->used, bs, be - bs);
	tr->nr_free -= be - bs;
	tr->cursor = (be - tr->start) % tr->nr_blocks;
	f->next = bs;
	f->end = be;
	while (bs < be)
		m->p2l[bs++] = SWT_P_FRONTIER;
	return true;
}

/* Hand out up to @want blocks of @f, which has at least one left. */
static void swt_frontier_take(struct swt_map *m, struct swt_frontier *f,
			      unsigned int t, u32 want, struct swt_alloc *a)
{
	u32 n = min(want, f->end - f->next), i;

	for (i = 0; i < n; i++)
		m->p2l[f->next + i] = SWT_P_WRITING;
	a->pblk = to_pblk(f->next);
	a->len = n;
	a->tier = t;
	a->seq = f->next == f->last;
	f->next += n;
	f->last = f->next;
}

/* Make sure @f has a block left on tier @t; false if the tier is full. */
static bool swt_frontier_ready(struct swt_map *m, struct swt_frontier *f,
			       unsigned int t, u32 want)
{
	if (f->next < f->end)
		return true;
	if (!m->tier[t].nr_free)
		swt_tier_steal(m, t);
	return swt_frontier_open(m, f, t, want);
}

bool swt_map_alloc_on(struct swt_map *m, unsigned int t, u32 want,
		      struct swt_alloc *a)
{
	struct swt_frontier *f = swt_mig_front(m, t);

	if (m->ready.count)
		swt_map_reclaim(m, max(want, SWT_RECLAIM_INLINE));
	if (m->tier[t].no_alloc || m->tier[t].refusing ||
	    !swt_frontier_ready(m, f, t, want))
		return false;
	swt_frontier_take(m, f, t, want, a);
	return true;
}

bool swt_map_alloc_avoid(struct swt_map *m, unsigned int cpu, u32 want,
			 unsigned long avoid, struct swt_alloc *a)
{
	struct swt_frontier *f = NULL;
	unsigned int t;

	if (m->ready.count)
		swt_map_reclaim(m, max(want, SWT_RECLAIM_INLINE));

	for (t = 0; t < m->nr_tiers; t++) {
		if (m->tier[t].no_alloc || m->tier[t].refusing ||
		    (avoid & BIT(t)))
			continue;
		f = swt_front(m, cpu, t);
		if (swt_frontier_ready(m, f, t, want))
			break;
	}
	if (t == m->nr_tiers) {
		/* Out of room: blocks waiting for a discard are free too. */
		if (m->trim.count) {
			while (m->trim.count) {
				swt_release(m, swt_chain_pop(m, &m->trim), false);
				m->st.trims_skipped++;
			}
			return swt_map_alloc_avoid(m, cpu, want, avoid, a);
		}
		/* Nothing else has room: try the refusing tiers again. */
		for (t = 0; t < m->nr_tiers; t++)
			if (m->tier[t].refusing && !m->tier[t].no_alloc &&
			    !(avoid & BIT(t)))
				break;
		if (t == m->nr_tiers)
			return false;
		for (t = 0; t < m->nr_tiers; t++)
			if (!(avoid & BIT(t)) && m->tier[t].refusing)
				swt_refusal_end(&m->tier[t]);
		return swt_map_alloc_avoid(m, cpu, want, avoid, a);
	}
	swt_frontier_take(m, f, t, want, a);
	m->st.write_allocs += a->len;
	m->st.seq_writes += a->seq ? a->len : a->len - 1;
	return true;
}

bool swt_map_alloc(struct swt_map *m, unsigned int cpu, u32 want,
		   struct swt_alloc *a)
{
	return swt_map_alloc_avoid(m, cpu, want, 0, a);
}

/*----------------------------------------------------------------*/

static void swt_unmap_one(struct swt_map *m, u32 l)
{
	u32 old = from_pblk(m->l2p[l]);

	if (old == SWT_NONE)
		return;
	m->l2p[l] = SWT_NO_PBLK;
	m->nr_mapped--;
	m->tier[swt_map_tier_of(m, to_pblk(old))].nr_mapped--;
	swt_defer_free(m, old);
}

void swt_map_commit(struct swt_map *m, swt_lblk_t lblk, swt_pblk_t pblk,
		    u32 len)
{
	u32 l = from_lblk(lblk), p = from_pblk(pblk);
	unsigned int t = swt_map_tier_of(m, pblk);
	u32 i;

	for (i = 0; i < len; i++) {
		if (WARN_ON(m->p2l[p + i] != SWT_P_WRITING))
			continue;
		swt_unmap_one(m, l + i);
		m->l2p[l + i] = to_pblk(p + i);
		m->p2l[p + i] = l + i;
		m->nr_mapped++;
		m->tier[t].nr_mapped++;
	}
	swt_refusal_took(&m->tier[t]);
}

u32 swt_map_move(struct swt_map *m, const swt_lblk_t *lblk, swt_pblk_t src,
		 swt_pblk_t dst, u32 len)
{
	u32 s = from_pblk(src), d = from_pblk(dst), moved = 0, i, l;
	unsigned int from = swt_map_tier_of(m, src);
	unsigned int to = swt_map_tier_of(m, dst);

	for (i = 0; i < len; i++) {
		if (WARN_ON(m->p2l[d + i] != SWT_P_WRITING))
			continue;
		l = from_lblk(lblk[i]);
		if (l >= m->nr_logical || from_pblk(m->l2p[l]) != s + i) {
			/* rewritten or discarded during the copy */
			swt_release(m, d + i, false);
			m->st.move_lost++;
			continue;
		}
		m->l2p[l] = to_pblk(d + i);
		m->p2l[d + i] = l;
		m->tier[from].nr_mapped--;
		m->tier[to].nr_mapped++;
		swt_defer_free(m, s + i);
		moved++;
	}
	m->st.moved += moved;
	if (moved)
		swt_refusal_took(&m->tier[to]);
	return moved;
}

void swt_map_abort(struct swt_map *m, swt_pblk_t pblk, u32 len)
{
	u32 p = from_pblk(pblk);
	u32 i;

	for (i = 0; i < len; i++) {
		if (WARN_ON(m->p2l[p + i] != SWT_P_WRITING))
			continue;
		swt_release(m, p + i, false);
	}
}

void swt_map_unmap(struct swt_map *m, swt_lblk_t lblk, u32 len)
{
	u32 l = from_lblk(lblk);
	u32 i;

	for (i = 0; i < len; i++)
		swt_unmap_one(m, l + i);
}

void swt_map_lookup(const struct swt_map *m, swt_lblk_t lblk, u32 max,
		    struct swt_extent *e)
{
	u32 l = from_lblk(lblk);
	u32 p = from_pblk(m->l2p[l]);
	u32 n = 1, tend;

	e->lblk = lblk;
	e->pblk = to_pblk(p);
	if (p == SWT_NONE) {
		e->tier = 0;
		while (n < max && from_pblk(m->l2p[l + n]) == SWT_NONE)
			n++;
	} else {
		e->tier = swt_map_tier_of(m, e->pblk);
		tend = m->tier[e->tier].start + m->tier[e->tier].nr_blocks;
		while (n < max && p + n < tend &&
		       from_pblk(m->l2p[l + n]) == p + n)
			n++;
	}
	e->len = n;
}

/*----------------------------------------------------------------*/

u64 swt_map_bytes(const struct swt_map *m)
{
	return (u64)m->nr_logical * sizeof(*m->l2p) +
	       (u64)m->nr_physical * sizeof(*m->p2l) +
	       (u64)BITS_TO_LONGS(m->nr_physical) * sizeof(long) +
	       (u64)(m->nr_cpus + 1) * m->nr_tiers * sizeof(*m->front) +
	       sizeof(*m);
}

/*
 * kvmalloc refuses, with a warning, anything over INT_MAX bytes: the maps
 * of more than 2^29 blocks (2 TiB) come from vmalloc. Either may fail
 * rather than invoke the OOM killer: the table load reports it.
 */
static void *swt_map_array(size_t n, size_t size)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL;

	if (n <= INT_MAX / size)
		return kvmalloc_array(n, size, gfp);
	if (n > SIZE_MAX / size)
		return NULL;
	return __vmalloc(n * size, gfp | __GFP_NOWARN);
}

int swt_map_create(struct swt_map *m, u32 nr_logical, unsigned int nr_tiers,
		   const u32 *tier_blocks, u32 reserve, unsigned int nr_cpus,
		   u32 frontier_blocks)
{
	u64 total = 0;
	unsigned int t, i;
	u32 b;

	memset(m, 0, sizeof(*m));
	if (!nr_tiers || nr_tiers > SWT_MAX_TIERS || !nr_cpus ||
	    frontier_blocks < SWT_FRONTIER_MIN ||
	    frontier_blocks > SWT_FRONTIER_MAX)
		return -EINVAL;
	for (t = 0; t < nr_tiers; t++) {
		if (!tier_blocks[t])
			return -EINVAL;
		m->tier[t].start = total;
		m->tier[t].nr_blocks = tier_blocks[t];
		m->tier[t].nr_free = tier_blocks[t];
		total += tier_blocks[t];
	}
	if (total > SWT_MAX_BLOCKS || !nr_logical ||
	    (u64)nr_logical + reserve > total)
		return -EINVAL;

	m->nr_logical = nr_logical;
	m->nr_physical = total;
	m->reserve = reserve;
	m->nr_tiers = nr_tiers;
	m->nr_cpus = nr_cpus;
	m->frontier_blocks = frontier_blocks;

	m->l2p = swt_map_array(nr_logical, sizeof(*m->l2p));
	m->p2l = swt_map_array(total, sizeof(*m->p2l));
	m->used = kvcalloc(BITS_TO_LONGS(total), sizeof(long), GFP_KERNEL);
	m->front = kvcalloc((nr_cpus + 1) * nr_tiers, sizeof(*m->front),
			    GFP_KERNEL);
	if (!m->l2p || !m->p2l || !m->used || !m->front) {
		swt_map_destroy(m);
		return -ENOMEM;
	}
	for (b = 0; b < nr_logical; b++)
		m->l2p[b] = SWT_NO_PBLK;
	for (b = 0; b < total; b++)
		m->p2l[b] = SWT_P_FREE;
	for (i = 0; i < SWT_EPOCHS; i++)
		swt_chain_init(&m->ep[i].freed);
	swt_chain_init(&m->ready);
	swt_chain_init(&m->trim);
	return 0;
}

void swt_map_destroy(struct swt_map *m)
{
	kvfree(m->l2p);
	kvfree(m->p2l);
	kvfree(m->used);
	kvfree(m->front);
	m->l2p = NULL;
	m->p2l = NULL;
	m->used = NULL;
	m->front = NULL;
}

/*----------------------------------------------------------------*/

/* Walk a chain, checking each link; returns 0 or a negative number. */
static int swt_check_chain(const struct swt_map *m, const struct swt_chain *c,
			   u32 *bad)
{
	u32 p = c->head, n = 0, v;

	while (p != SWT_NONE) {
		*bad = p;
		if (p >= m->nr_physical || !swt_is_link(m->p2l[p]) ||
		    !test_bit(p, m->used) || n > m->nr_physical)
			return -1;
		n++;
		v = m->p2l[p] & ~SWT_P_LINK;
		if (v == SWT_LINK_END) {
			if (p != c->tail)
				return -1;
			break;
		}
		p = v;
	}
	return n == c->count ? 0 : -1;
}

int swt_map_check(const struct swt_map *m, u32 *bad)
{
	u32 mapped[SWT_MAX_TIERS] = { 0 }, freed[SWT_MAX_TIERS] = { 0 };
	u32 nfront = 0, nlink = 0, total_mapped = 0, pend = 0;
	const struct swt_frontier *f;
	unsigned int t, i;
	u32 l, p, v;

	*bad = 0;
	for (l = 0; l < m->nr_logical; l++) {
		p = from_pblk(m->l2p[l]);
		if (p == SWT_NONE)
			continue;
		*bad = l;
		if (p >= m->nr_physical || m->p2l[p] != l ||
		    !test_bit(p, m->used))
			return -1;
		mapped[swt_map_tier_of(m, to_pblk(p))]++;
		total_mapped++;
	}
	for (p = 0; p < m->nr_physical; p++) {
		v = m->p2l[p];
		*bad = p;
		if (!test_bit(p, m->used)) {
			if (v != SWT_P_FREE)
				return -2;
			freed[swt_map_tier_of(m, to_pblk(p))]++;
		} else if (v == SWT_P_FREE) {
			return -3;
		} else if (v < SWT_MAX_BLOCKS) {
			if (v >= m->nr_logical || from_pblk(m->l2p[v]) != p)
				return -4;
		} else if (v == SWT_P_FRONTIER) {
			nfront++;
		} else if (swt_is_link(v)) {
			nlink++;
		}
	}
	*bad = 0;
	if (total_mapped != m->nr_mapped)
		return -5;
	for (t = 0; t < m->nr_tiers; t++) {
		*bad = t;
		if (mapped[t] != m->tier[t].nr_mapped ||
		    freed[t] != m->tier[t].nr_free)
			return -6;
	}
	for (i = 0; i < (m->nr_cpus + 1) * m->nr_tiers; i++) {
		f = &m->front[i];
		*bad = i;
		if (f->next > f->end)
			return -7;
		for (p = f->next; p < f->end; p++)
			if (m->p2l[p] != SWT_P_FRONTIER)
				return -7;
		nfront -= min(nfront, f->end - f->next);
	}
	if (nfront)
		return -8;
	for (i = 0; i < SWT_EPOCHS; i++) {
		if (swt_check_chain(m, &m->ep[i].freed, bad))
			return -9;
		pend += m->ep[i].freed.count;
	}
	if (pend != m->nr_pending)
		return -10;
	if (swt_check_chain(m, &m->ready, bad))
		return -11;
	if (swt_check_chain(m, &m->trim, bad))
		return -12;
	*bad = 0;
	if (pend + m->ready.count + m->trim.count != nlink)
		return -13;
	return 0;
}
