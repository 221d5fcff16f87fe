// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmswaptier: the records of activate under /run/dmswaptier (swt_record.h),
 * tested on the host in a directory of the test's own
 * (tests/tool/test_record.c).
 */
#include "swt_record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int rec_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* DIR/NAME in @buf; -1 if it does not fit or NAME could leave DIR. */
static int rec_path(char *buf, size_t len, const char *dir, const char *pre,
		    const char *name)
{
	if (!*name || strchr(name, '/') || *name == '.')
		return -1;
	return (size_t)snprintf(buf, len, "%s/%s%s", dir, pre, name) < len ?
		0 : -1;
}

/* A value goes on its line whole: no newline in it. */
static bool one_line(const char *s)
{
	return !strchr(s, '\n');
}

int swt_record_write(const char *dir, const struct swt_record *r, char *err,
		     size_t errlen)
{
	char tmp[4096], path[4096];
	unsigned int i;
	bool ok;
	FILE *f;
	int fd;

	if (rec_path(path, sizeof(path), dir, "", r->name) ||
	    rec_path(tmp, sizeof(tmp), dir, ".", r->name))
		return rec_fail(err, errlen, "'%s' cannot be a record's name",
				r->name);
	if (!one_line(r->dev) || !one_line(r->table) || r->ntiers > SWT_MAX_TIERS)
		return rec_fail(err, errlen, "%s: a value of the record is not one line",
				r->name);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return rec_fail(err, errlen, "cannot make %s: %s", dir,
				strerror(errno));
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return rec_fail(err, errlen, "cannot write %s: %s", tmp,
				strerror(errno));
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return rec_fail(err, errlen, "cannot write %s: %s", tmp,
				strerror(errno));
	}
	fprintf(f, "# dmswaptier activate made this device; deactivate removes it\n");
	fprintf(f, "name=%s\ndev=%s\nseq=%llu\n", r->name, r->dev, r->seq);
	if (r->config[0] && one_line(r->config))
		fprintf(f, "config=%s\n", r->config);
	for (i = 0; i < r->ntiers; i++)
		fprintf(f, "tier=%s %s\n", r->tier[i], r->tier_dev[i]);
	fprintf(f, "table=%s\n", r->table);
	ok = !ferror(f);
	if (fclose(f))
		ok = false;
	if (!ok || rename(tmp, path)) {
		int e = errno;

		unlink(tmp);
		return rec_fail(err, errlen, "cannot write %s: %s", path,
				strerror(e));
	}
	return 0;
}

/* One "key=value" line of a record into @r; -1 if it is not one. */
static int rec_line(struct swt_record *r, char *line)
{
	char *eq = strchr(line, '='), *v, *sp;

	if (!eq)
		return -1;
	*eq = 0;
	v = eq + 1;
	if (!strcmp(line, "name"))
		return snprintf(r->name, sizeof(r->name), "%s", v) <
			(int)sizeof(r->name) ? 0 : -1;
	if (!strcmp(line, "dev"))
		return snprintf(r->dev, sizeof(r->dev), "%s", v) <
			(int)sizeof(r->dev) ? 0 : -1;
	if (!strcmp(line, "config"))
		return snprintf(r->config, sizeof(r->config), "%s", v) <
			(int)sizeof(r->config) ? 0 : -1;
	if (!strcmp(line, "table"))
		return snprintf(r->table, sizeof(r->table), "%s", v) <
			(int)sizeof(r->table) ? 0 : -1;
	if (!strcmp(line, "seq"))
		return swt_parse_num(v, UINT64_MAX, &r->seq);
	if (!strcmp(line, "tier")) {
		sp = strrchr(v, ' ');
		if (!sp || r->ntiers == SWT_MAX_TIERS)
			return -1;
		*sp = 0;
		if (snprintf(r->tier[r->ntiers], SWT_CONF_WORD, "%s", v) >=
		    SWT_CONF_WORD ||
		    snprintf(r->tier_dev[r->ntiers], sizeof(r->tier_dev[0]),
			     "%s", sp + 1) >= (int)sizeof(r->tier_dev[0]))
			return -1;
		r->ntiers++;
		return 0;
	}
	return 0;	/* a key of a later version: not needed to undo */
}

int swt_record_read(const char *dir, const char *name, struct swt_record *r,
		    char *err, size_t errlen)
{
	char path[4096], line[SWT_TABLE_LINE_LEN + 16];
	unsigned int lineno = 0;
	FILE *f;

	memset(r, 0, sizeof(*r));
	if (rec_path(path, sizeof(path), dir, "", name))
		return rec_fail(err, errlen, "'%s' cannot be a record's name",
				name);
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return 1;
		return rec_fail(err, errlen, "cannot read %s: %s", path,
				strerror(errno));
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = 0;
		else if (!feof(f))
			break;		/* too long: not ours */
		if (!*line || *line == '#')
			continue;
		if (rec_line(r, line)) {
			fclose(f);
			return rec_fail(err, errlen, "%s:%u: not a line of a record",
					path, lineno);
		}
	}
	if (ferror(f) || !feof(f)) {
		fclose(f);
		return rec_fail(err, errlen, "%s: not a record (unreadable, or a line too long)",
				path);
	}
	fclose(f);
	if (strcmp(r->name, name) || !r->dev[0])
		return rec_fail(err, errlen, "%s: not a record of device %s",
				path, name);
	return 0;
}

int swt_record_remove(const char *dir, const char *name, char *err,
		      size_t errlen)
{
	char path[4096];

	if (rec_path(path, sizeof(path), dir, "", name))
		return rec_fail(err, errlen, "'%s' cannot be a record's name",
				name);
	if (unlink(path) && errno != ENOENT)
		return rec_fail(err, errlen, "cannot remove %s: %s", path,
				strerror(errno));
	return 0;
}

/* The latest made first; the same time (never, in practice) by name. */
static int rec_cmp(const void *a, const void *b)
{
	const struct swt_record *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq > y->seq ? -1 : 1;
	return strcmp(x->name, y->name);
}

int swt_record_list(const char *dir, struct swt_record **recs, size_t *n,
		    char *err, size_t errlen)
{
	struct swt_record *r = NULL, *nr;
	size_t cap = 0;
	struct dirent *e;
	int ret = 0;
	DIR *d;

	*recs = NULL;
	*n = 0;
	d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		return rec_fail(err, errlen, "cannot read %s: %s", dir,
				strerror(errno));
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;	/* . .. and a record being written */
		if (*n == cap) {
			cap = cap ? 2 * cap : 4;
			nr = realloc(r, cap * sizeof(*r));
			if (!nr) {
				closedir(d);
				free(r);
				*n = 0;
				return rec_fail(err, errlen, "out of memory");
			}
			r = nr;
		}
		switch (swt_record_read(dir, e->d_name, &r[*n], err, errlen)) {
		case 0:
			(*n)++;
			break;
		case 1:
			break;		/* removed meanwhile */
		default:
			ret = 1;
		}
	}
	closedir(d);
	if (*n)
		qsort(r, *n, sizeof(*r), rec_cmp);
	*recs = r;
	if (!*n) {
		free(r);
		*recs = NULL;
	}
	return ret;
}
