#!/bin/bash
# timeout: 600
# write_batch: asynchronous one-block writes (background writeback of the
# device's page cache, like swap-outs) are gathered and placed together.
# They survive suspend/resume and same-tier reloads in the middle of the
# writeback, read back intact, and the gathered path is really the one that
# carried them; "set write_batch 0" places every write at once.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B
len=$(swt_max_len "$A" "$B")
swt_create bt "$len" "$A" "$B" || die "cannot create"
dev=/dev/mapper/bt
stat_of() { dmsetup message bt 0 stats | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# Writeback from the flusher is WB_SYNC_NONE: no REQ_SYNC, so gathered.
echo $((1 << 20)) >/proc/sys/vm/dirty_background_bytes
echo $((4 << 20)) >/proc/sys/vm/dirty_bytes

# 40 MiB of random data, written buffered at block 0 while the device is
# suspended, resumed and reloaded (same tiers, other options) under it;
# --nolockfs, as for swap: a suspend that "locks" a bare device writes its
# dirty pages synchronously first
head -c 40M /dev/urandom >/tmp/pat1 || die "no pattern"
b0=$(stat_of batched)
writer() {	# 1 MiB at a time, so that the writeback spans the cycles
	local i
	for i in $(seq 0 39); do
		dd if=/tmp/pat1 of=$dev bs=64k skip=$((i * 16)) seek=$((i * 16)) \
			count=16 status=none || return 1
		sleep 0.05
	done
}
# hold the device open: the last close of a block device writes its dirty
# pages synchronously, and each dd below would be the last
exec 3<"$dev"
writer &
dpid=$!
n=0
while kill -0 $dpid 2>/dev/null && [ $n -lt 60 ]; do
	case $((n % 3)) in
	0) dmsetup suspend --nolockfs bt && dmsetup resume --nolockfs bt ;;
	1) dmsetup reload bt --table "0 $len swaptier 2 $A $B 2 write_batch 8" &&
		dmsetup resume --nolockfs bt ;;
	2) dmsetup reload bt --table "0 $len swaptier 2 $A $B" && dmsetup resume --nolockfs bt ;;
	esac || nok "cycle-$n" "suspend/reload/resume failed"
	n=$((n + 1))
done
wait $dpid
check buffered-write test $? = 0
sync
exec 3<&-
echo "# $n suspend/reload cycles during the writeback"
check cycles test $n -ge 3
b1=$(stat_of batched)
echo "# gathered writes: $((b1 - b0)) in $(stat_of batches) batches"
# at least half of the 10240 blocks went through the batch worker
check writes-gathered test $((b1 - b0)) -ge 5120
blockdev --flushbufs $dev
echo 3 >/proc/sys/vm/drop_caches
check read-back cmp /tmp/pat1 <(dd if=$dev bs=1M count=40 iflag=direct status=none)
check mapped test "$(swt_global bt 0)" -eq 10240
check map-consistent swt_check_map bt

# overwrite the middle 16 MiB buffered: the old blocks are freed
head -c 16M /dev/urandom >/tmp/pat2 || die "no pattern"
dd if=/tmp/pat2 of=$dev bs=64k seek=$((12 * 16)) status=none && sync
check overwrite-mapped test "$(swt_global bt 0)" -eq 10240
blockdev --flushbufs $dev
echo 3 >/proc/sys/vm/drop_caches
dd if=/tmp/pat2 of=/tmp/pat1 bs=1M seek=12 conv=notrunc status=none
check overwrite-read-back cmp /tmp/pat1 <(dd if=$dev bs=1M count=40 iflag=direct status=none)

# gathering off: the counter does not move, the data is right
dmsetup message bt 0 set write_batch 0 || nok set "set write_batch 0 refused"
check table-shows bash -c "dmsetup table bt | grep -q 'write_batch 0'"
b2=$(stat_of batched)
dd if=/tmp/pat2 of=$dev bs=64k seek=$((48 * 16)) status=none && sync
check not-gathered test "$(stat_of batched)" = "$b2"
blockdev --flushbufs $dev
echo 3 >/proc/sys/vm/drop_caches
check off-read-back cmp /tmp/pat2 <(dd if=$dev bs=1M skip=48 count=16 iflag=direct status=none)
check set-range bash -c "! dmsetup message bt 0 set write_batch 257 2>/dev/null"
check map-consistent-2 swt_check_map bt

echo 10 >/proc/sys/vm/dirty_background_ratio
echo 20 >/proc/sys/vm/dirty_ratio
rm -f /tmp/pat1 /tmp/pat2
dmsetup remove bt
