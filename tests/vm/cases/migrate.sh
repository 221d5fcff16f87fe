#!/bin/bash
# timeout: 900
# disks: a=ssd b=hdd
# Heat-driven migration: tier 0 filled past its low watermark is demoted
# back to the high watermark; blocks read repeatedly on tier 1 are promoted
# once user I/O is idle; fio verify with suspend/resume cycles during heavy
# migration; the knobs, the heat message and their errors.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B
t0=$(dev_blocks "$A")
len=$(swt_max_len "$A" "$B")
# demote_heat 255: these writes are never read, and with a heat period
# of a minute they would not turn cold (heat 0, all the default demotes)
# during the case; section 6 checks the default. demote_gate off: nothing
# is read, which keeps the gate closed (section 7)
swt_create mg "$len" "$A" "$B" -- heat_period 60000 migration_idle 100 \
	low_watermark 10 high_watermark 30 demote_heat 255 demote_gate off ||
	die "cannot create"
used0() { swt_tier_stat mg 0 mapped; }
# blocks mapped on tier 0 (what the watermarks count; used0, the stats key
# tier0.mapped, also counts the open write frontiers, up to an extent per CPU)
mapped0() { dmsetup message mg 0 heat | awk '$1 == "tier0" {for (i = 2; i <= NF; i++) s += $i; print s}'; }

# 1. Fill tier 0 and spill: demotion keeps tier 0 above its low watermark
# (10% free) while the writes keep landing on it; raising both marks well
# above the free space left (which ends up anywhere up to the 30% high
# mark) demotes down to the new high mark (50% free).
head -c $((120 << 20)) /dev/urandom >/tmp/mg.data
dd if=/tmp/mg.data of=/dev/mapper/mg bs=1M oflag=direct status=none || die "write failed"
low=$((t0 * 90 / 100)) high=$((t0 * 50 / 100))
if poll '[ "$(mapped0)" -le '$low' ]' 120; then ok demoted-to-low-watermark
else nok demoted-to-low-watermark "tier 0 maps $(mapped0) of $t0 blocks, want <= $low"; fi
check demoted-count test "$(swt_stat mg demoted)" -gt 0
# tier 0 took more writes than it holds: demotion made room during the fill
check writes-stayed-fast test $(($(swt_stat mg demoted) + $(used0))) -gt "$t0"
dmsetup message mg 0 set high_watermark 50
dmsetup message mg 0 set low_watermark 45
if poll '[ "$(mapped0)" -le '$high' ]' 120; then ok demoted-to-high-watermark
else nok demoted-to-high-watermark "tier 0 maps $(mapped0) of $t0 blocks, want <= $high"; fi
dmsetup message mg 0 set low_watermark 10
dmsetup message mg 0 set high_watermark 30
dmsetup message mg 0 stats | grep -E 'demot|migrat' | sed 's/^/# /'
# (tmpfs holds half the guest's memory: compare against the device directly)
readback() { dd if=/dev/mapper/mg bs=1M count=120 iflag=direct status=none; }
check data-after-demotion cmp -s /tmp/mg.data <(readback)
check map-after-demotion swt_check_map mg

# 2. A 1 MiB run that demotion put on tier 1, read four times, is promoted
# when user I/O is idle.
lb=$(dmsetup message mg 0 map 0 $((120 * 256)) |
	awk '$3 == 1 && $2 >= 512 {print int(($1 + 255) / 256) * 256; exit}')
[ -n "$lb" ] || die "no 2 MiB extent on tier 1 after demotion"
check region-on-tier1 bash -c "dmsetup message mg 0 map $lb 256 | awk '\$3 != 1 {exit 1}'"
for i in 1 2 3 4; do
	dd if=/dev/mapper/mg of=/dev/null bs=1M count=1 skip=$((lb / 256)) iflag=direct status=none
done
hot=$(dmsetup message mg 0 heat)
echo "$hot" | sed 's/^/# heat: /'
check heat-format bash -c "echo '$hot' | sed -n 1p | grep -qx 'heat 0 1 2 4 8 16 32 64' &&
	[ \$(echo '$hot' | grep -c '^tier[01]\\( [0-9]*\\)\\{8\\}\$') = 2 ]"
