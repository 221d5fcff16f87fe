// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-swaptier: a device-mapper target for swap over tiered devices.
 *
 * Swap writes logical 4 KiB blocks; the target maps each one to a physical
 * block on one of several tier devices (fastest first) and chooses that
 * block only when the write is submitted, from a per-CPU open extent on the
 * fastest tier with room. Consecutive writes therefore land next to each
 * other and merge below us, whatever swap slots they came from.
 *
 * The map is volatile, like swap itself: it lives in memory only, and is
 * shared by the old and new table of a reload with the same tiers.
 *
 * See Documentation/admin-guide/device-mapper/dm-swaptier.rst.
 */
#include "dm-swaptier-compat.h"
#include "dm-swaptier-map.h"
#include "dm-swaptier-policy.h"

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/device-mapper.h>
#include <linux/dm-kcopyd.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#define DM_MSG_PREFIX "swaptier"

/* Queue the worker once this many freed blocks wait to be reclaimed. */
#define SWT_RECLAIM_KICK	256U
#define SWT_RECLAIM_BATCH	1024U
/* Largest discard issued to a tier in one go (passdown), in blocks. */
#define SWT_TRIM_MAX		4096U
/* Discards issued per worker run, so that deferred writes never wait long. */
#define SWT_TRIM_BATCH		16U
/* Blocks looked up under the lock at a time by the map message. */
#define SWT_MSG_CHUNK		4096U
/* Copies between tiers in flight at most (each up to 64 blocks). */
#define SWT_MIG_SLOTS		16U
/* Blocks the planner looks at per lock hold, and per worker run. */
#define SWT_PLAN_BUDGET		4096U
#define SWT_PLAN_RUN_BUDGET	(16U * SWT_PLAN_BUDGET)
/* Heats halved per lock hold while aging. */
#define SWT_AGE_CHUNK		16384U

enum swt_pool_flags {
	SWT_POOL_FAILED,	/* an internal inconsistency was found */
};

struct swt_pool_stats {
	u64 zero_reads;		/* reads of unmapped blocks, served as zeros */
	u64 discards;		/* discard and write-zeroes bios */
	u64 discarded;		/* blocks they unmapped */
	u64 deferred;		/* writes that waited for a free block */
	u64 batches;		/* batches of gathered writes placed */
	u64 batched;		/* writes in them */
	u64 trims;		/* discards passed down to tiers */
	u64 mig_copies[SWT_MIG_KINDS];	/* copies done, by kind */
	u64 mig_blocks[SWT_MIG_KINDS];	/* blocks they moved */
	u64 mig_errors;		/* copies a tier failed */
	u64 agings;		/* times every heat was halved */
};

struct swt_pool;

/* A gathered write, sorted by logical block before it is placed. */
struct swt_batch_ent {
	u32 lblk;
	struct bio *bio;
};

/* One copy between tiers, in flight or free. */
struct swt_mig {
	struct swt_pool *pool;
	struct swt_plan plan;
	unsigned int ticket;	/* read ticket: sources are not reused */
};

/*
 * The in-core state of one dm-swaptier device: shared by the tables of
 * that device which name the same tiers, so that a reload keeps the map.
 * A device has one current pool, on swt_pools. A table loaded over other
 * tiers or another length gets a pool of its own, which becomes the
 * current one only at that table's preresume, and only if the current
 * one maps nothing then (see swt_pool_bind()).
 */
struct swt_pool {
	struct list_head list;		/* on swt_pools while current */
	struct mapped_device *md;
	unsigned int ref;		/* tables using it, under swt_pools_lock */
	unsigned int nr_tiers;
	dev_t tier_dev[SWT_MAX_TIERS];
	struct block_device *bdev[SWT_MAX_TIERS];

	spinlock_t lock;		/* protects everything below */
	struct swt_map map;
	struct bio_list deferred;	/* writes waiting for a free block */
	struct bio_list batch;		/* writes gathered for the batch worker */
	u32 batch_count;		/* bios on it */
	struct swt_pool_stats st;
	unsigned long flags;

	struct workqueue_struct *wq;
	struct work_struct worker;
	struct delayed_work batch_work;
	/*
	 * Discards passed down to the tiers are synchronous: they run on a
	 * queue of their own, so that no swap-out waits behind one.
	 */
	struct workqueue_struct *trim_wq;
	struct work_struct trim_work;
	bool trim_stopped;		/* suspended: issue no discard */
	struct swt_batch_ent bvec[SWT_BATCH_MAX];	/* the batch worker's */

	/* Migration, under lock unless noted. */
	struct swt_policy pol;
	struct swt_planner plan;
	unsigned long mig_busy;		/* bit per slot in use */
	u32 mig_inflight;		/* blocks being copied */
	bool mig_stopped;		/* suspended: start no copy */
	bool mig_kicked;		/* a write queued the worker */
	unsigned long last_io;		/* jiffies of the last user I/O */
	unsigned long next_age;		/* jiffies of the next aging */
	u32 age_cursor;			/* aging in progress: next block */
	wait_queue_head_t mig_wait;	/* copies finishing */
	struct dm_kcopyd_client *kc;
	struct workqueue_struct *mig_wq;
	struct delayed_work mig_work;
	struct swt_mig mig[SWT_MIG_SLOTS];
};

/* One table's instance: its devices and its options. */
struct swt_target {
	struct list_head list;		/* on swt_targets */
	struct dm_target *ti;
	struct swt_pool *pool;
	/*
	 * The device's current pool, when this table brought a pool of its
	 * own: kept until this table's preresume, so that a refused resume
	 * loses nothing (the previous table can be loaded again).
	 */
	struct swt_pool *prev;
	unsigned int nr_tiers;
	struct dm_dev *dev[SWT_MAX_TIERS];
	u64 tier_size[SWT_MAX_TIERS];	/* the whole device, in blocks */
	u32 tier_blocks[SWT_MAX_TIERS];	/* the part the map uses */
	u32 reserve;			/* given, or the default */
	bool discard_passdown;
	u32 frontier_blocks;		/* 0: not given */
	u32 reserve_blocks;		/* 0: not given */
	u32 knob[SWT_NR_KNOBS];		/* given, set, or the default */
	unsigned long knob_given;	/* bit per knob in the table line */
	unsigned long replace;		/* evacuated tiers this table replaces */
};

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
};

/* Protects swt_pools, swt_targets, and every pool's ref and list. */
static DEFINE_MUTEX(swt_pools_lock);
static LIST_HEAD(swt_pools);
static LIST_HEAD(swt_targets);

/*----------------------------------------------------------------*/

/*
 * ti->error must outlive the constructor, so formatted errors go into a
 * small ring of static buffers. The last byte of each is never written, so
 * a reader always finds a terminator even if a slot is reused under it.
 */
#define SWT_ERR_SLOTS	8
#define SWT_ERR_LEN	160
static char swt_err_buf[SWT_ERR_SLOTS][SWT_ERR_LEN];
static atomic_t swt_err_next = ATOMIC_INIT(0);

static __printf(2, 3) void swt_ctr_error(struct dm_target *ti,
					 const char *fmt, ...)
{
	unsigned int i = (unsigned int)atomic_inc_return(&swt_err_next) %
			 SWT_ERR_SLOTS;
	va_list args;

	va_start(args, fmt);
	vsnprintf(swt_err_buf[i], SWT_ERR_LEN - 1, fmt, args);
	va_end(args);
	ti->error = swt_err_buf[i];
}

/*----------------------------------------------------------------*/

static bool __swt_kick_needed(struct swt_pool *pool)
{
	return !bio_list_empty(&pool->deferred) || pool->map.trim.count ||
	       pool->map.ready.count >= SWT_RECLAIM_KICK;
}

static void swt_remap(struct swt_pool *pool, struct bio *bio,
		      unsigned int tier, swt_pblk_t pblk)
{
	bio_set_dev(bio, pool->bdev[tier]);
	bio->bi_iter.bi_sector =
		(sector_t)swt_map_tier_offset(&pool->map, pblk) * SWT_BLOCK_SECTORS;
}

static swt_lblk_t swt_bio_lblk(struct dm_target *ti, struct bio *bio)
{
	return to_lblk(dm_target_offset(ti, bio->bi_iter.bi_sector) /
		       SWT_BLOCK_SECTORS);
}

static int swt_map_read(struct swt_target *st, struct bio *bio,
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
		pool->map.tier[e.tier].st.reads++;
		pool->pol.ops->hit(&pool->pol, from_lblk(sb->lblk), e.len);
	} else {
		pool->st.zero_reads++;
	}
	spin_unlock_irqrestore(&pool->lock, flags);

	if (e.len < nr)
		dm_accept_partial_bio(bio, e.len * SWT_BLOCK_SECTORS);
	if (e.pblk == SWT_NO_PBLK) {
		zero_fill_bio(bio);
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}
	swt_remap(pool, bio, e.tier, e.pblk);
	return DM_MAPIO_REMAPPED;
}

