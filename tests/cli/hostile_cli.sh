#!/usr/bin/env bash
# Hostile input to the tslab binary (issue 15): deep nesting, size and field limits, number
# overflow, files named in a scenario, work caps; each exits 2 with a typed "path: reason" message,
# quickly, and never crashes or echoes a file's content.
set -u
tslab="$1"
source "$(dirname "$0")/lib.sh"

# check NAME EXPECTED-RC EXPECTED-SUBSTRING CMD...   (stdout+stderr; each command limited to 20 s)
check() { check_run "$@"; }
spec() { printf '%s' "$2" > "$tmp/$1.json"; echo "$tmp/$1.json"; }

# 2. deep nesting segfaulted (recursive copies); size, depth and key limits name themselves.
python3 -c "print('{\"model\":{\"x\":' + '['*100000 + '1' + ']'*100000 + '}}')" > "$tmp/deep.json"
check deep_nesting 2 'nested deeper than 64 levels (the limit is 64)' "$tslab" report "$tmp/deep.json"
check max_input_bytes 2 'over the input limit (--max-input-bytes)' "$tslab" report --max-input-bytes 100 "$tmp/deep.json"
check stdin_limit 2 'standard input: more than 4194304 bytes' bash -c "head -c 5000000 /dev/zero | '$tslab' report -"
python3 -c "import json; print(json.dumps({'model': {f'k{i}': 1 for i in range(100000)}}))" > "$tmp/keys.json"
check many_keys 2 'model: more than 1024 fields in one object (the limit is 1024)' "$tslab" report "$tmp/keys.json"
check duplicate 2 'model.layers: given twice' "$tslab" report "$(spec dup '{"model":{"layers":1,"layers":2}}')"

# 3. work caps, estimated before the work.
check zbv_cap 2 'ranks: zbv with ranks 65536' "$tslab" schedule "$(spec zbv '{"schedule":"zbv","ranks":65536,"microbatches":1,"timeline":false}')"
check timeline_cap 2 'timeline: 1f1b with ranks 1 · m 1000000' "$tslab" schedule "$(spec tl '{"schedule":"1f1b","ranks":1,"microbatches":1000000}')"
check zbh1_cap 2 'over the cap of 100000 listed ops' "$tslab" schedule "$(spec zbh1 '{"schedule":"zb-h1","ranks":666,"microbatches":1000}')"
check mesh_listing 2 'list_limit: 1048576 is out of range [1, 65536]' "$tslab" mesh "$(spec ml '{"dp":1048576,"list_limit":1048576}')"
check plan_gpus 2 'options.gpus: 1048576 is out of range [0, 65536]' "$tslab" plan "$(spec p '{"model":"llama3-8b"}')" --gpus 1048576
# (Kimi K2 on 65536 GPUs lists ~36k layouts; the smallest budget, 1 ms, stops it early on any
# machine, idle or loaded: a load only makes the cut come sooner.)
check plan_budget 0 'options.max_seconds = 0.001): ' "$tslab" plan "$(spec k2 '{"model":"kimi-k2"}')" --gpus 65536 --max-seconds 0.001

# 5. overflow of a product of sizes names the fields.
check params_overflow 2 'model.hidden × model.ffn_hidden × model.layers' "$tslab" report "$(spec big '{"model":{"layers":100000,"hidden":1048576,"heads":1,"ffn_hidden":1000000000}}')"

# 6. files named in a scenario: regular, size-limited, named, never echoed.
check cal_empty 2 'cluster.calibration: an empty file name' "$tslab" report "$(spec ce '{"cluster":{"calibration":""}}')"
check cal_dev_zero 2 'cluster.calibration: /dev/zero: not a regular file' "$tslab" report "$(spec cz '{"cluster":{"calibration":"/dev/zero"}}')"
check cal_missing 2 'cluster.calibration: /nonexistent/p.json: no such file' "$tslab" report "$(spec cm '{"cluster":{"calibration":"/nonexistent/p.json"}}')"
printf 'secret-token-xyz:x:0:0\n' > "$tmp/passwd"
check cal_not_json 2 "cluster.calibration: $tmp/passwd: malformed JSON at byte 1" "$tslab" report "$(spec cp "{\"cluster\":{\"calibration\":\"$tmp/passwd\"}}")"
if timeout 120 "$tslab" report "$tmp/cp.json" 2>&1 | grep -q 'secret'; then
    echo "FAIL cal_echo: the file's content is echoed"; fail=$((fail + 1))
else passed=$((passed + 1)); fi
head -c 5000000 /dev/zero | tr '\0' ' ' > "$tmp/huge.json"
check cal_too_big 2 'bytes exceed the input limit of 4194304 bytes' "$tslab" report "$(spec ch "{\"cluster\":{\"calibration\":\"$tmp/huge.json\"}}")"

# 7. typed errors with a path.
check top_null 2 'error: $: expected an object, got null' "$tslab" report "$(spec n 'null')"
check empty_key 2 'error: $[""]: unknown field' "$tslab" report "$(spec ek '{"":1}')"
for cmd in schedule collective mesh; do
    check "overflow_$cmd" 2 'ranks: the number 1e400 is out of range' "$tslab" "$cmd" "$(spec "o$cmd" '{"ranks":1e400}')"
done
check overflow_profile 2 'ranks: the number 1e400 is out of range' "$tslab" validate "$(spec op '{"schema":"tslab/calibration@1","ranks":1e400}')"
check mesh_own_path 2 'error: ep: 3 does not divide' "$tslab" mesh "$(spec me '{"dp":4,"ep":3}')"
check tiny_bandwidth 2 'link.bandwidth_Bps: 4.94066e-324 is below 1e3 B/s' "$tslab" collective "$(spec tb '{"op":"allreduce","bytes":1e9,"ranks":8,"link":{"bandwidth_Bps":5e-324,"latency_s":0}}')"

finish hostile_cli
