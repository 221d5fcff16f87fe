#!/bin/bash
# timeout: 300
# debug-lane: full
# kernels: 6.1 (its kernel paths are every case's create, swapon and remove on
# both kernels, and the systemd boot test activates on both)
# disks: a=ssd b=hdd c=hdd d=hdd
# dmswaptier activate and deactivate, as the boot unit runs them, from a
# configuration naming the guest's disks: every device whose tiers exist
# is created and swapped on with its options, size, priority and discard
# setting; one whose tier is missing is waited for (its "wait"), then
# skipped with a clear error that does not stop the others; activating
# the whole file again changes nothing; a broken file activates nothing;
# deactivate undoes what activate recorded under /run/dmswaptier whatever
# the file says by then, and the file's devices with no record; a device
# whose swapon fails is removed again; a tier holding a filesystem is
# refused unless "force = yes"; a tier path that appears during the wait
# is used; a tier shared with an earlier section (by another path), two
# paths of one disk in a section, a tier another dm device stands on and
# one swapped on directly are refused; a tier path with a backslash (as
# by-partlabel links have) works, the table getting device numbers.
# Whatever the case made is removed on every exit (a trap).
# (The unit file itself is checked on the host: tests/tool/run.sh.)
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B C=$SWT_DISK_C D=$SWT_DISK_D
T=$SWT_TOP/build/bin/dmswaptier
RUN=/run/dmswaptier
[ -x "$T" ] || die "no $T (make tool)"

# Every device name this case uses: on any exit, swapped off and removed,
# their records dropped, so that a failure here leaves nothing to later
# cases.
NAMES="act0 act1 act2 act3 actfs actlin"
late_pid=
cleanup() {
	local n
	[ -n "$late_pid" ] && kill "$late_pid" 2>/dev/null
	swapoff "$D" 2>/dev/null
	rm -f /tmp/act-alias-B /tmp/act-alias-C '/tmp/Linux\x20swap'
	for n in $NAMES; do
		if dmsetup info "$n" >/dev/null 2>&1; then
			swapoff "/dev/mapper/$n" 2>/dev/null
			dmsetup remove --retry "$n" >/dev/null 2>&1 ||
				echo "# cleanup: cannot remove $n"
		fi
		rm -f "$RUN/$n"
	done
}
trap cleanup EXIT
trap 'exit 143' TERM INT
cleanup
# What earlier cases left on the disks would be refused as data (a swap
# signature would not): start from blank disks.
wipefs -a "$A" "$B" "$C" "$D" >/dev/null 2>&1

dm_num() { dmsetup info -c --noheadings --separator : -o major,minor "$1" 2>/dev/null; }
ms() { echo $(($(date +%s%N) / 1000000)); }

conf=/tmp/dmswaptier.conf
# act1 first: its wait starts with activate, and the others come after it
cat >"$conf" <<CONF
# as a user writes it
[act1]
tiers = /dev/disk/by-id/no-such-disk $C
wait = 2

[act0]
tiers = $A $B
options = discard_passdown demote_heat=1
priority = 7

[act2]
tiers = $C $D
size = 128M
discard = no
CONF

# --- activate the whole file
t0=$(ms)
"$T" activate --config "$conf" >/tmp/act.out 2>/tmp/act.err
rc=$? t1=$(ms)
sed 's/^/# activate: /' /tmp/act.err
check exit-2-for-missing-tier test $rc = 2
check says-which-tier grep -q 'act1: tier /dev/disk/by-id/no-such-disk is missing' /tmp/act.err
# a device about to be created does not exist yet: that is no error, and
# libdevmapper's "table ioctl ... failed" must not reach the journal
check no-dm-error-for-new-device bash -c "! grep -q 'ioctl' /tmp/act.err"
check missing-tier-waited grep -Eq 'act1: waiting up to [12] s for tier /dev/disk/by-id/no-such-disk' /tmp/act.err
check missing-tier-wait-bounded test $((t1 - t0)) -ge 2000 -a $((t1 - t0)) -lt 30000
check act0-swap test "$(swap_prio act0)" = 7
check act0-options bash -c "dmsetup table act0 | grep -q 'discard_passdown' &&
	dmsetup table act0 | grep -q 'demote_heat 1'"
