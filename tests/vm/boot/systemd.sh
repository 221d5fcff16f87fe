#!/bin/bash
# A user's machine at boot (issue 18): the guest boots systemd as init,
# from an overlay of the host root, with the module installed where DKMS
# puts it, dmswaptier.service enabled and /etc/dmswaptier.conf naming the
# guest's disks by /dev/disk/by-id. After boot the device must exist, be
# swapped on with its priority and options, and stop cleanly with the
# unit. The configuration also names a second device with a missing tier:
# the boot goes on all the same, with the first device up and the journal
# saying which tier is missing. One "ok/not ok boot/SERIES/MODE/CHECK"
# line per check; exit 0 when all passed.
#
#   tests/vm/boot/systemd.sh SERIES...
#
# MODE is "missing" (both devices, one boot per kernel); SWT_BOOT_MODES
# ="tiers missing" boots a second time per kernel with only the first
# device configured ("tiers", whose checks "missing" repeats).
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
[ $# -gt 0 ] || { echo "usage: tests/vm/boot/systemd.sh SERIES..." >&2; exit 2; }
failed=0
for s in "$@"; do
	read -r abi kdir < <("$top/scripts/kernel.sh" fetch "$s") ||
		{ echo "not ok boot/$s: no kernel"; failed=1; continue; }
	ko=$top/build/kmod/$abi/dm-swaptier.ko
	if [ ! -f "$ko" ] || [ ! -x "$top/build/bin/dmswaptier" ]; then
		echo "not ok boot/$s: no $ko or build/bin/dmswaptier (make module tool)"
		failed=1
		continue
	fi
	for mode in ${SWT_BOOT_MODES:-missing}; do
		out=$top/build/vm-boot/$s-$mode
		rm -rf "$out" && mkdir -p "$out"
		# the guest's /lib/modules/ABI: the kernel's modules (links to the
		# cache, which the guest sees at the same path) and dm-swaptier
		# in updates/dkms, with depmod's indexes made here, natively
		mods=$out/modroot/lib/modules
		mkdir -p "$mods"
		cp -rs "$kdir/root/lib/modules/$abi" "$mods/" &&
			mkdir -p "$mods/$abi/updates/dkms" &&
			cp "$ko" "$mods/$abi/updates/dkms/" &&
			depmod -b "$out/modroot" "$abi" ||
			{ echo "not ok boot/$s/$mode: cannot make the modules tree"; failed=1; continue; }
		"$top/tests/vm/run.sh" --kernel "$s" --out "$out" --systemd --timeout 400 \
			--append "systemd.show_status=1 systemd.mask=emergency.service systemd.mask=rescue.service" \
			--disk a:64 --disk b:256 --disk c:256 \
			-- "$top/tests/vm/boot/setup.sh" "$mode" 2>"$out/run.err"
		rc=$?
		sed -n "s|^\(not \)*ok boot/|&$s/$mode/|p" "$out/results" 2>/dev/null
		grep -q '^not ok' "$out/results" 2>/dev/null && failed=1
		why=$(grep -v '^run.sh: waiting' "$out/run.err" | head -n 1)
		if ! grep -q '^ok' "$out/results" 2>/dev/null; then
			echo "not ok boot/$s/$mode: no result ($why; console: $out/console.log)"
			failed=1
		elif [ $rc -ge 124 ] || { [ $rc -ne 0 ] && ! grep -q '^not ok' "$out/results"; }; then
			# a timeout, a kernel splat or no status, whatever the checks said
			echo "not ok boot/$s/$mode: exit $rc ($why; console: $out/console.log)"
			failed=1
		fi
		rm -rf "$out/modroot"
	done
done
exit $failed
