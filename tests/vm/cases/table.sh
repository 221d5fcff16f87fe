#!/bin/bash
# timeout: 240
# debug-lane: full
# disks: a=ssd b=hdd c=hdd d=hdd
# Table-line matrix: valid lines make devices whose table line round-trips;
# each malformed line is refused with its own error; nothing leaks.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B C=$SWT_DISK_C
maxab=$(swt_max_len "$A" "$B")

valid() {	# NAME TABLE-ARGS...
	local name=$1; shift
	local line="0 $1 swaptier ${*:2}"
	if ! dmsetup create tv --table "$line" >/dev/null 2>&1; then
		nok "valid/$name" "refused: $line"
		return
	fi
	# STATUSTYPE_TABLE must recreate the same device
	local t; t=$(dmsetup table tv)
	if dmsetup create tv2 --table "$t" >/dev/null 2>&1 &&
		[ "$(dmsetup table tv2)" = "$t" ]; then
		ok "valid/$name"
	else
		nok "valid/$name" "table line '$t' does not round-trip"
	fi
	dmsetup remove tv2 >/dev/null 2>&1
	dmsetup remove tv
}

bad() {	# NAME EXPECTED-ERROR LEN TABLE-ARGS...
	local name=$1 want=$2; shift 2
	local line="0 $1 swaptier ${*:2}"
	dmesg_mark
	if dmsetup create tb --table "$line" >/dev/null 2>&1; then
		nok "bad/$name" "accepted: $line"
		dmsetup remove tb
		return
	fi
	dmsetup remove tb >/dev/null 2>&1
	if dmesg_new | grep -q -- "$want"; then
		ok "bad/$name"
	else
		nok "bad/$name" "no '$want' in: $(dmesg_new | grep swaptier | tail -n 1)"
	fi
}

valid one-tier "$(swt_max_len "$A")" 1 "$A"
valid two-tiers "$maxab" 2 "$A" "$B"
valid three-tiers 8 3 "$A" "$B" "$C"
valid passdown "$maxab" 2 "$A" "$B" 1 discard_passdown
valid all-options 80000 2 "$A" "$B" 5 discard_passdown frontier_blocks 64 reserve_blocks 4096
valid max-with-reserve $(( ($(dev_blocks "$A") - 16) * 8 )) 1 "$A" 2 reserve_blocks 16

bad no-args "Invalid number of tiers" 8
bad zero-tiers "Invalid number of tiers" 8 0
bad nine-tiers "Invalid number of tiers" 8 9 "$A" "$B" "$C" "$SWT_DISK_D" "$A" "$B" "$C" "$SWT_DISK_D" "$A"
bad missing-device "Expected 2 tier devices, got 1" 8 2 "$A"
bad no-such-device "Error opening tier device /dev/nonexistent" 8 1 /dev/nonexistent
bad same-device-twice "is listed twice" 8 2 "$A" "$A"
bad oversize "exceeds the maximum $maxab sectors" $((maxab + 8)) 2 "$A" "$B"
bad unaligned-length "multiple of 8 sectors" 1001 1 "$A"
bad unknown-option "Unknown optional argument bogus" 8 1 "$A" 1 bogus
bad option-without-value "frontier_blocks needs a value" 8 1 "$A" 1 frontier_blocks
bad option-out-of-range "Invalid frontier_blocks" 8 1 "$A" 2 frontier_blocks 3
bad option-not-a-number "Invalid reserve_blocks" 8 1 "$A" 2 reserve_blocks lots
bad repeated-option "discard_passdown given twice" 8 1 "$A" 2 discard_passdown discard_passdown
bad repeated-value-option "frontier_blocks given twice" 8 1 "$A" 4 frontier_blocks 64 frontier_blocks 64
bad short-option-group "" 8 1 "$A" 3 discard_passdown
bad trailing-argument "Unexpected argument extra" 8 1 "$A" 1 discard_passdown extra
bad reserve-too-big "exceeds the maximum" 8 1 "$A" 2 reserve_blocks 99999999
bad negative-tiers "Invalid number of tiers" 8 -1 "$A"
bad huge-tier-count "Invalid number of tiers" 8 99999999999999999999 "$A"

# a zero-length table is refused (by dm core or by us)
if dmsetup create tz --table "0 0 swaptier 1 $A" >/dev/null 2>&1; then
	nok zero-length "accepted"
	dmsetup remove tz
else
	ok zero-length
fi

# a reload that changes the tiers is refused while blocks are mapped
swt_create tr "$maxab" "$A" "$B"
dd if=/dev/urandom of=/dev/mapper/tr bs=4k count=16 oflag=direct status=none
dmesg_mark
if dmsetup reload tr --table "0 $maxab swaptier 2 $A $C" >/dev/null 2>&1; then
	nok reload-other-tiers "accepted while 16 blocks are mapped"
	dmsetup clear tr
elif dmesg_new | grep -q "Cannot change tiers or length: 16 blocks mapped"; then
	ok reload-other-tiers
else
	nok reload-other-tiers "refused without the expected error"
fi
blkdiscard /dev/mapper/tr
check reload-after-discard dmsetup reload tr --table "0 $maxab swaptier 2 $A $C"
check resume-after-discard dmsetup resume tr
mm=$(printf '%d:%d' "0x$(stat -Lc %t "$C")" "0x$(stat -Lc %T "$C")")
check reloaded-tiers bash -c "dmsetup table tr | grep -q ' $mm\$'"
dmsetup remove tr

check nothing-left bash -c '[ -z "$(dmsetup ls --target swaptier | grep -v "No devices")" ]'
check unload rmmod dm_swaptier
swt_load