static void swt_start_write(struct swt_bio *sb, const struct swt_alloc *a)
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
static bool swt_batch_add(struct swt_pool *pool, struct bio *bio,
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

static int swt_map_write(struct swt_target *st, struct bio *bio,
			 struct swt_bio *sb)
{
	struct swt_pool *pool = st->pool;
	u32 nr = bio_sectors(bio) / SWT_BLOCK_SECTORS;
	struct swt_alloc a;
	unsigned long flags;

	if (swt_batch_add(pool, bio, sb))
		return DM_MAPIO_SUBMITTED;

	spin_lock_irqsave(&pool->lock, flags);
	if (likely(bio_list_empty(&pool->deferred)) &&
	    swt_map_alloc(&pool->map, smp_processor_id(), nr, &a)) {
		swt_start_write(sb, &a);
		spin_unlock_irqrestore(&pool->lock, flags);
		if (a.len < nr)
			dm_accept_partial_bio(bio, a.len * SWT_BLOCK_SECTORS);
		swt_remap(pool, bio, a.tier, a.pblk);
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
	pool->st.deferred++;
	spin_unlock_irqrestore(&pool->lock, flags);
	queue_work(pool->wq, &pool->worker);
	return DM_MAPIO_SUBMITTED;
}

/* Discard and write zeroes: unmapped blocks read as zeros. */
static int swt_map_discard(struct swt_target *st, struct bio *bio,
			   struct swt_bio *sb)
{
	struct swt_pool *pool = st->pool;
	u32 l = from_lblk(sb->lblk);
	u32 left = bio_sectors(bio) / SWT_BLOCK_SECTORS;
	unsigned long flags;
	bool kick;
	u32 n;

	spin_lock_irqsave(&pool->lock, flags);
	pool->st.discards++;
	pool->st.discarded += left;
	/*
	 * A discard of the whole device (swapon --discard) must not keep
	 * interrupts off throughout: drop the lock between chunks.
	 */
	while (left) {
		n = min(left, SWT_MSG_CHUNK);
		swt_map_unmap(&pool->map, to_lblk(l), n);
		pool->pol.ops->clear(&pool->pol, l, n);
		l += n;
		left -= n;
		if (left) {
			spin_unlock_irqrestore(&pool->lock, flags);
			spin_lock_irqsave(&pool->lock, flags);
		}
	}
	kick = __swt_kick_needed(pool);
	spin_unlock_irqrestore(&pool->lock, flags);
	if (kick)
		queue_work(pool->wq, &pool->worker);
	bio_endio(bio);
	return DM_MAPIO_SUBMITTED;
}

/*
 * Promotions wait until user I/O has been idle for a while. Store the time
 * only when it changed, so that CPUs do not bounce the line on every bio.
 */
static void swt_note_io(struct swt_pool *pool)
{
	unsigned long now = jiffies;

	if (time_after(now, READ_ONCE(pool->last_io)))
		WRITE_ONCE(pool->last_io, now);
}

static int swt_map_bio(struct dm_target *ti, struct bio *bio)
{
	struct swt_target *st = ti->private;
	struct swt_bio *sb = dm_per_bio_data(bio, sizeof(*sb));

	sb->kind = SWT_BIO_OTHER;
	if (unlikely(test_bit(SWT_POOL_FAILED, &st->pool->flags)))
		return DM_MAPIO_KILL;

	if (bio->bi_opf & REQ_PREFLUSH) {
		/* dm core sends one empty flush per tier (num_flush_bios) */
		bio_set_dev(bio, st->dev[dm_bio_get_target_bio_nr(bio)]->bdev);
		return DM_MAPIO_REMAPPED;
	}

	sb->lblk = swt_bio_lblk(ti, bio);
	if (unlikely((bio->bi_iter.bi_sector | bio_sectors(bio)) &
		     (SWT_BLOCK_SECTORS - 1))) {
		DMERR_LIMIT("I/O not aligned to 4 KiB blocks");
		return DM_MAPIO_KILL;
	}
	if (!bio_sectors(bio)) {
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}

	swt_note_io(st->pool);

	switch (bio_op(bio)) {
	case REQ_OP_READ:
		return swt_map_read(st, bio, sb);
	case REQ_OP_WRITE:
		return swt_map_write(st, bio, sb);
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		return swt_map_discard(st, bio, sb);
	default:
		return DM_MAPIO_KILL;
	}
}

static int swt_end_io(struct dm_target *ti, struct bio *bio,
		      blk_status_t *error)
{
	struct swt_target *st = ti->private;
	struct swt_pool *pool = st->pool;
	struct swt_bio *sb = dm_per_bio_data(bio, sizeof(*sb));
	struct swt_tier_stats *ts;
	unsigned long flags;
	bool kick, plan = false;

	if (sb->kind == SWT_BIO_OTHER)
		return DM_ENDIO_DONE;

	spin_lock_irqsave(&pool->lock, flags);
	ts = &pool->map.tier[sb->tier].st;
	if (sb->kind == SWT_BIO_READ) {
		swt_map_read_end(&pool->map, sb->ticket);
	} else if (*error) {
		/* the block keeps its previous mapping */
		swt_map_abort(&pool->map, sb->pblk, sb->len);
	} else {
		swt_map_commit(&pool->map, sb->lblk, sb->pblk, sb->len);
		pool->pol.ops->fill(&pool->pol, from_lblk(sb->lblk), sb->len);
		ts->writes++;
		plan = !pool->mig_kicked && !pool->mig_stopped &&
		       swt_plan_wanted(&pool->plan, &pool->map, sb->tier);
		if (plan)
			pool->mig_kicked = true;
	}
	if (*error)
		ts->errors++;
	kick = __swt_kick_needed(pool);
	spin_unlock_irqrestore(&pool->lock, flags);

	/* The tier fell below its low watermark: start demoting now. */
	if (plan)
		mod_delayed_work(pool->mig_wq, &pool->mig_work, 0);

	if (*error)
		DMERR_LIMIT("tier %u: %s error %d at block %u", sb->tier,
			    sb->kind == SWT_BIO_READ ? "read" : "write",
			    blk_status_to_errno(*error),
			    swt_map_tier_offset(&pool->map, sb->pblk));
	if (kick)
		queue_work(pool->wq, &pool->worker);
	return DM_ENDIO_DONE;
}

/*----------------------------------------------------------------*/

/* Give the ready chain back to the tiers, a batch at a time. */
static void swt_do_reclaim(struct swt_pool *pool)
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
static void swt_trim_kick(struct swt_pool *pool)
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
static void swt_trim_worker(struct work_struct *work)
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
			pool->st.trims++;
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
	swt_trim_kick(pool);
}

/* Writes that found no free block: place them now, in arrival order. */
static void swt_do_deferred(struct swt_pool *pool)
{
	struct swt_bio *sb;
	struct swt_alloc a;
	struct bio *bio;

	for (;;) {
		spin_lock_irq(&pool->lock);
		bio = bio_list_peek(&pool->deferred);
		if (!bio || !swt_map_alloc(&pool->map, smp_processor_id(), 1,
					   &a)) {
			spin_unlock_irq(&pool->lock);
			return;
		}
		bio_list_pop(&pool->deferred);
		sb = dm_per_bio_data(bio, sizeof(*sb));
		swt_start_write(sb, &a);
		spin_unlock_irq(&pool->lock);

		swt_remap(pool, bio, a.tier, a.pblk);
		dm_submit_bio_remap(bio, NULL);
	}
}

static int swt_batch_cmp(const void *a, const void *b)
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
static bool __swt_batch_place(struct swt_pool *pool, struct swt_batch_ent *v,
			      unsigned int n)
{
	unsigned int i = 0, j, len;
	struct swt_bio *sb;
	struct swt_alloc a;

	pool->st.batches++;
	pool->st.batched += n;
	while (i < n) {
		if (!bio_list_empty(&pool->deferred) ||
		    !swt_map_alloc(&pool->map, smp_processor_id(), n - i, &a))
			break;
		/* one block per bio: each completes on its own */
		len = a.len;
		a.len = 1;
		for (j = 0; j < len; j++, i++) {
			sb = dm_per_bio_data(v[i].bio, sizeof(*sb));
			swt_start_write(sb, &a);
			a.pblk = to_pblk(from_pblk(a.pblk) + 1);
		}
	}
	if (i == n)
		return false;
	for (; i < n; i++) {
		bio_list_add(&pool->deferred, v[i].bio);
		pool->st.deferred++;
		v[i].bio = NULL;
	}
	return true;
}

static void swt_batch_worker(struct work_struct *work)
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

		sort(v, n, sizeof(*v), swt_batch_cmp, NULL);
		spin_lock_irq(&pool->lock);
		kick |= __swt_batch_place(pool, v, n);
		left = pool->batch_count;
		spin_unlock_irq(&pool->lock);

		blk_start_plug(&plug);
		for (i = 0; i < n; i++) {
			bio = v[i].bio;
			if (!bio)
				continue;
			sb = dm_per_bio_data(bio, sizeof(*sb));
			swt_remap(pool, bio, sb->tier, sb->pblk);
			dm_submit_bio_remap(bio, NULL);
		}
		blk_finish_plug(&plug);
		/* a short tail waits for its own jiffy, to gather more */
	} while (left >= max);
	if (left)
		queue_delayed_work(pool->wq, &pool->batch_work, 1);
	if (kick)
		queue_work(pool->wq, &pool->worker);
}

