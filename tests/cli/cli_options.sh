#!/usr/bin/env bash
# Command-line checks of tslab (CLI11): -f/--format per command, unknown and misplaced options,
# --help for every command, --version, and the exit codes (0 success, 2 bad input).
set -u
tslab="$1"
source "$(dirname "$0")/lib.sh"
check_stdin="$tmp/in.json"

# check NAME EXPECTED-RC EXPECTED-SUBSTRING -- ARGS...   (standard input: $tmp/in.json)
check() { local name=$1 want_rc=$2 want=$3; shift 4; check_run "$name" "$want_rc" "$want" "$tslab" "$@"; }
# spec NAME JSON: the JSON in a scratch file, its path printed.
spec() { printf '%s' "$2" > "$tmp/$1.json"; echo "$tmp/$1.json"; }

printf '%s' '{"model":"gpt-1.7b","parallel":{"dp":8},"training":{"global_batch":16}}' > "$tmp/s.json"
printf '%s' '{"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{"F":1,"B":2}}' > "$tmp/spec.json"
cp "$tmp/s.json" "$tmp/in.json"

# Short -f is --format (it used to print JSON with exit 0), in every spelling.
check short_format 0 'GiB' -- report "$tmp/s.json" -f table
check short_format_joined 0 'GiB' -- report "$tmp/s.json" -ftable
check long_format_eq 0 'GiB' -- report "$tmp/s.json" --format=table
check stdin_format 0 'GiB' -- report - -f table
check short_format_bad 2 '--format: expected json or table, got "yaml"' -- report "$tmp/s.json" -f yaml
check schedule_formats 2 '--format: expected json, table or trace, got "csv"' -- schedule "$tmp/spec.json" -f csv
check schedule_short 0 'makespan 33 s' -- schedule "$tmp/spec.json" -f table

# Options a command does not take are errors naming them (they used to be ignored).
check report_top 2 '--top: unknown option for report (an option of plan' -- report "$tmp/s.json" --top 3
check schedule_out 2 '--out: unknown option for schedule' -- schedule "$tmp/spec.json" --out x.json
check misplaced 2 '--top: unknown option for tslab (an option of plan' -- --top 3 plan "$tmp/s.json"
check extra_file 2 'extra.json: unexpected argument for report' -- report "$tmp/s.json" extra.json
check no_value 2 'error: --format: needs a value; see tslab report --help' -- report "$tmp/s.json" --format
check unknown_command 2 'reprot: unknown command; did you mean report?' -- reprot "$tmp/s.json"
check no_command 2 'missing; expected one of' -- -f json

# presets takes --format: json (every preset's fields) or table (the names).
check presets_json 0 '"schema": "tslab/presets@1"' -- presets --format json
check presets_table 0 '  llama3-8b' -- presets -f table
check presets_bad 2 '--format: expected json or table' -- presets --format yaml
out=$("$tslab" presets -f table); grep -qF '{' <<<"$out" && { echo "FAIL presets table prints JSON"; fail=$((fail + 1)); }

# --help at the top and for every command (report --help used to fail with "needs a value").
check top_help 0 'Exit status: 0 success; 2 bad input' -- --help
check help_word 0 'Usage: tslab plan [OPTIONS] SCENARIO.json' -- help plan
for cmd in report presets schedule collective mesh plan validate rl context; do
    check "help_$cmd" 0 "Usage: tslab $cmd" -- "$cmd" --help
    check "help_h_$cmd" 0 "-f,--format" -- "$cmd" -h
done
out=$("$tslab" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && grep -qF 'Usage: tslab' <<<"$out" && passed=$((passed + 1)) || { echo "FAIL bare: rc=$rc"; fail=$((fail + 1)); }

# tslab rl: the L9 spec's errors name their field (rl.*, gpus[i], scenario.*).
check rl_ok 0 '"schema": "tslab/rl@1"' -- rl "$(spec rl_ok '{"scenario": {"parallel": {"dp": 8}}}')"
check rl_tp 2 'rl.inference_tp: 3 does not divide' -- rl "$(spec rl_tp '{"scenario": {"parallel": {"dp": 8}}, "rl": {"inference_tp": 3}}')"
check rl_gpus 2 'gpus[0]: a whole number of GPUs' -- rl "$(spec rl_gpus '{"scenario": {}, "gpus": [0.5]}')"
check rl_scenario 2 'scenario.parallel.tp:' -- rl "$(spec rl_sc '{"scenario": {"parallel": {"tp": 0}}}')"

# tslab context: a scenario in, every L7 method out; a bad scenario is an error naming its path.
check context_ok 0 '"schema": "tslab/context@1"' -- context "$(spec ctx_ok '{"model": "llama3-8b", "parallel": {"tp": 8, "cp": 8}, "training": {"seq_len": 131072}}')"
check context_bad 2 'parallel.cp:' -- context "$(spec ctx_bad '{"parallel": {"cp": 0}}')"

# --version: the project version and the git revision ("unknown" outside a git checkout).
for args in "--version" "report --version"; do
    out=$("$tslab" $args 2>&1); rc=$?
    [ "$rc" -eq 0 ] && grep -qE '^tslab [0-9]+\.[0-9]+\.[0-9]+ \(git [^ )]+\)$' <<<"$out" && passed=$((passed + 1)) ||
        { echo "FAIL version ($args): rc=$rc out=$out"; fail=$((fail + 1)); }
done

finish cli_options