# discard = yes: swapon --discard discarded the whole area at swapon (the
# target counts it); discard = no: swapon without it, not one discard
check act0-discard-on test "$(swt_stat act0 discards)" -gt 0
check act1-not-created bash -c "! dmsetup info act1 >/dev/null 2>&1"
check act2-swap test -n "$(swap_prio act2)"
check act2-no-priority-kernel-default test "$(swap_prio act2)" -lt 0
check act2-size test "$(blockdev --getsize64 /dev/mapper/act2)" = $((128 << 20))
check act2-discard-off test "$(swt_stat act2 discards)" = 0
# what activate made is recorded; nothing for the device it skipped
check record-act0 grep -qx "dev=$(dm_num act0)" "$RUN/act0"
check record-act0-tiers bash -c "grep -qx 'tier=$A $(dev_mm "$A")' '$RUN/act0' &&
	grep -qx 'tier=$B $(dev_mm "$B")' '$RUN/act0'"
check record-act2 grep -qx "dev=$(dm_num act2)" "$RUN/act2"
check no-record-act1 test ! -e "$RUN/act1"

# --- the whole file again: the active devices are left as they are (same
# device numbers, the same swap areas, no second swapon: no more discards),
# the missing tier is reported again
num0=$(dm_num act0) num2=$(dm_num act2)
swaps=$(swapon --show=NAME,PRIO --noheadings --raw | sort)
disc0=$(swt_stat act0 discards)
cp "$RUN/act0" /tmp/rec0 && cp "$RUN/act2" /tmp/rec2
"$T" activate --config "$conf" >/dev/null 2>/tmp/again.err
check again-exit-2 test $? = 2
check again-same-devices test "$(dm_num act0) $(dm_num act2)" = "$num0 $num2"
check again-same-swaps test "$(swapon --show=NAME,PRIO --noheadings --raw | sort)" = "$swaps"
check again-no-swapon test "$(swt_stat act0 discards)" = "$disc0"
check again-records-kept bash -c "cmp -s /tmp/rec0 '$RUN/act0' && cmp -s /tmp/rec2 '$RUN/act2'"
check again-only-act1 test "$(grep -c 'not activated' /tmp/again.err)" = 1
"$T" activate act0 --config "$conf" 2>/tmp/act0.err
check again-one-ok test $? = 0

# --- a broken file is a usage error naming the line; nothing changes
printf '[x]\ntiers /dev/a\n' >/tmp/bad.conf
"$T" activate --config /tmp/bad.conf 2>/tmp/bad.err
check bad-conf-exit-1 test $? = 1
check bad-conf-line grep -q '/tmp/bad.conf:2:' /tmp/bad.err
printf '[act3]\ntiers = %s\npriority = 40000\n' "$C" >/tmp/bad.conf
"$T" activate --config /tmp/bad.conf 2>/tmp/bad.err
check bad-priority-exit-1 test $? = 1
check bad-priority-line grep -q "/tmp/bad.conf:3: priority: '40000'" /tmp/bad.err
check bad-conf-nothing-made bash -c "! dmsetup info act3 >/dev/null 2>&1"

# --- deactivate goes by the records, not by the file as it is by then: a
# file that no longer names the devices still removes them
printf '# emptied since activate\n' >/tmp/empty.conf
"$T" deactivate --config /tmp/empty.conf
check deactivate-ok test $? = 0
check all-removed bash -c "! dmsetup info act0 >/dev/null 2>&1 && ! dmsetup info act2 >/dev/null 2>&1"
check no-swap-left test -z "$(swapon --show --noheadings)"
check records-removed bash -c "[ ! -e '$RUN/act0' ] && [ ! -e '$RUN/act2' ]"
"$T" deactivate --config "$conf"
check deactivate-again-ok test $? = 0
# a device of the file with no record (made by hand): removed by the file
"$T" create act2 "$C" "$D" --size 64M --swap >/dev/null 2>&1 || nok hand-made "create failed"
"$T" deactivate --config "$conf"
check deactivate-unrecorded-by-file test $? = 0
check unrecorded-removed bash -c "! dmsetup info act2 >/dev/null 2>&1"

