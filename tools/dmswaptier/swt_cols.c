// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmswaptier: tables and JSON from a column description.
 */
#include "swt_cols.h"

#include <ctype.h>
#include <libsmartcols.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int col_find(const struct swt_view *v, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < v->ncols; i++)
		if (strlen(v->cols[i].name) == len &&
		    !strncasecmp(v->cols[i].name, name, len))
			return (int)i;
	return -1;
}

int swt_cols_select(struct swt_view *v, const char *list, char *bad,
		    size_t badlen)
{
	size_t sel[SWT_MAX_COLS], nsel = 0, len, i;
	const char *p = list;
	int c;

	if (*p == '+') {
		nsel = v->nsel;
		memcpy(sel, v->sel, nsel * sizeof(sel[0]));
		p++;
	}
	for (;;) {
		len = strcspn(p, ",");
		c = col_find(v, p, len);
		if (c < 0) {
			snprintf(bad, badlen, "%.*s", (int)len, p);
			return -1;
		}
		/* a column named twice is shown once */
		for (i = 0; i < nsel && sel[i] != (size_t)c; i++)
			;
		if (i == nsel) {
			if (nsel == SWT_MAX_COLS)
				return -2;
			sel[nsel++] = c;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	memcpy(v->sel, sel, nsel * sizeof(sel[0]));
	v->nsel = nsel;
	return 0;
}

void swt_cols_help(FILE *f, const struct swt_view *v)
{
	size_t i;

	for (i = 0; i < v->ncols; i++)
		fprintf(f, "  %12s  %s\n", v->cols[i].name, v->cols[i].help);
}

int swt_cols_print(FILE *f, const struct swt_view *v, const void *const *rows,
		   size_t nrows)
{
	struct libscols_table *tb = scols_new_table();
	char buf[256];
	size_t r, i;
	int ret = -1;

	if (!tb)
		return -1;
	scols_table_set_stream(tb, f);
	scols_table_enable_raw(tb, v->raw);
	scols_table_enable_noheadings(tb, v->noheadings);
	for (i = 0; i < v->nsel; i++) {
		const struct swt_col *c = &v->cols[v->sel[i]];
		int fl = c->flags & SWT_COL_RIGHT ? SCOLS_FL_RIGHT : 0;

		if (!scols_table_new_column(tb, c->header, c->whint, fl))
			goto out;
	}
	for (r = 0; r < nrows; r++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			goto out;
		for (i = 0; i < v->nsel; i++) {
			v->cols[v->sel[i]].get(rows[r], v, buf, sizeof(buf));
			if (scols_line_set_data(ln, i, buf))
				goto out;
		}
	}
	ret = scols_print_table(tb);
out:
	scols_unref_table(tb);
	return ret;
}

void swt_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void swt_json_key(FILE *f, const char *name)
{
	fputc('"', f);
	for (; *name; name++)
		fputc(*name == '-' ? '_' : tolower((unsigned char)*name), f);
	fputs("\": ", f);
}

/* A JSON number: digits, an optional sign, fraction and exponent. */
static bool is_number(const char *s)
{
	char *end;

	if (*s == '-')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	strtod(s, &end);
	return !*end;
}

void swt_cols_json(FILE *f, const struct swt_view *v, const void *row)
{
	char buf[256];
	size_t i;

	for (i = 0; i < v->nsel; i++) {
		const struct swt_col *c = &v->cols[v->sel[i]];
		enum swt_json j = c->json;

		c->get(row, v, buf, sizeof(buf));
		if (j == SWT_J_SIZE)
			j = v->bytes ? SWT_J_NUM : SWT_J_STR;
		fputs(i ? ", " : "", f);
		swt_json_key(f, c->name);
		if (j == SWT_J_STR && !*buf && c->flags & SWT_COL_NULL)
			fputs("null", f);
		else if (j == SWT_J_STR)
			swt_json_str(f, buf);
		else if (j == SWT_J_BOOL ? strcmp(buf, "true") &&
			 strcmp(buf, "false") : !is_number(buf))
			fputs("null", f);
		else
			fputs(buf, f);
	}
}

void swt_size(char *buf, size_t len, u64 bytes, bool exact)
{
	static const char units[] = "BKMGTPE";
	unsigned int u = 0;
	double d = (double)bytes;

	if (exact || bytes < 1024) {
		snprintf(buf, len, exact ? "%llu" : "%lluB",
			 (unsigned long long)bytes);
		return;
	}
	while (d >= 1024 && u + 1 < sizeof(units) - 1) {
		d /= 1024;
		u++;
	}
	/* one decimal, as util-linux; 1023.96K is 1M, not 1024.0K */
	d = (double)(u64)(d * 10 + 0.5) / 10;
	if (d >= 1024 && u + 1 < sizeof(units) - 1) {
		d /= 1024;
		u++;
	}
	if (d == (double)(u64)d)
		snprintf(buf, len, "%llu%c", (unsigned long long)d, units[u]);
	else
		snprintf(buf, len, "%.1f%c", d, units[u]);
}
