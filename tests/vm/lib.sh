# Helpers sourced by the guest test cases (tests/vm/cases/*.sh).
# Every case prints "ok NAME" or "not ok NAME: reason" for each check.

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

# swt_status DEV FIELD-INDEX: one field of the INFO status (0 = first field
# after the target name)
swt_info() { dmsetup status "$1" | awk -v i="$2" '{print $(4 + i)}'; }

# poll COND TIMEOUT: wait until the command succeeds, at most TIMEOUT seconds
poll() {
	local t=$2 i=0
	while ! eval "$1"; do
		i=$((i + 1))
		[ $i -ge $((t * 10)) ] && return 1
		sleep 0.1
	done
}
