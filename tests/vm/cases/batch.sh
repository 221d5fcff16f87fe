#!/bin/bash
# timeout: 600
# debug-lane: full
# disks: a=ssd b=hdd
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

# Writeback from the flusher is WB_SYNC_NONE: no REQ_SYNC, so gathered.
echo $((1 << 20)) >/proc/sys/vm/dirty_background_bytes
echo $((4 << 20)) >/proc/sys/vm/dirty_bytes

# Every other block of the first 40 MiB, written buffered, while the
# device is suspended, resumed and reloaded (same tiers, other options)
# under the writeback; --nolockfs, as for swap: a suspend that "locks" a
# bare device writes its dirty pages synchronously first. Written blocks
# are never adjacent, so writeback sends one 4 KiB bio per block whether
# the kernel's block device cache uses buffer heads (Debian's kernels) or
# iomap (the debug kernel), which would merge adjacent pages into one bio.
gather_fio() {	# extra fio args...
	fio --name=gather --filename=$dev --ioengine=psync --rw=write:4k \
		--bs=4k --size=40M --io_size=20M --verify=crc32c --verify_fatal=1 \
		--verify_dump=0 "$@"
}
b0=$(swt_stat bt batched)
# hold the device open: the last close of a block device writes its dirty
# pages synchronously
exec 3<"$dev"
gather_fio --direct=0 --do_verify=0 --rate=,4m \
	>"$SWT_OUT/cases/batch-write.fio" 2>&1 &
dpid=$!
n=0
while kill -0 $dpid 2>/dev/null && [ $n -lt 60 ]; do
	case $((n % 3)) in
	0) dmsetup suspend --nolockfs bt && dmsetup resume bt ;;
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
b1=$(swt_stat bt batched)
echo "# gathered writes: $((b1 - b0)) in $(swt_stat bt batches) batches"
# at least half of the 5120 blocks went through the batch worker
check writes-gathered test $((b1 - b0)) -ge 2560
blockdev --flushbufs $dev
echo 3 >/proc/sys/vm/drop_caches
if gather_fio --direct=1 --verify_only >"$SWT_OUT/cases/batch-verify.fio" 2>&1; then
	ok read-back
else
	nok read-back "$(grep -m1 -iE 'verify|err=' "$SWT_OUT/cases/batch-verify.fio")"
fi
check mapped test "$(swt_stat bt mapped)" -eq 5120
check map-consistent swt_check_map bt

# buffered overwrites of 16 MiB at 48 MiB: the old blocks are freed
head -c 16M /dev/urandom >/tmp/pat1 || die "no pattern"
head -c 16M /dev/urandom >/tmp/pat2 || die "no pattern"
dd if=/tmp/pat1 of=$dev bs=64k seek=$((48 * 16)) status=none && sync
m1=$(swt_stat bt mapped)
check written-mapped test "$m1" -eq $((5120 + 4096))
dd if=/tmp/pat2 of=$dev bs=64k seek=$((48 * 16)) status=none && sync
check overwrite-mapped test "$(swt_stat bt mapped)" -eq "$m1"
blockdev --flushbufs $dev
echo 3 >/proc/sys/vm/drop_caches
check overwrite-read-back cmp /tmp/pat2 <(dd if=$dev bs=1M skip=48 count=16 iflag=direct status=none)

# gathering off: the counter does not move, the data is right
dmsetup message bt 0 set write_batch 0 || nok set "set write_batch 0 refused"
check table-shows bash -c "dmsetup table bt | grep -q 'write_batch 0'"
b2=$(swt_stat bt batched)
dd if=/tmp/pat1 of=$dev bs=64k seek=$((80 * 16)) status=none && sync
check not-gathered test "$(swt_stat bt batched)" -eq "$b2"
blockdev --flushbufs $dev
echo 3 >/proc/sys/vm/drop_caches
check off-read-back cmp /tmp/pat1 <(dd if=$dev bs=1M skip=80 count=16 iflag=direct status=none)
check set-range bash -c "! dmsetup message bt 0 set write_batch 257 2>/dev/null"
check map-consistent-2 swt_check_map bt

echo 10 >/proc/sys/vm/dirty_background_ratio
echo 20 >/proc/sys/vm/dirty_ratio
rm -f /tmp/pat1 /tmp/pat2
dmsetup remove bt
