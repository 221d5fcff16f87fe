// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of tools/dmswaptier/swt_parse.c on recorded kernel and
 * blkparse output, well-formed and malformed: a clear error, never a crash.
 */
#include "swt_parse.h"
#include "unit.h"

#include <string.h>

unsigned long shim_warnings;
long shim_fail_alloc_after = -1;
long shim_live_allocs;
long shim_vmallocs;

static char err[160];

/* Recorded from a 2-tier device in the VM (6.12). */
static const char *status_ok =
	"2 2048 16384 8 8 0 0 131072 0 0 0 2048 100000 8 8 0 0 1009832 rw";

static void test_status_recorded(void)
{
	struct swt_status st;

	EXPECT_EQ(swt_parse_status(status_ok, &st, err, sizeof(err)), 0);
	EXPECT_EQ(st.nr_tiers, 2);
	EXPECT_EQ(st.tier[0].used, 2048);
	EXPECT_EQ(st.tier[0].total, 16384);
	EXPECT_EQ(st.tier[0].reads, 8);
	EXPECT_EQ(st.tier[1].total, 131072);
	EXPECT_EQ(st.mapped, 2048);
	EXPECT_EQ(st.logical, 100000);
	EXPECT_EQ(st.seq_writes, 8);
	EXPECT_EQ(st.map_bytes, 1009832);
	EXPECT(!strcmp(st.mode, "rw"));
	EXPECT_EQ(swt_parse_status("1 0 8 0 0 0 0 6 0 0 0 0 100 Fail\n", &st, err,
				   sizeof(err)), 0);
	EXPECT(!strcmp(st.mode, "Fail"));
	EXPECT_EQ(st.has_migration, 0);
	EXPECT_EQ(st.evacuate, -1);
}

/* Target 1.1: the migration fields after the mode. */
static void test_status_migration(void)
{
	static const char *bad[] = {
		"1 0 8 0 0 0 0 6 0 0 0 0 100 rw maybe 0 0 0 0 - 0 -",
		"1 0 8 0 0 0 0 6 0 0 0 0 100 rw on 1 2 3",
		"1 0 8 0 0 0 0 6 0 0 0 0 100 rw on 1 2 3 4 1 0 -",	/* no tier 1 */
		"1 0 8 0 0 0 0 6 0 0 0 0 100 rw on 1 2 3 4 - 0 --",
		"1 0 8 0 0 0 0 6 0 0 0 0 100 rw on 1 2 3 4 - 0 Q",
		"1 0 8 0 0 0 0 6 0 0 0 0 100 rw on 1 2 3 4 - 0 - 9",
	};
	struct swt_status st;
	unsigned int i;

	EXPECT_EQ(swt_parse_status("2 5 8 0 0 0 3 8 0 0 0 8 14 0 0 0 0 100 rw on 7 11 3 2 0 5 ED\n",
				   &st, err, sizeof(err)), 0);
	EXPECT_EQ(st.has_migration, 1);
	EXPECT_EQ(st.migration, 1);
	EXPECT_EQ(st.promoted, 7);
	EXPECT_EQ(st.demoted, 11);
	EXPECT_EQ(st.evacuated, 3);
	EXPECT_EQ(st.abandoned, 2);
	EXPECT_EQ(st.evacuate, 0);
	EXPECT_EQ(st.evacuate_left, 5);
	EXPECT(!strcmp(st.tier_state, "ED"));
	EXPECT_EQ(swt_parse_status("1 0 8 0 0 0 0 6 0 0 0 0 100 rw off 0 0 0 0 - 0 -",
				   &st, err, sizeof(err)), 0);
	EXPECT_EQ(st.migration, 0);
	EXPECT_EQ(st.evacuate, -1);
	/* R: a tier refusing writes (target 1.5.0) */
	EXPECT_EQ(swt_parse_status("2 5 8 0 0 1 3 8 0 1 0 8 14 0 0 0 0 100 rw on 0 0 0 0 - 0 R-\n",
				   &st, err, sizeof(err)), 0);
	EXPECT(!strcmp(st.tier_state, "R-"));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		EXPECT_EQ(swt_parse_status(bad[i], &st, err, sizeof(err)), -1);
		EXPECT(err[0] != 0);
	}
}

