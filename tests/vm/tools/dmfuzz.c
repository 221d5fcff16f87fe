// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmfuzz: feed generated table lines and messages to dm-swaptier through
 * libdevmapper, in one process (exec'ing dmsetup thousands of times is too
 * slow in an emulated guest).
 *
 *   dmfuzz SEED TABLES MESSAGES LIVE TIER...
 *
 * TABLES lines are made from a valid line over the given tiers by
 * mutation (a token replaced, dropped, repeated or inserted; counts, the
 * length and the devices changed) or from random tokens: huge, negative
 * and malformed numbers, repeated devices, overlong strings, paths that
 * are not block devices. Each is loaded into device "swtfz" and resumed
 * (the device is created empty, kept while lines are refused and removed
 * after each accepted one): a refused line must leave no table behind,
 * live or inactive; an accepted one must read back a block
 * written through it, pass the target's own "check" message and be
 * removable. MESSAGES generated messages go to the existing device LIVE;
 * each may succeed or fail, nothing else is asserted here (the caller
 * checks LIVE's data and map afterwards).
 *
 * Every line and its outcome is printed; the last line is
 * "dmfuzz: T tables (A accepted, R refused), M messages (O ok, E refused),
 * B bad". Exit 0 only if B is 0.
 *
 *   dmfuzz nth create NAME LEN PARAMS
 *   dmfuzz nth reload NAME LEN PARAMS
 *   dmfuzz nth message NAME MESSAGE
 *
 * Systematic fault injection: for N = 1, 2, ... write N to this thread's
 * /proc/thread-self/fail-nth and do the operation (create: create, load
 * and resume device NAME; reload: load and resume a new table; message:
 * send it), so that the N-th fault point the kernel's filters let through
 * fails, until a run leaves fail-nth unconsumed (or for N up to
 * $DMFUZZ_NTH_MAX only, which then ends the sweep). A failed create must leave
 * no device; a created one must work and is removed; after a reload or a
 * message the device must exist and its "check" message say ok. The last
 * line is "nth OP: K injected failures: E clean errors, A absorbed, B bad";
 * exit 0 only if B is 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libdevmapper.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME "swtfz"
#define MAXTOK 48
#define TOKLEN 600

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned int pick(unsigned int n)
{
	return rnd() % n;
}

static const char *const numbers[] = {
	"0", "1", "2", "3", "7", "8", "9", "15", "16", "64", "255", "256",
	"65536", "65537", "100", "3600000", "3600001", "-1", "-0", "+1",
	"2147483647", "2147483648", "4294967295", "4294967296",
	"18446744073709551615", "18446744073709551616",
	"99999999999999999999999999", "0x10", "010", "1e3", "1.5", "", " ",
};

static const char *const words[] = {
	"discard_passdown", "frontier_blocks", "reserve_blocks", "migration",
	"low_watermark", "high_watermark", "promote_heat", "heat_period",
	"migration_idle", "migration_max_io", "write_batch", "promote_share",
	"demote_heat", "DISCARD_PASSDOWN",
	"on", "off",
	"map", "set", "stats", "check", "heat", "clear_stats", "evacuate",
	"swaptier", "-", "--", "%s%n", "\\", "\"", "discard_passdown=1",
};

static const char *const paths[] = {
	"/dev/null", "/dev/zero", "/nonexistent", "/dev/mapper/control",
	"/etc/passwd", "/dev", "0:0", "1:3", "253:9999", "999999:0", "7:",
	":", "/dev/vd", "/dev/vda1",
};

static const char *tiers[8];
static unsigned int nr_tiers;
static uint64_t tier_sectors[8];
static long bad, accepted, refused, msg_ok, msg_err;

static void random_token(char *t)
{
	unsigned int i, n;

	switch (pick(8)) {
	case 0:
	case 1:
		strcpy(t, numbers[pick(sizeof(numbers) / sizeof(numbers[0]))]);
		break;
	case 2:
	case 3:
		strcpy(t, words[pick(sizeof(words) / sizeof(words[0]))]);
		break;
	case 4:
		strcpy(t, paths[pick(sizeof(paths) / sizeof(paths[0]))]);
		break;
	case 5:
		strcpy(t, tiers[pick(nr_tiers)]);
		break;
	case 6:	/* overlong */
		n = 64 + pick(TOKLEN - 65);
		for (i = 0; i < n; i++)
			t[i] = 'a' + pick(26);
		t[n] = 0;
		break;
	default:
		snprintf(t, TOKLEN, "%llu", (unsigned long long)(rnd() >> pick(64)));
		break;
	}
}

static uint64_t max_len(unsigned int n)
{
	uint64_t total = 0, r;
	unsigned int i;

	for (i = 0; i < n; i++)
		total += tier_sectors[i] / 8;
	r = total / 100 < 256 ? 256 : total / 100;
	return total > r ? (total - r) * 8 : 0;
}

/* A valid table over the first @n tiers, as tokens; returns the count. */
static int valid_tokens(char tok[][TOKLEN], unsigned int n)
{
	static const char *const opts[][2] = {
		{ "frontier_blocks", "128" }, { "reserve_blocks", "512" },
		{ "migration", "off" }, { "low_watermark", "5" },
		{ "high_watermark", "30" }, { "promote_heat", "4" },
		{ "heat_period", "2000" }, { "migration_idle", "0" },
		{ "migration_max_io", "64" }, { "write_batch", "16" },
		{ "promote_share", "50" }, { "demote_heat", "3" },
	};
	unsigned int i, k = 0, nopt = pick(4), o;
	int c = 0;

	sprintf(tok[c++], "%u", n);
	for (i = 0; i < n; i++)
		strcpy(tok[c++], tiers[i]);
	if (!nopt && !pick(2))
		return c;
	c++;	/* the count, filled in below */
	if (pick(2)) {
		strcpy(tok[c++], "discard_passdown");
		k++;
	}
	for (i = 0; i < nopt; i++) {
		o = pick(sizeof(opts) / sizeof(opts[0]));
		strcpy(tok[c++], opts[o][0]);
		strcpy(tok[c++], opts[o][1]);
		k += 2;
	}
	sprintf(tok[n + 1], "%u", k);
	return c;
}

static void mutate(char tok[][TOKLEN], int *c)
{
	int i = *c ? (int)pick(*c) : 0, j;

	switch (pick(6)) {
	case 0:	/* replace */
		if (*c)
			random_token(tok[i]);
		break;
	case 1:	/* drop */
		if (!*c)
			break;
		for (j = i; j < *c - 1; j++)
			strcpy(tok[j], tok[j + 1]);
		(*c)--;
		break;
	case 2:	/* repeat */
		if (!*c || *c >= MAXTOK)
			break;
		for (j = *c; j > i; j--)
			strcpy(tok[j], tok[j - 1]);
		(*c)++;
		break;
	case 3:	/* insert */
		if (*c >= MAXTOK)
			break;
		for (j = *c; j > i; j--)
			strcpy(tok[j], tok[j - 1]);
		random_token(tok[i]);
		(*c)++;
		break;
	case 4:	/* a tier given twice */
		if (*c > 2)
			strcpy(tok[2], tok[1]);
		break;
	default:	/* a wrong count */
		snprintf(tok[0], TOKLEN, "%d", (int)pick(11) - 1);
		break;
	}
}

static void join(char *out, size_t size, char tok[][TOKLEN], int c)
{
	size_t off = 0;
	int i;

	out[0] = 0;
	for (i = 0; i < c && off < size - 1; i++)
		off += snprintf(out + off, size - off, "%s%s", i ? " " : "", tok[i]);
}

static int dm_simple(int type, const char *name)
{
	struct dm_task *dmt = dm_task_create(type);
	int r;

	if (!dmt)
		return 0;
	r = dm_task_set_name(dmt, name) && dm_task_run(dmt);
	dm_task_destroy(dmt);
	return r;
}

/* @name exists (with @tables: and has a live or an inactive table). */
static int dev_info(const char *name, int tables)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_INFO);
	struct dm_info info;
	int r = 0;

	if (dmt && dm_task_set_name(dmt, name) && dm_task_run(dmt) &&
	    dm_task_get_info(dmt, &info))
		r = info.exists &&
		    (!tables || info.live_table || info.inactive_table);
	if (dmt)
		dm_task_destroy(dmt);
	return r;
}

