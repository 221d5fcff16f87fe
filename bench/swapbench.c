// SPDX-License-Identifier: GPL-2.0-only
/*
 * swapbench: the benchmark's memory workloads. Each one touches anonymous
 * memory with a value unique per page and version, checks every value it
 * reads back, and prints one line of key=value figures:
 *
 *   swapbench pressure PROCS MIB_TOTAL PASSES
 *	PROCS processes share MIB_TOTAL; each fills its pages and reads them
 *	all back, PASSES times (direct reclaim from several processes at once).
 *	Its line (and aged's) also counts the processes killed by SIGKILL
 *	(killed=, the OOM killer's signal) and by any other (signaled=).
 *   swapbench hotcold MIB HOT_PCT HOT_SHARE ACCESSES [WRITE_PCT [SEED]]
 *	one process fills MIB, then makes ACCESSES page accesses, HOT_SHARE %
 *	of them to a scattered HOT_PCT % of the pages; WRITE_PCT % of the
 *	accesses (default 25) rewrite the page, the others only read it.
 *	Reports accesses per second of that phase. With SWAPBENCH_DISKS set
 *	to disk names ("vdb vdd"), it also reports each disk's read and write
 *	requests and merges during that phase, from /sys/block/NAME/stat:
 *	phase_io=NAME:READS:READ_MERGES:WRITES:WRITE_MERGES,... (a disk
 *	whose stat cannot be read is left out).
 *   swapbench idle IDLE_MIB MIB HOT_PCT HOT_SHARE ACCESSES [WRITE_PCT]
 *	a process fills IDLE_MIB and sleeps; memory is touched until nine
 *	tenths of its pages are swapped out (an idle program pushed out first,
 *	as on a desktop); then the hot/cold load above runs and is measured,
 *	and at the end the idle process verifies every page.
 *   swapbench aged PROCS MIB_TOTAL ROUNDS
 *	ROUNDS rounds in which each process fills its share, frees a
 *	scattered half of it and fills a region of half the size (the freed
 *	slots fragment the swap area), then the pressure workload on top.
 *   memhog PROCS MIB_PER_PROC PASSES [aged]
 *   swapbench memhog PROCS MIB_PER_PROC PASSES [aged]
 *	the VM tests' load (build/bin/memhog is a link to this program):
 *	PROCS independent processes of MIB_PER_PROC each fill and verify
 *	their pages PASSES times, or with "aged" run PASSES aged rounds. Each
 *	prints "memhog[N]: P pages x K passes, B bad pages" when it is done,
 *	so that a test can count those that finished (a swap-in error kills
 *	a process with SIGBUS, the OOM killer may take one).
 *
 * SWAPBENCH_FILL=PCT fills that share of each page with data that does
 * not compress (default 0: one word in every 512 bytes, pages compress
 * about 50:1; 33 compresses about 3:1, like typical anonymous memory under
 * zram).
 * Every word written is checked when read back.
 *
 * Exit 0 only if every value read back was right.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL
#define WORDS (PAGE / 8)
#define STRIDE 64		/* words apart: every cache line of a page */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t value(uint64_t tag, size_t page, unsigned int version)
{
	uint64_t v = (tag << 48) ^ ((uint64_t)version << 36) ^ page;

	return v * 0x9e3779b97f4a7c15ULL + 1;
}

/*
 * Words at the start of each page that hold data which does not compress
 * (SWAPBENCH_FILL, a percentage of the page; 0 by default): the rest of
 * the page is zeros but for one word in every 512 bytes. 0 gives pages
 * that compress about 50:1 (lz4), 33 about 3:1 like typical anonymous
 * memory (zram).
 */
static size_t fill_words;

/* The word at @w of a page whose value is @v: the filler mixes both. */
static uint64_t word(uint64_t v, size_t w)
{
	uint64_t x;

	if (w % STRIDE == 0)
		return v + w;
	x = v ^ (w * 0xbf58476d1ce4e5b9ULL);
	x ^= x >> 31;
	return x * 0x94d049bb133111ebULL;
}

static void put(uint64_t *p, uint64_t v)
{
	size_t w;

	for (w = 0; w < fill_words; w++)
		p[w] = word(v, w);
	for (w = fill_words + STRIDE - 1 - (fill_words + STRIDE - 1) % STRIDE;
	     w < WORDS; w += STRIDE)
		p[w] = v + w;
}

