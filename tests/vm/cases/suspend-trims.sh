#!/bin/bash
# timeout: 300
# disks: b=hdd (under dm-delay)
# Suspend stops the discards passed down to the tiers (review item 6 of
# issue 15): the trim worker queued itself again while discards remained,
# and flush_work() waited only for the running instance. The tier is a
# dm-delay device whose writes and discards take 10 ms each, and 2048
# single-block runs wait to be discarded when the device is suspended: no
# discard may reach the tier until the resume, and they go on after it.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
swt_modprobe dm-delay 2>/dev/null
dmsetup targets | grep -q "^delay " || die "no dm-delay target (module or built in)"
B=$SWT_DISK_B
sz=$(blockdev --getsz "$B")
dmsetup create dly --table "0 $sz delay $B 0 0 $B 0 10" || die "cannot create the delayed tier"
DLY=/dev/mapper/dly
dly_discards() { awk '{print $12}' "/sys/block/dm-$(dmsetup info -c --noheadings -o minor dly)/stat"; }
len=$((32 << 11))
swt_create st "$len" "$DLY" -- discard_passdown || die "cannot create"
# 4096 blocks in large writes, then every other one overwritten: the old
# copies of those are freed one by one, 2048 runs of one block to discard
head -c $((16 << 20)) /dev/urandom >/tmp/st.data
dd if=/tmp/st.data of=/dev/mapper/st bs=1M oflag=direct status=none || die "cannot write"
fio --name=holes --filename=/dev/mapper/st --direct=1 --ioengine=libaio \
	--iodepth=64 --rw=write:4k --bs=4k --size=16M --buffer_pattern=0xa5 \
	>/tmp/holes.fio 2>&1 || die "fio failed: $(tail -n 3 /tmp/holes.fio)"
# what the device holds now: even blocks 0xa5, odd ones the first data
python3 -c '
import sys
d = bytearray(open("/tmp/st.data", "rb").read())
for b in range(0, len(d) // 4096, 2):
    d[b * 4096:(b + 1) * 4096] = b"\xa5" * 4096
sys.stdout.buffer.write(d)' >/tmp/st.want
if poll '[ "$(dly_discards)" -gt 0 ]' 60; then ok discards-started
else nok discards-started "no discard reached the tier"; fi
check suspend dmsetup suspend st
left=$(swt_stat st trimming)
before=$(dly_discards)
# nothing to poll for: the check is that nothing happens for a while
sleep 2
after=$(dly_discards)
echo "# discards while suspended: $before -> $after, $left runs waiting"
check runs-waiting test "${left:-0}" -gt 16
check no-discard-while-suspended test "$after" = "$before"
check resume dmsetup resume st
if poll '[ "$(dly_discards)" -gt '"$after"' ]' 60; then ok discards-after-resume
else nok discards-after-resume "no discard after the resume"; fi
check data cmp -s /tmp/st.want <(dd if=/dev/mapper/st bs=1M count=16 iflag=direct status=none)
check map-consistent swt_check_map st
check remove dmsetup remove st
dmsetup remove dly