static void swt_worker(struct work_struct *work)
{
	struct swt_pool *pool = container_of(work, struct swt_pool, worker);

	/* Writes first: swap may be waiting on them to free memory. */
	swt_do_deferred(pool);
	swt_do_reclaim(pool);
	swt_do_deferred(pool);
	swt_trim_kick(pool);
}

/*----------------------------------------------------------------*/

/*
 * Migration. The worker plans copies under the lock and hands them to
 * kcopyd; the completion publishes them with swt_map_move(), which keeps
 * whatever a racing write or discard did. Each copy holds a read ticket
 * from before it looked at the map until it is published, so a source
 * block freed meanwhile is not reused under the copy.
 */

static void swt_mig_done(int read_err, unsigned long write_err, void *context)
{
	struct swt_mig *mig = context;
	struct swt_pool *pool = mig->pool;
	struct swt_plan *plan = &mig->plan;
	unsigned int from = plan->from, to = plan->to;
	u32 len = plan->len, moved = 0;
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&pool->lock, flags);
	if (read_err || write_err) {
		swt_map_abort(&pool->map, plan->dst, plan->len);
		pool->st.mig_errors++;
		if (read_err)
			pool->map.tier[plan->from].st.errors++;
		if (write_err)
			pool->map.tier[plan->to].st.errors++;
	} else {
		moved = swt_map_move(&pool->map, plan->lblk, plan->src,
				     plan->dst, plan->len);
		pool->st.mig_copies[plan->kind]++;
		pool->st.mig_blocks[plan->kind] += moved;
	}
	swt_map_read_end(&pool->map, mig->ticket);
	kick = __swt_kick_needed(pool);
	if (!pool->mig_stopped)
		mod_delayed_work(pool->mig_wq, &pool->mig_work, 0);
	if (kick)
		queue_work(pool->wq, &pool->worker);
	/*
	 * Last, and under the lock: once its bit is clear the worker may
	 * start the next copy in this slot, overwriting the plan.
	 */
	pool->mig_inflight -= len;
	clear_bit(mig - pool->mig, &pool->mig_busy);
	wake_up(&pool->mig_wait);
	spin_unlock_irqrestore(&pool->lock, flags);

	/* the slot may carry another plan by now: use the copies above */
	if (read_err || write_err)
		DMERR_LIMIT("migration of %u blocks from tier %u to %u failed",
			    len, from, to);
}

static bool swt_mig_idle(struct swt_pool *pool)
{
	bool idle;

	spin_lock_irq(&pool->lock);
	idle = !pool->mig_busy;
	spin_unlock_irq(&pool->lock);
	return idle;
}

static void swt_mig_start(struct swt_pool *pool, struct swt_mig *mig)
{
	struct swt_plan *plan = &mig->plan;
	struct dm_io_region from = {
		.bdev = pool->bdev[plan->from],
		.sector = (sector_t)swt_map_tier_offset(&pool->map, plan->src) *
			  SWT_BLOCK_SECTORS,
		.count = (sector_t)plan->len * SWT_BLOCK_SECTORS,
	};
	struct dm_io_region to = {
		.bdev = pool->bdev[plan->to],
		.sector = (sector_t)swt_map_tier_offset(&pool->map, plan->dst) *
			  SWT_BLOCK_SECTORS,
		.count = from.count,
	};

	dm_kcopyd_copy(pool->kc, &from, 1, &to, 0, swt_mig_done, mig);
}

/* Halve every heat once per heat_period, a chunk per lock hold. */
static void swt_do_aging(struct swt_pool *pool)
{
	struct swt_policy *pol = &pool->pol;
	u32 n;

	if (time_before(jiffies, READ_ONCE(pool->next_age)))
		return;
	while (pool->age_cursor < pol->nr_logical) {
		spin_lock_irq(&pool->lock);
		n = min(pol->nr_logical - pool->age_cursor, SWT_AGE_CHUNK);
		pol->ops->age(pol, pool->age_cursor, n);
		pool->age_cursor += n;
		spin_unlock_irq(&pool->lock);
		cond_resched();
	}
	spin_lock_irq(&pool->lock);
	pool->age_cursor = 0;
	pool->st.agings++;
	swt_plan_aged(&pool->plan);
	WRITE_ONCE(pool->next_age, jiffies +
		   msecs_to_jiffies(pool->plan.knob[SWT_K_HEAT_PERIOD]));
	spin_unlock_irq(&pool->lock);
}

static void swt_mig_worker(struct work_struct *work)
{
	struct swt_pool *pool = container_of(to_delayed_work(work),
					     struct swt_pool, mig_work);
	enum swt_plan_result r = SWT_PLAN_NOTHING;
	unsigned long delay = HZ;
	u32 scanned = 0, len;
	struct swt_mig *mig;
	unsigned int slot;
	bool idle;

	if (READ_ONCE(pool->mig_stopped))
		return;
	swt_do_aging(pool);

	while (scanned < SWT_PLAN_RUN_BUDGET) {
		spin_lock_irq(&pool->lock);
		pool->mig_kicked = false;
		slot = ffz(pool->mig_busy);
		len = swt_plan_inflight_cap(&pool->plan, &pool->map);
		len = min(SWT_MIG_MAX_BLOCKS,
			  len - min(len, pool->mig_inflight));
		if (pool->mig_stopped || slot >= SWT_MIG_SLOTS || !len) {
			/* a completion queues us again */
			spin_unlock_irq(&pool->lock);
			return;
		}
		mig = &pool->mig[slot];
		idle = time_after(jiffies, READ_ONCE(pool->last_io) +
				  msecs_to_jiffies(pool->plan.knob[SWT_K_MIG_IDLE]));
		mig->ticket = swt_map_read_begin(&pool->map);
		r = swt_plan_next(&pool->plan, &pool->map, &pool->pol, idle,
				  len, SWT_PLAN_BUDGET, &mig->plan);
		if (r != SWT_PLAN_MOVE) {
			swt_map_read_end(&pool->map, mig->ticket);
			spin_unlock_irq(&pool->lock);
			if (r != SWT_PLAN_SCANNING)
				break;
			scanned += SWT_PLAN_BUDGET;
			cond_resched();
			continue;
		}
		set_bit(slot, &pool->mig_busy);
		pool->mig_inflight += mig->plan.len;
		spin_unlock_irq(&pool->lock);
		swt_mig_start(pool, mig);
	}

	if (r == SWT_PLAN_SCANNING)
		delay = 1;
	else if (r == SWT_PLAN_WAIT_IDLE)
		delay = msecs_to_jiffies(pool->plan.knob[SWT_K_MIG_IDLE]) + 1;
	delay = min(delay, msecs_to_jiffies(pool->plan.knob[SWT_K_HEAT_PERIOD]));
	queue_delayed_work(pool->mig_wq, &pool->mig_work, delay);
}

/* Stop starting copies and wait for those in flight (suspend, destroy). */
static void swt_mig_stop(struct swt_pool *pool)
{
	spin_lock_irq(&pool->lock);
	pool->mig_stopped = true;
	spin_unlock_irq(&pool->lock);
	cancel_delayed_work_sync(&pool->mig_work);
	wait_event(pool->mig_wait, swt_mig_idle(pool));
	/* a completion may have queued the worker before it saw the stop */
	cancel_delayed_work_sync(&pool->mig_work);
}

static void swt_mig_restart(struct swt_pool *pool)
{
	spin_lock_irq(&pool->lock);
	pool->mig_stopped = false;
	spin_unlock_irq(&pool->lock);
	mod_delayed_work(pool->mig_wq, &pool->mig_work, 0);
}

/*----------------------------------------------------------------*/

static void swt_pool_destroy(struct swt_pool *pool)
{
	if (pool->mig_wq) {
		swt_mig_stop(pool);
		destroy_workqueue(pool->mig_wq);
	}
	if (!IS_ERR_OR_NULL(pool->kc))
		dm_kcopyd_client_destroy(pool->kc);
	if (pool->trim_wq) {
		spin_lock_irq(&pool->lock);
		pool->trim_stopped = true;
		spin_unlock_irq(&pool->lock);
		cancel_work_sync(&pool->trim_work);
		destroy_workqueue(pool->trim_wq);
	}
	if (pool->wq) {
		cancel_delayed_work_sync(&pool->batch_work);
		destroy_workqueue(pool->wq);
	}
	swt_policy_destroy(&pool->pol);
	swt_map_destroy(&pool->map);
	kvfree(pool);
}

