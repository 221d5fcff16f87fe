// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmswaptier status: the columns of a tier, the human view and the JSON
 * of every status field and stats value.
 */
#include "swt_status.h"

#include <stdlib.h>
#include <string.h>

struct tier_row {
	const struct swt_dev *d;
	unsigned int t;
	u64 reads;		/* of every tier of the device */
};

#define ROW(r)	((const struct tier_row *)(r))

static const struct swt_tier_status *tier_of(const void *r)
{
	const struct tier_row *row = r;

	return &row->d->st.tier[row->t];
}

static double ratio(u64 a, u64 b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void put_u64(char *buf, size_t len, u64 v)
{
	snprintf(buf, len, "%llu", v);
}

static void get_name(const void *r, const struct swt_view *v, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s", ROW(r)->d->name);
}

static void get_tier(const void *r, const struct swt_view *v, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%u", ROW(r)->t);
}

static void get_device(const void *r, const struct swt_view *v, char *buf,
		       size_t len)
{
	snprintf(buf, len, "%s", ROW(r)->d->device[ROW(r)->t]);
}

static void get_dev(const void *r, const struct swt_view *v, char *buf,
		    size_t len)
{
	snprintf(buf, len, "%s", ROW(r)->d->tb.tier[ROW(r)->t]);
}

static void get_size(const void *r, const struct swt_view *v, char *buf,
		     size_t len)
{
	swt_size(buf, len, tier_of(r)->total * SWT_BLOCK_SIZE, v->bytes);
}

static void get_alloc(const void *r, const struct swt_view *v, char *buf,
		      size_t len)
{
	swt_size(buf, len, tier_of(r)->used * SWT_BLOCK_SIZE, v->bytes);
}

static void get_avail(const void *r, const struct swt_view *v, char *buf,
		      size_t len)
{
	swt_size(buf, len, (tier_of(r)->total - tier_of(r)->used) * SWT_BLOCK_SIZE,
		 v->bytes);
}

static void get_total(const void *r, const struct swt_view *v, char *buf,
		      size_t len)
{
	put_u64(buf, len, tier_of(r)->total);
}

static void get_used(const void *r, const struct swt_view *v, char *buf,
		     size_t len)
{
	put_u64(buf, len, tier_of(r)->used);
}

static void get_free(const void *r, const struct swt_view *v, char *buf,
		     size_t len)
{
	put_u64(buf, len, tier_of(r)->total - tier_of(r)->used);
}

static void get_reads(const void *r, const struct swt_view *v, char *buf,
		      size_t len)
{
	put_u64(buf, len, tier_of(r)->reads);
}

static void get_writes(const void *r, const struct swt_view *v, char *buf,
		       size_t len)
{
	put_u64(buf, len, tier_of(r)->writes);
}

static void get_errors(const void *r, const struct swt_view *v, char *buf,
		       size_t len)
{
	put_u64(buf, len, tier_of(r)->errors);
}

static void get_hits(const void *r, const struct swt_view *v, char *buf,
		     size_t len)
{
	snprintf(buf, len, v->json ? "%.1f" : "%.1f%%",
		 100.0 * ratio(tier_of(r)->reads, ROW(r)->reads));
}

static void get_state(const void *r, const struct swt_view *v, char *buf,
		      size_t len)
{
	const struct swt_status *st = &ROW(r)->d->st;

	snprintf(buf, len, "%c", st->has_migration ?
		 st->tier_state[ROW(r)->t] : SWT_STATE_NONE);
}

static const struct swt_col tier_cols[] = {
	{ "NAME", "NAME", "dm-swaptier device name", 0.1, 0, SWT_J_STR,
	  get_name },
	{ "TIER", "TIER", "tier number, 0 the fastest", 1, SWT_COL_RIGHT,
	  SWT_J_NUM, get_tier },
	{ "DEVICE", "DEVICE", "tier device", 0.2, 0, SWT_J_STR, get_device },
	{ "DEV", "DEV", "tier device number, major:minor", 6, 0, SWT_J_STR,
	  get_dev },
	{ "SIZE", "SIZE", "size of the tier", 5, SWT_COL_RIGHT, SWT_J_SIZE,
	  get_size },
	{ "ALLOC", "ALLOC", "space holding mapped blocks", 5, SWT_COL_RIGHT,
	  SWT_J_SIZE, get_alloc },
	{ "AVAIL", "AVAIL", "space not mapped (SIZE - ALLOC)", 5,
	  SWT_COL_RIGHT, SWT_J_SIZE, get_avail },
	{ "TOTAL", "TOTAL", "blocks in the tier (status <total>)", 8,
	  SWT_COL_RIGHT, SWT_J_NUM, get_total },
	{ "USED", "USED", "blocks mapped on the tier (status <used>)", 8,
	  SWT_COL_RIGHT, SWT_J_NUM, get_used },
	{ "FREE", "FREE", "blocks not mapped (TOTAL - USED)", 8,
	  SWT_COL_RIGHT, SWT_J_NUM, get_free },
	{ "READS", "READS", "read bios served", 8, SWT_COL_RIGHT, SWT_J_NUM,
	  get_reads },
	{ "WRITES", "WRITES", "write bios completed", 8, SWT_COL_RIGHT,
	  SWT_J_NUM, get_writes },
	{ "HITS", "HITS", "share of the device's reads served, %", 5,
	  SWT_COL_RIGHT, SWT_J_NUM, get_hits },
	{ "ERRORS", "ERRORS", "bios completed with an error", 6,
	  SWT_COL_RIGHT, SWT_J_NUM, get_errors },
	{ "STATE", "STATE",
	  "D demoting, E being evacuated, X evacuated, R refusing writes, - none", 1, 0,
	  SWT_J_STR, get_state },
};

void swt_status_view(struct swt_view *v)
{
	char bad[16];

	memset(v, 0, sizeof(*v));
	v->cols = tier_cols;
	v->ncols = ARRAY_SIZE(tier_cols);
	swt_cols_select(v, SWT_STATUS_COLS, bad, sizeof(bad));
}

void swt_status_view_json(struct swt_view *v)
{
	size_t i;

	v->nsel = 0;
	for (i = 0; i < v->ncols; i++)
		if (v->cols[i].get != get_name)
			v->sel[v->nsel++] = i;
}

int swt_status_select(struct swt_view *v, const char *output, bool json,
		      bool table, char *bad, size_t badlen)
{
	/* +COLS adds to the default of the output asked for */
	if (json && (!output || *output == '+'))
		swt_status_view_json(v);
	else if (table && (!output || *output == '+'))
		swt_cols_select(v, "NAME," SWT_STATUS_COLS, bad, badlen);
	return output ? swt_cols_select(v, output, bad, badlen) : 0;
}

static size_t tier_rows(const struct swt_dev *d, struct tier_row *rows,
			const void **ptrs)
{
	u64 reads = 0;
	unsigned int t;

	for (t = 0; t < d->st.nr_tiers; t++)
		reads += d->st.tier[t].reads;
	for (t = 0; t < d->st.nr_tiers; t++) {
		rows[t].d = d;
		rows[t].t = t;
		rows[t].reads = reads;
		ptrs[t] = &rows[t];
	}
	return d->st.nr_tiers;
}

int swt_status_human(FILE *f, const struct swt_dev *d,
		     const struct swt_view *v)
{
	const struct swt_status *st = &d->st;
	struct tier_row rows[SWT_MAX_TIERS];
	const void *ptrs[SWT_MAX_TIERS];
	char size[32];
	size_t n;

	n = tier_rows(d, rows, ptrs);
	swt_size(size, sizeof(size), st->mapped * SWT_BLOCK_SIZE, v->bytes);
	fprintf(f, "%s: %llu of %llu blocks mapped (%s), mode %s\n",
		d->name, st->mapped, st->logical, size, st->mode);
	fflush(f);
	if (swt_cols_print(f, v, ptrs, n))
		return -1;
	fprintf(f,
		"  sequential writes: %llu of %llu (%.1f%%)   deferred: %llu   freed, pending reuse: %llu\n",
		st->seq_writes, st->write_allocs,
		100.0 * ratio(st->seq_writes, st->write_allocs), st->deferred,
		st->pending);
	fprintf(f, "  map memory: %llu bytes (%.2f B/block)\n",
		st->map_bytes, ratio(st->map_bytes, st->logical));
	if (!st->has_migration)
		return 0;
	fprintf(f,
		"  migration %s: promoted %llu   demoted %llu   evacuated %llu   abandoned %llu   tier states %s\n",
		st->migration ? "on" : "off", st->promoted, st->demoted,
		st->evacuated, st->abandoned, st->tier_state);
	if (st->evacuate >= 0)
		fprintf(f, "  evacuating tier %d: %llu blocks left%s\n",
			st->evacuate, st->evacuate_left, st->evacuate_left ?
			"" : " (done: replace it with a reload)");
	return 0;
}

int swt_status_table(FILE *f, const struct swt_dev *d, size_t n,
		     const struct swt_view *v)
{
	struct tier_row *rows = calloc(n * SWT_MAX_TIERS + 1, sizeof(*rows));
	const void **ptrs = calloc(n * SWT_MAX_TIERS + 1, sizeof(*ptrs));
	size_t i, nrows = 0;
	int ret = -1;

	if (rows && ptrs) {
		for (i = 0; i < n; i++)
			nrows += tier_rows(&d[i], rows + nrows, ptrs + nrows);
		ret = swt_cols_print(f, v, ptrs, nrows);
	}
	free(rows);
	free(ptrs);
	return ret;
}

/* The stats message's values of tier @tier (-1: the device's). */
static void json_stats(FILE *f, const struct swt_stats *s, int tier)
{
	const char *sep = "";
	size_t i;

	fputc('{', f);
	for (i = 0; i < s->n; i++) {
		const char *val = s->kv[i].val;

		if (s->kv[i].tier != tier)
			continue;
		fprintf(f, "%s", sep);
		swt_json_str(f, s->kv[i].key);
		fputs(": ", f);
		if (*val && strspn(val, "0123456789") == strlen(val) &&
		    (val[0] != '0' || !val[1]))
			fputs(val, f);
		else
			swt_json_str(f, val);
		sep = ", ";
	}
	fputc('}', f);
}

/* The device's status fields: the JSON members before its tiers. */
#define DEV(r)	((const struct swt_dev *)(r))
#define MIG(r)	(DEV(r)->st.has_migration)

static void get_dname(const void *r, const struct swt_view *v, char *buf,
		      size_t len)
{
	snprintf(buf, len, "%s", DEV(r)->name);
}

static void get_mode(const void *r, const struct swt_view *v, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s", DEV(r)->st.mode);
}

/* A field of struct swt_status, by its name there. */
#define DEV_U64(field)							\
static void get_##field(const void *r, const struct swt_view *v,	\
			char *buf, size_t len)				\
{									\
	put_u64(buf, len, DEV(r)->st.field);				\
}

