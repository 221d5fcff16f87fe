#!/bin/bash
# The VM harness's own test: a planted kernel WARN, a case that exits
# non-zero, one that prints nothing and one that hangs must each be
# reported as failures; a passing case must pass. On the debug kernel
# (6.12-debug) a planted use-after-free, lock-order inversion and sleep in
# atomic context must fail their cases too. On the others (the host's
# side, the same whatever the kernel), a whole guest that hangs is stopped
# by the VM's timeout, a copy of the tree under /tmp (which the guest
# covers with a tmpfs) runs a case, and a path with a blank is refused
# with a clear error.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
series=${1:-6.12}
out=$top/build/vm/selftest-$series
c=$top/tests/vm/selftest/cases
planted=()
# lockdep turns itself off at the first report that taints the kernel
# (KASAN's does): the lock-order case runs first
case "$series" in *-debug) planted=("$c/lockorder.sh" "$c/sleep.sh" "$c/uaf.sh") ;; esac
res=$("$top/tests/vm/suite.sh" --kernel "$series" --out "$out" --timeout 300 \
	"$c/pass.sh" "$c/warn.sh" "$c/exit-nonzero.sh" "$c/no-result.sh" "$c/hang.sh" \
	"${planted[@]}")
rc=$?
expect() {	# NAME PATTERN
	if grep -qE "$2" <<<"$res"; then
		echo "ok harness/$1"
	else
		echo "not ok harness/$1: no line matching '$2' in the suite's output"
	fi
}
expect passing-case-passes "^ok $series/pass$"
expect warn-fails-case "^not ok $series/warn: kernel splat: .*WARNING"
expect warn-fails-vm "^not ok $series/vm-[0-9]+[MG]: .*kernel splat"
expect nonzero-exit-fails "^not ok $series/exit-nonzero: exited with status 3"
expect no-result-fails "^not ok $series/no-result: printed no result"
expect case-timeout-fails "^not ok $series/hang: timed out"
if [ ${#planted[@]} -gt 0 ]; then
	expect kasan-fails-case "^not ok $series/uaf: kernel splat: .*KASAN: slab-use-after-free"
	expect lockdep-fails-case "^not ok $series/lockorder: kernel splat: .*possible circular locking"
	expect atomic-sleep-fails-case "^not ok $series/sleep: kernel splat: .*(sleeping function called from invalid context|scheduling while atomic)"
fi
if [ $rc -ne 0 ]; then echo "ok harness/suite-exit-status"; else echo "not ok harness/suite-exit-status: suite.sh exited 0"; fi

# What follows tests the host's side (run.sh's own timeout, the paths it
# accepts), which does not depend on the kernel: not again on the debug one
if [ "$series" != "${series%-debug}" ]; then
	exit 0
fi

# a guest that never powers off is stopped by the hard VM timeout
mkdir -p "$out-hang"
"$top/tests/vm/run.sh" --kernel "$series" --out "$out-hang" --timeout 15 -- sleep 1000 2>/dev/null
hrc=$?
if [ $hrc -eq 124 ]; then
	echo "ok harness/hung-guest-times-out"
else
	echo "not ok harness/hung-guest-times-out: run.sh exited $hrc, not 124"
fi

# the lane from a checkout under /tmp, the usual place to try a project
copy=$(mktemp -d /tmp/dm-swaptier-path.XXXXXX)
tar -C "$top" --exclude=./build --exclude=./.git -cf - . | tar -C "$copy" -xf -
mkdir -p "$copy/build"
cp -a "$top/build/kmod" "$top/build/bin" "$copy/build/"
res=$("$copy/tests/vm/suite.sh" --kernel "$series" --out "$copy/build/vm/path" \
	"$copy/tests/vm/cases/00-module.sh" 2>&1)
expect checkout-under-tmp "^ok $series/00-module/unload$"
grep -q "^not ok" <<<"$res" && sed -n 's/^not ok/# (under \/tmp) not ok/p' <<<"$res" | head -n 5
rm -rf "$copy"
copy=$(mktemp -d "/tmp/dm-swaptier path.XXXXXX")
err=$("$top/tests/vm/run.sh" --kernel "$series" --out "$copy" -- true 2>&1)
hrc=$?
if [ $hrc -eq 2 ] && grep -q "must not contain blanks" <<<"$err"; then
	echo "ok harness/blank-in-path-refused"
else
	echo "not ok harness/blank-in-path-refused: run.sh exited $hrc: $err"
fi
rm -rf "$copy"