static struct swt_pool *swt_pool_create(struct dm_target *ti,
					struct swt_target *st, u32 nr_logical,
					u32 reserve)
{
	struct swt_pool *pool;
	unsigned int t;
	int r;

	pool = kvzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool) {
		ti->error = "Cannot allocate the pool";
		return ERR_PTR(-ENOMEM);
	}
	INIT_LIST_HEAD(&pool->list);
	spin_lock_init(&pool->lock);
	bio_list_init(&pool->deferred);
	bio_list_init(&pool->batch);
	INIT_WORK(&pool->worker, swt_worker);
	INIT_DELAYED_WORK(&pool->batch_work, swt_batch_worker);
	INIT_WORK(&pool->trim_work, swt_trim_worker);
	INIT_DELAYED_WORK(&pool->mig_work, swt_mig_worker);
	init_waitqueue_head(&pool->mig_wait);
	swt_planner_init(&pool->plan);
	pool->mig_stopped = true;	/* until the first resume */
	pool->trim_stopped = true;
	for (t = 0; t < SWT_MIG_SLOTS; t++)
		pool->mig[t].pool = pool;
	pool->md = dm_table_get_md(ti->table);
	pool->nr_tiers = st->nr_tiers;
	for (t = 0; t < st->nr_tiers; t++) {
		pool->tier_dev[t] = st->dev[t]->bdev->bd_dev;
		pool->bdev[t] = st->dev[t]->bdev;
	}

	r = swt_map_create(&pool->map, nr_logical, st->nr_tiers,
			   st->tier_blocks, reserve, nr_cpu_ids,
			   st->frontier_blocks ?: SWT_FRONTIER_DEFAULT);
	if (r) {
		ti->error = "Cannot allocate the block map";
		goto bad;
	}
	r = swt_policy_create(&pool->pol, NULL, nr_logical);
	if (r) {
		ti->error = "Cannot allocate the heat map";
		goto bad;
	}
	pool->wq = alloc_workqueue("dm-" DM_MSG_PREFIX, WQ_MEM_RECLAIM, 0);
	pool->mig_wq = alloc_workqueue("dm-" DM_MSG_PREFIX "-mig",
				       WQ_MEM_RECLAIM, 0);
	pool->trim_wq = alloc_workqueue("dm-" DM_MSG_PREFIX "-trim",
					WQ_MEM_RECLAIM, 0);
	if (!pool->wq || !pool->mig_wq || !pool->trim_wq) {
		ti->error = "Cannot allocate the workqueues";
		r = -ENOMEM;
		goto bad;
	}
	pool->kc = dm_kcopyd_client_create(NULL);
	if (IS_ERR(pool->kc)) {
		ti->error = "Cannot create the kcopyd client";
		r = PTR_ERR(pool->kc);
		goto bad;
	}
	pool->ref = 1;
	return pool;

bad:
	swt_pool_destroy(pool);
	return ERR_PTR(r);
}

/* An evacuated tier: empty, and taking no new blocks. */
static bool __swt_tier_evacuated(struct swt_pool *pool, unsigned int t)
{
	return pool->plan.evacuate == (int)t && !pool->map.tier[t].nr_mapped;
}

/*
 * Can @st use @pool's map? The length must be the same, and each tier the
 * same device, or another device in place of an evacuated tier; either at
 * least as large as the part of the tier the map uses (which stays what it
 * is, even if the device grew or was replaced by a larger one). Sets
 * *@replace to the tiers so replaced; changes nothing else.
 */
static bool swt_pool_fits(struct swt_pool *pool, struct swt_target *st,
			  u32 nr_logical, unsigned long *replace)
{
	unsigned int t;
	bool ok;

	*replace = 0;
	if (pool->nr_tiers != st->nr_tiers)
		return false;
	spin_lock_irq(&pool->lock);
	ok = pool->map.nr_logical == nr_logical;
	for (t = 0; t < st->nr_tiers && ok; t++) {
		if (st->tier_size[t] < pool->map.tier[t].nr_blocks)
			ok = false;
		else if (pool->tier_dev[t] == st->dev[t]->bdev->bd_dev)
			continue;
		else if (__swt_tier_evacuated(pool, t))
			__set_bit(t, replace);
		else
			ok = false;
	}
	spin_unlock_irq(&pool->lock);
	return ok;
}

static struct swt_pool *__swt_pool_find(struct mapped_device *md)
{
	struct swt_pool *pool;

	lockdep_assert_held(&swt_pools_lock);
	list_for_each_entry(pool, &swt_pools, list)
		if (pool->md == md)
			return pool;
	return NULL;
}

/* Is another target of @ti's table a swaptier one? */
static bool __swt_table_has_target(struct dm_target *ti)
{
	struct swt_target *other;

	lockdep_assert_held(&swt_pools_lock);
	list_for_each_entry(other, &swt_targets, list)
		if (other->ti->table == ti->table)
			return true;
	return false;
}

/* Drop a table's reference; true if the caller must destroy the pool. */
static bool __swt_pool_unref(struct swt_pool *pool)
{
	lockdep_assert_held(&swt_pools_lock);
	if (--pool->ref)
		return false;
	list_del_init(&pool->list);
	return true;
}

static void swt_pool_put(struct swt_pool *pool)
{
	bool last;

	mutex_lock(&swt_pools_lock);
	last = __swt_pool_unref(pool);
	mutex_unlock(&swt_pools_lock);
	if (last)
		swt_pool_destroy(pool);
}

/*
 * <len> must fit in the tiers (the part of each that the map uses) less
 * the relocation reserve. Sets st->reserve.
 */
static int swt_check_room(struct dm_target *ti, struct swt_target *st,
			  u32 nr_logical)
{
	u64 total = 0, max;
	unsigned int t;

	for (t = 0; t < st->nr_tiers; t++)
		total += st->tier_blocks[t];
	if (total > SWT_MAX_BLOCKS) {
		ti->error = "Tiers hold more than 2^31 blocks";
		return -EINVAL;
	}
	st->reserve = st->reserve_blocks ?: swt_map_default_reserve(total);
	max = total > st->reserve ? total - st->reserve : 0;
	if (nr_logical > max) {
		swt_ctr_error(ti, "Length %llu exceeds the maximum %llu sectors (reserve %u)",
			      (unsigned long long)ti->len,
			      (unsigned long long)max * SWT_BLOCK_SECTORS,
			      st->reserve);
		return -EINVAL;
	}
	return 0;
}

/*
 * Hold @cur, the device's current pool, for a table that brings a pool of
 * its own: only while @cur maps nothing. Returns 0 or -EBUSY.
 */
static int __swt_pool_pin(struct dm_target *ti, struct swt_pool *cur)
{
	u32 mapped;

	lockdep_assert_held(&swt_pools_lock);
	spin_lock_irq(&cur->lock);
	mapped = cur->map.nr_mapped;
	spin_unlock_irq(&cur->lock);
	if (mapped) {
		swt_ctr_error(ti, "Cannot change tiers or length: %u blocks mapped",
			      mapped);
		return -EBUSY;
	}
	cur->ref++;
	return 0;
}

/*
 * Find the pool of this device (a reload) or make a new one. A reload
 * with the same tiers and length shares the current pool, and so the map;
 * so does one that puts a new device in place of an evacuated tier. One
 * that changes them otherwise gets a new, empty pool: it is refused while
 * the current pool maps any block (swapoff and discard first), and checked
 * again at preresume, since the live table may write until then. The new
 * pool is built without swt_pools_lock held: its maps may be large, and
 * another device's resume takes that lock.
 */
static int swt_pool_bind(struct dm_target *ti, struct swt_target *st,
			 u32 nr_logical)
{
	struct mapped_device *md = dm_table_get_md(ti->table);
	struct swt_pool *pool, *cur, *drop = NULL;
	unsigned long replace;
	bool last = false;
	unsigned int t;
	int r;

	mutex_lock(&swt_pools_lock);
	if (__swt_table_has_target(ti)) {
		ti->error = "Only one swaptier target is allowed per device";
		r = -EINVAL;
		goto out;
	}
	swt_map_tiers_use(st->tier_size, st->nr_tiers, nr_logical,
			  st->tier_blocks);
	cur = __swt_pool_find(md);
	if (cur && swt_pool_fits(cur, st, nr_logical, &replace)) {
		for (t = 0; t < st->nr_tiers; t++)
			st->tier_blocks[t] = cur->map.tier[t].nr_blocks;
		r = swt_check_room(ti, st, nr_logical);
		if (r)
			goto out;
		st->replace = replace;
		cur->ref++;
		st->pool = cur;
		list_add(&st->list, &swt_targets);
		goto out;
	}
	r = swt_check_room(ti, st, nr_logical);
	if (!r && cur)
		r = __swt_pool_pin(ti, cur);
	mutex_unlock(&swt_pools_lock);
	if (r)
		return r;

	pool = swt_pool_create(ti, st, nr_logical, st->reserve);

	mutex_lock(&swt_pools_lock);
	if (!IS_ERR(pool) && __swt_pool_find(md) != cur) {
		/* a resume switched pools meanwhile: start again */
		ti->error = "The device changed during the table load";
		drop = pool;
		pool = ERR_PTR(-EAGAIN);
	}
	if (IS_ERR(pool)) {
		r = PTR_ERR(pool);
		if (cur)
			last = __swt_pool_unref(cur);
		goto out;
	}
	st->pool = pool;
	st->prev = cur;
	if (!cur)
		list_add(&pool->list, &swt_pools);
	list_add(&st->list, &swt_targets);
out:
	mutex_unlock(&swt_pools_lock);
	if (drop)
		swt_pool_destroy(drop);
	if (last)
		swt_pool_destroy(cur);
	return r;
}

