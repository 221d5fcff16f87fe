#!/bin/bash
# Guest side of the benchmark (bench/run.sh boots it): the configurations
# run the workloads on the same disks, each run starting from discarded
# disks and no swap; blktrace records the dispatches on every tier device.
# One JSON object per run goes to $SWT_OUT/runs.jsonl, then the fio
# comparison of dm-swaptier with dm-linear.
#
#   bench/guest.sh SCALE [CONFIGS [WORKLOADS [OPTS]]]
#	SCALE: quick or full (sizes below); CONFIGS and WORKLOADS: "all"
#	(the default: the scale's plan below) or comma-separated subsets;
#	OPTS: table option words added to every dm-swaptier device
#
# The disks stand for what users have, and report it as the kernel would:
#   fast  an SSD (non-rotational, unthrottled), every pair's first tier
#   hdd   a rotating disk (rotational, 200 IOPS, 100 MiB/s): the pair the
#	  mission is about, a small SSD over a big HDD (configs without a
#	  suffix)
#   slow  a slower SSD (non-rotational, 4000 IOPS): the "-ssd" configs
#   big   an SSD of the slow one's size, alone: the "-single" configs
#   zram0 compressed RAM of the fast disk's size in front of the HDD, the
#	  "zram-" configs (issue 19): as two swap areas at priorities
#	  ("zram-prio"), zram with its own writeback to the HDD
#	  ("zram-wb"), and dm-swaptier over both ("zram-swaptier"). Their
#	  pages are a third incompressible (SWAPBENCH_FILL=33: about 3:1,
#	  like typical anonymous memory; the other configs' compress about
#	  50:1), and they are compared with zram-prio, what most zram
#	  users run.
#   net   a disk on another machine: a file served by qemu-nbd on the
#	  host, outside the guest, over QEMU's user-mode network, attached
#	  with Debian's nbd-client as /dev/nbd0 (tests/vm/run.sh --nbd),
#	  the "net-" configs behind the fast disk (issue 19): as two swap
#	  areas at priorities ("net-prio", what they are compared with) and
#	  dm-swaptier over both ("net-swaptier"). It reports what the nbd
#	  driver says (non-rotational).
. "$SWT_TOP/tests/vm/lib.sh"
set -u
CASE=bench
scale=${1:-quick}
# shellcheck disable=SC2206 # option words, split on purpose
xopts=(${4:-})
F=$SWT_DISK_FAST S=$SWT_DISK_SLOW G=$SWT_DISK_BIG H=$SWT_DISK_HDD
sb=$SWT_TOP/build/bin/swapbench
runs=$SWT_OUT/runs.jsonl
exec > >(tee "$SWT_OUT/guest.log") 2>&1
# the OOM killer takes a load, never the harness (this script, tee,
# blktrace, the sampler): each swapbench is set back to 0 (run)
echo -1000 >/proc/self/oom_score_adj
: >"$runs"
[ -x "$sb" ] || die "no $sb (bench/run.sh builds it)"
echo 1 >/proc/sys/kernel/sysrq
rot() { echo "$2" >"/sys/block/$(basename "$1")/queue/rotational"; }
rot "$F" 0; rot "$S" 0; rot "$G" 0; rot "$H" 1
swt_load
swt_modprobe dm-cache 2>/dev/null
swt_modprobe dm-cache-smq 2>/dev/null

ram=$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo)
avail=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
case "$scale" in
quick)	# just past RAM: every run swaps, and the suite's time stays short
	p_mib=$((avail * 5 / 4)) passes=1 hc_mib=$((avail * 17 / 16))
	hc_acc=3000 aged_rounds=1 fio_time=2 idle_mib=$((avail / 3)) ;;
*)	p_mib=$((ram * 3)) passes=1 hc_mib=$((avail * 2))
	hc_acc=200000 aged_rounds=2 fio_time=20 idle_mib=$((avail * 3 / 4)) ;;
