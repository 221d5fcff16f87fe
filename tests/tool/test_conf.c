// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of tools/dmswaptier/swt_conf.c, the parser of
 * /etc/dmswaptier.conf: what a user writes is read back field by field,
 * and every mistake is an error naming the file and line.
 */
#include "swt_conf.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

unsigned long shim_warnings;
long shim_fail_alloc_after = -1;
long shim_live_allocs;
long shim_vmallocs;

static struct swt_conf c;
static char err[256];

/* the last error starts with @msg */
static void expect_err(const char *msg)
{
	if (strncmp(err, msg, strlen(msg))) {
		fprintf(stderr, "  got '%s'\n  expected '%s...'\n", err, msg);
		EXPECT(!"error message");
	}
}

static void test_two_devices(void)
{
	const char *text =
		"# tiered swap\n"
		"[swap0]\n"
		"tiers = /dev/disk/by-id/nvme-A   /dev/disk/by-partuuid/1234\n"
		"  size = 8G\n"
		"options = discard_passdown demote_heat=1\n"
		"priority = 10\n"
		"\n"
		"; a second one, defaults\n"
		"[ zram-tier ]\n"
		"tiers=/dev/zram0 /dev/sdb\n"
		"discard = no\n"
		"wait = 0\n"
		"force = yes\n"
		"priority = -1";

	EXPECT_EQ(swt_conf_parse("t.conf", text, &c, err, sizeof(err)), 0);
	EXPECT_EQ(c.ndevs, 2);
	EXPECT(!strcmp(c.dev[0].name, "swap0"));
	EXPECT_EQ(c.dev[0].line, 2);
	EXPECT_EQ(c.dev[0].ntiers, 2);
	EXPECT(!strcmp(c.dev[0].tier[1], "/dev/disk/by-partuuid/1234"));
	EXPECT(!strcmp(c.dev[0].size, "8G"));
	EXPECT_EQ(c.dev[0].size_bytes, 8ULL << 30);
	EXPECT_EQ(c.dev[0].nopts, 2);
	EXPECT(!strcmp(c.dev[0].opt[1], "demote_heat=1"));
	EXPECT(c.dev[0].has_priority);
	EXPECT_EQ(c.dev[0].priority, 10);
	EXPECT(c.dev[0].discard);
	EXPECT_EQ(c.dev[0].wait, 30);
	EXPECT_EQ(c.dev[1].wait, 0);
	EXPECT(!c.dev[0].force);
	EXPECT(c.dev[1].force);
	EXPECT(!strcmp(c.dev[1].name, "zram-tier"));
	EXPECT(!strcmp(c.dev[1].tier[0], "/dev/zram0"));
	EXPECT(!c.dev[1].size[0]);
	EXPECT_EQ(c.dev[1].size_bytes, 0);
	EXPECT_EQ(c.dev[1].nopts, 0);
	EXPECT(!c.dev[1].discard);
	EXPECT(c.dev[1].has_priority);
	EXPECT_EQ(c.dev[1].priority, -1);
	EXPECT_EQ(swt_conf_parse("e.conf", "", &c, err, sizeof(err)), 0);
	EXPECT_EQ(c.ndevs, 0);
	/* the same key in two sections is fine; comment lines anywhere */
	EXPECT_EQ(swt_conf_parse("e.conf", "[a]\n# x\ntiers = /x\n  ; y\n[b]\ntiers = /y\n",
				 &c, err, sizeof(err)), 0);
	EXPECT_EQ(c.ndevs, 2);
}

