#!/bin/bash
# Host tests of the dmswaptier tool: argument parsing and exit codes, and
# trace analysis of recorded blkparse output checked against an
# independent count, with --json validated by jq.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
make -s -C "$top" tool || { echo "not ok tool/build: make tool failed"; exit 1; }
T=$top/build/bin/dmswaptier
failed=0
expect_rc() {	# NAME RC ARGS...
	local name=$1 want=$2; shift 2
	"$T" "$@" >/dev/null 2>&1
	local rc=$?
	if [ $rc = "$want" ]; then
		echo "ok tool/$name"
	else
		echo "not ok tool/$name: 'dmswaptier $*' exited $rc, expected $want"
		failed=1
	fi
}

expect_rc no-args 1
expect_rc unknown-command 1 frobnicate
expect_rc help 0 --help
for c in create remove status map trace set evacuate heat; do expect_rc "help-$c" 0 "$c" --help; done
expect_rc map-no-name 1 map
expect_rc map-two-names 1 map a b
expect_rc map-bad-from 1 map x --from abc
expect_rc create-no-tiers 1 create only-a-name
expect_rc create-bad-size 1 create x /dev/null --size 1000
# sizes whose byte count does not fit in 64 bits, and non-numbers: usage errors
expect_rc create-size-overflow 1 create x /dev/null --size 99999999999G
expect_rc create-size-2p64 1 create x /dev/null --size 17179869184G
expect_rc create-size-erange 1 create x /dev/null --size 18446744073709551616
expect_rc create-size-erange-suffix 1 create x /dev/null --size 18446744073709551616G
expect_rc create-size-negative 1 create x /dev/null --size -4096
expect_rc create-size-empty 1 create x /dev/null --size ''
expect_rc create-size-no-number 1 create x /dev/null --size G
# the largest size that fits is taken: then /dev/null is not a block device
expect_rc create-size-largest 2 create x /dev/null --size 17179869183G
expect_rc create-size-ok 2 create x /dev/null --size 4G
expect_rc create-discard-without-swap 1 create x /dev/null --discard
expect_rc status-bad-watch 1 status --watch 0
expect_rc status-two-names 1 status a b
expect_rc remove-no-name 1 remove
expect_rc trace-analyse-no-files 1 trace --analyse
expect_rc trace-analyse-missing-file 2 trace --analyse /nonexistent
expect_rc trace-analyse-no-events 2 trace --analyse /dev/null
expect_rc unsupported-evacuate 2 evacuate x 1
if [ ! -e /dev/mapper/control ]; then
	expect_rc status-without-dm 2 status
fi

for f in "$top"/tests/tool/data/*.blkparse; do
	name=$(basename "$f" .blkparse)
	json=$("$T" trace --analyse --json "$f")
	if ! jq -e 'type == "array" and length > 0' >/dev/null <<<"$json"; then
		echo "not ok tool/trace-json-$name: not a JSON array"
		failed=1
		continue
	fi
	echo "ok tool/trace-json-$name"
	# independent count of the same events
	awk '$6 ~ /^[QMFD]$/ && $7 ~ /[RW]/ && $8 ~ /^[0-9]+$/ && $9 == "+" {
		dir = ($7 ~ /W/) ? "write" : "read"
		k = $1 " " dir
		if ($6 == "Q") q[k]++
		else if ($6 == "D" && $10 > 0) { d[k]++; s[k] += $10 }
		else if ($6 == "M" || $6 == "F") m[k]++
		keys[k] = 1
	} END { for (k in keys) printf "%s %d %d %d %d\n", k, q[k], m[k], d[k], s[k] }' "$f" |
	sort >/tmp/swt-tool-expect.$$
	jq -r '.[] | select(.queued + .merged + .dispatched > 0) |
		"\(.device) \(.dir) \(.queued) \(.merged) \(.dispatched) \(.dispatched_sectors) \(.p50_kib) \(.p90_kib)"' \
		<<<"$json" | sort >/tmp/swt-tool-all.$$
	cut -d' ' -f1-6 /tmp/swt-tool-all.$$ >/tmp/swt-tool-got.$$
	if diff -u /tmp/swt-tool-expect.$$ /tmp/swt-tool-got.$$ >/tmp/swt-tool-diff.$$; then
		echo "ok tool/trace-counts-$name ($(wc -l </tmp/swt-tool-got.$$) device/direction pairs)"
	else
		echo "not ok tool/trace-counts-$name: the tool and awk disagree"
		sed 's/^/# /' /tmp/swt-tool-diff.$$ | head -n 10
		failed=1
	fi
	# a recorded trace also carries the counts it is known to hold
	if [ -e "${f%.blkparse}.expect" ]; then
		if diff -u "${f%.blkparse}.expect" <(cut -d' ' -f1-5,7,8 /tmp/swt-tool-all.$$) \
			>/tmp/swt-tool-diff.$$; then
			echo "ok tool/trace-known-$name"
		else
			echo "not ok tool/trace-known-$name: counts differ from $(basename "${f%.blkparse}.expect")"
			sed 's/^/# /' /tmp/swt-tool-diff.$$ | head -n 10
			failed=1
		fi
	fi
	rm -f /tmp/swt-tool-*.$$
	png=$(mktemp --suffix=.png)
	if "$T" trace --analyse "$f" --plot "$png" >/dev/null && [ "$(head -c 4 "$png" | tail -c 3)" = PNG ]; then
		echo "ok tool/trace-plot-$name"
	else
		echo "not ok tool/trace-plot-$name: no PNG written"
		failed=1
	fi
	rm -f "$png"
done
exit $failed
