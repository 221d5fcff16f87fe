#!/bin/bash
# Guest side of make demo: a tiered swap device built with dmsetup, a
# memory-pressure workload on it, and what happened, from the target's
# status, its map and blktrace.
. "$SWT_TOP/tests/vm/lib.sh"
set -u
rep=$SWT_OUT/demo.txt
exec > >(tee "$rep") 2>&1
for q in /sys/block/vd*/queue/rotational; do echo 0 >"$q"; done
swt_load
F=$SWT_DISK_FAST S=$SWT_DISK_SLOW
len=$(swt_max_len "$F" "$S")
table="0 $len swaptier 2 $F $S 1 discard_passdown"
echo "\$ dmsetup create swaptier0 --table \"$table\""
dmsetup create swaptier0 --table "$table" || exit 1
echo "\$ mkswap /dev/mapper/swaptier0 && swapon --discard /dev/mapper/swaptier0"
mkswap -q /dev/mapper/swaptier0 >/dev/null && swapon --discard /dev/mapper/swaptier0 || exit 1
mib=$(hog_mib)
bt_start /tmp/bt "$F" "$S" || echo "(blktrace did not start)"
echo "\$ memhog 3 $mib 2 aged    # 3 processes, $((mib * 3 / 2)) MiB each, in $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) MiB of RAM"
"$SWT_TOP/build/bin/memhog" 3 "$mib" 2 aged
hrc=$?
bt_stop
echo
echo "\$ dmsetup status swaptier0"
dmsetup status swaptier0
echo
echo "\$ dmsetup message swaptier0 0 stats"
dmsetup message swaptier0 0 stats
echo
echo "\$ dmsetup message swaptier0 0 map 0 $(swt_global swaptier0 1) | head -n 12"
dmsetup message swaptier0 0 map 0 "$(swt_global swaptier0 1)" | head -n 12
echo
echo "blktrace, requests dispatched to each tier:"
for d in "$F" "$S"; do
	read -r w ws r rs < <(bt_summary /tmp/bt "$d")
	printf '  %-5s %6d writes, avg %4d KiB   %6d reads, avg %4d KiB\n' "$(basename "$d")" \
		"$w" "$(( w ? ws / 2 / w : 0 ))" "$r" "$(( r ? rs / 2 / r : 0 ))"
done
swapoff /dev/mapper/swaptier0
dmsetup remove swaptier0
[ $hrc = 0 ] && echo "every page verified" || echo "MEMHOG FAILED"
exit $hrc
