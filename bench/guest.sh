#!/bin/bash
# Guest side of the benchmark (bench/run.sh boots it): every configuration
# runs every workload on the same disks, each run starting from discarded
# disks and no swap; blktrace records the dispatches on every tier device.
# One JSON object per run goes to $SWT_OUT/runs.jsonl, then the fio
# comparison of dm-swaptier with dm-linear.
#
#   bench/guest.sh SCALE     SCALE: quick or full (sizes below)
. "$SWT_TOP/tests/vm/lib.sh"
set -u
CASE=bench
scale=${1:-quick}
F=$SWT_DISK_FAST S=$SWT_DISK_SLOW G=$SWT_DISK_BIG
sb=$SWT_TOP/build/bin/swapbench
runs=$SWT_OUT/runs.jsonl
exec > >(tee "$SWT_OUT/guest.log") 2>&1
: >"$runs"
[ -x "$sb" ] || die "no $sb (bench/run.sh builds it)"
echo 1 >/proc/sys/kernel/sysrq
for q in /sys/block/vd*/queue/rotational; do echo 0 >"$q"; done
swt_load
swt_modprobe dm-cache 2>/dev/null
swt_modprobe dm-cache-smq 2>/dev/null

ram=$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo)
avail=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
case "$scale" in
quick)	p_mib=$((avail * 3 / 2)) passes=1 hc_mib=$((avail * 5 / 4))
	hc_acc=5000 aged_rounds=1 fio_time=3 ;;
*)	p_mib=$((ram * 3)) passes=1 hc_mib=$((avail * 2))
	hc_acc=200000 aged_rounds=2 fio_time=20 ;;
esac
echo "# guest: $ram MiB RAM, $avail MiB available; pressure $p_mib MiB," \
	"hot/cold $hc_mib MiB x $hc_acc accesses, aged $aged_rounds rounds"
printf '{"scale":"%s","ram_mib":%d,"avail_mib":%d,"kernel":"%s","pressure_mib":%d,"hotcold_mib":%d,"hotcold_accesses":%d,"aged_rounds":%d}\n' \
	"$scale" "$ram" "$avail" "$(uname -r)" "$p_mib" "$hc_mib" "$hc_acc" \
	"$aged_rounds" >"$SWT_OUT/meta.json"

# ---- configurations: setup prints the devices to trace (fast first) ----
wipe() {	# discard every disk, so each run starts equal
	local d
	for d in "$F" "$S" "$G"; do blkdiscard "$d" 2>/dev/null || true; done
}
setup_native() {
	mkswap -q "$F" >/dev/null && mkswap -q "$S" >/dev/null &&
		swapon --discard -p 10 "$F" && swapon --discard -p 5 "$S" &&
		echo "$F $S"
}
setup_native_single() {
	mkswap -q "$G" >/dev/null && swapon --discard "$G" && echo "$G"
}
# dm-cache, smq, writeback: the fast disk is the cache, its first 8 MiB the
# metadata; the slow disk is the origin
setup_dm_cache() {
	local fs ss
	fs=$(blockdev --getsz "$F") ss=$(blockdev --getsz "$S")
	dmsetup create bc-meta --table "0 16384 linear $F 0" &&
		dmsetup create bc-data --table "0 $((fs - 16384)) linear $F 16384" &&
		dd if=/dev/zero of=/dev/mapper/bc-meta bs=4k count=16 oflag=direct status=none &&
		dmsetup create bc --table "0 $ss cache /dev/mapper/bc-meta /dev/mapper/bc-data $S 128 1 writeback smq 0" &&
		mkswap -q /dev/mapper/bc >/dev/null && swapon --discard /dev/mapper/bc &&
		echo "$F $S"
}
setup_swaptier() {
	swt_create bs "$(swt_max_len "$F" "$S")" "$F" "$S" -- discard_passdown &&
		mkswap -q /dev/mapper/bs >/dev/null &&
		swapon --discard /dev/mapper/bs && echo "$F $S"
}
setup_swaptier_single() {
	swt_create bs "$(swt_max_len "$G")" "$G" -- discard_passdown &&
		mkswap -q /dev/mapper/bs >/dev/null &&
		swapon --discard /dev/mapper/bs && echo "$G"
}
teardown() {
	swapoff -a
	local d
	for d in bs bc bc-data bc-meta; do
		dmsetup info "$d" >/dev/null 2>&1 && dmsetup remove --retry "$d"
	done
	wipe
}

