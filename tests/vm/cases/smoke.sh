#!/bin/bash
# timeout: 60
. "$SWT_TOP/tests/vm/lib.sh"
check kernel test "$(uname -r)" = "$SWT_ABI"
check disks test -b "$SWT_DISK_A"
