/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dm-swaptier: the internal interface between the target's files.
 *
 *   dm-swaptier-target.c  the dm glue: constructor and destructor, the pool
 *                         registry, suspend and resume, limits, module init
 *   dm-swaptier-io.c      the bio path: map and end_io, write gathering,
 *                         deferred writes, reclaim, discards passed down
 *   dm-swaptier-mig.c     the migration engine: copies between tiers, aging
 *   dm-swaptier-msg.c     status and messages
 *   dm-swaptier-map.c     the block map and allocator (plain C)
 *   dm-swaptier-policy.c  the heat policies, by name (plain C)
 *   dm-swaptier-policy-clock.c  the "clock" heat policy (plain C)
 *   dm-swaptier-plan.c    the migration knobs and the planner (plain C)
 *
 * Locking: pool->lock (a spinlock taken with interrupts off, since end_io
 * may run in interrupt context) protects the map, the heat, the planner,
 * the bio lists and the counters of a pool. swt_pools_lock (a mutex, in
 * the glue) protects the registry. A function named __swt_* is called with
 * a lock held, and says which with lockdep_assert_held(): pool->lock
 * unless it is a registry function of the glue. Each function below says
 * from which context it may be called:
 *
 *   any       interrupt, softirq or process context, pool->lock not held
 *   process   may sleep; pool->lock not held
 *   locked    pool->lock held (interrupts off); does not sleep
 */
#ifndef DM_SWAPTIER_H
#define DM_SWAPTIER_H

#include "dm-swaptier-compat.h"
#include "dm-swaptier-map.h"
#include "dm-swaptier-plan.h"

#include <linux/bio.h>
#include <linux/device-mapper.h>
#include <linux/lockdep.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#define DM_MSG_PREFIX "swaptier"

/* Blocks looked up or unmapped under the lock at a time (messages, discards). */
#define SWT_MSG_CHUNK		4096U

enum swt_pool_flags {
	SWT_POOL_FAILED,	/* an internal inconsistency was found */
};

/* A gathered write, sorted by logical block before it is placed. */
struct swt_batch_ent {
	u32 lblk;
	struct bio *bio;
};

struct swt_mig_engine;

/*
 * The in-core state of one dm-swaptier device: shared by the tables of
 * that device which name the same tiers, so that a reload keeps the map.
 * A device has one current pool, on the registry. A table loaded over
 * other tiers or another length gets a pool of its own, which becomes the
 * current one only at that table's preresume, and only if the current one
 * maps nothing then (see swt_pool_bind()).
 */
struct swt_pool {
	struct list_head list;		/* on the registry while current */
	struct mapped_device *md;
	unsigned int ref;		/* tables using it, under swt_pools_lock */
	unsigned int nr_tiers;
	dev_t tier_dev[SWT_MAX_TIERS];
	struct block_device *bdev[SWT_MAX_TIERS];

	spinlock_t lock;		/* protects everything below */
	struct swt_map map;
	struct swt_policy pol;		/* the heat of every logical block */
	/* the migration knobs in force, and what the planner keeps */
	struct swt_planner plan;
	unsigned long flags;

	/* The bio path's (dm-swaptier-io.c). */
	struct bio_list deferred;	/* writes waiting for a free block */
	struct bio_list batch;		/* writes gathered for the batch worker */
	u32 batch_count;		/* bios on it */
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

	/* The migration engine's, private to dm-swaptier-mig.c. */
	struct swt_mig_engine *mig;
};

/* One table's instance: its devices and its options. */
struct swt_target {
	struct list_head list;		/* on the registry's list of tables */
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
	/*
	 * The knobs of this table's line, as given or changed by "set"
	 * (else the default), for the table status; the pool's planner
	 * holds the values in force, copied from here at resume.
	 */
	u32 knob[SWT_NR_KNOBS];
	unsigned long knob_given;	/* bit per knob in the table line */
	unsigned long replace;		/* evacuated tiers this table replaces */
};

/*---- dm-swaptier-io.c: the bio path ----*/

/* Per-bio data (ti->per_io_data_size); pure (any context, no lock). */
unsigned int swt_io_per_bio_size(void);

/* Set up and tear down the bio path's queues and works (process). */
int swt_io_create(struct swt_pool *pool);
void swt_io_destroy(struct swt_pool *pool);

/* The dm .map and .end_io methods (any; map from the submitter's context). */
int swt_io_map(struct dm_target *ti, struct bio *bio);
int swt_io_end_io(struct dm_target *ti, struct bio *bio, blk_status_t *error);

/*
 * Suspend: no bio is in flight; finish the worker's run and issue no more
 * discards to the tiers (process). Resume: issue them again (process).
 */
void swt_io_suspend(struct swt_pool *pool);
void swt_io_resume(struct swt_pool *pool);

/*
 * Is there work for the pool worker (deferred writes, reclaim, trims)?
 * (locked: pool->lock held)
 */
bool __swt_io_kick_needed(struct swt_pool *pool);

/* Queue the pool worker (any). */
void swt_io_kick(struct swt_pool *pool);

/*---- dm-swaptier-mig.c: the migration engine ----*/

/*
 * Create the engine of @pool, stopped (process; returns 0 or -ENOMEM, and
 * sets ti->error); destroy it, stopping it first (process).
 */
int swt_mig_create(struct dm_target *ti, struct swt_pool *pool);
void swt_mig_destroy(struct swt_pool *pool);

/*
 * Stop starting copies and wait for those in flight (suspend, destroy);
 * start again (resume). Process context.
 */
void swt_mig_stop(struct swt_pool *pool);
void swt_mig_restart(struct swt_pool *pool);

/* The planner's knobs or state changed: plan again now, unless stopped (any). */
void swt_mig_kick(struct swt_pool *pool);

/*
 * A write landed on tier @t: true if the planner must run now (the tier
 * fell below its low watermark); the caller then calls swt_mig_kick()
 * after dropping the lock. Locked.
 */
bool __swt_mig_write_done(struct swt_pool *pool, unsigned int t);

/* User I/O arrived: promotions without budget wait for quiet (any). */
void swt_mig_note_io(struct swt_pool *pool);

/* The next aging is one heat period from now (locked). */
void __swt_mig_reset_aging(struct swt_pool *pool);

/* Blocks being copied (locked). */
u32 __swt_mig_inflight(struct swt_pool *pool);

/*---- dm-swaptier-msg.c: status and messages ----*/

/* The dm .status and .message methods (process). */
void swt_msg_status(struct dm_target *ti, status_type_t type,
		    unsigned int status_flags, char *result,
		    unsigned int maxlen);
int swt_msg_message(struct dm_target *ti, unsigned int argc, char **argv,
		    char *result, unsigned int maxlen);

#endif