# --- swapon fails: the device this activation made is removed again, and
# the next activate is not blocked by it
fake=/tmp/act-fake
mkdir -p "$fake" && printf '#!/bin/sh\nexit 1\n' >"$fake/swapon" && chmod +x "$fake/swapon"
printf '[act3]\ntiers = %s %s\n' "$C" "$D" >/tmp/act3.conf
PATH=$fake:$PATH "$T" activate --config /tmp/act3.conf 2>/tmp/act3.err
check rollback-exit-2 test $? = 2
sed 's/^/# swapon fails: /' /tmp/act3.err
check rollback-says grep -q 'act3: not activated: the device it made is removed again' /tmp/act3.err
check rollback-removed bash -c "! dmsetup info act3 >/dev/null 2>&1"
check rollback-no-record test ! -e "$RUN/act3"
"$T" activate --config /tmp/act3.conf 2>/dev/null
check after-rollback-ok test $? = 0
check after-rollback-swap test -n "$(swap_prio act3)"
"$T" deactivate act3 --config /tmp/act3.conf
check after-rollback-removed bash -c "! dmsetup info act3 >/dev/null 2>&1"

# --- a tier holding a filesystem is refused, unless force = yes
mkfs.ext4 -q -F "$C" >/dev/null 2>&1 || nok mkfs "mkfs.ext4 $C failed"
printf '[actfs]\ntiers = %s\n' "$C" >/tmp/fs.conf
"$T" activate --config /tmp/fs.conf 2>/tmp/fs.err
check fs-refused-exit-2 test $? = 2
check fs-refused-says grep -q "actfs: tier $C holds ext4: not activated (force = yes" /tmp/fs.err
check fs-refused-not-created bash -c "! dmsetup info actfs >/dev/null 2>&1"
printf '[actfs]\ntiers = %s\nforce = yes\n' "$C" >/tmp/fs.conf
"$T" activate --config /tmp/fs.conf 2>/tmp/fs.err
check fs-forced-ok test $? = 0
check fs-forced-swap test -n "$(swap_prio actfs)"
"$T" deactivate --config /tmp/fs.conf
check fs-forced-removed bash -c "! dmsetup info actfs >/dev/null 2>&1"
# a swap signature on a tier (as the first tier of a device swapped on
# before may show) is not data: used without force
wipefs -a "$C" >/dev/null 2>&1
mkswap "$C" >/dev/null 2>&1 || nok mkswap "mkswap $C failed"
check tier-shows-swap test "$(blkid -p -o value -s TYPE "$C")" = swap
printf '[actfs]\ntiers = %s\n' "$C" >/tmp/fs.conf
"$T" activate --config /tmp/fs.conf 2>/tmp/fs.err
check tier-with-swap-signature-ok test $? = 0
"$T" deactivate --config /tmp/fs.conf
check tier-with-swap-signature-removed bash -c "! dmsetup info actfs >/dev/null 2>&1"

# --- a tier path that appears during the wait (as udev makes a by-id link
# after a slow disk is found) is used
rm -f /tmp/act-late
printf '[act3]\ntiers = /tmp/act-late %s\nwait = 20\n' "$D" >/tmp/late.conf
(sleep 1 && ln -s "$B" /tmp/act-late) &
late_pid=$!
t0=$(ms)
"$T" activate --config /tmp/late.conf 2>/tmp/late.err
rc=$? t1=$(ms)
wait "$late_pid"
late_pid=
sed 's/^/# late tier: /' /tmp/late.err
check late-tier-ok test $rc = 0
check late-tier-waited grep -q 'act3: waiting up to [0-9]* s for tier /tmp/act-late' /tmp/late.err
check late-tier-wait-time test $((t1 - t0)) -ge 500 -a $((t1 - t0)) -lt 20000
check late-tier-swap test -n "$(swap_prio act3)"
"$T" deactivate --config /tmp/late.conf
check late-tier-removed bash -c "! dmsetup info act3 >/dev/null 2>&1"

