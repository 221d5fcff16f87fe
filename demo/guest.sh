#!/bin/bash
# Guest side of make demo: a tiered swap device built with dmsetup, a
# memory-pressure workload on it, and what happened, from the target's
# status, its map and blktrace.
. "$SWT_TOP/tests/vm/lib.sh"
set -u
rep=$SWT_OUT/demo.txt
exec > >(tee "$rep") 2>&1
swt_load
F=$SWT_DISK_FAST S=$SWT_DISK_SLOW
# what the disks stand for, as the kernel would see them: a small SSD
# over a larger rotating disk (the device is still non-rotational: its
# first tier is)
echo 0 >"/sys/block/$(basename "$F")/queue/rotational"
echo 1 >"/sys/block/$(basename "$S")/queue/rotational"
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
T=$SWT_TOP/build/bin/dmswaptier
echo
echo "\$ dmsetup status swaptier0"
dmsetup status swaptier0
echo
echo "\$ dmswaptier status swaptier0"
"$T" status swaptier0
echo
echo "\$ dmsetup message swaptier0 0 map 0 $(swt_stat swaptier0 logical) | head -n 8"
dmsetup message swaptier0 0 map 0 "$(swt_stat swaptier0 logical)" | head -n 8
echo
echo "\$ dmswaptier map swaptier0 --summary"
"$T" map swaptier0 --summary
echo
echo "\$ (blkparse -q -i - <vda.blktrace; blkparse -q -i - <vdb.blktrace) | dmswaptier trace --analyse -    # blktrace of both tiers during the workload"
# the text of both traces is larger than the guest's tmpfs and slow to
# write over 9p: analyse it from a pipe and keep an excerpt of each
for d in "$F" "$S"; do
	bt_parse /tmp/bt "$d" |
		awk -v f="$SWT_OUT/blkparse-$(basename "$d").txt" 'NR <= 20000 {print >f} {print}'
done | "$T" trace --analyse -
rm -rf /tmp/bt
swapoff /dev/mapper/swaptier0
dmsetup remove swaptier0
[ $hrc = 0 ] && echo "every page verified" || echo "MEMHOG FAILED"
exit $hrc
