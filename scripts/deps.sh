#!/bin/bash
# Install, from Debian's archive only, everything the build and the tests need.
# Idempotent: when every package is present it only runs dpkg-query once.
set -euo pipefail

PKGS=(
	build-essential gcc make bc bison flex libelf-dev libssl-dev
	qemu-system-x86 qemu-utils busybox-static kmod cpio xz-utils zstd
	lvm2 dmsetup thin-provisioning-tools fio blktrace jq
	gnuplot-nox sparse clang libclang-rt-14-dev libdevmapper-dev libsmartcols-dev libblkid-dev linux-source-6.12
	pkg-config util-linux e2fsprogs python3 dkms
	pahole udev systemd libnl-genl-3-200
)
# pahole: the 6.12 headers ship a vmlinux, so kbuild generates BTF for the
# module with pahole (linux-kbuild-6.12 depends on it; its packages are
# unpacked into the cache, not installed, so their dependencies are ours).
# udev, systemd: the systemd boot test's guest boots the host's systemd
# (tests/vm/boot/), whose udevd makes the /dev/disk/by-id links the
# configuration names; a real machine has both, a container image may not.

# --closure: check that nothing here pulls in a kernel image or headers
# package (installing one repoints the host's boot); the test kernels are
# unpacked into the project's cache instead (scripts/kernel.sh).
if [ "${1:-}" = --closure ]; then
	k=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "${PKGS[@]}" 2>/dev/null |
		{ grep -E '^(linux-image|linux-headers)' || true; } | sort -u | tr '\n' ' ')
	if [ -n "$k" ]; then
		echo "not ok deps/no-kernel-package: the dependencies pull in $k"
		exit 1
	fi
	echo "ok deps/no-kernel-package"
	exit 0
fi

missing=()
for p in "${PKGS[@]}"; do
	s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$s" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages and not root; run 'sudo make deps'" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
stamp=/var/lib/apt/periodic/dmswaptier-update-stamp
if [ ! -e "$stamp" ] || [ -n "$(find "$stamp" -mmin +720 2>/dev/null)" ]; then
	apt-get update -q
	mkdir -p "$(dirname "$stamp")" && touch "$stamp"
fi
apt-get install -y -q --no-install-recommends "${missing[@]}"
