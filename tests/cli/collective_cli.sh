#!/usr/bin/env bash
# End-to-end checks of `tslab collective` and `tslab mesh`: bad specs exit 2 naming the path and reason; table format works.
set -u
tslab="$1"
source "$(dirname "$0")/lib.sh"

# expect_error CMD NAME JSON EXPECTED-SUBSTRING
expect_error() { printf '%s' "$3" > "$tmp/s.json"; check_run "$2" 2 "$4" "$tslab" "$1" "$tmp/s.json"; }

expect_error collective zero_bytes '{"op":"allreduce","bytes":0,"ranks":8}' 'error: bytes: 0 must be positive'
expect_error collective negative_bytes '{"op":"allreduce","bytes":-4096,"ranks":8}' 'error: bytes: -4096 must be positive'
expect_error collective negative_ranks '{"op":"allreduce","bytes":1024,"ranks":-8}' 'error: ranks: -8 must be at least 2'
expect_error collective ranks_not_dividing '{"op":"allreduce","bytes":1024,"ranks":12}' 'error: ranks: 12 is not a multiple of ranks_per_node = 8'
expect_error collective unknown_op '{"op":"allreduse","bytes":1024,"ranks":8}' 'error: op: unknown collective "allreduse"; did you mean allreduce?'
expect_error collective bandwidth_zero '{"op":"allreduce","bytes":1024,"ranks":8,"link":{"bandwidth_Bps":0,"latency_s":1e-6}}' 'error: link.bandwidth_Bps: 0 must be positive'
expect_error collective unknown_field '{"op":"allreduce","bytes":1024,"ranks":8,"overlp":0.5}' 'overlp'
expect_error mesh ep_not_dividing '{"dp":4,"ep":3}' 'error: ep: 3 does not divide dp·cp = 4 (expert-DP rule'
expect_error mesh world_mismatch '{"dp":4,"tp":8,"pp":2,"nodes":2}' 'error: nodes: dp·tp·pp·cp = 64 ≠ world size 16'
expect_error mesh bad_order '{"tp":2,"order":"tp-tp-dp"}' 'error: order: axis tp appears twice'

# Table format: the chosen algorithm, the alpha + beta split and the candidates.
printf '%s' '{"op":"allreduce","bytes":1073741824,"ranks":16}' > "$tmp/ok.json"
out=$("$tslab" collective "$tmp/ok.json" --format table); rc=$?
if [ "$rc" -eq 0 ] && grep -qF 'allreduce of' <<<"$out" && grep -qF 'alpha' <<<"$out" && grep -qF 'beta' <<<"$out" \
    && grep -qF 'candidates' <<<"$out" && grep -qF 'hierarchical' <<<"$out"; then
    passed=$((passed + 1))
else
    echo "FAIL table: rc=$rc out=$out"; fail=$((fail + 1))
fi
# JSON from stdin ('-') and the mesh command.
out=$(echo '{"op":"sendrecv","bytes":8192,"ranks":2}' | "$tslab" collective - --format json); rc=$?
[ "$rc" -eq 0 ] && grep -qF '"schema": "tslab/collective@1"' <<<"$out" && passed=$((passed + 1)) || { echo "FAIL stdin json: $out"; fail=$((fail + 1)); }
out=$(echo '{"dp":2,"tp":8,"pp":2,"order":"cp-ep-dp-pp-tp"}' | "$tslab" mesh -); rc=$?
[ "$rc" -eq 0 ] && grep -qF 'tp group of 8 spans 4 nodes' <<<"$out" && passed=$((passed + 1)) || { echo "FAIL mesh warning: $out"; fail=$((fail + 1)); }
out=$(echo '{"dp":2}' | "$tslab" mesh - --format table 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -qF -- '--format' <<<"$out" && passed=$((passed + 1)) || { echo "FAIL mesh format: $out"; fail=$((fail + 1)); }
out=$(echo '{"op":"allreduce","bytes":1024,"ranks":8}' | "$tslab" collective - --format yaml 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -qF -- '--format' <<<"$out" && passed=$((passed + 1)) || { echo "FAIL collective format: $out"; fail=$((fail + 1)); }

finish collective_cli
