/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dmswaptier: output driven by a column description, in the style of
 * util-linux: one table of columns (name, header, help, width hint, JSON
 * type, getter) gives the human table, --raw, --noheadings, --output,
 * --bytes and the JSON objects.
 */
#ifndef SWT_COLS_H
#define SWT_COLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned long long u64;
#include <stdio.h>

/* JSON types of a column's value. */
enum swt_json {
	SWT_J_STR,		/* a string, escaped */
	SWT_J_NUM,		/* a number; an empty value is null */
	SWT_J_BOOL,		/* "true" or "false" */
	SWT_J_SIZE,		/* bytes: a number with --bytes, else a string */
};

#define SWT_COL_RIGHT	1	/* right-aligned in the human table */
#define SWT_COL_NULL	2	/* an empty string is null in JSON */

struct swt_view;

struct swt_col {
	const char *name;	/* for --output; lower case: the JSON key */
	const char *header;	/* in the human table */
	const char *help;
	double whint;		/* width hint: < 1 a share, else columns */
	int flags;		/* SWT_COL_* */
	enum swt_json json;
	/* the value of this column for @row, in @buf */
	void (*get)(const void *row, const struct swt_view *v, char *buf,
		    size_t len);
};

#define SWT_MAX_COLS	32

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

struct swt_view {
	const struct swt_col *cols;	/* the description */
	size_t ncols;
	size_t sel[SWT_MAX_COLS];	/* the columns shown, in order */
	size_t nsel;
	bool bytes;			/* sizes in bytes */
	bool raw;
	bool noheadings;
	bool json;
};

/*
 * Choose the columns of @v from @list, comma-separated names (any case);
 * a list starting with '+' adds to the columns already chosen. A column
 * named twice is chosen once. Returns 0, -1 with the first unknown name in
 * @bad (@badlen bytes), or -2 if more than SWT_MAX_COLS; on error the
 * choice is kept.
 */
int swt_cols_select(struct swt_view *v, const char *list, char *bad,
		    size_t badlen);
/* Every column of @v, one line each: name and help. */
void swt_cols_help(FILE *f, const struct swt_view *v);
/* The chosen columns of every row, as a libsmartcols table on @f. */
int swt_cols_print(FILE *f, const struct swt_view *v, const void *const *rows,
		   size_t nrows);
/* The chosen columns of @row as JSON members ("key": value, ...). */
void swt_cols_json(FILE *f, const struct swt_view *v, const void *row);

/* @s as a JSON string, quoted and escaped. */
void swt_json_str(FILE *f, const char *s);
/* "key": for column name @name (lower case, '-' as '_'). */
void swt_json_key(FILE *f, const char *name);
/* A size: exact bytes, or human units ("96M", "6.7M") as util-linux. */
void swt_size(char *buf, size_t len, u64 bytes, bool exact);

#endif
