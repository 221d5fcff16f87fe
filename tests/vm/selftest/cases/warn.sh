#!/bin/bash
# timeout: 30
# Loads a module that WARNs: the harness must fail this case.
. "$SWT_TOP/tests/vm/lib.sh"
insmod "$SWT_TOP/build/kmod/$SWT_ABI/selftest/swt_warn.ko" || die "cannot load swt_warn"
rmmod swt_warn
ok
