#!/bin/bash
# timeout: 60
# Loads swt_warn with plant=sleep: on the debug kernel the harness must fail
# this case (tests/vm/selftest/harness.sh 6.12-debug).
. "$SWT_TOP/tests/vm/lib.sh"
insmod "$SWT_TOP/build/kmod/$SWT_ABI/selftest/swt_warn.ko" plant=sleep || die "cannot load swt_warn"
rmmod swt_warn
ok
