#!/bin/bash
# The DKMS package of the module.
#
#   scripts/dkms.sh deb     build/dkms/dm-swaptier-dkms_<version>_all.deb:
#                           the module's source under /usr/src with
#                           dkms.conf; installing it builds and installs
#                           the module for every installed kernel that has
#                           headers (and DKMS does again for each new one)
#   scripts/dkms.sh check   build the package, then "dkms build" its source
#                           against each test kernel's headers (the cached
#                           ones; nothing is installed): ok/not ok lines
#
# The version is the target's (dm-swaptier-target.c), so that a package
# and `dmsetup targets` agree.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/dkms
ver=$(sed -n 's/.*\.version = { \([0-9]*\), \([0-9]*\), \([0-9]*\) }.*/\1.\2.\3/p' \
	"$top/drivers/md/dm-swaptier-target.c")
[ -n "$ver" ] || { echo "not ok dkms/version: no target version in dm-swaptier-target.c"; exit 1; }
deb=$out/dm-swaptier-dkms_${ver}_all.deb

build_deb() {
	local root=$out/pkg src
	rm -rf "$root" && mkdir -p "$root/DEBIAN"
	src=$root/usr/src/dm-swaptier-$ver
	mkdir -p "$src/drivers/md"
	cp "$top"/drivers/md/dm-swaptier*.[ch] "$top/drivers/md/Makefile" "$src/drivers/md/" &&
		sed "s/@VERSION@/$ver/" "$top/dkms.conf" >"$src/dkms.conf" || return 1
	cat >"$root/DEBIAN/control" <<CONTROL
Package: dm-swaptier-dkms
Version: $ver
Architecture: all
Section: kernel
Priority: optional
Maintainer: dm-swaptier developers <dm-swaptier@localhost>
Depends: dkms (>= 2.1)
Description: device-mapper target for tiered swap (DKMS source)
 dm-swaptier maps swap's blocks onto several devices, fastest first,
 placing each block when it is written and moving blocks between the
 devices by how often swap reads them. This package builds the module
 with DKMS for every installed kernel that has its headers.
CONTROL
	cat >"$root/DEBIAN/postinst" <<POSTINST
#!/bin/sh
set -e
if [ "\$1" = configure ]; then
	dkms status -m dm-swaptier -v $ver | grep -q . || dkms add -m dm-swaptier -v $ver
	for b in /lib/modules/*/build; do
		[ -e "\$b/Makefile" ] || continue
		k=\$(basename "\$(dirname "\$b")")
		dkms install -m dm-swaptier -v $ver -k "\$k" ||
			echo "dm-swaptier-dkms: could not build for \$k" >&2
	done
fi
exit 0
POSTINST
	cat >"$root/DEBIAN/prerm" <<PRERM
#!/bin/sh
set -e
if [ "\$1" = remove ] || [ "\$1" = upgrade ] || [ "\$1" = deconfigure ]; then
	dkms remove -m dm-swaptier -v $ver --all || true
fi
exit 0
PRERM
	chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm"
	dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
}

case "${1:-}" in
deb)
	build_deb || { echo "dkms.sh: cannot build $deb" >&2; exit 1; }
	echo "$deb" ;;
check)
	command -v dkms >/dev/null || { echo "not ok dkms/tool: no dkms (make deps)"; exit 1; }
	if build_deb; then
		echo "ok dkms/package ($(basename "$deb"))"
	else
		echo "not ok dkms/package: dpkg-deb failed"
		exit 1
	fi
	failed=0
	dpkg-deb -f "$deb" Depends | grep -q '^dkms' && echo "ok dkms/depends-dkms" ||
		{ echo "not ok dkms/depends-dkms: $(dpkg-deb -f "$deb" Depends)"; failed=1; }
	t=$out/check
	rm -rf "$t" && mkdir -p "$t/tree" "$t/x"
	dpkg-deb -x "$deb" "$t/x"
	for series in 6.1 6.12; do
		if ! read -r abi kroot < <("$top/scripts/kernel.sh" fetch "$series"); then
			echo "not ok dkms/build-$series: cannot fetch the kernel"
			failed=1
			continue
		fi
		log=$t/build-$series.log
		# the built module is kept as dm-swaptier.ko, or .ko.xz where the
		# kernel compresses its modules
		if dkms build -m dm-swaptier -v "$ver" -k "$abi" \
			--kernelsourcedir "$(readlink -f "$kroot/build")" \
			--dkmstree "$t/tree" --sourcetree "$t/x/usr/src" >"$log" 2>&1 &&
			[ -n "$(find "$t/tree/dm-swaptier/$ver/$abi" -name 'dm-swaptier.ko*' 2>/dev/null)" ]; then
			echo "ok dkms/build-$series ($abi)"
		else
			echo "not ok dkms/build-$series: dkms build failed against $abi, see $log"
			tail -n 5 "$log" | sed 's/^/# /'
			failed=1
		fi
	done
	exit $failed ;;
*)
	echo "usage: scripts/dkms.sh deb|check" >&2
	exit 2 ;;
esac
