/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dmswaptier status: the output of parsed status, table and stats, apart
 * from libdevmapper so that the host tests render recorded devices.
 */
#ifndef SWT_STATUS_H
#define SWT_STATUS_H

#include "swt_cols.h"
#include "swt_parse.h"

struct swt_dev {
	const char *name;
	struct swt_status st;
	struct swt_table tb;
	char device[SWT_MAX_TIERS][160];	/* the tiers, /dev/NAME */
	const struct swt_stats *stats;		/* NULL: not read */
};

/* The tier columns, and the default ones. */
void swt_status_view(struct swt_view *v);
/* Every column but NAME: the default of --json. */
void swt_status_view_json(struct swt_view *v);
/*
 * The tier columns of status: the default of @json or @table, then
 * @output (NULL: none) as swt_cols_select() takes it, with its returns.
 */
int swt_status_select(struct swt_view *v, const char *output, bool json,
		      bool table, char *bad, size_t badlen);
#define SWT_STATUS_COLS "TIER,DEVICE,SIZE,ALLOC,AVAIL,READS,WRITES,HITS,ERRORS,STATE"

/* The human view of one device: a summary around its tier table. */
int swt_status_human(FILE *f, const struct swt_dev *d,
		     const struct swt_view *v);
/* One table of the tiers of every device (--raw, --noheadings, --output). */
int swt_status_table(FILE *f, const struct swt_dev *d, size_t n,
		     const struct swt_view *v);
/* A JSON array with an object for each device. */
void swt_status_json(FILE *f, const struct swt_dev *d, size_t n,
		     const struct swt_view *v);

#endif
