#!/bin/bash
# timeout: 300
# debug-lane: full
# disks: a=ssd b=hdd
# Writes fill tier 0 first, consecutively; the next ones land on tier 1.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B
t0=$(dev_blocks "$A")
# migration off: this case checks where writes land, not where they move
swt_create sp "$(swt_max_len "$A" "$B")" "$A" "$B" -- migration off || die "cannot create"
head -c $(((t0 + 1024) * 4096)) /dev/urandom >/tmp/spill.data
dd if=/tmp/spill.data of=/dev/mapper/sp bs=1M oflag=direct status=none ||
	die "write failed"
map=$(dmsetup message sp 0 map 0 $((t0 + 2048)))
echo "$map" | sed 's/^/# map: /'
check tier0-first test "$(echo "$map" | sed -n 1p)" = "0 $t0 0 0"
check then-tier1 test "$(echo "$map" | sed -n 2p)" = "$t0 1024 1 0"
check rest-unmapped test "$(echo "$map" | sed -n 3p)" = "$((t0 + 1024)) 1024 - -"
check tier0-full test "$(swt_tier_stat sp 0 mapped)" = "$t0"
dd if=/dev/mapper/sp of=/tmp/spill.back bs=1M count=$(((t0 + 1024) / 256)) iflag=direct status=none
check data-back cmp -s /tmp/spill.data /tmp/spill.back
# unmapped blocks read as zeros
check zeros bash -c "dd if=/dev/mapper/sp bs=4k skip=$((t0 + 1024)) count=16 iflag=direct status=none | cmp -s - <(head -c 65536 /dev/zero)"
# an overwrite of a tier-0 block gets a new block: tier 0 is full, so tier 1
dd if=/dev/zero of=/dev/mapper/sp bs=4k count=1 seek=5 oflag=direct status=none
check overwrite-moves test "$(dmsetup message sp 0 map 5 1)" = "5 1 1 1024"
check map-consistent swt_check_map sp
check bad-message-range bash -c '! dmsetup message sp 0 map 0 999999999 2>/dev/null'
check bad-message-syntax bash -c '! dmsetup message sp 0 map x 1 2>/dev/null'
check unknown-message bash -c '! dmsetup message sp 0 frobnicate 2>/dev/null'
dmsetup message sp 0 clear_stats
check clear-stats test "$(swt_tier_stat sp 0 writes)" = 0
dmsetup remove sp