check heat-hot-blocks bash -c "echo '$hot' | awk '\$1 == \"tier1\" {exit !(\$5 + \$6 + \$7 + \$8 + \$9 >= 256)}'"
if poll "dmsetup message mg 0 map $lb 256 | awk '\$3 != 0 {exit 1}'" 120; then ok promoted
else nok promoted "region still at: $(dmsetup message mg 0 map $lb 256 | head -3 | tr '\n' ';')"; fi
check promoted-count test "$(swt_stat mg promoted)" -ge 256
check tier0-above-low test $((t0 - $(used0))) -ge $((t0 / 10))
check data-after-promotion cmp -s /tmp/mg.data <(readback)
check map-after-promotion swt_check_map mg
"$SWT_TOP/build/bin/dmswaptier" heat mg >/tmp/mg.heat 2>&1
check tool-heat grep -q '^tier 1' /tmp/mg.heat

# 3. Knobs: set, table line, errors.
check set-ok dmsetup message mg 0 set promote_heat 5
check set-in-table bash -c "dmsetup table mg | grep -q 'promote_heat 5'"
check set-unknown bash -c '! dmsetup message mg 0 set frobnicate 1 2>/dev/null'
check set-range bash -c '! dmsetup message mg 0 set promote_heat 0 2>/dev/null'
check set-conflict bash -c '! dmsetup message mg 0 set low_watermark 40 2>/dev/null'
check set-usage bash -c '! dmsetup message mg 0 set promote_heat 2>/dev/null'
check evacuate-no-room bash -c '! dmsetup message mg 0 evacuate 1 2>/dev/null'
check evacuate-bad-tier bash -c '! dmsetup message mg 0 evacuate 7 2>/dev/null'
check migration-off dmsetup message mg 0 migration off
check migration-off-status test "$(swt_stat mg migration)" = off
check migration-bad bash -c '! dmsetup message mg 0 migration sideways 2>/dev/null'
dmsetup message mg 0 migration on
# the same through the tool: exit 0 ok, 1 usage, 2 kernel refused
T=$SWT_TOP/build/bin/dmswaptier
check tool-set "$T" set mg promote_heat 4
check tool-set-in-table bash -c "dmsetup table mg | grep -q 'promote_heat 4'"
"$T" set mg promote_heat 0 >/dev/null 2>&1; check tool-set-range test $? = 2
"$T" set mg promote_heat >/dev/null 2>&1; check tool-set-usage test $? = 1
"$T" evacuate mg 1 >/dev/null 2>&1; check tool-evacuate-no-room test $? = 2
"$T" evacuate mg x >/dev/null 2>&1; check tool-evacuate-usage test $? = 1
out=$("$T" status mg)
echo "$out" | sed 's/^/# /'
check tool-status-migration grep -q '^  migration on: promoted' <<<"$out"
check tool-status-json bash -c "'$T' status mg --json |
	jq -e '.[0].promoted >= 256 and .[0].tier_state == \"--\"' >/dev/null"
check table-reloads bash -c "dmsetup reload mg --table \"\$(dmsetup table mg)\" && dmsetup resume mg"
dmsetup remove mg || nok remove "cannot remove"

# 4. Racing writes: fio verify over twice tier 0 with suspend/resume cycles.
swt_create mr "$len" "$A" "$B" -- low_watermark 20 high_watermark 40 \
	demote_heat 255 demote_gate off || die "cannot create"
fio_verify under-migration /dev/mapper/mr 64M 2 >/tmp/fio.res &
fpid=$!
n=0
while kill -0 $fpid 2>/dev/null; do
	sleep 2
	dmsetup suspend mr && dmsetup resume mr || nok "suspend-$n" "suspend/resume failed"
	n=$((n + 1))
done
wait $fpid
cat /tmp/fio.res
echo "# suspend cycles: $n, demoted $(swt_stat mr demoted), abandoned $(swt_stat mr abandoned)"
check migrated-under-fio test "$(swt_stat mr demoted)" -gt 0
check map-after-fio swt_check_map mr

# 5. Migration never waits for idle: with the watermarks near full and no
# idle time, demotion copies run under a fio load at queue depth 32 that
# rewrites the very blocks being moved, so some copies lose the race.
d0=$(swt_stat mr demoted) a0=$(swt_stat mr abandoned)
dmsetup message mr 0 set high_watermark 95 &&
	dmsetup message mr 0 set low_watermark 80 &&
	dmsetup message mr 0 set migration_idle 0 || nok forced-set "cannot set knobs"