static int exists(const char *name)
{
	return dev_info(name, 0);
}

static int has_table(const char *name)
{
	return dev_info(name, 1);
}

/* Send @msg to @name; the response in @resp (may be empty). */
static int message(const char *name, const char *msg, char *resp, size_t size)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_TARGET_MSG);
	const char *r;
	int ok;

	resp[0] = 0;
	if (!dmt)
		return 0;
	ok = dm_task_set_name(dmt, name) && dm_task_set_sector(dmt, 0) &&
	     dm_task_set_message(dmt, msg) && dm_task_run(dmt);
	r = ok ? dm_task_get_message_response(dmt) : NULL;
	if (r)
		snprintf(resp, size, "%s", r);
	resp[strcspn(resp, "\n")] = 0;	/* "check" answers "ok\n" */
	dm_task_destroy(dmt);
	return ok;
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("BAD: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	bad++;
}

/* The accepted device works: a block written reads back, check says ok. */
static void exercise(const char *name)
{
	char path[256];
	static char wbuf[4096] __attribute__((aligned(4096)));
	static char rbuf[4096] __attribute__((aligned(4096)));
	char resp[256];
	unsigned int i;
	int fd;

	dm_task_update_nodes();
	snprintf(path, sizeof(path), "/dev/mapper/%s", name);
	fd = open(path, O_RDWR | O_DIRECT);
	if (fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		return;
	}
	for (i = 0; i < sizeof(wbuf); i++)
		wbuf[i] = rnd();
	if (pwrite(fd, wbuf, sizeof(wbuf), 4096) != sizeof(wbuf) ||
	    pread(fd, rbuf, sizeof(rbuf), 4096) != sizeof(rbuf) ||
	    memcmp(wbuf, rbuf, sizeof(wbuf)))
		fail("the block written did not read back");
	close(fd);
	if (!message(name, "check", resp, sizeof(resp)) || strcmp(resp, "ok"))
		fail("check message said '%s'", resp);
}

