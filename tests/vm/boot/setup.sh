#!/bin/bash
# In a chroot of the guest's overlay root, before systemd starts from it
# (tests/vm/boot/systemd.sh): make the root a user's machine has once the
# package is installed, the configuration written and the unit enabled.
#
#   setup.sh MODE     tiers: one device over disks a and b, named by
#                     /dev/disk/by-id; missing: also a second device whose
#                     first tier names no disk
set -eu
mode=$1
abi=$SWT_ABI
# the host's mounts, encrypted volumes and swap are not this machine's,
# nor its journal (which would be copied up into the tmpfs to be written)
: >/etc/fstab
: >/etc/crypttab
mkdir -p /etc/systemd/journald.conf.d
printf '[Journal]\nStorage=volatile\n' >/etc/systemd/journald.conf.d/swt-boot.conf
# the host may be a container; this guest is a machine (systemd would
# skip udev, which makes the /dev/disk/by-id links, in a container)
rm -f /.dockerenv /run/.containerenv
# the guest kernel's modules with dm-swaptier in updates/dkms, where DKMS
# installs it (the tree and its depmod were made on the host)
rm -rf "/lib/modules/$abi"
mkdir -p /lib/modules
ln -s "$SWT_OUT/modroot/lib/modules/$abi" "/lib/modules/$abi"

cat >/etc/dmswaptier.conf <<CONF
# written as a user would: tiers by stable paths
[bootswap]
tiers = /dev/disk/by-id/virtio-swt-a /dev/disk/by-id/virtio-swt-b
options = discard_passdown
priority = 5
CONF
if [ "$mode" = missing ]; then
	cat >>/etc/dmswaptier.conf <<CONF

[bootgone]
tiers = /dev/disk/by-id/virtio-swt-gone /dev/disk/by-id/virtio-swt-c
wait = 3
CONF
fi

# paths in unit files: % is systemd's specifier character
esc() { printf '%s' "${1//%/%%}"; }
# the unit as make install-tool installs it, enabled
sed "s|@SBINDIR@|$(esc "$SWT_TOP")/build/bin|g" "$SWT_TOP/tools/dmswaptier/dmswaptier.service" \
	>/etc/systemd/system/dmswaptier.service
systemctl enable dmswaptier.service

# the boot's goal: basic.target (sysinit.target, and with it swap.target
# and the unit) and then the checks, which power the guest off
cat >/etc/systemd/system/swt-boot.target <<UNIT
[Unit]
Description=dm-swaptier boot test
Requires=basic.target
After=basic.target
Wants=swt-report.service
AllowIsolate=yes
# a boot that never gets there powers off, instead of waiting for the
# host's timeout
JobTimeoutSec=240
JobTimeoutAction=poweroff-force
UNIT
systemctl set-default swt-boot.target
cat >/etc/systemd/system/swt-report.service <<UNIT
[Unit]
Description=dm-swaptier boot test: checks
After=basic.target dmswaptier.service
FailureAction=poweroff-force

[Service]
Type=oneshot
Environment="SWT_TOP=$(esc "$SWT_TOP")" "SWT_OUT=$(esc "$SWT_OUT")" "SWT_ABI=$SWT_ABI"
ExecStart=/bin/bash "$(esc "$SWT_TOP")/tests/vm/boot/report.sh" $mode
StandardOutput=journal+console
UNIT
