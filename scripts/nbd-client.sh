#!/bin/bash
# Print the path of Debian's nbd-client, unpacked into the project's cache
# from the archive (apt-get download) the first time. It is not installed:
# the package's postinst runs update-initramfs and enables an init script,
# which would change the host's boot; the benchmark's guest runs the
# binary from the cache (its libraries, libnl-genl-3-200 among them, are
# in make deps).
set -euo pipefail
dir=${SWT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dm-swaptier}/nbd-client
bin=$dir/root/sbin/nbd-client
if [ ! -x "$bin" ]; then
	mkdir -p "$dir"
	tmp=$(mktemp -d "$dir/dl.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -q nbd-client >&2) ||
		{ echo "nbd-client.sh: cannot download nbd-client from the archive" >&2; exit 1; }
	# unpacked whole beside the cache, then moved in: an interrupted run
	# leaves no partial tree that looks complete
	dpkg -x "$tmp"/nbd-client_*.deb "$tmp/root" && [ -x "$tmp/root/sbin/nbd-client" ] ||
		{ echo "nbd-client.sh: the nbd-client package did not unpack" >&2; exit 1; }
	rm -rf "$dir/root"
	mv "$tmp/root" "$dir/root"
fi
"$bin" --version >/dev/null 2>&1 || {
	echo "nbd-client.sh: $bin does not run (make deps installs its libraries)" >&2
	exit 1
}
echo "$bin"
