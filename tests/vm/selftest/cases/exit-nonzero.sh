#!/bin/bash
# timeout: 30
# Prints "ok" but exits non-zero: the harness must fail it.
echo "ok exit-nonzero"
exit 3