/*
 * At preresume: a table that shares a pool needs it to be still the
 * device's current one (a resume in between may have replaced it); a
 * table that brought its own pool makes it current, unless the current
 * one mapped blocks after this table was loaded. The previous pool stays
 * alive, held by this table, until a table over its tiers is loaded
 * again. Returns 0 or -EBUSY.
 */
static int swt_pool_switch(struct dm_target *ti, struct swt_target *st)
{
	struct mapped_device *md = dm_table_get_md(ti->table);
	struct swt_pool *prev, *cur;
	bool last = false;
	u32 mapped = 0;

	mutex_lock(&swt_pools_lock);
	prev = st->prev;
	cur = __swt_pool_find(md);
	if (cur != (prev ?: st->pool)) {
		mutex_unlock(&swt_pools_lock);
		DMERR("%s: the device's map changed since this table was loaded; load it again",
		      dm_device_name(md));
		return -EBUSY;
	}
	if (!prev) {
		mutex_unlock(&swt_pools_lock);
		return 0;
	}
	spin_lock_irq(&prev->lock);
	mapped = prev->map.nr_mapped;
	spin_unlock_irq(&prev->lock);
	if (mapped) {
		mutex_unlock(&swt_pools_lock);
		DMERR("%s: cannot resume over other tiers or another length",
		      dm_device_name(md));
		DMERR("%s: %u blocks were written after the load; load the previous table again",
		      dm_device_name(md), mapped);
		return -EBUSY;
	}
	list_del_init(&prev->list);
	list_add(&st->pool->list, &swt_pools);
	st->prev = NULL;
	last = __swt_pool_unref(prev);
	mutex_unlock(&swt_pools_lock);
	if (last)
		swt_pool_destroy(prev);
	return 0;
}

/*----------------------------------------------------------------*/

static void swt_destroy(struct swt_target *st)
{
	unsigned int t;

	if (st->pool) {
		mutex_lock(&swt_pools_lock);
		list_del(&st->list);
		mutex_unlock(&swt_pools_lock);
		swt_pool_put(st->pool);
	}
	if (st->prev)
		swt_pool_put(st->prev);
	for (t = 0; t < st->nr_tiers; t++)
		if (st->dev[t])
			dm_put_device(st->ti, st->dev[t]);
	kfree(st);
}

static int swt_parse_tiers(struct dm_target *ti, struct swt_target *st,
			   struct dm_arg_set *as)
{
	static const struct dm_arg arg = {
		1, SWT_MAX_TIERS, "Invalid number of tiers: must be 1 to 8"
	};
	unsigned int nr, t, u;
	const char *path;
	sector_t sectors;
	int r;

	r = dm_read_arg(&arg, as, &nr, &ti->error);
	if (r)
		return r;
	if (as->argc < nr) {
		swt_ctr_error(ti, "Expected %u tier devices, got %u", nr,
			      as->argc);
		return -EINVAL;
	}
	for (t = 0; t < nr; t++) {
		path = dm_shift_arg(as);
		r = dm_get_device(ti, path, dm_table_get_mode(ti->table),
				  &st->dev[t]);
		if (r) {
			swt_ctr_error(ti, "Error opening tier device %.100s",
				      path);
			return r;
		}
		st->nr_tiers = t + 1;
		for (u = 0; u < t; u++) {
			if (st->dev[u]->bdev->bd_dev == st->dev[t]->bdev->bd_dev) {
				swt_ctr_error(ti, "Tier device %.100s is listed twice",
					      path);
				return -EINVAL;
			}
		}
		if (bdev_logical_block_size(st->dev[t]->bdev) > (1U << SWT_BLOCK_SHIFT)) {
			swt_ctr_error(ti, "Tier device %.100s has blocks larger than 4 KiB",
				      path);
			return -EINVAL;
		}
		/* any size: the map uses only what <len> can need of it */
		sectors = bdev_nr_sectors(st->dev[t]->bdev);
		if (sectors < SWT_BLOCK_SECTORS) {
			swt_ctr_error(ti, "Tier device %.100s: size %llu sectors is out of range",
				      path, (unsigned long long)sectors);
			return -EINVAL;
		}
		st->tier_size[t] = sectors / SWT_BLOCK_SECTORS;
	}
	return 0;
}

/* Read the value of option @name into @v, once. */
static int swt_parse_value(struct dm_target *ti, struct dm_arg_set *as,
			   unsigned int *left, const char *name,
			   const struct dm_arg *range, u32 *v)
{
	unsigned int val;

	if (*v) {
		swt_ctr_error(ti, "Optional argument %s given twice", name);
		return -EINVAL;
	}
	if (!*left) {
		swt_ctr_error(ti, "Optional argument %s needs a value", name);
		return -EINVAL;
	}
	(*left)--;
	if (dm_read_arg(range, as, &val, &ti->error))
		return -EINVAL;
	*v = val;
	return 0;
}

/* A migration knob: "<name> <value>", once. */
static int swt_parse_knob(struct dm_target *ti, struct swt_target *st,
			  struct dm_arg_set *as, unsigned int *left,
			  unsigned int k)
{
	const struct swt_knob_desc *d = &swt_knobs[k];

	if (test_bit(k, &st->knob_given)) {
		swt_ctr_error(ti, "Optional argument %s given twice", d->name);
		return -EINVAL;
	}
	if (!*left) {
		swt_ctr_error(ti, "Optional argument %s needs a value", d->name);
		return -EINVAL;
	}
	(*left)--;
	if (swt_knob_parse(k, dm_shift_arg(as), &st->knob[k])) {
		if (d->onoff)
			swt_ctr_error(ti, "Invalid %s: must be on or off", d->name);
		else
			swt_ctr_error(ti, "Invalid %s: must be %u to %u", d->name,
				      d->min, d->max);
		return -EINVAL;
	}
	__set_bit(k, &st->knob_given);
	return 0;
}

static int swt_parse_options(struct dm_target *ti, struct swt_target *st,
			     struct dm_arg_set *as)
{
	static const struct dm_arg group = {
		0, 32, "Invalid number of optional arguments"
	};
	static const struct dm_arg frontier = {
		SWT_FRONTIER_MIN, SWT_FRONTIER_MAX,
		"Invalid frontier_blocks: must be 8 to 65536"
	};
	static const struct dm_arg reserve = {
		SWT_RESERVE_MIN, SWT_MAX_BLOCKS,
		"Invalid reserve_blocks: must be at least 16"
	};
	unsigned int left, k;
	const char *name, *why;
	int r;

	for (k = 0; k < SWT_NR_KNOBS; k++)
		st->knob[k] = swt_knobs[k].def;
	if (!as->argc)
		return 0;
	r = dm_read_arg_group(&group, as, &left, &ti->error);
	if (r)
		return r;
	while (left) {
		name = dm_shift_arg(as);
		left--;
		if (!strcasecmp(name, "discard_passdown")) {
			if (st->discard_passdown) {
				ti->error = "Optional argument discard_passdown given twice";
				return -EINVAL;
			}
			st->discard_passdown = true;
		} else if (!strcasecmp(name, "frontier_blocks")) {
			r = swt_parse_value(ti, as, &left, "frontier_blocks",
					    &frontier, &st->frontier_blocks);
		} else if (!strcasecmp(name, "reserve_blocks")) {
			r = swt_parse_value(ti, as, &left, "reserve_blocks",
					    &reserve, &st->reserve_blocks);
		} else if (swt_knob_find(name) >= 0) {
			r = swt_parse_knob(ti, st, as, &left, swt_knob_find(name));
		} else {
			swt_ctr_error(ti, "Unknown optional argument %.60s", name);
			return -EINVAL;
		}
		if (r)
			return r;
	}
	if (as->argc) {
		swt_ctr_error(ti, "Unexpected argument %.60s after the optional arguments",
			      dm_shift_arg(as));
		return -EINVAL;
	}
	why = swt_knobs_conflict(st->knob);
	if (why) {
		swt_ctr_error(ti, "Invalid optional arguments: %s", why);
		return -EINVAL;
	}
	return 0;
}

