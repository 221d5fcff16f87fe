/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dm-swaptier: what the target shows to userspace, shared by the module
 * and the dmswaptier tool: the block size, the tier limit, the status
 * letters and words, the heat buckets, and the tunables with their
 * ranges. Plain C with no includes, so that both compile it unchanged.
 */
#ifndef DM_SWAPTIER_ABI_H
#define DM_SWAPTIER_ABI_H

#define SWT_TARGET_NAME		"swaptier"

#define SWT_MAX_TIERS		8
#define SWT_BLOCK_SHIFT		12
#define SWT_BLOCK_SECTORS	(1U << (SWT_BLOCK_SHIFT - 9))
#define SWT_BLOCK_SIZE		(SWT_BLOCK_SECTORS * 512U)

/* Largest number of logical or physical blocks (just under 8 TiB). */
#define SWT_MAX_BLOCKS		0x7fff0000U

/* Ranges of the table options frontier_blocks and reserve_blocks. */
#define SWT_FRONTIER_DEFAULT	256U
#define SWT_FRONTIER_MIN	8U
#define SWT_FRONTIER_MAX	65536U
#define SWT_RESERVE_MIN		16U

/*
 * The relocation reserve when the table gives no reserve_blocks: 1% of
 * the tiers' blocks, at least 256.
 */
static inline unsigned int swt_default_reserve(unsigned long long nr_physical)
{
	unsigned long long r = nr_physical / 100;

	if (r < 256)
		return 256;
	return r > SWT_MAX_BLOCKS ? SWT_MAX_BLOCKS : (unsigned int)r;
}

/* <mode> of the status line and mode= of the stats message. */
#define SWT_MODE_RW		"rw"
#define SWT_MODE_FAIL		"Fail"

/* <tier_states>: one letter per tier. */
#define SWT_STATE_NONE		'-'
#define SWT_STATE_DEMOTING	'D'	/* below low_watermark */
#define SWT_STATE_EVACUATING	'E'
#define SWT_STATE_EVACUATED	'X'	/* empty, takes no new blocks */
#define SWT_STATE_REFUSING	'R'	/* failed a write: others take them */
#define SWT_STATE_LETTERS	"-DEXR"

/* The heat message: buckets 0, 1, 2-3, 4-7, ..., 64 and hotter. */
#define SWT_HEAT_BUCKETS	8U
#define SWT_HEAT_HEADER		"heat 0 1 2 4 8 16 32 64\n"

/* The tunables, as table options and "set" messages. */
enum swt_knob {
	SWT_K_MIGRATION,	/* on/off: background promotion and demotion */
	SWT_K_LOW_WM,		/* % of a tier free below which demotion starts */
	SWT_K_HIGH_WM,		/* % of a tier free at which demotion stops */
	SWT_K_PROMOTE_HEAT,	/* heat at which a block is copied up */
	SWT_K_HEAT_PERIOD,	/* ms between two halvings of every heat */
	SWT_K_MIG_IDLE,		/* ms without user I/O before promotions run */
	SWT_K_MIG_MAX_IO,	/* blocks migrations may have in flight */
	SWT_K_WRITE_BATCH,	/* async writes gathered before placing, 0: off */
	SWT_K_PROMOTE_SHARE,	/* % of a tier's user I/O promotions may add */
	SWT_K_DEMOTE_HEAT,	/* hottest block demotion may take */
	SWT_K_DEMOTE_GATE,	/* on/off: demote only blocks older than reads */
	SWT_NR_KNOBS
};

/*
 * Most words of optional arguments in a table line. Every option at once
 * must fit: discard_passdown, frontier_blocks and reserve_blocks with
 * their values, and every tunable with its value (dmsetup table prints
 * each one given, also by "set").
 */
#define SWT_MAX_OPT_WORDS	32
#define SWT_ALL_OPT_WORDS	(5 + 2 * SWT_NR_KNOBS)

/*
 * Most asynchronous writes gathered and placed together (1 MiB), about
 * what one request to a tier can carry: the largest write_batch.
 */
#define SWT_BATCH_MAX		256U

struct swt_knob_desc {
	const char *name;
	unsigned int min;
	unsigned int max;
	unsigned int def;
	int onoff;		/* value is written "on" or "off" */
};

/*
 * The tunables' names, ranges and defaults, as an initializer: the module
 * and the tool each define their table with it.
 */
#define SWT_KNOB_DESCS {							\
	[SWT_K_MIGRATION]	= { "migration", 0, 1, 1, 1 },		\
	[SWT_K_LOW_WM]		= { "low_watermark", 0, 90, 3, 0 },	\
	[SWT_K_HIGH_WM]		= { "high_watermark", 1, 95, 6, 0 },	\
	[SWT_K_PROMOTE_HEAT]	= { "promote_heat", 1, 255, 3, 0 },	\
	[SWT_K_HEAT_PERIOD]	= { "heat_period", 100, 3600000, 10000, 0 },	\
	[SWT_K_MIG_IDLE]	= { "migration_idle", 0, 60000, 200, 0 },	\
	[SWT_K_MIG_MAX_IO]	= { "migration_max_io", 16, 65536, 1024, 0 },	\
	[SWT_K_WRITE_BATCH]	= { "write_batch", 0, SWT_BATCH_MAX,	\
				    SWT_BATCH_MAX, 0 },			\
	[SWT_K_PROMOTE_SHARE]	= { "promote_share", 0, 100, 25, 0 },	\
	[SWT_K_DEMOTE_HEAT]	= { "demote_heat", 0, 255, 1, 0 },	\
	[SWT_K_DEMOTE_GATE]	= { "demote_gate", 0, 1, 1, 1 },	\
}

#endif
