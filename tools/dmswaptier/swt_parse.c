// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmswaptier: parsers for the target's status, table and map output, and
 * for blkparse's default output format.
 */
#include "swt_parse.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* dmsetup table prints every option given: all of them must parse back */
static_assert(SWT_ALL_OPT_WORDS <= SWT_MAX_OPT_WORDS,
	      "every option at once must fit in a table line");

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Read one unsigned decimal field; *p advances past it and its spaces. */
static int field_u64(const char **p, u64 *v)
{
	char *end;

	while (**p == ' ')
		(*p)++;
	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	*v = strtoull(*p, &end, 10);
	if (errno || (*end && *end != ' ' && *end != '\n'))
		return -1;
	*p = end;
	return 0;
}

static int field_word(const char **p, char *buf, size_t len)
{
	size_t n = 0;

	while (**p == ' ')
		(*p)++;
	while (**p && **p != ' ' && **p != '\n') {
		if (n + 1 >= len)
			return -1;
		buf[n++] = *(*p)++;
	}
	buf[n] = 0;
	return n ? 0 : -1;
}

static int at_end(const char *p)
{
	while (*p == ' ' || *p == '\n')
		p++;
	return !*p;
}

/* <on|off> <promoted> <demoted> <evacuated> <abandoned> <tier|-> <left> <states> */
static int parse_migration(const char *p, struct swt_status *st, char *err,
			   size_t errlen)
{
	u64 *counts[] = { &st->promoted, &st->demoted, &st->evacuated,
			       &st->abandoned };
	char word[16];
	unsigned int i;

	if (field_word(&p, word, sizeof(word)) ||
	    (strcmp(word, "on") && strcmp(word, "off")))
		return fail(err, errlen,
			    "status: unexpected fields after the mode (target version not supported?)");
	st->migration = !strcmp(word, "on");
	for (i = 0; i < 4; i++)
		if (field_u64(&p, counts[i]))
			return fail(err, errlen,
				    "status: migration field %u missing or not a number",
				    i);
	if (field_word(&p, word, sizeof(word)))
		return fail(err, errlen, "status: evacuation tier missing");
	if (strcmp(word, "-")) {
		char *end;
		unsigned long v = strtoul(word, &end, 10);

		if (*end || v >= st->nr_tiers)
			return fail(err, errlen, "status: bad evacuation tier '%s'", word);
		st->evacuate = (int)v;
	}
	if (field_u64(&p, &st->evacuate_left))
		return fail(err, errlen, "status: evacuation progress missing");
	if (field_word(&p, st->tier_state, sizeof(st->tier_state)) ||
	    strlen(st->tier_state) != st->nr_tiers ||
	    strspn(st->tier_state, SWT_STATE_LETTERS) != st->nr_tiers)
		return fail(err, errlen, "status: bad tier states");
	if (!at_end(p))
		return fail(err, errlen,
			    "status: unexpected fields after the tier states (target version not supported?)");
	st->has_migration = 1;
	return 0;
}

int swt_parse_status(const char *params, struct swt_status *st, char *err,
		     size_t errlen)
{
	const char *p = params;
	u64 n, *globals[] = {
		&st->mapped, &st->logical, &st->seq_writes, &st->write_allocs,
		&st->deferred, &st->pending, &st->map_bytes,
	};
	unsigned int t, i;

	memset(st, 0, sizeof(*st));
	if (field_u64(&p, &n) || n < 1 || n > SWT_MAX_TIERS)
		return fail(err, errlen, "status: bad tier count in '%.60s'", params);
	st->nr_tiers = n;
	for (t = 0; t < st->nr_tiers; t++) {
		struct swt_tier_status *ts = &st->tier[t];
		u64 *f[] = { &ts->used, &ts->total, &ts->reads,
				  &ts->writes, &ts->errors };

		for (i = 0; i < 5; i++)
			if (field_u64(&p, f[i]))
				return fail(err, errlen,
					    "status: tier %u field %u missing or not a number",
					    t, i);
		if (ts->used > ts->total)
			return fail(err, errlen, "status: tier %u uses more blocks than it has", t);
	}
	for (i = 0; i < ARRAY_SIZE(globals); i++)
		if (field_u64(&p, globals[i]))
			return fail(err, errlen,
				    "status: global field %u missing or not a number",
				    i);
	if (field_word(&p, st->mode, sizeof(st->mode)) ||
	    (strcmp(st->mode, SWT_MODE_RW) &&
	     strcmp(st->mode, SWT_MODE_FAIL)))
		return fail(err, errlen, "status: unknown mode (target version not supported?)");
	st->evacuate = -1;
	if (at_end(p))
		return 0;	/* target 1.0: no migration */
	return parse_migration(p, st, err, errlen);
}

