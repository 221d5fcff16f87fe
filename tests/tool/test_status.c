// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of the status output of dmswaptier (tools/dmswaptier/
 * swt_status.c, swt_cols.c) on recorded status lines: the human view,
 * --output, --bytes, --raw, --noheadings, and the JSON of odd names.
 * "test_status json" prints the JSON of two devices for jq.
 */
#include "swt_status.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

unsigned long shim_warnings;
long shim_fail_alloc_after = -1;
long shim_live_allocs;
long shim_vmallocs;

/* The README's demo device (6.12). */
static const char status_demo[] =
	"2 1710 24576 11957 313862 0 25894 131072 218370 2548 0 27604 154092 309804 316410 0 0 1414132 rw on 0 291530 0 577 - 0 --";
static const char status_evac[] =
	"2 5 8 0 0 0 3 8 0 0 0 8 14 0 0 0 0 100 rw on 7 11 3 2 0 5 ED\n";
static const char stats_evac[] =
	"tier0: mapped=5 blocks=8 free=3 reads=0 writes=0 errors=0\n"
	"tier1: mapped=3 blocks=8 free=5 reads=0 writes=0 errors=0\n"
	"mapped=8 logical=14 physical=16 reserve=256\n"
	"migrating=0 agings=4 migration=on evacuate=0 evacuate_left=5\n"
	"mode=rw\ntier_state=ED\n";
/* dm allows any name without a '/': quotes, backslashes, controls */
static const char odd_name[] = "we\"ird\\name\x01\x1f\x7f\t end";

static struct swt_stats stats;

