#!/bin/bash
# The checks of a systemd boot (tests/vm/boot/systemd.sh), run by a unit
# ordered after dmswaptier.service: one ok/not ok line per check in
# $SWT_OUT/results, the number of failures in $SWT_OUT/rc, then power off
# at once.
#
#   report.sh MODE    (the mode setup.sh prepared)
mode=$1
CASE=boot
. "$SWT_TOP/tests/vm/lib.sh"
exec >"$SWT_OUT/results" 2>&1
by_id=/dev/disk/by-id/virtio-swt

# activate exits 2 when it skipped a device: the unit is active either way
check unit-active systemctl is-active -q dmswaptier.service
check module-loaded test -d /sys/module/dm_swaptier
check module-from-updates bash -c "modinfo -n dm-swaptier | grep -q '/updates/dkms/dm-swaptier.ko$'"
check device dmsetup info bootswap
check swap-on test "$(swap_prio bootswap)" = 5
check tiers-by-id bash -c "dmsetup table bootswap | grep -q ' 2 $(dev_mm "${by_id}-a") $(dev_mm "${by_id}-b") '"
check options bash -c "dmsetup table bootswap | grep -q ' discard_passdown$'"
journalctl -b -u dmswaptier.service --no-pager -o cat >"$SWT_OUT/journal.txt" 2>&1
# the journal holds the unit's run (so that what follows checks something)
check journal-read grep -q 'dmswaptier' "$SWT_OUT/journal.txt"
check journal-no-dm-error bash -c "! grep -q 'ioctl' '$SWT_OUT/journal.txt'"
if [ "$mode" = missing ]; then
	check missing/said grep -q "bootgone: tier ${by_id}-gone is missing" "$SWT_OUT/journal.txt"
	check missing/not-created bash -c '! dmsetup info bootgone >/dev/null 2>&1'
fi
# what systemd runs at shutdown: the unit's stop swaps off and removes
check stop systemctl stop dmswaptier.service
check stop/swap-off test -z "$(swap_prio bootswap)"
check stop/removed bash -c '! dmsetup info bootswap >/dev/null 2>&1'
systemctl status dmswaptier.service --no-pager >>"$SWT_OUT/journal.txt" 2>&1
echo "$FAILED" >"$SWT_OUT/rc"
sync
cat "$SWT_OUT/results" >/dev/console
# the unit's stop was checked above: power off at once (a clean shutdown
# would only wait on the shares it cannot unmount)
systemctl poweroff --force --force
