#!/bin/bash
# timeout: 900
# disks: a=ssd b=hdd c=hdd d=hdd
# fio with crc32c verification: random 4k-256k writes and overwrites, then
# trim-then-write of the same blocks (discards racing writes), on a 2-tier
# and a 3-tier device whose fast tier is smaller than the data.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B C=$SWT_DISK_C D=$SWT_DISK_D

swt_create f2 "$(swt_max_len "$A" "$B")" "$A" "$B" || die "cannot create f2"
fio_verify two-tiers /dev/mapper/f2 40M 2
fio_verify two-tiers-trimwrite /dev/mapper/f2 24M 2 --rw=randtrimwrite --bs=16k --loops=1
check two-tiers/map-consistent swt_check_map f2
check two-tiers/spilled test "$(swt_tier_stat f2 1 mapped)" -gt 0
check two-tiers/no-errors test "$(swt_tier_stat f2 0 errors)$(swt_tier_stat f2 1 errors)" = 00
dmsetup remove f2

swt_create f3 "$(swt_max_len "$A" "$C" "$D")" "$A" "$C" "$D" -- discard_passdown ||
	die "cannot create f3"
fio_verify three-tiers /dev/mapper/f3 30M 3
fio_verify three-tiers-trimwrite /dev/mapper/f3 16M 3 --rw=randtrimwrite --bs=4k --loops=1
check three-tiers/map-consistent swt_check_map f3
dmsetup remove f3
