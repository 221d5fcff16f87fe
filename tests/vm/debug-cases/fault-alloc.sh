#!/bin/bash
# timeout: 1500
# expect: call-traces
# failslab and fail_page_alloc, systematically: for N = 1, 2, ... the N-th
# allocation made with dm-swaptier's code on the stack (the attributes'
# stack filter is set to the module's text) fails, through the task's
# fail-nth, during a constructor, a reload and each message. Every run must
# end cleanly: an error that leaves no device behind, or success; until N
# is past the last allocation of the operation. Then the module unloads and
# kmemleak finds nothing allocated by the module. A failed vmalloc prints
# a warning with a stack by design: hence "expect: call-traces".
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
dbg=/sys/kernel/debug
for a in failslab fail_page_alloc; do
	[ -d "$dbg/$a" ] || die "no $dbg/$a: this case needs CONFIG_FAILSLAB and CONFIG_FAIL_PAGE_ALLOC (the 6.12-debug kernel)"
done
[ -e "$dbg/failslab/require-start" ] ||
	die "no stack filter: this case needs CONFIG_FAULT_INJECTION_STACKTRACE_FILTER"
[ -e /proc/self/fail-nth ] || die "no /proc/self/fail-nth"
A=$SWT_DISK_A B=$SWT_DISK_B

# the module's text: from its lowest to past its highest text symbol
read -r lo hi < <(awk '$4 == "[dm_swaptier]" && $2 ~ /^[tT]$/ { print $1 }' /proc/kallsyms |
	sort | sed -n '1p;$p' | paste -sd ' ')
[ -n "$lo" ] && [ -n "$hi" ] || die "no dm_swaptier text symbols in /proc/kallsyms"
end=$(printf '0x%x' $(((0x$hi & ~0xfff) + 0x1000)))
BIG=1000000
for a in failslab fail_page_alloc; do
	echo 0 >"$dbg/$a/probability"	# only fail-nth injects
	echo 0 >"$dbg/$a/verbose"
	echo $BIG >"$dbg/$a/times"	# counts the injected failures down
	echo N >"$dbg/$a/ignore-gfp-wait"
	echo "0x$lo" >"$dbg/$a/require-start"
	echo "$end" >"$dbg/$a/require-end"
	echo 32 >"$dbg/$a/stacktrace-depth"
done
echo N >"$dbg/fail_page_alloc/ignore-gfp-highmem"
echo 0 >"$dbg/fail_page_alloc/min-order"
injected() { echo $((2 * BIG - $(cat "$dbg/failslab/times") - $(cat "$dbg/fail_page_alloc/times"))); }
restore() {
	for a in failslab fail_page_alloc; do
		echo 0 >"$dbg/$a/require-start"
		echo "$(printf '0x%x' -1)" >"$dbg/$a/require-end"
		echo -1 >"$dbg/$a/times"
	done
}
trap restore EXIT

# nth N CMD...: run CMD in this task (exec) with its N-th module allocation failing
nth() { bash -c 'echo "$0" >/proc/thread-self/fail-nth && exec "$@"' "$@"; }

# sweep NAME CHECK CMD...: run CMD with fail-nth 1, 2, ... until a run
# injects nothing; after each run CHECK must succeed (given CMD's status).
# ok/not ok NAME; "# NAME: ..." tells how many runs failed and succeeded.
sweep() {
	local name=$1 chk=$2 n=0 before rc ok=0 bad=0 failed=0 last=""; shift 2
	while [ $n -lt 2000 ]; do
		n=$((n + 1))
		before=$(injected)
		nth $n "$@" >/tmp/fa.out 2>&1
		rc=$?
		if ! $chk $rc; then
			bad=$((bad + 1))
			last="run $n (exit $rc): $(head -c 200 /tmp/fa.out)"
		fi
		if [ "$(injected)" = "$before" ]; then
			[ $rc = 0 ] || { bad=$((bad + 1)); last="run $n injected nothing and failed: $(head -c 200 /tmp/fa.out)"; }
			break
		fi
		[ $rc = 0 ] && ok=$((ok + 1)) || failed=$((failed + 1))
	done
	echo "# $name: $((n - 1)) injected failures: $failed clean errors, $ok absorbed"
	if [ $n -ge 2000 ]; then
		nok "$name" "still injecting after 2000 runs"
	elif [ $bad -gt 0 ]; then
		nok "$name" "$bad bad runs, last $last"
	else
		ok "$name"
	fi
}

line2="0 $(swt_max_len "$A" "$B") swaptier 2 $A $B 3 discard_passdown frontier_blocks 128"

# the constructor: failed, no device left; succeeded, a working device
ctr_check() {
	if [ "$1" != 0 ]; then
		! dmsetup info fa >/dev/null 2>&1
		return
	fi
	dd if=/dev/urandom of=/tmp/fa.blk bs=4k count=4 status=none &&
		dd if=/tmp/fa.blk of=/dev/mapper/fa bs=4k seek=100 oflag=direct status=none &&
		cmp -s /tmp/fa.blk <(dd if=/dev/mapper/fa bs=4k skip=100 count=4 iflag=direct status=none) &&
		swt_check_map fa && dmsetup remove fa
}
sweep ctr ctr_check dmsetup create fa --table "$line2"

# a live device with data for the reload and message sweeps
dmsetup create fa --table "$line2" || die "cannot create"
head -c $((8 << 20)) /dev/urandom >/tmp/fa.data
dd if=/tmp/fa.data of=/dev/mapper/fa bs=1M oflag=direct status=none || die "cannot write"
live_ok() {
	cmp -s /tmp/fa.data <(dd if=/dev/mapper/fa bs=1M count=8 iflag=direct status=none) &&
		swt_check_map fa
}
# a reload (the new table shares the pool) either fails and leaves the
# live table alone, or loads an inactive table that resume swaps in
reload_check() {
	if [ "$1" = 0 ]; then
		dmsetup resume fa || return 1
	else
		dmsetup clear fa >/dev/null 2>&1
	fi
	live_ok
}
sweep reload reload_check dmsetup reload fa --table "${line2% 3 *} 2 frontier_blocks 64"
msg_check() { live_ok; }
for m in "stats" "map 0 4096" "check" "heat" "clear_stats" "set promote_heat 6" \
	"migration off" "migration on" "evacuate 1"; do
	# shellcheck disable=SC2086
	sweep "msg-${m%% *}" msg_check dmsetup message fa 0 $m
done
poll "[ \"\$(swt_global fa 13)\" = - ]" 120 || echo "# evacuation still running"
check live-data-intact live_ok
dmsetup remove fa || nok remove "cannot remove fa"
restore
trap - EXIT

# kmemleak reports only objects older than 5 s: wait that long, then scan
kml=$dbg/kmemleak
if [ -e "$kml" ]; then
	sleep 6
	echo scan >"$kml" && echo scan >"$kml"
	cat "$kml" >"$SWT_OUT/cases/$CASE.kmemleak"
	n=$(kml_module_leaks "$SWT_OUT/cases/$CASE.kmemleak")
	check kmemleak test "$n" = 0
else
	nok kmemleak "no $kml (CONFIG_DEBUG_KMEMLEAK)"
fi
check unload swt_unload
rm -f /tmp/fa.*
exit $FAILED
