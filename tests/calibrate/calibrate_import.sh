#!/usr/bin/env bash
# `tslab-calibrate import` on real nccl-tests logs (tests/data/calibration/nccl-tests/README.md
# names each source): every op, one node and several, old and new formats, JSON; the profiles
# load in `tslab validate`. No MPI.
set -u
CAL=$1 TSLAB=$2 DATA=$3 DIR=$4
rm -rf "$DIR" && mkdir -p "$DIR" && cd "$DIR" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
expect() { grep -qF -- "$2" "$1" || { cat "$1"; fail "$1 lacks '$2'"; }; }
# field FILE PYTHON-EXPR: evaluates EXPR with p = the profile.
field() { python3 -c "import json,sys; p=json.load(open('$1')); print($2)"; }

"$CAL" import "$DATA/allreduce-2x8-h100.log" --out ar.json >ar.out 2>&1 || { cat ar.out; fail "allreduce import"; }
expect ar.out "allreduce, 16 ranks on 2 node(s) (inter), 31 of 31 rows"
[ "$(field ar.json "p['collectives'][0]['op'], p['collectives'][0]['ranks'], p['collectives'][0]['scope']")" = "allreduce 16 inter" ] || fail "allreduce fit key"
# The 8 GiB row of the log: 47535 us (out of place).
[ "$(field ar.json "[s['time_s'] for s in p['collectives'][0]['samples'] if s['bytes']==8589934592][0]")" = "0.047535" ] || fail "8 GiB sample"
[ "$(field ar.json "p['devices'][0]['name'], p['nodes'], p['provenance']['origin']")" = "NVIDIA H100 80GB HBM3 2 nccl-tests import" ] || fail "identity"
"$TSLAB" validate ar.json >ar.val || fail "validate of an imported profile"
expect ar.val '"probe": "allreduce ×16 inter"'

# JSON (-J) form of the same run: the same fit, to the last digit.
"$CAL" import "$DATA/allreduce-2x8-h100.json" --out arj.json >arj.out 2>&1 || { cat arj.out; fail "json import"; }
[ "$(field ar.json "p['collectives'][0]['alpha_s'], p['collectives'][0]['beta_s_per_byte']")" = \
  "$(field arj.json "p['collectives'][0]['alpha_s'], p['collectives'][0]['beta_s_per_byte']")" ] || fail "text and JSON fits differ"

# A log that does not name its test needs --op; a wrong --op contradicts busbw/algbw.
"$CAL" import "$DATA/allgather-2x8-b200.log" --out ag.json >noop.out 2>&1; [ $? -eq 2 ] || fail "missing --op accepted"
expect noop.out "pass --op"
"$CAL" import "$DATA/allgather-2x8-b200.log" --op allreduce --out ag.json >wrong.out 2>&1; [ $? -eq 2 ] || fail "wrong --op accepted"
expect wrong.out "busbw/algbw = 0.933 but allreduce over 16 ranks has factor 1.875"
"$CAL" import "$DATA/allgather-2x8-b200.log" --op allgather --out ag.json >ag.out 2>&1 || { cat ag.out; fail "allgather import"; }
[ "$(field ag.json "p['collectives'][0]['op'], p['collectives'][0]['ranks'], p['software']['nccl']")" = "allgather 16 2.26.6" ] || fail "allgather fit"
"$CAL" import "$DATA/allreduce-2x8-h100.log" "$DATA/allgather-2x8-b200.log" --op allgather --out mix.json >mix.out 2>&1
[ $? -eq 2 ] || fail "H100 and B200 logs mixed into one profile"
expect mix.out "logs from different GPUs (NVIDIA H100 80GB HBM3 and NVIDIA B200)"

# Old format ("error" column, no root, an empty redop cell), 8 nodes, no device list.
"$CAL" import "$DATA/allreduce-8x8-v100-old-format.log" --op allreduce --out old.json >old.out 2>&1; [ $? -eq 2 ] || fail "ranks guessed"
expect old.out "pass --ranks N"
"$CAL" import "$DATA/allreduce-8x8-v100-old-format.log" --op allreduce --ranks 64 --nodes 8 --out old.json >old.out 2>&1 || fail "old allreduce"
"$CAL" import "$DATA/alltoall-8x8-v100-old-format.log" --op alltoall --nodes 8 --out a2a.json >a2a.out 2>&1 || { cat a2a.out; fail "old alltoall"; }
expect a2a.out "alltoall, 64 ranks on 8 node(s) (inter), 2 of 2 rows"
[ "$(field a2a.json "p['collectives'][0]['samples'][1]['time_s']")" = "1.041974" ] || fail "alltoall 512 MiB sample"

