// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmswaptier trace: blktrace the tiers of a device, or read blkparse
 * output, and report how its requests merged. blktrace, blkparse and
 * gnuplot run from an argument vector, never through a shell.
 */
#include "dmswaptier.h"
#include "swt_cols.h"

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static double ratio(u64 a, u64 b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* Upper bound of histogram bucket @b, KiB (the last: more than this). */
static unsigned long long bucket_kib(size_t b)
{
	return b + 1 < SWT_HIST_BUCKETS ? 4ULL << b : 4ULL << (b - 1);
}

static void report_json(struct swt_trace_dev *dev, size_t d, bool first)
{
	static const char *const dirs[] = { "read", "write" };
	struct swt_dir_stats *s = &dev->dir[d];
	u64 p50 = swt_dir_percentile(s, 50) / 2;
	u64 p90 = swt_dir_percentile(s, 90) / 2;
	size_t b;

	printf("%s{\"device\": ", first ? "" : ", ");
	swt_json_str(stdout, dev->dev);
	printf(", \"dir\": \"%s\", \"queued\": %llu, \"merged\": %llu",
	       dirs[d], s->queued, s->merged);
	printf(", \"dispatched\": %llu, \"dispatched_sectors\": %llu",
	       s->dispatched, s->dispatched_sectors);
	printf(", \"avg_kib\": %.1f, \"p50_kib\": %llu, \"p90_kib\": %llu",
	       ratio(s->dispatched_sectors, s->dispatched) / 2, p50, p90);
	printf(", \"merge_ratio\": %.2f, \"hist\": [",
	       ratio(s->queued, s->dispatched));
	for (b = 0; b < SWT_HIST_BUCKETS; b++)
		printf("%s%llu", b ? ", " : "", s->hist[b]);
	printf("]}");
}

static void report_human(struct swt_trace_dev *dev, size_t d)
{
	static const char *const dirs[] = { "read", "write" };
	static const char bar[] =
		"##################################################";
	struct swt_dir_stats *s = &dev->dir[d];
	size_t b;

	printf("%-8s %-5s queued %8llu  merged %8llu  dispatched %8llu",
	       dev->dev, dirs[d], s->queued, s->merged, s->dispatched);
	printf("  avg %7.1f KiB  p50 %5llu KiB  p90 %5llu KiB  merge ratio %.2f\n",
	       ratio(s->dispatched_sectors, s->dispatched) / 2,
	       swt_dir_percentile(s, 50) / 2, swt_dir_percentile(s, 90) / 2,
	       ratio(s->queued, s->dispatched));
	if (!s->dispatched)
		return;
	for (b = 0; b < SWT_HIST_BUCKETS; b++)
		printf("    %s %4llu KiB %8llu %.*s\n",
		       b + 1 < SWT_HIST_BUCKETS ? "<=" : "> ", bucket_kib(b),
		       s->hist[b], (int)(50 * s->hist[b] / s->dispatched), bar);
}

static void trace_report(struct swt_trace *t, bool json)
{
	size_t i, d;

	if (json)
		printf("[");
	for (i = 0; i < t->ndevs; i++)
		for (d = 0; d < 2; d++) {
			if (json)
				report_json(&t->devs[i], d, !i && !d);
			else
				report_human(&t->devs[i], d);
		}
	if (json)
		printf("]\n");
}

/* @s in a gnuplot string in single quotes (a quote is doubled). */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* @name (ending in XXXXXX) in $TMPDIR, else /tmp. */
static void tmp_path(char *buf, size_t len, const char *name)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || *tmp != '/' ||
	    (size_t)snprintf(buf, len, "%s/%s", tmp, name) >= len)
		snprintf(buf, len, "/tmp/%s", name);
}

/* The --plot data file, removed however the tool exits. */
static char plot_data[PATH_MAX];

static void remove_plot_data(void)
{
	if (*plot_data)
		unlink(plot_data);
}

