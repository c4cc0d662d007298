#!/usr/bin/env bash
# Fuzzes the core's entry points with libFuzzer under ASan + UBSan (Debian clang).
# Usage: tests/fuzz.sh TARGET|all [SECONDS]   (TARGET: report schedule collective mesh plan plan_merge profile nccl_import)
# Builds the fuzz targets in build-fuzz/ (tests/configure_sanitized.sh: clang, ASan + UBSan, asserts
# on), seeds a scratch corpus from tests/fuzz/seeds (and the calibration test data), runs each
# target for SECONDS (default 20) and fails on any crash, sanitizer report, input slower than 5 s
# or using more than 2 GiB. Findings land in build-fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: tests/fuzz.sh TARGET|all [SECONDS]}
seconds=${2:-20}
all=(report schedule collective mesh plan plan_merge profile nccl_import)
if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    echo "fuzz: clang with libFuzzer not found (apt-get install clang libclang-rt-14-dev); skipped"
    exit 0
fi
bash tests/configure_sanitized.sh
targets=("$target"); [ "$target" = all ] && targets=("${all[@]}")
cmake --build build-fuzz --target "${targets[@]/#/fuzz_}"
mkdir -p build-fuzz/findings
# One target on one core: libFuzzer is single-threaded, so TSLAB_FUZZ_JOBS (default: the cores) run
# side by side, each for the full SECONDS; their summaries print in target order.
run_one() {
    local t=$1 corpus=build-fuzz/corpus/$1 log=build-fuzz/findings/$1.log
    mkdir -p "$corpus"
    cp -n tests/fuzz/seeds/"$t"/* "$corpus"/ 2>/dev/null || true
    if [ "$t" = nccl_import ]; then cp -n tests/data/calibration/nccl-tests/*.log tests/data/calibration/nccl-tests/*.json "$corpus"/; fi
    echo "fuzz: $t for ${seconds}s"
    local failed=0
    if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        build-fuzz/tests/fuzz/fuzz_"$t" "$corpus" -dict=tests/fuzz/fields.dict -max_len=65536 \
        -timeout=30 -rss_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix=build-fuzz/findings/"$t"- >"$log" 2>&1; then
        echo "fuzz: $t FAILED (see $log):"; grep -vE "^#[0-9]+[[:space:]]+(INITED|NEW|REDUCE|pulse)" "$log" | grep -E "ERROR|SUMMARY|runtime error|timeout|out-of-memory|Test unit written" | head -5
        failed=1
    fi
    grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec|cov:" "$log" | tail -3 | sed "s/^/fuzz: $t /"
    return $failed
}
# -timeout=30 flags an input that runs 30 s: a hang, not a slow input on a loaded machine (the
# planner's own inputs stop at their 0.2 s budget plus the top entries' reports).
jobs=${TSLAB_FUZZ_JOBS:-$(nproc)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
status=0
for ((i = 0; i < ${#targets[@]}; i += jobs)); do
    batch=("${targets[@]:i:jobs}")
    pids=()
    for t in "${batch[@]}"; do
        run_one "$t" >build-fuzz/findings/"$t".summary 2>&1 &
        pids+=($!)
    done
    for k in "${!batch[@]}"; do
        wait "${pids[$k]}" || status=1
        cat build-fuzz/findings/"${batch[$k]}".summary
    done
done
exit $status
