#!/bin/bash
# timeout: 1500
# expect: call-traces
# disks: a=ssd b=hdd
# failslab and fail_page_alloc, systematically: for N = 1, 2, ... the N-th
# allocation made with dm-swaptier's code on the stack (the attributes'
# stack filter is set to the module's text) fails, through the task's
# fail-nth, during a create (constructor and resume), a reload and each
# message, until N is past the operation's last allocation (dmfuzz nth).
# Every run must end cleanly: an error that leaves no device behind (or
# the live one intact), or success with a working device. Then the module unloads and
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
# dm-kcopyd's client creation (its page reserve, pools and workqueue) is
# 327 of the constructor's 608 failure points, each one ending in the same
# "Cannot create the kcopyd client" unwind: the full sweep rejects its
# text (from its symbol to the next one) and a second sweep fails only its
# first allocations
kc=$(awk '$3 == "dm_kcopyd_client_create" { print $1; exit }' /proc/kallsyms)
[ -n "$kc" ] || die "no dm_kcopyd_client_create in /proc/kallsyms"
kce=$(awk '$2 ~ /^[tT]$/ { print $1 }' /proc/kallsyms | sort -u | awk -v a="$kc" '$1 > a { print; exit }')
[ -n "$kce" ] || die "no symbol after dm_kcopyd_client_create"
for a in failslab fail_page_alloc; do
	echo 0 >"$dbg/$a/probability"	# only fail-nth injects
	echo 0 >"$dbg/$a/verbose"
	echo -1 >"$dbg/$a/times"
	echo N >"$dbg/$a/ignore-gfp-wait"
	echo 32 >"$dbg/$a/stacktrace-depth"
done
echo N >"$dbg/fail_page_alloc/ignore-gfp-highmem"
echo 0 >"$dbg/fail_page_alloc/min-order"
filter() {	# REQUIRE-START REQUIRE-END REJECT-START REJECT-END
	for a in failslab fail_page_alloc; do
		echo "$1" >"$dbg/$a/require-start"
		echo "$2" >"$dbg/$a/require-end"
		echo "$3" >"$dbg/$a/reject-start"
		echo "$4" >"$dbg/$a/reject-end"
	done
}
restore() { filter 0 "$(printf '0x%x' -1)" 0 0; }
trap restore EXIT
filter "0x$lo" "$end" "0x$kc" "0x$kce"
fz=$SWT_TOP/build/bin/dmfuzz
[ -x "$fz" ] || die "no $fz (tests/vm/build-tools.sh)"

# sweep NAME OP DEV ARGS...: dmfuzz's fail-nth loop (tests/vm/tools/dmfuzz.c)
sweep() {
	local name=$1 log=$SWT_OUT/cases/$CASE-$1.nth; shift
	"$fz" nth "$@" >"$log" 2>&1
	local rc=$?
	echo "# $name: $(tail -n 1 "$log")"
	if [ $rc = 0 ] && grep -q ' 0 bad$' "$log"; then
		ok "$name"
	else
		nok "$name" "$(grep -m1 '^BAD' "$log" || tail -n 1 "$log")"
	fi
}

len=$(swt_max_len "$A" "$B")
ctr_opts="3 discard_passdown frontier_blocks 128"
sweep ctr create fa "$len" "2 $A $B $ctr_opts"
check ctr-none-left bash -c "! dmsetup info fa >/dev/null 2>&1"
filter "0x$kc" "0x$kce" 0 0
DMFUZZ_NTH_MAX=4 sweep ctr-kcopyd create fa "$len" "2 $A $B $ctr_opts"
check ctr-kcopyd-none-left bash -c "! dmsetup info fa >/dev/null 2>&1"
check ctr-kcopyd-injected grep -q '^nth create: 4 injected failures' \
	"$SWT_OUT/cases/$CASE-ctr-kcopyd.nth"
filter "0x$lo" "$end" "0x$kc" "0x$kce"

# a live device with data for the reload and message sweeps, short enough
# for tier 0 to take every block (so that "evacuate 1" is allowed)
len=$((12288 * 8))
swt_create fa "$len" "$A" "$B" -- discard_passdown frontier_blocks 128 || die "cannot create"
head -c $((8 << 20)) /dev/urandom >/tmp/fa.data
dd if=/tmp/fa.data of=/dev/mapper/fa bs=1M oflag=direct status=none || die "cannot write"
live_ok() {
	cmp -s /tmp/fa.data <(dd if=/dev/mapper/fa bs=1M count=8 iflag=direct status=none) &&
		swt_check_map fa
}
# the new table shares the live pool: a failed reload leaves it alone
sweep reload reload fa "$len" "2 $A $B 2 frontier_blocks 64"
check reload-data-intact live_ok
for m in "stats" "map 0 4096" "check" "heat" "clear_stats" "set promote_heat 6" \
	"migration off" "migration on" "evacuate 1" "evacuate cancel"; do
	sweep "msg-${m// /-}" message fa "$m"
done
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