DEV_U64(nr_tiers)
DEV_U64(mapped)
DEV_U64(logical)
DEV_U64(seq_writes)
DEV_U64(write_allocs)
DEV_U64(deferred)
DEV_U64(pending)
DEV_U64(map_bytes)

/* The same, from target 1.1 on; before, empty (null). */
#define MIG_U64(field)							\
static void get_##field(const void *r, const struct swt_view *v,	\
			char *buf, size_t len)				\
{									\
	if (MIG(r))							\
		put_u64(buf, len, DEV(r)->st.field);			\
	else								\
		*buf = 0;						\
}

MIG_U64(promoted)
MIG_U64(demoted)
MIG_U64(evacuated)
MIG_U64(abandoned)
MIG_U64(evacuate_left)

static void get_migration(const void *r, const struct swt_view *v,
			  char *buf, size_t len)
{
	snprintf(buf, len, "%s", !MIG(r) ? "" :
		 DEV(r)->st.migration ? "true" : "false");
}

static void get_evacuate(const void *r, const struct swt_view *v, char *buf,
			 size_t len)
{
	if (MIG(r) && DEV(r)->st.evacuate >= 0)
		snprintf(buf, len, "%d", DEV(r)->st.evacuate);
	else
		*buf = 0;
}

static void get_tier_state(const void *r, const struct swt_view *v,
			   char *buf, size_t len)
{
	snprintf(buf, len, "%s", MIG(r) ? DEV(r)->st.tier_state : "");
}

