#!/bin/bash
# The benchmark: one VM boot per kernel series runs every configuration and
# workload (bench/guest.sh) on the same throttled tier disks, then
# bench/report.py writes the JSON results, the Markdown report and its
# plots.
#
#   bench/run.sh [--quick] [--out DIR] [--configs C,...] [--workloads W,...]
#                [--opts "KEY VALUE ..."] [SERIES...]      (default: 6.1 6.12)
#
# Full runs write bench/results/<kernel>-<date>.{json,md} and PNGs there;
# --quick (make bench-quick, part of make check) uses tiny sizes, writes
# under build/bench-quick, and prints ok/not ok lines: every configuration
# ran, every workload verified its data, every figure was produced.
# --opts adds table options (tunables, docs/dm-swaptier.rst) to every
# dm-swaptier configuration, to measure a variant; the report says so and
# is named -partial.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
scale=full out="" cfgs="" wls="" opts=""
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) scale=quick; shift ;;
	--out) out=$2; shift 2 ;;
	--configs) cfgs=$2; shift 2 ;;
	--workloads) wls=$2; shift 2 ;;
	--opts) opts=$2; shift 2 ;;
	-*) echo "bench/run.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
series=("$@")
[ ${#series[@]} -gt 0 ] || series=(6.1 6.12)
if [ $scale = quick ]; then
	out=${out:-$top/build/bench-quick}
	# the full run's tiers (bench/guest.sh says what each stands for,
	# and sets each one's rotational flag as in the full run), but none
	# throttled: the quick run checks that every configuration and
	# workload runs and yields its figures, and the throttled disks took
	# half of its time (354 s at stop 33)
	disks=(--disk fast:64 --disk slow:256 --disk big:256 --disk hdd:256 --nbd net:256)
	# a smaller guest than the full run's: every size follows the memory
	# available, and the fills are most of the quick run's time
	mem=192M tmo=2400
else
	out=${out:-$top/bench/results}
	disks=(--disk fast:128 --disk slow:1024:ssd --disk big:1024 --disk hdd:1024:hdd
		--nbd net:1024)
	mem=256M tmo=14400
fi
mkdir -p "$out" "$top/build/bin"
gcc -O2 -Wall -Wextra -Werror -o "$top/build/bin/swapbench" "$top/bench/swapbench.c" ||
	{ echo "not ok bench/build: swapbench"; exit 1; }
make -s -C "$top" tool >/dev/null || { echo "not ok bench/build: dmswaptier"; exit 1; }
"$top/scripts/build-module.sh" "${series[@]}" | grep -v '^ok' && exit 1

# The OOM killer's report prints a stack: zram-wb may run the guest out of
# memory (bench/guest.sh), which is that configuration's result, so the
# bare "Call Trace" line is not a splat here; every real splat still
# fails the run by its own header (tests/vm/splat.sh).
export SPLAT_EXPECT_TRACES=1
failed=0
for s in "${series[@]}"; do
	vm=$top/build/bench/$scale-$s
	rm -rf "$vm" && mkdir -p "$vm"
	echo "# bench: $s, $scale, guest $mem, disks ${disks[*]}"
	"$top/tests/vm/run.sh" --kernel "$s" --out "$vm" --mem "$mem" \
		--timeout "$tmo" "${disks[@]}" -- "$top/bench/guest.sh" "$scale" \
		"${cfgs:-all}" "${wls:-all}" "$opts" >"$vm/run.log" 2>&1
	rc=$?
	# the guest's own ok/not ok lines: one per configuration and workload
	grep -aE '^(ok|not ok|#) ' "$vm/guest.log" 2>/dev/null | sed "s|^\(not \)*ok bench/|&$s/|"
	if grep -q '^not ok' "$vm/guest.log" 2>/dev/null; then
		failed=1
	else
		# every run of the plan, and the fio comparison
		want=$(($(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["plan"]))' \
			"$vm/meta.json" 2>/dev/null || echo 0) + 1))
		if [ "$want" = 1 ] || [ "$(grep -c '^ok' "$vm/guest.log" 2>/dev/null)" != "$want" ]; then
			echo "not ok bench/$s/runs: $(grep -c '^ok' "$vm/guest.log" 2>/dev/null) of $want runs reported"
			failed=1
		fi
	fi
	if [ $rc -ne 0 ]; then
		echo "not ok bench/$s/vm: exit $rc ($(grep -v '^run.sh: waiting for the VM' "$vm/run.log" | head -n 3 | tr '\n' ' '))"
		failed=1
	fi
	# parse the guest's raw traces here, where it is fast
	for d in "$vm"/traces/*/; do
		for t in "$d"*.blktrace; do
			[ -e "$t" ] || continue
			dev=$(basename "$t" .blktrace)
			# one stream per device (tests/vm/lib.sh bt_start)
			blkparse -q -i - <"$t" 2>/dev/null |
				"$top/build/bin/dmswaptier" trace --analyse - --json >"$d$dev.json"
			rm -f "$t"
		done
	done
	abi=$(sed -n 's/.*"kernel":"\([^"]*\)".*/\1/p' "$vm/meta.json" 2>/dev/null)
	name=${abi:-$s}-$(date +%Y-%m-%d)
	[ $scale = quick ] && name=$s
	# a chosen subset never replaces a full run's report
	[ -n "$cfgs$wls$opts" ] && name+=-partial
	if python3 "$top/bench/report.py" --meta "$vm/meta.json" \
		--runs "$vm/runs.jsonl" --base "$vm" --out "$out/$name" --series "$s" \
		--check; then
		echo "ok bench/$s/report ($out/$name.md)"
	else
		echo "not ok bench/$s/report: see $out/$name.md"
		failed=1
	fi
done
exit $failed
