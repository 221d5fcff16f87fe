#!/bin/bash
# timeout: 400
# debug-lane: none
# disks: a=ssd b=hdd (the disk the in-guest NVMe/TCP target serves, standing for the remote server's)
# A network tier: an NVMe/TCP namespace as tier 1 behind disk A. The
# server is the kernel's own NVMe-oF target (nvmet) in this guest,
# exporting disk B over loopback TCP: it stands for a remote server's
# namespace, reached through the same host driver (nvme-tcp) with the
# same timeouts. No userspace tool is needed: the target is configured in
# configfs and the host connects through /dev/nvme-fabrics, as nvme-cli
# does. A remote server does not share the swapping machine's memory, so
# the swap load runs in a memory cgroup: its pages are swapped out by the
# cgroup's own reclaim, and the server here never waits on that reclaim
# (under global pressure it would, and its I/O would time out).
#  1. swap over A + the network tier: every page verified, tier 1 written;
#  2. evacuate moves every block off the network tier, which can then be
#     disconnected with the device still in use: its data reads back;
#  3. the server dies (its port goes away, connections are refused) and
#     the host keeps reconnecting (ctrl_loss_tmo -1): I/O to the tier's
#     blocks fails with EIO once fast_io_fail_tmo expires, not a hang;
#     tier 0's blocks read back; suspend, resume and dmsetup remove
#     return; failed copies to the dead tier pause migration instead of
#     looping; once the server is back, the tier's blocks read back.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B
cfg=/sys/kernel/config/nvmet
nqn=nqn.2026-12.org.example:swaptier-tier1
sub=$cfg/subsystems/$nqn port=$cfg/ports/1

# whatever the case made goes, however it ends
cleanup() {
	local c
	swapoff /dev/mapper/nt 2>/dev/null
	for d in nt nd; do dmsetup remove --retry "$d" 2>/dev/null; done
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$nqn" ] &&
			echo 1 >"$c/delete_controller" 2>/dev/null
	done
	rm -f "$port/subsystems/$nqn" 2>/dev/null
	rmdir "$port" "$sub/namespaces/1" "$sub" /sys/fs/cgroup/nvme-tcp 2>/dev/null
	rm -f /tmp/nt.data /tmp/nt-hog.log /tmp/nd-reader /tmp/nd-reading
}
trap cleanup EXIT
trap 'exit 143' TERM INT

for m in nvmet nvmet-tcp nvme-tcp; do
	swt_modprobe "$m" || die "cannot load $m (the kernel has no NVMe/TCP?)"
done
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config ||
	die "cannot mount configfs"
ip link set lo up || die "cannot bring up lo"

mkdir "$sub" && echo 1 >"$sub/attr_allow_any_host" &&
	mkdir "$sub/namespaces/1" && echo -n "$B" >"$sub/namespaces/1/device_path" &&
	echo 1 >"$sub/namespaces/1/enable" || die "cannot export $B with nvmet"
# open_port: the server listens (again)
open_port() {
	mkdir "$port" && echo tcp >"$port/addr_trtype" && echo ipv4 >"$port/addr_adrfam" &&
		echo 127.0.0.1 >"$port/addr_traddr" && echo 4420 >"$port/addr_trsvcid" &&
		ln -s "$sub" "$port/subsystems/$nqn"
}
open_port || die "cannot open the nvmet port"