vmstat() { awk -v k="$1" '$1 == k {print $2}' /proc/vmstat; }

# run CONFIG LABEL WORKLOAD ARGS...: one measured run; appends its JSON line
run() {
	local cfg=$1 label=$2 wl=$3; shift 3
	local devs d in0 out0 t0 t1 line rc st="" traces="" sep="" r0
	r0=$(date +%s.%N)
	teardown >/dev/null 2>&1
	sync
	echo 3 >/proc/sys/vm/drop_caches
	devs=$("setup_${cfg//-/_}") || { nok "$cfg/$label" "setup failed"; teardown; return; }
	# dispatches only: the queued and merged counts come from the disk
	# statistics, and a full trace would fill the guest's memory
	BT_MASK=issue bt_start "/tmp/bt" $devs || nok "$cfg/$label" "blktrace did not start"
	for d in $devs; do cp "/sys/block/$(basename "$d")/stat" "/tmp/stat0-$(basename "$d")"; done
	in0=$(vmstat pswpin) out0=$(vmstat pswpout)
	t0=$(date +%s.%N)
	line=$("$sb" "$wl" "$@" 2>"/tmp/$cfg-$label.err")
	rc=$?
	t1=$(date +%s.%N)
	bt_stop
	bt_complete || echo "# $cfg/$label: blktrace lost events"
	# the raw traces go to the host, which parses them (bench/run.sh)
	mkdir -p "$SWT_OUT/traces/$cfg-$label"
	for d in $devs; do
		cp /tmp/bt/"$(basename "$d")".blktrace.* "$SWT_OUT/traces/$cfg-$label/"
		# I/Os and merges, read then write, during the run
		traces+="$sep{\"dev\":\"$(basename "$d")\",\"stat\":[$(paste \
			"/tmp/stat0-$(basename "$d")" "/sys/block/$(basename "$d")/stat" |
			awk '{n = NF / 2; printf "%d,%d,%d,%d", $(n+1) - $1, $(n+2) - $2, $(n+5) - $5, $(n+6) - $6}')]}"
		sep=,
	done
	[ "${cfg%%-*}" = swaptier ] && st=$(dmsetup status bs | cut -d' ' -f4-)
	printf '{"config":"%s","workload":"%s","rc":%d,"wall":%.3f,"pswpin":%d,"pswpout":%d,"result":"%s","swaptier_status":"%s","devices":[%s],"trace_dir":"traces/%s-%s"}\n' \
		"$cfg" "$label" "$rc" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" \
		$(($(vmstat pswpin) - in0)) $(($(vmstat pswpout) - out0)) \
		"$line" "$st" "$traces" "$cfg" "$label" >>"$runs"
	if [ $rc -eq 0 ] && echo "$line" | grep -q 'verified=1'; then
		ok "$cfg/$label"
	else
		nok "$cfg/$label" "exit $rc: $(head -c 200 "/tmp/$cfg-$label.err") $line"
	fi
	echo "# $cfg/$label: $line pswpout=$(($(vmstat pswpout) - out0))," \
		"$(awk -v a="$r0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}') s in all"
	teardown >/dev/null 2>&1
	rm -rf /tmp/bt
}

wipe
for cfg in native native-single dm-cache swaptier swaptier-single; do
	run "$cfg" pressure pressure 3 "$p_mib" "$passes"
	run "$cfg" hotcold-20-80 hotcold "$hc_mib" 20 80 "$hc_acc"
	run "$cfg" hotcold-10-95 hotcold "$hc_mib" 10 95 "$hc_acc"
	run "$cfg" aged aged 3 "$p_mib" "$aged_rounds"
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
