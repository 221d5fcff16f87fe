#!/bin/bash
# timeout: 300
# dmswaptier activate and deactivate, as the boot unit runs them, from a
# configuration naming the guest's disks: every device whose tiers exist
# is created and swapped on with its options, size and priority; one whose
# tier is missing gets a clear error and does not stop the others; a
# second activate leaves active devices alone; deactivate undoes it all.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B C=$SWT_DISK_C D=$SWT_DISK_D
T=$SWT_TOP/build/bin/dmswaptier
[ -x "$T" ] || die "no $T (make tool)"
conf=/tmp/dmswaptier.conf
cat >"$conf" <<CONF
# as a user writes it
[act0]
tiers = $A $B
options = discard_passdown demote_heat=1
priority = 7

[act1]
tiers = /dev/disk/by-id/no-such-disk $C

[act2]
tiers = $C $D
size = 128M
discard = no
CONF
"$T" activate --config "$conf" >/tmp/act.out 2>/tmp/act.err
rc=$?
sed 's/^/# activate: /' /tmp/act.err
check exit-2-for-missing-tier test $rc = 2
check says-which-tier grep -q 'act1: tier /dev/disk/by-id/no-such-disk' /tmp/act.err
swap_prio() {	# DEV: its priority in swapon --show, empty if not swap
	local dev; dev=$(readlink -f "/dev/mapper/$1")
	swapon --show=NAME,PRIO --noheadings --raw | awk -v d="$dev" '$1 == d {print $2}'
}
check act0-swap test "$(swap_prio act0)" = 7
check act0-options bash -c "dmsetup table act0 | grep -q 'discard_passdown' &&
	dmsetup table act0 | grep -q 'demote_heat 1'"
check act1-not-created bash -c "! dmsetup info act1 >/dev/null 2>&1"
check act2-swap test -n "$(swap_prio act2)"
check act2-size test "$(blockdev --getsize64 /dev/mapper/act2)" = $((128 << 20))
# again: the active ones are left alone (same device, still swapping)
dev0=$(readlink -f /dev/mapper/act0)
"$T" activate act0 --config "$conf" 2>/tmp/act2.err
check again-ok test $? = 0
check again-same-device test "$(readlink -f /dev/mapper/act0)" = "$dev0"
check again-still-swap test "$(swap_prio act0)" = 7
# a broken file is a usage error naming the line
printf '[x]\ntiers /dev/a\n' >/tmp/bad.conf
"$T" activate --config /tmp/bad.conf 2>/tmp/bad.err
check bad-conf-exit-1 test $? = 1
check bad-conf-line grep -q '/tmp/bad.conf:2:' /tmp/bad.err
"$T" deactivate --config "$conf"
check deactivate-ok test $? = 0
check all-removed bash -c "! dmsetup info act0 >/dev/null 2>&1 && ! dmsetup info act2 >/dev/null 2>&1"
check no-swap-left test -z "$(swapon --show --noheadings)"
"$T" deactivate --config "$conf"
check deactivate-again-ok test $? = 0