int swt_parse_heat(const char *text, u64 h[][SWT_HEAT_BUCKETS],
		   unsigned int *nr_tiers, char *err, size_t errlen)
{
	static const char head[] = SWT_HEAT_HEADER;
	const char *p = text;
	unsigned int t, b;
	u64 tier;

	*nr_tiers = 0;
	if (strncmp(p, head, sizeof(head) - 1)) {
		if (*p && !strncmp(p, head, strlen(p)))
			return fail(err, errlen, "heat: line 1 is incomplete (no newline)");
		return fail(err, errlen, "heat: unexpected header (target version not supported?)");
	}
	p += sizeof(head) - 1;
	for (t = 0; *p; t++) {
		if (t >= SWT_MAX_TIERS || strncmp(p, "tier", 4))
			return fail(err, errlen, "heat: line %u is not a tier line", t + 2);
		p += 4;
		if (field_u64(&p, &tier) || tier != t)
			return fail(err, errlen, "heat: tier %u out of order", t);
		for (b = 0; b < SWT_HEAT_BUCKETS; b++)
			if (field_u64(&p, &h[t][b]))
				return fail(err, errlen, "heat: tier %u bucket %u missing", t, b);
		while (*p == ' ')
			p++;
		if (!*p)
			return fail(err, errlen, "heat: line %u is incomplete (no newline)", t + 2);
		if (*p != '\n')
			return fail(err, errlen, "heat: tier %u line is too long", t);
		p++;
	}
	if (!t)
		return fail(err, errlen, "heat: no tier lines");
	*nr_tiers = t;
	return 0;
}

int swt_parse_table(const char *params, struct swt_table *t, char *err,
		    size_t errlen)
{
	const char *p = params;
	unsigned int i;
	u64 n;

	memset(t, 0, sizeof(*t));
	if (field_u64(&p, &n) || n < 1 || n > SWT_MAX_TIERS)
		return fail(err, errlen, "table: bad tier count in '%.60s'", params);
	t->nr_tiers = n;
	for (i = 0; i < t->nr_tiers; i++)
		if (field_word(&p, t->tier[i], sizeof(t->tier[i])))
			return fail(err, errlen, "table: tier %u device missing", i);
	while (*p == ' ')
		p++;
	if (strlen(p) >= sizeof(t->options))
		return fail(err, errlen, "table: optional arguments too long");
	memcpy(t->options, p, strlen(p) + 1);
	return 0;
}

/*
 * The end of map line @line at *@p: spaces, then its newline, which *@p
 * is left past. A line cut before its newline means the kernel's output
 * was cut.
 */
static int map_line_end(const char **p, size_t line, char *err, size_t errlen)
{
	while (**p == ' ')
		(*p)++;
	if (!**p)
		return fail(err, errlen, "map: line %zu is incomplete (no newline)", line);
	if (**p != '\n')
		return fail(err, errlen, "map: line %zu has extra fields", line);
	(*p)++;
	return 0;
}

/* The rest of a map response's "next <block>\n" line, after "next". */
static int map_next(const char *p, size_t line, const struct swt_extent *ext,
		    size_t n, u64 *next, char *err, size_t errlen)
{
	u64 block, end;

	if (*p != ' ' || field_u64(&p, &block))
		return fail(err, errlen, "map: line %zu is malformed", line);
	if (map_line_end(&p, line, err, errlen))
		return -1;
	if (*p)
		return fail(err, errlen, "map: line %zu: 'next' is not the last line", line);
	if (!n)
		return fail(err, errlen, "map: line %zu: 'next' without an extent before it", line);
	end = ext[n - 1].lblk + ext[n - 1].len;
	if (block != end)
		return fail(err, errlen,
			    "map: line %zu: next %llu is not the end %llu of the last extent",
			    line, (unsigned long long)block, (unsigned long long)end);
	*next = block;
	return 0;
}

