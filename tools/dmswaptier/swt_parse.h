/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dmswaptier: parsing of everything the kernel target prints (status and
 * table lines, the map message) and of blkparse output. The one place that
 * knows these formats; anything unexpected is an error with a reason,
 * never a crash.
 */
#ifndef SWT_PARSE_H
#define SWT_PARSE_H

#include <stddef.h>
#include <stdint.h>

typedef unsigned long long u64;

#include "dm-swaptier-abi.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

struct swt_tier_status {
	u64 used, total, reads, writes, errors;
};

struct swt_status {
	unsigned int nr_tiers;
	struct swt_tier_status tier[SWT_MAX_TIERS];
	u64 mapped, logical, seq_writes, write_allocs, deferred, pending;
	u64 map_bytes;
	char mode[8];		/* "rw" or "Fail" */
	/* target 1.1 and later: migration */
	int has_migration;
	int migration;		/* 1 on, 0 off */
	u64 promoted, demoted, evacuated, abandoned;
	int evacuate;		/* tier being evacuated, -1 none */
	u64 evacuate_left;
	char tier_state[SWT_MAX_TIERS + 1];	/* SWT_STATE_LETTERS, per tier */
};

struct swt_table {
	unsigned int nr_tiers;
	char tier[SWT_MAX_TIERS][32];	/* "major:minor" */
	char options[512];		/* the optional arguments, verbatim */
};

struct swt_extent {
	u64 lblk, len;
	int tier;			/* -1: unmapped */
	u64 pblk;
};

/*
 * Each returns 0, or -1 with a sentence in err (errlen bytes) saying what
 * was wrong with the input.
 */
int swt_parse_status(const char *params, struct swt_status *st, char *err,
		     size_t errlen);
int swt_parse_table(const char *params, struct swt_table *t, char *err,
		    size_t errlen);
/*
 * The map message: consecutive extent lines, each ending in a newline.
 * When the kernel stopped before the end of the asked range (its response
 * buffer was full), the last line is "next <block>": the blocks from
 * <block> on were not listed and must be asked for again. Parses up to max
 * extents into ext; *n gets their count. *more is 1 if there was a "next"
 * line, with its block (the end of the last extent) in *next; else *more
 * and *next are 0.
 */
int swt_parse_map(const char *text, struct swt_extent *ext, size_t max,
		  size_t *n, int *more, u64 *next, char *err,
		  size_t errlen);
/*
 * Checks a parsed map response to "map <*cur> <end - *cur>": its got
 * extents start at *cur and stay before end, and they reach end unless
 * there was a "next" (more). Moves *cur to the end of its last extent,
 * always forward; the range is covered when *cur == end.
 */
int swt_map_advance(u64 *cur, u64 end, const struct swt_extent *ext,
		    size_t got, int more, char *err, size_t errlen);

/* The heat message: per tier, mapped blocks in each heat bucket. */
int swt_parse_heat(const char *text, u64 h[][SWT_HEAT_BUCKETS],
		   unsigned int *nr_tiers, char *err, size_t errlen);

/*
 * The stats message: key=value words, on lines that start with "tierN:"
 * for the values of tier N. Keys are only ever added, so they are kept
 * as they come, by name; those beyond SWT_STATS_MAX, and keys or values
 * too long to keep, are skipped (counted in skipped), not an error.
 */
#define SWT_STATS_MAX	128

struct swt_stat {
	int tier;			/* -1: the device's */
	char key[32];
	char val[32];
};

struct swt_stats {
	size_t n;
	size_t skipped;			/* values not kept */
	struct swt_stat kv[SWT_STATS_MAX];
};

int swt_parse_stats(const char *text, struct swt_stats *s, char *err,
		    size_t errlen);

/*
 * @s as a number: decimal digits alone, at most @max. Returns 0, or -1
 * (empty, a sign, spaces, other characters, or out of range).
 */
int swt_parse_num(const char *s, u64 max, u64 *v);

/*
 * The table line of a new device in @buf (@len bytes): @ntiers, the tier
 * paths, then @nopt and @opt (optional arguments, each after a blank) if
 * @nopt. Returns 0, or -1 if it does not fit.
 */
int swt_table_line(char *buf, size_t len, int ntiers, char *const *tiers,
		   int nopt, const char *opt);

/* The room create gives the table line and its optional arguments. */
#define SWT_TABLE_LINE_LEN	4096
#define SWT_TABLE_OPT_LEN	1024

/*
 * A size as create --size takes it: decimal digits, then K, M or G (any
 * case); a positive multiple of SWT_BLOCK_SIZE whose byte count fits in
 * 64 bits. Returns 0 with the bytes in *bytes, or -1.
 */
int swt_parse_size(const char *s, u64 *bytes);

/*
 * A create --option argument, KEY=VALUE or FLAG, appended to @opt (@len
 * bytes) as table words, each after a blank ("KEY VALUE" or "FLAG").
 * Returns how many words it added (1 or 2), or -1 if they do not fit.
 * The value of reserve_blocks, if that is the key (in any case, as the
 * target takes it), goes to *reserve.
 */
int swt_table_opt(char *opt, size_t len, const char *arg, u64 *reserve);

/*
 * The optional arguments of one table, checked one by one as the target
 * will check them (dm-swaptier-abi.h): swt_opt_check_init(), then
 * swt_check_option() for each KEY=VALUE or FLAG (discard_passdown,
 * frontier_blocks=N, reserve_blocks=N or a tunable: a known name, its
 * value in range, given once), then swt_check_options_done() for what
 * they say together (at most 32 table words, low_watermark below
 * high_watermark). Each returns 0, or -1 with a sentence in @err.
 */
struct swt_opt_check {
	unsigned long seen;		/* bit per name: given already */
	unsigned int words;		/* table words so far */
	unsigned int knob[SWT_NR_KNOBS];
};

void swt_opt_check_init(struct swt_opt_check *oc);
int swt_check_option(struct swt_opt_check *oc, const char *arg, char *err,
		     size_t errlen);
int swt_check_options_done(const struct swt_opt_check *oc, char *err,
			   size_t errlen);

/* blkparse analysis: requests queued, merged and dispatched per direction. */
#define SWT_HIST_BUCKETS 10	/* 4K, 8K, ... 2M+ (powers of two) */

struct swt_dir_stats {
	u64 queued, merged, dispatched, dispatched_sectors;
	u64 hist[SWT_HIST_BUCKETS];	/* dispatched sizes */
	u64 *sizes;			/* dispatched sizes, sectors */
	size_t nsizes, capsizes;
};

struct swt_trace_dev {
	char dev[32];			/* "major,minor" as blkparse prints */
	struct swt_dir_stats dir[2];	/* 0 read, 1 write */
};

struct swt_trace {
	struct swt_trace_dev *devs;
	size_t ndevs, capdevs;
	u64 lines, ignored;
};

/*
 * Feed one line of default-format blkparse output. Lines that are not
 * trace events (summaries, blank lines) are counted in ignored.
 */
int swt_trace_line(struct swt_trace *t, const char *line);
void swt_trace_free(struct swt_trace *t);
/* Percentile (0-100) of dispatched sizes in sectors; 0 if none. */
u64 swt_dir_percentile(struct swt_dir_stats *d, unsigned int pct);

#endif