static void one_table(void)
{
	static char tok[MAXTOK + 1][TOKLEN];
	static char line[MAXTOK * TOKLEN];
	unsigned int n = 1 + pick(nr_tiers), m, i;
	uint64_t len = max_len(n);
	struct dm_task *dmt;
	int c, ok;

	if (pick(5)) {
		c = valid_tokens(tok, n);
		for (m = pick(3), i = 0; i < m; i++)
			mutate(tok, &c);
	} else {
		for (c = pick(MAXTOK / 2), i = 0; (int)i < c; i++)
			random_token(tok[i]);
	}
	switch (pick(8)) {
	case 0:
		len = 0;
		break;
	case 1:
		len = len + 8;
		break;
	case 2:
		len = len ? len - 1 : 1;
		break;
	case 3:
		len = rnd() >> pick(64);
		break;
	default:	/* a valid length, sometimes short */
		if (len && pick(2))
			len = 8 * (1 + pick(len / 8));
		break;
	}
	join(line, sizeof(line), tok, c);
	/*
	 * What "dmsetup create" does, with the empty device kept from one
	 * refused line to the next: creating and removing a mapped device
	 * (no dm-swaptier code) took most of the case's time on the debug
	 * kernel. Load the line, then resume it.
	 */
	if (!exists(NAME) && !dm_simple(DM_DEVICE_CREATE, NAME)) {
		fail("cannot create the empty device " NAME);
		return;
	}
	dmt = dm_task_create(DM_DEVICE_RELOAD);
	if (!dmt) {
		fail("dm_task_create");
		return;
	}
	ok = dm_task_set_name(dmt, NAME) &&
	     dm_task_add_target(dmt, 0, len, "swaptier", line) &&
	     dm_task_run(dmt);
	dm_task_destroy(dmt);
	if (ok && !dm_simple(DM_DEVICE_RESUME, NAME)) {
		/* a table that cannot go live is refused too */
		ok = 0;
		if (!dm_simple(DM_DEVICE_REMOVE, NAME))
			fail("cannot remove " NAME " after a failed resume");
	}
	printf("table %llu swaptier %s: %s\n", (unsigned long long)len, line,
	       ok ? "accepted" : "refused");
	fflush(stdout);
	if (!ok) {
		refused++;
		if (has_table(NAME)) {
			fail("refused table left a table in " NAME);
			dm_simple(DM_DEVICE_REMOVE, NAME);
		}
		return;
	}
	accepted++;
	exercise(NAME);
	if (!dm_simple(DM_DEVICE_REMOVE, NAME))
		fail("cannot remove " NAME);
	dm_task_update_nodes();
}