int swt_parse_map(const char *text, struct swt_extent *ext, size_t max,
		  size_t *n, int *more, u64 *next, char *err,
		  size_t errlen)
{
	const char *p = text;
	char tier[16], phys[24];
	size_t line = 0;

	*n = 0;
	*more = 0;
	*next = 0;
	while (*p) {
		struct swt_extent e;
		const char *q;
		u64 tv;

		line++;
		if (!strncmp(p, "next", 4)) {
			if (map_next(p + 4, line, ext, *n, next, err, errlen))
				return -1;
			*more = 1;
			return 0;
		}
		if (*n == max)
			return fail(err, errlen, "map: more than %zu extents", max);
		if (field_u64(&p, &e.lblk) || field_u64(&p, &e.len) || !e.len ||
		    e.len > UINT64_MAX - e.lblk ||
		    field_word(&p, tier, sizeof(tier)) ||
		    field_word(&p, phys, sizeof(phys)))
			return fail(err, errlen, "map: line %zu is malformed", line);
		if (!strcmp(tier, "-") && !strcmp(phys, "-")) {
			e.tier = -1;
			e.pblk = 0;
		} else {
			q = tier;
			if (field_u64(&q, &tv) || tv >= SWT_MAX_TIERS || *q)
				return fail(err, errlen,
					    "map: line %zu: bad tier '%s'",
					    line, tier);
			q = phys;
			if (field_u64(&q, &e.pblk) || *q)
				return fail(err, errlen,
					    "map: line %zu: bad block '%s'",
					    line, phys);
			e.tier = tv;
		}
		if (*n && ext[*n - 1].lblk + ext[*n - 1].len != e.lblk)
			return fail(err, errlen,
				    "map: line %zu does not follow the previous extent",
				    line);
		if (map_line_end(&p, line, err, errlen))
			return -1;
		ext[(*n)++] = e;
	}
	return 0;
}

int swt_map_advance(u64 *cur, u64 end, const struct swt_extent *ext,
		    size_t got, int more, char *err, size_t errlen)
{
	unsigned long long from = *cur, last;

	if (!got)
		return fail(err, errlen, "map: no extent listed from block %llu on", from);
	if (ext[0].lblk != from)
		return fail(err, errlen,
			    "map: extents from block %llu asked for, from %llu listed",
			    from, (unsigned long long)ext[0].lblk);
	/* swt_parse_map made the extents consecutive, each at least 1 long */
	last = ext[got - 1].lblk + ext[got - 1].len;
	if (last > end)
		return fail(err, errlen,
			    "map: extents up to block %llu asked for, up to %llu listed",
			    (unsigned long long)end - 1, last - 1);
	if (!more && last != end)
		return fail(err, errlen,
			    "map: the extents stop at block %llu, not %llu, without a 'next' line",
			    last, (unsigned long long)end);
	*cur = last;
	return 0;
}

/*----------------------------------------------------------------*/

static struct swt_trace_dev *trace_dev(struct swt_trace *t, const char *dev)
{
	struct swt_trace_dev *d;
	size_t i;

	for (i = 0; i < t->ndevs; i++)
		if (!strcmp(t->devs[i].dev, dev))
			return &t->devs[i];
	if (t->ndevs == t->capdevs) {
		size_t cap = t->capdevs ? 2 * t->capdevs : 4;
		void *nd = realloc(t->devs, cap * sizeof(*t->devs));

		if (!nd)
			return NULL;
		t->devs = nd;
		t->capdevs = cap;
	}
	d = &t->devs[t->ndevs++];
	memset(d, 0, sizeof(*d));
	snprintf(d->dev, sizeof(d->dev), "%s", dev);
	return d;
}

static int add_size(struct swt_dir_stats *d, u64 sectors)
{
	unsigned int b = 0;
	u64 kib = sectors / 2;

	while (b + 1 < SWT_HIST_BUCKETS && kib > (4ULL << b))
		b++;
	d->hist[b]++;
	if (d->nsizes == d->capsizes) {
		size_t cap = d->capsizes ? 2 * d->capsizes : 256;
		void *ns = realloc(d->sizes, cap * sizeof(*d->sizes));

		if (!ns)
			return -1;
		d->sizes = ns;
		d->capsizes = cap;
	}
	d->sizes[d->nsizes++] = sectors;
	return 0;
}

