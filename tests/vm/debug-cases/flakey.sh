#!/bin/bash
# timeout: 600
# disks: a=ssd c=hdd
# dm-flakey under the slow tier, one window per behaviour (the flakey table
# is reloaded between "always up" and "always down" with a feature):
# error_writes and plain down give EIO that the target counts and survives,
# a failed write keeps the old data; drop_writes and corrupt_bio_byte lie
# to the target, which cannot see it but must not crash; after every
# window the blocks the window did not touch read back unchanged.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
swt_modprobe dm-flakey 2>/dev/null
A=$SWT_DISK_A C=$SWT_DISK_C
cs=$(blockdev --getsz "$C")
# window up | window down [FEATURE ARGS...]: reload the slow tier's flakey
# device always up, or always down with the given features (none: every
# I/O fails)
window() {
	local t="0 $cs flakey $C 0 1 0"
	if [ "$1" = down ]; then
		shift
		t="0 $cs flakey $C 0 0 1"
		[ $# -gt 0 ] && t+=" $# $*"
	fi
	dmsetup suspend fl && dmsetup reload fl --table "$t" && dmsetup resume fl
}
fails() { ! "$@"; }
dmsetup create fl --table "0 $cs flakey $C 0 1 0" || die "cannot create the flakey device"
t0=$(dev_blocks "$A")
swt_create fk "$(swt_max_len "$A" /dev/mapper/fl)" "$A" /dev/mapper/fl -- migration off ||
	die "cannot create"
swt_fill_fast /dev/mapper/fk "$t0" 1024 /tmp/fk.data
head -c $((16 * 4096)) /dev/urandom >/tmp/fk.new
# rd SKIP COUNT OUT: read blocks [t0+SKIP, +COUNT) of fk
rd() { dd if=/dev/mapper/fk of="$3" bs=4k skip=$((t0 + $1)) count="$2" iflag=direct status=none 2>/dev/null; }
# wr SKIP: write /tmp/fk.new (16 blocks) at block t0+SKIP of fk
wr() { dd if=/tmp/fk.new of=/dev/mapper/fk bs=4k seek=$((t0 + $1)) oflag=direct status=none 2>/dev/null; }
orig() { dd if=/tmp/fk.data bs=4k skip="$1" count="$2" status=none; }
intact() {	# SKIP COUNT: blocks still hold what was written before the windows
	rd "$1" "$2" /tmp/fk.back && cmp -s /tmp/fk.back <(orig "$1" "$2")
}

# error_writes: the write (which must go to the slow tier, the fast one is
# full) fails, the old contents stay
e0=$(swt_tier_stat fk 1 errors)
window down error_writes || die "cannot load error_writes"
check error-writes-eio fails wr 0
check error-writes-reads-ok intact 0 1024
window up
check error-writes-kept-old intact 0 16
e1=$(swt_tier_stat fk 1 errors)
check error-writes-counted test "$e1" -gt "$e0"

# down, no feature: reads fail too
window down || die "cannot load a failing window"
check down-read-eio fails rd 100 1 /dev/null
check down-write-eio fails wr 100
window up
e2=$(swt_tier_stat fk 1 errors)
check down-counted test "$e2" -gt "$e1"
check down-intact-after intact 0 1024

# drop_writes: the target believes the write landed; what it reads back is
# not the new data (the device lied), and nothing else changed
window down drop_writes || die "cannot load drop_writes"
check drop-writes-accepted wr 32
window up
rd 32 16 /tmp/fk.back
check drop-writes-lost bash -c "! cmp -s /tmp/fk.back /tmp/fk.new"
check drop-writes-others-intact intact 48 976

# corrupt_bio_byte on reads: the read returns the corrupted byte, the data
# on the device is untouched
# a block whose first byte is not already 255, so the corruption shows
b=64
while [ "$(orig $b 1 | od -An -tu1 -N1 | tr -d ' ')" = 255 ]; do b=$((b + 1)); done
window down corrupt_bio_byte 1 r 255 0 || die "cannot load corrupt_bio_byte"
rd $b 1 /tmp/fk.back
window up
check corrupt-seen test "$(od -An -tu1 -N1 /tmp/fk.back | tr -d ' ')" = 255
check corrupt-intact-after intact 64 960

check still-rw test "$(swt_stat fk mode)" = rw
check map-consistent swt_check_map fk
echo "# slow tier errors: $e0 -> $e1 -> $e2"
dmsetup remove fk || nok remove "cannot remove fk"
dmsetup remove fl
rm -f /tmp/fk.*
check unload swt_unload
exit $FAILED
