// SPDX-License-Identifier: GPL-2.0-only
/*
 * memhog: several processes each fill anonymous memory with a pattern that
 * is unique per process, page and pass, then read every page back and
 * check it. Together they touch more than RAM, so the pages go out to swap
 * and come back. Exit 0 only if every page of every process verified.
 *
 *   memhog PROCS MIB_PER_PROC PASSES [aged]
 *
 * aged: after each pass, every process frees a scattered half of its pages
 * (their swap slots are freed with them, leaving the swap area fragmented)
 * and touches a second region of half the size, whose pages must find new
 * swap space; the freed pages must read back as zeros.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096UL

static uint64_t pattern(unsigned int proc, size_t page, unsigned int pass)
{
	uint64_t v = ((uint64_t)proc << 48) ^ ((uint64_t)pass << 40) ^ page;

	return v * 0x9e3779b97f4a7c15ULL + 1;
}

static void fill(uint64_t *mem, size_t pages, unsigned int proc,
		 unsigned int pass)
{
	size_t p, w;
	uint64_t v;

	for (p = 0; p < pages; p++) {
		v = pattern(proc, p, pass);
		for (w = 0; w < PAGE / 8; w += 64)
			mem[p * (PAGE / 8) + w] = v + w;
	}
}

/* Pages freed by the aged mode (odd hash) must read as zeros. */
static int freed(size_t p, unsigned int pass)
{
	return ((p * 2654435761U) >> 7 ^ pass) & 1;
}

static size_t verify(const uint64_t *mem, size_t pages, unsigned int proc,
		     unsigned int pass, int aged)
{
	size_t p, w, bad = 0;
	uint64_t v;

	for (p = 0; p < pages; p++) {
		int zero = aged && freed(p, pass);

		v = pattern(proc, p, pass);
		for (w = 0; w < PAGE / 8; w += 64)
			if (mem[p * (PAGE / 8) + w] != (zero ? 0 : v + w)) {
				bad++;
				break;
			}
	}
	return bad;
}

static int hog(unsigned int proc, size_t mib, unsigned int passes, int aged)
{
	size_t pages = mib * (1024 * 1024 / PAGE), p, bad = 0;
	size_t half = pages / 2;
	unsigned int pass;
	uint64_t *mem, *more = NULL;

	mem = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (aged)
		more = mmap(NULL, half * PAGE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || more == MAP_FAILED) {
		perror("memhog: mmap");
		return 2;
	}
	for (pass = 0; pass < passes; pass++) {
		fill(mem, pages, proc, pass);
		if (aged) {
			for (p = 0; p < pages; p++)
				if (freed(p, pass))
					madvise((char *)mem + p * PAGE, PAGE,
						MADV_DONTNEED);
			fill(more, half, proc + 1000, pass);
			bad += verify(more, half, proc + 1000, pass, 0);
		}
		bad += verify(mem, pages, proc, pass, aged);
	}
	printf("memhog[%u]: %zu pages x %u passes, %zu bad pages\n", proc,
	       pages, passes, bad);
	fflush(stdout);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned int procs, passes, i, failed = 0;
	int status, aged;
	size_t mib;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: memhog PROCS MIB_PER_PROC PASSES [aged]\n");
		return 2;
	}
	aged = argc == 5;
	procs = atoi(argv[1]);
	mib = strtoul(argv[2], NULL, 0);
	passes = atoi(argv[3]);
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("memhog: fork");
			return 2;
		}
		if (pid == 0) {
			fflush(stdout);
			_exit(hog(i, mib, passes, aged));
		}
	}
	for (i = 0; i < procs; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed++;
	}
	printf("memhog: %u processes, %u failed\n", procs, failed);
	return failed ? 1 : 0;
}
