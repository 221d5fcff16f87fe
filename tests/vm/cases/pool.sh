#!/bin/bash
# timeout: 300
# disks: a=ssd b=hdd c=hdd d=hdd
# Which map a reloaded table gets, and when it may switch (review items
# 1, 2, 3, 5 and 7 of issue 15). The data written must read back after
# every sequence; a resume that would lose it is refused and the previous
# table brings it back; no sequence leaves the device suspended when it can
# go live safely.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B C=$SWT_DISK_C D=$SWT_DISK_D
len=$((32 << 11))	# 32 MiB: tier 0 (64 MiB) alone can hold it all
head -c $((1 << 20)) /dev/urandom >/tmp/pool.data
put() { dd if=/tmp/pool.data of="/dev/mapper/$1" bs=1M oflag=direct status=none; }
same() { cmp -s /tmp/pool.data <(dd if="/dev/mapper/$1" bs=1M count=1 iflag=direct status=none); }
active() { dmsetup info "$1" | grep -q '^State: *ACTIVE'; }
resume_fails() {	# NAME SUB WANT: resume is refused with WANT in the log
	dmesg_mark
	if dmsetup resume "$1" 2>/dev/null; then
		nok "$2" "resume accepted"
	elif dmesg_new | grep -q -- "$3"; then
		ok "$2"
	else
		nok "$2" "refused without '$3': $(dmesg_new | grep swaptier | tail -n 1)"
	fi
}

# 1. A reload over other tiers, writes on the live table, then a reload
# identical to the live one: that table must find the live map (the other
# table's pool must not hide it).
swt_create p1 "$len" "$A" "$B" || die "cannot create p1"
dmsetup reload p1 --table "0 $len swaptier 2 $A $C" || nok other-tiers-load "refused while empty"
put p1
dmsetup reload p1 --table "0 $len swaptier 2 $A $B" || nok same-tiers-load "refused"
check same-tiers-resume dmsetup resume p1
check data-after-reload-back same p1
check map-after-reload-back swt_check_map p1
dmsetup remove p1

# 2. The same, resumed with the other tiers: blocks were written after the
# load, so the resume is refused; the previous table brings the data back.
swt_create p2 "$len" "$A" "$B" || die "cannot create p2"
dmsetup reload p2 --table "0 $len swaptier 2 $A $C" || nok late-load "refused while empty"
put p2
resume_fails p2 written-after-load "blocks were written after the load"
check previous-table-load dmsetup reload p2 --table "0 $len swaptier 2 $A $B"
check previous-table-resume dmsetup resume p2
check data-after-refused-resume same p2
# once the device is empty again, the switch goes through
check discard-all blkdiscard /dev/mapper/p2
check empty-switch bash -c "dmsetup reload p2 --table '0 $len swaptier 2 $A $C' && dmsetup resume p2"
check empty-switch-table bash -c "dmsetup table p2 | grep -q ' $(dev_mm "$C")\$'"
check empty-switch-active active p2
dmsetup remove p2

# 3. Two swaptier segments in one table would share one map (the second
# segment's blocks alias the first's) or put two allocators on one disk.
bad_table() {	# SUB TABLE
	dmesg_mark
	if printf '%b' "$2" | dmsetup create pseg >/dev/null 2>&1; then
		nok "$1" "accepted"
		dmsetup remove pseg
	elif dmesg_new | grep -q "Only one swaptier target is allowed per device"; then
		ok "$1"
	else
		nok "$1" "refused without the expected error: $(dmesg_new | grep swaptier | tail -n 1)"
	fi
}
bad_table two-segments-same-tier "0 $len swaptier 1 $B\n$len $len swaptier 1 $B\n"
bad_table two-segments-other-tiers "0 $len swaptier 1 $B\n$len $len swaptier 1 $C\n"
check one-segment-after-linear bash -c "printf '0 8 linear $D 0\n8 $len swaptier 1 $B\n' | dmsetup create pseg && dmsetup remove pseg"

# 5a. Replacing an evacuated tier and changing the length: a new map, and
# the resume must not fail on the replacement.
swt_create p5 "$len" "$A" "$B" || die "cannot create p5"
check evacuate-empty dmsetup message p5 0 evacuate 1
check replace-and-grow-load dmsetup reload p5 --table "0 $((len + 2048)) swaptier 2 $A $C"
check replace-and-grow-resume dmsetup resume p5
check replace-and-grow-active active p5
check replace-and-grow-length test "$(swt_stat p5 logical)" = $(((len + 2048) / 8))
dmsetup remove p5

# 5b. Replace an evacuated tier, then cancel the evacuation before the
# resume: the tier is still empty, so the replacement goes through.
# (<len> is larger than tier 0, which tier 1 can hold alone.)
len6=$((96 << 11))
swt_create p6 "$len6" "$A" "$B" || die "cannot create p6"
put p6
check evacuate-0 dmsetup message p6 0 evacuate 0
poll '[ "$(swt_stat p6 tier_state)" = "X-" ]' 60 || nok evacuated "states $(swt_stat p6 tier_state)"
check replace-load dmsetup reload p6 --table "0 $len6 swaptier 2 $C $B"
check cancel-before-resume dmsetup message p6 0 evacuate cancel
check replace-resume dmsetup resume p6
check replace-active active p6
check replace-table bash -c "dmsetup table p6 | grep -q '2 $(dev_mm "$C") $(dev_mm "$B")\$'"
check replace-data same p6
# the same table again (a larger device in place of a smaller one: the map
# keeps the old size) shares the map
check same-after-replace bash -c "dmsetup reload p6 --table \"$(dmsetup table p6)\" && dmsetup resume p6"
check same-after-replace-data same p6
# ... but not once the tier maps blocks again: refused, nothing lost
check evacuate-again dmsetup message p6 0 evacuate 0
poll '[ "$(swt_stat p6 tier_state)" = "X-" ]' 60 || nok evacuated-again "states $(swt_stat p6 tier_state)"
check replace-again-load dmsetup reload p6 --table "0 $len6 swaptier 2 $A $B"
check cancel-again dmsetup message p6 0 evacuate cancel
dd if=/dev/urandom of=/dev/mapper/p6 bs=1M seek=1 count=4 oflag=direct status=none
check tier0-written test "$(swt_tier_stat p6 0 mapped)" -gt 0
resume_fails p6 replace-mapped-tier "cannot replace tier 0: it maps [0-9]* blocks again"
check previous-after-replace bash -c "dmsetup reload p6 --table '0 $len6 swaptier 2 $C $B' && dmsetup resume p6"
check data-after-replace-refused same p6
check map-after-replace-refused swt_check_map p6
dmsetup remove p6

# 7. A reserve_blocks change on a reload that keeps the map takes effect.
swt_create p7 "$len" "$A" "$B" -- reserve_blocks 300 || die "cannot create p7"
put p7
check reserve-before test "$(swt_stat p7 reserve)" = 300
check reserve-reload bash -c "dmsetup reload p7 --table '0 $len swaptier 2 $A $B 2 reserve_blocks 600' && dmsetup resume p7"
check reserve-after test "$(swt_stat p7 reserve)" = 600
check reserve-data same p7
dmsetup remove p7

check nothing-left bash -c '[ -z "$(dmsetup ls --target swaptier | grep -v "No devices")" ]'
check unload rmmod dm_swaptier
swt_load
