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
		"priority = -5";

	EXPECT_EQ(swt_conf_parse("t.conf", text, &c, err, sizeof(err)), 0);
	EXPECT_EQ(c.ndevs, 2);
	EXPECT(!strcmp(c.dev[0].name, "swap0"));
	EXPECT_EQ(c.dev[0].line, 2);
	EXPECT_EQ(c.dev[0].ntiers, 2);
	EXPECT(!strcmp(c.dev[0].tier[1], "/dev/disk/by-partuuid/1234"));
	EXPECT(!strcmp(c.dev[0].size, "8G"));
	EXPECT_EQ(c.dev[0].nopts, 2);
	EXPECT(!strcmp(c.dev[0].opt[1], "demote_heat=1"));
	EXPECT(!strcmp(c.dev[0].priority, "10"));
	EXPECT(c.dev[0].discard);
	EXPECT(!strcmp(c.dev[1].name, "zram-tier"));
	EXPECT(!strcmp(c.dev[1].tier[0], "/dev/zram0"));
	EXPECT(!c.dev[1].size[0]);
	EXPECT_EQ(c.dev[1].nopts, 0);
	EXPECT(!c.dev[1].discard);
	EXPECT(!strcmp(c.dev[1].priority, "-5"));
	EXPECT_EQ(swt_conf_parse("e.conf", "", &c, err, sizeof(err)), 0);
	EXPECT_EQ(c.ndevs, 0);
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
		{ "[a]\ntiers=/x\n[a]\n", "b.conf:3: [a] again (first at line 1)" },
		{ "[a]\ntiers = 1 2 3 4 5 6 7 8 9\n", "b.conf:2: tiers: more than 8 values" },
		{ "[a]\ntiers = /x\npriority = high\n", "b.conf:3: priority: 'high'" },
		{ "[a]\ntiers = /x\npriority = -\n", "b.conf:3: priority: '-'" },
		{ "[a]\ntiers = /x\ndiscard = maybe\n", "b.conf:3: discard: yes or no" },
		{ "[a]\njust words\n", "b.conf:2: expected key = value" },
	};
	char big[5000];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		EXPECT_EQ(swt_conf_parse("b.conf", bad[i].text, &c, err, sizeof(err)), -1);
		if (strncmp(err, bad[i].msg, strlen(bad[i].msg))) {
			fprintf(stderr, "  case %u: got '%s'\n", i, err);
			EXPECT(!"error message");
		}
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

int main(void)
{
	static const struct unit_test tests[] = {
		{ "two_devices", test_two_devices },
		{ "mistakes", test_mistakes },
	};

	return unit_run("conf", tests, sizeof(tests) / sizeof(tests[0]));
}