static void test_heat(void)
{
	static const char *bad[] = {
		"",
		"heat 0 1 2\n",
		"heat 0 1 2 4 8 16 32 64\n",
		"heat 0 1 2 4 8 16 32 64\ntier0 1 2 3\n",
		"heat 0 1 2 4 8 16 32 64\ntier1 1 2 3 4 5 6 7 8\n",
		"heat 0 1 2 4 8 16 32 64\ntier0 1 2 3 4 5 6 7 8 9\n",
		"heat 0 1 2 4 8 16 32 64\ntier0 1 2 3 4 5 6 7 8",
	};
	u64 h[SWT_MAX_TIERS][SWT_HEAT_BUCKETS];
	unsigned int n, i;

	EXPECT_EQ(swt_parse_heat("heat 0 1 2 4 8 16 32 64\ntier0 1 2 3 4 5 6 7 8\n"
				 "tier1 9 0 0 0 0 0 0 1\n", h, &n, err, sizeof(err)), 0);
	EXPECT_EQ(n, 2);
	EXPECT_EQ(h[0][0], 1);
	EXPECT_EQ(h[0][7], 8);
	EXPECT_EQ(h[1][0], 9);
	EXPECT_EQ(h[1][7], 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		EXPECT_EQ(swt_parse_heat(bad[i], h, &n, err, sizeof(err)), -1);
		EXPECT(err[0] != 0);
	}
}

static void test_status_malformed(void)
{
	static const char *bad[] = {
		"",
		"0",
		"9 1 2 3",
		"2 2048 16384 8 8",				/* truncated */
		"2 2048 16384 8 8 0 0 131072 0 0 0 2048 100000 8 8 0 0 1009832",
		"2 2048 16384 8 8 0 0 131072 0 0 0 2048 100000 8 8 0 0 1009832 ro",
		"2 2048 16384 8 8 0 0 131072 0 0 0 2048 100000 8 8 0 0 1009832 rw 7 0 0 0 0 - 0 --",
		"2 99999 16384 8 8 0 0 131072 0 0 0 2048 100000 8 8 0 0 1 rw",
		"2 -1 16384 8 8 0 0 131072 0 0 0 2048 100000 8 8 0 0 1 rw",
		"2 1x 16384 8 8 0 0 131072 0 0 0 2048 100000 8 8 0 0 1 rw",
		"2 99999999999999999999999 16384 8 8 0 0 131072 0 0 0 1 1 8 8 0 0 1 rw",
	};
	struct swt_status st;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		EXPECT_EQ(swt_parse_status(bad[i], &st, err, sizeof(err)), -1);
		EXPECT(err[0] != 0);
	}
}

static void test_table(void)
{
	struct swt_table t;

	EXPECT_EQ(swt_parse_table("2 254:0 254:16 1 discard_passdown", &t, err,
				  sizeof(err)), 0);
	EXPECT_EQ(t.nr_tiers, 2);
	EXPECT(!strcmp(t.tier[1], "254:16"));
	EXPECT(!strcmp(t.options, "1 discard_passdown"));
	EXPECT_EQ(swt_parse_table("3 254:0 254:16", &t, err, sizeof(err)), -1);
	EXPECT_EQ(swt_parse_table("x", &t, err, sizeof(err)), -1);
}