/* <len>: whole blocks, and no more than the map can address. */
static int swt_check_length(struct dm_target *ti, u32 *nr_logical)
{
	if (!ti->len || ti->len % SWT_BLOCK_SECTORS) {
		ti->error = "Device length must be a positive multiple of 8 sectors";
		return -EINVAL;
	}
	if (ti->len / SWT_BLOCK_SECTORS > SWT_MAX_BLOCKS) {
		swt_ctr_error(ti, "Length %llu exceeds the maximum %llu sectors",
			      (unsigned long long)ti->len,
			      (unsigned long long)SWT_MAX_BLOCKS * SWT_BLOCK_SECTORS);
		return -EINVAL;
	}
	*nr_logical = ti->len / SWT_BLOCK_SECTORS;
	return 0;
}

/*
 * <#tiers> <tier_dev>... [<#opt_args> <opt_arg>...]
 */
static int swt_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct dm_arg_set as = { .argc = argc, .argv = argv };
	struct swt_target *st;
	u32 nr_logical;
	int r;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st) {
		ti->error = "Cannot allocate the target";
		return -ENOMEM;
	}
	st->ti = ti;

	r = swt_parse_tiers(ti, st, &as);
	if (r)
		goto bad;
	r = swt_parse_options(ti, st, &as);
	if (r)
		goto bad;
	r = swt_check_length(ti, &nr_logical);
	if (r)
		goto bad;
	r = swt_pool_bind(ti, st, nr_logical);
	if (r)
		goto bad;

	ti->num_flush_bios = st->nr_tiers;
	ti->num_discard_bios = 1;
	ti->num_write_zeroes_bios = 1;
	ti->discards_supported = true;
	ti->per_io_data_size = sizeof(struct swt_bio);
	ti->accounts_remapped_io = true;
	ti->private = st;
	return 0;

bad:
	swt_destroy(st);
	return r;
}

static void swt_dtr(struct dm_target *ti)
{
	swt_destroy(ti->private);
}

/*----------------------------------------------------------------*/

/*
 * The last point where this table can refuse to go live; the device stays
 * suspended if it does, and the map is kept, so loading the previous table
 * again and resuming loses nothing. A table with a pool of its own needs
 * the current pool empty; a tier this table replaces must still be empty
 * (its evacuation may have been cancelled meanwhile: that is fine).
 */
static int swt_preresume(struct dm_target *ti)
{
	struct swt_target *st = ti->private;
	struct swt_pool *pool = st->pool;
	const char *name = dm_device_name(dm_table_get_md(ti->table));
	unsigned int t;
	u32 mapped = 0;
	int r;

	r = swt_pool_switch(ti, st);
	if (r)
		return r;
	spin_lock_irq(&pool->lock);
	for_each_set_bit(t, &st->replace, st->nr_tiers) {
		mapped = pool->map.tier[t].nr_mapped;
		if (mapped)
			break;
	}
	spin_unlock_irq(&pool->lock);
	if (mapped) {
		DMERR("%s: cannot replace tier %u: it maps %u blocks again", name,
		      t, mapped);
		DMERR("%s: load the previous table again", name);
		return -EBUSY;
	}
	return 0;
}

static void swt_resume(struct dm_target *ti)
{
	struct swt_target *st = ti->private;
	struct swt_pool *pool = st->pool;
	u32 mask = 0;
	unsigned int t;

	for (t = 0; t < st->nr_tiers; t++) {
		if (st->discard_passdown &&
		    bdev_max_discard_sectors(st->dev[t]->bdev))
			mask |= 1U << t;
	}
	spin_lock_irq(&pool->lock);
	pool->map.trim_mask = mask;
	pool->map.frontier_blocks = st->frontier_blocks ?: SWT_FRONTIER_DEFAULT;
	pool->map.reserve = st->reserve;
	memcpy(pool->plan.knob, st->knob, sizeof(st->knob));
	swt_plan_aged(&pool->plan);
	/*
	 * I/O goes through this table's devices from now on: the previous
	 * table's may be closed once it is destroyed.
	 */
	for (t = 0; t < st->nr_tiers; t++) {
		pool->tier_dev[t] = st->dev[t]->bdev->bd_dev;
		pool->bdev[t] = st->dev[t]->bdev;
	}
	/* Evacuated tiers this table replaces take blocks again. */
	for_each_set_bit(t, &st->replace, st->nr_tiers)
		if (pool->plan.evacuate == (int)t)
			swt_plan_evacuate(&pool->plan, &pool->map, -1);
	st->replace = 0;
	WRITE_ONCE(pool->next_age, jiffies +
		   msecs_to_jiffies(pool->plan.knob[SWT_K_HEAT_PERIOD]));
	pool->trim_stopped = false;
	spin_unlock_irq(&pool->lock);
	swt_resume_nonrot(dm_disk(dm_table_get_md(ti->table)),
			  bdev_nonrot(st->dev[0]->bdev));
	swt_mig_restart(pool);
	swt_trim_kick(pool);
}

static void swt_postsuspend(struct dm_target *ti)
{
	struct swt_target *st = ti->private;

	struct swt_pool *pool = st->pool;

	/*
	 * No bio is in flight now. Let the copies between tiers finish (they
	 * go to the tiers directly, so dm did not wait for them) and start no
	 * more; then the same for the discards passed down, which the trim
	 * worker would otherwise go on issuing by queueing itself again.
	 */
	swt_mig_stop(pool);
	spin_lock_irq(&pool->lock);
	pool->trim_stopped = true;
	spin_unlock_irq(&pool->lock);
	flush_work(&pool->worker);
	cancel_work_sync(&pool->trim_work);
}

/*----------------------------------------------------------------*/

/* Kernel memory of the map and the heat map, in bytes. */
static u64 __swt_pool_bytes(struct swt_pool *pool)
{
	return swt_map_bytes(&pool->map) + pool->pol.ops->bytes(&pool->pol);
}

/*
 * A tier's state letter: D demoting (fell below low_watermark), E being
 * evacuated, X evacuated (empty, takes no blocks), - none of these.
 */
static char __swt_tier_state(struct swt_pool *pool, unsigned int t)
{
	if (pool->plan.evacuate == (int)t)
		return pool->map.tier[t].nr_mapped ? 'E' : 'X';
	return pool->plan.demoting[t] ? 'D' : '-';
}

static void swt_status_info(struct swt_target *st, char *result,
			    unsigned int maxlen, unsigned int sz)
{
	struct swt_pool *pool = st->pool;
	struct swt_map *m = &pool->map;
	unsigned int t;

	spin_lock_irq(&pool->lock);
	DMEMIT("%u", m->nr_tiers);
	for (t = 0; t < m->nr_tiers; t++)
		DMEMIT(" %u %u %llu %llu %llu", m->tier[t].nr_mapped,
		       m->tier[t].nr_blocks, m->tier[t].st.reads,
		       m->tier[t].st.writes, m->tier[t].st.errors);
	DMEMIT(" %u %u %llu %llu %llu %u %llu",
	       m->nr_mapped, m->nr_logical, m->seq_writes, m->write_allocs,
	       pool->st.deferred,
	       m->nr_pending + m->ready.count + m->trim.count,
	       __swt_pool_bytes(pool));
	DMEMIT(" %s", test_bit(SWT_POOL_FAILED, &pool->flags) ? "Fail" : "rw");
	DMEMIT(" %s %llu %llu %llu %llu ",
	       pool->plan.knob[SWT_K_MIGRATION] ? "on" : "off",
	       pool->st.mig_blocks[SWT_MIG_PROMOTE],
	       pool->st.mig_blocks[SWT_MIG_DEMOTE],
	       pool->st.mig_blocks[SWT_MIG_EVACUATE], m->move_lost);
	if (pool->plan.evacuate >= 0)
		DMEMIT("%d %u ", pool->plan.evacuate,
		       m->tier[pool->plan.evacuate].nr_mapped);
	else
		DMEMIT("- 0 ");
	for (t = 0; t < m->nr_tiers; t++)
		DMEMIT("%c", __swt_tier_state(pool, t));
	spin_unlock_irq(&pool->lock);
}

/* Print knob @k of the table as <before><name><between><value>. */
static unsigned int swt_emit_knob(struct swt_target *st, unsigned int k,
				  const char *before, const char *between,
				  char *result, unsigned int maxlen,
				  unsigned int sz)
{
	const struct swt_knob_desc *d = &swt_knobs[k];

	if (d->onoff)
		DMEMIT("%s%s%s%s", before, d->name, between,
		       st->knob[k] ? "on" : "off");
	else
		DMEMIT("%s%s%s%u", before, d->name, between, st->knob[k]);
	return sz;
}