esac
# what runs: every configuration every workload; the quick run (which
# shows that the benchmark works, not how fast anything is) runs every
# workload on dm-swaptier over the SSD+HDD pair and the pressure load on
# the other configurations (unless configurations are chosen)
all_cfgs=native,dm-cache,swaptier,native-ssd,dm-cache-ssd,swaptier-ssd,native-single,swaptier-single,zram-prio,zram-wb,zram-swaptier,net-prio,net-swaptier
all_wls=pressure,hotcold-20-80,hotcold-10-95,hotcold-read,aged,idle
# the zram and network configurations run pressure, hot/cold and
# idle-then-active
zram_wls=,pressure,hotcold-20-80,idle,
plan=()
for c in ${all_cfgs//,/ }; do
	for w in ${all_wls//,/ }; do
		[ "$scale" = quick ] && [ "${2:-all}" = all ] &&
			[ "$c" != swaptier ] && [ "$w" != pressure ] && continue
		case "${c%%-*}" in zram | net) [[ $zram_wls != *",$w,"* ]] && continue ;; esac
		plan+=("$c/$w")
	done
done
c=${2:-all} w=${3:-all}
if [ "$c$w" != allall ]; then	# a chosen subset
	[ "$c" = all ] && c=$all_cfgs
	[ "$w" = all ] && w=$all_wls
	for x in ${c//,/ }; do [[ ",$all_cfgs," == *",$x,"* ]] || die "no configuration '$x' ($all_cfgs)"; done
	for x in ${w//,/ }; do [[ ",$all_wls," == *",$x,"* ]] || die "no workload '$x' ($all_wls)"; done
	want_c=",$c," want_w=",$w,"
	sub=()
	for r in "${plan[@]}"; do
		[[ $want_c == *",${r%/*},"* && $want_w == *",${r#*/},"* ]] && sub+=("$r")
	done
	plan=("${sub[@]}")
	[ ${#plan[@]} -gt 0 ] || die "nothing to run"
fi
[[ " ${plan[*]}" != *" net-"* ]] || [ -n "${SWT_NBD_NET:-}" ] ||
	die "the net- configurations need the network disk (bench/run.sh gives it: tests/vm/run.sh --nbd net:MIB)"
echo "# guest: $ram MiB RAM, $avail MiB available; pressure $p_mib MiB," \
	"hot/cold $hc_mib MiB x $hc_acc accesses, aged $aged_rounds rounds," \
	"idle $idle_mib MiB; ${#plan[@]} runs"
# the network disk: the guest's NIC on QEMU's user-mode network, and the
# export connected as /dev/nbd0 (netlink: the kernel keeps the socket,
# marked for memory reserves, once nbd-client exits; no I/O timeout, as
# a swap device must not fail a slow request under emulation)
N=""
if [ -n "${SWT_NBD_NET:-}" ]; then
	read -r nhost nport nname <<<"$SWT_NBD_NET"
	swt_modprobe virtio_net 2>/dev/null
	swt_modprobe nbd nbds_max=1 || die "cannot load nbd"
	ip link set lo up
	eth=$(find /sys/class/net -mindepth 1 -maxdepth 1 ! -name lo -printf '%f\n' | head -n 1)
	[ -n "$eth" ] || die "no network interface for the net disk"
	ip link set "$eth" up && ip addr add 10.0.2.15/24 dev "$eth" ||
		die "cannot configure $eth"
	"$SWT_NBD_CLIENT" "$nhost" "$nport" /dev/nbd0 -N "$nname" -b 4096 >/tmp/nbd-client.log 2>&1 ||
		die "nbd-client: $(tr '\n' ' ' </tmp/nbd-client.log)"
	poll '[ "$(blockdev --getsize64 /dev/nbd0 2>/dev/null || echo 0)" -gt 0 ]' 30 ||
		die "/dev/nbd0 has no size after nbd-client"
	N=/dev/nbd0
	echo "# net: /dev/nbd0 on $eth, export $nname at $nhost:$nport, $(($(blockdev --getsize64 $N) >> 20)) MiB, rotational $(cat /sys/block/nbd0/queue/rotational)"
fi
disks=""
for d in fast:$F hdd:$H slow:$S big:$G ${N:+net:$N}; do
	disks+="${disks:+,}\"${d%%:*}\":{\"rotational\":$(cat "/sys/block/$(basename "${d#*:}")/queue/rotational"),\"mib\":$(($(blockdev --getsize64 "${d#*:}") >> 20))}"
done
printf '{"scale":"%s","ram_mib":%d,"avail_mib":%d,"kernel":"%s","pressure_mib":%d,"hotcold_mib":%d,"hotcold_accesses":%d,"aged_rounds":%d,"idle_mib":%d,"swaptier_opts":"%s","disks":{%s},"plan":[%s]}\n' \
	"$scale" "$ram" "$avail" "$(uname -r)" "$p_mib" "$hc_mib" "$hc_acc" \
	"$aged_rounds" "$idle_mib" "${xopts[*]}" "$disks" \
	"$(printf '"%s",' "${plan[@]}" | sed 's/,$//')" >"$SWT_OUT/meta.json"

# ---- configurations: setup prints the devices to trace (fast first) ----
wipe() {	# discard every disk, so each run starts equal
	local d
	for d in "$F" "$S" "$G" "$H" $N; do blkdiscard "$d" 2>/dev/null || true; done
}
# the pair's slow disk: the HDD, or for the "-ssd" configs the slower SSD
slow_of() { case "$1" in *-ssd) echo "$S" ;; *) echo "$H" ;; esac; }
setup_native() {
	local s; s=$(slow_of "$1")
	mkswap -q "$F" >/dev/null && mkswap -q "$s" >/dev/null &&
		swapon --discard -p 10 "$F" && swapon --discard -p 5 "$s" &&
		echo "$F $s"
}
setup_native_single() {
	mkswap -q "$G" >/dev/null && swapon --discard "$G" && echo "$G"
}
# dm-cache, smq, writeback: the fast disk is the cache, its first 8 MiB the
# metadata; the slow disk is the origin
setup_dm_cache() {
	local fs ss s; s=$(slow_of "$1")
	fs=$(blockdev --getsz "$F") ss=$(blockdev --getsz "$s")
	dmsetup create bc-meta --table "0 16384 linear $F 0" &&
		dmsetup create bc-data --table "0 $((fs - 16384)) linear $F 16384" &&
		dd if=/dev/zero of=/dev/mapper/bc-meta bs=4k count=16 oflag=direct status=none &&
		dmsetup create bc --table "0 $ss cache /dev/mapper/bc-meta /dev/mapper/bc-data $s 128 1 writeback smq 0" &&
		mkswap -q /dev/mapper/bc >/dev/null && swapon --discard /dev/mapper/bc &&
		echo "$F $s"
}
# Over a rotating slow tier, swap's readahead should read neighbouring
# slots (as native swap does once a rotational area is on): dm-swaptier
# keeps them next to each other on the slow tier, so they merge into one
# request. The device itself reports non-rotational (for the discards),
# so that is asked for here, as docs/dm-swaptier.rst recommends.
vma_ra=/sys/kernel/mm/swap/vma_ra_enabled
vma_ra0=$(cat "$vma_ra")
setup_swaptier() {
	local s; s=$(slow_of "$1")
	[ "$(cat "/sys/block/$(basename "$s")/queue/rotational")" = 1 ] &&
		echo false >"$vma_ra"
	swt_create bs "$(swt_max_len "$F" "$s")" "$F" "$s" -- discard_passdown "${xopts[@]}" &&
		mkswap -q /dev/mapper/bs >/dev/null &&
		swapon --discard /dev/mapper/bs && echo "$F $s"
}
setup_swaptier_single() {
	swt_create bs "$(swt_max_len "$G")" "$G" -- discard_passdown "${xopts[@]}" &&
		mkswap -q /dev/mapper/bs >/dev/null &&
		swapon --discard /dev/mapper/bs && echo "$G"
}
# zram0 anew, of SIZE bytes, writing back to BACKING if given; no
# mem_limit (zram-generator sets none by default): each run reports
# zram's peak memory instead. lz4, as Fedora's default and 6.12's (6.1's
# is lzo-rle); each run records the algorithm zram used.
zram_make() {
	local zs=/sys/block/zram0
	[ -e $zs ] || swt_modprobe zram num_devices=1 || return 1
	echo 1 >$zs/reset 2>/dev/null
	swt_modprobe lz4 2>/dev/null
	echo lz4 >$zs/comp_algorithm 2>/dev/null
	if [ -n "${2:-}" ]; then echo "$2" >$zs/backing_dev || return 1; fi
	echo "$1" >$zs/disksize
}
setup_zram_prio() {
	zram_make "$(blockdev --getsize64 "$F")" && mkswap -q /dev/zram0 >/dev/null &&
		mkswap -q "$H" >/dev/null && swapon -p 10 /dev/zram0 &&
		swapon --discard -p 5 "$H" && echo "/dev/zram0 $H"
}
# zram's writeback, driven as its documentation describes: every 10 s
# (1 s in the quick run, so that it writes back there too) the pages not
# touched since the last mark are written to the backing disk ("idle"
# writeback), at most 10 MiB a pass (writeback_limit, which keeps a
# pass, and the teardown that waits for it, short), then every page is
# marked idle again. zram is as large as the disk behind it, which is
# what it can write back; nothing bounds its memory, and a load that
# swaps faster than the writeback drains can run the guest out of it.
wb_stop=/tmp/zram-wb-stop
wb_every=10
[ "$scale" = quick ] && wb_every=1
wb_loop() {
	local i zs=/sys/block/zram0
	while :; do
		for ((i = 0; i < wb_every; i++)); do
			[ -e $wb_stop ] && return
			sleep 1
		done
		echo 1 >$zs/writeback_limit_enable && echo 2560 >$zs/writeback_limit &&
			echo idle >$zs/writeback 2>/dev/null
		echo all >$zs/idle
	done
}
# (run() starts wb_loop: setup runs in a subshell)
setup_zram_wb() {
	zram_make "$(blockdev --getsize64 "$H")" "$H" &&
		mkswap -q /dev/zram0 >/dev/null && swapon /dev/zram0 &&
		echo all >/sys/block/zram0/idle && echo "/dev/zram0 $H"
}
wb_pid=""
setup_zram_swaptier() {
	[ "$(cat "/sys/block/$(basename "$H")/queue/rotational")" = 1 ] &&
		echo false >"$vma_ra"
	zram_make "$(blockdev --getsize64 "$F")" &&
		swt_create bs "$(swt_max_len /dev/zram0 "$H")" /dev/zram0 "$H" -- \
			discard_passdown "${xopts[@]}" &&
		mkswap -q /dev/mapper/bs >/dev/null &&
		swapon --discard /dev/mapper/bs && echo "/dev/zram0 $H"
}
# The net- loads run in a memory cgroup of the memory available less
# NET_RESERVE MiB: swapping to a network disk needs free memory outside
# the load for the network's own buffers. With the whole guest short of
# memory (as the other configurations run), a full run hung at once:
# virtio-net could not refill its receive ring (a GFP_ATOMIC page
# allocation failure), so the server's replies to swap-out writes were
# never received, and no memory came free (stop 34; docs/notes/
# network-bench.md). A machine that swaps over a network keeps such a
# reserve (vm.min_free_kbytes, or its load in a cgroup).
NET_RESERVE=48
net_cgroup() {
	local cg=/sys/fs/cgroup/bench-net
	{ mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup; } 2>/dev/null &&
		{ grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
			echo +memory >/sys/fs/cgroup/cgroup.subtree_control; } 2>/dev/null &&
		mkdir -p $cg && echo "$((avail - NET_RESERVE))M" >$cg/memory.max && echo $cg
}
# the fast disk and the network one: swap areas at priorities, or
# dm-swaptier over both
setup_net_prio() {
	[ -n "$N" ] || return 1
	mkswap -q "$F" >/dev/null && mkswap -q "$N" >/dev/null &&
		swapon --discard -p 10 "$F" && swapon --discard -p 5 "$N" &&
		echo "$F $N"
}
setup_net_swaptier() {
	[ -n "$N" ] || return 1
	swt_create bs "$(swt_max_len "$F" "$N")" "$F" "$N" -- discard_passdown "${xopts[@]}" &&
		mkswap -q /dev/mapper/bs >/dev/null &&
		swapon --discard /dev/mapper/bs && echo "$F $N"
}
teardown() {
	if [ -n "$wb_pid" ]; then
		touch $wb_stop
		wait "$wb_pid"
		wb_pid=""
	fi
	swapoff -a
	echo "$vma_ra0" >"$vma_ra"
	local d
	for d in bs bc bc-data bc-meta; do
		dmsetup info "$d" >/dev/null 2>&1 && dmsetup remove --retry "$d"
	done
	[ -e /sys/block/zram0 ] && echo 1 >/sys/block/zram0/reset
	wipe
}

vmstat() { awk -v k="$1" '$1 == k {v = $2} END {print (v == "" ? 0 : v)}' /proc/vmstat; }

# sample_loop FILE DM STOP: every 5 s until the file STOP exists, the
# slots swap holds and its swap cache (/proc/meminfo, in 4 KiB blocks),
# and for a dm-swaptier device DM its stats message and heat histograms,
# one line each (documented in README, "The benchmark"). Every
# configuration samples, so that each pays the same for it. No signal
# stops it: a TERM trap ('stop=1') that bash ran while it parsed a
# command substitution failed ("trap: line 2: unexpected EOF while
# looking for matching `)'"), the loop went on, and the wait for it hung
# make check's bench-quick (2026-12-07; before that, an exit from the trap
# aborted the subshell with "reader_loop: bad jump").
sample_loop() {
	local out=$1 dm=$2 stopf=$3 t=0 i
	echo "# s swap_used_blocks swap_cache_blocks [| stats key=value... | heat reply]" >"$out"
	while :; do
		for i in 1 2 3 4 5; do
			[ -e "$stopf" ] && return
			sleep 1
		done
		t=$((t + 5))
		echo "$t $(awk '/SwapTotal/ {t = $2} /SwapFree/ {f = $2} /SwapCached/ {c = $2} END {print int((t - f) / 4), int(c / 4)}' /proc/meminfo)" \
			"${dm:+| $(swt_stats "$dm" | tr '\n' ' ')| $(dmsetup message "$dm" 0 heat 2>/dev/null | tr '\n' '|')}" >>"$out"
	done
}

# oom_ended RC LINE OOM0 ERRFILE: did the OOM killer, and nothing else,
# end a swapbench run? It killed something since OOM0 (the vmstat count),
# and either swapbench itself died of SIGKILL (RC 137) or it reports only
# SIGKILLed processes, no other signal (a SIGBUS is a failed swap-in) and
# no bad page. A process killed while it verified takes its count of bad
# pages with it: the other configurations' runs of the same load check
# those pages.
oom_ended() {
	[ "$(vmstat oom_kill)" -gt "$3" ] || return 1
	! grep -q 'bad pages' "$4" || return 1
	[ "$1" = 137 ] && return 0
	[ "$1" = 1 ] && [[ " $2 " == *" killed="[1-9]* ]] &&
		[[ " $2 " == *" signaled=0 "* ]] && [[ " $2 " != *" bad="[1-9]* ]]
}

# run CONFIG LABEL WORKLOAD ARGS...: one measured run; appends its JSON line
run() {
	local cfg=$1 label=$2 wl=$3; shift 3
	local devs d in0 out0 oom0 ra0 rah0 ra rah t0 t1 line rc st="" traces="" sep="" r0
	r0=$(date +%s.%N)
	teardown >/dev/null 2>&1
	sync
	echo 3 >/proc/sys/vm/drop_caches
	local base=${cfg%-ssd} fill=0 zram=""
	[ "${cfg%%-*}" = zram ] && fill=33
	devs=$("setup_${base//-/_}" "$cfg") || { nok "$cfg/$label" "setup failed"; teardown; return; }
	# the net- loads in their memory cgroup (net_cgroup)
	local cg=""
	case $cfg in
	net-*) cg=$(net_cgroup) || { nok "$cfg/$label" "no memory cgroup"; teardown; return; } ;;
	esac
	if [ "$cfg" = zram-wb ]; then
		rm -f $wb_stop
		wb_loop </dev/null >/dev/null 2>&1 &
		wb_pid=$!
	fi
	# dispatches only: the queued and merged counts come from the disk
	# statistics, and a full trace would fill the guest's memory; written
	# straight to the host (the results share), not to the guest's tmpfs
	mkdir -p "$SWT_OUT/traces"
	# zram has no requests to trace (bio-based): its disk statistics say
	# what it served
	# shellcheck disable=SC2046 # device names, split on purpose
	BT_MASK=issue bt_start "$SWT_OUT/traces/$cfg-$label" $(tr ' ' '\n' <<<"$devs" | grep -v zram) ||
		nok "$cfg/$label" "blktrace did not start"
	for d in $devs; do cp "/sys/block/$(basename "$d")/stat" "/tmp/stat0-$(basename "$d")"; done
	in0=$(vmstat pswpin) out0=$(vmstat pswpout) oom0=$(vmstat oom_kill)
	# pages swap read ahead, and those of them used before reclaim
	ra0=$(vmstat swap_ra) rah0=$(vmstat swap_ra_hit)
	t0=$(date +%s.%N)
	mkdir -p "$SWT_OUT/samples"
	local dm="" sampler
	case $cfg in *swaptier*) dm=bs ;; esac
	rm -f /tmp/sample-stop
	sample_loop "$SWT_OUT/samples/$cfg-$label.txt" "$dm" /tmp/sample-stop & sampler=$!
	# the disks' requests during the timed phase (swapbench's phase_io)
	line=$(SWAPBENCH_DISKS="$(for d in $devs; do basename "$d"; done | tr '\n' ' ')" \
		SWAPBENCH_FILL=$fill SWT_CG=$cg bash -c 'echo 0 >/proc/self/oom_score_adj &&
			{ [ -z "$SWT_CG" ] || echo $$ >"$SWT_CG/cgroup.procs"; } && exec "$@"' \
		swapbench "$sb" "$wl" "$@" 2>"/tmp/$cfg-$label.err")
	rc=$?
	if [ -n "$cg" ]; then
		echo "# $cfg/$label: in memory cgroup $cg, memory.max $(($(cat $cg/memory.max) >> 20)) MiB, memory.peak $(($(cat $cg/memory.peak 2>/dev/null || echo 0) >> 20)) MiB"
		rmdir "$cg" 2>/dev/null
	fi
	t1=$(date +%s.%N)
	touch /tmp/sample-stop; wait "$sampler"
	ra=$(($(vmstat swap_ra) - ra0)) rah=$(($(vmstat swap_ra_hit) - rah0))
	bt_stop
	bt_complete || echo "# $cfg/$label: blktrace lost events"
	# the raw traces are on the host, which parses them (bench/run.sh)
	for d in $devs; do
		# I/Os and merges, read then write, during the run
		traces+="$sep{\"dev\":\"$(basename "$d")\",\"stat\":[$(paste \
			"/tmp/stat0-$(basename "$d")" "/sys/block/$(basename "$d")/stat" |
			awk '{n = NF / 2; printf "%d,%d,%d,%d", $(n+1) - $1, $(n+2) - $2, $(n+5) - $5, $(n+6) - $6}')]}"
		sep=,
	done
	# the target's stats message by name, on one line ("tier0.mapped=1
	# mapped=1 ..."; tests/vm/lib.sh swt_stats); report.py reads it by key
	[ -n "$dm" ] && st=$(swt_stats bs | tr '\n' ' ')
	# zram's mm_stat (bytes: original, compressed, memory used, limit,
	# peak, ...) and bd_stat (4 KiB pages: on the backing disk, read from
	# it, written to it)
	[ "${cfg%%-*}" = zram ] &&
		zram=$({ cat /sys/block/zram0/mm_stat; echo "|"
			 cat /sys/block/zram0/bd_stat 2>/dev/null; echo "|"
			 sed 's/.*\[\(.*\)\].*/\1/' /sys/block/zram0/comp_algorithm; } |
			tr -s ' \n' '  ')
	printf '{"config":"%s","workload":"%s","rc":%d,"wall":%.3f,"pswpin":%d,"pswpout":%d,"swap_ra":%d,"swap_ra_hit":%d,"fill":%d,"oom_kills":%d,"bad_reports":%d,"result":"%s","swaptier_stats":"%s","zram":"%s","devices":[%s],"trace_dir":"traces/%s-%s"}\n' \
		"$cfg" "$label" "$rc" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" \
		$(($(vmstat pswpin) - in0)) $(($(vmstat pswpout) - out0)) \
		"$ra" "$rah" "$fill" $(($(vmstat oom_kill) - oom0)) \
		"$(grep -c 'bad pages' "/tmp/$cfg-$label.err")" \
		"$line" "$st" "$zram" "$traces" "$cfg" "$label" >>"$runs"
	if [ $rc -eq 0 ] && echo "$line" | grep -q ' verified=1'; then
		ok "$cfg/$label"
	elif [ "$cfg" = zram-wb ] && oom_ended "$rc" "$line" "$oom0" "/tmp/$cfg-$label.err"; then
		# what zram's own writeback gives on this load: the run's figures
		# say so, and it is not a failure of the benchmark
		ok "$cfg/$label # out of memory: zram's writeback did not keep up"
	else
		nok "$cfg/$label" "exit $rc: $(head -c 200 "/tmp/$cfg-$label.err") $line"
	fi
	echo "# $cfg/$label: $line pswpout=$(($(vmstat pswpout) - out0))" \
		"swap_ra=$ra swap_ra_hit=$rah," \
		"$(awk -v a="$r0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}') s in all"
	teardown >/dev/null 2>&1
}