static void one_message(const char *live)
{
	static char tok[MAXTOK + 1][TOKLEN];
	static char line[MAXTOK * TOKLEN], resp[1 << 16];
	static const char *const heads[] = {
		"map", "set", "stats", "check", "heat", "clear_stats",
		"migration", "evacuate",
	};
	int c = 1 + pick(4), i, ok;

	strcpy(tok[0], heads[pick(sizeof(heads) / sizeof(heads[0]))]);
	for (i = 1; i < c; i++)
		random_token(tok[i]);
	/* half the time, the shape the head expects, with boundary values */
	if (pick(2)) {
		const char *const *w = words, *const *num = numbers;
		unsigned int nw = 10, nn = sizeof(numbers) / sizeof(numbers[0]);

		if (!strcmp(tok[0], "set")) {
			c = 3;
			strcpy(tok[1], w[pick(nw)]);
			strcpy(tok[2], pick(4) ? num[pick(nn)] : w[10 + pick(2)]);
		} else if (!strcmp(tok[0], "map")) {
			c = 3;
			strcpy(tok[1], num[pick(nn)]);
			strcpy(tok[2], num[pick(nn)]);
		} else if (!strcmp(tok[0], "migration")) {
			c = 2;
			strcpy(tok[1], pick(2) ? w[10 + pick(2)] : num[pick(nn)]);
		} else {
			c = 1 + !pick(3);
			if (c == 2)
				strcpy(tok[1], num[pick(nn)]);
		}
	}
	if (!pick(10))
		random_token(tok[0]);
	join(line, sizeof(line), tok, c);
	ok = message(live, line, resp, sizeof(resp));
	printf("message %s: %s\n", line, ok ? "ok" : "refused");
	fflush(stdout);
	if (ok)
		msg_ok++;
	else
		msg_err++;
}

static int load(int type, const char *name, uint64_t len, const char *params)
{
	struct dm_task *dmt = dm_task_create(type);
	int ok;

	if (!dmt)
		return 0;
	ok = dm_task_set_name(dmt, name) &&
	     dm_task_add_target(dmt, 0, len, "swaptier", params) &&
	     dm_task_run(dmt);
	dm_task_destroy(dmt);
	return ok;
}

static void set_nth(unsigned int n)
{
	FILE *f = fopen("/proc/thread-self/fail-nth", "w");

	if (!f || fprintf(f, "%u", n) < 0 || fclose(f)) {
		perror("dmfuzz: /proc/thread-self/fail-nth");
		exit(2);
	}
}

static unsigned int get_nth(void)
{
	FILE *f = fopen("/proc/thread-self/fail-nth", "r");
	unsigned int n = 0;

	if (!f || fscanf(f, "%u", &n) != 1) {
		perror("dmfuzz: /proc/thread-self/fail-nth");
		exit(2);
	}
	fclose(f);
	return n;
}