/* Every word put() wrote is read back. */
static int good(const uint64_t *p, uint64_t v)
{
	size_t w;

	for (w = 0; w < fill_words; w++)
		if (p[w] != word(v, w))
			return 0;
	for (w = fill_words + STRIDE - 1 - (fill_words + STRIDE - 1) % STRIDE;
	     w < WORDS; w += STRIDE)
		if (p[w] != v + w)
			return 0;
	return 1;
}

static int zero(const uint64_t *p)
{
	size_t w;

	for (w = 0; w < WORDS; w += STRIDE)
		if (p[w])
			return 0;
	return 1;
}

static uint64_t *map_pages(size_t pages)
{
	void *m = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED) {
		perror("swapbench: mmap");
		exit(2);
	}
	return m;
}

/* A scattered half of the pages, different each round. */
static int scattered(size_t p, unsigned int round)
{
	return ((p * 2654435761U) >> 7 ^ round) & 1;
}

/*
 * The processes meet once each has filled its memory, so that they all
 * hold it at the same time however small it is: tell the parent on @ready,
 * then wait until it closes @go.
 */
static int ready_fd = -1, go_fd = -1;

static void barrier(void)
{
	char c = 1;

	if (ready_fd < 0)
		return;
	/*
	 * Close @ready before waiting: the parent reads it to its end, which
	 * comes early if a process dies before it gets here (the OOM killer),
	 * and never while a waiting process holds it open.
	 */
	if (write(ready_fd, &c, 1) != 1)
		perror("swapbench: barrier");
	close(ready_fd);
	if (read(go_fd, &c, 1) < 0)
		perror("swapbench: barrier");
	close(go_fd);
	ready_fd = go_fd = -1;
}

/* One process of pressure or aged; returns the number of bad pages. */
static size_t hog(unsigned int tag, size_t pages, unsigned int passes,
		  unsigned int rounds)
{
	uint64_t *mem = map_pages(pages), *more;
	size_t p, bad = 0, half = pages / 2;
	unsigned int r, pass;

	for (r = 0; r < rounds; r++) {
		more = map_pages(half);
		for (p = 0; p < pages; p++)
			put(mem + p * WORDS, value(tag, p, r));
		barrier();
		for (p = 0; p < pages; p++)
			if (scattered(p, r))
				madvise(mem + p * WORDS, PAGE, MADV_DONTNEED);
		for (p = 0; p < half; p++)
			put(more + p * WORDS, value(tag + 1000, p, r));
		for (p = 0; p < half; p++)
			bad += !good(more + p * WORDS, value(tag + 1000, p, r));
		/* a freed page reads back as zeros */
		for (p = 0; p < pages; p++)
			bad += !(scattered(p, r) ? zero(mem + p * WORDS) :
				 good(mem + p * WORDS, value(tag, p, r)));
		munmap(more, half * PAGE);
	}
	for (pass = 0; pass < passes; pass++) {
		for (p = 0; p < pages; p++)
			put(mem + p * WORDS, value(tag, p, 100 + pass));
		barrier();
		for (p = 0; p < pages; p++)
			bad += !good(mem + p * WORDS, value(tag, p, 100 + pass));
	}
	munmap(mem, pages * PAGE);
	return bad;
}

static int run_procs(unsigned int procs, size_t mib, unsigned int passes,
		     unsigned int rounds, const char *name)
{
	size_t pages = mib * (1024 * 1024 / PAGE) / procs;
	unsigned int i, failed = 0, killed = 0, signaled = 0;
	int status, ready[2], go[2];
	double t0 = now();
	char c;

	if (pipe(ready) || pipe(go)) {
		perror("swapbench: pipe");
		return 2;
	}
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("swapbench: fork");
			return 2;
		}
		if (!pid) {
			size_t bad;

			close(ready[0]);
			close(go[1]);
			ready_fd = ready[1];
			go_fd = go[0];
			bad = hog(i, pages, passes, rounds);

			if (bad)
				fprintf(stderr, "swapbench: process %u: %zu bad pages\n",
					i, bad);
			_exit(bad ? 1 : 0);
		}
	}
	/* all filled (or gone): let them go on */
	close(ready[1]);
	close(go[0]);
	for (i = 0; i < procs && read(ready[0], &c, 1) == 1; i++)
		;
	close(go[1]);
	close(ready[0]);
	for (i = 0; i < procs; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed++;
		/* SIGKILL is the OOM killer's; any other signal is not */
		if (WIFSIGNALED(status))
			WTERMSIG(status) == SIGKILL ? killed++ : signaled++;
	}
	/* pages written and read back, in every round and pass */
	printf("workload=%s procs=%u mib=%zu seconds=%.3f accesses=%zu aps=%.0f verified=%d killed=%u signaled=%u\n",
	       name, procs, mib, now() - t0,
	       (size_t)procs * pages * (2 * passes + 3 * rounds),
	       procs * pages * (2.0 * passes + 3 * rounds) / (now() - t0),
	       !failed, killed, signaled);
	return failed ? 1 : 0;
}

