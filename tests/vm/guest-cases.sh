#!/bin/bash
# Guest side of the VM suite: run each case with its own timeout, collect
# its ok/not ok lines, and fail it on a non-zero exit, on no result at all,
# or on any kernel splat it caused.
cd "$SWT_TOP" || exit 1
res=$SWT_OUT/results
logs=$SWT_OUT/cases
mkdir -p "$logs"
: >"$res"
echo 1 >/proc/sys/kernel/sysrq
. "$SWT_TOP/tests/vm/lib.sh"
# block tracepoints stay registered: no text patching between cases (lib.sh)
bt_keep
# What each test disk stands for, as the kernel would see it on a real
# machine: by default disk A is an SSD (the fast tier, non-rotational) and
# disks B, C and D are rotating disks (rotational), the mission's small SSD
# over large HDDs. A case says what its disks stand for in a header line
# "# disks: a=ssd b=hdd ..." (letters it does not name keep the default),
# and its log starts with the model it ran on. (The disks are files on
# the host, unthrottled, so that the suite's time goes into the checks.)
disk_model() {	# CASE: set each disk's rotational flag, print the model
	local l kind d q w spec line="# disks:"
	spec=" $(sed -n 's/^# disks: *//p' "$1" | head -n 1 | tr -d '\r') "
	# words with "=" are the model: anything else there is a mistake
	for w in $spec; do
		[[ $w != *=* || $w =~ ^[a-d]=(ssd|hdd)$ ]] ||
			echo "# disks: '$w' is not LETTER=ssd|hdd (letters a to d); ignored"
	done
	for l in a b c d; do
		kind=hdd
		[ "$l" = a ] && kind=ssd
		[[ $spec =~ \ $l=(ssd|hdd)\  ]] && kind=${BASH_REMATCH[1]}
		d=$(eval echo "\${SWT_DISK_${l^^}:-}")
		[ -n "$d" ] || continue
		q=/sys/block/$(basename "$d")/queue/rotational
		if [ "$kind" = ssd ]; then echo 0; else echo 1; fi >"$q"
		line+=" ${l^^}=$(basename "$d") $kind (rotational $(cat "$q"))"
	done
	echo "$line"
}
dmesg -C
# the entries of /tmp that lead to the checkout and the results share (the
# guest keeps a checkout under /tmp visible: tests/vm/init.sh)
keep() { case "$1/" in /tmp/?*) local r=${1#/tmp/}; echo "/tmp/${r%%/*}" ;; esac; }
keep_top=$(keep "$SWT_TOP") keep_out=$(keep "$SWT_OUT")
keep_top=${keep_top:-/nonexistent} keep_out=${keep_out:-/nonexistent}
for c in "$@"; do
	name=$(basename "$c" .sh)
	t=$(sed -n 's/^# timeout: *\([0-9]*\).*/\1/p' "$c" | head -n 1)
	t=${t:-300}
	# "# expect: call-traces": the case provokes stack dumps by design (OOM
	# killer, allocation failure reports); keep them off the console, whose
	# check matches any "Call Trace", and let this case's own log check
	# match every splat by its header instead.
	traces=0
	grep -q '^# expect: *call-traces' "$c" && traces=1
	echo "=== case $name (timeout ${t}s)" >/dev/kmsg
	[ $traces = 1 ] && dmesg -n 1
	disk_model "$c" >"$logs/$name.log"
	start=$(date +%s)
	CASE=$name timeout -k 5 "$t" bash "$c" >>"$logs/$name.log" 2>&1
	rc=$?
	end=$(date +%s)
	dmesg -c >"$logs/$name.dmesg"
	# memory a case pinned (mem_squeeze in lib.sh), however it ended;
	# memory cgroups it left (memcg_run)
	squeeze_left=0
	if mountpoint -q /run/swt-squeeze; then
		umount /run/swt-squeeze || squeeze_left=1
	fi
	rmdir /sys/fs/cgroup/*/ 2>/dev/null
	[ $traces = 1 ] && dmesg -n 6
	# /tmp is a small tmpfs: each case starts with it empty, but for the
	# checkout and the results share, when they are under /tmp
	for f in /tmp/* /tmp/.[!.]*; do
		case "$f" in "$keep_top" | "$keep_out") continue ;; esac
		rm -rf "$f" 2>/dev/null
	done
	grep -aE '^(not )?ok ' "$logs/$name.log" >"$logs/$name.res"
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "not ok $name: timed out after ${t}s" >>"$logs/$name.res"
	elif [ $rc -ne 0 ] && ! grep -q '^not ok' "$logs/$name.res"; then
		echo "not ok $name: exited with status $rc" >>"$logs/$name.res"
	elif [ ! -s "$logs/$name.res" ]; then
		echo "not ok $name: printed no result" >>"$logs/$name.res"
	fi
	[ $squeeze_left = 1 ] &&
		echo "not ok $name: memory it pinned in /run/swt-squeeze cannot be released" >>"$logs/$name.res"
	if s=$(SPLAT_EXPECT_TRACES=$traces "$SWT_TOP/tests/vm/splat.sh" "$logs/$name.dmesg"); then
		echo "not ok $name: kernel splat: $(echo "$s" | head -n 1)" >>"$logs/$name.res"
	fi
	echo "# $name: $((end - start))s" >>"$logs/$name.res"
	cat "$logs/$name.res" >>"$res"
	sync
done
exit 0
