#!/bin/bash
# timeout: 300
# A tier that starts failing (dm-linear shim swapped for dm-error): I/O to
# its blocks fails with EIO, blocks on the other tier still read back, a
# failed write keeps the block's previous contents.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
swt_modprobe dm-mod
A=$SWT_DISK_A B=$SWT_DISK_B
bs=$(blockdev --getsz "$B")
dmsetup create shim --table "0 $bs linear $B 0" || die "cannot create shim"
t0=$(dev_blocks "$A")
# migration off: the case needs blocks to stay where they were written
swt_create te "$(swt_max_len "$A" /dev/mapper/shim)" "$A" /dev/mapper/shim -- migration off ||
	die "cannot create"
# tier 0 full, then 1024 blocks on tier 1
head -c $(((t0 + 1024) * 4096)) /dev/urandom >/tmp/te.data
dd if=/tmp/te.data of=/dev/mapper/te bs=1M oflag=direct status=none || die "write"
check layout test "$(dmsetup message te 0 map "$t0" 1)" = "$t0 1 1 0"

dmsetup suspend shim && dmsetup reload shim --table "0 $bs error" &&
	dmsetup resume shim || die "cannot swap in dm-error"

# blocks on tier 1 fail
check tier1-read-eio bash -c "! dd if=/dev/mapper/te of=/dev/null bs=4k skip=$t0 count=1 iflag=direct status=none 2>/dev/null"
# blocks on tier 0 still verify
dd if=/dev/mapper/te of=/tmp/te.back bs=1M count=$((t0 / 256)) iflag=direct status=none
check tier0-intact cmp -s /tmp/te.back <(head -c $((t0 * 4096)) /tmp/te.data)
# an overwrite of a tier-0 block must go to tier 1 (tier 0 is full): it
# fails, and the block keeps its old contents
check write-eio bash -c "! dd if=/dev/zero of=/dev/mapper/te bs=4k seek=7 count=1 oflag=direct status=none 2>/dev/null"
dd if=/dev/mapper/te of=/tmp/te.blk bs=4k skip=7 count=1 iflag=direct status=none
check write-kept-old cmp -s /tmp/te.blk <(dd if=/tmp/te.data bs=4k skip=7 count=1 status=none)
check old-mapping test "$(dmsetup message te 0 map 7 1)" = "7 1 0 7"
check errors-counted test "$(swt_tier_stat te 1 errors)" -ge 2
check tier0-no-errors test "$(swt_tier_stat te 0 errors)" = 0
check still-rw test "$(swt_stat te mode)" = rw
check map-consistent swt_check_map te
dmsetup remove te
dmsetup remove shim
