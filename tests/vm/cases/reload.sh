#!/bin/bash
# timeout: 600
# disks: a=ssd b=hdd
# Suspend/resume and reloads of the same tiers (options changed) in the
# middle of a fio verify run: the map and the data survive.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B
len=$(swt_max_len "$A" "$B")
swt_create rl "$len" "$A" "$B" || die "cannot create"

fio_verify under-reload /dev/mapper/rl 24M 2 --rate=,4m >/tmp/fio.res &
fpid=$!
n=0
while kill -0 $fpid 2>/dev/null && [ $n -lt 12 ]; do
	sleep 1
	case $((n % 3)) in
	0) dmsetup suspend rl && dmsetup resume rl ;;
	1) dmsetup reload rl --table "0 $len swaptier 2 $A $B 3 discard_passdown frontier_blocks 32" &&
		dmsetup resume rl ;;
	2) dmsetup reload rl --table "0 $len swaptier 2 $A $B" && dmsetup resume rl ;;
	esac || nok "reload-$n" "suspend/reload/resume failed"
	n=$((n + 1))
done
wait $fpid
cat /tmp/fio.res
check cycles test $n -ge 3
check table-options bash -c "dmsetup table rl | grep -q '2 $(dev_mm "$A") $(dev_mm "$B")'"
check map-consistent swt_check_map rl
# the mapped count survives a reload: every written block is still mapped
before=$(swt_stat rl mapped)
dmsetup reload rl --table "0 $len swaptier 2 $A $B 2 frontier_blocks 512" && dmsetup resume rl
check map-kept test "$(swt_stat rl mapped)" -eq "$before"
check map-kept-nonzero test "$before" -gt 0
dmsetup remove rl
