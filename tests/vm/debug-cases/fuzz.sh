#!/bin/bash
# timeout: 1200
# disks: a=ssd b=hdd c=hdd d=hdd
# Table-line and message fuzzing: dmfuzz (tests/vm/tools/dmfuzz.c) loads
# 1000 generated table lines over tiers a, b and c (mutations of valid
# lines and random tokens: huge, negative and malformed numbers, repeated
# and non-block devices, overlong strings) and sends 800 generated
# messages to a live device on tier d. Each line is loaded and resumed in
# one mapped device (created empty, kept while lines are refused): it is
# refused with no table left behind, or accepted and then works; the live
# device's data and map survive every message; no splat (the lane's log
# check), no leak.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
fz=$SWT_TOP/build/bin/dmfuzz
[ -x "$fz" ] || die "no $fz (tests/vm/build-tools.sh)"
A=$SWT_DISK_A B=$SWT_DISK_B C=$SWT_DISK_C D=$SWT_DISK_D
swt_create fzlive "$(swt_max_len "$D")" "$D" || die "cannot create the live device"
head -c $((4 << 20)) /dev/urandom >/tmp/fz.data
dd if=/tmp/fz.data of=/dev/mapper/fzlive bs=1M oflag=direct status=none || die "write"
log=$SWT_OUT/cases/$CASE.dmfuzz
"$fz" 20261203 1000 800 fzlive "$A" "$B" "$C" >"$log" 2>"$log.err"
rc=$?
echo "# $(tail -n 1 "$log")"
grep '^BAD' "$log" | head -n 5 | sed 's/^/# /'
check dmfuzz test $rc = 0
check accepted-some grep -qE '\(([1-9][0-9]*) accepted' "$log"
check refused-some grep -qE ', ([1-9][0-9]*) refused\)' "$log"
check none-left bash -c "! dmsetup info swtfz >/dev/null 2>&1"
check live-data cmp -s /tmp/fz.data <(dd if=/dev/mapper/fzlive bs=1M count=4 iflag=direct status=none)
check live-map swt_check_map fzlive
dmsetup remove fzlive || nok remove "cannot remove the live device"
check unload swt_unload
rm -f /tmp/fz.*
exit $FAILED