# block tracepoints stay registered: the runs' traces start and stop
# without patching kernel text (tests/vm/lib.sh)
bt_keep
wipe
for r in "${plan[@]}"; do
	cfg=${r%/*}
	case "${r#*/}" in
	pressure) run "$cfg" pressure pressure 3 "$p_mib" "$passes" ;;
	hotcold-20-80) run "$cfg" hotcold-20-80 hotcold "$hc_mib" 20 80 "$hc_acc" ;;
	hotcold-10-95) run "$cfg" hotcold-10-95 hotcold "$hc_mib" 10 95 "$hc_acc" ;;
	# mostly reads: one access in twenty rewrites its page
	hotcold-read) run "$cfg" hotcold-read hotcold "$hc_mib" 20 80 "$hc_acc" 5 ;;
	aged) run "$cfg" aged aged 3 "$p_mib" "$aged_rounds" ;;
	# an idle program swapped out first, then the 20/80 load
	idle) run "$cfg" idle idle "$idle_mib" "$hc_mib" 20 80 "$hc_acc" ;;
	esac
done

# ---- 4 KiB random read/write: dm-swaptier against dm-linear, same disk
fio_run() {	# NAME DEV: prints IOPS (read + write)
	fio --name="$1" --filename="$2" --direct=1 --ioengine=libaio \
		--iodepth=16 --rw=randrw --bs=4k --size=64M --time_based \
		--runtime="$fio_time" --ramp_time=1 --output-format=json 2>/dev/null |
		jq '.jobs[0].read.iops + .jobs[0].write.iops'
}
wipe
dmsetup create bl --table "0 $(blockdev --getsz "$G") linear $G 0" || nok fio "dm-linear"
# both read back written data: fill the region first
dd if=/dev/urandom of=/dev/mapper/bl bs=1M count=64 oflag=direct status=none
lin=$(fio_run linear /dev/mapper/bl)
dmsetup remove bl
wipe
swt_create bs "$(swt_max_len "$G")" "$G" || nok fio "swaptier"
dd if=/dev/urandom of=/dev/mapper/bs bs=1M count=64 oflag=direct status=none
swt=$(fio_run swaptier /dev/mapper/bs)
dmsetup remove bs
printf '{"fio":{"linear_iops":%s,"swaptier_iops":%s,"runtime":%d}}\n' \
	"${lin:-null}" "${swt:-null}" "$fio_time" >>"$runs"
lin=${lin%.*} swt=${swt%.*}
check fio-figures test -n "$lin" -a -n "$swt"
echo "# fio 4k randrw: dm-linear $lin IOPS, dm-swaptier $swt IOPS"
