# Helpers sourced by the guest test cases (tests/vm/cases/*.sh).
# Every case prints "ok NAME" or "not ok NAME: reason" for each check.
# The target's figures are read by name: swt_stat DEV KEY...,
# swt_tier_stat DEV TIER KEY (the "stats" message, below).

CASE=${CASE:-$(basename "$0" .sh)}
FAILED=0

ok() { echo "ok $CASE${1:+/$1}"; }
nok() {
	local sub=$1; shift
	echo "not ok $CASE${sub:+/$sub}: $*"
	FAILED=1
}
# check SUB COND-COMMAND... : ok if the command succeeds
check() {
	local sub=$1; shift
	if "$@"; then ok "$sub"; else nok "$sub" "failed: $*"; fi
}
die() { echo "not ok $CASE: $*"; exit 1; }

swt_modprobe() { modprobe -d "$SWT_KROOT" "$@"; }

# Load the dm core modules the target needs, then dm-swaptier itself.
swt_load() {
	swt_modprobe dm-mod || die "cannot load dm-mod"
	swt_modprobe dm-kcopyd 2>/dev/null || true
	if ! grep -q '^dm_swaptier ' /proc/modules; then
		insmod "$SWT_TOP/build/kmod/$SWT_ABI/dm-swaptier.ko" ||
			die "cannot insmod dm-swaptier for $SWT_ABI"
	fi
}

swt_unload() {
	local d
	for d in $(dmsetup ls --target swaptier 2>/dev/null | awk '$1 != "No" {print $1}'); do
		dmsetup remove --retry "$d" >/dev/null 2>&1
	done
	rmmod dm_swaptier
}

# blocks DEV: size in 4 KiB blocks
dev_blocks() { echo $(($(blockdev --getsz "$1") / 8)); }

# poll COND TIMEOUT: wait until the command succeeds, at most TIMEOUT seconds
poll() {
	local t=$2 i=0
	while ! eval "$1"; do
		i=$((i + 1))
		[ $i -ge $((t * 10)) ] && return 1
		sleep 0.1
	done
}

# Kernel log lines since the case (or the last dmesg_mark) began.
DMESG_MARK=0
dmesg_mark() { DMESG_MARK=$(dmesg | wc -l); }
dmesg_new() { dmesg | tail -n +$((DMESG_MARK + 1)); }

# Largest length (sectors) the target accepts over the given tiers with the
# default reserve: max(256, total/100) blocks.
swt_max_len() {
	local total=0 d r
	for d in "$@"; do total=$((total + $(dev_blocks "$d"))); done
	r=$((total / 100))
	[ $r -lt 256 ] && r=256
	echo $(((total - r) * 8))
}

