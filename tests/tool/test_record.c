// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of tools/dmswaptier/swt_record.c, the records activate keeps
 * under /run/dmswaptier for deactivate, in a directory of the test's own:
 * what is written is read back whole, the latest made is listed first, a
 * file that is not a record is named and does not hide the others.
 */
#include "swt_record.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

unsigned long shim_warnings;
long shim_fail_alloc_after = -1;
long shim_live_allocs;
long shim_vmallocs;

static char dir[256];
static char err[600];

static void fill(struct swt_record *r, const char *name, u64 seq)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->dev, sizeof(r->dev), "254:%llu", seq % 100);
	r->seq = seq;
	snprintf(r->config, sizeof(r->config), "/etc/dmswaptier conf");
	r->ntiers = 2;
	snprintf(r->tier[0], sizeof(r->tier[0]), "/dev/disk/by-id/nvme-A");
	snprintf(r->tier_dev[0], sizeof(r->tier_dev[0]), "259:3");
	snprintf(r->tier[1], sizeof(r->tier[1]), "/dev/vdb");
	snprintf(r->tier_dev[1], sizeof(r->tier_dev[1]), "-");
	snprintf(r->table, sizeof(r->table),
		 "2 259:3 254:16 3 discard_passdown demote_heat 1");
}

static void put(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		EXPECT(!"can write in the test directory");
		return;
	}
	fputs(text, f);
	fclose(f);
}

static void test_write_read(void)
{
	static struct swt_record w, r;
	char sub[300];

	/* the directory is made when the first record is written */
	snprintf(sub, sizeof(sub), "%s/run", dir);
	fill(&w, "swap0", 12345678901ULL);
	EXPECT_EQ(swt_record_read(sub, "swap0", &r, err, sizeof(err)), 1);
	EXPECT_EQ(swt_record_write(sub, &w, err, sizeof(err)), 0);
	EXPECT_EQ(swt_record_read(sub, "swap0", &r, err, sizeof(err)), 0);
	EXPECT(!strcmp(r.name, "swap0"));
	EXPECT(!strcmp(r.dev, "254:1"));
	EXPECT_EQ(r.seq, 12345678901ULL);
	EXPECT(!strcmp(r.config, "/etc/dmswaptier conf"));
	EXPECT_EQ(r.ntiers, 2);
	EXPECT(!strcmp(r.tier[0], "/dev/disk/by-id/nvme-A"));
	EXPECT(!strcmp(r.tier_dev[0], "259:3"));
	EXPECT(!strcmp(r.tier[1], "/dev/vdb"));
	EXPECT(!strcmp(r.tier_dev[1], "-"));
	EXPECT(!strcmp(r.table, w.table));
	/* written again: replaced whole, no temporary file left */
	w.ntiers = 1;
	EXPECT_EQ(swt_record_write(sub, &w, err, sizeof(err)), 0);
	EXPECT_EQ(swt_record_read(sub, "swap0", &r, err, sizeof(err)), 0);
	EXPECT_EQ(r.ntiers, 1);
	snprintf(sub, sizeof(sub), "%s/run/.swap0", dir);
	EXPECT(access(sub, F_OK) != 0);
	/* removed, and removed again: no error */
	snprintf(sub, sizeof(sub), "%s/run", dir);
	EXPECT_EQ(swt_record_remove(sub, "swap0", err, sizeof(err)), 0);
	EXPECT_EQ(swt_record_read(sub, "swap0", &r, err, sizeof(err)), 1);
	EXPECT_EQ(swt_record_remove(sub, "swap0", err, sizeof(err)), 0);
	/* names that would leave the directory are refused */
	fill(&w, "../x", 1);
	EXPECT_EQ(swt_record_write(sub, &w, err, sizeof(err)), -1);
	EXPECT_EQ(swt_record_read(sub, "a/b", &r, err, sizeof(err)), -1);
	EXPECT_EQ(swt_record_remove(sub, ".x", err, sizeof(err)), -1);
	/* a value of more than one line would make another key */
	fill(&w, "nl", 1);
	snprintf(w.table, sizeof(w.table), "2 1:1\nname=other");
	EXPECT_EQ(swt_record_write(sub, &w, err, sizeof(err)), -1);
	/* a directory that cannot be made */
	snprintf(sub, sizeof(sub), "%s/no/such/dir", dir);
	fill(&w, "swap0", 1);
	EXPECT_EQ(swt_record_write(sub, &w, err, sizeof(err)), -1);
	EXPECT(strstr(err, "cannot make") != NULL);
}

