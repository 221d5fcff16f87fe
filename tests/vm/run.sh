#!/bin/bash
# Boot a Debian kernel under QEMU with the host root as the guest's root
# (read-only, virtio-9p) and run one command in it.
#
#   tests/vm/run.sh --kernel SERIES --out DIR [options] -- COMMAND [ARGS...]
#
# Options:
#   --kernel SERIES      6.1 or 6.12 (fetched with scripts/kernel.sh)
#   --out DIR            results directory, writable from the guest at the
#                        same path; COMMAND's exit status lands in DIR/rc
#   --disk NAME:MIB[:CLASS]
#                        a file-backed virtio-blk disk (repeatable); CLASS is
#                        fast (default), ssd or hdd (QEMU drive throttling).
#                        The guest finds it as $SWT_DISK_<NAME>.
#   --nbd NAME:MIB       a file served by qemu-nbd on the host, outside the
#                        guest (a machine on the network), reached over
#                        QEMU's user-mode network (virtio-net); the guest
#                        finds "HOST PORT EXPORT" in $SWT_NBD_<NAME> and
#                        connects it with nbd-client (bench/guest.sh)
#   --mem SIZE           guest memory (default 512M)
#   --smp N              guest CPUs (default 2)
#   --timeout SECONDS    hard limit for the whole VM (default 900)
#   --interactive        console on this terminal (make vm-shell)
#   --append ARGS        extra kernel command line
#   --systemd            boot systemd from an overlay of the host root (a
#                        tmpfs above it) instead of running COMMAND as the
#                        guest's script: COMMAND prepares that root in a
#                        chroot first, and the units it installs write
#                        DIR/rc and power off (tests/vm/boot/systemd.sh)
#
# Exit status: COMMAND's status; 124 if the VM hit the timeout; 125 if the
# console shows a kernel splat (the offending lines are printed); 126 if the
# guest died without reporting a status. The console is DIR/console.log.
#
# Environment: SWT_ACCEL (kvm or tcg) chooses the accelerator instead of
# the cached KVM probe; SWT_TCG_TB_MIB is TCG's translation cache in MiB
# (default 64, see below).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
series="" out="" mem=512M smp=2 timeout=900 interactive=0 append="" systemd=0
disks=() nbds=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) series=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--disk) disks+=("$2"); shift 2 ;;
	--nbd) nbds+=("$2"); shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--interactive) interactive=1; shift ;;
	--append) append=$2; shift 2 ;;
	--systemd) systemd=1; shift ;;
	--) shift; break ;;
	*) echo "run.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
