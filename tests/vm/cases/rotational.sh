#!/bin/bash
# timeout: 900
# debug-lane: full
# disks: a=ssd d=hdd (the mission's pair: an SSD over a rotating disk)
# The mission's own pair: a small SSD over a large rotating disk. Disk A
# stands for the SSD (rotational 0) and disk D for the HDD (rotational 1),
# as the kernel sees them on a real machine (the harness sets them from
# the "# disks:" line, as for every case). A dm device is rotational as soon as one of its
# devices is, and swap then neither uses its cluster allocator nor sends
# discards: the target would never learn that a slot was freed. Here the
# device must report non-rotational (its first tier is), discards must
# arrive while swap runs, and the blocks mapped must follow what swap
# holds (SwapTotal - SwapFree), not everything ever written.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A D=$SWT_DISK_D
hog=$SWT_TOP/build/bin/memhog
[ -x "$hog" ] || die "no $hog (tests/vm/build-tools.sh)"
swt_create rt "$(swt_max_len "$A" "$D")" "$A" "$D" -- discard_passdown ||
	die "cannot create"
dm=/sys/block/dm-$(dmsetup info -c --noheadings -o minor rt)
check slow-tier-rotational test "$(cat "/sys/block/$(basename "$D")/queue/rotational")" = 1
check device-nonrotational test "$(cat "$dm/queue/rotational")" = 0
# a reload recomputes the device's limits: still non-rotational
dmsetup reload rt --table "$(dmsetup table rt)" && dmsetup resume rt
check nonrotational-after-reload test "$(cat "$dm/queue/rotational")" = 0
mkswap -q /dev/mapper/rt >/dev/null || die "mkswap"
swapon --discard /dev/mapper/rt || die "swapon"
d0=$(swt_stat rt discards)
# two processes of 64 MiB in a memory cgroup of 48 MiB, two passes: the
# second pass rewrites every page, which frees its slot at the swap-in,
# and the exit frees the rest
memcg_hog rotational 48 /tmp/hog-rt.log 2 64 2
hrc=$?
sed 's/^/# /' /tmp/hog-rt.log | tail -n 1
check verified test $hrc = 0
written=$(swt_stat rt write_allocs)
check swapped-out test "$written" -gt 25000
d1=$(swt_stat rt discards)
echo "# discards: $d0 at swapon, $d1 after the run; $written blocks written"
check discards-during-swap test "$d1" -gt $((d0 + 10))
# swap holds little now; the map must follow. Swap discards a cluster of
# 512 slots only once all of it is free, so a cluster that still holds a
# live page keeps its dead slots mapped: each page swap still holds can
# keep one cluster mapped (a CI run on 6.1 had 1152 pages pinning 36
# clusters, 18092 blocks). So: every logical cluster with a mapped block
# holds a live page (allow one cluster being filled per CPU), and far
# less than what was written stays mapped (without the discards: over
# half).
swap_blocks() { awk '/SwapTotal/ {t = $2} /SwapFree/ {f = $2} END {print int((t - f) / 4)}' /proc/meminfo; }
mapped_clusters() {
	"$SWT_TOP/build/bin/dmswaptier" map rt | awk '
		$3 != "-" { for (c = int($1 / 512); c <= int(($1 + $2 - 1) / 512); c++) s[c] = 1 }
		END { n = 0; for (c in s) n++; print n }'
}
cpus=$(nproc)
follows() {
	local m c; m=$(swt_stat rt mapped); c=$(mapped_clusters)
	[ "$c" -le $(($(swap_blocks) + cpus)) ] && [ "$m" -lt $((written / 3)) ]
}
if poll follows 60; then
	ok mapped-follows-swap
else
	nok mapped-follows-swap "$(swt_stat rt mapped) blocks in $(mapped_clusters) clusters mapped, swap holds $(swap_blocks) pages, $written written"
fi
echo "# mapped $(swt_stat rt mapped) blocks in $(mapped_clusters) clusters, swap holds $(swap_blocks) pages"
swapoff /dev/mapper/rt
check map-consistent swt_check_map rt
dmsetup remove rt
