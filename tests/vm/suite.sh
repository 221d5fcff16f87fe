#!/bin/bash
# Host side of the VM suite: boot SERIES once, run the given cases (default:
# every tests/vm/cases/*.sh) and print one "ok/not ok SERIES/NAME" line per
# result. Exit 0 when nothing failed. On the debug kernel (6.12-debug) the
# default cases also include tests/vm/debug-cases/*.sh, the fault-injection
# cases that need its KASAN, kmemleak and fault-injection knobs, and leave
# out the cases marked "# debug-lane: full" unless SWT_DEBUG_FULL=1, and
# always those marked "# debug-lane: none (why)": the debug kernel lacks
# what they need. On 6.1 and 6.12 a case marked "# kernels: SERIES..."
# runs only on those (named cases always run).
#
#   tests/vm/suite.sh --kernel SERIES [--out DIR] [--mem SIZE] [CASE...]
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# One boot runs every case, each under its own "# timeout:"; the VM's own
# limit (SWT_VM_TIMEOUT) only bounds a guest that hangs between cases.
series="" out="" mem=${SWT_VM_MEM:-512M} timeout=${SWT_VM_TIMEOUT:-3600}
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) series=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	*) break ;;
	esac
done
[ -n "$series" ] || { echo "suite.sh: --kernel is required" >&2; exit 2; }
out=${out:-$top/build/vm/$series}
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
	cases=("$top"/tests/vm/cases/*.sh)
	# a case whose kernel paths every case already runs on both kernels,
	# and whose own subject is userspace, says on which one it runs
	# ("# kernels: 6.12"); the debug lane goes by "# debug-lane:" only
	case "$series" in
	*-debug) ;;
	*)
		keep=()
		for c in "${cases[@]}"; do
			k=$(sed -n 's/^# kernels: *\([^(]*\).*/\1/p' "$c" | head -n 1)
			[ -z "$k" ] || [[ " $k " == *" $series "* ]] && keep+=("$c")
		done
		cases=("${keep[@]}") ;;
	esac
	case "$series" in
	*-debug)
		keep=()
		for c in "${cases[@]}"; do
			grep -q '^# debug-lane: *none' "$c" || keep+=("$c")
		done
		cases=("${keep[@]}")
		# cases marked "# debug-lane: full" are long and add little under
		# KASAN beyond the fault cases: only SWT_DEBUG_FULL=1 (make
		# check-debug) runs them here, to keep make check's time
		if [ "${SWT_DEBUG_FULL:-0}" != 1 ]; then
			keep=()
			for c in "${cases[@]}"; do
				grep -q '^# debug-lane: *full' "$c" || keep+=("$c")
			done
			cases=("${keep[@]}")
		fi
		cases+=("$top"/tests/vm/debug-cases/*.sh) ;;
	esac
fi
rel=()
for c in "${cases[@]}"; do rel+=("$(cd "$(dirname "$c")" && pwd)/$(basename "$c")"); done

rm -rf "$out"
mkdir -p "$out"

# Cases that need a different guest memory size say so ("# mem: 256M");
# the suite boots once per memory size.
declare -A groups=()
for c in "${rel[@]}"; do
	m=$(sed -n 's/^# mem: *\([0-9]*[MG]\).*/\1/p' "$c" | head -n 1)
	groups[${m:-$mem}]+="$c "
done

failed=0
for m in "${!groups[@]}"; do
	gout=$out/mem-$m
	mkdir -p "$gout"
	# The standard tier disks every case may use; all unthrottled so that
	# the suite's time goes into the checks, not into emulated seek time.
	# shellcheck disable=SC2086
	"$top/tests/vm/run.sh" --kernel "$series" --out "$gout" --mem "$m" \
		--timeout "$timeout" \
		--disk a:64 --disk b:256 --disk c:256 --disk d:512 \
		-- "$top/tests/vm/guest-cases.sh" ${groups[$m]} 2>"$gout/run.err"
	rc=$?
	mkdir -p "$out/cases"
	cp "$gout"/cases/* "$out/cases/" 2>/dev/null
	if [ $rc -ne 0 ]; then
		# the verdict is run.sh's first line that is not about waiting
		grep -v '^run.sh: waiting for the VM' "$gout/run.err" >"$gout/run.why"
		echo "not ok $series/vm-$m: $(head -n 1 "$gout/run.why") (exit $rc)"
		sed 's/^/# /' "$gout/run.why" | tail -n +2 | head -n 25
		failed=1
	else
		echo "ok $series/vm-$m"
	fi
done
for c in "${rel[@]}"; do
	name=$(basename "$c" .sh)
	r=$out/cases/$name.res
	if [ ! -f "$r" ]; then
		echo "not ok $series/$name: no result (the VM stopped before this case)"
		failed=1
		continue
	fi
	sed -nE 's@^(not ok|ok) @\1 '"$series"'/@p' "$r"
	grep -q '^not ok' "$r" && failed=1
	grep '^#' "$r"
done
exit $failed
