// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-swaptier: the bio path.
 *
 * Reads are remapped to where the map says their blocks are. A write gets
 * its physical blocks only now, from the per-CPU open extent of the
 * fastest tier with room; asynchronous one-block writes (swap-outs) are
 * first gathered for a jiffy and placed together in logical order. Writes
 * that find no free block wait on the deferred list for the pool worker,
 * which also gives freed blocks back to the allocator once no read can
 * still use them; with discard_passdown, freed runs are discarded on their
 * tier by a worker of their own before reuse.
 *
 * Nothing here allocates memory or waits on an allocation: per-bio data
 * carries what end_io needs, and the workers run on WQ_MEM_RECLAIM queues.
 * A write that memory reclaim sent (a swap-out from kswapd or a direct
 * reclaimer, which run with PF_MEMALLOC) is submitted by the workers with
 * PF_MEMALLOC too, as the reclaimer would have: a tier that allocates in
 * its submit path (zram) then takes from the reserves or fails at once,
 * instead of entering reclaim that only these very writes can help.
 * A one-block write a tier fails is placed again, on a slower tier, and
 * that tier refuses writes until it gets blocks back (zram at mem_limit).
 */
#include "dm-swaptier.h"

#include <linux/blkdev.h>
#include <linux/jiffies.h>
#include <linux/sched/mm.h>
#include <linux/sort.h>

/* Queue the worker once this many freed blocks wait to be reclaimed. */
#define SWT_RECLAIM_KICK	256U
#define SWT_RECLAIM_BATCH	1024U
/* Largest discard issued to a tier in one go (passdown), in blocks. */
#define SWT_TRIM_MAX		4096U
/* Discards issued per worker run, so that deferred writes never wait long. */
#define SWT_TRIM_BATCH		16U

enum swt_bio_kind {
	SWT_BIO_OTHER,
	SWT_BIO_READ,
	SWT_BIO_WRITE,
};

/* Per-bio data: what end_io must undo or publish. */
struct swt_bio {
	swt_lblk_t lblk;
	swt_pblk_t pblk;
	u32 len;
	u8 kind;
	u8 tier;
	u8 ticket;
	u8 failed;		/* tiers that failed this write, a bit each */
	bool reclaim;		/* memory reclaim wrote it (PF_MEMALLOC) */
	struct bvec_iter iter;	/* a write's data, to place it again */
};

bool __swt_io_kick_needed(struct swt_pool *pool)
{
	lockdep_assert_held(&pool->lock);
	return !bio_list_empty(&pool->deferred) || pool->map.trim.count ||
	       pool->map.ready.count >= SWT_RECLAIM_KICK;
}

static void swt_io_remap(struct swt_pool *pool, struct bio *bio,
			 unsigned int tier, swt_pblk_t pblk)
{
	bio_set_dev(bio, pool->bdev[tier]);
	bio->bi_iter.bi_sector =
		(sector_t)swt_map_tier_offset(&pool->map, pblk) * SWT_BLOCK_SECTORS;
}

static swt_lblk_t swt_io_lblk(struct dm_target *ti, struct bio *bio)
{
	return to_lblk(dm_target_offset(ti, bio->bi_iter.bi_sector) /
		       SWT_BLOCK_SECTORS);
}

static int swt_io_read(struct swt_target *st, struct bio *bio,
		       struct swt_bio *sb)
{
	struct swt_pool *pool = st->pool;
	u32 nr = bio_sectors(bio) / SWT_BLOCK_SECTORS;
	struct swt_extent e;
	unsigned long flags;

	spin_lock_irqsave(&pool->lock, flags);
	swt_map_lookup(&pool->map, sb->lblk, nr, &e);
	if (e.pblk != SWT_NO_PBLK) {
		sb->kind = SWT_BIO_READ;
		sb->pblk = e.pblk;
		sb->ticket = swt_map_read_begin(&pool->map);
		sb->tier = e.tier;
		pool->map.st.tier[e.tier].reads++;
		pool->pol.ops->hit(&pool->pol, sb->lblk, e.len);
	} else {
		pool->map.st.zero_reads++;
	}
	spin_unlock_irqrestore(&pool->lock, flags);

