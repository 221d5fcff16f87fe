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
#include "dm-swaptier.h"

#include <linux/blkdev.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

/*
 * The registry: every device's current pool, and every live table. The
 * mutex also protects each pool's ref and list.
 */
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

static void swt_pool_destroy(struct swt_pool *pool)
{
	swt_mig_destroy(pool);
	swt_io_destroy(pool);
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
	swt_plan_init(&pool->plan);
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
	r = swt_io_create(pool);
	if (r) {
		ti->error = "Cannot allocate the workqueues";
		goto bad;
	}
	r = swt_mig_create(ti, pool);
	if (r)
		goto bad;
	pool->ref = 1;
	return pool;

bad:
	swt_pool_destroy(pool);
	return ERR_PTR(r);
}

/* An evacuated tier: empty, and taking no new blocks. */
static bool __swt_tier_evacuated(struct swt_pool *pool, unsigned int t)
{
	lockdep_assert_held(&pool->lock);
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
	const struct swt_knob_desc *d = &swt_plan_knobs[k];

	if (test_bit(k, &st->knob_given)) {
		swt_ctr_error(ti, "Optional argument %s given twice", d->name);
		return -EINVAL;
	}
	if (!*left) {
		swt_ctr_error(ti, "Optional argument %s needs a value", d->name);
		return -EINVAL;
	}
	(*left)--;
	if (swt_plan_knob_parse(k, dm_shift_arg(as), &st->knob[k])) {
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

static_assert(SWT_ALL_OPT_WORDS <= SWT_MAX_OPT_WORDS,
	      "every option at once must fit in a table line");

static int swt_parse_options(struct dm_target *ti, struct swt_target *st,
			     struct dm_arg_set *as)
{
	static const struct dm_arg group = {
		0, SWT_MAX_OPT_WORDS, "Invalid number of optional arguments"
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
		st->knob[k] = swt_plan_knobs[k].def;
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
		} else if (swt_plan_knob_find(name) >= 0) {
			r = swt_parse_knob(ti, st, as, &left, swt_plan_knob_find(name));
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
	why = swt_plan_knobs_conflict(st->knob);
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
	ti->per_io_data_size = swt_io_per_bio_size();
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
	swt_map_end_refusals(&pool->map);
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
	__swt_mig_reset_aging(pool);
	spin_unlock_irq(&pool->lock);
	swt_resume_nonrot(dm_disk(dm_table_get_md(ti->table)),
			  bdev_nonrot(st->dev[0]->bdev));
	swt_mig_restart(pool);
	swt_io_resume(pool);
}

static void swt_postsuspend(struct dm_target *ti)
{
	struct swt_target *st = ti->private;

	/*
	 * No bio is in flight now. Let the copies between tiers finish (they
	 * go to the tiers directly, so dm did not wait for them) and start no
	 * more; then the same for the discards passed down.
	 */
	swt_mig_stop(st->pool);
	swt_io_suspend(st->pool);
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

static void swt_queue_limits(struct dm_target *ti, struct queue_limits *limits)
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
	.name = SWT_TARGET_NAME,
	.version = { 1, 9, 0 },
	.module = THIS_MODULE,
	.ctr = swt_ctr,
	.dtr = swt_dtr,
	.map = swt_io_map,
	.end_io = swt_io_end_io,
	.postsuspend = swt_postsuspend,
	.preresume = swt_preresume,
	.resume = swt_resume,
	.status = swt_msg_status,
	.message = swt_msg_message,
	.iterate_devices = swt_iterate_devices,
	.io_hints = swt_queue_limits,
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