static void test_map(void)
{
	/* Recorded after a discard of blocks 0..1023 (6.12). */
	static const char *rec = "0 1024 - -\n1024 1024 0 1024\n2048 2048 - -\n";
	static const char *bad[] = {
		"0 1024 - -\n2048 10 0 0\n",	/* gap */
		"0 0 0 0\n",			/* empty extent */
		"0 5 9 0\n",			/* tier out of range */
		"0 5 0\n",			/* truncated */
		"0 5 0 1 x\n",			/* extra field */
		"0 5 - 7\n",
	};
	struct swt_extent e[8];
	u64 next;
	size_t n, i;
	int more;

	EXPECT_EQ(swt_parse_map(rec, e, 8, &n, &more, &next, err, sizeof(err)), 0);
	EXPECT_EQ(n, 3);
	EXPECT_EQ(more, 0);
	EXPECT_EQ(next, 0);
	EXPECT_EQ(e[0].tier, -1);
	EXPECT_EQ(e[1].tier, 0);
	EXPECT_EQ(e[1].pblk, 1024);
	EXPECT_EQ(e[2].len, 2048);
	EXPECT_EQ(swt_parse_map(rec, e, 2, &n, &more, &next, err, sizeof(err)), -1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(swt_parse_map(bad[i], e, 8, &n, &more, &next, err, sizeof(err)), -1);
}

/* Expect text to be refused with a reason that contains why. */
static void map_refused(const char *text, const char *why)
{
	struct swt_extent e[8];
	u64 next;
	size_t n;
	int more;

	err[0] = 0;
	EXPECT_EQ(swt_parse_map(text, e, 8, &n, &more, &next, err, sizeof(err)), -1);
	if (!strstr(err, why)) {
		fprintf(stderr, "  '%s': error '%s', expected one about '%s'\n", text,
			err, why);
		unit_failed_checks++;
	}
}

/* A line without its newline: the kernel's output was cut. */
static void test_map_no_newline(void)
{
	map_refused("0 1024 - -\n1024 1024 0 1024", "line 2 is incomplete (no newline)");
	map_refused("0 5 - -", "line 1 is incomplete (no newline)");
	map_refused("0 5 0 7  ", "line 1 is incomplete (no newline)");
	map_refused("0 5 - -\nnext 5", "line 2 is incomplete (no newline)");
}

static void test_heat_no_newline(void)
{
	static const char * const bad[] = {
		"heat 0 1 2 4 8 16 32 64\ntier0 1 2 3 4 5 6 7 8",
		"heat 0 1 2 4 8 16 32 64\ntier0 1 2 3 4 5 6 7 8 ",
		"heat 0 1 2 4 8 16 32 64",
	};
	u64 h[SWT_MAX_TIERS][SWT_HEAT_BUCKETS];
	unsigned int n, i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		EXPECT_EQ(swt_parse_heat(bad[i], h, &n, err, sizeof(err)), -1);
		EXPECT(strstr(err, "incomplete (no newline)"));
	}
}

/* A response cut short by the kernel ends in "next <block>". */
static void test_map_next(void)
{
	static const char *cut = "0 1024 - -\n1024 1024 0 1024\nnext 2048\n";
	struct swt_extent e[8];
	u64 next;
	size_t n;
	int more;

	EXPECT_EQ(swt_parse_map(cut, e, 8, &n, &more, &next, err, sizeof(err)), 0);
	EXPECT_EQ(n, 2);
	EXPECT_EQ(more, 1);
	EXPECT_EQ(next, 2048);
	EXPECT_EQ(e[1].lblk, 1024);
	EXPECT_EQ(e[1].pblk, 1024);
	/* the "next" line is not an extent: max 2 is room enough */
	EXPECT_EQ(swt_parse_map(cut, e, 2, &n, &more, &next, err, sizeof(err)), 0);
	EXPECT_EQ(more, 1);
	EXPECT_EQ(swt_parse_map("7 1 1 3\nnext 8\n", e, 8, &n, &more, &next, err,
				sizeof(err)), 0);
	EXPECT_EQ(n, 1);
	EXPECT_EQ(next, 8);
	map_refused("0 5 - -\nnext\n", "line 2 is malformed");
	map_refused("0 5 - -\nnext x\n", "line 2 is malformed");
	map_refused("0 5 - -\nnext5\n", "line 2 is malformed");
	map_refused("0 5 - -\nnext 5 6\n", "line 2 has extra fields");
}

static void test_map_next_not_last(void)
{
	map_refused("0 5 - -\nnext 5\n5 5 0 0\n", "line 2: 'next' is not the last line");
	map_refused("0 5 - -\nnext 5\nnext 5\n", "line 2: 'next' is not the last line");
	map_refused("0 5 - -\nnext 5\n\n", "line 2: 'next' is not the last line");
}

static void test_map_next_wrong_block(void)
{
	map_refused("0 5 - -\nnext 4\n", "line 2: next 4 is not the end 5 of the last extent");
	map_refused("0 5 - -\nnext 6\n", "line 2: next 6 is not the end 5 of the last extent");
	map_refused("0 5 - -\n5 3 1 9\nnext 5\n",
		    "line 3: next 5 is not the end 8 of the last extent");
	map_refused("next 0\n", "line 1: 'next' without an extent before it");
	map_refused("next 5\n", "line 1: 'next' without an extent before it");
}

/*
 * The tool's loop on map responses: a stand-in kernel lists at most
 * per_response extents of a map of 3-block extents, then "next". The loop
 * covers the range exactly, and stops.
 */