# Reduce-scatter across 2 nodes (size-0 rows skipped) and all-reduce inside one node.
"$CAL" import "$DATA/reducescatter-2x4.log" --op reducescatter --nodes 2 --out rs.json >rs.out 2>&1 || { cat rs.out; fail "rs"; }
expect rs.out "reducescatter, 8 ranks on 2 node(s) (inter), 2 of 7 rows"
"$CAL" import "$DATA/allreduce-1x8-h20.log" --op allreduce --ranks 8 --nodes 1 --out h20.json >h20.out 2>&1 || fail "h20"
[ "$(field h20.json "p['collectives'][0]['scope'], len(p['collectives'][0]['samples'])")" = "intra 10" ] || fail "one-node fit"

# Launcher prefixes (Open MPI --tag-output) are stripped: the same rows come back.
sed 's/^/[1,0]<stdout>:/' "$DATA/allreduce-2x8-h100.log" >tagged.log
"$CAL" import tagged.log --out tagged.json >/dev/null 2>&1 || fail "tagged log"
[ "$(field tagged.json "p['collectives'][0]['alpha_s']")" = "$(field ar.json "p['collectives'][0]['alpha_s']")" ] || fail "tagged log fit differs"
# Malformed -J files: each field of the wrong type or range is named by its path, exit 2, never an abort.
bad() {  # bad NAME JSON EXPECTED
    printf '%s' "$2" >"$1.json"
    "$CAL" import "$1.json" --op allreduce --ranks 8 --nodes 1 --out "$1.out.json" >"$1.out" 2>&1
    [ $? -eq 2 ] || { cat "$1.out"; fail "$1: not exit 2"; }
    expect "$1.out" "$1.json:$3"
}
bad args '{"args": [1], "results": []}' "args[0]: expected a string, got a number"
bad devices '{"config": {"devices": [1]}, "results": []}' "config.devices[0]: expected an object, got a number"
bad devlist '{"config": {"devices": 1}, "results": []}' "config.devices: expected an array, got a number"
bad size '{"results": [{"size": "8", "out_of_place": {"time": 1}}]}' "results[0].size: expected an integer, got a string"
bad huge '{"results": [{"size": 1e300, "out_of_place": {"time": 1}}]}' "results[0].size: 1e+300 is out of range"
bad oop '{"results": [{"size": 8, "out_of_place": [1]}]}' "results[0].out_of_place: expected an object, got an array"
bad time '{"results": [{"size": 8, "out_of_place": {"time": -1}}]}' "results[0].out_of_place.time: -1 is out of range"
bad config '{"config": 3, "results": []}' "config: expected an object, got a number"
bad results '{"results": {"size": 8}}' "results: no \"results\" array"
bad beyond '{"results": [1e999]}' "results[0]: the number 1e999 is out of range"
bad cut '{"results": [' " truncated JSON at byte 14"
bad twice '{"results": [], "results": []}' "results: given twice"
# Text rows with non-finite or overlong numbers are not rows; a split count claiming 2^40 ranks is refused.
printf '#  Rank  0 Group  0 Pid 1 on h0 device  0 [0x01] GPU\n#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n         8             2     float     sum      -1     nan    0.00    0.00      0    1.0    0.00    0.00      0\n' >nan.log
"$CAL" import nan.log --op allreduce --out nan.json >nan.out 2>&1
[ $? -eq 2 ] || { cat nan.out; fail "a NaN row accepted"; }
expect nan.out "nan.log: no nccl-tests results table found"
printf '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n  4398046511104             1     float    none      -1    10.0    0.00    0.00      0    10.0    0.00    0.00      0\n' >ranks.log
"$CAL" import ranks.log --op allgather --nodes 2 --out ranks.json >ranks.out 2>&1
[ $? -eq 2 ] || { cat ranks.out; fail "2^40 ranks accepted"; }
expect ranks.out "ranks come to 1099511627776, more than 65536"
echo "calibrate import: ok"
