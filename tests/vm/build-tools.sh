#!/bin/bash
# Build the helper programs the guest cases run (the guest runs host binaries).
# memhog, the cases' memory load, is the benchmark's workload program under
# another name (bench/swapbench.c): one program for both.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/build/bin"
gcc -O2 -Wall -Wextra -Werror -o "$top/build/bin/swapbench" "$top/bench/swapbench.c"
ln -sf swapbench "$top/build/bin/memhog"
gcc -O2 -Wall -Wextra -Werror -o "$top/build/bin/dmfuzz" "$top/tests/vm/tools/dmfuzz.c" -ldevmapper
make -s -C "$top" tool