/* --plot: the dispatched-size histograms as a PNG bar chart (gnuplot). */
static void trace_plot(struct swt_trace *t, const char *png)
{
	char *data = plot_data;
	size_t i, d, b, col = 2;
	char *argv[2];
	int fd, pipefd[2], bad;
	FILE *f, *g;
	pid_t pid;

	tmp_path(data, sizeof(plot_data), "dmswaptier-plot.XXXXXX");
	fd = mkstemp(data);
	if (fd < 0) {
		*data = 0;
		err(EXIT_DEVICE, "--plot: cannot make a temporary file");
	}
	atexit(remove_plot_data);
	f = fdopen(fd, "w");
	if (!f)
		err(EXIT_DEVICE, "--plot: cannot write a temporary file");
	fprintf(f, "size");
	for (i = 0; i < t->ndevs; i++)
		for (d = 0; d < 2; d++)
			fprintf(f, "\t\"%s %s\"", t->devs[i].dev,
				d ? "write" : "read");
	fprintf(f, "\n");
	for (b = 0; b < SWT_HIST_BUCKETS; b++) {
		fprintf(f, "%s%llu", b + 1 < SWT_HIST_BUCKETS ? "" : ">",
			bucket_kib(b));
		for (i = 0; i < t->ndevs; i++)
			for (d = 0; d < 2; d++)
				fprintf(f, "\t%llu",
					t->devs[i].dir[d].hist[b]);
		fprintf(f, "\n");
	}
	bad = ferror(f);
	if (fclose(f) || bad)
		err(EXIT_DEVICE, "--plot: cannot write %s", data);
	argv[0] = "gnuplot";
	argv[1] = NULL;
	if (pipe2(pipefd, O_CLOEXEC))
		err(EXIT_DEVICE, "--plot: pipe");
	/* gnuplot gone (missing, or failed early): EPIPE, not death */
	signal(SIGPIPE, SIG_IGN);
	pid = swt_spawn(argv, NULL, pipefd[0], -1, false);
	close(pipefd[0]);
	if (pid < 0) {
		close(pipefd[1]);
		err(EXIT_DEVICE, "--plot: cannot run gnuplot");
	}
	g = fdopen(pipefd[1], "w");
	if (!g) {
		close(pipefd[1]);
		swt_wait(pid);
		err(EXIT_DEVICE, "--plot: cannot run gnuplot");
	}
	fputs("set terminal png size 1000,560\nset output ", g);
	gp_str(g, png);
	fputs("\n"
	      "set title 'Requests dispatched to each tier, by size'\n"
	      "set xlabel 'request size (KiB, at most)'\n"
	      "set ylabel 'requests'\n"
	      "set style data histograms\n"
	      "set style histogram clustered\n"
	      "set style fill solid 0.8\n"
	      "set key autotitle columnhead\n"
	      "set logscale y\n"
	      "set yrange [0.8:*]\n"
	      "plot ", g);
	for (i = 0; i < 2 * t->ndevs; i++, col++) {
		fputs(i ? ", " : "", g);
		gp_str(g, data);
		fprintf(g, " using %zu:xtic(1)", col);
	}
	fputc('\n', g);
	bad = ferror(g);
	if (fclose(g))
		bad = 1;
	/* a failed write is gnuplot's failure: say that */
	if (swt_wait(pid) || bad)
		errx(EXIT_DEVICE,
		     "--plot: gnuplot failed (is gnuplot-nox installed?)");
	signal(SIGPIPE, SIG_DFL);
}

/* 0, -1 out of memory, -2 a read error (errno says which). */
static int analyse_file(struct swt_trace *t, FILE *f)
{
	char line[1024];

	while (fgets(line, sizeof(line), f))
		if (swt_trace_line(t, line))
			return -1;
	return ferror(f) ? -2 : 0;
}

