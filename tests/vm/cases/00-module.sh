#!/bin/bash
# timeout: 120
# The module loads, registers the target, makes and removes a device, and
# unloads with nothing left behind.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
check registered bash -c 'dmsetup targets | grep -q "^swaptier *v1\."'
len=$(swt_max_len "$SWT_DISK_A")
check create swt_create st0 "$len" "$SWT_DISK_A"
check size test "$(blockdev --getsz /dev/mapper/st0)" = "$len"
check block-size test "$(blockdev --getss /dev/mapper/st0)" = 4096
n=$(dmsetup status st0 | wc -w)
# <start> <len> swaptier, #tiers, one tier, 8 globals, 8 migration fields
check status-fields test "$n" = $((3 + 1 + 5 + 8 + 8))
check mode-rw test "$(swt_global st0 7)" = rw
check remove dmsetup remove st0
check unload rmmod dm_swaptier
check reload swt_load