/*
 * The VM tests' load: independent processes, no barrier (one may die and
 * the others go on), a line per process that finished.
 */
static int memhog(unsigned int procs, size_t mib, unsigned int passes, int aged)
{
	size_t pages = mib * (1024 * 1024 / PAGE), bad;
	unsigned int i, failed = 0;
	int status;

	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("memhog: fork");
			return 2;
		}
		if (!pid) {
			bad = hog(i, pages, aged ? 0 : passes, aged ? passes : 0);
			printf("memhog[%u]: %zu pages x %u passes, %zu bad pages\n",
			       i, pages, passes, bad);
			fflush(stdout);
			_exit(bad ? 1 : 0);
		}
	}
	for (i = 0; i < procs; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed++;
	printf("memhog: %u processes, %u failed\n", procs, failed);
	return failed ? 1 : 0;
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The idle process of "idle": its pid, and the pipe that wakes it. */
static pid_t idle_pid;
static int idle_go = -1;
static unsigned int idle_swapped_pct;

/* Let the idle process verify its pages; returns 1 if they were right. */
static int idle_verify(void)
{
	int status;

	close(idle_go);
	return waitpid(idle_pid, &status, 0) == idle_pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status);
}

/* On an error: kill the idle process, if any, and reap it. */
static void idle_stop(void)
{
	if (!idle_pid)
		return;
	kill(idle_pid, SIGKILL);
	waitpid(idle_pid, NULL, 0);
	idle_pid = 0;
}

#define MAX_DISKS 8

/*
 * Read and write requests and merges of the disks SWAPBENCH_DISKS names
 * (separated by blanks or commas), from their /sys/block/NAME/stat
 * (fields 1, 2, 5 and 6). A name that is too long, holds a '/', or whose
 * stat cannot be read is left out (ok = 0); at most MAX_DISKS are read.
 */
struct disk_io {
	char name[32];
	int ok;
	unsigned long long v[4];
};

static unsigned int disk_snap(struct disk_io *d)
{
	const char *list = getenv("SWAPBENCH_DISKS"), *sep = " \t\n,";
	unsigned int n = 0;
	char path[96];
	size_t len;

	while (list && *list && n < MAX_DISKS) {
		unsigned long long f[6];
		FILE *fh;

		list += strspn(list, sep);
		len = strcspn(list, sep);
		if (!len)
			break;
		d[n].ok = len < sizeof(d[n].name) && !memchr(list, '/', len);
		snprintf(d[n].name, sizeof(d[n].name), "%.*s", (int)len, list);
		list += len;
		if (d[n].ok) {
			snprintf(path, sizeof(path), "/sys/block/%s/stat", d[n].name);
			fh = fopen(path, "r");
			d[n].ok = fh && fscanf(fh, "%llu %llu %llu %llu %llu %llu",
					       &f[0], &f[1], &f[2], &f[3], &f[4],
					       &f[5]) == 6;
			if (fh)
				fclose(fh);
		}
		if (d[n].ok) {
			d[n].v[0] = f[0];
			d[n].v[1] = f[1];
			d[n].v[2] = f[4];
			d[n].v[3] = f[5];
		}
		n++;
	}
	return n;
}

/* " phase_io=..." into @buf: the differences since @d0, or "" */
static void disk_diff(char *buf, size_t size, const struct disk_io *d0,
		      unsigned int n)
{
	struct disk_io d1[MAX_DISKS];
	unsigned int i, m = disk_snap(d1);
	size_t at = 0;

	buf[0] = 0;
	for (i = 0; i < n && i < m && at < size; i++) {
		/* a disk unread at either end, or whose counts went back */
		if (!d0[i].ok || !d1[i].ok || d1[i].v[0] < d0[i].v[0] ||
		    d1[i].v[1] < d0[i].v[1] || d1[i].v[2] < d0[i].v[2] ||
		    d1[i].v[3] < d0[i].v[3])
			continue;
		at += snprintf(buf + at, size - at, "%s%s:%llu:%llu:%llu:%llu",
			       at ? "," : " phase_io=", d1[i].name,
			       d1[i].v[0] - d0[i].v[0], d1[i].v[1] - d0[i].v[1],
			       d1[i].v[2] - d0[i].v[2], d1[i].v[3] - d0[i].v[3]);
	}
}

