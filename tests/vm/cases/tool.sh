#!/bin/bash
# timeout: 600
# debug-lane: full
# kernels: 6.12 (the tool is userspace; the target's status, map and
# messages it reads are every case's on both kernels)
# disks: a=ssd b=hdd c=hdd
# The dmswaptier tool against the real target: create with --swap, status
# and --json, map against the map message, trace during swap against
# blkparse's own counts, remove (with swapoff), and its errors.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
T=$SWT_TOP/build/bin/dmswaptier
[ -x "$T" ] || die "no $T (make tool)"
A=$SWT_DISK_A B=$SWT_DISK_B

check create "$T" create tl "$A" "$B" --option discard_passdown --swap --discard --priority 5
check is-swap grep -q "^/dev/mapper/tl \|^$(readlink -f /dev/mapper/tl) " /proc/swaps
check default-size test "$(blockdev --getsz /dev/mapper/tl)" = "$(swt_max_len "$A" "$B")"
check table-options bash -c "dmsetup table tl | grep -q ' 1 discard_passdown$'"

# swap some pages out while tracing
bt_start /tmp/bt-tool "$A" "$B" || die "blktrace did not start"
# (2 x 32 MiB in a memory cgroup of 32 MiB: the trace needs swap-out
# writes, not a long run; 2 processes needing 64 MiB more than the 512 MiB
# guest had available took 117-203 s)
memcg_hog tool 32 /tmp/tool-hog.log 2 32 1
check hog-verified test $? = 0
check hog-swapped-out test "$(swt_stat tl write_allocs)" -gt 2048
bt_stop

out=$("$T" status tl)
echo "$out" | sed 's/^/# /'
check status-human bash -c "grep -q '^tl: ' <<<'$out' && grep -q '$(basename "$A")' <<<'$out'"
json=$("$T" status --json)
check status-json bash -c "jq -e '.[0].name == \"tl\" and (.[0].tiers | length) == 2' >/dev/null <<<'$json'"
check json-matches-status test "$(jq '.[0].mapped' <<<"$json")" -ge 0
# the columns of the tier table, against the target's own stats message
raw=$("$T" status tl --raw --noheadings --output NAME,TIER,DEVICE,STATE)
check status-raw-output test "$raw" = "tl 0 /dev/$(basename "$A") -
tl 1 /dev/$(basename "$B") -"
blocks0=$(swt_tier_stat tl 0 blocks)
check status-bytes test "$("$T" status tl --bytes --noheadings --output SIZE | head -n 1 | tr -d ' ')" = \
	"$((blocks0 * 4096))"
check status-noheadings bash -c "! '$T' status tl --noheadings | grep -q TIER"
check status-header bash -c "'$T' status tl --output TIER,SIZE | head -n 1 | grep -qx 'TIER *SIZE'"
"$T" status tl --output TIER,BOGUS >/dev/null 2>&1; check status-unknown-column test $? = 1
check status-json-stats bash -c "'$T' status tl --json --bytes | jq -e '.[0] |
	.tiers[0].total == .tiers[0].stats.blocks and .logical == .stats.logical and
	.tiers[0].size == .tiers[0].total * 4096 and .tier_state == .stats.tier_state' >/dev/null"
m1=$("$T" map tl --from 0 --count 4096)
m2=$(dmsetup message tl 0 map 0 4096)
check map-matches-message test "$m1" = "$m2"
check map-summary bash -c "'$T' map tl --summary | grep -q 'tier 0: '"

# trace analysis agrees with blkparse's own totals
for d in "$A" "$B"; do bt_parse /tmp/bt-tool "$d" >>/tmp/bt-tool.txt 2>/dev/null; done
read -r bw _ _ _ < <(bt_summary /tmp/bt-tool "$A")
tw=$("$T" trace --analyse --json /tmp/bt-tool.txt |
	jq --arg d "$(dev_mm "$A" | tr : ,)" '[.[] | select(.device == $d and .dir == "write")][0].dispatched')
check trace-analyse-matches test "$tw" = "$bw"
check trace-analyse-merges bash -c "'$T' trace --analyse /tmp/bt-tool.txt | grep -q 'merge ratio'"
# read mapped blocks over and over for as long as the live trace runs.
# Starting and stopping the first blktrace patches the kernel's text (the
# block tracepoints) with int3 breakpoints, and under TCG another vCPU can
# then run a stale breakpoint: "Oops: int3" in dm_submit_bio, seen once
# with dd reading while the live trace started. A trace of an idle disk
# keeps the tracepoints enabled around the reads, so none is patched then.
bt_start /tmp/bt-keep "$SWT_DISK_C" || die "blktrace did not start"
touch /tmp/tool-reading
(while [ -e /tmp/tool-reading ]; do
	dd if=/dev/mapper/tl of=/dev/null bs=1M count=4 iflag=direct status=none
done) &
reader=$!
check trace-live bash -c "'$T' trace tl --seconds 3 --json | jq -e 'length > 0' >/dev/null"
rm -f /tmp/tool-reading
wait $reader
bt_stop

check remove "$T" remove tl
check removed bash -c '! dmsetup info tl >/dev/null 2>&1'
check swap-gone bash -c '! grep -q "^/dev/mapper/tl " /proc/swaps'

# errors: usage 1, device 2
"$T" status nosuchdev >/dev/null 2>&1; check err-missing test $? = 2
dmsetup create notours --table "0 8 zero"
"$T" map notours >/dev/null 2>&1; check err-not-swaptier test $? = 2
dmsetup remove notours
"$T" map vda >/dev/null 2>&1; check err-not-dm test $? = 2
"$T" frobnicate >/dev/null 2>&1; check err-usage test $? = 1
"$T" create >/dev/null 2>&1; check err-create-usage test $? = 1
"$T" create big "$A" --size 99G >/dev/null 2>&1; check err-oversize test $? = 1
swt_create busy 8 "$A"
exec 9</dev/mapper/busy
"$T" remove busy >/dev/null 2>&1; check err-busy test $? = 2
exec 9<&-
dmsetup remove busy
check help bash -c "'$T' status --help | grep -q usage"
