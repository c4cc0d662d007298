#!/usr/bin/env bash
# End-to-end checks of `tslab plan`: output fields, --top/--gpus, the cap, nothing-fits, typed errors.
set -u
tslab="$1"
source "$(dirname "$0")/lib.sh"

# check NAME EXPECTED-RC EXPECTED-SUBSTRING -- ARGS...
check() { local name=$1 want_rc=$2 want=$3; shift 4; check_run "$name" "$want_rc" "$want" "$tslab" "$@"; }

printf '%s' '{"model":"gpt-1.7b","parallel":{"dp":8},"training":{"global_batch":16}}' > "$tmp/small.json"
printf '%s' '{"model":"gpt-1t","parallel":{"dp":8},"training":{"global_batch":8}}' > "$tmp/huge.json"

check fields 0 '"candidates_evaluated"' -- plan "$tmp/small.json"
check pareto 0 '"pareto"' -- plan "$tmp/small.json" --top 2
check elapsed 0 '"elapsed_s"' -- plan "$tmp/small.json"
check gpus 0 '"gpus": 16' -- plan "$tmp/small.json" --gpus 16 --top 1
check table 0 'Pareto front (memory vs time)' -- plan "$tmp/small.json" --format table
check cap 0 'search capped at' -- plan "$tmp/small.json" --max-candidates 5
check nothing_fits 0 'no plan fits in HBM; the closest' -- plan "$tmp/huge.json" --top 1
check bad_top 2 'options.top: 0 is out of range' -- plan "$tmp/small.json" --top 0
check bad_number 2 '--gpus: expected a whole number, got "many"' -- plan "$tmp/small.json" --gpus many
check bad_option 2 '--topk: unknown option for plan' -- plan "$tmp/small.json" --topk 3
check bad_format 2 '--format: expected json or table' -- plan "$tmp/small.json" --format yaml
check bad_scenario 2 'parallel.tp: 12 does not divide model.heads' -- plan <(printf '%s' '{"model":"llama3-8b","parallel":{"tp":12}}')
check no_file 2 'SCENARIO.json is required' -- plan
"$tslab" plan --help | grep -qF 'Usage: tslab plan [OPTIONS] SCENARIO.json' && passed=$((passed + 1)) || { echo "FAIL help"; fail=$((fail + 1)); }

# Top entries are sorted by step time and carry their bottleneck ledger and headroom.
out=$("$tslab" plan "$tmp/small.json" --top 4)
python3 - "$out" <<'PY' && passed=$((passed + 1)) || { echo "FAIL top order"; fail=$((fail + 1)); }
import json, sys
j = json.loads(sys.argv[1])
t = [e["time_s"] for e in j["top"]]
assert t == sorted(t) and len(t) == 4, t
assert all(e["bottleneck_ledger"].startswith("L") and e["headroom_bytes"] >= 0 for e in j["top"])
PY

finish plan_cli
