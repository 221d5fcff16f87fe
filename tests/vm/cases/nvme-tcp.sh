#!/bin/bash
# timeout: 400
# mem: 256M
# debug-lane: none
# A network tier: an NVMe/TCP namespace as tier 1 behind disk A. The
# server is the kernel's own NVMe-oF target (nvmet) in this guest,
# exporting disk B over loopback TCP: it stands for a remote server's
# namespace, reached through the same host driver (nvme-tcp) with the
# same timeouts. No userspace tool is needed: the target is configured in
# configfs and the host connects through /dev/nvme-fabrics, as nvme-cli
# does.
#  1. swap over A + the network tier: every page verified, tier 1 written;
#  2. evacuate moves every block off the network tier, which can then be
#     disconnected with the device still in use: its data reads back;
#  3. the server dies with I/O running (its port removed): I/O to the
#     tier's blocks fails with EIO once the host's fast_io_fail_tmo
#     expires, tier 0's blocks still read back, and suspend, resume and
#     dmsetup remove return (each bounded by a timeout, so a hang fails).
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B
for m in nvmet nvmet-tcp nvme-tcp; do
	swt_modprobe "$m" || die "cannot load $m (the kernel has no NVMe/TCP?)"
done
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config ||
	die "cannot mount configfs"
ip link set lo up || die "cannot bring up lo"

cfg=/sys/kernel/config/nvmet
nqn=nqn.2026-12.org.example:swaptier-tier1
sub=$cfg/subsystems/$nqn port=$cfg/ports/1
mkdir "$sub" && echo 1 >"$sub/attr_allow_any_host" &&
	mkdir "$sub/namespaces/1" && echo -n "$B" >"$sub/namespaces/1/device_path" &&
	echo 1 >"$sub/namespaces/1/enable" || die "cannot export $B with nvmet"
mkdir "$port" && echo tcp >"$port/addr_trtype" && echo ipv4 >"$port/addr_adrfam" &&
	echo 127.0.0.1 >"$port/addr_traddr" && echo 4420 >"$port/addr_trsvcid" &&
	ln -s "$sub" "$port/subsystems/$nqn" || die "cannot open the nvmet port"