	if (e.len < nr)
		dm_accept_partial_bio(bio, e.len * SWT_BLOCK_SECTORS);
	if (e.pblk == SWT_NO_PBLK) {
		zero_fill_bio(bio);
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}
	swt_io_remap(pool, bio, e.tier, e.pblk);
	return DM_MAPIO_REMAPPED;
}

/*
 * Submit a write placed by a worker in the context its writer had: with
 * PF_MEMALLOC if memory reclaim sent it.
 */
static void swt_io_submit_placed(struct swt_pool *pool, struct bio *bio,
				 struct swt_bio *sb)
{
	/* the bio and @sb may be gone once submitted (zram ends it inside) */
	bool reclaim = sb->reclaim;
	unsigned int noreclaim = 0;

	swt_io_remap(pool, bio, sb->tier, sb->pblk);
	if (reclaim)
		noreclaim = memalloc_noreclaim_save();
	dm_submit_bio_remap(bio, NULL);
	if (reclaim)
		memalloc_noreclaim_restore(noreclaim);
}

static void swt_io_start_write(struct swt_bio *sb, const struct swt_alloc *a)
{
	sb->kind = SWT_BIO_WRITE;
	sb->pblk = a->pblk;
	sb->len = a->len;
	sb->tier = a->tier;
}

/*
 * Gather an asynchronous one-block write (a swap-out) for the batch worker,
 * which places it with the others that arrive within a jiffy. Returns
 * false if the write is to be placed now: batching is off, or someone
 * waits for this write.
 */
static bool swt_io_gather(struct swt_pool *pool, struct bio *bio,
			  struct swt_bio *sb)
{
	u32 max = READ_ONCE(pool->plan.knob[SWT_K_WRITE_BATCH]);
	unsigned long flags;
	u32 n;

	if (!max || bio_sectors(bio) != SWT_BLOCK_SECTORS ||
	    (bio->bi_opf & (REQ_SYNC | REQ_FUA | REQ_PREFLUSH)))
		return false;

	sb->len = 1;
	spin_lock_irqsave(&pool->lock, flags);
	bio_list_add(&pool->batch, bio);
	n = ++pool->batch_count;
	spin_unlock_irqrestore(&pool->lock, flags);
	if (n >= max)
		mod_delayed_work(pool->wq, &pool->batch_work, 0);
	else if (n == 1)
		queue_delayed_work(pool->wq, &pool->batch_work, 1);
	return true;
}

static int swt_io_write(struct swt_target *st, struct bio *bio,
			struct swt_bio *sb)
{
	struct swt_pool *pool = st->pool;
	u32 nr = bio_sectors(bio) / SWT_BLOCK_SECTORS;
	struct swt_alloc a;
	unsigned long flags;

	sb->failed = 0;
	sb->iter = bio->bi_iter;
	if (swt_io_gather(pool, bio, sb))
		return DM_MAPIO_SUBMITTED;

	spin_lock_irqsave(&pool->lock, flags);
	if (likely(bio_list_empty(&pool->deferred)) &&
	    swt_map_alloc(&pool->map, smp_processor_id(), nr, &a)) {
		swt_io_start_write(sb, &a);
		spin_unlock_irqrestore(&pool->lock, flags);
		if (a.len < nr)
			dm_accept_partial_bio(bio, a.len * SWT_BLOCK_SECTORS);
		swt_io_remap(pool, bio, a.tier, a.pblk);
		return DM_MAPIO_REMAPPED;
	}

	/*
	 * No block is free right now: blocks held by in-flight writes and
	 * reads come back when those complete, and the worker retries. The
	 * worker cannot split a bio, so only the first block waits.
	 */
	if (nr > 1)
		dm_accept_partial_bio(bio, SWT_BLOCK_SECTORS);
	sb->len = 1;
	bio_list_add(&pool->deferred, bio);
	pool->map.st.deferred++;
	spin_unlock_irqrestore(&pool->lock, flags);
	queue_work(pool->wq, &pool->worker);
	return DM_MAPIO_SUBMITTED;
}

/* Discard and write zeroes: unmapped blocks read as zeros. */
static int swt_io_discard(struct swt_target *st, struct bio *bio,
			  struct swt_bio *sb)
{
	struct swt_pool *pool = st->pool;
	u32 l = from_lblk(sb->lblk);
	u32 left = bio_sectors(bio) / SWT_BLOCK_SECTORS;
	unsigned long flags;
	bool kick;
	u32 n;

