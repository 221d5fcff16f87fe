#!/bin/busybox sh
# initramfs /init: load the virtio and 9p modules, mount the host root
# read-only over virtio-9p, mount the writable results share at its host
# path, and run the guest script the host left there.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

for arg in $(cat /proc/cmdline); do
	case "$arg" in
	swt.out=*) out=${arg#swt.out=} ;;
	swt.top=*) top=${arg#swt.top=} ;;
	swt.systemd=1) systemd=1 ;;
	swt.probe=1) echo swt-probe-ok; echo o >/proc/sysrq-trigger; sleep 30 ;;
	esac
done

for m in $(cat /modules.order); do
	insmod "/lib/$m" || echo "init: insmod $m failed"
done

fail() {
	echo "init: $*"
	echo o >/proc/sysrq-trigger
	sleep 30
}

opts=trans=virtio,version=9p2000.L,msize=262144

# The guest's root at /root: the host root read-only over 9p; or, for
# systemd as init (tests/vm/boot/systemd.sh), an overlay of it with a
# tmpfs as the upper layer, so that systemd and the units can write where
# they must, as on a real root.
if [ "${systemd:-0}" = 1 ]; then
	mkdir -p /lower /rw
	mount -t 9p -o "$opts,ro,cache=loose" hostroot /lower || fail "cannot mount host root"
	mount -t tmpfs -o mode=0755 tmpfs /rw
	mkdir -p /rw/upper /rw/work
	mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work /root ||
		fail "cannot mount the overlay root"
else
	mount -t 9p -o "$opts,ro,cache=loose" hostroot /root || fail "cannot mount host root"
fi
mount -t proc proc /root/proc
mount -t sysfs sysfs /root/sys
mount -t devtmpfs devtmpfs /root/dev
mkdir -p /root/dev/pts /root/dev/shm 2>/dev/null
mount -t devpts devpts /root/dev/pts 2>/dev/null
ln -s /proc/self/fd /root/dev/fd
ln -s /proc/self/fd/0 /root/dev/stdin
ln -s /proc/self/fd/1 /root/dev/stdout
ln -s /proc/self/fd/2 /root/dev/stderr
# The guest gets fresh /tmp, /run and /var/tmp; a checkout under one of
# them (a clone in /tmp is the usual first try) is kept visible: its host
# view is set aside before the tmpfs covers it, then moved back in place.
# (systemd keeps a /run that is a mount already, and its cleaning of /tmp
# at boot stops at the checkout's mount point.)
kept=""
for d in /tmp /var/tmp /run; do
	case "$top/" in
	"$d"/*)	mkdir -p /kept
		mount -o bind "/root$top" /kept || fail "cannot keep $top"
		kept=$top ;;
	esac
done
mount -t tmpfs tmpfs /root/dev/shm
mount -t tmpfs tmpfs /root/tmp
mount -t tmpfs tmpfs /root/run
mount -t tmpfs tmpfs /root/var/tmp
if [ -n "$kept" ]; then
	mkdir -p "/root$kept"
	mount -o move /kept "/root$kept" || fail "cannot put $kept back"
fi
mount -t debugfs debugfs /root/sys/kernel/debug
mkdir -p "/root$out" 2>/dev/null
mount -t 9p -o "$opts" swtout "/root$out" || fail "cannot mount results share at $out"
[ -x "/root$out/guest.sh" ] || fail "no guest script in $out"
if [ "${systemd:-0}" = 1 ]; then
	# the guest script prepares the root (units, configuration, modules)
	# in a chroot, then systemd starts from it
	echo "init: preparing the root with $out/guest.sh"
	chroot /root "$out/guest.sh" || fail "preparing the root failed"
	echo "init: starting systemd"
	exec switch_root /root /lib/systemd/systemd
fi
echo "init: running $out/guest.sh"
exec chroot /root "$out/guest.sh"
