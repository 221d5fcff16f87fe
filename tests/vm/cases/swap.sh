#!/bin/bash
# timeout: 1500
# debug-lane: full
# disks: a=ssd b=hdd c=hdd d=ssd (D: the native reference, swap on a bare
# SSD, the kind of device the target's swap-outs go to: its first tier)
# Swap on dm-swaptier under memory pressure: every page verified, discarded
# swap unmapped, and swap-out writes merged below the target. The same load
# on native swap over a bare device of the same kind is traced too: both
# are reported side by side (swap-merge-<series>.txt), and dm-swaptier must
# issue fewer and larger writes. A second run with migration on verifies
# every page while blocks move between tiers.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B C=$SWT_DISK_C D=$SWT_DISK_D
hog=$SWT_TOP/build/bin/memhog
BT_MASK=issue	# dispatches are all the summary counts
[ -x "$hog" ] || die "no $hog (tests/vm/build-tools.sh)"
# Three processes of 32 MiB in a memory cgroup of 48 MiB, one pass each
# (every page written, swapped out and read back): over 64 MiB swapped out
# per run (more than tier 0 holds) by the cgroup's reclaim, on the same
# swap-out path as a guest short of memory, without thrashing the whole
# guest (3 x 100 MiB in a 256 MiB guest took 145-190 s of the lane)
mib=32 cgmax=48
echo "# memhog: 3 x $mib MiB, 1 pass, in a memory cgroup of $cgmax MiB"

# --- native swap on a bare device: the reference
mkswap -q "$D" >/dev/null || die "mkswap $D"
swapon "$D" || die "swapon $D"
bt_start /tmp/bt-bare "$D" || die "blktrace did not start"
memcg_hog swap "$cgmax" /tmp/hog-bare.log 3 "$mib" 1
hrc=$?
bt_stop
check native-trace-complete bt_complete
swapoff "$D"
check native-verified test $hrc = 0
read -r bw bws br brs < <(bt_summary /tmp/bt-bare "$D")

# --- the same on dm-swaptier over three tiers; migration off for the
# traced run, so that every write counted is a swap-out (kcopyd's copies
# would add their own), then a second run with migration on
swt_create sw "$(swt_max_len "$A" "$B" "$C")" "$A" "$B" "$C" -- discard_passdown \
	migration off || die "cannot create"
mkswap -q /dev/mapper/sw >/dev/null || die "mkswap"
swapon --discard /dev/mapper/sw || die "swapon"
bt_start /tmp/bt-swt "$A" "$B" "$C" || die "blktrace did not start"
memcg_hog swap "$cgmax" /tmp/hog-swt.log 3 "$mib" 1
hrc=$?
bt_stop
check trace-complete bt_complete
check verified test $hrc = 0
sed 's/^/# /' /tmp/hog-swt.log | tail -n 1
dmsetup message sw 0 stats | sed 's/^/# stats: /'
peak_written=$(swt_stat sw write_allocs)
check swapped-out test "$peak_written" -gt 0
before=$(swt_stat sw mapped)
swapoff /dev/mapper/sw
# swap discards what it frees; the trim worker unmaps asynchronously:
# wait until it has nothing left (a cluster swap still held keeps its
# blocks mapped, so "mapped" need not fall)
check trims-done poll '[ "$(swt_stat sw pending ready trimming)" = "0 0 0" ]' 30
after=$(swt_stat sw mapped)
echo "# mapped blocks: $before before swapoff, $after after"
discarded=$(swt_stat sw discarded_blocks)
check discards-unmap test "$discarded" -gt 0
check map-consistent swt_check_map sw

sw=0 sws=0 sr=0 srs=0
for d in "$A" "$B" "$C"; do
	read -r w ws r rs < <(bt_summary /tmp/bt-swt "$d")
	echo "# $(basename "$d"): $w writes ($((ws / 2)) KiB), $r reads ($((rs / 2)) KiB)"
	sw=$((sw + w)); sws=$((sws + ws)); sr=$((sr + r)); srs=$((srs + rs))
done
avg() { [ "$1" -gt 0 ] && echo $(($2 / 2 / $1)) || echo 0; }
echo "# native:    $bw writes, avg $(avg "$bw" "$bws") KiB; $br reads, avg $(avg "$br" "$brs") KiB"
echo "# swaptier:  $sw writes, avg $(avg "$sw" "$sws") KiB; $sr reads, avg $(avg "$sr" "$srs") KiB"
echo "$bw $bws $br $brs $sw $sws $sr $srs" >"$SWT_OUT/swap-merge-$SWT_SERIES.txt"
check native-traced test "$bw" -gt 0
check traced test "$sw" -gt 0
# swap submits one 4 KiB bio per page: dispatched writes of 32 KiB or more
# on average mean the target's consecutive placement let them merge
check writes-merged test "$(avg "$sw" "$sws")" -ge 32
# against native swap on a bare device of the same kind: swap-outs that
# arrive close together, from any task or CPU, are placed as one run
# (write_batch), so the target issues fewer and larger writes
sa=$(avg "$sw" "$sws") ba=$(avg "$bw" "$bws")
echo "# swaptier/native: $((sw * 100 / (bw ? bw : 1)))% of the write requests," \
	"$((sa * 100 / (ba ? ba : 1)))% of the average size"
check fewer-writes-than-native test "$sw" -lt "$bw"
check larger-writes-than-native test "$sa" -gt "$ba"
seq=$(swt_stat sw seq_writes) allocs=$(swt_stat sw write_allocs)
echo "# $seq of $allocs write allocations continued their CPU's previous one"
check writes-sequential test $((seq * 100)) -ge $((allocs * 90))

# --- again with migration on: demotion runs under the swap load (at any
# heat, so that it does within this short run)
dmsetup message sw 0 set demote_heat 255 || die "demote_heat"
dmsetup message sw 0 set demote_gate off || die "demote_gate"
dmsetup message sw 0 migration on || die "migration on"
swapon --discard /dev/mapper/sw || die "swapon"
memcg_hog swap "$cgmax" /tmp/hog-mig.log 3 "$mib" 1
hrc=$?
sed 's/^/# /' /tmp/hog-mig.log | tail -n 1
check verified-with-migration test $hrc = 0
echo "# migration: demoted $(swt_stat sw demoted), promoted $(swt_stat sw promoted), abandoned $(swt_stat sw abandoned)"
check migrated-under-swap test "$(swt_stat sw demoted)" -gt 0
swapoff /dev/mapper/sw
check map-after-migration swt_check_map sw
dmsetup remove sw
