#!/bin/bash
# timeout: 120
# disks: a=ssd b=hdd
# The module loads, registers the target, makes and removes a device, and
# unloads with nothing left behind.
. "$SWT_TOP/tests/vm/lib.sh"
swt_load
check registered bash -c 'dmsetup targets | grep -q "^swaptier *v1\."'
len=$(swt_max_len "$SWT_DISK_A")
check create swt_create st0 "$len" "$SWT_DISK_A"
check size test "$(blockdev --getsz /dev/mapper/st0)" = "$len"
check block-size test "$(blockdev --getss /dev/mapper/st0)" = 4096
check mode-rw test "$(swt_stat st0 mode)" = rw
check remove dmsetup remove st0

# The status line's documented format (docs/dm-swaptier.rst "Status"). This
# is the only test that reads `dmsetup status` by position: every other
# reads the stats message by name (lib.sh swt_stat). On an idle two-tier
# device holding data, each field equals its stats key.
A=$SWT_DISK_A B=$SWT_DISK_B
len=$(swt_max_len "$A" "$B")
check create-two swt_create st1 "$len" "$A" "$B"
dd if=/dev/urandom of=/dev/mapper/st1 bs=1M count=1 oflag=direct status=none
dd if=/dev/mapper/st1 of=/dev/null bs=4k count=16 iflag=direct status=none
keys=()
for t in 0 1; do
	for k in mapped blocks reads writes errors; do keys+=("tier$t.$k"); done
done
keys+=(mapped logical seq_writes write_allocs deferred pending map_bytes mode
	migration promoted demoted evacuated abandoned evacuate evacuate_left
	tier_state)
s1=$(dmsetup status st1)
read -ra sv <<<"$(swt_stat st1 "${keys[@]}" ready trimming)"
s2=$(dmsetup status st1)
check status-idle test "$s1" = "$s2"
names=(start length target tiers "${keys[@]}")
want=(0 "$len" swaptier 2)
n=${#keys[@]}
for ((i = 0; i < n; i++)); do
	v=${sv[i]:-}
	# the status's <pending> is stats' pending + ready + trimming
	[ "${keys[i]}" = pending ] && v=$((v + ${sv[n]:-0} + ${sv[n + 1]:-0}))
	want+=("$v")
done
read -ra got <<<"$s1"
# <start> <len> swaptier, #tiers, two tiers, 8 globals, 8 migration fields
check status-fields test "${#got[@]}" = $((3 + 1 + 2 * 5 + 8 + 8))
check status-fields-named test "${#want[@]}" = "${#got[@]}"
bad=""
for ((i = 0; i < ${#names[@]}; i++)); do
	[ "${got[i]:-}" = "${want[i]:-}" ] || bad+=" ${names[i]}: status ${got[i]:-none}, stats ${want[i]:-none};"
done
if [ -z "$bad" ]; then ok status-equals-stats; else nok status-equals-stats "$bad"; fi
check status-has-data test "${sv[0]:-0}" -ge 256
check remove-two dmsetup remove st1
check unload rmmod dm_swaptier
check reload swt_load