	spin_lock_irqsave(&pool->lock, flags);
	pool->map.st.discards++;
	pool->map.st.discarded += left;
	/*
	 * A discard of the whole device (swapon --discard) must not keep
	 * interrupts off throughout: drop the lock between chunks.
	 */
	while (left) {
		n = min(left, SWT_MSG_CHUNK);
		swt_map_unmap(&pool->map, to_lblk(l), n);
		pool->pol.ops->clear(&pool->pol, to_lblk(l), n);
		l += n;
		left -= n;
		if (left) {
			spin_unlock_irqrestore(&pool->lock, flags);
			spin_lock_irqsave(&pool->lock, flags);
		}
	}
	kick = __swt_io_kick_needed(pool);
	spin_unlock_irqrestore(&pool->lock, flags);
	if (kick)
		queue_work(pool->wq, &pool->worker);
	bio_endio(bio);
	return DM_MAPIO_SUBMITTED;
}

int swt_io_map(struct dm_target *ti, struct bio *bio)
{
	struct swt_target *st = ti->private;
	struct swt_bio *sb = dm_per_bio_data(bio, sizeof(*sb));

	sb->kind = SWT_BIO_OTHER;
	sb->reclaim = current->flags & PF_MEMALLOC;
	if (unlikely(test_bit(SWT_POOL_FAILED, &st->pool->flags)))
		return DM_MAPIO_KILL;

	if (bio->bi_opf & REQ_PREFLUSH) {
		/* dm core sends one empty flush per tier (num_flush_bios) */
		bio_set_dev(bio, st->dev[dm_bio_get_target_bio_nr(bio)]->bdev);
		return DM_MAPIO_REMAPPED;
	}

	sb->lblk = swt_io_lblk(ti, bio);
	if (unlikely((bio->bi_iter.bi_sector | bio_sectors(bio)) &
		     (SWT_BLOCK_SECTORS - 1))) {
		DMERR_LIMIT("I/O not aligned to 4 KiB blocks");
		return DM_MAPIO_KILL;
	}
	if (!bio_sectors(bio)) {
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}

	swt_mig_note_io(st->pool);

	switch (bio_op(bio)) {
	case REQ_OP_READ:
		return swt_io_read(st, bio, sb);
	case REQ_OP_WRITE:
		return swt_io_write(st, bio, sb);
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		return swt_io_discard(st, bio, sb);
	default:
		return DM_MAPIO_KILL;
	}
}

/*
 * A tier failed the write @bio (zram at its mem_limit, a failing disk):
 * if a slower tier takes writes, the tier refuses them for now, and the
 * write waits on the deferred list to be placed again, with its data as
 * it came, on a tier that has not failed it yet.
 */
static bool __swt_io_place_again(struct swt_pool *pool, struct bio *bio,
				 struct swt_bio *sb)
{
	lockdep_assert_held(&pool->lock);
	sb->failed |= BIT(sb->tier);
	if (!swt_map_tier_refused(&pool->map, sb->tier))
		return false;
	pool->map.st.tier[sb->tier].refused++;
	sb->kind = SWT_BIO_OTHER;
	/* as it came, less what dm_accept_partial_bio() left to others */
	bio->bi_iter = sb->iter;
	bio->bi_iter.bi_size = sb->len * SWT_BLOCK_SIZE;
	bio->bi_status = BLK_STS_OK;
	bio_clear_flag(bio, BIO_QUIET);
	bio_list_add(&pool->deferred, bio);
	pool->map.st.deferred++;
	return true;
}

