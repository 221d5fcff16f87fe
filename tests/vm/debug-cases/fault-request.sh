#!/bin/bash
# timeout: 1200
# expect: call-traces
# disks: a=ssd c=hdd
# fail_make_request on the slow tier: reads and writes of its blocks fail
# with EIO while fio verify on blocks of the fast tier sees no error, the
# tier's error count grows, the device stays rw, and once the fault is gone
# the slow tier's blocks read back unchanged. Then swap over the same kind
# of device with the slow tier failing a share of memhog's requests: no
# hang, no splat, no page that reads back wrong (a process may die of SIGBUS or the
# OOM killer, whose report prints a stack: hence "expect: call-traces").
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
fi=/sys/kernel/debug/fail_make_request
[ -d "$fi" ] || die "no $fi: this case needs CONFIG_FAIL_MAKE_REQUEST (the 6.12-debug kernel)"
A=$SWT_DISK_A C=$SWT_DISK_C
slow=$(basename "$C")

# inject PROB [task]: fail PROB % of the requests to the slow tier's disk
# (0: off); with "task" only requests submitted by tasks whose make-it-fail
# is set
inject() {
	echo 0 >"$fi/verbose"
	echo -1 >"$fi/times"
	echo 0 >"$fi/interval"
	if [ "${2:-}" = task ]; then echo Y; else echo N; fi >"$fi/task-filter"
	echo "$1" >"$fi/probability"
	echo $(($1 > 0 ? 1 : 0)) >"/sys/block/$slow/make-it-fail"
}
trap 'inject 0' EXIT

# --- fio verify on fast-tier blocks while the slow tier fails everything
t0=$(dev_blocks "$A")
swt_create fr "$(swt_max_len "$A" "$C")" "$A" "$C" -- migration off || die "cannot create"
swt_fill_fast /dev/mapper/fr "$t0" 2048 /tmp/fr.data
# free half the fast tier again: fio's writes land there
blkdiscard -o 0 -l $((t0 / 2 * 4096)) /dev/mapper/fr || die "blkdiscard"
e0=$(swt_tier_stat fr 1 errors)

inject 100
# readers of the slow tier's blocks, each read must fail
(
	n=0
	while [ ! -e /tmp/fr.stop ]; do
		dd if=/dev/mapper/fr of=/dev/null bs=4k skip=$((t0 + RANDOM % 2048)) count=1 \
			iflag=direct status=none 2>/dev/null && { echo "read succeeded"; exit 1; }
		n=$((n + 1))
	done
	echo "$n reads failed"
) >/tmp/fr.readers 2>&1 &
rpid=$!
fio_verify fast-tier-verify /dev/mapper/fr 4M 2
touch /tmp/fr.stop
wait $rpid
rrc=$?
echo "# readers: $(cat /tmp/fr.readers)"
check slow-reads-eio test $rrc = 0
check overwrite-lands-on-fast bash -c "dd if=/dev/zero of=/dev/mapper/fr bs=4k seek=$t0 count=1 oflag=direct status=none"
e1=$(swt_tier_stat fr 1 errors)
echo "# slow tier errors: $e0 -> $e1"
check errors-counted test "$e1" -gt "$e0"
check still-rw test "$(swt_stat fr mode)" = rw
inject 0
dd if=/dev/mapper/fr of=/tmp/fr.back bs=4k skip=$((t0 + 1)) count=2047 iflag=direct status=none
check slow-intact-after cmp -s /tmp/fr.back <(tail -c +$((4096 + 1)) /tmp/fr.data)
check map-consistent swt_check_map fr
dmsetup remove fr || nok remove "cannot remove fr"
rm -f /tmp/fr.*

# --- swap with the slow tier failing 20 % of the requests memhog submits.
# Only memhog's: a failed swap-in kills its task with SIGBUS, and for PID 1
# (this guest's script) that is a panic. memhog's direct reclaim writes out
# other tasks' pages too (the whole guest is squeezed to 128 MiB available,
# mem_squeeze); a failed write only keeps the page in memory.
swt_create frs "$(swt_max_len "$A" "$C")" "$A" "$C" -- discard_passdown || die "cannot create"
mkswap -q /dev/mapper/frs >/dev/null || die "mkswap"
swapon --discard /dev/mapper/frs || die "swapon"
inject 20 task
mem_squeeze 128 || die "cannot pin memory"
# about 96 MiB more than is available: more than tier 0 (64 MiB) holds
mib=$(hog_mib 96)
bash -c 'echo 1 >/proc/self/make-it-fail && exec "$@"' memhog \
	"$SWT_TOP/build/bin/memhog" 3 "$mib" 1 >/tmp/frs.hog 2>&1
hrc=$?
mem_release
inject 0
hog_reap hog-gone
echo "# memhog 3 x $mib MiB under 20 % slow-tier errors: exit $hrc, $(grep -c 'bad pages' /tmp/frs.hog) of 3 finished"
check swap-no-wrong-page bash -c "! grep -qE ' [1-9][0-9]* bad pages' /tmp/frs.hog"
es=$(swt_tier_stat frs 1 errors)
echo "# slow tier errors during swap: $es"
check swap-errors-counted test "$es" -gt 0
check swapoff swapoff /dev/mapper/frs
check swap-map-consistent swt_check_map frs
dmsetup remove frs || nok remove-swap "cannot remove frs"
check unload swt_unload
exit $FAILED
