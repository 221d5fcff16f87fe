#!/bin/bash
# make demo: boot a VM with a small fast tier and a larger, slower
# (throttled) one, build a dm-swaptier swap device on them with dmsetup, run
# a memory-pressure workload and show where the pages went.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
series=${1:-6.12}
out=$top/build/demo
"$top/tests/vm/build-tools.sh" || exit 1
echo "make demo: booting Debian $series under QEMU (fast: 96 MiB, slow: 512 MiB at ~4000 IOPS)..."
"$top/tests/vm/run.sh" --kernel "$series" --out "$out" --timeout 900 \
	--disk fast:96 --disk slow:512:ssd -- "$top/demo/guest.sh" 2>"$out.err"
rc=$?
cat "$out/demo.txt" 2>/dev/null
[ $rc -eq 0 ] || { echo "make demo failed (exit $rc): $(cat "$out.err")" >&2; exit 1; }
echo "(report: $out/demo.txt, console: $out/console.log)"
