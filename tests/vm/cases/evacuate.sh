#!/bin/bash
# timeout: 900
# disks: a=ssd b=hdd c=hdd d=hdd
# Evacuate the middle tier of three while a reader checks the data, then
# put a new, larger device in its place with a table reload: every block
# reads back the same, and the new tier takes blocks again.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B C=$SWT_DISK_C D=$SWT_DISK_D
len=$((256 << 11))	# 256 MiB: tiers 0 and 2 (320 MiB) can hold it all
swt_create ev "$len" "$A" "$B" "$C" || die "cannot create"
# (tmpfs holds half the guest's memory: compare against the device directly)
head -c $((160 << 20)) /dev/urandom >/tmp/ev.data
readback() { dd if=/dev/mapper/ev bs=1M count="$1" skip="${2:-0}" iflag=direct status=none; }
dd if=/tmp/ev.data of=/dev/mapper/ev bs=1M oflag=direct status=none || die "write failed"
b_used=$(swt_tier_stat ev 1 mapped)
check tier1-used test "$b_used" -gt 0
check evacuate-cancel-idle dmsetup message ev 0 evacuate cancel
check evacuate dmsetup message ev 0 evacuate 1
check evacuate-busy bash -c '! dmsetup message ev 0 evacuate 2 2>/dev/null'
# read everything back, and write elsewhere, while the evacuation runs
fio_verify during-evacuation /dev/mapper/ev 32M 1 --offset=168M >/tmp/fio.res &
fpid=$!
check data-during-evacuation cmp -s /tmp/ev.data <(readback 160)
wait $fpid
cat /tmp/fio.res
if poll '[ "$(swt_stat ev evacuate_left)" = 0 ] && [ "$(swt_stat ev tier_state)" = "-X-" ]' 300; then
	ok evacuated
else
	nok evacuated "left $(swt_stat ev evacuate_left), states $(swt_stat ev tier_state)"
fi
check evacuated-count test "$(swt_stat ev evacuated)" -ge "$b_used"
# the whole map, however many replies it takes
check no-tier1-extents bash -c "m=\$('$SWT_TOP/build/bin/dmswaptier' map ev) && ! awk '\$3 == 1' <<<\"\$m\" | grep -q ."
# writes during the evacuation avoid tier 1
dd if=/tmp/ev.data of=/dev/mapper/ev bs=1M count=8 seek=200 oflag=direct status=none
check writes-avoid-tier1 test "$(swt_tier_stat ev 1 mapped)" = 0
"$SWT_TOP/build/bin/dmswaptier" status ev | sed 's/^/# /'
# a reload that changes a tier that is not evacuated is refused
check reload-refused bash -c "! dmsetup reload ev --table '0 $len swaptier 3 $D $B $C' 2>/dev/null"
dmsetup clear ev 2>/dev/null
check reload-replace bash -c "dmsetup reload ev --table '0 $len swaptier 3 $A $D $C' && dmsetup resume ev"
check table-has-new bash -c "dmsetup table ev | grep -q '$(dev_mm "$D")'"
# no tier evacuating or evacuated any more; tier 0 may be demoting into
# the new, empty tier 1 (it is full, and with demote_heat 1 its unread
# blocks may go down at once)
st=$(swt_stat ev tier_state)
echo "# states after the reload: $st"
check states-after-replace grep -qxE '[-D]--' <<<"$st"
check evacuate-cleared test "$(swt_stat ev evacuate)" = "-"
check data-after-replace cmp -s /tmp/ev.data <(readback 160)
# the new tier 1 takes blocks again once tier 0 is full
dd if=/tmp/ev.data of=/dev/mapper/ev bs=1M count=48 seek=200 oflag=direct status=none
check new-tier1-used test "$(swt_tier_stat ev 1 mapped)" -gt 0
check new-data-back cmp -s <(head -c $((48 << 20)) /tmp/ev.data) <(readback 48 200)
check map-consistent swt_check_map ev
dmsetup remove ev || nok remove "cannot remove"
