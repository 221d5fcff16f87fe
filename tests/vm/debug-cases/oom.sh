#!/bin/bash
# timeout: 1500
# expect: call-traces
# disks: a=ssd b=hdd
# Swap on dm-swaptier near OOM: two rounds of memhog asking for 32 MiB
# more than RAM plus swap (32 MiB of swap over both tiers, so that a round
# stays short under emulation: with 64 MiB of swap and 64 MiB more the
# case took 137-185 s), with the hung-task detector at 60 s. The OOM
# killer must act (that is the point) and print its report, a stack by
# design: hence "expect: call-traces". The guest is squeezed to about
# 96 MiB available (mem_squeeze). No round may hang, no page may read back
# wrong, and after the rounds swapoff, the map check and unloading all
# succeed.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B
[ -e /proc/sys/kernel/hung_task_timeout_secs ] ||
	die "no hung-task detector (CONFIG_DETECT_HUNG_TASK)"
echo 60 >/proc/sys/kernel/hung_task_timeout_secs
swt_create oom $((32 * 2048)) "$A" "$B" -- discard_passdown || die "cannot create"
mkswap -q /dev/mapper/oom >/dev/null || die "mkswap"
swapon --discard /dev/mapper/oom || die "swapon"
swap_mib=$(($(blockdev --getsz /dev/mapper/oom) / 2048))
mem_squeeze 96 || die "cannot pin memory"
kills0=$(awk '$1 == "oom_kill" {print $2}' /proc/vmstat)
for round in 1 2; do
	avail=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
	mib=$(((avail + swap_mib + 32) / 3))
	t0=$SECONDS
	"$SWT_TOP/build/bin/memhog" 3 "$mib" 1 >/tmp/oom.hog 2>&1
	echo "# round $round: memhog 3 x $mib MiB (RAM $avail MiB free, swap $swap_mib MiB): exit $?, $(grep -c 'bad pages' /tmp/oom.hog) of 3 finished, $((SECONDS - t0)) s"
	check "round$round-no-wrong-page" bash -c "! grep -qE ' [1-9][0-9]* bad pages' /tmp/oom.hog"
	hog_reap "round$round-reaped"
done
mem_release
kills=$(($(awk '$1 == "oom_kill" {print $2}' /proc/vmstat) - kills0))
echo "# OOM kills: $kills; swap mapped $(swt_stat oom mapped) blocks"
check oom-killer-acted test "$kills" -gt 0
check swapoff swapoff /dev/mapper/oom
check map-consistent swt_check_map oom
check mode-rw test "$(swt_stat oom mode)" = rw
dmsetup remove oom || nok remove "cannot remove"
check unload swt_unload
exit $FAILED
