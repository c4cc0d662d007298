#!/usr/bin/env bash
# End-to-end checks of `tslab schedule`: bad SPECs exit 2 with path and reason; json, table and trace formats work.
set -u
tslab="$1"
source "$(dirname "$0")/lib.sh"

check() { record "$@"; }  # check NAME CONDITION-EXIT-CODE OUTPUT

# expect_error NAME SPEC EXPECTED-SUBSTRING
expect_error() { printf '%s' "$2" > "$tmp/s.json"; check_run "$1" 2 "$3" "$tslab" schedule "$tmp/s.json"; }

expect_error dualpipe_odd '{"schedule":"dualpipe","ranks":3,"microbatches":12}' 'error: ranks: DualPipe needs an even number of ranks (PP), got 3'
expect_error dualpipe_m '{"schedule":"dualpipe","ranks":4,"microbatches":6}' 'error: microbatches: dualpipe needs m ≥ 2·ranks = 8'
expect_error interleaved_div '{"schedule":"interleaved","ranks":4,"microbatches":6,"vpp":2}' 'divisible by ranks = 4'
expect_error nan_cost '{"costs":{"F":"NaN"}}' 'error: costs.F: expected a number'
expect_error fb_over '{"costs":{"F":1,"B":2,"FB":3.5}}' 'error: costs.FB: an overlapped pair FB = 3.5 cannot exceed F + B = 3'
expect_error negative '{"microbatches":-1}' 'error: microbatches: -1 is out of range'
expect_error zero_ranks '{"ranks":0}' 'error: ranks: 0 is out of range'
expect_error unknown '{"schedule":"2f2b"}' 'error: schedule: unknown value "2f2b"'
expect_error typo '{"microbatch":8}' 'microbatch: unknown field; did you mean microbatches?'
expect_error absurd '{"schedule":"dualpipev","ranks":64,"microbatches":1000000000}' 'over the cap of 2000000 ops'
expect_error malformed '{"schedule":' '$: truncated JSON'

spec='{"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{"F":1,"B":2}}'
out=$(echo "$spec" | "$tslab" schedule - --format yaml 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -qF -- '--format' <<<"$out"; check format $? "$out"

# Table: the header names the schedule, one row per rank; 1F1B idles (p−1)(F+B) = 9 s of makespan m(F+B)+9 = 33 s.
out=$(echo "$spec" | "$tslab" schedule - --format table); rc=$?
[ "$rc" -eq 0 ] && grep -qF 'schedule 1f1b  ranks 4  m 8' <<<"$out" && grep -qF 'makespan 33 s' <<<"$out" &&
    [ "$(grep -cE '^ +[0-9]+ ' <<<"$out")" -eq 4 ]
check table $? "$out"

# JSON: the default format, schema id and 4·8·2 = 64 ops.
out=$(echo "$spec" | "$tslab" schedule -); rc=$?
[ "$rc" -eq 0 ] && grep -qF '"schema": "tslab/schedule@1"' <<<"$out" && grep -qF '"op_count": 64' <<<"$out"
check json $? "$out"

# Trace: Chrome trace events, one thread_name track per rank and one "X" event per op.
out=$(echo "$spec" | "$tslab" schedule - --format trace); rc=$?
[ "$rc" -eq 0 ] && grep -qF '{"traceEvents":[' <<<"$out" &&
    [ "$(grep -o '"name":"thread_name"' <<<"$out" | wc -l)" -eq 4 ] &&
    [ "$(grep -o '"ph":"X"' <<<"$out" | wc -l)" -eq 64 ] &&
    grep -qF '"args":{"name":"rank 3"}' <<<"$out"
check trace $? "${out:0:300}"

"$tslab" schedule --help | grep -qF 'Usage: tslab schedule [OPTIONS] SPEC.json'; check help $? "help"

finish schedule_cli