int swt_io_end_io(struct dm_target *ti, struct bio *bio, blk_status_t *error)
{
	struct swt_target *st = ti->private;
	struct swt_pool *pool = st->pool;
	struct swt_bio *sb = dm_per_bio_data(bio, sizeof(*sb));
	struct swt_tier_stats *ts;
	unsigned long flags;
	bool kick, plan = false, again = false;
	unsigned int tier = sb->tier;
	bool read = sb->kind == SWT_BIO_READ;
	u32 off = 0;

	if (sb->kind == SWT_BIO_OTHER)
		return DM_ENDIO_DONE;

	spin_lock_irqsave(&pool->lock, flags);
	/* once placed again, the worker may own @bio and @sb at any time */
	if (*error)
		off = swt_map_tier_offset(&pool->map, sb->pblk);
	ts = &pool->map.st.tier[tier];
	if (sb->kind == SWT_BIO_READ) {
		swt_map_read_end(&pool->map, sb->ticket);
	} else if (*error) {
		/* the block keeps its previous mapping */
		swt_map_abort(&pool->map, sb->pblk, sb->len);
		again = __swt_io_place_again(pool, bio, sb);
		/* demotion gives a refusing tier back what it lacks */
		plan = again;
	} else {
		swt_map_commit(&pool->map, sb->lblk, sb->pblk, sb->len);
		pool->pol.ops->fill(&pool->pol, sb->lblk, sb->len);
		ts->writes++;
		plan = __swt_mig_write_done(pool, sb->tier);
	}
	if (*error)
		ts->errors++;
	kick = __swt_io_kick_needed(pool);
	spin_unlock_irqrestore(&pool->lock, flags);

	/* The tier fell below its low watermark, or refuses: demote now. */
	if (plan)
		swt_mig_kick(pool);

	if (*error)
		DMERR_LIMIT("tier %u: %s error %d at block %u%s", tier,
			    read ? "read" : "write", blk_status_to_errno(*error),
			    off, again ? ", placing it on another tier" : "");
	if (kick || again)
		swt_io_kick(pool);
	if (again) {
		*error = BLK_STS_OK;
		return DM_ENDIO_INCOMPLETE;
	}
	return DM_ENDIO_DONE;
}

/*----------------------------------------------------------------*/

/* Give the ready chain back to the tiers, a batch at a time. */
static void swt_io_reclaim(struct swt_pool *pool)
{
	bool more;

	do {
		spin_lock_irq(&pool->lock);
		swt_map_reclaim(&pool->map, SWT_RECLAIM_BATCH);
		more = swt_map_reclaim_pending(&pool->map);
		spin_unlock_irq(&pool->lock);
		cond_resched();
	} while (more);
}

/* Queue the trim worker if discards wait and the device is not suspended. */
static void swt_io_trim_kick(struct swt_pool *pool)
{
	bool kick;

	spin_lock_irq(&pool->lock);
	kick = pool->map.trim.count && !pool->trim_stopped;
	spin_unlock_irq(&pool->lock);
	if (kick)
		queue_work(pool->trim_wq, &pool->trim_work);
}

/*
 * discard_passdown: discard freed runs on their tier before reuse, a batch
 * at a time, then queue itself again while more wait. Suspend stops it
 * with trim_stopped and cancel_work_sync().
 */
static void swt_io_trim_worker(struct work_struct *work)
{
	struct swt_pool *pool = container_of(work, struct swt_pool, trim_work);
	unsigned int tier, i;
	swt_pblk_t pblk;
	bool got, wake;
	u32 len;

	for (i = 0; i < SWT_TRIM_BATCH; i++) {
		spin_lock_irq(&pool->lock);
		got = !pool->trim_stopped &&
		      swt_map_trim_next(&pool->map, SWT_TRIM_MAX, &pblk, &len,
					&tier);
		if (got)
			pool->map.st.trims++;
		spin_unlock_irq(&pool->lock);
		if (!got)
			break;
		/*
		 * Advisory: a failed discard only means the space stays used
		 * on the tier; the block is free for us either way.
		 */
		blkdev_issue_discard(pool->bdev[tier],
				     (sector_t)swt_map_tier_offset(&pool->map, pblk) *
				     SWT_BLOCK_SECTORS,
				     (sector_t)len * SWT_BLOCK_SECTORS, GFP_NOIO);
		/* the blocks are free now: writes may be waiting for them */
		spin_lock_irq(&pool->lock);
		swt_map_trim_done(&pool->map, pblk, len);
		wake = !bio_list_empty(&pool->deferred);
		spin_unlock_irq(&pool->lock);
		if (wake)
			queue_work(pool->wq, &pool->worker);
	}
	swt_io_trim_kick(pool);
}

