#!/bin/bash
# timeout: 30
. "$SWT_TOP/tests/vm/lib.sh"
ok
