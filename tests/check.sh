#!/bin/bash
# make check: dependencies, kernels (the debug one built from source),
# module builds for the three, host unit tests and fuzzing, the CLI's host
# tests, lint, the DKMS package and its build against both kernels, the VM
# suite (which includes the CLI's VM case) on Debian's 6.1 and 6.12 and on
# the 6.12 debug kernel with its fault cases, the benchmark's quick run on
# 6.12 (every configuration and workload runs and verifies its data, every
# figure is produced), and the VM harness's self-test on 6.12 and the debug
# kernel, and a boot with systemd as init and the boot unit enabled on
# 6.1 and 6.12. Every stage prints ok/not ok lines; this script counts them and
# closes with exactly one line "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=$top/build/check
rm -rf "$out" && mkdir -p "$out"
all=$out/results
: >"$all"
t0=$(date +%s)

stage() {	# NAME COMMAND...: run, show and keep its ok/not ok lines
	local name=$1 s rc; shift
	s=$(date +%s)
	echo "## $name"
	"$@" >"$out/$name.log" 2>&1
	rc=$?
	grep -E '^(ok|not ok|#) ' "$out/$name.log"
	grep -E '^(ok|not ok) ' "$out/$name.log" >>"$all"
	if [ $rc -ne 0 ] && ! grep -q '^not ok ' "$out/$name.log"; then
		echo "not ok $name: exited with status $rc, see $out/$name.log" | tee -a "$all"
		tail -n 5 "$out/$name.log" | sed 's/^/# /'
	fi
	echo "# $name: $(($(date +%s) - s))s"
	return $rc
}

stage deps scripts/deps.sh && echo "ok deps" >>"$all"
stage deps-closure scripts/deps.sh --closure
stage modules scripts/build-module.sh 6.1 6.12 6.12-debug
built=$?
stage tools tests/vm/build-tools.sh && echo "ok tools" >>"$all"
stage unit tests/unit/run.sh
stage tool tests/tool/run.sh
stage lint scripts/lint.sh
stage dkms scripts/dkms.sh check
for series in 6.1 6.12 6.12-debug; do
	if grep -q "^ok build/$series " "$all"; then
		stage "vm-$series" tests/vm/suite.sh --kernel "$series"
	else
		echo "not ok vm-$series: the module did not build for $series" | tee -a "$all"
	fi
done
if [ $built -eq 0 ]; then
	stage bench-quick bench/run.sh --quick 6.12
	stage boot tests/vm/boot/systemd.sh 6.1 6.12
	stage harness tests/vm/selftest/harness.sh 6.12
	stage harness-debug tests/vm/selftest/harness.sh 6.12-debug
fi

passed=$(grep -c '^ok ' "$all")
failed=$(grep -c '^not ok ' "$all")
echo "# make check took $(($(date +%s) - t0))s; results in $all"
if [ "$failed" -gt 0 ]; then
	echo "# failures:"
	grep '^not ok ' "$all" | sed 's/^/#   /'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
