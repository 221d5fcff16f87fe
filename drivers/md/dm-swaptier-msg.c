// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-swaptier: the status line and the messages (dmsetup status, table
 * and message). Every function here runs in process context and takes the
 * pool lock itself, a bounded chunk of work per hold.
 */
#include "dm-swaptier.h"

/* Kernel memory of the map and the heat map, in bytes. */
static u64 __swt_msg_pool_bytes(struct swt_pool *pool)
{
	lockdep_assert_held(&pool->lock);
	return swt_map_bytes(&pool->map) + pool->pol.ops->bytes(&pool->pol);
}

/*
 * A tier's state letter: E being evacuated, X evacuated (empty, takes no
 * blocks), R refusing writes (it failed one), D demoting (fell below
 * low_watermark), - none of these; the first that applies.
 */
static char __swt_msg_tier_state(struct swt_pool *pool, unsigned int t)
{
	lockdep_assert_held(&pool->lock);
	if (pool->plan.evacuate == (int)t)
		return pool->map.tier[t].nr_mapped ? SWT_STATE_EVACUATING :
						     SWT_STATE_EVACUATED;
	if (pool->map.tier[t].refusing)
		return SWT_STATE_REFUSING;
	return pool->plan.demoting[t] ? SWT_STATE_DEMOTING : SWT_STATE_NONE;
}

static void swt_msg_status_info(struct swt_target *st, char *result,
				unsigned int maxlen, unsigned int sz)
{
	struct swt_pool *pool = st->pool;
	struct swt_map *m = &pool->map;
	unsigned int t;

	spin_lock_irq(&pool->lock);
	DMEMIT("%u", m->nr_tiers);
	for (t = 0; t < m->nr_tiers; t++)
		DMEMIT(" %u %u %llu %llu %llu", m->tier[t].nr_mapped,
		       m->tier[t].nr_blocks, m->st.tier[t].reads,
		       m->st.tier[t].writes, m->st.tier[t].errors);
	DMEMIT(" %u %u %llu %llu %llu %u %llu",
	       m->nr_mapped, m->nr_logical, m->st.seq_writes, m->st.write_allocs,
	       m->st.deferred,
	       m->nr_pending + m->ready.count + m->trim.count,
	       __swt_msg_pool_bytes(pool));
	DMEMIT(" %s", test_bit(SWT_POOL_FAILED, &pool->flags) ? SWT_MODE_FAIL : SWT_MODE_RW);
	DMEMIT(" %s %llu %llu %llu %llu ",
	       pool->plan.knob[SWT_K_MIGRATION] ? "on" : "off",
	       m->st.mig_blocks[SWT_MIG_PROMOTE],
	       m->st.mig_blocks[SWT_MIG_DEMOTE],
	       m->st.mig_blocks[SWT_MIG_EVACUATE], m->st.move_lost);
	if (pool->plan.evacuate >= 0)
		DMEMIT("%d %u ", pool->plan.evacuate,
		       m->tier[pool->plan.evacuate].nr_mapped);
	else
		DMEMIT("- 0 ");
	for (t = 0; t < m->nr_tiers; t++)
		DMEMIT("%c", __swt_msg_tier_state(pool, t));
	spin_unlock_irq(&pool->lock);
}

/* Print knob @k of the table as <before><name><between><value>. */
static unsigned int swt_msg_emit_knob(struct swt_target *st, unsigned int k,
				      const char *before, const char *between,
				  char *result, unsigned int maxlen,
				  unsigned int sz)
{
	const struct swt_knob_desc *d = &swt_plan_knobs[k];

	if (d->onoff)
		DMEMIT("%s%s%s%s", before, d->name, between,
		       st->knob[k] ? "on" : "off");
	else
		DMEMIT("%s%s%s%u", before, d->name, between, st->knob[k]);
	return sz;
}

void swt_msg_status(struct dm_target *ti, status_type_t type,
		    unsigned int status_flags, char *result, unsigned int maxlen)
{
	struct swt_target *st = ti->private;
	unsigned int sz = 0, t, k, nopt;

	switch (type) {
	case STATUSTYPE_INFO:
		swt_msg_status_info(st, result, maxlen, sz);
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
			sz = swt_msg_emit_knob(st, k, " ", " ", result, maxlen, sz);
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
			sz = swt_msg_emit_knob(st, k, ",", "=", result, maxlen, sz);
		DMEMIT(";");
		break;
	}
}

/*----------------------------------------------------------------*/

static int swt_msg_parse_u32(const char *s, u32 *v)
{
	return kstrtou32(s, 10, v);
}