static void test_mistakes(void)
{
	static const struct {
		const char *text;
		const char *msg;	/* the error starts with it */
	} bad[] = {
		{ "tiers = /dev/a\n", "b.conf:1: a key before" },
		{ "[a]\ntiers = /dev/a\nsize = 1 G\n", "b.conf:3: size: one word" },
		{ "[a]\ntiers = /dev/a\ncolour = red\n", "b.conf:3: unknown key 'colour'" },
		{ "[a]\ntiers =\n", "b.conf:2: tiers: no value" },
		{ "[a]\n", "b.conf:1: [a] has no tiers" },
		{ "[a\n", "b.conf:1: a section is [name]" },
		{ "[a] x\n", "b.conf:1: a section is [name]" },
		{ "[a/b]\n", "b.conf:1: 'a/b' is not a device name" },
		{ "[..]\n", "b.conf:1: '..' is not a device name" },
		/* names create and remove would take for options, or dm's node */
		{ "[-h]\ntiers = /x\n", "b.conf:1: '-h' is not a device name" },
		{ "[--help]\n", "b.conf:1: '--help' is not a device name" },
		{ "[-]\n", "b.conf:1: '-' is not a device name" },
		{ "[control]\n", "b.conf:1: 'control' is not a device name" },
		{ "[a b]\n", "b.conf:1: 'a b' is not a device name" },
		{ "[\xc3\xa9]\n", "b.conf:1: '\xc3\xa9' is not a device name" },
		{ "[]\n", "b.conf:1: '' is not a device name" },
		{ "[a]\ntiers = /x -s\n", "b.conf:2: tiers: '-s' is not an absolute path" },
		{ "[a]\ntiers = dev/x\n", "b.conf:2: tiers: 'dev/x' is not an absolute path" },
		{ "[a]\ntiers=/x\n[a]\n", "b.conf:3: [a] again (first at line 1)" },
		{ "[a]\ntiers = 1 2 3 4 5 6 7 8 9\n", "b.conf:2: tiers: more than 8 values" },
		{ "[a]\ntiers = /x\npriority = high\n", "b.conf:3: priority: 'high'" },
		{ "[a]\ntiers = /x\npriority = -\n", "b.conf:3: priority: '-'" },
		{ "[a]\ntiers = /x\ndiscard = maybe\n", "b.conf:3: discard: yes or no" },
		{ "[a]\ntiers = /x\nforce = please\n", "b.conf:3: force: yes or no, not 'please'" },
		{ "[a]\ntiers = /x\nforce = no\nforce = yes\n", "b.conf:4: force given again (first at line 3)" },
		{ "[a]\njust words\n", "b.conf:2: expected key = value" },
		/* size, options and priority as create and swapon take them */
		{ "[a]\ntiers = /x\nsize = 1000\n", "b.conf:3: size: '1000': a positive multiple of 4096 bytes expected" },
		{ "[a]\ntiers = /x\nsize = 0\n", "b.conf:3: size: '0'" },
		{ "[a]\ntiers = /x\nsize = -4096\n", "b.conf:3: size: '-4096'" },
		{ "[a]\ntiers = /x\nsize = 8T\n", "b.conf:3: size: '8T'" },
		{ "[a]\ntiers = /x\nsize = 99999999999G\n", "b.conf:3: size: '99999999999G'" },
		{ "[a]\ntiers = /x\noptions = discard\n", "b.conf:3: options: unknown option 'discard'" },
		{ "[a]\ntiers = /x\noptions = demote_heat=256\n", "b.conf:3: options: demote_heat: '256' is not a number from 0 to 255" },
		{ "[a]\ntiers = /x\noptions = demote_heat\n", "b.conf:3: options: demote_heat needs a value" },
		{ "[a]\ntiers = /x\noptions = discard_passdown=1\n", "b.conf:3: options: discard_passdown takes no value" },
		{ "[a]\ntiers = /x\noptions = frontier_blocks=4\n", "b.conf:3: options: frontier_blocks: '4' is not a number from 8 to 65536" },
		{ "[a]\ntiers = /x\noptions = reserve_blocks=15\n", "b.conf:3: options: reserve_blocks: '15'" },
		{ "[a]\ntiers = /x\noptions = migration=maybe\n", "b.conf:3: options: migration: on or off, not 'maybe'" },
		{ "[a]\ntiers = /x\noptions = migration=on Migration=off\n", "b.conf:3: options: option Migration given twice" },
		{ "[a]\ntiers = /x\noptions = low_watermark=30\n", "b.conf:3: options: low_watermark (30) must be below high_watermark (6)" },
		{ "[a]\ntiers = /x\noptions = =5\n", "b.conf:3: options: '=5' is not an option" },
		/* a key twice in a section; a comment after a value */
		{ "[a]\ntiers = /x\nsize = 4G\n\nsize = 8G\n", "b.conf:5: size given again (first at line 3)" },
		{ "[a]\ntiers = /x\ntiers = /y\n", "b.conf:3: tiers given again (first at line 2)" },
		{ "[a]\ntiers = /x /y # the slow one\n", "b.conf:2: tiers: '#' in the value (a comment goes on a line of its own)" },
		{ "[a]\ntiers = /x\noptions = discard_passdown ; keep\n", "b.conf:3: options: ';' in the value" },
		{ "[a]\ntiers = /x\ndiscard = yes#no\n", "b.conf:3: discard: '#' in the value" },
		{ "[a]\ntiers = /x\npriority = 5 # high\n", "b.conf:3: priority: '#' in the value" },
		{ "[a] # swap\ntiers = /x\n", "b.conf:1: a section is [name]" },
		{ "[a]\ntiers = /x\nwait = 61\n", "b.conf:3: wait: '61' is not a number of seconds from 0 to 60" },
		{ "[a]\ntiers = /x\nwait = -1\n", "b.conf:3: wait: '-1'" },
		{ "[a]\ntiers = /x\nwait = 5s\n", "b.conf:3: wait: '5s'" },
		{ "[a]\ntiers = /x\npriority = 32768\n", "b.conf:3: priority: '32768' is not a number from -1 to 32767" },
		{ "[a]\ntiers = /x\npriority = -2\n", "b.conf:3: priority: '-2'" },
		{ "[a]\ntiers = /x\npriority = +5\n", "b.conf:3: priority: '+5'" },
		{ "[a]\ntiers = /x\npriority = 99999999999999999999\n", "b.conf:3: priority: '99999999999999999999'" },
	};
	char big[5000];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		EXPECT_EQ(swt_conf_parse("b.conf", bad[i].text, &c, err, sizeof(err)), -1);
		expect_err(bad[i].msg);
	}
	/* overlong line and word; a tiny error buffer is not overrun */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	EXPECT_EQ(swt_conf_parse("b.conf", big, &c, err, sizeof(err)), -1);
	EXPECT(!strcmp(err, "b.conf:1: line too long"));
	snprintf(big, sizeof(big), "[a]\ntiers = /%0300d\n", 0);
	EXPECT_EQ(swt_conf_parse("b.conf", big, &c, err, sizeof(err)), -1);
	EXPECT_EQ(swt_conf_parse("b.conf", "[a\n", &c, err, 4), -1);
	EXPECT_EQ(strlen(err), 3);
}