static int nth_main(char **argv)
{
	const char *op = argv[2], *name = argv[3];
	long errors = 0, absorbed = 0;
	unsigned int n, left = 0, max = 100000;
	char resp[256];
	uint64_t len = 0;
	int ok;

	if (strcmp(op, "message"))
		len = strtoull(argv[4], NULL, 0);
	if (getenv("DMFUZZ_NTH_MAX")) {
		max = strtoul(getenv("DMFUZZ_NTH_MAX"), NULL, 0);
		if (!max) {
			fprintf(stderr, "dmfuzz: DMFUZZ_NTH_MAX must be a count > 0\n");
			return 2;
		}
	}
	dm_udev_set_sync_support(0);
	for (n = 1; n <= max; n++) {
		set_nth(n);
		if (!strcmp(op, "create")) {
			ok = load(DM_DEVICE_CREATE, name, len, argv[5]);
		} else if (!strcmp(op, "reload")) {
			ok = load(DM_DEVICE_RELOAD, name, len, argv[5]);
			if (ok && !dm_simple(DM_DEVICE_RESUME, name)) {
				/* a failed resume is a clean error too, if a
				 * second one without injection works */
				set_nth(0);
				ok = 0;
				if (!dm_simple(DM_DEVICE_RESUME, name))
					fail("run %u: resume fails after a failed resume", n);
			}
		} else {
			ok = message(name, argv[4], resp, sizeof(resp));
		}
		left = get_nth();
		set_nth(0);
		if (!strcmp(op, "create")) {
			if (!ok && exists(name)) {
				fail("run %u: failed create left device %s", n, name);
				dm_simple(DM_DEVICE_REMOVE, name);
			}
			if (ok) {
				exercise(name);
				if (!dm_simple(DM_DEVICE_REMOVE, name))
					fail("run %u: cannot remove %s", n, name);
				dm_task_update_nodes();
			}
		} else if (!message(name, "check", resp, sizeof(resp)) ||
			   strcmp(resp, "ok")) {
			fail("run %u: check says '%s' after %s", n, resp, op);
		}
		if (left) {	/* nothing was injected: the operation must work */
			if (!ok)
				fail("run %u: %s failed with nothing injected", n, op);
			break;
		}
		if (ok)
			absorbed++;
		else
			errors++;
	}
	printf("nth %s: %u injected failures: %ld clean errors, %ld absorbed, %ld bad\n",
	       op, n - 1, errors, absorbed, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	long tables, messages, i;
	struct stat s;
	int fd;

	if (argc >= 5 && !strcmp(argv[1], "nth")) {
		if ((!strcmp(argv[2], "message") && argc == 5) ||
		    ((!strcmp(argv[2], "create") || !strcmp(argv[2], "reload")) &&
		     argc == 6))
			return nth_main(argv);
		fprintf(stderr, "usage: dmfuzz nth create|reload NAME LEN PARAMS | nth message NAME MESSAGE\n");
		return 2;
	}
	if (argc < 6 || argc > 13) {
		fprintf(stderr, "usage: dmfuzz SEED TABLES MESSAGES LIVE TIER...\n");
		return 2;
	}
	rng = strtoull(argv[1], NULL, 0) * 2654435761ULL + 1;
	tables = atol(argv[2]);
	messages = atol(argv[3]);
	for (i = 5; i < argc; i++) {
		tiers[nr_tiers] = argv[i];
		fd = open(argv[i], O_RDONLY);
		if (fd < 0 || fstat(fd, &s) || !S_ISBLK(s.st_mode)) {
			fprintf(stderr, "dmfuzz: %s is not a block device\n", argv[i]);
			return 2;
		}
		tier_sectors[nr_tiers++] = lseek(fd, 0, SEEK_END) / 512;
		close(fd);
	}
	dm_udev_set_sync_support(0);
	if (exists(NAME)) {
		fprintf(stderr, "dmfuzz: device " NAME " already exists\n");
		return 2;
	}
	for (i = 0; i < tables; i++)
		one_table();
	if (exists(NAME) && !dm_simple(DM_DEVICE_REMOVE, NAME))
		fail("cannot remove the empty device " NAME);
	for (i = 0; i < messages; i++)
		one_message(argv[4]);
	printf("dmfuzz: %ld tables (%ld accepted, %ld refused), %ld messages (%ld ok, %ld refused), %ld bad\n",
	       tables, accepted, refused, messages, msg_ok, msg_err, bad);
	return bad ? 1 : 0;
}