[ -n "$series" ] && [ -n "$out" ] || { echo "run.sh: --kernel and --out are required" >&2; exit 2; }
[ $# -gt 0 ] || [ $interactive = 1 ] || { echo "run.sh: no command given" >&2; exit 2; }

mkdir -p "$out"
out=$(cd "$out" && pwd)
# The guest mounts the results share at this path, and cleans /tmp
# between cases: a share that is a whole system directory would expose
# (and lose) the host's files.
case "$out" in
/ | /tmp | /var/tmp | /run | /dev | /dev/* | /proc | /proc/* | /sys | /sys/*)
	echo "run.sh: --out must not be $out or a system directory: give a directory of its own" >&2
	exit 2 ;;
esac
# The paths go to the guest on the kernel command line, which splits at
# blanks: the one kind of path that cannot work.
case "$top$out" in
*[[:space:]]*)
	echo "run.sh: the checkout and results paths must not contain blanks ('$top', '$out'): clone the project to a path without them" >&2
	exit 2 ;;
esac
# One VM at a time on this machine: each emulated guest takes both cores,
# and two would starve each other's timers. A second run waits here, at
# most SWT_VM_LOCK_WAIT seconds (default 6 h, a whole make bench).
lock=${SWT_VM_LOCK:-/run/lock/dm-swaptier-vm.lock}
mkdir -p "$(dirname "$lock")" 2>/dev/null
if ! exec 9>>"$lock"; then
	echo "run.sh: cannot open the VM lock $lock (set SWT_VM_LOCK to a writable file)" >&2
	exit 2
fi
if ! flock -n 9; then
	echo "run.sh: waiting for the VM running on this machine ($lock)" >&2
	if ! flock -w "${SWT_VM_LOCK_WAIT:-21600}" 9; then
		echo "run.sh: another VM held $lock for ${SWT_VM_LOCK_WAIT:-21600}s; giving up" >&2
		exit 2
	fi
fi

read -r abi kdir < <("$top/scripts/kernel.sh" fetch "$series")
rm -f "$out/rc" "$out/console.log"

# ---- initramfs: busybox plus the modules needed to reach the 9p root ----
initrd=$kdir/swt-initrd.cpio.gz
stamp=$(cat "$top/tests/vm/init.sh" "$0" | sha256sum | cut -c1-16)
if [ "$(cat "$kdir/swt-initrd.stamp" 2>/dev/null)" != "$stamp" ]; then
	mods=$kdir/root/lib/modules/$abi
	work=$(mktemp -d)
	mkdir -p "$work"/{bin,dev,proc,sys,root,lib}
	cp /bin/busybox "$work/bin/busybox"
	cp "$top/tests/vm/init.sh" "$work/init"
	chmod +x "$work/init"
	declare -A seen=()
	order=()
	add_mod() {
		local rel=$1 line dep
		[ -n "${seen[$rel]:-}" ] && return 0
		seen[$rel]=1
		line=$(grep -m1 "^$rel:" "$mods/modules.dep") || return 0
		for dep in ${line#*:}; do add_mod "$dep"; done
		order+=("$rel")
	}
	for m in virtio_pci virtio_blk 9pnet_virtio 9p overlay; do
		rel=$(grep -oE "^[^:]*/$m\.ko(\.xz|\.zst)?:" "$mods/modules.dep" | head -n1 | tr -d :) || true
		[ -n "$rel" ] && add_mod "$rel"	# built in when absent
	done
	: >"$work/modules.order"
	for rel in "${order[@]}"; do
		base=$(basename "$rel")
		case "$base" in
		*.xz) xz -dc "$mods/$rel" >"$work/lib/${base%.xz}"; base=${base%.xz} ;;
		*.zst) zstd -qdc "$mods/$rel" >"$work/lib/${base%.zst}"; base=${base%.zst} ;;
		*) cp "$mods/$rel" "$work/lib/$base" ;;
		esac
		echo "$base" >>"$work/modules.order"
	done
	(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd.tmp"
	mv "$initrd.tmp" "$initrd"
	echo "$stamp" >"$kdir/swt-initrd.stamp"
	rm -rf "$work"
fi

# ---- acceleration: KVM only if a cached probe proved it boots a guest ----
accel=tcg
probe=$(dirname "$kdir")/kvm-probe.$(uname -r)
if [ -w /dev/kvm ] && [ "${SWT_ACCEL:-}" != tcg ]; then
	if [ ! -e "$probe" ]; then
		pout=$(mktemp -d "$out/kvmprobe.XXXXXX")
		if timeout 20 qemu-system-x86_64 -accel kvm -m 256M -nographic \
			-no-reboot -kernel "$kdir/vmlinuz" -initrd "$initrd" \
			-append "console=ttyS0 panic=-1 swt.probe=1" \
			>"$pout/console" 2>&1 </dev/null &&
			grep -q 'swt-probe-ok' "$pout/console"; then
			echo kvm >"$probe"
		else
			echo tcg >"$probe"
		fi
		rm -rf "$pout"
	fi
	accel=$(cat "$probe")
fi
[ -n "${SWT_ACCEL:-}" ] && accel=$SWT_ACCEL
# TCG keeps each translated block until the guest writes to its page or
# the translation cache fills; by default that cache is 1 GiB, so code
# that ran minutes ago stays translated on pages the guest has since
# freed, and every store to such a page (a page being cleared for a
# swap-in or a new anonymous page) takes QEMU's slow path, one store at a
# time. A swap-heavy load then ran 5-6 times slower after a few other
# cases in the same boot (plain swap under the zram case's load: 82-92 s
# against 14-16 s; docs/notes/zram-tier0-stall.md). A 64 MiB cache is
# flushed whole every so often and keeps a load's time independent of
# what ran before.
tb_mib=${SWT_TCG_TB_MIB:-64}
[[ $tb_mib =~ ^[1-9][0-9]*$ ]] ||
	{ echo "run.sh: SWT_TCG_TB_MIB='$tb_mib' is not a size in MiB" >&2; exit 2; }
[ "$accel" = tcg ] && accel="tcg,tb-size=$tb_mib"

# ---- tier disks: sparse files on a real disk (the out directory) ----
qdisks=()
envs=()
letter=({a..z})
i=0
for spec in "${disks[@]}"; do
	IFS=: read -r name mib class <<<"$spec"
	class=${class:-fast}
	img=$out/disk-$name.img
	rm -f "$img"
	truncate -s "${mib}M" "$img"
	case "$class" in
	fast) thr="" ;;
	ssd) thr=",throttling.iops-total=4000,throttling.bps-total=400000000" ;;
	hdd) thr=",throttling.iops-total=200,throttling.bps-total=104857600" ;;
	*) echo "run.sh: unknown disk class '$class' (fast, ssd, hdd)" >&2; exit 2 ;;
	esac
	qdisks+=(-drive "file=$img,if=none,id=d$i,format=raw,cache=unsafe,aio=threads,discard=unmap$thr"
		-device "virtio-blk-pci,drive=d$i,serial=swt-$name")
	envs+=("SWT_DISK_${name^^}=/dev/vd${letter[$i]}")
	i=$((i + 1))
