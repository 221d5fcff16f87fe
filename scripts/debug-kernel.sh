#!/bin/bash
# Build the debug-lane kernel (series "6.12-debug") from Debian's
# linux-source-6.12 package: allnoconfig plus scripts/debug-kernel/debug.config
# (KASAN, lockdep, kmemleak, fault injection; only the drivers the VM lane
# uses, all built in except null_blk).
#
#   debug-kernel.sh DIR    build into DIR unless DIR/.done exists, then print
#                          "RELEASE DIR"
#
# kernel.sh picks DIR from the source package version and a hash of the
# config fragment and this script, so changing either builds a new kernel
# and a rebuilt source package never reuses a stale one. DIR ends up with
#   vmlinuz                     the bzImage
#   root/lib/modules/RELEASE    modules_install output (depmod run)
#   build -> src                the built tree; out-of-tree modules build
#                               against it like against distribution headers
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
frag=$top/scripts/debug-kernel/debug.config
tarball=/usr/src/linux-source-6.12.tar.xz

if [ ! -e "$dir/.done" ]; then
	[ -r "$tarball" ] || { echo "debug-kernel.sh: no $tarball (make deps installs linux-source-6.12)" >&2; exit 1; }
	echo "debug-kernel.sh: building the debug kernel in $dir (about 7 min on 2 cores)" >&2
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" -xf "$tarball"
	mv "$dir"/linux-source-6.12 "$dir/src"
	log=$dir/build.log
	(
		cd "$dir/src"
		make allnoconfig
		scripts/kconfig/merge_config.sh -m .config "$frag"
		make olddefconfig
	) >"$log" 2>&1 || { echo "debug-kernel.sh: configuration failed, see $log" >&2; exit 1; }
	# Every line of the fragment must survive olddefconfig: an option whose
	# dependencies are missing is dropped silently otherwise.
	bad=0
	while IFS= read -r line; do
		case "$line" in '#'* | '') continue ;; esac
		key=${line%%=*} val=${line#*=}
		got=$(grep -E "^$key=|^# $key is not set" "$dir/src/.config" || true)
		if [ "$val" = n ]; then
			[ -z "$got" ] || [ "$got" = "# $key is not set" ] && continue
		else
			[ "$got" = "$line" ] && continue
		fi
		echo "debug-kernel.sh: $line did not survive olddefconfig (got '${got:-nothing}')" >&2
		bad=1
	done <"$frag"
	[ $bad = 0 ] || exit 1
	jobs=$(($(nproc) + 1))
	if ! make -C "$dir/src" -j"$jobs" bzImage modules >>"$log" 2>&1 ||
		! make -C "$dir/src" INSTALL_MOD_PATH="$dir/root" modules_install >>"$log" 2>&1; then
		echo "debug-kernel.sh: kernel build failed, see $log" >&2
		tail -n 20 "$log" >&2
		exit 1
	fi
	ln -sfn src/arch/x86/boot/bzImage "$dir/vmlinuz"
	ln -sfn src "$dir/build"
	touch "$dir/.done"
fi
echo "$(make -s -C "$dir/src" kernelrelease) $dir"