static int hotcold(size_t mib, unsigned int hot_pct, unsigned int hot_share,
		   size_t accesses, unsigned int write_pct, uint64_t seed)
{
	size_t pages = mib * (1024 * 1024 / PAGE), nhot = 0, p, i, bad = 0;
	uint64_t *mem = map_pages(pages), s = seed | 1;
	uint32_t *hot, *cold;
	uint8_t *ver;
	struct disk_io io0[MAX_DISKS];
	unsigned int ndisks;
	char phase_io[MAX_DISKS * 96];
	double t0, t1;

	/* the bookkeeping stays resident: only the region is measured */
	hot = calloc(pages, sizeof(*hot));
	cold = calloc(pages, sizeof(*cold));
	ver = calloc(pages, 1);
	if (!hot || !cold || !ver) {
		fprintf(stderr, "swapbench: out of memory\n");
		idle_stop();
		return 2;
	}
	mlock(hot, pages * sizeof(*hot));
	mlock(cold, pages * sizeof(*cold));
	mlock(ver, pages);
	for (p = 0; p < pages; p++) {
		if ((p * 2654435761U >> 8) % 100 < hot_pct)
			hot[nhot++] = p;
		else
			cold[p - nhot] = p;
		put(mem + p * WORDS, value(7, p, 0));
	}
	if (!nhot || nhot == pages) {
		fprintf(stderr, "swapbench: hot set of %zu pages of %zu\n", nhot, pages);
		idle_stop();
		return 2;
	}
	ndisks = disk_snap(io0);
	t0 = now();
	for (i = 0; i < accesses; i++) {
		uint64_t r = rng(&s);

		if (r % 100 < hot_share)
			p = hot[(r >> 8) % nhot];
		else
			p = cold[(r >> 8) % (pages - nhot)];
		if (!good(mem + p * WORDS, value(7, p, ver[p])))
			bad++;
		if ((r >> 40) % 100 < write_pct)
			put(mem + p * WORDS, value(7, p, ++ver[p]));
	}
	t1 = now();
	disk_diff(phase_io, sizeof(phase_io), io0, ndisks);
	for (p = 0; p < pages; p++)
		bad += !good(mem + p * WORDS, value(7, p, ver[p]));
	munmap(mem, pages * PAGE);
	if (idle_pid) {
		int idle_ok = idle_verify();

		printf("workload=idle idle_swapped_pct=%u idle_verified=%d ",
		       idle_swapped_pct, idle_ok);
		bad += !idle_ok;
	} else {
		printf("workload=hotcold ");
	}
	printf("mib=%zu hot_pct=%u hot_share=%u write_pct=%u seconds=%.3f accesses=%zu aps=%.0f bad=%zu verified=%d%s\n",
	       mib, hot_pct, hot_share, write_pct, t1 - t0, accesses,
	       accesses / (t1 - t0), bad, !bad, phase_io);
	return bad ? 1 : 0;
}

/* A "Key: <n> kB" line of /proc file @path (meminfo, status), in pages. */
static size_t proc_pages(const char *path, const char *key)
{
	char line[256], name[64];
	size_t kib, pages = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %zu", name, &kib) == 2 &&
		    !strcmp(name, key)) {
			pages = kib / (PAGE / 1024);
			break;
		}
	fclose(f);
	return pages;
}

/* Pages of process @pid out in swap, from its VmSwap. */
static size_t swapped_pages(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	return proc_pages(path, "VmSwap");
}

/*
 * Start the idle process of @mib and push nine tenths of it out to swap
 * by touching other memory, which is then freed.
 */