static size_t fake_map(u64 from, u64 count, size_t per_response,
		       char *buf, size_t len)
{
	u64 l = from, end = from + count, e;
	size_t off = 0, k;

	for (k = 0; l < end; k++, l = e) {
		e = (l / 3 + 1) * 3 < end ? (l / 3 + 1) * 3 : end;
		if (k == per_response)
			return off + snprintf(buf + off, len - off, "next %llu\n",
					      (unsigned long long)l);
		off += snprintf(buf + off, len - off, "%llu %llu %s\n",
				(unsigned long long)l, (unsigned long long)(e - l),
				(l / 3) % 2 ? "- -" : "0 77");
	}
	return off;
}

static void test_map_loop(void)
{
	struct swt_extent e[64], *ext = e;
	u64 cur = 1, end = 100, next;
	size_t n, got, rounds = 0;
	char buf[2048];
	int more;

	n = 0;
	while (cur < end && rounds++ < 100) {
		fake_map(cur, end - cur, 5, buf, sizeof(buf));
		EXPECT_EQ(swt_parse_map(buf, ext + n, 64 - n, &got, &more, &next, err,
					sizeof(err)), 0);
		EXPECT_EQ(swt_map_advance(&cur, end, ext + n, got, more, err,
					  sizeof(err)), 0);
		n += got;
	}
	EXPECT_EQ(rounds, 7);		/* 34 extents, 5 a response */
	EXPECT_EQ(cur, 100);
	EXPECT_EQ(n, 34);
	EXPECT_EQ(e[0].lblk, 1);
	EXPECT_EQ(e[0].len, 2);
	if (n == 34)
		EXPECT_EQ(e[33].lblk + e[33].len, 100);

	/* responses the loop must refuse, or it would not move on */
	cur = 10;
	EXPECT_EQ(swt_map_advance(&cur, 20, e, 0, 1, err, sizeof(err)), -1);
	EXPECT(strstr(err, "no extent"));
	e[0].lblk = 9;
	e[0].len = 4;
	EXPECT_EQ(swt_map_advance(&cur, 20, e, 1, 1, err, sizeof(err)), -1);
	e[0].lblk = 10;
	e[0].len = 11;
	EXPECT_EQ(swt_map_advance(&cur, 20, e, 1, 0, err, sizeof(err)), -1);
	e[0].len = 4;
	EXPECT_EQ(swt_map_advance(&cur, 20, e, 1, 0, err, sizeof(err)), -1);
	EXPECT(strstr(err, "without a 'next' line"));
	EXPECT_EQ(cur, 10);
	EXPECT_EQ(swt_map_advance(&cur, 20, e, 1, 1, err, sizeof(err)), 0);
	EXPECT_EQ(cur, 14);
	e[0].lblk = 14;
	e[0].len = 6;
	EXPECT_EQ(swt_map_advance(&cur, 20, e, 1, 0, err, sizeof(err)), 0);
	EXPECT_EQ(cur, 20);
}

static void test_trace(void)
{
	/* blkparse default output: 3 queued writes back-merged into one request. */
	static const char *lines[] = {
		"254,0    1        1     0.000000000   201  Q  WS 2048 + 8 [memhog]\n",
		"254,0    1        2     0.000001000   201  G  WS 2048 + 8 [memhog]\n",
		"254,0    1        3     0.000002000   201  Q  WS 2056 + 8 [memhog]\n",
		"254,0    1        4     0.000003000   201  M  WS 2056 + 8 [memhog]\n",
		"254,0    1        5     0.000004000   201  Q  WS 2064 + 8 [memhog]\n",
		"254,0    1        6     0.000005000   201  M  WS 2064 + 8 [memhog]\n",
		"254,0    1        7     0.000006000   201  D  WS 2048 + 24 [memhog]\n",
		"254,0    0        8     0.000100000   202  Q   R 100 + 8 [memhog]\n",
		"254,0    0        9     0.000101000   202  D   R 100 + 8 [memhog]\n",
		"254,0    0       10     0.000102000   202  D  FN [kworker]\n",
		"254,16   0        1     0.000200000   202  D   W 0 + 512 [kworker]\n",
		"CPU0 (254,0):\n",
		" Reads Queued:           1,        4KiB\t Writes Queued:           3,       12KiB\n",
		"\n",
		"garbage",
	};
	struct swt_trace t = { 0 };
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		EXPECT_EQ(swt_trace_line(&t, lines[i]), 0);
	EXPECT_EQ(t.ndevs, 2);
	EXPECT_EQ(t.devs[0].dir[1].queued, 3);
	EXPECT_EQ(t.devs[0].dir[1].merged, 2);
	EXPECT_EQ(t.devs[0].dir[1].dispatched, 1);
	EXPECT_EQ(t.devs[0].dir[1].dispatched_sectors, 24);
	EXPECT_EQ(t.devs[0].dir[0].dispatched, 1);
	EXPECT_EQ(t.devs[1].dir[1].dispatched_sectors, 512);
	EXPECT_EQ(swt_dir_percentile(&t.devs[0].dir[1], 50), 24);
	EXPECT_EQ(t.devs[1].dir[1].hist[6], 1);	/* 256 KiB */
	EXPECT_EQ(t.devs[0].dir[1].hist[2], 1);	/* 12 KiB -> 16 KiB bucket */
	EXPECT(t.ignored >= 3);
	swt_trace_free(&t);
}