# --- one disk for two sections (by another path): the later one is
# skipped, the earlier activated; two paths of one disk in one section
ln -sfn "$B" /tmp/act-alias-B
ln -sfn "$C" /tmp/act-alias-C
printf '[act0]\ntiers = %s %s\n[act3]\ntiers = /tmp/act-alias-B %s\n' "$A" "$B" "$C" \
	>/tmp/shared.conf
"$T" activate --config /tmp/shared.conf 2>/tmp/shared.err
check shared-exit-2 test $? = 2
sed 's/^/# shared tier: /' /tmp/shared.err
check shared-says grep -q "act3: tier /tmp/act-alias-B is device $(dev_mm "$B"), a tier of \[act0\] already (as $B): not activated" /tmp/shared.err
check shared-first-swap test -n "$(swap_prio act0)"
check shared-later-not-created bash -c "! dmsetup info act3 >/dev/null 2>&1"
"$T" deactivate --config /tmp/shared.conf
check shared-removed bash -c "! dmsetup info act0 >/dev/null 2>&1"
printf '[act3]\ntiers = %s /tmp/act-alias-C\n' "$C" >/tmp/twice.conf
"$T" activate --config /tmp/twice.conf 2>/tmp/twice.err
check one-disk-twice-exit-2 test $? = 2
check one-disk-twice-says grep -q "act3: tiers $C and /tmp/act-alias-C are one device" /tmp/twice.err
check one-disk-twice-not-created bash -c "! dmsetup info act3 >/dev/null 2>&1"

# --- a tier another device stands on (a dm table shares it), or swapped
# on by itself, is in use: refused
printf '[act3]\ntiers = %s\n' "$D" >/tmp/busy.conf
echo "0 8192 linear $D 0" | dmsetup create actlin || nok actlin "dmsetup create failed"
"$T" activate --config /tmp/busy.conf 2>/tmp/busy.err
check held-exit-2 test $? = 2
check held-says grep -q "act3: tier $D ($(dev_mm "$D")) is in use by dm-[0-9]* (actlin): not activated" /tmp/busy.err
check held-not-created bash -c "! dmsetup info act3 >/dev/null 2>&1"
dmsetup remove --retry actlin
mkswap "$D" >/dev/null 2>&1 && swapon "$D" || nok swapon-d "swapon $D failed"
"$T" activate --config /tmp/busy.conf 2>/tmp/busy.err
check swapped-on-exit-2 test $? = 2
check swapped-on-says grep -q "act3: tier $D ($(dev_mm "$D")) is in use (mounted, swap" /tmp/busy.err
check swapped-on-not-created bash -c "! dmsetup info act3 >/dev/null 2>&1"
swapoff "$D"

# --- a tier path with a backslash, as /dev/disk/by-partlabel/Linux\x20swap:
# the table gets device numbers, the record the path and the number
ln -sfn "$C" '/tmp/Linux\x20swap'
printf '[act3]\ntiers = /tmp/Linux\\x20swap %s\n' "$D" >/tmp/bs.conf
"$T" activate --config /tmp/bs.conf 2>/tmp/bs.err
check backslash-ok test $? = 0
sed 's/^/# backslash: /' /tmp/bs.err
check backslash-swap test -n "$(swap_prio act3)"
check backslash-table bash -c "dmsetup table act3 | grep -q ' 2 $(dev_mm "$C") $(dev_mm "$D")'"
check backslash-record grep -qxF "tier=/tmp/Linux\x20swap $(dev_mm "$C")" "$RUN/act3"
"$T" deactivate --config /tmp/bs.conf
check backslash-removed bash -c "! dmsetup info act3 >/dev/null 2>&1"
rm -f /tmp/act-alias-B /tmp/act-alias-C '/tmp/Linux\x20swap'
check nothing-left test -z "$(swapon --show --noheadings)"