/*
 * Place @sb's @len blocks on one run of a tier it has not failed on: a
 * shorter run is given back and one more is tried (the frontier's rest
 * was short), as the worker cannot split the bio.
 */
static bool __swt_io_alloc_whole(struct swt_pool *pool, struct swt_bio *sb,
				 u32 len, struct swt_alloc *a)
{
	struct swt_stats *st = &pool->map.st;
	u64 allocs = st->write_allocs, seq = st->seq_writes;
	unsigned int i;

	lockdep_assert_held(&pool->lock);
	for (i = 0; i < 2; i++) {
		if (!swt_map_alloc_avoid(&pool->map, smp_processor_id(), len,
					 sb->failed, a))
			return false;
		if (a->len == len)
			return true;
		/* given back unwritten: not an allocation for a write */
		swt_map_abort(&pool->map, a->pblk, a->len);
		st->write_allocs = allocs;
		st->seq_writes = seq;
	}
	return false;
}

/*
 * Writes that found no free block, and writes a tier failed: place them
 * now, in arrival order. A failed write that finds no room on the tiers
 * it has not failed on fails after all.
 */
static void swt_io_deferred(struct swt_pool *pool)
{
	struct swt_bio *sb;
	struct swt_alloc a;
	struct bio *bio;
	bool got;
	u32 lblk;

	for (;;) {
		spin_lock_irq(&pool->lock);
		bio = bio_list_peek(&pool->deferred);
		if (!bio) {
			spin_unlock_irq(&pool->lock);
			return;
		}
		sb = dm_per_bio_data(bio, sizeof(*sb));
		got = __swt_io_alloc_whole(pool, sb, sb->len, &a);
		if (!got && !sb->failed) {
			spin_unlock_irq(&pool->lock);
			return;
		}
		bio_list_pop(&pool->deferred);
		if (got)
			swt_io_start_write(sb, &a);
		lblk = from_lblk(sb->lblk);
		spin_unlock_irq(&pool->lock);

		if (got) {
			swt_io_submit_placed(pool, bio, sb);
			continue;
		}
		DMERR_LIMIT("write of block %u failed: no room on the tiers that did not fail it",
			    lblk);
		/* sb->kind is SWT_BIO_OTHER: end_io lets the error through */
		bio->bi_status = BLK_STS_IOERR;
		bio_endio(bio);
	}
}

static int swt_io_batch_cmp(const void *a, const void *b)
{
	const struct swt_batch_ent *x = a, *y = b;

	return x->lblk < y->lblk ? -1 : x->lblk > y->lblk;
}

/*
 * Place the gathered writes @v[0..@n) in logical order: swap-outs that
 * arrive close together, from any CPU, become one physically consecutive
 * run (fewer, larger requests below), and swap's readahead of adjacent
 * slots later finds them adjacent too. Writes that find no free block wait
 * on the deferred list, as direct ones do.
 */
static bool __swt_io_batch_place(struct swt_pool *pool, struct swt_batch_ent *v,
				 unsigned int n)
{
	unsigned int i = 0, j, len;
	struct swt_bio *sb;
	struct swt_alloc a;

	lockdep_assert_held(&pool->lock);
	pool->map.st.batches++;
	pool->map.st.batched += n;
	while (i < n) {
		if (!bio_list_empty(&pool->deferred) ||
		    !swt_map_alloc(&pool->map, smp_processor_id(), n - i, &a))
			break;
		/* one block per bio: each completes on its own */
		len = a.len;
		a.len = 1;
		for (j = 0; j < len; j++, i++) {
			sb = dm_per_bio_data(v[i].bio, sizeof(*sb));
			swt_io_start_write(sb, &a);
			a.pblk = to_pblk(from_pblk(a.pblk) + 1);
		}
	}
	if (i == n)
		return false;
	for (; i < n; i++) {
		bio_list_add(&pool->deferred, v[i].bio);
		pool->map.st.deferred++;
		v[i].bio = NULL;
	}
	return true;
}