/*
 * the names dmsetup takes: any of letters, digits, - _ . + but '-' or '.'
 * first (a record's file under /run/dmswaptier is named by it)
 */
static void test_names(void)
{
	char text[400], name[130];

	EXPECT_EQ(swt_conf_parse("n.conf", "[a-b_c.d+e]\ntiers = /x\n[0-]\ntiers = /y\n"
				 "[x.]\ntiers = /z\n[controller]\ntiers = /w\n",
				 &c, err, sizeof(err)), 0);
	EXPECT_EQ(c.ndevs, 4);
	EXPECT(!strcmp(c.dev[0].name, "a-b_c.d+e"));
	memset(name, 'n', sizeof(name));
	name[127] = 0;		/* DM_NAME_LEN 128 with its NUL */
	snprintf(text, sizeof(text), "[%s]\ntiers = /x\n", name);
	EXPECT_EQ(swt_conf_parse("n.conf", text, &c, err, sizeof(err)), 0);
	name[127] = 'n';
	name[128] = 0;
	snprintf(text, sizeof(text), "[%s]\ntiers = /x\n", name);
	EXPECT_EQ(swt_conf_parse("n.conf", text, &c, err, sizeof(err)), -1);
	expect_err("n.conf:1: 'nnnn");
	EXPECT_EQ(swt_conf_parse("n.conf", "[a]\ntiers = /x\n[.x]\ntiers = /z\n",
				 &c, err, sizeof(err)), -1);
	expect_err("n.conf:3: '.x' is not a device name");
	EXPECT_EQ(swt_conf_parse("n.conf", "[..]\ntiers = /z\n", &c, err,
				 sizeof(err)), -1);
	expect_err("n.conf:1: '..' is not a device name");
	EXPECT_EQ(swt_conf_parse("n.conf", "[.]\ntiers = /z\n", &c, err,
				 sizeof(err)), -1);
	expect_err("n.conf:1: '.' is not a device name");
}