static int idle_start(size_t mib)
{
	size_t pages = mib * (1024 * 1024 / PAGE), limit, p, n;
	int ready[2], go[2], status;
	pid_t pid, parent;
	uint64_t *mem;
	char c;

	if (!pages) {
		fprintf(stderr, "swapbench: an idle process of 0 pages\n");
		return 2;
	}
	if (pipe(ready) || pipe(go)) {
		perror("swapbench: pipe");
		return 2;
	}
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		perror("swapbench: fork");
		return 2;
	}
	if (!pid) {
		size_t bad = 0;

		/* never outlive the benchmark into the next run */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(2);
		close(ready[0]);
		close(go[1]);
		mem = map_pages(pages);
		for (p = 0; p < pages; p++)
			put(mem + p * WORDS, value(9, p, 0));
		if (write(ready[1], &c, 1) != 1)
			_exit(2);
		/* sleep until the load is over */
		while (read(go[0], &c, 1) > 0)
			;
		for (p = 0; p < pages; p++)
			bad += !good(mem + p * WORDS, value(9, p, 0));
		if (bad)
			fprintf(stderr, "swapbench: idle process: %zu bad pages\n", bad);
		_exit(bad ? 1 : 0);
	}
	idle_pid = pid;
	close(ready[1]);
	close(go[0]);
	idle_go = go[1];
	if (read(ready[0], &c, 1) != 1) {
		fprintf(stderr, "swapbench: the idle process died\n");
		return 2;
	}
	close(ready[0]);
	/*
	 * 1 MiB at a time, never more than memory and swap can hold together
	 * (less a margin), and only while the idle process lives
	 */
	limit = proc_pages("/proc/meminfo", "MemAvailable") +
		proc_pages("/proc/meminfo", "SwapFree");
	limit = limit > 16384 ? limit - 16384 : 0;
	mem = map_pages(limit ? limit : 1);
	for (p = 0; p < limit; p += 256) {
		if (swapped_pages(idle_pid) * 10 >= pages * 9)
			break;
		if (waitpid(idle_pid, &status, WNOHANG)) {
			fprintf(stderr, "swapbench: the idle process died\n");
			idle_pid = 0;
			return 2;
		}
		for (n = p; n < p + 256 && n < limit; n++)
			put(mem + n * WORDS, value(8, n, 0));
	}
	munmap(mem, (limit ? limit : 1) * PAGE);
	idle_swapped_pct = swapped_pages(idle_pid) * 100 / pages;
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: swapbench pressure PROCS MIB_TOTAL PASSES\n"
		"       swapbench hotcold MIB HOT_PCT HOT_SHARE ACCESSES [WRITE_PCT [SEED]]\n"
		"       swapbench idle IDLE_MIB MIB HOT_PCT HOT_SHARE ACCESSES [WRITE_PCT]\n"
		"       swapbench aged PROCS MIB_TOTAL ROUNDS\n"
		"       swapbench memhog PROCS MIB_PER_PROC PASSES [aged]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	int as_hog = !strcmp(base ? base + 1 : argv[0], "memhog");
	char **a;
	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getenv("SWAPBENCH_FILL")) {
		const char *f = getenv("SWAPBENCH_FILL");
		char *end;
		unsigned long pct = strtoul(f, &end, 10);

		if (end == f || *end || pct > 100) {
			fprintf(stderr, "swapbench: SWAPBENCH_FILL=%s is not a percentage\n",
				getenv("SWAPBENCH_FILL"));
			return 2;
		}
		fill_words = WORDS * pct / 100;
	}
	/* "memhog ARGS" (the link) is "swapbench memhog ARGS" */
	if (as_hog || (argc > 1 && !strcmp(argv[1], "memhog"))) {
		a = argv + (as_hog ? 1 : 2);
		n = argc - (as_hog ? 1 : 2);
		if (n == 3 || (n == 4 && !strcmp(a[3], "aged")))
			return memhog(atoi(a[0]), strtoul(a[1], NULL, 0),
				      atoi(a[2]), n == 4);
		usage();
	}
	if (argc == 5 && !strcmp(argv[1], "pressure"))
		return run_procs(atoi(argv[2]), strtoul(argv[3], NULL, 0),
				 atoi(argv[4]), 0, "pressure");
	if (argc == 5 && !strcmp(argv[1], "aged"))
		return run_procs(atoi(argv[2]), strtoul(argv[3], NULL, 0),
				 1, atoi(argv[4]), "aged");
	if (argc >= 6 && argc <= 8 && !strcmp(argv[1], "hotcold"))
		return hotcold(strtoul(argv[2], NULL, 0), atoi(argv[3]),
			       atoi(argv[4]), strtoul(argv[5], NULL, 0),
			       argc >= 7 ? atoi(argv[6]) : 25,
			       argc == 8 ? strtoull(argv[7], NULL, 0) : 42);
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "idle")) {
		int r = idle_start(strtoul(argv[2], NULL, 0));

		return r ? r : hotcold(strtoul(argv[3], NULL, 0), atoi(argv[4]),
				       atoi(argv[5]), strtoul(argv[6], NULL, 0),
				       argc == 8 ? atoi(argv[7]) : 25, 42);
	}
	usage();
	return 2;
}
