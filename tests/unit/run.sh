#!/bin/bash
# Host unit tests: the map compiled unchanged against the shim headers,
# with ASan and UBSan (the tool's parser tests: tests/tool/run.sh); then the
# model fuzzer, as a fixed pseudo-random run
# and, where clang's libFuzzer is installed, as a time-bounded libFuzzer run.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/unit
mkdir -p "$out"
cflags=(-std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-function
	-fsanitize=address,undefined -fno-sanitize-recover=all
	-I"$top/tests/unit/shim" -I"$top/drivers/md" -I"$top/tests/unit")
src=("$top/drivers/md/dm-swaptier-map.c" "$top/drivers/md/dm-swaptier-policy.c"
	"$top/drivers/md/dm-swaptier-policy-clock.c" "$top/drivers/md/dm-swaptier-plan.c")
failed=0

run() {	# NAME CMD...: run a test binary, echo its ok/not ok lines
	local name=$1; shift
	if "$@" >"$out/$name.log" 2>&1; then
		grep -E '^(ok|not ok|#) ' "$out/$name.log"
	else
		grep -E '^(ok|not ok|#) ' "$out/$name.log"
		echo "not ok unit/$name: exited non-zero, see $out/$name.log"
		tail -n 5 "$out/$name.log" | sed 's/^/# /'
		failed=1
	fi
}

build() {	# NAME SOURCE...
	local name=$1; shift
	if ! gcc "${cflags[@]}" -o "$out/$name" "$@" 2>"$out/$name.build.log"; then
		echo "not ok unit/$name: does not compile, see $out/$name.build.log"
		head -n 5 "$out/$name.build.log" | sed 's/^/# /'
		failed=1
		return 1
	fi
}

build test_map "$top/tests/unit/test_map.c" "${src[@]}" && run test_map "$out/test_map"
build test_policy "$top/tests/unit/test_policy.c" "${src[@]}" && run test_policy "$out/test_policy"
build fuzz_map "$top/tests/unit/fuzz_map.c" "${src[@]}" && run fuzz_map "$out/fuzz_map" 4000

if command -v clang >/dev/null && clang -fsanitize=fuzzer -x c -o /dev/null - <<<'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' 2>/dev/null; then
	if clang -std=gnu11 -g -O1 -DSWT_LIBFUZZER -fsanitize=fuzzer,address,undefined \
		-I"$top/tests/unit/shim" -I"$top/drivers/md" -I"$top/tests/unit" \
		-o "$out/libfuzz_map" "$top/tests/unit/fuzz_map.c" "${src[@]}" 2>"$out/libfuzz.build.log"; then
		mkdir -p "$out/corpus"
		if "$out/libfuzz_map" -max_total_time="${SWT_FUZZ_SECONDS:-30}" -max_len=8192 -artifact_prefix="$out/" \
			"$out/corpus" >"$out/libfuzz.log" 2>&1; then
			echo "ok unit/libfuzzer_map ($(grep -c . "$out/libfuzz.log") log lines, ${SWT_FUZZ_SECONDS:-30}s)"
		else
			echo "not ok unit/libfuzzer_map: crash, see $out/libfuzz.log"
			grep -m3 -E 'ERROR|fuzz_map:' "$out/libfuzz.log" | sed 's/^/# /'
			failed=1
		fi
	else
		echo "not ok unit/libfuzzer_map: does not compile with clang, see $out/libfuzz.build.log"
		failed=1
	fi
else
	echo "not ok unit/libfuzzer_map: clang with libFuzzer is not installed (make deps)"
	failed=1
fi
exit $failed
