#!/bin/bash
# checkpatch.pl --strict (from Debian's linux-source-6.12) on every file
# under drivers/md/ and on the dmswaptier tool's sources (tools/dmswaptier/),
# and sparse through the kernel build's C=2 on the module for each series.
# Prints ok/not ok lines; exit 0 when clean.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SWT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dm-swaptier}/checkpatch
failed=0

tarball=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null)
if [ -z "$tarball" ]; then
	echo "not ok lint/checkpatch: /usr/src/linux-source-6.12.tar.xz missing (make deps)"
	exit 1
fi
stamp=$(stat -c %Y "$tarball")
if [ "$(cat "$cache/.stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$cache" && mkdir -p "$cache"
	tar -C "$cache" --strip-components=1 --wildcards -xf "$tarball" \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	echo "$stamp" >"$cache/.stamp"
fi

out=$top/build/lint
mkdir -p "$out"
files=("$top"/drivers/md/*)
cp=(perl "$cache/scripts/checkpatch.pl" --strict --no-tree --terse --show-types)
# The compat header is the one place allowed to test the kernel version.
compat=$top/drivers/md/dm-swaptier-compat.h
if "${cp[@]}" -f $(printf '%s\n' "${files[@]}" | grep -v -- -compat.h) >"$out/checkpatch.log" 2>&1 &&
	"${cp[@]}" --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f "$compat" >>"$out/checkpatch.log" 2>&1; then
	echo "ok lint/checkpatch (--strict, ${#files[@]} files)"
else
	echo "not ok lint/checkpatch: $(grep -cE ': (ERROR|WARNING|CHECK):' "$out/checkpatch.log") findings, see $out/checkpatch.log"
	grep -E ': (ERROR|WARNING|CHECK):' "$out/checkpatch.log" | head -n 15 | sed 's/^/# /'
	failed=1
fi

# The tool is userspace C in kernel style: the same checks.
tool=("$top"/tools/dmswaptier/*.[ch])
if "${cp[@]}" -f "${tool[@]}" >"$out/checkpatch-tool.log" 2>&1; then
	echo "ok lint/checkpatch-tool (--strict, ${#tool[@]} files)"
else
	echo "not ok lint/checkpatch-tool: $(grep -cE ': (ERROR|WARNING|CHECK):' "$out/checkpatch-tool.log") findings, see $out/checkpatch-tool.log"
	grep -E ': (ERROR|WARNING|CHECK):' "$out/checkpatch-tool.log" | head -n 15 | sed 's/^/# /'
	failed=1
fi

for series in 6.1 6.12; do
	read -r abi kroot < <("$top/scripts/kernel.sh" fetch "$series") || { echo "not ok lint/sparse-$series: no kernel"; failed=1; continue; }
	d=$out/sparse-$abi
	rm -rf "$d" && mkdir -p "$d"
	cp "$top"/drivers/md/dm-swaptier*.[ch] "$top/drivers/md/Makefile" "$d/"
	make -C "$kroot/build" M="$d" CONFIG_DM_SWAPTIER=m C=2 \
		CHECK="sparse -Wbitwise -Wcast-to-as" modules >"$d/sparse.log" 2>&1
	if grep -E "dm-swaptier[^ ]*:[0-9]+:[0-9]+: (warning|error)" "$d/sparse.log" >"$d/findings"; then
		echo "not ok lint/sparse-$series: $(wc -l <"$d/findings") findings, see $d/sparse.log"
		head -n 10 "$d/findings" | sed 's/^/# /'
		failed=1
	elif ! grep -q 'CHECK' "$d/sparse.log"; then
		echo "not ok lint/sparse-$series: sparse did not run, see $d/sparse.log"
		failed=1
	else
		echo "ok lint/sparse-$series"
	fi
done
exit $failed
