/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dmswaptier: the configuration file of "activate" and "deactivate"
 * (/etc/dmswaptier.conf, dmswaptier(8)): one section per device,
 *
 *	[swap0]
 *	tiers = /dev/disk/by-id/nvme-A /dev/disk/by-id/ata-B
 *	size = 8G
 *	options = discard_passdown demote_heat=1
 *	priority = 10
 *	discard = yes
 *	wait = 30
 *	force = no
 *
 * Blank lines and lines starting with # or ; are comments; a comment after
 * a value is an error, as is a key given twice in a section, or a tier
 * path given twice in a section (two paths of one device are found by
 * activate: swt_tier_clash).
 */
#ifndef SWT_CONF_H
#define SWT_CONF_H

#include "dm-swaptier-abi.h"

#include <stdbool.h>
#include <stddef.h>

#define SWT_CONF_MAX_DEVS	16
#define SWT_CONF_MAX_OPTS	32
#define SWT_CONF_WORD		256
#define SWT_CONF_NKEYS		7	/* tiers ... force */

struct swt_conf_dev {
	char name[128];
	unsigned int line;		/* of its [name] */
	unsigned int ntiers;
	char tier[SWT_MAX_TIERS][SWT_CONF_WORD];
	char size[32];			/* "" for the most the tiers hold */
	unsigned long long size_bytes;	/* of size, 0 if "" */
	unsigned int nopts;
	char opt[SWT_CONF_MAX_OPTS][SWT_CONF_WORD];
	bool has_priority;		/* false: swapon's default */
	int priority;			/* -1..32767, as swapon takes it */
	bool discard;			/* swapon --discard (default yes) */
	unsigned int wait;		/* seconds a missing tier is waited for */
	bool force;			/* tiers with a signature are used */
	unsigned int key_line[SWT_CONF_NKEYS];	/* where given, 0: not */
};

/* wait = SECONDS: how long activate waits for a tier path to appear */
#define SWT_CONF_WAIT_DEFAULT	30
#define SWT_CONF_WAIT_MAX	60

/* swapon's range of priorities (-1: the kernel's default). */
#define SWT_CONF_PRIO_MIN	(-1)
#define SWT_CONF_PRIO_MAX	32767

struct swt_conf {
	unsigned int ndevs;
	struct swt_conf_dev dev[SWT_CONF_MAX_DEVS];
};

/*
 * Parse the text @buf (from file @file, for messages) into @c, checking
 * every value as create would (size, options, the table line's length)
 * and the priority's range, so that a mistake is found here, before any
 * device is made. Returns 0, or -1 with "FILE:LINE: why" in @err.
 */
int swt_conf_parse(const char *file, const char *buf, struct swt_conf *c,
		   char *err, size_t errlen);

/*
 * A tier as activate resolved it (stat of its path, a block device): its
 * device number, the section it is a tier of, and its path in the file.
 */
struct swt_tier_use {
	unsigned int major, minor;
	const char *name;
	const char *path;
};

/*
 * Two tiers that are one device would both be written as swap (the
 * device-mapper lets any number of its tables share a device). Is one of
 * the @n tiers @t of a section the same device as another of them, or as
 * one of the @nused tiers @used that the sections before it claimed?
 * Returns 0; 1 (within the section) or 2 (with an earlier section) with
 * a sentence naming both paths and the device in @why.
 */
int swt_tier_clash(const struct swt_tier_use *used, unsigned int nused,
		   const struct swt_tier_use *t, unsigned int n, char *why,
		   size_t len);

#endif