/* Print one extent of the map message. */
static unsigned int swt_msg_emit_extent(struct swt_map *m, const struct swt_extent *e,
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
static int swt_msg_map(struct swt_target *st, char **argv, char *result,
		       unsigned int maxlen)
{
	struct swt_pool *pool = st->pool;
	struct swt_map *m = &pool->map;
	struct swt_extent cur, e;
	unsigned int sz = 0;
	u32 first, count, l, end, n;
	bool one = false;

	if (swt_msg_parse_u32(argv[1], &first) ||
	    swt_msg_parse_u32(argv[2], &count) || !count) {
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
			sz = swt_msg_emit_extent(m, &cur, result, maxlen, sz);
			one = true;
		}
		cur = e;
	}
	if (one && maxlen - sz < 2 * SWT_MAP_LINE_MAX)
		DMEMIT("next %u\n", from_lblk(cur.lblk));
	else
		swt_msg_emit_extent(m, &cur, result, maxlen, sz);
	return 1;
}

static int swt_msg_stats(struct swt_target *st, char **argv, char *result,
			 unsigned int maxlen)
{
	struct swt_pool *pool = st->pool;
	struct swt_map *m = &pool->map;
	unsigned int sz = 0, t;

	spin_lock_irq(&pool->lock);
	for (t = 0; t < m->nr_tiers; t++) {
		DMEMIT("tier%u: mapped=%u blocks=%u free=%u ", t,
		       m->tier[t].nr_mapped, m->tier[t].nr_blocks,
		       m->tier[t].nr_free);
		DMEMIT("reads=%llu writes=%llu errors=%llu refused=%llu\n",
		       m->st.tier[t].reads, m->st.tier[t].writes,
		       m->st.tier[t].errors, m->st.tier[t].refused);
	}
	DMEMIT("mapped=%u logical=%u physical=%u reserve=%u\n",
	       m->nr_mapped, m->nr_logical, m->nr_physical, m->reserve);
	DMEMIT("write_allocs=%llu seq_writes=%llu deferred=%llu batched=%llu batches=%llu\n",
	       m->st.write_allocs, m->st.seq_writes, m->st.deferred,
	       m->st.batched, m->st.batches);
	DMEMIT("zero_reads=%llu discards=%llu discarded_blocks=%llu\n",
	       m->st.zero_reads, m->st.discards, m->st.discarded);
	DMEMIT("trims=%llu trims_skipped=%llu\n", m->st.trims,
	       m->st.trims_skipped);
	DMEMIT("pending=%u ready=%u trimming=%u\n",
	       m->nr_pending, m->ready.count, m->trim.count);
	DMEMIT("map_bytes=%llu frontier_blocks=%u\n", __swt_msg_pool_bytes(pool),
	       m->frontier_blocks);
	DMEMIT("promoted=%llu demoted=%llu evacuated=%llu\n",
	       m->st.mig_blocks[SWT_MIG_PROMOTE],
	       m->st.mig_blocks[SWT_MIG_DEMOTE],
	       m->st.mig_blocks[SWT_MIG_EVACUATE]);
	DMEMIT("promotions=%llu demotions=%llu evacuations=%llu\n",
	       m->st.mig_copies[SWT_MIG_PROMOTE],
	       m->st.mig_copies[SWT_MIG_DEMOTE],
	       m->st.mig_copies[SWT_MIG_EVACUATE]);
	DMEMIT("migrated_blocks=%llu migrated_bytes=%llu abandoned=%llu migration_errors=%llu\n",
	       m->st.moved, m->st.moved << SWT_BLOCK_SHIFT, m->st.move_lost,
	       m->st.mig_errors);
	DMEMIT("migrating=%u agings=%llu migration=%s evacuate=",
	       __swt_mig_inflight(pool), m->st.agings,
	       pool->plan.knob[SWT_K_MIGRATION] ? "on" : "off");
	if (pool->plan.evacuate >= 0)
		DMEMIT("%d evacuate_left=%u\n", pool->plan.evacuate,
		       m->tier[pool->plan.evacuate].nr_mapped);
	else
		DMEMIT("- evacuate_left=0\n");
	if (pool->plan.knob[SWT_K_DEMOTE_GATE])
		DMEMIT("demote_gate=%u\n", pool->pol.ops->gate(&pool->pol));
	else
		DMEMIT("demote_gate=off\n");
	DMEMIT("mode=%s\n",
	       test_bit(SWT_POOL_FAILED, &pool->flags) ? SWT_MODE_FAIL : SWT_MODE_RW);
	DMEMIT("tier_state=");
	for (t = 0; t < m->nr_tiers; t++)
		DMEMIT("%c", __swt_msg_tier_state(pool, t));
	DMEMIT("\n");
	spin_unlock_irq(&pool->lock);
	return 1;
}

static int swt_msg_clear_stats(struct swt_target *st, char **argv,
			       char *result, unsigned int maxlen)
{
	struct swt_pool *pool = st->pool;
	struct swt_map *m = &pool->map;

	spin_lock_irq(&pool->lock);
	memset(&m->st, 0, sizeof(m->st));
	spin_unlock_irq(&pool->lock);
	return 0;
}