/* The stats message as the target prints it (1.3.0). */
static const char stats_ok[] =
	"tier0: mapped=5 blocks=8 free=3 reads=0 writes=0 errors=0\n"
	"tier1: mapped=3 blocks=8 free=5 reads=0 writes=0 errors=0\n"
	"mapped=8 logical=14 physical=16 reserve=256\n"
	"migrating=0 agings=4 migration=on evacuate=0 evacuate_left=5\n"
	"mode=rw\ntier_state=ED\n";

static void test_stats(void)
{
	static const char *bad[] = {
		"tierx: mapped=1\n", "tier9: mapped=1\n", "mapped\n", "=1\n",
		"tier0 mapped=1\n",
	};
	static struct swt_stats s;
	unsigned int i;

	EXPECT_EQ(swt_parse_stats(stats_ok, &s, err, sizeof(err)), 0);
	EXPECT_EQ(s.n, 23);
	EXPECT_EQ(s.skipped, 0);
	EXPECT_EQ(s.kv[0].tier, 0);
	EXPECT(!strcmp(s.kv[0].key, "mapped") && !strcmp(s.kv[0].val, "5"));
	EXPECT_EQ(s.kv[6].tier, 1);
	EXPECT_EQ(s.kv[12].tier, -1);
	EXPECT(!strcmp(s.kv[12].key, "mapped"));
	EXPECT(!strcmp(s.kv[22].key, "tier_state") &&
	       !strcmp(s.kv[22].val, "ED"));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		EXPECT_EQ(swt_parse_stats(bad[i], &s, err, sizeof(err)), -1);
		EXPECT(err[0] != 0);
	}
}

/*
 * A newer target's stats: more values than kept, a key and a value too
 * long to keep. Those are skipped, the rest parsed.
 */
static void test_stats_skip(void)
{
	static struct swt_stats s;
	size_t len = 0, i;
	char *text = malloc(16384);

	EXPECT(text != NULL);
	if (!text)
		return;
	len += sprintf(text + len, "tier0: mapped=1 %s=2 v=%s w=3\n",
		       "a_key_that_is_far_too_long_for_the_parser",
		       "a_value_that_is_far_too_long_for_the_parser");
	for (i = 0; i < 200; i++)
		len += sprintf(text + len, "key%zu=%zu%s", i, i,
			       i % 10 == 9 ? "\n" : " ");
	EXPECT_EQ(swt_parse_stats(text, &s, err, sizeof(err)), 0);
	EXPECT_EQ(s.n, SWT_STATS_MAX);
	EXPECT_EQ(s.skipped, 2 + 200 - (SWT_STATS_MAX - 2));
	EXPECT(!strcmp(s.kv[0].key, "mapped") && s.kv[0].tier == 0);
	EXPECT(!strcmp(s.kv[1].key, "w") && !strcmp(s.kv[1].val, "3"));
	EXPECT(!strcmp(s.kv[2].key, "key0") && s.kv[2].tier == -1);
	EXPECT(!strcmp(s.kv[SWT_STATS_MAX - 1].key, "key125"));
	free(text);
}

