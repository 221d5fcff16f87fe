// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmswaptier: create, inspect and analyse dm-swaptier devices.
 *
 * Exit codes: 0 ok, 1 usage error, 2 device or kernel error.
 */
#include "dmswaptier.h"
#include "swt_blkid.h"
#include "swt_conf.h"
#include "swt_record.h"
#include "swt_status.h"

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libdevmapper.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/fs.h>
#include <unistd.h>

static const struct swt_knob_desc swt_knobs[SWT_NR_KNOBS] = SWT_KNOB_DESCS;

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;	/* after "dmswaptier NAME " */
	const char *help;	/* its options, or NULL */
};

static int cmd_create(int argc, char **argv);
static int cmd_remove(int argc, char **argv);
static int cmd_status(int argc, char **argv);
static int cmd_map(int argc, char **argv);
static int cmd_set(int argc, char **argv);
static int cmd_evacuate(int argc, char **argv);
static int cmd_heat(int argc, char **argv);
static int cmd_activate(int argc, char **argv);
static int cmd_deactivate(int argc, char **argv);

static const struct cmd cmds[] = {
	{ "create", cmd_create,
	  "NAME TIER_DEV... [--size SIZE] [--option KEY=VALUE|FLAG]...\n"
	  "        [--swap [--discard] [--priority N]]",
	  " -s, --size SIZE        bytes, K, M or G suffix (default: the most the\n"
	  "                        tiers hold)\n"
	  " -o, --option K=V|FLAG  a table option: discard_passdown,\n"
	  "                        frontier_blocks=N, reserve_blocks=N, a tunable\n"
	  " -w, --swap             mkswap and swapon the new device\n"
	  " -d, --discard          swapon --discard (with --swap)\n"
	  " -p, --priority N       swapon --priority N (with --swap)\n" },
	{ "remove", cmd_remove, "NAME",
	  " swapoff first if the device is an active swap area\n" },
	{ "status", cmd_status,
	  "[NAME] [--json] [--watch SECONDS] [--output COLS] [--bytes]\n"
	  "        [--raw] [--noheadings]",
	  " -j, --json             every status field and stats value, by name\n"
	  " -w, --watch SECONDS    refresh every SECONDS\n"
	  " -o, --output COLS      the tier columns to print (+COLS: add them;\n"
	  "                        --output help lists them)\n"
	  " -b, --bytes            sizes in bytes, not in K, M, G...\n"
	  " -r, --raw              the tier table alone, unaligned\n"
	  " -n, --noheadings       the tier table alone, without its header\n"
	  " With --output, --raw or --noheadings, the tiers of every device\n"
	  " are one table (NAME tells the devices apart).\n" },
	{ "map", cmd_map, "NAME [--from BLOCK] [--count N] [--summary]",
	  " -f, --from BLOCK       first logical block (default 0)\n"
	  " -c, --count N          blocks (default: to the end)\n"
	  " -s, --summary          blocks and extents per tier\n" },
	{ "trace", cmd_trace,
	  "NAME [--seconds N] [--json] [--plot FILE.png]\n"
	  "  trace --analyse FILE... [--json] [--plot FILE.png]",
	  " -s, --seconds N        blktrace the tier devices N seconds\n"
	  "                        (default 10)\n"
	  " -a, --analyse FILE...  blkparse output in its default format,\n"
	  "                        - for stdin\n"
	  " -j, --json             a JSON array, per device and direction\n"
	  " -p, --plot FILE.png    the size histograms, with gnuplot\n" },
	{ "set", cmd_set, "NAME KEY VALUE", NULL },
	{ "evacuate", cmd_evacuate, "NAME TIER|cancel", NULL },
	{ "heat", cmd_heat, "NAME", NULL },
	{ "activate", cmd_activate, "[NAME] [--config FILE]",
	  " -c, --config FILE      default /etc/dmswaptier.conf\n"
	  " Create each device of the file (or NAME), mkswap and swapon it;\n"
	  " a device whose tiers are missing is skipped with an error.\n" },
	{ "deactivate", cmd_deactivate, "[NAME] [--config FILE]",
	  " -c, --config FILE      default /etc/dmswaptier.conf\n"
	  " swapoff and remove what activate made (or NAME), as it recorded\n"
	  " it under /run/dmswaptier/, then the devices of the file with no\n"
	  " record.\n" },
};

#define NR_CMDS ARRAY_SIZE(cmds)

static const char usage_head[] = "usage: dmswaptier";
static const char exit_help[] =
	"Exit status: 0 ok, 1 usage error, 2 device or kernel error.\nSee dmswaptier(8).\n";

static void knobs_help(FILE *f)
{
	unsigned int k;

	fputs(" keys (dm-swaptier.rst):\n", f);
	for (k = 0; k < SWT_NR_KNOBS; k++) {
		if (swt_knobs[k].onoff)
			fprintf(f, "   %-18s on|off (default %s)\n",
				swt_knobs[k].name,
				swt_knobs[k].def ? "on" : "off");
		else
			fprintf(f, "   %-18s %u-%u (default %u)\n",
				swt_knobs[k].name, swt_knobs[k].min,
				swt_knobs[k].max, swt_knobs[k].def);
	}
}

void usage(FILE *f, const char *name)
{
	bool brief = f != stdout;
	struct swt_view v;
	size_t i;

	if (!name)
		fprintf(f, "%s COMMAND [ARGS]\n", usage_head);
	for (i = 0; i < NR_CMDS; i++) {
		const struct cmd *c = &cmds[i];

		if (name && strcmp(name, c->name))
			continue;
		if (name)
			fprintf(f, "%s %s %s\n", usage_head, c->name,
				c->synopsis);
		else
			fprintf(f, "  %s %s\n", c->name, c->synopsis);
		if (!name || brief)
			continue;
		if (c->help)
			fputs(c->help, f);
		if (!strcmp(c->name, "set"))
			knobs_help(f);
		if (!strcmp(c->name, "status")) {
			swt_status_view(&v);
			fputs(" columns:\n", f);
			swt_cols_help(f, &v);
			fprintf(f, " default: %s\n", SWT_STATUS_COLS);
		}
	}
	if (brief)
		fprintf(f, "Try 'dmswaptier %s%s--help' for more information.\n",
			name ? name : "", name ? " " : "");
	else
		fputs(exit_help, f);
}

void usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vwarnx(fmt, ap);
		va_end(ap);
	}
	usage(stderr, cmd);
	exit(EXIT_USAGE);
}