static void swt_status(struct dm_target *ti, status_type_t type,
		       unsigned int status_flags, char *result,
		       unsigned int maxlen)
{
	struct swt_target *st = ti->private;
	unsigned int sz = 0, t, k, nopt;

	switch (type) {
	case STATUSTYPE_INFO:
		swt_status_info(st, result, maxlen, sz);
		break;
	case STATUSTYPE_TABLE:
		DMEMIT("%u", st->nr_tiers);
		for (t = 0; t < st->nr_tiers; t++)
			DMEMIT(" %s", st->dev[t]->name);
		nopt = st->discard_passdown + 2 * !!st->frontier_blocks +
		       2 * !!st->reserve_blocks +
		       2 * hweight_long(st->knob_given);
		if (!nopt)
			break;
		DMEMIT(" %u", nopt);
		if (st->discard_passdown)
			DMEMIT(" discard_passdown");
		if (st->frontier_blocks)
			DMEMIT(" frontier_blocks %u", st->frontier_blocks);
		if (st->reserve_blocks)
			DMEMIT(" reserve_blocks %u", st->reserve_blocks);
		for_each_set_bit(k, &st->knob_given, SWT_NR_KNOBS)
			sz = swt_emit_knob(st, k, " ", " ", result, maxlen, sz);
		break;
	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",tiers=%u", st->nr_tiers);
		for (t = 0; t < st->nr_tiers; t++)
			DMEMIT(",tier_%u_name=%s", t, st->dev[t]->name);
		DMEMIT(",discard_passdown=%c,frontier_blocks=%u,reserve_blocks=%u",
		       st->discard_passdown ? 'y' : 'n',
		       st->frontier_blocks ?: SWT_FRONTIER_DEFAULT, st->reserve);
		for (k = 0; k < SWT_NR_KNOBS; k++)
			sz = swt_emit_knob(st, k, ",", "=", result, maxlen, sz);
		DMEMIT(";");
		break;
	}
}

/*----------------------------------------------------------------*/

static int swt_parse_u32(const char *s, u32 *v)
{
	return kstrtou32(s, 10, v);
}

/* Print one extent of the map message. */
static unsigned int swt_emit_extent(struct swt_map *m, const struct swt_extent *e,
				    char *result, unsigned int maxlen,
				    unsigned int sz)
{
	if (e->pblk == SWT_NO_PBLK)
		DMEMIT("%u %u - -\n", from_lblk(e->lblk), e->len);
	else
		DMEMIT("%u %u %u %u\n", from_lblk(e->lblk), e->len, e->tier,
		       swt_map_tier_offset(m, e->pblk));
	return sz;
}

/*
 * Room the map message keeps for one extent line ("%u %u %u %u\n") and the
 * closing "next %u\n" line.
 */
#define SWT_MAP_LINE_MAX	48U

/*
 * map <first_block> <count>: the mapping as run-length extents. The reply
 * stops before the result buffer fills: it then ends with "next <block>",
 * the first block not listed, for the caller to ask from. A full buffer
 * would make libdevmapper retry the whole walk with a larger one.
 */
static int swt_msg_map(struct swt_pool *pool, unsigned int argc, char **argv,
		       char *result, unsigned int maxlen)
{
	struct swt_map *m = &pool->map;
	struct swt_extent cur, e;
	unsigned int sz = 0;
	u32 first, count, l, end, n;
	bool one = false;

	if (argc != 3 || swt_parse_u32(argv[1], &first) ||
	    swt_parse_u32(argv[2], &count) || !count) {
		DMWARN("map message: usage is 'map <first_block> <count>'");
		return -EINVAL;
	}
	if (first >= m->nr_logical || count > m->nr_logical - first) {
		DMWARN("map message: blocks %u+%u are beyond the device's %u blocks",
		       first, count, m->nr_logical);
		return -EINVAL;
	}

	cur.len = 0;
	end = first + count;
	for (l = first; l < end; l += n) {
		spin_lock_irq(&pool->lock);
		swt_map_lookup(m, to_lblk(l), min(end - l, SWT_MSG_CHUNK), &e);
		spin_unlock_irq(&pool->lock);
		cond_resched();
		n = e.len;
		/* Lookups stop at chunk ends; join what continues. */
		if (cur.len && ((e.pblk == SWT_NO_PBLK && cur.pblk == SWT_NO_PBLK) ||
				(e.pblk != SWT_NO_PBLK && cur.pblk != SWT_NO_PBLK &&
				 e.tier == cur.tier &&
				 from_pblk(e.pblk) == from_pblk(cur.pblk) + cur.len))) {
			cur.len += e.len;
			continue;
		}
		if (cur.len) {
			/* always list one extent, however small the buffer */
			if (one && maxlen - sz < 2 * SWT_MAP_LINE_MAX) {
				DMEMIT("next %u\n", from_lblk(cur.lblk));
				return 1;
			}
			sz = swt_emit_extent(m, &cur, result, maxlen, sz);
			one = true;
		}
		cur = e;
	}
	if (one && maxlen - sz < 2 * SWT_MAP_LINE_MAX)
		DMEMIT("next %u\n", from_lblk(cur.lblk));
	else
		swt_emit_extent(m, &cur, result, maxlen, sz);
	return 1;
}

static int swt_msg_stats(struct swt_pool *pool, char *result,
			 unsigned int maxlen)
{
	struct swt_map *m = &pool->map;
	unsigned int sz = 0, t;

	spin_lock_irq(&pool->lock);
	for (t = 0; t < m->nr_tiers; t++)
		DMEMIT("tier%u: mapped=%u blocks=%u free=%u reads=%llu writes=%llu errors=%llu\n",
		       t, m->tier[t].nr_mapped, m->tier[t].nr_blocks,
		       m->tier[t].nr_free, m->tier[t].st.reads,
		       m->tier[t].st.writes, m->tier[t].st.errors);
	DMEMIT("mapped=%u logical=%u physical=%u reserve=%u\n",
	       m->nr_mapped, m->nr_logical, m->nr_physical, m->reserve);
	DMEMIT("write_allocs=%llu seq_writes=%llu deferred=%llu batched=%llu batches=%llu\n",
	       m->write_allocs, m->seq_writes, pool->st.deferred,
	       pool->st.batched, pool->st.batches);
	DMEMIT("zero_reads=%llu discards=%llu discarded_blocks=%llu\n",
	       pool->st.zero_reads, pool->st.discards, pool->st.discarded);
	DMEMIT("trims=%llu trims_skipped=%llu\n", pool->st.trims,
	       m->trims_skipped);
	DMEMIT("pending=%u ready=%u trimming=%u\n",
	       m->nr_pending, m->ready.count, m->trim.count);
	DMEMIT("map_bytes=%llu frontier_blocks=%u\n", __swt_pool_bytes(pool),
	       m->frontier_blocks);
	DMEMIT("promoted=%llu demoted=%llu evacuated=%llu\n",
	       pool->st.mig_blocks[SWT_MIG_PROMOTE],
	       pool->st.mig_blocks[SWT_MIG_DEMOTE],
	       pool->st.mig_blocks[SWT_MIG_EVACUATE]);
	DMEMIT("promotions=%llu demotions=%llu evacuations=%llu\n",
	       pool->st.mig_copies[SWT_MIG_PROMOTE],
	       pool->st.mig_copies[SWT_MIG_DEMOTE],
	       pool->st.mig_copies[SWT_MIG_EVACUATE]);
	DMEMIT("migrated_blocks=%llu migrated_bytes=%llu abandoned=%llu migration_errors=%llu\n",
	       m->moved, m->moved << SWT_BLOCK_SHIFT, m->move_lost,
	       pool->st.mig_errors);
	DMEMIT("migrating=%u agings=%llu migration=%s evacuate=",
	       pool->mig_inflight, pool->st.agings,
	       pool->plan.knob[SWT_K_MIGRATION] ? "on" : "off");
	if (pool->plan.evacuate >= 0)
		DMEMIT("%d evacuate_left=%u\n", pool->plan.evacuate,
		       m->tier[pool->plan.evacuate].nr_mapped);
	else
		DMEMIT("- evacuate_left=0\n");
	DMEMIT("mode=%s\n",
	       test_bit(SWT_POOL_FAILED, &pool->flags) ? "Fail" : "rw");
	DMEMIT("tier_state=");
	for (t = 0; t < m->nr_tiers; t++)
		DMEMIT("%c", __swt_tier_state(pool, t));
	DMEMIT("\n");
	spin_unlock_irq(&pool->lock);
	return 1;
}

