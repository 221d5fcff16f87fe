/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dmswaptier: what a tier device holds before activate uses it, by
 * libblkid's probe (superblocks and partition tables).
 */
#ifndef SWT_BLKID_H
#define SWT_BLKID_H

#include <stddef.h>

/*
 * Does @path carry a signature of something that holds data: a
 * filesystem, an LVM physical volume, a RAID member, an encrypted volume,
 * a partition table? A swap signature does not count: the first tier of
 * a dm-swaptier device that was swapped on before shows mkswap's header,
 * which lands on the first block written. Returns 0 (nothing, or swap),
 * 1 with what it holds in @what ("ext4", "LVM2_member", "a dos partition
 * table", "more than one signature"), or -1 when it cannot be probed, with
 * the reason in @what.
 */
int swt_tier_signature(const char *path, char *what, size_t len);
/* The same of the device open as @fd (activate's: resolved once). */
int swt_tier_signature_fd(int fd, char *what, size_t len);

#endif