#define DEV_COL(name, help, json) \
	{ #name, #name, help, 0, 0, json, get_##name }

static const struct swt_col dev_cols[] = {
	{ "name", "name", "dm-swaptier device name", 0, 0, SWT_J_STR,
	  get_dname },
	DEV_COL(mode, "rw, or Fail after an inconsistent map", SWT_J_STR),
	DEV_COL(nr_tiers, "tiers", SWT_J_NUM),
	DEV_COL(mapped, "logical blocks mapped", SWT_J_NUM),
	DEV_COL(logical, "logical blocks", SWT_J_NUM),
	DEV_COL(seq_writes, "blocks written after the previous one",
		SWT_J_NUM),
	DEV_COL(write_allocs, "blocks allocated for writes", SWT_J_NUM),
	DEV_COL(deferred, "writes that waited for a free block", SWT_J_NUM),
	DEV_COL(pending, "freed blocks not yet reusable", SWT_J_NUM),
	DEV_COL(map_bytes, "kernel memory of the map", SWT_J_NUM),
	DEV_COL(migration, "migration on (true) or off", SWT_J_BOOL),
	DEV_COL(promoted, "blocks moved up", SWT_J_NUM),
	DEV_COL(demoted, "blocks moved down", SWT_J_NUM),
	DEV_COL(evacuated, "blocks moved off an evacuated tier", SWT_J_NUM),
	DEV_COL(abandoned, "copies dropped for a racing write or discard",
		SWT_J_NUM),
	DEV_COL(evacuate, "tier being evacuated, or null", SWT_J_NUM),
	DEV_COL(evacuate_left, "blocks still on it", SWT_J_NUM),
	{ "tier_state", "tier_state", "a letter per tier, as STATE", 0,
	  SWT_COL_NULL, SWT_J_STR, get_tier_state },
};

static void json_dev(FILE *f, const struct swt_dev *d,
		     const struct swt_view *v)
{
	struct swt_view dv = { .cols = dev_cols, .ncols = ARRAY_SIZE(dev_cols) };
	struct tier_row rows[SWT_MAX_TIERS];
	const void *ptrs[SWT_MAX_TIERS];
	size_t n, i;

	for (i = 0; i < dv.ncols; i++)
		dv.sel[dv.nsel++] = i;
	n = tier_rows(d, rows, ptrs);
	fputc('{', f);
	swt_cols_json(f, &dv, d);
	fputs(", \"tiers\": [", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ", {" : "{", f);
		swt_cols_json(f, v, ptrs[i]);
		if (d->stats) {
			fputs(", \"stats\": ", f);
			json_stats(f, d->stats, (int)i);
		}
		fputc('}', f);
	}
	fputc(']', f);
	if (d->stats) {
		fputs(", \"stats\": ", f);
		json_stats(f, d->stats, -1);
	}
	fputc('}', f);
}

void swt_status_json(FILE *f, const struct swt_dev *d, size_t n,
		     const struct swt_view *v)
{
	size_t i;

	fputs("[\n", f);
	for (i = 0; i < n; i++) {
		fputs("  ", f);
		json_dev(f, &d[i], v);
		fputs(i + 1 < n ? ",\n" : "\n", f);
	}
	fputs("]\n", f);
}
