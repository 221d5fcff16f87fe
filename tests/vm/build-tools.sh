#!/bin/bash
# Build the helper programs the guest cases run (the guest runs host binaries).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/build/bin"
gcc -O2 -Wall -Wextra -Werror -o "$top/build/bin/memhog" "$top/tests/vm/tools/memhog.c"
gcc -O2 -Wall -Wextra -Werror -o "$top/build/bin/dmfuzz" "$top/tests/vm/tools/dmfuzz.c" -ldevmapper
make -s -C "$top" tool