/* Remove every file of @dir, then @dir. */
static void remove_dir(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *dp = opendir(dir);

	while (dp && (e = readdir(dp)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (dp)
		closedir(dp);
	rmdir(dir);
}

/* Run blkparse on the trace stream in file @path into @t. */
static int parse_trace(struct swt_trace *t, const char *path)
{
	char *argv[5];
	int pipefd[2], in, rc;
	pid_t pid;
	FILE *f;

	argv[0] = "blkparse";
	argv[1] = "-q";
	argv[2] = "-i";
	argv[3] = "-";
	argv[4] = NULL;
	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	if (pipe2(pipefd, O_CLOEXEC)) {
		close(in);
		return -1;
	}
	pid = swt_spawn(argv, NULL, in, pipefd[1], true);
	close(in);
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		return -1;
	}
	f = fdopen(pipefd[0], "r");
	if (!f) {
		close(pipefd[0]);
		swt_wait(pid);
		return -1;
	}
	rc = analyse_file(t, f);
	fclose(f);
	return swt_wait(pid) || rc ? -1 : 0;
}

/*
 * blktrace every tier of @name for @seconds, then parse what it wrote.
 * blktrace writes one stream (-o -) to a file: given an output file of its
 * own, it would map and mlock 16 of its relay buffers per tier and CPU
 * (8 MiB each by default), memory taken from the swapping machine being
 * measured.
 */
static void trace_device(struct swt_trace *t, const char *name, int seconds)
{
	char dir[PATH_MAX], secs[16], path[PATH_MAX + 16];
	char dn[SWT_MAX_TIERS][160], *argv[10 + 2 * SWT_MAX_TIERS];
	struct sigaction sa = { .sa_handler = SIG_IGN }, old;
	struct swt_table tb;
	unsigned int i, k = 0;
	struct stat st;
	int out, rc;
	pid_t pid;

	get_table(name, &tb);
	tmp_path(dir, sizeof(dir), "dmswaptier-trace.XXXXXX");
	if (!mkdtemp(dir))
		err(EXIT_DEVICE, "cannot make a temporary directory");
	snprintf(path, sizeof(path), "%s/trace", dir);
	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0) {
		remove_dir(dir);
		err(EXIT_DEVICE, "cannot make a temporary file");
	}
	snprintf(secs, sizeof(secs), "%d", seconds);
	argv[k++] = "timeout";
	argv[k++] = "--foreground";	/* blktrace gets the terminal's ^C */
	argv[k++] = "--preserve-status";	/* blktrace's own exit status */
	argv[k++] = "-s";
	argv[k++] = "INT";
	argv[k++] = secs;
	argv[k++] = "blktrace";
	argv[k++] = "-o";
	argv[k++] = "-";
	for (i = 0; i < tb.nr_tiers; i++) {
		dev_name(tb.tier[i], dn[i], sizeof(dn[i]));
		argv[k++] = "-d";
		argv[k++] = dn[i];
	}
	argv[k] = NULL;
	/*
	 * Ctrl-C ends the trace early, not the tool: blktrace (SIGINT
	 * default again in the child) stops cleanly on it, and what it
	 * wrote is parsed and removed as ever. Ignored until then: a ^C
	 * while blkparse runs fails the parse, which cleans up too.
	 */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	pid = swt_spawn(argv, dir, -1, out, true);
	close(out);
	if (pid < 0) {
		sigaction(SIGINT, &old, NULL);
		remove_dir(dir);
		err(EXIT_DEVICE, "cannot run blktrace");
	}
	/*
	 * A trace that started holds at least the kernel's start note;
	 * blktrace exits 0 also when it could not start (a device traced
	 * already), with nothing written.
	 */
	rc = swt_wait(pid);
	if (rc || stat(path, &st) || !st.st_size || parse_trace(t, path)) {
		remove_dir(dir);
		errx(EXIT_DEVICE, "%s: blktrace failed (debugfs mounted? root?)",
		     name);
	}
	remove_dir(dir);
	sigaction(SIGINT, &old, NULL);
}

int cmd_trace(int argc, char **argv)
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
	int c, i, rc, seconds = 10;
	u64 num;

	while ((c = getopt_long(argc, argv, "as:jp:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			analyse = true;
			break;
		case 'p':
			plot = optarg;
			break;
		case 's':
			if (swt_parse_num(optarg, INT_MAX, &num) || !num)
				usage_error("trace",
					    "trace: --seconds needs a positive number, not '%s'",
					    optarg);
			seconds = (int)num;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout, "trace");
			return 0;
		default:
			usage_error("trace", NULL);
		}
	}
	if (analyse && optind == argc)
		usage_error("trace",
			    "trace --analyse: give blkparse output files (or -)");
	if (!analyse && argc - optind != 1)
		usage_error("trace", "trace: give exactly one device name");
	for (i = optind; analyse && i < argc; i++) {
		FILE *f = strcmp(argv[i], "-") ? fopen(argv[i], "r") : stdin;

		if (!f)
			err(EXIT_DEVICE, "%s", argv[i]);
		rc = analyse_file(&t, f);
		if (rc == -2)
			err(EXIT_DEVICE, "%s: read error", argv[i]);
		if (rc)
			errx(EXIT_DEVICE, "out of memory");
		if (f != stdin)
			fclose(f);
	}
	if (!analyse)
		trace_device(&t, argv[optind], seconds);
	if (!t.ndevs)
		errx(EXIT_DEVICE, "trace: no block I/O events in the input");
	trace_report(&t, json);
	if (plot)
		trace_plot(&t, plot);
	swt_trace_free(&t);
	return 0;
}
