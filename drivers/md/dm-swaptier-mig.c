// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-swaptier: the migration engine.
 *
 * A delayed work plans copies between tiers under the pool lock (the
 * planner in dm-swaptier-policy.c decides what moves) and hands them to
 * kcopyd; the completion publishes each with swt_map_move(), which keeps
 * whatever a racing write or discard did. Each copy holds a read ticket
 * from before it looked at the map until it is published, so a source
 * block freed meanwhile is not reused under the copy. The same work halves
 * every heat once per heat_period.
 *
 * The copies go to the tiers directly, not through the dm device: suspend
 * must stop the engine and wait for them (swt_mig_stop()).
 */
#include "dm-swaptier.h"

#include <linux/dm-kcopyd.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/wait.h>

/* Copies between tiers in flight at most (each up to 64 blocks). */
#define SWT_MIG_SLOTS		16U
/* Blocks the planner looks at per lock hold, and per worker run. */
#define SWT_PLAN_BUDGET		4096U
#define SWT_PLAN_RUN_BUDGET	(16U * SWT_PLAN_BUDGET)
/* Heats halved per lock hold while aging. */
#define SWT_AGE_CHUNK		16384U
/* After a failed copy, no new copy starts for this long. */
#define SWT_MIG_ERR_PAUSE	HZ

/* One copy between tiers, in flight or free. */
struct swt_mig {
	struct swt_pool *pool;
	struct swt_plan plan;
	unsigned int ticket;	/* read ticket: sources are not reused */
};

/* The engine of one pool: under pool->lock unless noted. */
struct swt_mig_engine {
	struct swt_pool *pool;
	unsigned long busy;		/* bit per slot in use */
	u32 inflight;			/* blocks being copied */
	bool stopped;			/* suspended: start no copy */
	bool kicked;			/* a write queued the worker */
	unsigned long last_io;		/* jiffies of the last user I/O (racy) */
	unsigned long next_age;		/* jiffies of the next aging (racy) */
	bool paused;			/* a copy failed: start none ... */
	unsigned long paused_until;	/* ... until then (jiffies) */
	u32 age_cursor;			/* aging in progress: next block */
	wait_queue_head_t wait;		/* copies finishing */
	struct dm_kcopyd_client *kc;
	struct workqueue_struct *wq;
	struct delayed_work work;
	struct swt_mig slot[SWT_MIG_SLOTS];
};

static void swt_mig_done(int read_err, unsigned long write_err, void *context)
{
	struct swt_mig *mig = context;
	struct swt_pool *pool = mig->pool;
	struct swt_mig_engine *e = pool->mig;
	struct swt_plan *plan = &mig->plan;
	unsigned int from = plan->from, to = plan->to;
	u32 len = plan->len, moved = 0;
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&pool->lock, flags);
	if (read_err || write_err) {
		swt_map_abort(&pool->map, plan->dst, plan->len);
		/*
		 * A tier that fails (a server gone) fails the next copies at
		 * once too: pause instead of planning them in a tight loop.
		 */
		e->paused = true;
		e->paused_until = jiffies + SWT_MIG_ERR_PAUSE;
		pool->map.st.mig_errors++;
		if (read_err)
			pool->map.st.tier[plan->from].errors++;
		if (write_err)
			pool->map.st.tier[plan->to].errors++;
	} else {
		moved = swt_map_move(&pool->map, plan->lblk, plan->src,
				     plan->dst, plan->len);
		pool->map.st.mig_copies[plan->kind]++;
		pool->map.st.mig_blocks[plan->kind] += moved;
	}
	swt_map_read_end(&pool->map, mig->ticket);
	kick = __swt_io_kick_needed(pool);
	if (!e->stopped)
		mod_delayed_work(e->wq, &e->work, 0);
	if (kick)
		swt_io_kick(pool);
	/*
	 * Last, and under the lock: once its bit is clear the worker may
	 * start the next copy in this slot, overwriting the plan.
	 */
	e->inflight -= len;
	clear_bit(mig - e->slot, &e->busy);
	wake_up(&e->wait);
	spin_unlock_irqrestore(&pool->lock, flags);

	/* the slot may carry another plan by now: use the copies above */
	if (read_err || write_err)
		DMERR_LIMIT("migration of %u blocks from tier %u to %u failed",
			    len, from, to);
}

static bool swt_mig_idle(struct swt_pool *pool)
{
	struct swt_mig_engine *e = pool->mig;
	bool idle;

	spin_lock_irq(&pool->lock);
	idle = !e->busy;
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

	dm_kcopyd_copy(pool->mig->kc, &from, 1, &to, 0, swt_mig_done, mig);
}

/* Halve every heat once per heat_period, a chunk per lock hold. */
static void swt_mig_age(struct swt_pool *pool)
{
	struct swt_mig_engine *e = pool->mig;
	struct swt_policy *pol = &pool->pol;
	u32 n;

	if (time_before(jiffies, READ_ONCE(e->next_age)))
		return;
	while (e->age_cursor < pol->nr_logical) {
		spin_lock_irq(&pool->lock);
		n = min(pol->nr_logical - e->age_cursor, SWT_AGE_CHUNK);
		pol->ops->age(pol, to_lblk(e->age_cursor), n);
		e->age_cursor += n;
		spin_unlock_irq(&pool->lock);
		cond_resched();
	}
	spin_lock_irq(&pool->lock);
	e->age_cursor = 0;
	pol->ops->period(pol);
	pool->map.st.agings++;
	swt_map_age_refusals(&pool->map);
	swt_plan_aged(&pool->plan);
	__swt_mig_reset_aging(pool);
	spin_unlock_irq(&pool->lock);
}

