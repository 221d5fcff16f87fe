#!/bin/bash
# timeout: 300
# disks: a=ssd b=hdd
# A tier that starts failing (dm-linear shim swapped for dm-error): I/O to
# its blocks fails with EIO, blocks on the other tier still read back, a
# failed write keeps the block's previous contents. Then a first tier that
# fails writes (as zram does at its mem_limit): a one-block write it fails
# is written to the next tier instead, and the tier shows state R.
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

# --- tier 0 fails writes: they go to tier 1 (target 1.5.0)
as=$(blockdev --getsz "$A")
dmsetup create shim0 --table "0 $as linear $A 0" || die "cannot create shim0"
swt_create tr "$(swt_max_len /dev/mapper/shim0 "$B")" /dev/mapper/shim0 "$B" -- \
	migration off || die "cannot create over shim0"
head -c $((4 * 4096)) /dev/urandom >/tmp/tr.data
dd if=/tmp/tr.data of=/dev/mapper/tr bs=4k count=1 seek=3 oflag=direct status=none ||
	die "first write"
check refuse/on-tier0 test "$(dmsetup message tr 0 map 3 1 | cut -d' ' -f3)" = 0
dmsetup suspend shim0 && dmsetup reload shim0 --table "0 $as error" &&
	dmsetup resume shim0 || die "cannot swap in dm-error under tier 0"
# a one-block write to a block that tier 0 would take
check refuse/write-ok dd if=/tmp/tr.data of=/dev/mapper/tr bs=4k skip=1 seek=5 count=1 \
	oflag=direct status=none
check refuse/on-tier1 test "$(dmsetup message tr 0 map 5 1 | cut -d' ' -f3)" = 1
dd if=/dev/mapper/tr of=/tmp/tr.blk bs=4k skip=5 count=1 iflag=direct status=none
check refuse/reads-back cmp -s /tmp/tr.blk <(dd if=/tmp/tr.data bs=4k skip=1 count=1 status=none)
check refuse/counted test "$(swt_tier_stat tr 0 refused)" -ge 1
check refuse/errors-counted test "$(swt_tier_stat tr 0 errors)" -ge 1
check refuse/state-R test "$(swt_stat tr tier_state)" = R-
# while tier 0 refuses, new writes go straight to tier 1
dd if=/tmp/tr.data of=/dev/mapper/tr bs=4k skip=2 seek=9 count=2 oflag=direct status=none
check refuse/next-writes-tier1 test "$(dmsetup message tr 0 map 9 1 | cut -d' ' -f3)" = 1
check refuse/tier1-no-errors test "$(swt_tier_stat tr 1 errors)" = 0
check refuse/still-rw test "$(swt_stat tr mode)" = rw
check refuse/map-consistent swt_check_map tr
# without discards the refusal ends after a whole heat period (target
# 1.6.0); tier 0 still fails, so the next write starts a new one
dmsetup message tr 0 set heat_period 100 || die "cannot set heat_period"
check refuse/ends-by-aging poll '[ "$(swt_stat tr tier_state)" = -- ]' 20
r=$(swt_tier_stat tr 0 refused)
check refuse/again-write-ok dd if=/tmp/tr.data of=/dev/mapper/tr bs=4k skip=3 seek=12 count=1 \
	oflag=direct status=none
check refuse/again-counted test "$(swt_tier_stat tr 0 refused)" -gt "$r"
dd if=/dev/mapper/tr of=/tmp/tr.blk bs=4k skip=12 count=1 iflag=direct status=none
check refuse/again-reads-back cmp -s /tmp/tr.blk <(dd if=/tmp/tr.data bs=4k skip=3 count=1 status=none)
check refuse/again-map-consistent swt_check_map tr
dmsetup remove tr
dmsetup remove shim0