/*
 * a tier path given twice in a section is a mistake; in two sections it
 * is for activate to find (swt_tier_clash), as two paths of one device
 * are; a path with a backslash (a by-partlabel link) is taken as it is
 */
static void test_tier_paths(void)
{
	EXPECT_EQ(swt_conf_parse("p.conf", "[a]\ntiers = /dev/x /dev/y /dev/x\n",
				 &c, err, sizeof(err)), -1);
	expect_err("p.conf:2: tiers: '/dev/x' given twice");
	EXPECT_EQ(swt_conf_parse("p.conf", "[a]\ntiers = /dev/x\n[b]\ntiers = /dev/x\n",
				 &c, err, sizeof(err)), 0);
	EXPECT_EQ(swt_conf_parse("p.conf",
				 "[a]\ntiers = /dev/disk/by-partlabel/Linux\\x20swap\n",
				 &c, err, sizeof(err)), 0);
	EXPECT(!strcmp(c.dev[0].tier[0], "/dev/disk/by-partlabel/Linux\\x20swap"));
}

/* tiers as activate resolved them: each device once in all the file */
static void test_tier_clash(void)
{
	const struct swt_tier_use used[] = {
		{ 259, 3, "swap0", "/dev/disk/by-id/nvme-A" },
		{ 8, 18, "swap0", "/dev/disk/by-id/ata-B-part2" },
	};
	struct swt_tier_use t[3] = {
		{ 8, 17, "swap1", "/dev/disk/by-id/ata-B-part1" },
		{ 8, 33, "swap1", "/dev/disk/by-id/ata-C" },
		{ 259, 4, "swap1", "/dev/disk/by-partlabel/Linux\\x20swap" },
	};

	/* none shared: 8:17 is not 8:18, 259:4 not 259:3 */
	EXPECT_EQ(swt_tier_clash(used, 2, t, 3, err, sizeof(err)), 0);
	EXPECT_EQ(swt_tier_clash(NULL, 0, t, 3, err, sizeof(err)), 0);
	/* two paths of one device in the section */
	t[2].major = 8;
	t[2].minor = 17;
	EXPECT_EQ(swt_tier_clash(NULL, 0, t, 3, err, sizeof(err)), 1);
	expect_err("tiers /dev/disk/by-id/ata-B-part1 and /dev/disk/by-partlabel/Linux\\x20swap are one device (8:17)");
	/* within the section first, then the earlier sections */
	EXPECT_EQ(swt_tier_clash(used, 2, t, 3, err, sizeof(err)), 1);
	/* a device an earlier section has, by another path */
	t[2].major = 259;
	t[2].minor = 3;
	EXPECT_EQ(swt_tier_clash(used, 2, t, 3, err, sizeof(err)), 2);
	expect_err("tier /dev/disk/by-partlabel/Linux\\x20swap is device 259:3, a tier of [swap0] already (as /dev/disk/by-id/nvme-A)");
	t[0].minor = 18;
	EXPECT_EQ(swt_tier_clash(used, 2, t, 1, err, sizeof(err)), 2);
	expect_err("tier /dev/disk/by-id/ata-B-part1 is device 8:18, a tier of [swap0] already (as /dev/disk/by-id/ata-B-part2)");
	/* the earlier sections only as far as @nused goes */
	EXPECT_EQ(swt_tier_clash(used, 1, t, 1, err, sizeof(err)), 0);
}