# nvme_connect LOSS_TMO: connect to the namespace; sets CTRL (nvmeN) and
# NS (its block device). I/O fails 2 s after the host found the connection
# lost (fast_io_fail_tmo); the controller is given up after LOSS_TMO s
# (-1: never).
nvme_connect() {
	local r n
	exec 3<>/dev/nvme-fabrics || return 1
	echo "transport=tcp,traddr=127.0.0.1,trsvcid=4420,nqn=$nqn,reconnect_delay=1,fast_io_fail_tmo=2,ctrl_loss_tmo=$1" >&3 ||
		{ exec 3>&-; return 1; }
	read -r r <&3
	exec 3>&-
	# "instance=N,cntlid=M": controller nvmeN; its namespace shows as
	# nvmeXcNn1 (native multipath: the disk is nvmeXn1) or nvmeNn1
	n=${r#instance=}; n=${n%%,*}
	case $n in ''|*[!0-9]*) return 1 ;; esac
	CTRL=nvme$n
	poll "ls /sys/class/nvme/$CTRL/ 2>/dev/null | grep -q 'n1\$'" 20 || return 1
	NS=$(ls -d /sys/class/nvme/"$CTRL"/nvme*n1 | head -n 1 |
		sed 's|.*/\(nvme[0-9]*\)c[0-9]*\(n1\)$|/dev/\1\2|; s|.*/\(nvme[0-9]*n1\)$|/dev/\1|')
	[ -b "$NS" ]
}
nvme_connect 5 || die "cannot connect to the nvmet namespace"
N=$NS
echo "# network tier: $N (controller $CTRL), rotational $(cat /sys/block/"$(basename "$N")"/queue/rotational)"
check connected test "$(blockdev --getsz "$N")" = "$(blockdev --getsz "$B")"

# --- 1. swap over disk A and the network tier, from a memory cgroup
swt_create nt "$(swt_max_len "$A" "$N")" "$A" "$N" -- discard_passdown || die "cannot create over $N"
mkswap -q /dev/mapper/nt >/dev/null || die "mkswap"
swapon --discard /dev/mapper/nt || die "swapon"
# 3 x 64 MiB in 48 MiB: about 140 MiB swapped out, more than tier 0 holds
memcg_hog nvme-tcp 48 /tmp/nt-hog.log 3 64 1
check swap-verified test $? = 0
sed 's/^/# /' /tmp/nt-hog.log | tail -n 1
dmsetup message nt 0 stats | sed 's/^/# stats: /'
check swap-swapped-out test "$(swt_stat nt write_allocs)" -gt 20000
# tier 1 took swap-outs (writes) or demoted blocks (copies)
check swap-tier1-used test $(($(swt_tier_stat nt 1 writes) + $(swt_stat nt demoted))) -gt 0
check swap-no-errors test "$(swt_tier_stat nt 0 errors)$(swt_tier_stat nt 1 errors)" = 00
swapoff /dev/mapper/nt || die "swapoff"
check swap-map-consistent swt_check_map nt

# --- 2. evacuate the network tier, then disconnect it. Evacuation needs
# the other tiers to hold the whole device: one no larger than disk A
dmsetup remove nt || die "cannot remove nt"
el=$(($(dev_blocks "$A") - 1024))
swt_create nt $((el * 8)) "$A" "$N" || die "cannot create the evacuable device"
t0=$(swt_tier_stat nt 0 blocks)
head -c $(((t0 + 1024) * 4096)) /dev/urandom >/tmp/nt.data
dd if=/tmp/nt.data of=/dev/mapper/nt bs=1M count=$((el / 256)) oflag=direct status=none || die "write"
# demotion takes blocks down to the network tier
dmsetup message nt 0 set high_watermark 60 && dmsetup message nt 0 set low_watermark 50 &&
	dmsetup message nt 0 set demote_heat 255 && dmsetup message nt 0 set demote_gate off ||
		die "cannot start demotion"
check evac/on-tier1 poll '[ "$(swt_tier_stat nt 1 mapped)" -ge 1024 ]' 120
check evac/start dmsetup message nt 0 evacuate 1
check evac/done poll '[ "$(swt_stat nt evacuate_left)" = 0 ] && [ "$(swt_stat nt tier_state)" = -X ]' 120
check evac/tier1-empty test "$(swt_tier_stat nt 1 mapped)" = 0
echo 1 >"/sys/class/nvme/$CTRL/delete_controller" || die "cannot disconnect"
check evac/disconnected poll "[ ! -e /sys/class/nvme/$CTRL ]" 20
# (compared without a copy: /tmp is a small tmpfs)
check evac/reads-back cmp -s <(dd if=/dev/mapper/nt bs=1M count=$((el / 256)) iflag=direct status=none) \
	<(head -c $((el / 256 * 1048576)) /tmp/nt.data)