static void make_dev(struct swt_dev *d, const char *name, const char *status)
{
	char err[160];

	memset(d, 0, sizeof(*d));
	d->name = name;
	if (swt_parse_status(status, &d->st, err, sizeof(err)) ||
	    swt_parse_table("2 253:0 253:16 1 discard_passdown", &d->tb, err,
			    sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	strcpy(d->device[0], "/dev/vda");
	strcpy(d->device[1], "/dev/vdb");
}

/* What @fn printed of @d with view @v, malloc'ed. */
static char *render(int (*fn)(FILE *, const struct swt_dev *, size_t,
			      const struct swt_view *),
		    const struct swt_dev *d, size_t n,
		    const struct swt_view *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	EXPECT(f != NULL);
	EXPECT_EQ(fn(f, d, n, v), 0);
	fclose(f);
	return buf;
}

static int human(FILE *f, const struct swt_dev *d, size_t n,
		 const struct swt_view *v)
{
	return swt_status_human(f, d, v);
}

#define EXPECT_STR(got, want) do {					\
	if (strcmp(got, want)) {					\
		fprintf(stderr, "  %s:%d: got\n%s\n  expected\n%s\n",	\
			__FILE__, __LINE__, got, want);			\
		unit_failed_checks++;					\
	}								\
} while (0)

static void test_human(void)
{
	struct swt_view v;
	struct swt_dev d;
	char *out;

	make_dev(&d, "swaptier0", status_demo);
	swt_status_view(&v);
	out = render(human, &d, 1, &v);
	EXPECT_STR(out,
		   "swaptier0: 27604 of 154092 blocks mapped (107.8M), mode rw\n"
		   "TIER DEVICE    SIZE  ALLOC  AVAIL    READS   WRITES  HITS ERRORS STATE\n"
		   "   0 /dev/vda   96M   6.7M  89.3M    11957   313862  5.2%      0 -\n"
		   "   1 /dev/vdb  512M 101.1M 410.9M   218370     2548 94.8%      0 -\n"
		   "  sequential writes: 309804 of 316410 (97.9%)   deferred: 0   freed, pending reuse: 0\n"
		   "  map memory: 1414132 bytes (9.18 B/block)\n"
		   "  migration on: promoted 0   demoted 291530   evacuated 0   abandoned 577   tier states --\n");
	free(out);
}

static void test_output(void)
{
	struct swt_dev d[2];
	struct swt_view v;
	char bad[32];
	char *out;

	make_dev(&d[0], "swaptier0", status_demo);
	make_dev(&d[1], "ev", status_evac);
	swt_status_view(&v);
	EXPECT_EQ(swt_cols_select(&v, "name,TIER,Size,alloc,state", bad,
				  sizeof(bad)), 0);
	out = render(swt_status_table, d, 2, &v);
	EXPECT_STR(out,
		   "NAME      TIER  SIZE  ALLOC STATE\n"
		   "swaptier0    0   96M   6.7M -\n"
		   "swaptier0    1  512M 101.1M -\n"
		   "ev           0   32K    20K E\n"
		   "ev           1   32K    12K D\n");
	free(out);
	/* +COLS adds to the columns chosen */
	EXPECT_EQ(swt_cols_select(&v, "+READS", bad, sizeof(bad)), 0);
	EXPECT_EQ(v.nsel, 6);
	/* an unknown column is named, and the choice is kept */
	EXPECT_EQ(swt_cols_select(&v, "TIER,NOPE,SIZE", bad, sizeof(bad)), -1);
	EXPECT_STR(bad, "NOPE");
	EXPECT_EQ(v.nsel, 6);
	EXPECT_EQ(swt_cols_select(&v, "TIER,", bad, sizeof(bad)), -1);
	EXPECT_STR(bad, "");
}

/* How often @needle is in @hay. */
static int count_str(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

/* The JSON of @d with view @v, malloc'ed. */
static char *render_json(const struct swt_dev *d, struct swt_view *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	v->json = true;
	swt_status_json(f, d, 1, v);
	fclose(f);
	return buf;
}

/*
 * --json --output +COLS adds to the JSON default (every column but
 * NAME), and no column is shown twice.
 */
static void test_json_plus(void)
{
	struct swt_view v, all;
	struct swt_dev d;
	char bad[32], *out;

	make_dev(&d, "swaptier0", status_demo);
	swt_status_view(&all);
	EXPECT_EQ(swt_status_select(&all, NULL, true, false, bad, sizeof(bad)), 0);
	EXPECT_EQ(all.nsel, all.ncols - 1);

	swt_status_view(&v);
	EXPECT_EQ(swt_status_select(&v, "+DEV", true, true, bad, sizeof(bad)), 0);
	EXPECT_EQ(v.nsel, all.nsel);
	out = render_json(&d, &v);
	EXPECT_EQ(count_str(out, "\"reads\""), 2);
	EXPECT_EQ(count_str(out, "\"dev\""), 2);
	EXPECT_EQ(count_str(out, "\"free\""), 2);
	free(out);

	swt_status_view(&v);
	EXPECT_EQ(swt_status_select(&v, "+READS", true, true, bad, sizeof(bad)), 0);
	EXPECT_EQ(v.nsel, all.nsel);
	out = render_json(&d, &v);
	EXPECT_EQ(count_str(out, "\"reads\""), 2);	/* one per tier */
	free(out);

	/* the table's +COLS still adds to the table's default */
	swt_status_view(&v);
	EXPECT_EQ(swt_status_select(&v, "+DEV", false, true, bad, sizeof(bad)), 0);
	EXPECT_EQ(v.nsel, 12);
	/* a column named twice is shown once */
	EXPECT_EQ(swt_status_select(&v, "TIER,tier,TIER,READS", true, true, bad,
				    sizeof(bad)), 0);
	EXPECT_EQ(v.nsel, 2);
}

static void get_nothing(const void *r, const struct swt_view *v, char *buf,
			size_t len)
{
	*buf = 0;
}

/* More columns than SWT_MAX_COLS: -2, apart from an unknown one. */
static void test_too_many_cols(void)
{
	static char names[SWT_MAX_COLS + 8][8];
	static struct swt_col cols[SWT_MAX_COLS + 8];
	struct swt_view v = { .cols = cols, .ncols = ARRAY_SIZE(cols) };
	char list[SWT_MAX_COLS * 8 + 64] = "", bad[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cols); i++) {
		snprintf(names[i], sizeof(names[i]), "C%zu", i);
		cols[i].name = names[i];
		cols[i].header = names[i];
		cols[i].help = "";
		cols[i].get = get_nothing;
	}
	for (i = 0; i < SWT_MAX_COLS; i++)
		sprintf(list + strlen(list), "%sC%zu", i ? "," : "", i);
	EXPECT_EQ(swt_cols_select(&v, list, bad, sizeof(bad)), 0);
	EXPECT_EQ(v.nsel, SWT_MAX_COLS);
	/* repeated: still fits */
	EXPECT_EQ(swt_cols_select(&v, "+C0,C1,C0", bad, sizeof(bad)), 0);
	EXPECT_EQ(v.nsel, SWT_MAX_COLS);
	EXPECT_EQ(swt_cols_select(&v, "+C33", bad, sizeof(bad)), -2);
	EXPECT_EQ(v.nsel, SWT_MAX_COLS);
	EXPECT_EQ(swt_cols_select(&v, "+NOPE", bad, sizeof(bad)), -1);
	EXPECT_STR(bad, "NOPE");
}

static void test_bytes_raw_noheadings(void)
{
	struct swt_view v;
	struct swt_dev d;
	char bad[32];
	char *out;

	make_dev(&d, "swaptier0", status_demo);
	swt_status_view(&v);
	EXPECT_EQ(swt_cols_select(&v, "TIER,SIZE,ALLOC,AVAIL,USED,HITS", bad,
				  sizeof(bad)), 0);
	v.bytes = true;
	out = render(swt_status_table, &d, 1, &v);
	EXPECT_STR(out,
		   "TIER      SIZE     ALLOC     AVAIL     USED  HITS\n"
		   "   0 100663296   7004160  93659136     1710  5.2%\n"
		   "   1 536870912 106061824 430809088    25894 94.8%\n");
	free(out);
	v.raw = true;
	out = render(swt_status_table, &d, 1, &v);
	EXPECT_STR(out,
		   "TIER SIZE ALLOC AVAIL USED HITS\n"
		   "0 100663296 7004160 93659136 1710 5.2%\n"
		   "1 536870912 106061824 430809088 25894 94.8%\n");
	free(out);
	v.noheadings = true;
	v.bytes = false;
	out = render(swt_status_table, &d, 1, &v);
	EXPECT_STR(out,
		   "0 96M 6.7M 89.3M 1710 5.2%\n"
		   "1 512M 101.1M 410.9M 25894 94.8%\n");
	free(out);
	v.raw = false;
	out = render(swt_status_table, &d, 1, &v);
	EXPECT_STR(out,
		   "   0   96M   6.7M  89.3M     1710  5.2%\n"
		   "   1  512M 101.1M 410.9M    25894 94.8%\n");
	free(out);
}

static void test_raw_odd_name(void)
{
	struct swt_view v;
	struct swt_dev d;
	char bad[32];
	char *out;

	make_dev(&d, odd_name, status_demo);
	swt_status_view(&v);
	EXPECT_EQ(swt_cols_select(&v, "NAME,TIER", bad, sizeof(bad)), 0);
	v.raw = true;
	v.noheadings = true;
	out = render(swt_status_table, &d, 1, &v);
	/* one line per tier, whatever the name holds, escaped as \xHH */
	EXPECT_STR(out,
		   "we\"ird\\x5cname\\x01\\x1f\\x7f\\x09\\x20end 0\n"
		   "we\"ird\\x5cname\\x01\\x1f\\x7f\\x09\\x20end 1\n");
	free(out);
}

static void test_size(void)
{
	static const struct {
		u64 bytes;
		const char *human;
	} t[] = {
		{ 0, "0B" }, { 1023, "1023B" }, { 1024, "1K" }, { 1536, "1.5K" },
		{ 100663296, "96M" }, { 7004160, "6.7M" },
		{ 1048575, "1M" }, { 1ULL << 40, "1T" },
		{ UINT64_MAX, "16E" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		swt_size(buf, sizeof(buf), t[i].bytes, false);
		EXPECT_STR(buf, t[i].human);
	}
	swt_size(buf, sizeof(buf), UINT64_MAX, true);
	EXPECT_STR(buf, "18446744073709551615");
}

static void test_json_str(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	swt_json_str(f, odd_name);
	fclose(f);
	EXPECT_STR(buf, "\"we\\\"ird\\\\name\\u0001\\u001f\\u007f\\t end\"");
	free(buf);
}

/*
 * Three devices as JSON: the second with an odd name and its stats, the
 * third from a target 1.0 (no migration fields).
 */
static int print_json(void)
{
	struct swt_dev d[3];
	struct swt_view v;
	char err[160], bad[32];

	make_dev(&d[0], "swaptier0", status_demo);
	make_dev(&d[1], odd_name, status_evac);
	if (swt_parse_stats(stats_evac, &stats, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	d[1].stats = &stats;
	make_dev(&d[2], "old", "2 0 8 0 0 0 0 8 0 0 0 0 6 0 0 0 0 100 Fail");
	swt_status_view(&v);
	v.json = true;
	swt_cols_select(&v, "TIER,DEVICE,DEV,SIZE,ALLOC,USED,TOTAL,HITS,STATE",
			bad, sizeof(bad));
	swt_status_json(stdout, d, 3, &v);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct unit_test tests[] = {
		{ "status_human", test_human },
		{ "status_output", test_output },
		{ "status_bytes_raw_noheadings", test_bytes_raw_noheadings },
		{ "status_raw_odd_name", test_raw_odd_name },
		{ "size", test_size },
		{ "json_str", test_json_str },
		{ "json_plus", test_json_plus },
		{ "too_many_cols", test_too_many_cols },
	};

	if (argc > 1 && !strcmp(argv[1], "json"))
		return print_json();
	return unit_run("status", tests, sizeof(tests) / sizeof(tests[0]));
}