# swt_create NAME LEN TIERS... [-- OPTIONS...]
swt_create() {
	local name=$1 len=$2; shift 2
	local tiers=() opts=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do tiers+=("$1"); shift; done
	[ "${1:-}" = -- ] && { shift; opts=("$@"); }
	local line="0 $len swaptier ${#tiers[@]} ${tiers[*]}"
	[ ${#opts[@]} -gt 0 ] && line+=" ${#opts[@]} ${opts[*]}"
	dmsetup create "$name" --table "$line"
}

# swt_check_map DEV: the target's own invariant check says ok
swt_check_map() {
	local r
	r=$(dmsetup message "$1" 0 check) || return 1
	[ "$r" = ok ] || { echo "map check: $r"; return 1; }
}

# The target's figures, read by name from its "stats" message (keys are
# only ever added; see docs/dm-swaptier.rst "Messages"). Nothing here reads
# the status line by position: tests/vm/cases/00-module.sh is the one check
# of that line's documented format.
#
# swt_stats DEV: the stats reply as one key=value per line, the per-tier
# keys ("tier1: mapped=5 ...") as tierN.key ("tier1.mapped=5")
swt_stats() {
	local r
	r=$(dmsetup message "$1" 0 stats) || return 1
	awk '/^tier[0-9]+:/ { t = $1; sub(":", ".", t); for (i = 2; i <= NF; i++) print t $i; next }
		{ for (i = 1; i <= NF; i++) print $i }' <<<"$r"
}
# swt_stat DEV KEY...: the values of the keys, space-separated, from one
# stats reply (so several keys are one snapshot); fails, saying so on
# stderr, if the message fails or a key is not in it
swt_stat() {
	local dev=$1 st; shift
	[ $# -gt 0 ] || { echo "swt_stat: no key asked for" >&2; return 1; }
	st=$(swt_stats "$dev") || { echo "swt_stat: no stats from $dev" >&2; return 1; }
	awk -v keys="$*" '
		{ i = index($0, "="); v[substr($0, 1, i - 1)] = substr($0, i + 1) }
		END {
			n = split(keys, k, " ")
			for (j = 1; j <= n; j++) {
				if (!(k[j] in v)) { print "swt_stat: no key " k[j] >"/dev/stderr"; exit 1 }
				out = out (j > 1 ? " " : "") v[k[j]]
			}
			print out
		}' <<<"$st"
}
# swt_tier_stat DEV TIER KEY: a per-tier key (mapped blocks free reads
# writes errors) of tier TIER (from 0)
swt_tier_stat() { swt_stat "$1" "tier$2.$3"; }

# dev_mm DEV: major:minor as dm prints it
dev_mm() { printf '%d:%d' "0x$(stat -Lc %t "$1")" "0x$(stat -Lc %T "$1")"; }

# fio_verify NAME DEV SIZE-PER-JOB JOBS [extra fio args...]: random writes
# of 4k-256k with crc32c verification, each job in its own region, twice
# over (so every block is overwritten), then everything read back and
# checked. ok/not ok NAME.
fio_verify() {
	local name=$1 dev=$2 size=$3 jobs=$4; shift 4
	local log=$SWT_OUT/cases/$CASE-$name.fio
	if fio --name="$name" --filename="$dev" --direct=1 --ioengine=libaio \
		--iodepth=16 --rw=randwrite --bsrange=4k-256k --blockalign=4k \
		--size="$size" --numjobs="$jobs" --offset_increment="$size" \
		--loops=2 --verify=crc32c --verify_fatal=1 --verify_dump=0 \
		--group_reporting "$@" >"$log" 2>&1 &&
		! grep -q 'err=[^ 0]' "$log"; then
		ok "$name"
	else
		nok "$name" "fio verify failed: $(grep -m1 -iE 'verify:|err=|Assert' "$log")"
	fi
}

# bt_start DIR DEV...: blktrace each device into DIR/NAME.blktrace (one
# stream per device, all CPUs; bt_parse reads it): by default the queue,
# merge and dispatch events; BT_MASK="issue" for dispatches only (far
# fewer events, which an emulated guest under memory pressure can keep up
# with). The output is piped (-o -): written to a file, blktrace maps and
# mlocks 16 relay buffers per device and CPU of it, 64 MiB of a small
# guest's memory with 1 MiB buffers, which the measured load then lacks.
bt_start() {
	local dir=$1; shift
	local d m masks=()
	BT_DIR=$dir BT_PIDS=()
	rm -rf "$dir" "$dir.out" && mkdir -p "$dir"
	for m in ${BT_MASK:-queue issue}; do masks+=(-a "$m"); done
	for d in "$@"; do
		# 2 MiB of relay buffers per CPU: an emulated guest drains them slowly
		blktrace -d "$d" -o - -b 256 -n 8 "${masks[@]}" \
			>"$dir/$(basename "$d").blktrace" 2>>"$dir.out" &
		BT_PIDS+=($!)
	done
	# a trace has started when its stream holds the note the kernel
	# writes at BLKTRACESTART (the relay files in debugfs exist earlier,
	# from the setup, and may be a stale trace's)
	local i=0
	for d in "$@"; do
		if ! poll "kill -0 ${BT_PIDS[i]} 2>/dev/null && [ -s '$dir/$(basename "$d").blktrace' ]" 20; then
			kill -INT "${BT_PIDS[@]}" 2>/dev/null
			wait "${BT_PIDS[@]}" 2>/dev/null
			return 1
		fi
		i=$((i + 1))
	done
}
# bt_parse DIR DEV [BLKPARSE-ARGS...]: blkparse DEV's trace from bt_start
bt_parse() {
	local f; f=$1/$(basename "$2").blktrace
	shift 2
	blkparse -q -i - "$@" <"$f"
}
# swt_quiet: no dm-swaptier device has a discard queued or running, or a
# copy in flight
swt_quiet() {
	local n
	for n in $(dmsetup ls --target swaptier 2>/dev/null | awk '$1 != "No" {print $1}'); do
		[ "$(swt_stat "$n" pending ready trimming migrating 2>/dev/null)" = "0 0 0 0" ] ||
			return 1
	done
}

# bt_keep: keep the block tracepoints registered for the whole boot, with a
# trace of an idle null_blk device that is never stopped. The kernel
# registers blktrace's probes when the first trace is set up and removes
# them when the last one ends (blk_probes_ref in kernel/trace/blktrace.c),
# and each time it patches kernel text with int3 breakpoints: under
# multi-threaded TCG a vCPU may then execute a stale int3 ("Oops: int3" in
# blk_mq_submit_bio, seen twice from the target's discard worker, once in
# spite of bt_stop's wait). With this trace held, the traces of each run
# start and stop without patching. Returns 1, with a note, if it cannot.
bt_keep() {
	if ! swt_modprobe null_blk nr_devices=1 ||
		! poll '[ -b /dev/nullb0 ]' 10; then
		echo "# bt_keep: no null_blk device; traces will patch kernel text"
		return 1
	fi
	blktrace -d /dev/nullb0 -o - -b 16 -n 2 >/dev/null 2>&1 &
	BT_KEEPER=$!
	if ! poll "kill -0 $BT_KEEPER 2>/dev/null && [ -e /sys/kernel/debug/block/nullb0/dropped ]" 20; then
		echo "# bt_keep: the null_blk trace did not start; traces will patch kernel text"
		kill -INT "$BT_KEEPER" 2>/dev/null
		return 1
	fi
}

# bt_stop: stop the trace. Without bt_keep, stopping the last trace patches
# kernel text (see there): so let the devices' background I/O drain first;
# a busy device still stops the trace after 30 s.
bt_stop() {
	sync
	poll swt_quiet 30 || echo "# bt_stop: background I/O still running"
	kill -INT "${BT_PIDS[@]}" 2>/dev/null
	wait "${BT_PIDS[@]}" 2>/dev/null
	# blktrace says so when its buffers overflowed: the counts are then low
	grep -h -i 'dropped' "$BT_DIR.out" 2>/dev/null | sed 's/^/# blktrace: /'
}
# bt_complete: the last trace lost no events (none dropped, no failed
# write of its stream)
bt_complete() { ! grep -qiE 'dropped [1-9]|You have [1-9]|failed' "$BT_DIR.out" 2>/dev/null; }

# bt_summary DIR DEV: "<writes> <write_sectors> <reads> <read_sectors>"
# of the requests dispatched to DEV.
bt_summary() {
	bt_parse "$1" "$2" -f '%a %d %n\n' 2>/dev/null | awk '
		$1 == "D" && $2 ~ /W/ && $3 > 0 { w++; ws += $3 }
		$1 == "D" && $2 ~ /R/ && $3 > 0 { r++; rs += $3 }
		END { printf "%d %d %d %d\n", w, ws, r, rs }'
}

# hog_mib [EXTRA]: per-process size for 3 memhog processes that together
# need EXTRA MiB (default 160) more than the memory available: enough to
# swap hard, not enough to run the 256 MiB reference swap device out of
# space.
hog_mib() {
	local avail; avail=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
	echo $(((avail + ${1:-160}) / 3))
}

# swap_prio NAME: the priority of /dev/mapper/NAME in swapon --show,
# empty if it is not swap
swap_prio() {
	local dev; dev=$(readlink -f "/dev/mapper/$1")
	swapon --show=NAME,PRIO --noheadings --raw | awk -v d="$dev" '$1 == d {print $2}'
}

# memcg_run NAME MAX_MIB LOG CMD...: run CMD in the memory cgroup NAME,
# limited to MAX_MIB, its output in LOG; returns CMD's status. Its pages
# are swapped out by the cgroup's own reclaim, the same swap-out path as
# the guest's (shrink_lruvec, under the reclaimer's plug), while the rest
# of the guest keeps its memory: a swap load costs what it swaps, not a
# thrashing guest, and it does not depend on the guest's memory size. On
# a kernel without memory cgroups (the debug kernel) the whole guest is
# squeezed to MAX_MIB available instead (mem_squeeze), and it says so;
# 125 if neither can be done.
memcg_run() {
	local name=$1 cg=/sys/fs/cgroup/$1 max=$2 log=$3 rc
	shift 3
	if ! { mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup; } 2>/dev/null ||
		! { grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
			echo +memory >/sys/fs/cgroup/cgroup.subtree_control; } 2>/dev/null ||
		! { mkdir -p "$cg" && echo "${max}M" >"$cg/memory.max"; } 2>/dev/null; then
		rmdir "$cg" 2>/dev/null
		echo "# memcg_run: no memory cgroup (CONFIG_MEMCG?): the guest squeezed to $max MiB available instead"
		mem_squeeze "$max" || { echo "# memcg_run: cannot pin memory either"; return 125; }
		"$@" >"$log" 2>&1
		rc=$?
		mem_release
		return $rc
	fi
	(echo "$BASHPID" >"$cg/cgroup.procs" || exit 125; exec "$@") >"$log" 2>&1
	rc=$?
	echo "# memcg $name (memory.max $max MiB): exit $rc, memory.peak" \
		"$(cat "$cg/memory.peak" 2>/dev/null || echo n/a)," \
		"memory.swap.peak $(cat "$cg/memory.swap.peak" 2>/dev/null || echo n/a)"
	rmdir "$cg" 2>/dev/null
	return $rc
}

# memcg_hog NAME MAX_MIB LOG MEMHOG-ARGS...: memhog under memcg_run
memcg_hog() {
	local name=$1 max=$2 log=$3
	shift 3
	memcg_run "$name" "$max" "$log" "$SWT_TOP/build/bin/memhog" "$@"
}

# mem_squeeze MIB: pin memory in a ramfs (never reclaimed, never swapped)
# until about MIB MiB are available, for a case that needs the whole guest
# short of memory (global reclaim, the OOM killer) at the cost of a small
# guest's load; fails if memory is pinned already. mem_release gives it
# back, and tests/vm/guest-cases.sh does after every case (and fails the
# case if it cannot).
SWT_SQUEEZE=/run/swt-squeeze
mem_squeeze() {
	local pin
	mountpoint -q "$SWT_SQUEEZE" && { echo "# mem_squeeze: memory is pinned already"; return 1; }
	pin=$(($(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo) - $1))
	[ "$pin" -gt 0 ] || return 0
	mkdir -p "$SWT_SQUEEZE" && mount -t ramfs swt-squeeze "$SWT_SQUEEZE" || return 1
	dd if=/dev/zero of="$SWT_SQUEEZE/pin" bs=1M count="$pin" status=none || { mem_release; return 1; }
	echo "# mem_squeeze: $pin MiB pinned, $(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo) MiB available"
}
mem_release() {
	! mountpoint -q "$SWT_SQUEEZE" || umount "$SWT_SQUEEZE" || return 1
	rmdir "$SWT_SQUEEZE" 2>/dev/null
	return 0
}

# hog_reap SUB: kill what is left of memhog (a SIGBUS or the OOM killer may
# have taken the parent and left children running); not ok SUB if it stays
hog_reap() {
	pkill -9 -f "$SWT_TOP/build/bin/memhog"
	poll "! pgrep -f '$SWT_TOP/build/bin/memhog' >/dev/null" 60 || nok "$1" "memhog still running"
}

# kml_module_leaks FILE: how many kmemleak reports in FILE (a copy of
# /sys/kernel/debug/kmemleak) have dm-swaptier code in their allocation
# backtrace, or an address no symbol covers (a module unloaded since);
# those reports are copied to FILE.module
kml_module_leaks() {
	: >"$1.module"
	awk -v out="$1.module" '
		function flush() {
			if (rec ~ /\[dm_swaptier\]|\] 0x[0-9a-f]+\n/) { n++; printf "%s", rec >out }
			rec = ""
		}
		/^unreferenced object/ { flush() }
		{ rec = rec $0 "\n" }
		END { flush(); print n + 0 }' "$1"
}

# swt_fill_fast DEV T0 N DATA: with migration off on DEV, zero its first T0
# blocks (all of tier 0), then write N random blocks, kept in DATA, after
# them (so on tier 1); ok/not ok "layout" checks where the first one went
swt_fill_fast() {
	local dev=$1 t0=$2 n=$3 data=$4 name
	name=$(basename "$dev")
	dd if=/dev/zero of="$dev" bs=1M count=$((t0 / 256)) oflag=direct status=none ||
		die "cannot fill the fast tier"
	head -c $((n * 4096)) /dev/urandom >"$data"
	dd if="$data" of="$dev" bs=1M seek=$((t0 / 256)) oflag=direct status=none ||
		die "cannot write the slow tier's blocks"
	check layout test "$(dmsetup message "$name" 0 map "$t0" 1)" = "$t0 1 1 0"
}
