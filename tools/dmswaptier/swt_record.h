/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dmswaptier: what "activate" made, recorded under /run/dmswaptier/NAME
 * (one file per device, gone at reboot with /run), so that "deactivate"
 * undoes that and not whatever the configuration file says by then:
 *
 *	# dmswaptier activate made this device; deactivate removes it
 *	name=swap0
 *	dev=254:0
 *	seq=12345678901
 *	config=/etc/dmswaptier.conf
 *	tier=/dev/disk/by-id/nvme-A 259:3
 *	tier=/dev/disk/by-id/ata-B 8:18
 *	table=2 259:3 8:18 1 discard_passdown
 *
 * Every function takes the directory, so that the tests use their own.
 */
#ifndef SWT_RECORD_H
#define SWT_RECORD_H

#include "swt_conf.h"
#include "swt_parse.h"

#include <stddef.h>

#define SWT_RUN_DIR	"/run/dmswaptier"

struct swt_record {
	char name[128];
	char dev[32];			/* major:minor of /dev/mapper/NAME */
	u64 seq;			/* when it was made: CLOCK_BOOTTIME ns */
	char config[1024];		/* the file it came from, "" unknown */
	unsigned int ntiers;
	char tier[SWT_MAX_TIERS][SWT_CONF_WORD];	/* paths of the file */
	char tier_dev[SWT_MAX_TIERS][32];		/* their major:minor */
	char table[SWT_TABLE_LINE_LEN];	/* as the kernel showed it */
};

/*
 * Each returns 0, or -1 with a sentence in @err (@errlen bytes).
 * swt_record_write makes @dir if need be and replaces DIR/NAME whole (a
 * temporary file renamed over it).
 */
int swt_record_write(const char *dir, const struct swt_record *r, char *err,
		     size_t errlen);
/* Also 1 when there is no record of @name. */
int swt_record_read(const char *dir, const char *name, struct swt_record *r,
		    char *err, size_t errlen);
/* No record of @name is not an error. */
int swt_record_remove(const char *dir, const char *name, char *err,
		      size_t errlen);
/*
 * Every record of @dir (none if @dir does not exist) in *@recs (malloc'ed,
 * *@n of them; free it), the latest made first: the order to undo them in.
 * Returns 1 when a file of @dir is not a record: @err names the last one,
 * and the others are listed all the same; -1 (nothing listed) when @dir
 * cannot be read.
 */
int swt_record_list(const char *dir, struct swt_record **recs, size_t *n,
		    char *err, size_t errlen);

#endif