check evac/no-errors test "$(swt_tier_stat nt 1 errors)" = 0
check evac/remove timeout 60 dmsetup remove nt

# --- 3. the server dies while the tier is in use
nvme_connect -1 || die "cannot connect again"
N=$NS
swt_create nd "$(swt_max_len "$A" "$N")" "$A" "$N" -- migration off || die "cannot create over $N"
t0=$(swt_tier_stat nd 0 blocks)
dd if=/tmp/nt.data of=/dev/mapper/nd bs=1M oflag=direct status=none || die "write"
check death/on-tier1 test "$(dmsetup message nd 0 map "$t0" 1 | cut -d' ' -f3)" = 1
# eio CMD...: the command fails with an I/O error within 60 s (a hang,
# timeout's 124, fails the check)
eio() {
	local out rc
	out=$(timeout 60 "$@" 2>&1); rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'Input/output error' <<<"$out"
}
# a reader of tier 1's blocks runs when the server goes
dmesg_mark
touch /tmp/nd-reading
(while [ -e /tmp/nd-reading ]; do
	dd if=/dev/mapper/nd of=/dev/null bs=4k skip="$t0" count=1024 iflag=direct status=none 2>/dev/null ||
		{ echo failed >/tmp/nd-reader; break; }
done) &
reader=$!
# the server goes: its connections close and new ones are refused, so the
# host keeps trying to reconnect
rm "$port/subsystems/$nqn" && rmdir "$port" || die "cannot take the server down"
check death/reader-fails poll '[ -e /tmp/nd-reader ]' 60
rm -f /tmp/nd-reading
wait $reader
check death/read-eio eio dd if=/dev/mapper/nd of=/dev/null bs=4k skip="$t0" count=1 iflag=direct status=none
check death/write-eio eio dd if=/dev/zero of=/dev/mapper/nd bs=4k seek="$t0" count=1 oflag=direct status=none
check death/by-failfast bash -c "dmesg | tail -n +$((DMESG_MARK + 1)) | grep -q 'failfast expired'"
check death/controller-kept test -e "/sys/class/nvme/$CTRL"
check death/tier0-intact cmp -s <(dd if=/dev/mapper/nd bs=4k count="$t0" iflag=direct status=none) \
	<(head -c $((t0 * 4096)) /tmp/nt.data)
check death/errors-counted test "$(swt_tier_stat nd 1 errors)" -ge 1
check death/tier0-no-errors test "$(swt_tier_stat nd 0 errors)" = 0
check death/map-consistent swt_check_map nd
check death/suspend timeout 60 dmsetup suspend nd
check death/resume timeout 60 dmsetup resume nd
# demotion into the dead tier: its copies fail, and the engine pauses a
# second after each failure instead of planning the next ones at once
# (about 1500 failed copies a second before target 1.6.0; now at most
# one round of 16 copies a second)
dmsetup message nd 0 set high_watermark 60 && dmsetup message nd 0 set low_watermark 50 &&
	dmsetup message nd 0 set demote_heat 255 && dmsetup message nd 0 set demote_gate off &&
		dmsetup message nd 0 migration on ||
	die "cannot start demotion"
check death/copies-fail poll '[ "$(swt_stat nd migration_errors)" -ge 1 ]' 30
e1=$(swt_stat nd migration_errors)
sleep 3	# a window to count failed copies in, not a synchronisation
e2=$(swt_stat nd migration_errors)
echo "# failed copies in 3 s: $((e2 - e1))"
check death/copies-paused test $((e2 - e1)) -le 160
dmsetup message nd 0 migration off || die "migration off"
# the server comes back: the host reconnects and the tier's blocks read
open_port || die "cannot reopen the nvmet port"
check back/reads poll "dd if=/dev/mapper/nd of=/dev/null bs=4k skip=$t0 count=1 iflag=direct status=none 2>/dev/null" 60
check back/tier1-intact cmp -s <(dd if=/dev/mapper/nd bs=4k skip="$t0" count=1024 iflag=direct status=none) \
	<(tail -c +$((t0 * 4096 + 1)) /tmp/nt.data)
check back/map-consistent swt_check_map nd
check death/remove timeout 60 dmsetup remove nd