static void swt_mig_worker(struct work_struct *work)
{
	struct swt_mig_engine *e = container_of(to_delayed_work(work),
						struct swt_mig_engine, work);
	struct swt_pool *pool = e->pool;
	enum swt_plan_result r = SWT_PLAN_NOTHING;
	unsigned long delay = HZ;
	u32 scanned = 0, len;
	struct swt_mig *mig;
	long pause;
	unsigned int slot;
	bool idle;

	if (READ_ONCE(e->stopped))
		return;
	swt_mig_age(pool);
	spin_lock_irq(&pool->lock);
	pause = e->paused ? (long)(e->paused_until - jiffies) : 0;
	if (pause <= 0)
		e->paused = false;
	spin_unlock_irq(&pool->lock);
	if (pause > 0) {
		queue_delayed_work(e->wq, &e->work, pause);
		return;
	}

	while (scanned < SWT_PLAN_RUN_BUDGET) {
		spin_lock_irq(&pool->lock);
		e->kicked = false;
		slot = ffz(e->busy);
		len = swt_plan_inflight_cap(&pool->plan, &pool->map);
		len = min(SWT_MIG_MAX_BLOCKS, len - min(len, e->inflight));
		if (e->stopped || slot >= SWT_MIG_SLOTS || !len) {
			/* a completion queues us again */
			spin_unlock_irq(&pool->lock);
			return;
		}
		mig = &e->slot[slot];
		idle = time_after(jiffies, READ_ONCE(e->last_io) +
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
		set_bit(slot, &e->busy);
		e->inflight += mig->plan.len;
		spin_unlock_irq(&pool->lock);
		swt_mig_start(pool, mig);
	}

	if (r == SWT_PLAN_SCANNING)
		delay = 1;
	else if (r == SWT_PLAN_WAIT_IDLE)
		delay = msecs_to_jiffies(pool->plan.knob[SWT_K_MIG_IDLE]) + 1;
	delay = min(delay, msecs_to_jiffies(pool->plan.knob[SWT_K_HEAT_PERIOD]));
	queue_delayed_work(e->wq, &e->work, delay);
}

void swt_mig_stop(struct swt_pool *pool)
{
	struct swt_mig_engine *e = pool->mig;

	spin_lock_irq(&pool->lock);
	e->stopped = true;
	spin_unlock_irq(&pool->lock);
	cancel_delayed_work_sync(&e->work);
	wait_event(e->wait, swt_mig_idle(pool));
	/* a completion may have queued the worker before it saw the stop */
	cancel_delayed_work_sync(&e->work);
}

void swt_mig_restart(struct swt_pool *pool)
{
	struct swt_mig_engine *e = pool->mig;

	spin_lock_irq(&pool->lock);
	e->stopped = false;
	spin_unlock_irq(&pool->lock);
	mod_delayed_work(e->wq, &e->work, 0);
}

void swt_mig_kick(struct swt_pool *pool)
{
	struct swt_mig_engine *e = pool->mig;

	if (!READ_ONCE(e->stopped))
		mod_delayed_work(e->wq, &e->work, 0);
}

bool __swt_mig_write_done(struct swt_pool *pool, unsigned int t)
{
	struct swt_mig_engine *e = pool->mig;

	lockdep_assert_held(&pool->lock);
	if (e->kicked || e->stopped ||
	    !swt_plan_wanted(&pool->plan, &pool->map, t))
		return false;
	e->kicked = true;
	return true;
}

/*
 * Store the time only when it changed, so that CPUs do not bounce the
 * line on every bio.
 */
void swt_mig_note_io(struct swt_pool *pool)
{
	struct swt_mig_engine *e = pool->mig;
	unsigned long now = jiffies;

	if (time_after(now, READ_ONCE(e->last_io)))
		WRITE_ONCE(e->last_io, now);
}

void __swt_mig_reset_aging(struct swt_pool *pool)
{
	lockdep_assert_held(&pool->lock);
	WRITE_ONCE(pool->mig->next_age, jiffies +
		   msecs_to_jiffies(pool->plan.knob[SWT_K_HEAT_PERIOD]));
}

u32 __swt_mig_inflight(struct swt_pool *pool)
{
	lockdep_assert_held(&pool->lock);
	return pool->mig->inflight;
}

int swt_mig_create(struct dm_target *ti, struct swt_pool *pool)
{
	struct swt_mig_engine *e;
	unsigned int i;
	int r;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e) {
		ti->error = "Cannot allocate the migration engine";
		return -ENOMEM;
	}
	e->pool = pool;
	e->stopped = true;	/* until the first resume */
	init_waitqueue_head(&e->wait);
	INIT_DELAYED_WORK(&e->work, swt_mig_worker);
	for (i = 0; i < SWT_MIG_SLOTS; i++)
		e->slot[i].pool = pool;

	e->wq = alloc_workqueue("dm-" DM_MSG_PREFIX "-mig", WQ_MEM_RECLAIM, 0);
	if (!e->wq) {
		ti->error = "Cannot allocate the migration workqueue";
		r = -ENOMEM;
		goto bad_wq;
	}
	e->kc = dm_kcopyd_client_create(NULL);
	if (IS_ERR(e->kc)) {
		ti->error = "Cannot create the kcopyd client";
		r = PTR_ERR(e->kc);
		goto bad_kc;
	}
	pool->mig = e;
	return 0;

bad_kc:
	destroy_workqueue(e->wq);
bad_wq:
	kfree(e);
	return r;
}

void swt_mig_destroy(struct swt_pool *pool)
{
	struct swt_mig_engine *e = pool->mig;

	if (!e)
		return;
	swt_mig_stop(pool);
	destroy_workqueue(e->wq);
	dm_kcopyd_client_destroy(e->kc);
	kfree(e);
	pool->mig = NULL;
}