fio_verify forced-busy /dev/mapper/mr 12M 2 --offset=140M --iodepth=32 --loops=6
echo "# forced: demoted $(($(swt_stat mr demoted) - d0)), abandoned $(($(swt_stat mr abandoned) - a0))"
check forced-demoted test "$(swt_stat mr demoted)" -gt "$d0"
check forced-abandoned test "$(swt_stat mr abandoned)" -gt "$a0"
check map-after-forced swt_check_map mr
dmsetup remove mr || nok remove-mr "cannot remove"

# 6. With demote_heat 0 only cold blocks move down (unread for a heat
# period): a tier 0 full of fresh writes stays full, and the writes that do
# not fit go to tier 1, until an aging turns the unread ones cold.
swt_create md "$len" "$A" "$B" -- heat_period 60000 demote_heat 0 demote_gate off ||
	die "cannot create"
dd if=/tmp/mg.data of=/dev/mapper/md bs=1M oflag=direct status=none || die "write failed"
check fresh-not-demoted test "$(swt_stat md demoted)" = 0
check fresh-spilled test "$(swt_tier_stat md 1 mapped)" -gt 0
# a shorter period starts from now: the next aging comes within 100 ms
dmsetup message md 0 set heat_period 100 || nok set-heat-period "refused"
if poll '[ "$(swt_stat md demoted)" -gt 0 ]' 60; then ok cold-demoted-after-aging
else nok cold-demoted-after-aging "demoted $(swt_stat md demoted) after $(swt_stat md agings) agings"; fi
check data-after-cold-demotion cmp -s /tmp/mg.data <(dd if=/dev/mapper/md bs=1M count=120 iflag=direct status=none)
check set-demote-heat dmsetup message md 0 set demote_heat 7
check demote-heat-in-table bash -c "dmsetup table md | grep -q 'demote_heat 7'"
check set-demote-heat-range bash -c '! dmsetup message md 0 set demote_heat 256 2>/dev/null'
check map-after-cold-demotion swt_check_map md
dmsetup remove md || nok remove-md "cannot remove"

# 7. demote_gate on: while nothing is read, demotion takes nothing and the
# writes tier 0 cannot take go to tier 1 (stats demote_gate=16); once
# reads show how old the blocks read back are, older blocks go down. 40 MiB
# are written, then 40 MiB more some periods later: tier 0 (64 MiB) fills.
swt_create mq "$len" "$A" "$B" -- heat_period 500 demote_gate on || die "cannot create mq"
dd if=/tmp/mg.data of=/dev/mapper/mq bs=1M count=40 oflag=direct status=none || die "write failed"
a0=$(swt_stat mq agings)
poll '[ "$(swt_stat mq agings)" -ge '$((a0 + 4))' ]' 60 || nok gate-agings "no aging in 60 s"
dd if=/tmp/mg.data of=/dev/mapper/mq bs=1M count=40 skip=40 seek=40 oflag=direct status=none ||
	die "write failed"
check gate-closed-unread test "$(swt_stat mq demote_gate)" = 16
check gate-nothing-demoted test "$(swt_stat mq demoted)" = 0
check gate-spilled test "$(swt_tier_stat mq 1 mapped)" -gt 0
# read the newer 40 MiB until demotion starts (the counts halve every period)
for i in $(seq 30); do
	dd if=/dev/mapper/mq of=/dev/null bs=1M count=40 skip=40 iflag=direct status=none
	[ "$(swt_stat mq demoted)" -gt 0 ] && break
done
echo "# gate: $(swt_stat mq demote_gate) after $i reads of the newer half, demoted $(swt_stat mq demoted)"
check gate-opens-on-reads test "$(swt_stat mq demoted)" -gt 0
check data-after-gate cmp -s <(head -c $((80 << 20)) /tmp/mg.data) \
	<(dd if=/dev/mapper/mq bs=1M count=80 iflag=direct status=none)
check map-after-gate swt_check_map mq
dmsetup remove mq || nok remove-mq "cannot remove"
