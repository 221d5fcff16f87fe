// SPDX-License-Identifier: GPL-2.0-only
/*
 * swapbench: the benchmark's memory workloads. Each one touches anonymous
 * memory with a value unique per page and version, checks every value it
 * reads back, and prints one line of key=value figures:
 *
 *   swapbench pressure PROCS MIB_TOTAL PASSES
 *	PROCS processes share MIB_TOTAL; each fills its pages and reads them
 *	all back, PASSES times (direct reclaim from several processes at once).
 *   swapbench hotcold MIB HOT_PCT HOT_SHARE ACCESSES [SEED]
 *	one process fills MIB, then makes ACCESSES page accesses, HOT_SHARE %
 *	of them to a scattered HOT_PCT % of the pages; one access in four
 *	rewrites the page. Reports accesses per second of that phase.
 *   swapbench aged PROCS MIB_TOTAL ROUNDS
 *	ROUNDS rounds in which each process fills its share, frees a
 *	scattered half of it and fills a region of half the size (the freed
 *	slots fragment the swap area), then the pressure workload on top.
 *
 * Exit 0 only if every value read back was right.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

static void put(uint64_t *p, uint64_t v)
{
	size_t w;

	for (w = 0; w < WORDS; w += STRIDE)
		p[w] = v + w;
}

static int good(const uint64_t *p, uint64_t v)
{
	size_t w;

	for (w = 0; w < WORDS; w += STRIDE)
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
	if (write(ready_fd, &c, 1) != 1 || read(go_fd, &c, 1) < 0)
		perror("swapbench: barrier");
	close(ready_fd);
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
	unsigned int i, failed = 0;
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
	for (i = 0; i < procs; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed++;
	/* pages written and read back, in every round and pass */
	printf("workload=%s procs=%u mib=%zu seconds=%.3f accesses=%zu aps=%.0f verified=%d\n",
	       name, procs, mib, now() - t0,
	       (size_t)procs * pages * (2 * passes + 3 * rounds),
	       procs * pages * (2.0 * passes + 3 * rounds) / (now() - t0),
	       !failed);
	return failed ? 1 : 0;
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int hotcold(size_t mib, unsigned int hot_pct, unsigned int hot_share,
		   size_t accesses, uint64_t seed)
{
	size_t pages = mib * (1024 * 1024 / PAGE), nhot = 0, p, i, bad = 0;
	uint64_t *mem = map_pages(pages), s = seed | 1;
	uint32_t *hot, *cold;
	uint8_t *ver;
	double t0, t1;

	/* the bookkeeping stays resident: only the region is measured */
	hot = calloc(pages, sizeof(*hot));
	cold = calloc(pages, sizeof(*cold));
	ver = calloc(pages, 1);
	if (!hot || !cold || !ver) {
		fprintf(stderr, "swapbench: out of memory\n");
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
		return 2;
	}
	t0 = now();
	for (i = 0; i < accesses; i++) {
		uint64_t r = rng(&s);

		if (r % 100 < hot_share)
			p = hot[(r >> 8) % nhot];
		else
			p = cold[(r >> 8) % (pages - nhot)];
		if (!good(mem + p * WORDS, value(7, p, ver[p])))
			bad++;
		if (((r >> 40) & 3) == 0)
			put(mem + p * WORDS, value(7, p, ++ver[p]));
	}
	t1 = now();
	for (p = 0; p < pages; p++)
		bad += !good(mem + p * WORDS, value(7, p, ver[p]));
	printf("workload=hotcold mib=%zu hot_pct=%u hot_share=%u seconds=%.3f accesses=%zu aps=%.0f bad=%zu verified=%d\n",
	       mib, hot_pct, hot_share, t1 - t0, accesses,
	       accesses / (t1 - t0), bad, !bad);
	return bad ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: swapbench pressure PROCS MIB_TOTAL PASSES\n"
		"       swapbench hotcold MIB HOT_PCT HOT_SHARE ACCESSES [SEED]\n"
		"       swapbench aged PROCS MIB_TOTAL ROUNDS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && !strcmp(argv[1], "pressure"))
		return run_procs(atoi(argv[2]), strtoul(argv[3], NULL, 0),
				 atoi(argv[4]), 0, "pressure");
	if (argc == 5 && !strcmp(argv[1], "aged"))
		return run_procs(atoi(argv[2]), strtoul(argv[3], NULL, 0),
				 1, atoi(argv[4]), "aged");
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "hotcold"))
		return hotcold(strtoul(argv[2], NULL, 0), atoi(argv[3]),
			       atoi(argv[4]), strtoul(argv[5], NULL, 0),
			       argc == 7 ? strtoull(argv[6], NULL, 0) : 42);
	usage();
	return 2;
}
