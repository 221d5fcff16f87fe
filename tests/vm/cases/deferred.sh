#!/bin/bash
# timeout: 600
# disks: a=ssd
# A full device with a minimal reserve: overwrites at high queue depth run
# out of free blocks, wait in the deferred queue and are placed by the
# worker as blocks come back; every block verifies, nothing leaks.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A
len=$((($(dev_blocks "$A") - 16) * 8))
swt_create df "$len" "$A" -- reserve_blocks 16 frontier_blocks 8 || die "cannot create"
fio_verify full-overwrites /dev/mapper/df $((len * 512 / 2)) 2 --bsrange=4k-64k --iodepth=64
check deferred-path-used test "$(swt_stat df deferred)" -gt 0
echo "# $(swt_stat df deferred) writes waited for a free block"
check all-mapped test "$(swt_stat df mapped)" -gt $((len / 8 - 64))
check map-consistent swt_check_map df
# suspend with nothing in flight, then more overwrites after resume
dmsetup suspend df && dmsetup resume df
fio_verify after-resume /dev/mapper/df 8M 2 --bs=4k --iodepth=32 --loops=1
check map-consistent-2 swt_check_map df
dmsetup remove df
