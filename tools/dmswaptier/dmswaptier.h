/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dmswaptier: what the commands share.
 */
#ifndef DMSWAPTIER_H
#define DMSWAPTIER_H

#include "swt_parse.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <sys/types.h>

/* Exit codes: a documented contract (dmswaptier(8)). */
#define EXIT_USAGE	1
#define EXIT_DEVICE	2

/*
 * The help of @cmd (NULL: of every command): in full on stdout, else its
 * synopsis and where to find the rest.
 */
void usage(FILE *f, const char *cmd);
/* A usage error: the message, the help of @cmd on stderr, exit 1. */
noreturn void usage_error(const char *cmd, const char *fmt, ...);
/* Does @argv hold -h or --help? */
bool want_help(int argc, char **argv);

/* The table of @name, which must be a dm-swaptier device, or exit 2. */
void get_table(const char *name, struct swt_table *t);
/* "major:minor" -> "/dev/NAME" from sysfs, or the input if unknown. */
void dev_name(const char *mm, char *buf, size_t len);

/*
 * Run @argv (no shell) in directory @dir (NULL: here), with standard input
 * from @in and standard output to @out (-1: inherited; -2: /dev/null),
 * standard error to /dev/null if @quiet. Returns the child, or -1.
 */
pid_t swt_spawn(char *const argv[], const char *dir, int in, int out,
		bool quiet);
/* Wait for @pid: its exit status, or -1 if it did not exit. */
int swt_wait(pid_t pid);

int cmd_trace(int argc, char **argv);

#endif