bool want_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

/*----------------------------------------------------------------*/
/* libdevmapper */

/* Status or table params of NAME's swaptier target; exits on any error. */
static char *dm_params(const char *name, int type)
{
	struct dm_task *dmt = dm_task_create(type);
	char *target_type = NULL, *params = NULL, *copy;
	uint64_t start, length;
	struct dm_info info;

	if (!dmt || !dm_task_set_name(dmt, name) || !dm_task_run(dmt))
		errx(EXIT_DEVICE, "%s: cannot query the device (does it exist?)",
		     name);
	if (!dm_task_get_info(dmt, &info) || !info.exists)
		errx(EXIT_DEVICE, "%s: no such device", name);
	dm_get_next_target(dmt, NULL, &start, &length, &target_type, &params);
	if (!target_type || strcmp(target_type, SWT_TARGET_NAME))
		errx(EXIT_DEVICE, "%s: not a dm-swaptier device (target '%s')",
		     name, target_type ? target_type : "none");
	copy = strdup(params ? params : "");
	if (!copy)
		errx(EXIT_DEVICE, "out of memory");
	dm_task_destroy(dmt);
	return copy;
}

static void get_status(const char *name, struct swt_status *st)
{
	char err[160], *p = dm_params(name, DM_DEVICE_STATUS);

	if (swt_parse_status(p, st, err, sizeof(err)))
		errx(EXIT_DEVICE, "%s: %s", name, err);
	free(p);
}

void get_table(const char *name, struct swt_table *t)
{
	char err[160], *p = dm_params(name, DM_DEVICE_TABLE);

	if (swt_parse_table(p, t, err, sizeof(err)))
		errx(EXIT_DEVICE, "%s: %s", name, err);
	free(p);
}

/* Send a message; the response (malloc'ed, may be empty), or NULL. */
static char *dm_try_message(const char *name, const char *msg)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_TARGET_MSG);
	const char *r;
	char *copy;

	if (!dmt)
		return NULL;
	if (!dm_task_set_name(dmt, name) || !dm_task_set_sector(dmt, 0) ||
	    !dm_task_set_message(dmt, msg) || !dm_task_run(dmt)) {
		dm_task_destroy(dmt);
		return NULL;
	}
	r = dm_task_get_message_response(dmt);
	copy = strdup(r ? r : "");
	dm_task_destroy(dmt);
	return copy;
}

static char *dm_message(const char *name, const char *msg)
{
	char *r = dm_try_message(name, msg);

	if (!r)
		errx(EXIT_DEVICE, "%s: message '%s' failed (see the kernel log)",
		     name, msg);
	return r;
}

/* "major:minor" of device @name in @buf: 0, or -1 if it does not exist. */
static int dm_devnum(const char *name, char *buf, size_t len)
{
	struct dm_task *s = dm_task_create(DM_DEVICE_INFO);
	struct dm_info info;
	int ret = -1;

	if (s && dm_task_set_name(s, name) && dm_task_run(s) &&
	    dm_task_get_info(s, &info) && info.exists) {
		snprintf(buf, len, "%u:%u", info.major, info.minor);
		ret = 0;
	}
	if (s)
		dm_task_destroy(s);
	return ret;
}

/*
 * The table params of @name if it is a swaptier device (malloc'ed), or
 * NULL. A device that does not exist is no error: asking for its table
 * would make libdevmapper log one ("table ioctl ... failed"), which
 * activate's journal would show for every device it is about to create.
 */
static char *dm_try_table(const char *name)
{
	struct dm_task *s;
	char *tt = NULL, *params = NULL, *copy = NULL;
	char dev[32];
	uint64_t a, b;

	if (dm_devnum(name, dev, sizeof(dev)))
		return NULL;
	s = dm_task_create(DM_DEVICE_TABLE);
	if (s && dm_task_set_name(s, name) && dm_task_run(s)) {
		dm_get_next_target(s, NULL, &a, &b, &tt, &params);
		if (tt && !strcmp(tt, SWT_TARGET_NAME))
			copy = strdup(params ? params : "");
	}
	if (s)
		dm_task_destroy(s);
	return copy;
}

/* Is @name's table a swaptier one? */
static bool is_swaptier(const char *name)
{
	char *t = dm_try_table(name);
	bool ours = t;

	free(t);
	return ours;
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
		errx(EXIT_DEVICE,
		     "cannot list device-mapper devices (is dm-mod loaded?)");
	n = dm_task_get_names(dmt);
	if (n && n->dev) {
		do {
			char **nn;

			n = (struct dm_names *)((char *)n + next);
			next = n->next;
			if (!is_swaptier(n->name))
				continue;
			nn = realloc(*names, (count + 1) * sizeof(char *));
			if (!nn)
				errx(EXIT_DEVICE, "out of memory");
			*names = nn;
			nn[count] = strdup(n->name);
			if (!nn[count++])
				errx(EXIT_DEVICE, "out of memory");
		} while (next);
	}
	dm_task_destroy(dmt);
	return count;
}

/*
 * Create (with @params, @len sectors) or remove @name; a removal with
 * @retry is tried again for a while if the device is busy (udev's probe
 * of a new device holds it open a moment).
 */
static int dm_run(int type, const char *name, u64 len, const char *params,
		  bool retry)
{
	struct dm_task *dmt = dm_task_create(type);
	uint32_t cookie = 0;
	int ok;

	if (!dmt || !dm_task_set_name(dmt, name))
		return 0;
	if (params &&
	    !dm_task_add_target(dmt, 0, len, SWT_TARGET_NAME, params))
		return 0;
	if (retry && !dm_task_retry_remove(dmt))
		return 0;
	ok = dm_task_set_cookie(dmt, &cookie, 0) && dm_task_run(dmt);
	/* also makes or removes the /dev/mapper node when udev is not used */
	dm_udev_wait(cookie);
	dm_task_destroy(dmt);
	return ok;
}

static int dm_simple(int type, const char *name, u64 len,
		     const char *params)
{
	return dm_run(type, name, len, params, false);
}

/*----------------------------------------------------------------*/
/* helpers */

void dev_name(const char *mm, char *buf, size_t len)
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

/* "MAJOR:MINOR" alone: a tier given by device number (as activate does) */
static bool is_devnum(const char *s)
{
	unsigned int maj, min;
	int n = -1;

	return strspn(s, "0123456789:") == strlen(s) &&
	       sscanf(s, "%u:%u%n", &maj, &min, &n) == 2 && n == (int)strlen(s);
}

