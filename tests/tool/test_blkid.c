// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of tools/dmswaptier/swt_blkid.c on image files: a tier that
 * holds a filesystem or a partition table is refused, an empty one and
 * one with a swap signature (the first tier of a device swapped on
 * before) are not, and one that cannot be opened is an error.
 */
#include "swt_blkid.h"
#include "unit.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned long shim_warnings;
long shim_fail_alloc_after = -1;
long shim_live_allocs;
long shim_vmallocs;

static char dir[256];
static char what[128];

/* DIR/NAME, an image of @mib MiB of zeros; NULL if it cannot be made */
static const char *image(const char *name, unsigned int mib)
{
	static char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)mib << 20)) {
		EXPECT(!"can make an image file");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

/* Run "@tool ARGS @path" quietly; false (and a note) if @tool is missing. */
static int run_on(const char *tool, const char *args, const char *path)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null", tool);
	if (system(cmd)) {
		printf("# %s is missing: that check is skipped\n", tool);
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "%s %s '%s' >/dev/null 2>&1", tool, args,
		 path);
	EXPECT_EQ(system(cmd), 0);
	return 1;
}

static void test_empty(void)
{
	const char *p = image("zero.img", 4);

	EXPECT_EQ(swt_tier_signature(p, what, sizeof(what)), 0);
}

static void test_filesystem(void)
{
	const char *p = image("ext4.img", 8);

	if (!run_on("mkfs.ext4", "-q -F", p))
		return;
	EXPECT_EQ(swt_tier_signature(p, what, sizeof(what)), 1);
	EXPECT(!strcmp(what, "ext4"));
}

/* mkswap's header: what tier 0 of a device swapped on before shows */
static void test_swap_allowed(void)
{
	const char *p = image("swap.img", 4);

	if (!run_on("mkswap", "", p))
		return;
	EXPECT_EQ(swt_tier_signature(p, what, sizeof(what)), 0);
}

/* an MBR with one Linux partition, written here (no sfdisk needed) */
static void test_partition_table(void)
{
	static const unsigned char entry[16] = {
		0x00, 0, 0, 0, 0x83, 0, 0, 0,
		0x00, 0x08, 0, 0,	/* first LBA 2048 */
		0x00, 0x10, 0, 0,	/* 4096 sectors */
	};
	static const unsigned char magic[2] = { 0x55, 0xaa };
	const char *p = image("mbr.img", 4);
	int fd = p ? open(p, O_WRONLY) : -1;

	EXPECT(fd >= 0);
	if (fd < 0)
		return;
	EXPECT_EQ(pwrite(fd, entry, sizeof(entry), 446), sizeof(entry));
	EXPECT_EQ(pwrite(fd, magic, sizeof(magic), 510), sizeof(magic));
	close(fd);
	EXPECT_EQ(swt_tier_signature(p, what, sizeof(what)), 1);
	EXPECT(!strcmp(what, "a dos partition table"));
}

static void test_missing(void)
{
	char p[300];

	snprintf(p, sizeof(p), "%s/none", dir);
	EXPECT_EQ(swt_tier_signature(p, what, sizeof(what)), -1);
	EXPECT(strstr(what, "No such file") != NULL);
}

int main(void)
{
	static const struct unit_test tests[] = {
		{ "empty", test_empty },
		{ "filesystem", test_filesystem },
		{ "swap_allowed", test_swap_allowed },
		{ "partition_table", test_partition_table },
		{ "missing", test_missing },
	};
	char cmd[300];
	int rc;

	snprintf(dir, sizeof(dir), "%s/swt-blkid.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	rc = unit_run("blkid", tests, sizeof(tests) / sizeof(tests[0]));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		rc = 1;
	return rc;
}