int swt_trace_line(struct swt_trace *t, const char *line)
{
	char dev[32], act[8], rwbs[16];
	unsigned long long nsect;
	unsigned int cpu, pid;
	unsigned long seq;
	struct swt_trace_dev *d;
	struct swt_dir_stats *ds;
	const char *plus;
	double when;
	int dir;

	t->lines++;
	if (sscanf(line, "%31s %u %lu %lf %u %7s %15s", dev, &cpu, &seq, &when,
		   &pid, act, rwbs) != 7 || !strchr(dev, ',')) {
		t->ignored++;
		return 0;
	}
	if (strchr(rwbs, 'W'))
		dir = 1;
	else if (strchr(rwbs, 'R'))
		dir = 0;
	else
		return 0;	/* flush, discard or no data */
	plus = strstr(line, " + ");
	if (!plus || sscanf(plus, " + %llu", &nsect) != 1)
		return 0;
	d = trace_dev(t, dev);
	if (!d)
		return -1;
	ds = &d->dir[dir];
	if (!strcmp(act, "Q")) {
		ds->queued++;
	} else if (!strcmp(act, "M") || !strcmp(act, "F")) {
		ds->merged++;
	} else if (!strcmp(act, "D") && nsect) {
		ds->dispatched++;
		ds->dispatched_sectors += nsect;
		if (add_size(ds, nsect))
			return -1;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

u64 swt_dir_percentile(struct swt_dir_stats *d, unsigned int pct)
{
	size_t i;

	if (!d->nsizes)
		return 0;
	qsort(d->sizes, d->nsizes, sizeof(*d->sizes), cmp_u64);
	i = (d->nsizes - 1) * (pct > 100 ? 100 : pct) / 100;
	return d->sizes[i];
}

void swt_trace_free(struct swt_trace *t)
{
	size_t i;

	for (i = 0; i < t->ndevs; i++) {
		free(t->devs[i].dir[0].sizes);
		free(t->devs[i].dir[1].sizes);
	}
	free(t->devs);
	memset(t, 0, sizeof(*t));
}

/*----------------------------------------------------------------*/

int swt_parse_stats(const char *text, struct swt_stats *s, char *err,
		    size_t errlen)
{
	const char *p = text;
	size_t line = 1;
	int tier = -1;

	memset(s, 0, sizeof(*s));
	while (*p) {
		struct swt_stat *kv;
		size_t klen, vlen;
		const char *eq;

		while (*p == ' ')
			p++;
		if (*p == '\n') {
			tier = -1;
			line++;
			p++;
			continue;
		}
		if (!*p)
			break;
		klen = strcspn(p, "\n ");
		if (!strncmp(p, "tier", 4) && p[klen - 1] == ':') {
			char *end;
			unsigned long t = strtoul(p + 4, &end, 10);

			if (end != p + klen - 1 || end == p + 4 ||
			    t >= SWT_MAX_TIERS)
				return fail(err, errlen, "stats: line %zu: bad tier '%.*s'",
					    line, (int)klen, p);
			tier = (int)t;
			p += klen;
			continue;
		}
		eq = memchr(p, '=', klen);
		if (!eq || eq == p)
			return fail(err, errlen, "stats: line %zu: '%.*s' is not key=value",
				    line, (int)klen, p);
		kv = &s->kv[s->n];
		vlen = klen - (eq - p) - 1;
		/* a newer target's: skipped, the rest is still shown */
		if (s->n == SWT_STATS_MAX || (size_t)(eq - p) >= sizeof(kv->key) ||
		    vlen >= sizeof(kv->val)) {
			s->skipped++;
			p += klen;
			continue;
		}
		memcpy(kv->key, p, eq - p);
		memcpy(kv->val, eq + 1, vlen);
		kv->tier = tier;
		s->n++;
		p += klen;
	}
	return 0;
}

/*----------------------------------------------------------------*/

int swt_parse_num(const char *s, u64 max, u64 *v)
{
	unsigned long long n;
	char *end;

	if (*s < '0' || *s > '9')	/* strtoull takes spaces and signs */
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || *end || n > max)
		return -1;
	*v = n;
	return 0;
}

int swt_table_line(char *buf, size_t len, int ntiers, char *const *tiers,
		   int nopt, const char *opt)
{
	size_t off = 0;
	int i, n;

	n = snprintf(buf, len, "%d", ntiers);
	for (i = 0; n >= 0 && (size_t)n < len - off && i < ntiers; i++) {
		off += n;
		n = snprintf(buf + off, len - off, " %s", tiers[i]);
	}
	if (n >= 0 && (size_t)n < len - off && nopt) {
		off += n;
		n = snprintf(buf + off, len - off, " %d%s", nopt, opt);
	}
	return n >= 0 && (size_t)n < len - off ? 0 : -1;
}

/*----------------------------------------------------------------*/
/* create's size and options */

int swt_parse_size(const char *s, u64 *bytes)
{
	unsigned int shift = 0;
	u64 v;
	char *end;

	if (*s < '0' || *s > '9')	/* strtoull takes spaces and signs */
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	if (shift)
		end++;
	if (*end || v > UINT64_MAX >> shift)
		return -1;
	v <<= shift;
	if (!v || v % SWT_BLOCK_SIZE)
		return -1;
	*bytes = v;
	return 0;
}

int swt_table_opt(char *opt, size_t len, const char *arg, u64 *reserve)
{
	const char *eq = strchr(arg, '=');
	size_t l = strlen(opt);

	if (!eq) {
		if ((size_t)snprintf(opt + l, len - l, " %s", arg) >= len - l)
			return -1;
		return 1;
	}
	if ((size_t)snprintf(opt + l, len - l, " %.*s %s", (int)(eq - arg),
			     arg, eq + 1) >= len - l)
		return -1;
	if (!strncasecmp(arg, "reserve_blocks=", 15))
		*reserve = strtoull(eq + 1, NULL, 10);
	return 2;
}

static const struct swt_knob_desc opt_knobs[SWT_NR_KNOBS] = SWT_KNOB_DESCS;

/* The options that are not tunables, after them in swt_opt_check.seen. */
enum { OPT_DISCARD = SWT_NR_KNOBS, OPT_FRONTIER, OPT_RESERVE };

void swt_opt_check_init(struct swt_opt_check *oc)
{
	unsigned int k;

	memset(oc, 0, sizeof(*oc));
	for (k = 0; k < SWT_NR_KNOBS; k++)
		oc->knob[k] = opt_knobs[k].def;
}

/* @v (digits alone) in @min..@max, or -1 with the reason in @err. */
static int opt_range(const char *name, const char *v, unsigned int min,
		     unsigned int max, unsigned int *val, char *err,
		     size_t errlen)
{
	u64 n;

	if (swt_parse_num(v, max, &n) || n < min)
		return fail(err, errlen, "%s: '%s' is not a number from %u to %u",
			    name, v, min, max);
	*val = (unsigned int)n;
	return 0;
}

int swt_check_option(struct swt_opt_check *oc, const char *arg, char *err,
		     size_t errlen)
{
	const char *eq = strchr(arg, '='), *v = eq ? eq + 1 : NULL;
	size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
	unsigned int which, val;
	char name[32];

	if (!nlen || nlen >= sizeof(name))
		return fail(err, errlen, "'%s' is not an option (KEY=VALUE or FLAG)",
			    arg);
	memcpy(name, arg, nlen);
	name[nlen] = 0;
	/* the target compares names in any case, as here */
	for (which = 0; which < SWT_NR_KNOBS; which++)
		if (!strcasecmp(name, opt_knobs[which].name))
			break;
	if (which == SWT_NR_KNOBS) {
		if (!strcasecmp(name, "discard_passdown"))
			which = OPT_DISCARD;
		else if (!strcasecmp(name, "frontier_blocks"))
			which = OPT_FRONTIER;
		else if (!strcasecmp(name, "reserve_blocks"))
			which = OPT_RESERVE;
		else
			return fail(err, errlen,
				    "unknown option '%s' (discard_passdown, frontier_blocks, reserve_blocks or a tunable of dmswaptier set --help)",
				    name);
	}
	if (oc->seen & (1UL << which))
		return fail(err, errlen, "option %s given twice", name);
	oc->seen |= 1UL << which;
	if (which == OPT_DISCARD) {
		if (v)
			return fail(err, errlen, "%s takes no value", name);
		oc->words++;
		return 0;
	}
	if (!v || !*v)
		return fail(err, errlen, "%s needs a value (%s=VALUE)", name,
			    name);
	oc->words += 2;
	if (which == OPT_FRONTIER)
		return opt_range(name, v, SWT_FRONTIER_MIN, SWT_FRONTIER_MAX,
				 &val, err, errlen);
	if (which == OPT_RESERVE)
		return opt_range(name, v, SWT_RESERVE_MIN, SWT_MAX_BLOCKS,
				 &val, err, errlen);
	if (opt_knobs[which].onoff) {
		if (!strcasecmp(v, "on"))
			oc->knob[which] = 1;
		else if (!strcasecmp(v, "off"))
			oc->knob[which] = 0;
		else
			return fail(err, errlen, "%s: on or off, not '%s'",
				    name, v);
		return 0;
	}
	return opt_range(name, v, opt_knobs[which].min, opt_knobs[which].max,
			 &oc->knob[which], err, errlen);
}

int swt_check_options_done(const struct swt_opt_check *oc, char *err,
			   size_t errlen)
{
	if (oc->words > SWT_MAX_OPT_WORDS)
		return fail(err, errlen,
			    "%u table words of options, the target takes at most %u",
			    oc->words, SWT_MAX_OPT_WORDS);
	if (oc->knob[SWT_K_LOW_WM] >= oc->knob[SWT_K_HIGH_WM])
		return fail(err, errlen,
			    "low_watermark (%u) must be below high_watermark (%u)",
			    oc->knob[SWT_K_LOW_WM], oc->knob[SWT_K_HIGH_WM]);
	return 0;
}
