#!/bin/bash
# Fetch a Debian distribution kernel for the VM lane.
#
#   kernel.sh abi SERIES     print the current ABI name of SERIES (6.1 or 6.12)
#   kernel.sh fetch SERIES   make sure image, modules and matching headers are
#                            present; print "ABI DIR" (DIR holds vmlinuz,
#                            root/lib/modules/ABI with depmod already run, and
#                            build, the tree modules are built against)
#
# Nothing is installed on the host: the image and the headers (with their
# -common and kbuild packages) are downloaded and unpacked into the cache.
# Debian's linux-headers-ABI depends on linux-image-ABI, so installing it
# would put a new kernel and initramfs in the host's boot setup.
#
# SERIES 6.12-debug is not fetched but built from linux-source-6.12 with
# KASAN, lockdep, kmemleak and fault injection (scripts/debug-kernel.sh).
#
# The ABI is resolved from Debian's meta-packages every time, so a security
# update that bumps the ABI is picked up without editing anything.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

cache_root() {
	echo "${SWT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dm-swaptier}/kernels"
}

meta_pkg() {
	case "$1" in
	6.1) echo linux-image-amd64 ;;
	6.12) echo linux-image-6.12-amd64 ;;
	*) echo "kernel.sh: unsupported series '$1' (6.1 or 6.12)" >&2; return 1 ;;
	esac
}

resolve_abi() {
	local meta dep abi
	meta=$(meta_pkg "$1")
	dep=$(apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
	if [ -z "$dep" ]; then
		apt-get update -q >&2
		dep=$(apt-cache depends "$meta" |
			sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
	fi
	abi=${dep#linux-image-}
	abi=${abi%-unsigned}
	case "$abi" in
	"$1".*-amd64) echo "$abi" ;;
	*) echo "kernel.sh: cannot resolve series $1 from $meta (got '$dep')" >&2; return 1 ;;
	esac
}

# The debug kernel's cache key: source package version and a hash of the
# config fragment and the build script.
fetch_debug() {
	local ver key dir abi
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
		{ echo "kernel.sh: linux-source-6.12 is not installed (make deps)" >&2; return 1; }
	key=$(cat "$top/scripts/debug-kernel/debug.config" "$top/scripts/debug-kernel.sh" |
		sha256sum | cut -c1-12)
	dir=$(cache_root)/6.12-debug-${ver//[^A-Za-z0-9.+-]/_}-$key
	read -r abi dir < <("$top/scripts/debug-kernel.sh" "$dir") || return 1
	ln -sfn "$(basename "$dir")" "$(cache_root)/6.12-debug"
	# a built tree is 2 GiB: drop those of older keys
	find "$(cache_root)" -maxdepth 1 -name '6.12-debug-*' ! -name "$(basename "$dir")" \
		-exec rm -rf {} +
	echo "$abi $dir"
}

# unpack DIR ABI: the headers of ABI into DIR/hdr, as a tree kbuild can
# build modules against (DIR/build)
unpack_headers() {
	local dir=$1 abi=$2 tmp pkgs common kbuild
	common=$(apt-cache depends "linux-headers-$abi" |
		sed -n 's/^ *Depends: \(linux-headers-[^ ]*-common\)$/\1/p' | head -n 1)
	kbuild=$(apt-cache depends "linux-headers-$abi" |
		sed -n 's/^ *Depends: \(linux-kbuild-[^ ]*\)$/\1/p' | head -n 1)
	[ -n "$common" ] && [ -n "$kbuild" ] || {
		echo "kernel.sh: cannot find the -common and kbuild packages of linux-headers-$abi" >&2
		return 1
	}
	echo "kernel.sh: fetching linux-headers-$abi, $common, $kbuild" >&2
	rm -rf "$dir/hdr"
	tmp=$(mktemp -d "$dir/dl.XXXXXX")
	(cd "$tmp" && apt-get download -q "linux-headers-$abi" "$common" "$kbuild" >&2) ||
		{ rm -rf "$tmp"; return 1; }
	for pkgs in "$tmp"/*.deb; do dpkg -x "$pkgs" "$dir/hdr"; done
	rm -rf "$tmp"
	# the arch tree includes the common one by its installed path
	sed -i "s#^include /usr/src/#include $dir/hdr/usr/src/#" \
		"$dir/hdr/usr/src/linux-headers-$abi/Makefile"
	[ -e "$dir/hdr/usr/src/linux-headers-$abi/scripts/Makefile.build" ] || {
		echo "kernel.sh: the unpacked headers of $abi are incomplete" >&2
		return 1
	}
	ln -sfn "hdr/usr/src/linux-headers-$abi" "$dir/build"
	touch "$dir/hdr/.done"
}

fetch() {
	local series=$1 abi dir tmp deb
	[ "$series" = 6.12-debug ] && { fetch_debug; return; }
	abi=$(resolve_abi "$series")
	dir=$(cache_root)/$abi
	if [ ! -e "$dir/.done" ]; then
		echo "kernel.sh: fetching linux-image-$abi" >&2
		rm -rf "$dir"
		mkdir -p "$dir"
		tmp=$(mktemp -d "$dir/dl.XXXXXX")
		(cd "$tmp" && apt-get download -q "linux-image-$abi" >&2)
		deb=$(ls "$tmp"/linux-image-*.deb)
		dpkg -x "$deb" "$dir/root"
		rm -rf "$tmp"
		depmod -b "$dir/root" "$abi"
		ln -sf "root/boot/vmlinuz-$abi" "$dir/vmlinuz"
		touch "$dir/.done"
	fi
	if [ ! -e "$dir/hdr/.done" ]; then
		unpack_headers "$dir" "$abi" || return 1
	fi
	ln -sfn "$abi" "$(cache_root)/$series"
	echo "$abi $dir"
}

case "${1:-}" in
abi) resolve_abi "$2" ;;
fetch) fetch "$2" ;;
*) echo "usage: kernel.sh abi|fetch SERIES" >&2; exit 1 ;;
esac
