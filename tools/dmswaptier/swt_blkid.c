// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmswaptier: tier signatures with libblkid (swt_blkid.h), tested on the
 * host on image files (tests/tool/test_blkid.c).
 */
#include "swt_blkid.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int swt_tier_signature(const char *path, char *what, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int ret;

	if (fd < 0) {
		snprintf(what, len, "cannot probe it: %s", strerror(errno));
		return -1;
	}
	ret = swt_tier_signature_fd(fd, what, len);
	close(fd);
	return ret;
}

int swt_tier_signature_fd(int fd, char *what, size_t len)
{
	const char *type = NULL, *pttype = NULL;
	blkid_probe pr;
	int rc, ret;

	errno = 0;
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		snprintf(what, len, "cannot probe it: %s",
			 strerror(errno ? errno : EIO));
		blkid_free_probe(pr);
		return -1;
	}
	if (blkid_probe_enable_superblocks(pr, 1) ||
	    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE) ||
	    blkid_probe_enable_partitions(pr, 1) ||
	    blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC)) {
		blkid_free_probe(pr);
		snprintf(what, len, "cannot probe it (libblkid)");
		return -1;
	}
	rc = blkid_do_safeprobe(pr);
	if (rc == 1) {
		ret = 0;		/* no signature */
	} else if (rc == -2) {
		snprintf(what, len, "more than one signature");
		ret = 1;
	} else if (rc) {
		snprintf(what, len, "cannot probe it: %s",
			 strerror(errno ? errno : EIO));
		ret = -1;
	} else {
		blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
		blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
		ret = 1;
		if (type && strcmp(type, "swap"))
			snprintf(what, len, "%s", type);
		else if (pttype)
			snprintf(what, len, "a %s partition table", pttype);
		else if (type)
			ret = 0;	/* swap: see swt_blkid.h */
		else
			snprintf(what, len, "a signature of unknown type");
	}
	blkid_free_probe(pr);
	return ret;
}
