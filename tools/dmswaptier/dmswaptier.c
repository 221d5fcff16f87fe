// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmswaptier: create, inspect and analyse dm-swaptier devices.
 *
 * Exit codes: 0 ok, 1 usage error, 2 device or kernel error.
 */
#include "swt_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libdevmapper.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <linux/fs.h>
#include <unistd.h>

#define EXIT_USAGE 1
#define EXIT_DEVICE 2
#define TARGET "swaptier"

static const char *prog = "dmswaptier";

static int die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

/*----------------------------------------------------------------*/
/* libdevmapper */

/* Status or table params of NAME's swaptier target; dies on any error. */
static char *dm_params(const char *name, int type, uint64_t *len)
{
	struct dm_task *dmt = dm_task_create(type);
	char *target_type = NULL, *params = NULL, *copy;
	uint64_t start, length;
	struct dm_info info;

	if (!dmt || !dm_task_set_name(dmt, name) || !dm_task_run(dmt))
		die(EXIT_DEVICE, "%s: cannot query the device (does it exist?)", name);
	if (!dm_task_get_info(dmt, &info) || !info.exists)
		die(EXIT_DEVICE, "%s: no such device", name);
	dm_get_next_target(dmt, NULL, &start, &length, &target_type, &params);
	if (!target_type || strcmp(target_type, TARGET))
		die(EXIT_DEVICE, "%s: not a dm-swaptier device (target '%s')", name,
		    target_type ? target_type : "none");
	copy = strdup(params ? params : "");
	if (len)
		*len = length;
	dm_task_destroy(dmt);
	return copy;
}

static void get_status(const char *name, struct swt_status *st)
{
	char err[160], *p = dm_params(name, DM_DEVICE_STATUS, NULL);

	if (swt_parse_status(p, st, err, sizeof(err)))
		die(EXIT_DEVICE, "%s: %s", name, err);
	free(p);
}

static void get_table(const char *name, struct swt_table *t)
{
	char err[160], *p = dm_params(name, DM_DEVICE_TABLE, NULL);

	if (swt_parse_table(p, t, err, sizeof(err)))
		die(EXIT_DEVICE, "%s: %s", name, err);
	free(p);
}

/* Send a message; returns the response (malloc'ed, may be empty). */
static char *dm_message(const char *name, const char *msg)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_TARGET_MSG);
	const char *r;
	char *copy;

	if (!dmt || !dm_task_set_name(dmt, name) || !dm_task_set_sector(dmt, 0) ||
	    !dm_task_set_message(dmt, msg) || !dm_task_run(dmt))
		die(EXIT_DEVICE, "%s: message '%s' failed (see the kernel log)", name, msg);
	r = dm_task_get_message_response(dmt);
	copy = strdup(r ? r : "");
	dm_task_destroy(dmt);
	return copy;
}

/* Names of all swaptier devices. */
static int list_devices(char ***names)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_LIST);
	struct dm_names *n;
	unsigned int next = 0;
	int count = 0;

	*names = NULL;
	if (!dmt || !dm_task_run(dmt))
		die(EXIT_DEVICE, "cannot list device-mapper devices (is dm-mod loaded?)");
	n = dm_task_get_names(dmt);
	if (n && n->dev) {
		do {
			struct dm_task *s;
			char *tt = NULL, *params = NULL;
			uint64_t a, b;

			n = (struct dm_names *)((char *)n + next);
			s = dm_task_create(DM_DEVICE_TABLE);
			if (s && dm_task_set_name(s, n->name) && dm_task_run(s)) {
				dm_get_next_target(s, NULL, &a, &b, &tt, &params);
				if (tt && !strcmp(tt, TARGET)) {
					char **nn = realloc(*names, (count + 1) * sizeof(char *));

					if (!nn)
						die(EXIT_DEVICE, "out of memory");
					*names = nn;
					(*names)[count++] = strdup(n->name);
				}
			}
			if (s)
				dm_task_destroy(s);
			next = n->next;
		} while (next);
	}
	dm_task_destroy(dmt);
	return count;
}