done

# ---- network disks: qemu-nbd on the host, the guest's NIC to reach it ----
# QEMU's user-mode network maps the guest's 10.0.2.2 to the host's
# loopback. A server never exits by itself (--persistent): stop_nbd, run
# after the VM and on any exit of this script, kills every one whose pid
# file is in the out directory (qemu-nbd writes it before --fork returns),
# and none holds the VM lock (fd 9), so one left running by a killed
# run.sh cannot stall the next VM.
nics=()
stop_nbd() {
	local f
	for f in "$out"/nbd-*.pid; do
		[ -e "$f" ] || continue
		kill "$(cat "$f")" 2>/dev/null || true
		rm -f "$f"
	done
	return 0
}
rm -f "$out"/nbd-*.pid	# a stale one's pid may be another process's now
trap stop_nbd EXIT
if [ ${#nbds[@]} -gt 0 ]; then
	client=$("$top/scripts/nbd-client.sh") || exit 2
	envs+=("SWT_NBD_CLIENT=$client")
fi
for spec in "${nbds[@]}"; do
	IFS=: read -r name mib <<<"$spec"
	img=$out/nbd-$name.img
	rm -f "$img"
	truncate -s "${mib}M" "$img"
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	if ! qemu-nbd --fork --persistent --shared=4 --format=raw --export-name="$name" \
		--bind=127.0.0.1 --port="$port" --cache=writeback --aio=threads \
		--discard=unmap --pid-file="$out/nbd-$name.pid" "$img" 2>"$out/nbd-$name.log" 9>&-; then
		echo "run.sh: qemu-nbd could not serve $img: $(head -n 1 "$out/nbd-$name.log")" >&2
		exit 2
	fi
	envs+=("SWT_NBD_${name^^}=10.0.2.2 $port $name")
	nics=(-nic "user,model=virtio-net-pci")
done

# ---- the script the guest runs after chrooting into the host root ----
{
	echo "#!/bin/bash"
	echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	echo "export HOME=/tmp TERM=${TERM:-dumb} DM_DISABLE_UDEV=1 LC_ALL=C"
	printf 'export SWT_TOP=%q SWT_OUT=%q SWT_ABI=%q SWT_SERIES=%q SWT_KROOT=%q\n' \
		"$top" "$out" "$abi" "$series" "$kdir/root"
	for e in "${envs[@]}"; do printf 'export %q\n' "$e"; done
	echo "cd \"\$SWT_TOP\""
	if [ $systemd = 1 ]; then
		# prepare the root and return: init starts systemd
		printf 'exec '
		printf '%q ' "$@"
		echo
	elif [ $interactive = 1 ]; then
		echo "[ -x \"\$SWT_TOP/tests/vm/guest-setup.sh\" ] && . \"\$SWT_TOP/tests/vm/guest-setup.sh\""
		echo "setsid -c /bin/bash -i </dev/ttyS0 >/dev/ttyS0 2>&1"
		echo "rc=\$?"
	else
		printf '%q ' "$@"
		echo
		echo "rc=\$?"
	fi
	echo "echo \$rc >\"\$SWT_OUT/rc\""
	echo "sync"
	echo "echo o >/proc/sysrq-trigger"
	echo "sleep 60"
} >"$out/guest.sh"
chmod +x "$out/guest.sh"

# Emulated CPUs can be starved by the host for many seconds: the soft
# lockup detector fires after 2 x watchdog_thresh, so give it 60 s; and
# skip zeroing every allocated page (init_on_alloc), which TCG makes slow.
cmdline="console=ttyS0 panic=-1 loglevel=6 mitigations=off watchdog_thresh=30 init_on_alloc=0"
cmdline+=" rcupdate.rcu_cpu_stall_timeout=90 swt.out=$out swt.top=$top"
[ $systemd = 1 ] && cmdline+=" swt.systemd=1"
# The debug kernel evaluates ACPI's PCI interrupt routing (AML) under KASAN
# for half a minute per boot under emulation; the PIRQ table is enough.
# no5lvl: with -cpu max the guest has LA57, and an interrupt taken while
# identify_cpu() rebuilds the boot CPU's capabilities sees 5-level paging
# as off, so KASAN takes a direct-map address for a wild one ("BUG: KASAN:
# wild-memory-access in do_raw_spin_lock" from handle_edge_irq, seen once
# at 0.69 s): a kernel race that 4-level paging does not have.
case "$series" in *-debug) cmdline+=" pci=noacpi no5lvl printk.time=1" ;; esac
cmdline+=" $append"
qemu=(qemu-system-x86_64 -accel "$accel" -m "$mem" -smp "$smp" -cpu max
	-no-reboot -display none -monitor none
	-kernel "$kdir/vmlinuz" -initrd "$initrd" -append "$cmdline"
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-device "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot"
	-fsdev "local,id=swtout,path=$out,security_model=none,multidevs=remap"
	-device "virtio-9p-pci,fsdev=swtout,mount_tag=swtout"
	"${qdisks[@]}" "${nics[@]}")

if [ $interactive = 1 ]; then
	"${qemu[@]}" -serial mon:stdio
	exit 0
fi

set +e
timeout --kill-after=10 "$timeout" "${qemu[@]}" -serial "file:$out/console.log" \
	</dev/null >"$out/qemu.log" 2>&1
qrc=$?
set -e
rm -f "$out"/disk-*.img "$out"/nbd-*.img
stop_nbd

splat=$("$top/tests/vm/splat.sh" "$out/console.log" || true)
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	echo "run.sh: VM ($series, $accel) hit the ${timeout}s timeout; console: $out/console.log" >&2
	[ -n "$splat" ] && printf '%s\n' "$splat" >&2
	exit 124
fi
if [ -n "$splat" ]; then
	echo "run.sh: kernel splat on $series; console: $out/console.log" >&2
	printf '%s\n' "$splat" >&2
	exit 125
fi
if [ ! -s "$out/rc" ]; then
	echo "run.sh: guest ($series) exited without a status (qemu rc $qrc); console: $out/console.log" >&2
	tail -n 20 "$out/console.log" >&2
	exit 126
fi
exit "$(cat "$out/rc")"