/* the values create and swapon take, at the ends of their ranges */
static void test_values(void)
{
	const char *text =
		"[a]\n"
		"tiers = /dev/x\n"
		"size = 4096\n"
		"options = DISCARD_PASSDOWN frontier_blocks=65536 reserve_blocks=16 migration=OFF low_watermark=0 high_watermark=1 write_batch=0\n"
		"priority = 32767\n"
		"wait = 60\n"
		"[b]\n"
		"tiers = /dev/y\n"
		"size = 17179869183G\n"
		"priority = 0\n"
		"[c]\n"
		"tiers = /dev/z\n";

	EXPECT_EQ(swt_conf_parse("v.conf", text, &c, err, sizeof(err)), 0);
	if (c.ndevs != 3) {
		fprintf(stderr, "  %s\n", err);
		EXPECT_EQ(c.ndevs, 3);
		return;
	}
	EXPECT_EQ(c.dev[0].size_bytes, 4096);
	EXPECT_EQ(c.dev[0].nopts, 7);
	EXPECT_EQ(c.dev[0].priority, 32767);
	EXPECT_EQ(c.dev[0].wait, 60);
	EXPECT_EQ(c.dev[1].size_bytes, 17179869183ULL << 30);
	EXPECT(c.dev[1].has_priority);
	EXPECT_EQ(c.dev[1].priority, 0);
	EXPECT(!c.dev[2].has_priority);
}

/*
 * a table line create could not hold is found in the file; long tier
 * paths are not what makes it long (activate gives create device numbers)
 */
static void test_long_table(void)
{
	static char text[12000];
	char word[250];
	size_t off;
	int i;

	memset(word, 'p', sizeof(word) - 1);
	word[sizeof(word) - 1] = 0;
	off = snprintf(text, sizeof(text), "[a]\ntiers =");
	for (i = 0; i < 8; i++)
		off += snprintf(text + off, sizeof(text) - off, " /%c%s",
				'a' + i, word);
	EXPECT_EQ(swt_conf_parse("l.conf", text, &c, err, sizeof(err)), 0);
	off += snprintf(text + off, sizeof(text) - off, "\n[b]\ntiers =");
	for (i = 0; i < 8; i++)
		off += snprintf(text + off, sizeof(text) - off, " /%c%s",
				'a' + i, word);
	/* values with leading zeros are numbers, but long ones */
	memset(word, '0', sizeof(word) - 1);
	off += snprintf(text + off, sizeof(text) - off, "\noptions =");
	for (i = 0; i < 5; i++)
		off += snprintf(text + off, sizeof(text) - off, " %s=%.200s100",
				i == 0 ? "migration_max_io" : i == 1 ? "heat_period" :
				i == 2 ? "frontier_blocks" : i == 3 ?
				"reserve_blocks" : "migration_idle", word);
	snprintf(text + off, sizeof(text) - off, "\n");
	EXPECT_EQ(swt_conf_parse("l.conf", text, &c, err, sizeof(err)), -1);
	expect_err("l.conf:3: [b]: the table line is over 4096 bytes");
}

/*
 * Every option at once, as "set" can leave them in the table: the words
 * stay within what the target takes (SWT_MAX_OPT_WORDS).
 */
static void test_every_option(void)
{
	const char *text =
		"[a]\ntiers = /x /y\noptions = discard_passdown frontier_blocks=8 "
		"reserve_blocks=16 migration=on low_watermark=3 high_watermark=6 "
		"promote_heat=3 heat_period=10000 migration_idle=200 "
		"migration_max_io=1024 write_batch=256 promote_share=25 "
		"demote_heat=1 demote_gate=on\n";

	EXPECT_EQ(swt_conf_parse("e.conf", text, &c, err, sizeof(err)), 0);
	EXPECT_EQ(c.dev[0].nopts, 3 + SWT_NR_KNOBS);
}

int main(void)
{
	static const struct unit_test tests[] = {
		{ "two_devices", test_two_devices },
		{ "mistakes", test_mistakes },
		{ "names", test_names },
		{ "values", test_values },
		{ "long_table", test_long_table },
		{ "every_option", test_every_option },
		{ "tier_paths", test_tier_paths },
		{ "tier_clash", test_tier_clash },
	};

	return unit_run("conf", tests, sizeof(tests) / sizeof(tests[0]));
}
