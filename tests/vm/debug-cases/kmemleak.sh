#!/bin/bash
# timeout: 600
# disks: a=ssd b=hdd
# kmemleak after this boot's other cases (they ran before this one and
# loaded, used and unloaded the module many times) and after one more
# round here: create, write, discard, reload, message, remove, unload.
# No report may have dm-swaptier code in its allocation backtrace, nor an
# address no symbol covers (code of a module since unloaded).
. "$SWT_TOP/tests/vm/lib.sh"
kml=/sys/kernel/debug/kmemleak
[ -e "$kml" ] || die "no $kml: this case needs CONFIG_DEBUG_KMEMLEAK (the 6.12-debug kernel)"
swt_load
A=$SWT_DISK_A B=$SWT_DISK_B
swt_create kl "$(swt_max_len "$A" "$B")" "$A" "$B" -- discard_passdown || die "cannot create"
fio_verify use /dev/mapper/kl 8M 2 --rw=randtrimwrite --bs=16k --loops=1
dmsetup message kl 0 stats >/dev/null
dmsetup message kl 0 map 0 4096 >/dev/null
t=$(dmsetup table kl)
dmsetup suspend kl && dmsetup reload kl --table "$t" && dmsetup resume kl || nok reload "reload failed"
dmsetup remove kl || nok remove "cannot remove"
check unload swt_unload
# kmemleak reports only objects older than 5 s: wait that long, then scan
sleep 6
echo scan >"$kml" && echo scan >"$kml"
cat "$kml" >"$SWT_OUT/cases/$CASE.kmemleak"
n=$(kml_module_leaks "$SWT_OUT/cases/$CASE.kmemleak")
echo "# kmemleak: $(grep -c '^unreferenced object' "$SWT_OUT/cases/$CASE.kmemleak") reports, $n from dm-swaptier"
head -n 20 "$SWT_OUT/cases/$CASE.kmemleak.module" 2>/dev/null | sed 's/^/# /'
check no-module-leak test "$n" = 0
exit $FAILED