# nvme_connect: connect to the namespace, print its block device. I/O fails
# 2 s after the connection is lost (fast_io_fail_tmo), the controller is
# given up after 5 s (ctrl_loss_tmo).
nvme_connect() {
	local r n
	exec 3<>/dev/nvme-fabrics || return 1
	echo "transport=tcp,traddr=127.0.0.1,trsvcid=4420,nqn=$nqn,reconnect_delay=1,fast_io_fail_tmo=2,ctrl_loss_tmo=5" >&3 ||
		{ exec 3>&-; return 1; }
	read -r r <&3
	exec 3>&-
	# "instance=N,cntlid=M": the namespace is nvmeXn1 (X the subsystem's
	# instance with native multipath, the controller's without)
	n=${r#instance=}; n=${n%%,*}
	[ -n "$n" ] || return 1
	poll "ls /sys/class/nvme/nvme$n/ 2>/dev/null | grep -q 'n1\$'" 20 || return 1
	ls -d /sys/class/nvme/nvme"$n"/nvme*n1 | head -n 1 |
		sed 's|.*/\(nvme[0-9]*\)c[0-9]*\(n1\)$|/dev/\1\2|; s|.*/\(nvme[0-9]*n1\)$|/dev/\1|'
}
N=$(nvme_connect) && [ -b "$N" ] || die "cannot connect to the nvmet namespace ($N)"
ctrl=$(basename "$(ls -d /sys/class/nvme/nvme*/ | head -n 1)")
echo "# network tier: $N (controller $ctrl), rotational $(cat /sys/block/"$(basename "$N")"/queue/rotational)"
check connected test "$(blockdev --getsz "$N")" = "$(blockdev --getsz "$B")"

# --- 1. swap over disk A and the network tier
swt_create nt "$(swt_max_len "$A" "$N")" "$A" "$N" -- discard_passdown || die "cannot create over $N"
mkswap -q /dev/mapper/nt >/dev/null || die "mkswap"
swapon --discard /dev/mapper/nt || die "swapon"
avail=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
"$SWT_TOP/build/bin/memhog" 2 $(((avail + 96) / 2)) 1 >/tmp/nt-hog.log 2>&1
check swap-verified test $? = 0
sed 's/^/# /' /tmp/nt-hog.log | tail -n 1
check swap-tier1-written test "$(swt_tier_stat nt 1 writes)" -gt 0
check swap-no-errors test "$(swt_tier_stat nt 0 errors)$(swt_tier_stat nt 1 errors)" = 00
swapoff /dev/mapper/nt || die "swapoff"
check swap-map-consistent swt_check_map nt

# --- 2. evacuate the network tier, then disconnect it
blkdiscard -f /dev/mapper/nt || die "blkdiscard"
t0=$(swt_tier_stat nt 0 blocks)
head -c $(((t0 + 1024) * 4096)) /dev/urandom >/tmp/nt.data
dd if=/tmp/nt.data of=/dev/mapper/nt bs=1M oflag=direct status=none || die "write"
check evac/on-tier1 test "$(swt_tier_stat nt 1 mapped)" -ge 1024
# room on tier 0 for what tier 1 holds (the 1024 blocks written there and
# what demotion moved down meanwhile)
h=$((t0 / 2))
blkdiscard -f -o 0 -l $((h * 4096)) /dev/mapper/nt || die "blkdiscard $h blocks"
check evac/start dmsetup message nt 0 evacuate 1
check evac/done poll '[ "$(swt_stat nt evacuate_left)" = 0 ] && [ "$(swt_stat nt tier_state)" = -X ]' 120
check evac/tier1-empty test "$(swt_tier_stat nt 1 mapped)" = 0
echo 1 >"/sys/class/nvme/$ctrl/delete_controller" || die "cannot disconnect"
check evac/disconnected poll "[ ! -e /sys/class/nvme/$ctrl ]" 20
dd if=/dev/mapper/nt of=/tmp/nt.back bs=4k skip=$h count=$((t0 + 1024 - h)) iflag=direct status=none
check evac/reads-back cmp -s /tmp/nt.back <(tail -c +$((h * 4096 + 1)) /tmp/nt.data)
check evac/no-errors test "$(swt_tier_stat nt 1 errors)" = 0
check evac/remove timeout 60 dmsetup remove nt

# --- 3. the server dies while the tier is in use
N=$(nvme_connect) && [ -b "$N" ] || die "cannot connect again ($N)"
swt_create nd "$(swt_max_len "$A" "$N")" "$A" "$N" -- migration off || die "cannot create over $N"
t0=$(swt_tier_stat nd 0 blocks)
dd if=/tmp/nt.data of=/dev/mapper/nd bs=1M oflag=direct status=none || die "write"
check death/on-tier1 test "$(dmsetup message nd 0 map "$t0" 1 | cut -d' ' -f3)" = 1
# a reader of tier 1's blocks runs when the server goes
touch /tmp/nd-reading
(while [ -e /tmp/nd-reading ]; do
	dd if=/dev/mapper/nd of=/dev/null bs=4k skip="$t0" count=1024 iflag=direct status=none 2>/dev/null ||
		{ echo failed >/tmp/nd-reader; break; }
done) &
reader=$!
rm "$port/subsystems/$nqn" || die "cannot remove the port's subsystem"
check death/reader-fails poll '[ -e /tmp/nd-reader ]' 60
rm -f /tmp/nd-reading
wait $reader
check death/read-eio bash -c "! timeout 60 dd if=/dev/mapper/nd of=/dev/null bs=4k skip=$t0 count=1 iflag=direct status=none 2>/dev/null"
check death/write-fails bash -c "! timeout 60 dd if=/dev/zero of=/dev/mapper/nd bs=4k seek=$t0 count=1 oflag=direct status=none 2>/dev/null"
dd if=/dev/mapper/nd of=/tmp/nd.back bs=1M count=$((t0 / 256)) iflag=direct status=none
check death/tier0-intact cmp -s /tmp/nd.back <(head -c $((t0 * 4096)) /tmp/nt.data)
check death/errors-counted test "$(swt_tier_stat nd 1 errors)" -ge 1
check death/tier0-no-errors test "$(swt_tier_stat nd 0 errors)" = 0
check death/map-consistent swt_check_map nd
check death/suspend timeout 60 dmsetup suspend nd
check death/resume timeout 60 dmsetup resume nd
check death/remove timeout 60 dmsetup remove nd
rm -f /tmp/nt.data /tmp/nt.back /tmp/nd.back
rmdir "$port" "$sub/namespaces/1" "$sub" 2>/dev/null
true