static void test_list(void)
{
	static struct swt_record w, r;
	struct swt_record *recs;
	char sub[300];
	size_t n;

	snprintf(sub, sizeof(sub), "%s/list", dir);
	/* no directory: no records, no error */
	EXPECT_EQ(swt_record_list(sub, &recs, &n, err, sizeof(err)), 0);
	EXPECT_EQ(n, 0);
	EXPECT(!recs);
	fill(&w, "first", 100);
	EXPECT_EQ(swt_record_write(sub, &w, err, sizeof(err)), 0);
	fill(&w, "third", 300);
	EXPECT_EQ(swt_record_write(sub, &w, err, sizeof(err)), 0);
	fill(&w, "second", 200);
	EXPECT_EQ(swt_record_write(sub, &w, err, sizeof(err)), 0);
	EXPECT_EQ(swt_record_list(sub, &recs, &n, err, sizeof(err)), 0);
	EXPECT_EQ(n, 3);
	if (n == 3) {
		EXPECT(!strcmp(recs[0].name, "third"));
		EXPECT(!strcmp(recs[1].name, "second"));
		EXPECT(!strcmp(recs[2].name, "first"));
	}
	free(recs);
	/* a file that is not a record is named; the others still listed */
	snprintf(sub, sizeof(sub), "list/junk");
	put(sub, "hello\n");
	snprintf(sub, sizeof(sub), "%s/list", dir);
	EXPECT_EQ(swt_record_list(sub, &recs, &n, err, sizeof(err)), 1);
	EXPECT(strstr(err, "list/junk:1: not a line of a record") != NULL);
	EXPECT_EQ(n, 3);
	free(recs);
	/* one whose name is not its file's, or with no device number */
	put("list/junk", "name=other\ndev=1:2\n");
	EXPECT_EQ(swt_record_read(sub, "junk", &r, err, sizeof(err)), -1);
	EXPECT(strstr(err, "not a record of device junk") != NULL);
	put("list/junk", "name=junk\n");
	EXPECT_EQ(swt_record_read(sub, "junk", &r, err, sizeof(err)), -1);
	/* keys of a later version are passed over; comments and blanks */
	put("list/junk", "# x\n\nname=junk\ndev=1:2\nfuture=1\n");
	EXPECT_EQ(swt_record_read(sub, "junk", &r, err, sizeof(err)), 0);
	/* a bad seq, too many tiers */
	put("list/junk", "name=junk\ndev=1:2\nseq=-1\n");
	EXPECT_EQ(swt_record_read(sub, "junk", &r, err, sizeof(err)), -1);
	put("list/junk", "name=junk\ndev=1:2\ntier=/a 1:1\ntier=/a 1:1\ntier=/a 1:1\n"
	    "tier=/a 1:1\ntier=/a 1:1\ntier=/a 1:1\ntier=/a 1:1\ntier=/a 1:1\n"
	    "tier=/a 1:1\n");
	EXPECT_EQ(swt_record_read(sub, "junk", &r, err, sizeof(err)), -1);
	EXPECT(strstr(err, ":11: not a line") != NULL);
	/* a record being written (a dot file) is not listed */
	put("list/junk", "name=junk\ndev=1:2\nseq=400\n");
	put("list/.fourth", "name=.fourth\n");
	EXPECT_EQ(swt_record_list(sub, &recs, &n, err, sizeof(err)), 0);
	EXPECT_EQ(n, 4);
	if (n == 4)
		EXPECT(!strcmp(recs[0].name, "junk"));
	free(recs);
}

int main(void)
{
	static const struct unit_test tests[] = {
		{ "write_read", test_write_read },
		{ "list", test_list },
	};
	char cmd[300];
	int rc;

	snprintf(dir, sizeof(dir), "%s/swt-record.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	rc = unit_run("record", tests, sizeof(tests) / sizeof(tests[0]));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		rc = 1;
	return rc;
}