/* check: verify every invariant of the map (O(blocks), for tests). */
static int swt_msg_check(struct swt_target *st, char **argv, char *result,
			 unsigned int maxlen)
{
	struct swt_pool *pool = st->pool;
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

/* Change knob @key of the live table to @val. */
static int swt_msg_set_knob(struct swt_target *st, const char *key,
			    const char *val)
{
	struct swt_pool *pool = st->pool;
	int k = swt_plan_knob_find(key);
	u32 knob[SWT_NR_KNOBS];
	const char *why;

	if (k < 0) {
		DMWARN("set message: unknown key '%.32s'", key);
		return -EINVAL;
	}
	memcpy(knob, st->knob, sizeof(knob));
	if (swt_plan_knob_parse(k, val, &knob[k])) {
		if (swt_plan_knobs[k].onoff)
			DMWARN("set message: %s must be on or off", key);
		else
			DMWARN("set message: %s must be %u to %u", key,
			       swt_plan_knobs[k].min, swt_plan_knobs[k].max);
		return -EINVAL;
	}
	why = swt_plan_knobs_conflict(knob);
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
		__swt_mig_reset_aging(pool);
	spin_unlock_irq(&pool->lock);
	swt_mig_kick(pool);
	return 0;
}

/* evacuate <tier> | evacuate cancel */
static int swt_msg_evacuate(struct swt_target *st, char **argv, char *result,
			    unsigned int maxlen)
{
	struct swt_pool *pool = st->pool;
	const char *arg = argv[1];
	int r, tier = -1;
	u32 t;

	if (strcasecmp(arg, "cancel")) {
		if (swt_msg_parse_u32(arg, &t) || t >= pool->map.nr_tiers) {
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
	if (!r)
		swt_mig_kick(pool);
	return r;
}

/* heat: mapped blocks per heat bucket, one line per tier. */
static int swt_msg_heat(struct swt_target *st, char **argv, char *result,
			unsigned int maxlen)
{
	struct swt_pool *pool = st->pool;
	u32 bucket[SWT_HEAT_BUCKETS], off, n;
	struct swt_map *m = &pool->map;
	unsigned int sz = 0, t, b;

	DMEMIT(SWT_HEAT_HEADER);
	for (t = 0; t < m->nr_tiers; t++) {
		memset(bucket, 0, sizeof(bucket));
		for (off = 0; off < m->tier[t].nr_blocks; off += n) {
			n = min(m->tier[t].nr_blocks - off, SWT_MSG_CHUNK);
			spin_lock_irq(&pool->lock);
			swt_plan_heat_histogram(m, &pool->pol, t, off, n, bucket);
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

/* set <key> <value>: change a knob of the live table. */
static int swt_msg_set(struct swt_target *st, char **argv, char *result,
		       unsigned int maxlen)
{
	return swt_msg_set_knob(st, argv[1], argv[2]);
}

/* migration on|off: short for "set migration on|off". */
static int swt_msg_migration(struct swt_target *st, char **argv, char *result,
			     unsigned int maxlen)
{
	return swt_msg_set_knob(st, "migration", argv[1]);
}

static const struct swt_msg_handler {
	const char *name;
	unsigned int argc;		/* words, the message's name included */
	const char *usage;
	/* returns 1 when it wrote a reply into @result, 0, or an error */
	int (*fn)(struct swt_target *st, char **argv, char *result,
		  unsigned int maxlen);
} swt_msg_handlers[] = {
	{ "map", 3, "map <first_block> <count>", swt_msg_map },
	{ "stats", 1, "stats", swt_msg_stats },
	{ "clear_stats", 1, "clear_stats", swt_msg_clear_stats },
	{ "check", 1, "check", swt_msg_check },
	{ "heat", 1, "heat", swt_msg_heat },
	{ "set", 3, "set <key> <value>", swt_msg_set },
	{ "migration", 2, "migration on|off", swt_msg_migration },
	{ "evacuate", 2, "evacuate <tier>|cancel", swt_msg_evacuate },
};

int swt_msg_message(struct dm_target *ti, unsigned int argc, char **argv,
		    char *result, unsigned int maxlen)
{
	const struct swt_msg_handler *h;
	unsigned int i;

	if (!argc) {
		DMWARN("empty message");
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(swt_msg_handlers); i++) {
		h = &swt_msg_handlers[i];
		if (strcasecmp(argv[0], h->name))
			continue;
		if (argc != h->argc) {
			DMWARN("%s message: usage is '%s'", h->name, h->usage);
			return -EINVAL;
		}
		return h->fn(ti->private, argv, result, maxlen);
	}
	DMWARN("unrecognised message '%.32s'", argv[0]);
	return -EINVAL;
}
