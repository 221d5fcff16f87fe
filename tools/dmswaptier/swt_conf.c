// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmswaptier: the configuration file parser (swt_conf.h). Plain C with no
 * I/O, tested on the host (tests/tool/test_conf.c).
 */
#include "swt_conf.h"
#include "swt_parse.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct swt_conf_ctx {
	const char *file;
	unsigned int line;
	char *err;
	size_t errlen;
};

static int conf_error(struct swt_conf_ctx *x, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(x->err, x->errlen, "%s:%u: ", x->file, x->line);
	if (n < 0 || (size_t)n >= x->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(x->err + n, x->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/*
 * Names dmsetup accepts and that make a plain /dev/mapper path: letters,
 * digits, - _ . + (nothing libdevmapper would mangle), under 128 bytes
 * (DM_NAME_LEN), not control (/dev/mapper/control is the device-mapper's
 * own node), not starting with '-', which create and remove would take
 * for an option, and not starting with '.' (so neither . nor ..): the
 * record of a device under /run/dmswaptier is a file of its name, and a
 * name starting with '.' is how a record being written is told apart.
 */
#define NAME_RULE	" (letters, digits, - _ . +, neither - nor . first)"

static bool good_name(const char *s)
{
	if (!*s || strlen(s) >= 128 || !strcmp(s, "control") || *s == '-' ||
	    *s == '.')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.+", *s))
			return false;
	return true;
}

/* Split @v at blanks into @out (at most @max words of SWT_CONF_WORD). */
static int words(struct swt_conf_ctx *x, const char *key, char *v,
		 char out[][SWT_CONF_WORD], unsigned int max, unsigned int *n)
{
	char *w, *save = NULL;

	*n = 0;
	for (w = strtok_r(v, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (*n == max)
			return conf_error(x, "%s: more than %u values", key, max);
		if (strlen(w) >= SWT_CONF_WORD)
			return conf_error(x, "%s: '%.40s...' is too long", key, w);
		snprintf(out[(*n)++], SWT_CONF_WORD, "%s", w);
	}
	if (!*n)
		return conf_error(x, "%s: no value", key);
	return 0;
}

static int set_word(struct swt_conf_ctx *x, const char *key, const char *v,
		    char *dst, size_t len)
{
	if (!*v || strpbrk(v, " \t"))
		return conf_error(x, "%s: one word expected", key);
	if (strlen(v) >= len)
		return conf_error(x, "%s: '%s' is too long", key, v);
	snprintf(dst, len, "%s", v);
	return 0;
}

/* yes (on, 1) or no (off, 0) */
static int yes_no(struct swt_conf_ctx *x, const char *key, const char *v,
		  bool *b)
{
	if (!strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "1"))
		*b = true;
	else if (!strcmp(v, "no") || !strcmp(v, "off") || !strcmp(v, "0"))
		*b = false;
	else
		return conf_error(x, "%s: yes or no, not '%s'", key, v);
	return 0;
}

/* options: each as the target will take it (swt_check_option) */
static int check_options(struct swt_conf_ctx *x, struct swt_conf_dev *d)
{
	struct swt_opt_check oc;
	char why[192];
	unsigned int i;

	swt_opt_check_init(&oc);
	for (i = 0; i < d->nopts; i++)
		if (swt_check_option(&oc, d->opt[i], why, sizeof(why)))
			return conf_error(x, "options: %s", why);
	if (swt_check_options_done(&oc, why, sizeof(why)))
		return conf_error(x, "options: %s", why);
	return 0;
}

/* priority: a whole number in swapon's range */
static int set_priority(struct swt_conf_ctx *x, struct swt_conf_dev *d,
			const char *v)
{
	const char *digits = v + (*v == '-');
	u64 n;

	if (swt_parse_num(digits, SWT_CONF_PRIO_MAX + 1ULL, &n) ||
	    (*v == '-' && n > 1) || (*v != '-' && n > SWT_CONF_PRIO_MAX))
		return conf_error(x, "priority: '%s' is not a number from %d to %d",
				  v, SWT_CONF_PRIO_MIN, SWT_CONF_PRIO_MAX);
	d->priority = *v == '-' ? -(int)n : (int)n;
	d->has_priority = true;
	return 0;
}

static int key_value(struct swt_conf_ctx *x, struct swt_conf_dev *d,
		     const char *key, char *v)
{
	if (!strcmp(key, "tiers")) {
		unsigned int i, j;

		if (words(x, key, v, d->tier, SWT_MAX_TIERS, &d->ntiers))
			return -1;
		/* a path, never an option of create; each device once */
		for (i = 0; i < d->ntiers; i++) {
			if (d->tier[i][0] != '/')
				return conf_error(x, "tiers: '%s' is not an absolute path",
						  d->tier[i]);
			for (j = 0; j < i; j++)
				if (!strcmp(d->tier[i], d->tier[j]))
					return conf_error(x, "tiers: '%s' given twice",
							  d->tier[i]);
		}
		return 0;
	}
	if (!strcmp(key, "options")) {
		if (words(x, key, v, d->opt, SWT_CONF_MAX_OPTS, &d->nopts))
			return -1;
		return check_options(x, d);
	}
	if (!strcmp(key, "size")) {
		if (set_word(x, key, v, d->size, sizeof(d->size)))
			return -1;
		if (swt_parse_size(v, &d->size_bytes))
			return conf_error(x, "size: '%s': a positive multiple of %u bytes expected",
					  v, SWT_BLOCK_SIZE);
		return 0;
	}
	if (!strcmp(key, "priority")) {
		if (!*v || strpbrk(v, " \t"))
			return conf_error(x, "%s: one word expected", key);
		return set_priority(x, d, v);
	}
	if (!strcmp(key, "discard"))
		return yes_no(x, key, v, &d->discard);
	if (!strcmp(key, "force"))
		return yes_no(x, key, v, &d->force);
	if (!strcmp(key, "wait")) {
		u64 n;

		if (swt_parse_num(v, SWT_CONF_WAIT_MAX, &n))
			return conf_error(x, "wait: '%s' is not a number of seconds from 0 to %d",
					  v, SWT_CONF_WAIT_MAX);
		d->wait = (unsigned int)n;
		return 0;
	}
	return conf_error(x, "unknown key '%s'", key);
}

/* The keys of a section, in swt_conf_dev.key_line's order. */
static const char *const conf_keys[SWT_CONF_NKEYS] = {
	"tiers", "size", "options", "priority", "discard", "wait", "force",
};

#define CONF_KEYS	"tiers, size, options, priority, discard, wait, force"

/* @key = @v in @d: each key once, and no comment after the value */
static int set_key(struct swt_conf_ctx *x, struct swt_conf_dev *d,
		   const char *key, char *v)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(conf_keys); k++)
		if (!strcmp(key, conf_keys[k]))
			break;
	if (k == ARRAY_SIZE(conf_keys))
		return conf_error(x, "unknown key '%s' (%s)", key, CONF_KEYS);
	if (d->key_line[k])
		return conf_error(x, "%s given again (first at line %u)", key,
				  d->key_line[k]);
	d->key_line[k] = x->line;
	if (strpbrk(v, "#;"))
		return conf_error(x, "%s: '%c' in the value (a comment goes on a line of its own)",
				  key, *strpbrk(v, "#;"));
	return key_value(x, d, key, v);
}

/*
 * create's table line of @d fits in create's room for it: activate gives
 * create each tier as the device number it resolved, at most this long.
 */
#define CONF_LONGEST_DEVNUM	"4095:1048575"

static bool table_fits(const struct swt_conf_dev *d)
{
	char opt[SWT_TABLE_OPT_LEN] = "", line[SWT_TABLE_LINE_LEN];
	char *tiers[SWT_MAX_TIERS];
	unsigned int i;
	int n, nopt = 0;
	u64 reserve;

	for (i = 0; i < d->nopts; i++) {
		n = swt_table_opt(opt, sizeof(opt), d->opt[i], &reserve);
		if (n < 0)
			return false;
		nopt += n;
	}
	for (i = 0; i < d->ntiers; i++)
		tiers[i] = CONF_LONGEST_DEVNUM;
	return !swt_table_line(line, sizeof(line), d->ntiers, tiers, nopt, opt);
}

int swt_conf_parse(const char *file, const char *buf, struct swt_conf *c,
		   char *err, size_t errlen)
{
	struct swt_conf_ctx x = { .file = file, .err = err, .errlen = errlen };
	struct swt_conf_dev *d = NULL;
	char line[4096], *s, *eq;
	const char *p = buf, *nl;
	unsigned int i;
	size_t len;

	memset(c, 0, sizeof(*c));
	while (*p) {
		x.line++;
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (len >= sizeof(line))
			return conf_error(&x, "line too long");
		memcpy(line, p, len);
		line[len] = 0;
		p += len + (nl ? 1 : 0);
		s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');

			if (!e || e[1])
				return conf_error(&x, "a section is [name]");
			*e = 0;
			s = trim(s + 1);
			if (!good_name(s))
				return conf_error(&x, "'%s' is not a device name%s",
						  s, NAME_RULE);
			for (i = 0; i < c->ndevs; i++)
				if (!strcmp(c->dev[i].name, s))
					return conf_error(&x, "[%s] again (first at line %u)",
							  s, c->dev[i].line);
			if (c->ndevs == SWT_CONF_MAX_DEVS)
				return conf_error(&x, "more than %d devices",
						  SWT_CONF_MAX_DEVS);
			d = &c->dev[c->ndevs++];
			snprintf(d->name, sizeof(d->name), "%s", s);
			d->line = x.line;
			d->discard = true;
			d->wait = SWT_CONF_WAIT_DEFAULT;
			continue;
		}
		eq = strchr(s, '=');
		if (!eq)
			return conf_error(&x, "expected key = value or [name]");
		if (!d)
			return conf_error(&x, "a key before the first [name]");
		*eq = 0;
		if (set_key(&x, d, trim(s), trim(eq + 1)))
			return -1;
	}
	for (i = 0; i < c->ndevs; i++) {
		x.line = c->dev[i].line;
		if (!c->dev[i].ntiers)
			return conf_error(&x, "[%s] has no tiers", c->dev[i].name);
		if (!table_fits(&c->dev[i]))
			return conf_error(&x, "[%s]: the table line is over %d bytes",
					  c->dev[i].name, SWT_TABLE_LINE_LEN);
	}
	return 0;
}

static bool same_dev(const struct swt_tier_use *a, const struct swt_tier_use *b)
{
	return a->major == b->major && a->minor == b->minor;
}

int swt_tier_clash(const struct swt_tier_use *used, unsigned int nused,
		   const struct swt_tier_use *t, unsigned int n, char *why,
		   size_t len)
{
	const struct swt_tier_use *a, *b = NULL;
	unsigned int i, j;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		a = &t[i];
		for (j = 0; j < i && !ret; j++)
			if (same_dev(a, &t[j]))
				b = &t[j], ret = 1;
		for (j = 0; j < nused && !ret; j++)
			if (same_dev(a, &used[j]))
				b = &used[j], ret = 2;
	}
	if (ret == 1)
		snprintf(why, len, "tiers %s and %s are one device (%u:%u)",
			 b->path, a->path, a->major, a->minor);
	else if (ret == 2)
		snprintf(why, len, "tier %s is device %u:%u, a tier of [%s] already (as %s)",
			 a->path, a->major, a->minor, b->name, b->path);
	return ret;
}