static void swt_msg_clear_stats(struct swt_pool *pool)
{
	struct swt_map *m = &pool->map;
	unsigned int t;

	spin_lock_irq(&pool->lock);
	for (t = 0; t < m->nr_tiers; t++)
		memset(&m->tier[t].st, 0, sizeof(m->tier[t].st));
	memset(&pool->st, 0, sizeof(pool->st));
	m->seq_writes = 0;
	m->write_allocs = 0;
	m->moved = 0;
	m->move_lost = 0;
	m->trims_skipped = 0;
	spin_unlock_irq(&pool->lock);
}

/* check: verify every invariant of the map (O(blocks), for tests). */
static int swt_msg_check(struct swt_pool *pool, char *result,
			 unsigned int maxlen)
{
	unsigned int sz = 0;
	u32 bad;
	int r;

	spin_lock_irq(&pool->lock);
	r = swt_map_check(&pool->map, &bad);
	spin_unlock_irq(&pool->lock);
	if (r) {
		DMERR("map check failed: invariant %d at %u", -r, bad);
		set_bit(SWT_POOL_FAILED, &pool->flags);
		DMEMIT("error %d %u\n", -r, bad);
	} else {
		DMEMIT("ok\n");
	}
	return 1;
}

/* set <key> <value> (and migration on|off): change a knob of the live table. */
static int swt_msg_set(struct swt_target *st, const char *key, const char *val)
{
	struct swt_pool *pool = st->pool;
	int k = swt_knob_find(key);
	u32 knob[SWT_NR_KNOBS];
	const char *why;

	if (k < 0) {
		DMWARN("set message: unknown key '%.32s'", key);
		return -EINVAL;
	}
	memcpy(knob, st->knob, sizeof(knob));
	if (swt_knob_parse(k, val, &knob[k])) {
		if (swt_knobs[k].onoff)
			DMWARN("set message: %s must be on or off", key);
		else
			DMWARN("set message: %s must be %u to %u", key,
			       swt_knobs[k].min, swt_knobs[k].max);
		return -EINVAL;
	}
	why = swt_knobs_conflict(knob);
	if (why) {
		DMWARN("set message: %s", why);
		return -EINVAL;
	}
	spin_lock_irq(&pool->lock);
	memcpy(st->knob, knob, sizeof(knob));
	__set_bit(k, &st->knob_given);
	memcpy(pool->plan.knob, knob, sizeof(knob));
	swt_plan_aged(&pool->plan);
	if (k == SWT_K_HEAT_PERIOD)
		WRITE_ONCE(pool->next_age, jiffies + msecs_to_jiffies(knob[k]));
	spin_unlock_irq(&pool->lock);
	if (!READ_ONCE(pool->mig_stopped))
		mod_delayed_work(pool->mig_wq, &pool->mig_work, 0);
	return 0;
}

/* evacuate <tier> | evacuate cancel */
static int swt_msg_evacuate(struct swt_pool *pool, const char *arg)
{
	int r, tier = -1;
	u32 t;

	if (strcasecmp(arg, "cancel")) {
		if (swt_parse_u32(arg, &t) || t >= pool->map.nr_tiers) {
			DMWARN("evacuate message: usage is 'evacuate <tier>|cancel', tier 0 to %u",
			       pool->map.nr_tiers - 1);
			return -EINVAL;
		}
		tier = t;
	}
	spin_lock_irq(&pool->lock);
	r = swt_plan_evacuate(&pool->plan, &pool->map, tier);
	spin_unlock_irq(&pool->lock);
	if (r == -EBUSY)
		DMWARN("evacuate message: another tier is being evacuated; cancel it first");
	else if (r == -ENOSPC)
		DMWARN("evacuate message: the other tiers cannot hold all %u blocks",
		       pool->map.nr_logical);
	if (!r && !READ_ONCE(pool->mig_stopped))
		mod_delayed_work(pool->mig_wq, &pool->mig_work, 0);
	return r;
}

/* heat: mapped blocks per heat bucket, one line per tier. */
static int swt_msg_heat(struct swt_pool *pool, char *result,
			unsigned int maxlen)
{
	u32 bucket[SWT_HEAT_BUCKETS], off, n;
	struct swt_map *m = &pool->map;
	unsigned int sz = 0, t, b;

	DMEMIT("heat 0 1 2 4 8 16 32 64\n");
	for (t = 0; t < m->nr_tiers; t++) {
		memset(bucket, 0, sizeof(bucket));
		for (off = 0; off < m->tier[t].nr_blocks; off += n) {
			n = min(m->tier[t].nr_blocks - off, SWT_MSG_CHUNK);
			spin_lock_irq(&pool->lock);
			swt_heat_histogram(m, &pool->pol, t, off, n, bucket);
			spin_unlock_irq(&pool->lock);
			cond_resched();
		}
		DMEMIT("tier%u", t);
		for (b = 0; b < SWT_HEAT_BUCKETS; b++)
			DMEMIT(" %u", bucket[b]);
		DMEMIT("\n");
	}
	return 1;
}

static int swt_message(struct dm_target *ti, unsigned int argc, char **argv,
		       char *result, unsigned int maxlen)
{
	struct swt_target *st = ti->private;
	struct swt_pool *pool = st->pool;

	if (!argc) {
		DMWARN("empty message");
		return -EINVAL;
	}
	if (!strcasecmp(argv[0], "map"))
		return swt_msg_map(pool, argc, argv, result, maxlen);
	if (!strcasecmp(argv[0], "set")) {
		if (argc != 3) {
			DMWARN("set message: usage is 'set <key> <value>'");
			return -EINVAL;
		}
		return swt_msg_set(st, argv[1], argv[2]);
	}
	if (!strcasecmp(argv[0], "migration") ||
	    !strcasecmp(argv[0], "evacuate")) {
		if (argc != 2) {
			DMWARN("%s message takes one argument", argv[0]);
			return -EINVAL;
		}
		if (!strcasecmp(argv[0], "evacuate"))
			return swt_msg_evacuate(pool, argv[1]);
		return swt_msg_set(st, "migration", argv[1]);
	}
	if (argc != 1) {
		DMWARN("message %s takes no arguments", argv[0]);
		return -EINVAL;
	}
	if (!strcasecmp(argv[0], "stats"))
		return swt_msg_stats(pool, result, maxlen);
	if (!strcasecmp(argv[0], "check"))
		return swt_msg_check(pool, result, maxlen);
	if (!strcasecmp(argv[0], "heat"))
		return swt_msg_heat(pool, result, maxlen);
	if (!strcasecmp(argv[0], "clear_stats")) {
		swt_msg_clear_stats(pool);
		return 0;
	}
	DMWARN("unrecognised message '%.32s'", argv[0]);
	return -EINVAL;
}

/*----------------------------------------------------------------*/

static int swt_iterate_devices(struct dm_target *ti,
			       iterate_devices_callout_fn fn, void *data)
{
	struct swt_target *st = ti->private;
	unsigned int t;
	int r = 0;

	for (t = 0; t < st->nr_tiers && !r; t++)
		r = fn(ti, st->dev[t], 0,
		       (sector_t)st->tier_blocks[t] * SWT_BLOCK_SECTORS, data);
	return r;
}

static void swt_io_hints(struct dm_target *ti, struct queue_limits *limits)
{
	const unsigned int bs = 1U << SWT_BLOCK_SHIFT;
	struct swt_target *st = ti->private;

	/* 4 KiB blocks: no bio ever covers part of a block. */
	limits->logical_block_size = max(limits->logical_block_size, bs);
	limits->physical_block_size = max(limits->physical_block_size, bs);
	limits->io_min = max(limits->io_min, bs);

	/* We unmap discarded blocks ourselves, whatever the tiers support. */
	limits->discard_granularity = bs;
	limits->discard_alignment = 0;
	swt_set_discard_limits(limits,
			       round_down(UINT_MAX >> SECTOR_SHIFT, SWT_BLOCK_SECTORS));

	/* Swap sees what its writes land on first (see the compat header). */
	swt_hint_nonrot(limits, bdev_nonrot(st->dev[0]->bdev));
}

static struct target_type swt_target_type = {
	.name = "swaptier",
	.version = { 1, 3, 0 },
	.module = THIS_MODULE,
	.ctr = swt_ctr,
	.dtr = swt_dtr,
	.map = swt_map_bio,
	.end_io = swt_end_io,
	.postsuspend = swt_postsuspend,
	.preresume = swt_preresume,
	.resume = swt_resume,
	.status = swt_status,
	.message = swt_message,
	.iterate_devices = swt_iterate_devices,
	.io_hints = swt_io_hints,
};

static int __init dm_swaptier_init(void)
{
	int r = dm_register_target(&swt_target_type);

	if (r)
		DMERR("register failed %d", r);
	return r;
}

static void __exit dm_swaptier_exit(void)
{
	dm_unregister_target(&swt_target_type);
}

module_init(dm_swaptier_init);
module_exit(dm_swaptier_exit);

MODULE_DESCRIPTION(DM_NAME " target for swap over tiered devices");
MODULE_AUTHOR("dm-swaptier developers");
MODULE_LICENSE("GPL");