static void test_parse_num(void)
{
	static const char *const bad[] = {
		"", "5x", "x", " 5", "+5", "-5", "-0", "5 ", "0x10",
		"18446744073709551616", "99999999999999999999999",
	};
	u64 v;
	size_t i;

	EXPECT_EQ(swt_parse_num("0", 10, &v), 0);
	EXPECT_EQ(v, 0);
	EXPECT_EQ(swt_parse_num("10", 10, &v), 0);
	EXPECT_EQ(v, 10);
	EXPECT_EQ(swt_parse_num("11", 10, &v), -1);
	EXPECT_EQ(swt_parse_num("18446744073709551615", UINT64_MAX, &v), 0);
	EXPECT_EQ(v, UINT64_MAX);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(swt_parse_num(bad[i], UINT64_MAX, &v), -1);
}

/* create's table line: exact when it fits, -1 (no overflow) when not. */
static void test_table_line(void)
{
	char *tiers[3] = { "/dev/a", "/dev/bb", NULL }, buf[4096], small[24];
	char *longp = malloc(3000);
	size_t cut;

	EXPECT_EQ(swt_table_line(buf, sizeof(buf), 2, tiers, 0, ""), 0);
	EXPECT(!strcmp(buf, "2 /dev/a /dev/bb"));
	EXPECT_EQ(swt_table_line(buf, sizeof(buf), 2, tiers, 3,
				 " discard_passdown frontier_blocks 8"), 0);
	EXPECT(!strcmp(buf, "2 /dev/a /dev/bb 3 discard_passdown frontier_blocks 8"));
	/* "2 /dev/a /dev/bb" is 16 bytes: 17 with its NUL fits, 16 does not */
	EXPECT_EQ(swt_table_line(small, 17, 2, tiers, 0, ""), 0);
	EXPECT_EQ(swt_table_line(small, 16, 2, tiers, 0, ""), -1);
	EXPECT_EQ(swt_table_line(small, sizeof(small), 2, tiers, 1, " x"), 0);
	EXPECT(!strcmp(small, "2 /dev/a /dev/bb 1 x"));
	EXPECT_EQ(swt_table_line(small, 20, 2, tiers, 1, " x"), -1);
	EXPECT(longp != NULL);
	if (!longp)
		return;
	memset(longp, 'a', 2999);
	longp[2999] = 0;
	tiers[0] = longp;
	tiers[1] = longp;
	tiers[2] = longp;
	/* under ASan: the second and third tier must not write past buf */
	EXPECT_EQ(swt_table_line(buf, sizeof(buf), 3, tiers, 1, " x"), -1);
	for (cut = 1; cut <= sizeof(small); cut++)
		EXPECT_EQ(swt_table_line(small, cut, 2, tiers, 0, ""), -1);
	free(longp);
}

/* reserve_blocks= is found in any case, as the target takes it */
static void test_table_opt_reserve(void)
{
	static const char *const keys[] = {
		"reserve_blocks=512", "RESERVE_BLOCKS=512", "Reserve_Blocks=512",
	};
	char opt[SWT_TABLE_OPT_LEN];
	unsigned int i;
	u64 reserve;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		opt[0] = 0;
		reserve = 0;
		EXPECT_EQ(swt_table_opt(opt, sizeof(opt), keys[i], &reserve), 2);
		EXPECT_EQ(reserve, 512);
	}
	opt[0] = 0;
	reserve = 0;
	EXPECT_EQ(swt_table_opt(opt, sizeof(opt), "reserve_blocksx=512",
				&reserve), 2);
	EXPECT_EQ(reserve, 0);
	EXPECT_EQ(swt_table_opt(opt, sizeof(opt), "DISCARD_PASSDOWN", &reserve), 1);
	EXPECT_EQ(reserve, 0);
}

int main(void)
{
	static const struct unit_test tests[] = {
		{ "status_recorded", test_status_recorded },
		{ "status_malformed", test_status_malformed },
		{ "status_migration", test_status_migration },
		{ "heat", test_heat },
		{ "table", test_table },
		{ "map", test_map },
		{ "map_no_newline", test_map_no_newline },
		{ "heat_no_newline", test_heat_no_newline },
		{ "map_next", test_map_next },
		{ "map_next_not_last", test_map_next_not_last },
		{ "map_next_wrong_block", test_map_next_wrong_block },
		{ "map_loop", test_map_loop },
		{ "trace", test_trace },
		{ "stats", test_stats },
		{ "stats_skip", test_stats_skip },
		{ "parse_num", test_parse_num },
		{ "table_line", test_table_line },
		{ "table_opt_reserve", test_table_opt_reserve },
	};

	return unit_run("parse", tests, sizeof(tests) / sizeof(tests[0]));
}
