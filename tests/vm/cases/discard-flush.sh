#!/bin/bash
# timeout: 300
# debug-lane: full
# disks: a=ssd b=hdd
# Discards unmap whole blocks (reads give zeros, other blocks intact), are
# passed down to a tier that supports them, and flushes reach every tier.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B
swt_create dc "$(swt_max_len "$A" "$B")" "$A" "$B" -- discard_passdown || die "cannot create"
dm=$(dmsetup info -c --noheadings -o blkdevname dc)
check discard-limits test "$(cat "/sys/block/$dm/queue/discard_granularity")" = 4096
check discard-max test "$(cat "/sys/block/$dm/queue/discard_max_bytes")" -gt 0
head -c $((4096 * 4096)) /dev/urandom >/tmp/dc.data
dd if=/tmp/dc.data of=/dev/mapper/dc bs=1M oflag=direct status=none || die "write"
# discard blocks 100..355 and 2000..2063; zero-out (write zeroes) 3000..3015
blkdiscard -o $((100 * 4096)) -l $((256 * 4096)) /dev/mapper/dc
blkdiscard -o $((2000 * 4096)) -l $((64 * 4096)) /dev/mapper/dc
blkdiscard -z -o $((3000 * 4096)) -l $((16 * 4096)) /dev/mapper/dc 2>/dev/null ||
	blkdiscard -o $((3000 * 4096)) -l $((16 * 4096)) /dev/mapper/dc
cp /tmp/dc.data /tmp/dc.want
for r in "100 256" "2000 64" "3000 16"; do
	set -- $r
	dd if=/dev/zero of=/tmp/dc.want bs=4k seek=$1 count=$2 conv=notrunc status=none
done
dd if=/dev/mapper/dc of=/tmp/dc.back bs=1M count=16 iflag=direct status=none
check reads-zeros-elsewhere-intact cmp -s /tmp/dc.want /tmp/dc.back
check unmapped test "$(dmsetup message dc 0 map 100 256)" = "100 256 - -"
check mapped-count test "$(swt_stat dc mapped)" = $((4096 - 256 - 64 - 16))
poll '[ "$(swt_stat dc trims)" -gt 0 ] 2>/dev/null' 20
check passdown test "$(swt_stat dc trims)" -gt 0
# no freed block waits: for reads in flight, for the worker, for a discard
poll '[ "$(swt_stat dc pending ready trimming)" = "0 0 0" ]' 20
check freed-reusable test "$(swt_stat dc pending ready trimming)" = "0 0 0"
check map-consistent swt_check_map dc

# flush: an fsync of the dm device reaches every tier
flushes() { awk '{print $16}' "/sys/block/$(basename "$(readlink -f "$1")")/stat"; }
fa=$(flushes "$A") fb=$(flushes "$B")
dd if=/dev/zero of=/dev/mapper/dc bs=4k count=1 conv=fsync status=none
check flush-tier0 test "$(flushes "$A")" -gt "$fa"
check flush-tier1 test "$(flushes "$B")" -gt "$fb"
dmsetup remove dc
