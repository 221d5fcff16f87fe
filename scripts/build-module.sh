#!/bin/bash
# Build dm-swaptier.ko (and the harness's WARN module) out of tree with
# -Werror for each kernel series given, against that kernel's own headers:
#   build/kmod/<abi>/dm-swaptier.ko, build/kmod/<abi>/selftest/swt_warn.ko
# Prints "ok build/SERIES" or "not ok build/SERIES: reason" per series.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
failed=0
for series in "$@"; do
	if ! read -r abi kroot < <("$top/scripts/kernel.sh" fetch "$series"); then
		echo "not ok build/$series: cannot fetch the kernel"
		failed=1
		continue
	fi
	kdir=$kroot/build
	out=$top/build/kmod/$abi
	mkdir -p "$out/selftest"
	cp "$top"/drivers/md/dm-swaptier*.[ch] "$top/drivers/md/Makefile" "$out/"
	cp "$top"/tests/vm/selftest/swt_warn.c "$top/tests/vm/selftest/Makefile" "$out/selftest/"
	log=$out/build.log
	if make -C "$kdir" M="$out" CONFIG_DM_SWAPTIER=m KCFLAGS=-Werror modules >"$log" 2>&1 &&
		make -C "$kdir" M="$out/selftest" KCFLAGS=-Werror modules >>"$log" 2>&1; then
		echo "ok build/$series ($abi)"
	else
		echo "not ok build/$series: module build failed against $abi, see $log"
		grep -E 'error|warning' "$log" | head -n 10 | sed 's/^/# /'
		failed=1
	fi
done
exit $failed
