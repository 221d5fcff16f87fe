#!/bin/bash
# timeout: 300
# debug-lane: full
# disks: a=ssd b=hdd c=hdd
# Big tiers and big maps (review items 4 and 10 of issue 15).
# - A 3 TiB tier (a whole large HDD as the slow tier) under a 128 MiB
#   device: the map uses only what <len> can need of it, where it used to
#   size the reverse map by the whole disk (3 GiB, refused by kvmalloc with
#   a warning). The 3 TiB device is disk B (256 MiB) followed by the
#   "error" target: the allocator fills a tier from its start, and any I/O
#   past B fails loudly (fio's verify would report it).
# - The map message on a fragmented device stops before the reply buffer
#   fills and says where to go on ("next <block>"); dmswaptier map asks
#   again until the range is covered.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B
bsz=$(blockdev --getsz "$B")
printf '0 %s linear %s 0\n%s %s error\n' "$bsz" "$B" "$bsz" $(((3 << 31) - bsz)) |
	dmsetup create huge || die "cannot make a 3 TiB tier"
H=/dev/mapper/huge
len=$((128 << 11))
if swt_create bt "$len" "$A" "$H"; then ok huge-tier
else die "a 3 TiB tier under a 128 MiB device was refused: $(dmesg | grep swaptier | tail -n 1)"; fi
nl=$((len / 8))
check tier-use test "$(swt_tier_stat bt 1 blocks)" = $((nl + 262144))
map=$(swt_stat bt map_bytes)
echo "# map_bytes $map for a 3 TiB tier under $nl blocks"
check map-memory test "$map" -lt $((16 << 20))
# data on both tiers, read back: tier 0 filled first, then the slow one
dd if=/dev/zero of=/dev/mapper/bt bs=1M count=60 oflag=direct status=none
fio_verify both-tiers /dev/mapper/bt 16M 2 --offset=64M
check tier1-holds-data test "$(swt_tier_stat bt 1 mapped)" -gt 0
check huge-map-consistent swt_check_map bt
dmsetup remove bt

# every other block of 32768: as many extents, far more than one reply holds
swt_create mm "$len" "$SWT_DISK_C" || die "cannot create mm"
fio --name=holes --filename=/dev/mapper/mm --direct=1 --ioengine=libaio \
	--iodepth=32 --rw=write:4k --bs=4k --size=128M >/tmp/holes.fio 2>&1 ||
	die "fio failed"
reply=$(dmsetup message mm 0 map 0 "$nl")
last=$(echo "$reply" | tail -n 1)
echo "# first reply: $(echo "$reply" | wc -l) lines, last '$last'"
check reply-says-next bash -c "echo '$last' | grep -qE '^next [0-9]+\$'"
next=${last#next }
check next-follows test "$(echo "$reply" | tail -n 2 | head -n 1 | awk '{print $1 + $2}')" = "$next"
check next-reply bash -c "dmsetup message mm 0 map $next $((nl - next)) | head -n 1 | grep -q '^$next '"
"$SWT_TOP/build/bin/dmswaptier" map mm >/tmp/mm.map 2>/tmp/mm.err || nok tool-map "$(cat /tmp/mm.err)"
check tool-covers-all test "$(awk '{s += $2} END {print s}' /tmp/mm.map)" = "$nl"
check tool-extents test "$(wc -l </tmp/mm.map)" = $((nl))
check tool-no-next bash -c "! grep -q next /tmp/mm.map"
check tool-summary bash -c "'$SWT_TOP/build/bin/dmswaptier' map mm --summary | grep -q 'tier 0: 16384 blocks in 16384 extents'"
dmsetup remove mm
dmsetup remove huge
