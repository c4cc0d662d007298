#!/usr/bin/env bash
# End-to-end checks of the tslab binary: typed errors exit 2 with the path and reason, and never crash.
set -u
tslab="$1"
source "$(dirname "$0")/lib.sh"

# expect_error NAME JSON EXPECTED-SUBSTRING
expect_error() { printf '%s' "$2" > "$tmp/s.json"; check_run "$1" 2 "$3" "$tslab" report "$tmp/s.json"; }

expect_error tp_heads '{"model":"llama3-8b","parallel":{"tp":12}}' 'error: parallel.tp: 12 does not divide model.heads = 32'
expect_error world '{"parallel":{"dp":3},"cluster":{"preset":"dgx-h100","nodes":1},"training":{"global_batch":3}}' 'dp·tp·pp·cp = 3·1·1·1 = 3 ≠ world size 8'
expect_error negative '{"parallel":{"pp":-1}}' 'parallel.pp: -1 is out of range'
expect_error huge '{"training":{"seq_len":1e12}}' 'training.seq_len: 1000000000000 is out of range'
expect_error preset '{"model":"deepseek-v4"}' 'unknown model preset "deepseek-v4"; did you mean deepseek-v2?'
expect_error malformed '{"model":' '$: truncated JSON'
expect_error typo '{"parallel":{"zer0":1}}' 'parallel.zer0: unknown field; did you mean zero?'

out=$("$tslab" report "$tmp/missing.json" 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -qF 'cannot open file' <<<"$out" && passed=$((passed + 1)) || { echo "FAIL missing file: $out"; fail=$((fail + 1)); }
out=$("$tslab" frobnicate 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -qF 'unknown command' <<<"$out" && passed=$((passed + 1)) || { echo "FAIL unknown command: $out"; fail=$((fail + 1)); }
out=$(echo '{}' | "$tslab" report - --format yaml 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -qF -- '--format' <<<"$out" && passed=$((passed + 1)) || { echo "FAIL format: $out"; fail=$((fail + 1)); }
out=$(echo '{"model":"llama3-70b"}' | "$tslab" report - --format table); rc=$?
[ "$rc" -eq 0 ] && grep -qF 'GiB' <<<"$out" && passed=$((passed + 1)) || { echo "FAIL table: $out"; fail=$((fail + 1)); }
"$tslab" report --help | grep -qF 'Usage: tslab report [OPTIONS] SCENARIO.json' && passed=$((passed + 1)) || { echo "FAIL help"; fail=$((fail + 1)); }

finish cli_errors