static int dm_simple(int type, const char *name, uint64_t len, const char *params)
{
	struct dm_task *dmt = dm_task_create(type);
	uint32_t cookie = 0;
	int ok;

	if (!dmt || !dm_task_set_name(dmt, name))
		return 0;
	if (params && !dm_task_add_target(dmt, 0, len, TARGET, params))
		return 0;
	ok = dm_task_set_cookie(dmt, &cookie, 0) && dm_task_run(dmt);
	/* also makes or removes the /dev/mapper node when udev is not used */
	dm_udev_wait(cookie);
	dm_task_destroy(dmt);
	return ok;
}

/*----------------------------------------------------------------*/
/* helpers */

/* "major:minor" -> "/dev/NAME" from sysfs, or the input if unknown. */
static void dev_name(const char *mm, char *buf, size_t len)
{
	char path[128], line[128];
	FILE *f;

	snprintf(buf, len, "%s", mm);
	snprintf(path, sizeof(path), "/sys/dev/block/%s/uevent", mm);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, len, "/dev/%s", line + 8);
		}
	fclose(f);
}

static uint64_t dev_bytes(const char *path)
{
	uint64_t bytes = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die(EXIT_DEVICE, "%s: cannot open: %s", path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &bytes))
		die(EXIT_DEVICE, "%s: not a block device", path);
	close(fd);
	return bytes;
}