/* The size of device MAJOR:MINOR (@mm), from sysfs: no node is needed. */
static u64 devnum_bytes(const char *mm)
{
	unsigned long long sectors;
	char path[64];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/dev/block/%s/size", mm);
	f = fopen(path, "re");
	if (!f)
		err(EXIT_DEVICE, "%s: not a block device", mm);
	ok = fscanf(f, "%llu", &sectors) == 1;
	fclose(f);
	if (!ok)
		errx(EXIT_DEVICE, "%s: cannot read its size (%s)", mm, path);
	return (u64)sectors * 512;
}

static u64 dev_bytes(const char *path)
{
	u64 bytes = 0;
	int fd;

	if (is_devnum(path))
		return devnum_bytes(path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		err(EXIT_DEVICE, "%s: cannot open", path);
	if (ioctl(fd, BLKGETSIZE64, &bytes))
		errx(EXIT_DEVICE, "%s: not a block device", path);
	close(fd);
	return bytes;
}

pid_t swt_spawn(char *const argv[], const char *dir, int in, int out,
		bool quiet)
{
	pid_t pid = fork();
	int null;

	if (pid)
		return pid;
	/* what the tool ignores or catches, the child must not */
	signal(SIGINT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (dir && chdir(dir))
		_exit(127);
	if (in >= 0)
		dup2(in, 0);
	if (out != -1)
		dup2(out == -2 ? null : out, 1);
	if (quiet)
		dup2(null, 2);
	execvp(argv[0], argv);
	_exit(127);
}

int swt_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run(char *const argv[], bool quiet)
{
	pid_t pid = swt_spawn(argv, NULL, -1, quiet ? -2 : -1, false);

	return pid < 0 ? -1 : swt_wait(pid);
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

static double ratio(u64 a, u64 b)
{
	return b ? (double)a / (double)b : 0.0;
}

/*----------------------------------------------------------------*/
/* status */

/* Everything status shows of @name; stats only for JSON. */
static void read_dev(const char *name, struct swt_dev *d, bool stats)
{
	struct swt_stats *s;
	char err[160], *r;
	unsigned int t;

	memset(d, 0, sizeof(*d));
	d->name = name;
	get_status(name, &d->st);
	get_table(name, &d->tb);
	if (d->tb.nr_tiers != d->st.nr_tiers)
		errx(EXIT_DEVICE,
		     "%s: table and status disagree on the tier count", name);
	for (t = 0; t < d->st.nr_tiers; t++)
		dev_name(d->tb.tier[t], d->device[t], sizeof(d->device[t]));
	if (!stats)
		return;
	r = dm_try_message(name, "stats");
	if (!r)
		return;		/* an old target: no stats by name */
	s = malloc(sizeof(*s));
	if (!s)
		errx(EXIT_DEVICE, "out of memory");
	if (swt_parse_stats(r, s, err, sizeof(err)))
		errx(EXIT_DEVICE, "%s: %s", name, err);
	if (s->skipped)
		warnx("%s: stats: %zu values skipped (too many or too long; a newer target?)",
		      name, s->skipped);
	d->stats = s;
	free(r);
}

static int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "watch", required_argument, NULL, 'w' },
		{ "output", required_argument, NULL, 'o' },
		{ "bytes", no_argument, NULL, 'b' },
		{ "raw", no_argument, NULL, 'r' },
		{ "noheadings", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *output = NULL;
	bool json = false, table;
	struct swt_view v;
	struct swt_dev *d;
	int watch = 0, c, n, i, ret;
	char **names, bad[64];
	u64 num;

	swt_status_view(&v);
	while ((c = getopt_long(argc, argv, "jw:o:brnh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'w':
			if (swt_parse_num(optarg, INT_MAX, &num) || !num)
				usage_error("status",
					    "status: --watch needs a positive number of seconds, not '%s'",
					    optarg);
			watch = (int)num;
			break;
		case 'o':
			output = optarg;
			break;
		case 'b':
			v.bytes = true;
			break;
		case 'r':
			v.raw = true;
			break;
		case 'n':
			v.noheadings = true;
			break;
		case 'h':
			usage(stdout, "status");
			return 0;
		default:
			usage_error("status", NULL);
		}
	}
	if (output && !strcasecmp(output, "help")) {
		fputs("Available columns (for --output):\n", stdout);
		swt_cols_help(stdout, &v);
		return 0;
	}
	if (json && watch)
		usage_error("status", "status: --json and --watch do not go together");
	table = output || v.raw || v.noheadings;
	ret = swt_status_select(&v, output, json, table, bad, sizeof(bad));
	if (ret == -2)
		usage_error("status", "status: too many columns (at most %d)",
			    SWT_MAX_COLS);
	if (ret)
		usage_error("status", "status: unknown column '%s'", bad);
	v.json = json;
	if (argc - optind > 1)
		usage_error("status", "status: at most one device name");
	if (optind < argc) {
		names = &argv[optind];
		n = 1;
	} else {
		n = list_devices(&names);
	}
	d = calloc(n + 1, sizeof(*d));
	if (!d)
		errx(EXIT_DEVICE, "out of memory");
	for (;;) {
		if (watch)
			printf("\033[H\033[2J");
		for (i = 0; i < n; i++)
			read_dev(names[i], &d[i], json);
		ret = 0;
		if (json)
			swt_status_json(stdout, d, n, &v);
		else if (table)
			ret = swt_status_table(stdout, d, n, &v);
		else if (!n)
			printf("no dm-swaptier devices\n");
		for (i = 0; i < n && !json && !table && !ret; i++)
			ret = swt_status_human(stdout, &d[i], &v);
		for (i = 0; i < n; i++)
			free((void *)d[i].stats);
		if (ret || fflush(stdout) || ferror(stdout))
			errx(EXIT_DEVICE, "status: write error");
		if (!watch)
			break;
		sleep(watch);
	}
	free(d);
	return 0;
}

/*----------------------------------------------------------------*/
/* map */

/*
 * The extents of blocks from..from+count-1, *n of them (malloc'ed). The
 * kernel lists what fits in its response buffer; a response cut short ends
 * in "next <block>", and the rest is asked for from that block, until the
 * whole range is covered. Exits on any error.
 */
static struct swt_extent *get_map(const char *name, u64 from,
				  u64 count, size_t *n)
{
	u64 cur = from, end = from + count, next;
	struct swt_extent *ext = NULL;
	char msg[96], err[160], *resp;
	size_t cap = 0, room, got;
	int more;

	*n = 0;
	do {
		snprintf(msg, sizeof(msg), "map %llu %llu",
			 (unsigned long long)cur,
			 (unsigned long long)(end - cur));
		resp = dm_message(name, msg);
		room = strlen(resp) / 8 + 1;	/* a line has 8 bytes or more */
		if (cap - *n < room) {
			void *ne;

			cap = 2 * cap > *n + room ? 2 * cap : *n + room;
			ne = realloc(ext, cap * sizeof(*ext));
			if (!ne)
				errx(EXIT_DEVICE, "out of memory");
			ext = ne;
		}
		/* cur moves forward each time round, or this exits */
		if (swt_parse_map(resp, ext + *n, room, &got, &more, &next,
				  err, sizeof(err)) ||
		    swt_map_advance(&cur, end, ext + *n, got, more, err,
				    sizeof(err)))
			errx(EXIT_DEVICE, "%s: %s (response to '%s')", name,
			     err, msg);
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

static void map_summary(const struct swt_status *st,
			const struct swt_extent *ext, size_t n, u64 from,
			u64 count)
{
	u64 ext_count[SWT_MAX_TIERS + 1] = { 0 };
	u64 blocks[SWT_MAX_TIERS + 1] = { 0 };
	size_t i, joined = 0;

	for (i = 0; i < n; i++) {
		int k = ext[i].tier < 0 ? SWT_MAX_TIERS : ext[i].tier;

		blocks[k] += ext[i].len;
		/* an extent split where one response ended counts once */
		if (i && continues(&ext[i - 1], &ext[i]))
			continue;
		ext_count[k]++;
		joined++;
	}
	printf("blocks %llu-%llu: %zu extents\n", (unsigned long long)from,
	       (unsigned long long)(from + count - 1), joined);
	for (i = 0; i < st->nr_tiers; i++)
		printf("  tier %zu: %llu blocks in %llu extents (avg %.1f blocks/extent)\n",
		       i, blocks[i], ext_count[i],
		       ratio(blocks[i], ext_count[i]));
	printf("  unmapped: %llu blocks in %llu runs\n",
	       blocks[SWT_MAX_TIERS], ext_count[SWT_MAX_TIERS]);
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
	u64 from = 0, count = 0;
	struct swt_extent *ext;
	struct swt_status st;
	bool summary = false;
	size_t n, i;
	int c;

	while ((c = getopt_long(argc, argv, "f:c:sh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (swt_parse_num(optarg, UINT64_MAX, &from))
				usage_error("map",
					    "map: --from needs a block number, not '%s'",
					    optarg);
			break;
		case 'c':
			if (swt_parse_num(optarg, UINT64_MAX, &count) || !count)
				usage_error("map",
					    "map: --count needs a positive number, not '%s'",
					    optarg);
			break;
		case 's':
			summary = true;
			break;
		case 'h':
			usage(stdout, "map");
			return 0;
		default:
			usage_error("map", NULL);
		}
	}
	if (argc - optind != 1)
		usage_error("map", "map: give exactly one device name");
	get_status(argv[optind], &st);
	if (from >= st.logical)
		usage_error("map", "map: --from %llu is beyond the device's %llu blocks",
			    from, st.logical);
	if (!count || count > st.logical - from)
		count = st.logical - from;
	ext = get_map(argv[optind], from, count, &n);
	if (summary)
		map_summary(&st, ext, n, from, count);
	for (i = 0; i < n && !summary; i++) {
		if (ext[i].tier < 0)
			printf("%llu %llu - -\n", ext[i].lblk,
			       ext[i].len);
		else
			printf("%llu %llu %d %llu\n",
			       ext[i].lblk, ext[i].len, ext[i].tier,
			       ext[i].pblk);
	}
	free(ext);
	return 0;
}

/*----------------------------------------------------------------*/
/* create, remove */

/* mkswap and swapon /dev/mapper/@name: 0, or -1 when it said what failed */
static int try_make_swap(const char *name, bool discard, char *prio)
{
	char path[PATH_MAX], *mk[3], *on[8];
	int k = 0;

	snprintf(path, sizeof(path), "/dev/mapper/%s", name);
	mk[0] = "mkswap";
	mk[1] = path;
	mk[2] = NULL;
	if (run(mk, true)) {
		warnx("%s: mkswap failed", path);
		return -1;
	}
	on[k++] = "swapon";
	if (discard)
		on[k++] = "--discard";
	if (prio) {
		on[k++] = "--priority";
		on[k++] = prio;
	}
	on[k++] = path;
	on[k] = NULL;
	if (run(on, false)) {
		warnx("%s: swapon failed", path);
		return -1;
	}
	return 0;
}

static void make_swap(const char *name, bool discard, char *prio)
{
	if (try_make_swap(name, discard, prio))
		exit(EXIT_DEVICE);
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
	char params[SWT_TABLE_LINE_LEN], opt[SWT_TABLE_OPT_LEN] = "";
	u64 size = 0, total = 0, reserve = 0, maxlen;
	bool swap = false, discard = false;
	int c, nopt = 0, i, n, ntiers;
	char *prio = NULL;

	while ((c = getopt_long(argc, argv, "s:o:wdp:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (swt_parse_size(optarg, &size))
				usage_error("create",
					    "create: --size must be a positive multiple of %u bytes (K, M, G suffixes)",
					    SWT_BLOCK_SIZE);
			break;
		case 'o':
			n = swt_table_opt(opt, sizeof(opt), optarg, &reserve);
			if (n < 0)
				usage_error("create",
					    "create: table line too long");
			nopt += n;
			break;
		case 'w':
			swap = true;
			break;
		case 'd':
			discard = true;
			break;
		case 'p':
			prio = optarg;
			break;
		case 'h':
			usage(stdout, "create");
			return 0;
		default:
			usage_error("create", NULL);
		}
	}
	ntiers = argc - optind - 1;
	if (ntiers < 1)
		usage_error("create",
			    "create: give a name and at least one tier device");
	if (ntiers > SWT_MAX_TIERS)
		usage_error("create", "create: at most %d tiers", SWT_MAX_TIERS);
	if ((discard || prio) && !swap)
		usage_error("create",
			    "create: --discard and --priority go with --swap");
	if (swt_table_line(params, sizeof(params), ntiers, argv + optind + 1,
			   nopt, opt))
		usage_error("create", "create: table line too long");
	for (i = 0; i < ntiers; i++)
		total += dev_bytes(argv[optind + 1 + i]) / SWT_BLOCK_SIZE;
	if (!reserve)
		reserve = swt_default_reserve(total);
	maxlen = total > reserve ? (total - reserve) * SWT_BLOCK_SECTORS : 0;
	if (!maxlen)
		usage_error("create",
			    "create: the tiers are too small for the reserve of %llu blocks",
			    (unsigned long long)reserve);
	if (size && size / 512 > maxlen)
		usage_error("create", "create: --size %llu exceeds the maximum %llu bytes",
			    size, maxlen * 512);
	if (!dm_simple(DM_DEVICE_CREATE, argv[optind],
		       size ? size / 512 : maxlen, params))
		errx(EXIT_DEVICE,
		     "%s: create failed (the kernel log says why: dmesg | tail)",
		     argv[optind]);
	if (swap)
		make_swap(argv[optind], discard, prio);
	return 0;
}

static int cmd_remove(int argc, char **argv)
{
	char path[PATH_MAX];

	if (want_help(argc, argv)) {
		usage(stdout, "remove");
		return 0;
	}
	if (argc != 2)
		usage_error("remove", "remove: give exactly one device name");
	free(dm_params(argv[1], DM_DEVICE_TABLE));	/* exists, is ours */
	if (is_swap(argv[1])) {
		char *off[3];

		snprintf(path, sizeof(path), "/dev/mapper/%s", argv[1]);
		off[0] = "swapoff";
		off[1] = path;
		off[2] = NULL;
		if (run(off, false))
			errx(EXIT_DEVICE, "%s: swapoff failed", path);
	}
	if (!dm_simple(DM_DEVICE_REMOVE, argv[1], 0, NULL))
		errx(EXIT_DEVICE, "%s: remove failed (device busy?)", argv[1]);
	return 0;
}

/*----------------------------------------------------------------*/
/* set, evacuate, heat */

/* The target must be new enough for set, evacuate and heat. */
static void need_migration(const char *cmd, const char *name)
{
	struct swt_status st;

	get_status(name, &st);
	if (!st.has_migration)
		errx(EXIT_DEVICE,
		     "%s: %s: the loaded target has no migration (version 1.1 needed)",
		     cmd, name);
}

static int cmd_set(int argc, char **argv)
{
	char msg[160];

	if (want_help(argc, argv)) {
		usage(stdout, "set");
		return 0;
	}
	if (argc != 4)
		usage_error("set", "set: give NAME KEY VALUE");
	if (strpbrk(argv[2], " \t\n") || strpbrk(argv[3], " \t\n") ||
	    strlen(argv[2]) > 40 || strlen(argv[3]) > 40)
		usage_error("set", "set: KEY and VALUE are single words");
	/* the kernel checks the key and its range: exit 2 if it refuses */
	need_migration("set", argv[1]);
	snprintf(msg, sizeof(msg), "set %s %s", argv[2], argv[3]);
	free(dm_message(argv[1], msg));
	return 0;
}

static int cmd_evacuate(int argc, char **argv)
{
	char msg[64], *end;
	unsigned long t;

	if (want_help(argc, argv)) {
		usage(stdout, "evacuate");
		return 0;
	}
	if (argc != 3)
		usage_error("evacuate",
			    "evacuate: give NAME and a tier number or 'cancel'");
	if (strcmp(argv[2], "cancel")) {
		t = strtoul(argv[2], &end, 10);
		if (*end || !*argv[2] || t >= SWT_MAX_TIERS)
			usage_error("evacuate",
				    "evacuate: '%s' is not a tier number",
				    argv[2]);
	}
	need_migration("evacuate", argv[1]);
	snprintf(msg, sizeof(msg), "evacuate %s", argv[2]);
	free(dm_message(argv[1], msg));
	return 0;
}

static int cmd_heat(int argc, char **argv)
{
	static const char *const label[SWT_HEAT_BUCKETS] = {
		"0", "1", "2-3", "4-7", "8-15", "16-31", "32-63", "64+"
	};
	static const char bar[] =
		"##################################################";
	u64 h[SWT_MAX_TIERS][SWT_HEAT_BUCKETS], most = 1;
	unsigned int n, t, b, w;
	char err[160], *resp;

	if (want_help(argc, argv)) {
		usage(stdout, "heat");
		return 0;
	}
	if (argc != 2)
		usage_error("heat", "heat: give exactly one device name");
	need_migration("heat", argv[1]);
	resp = dm_message(argv[1], "heat");
	if (swt_parse_heat(resp, h, &n, err, sizeof(err)))
		errx(EXIT_DEVICE, "%s: %s", argv[1], err);
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
			printf("  %-6s %10llu %.*s\n", label[b],
			       h[t][b], (int)w, bar);
		}
	}
	free(resp);
	return 0;
}

/*
 * As util-linux's close_stdout: what could not be written is an error
 * (exit 2), not a silent success. A closed pipe (EPIPE) is not.
 */
static void close_stdout(void)
{
	bool bad;

	errno = 0;
	bad = ferror(stdout) != 0;
	if (fflush(stdout))
		bad = true;
	if (fclose(stdout))
		bad = true;
	if (bad && errno != EPIPE) {
		if (errno)
			warn("write error");
		else
			warnx("write error");
		_exit(EXIT_DEVICE);
	}
}

/*----------------------------------------------------------------*/
/* activate, deactivate: the devices of /etc/dmswaptier.conf */

#define SWT_CONF_FILE	"/etc/dmswaptier.conf"

/* The options of activate and deactivate: *@file, and *@only (or NULL). */
static void conf_args(const char *cmd, int argc, char **argv,
		      const char **file, const char **only)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int o;

	*file = SWT_CONF_FILE;
	while ((o = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		switch (o) {
		case 'c':
			*file = optarg;
			break;
		case 'h':
			usage(stdout, cmd);
			exit(0);
		default:
			usage_error(cmd, NULL);
		}
	}
	if (argc - optind > 1)
		usage_error(cmd, "%s: at most one device name", cmd);
	*only = argc > optind ? argv[optind] : NULL;
}

/* The largest configuration file read: far more than 16 devices need. */
#define SWT_CONF_MAX_BYTES	(1024U * 1024U)

/* Read and parse @file into @c: 0, or -1 with the reason in @why. */
static int load_conf(const char *file, struct swt_conf *c, char *why,
		     size_t len)
{
	char *buf;
	size_t n;
	FILE *f;
	int ret;

	f = fopen(file, "re");
	if (!f) {
		snprintf(why, len, "%s: %s", file, strerror(errno));
		return -1;
	}
	buf = malloc(SWT_CONF_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		snprintf(why, len, "%s: out of memory to read it", file);
		return -1;
	}
	/* one byte more than the limit: a file that long is too long */
	n = fread(buf, 1, SWT_CONF_MAX_BYTES + 1, f);
	if (ferror(f))		/* a directory: EISDIR */
		snprintf(why, len, "%s: %s", file, strerror(errno));
	else if (n > SWT_CONF_MAX_BYTES)
		snprintf(why, len, "%s: larger than %u bytes", file,
			 SWT_CONF_MAX_BYTES);
	else if (memchr(buf, 0, n))
		snprintf(why, len, "%s: not a text file", file);
	else
		why[0] = 0;
	fclose(f);
	ret = -1;
	if (!why[0]) {
		buf[n] = 0;
		ret = swt_conf_parse(file, buf, c, why, len);
	}
	free(buf);
	return ret;
}

/* The section of @name in @c, or NULL. */
static const struct swt_conf_dev *conf_dev(const struct swt_conf *c,
					   const char *name)
{
	unsigned int i;

	for (i = 0; i < c->ndevs; i++)
		if (!strcmp(c->dev[i].name, name))
			return &c->dev[i];
	return NULL;
}

/* Run @fn(@argc, @argv) in a child, so that its exit ends only it. */
static int run_cmd(int (*fn)(int, char **), int argc, char **argv)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		err(EXIT_DEVICE, "fork");
	if (!pid) {
		optind = 0;	/* getopt from the start, in the child */
		exit(fn(argc, argv));
	}
	return swt_wait(pid);
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Wait for @d's tier paths to be block devices (udev makes the stable
 * links as it finds the disks), polling until @start plus @d's wait: the
 * clock starts with activate, so that however many devices wait, the
 * whole wait is the longest of them. 0, or EXIT_DEVICE when it said why.
 */
static int wait_tiers(const struct swt_conf_dev *d, double start)
{
	static const struct timespec tick = { 0, 100 * 1000 * 1000 };
	double deadline = start + d->wait;
	bool said = false;
	unsigned int i;
	struct stat s;

	for (i = 0; i < d->ntiers; i++) {
		while (stat(d->tier[i], &s)) {
			if (errno != ENOENT && errno != ENOTDIR) {
				warn("%s: tier %s: not activated", d->name,
				     d->tier[i]);
				return EXIT_DEVICE;
			}
			if (now_sec() >= deadline) {
				warnx("%s: tier %s is missing%s: not activated",
				      d->name, d->tier[i],
				      said ? " after the wait" : "");
				return EXIT_DEVICE;
			}
			if (!said)
				warnx("%s: waiting up to %.0f s for tier %s",
				      d->name, deadline - now_sec(), d->tier[i]);
			said = true;
			nanosleep(&tick, NULL);
		}
		if (!S_ISBLK(s.st_mode)) {
			warnx("%s: tier %s is not a block device: not activated",
			      d->name, d->tier[i]);
			return EXIT_DEVICE;
		}
	}
	return 0;
}

/*
 * A tier of a section resolved once, after its wait: the device its path
 * named then, held open (so that its number cannot go to another disk)
 * until create has it. Its signature is probed through @fd, and create
 * gets "MAJOR:MINOR", never the path: udev may repoint a link meanwhile,
 * and the kernel's splitting of the table line would take a backslash of
 * a path (/dev/disk/by-partlabel/Linux\x20swap) for an escape.
 */
struct act_tier {
	int fd;
	char mm[24];
	struct swt_tier_use use;
};

static void close_tiers(struct act_tier *t, unsigned int n)
{
	while (n--)
		close(t[n].fd);
}

/* Open and stat each tier of @d into @t: 0, or EXIT_DEVICE said why. */
static int resolve_tiers(const struct swt_conf_dev *d, struct act_tier *t)
{
	unsigned int i;
	struct stat s;

	for (i = 0; i < d->ntiers; i++) {
		t[i].fd = open(d->tier[i], O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (t[i].fd < 0) {
			warn("%s: tier %s: not activated", d->name, d->tier[i]);
			close_tiers(t, i);
			return EXIT_DEVICE;
		}
		if (fstat(t[i].fd, &s) || !S_ISBLK(s.st_mode)) {
			warnx("%s: tier %s is not a block device: not activated",
			      d->name, d->tier[i]);
			close_tiers(t, i + 1);
			return EXIT_DEVICE;
		}
		t[i].use.major = major(s.st_rdev);
		t[i].use.minor = minor(s.st_rdev);
		t[i].use.name = d->name;
		t[i].use.path = d->tier[i];
		snprintf(t[i].mm, sizeof(t[i].mm), "%u:%u", t[i].use.major,
			 t[i].use.minor);
	}
	return 0;
}

/*
 * A device standing on tier @mm (/sys/dev/block/MAJ:MIN/holders: a dm or
 * md device) other than the dm device named @own (NULL: any): true, with
 * it as "dm-3 (name)" in @who.
 */
static bool tier_holder(const char *mm, const char *own, char *who, size_t n)
{
	char dir[64], p[128], hname[128];
	bool found = false;
	struct dirent *e;
	FILE *f;
	DIR *h;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%s/holders", mm);
	h = opendir(dir);
	while (h && !found && (e = readdir(h))) {
		if (e->d_name[0] == '.')
			continue;
		hname[0] = 0;
		snprintf(p, sizeof(p), "%s/%.40s/dm/name", dir, e->d_name);
		f = fopen(p, "re");
		if (f) {
			if (!fgets(hname, sizeof(hname), f))
				hname[0] = 0;
			hname[strcspn(hname, "\n")] = 0;
			fclose(f);
		}
		if (own && !strcmp(hname, own))
			continue;
		snprintf(who, n, "%.40s%s%s%s", e->d_name, hname[0] ? " (" : "",
			 hname, hname[0] ? ")" : "");
		found = true;
	}
	if (h)
		closedir(h);
	return found;
}

/*
 * Is tier @t of @d free for it? Not when a device stands on it (which
 * would share it), nor when anything holds it exclusively (a mount, a
 * swap area of its own, a device): 0, or EXIT_DEVICE said why. activate
 * leaves an existing device of @d's name alone before it comes here.
 */
static int tier_free(const struct swt_conf_dev *d, const char *path,
		     const struct act_tier *t)
{
	char p[64], who[192];
	int fd;

	if (tier_holder(t->mm, NULL, who, sizeof(who))) {
		warnx("%s: tier %s (%s) is in use by %s: not activated",
		      d->name, path, t->mm, who);
		return EXIT_DEVICE;
	}
	/* the same device as t->fd, whatever its path says by now */
	snprintf(p, sizeof(p), "/proc/self/fd/%d", t->fd);
	fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_EXCL);
	if (fd < 0 && errno == EBUSY) {
		warnx("%s: tier %s (%s) is in use (mounted, swap, a device's): not activated",
		      d->name, path, t->mm);
		return EXIT_DEVICE;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

/*
 * After create: is any tier of @d also under a device other than @d's own
 * (one made between tier_free() and create, by another activate or by
 * LVM)? The kernel lets device-mapper tables share a disk. Says which.
 */
static bool tiers_shared(const struct swt_conf_dev *d, const struct act_tier *t)
{
	char who[192];
	unsigned int i;

	for (i = 0; i < d->ntiers; i++)
		if (tier_holder(t[i].mm, d->name, who, sizeof(who))) {
			warnx("%s: tier %s (%s) is also under %s: not activated",
			      d->name, d->tier[i], t[i].mm, who);
			return true;
		}
	return false;
}

/*
 * What activate made of @d, from @file, with its tiers as resolved (@t),
 * in /run/dmswaptier/NAME for deactivate; if that fails, deactivate goes
 * by the file, as it says.
 */
static void record_dev(const struct swt_conf_dev *d, const char *file,
		       const struct act_tier *t)
{
	struct swt_record *r = calloc(1, sizeof(*r));
	char why[600], *table, *real;
	struct timespec ts;
	unsigned int i;

	if (!r) {
		warnx("%s: out of memory for its record", d->name);
		return;
	}
	snprintf(r->name, sizeof(r->name), "%s", d->name);
	clock_gettime(CLOCK_BOOTTIME, &ts);
	r->seq = (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
	real = realpath(file, NULL);
	snprintf(r->config, sizeof(r->config), "%s", real ? real : file);
	free(real);
	r->ntiers = d->ntiers;
	for (i = 0; i < d->ntiers; i++) {
		snprintf(r->tier[i], sizeof(r->tier[i]), "%s", d->tier[i]);
		snprintf(r->tier_dev[i], sizeof(r->tier_dev[i]), "%s", t[i].mm);
	}
	table = dm_try_table(d->name);
	snprintf(r->table, sizeof(r->table), "%s", table ? table : "");
	free(table);
	if (dm_devnum(d->name, r->dev, sizeof(r->dev)))
		snprintf(why, sizeof(why), "it has vanished");
	else if (!swt_record_write(SWT_RUN_DIR, r, why, sizeof(why)))
		why[0] = 0;
	if (why[0])
		warnx("%s: no record of it (%s): deactivate goes by the file",
		      d->name, why);
	free(r);
}

/* The tiers the sections activated so far resolved to: none twice. */
struct act_used {
	unsigned int n;
	struct swt_tier_use use[SWT_CONF_MAX_DEVS * SWT_MAX_TIERS];
};

/*
 * @d's tiers, resolved (@t), checked: each device once in @d and not one
 * an earlier section resolved (@used, to which @d's are added), free, and
 * holding no data unless force. 0, or EXIT_DEVICE said why.
 */
static int check_tiers(const struct swt_conf_dev *d, struct act_tier *t,
		       struct act_used *used)
{
	struct swt_tier_use mine[SWT_MAX_TIERS];
	char why[2 * SWT_CONF_WORD + 256], what[128];
	unsigned int i;

	for (i = 0; i < d->ntiers; i++)
		mine[i] = t[i].use;
	if (swt_tier_clash(used->use, used->n, mine, d->ntiers, why,
			   sizeof(why))) {
		warnx("%s: %s: not activated", d->name, why);
		return EXIT_DEVICE;
	}
	for (i = 0; i < d->ntiers; i++)
		if (tier_free(d, d->tier[i], &t[i]))
			return EXIT_DEVICE;
	for (i = 0; i < d->ntiers && !d->force; i++) {
		switch (swt_tier_signature_fd(t[i].fd, what, sizeof(what))) {
		case 0:
			continue;
		case 1:
			warnx("%s: tier %s holds %s: not activated (force = yes to overwrite it)",
			      d->name, d->tier[i], what);
			return EXIT_DEVICE;
		default:
			warnx("%s: tier %s: %s: not activated", d->name,
			      d->tier[i], what);
			return EXIT_DEVICE;
		}
	}
	return 0;
}

static int activate_one(const struct swt_conf_dev *d, double start,
			const char *file, struct act_used *used)
{
	char *av[2 * SWT_CONF_MAX_OPTS + SWT_MAX_TIERS + 12], prio[16] = "";
	struct act_tier t[SWT_MAX_TIERS];
	unsigned int i;
	char why[600];
	int n = 0, rc;

	if (is_swaptier(d->name)) {
		if (!is_swap(d->name)) {
			warnx("%s: exists but is not an active swap area: left as it is",
			      d->name);
			return EXIT_DEVICE;
		}
		return 0;	/* active already */
	}
	rc = wait_tiers(d, start);
	if (!rc)
		rc = resolve_tiers(d, t);
	if (rc)
		return rc;
	rc = check_tiers(d, t, used);
	if (rc) {
		close_tiers(t, d->ntiers);
		return rc;
	}
	av[n++] = "create";
	av[n++] = (char *)d->name;
	for (i = 0; i < d->ntiers; i++)
		av[n++] = t[i].mm;
	if (d->size[0]) {
		av[n++] = "--size";
		av[n++] = (char *)d->size;
	}
	for (i = 0; i < d->nopts; i++) {
		av[n++] = "--option";
		av[n++] = (char *)d->opt[i];
	}
	av[n] = NULL;
	rc = run_cmd(cmd_create, n, av);
	close_tiers(t, d->ntiers);
	if (rc)
		return rc;	/* create said why */
	if (tiers_shared(d, t)) {
		if (dm_run(DM_DEVICE_REMOVE, d->name, 0, NULL, true))
			warnx("%s: the device it made is removed again", d->name);
		return EXIT_DEVICE;
	}
	/*
	 * Its tiers are taken: a later section naming one of them is
	 * skipped. Only now: a section skipped or refused takes none.
	 */
	for (i = 0; i < d->ntiers; i++)
		used->use[used->n++] = t[i].use;
	record_dev(d, file, t);
	if (d->has_priority && d->priority >= 0)
		snprintf(prio, sizeof(prio), "%d", d->priority);
	if (!try_make_swap(d->name, d->discard, prio[0] ? prio : NULL))
		return 0;
	/* made by this activation and of no use: not left in the way */
	if (dm_run(DM_DEVICE_REMOVE, d->name, 0, NULL, true)) {
		warnx("%s: not activated: the device it made is removed again",
		      d->name);
		if (swt_record_remove(SWT_RUN_DIR, d->name, why, sizeof(why)))
			warnx("%s", why);
	} else {
		/* its record stays: deactivate removes it */
		warnx("%s: not activated; the device it made could not be removed",
		      d->name);
	}
	return EXIT_DEVICE;
}

static int cmd_activate(int argc, char **argv)
{
	static char *const mp[] = { "modprobe", "dm-swaptier", NULL };
	static struct act_used used;
	double start = now_sec();
	const char *file, *only;
	struct swt_conf c;
	char why[600];
	unsigned int i;
	int rc = 0;

	conf_args("activate", argc, argv, &file, &only);
	if (load_conf(file, &c, why, sizeof(why)))
		errx(EXIT_USAGE, "%s", why);
	if (only && !conf_dev(&c, only))
		errx(EXIT_USAGE, "activate: no [%s] in %s", only, file);
	if (!c.ndevs)
		return 0;
	/*
	 * Loaded already (by hand with insmod, or built in) or else by
	 * modprobe; a failure is said, and create then says what is wrong.
	 */
	if (access("/sys/module/dm_swaptier", F_OK) && run(mp, true))
		warnx("modprobe dm-swaptier failed (is the module installed?)");
	for (i = 0; i < c.ndevs; i++)
		if ((!only || !strcmp(only, c.dev[i].name)) &&
		    activate_one(&c.dev[i], start, file, &used))
			rc = EXIT_DEVICE;
	return rc;
}

/* swapoff (if need be) and remove @name: 0, or EXIT_DEVICE said why */
static int swapoff_remove(const char *name)
{
	char path[PATH_MAX], *off[3];

	if (is_swap(name)) {
		snprintf(path, sizeof(path), "/dev/mapper/%s", name);
		off[0] = "swapoff";
		off[1] = path;
		off[2] = NULL;
		if (run(off, false)) {
			warnx("%s: swapoff failed", path);
			return EXIT_DEVICE;
		}
	}
	if (!dm_run(DM_DEVICE_REMOVE, name, 0, NULL, true)) {
		warnx("%s: remove failed (device busy?)", name);
		return EXIT_DEVICE;
	}
	return 0;
}

/*
 * Undo what @r records: the device activate made, if it is still there
 * (the same device number) and a dm-swaptier device. The record goes
 * with it, or when the device is gone; it stays if the device could not
 * be removed, for a later deactivate.
 */
static int undo_record(const struct swt_record *r)
{
	char dev[32], why[600], *table = NULL;
	int rc = 0;

	if (!dm_devnum(r->name, dev, sizeof(dev)))
		table = dm_try_table(r->name);
	if (table && strcmp(dev, r->dev)) {
		warnx("%s: not the device activate made (%s then, %s now): left as it is",
		      r->name, r->dev, dev);
		rc = EXIT_DEVICE;
	} else if (table) {
		rc = swapoff_remove(r->name);
		if (rc) {
			free(table);
			return rc;
		}
	}
	free(table);
	if (swt_record_remove(SWT_RUN_DIR, r->name, why, sizeof(why))) {
		warnx("%s", why);
		rc = EXIT_DEVICE;
	}
	return rc;
}

/* A device of the file with no record: removed if it is dm-swaptier. */
static int undo_conf(const char *name)
{
	return is_swaptier(name) ? swapoff_remove(name) : 0;
}

/* Is there a record of @name among the @n of @recs? */
static bool recorded(const struct swt_record *recs, size_t n,
		     const char *name)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!strcmp(recs[k].name, name))
			return true;
	return false;
}

static int cmd_deactivate(int argc, char **argv)
{
	char why[600], rwhy[600];
	const char *file, *only;
	struct swt_record *recs;
	struct swt_conf c;
	bool conf_ok;
	size_t n, k;
	int i, rc = 0;

	conf_args("deactivate", argc, argv, &file, &only);
	conf_ok = !load_conf(file, &c, why, sizeof(why));
	if (swt_record_list(SWT_RUN_DIR, &recs, &n, rwhy, sizeof(rwhy))) {
		warnx("%s", rwhy);
		rc = EXIT_DEVICE;
	}
	if (only) {
		for (k = 0; k < n; k++)
			if (!strcmp(recs[k].name, only))
				break;
		if (k < n) {
			if (undo_record(&recs[k]))
				rc = EXIT_DEVICE;
			free(recs);
			return rc;
		}
		free(recs);
		if (!conf_ok)
			errx(EXIT_USAGE, "%s", why);
		if (!conf_dev(&c, only))
			errx(EXIT_USAGE, "deactivate: no [%s] in %s, and no record of it",
			     only, file);
		return undo_conf(only) ? EXIT_DEVICE : rc;
	}
	if (!conf_ok)
		warnx("%s: undoing what activate recorded only", why);
	/* the latest made first: a later device may stand on an earlier one */
	for (k = 0; k < n; k++)
		if (undo_record(&recs[k]))
			rc = EXIT_DEVICE;
	/* then the devices of the file with no record, last first */
	for (i = conf_ok ? (int)c.ndevs - 1 : -1; i >= 0; i--)
		if (!recorded(recs, n, c.dev[i].name) &&
		    undo_conf(c.dev[i].name))
			rc = EXIT_DEVICE;
	free(recs);
	return rc ? rc : conf_ok ? 0 : EXIT_USAGE;
}

int main(int argc, char **argv)
{
	size_t i;

	atexit(close_stdout);
	if (argc < 2)
		usage_error(NULL, NULL);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout, NULL);
		return 0;
	}
	dm_log_init_verbose(0);
	for (i = 0; i < NR_CMDS; i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		/* getopt's messages start with the program's name */
		argv[1] = program_invocation_short_name;
		return cmds[i].fn(argc - 1, argv + 1);
	}
	usage_error(NULL, "unknown command '%s'", argv[1]);
}