static void swt_io_batch_worker(struct work_struct *work)
{
	struct swt_pool *pool = container_of(to_delayed_work(work),
					     struct swt_pool, batch_work);
	struct swt_batch_ent *v = pool->bvec;
	struct blk_plug plug;
	bool kick = false;
	struct swt_bio *sb;
	unsigned int n, i, max;
	struct bio *bio;
	u32 left = 0;

	/* batching may have been switched off with writes still gathered */
	max = READ_ONCE(pool->plan.knob[SWT_K_WRITE_BATCH]) ?: SWT_BATCH_MAX;
	do {
		spin_lock_irq(&pool->lock);
		for (n = 0; n < max; n++) {
			bio = bio_list_pop(&pool->batch);
			if (!bio)
				break;
			sb = dm_per_bio_data(bio, sizeof(*sb));
			v[n].lblk = from_lblk(sb->lblk);
			v[n].bio = bio;
		}
		pool->batch_count -= n;
		spin_unlock_irq(&pool->lock);
		if (!n)
			break;

		sort(v, n, sizeof(*v), swt_io_batch_cmp, NULL);
		spin_lock_irq(&pool->lock);
		kick |= __swt_io_batch_place(pool, v, n);
		left = pool->batch_count;
		spin_unlock_irq(&pool->lock);

		blk_start_plug(&plug);
		for (i = 0; i < n; i++) {
			bio = v[i].bio;
			if (!bio)
				continue;
			sb = dm_per_bio_data(bio, sizeof(*sb));
			swt_io_submit_placed(pool, bio, sb);
		}
		blk_finish_plug(&plug);
		/* a short tail waits for its own jiffy, to gather more */
	} while (left >= max);
	if (left)
		queue_delayed_work(pool->wq, &pool->batch_work, 1);
	if (kick)
		queue_work(pool->wq, &pool->worker);
}

void swt_io_kick(struct swt_pool *pool)
{
	queue_work(pool->wq, &pool->worker);
}

static void swt_io_worker(struct work_struct *work)
{
	struct swt_pool *pool = container_of(work, struct swt_pool, worker);

	/* Writes first: swap may be waiting on them to free memory. */
	swt_io_deferred(pool);
	swt_io_reclaim(pool);
	swt_io_deferred(pool);
	swt_io_trim_kick(pool);
}

unsigned int swt_io_per_bio_size(void)
{
	return sizeof(struct swt_bio);
}

int swt_io_create(struct swt_pool *pool)
{
	bio_list_init(&pool->deferred);
	bio_list_init(&pool->batch);
	INIT_WORK(&pool->worker, swt_io_worker);
	INIT_DELAYED_WORK(&pool->batch_work, swt_io_batch_worker);
	INIT_WORK(&pool->trim_work, swt_io_trim_worker);
	pool->trim_stopped = true;	/* until the first resume */
	pool->wq = alloc_workqueue("dm-" DM_MSG_PREFIX, WQ_MEM_RECLAIM, 0);
	if (!pool->wq)
		return -ENOMEM;
	pool->trim_wq = alloc_workqueue("dm-" DM_MSG_PREFIX "-trim",
					WQ_MEM_RECLAIM, 0);
	if (!pool->trim_wq) {
		destroy_workqueue(pool->wq);
		pool->wq = NULL;
		return -ENOMEM;
	}
	return 0;
}

void swt_io_destroy(struct swt_pool *pool)
{
	if (pool->trim_wq) {
		spin_lock_irq(&pool->lock);
		pool->trim_stopped = true;
		spin_unlock_irq(&pool->lock);
		cancel_work_sync(&pool->trim_work);
		destroy_workqueue(pool->trim_wq);
		pool->trim_wq = NULL;
	}
	if (pool->wq) {
		cancel_delayed_work_sync(&pool->batch_work);
		destroy_workqueue(pool->wq);
		pool->wq = NULL;
	}
}

/*
 * Let the worker finish its run, and stop the trim worker, which would
 * otherwise go on issuing discards by queueing itself again.
 */
void swt_io_suspend(struct swt_pool *pool)
{
	spin_lock_irq(&pool->lock);
	pool->trim_stopped = true;
	spin_unlock_irq(&pool->lock);
	flush_work(&pool->worker);
	cancel_work_sync(&pool->trim_work);
}

void swt_io_resume(struct swt_pool *pool)
{
	spin_lock_irq(&pool->lock);
	pool->trim_stopped = false;
	spin_unlock_irq(&pool->lock);
	swt_io_trim_kick(pool);
}