static int run(char *const argv[], bool quiet)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Is /dev/mapper/NAME an active swap area? */
static bool is_swap(const char *name)
{
	char path[PATH_MAX], line[512], dev[PATH_MAX];
	struct stat a, b;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/dev/mapper/%s", name);
	if (stat(path, &a))
		return false;
	f = fopen("/proc/swaps", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%4095s", dev) == 1 && !stat(dev, &b) &&
		    S_ISBLK(b.st_mode) && b.st_rdev == a.st_rdev)
			found = true;
	fclose(f);
	return found;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/*----------------------------------------------------------------*/
/* status */

static void status_human(const char *name)
{
	struct swt_status st;
	struct swt_table t;
	uint64_t reads = 0;
	unsigned int i;
	char dn[160];

	get_status(name, &st);
	get_table(name, &t);
	if (t.nr_tiers != st.nr_tiers)
		die(EXIT_DEVICE, "%s: table and status disagree on the tier count", name);
	for (i = 0; i < st.nr_tiers; i++)
		reads += st.tier[i].reads;
	printf("%s: %" PRIu64 " of %" PRIu64 " blocks mapped (%.1f MiB), mode %s\n",
	       name, st.mapped, st.logical, st.mapped / 256.0, st.mode);
	printf("  %-4s %-14s %10s %10s %10s %10s %10s %6s %6s\n", "tier", "device",
	       "size MiB", "used MiB", "free MiB", "reads", "writes", "hits", "errors");
	for (i = 0; i < st.nr_tiers; i++) {
		struct swt_tier_status *ts = &st.tier[i];

		dev_name(t.tier[i], dn, sizeof(dn));
		printf("  %-4u %-14s %10.1f %10.1f %10.1f %10" PRIu64 " %10" PRIu64
		       " %5.1f%% %6" PRIu64 "\n", i, dn, ts->total / 256.0,
		       ts->used / 256.0, (ts->total - ts->used) / 256.0, ts->reads,
		       ts->writes, 100.0 * ratio(ts->reads, reads), ts->errors);
	}
	printf("  sequential writes: %" PRIu64 " of %" PRIu64 " (%.1f%%)   deferred: %" PRIu64
	       "   freed, pending reuse: %" PRIu64 "\n", st.seq_writes, st.write_allocs,
	       100.0 * ratio(st.seq_writes, st.write_allocs), st.deferred, st.pending);
	printf("  map memory: %" PRIu64 " bytes (%.2f B/block)\n",
	       st.map_bytes, ratio(st.map_bytes, st.logical));
	if (!st.has_migration)
		return;
	printf("  migration %s: promoted %" PRIu64 "   demoted %" PRIu64 "   evacuated %" PRIu64
	       "   abandoned %" PRIu64 "   tier states %s\n", st.migration ? "on" : "off",
	       st.promoted, st.demoted, st.evacuated, st.abandoned, st.tier_state);
	if (st.evacuate >= 0)
		printf("  evacuating tier %d: %" PRIu64 " blocks left%s\n", st.evacuate,
		       st.evacuate_left, st.evacuate_left ? "" : " (done: replace it with a reload)");
}

static void status_json(const char *name, bool last)
{
	struct swt_status st;
	struct swt_table t;
	unsigned int i;
	char dn[160];

	get_status(name, &st);
	get_table(name, &t);
	printf("  {\"name\": \"%s\", \"mode\": \"%s\", \"mapped\": %" PRIu64
	       ", \"logical\": %" PRIu64 ", \"seq_writes\": %" PRIu64
	       ", \"write_allocs\": %" PRIu64 ", \"deferred\": %" PRIu64
	       ", \"pending\": %" PRIu64 ", \"map_bytes\": %" PRIu64 ", \"tiers\": [",
	       name, st.mode, st.mapped, st.logical, st.seq_writes, st.write_allocs,
	       st.deferred, st.pending, st.map_bytes);
	for (i = 0; i < st.nr_tiers; i++) {
		struct swt_tier_status *ts = &st.tier[i];

		dev_name(t.tier[i], dn, sizeof(dn));
		printf("%s{\"tier\": %u, \"device\": \"%s\", \"dev\": \"%s\", \"used\": %" PRIu64
		       ", \"total\": %" PRIu64 ", \"reads\": %" PRIu64 ", \"writes\": %" PRIu64
		       ", \"errors\": %" PRIu64 "}", i ? ", " : "", i, dn, t.tier[i],
		       ts->used, ts->total, ts->reads, ts->writes, ts->errors);
	}
	printf("]");
	if (st.has_migration)
		printf(", \"migration\": %s, \"promoted\": %" PRIu64 ", \"demoted\": %" PRIu64
		       ", \"evacuated\": %" PRIu64 ", \"abandoned\": %" PRIu64
		       ", \"evacuate\": %d, \"evacuate_left\": %" PRIu64 ", \"tier_state\": \"%s\"",
		       st.migration ? "true" : "false", st.promoted, st.demoted, st.evacuated,
		       st.abandoned, st.evacuate, st.evacuate_left, st.tier_state);
	printf("}%s\n", last ? "" : ",");
}

static int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "watch", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool json = false;
	int watch = 0, c, n, i;
	char **names;

	while ((c = getopt_long(argc, argv, "jw:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'w': watch = atoi(optarg);
			if (watch <= 0)
				die(EXIT_USAGE, "status: --watch needs a positive number of seconds");
			break;
		case 'h':
			puts("usage: dmswaptier status [NAME] [--json] [--watch SECONDS]");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	if (argc - optind > 1)
		die(EXIT_USAGE, "status: at most one device name");
	if (optind < argc) {
		names = &argv[optind];
		n = 1;
	} else {
		n = list_devices(&names);
	}
	for (;;) {
		if (watch)
			printf("\033[H\033[2J");
		if (json)
			printf("[\n");
		for (i = 0; i < n; i++) {
			if (json)
				status_json(names[i], i == n - 1);
			else
				status_human(names[i]);
		}
		if (json)
			printf("]\n");
		if (!n && !json)
			printf("no dm-swaptier devices\n");
		if (!watch)
			return 0;
		fflush(stdout);
		sleep(watch);
	}
}

/*----------------------------------------------------------------*/
/* map */

/*
 * The extents of blocks from..from+count-1, *n of them (malloc'ed). The
 * kernel lists what fits in its response buffer; a response cut short ends
 * in "next <block>", and the rest is asked for from that block, until the
 * whole range is covered. Dies on any error.
 */
static struct swt_extent *get_map(const char *name, uint64_t from,
				  uint64_t count, size_t *n)
{
	uint64_t cur = from, end = from + count, next;
	struct swt_extent *ext = NULL;
	char msg[96], err[160], *resp;
	size_t cap = 0, room, got;
	int more;

	*n = 0;
	do {
		snprintf(msg, sizeof(msg), "map %" PRIu64 " %" PRIu64, cur, end - cur);
		resp = dm_message(name, msg);
		room = strlen(resp) / 8 + 1;	/* a line has at least 8 bytes */
		if (cap - *n < room) {
			void *ne;

			cap = 2 * cap > *n + room ? 2 * cap : *n + room;
			ne = realloc(ext, cap * sizeof(*ext));
			if (!ne)
				die(EXIT_DEVICE, "out of memory");
			ext = ne;
		}
		/* cur moves forward each time round, or this dies */
		if (swt_parse_map(resp, ext + *n, room, &got, &more, &next, err, sizeof(err)) ||
		    swt_map_advance(&cur, end, ext + *n, got, more, err, sizeof(err)))
			die(EXIT_DEVICE, "%s: %s (response to '%s')", name, err, msg);
		free(resp);
		*n += got;
	} while (cur < end);
	return ext;
}

/* Does b continue a, as one extent would (the kernel joins such runs)? */
static bool continues(const struct swt_extent *a, const struct swt_extent *b)
{
	if (a->tier < 0 || b->tier < 0)
		return a->tier == b->tier;
	return a->tier == b->tier && a->pblk + a->len == b->pblk;
}

static int cmd_map(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "count", required_argument, NULL, 'c' },
		{ "summary", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t from = 0, count = 0, ext_count[SWT_MAX_TIERS + 1] = { 0 };
	uint64_t blocks[SWT_MAX_TIERS + 1] = { 0 };
	struct swt_extent *ext;
	struct swt_status st;
	bool summary = false;
	size_t n, i, joined = 0;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "f:c:sh", opts, NULL)) != -1) {
		switch (c) {
		case 'f': from = strtoull(optarg, &end, 10);
			if (*end)
				die(EXIT_USAGE, "map: --from needs a block number");
			break;
		case 'c': count = strtoull(optarg, &end, 10);
			if (*end || !count)
				die(EXIT_USAGE, "map: --count needs a positive number");
			break;
		case 's': summary = true; break;
		case 'h':
			puts("usage: dmswaptier map NAME [--from BLOCK] [--count N] [--summary]");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	if (argc - optind != 1)
		die(EXIT_USAGE, "map: give exactly one device name");
	get_status(argv[optind], &st);
	if (from >= st.logical)
		die(EXIT_USAGE, "map: --from %" PRIu64 " is beyond the device's %" PRIu64 " blocks",
		    from, st.logical);
	if (!count || count > st.logical - from)
		count = st.logical - from;
	ext = get_map(argv[optind], from, count, &n);
	for (i = 0; i < n; i++) {
		int k = ext[i].tier < 0 ? SWT_MAX_TIERS : ext[i].tier;

		if (!summary) {
			if (ext[i].tier < 0)
				printf("%" PRIu64 " %" PRIu64 " - -\n", ext[i].lblk, ext[i].len);
			else
				printf("%" PRIu64 " %" PRIu64 " %d %" PRIu64 "\n", ext[i].lblk,
				       ext[i].len, ext[i].tier, ext[i].pblk);
			continue;
		}
		blocks[k] += ext[i].len;
		/* an extent split where one response ended counts once */
		if (i && continues(&ext[i - 1], &ext[i]))
			continue;
		ext_count[k]++;
		joined++;
	}
	free(ext);
	if (!summary)
		return 0;
	printf("blocks %" PRIu64 "-%" PRIu64 ": %zu extents\n", from, from + count - 1, joined);
	for (i = 0; i < st.nr_tiers; i++)
		printf("  tier %zu: %" PRIu64 " blocks in %" PRIu64
		       " extents (avg %.1f blocks/extent)\n", i, blocks[i], ext_count[i],
		       ratio(blocks[i], ext_count[i]));
	printf("  unmapped: %" PRIu64 " blocks in %" PRIu64 " runs\n",
	       blocks[SWT_MAX_TIERS], ext_count[SWT_MAX_TIERS]);
	return 0;
}

/*----------------------------------------------------------------*/
/* create, remove */

/* SIZE: decimal digits, then K, M or G; -1 if not one or over 64 bits. */
static int parse_size(const char *s, uint64_t *bytes)
{
	unsigned int shift = 0;
	uint64_t v;
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
	*bytes = v << shift;
	return 0;
}

static int cmd_create(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "option", required_argument, NULL, 'o' },
		{ "swap", no_argument, NULL, 'w' },
		{ "discard", no_argument, NULL, 'd' },
		{ "priority", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char params[4096], opt[1024] = "", path[PATH_MAX], *prio = NULL;
	uint64_t size = 0, total = 0, reserve = 0, maxlen;
	bool swap = false, discard = false;
	int c, nopt = 0, i, ntiers;
	size_t off;

	while ((c = getopt_long(argc, argv, "s:o:wdp:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_size(optarg, &size) || !size || size % 4096)
				die(EXIT_USAGE, "create: --size must be a positive multiple of 4096 bytes (K, M, G suffixes)");
			break;
		case 'o': {
			char *eq = strchr(optarg, '=');
			size_t l = strlen(opt);

			if (eq) {
				*eq = 0;
				snprintf(opt + l, sizeof(opt) - l, " %s %s", optarg, eq + 1);
				nopt += 2;
				if (!strcmp(optarg, "reserve_blocks"))
					reserve = strtoull(eq + 1, NULL, 10);
			} else {
				snprintf(opt + l, sizeof(opt) - l, " %s", optarg);
				nopt++;
			}
			break;
		}
		case 'w': swap = true; break;
		case 'd': discard = true; break;
		case 'p': prio = optarg; break;
		case 'h':
			puts("usage: dmswaptier create NAME TIER_DEV... [--size SIZE] [--option KEY=VALUE|FLAG]...\n"
			     "                         [--swap [--discard] [--priority N]]");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	ntiers = argc - optind - 1;
	if (ntiers < 1)
		die(EXIT_USAGE, "create: give a name and at least one tier device");
	if (ntiers > SWT_MAX_TIERS)
		die(EXIT_USAGE, "create: at most %d tiers", SWT_MAX_TIERS);
	if ((discard || prio) && !swap)
		die(EXIT_USAGE, "create: --discard and --priority go with --swap");
	off = snprintf(params, sizeof(params), "%d", ntiers);
	for (i = 0; i < ntiers; i++) {
		const char *d = argv[optind + 1 + i];

		total += dev_bytes(d) / 4096;
		off += snprintf(params + off, sizeof(params) - off, " %s", d);
	}
	if (nopt)
		snprintf(params + off, sizeof(params) - off, " %d%s", nopt, opt);
	if (!reserve)
		reserve = total / 100 < 256 ? 256 : total / 100;
	maxlen = total > reserve ? (total - reserve) * 8 : 0;
	if (!maxlen)
		die(EXIT_USAGE, "create: the tiers are too small for the reserve of %" PRIu64 " blocks", reserve);
	if (size && size / 512 > maxlen)
		die(EXIT_USAGE, "create: --size %" PRIu64 " exceeds the maximum %" PRIu64 " bytes",
		    size, maxlen * 512);
	if (!dm_simple(DM_DEVICE_CREATE, argv[optind], size ? size / 512 : maxlen, params))
		die(EXIT_DEVICE, "%s: create failed (the kernel log says why: dmesg | tail)", argv[optind]);
	if (!swap)
		return 0;
	snprintf(path, sizeof(path), "/dev/mapper/%s", argv[optind]);
	{
		char *mk[] = { "mkswap", path, NULL };
		char *on[8] = { "swapon" };
		int k = 1;

		if (run(mk, true))
			die(EXIT_DEVICE, "%s: mkswap failed", path);
		if (discard)
			on[k++] = "--discard";
		if (prio) {
			on[k++] = "--priority";
			on[k++] = prio;
		}
		on[k++] = path;
		if (run(on, false))
			die(EXIT_DEVICE, "%s: swapon failed", path);
	}
	return 0;
}

static int cmd_remove(int argc, char **argv)
{
	char path[PATH_MAX];

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: dmswaptier remove NAME");
		return 0;
	}
	if (argc != 2)
		die(EXIT_USAGE, "remove: give exactly one device name");
	free(dm_params(argv[1], DM_DEVICE_TABLE, NULL));	/* exists, is ours */
	if (is_swap(argv[1])) {
		char *off[] = { "swapoff", path, NULL };

		snprintf(path, sizeof(path), "/dev/mapper/%s", argv[1]);
		if (run(off, false))
			die(EXIT_DEVICE, "%s: swapoff failed", path);
	}
	if (!dm_simple(DM_DEVICE_REMOVE, argv[1], 0, NULL))
		die(EXIT_DEVICE, "%s: remove failed (device busy?)", argv[1]);
	return 0;
}

/*----------------------------------------------------------------*/
/* trace */

static void trace_report(struct swt_trace *t, bool json)
{
	static const char *dirs[] = { "read", "write" };
	size_t i, d, b;

	if (json)
		printf("[");
	for (i = 0; i < t->ndevs; i++) {
		for (d = 0; d < 2; d++) {
			struct swt_dir_stats *s = &t->devs[i].dir[d];
			uint64_t p50 = swt_dir_percentile(s, 50) / 2;
			uint64_t p90 = swt_dir_percentile(s, 90) / 2;
			double avg = ratio(s->dispatched_sectors, s->dispatched) / 2;
			double mr = ratio(s->queued, s->dispatched);

			if (json) {
				printf("%s{\"device\": \"%s\", \"dir\": \"%s\", \"queued\": %" PRIu64
				       ", \"merged\": %" PRIu64 ", \"dispatched\": %" PRIu64
				       ", \"dispatched_sectors\": %" PRIu64
				       ", \"avg_kib\": %.1f, \"p50_kib\": %" PRIu64
				       ", \"p90_kib\": %" PRIu64 ", \"merge_ratio\": %.2f, \"hist\": [",
				       i || d ? ", " : "", t->devs[i].dev, dirs[d], s->queued,
				       s->merged, s->dispatched, s->dispatched_sectors, avg, p50,
				       p90, mr);
				for (b = 0; b < SWT_HIST_BUCKETS; b++)
					printf("%s%" PRIu64, b ? ", " : "", s->hist[b]);
				printf("]}");
				continue;
			}
			printf("%-8s %-5s queued %8" PRIu64 "  merged %8" PRIu64 "  dispatched %8"
			       PRIu64 "  avg %7.1f KiB  p50 %5" PRIu64 " KiB  p90 %5" PRIu64
			       " KiB  merge ratio %.2f\n", t->devs[i].dev, dirs[d], s->queued,
			       s->merged, s->dispatched, avg, p50, p90, mr);
			if (!s->dispatched)
				continue;
			for (b = 0; b < SWT_HIST_BUCKETS; b++) {
				uint64_t w = 50 * s->hist[b] / s->dispatched;

				printf("    %s %4llu KiB %8" PRIu64 " %.*s\n",
				       b + 1 < SWT_HIST_BUCKETS ? "<=" : "> ",
				       b + 1 < SWT_HIST_BUCKETS ? 4ULL << b : 4ULL << (b - 1),
				       s->hist[b], (int)w,
				       "##################################################");
			}
		}
	}
	if (json)
		printf("]\n");
}

/* --plot: the dispatched-size histograms as a PNG bar chart (gnuplot). */
static void trace_plot(struct swt_trace *t, const char *png)
{
	char data[] = "/tmp/dmswaptier-plot.XXXXXX";
	size_t i, d, b, col = 2;
	FILE *f, *g;
	int fd;

	fd = mkstemp(data);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f)
		die(EXIT_DEVICE, "--plot: cannot write a temporary file: %s", strerror(errno));
	fprintf(f, "size");
	for (i = 0; i < t->ndevs; i++)
		for (d = 0; d < 2; d++)
			fprintf(f, "\t\"%s %s\"", t->devs[i].dev, d ? "write" : "read");
	fprintf(f, "\n");
	for (b = 0; b < SWT_HIST_BUCKETS; b++) {
		fprintf(f, "%s%llu", b + 1 < SWT_HIST_BUCKETS ? "" : ">",
			b + 1 < SWT_HIST_BUCKETS ? 4ULL << b : 4ULL << (b - 1));
		for (i = 0; i < t->ndevs; i++)
			for (d = 0; d < 2; d++)
				fprintf(f, "\t%" PRIu64, t->devs[i].dir[d].hist[b]);
		fprintf(f, "\n");
	}
	fclose(f);
	g = popen("gnuplot", "w");
	if (!g)
		die(EXIT_DEVICE, "--plot: cannot run gnuplot");
	fprintf(g, "set terminal png size 1000,560\nset output '%s'\n"
		"set title 'Requests dispatched to each tier, by size'\n"
		"set xlabel 'request size (KiB, at most)'\nset ylabel 'requests'\n"
		"set style data histograms\nset style histogram clustered\n"
		"set style fill solid 0.8\nset key autotitle columnhead\n"
		"set logscale y\nset yrange [0.8:*]\nplot ", png);
	for (i = 0; i < 2 * t->ndevs; i++, col++)
		fprintf(g, "%s'%s' using %zu:xtic(1)", i ? ", " : "", data, col);
	fprintf(g, "\n");
	if (pclose(g))
		die(EXIT_DEVICE, "--plot: gnuplot failed (is gnuplot-nox installed?)");
	unlink(data);
}

static int analyse_file(struct swt_trace *t, FILE *f)
{
	char line[1024];

	while (fgets(line, sizeof(line), f))
		if (swt_trace_line(t, line))
			return -1;
	return 0;
}

static int cmd_trace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "analyse", no_argument, NULL, 'a' },
		{ "analyze", no_argument, NULL, 'a' },
		{ "seconds", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "plot", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct swt_trace t = { 0 };
	bool analyse = false, json = false;
	const char *plot = NULL;
	int c, i, seconds = 10;

	while ((c = getopt_long(argc, argv, "as:jp:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a': analyse = true; break;
		case 'p': plot = optarg; break;
		case 's': seconds = atoi(optarg);
			if (seconds <= 0)
				die(EXIT_USAGE, "trace: --seconds needs a positive number");
			break;
		case 'j': json = true; break;
		case 'h':
			puts("usage: dmswaptier trace NAME [--seconds N] [--json] [--plot FILE.png]\n"
			     "       dmswaptier trace --analyse FILE... [--json] [--plot FILE.png]\n"
			     "       (FILE: blkparse output in its default format, - for stdin)");
			return 0;
		default: return EXIT_USAGE;
		}
	}
	if (analyse) {
		if (optind == argc)
			die(EXIT_USAGE, "trace --analyse: give blkparse output files (or -)");
		for (i = optind; i < argc; i++) {
			FILE *f = strcmp(argv[i], "-") ? fopen(argv[i], "r") : stdin;

			if (!f)
				die(EXIT_DEVICE, "%s: %s", argv[i], strerror(errno));
			if (analyse_file(&t, f))
				die(EXIT_DEVICE, "out of memory");
			if (f != stdin)
				fclose(f);
		}
	} else {
		struct swt_table tb;
		char cmd[2048], dn[160], dir[] = "/tmp/dmswaptier-trace.XXXXXX";
		size_t off;
		FILE *p;

		if (argc - optind != 1)
			die(EXIT_USAGE, "trace: give exactly one device name");
		get_table(argv[optind], &tb);
		if (!mkdtemp(dir))
			die(EXIT_DEVICE, "cannot make a temporary directory: %s", strerror(errno));
		off = snprintf(cmd, sizeof(cmd), "cd %s && timeout -s INT %d blktrace", dir, seconds);
		for (i = 0; i < (int)tb.nr_tiers; i++) {
			dev_name(tb.tier[i], dn, sizeof(dn));
			off += snprintf(cmd + off, sizeof(cmd) - off, " -d %s", dn);
		}
		snprintf(cmd + off, sizeof(cmd) - off, " >/dev/null 2>&1; "
			 "cat *.blktrace.* >/dev/null 2>&1 || exit 3; "
			 "for f in $(ls *.blktrace.0 | sed 's/.blktrace.0//'); do blkparse -q -i $f; done; "
			 "cd / && rm -rf %s", dir);
		p = popen(cmd, "r");
		if (!p || analyse_file(&t, p) || pclose(p))
			die(EXIT_DEVICE, "%s: blktrace failed (debugfs mounted? root?)", argv[optind]);
	}
	if (!t.ndevs)
		die(EXIT_DEVICE, "trace: no block I/O events in the input");
	trace_report(&t, json);
	if (plot)
		trace_plot(&t, plot);
	swt_trace_free(&t);
	return 0;
}

/*----------------------------------------------------------------*/

/* The target must be new enough for set, evacuate and heat. */
static void need_migration(const char *cmd, const char *name)
{
	struct swt_status st;

	get_status(name, &st);
	if (!st.has_migration)
		die(EXIT_DEVICE, "%s: %s: the loaded target has no migration (version 1.1 needed)",
		    cmd, name);
}

static bool want_help(int argc, char **argv, const char *use)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			puts(use);
			return true;
		}
	return false;
}

static int cmd_set(int argc, char **argv)
{
	static const char use[] = "usage: dmswaptier set NAME KEY VALUE\n"
		"  keys: migration (on|off), low_watermark, high_watermark, promote_heat,\n"
		"  heat_period, migration_idle, migration_max_io, write_batch,\n"
		"  promote_share, demote_heat\n"
		"  (see dm-swaptier.rst)";
	char msg[160], *resp;

	if (want_help(argc, argv, use))
		return 0;
	if (argc != 4)
		die(EXIT_USAGE, "set: give NAME KEY VALUE");
	if (strpbrk(argv[2], " \t\n") || strpbrk(argv[3], " \t\n") ||
	    strlen(argv[2]) > 40 || strlen(argv[3]) > 40)
		die(EXIT_USAGE, "set: KEY and VALUE are single words");
	need_migration("set", argv[1]);
	snprintf(msg, sizeof(msg), "set %s %s", argv[2], argv[3]);
	resp = dm_message(argv[1], msg);
	free(resp);
	return 0;
}

static int cmd_evacuate(int argc, char **argv)
{
	static const char use[] = "usage: dmswaptier evacuate NAME TIER|cancel";
	char msg[64], *resp, *end;
	unsigned long t;

	if (want_help(argc, argv, use))
		return 0;
	if (argc != 3)
		die(EXIT_USAGE, "evacuate: give NAME and a tier number or 'cancel'");
	if (strcmp(argv[2], "cancel")) {
		t = strtoul(argv[2], &end, 10);
		if (*end || !*argv[2] || t >= SWT_MAX_TIERS)
			die(EXIT_USAGE, "evacuate: '%s' is not a tier number", argv[2]);
	}
	need_migration("evacuate", argv[1]);
	snprintf(msg, sizeof(msg), "evacuate %s", argv[2]);
	resp = dm_message(argv[1], msg);
	free(resp);
	return 0;
}

static int cmd_heat(int argc, char **argv)
{
	static const char use[] = "usage: dmswaptier heat NAME";
	static const char *const label[SWT_HEAT_BUCKETS] = {
		"0", "1", "2-3", "4-7", "8-15", "16-31", "32-63", "64+"
	};
	uint64_t h[SWT_MAX_TIERS][SWT_HEAT_BUCKETS], most = 1;
	char err[160], *resp;
	unsigned int n, t, b, w;

	if (want_help(argc, argv, use))
		return 0;
	if (argc != 2)
		die(EXIT_USAGE, "heat: give exactly one device name");
	need_migration("heat", argv[1]);
	resp = dm_message(argv[1], "heat");
	if (swt_parse_heat(resp, h, &n, err, sizeof(err)))
		die(EXIT_DEVICE, "%s: %s", argv[1], err);
	for (t = 0; t < n; t++)
		for (b = 0; b < SWT_HEAT_BUCKETS; b++)
			if (h[t][b] > most)
				most = h[t][b];
	printf("%s: mapped blocks by heat (reads since written, halved every heat_period)\n",
	       argv[1]);
	for (t = 0; t < n; t++) {
		printf("tier %u\n", t);
		for (b = 0; b < SWT_HEAT_BUCKETS; b++) {
			w = (unsigned int)((h[t][b] * 50 + most - 1) / most);
			printf("  %-6s %10" PRIu64 " %.*s\n", label[b], h[t][b], (int)w,
			       "##################################################");
		}
	}
	free(resp);
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: dmswaptier COMMAND [ARGS]\n"
	      "  create NAME TIER_DEV... [--size SIZE] [--option K=V]... [--swap [--discard] [--priority N]]\n"
	      "  remove NAME\n"
	      "  status [NAME] [--json] [--watch SECONDS]\n"
	      "  map NAME [--from BLOCK] [--count N] [--summary]\n"
	      "  trace NAME [--seconds N] [--json] [--plot PNG] | trace --analyse FILE... [--json] [--plot PNG]\n"
	      "  set NAME KEY VALUE\n"
	      "  evacuate NAME TIER|cancel\n"
	      "  heat NAME\n"
	      "Exit status: 0 ok, 1 usage error, 2 device or kernel error. See dmswaptier(8).\n", f);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "create", cmd_create }, { "remove", cmd_remove },
		{ "status", cmd_status }, { "map", cmd_map },
		{ "trace", cmd_trace }, { "set", cmd_set },
		{ "evacuate", cmd_evacuate }, { "heat", cmd_heat },
	};
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	dm_log_init_verbose(0);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
