#!/usr/bin/env bash
# End to end: a real 2-rank CPU calibration, then `tslab report` and `tslab validate` load its profile;
# plus the binary's faults (argument mismatch, timeout, unknown op, sizes beyond memory, no launcher).
set -u
MPIEXEC=$1 CAL=$2 TSLAB=$3 DIR=$4
rm -rf "$DIR" && mkdir -p "$DIR" && cd "$DIR" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
expect() { grep -q -- "$2" "$1" || { cat "$1"; fail "$1 lacks '$2'"; }; }

"$MPIEXEC" -np 2 "$CAL" --backend cpu --quick --out profile.json >run.out 2>run.err || { cat run.out run.err; fail "2-rank run"; }
expect run.out "MPI: 2 ranks on 1 node"
expect run.out "#        (B)    (elements)"
expect run.out "allreduce: 2 ranks, intra"
expect profile.json '"complete": true'
expect profile.json '"ranks": 2'
ls profile.json.tmp.* 2>/dev/null && fail "temporary profile left behind"

cat >scenario.json <<'JSON'
{"schema": "tslab/scenario@1", "model": "gpt-1.7b", "parallel": {"dp": 2},
 "cluster": {"preset": "dgx-a100-80gb", "nodes": 1, "gpus_per_node": 2, "calibration": "profile.json"}}
JSON
"$TSLAB" report scenario.json >report.json 2>report.err || { cat report.json report.err; fail "report with cluster.calibration"; }
# Provenance, and the warning that a CPU profile does not describe the scenario's A100s.
expect profile.json '"node_list_hash": "'
expect profile.json "\"cluster_name\": \""
grep -A1 '"hosts"' profile.json | grep -q "\"$(hostname)\"" || fail "provenance.hosts lacks this host"
expect report.err "warning: calibration profile was measured with the CPU backend"
expect report.json '"source": "calibrated: '
"$TSLAB" report scenario.json --format table >report.txt || fail "report table"
expect report.txt "source   calibrated: "
"$TSLAB" validate profile.json >validate.json || fail "validate"
expect validate.json '"predicted_by": "profile fits"'
expect validate.json '"probe": "allreduce ×2 intra"'
"$TSLAB" validate profile.json --scenario scenario.json --format table >validate.txt || fail "validate --scenario"
expect validate.txt "# predicted by: calibrated: "
"$TSLAB" validate profile.json --scenario scenario.json >validate2.json 2>validate2.err || fail "validate --scenario json"
expect validate2.json '"warnings": \['
expect validate2.err "warning: calibration profile was measured with the CPU backend"

# Ranks given different flags stop with a message (MPMD launch: one rank with an extra -n).
"$MPIEXEC" -np 1 "$CAL" --backend cpu --quick : -np 1 "$CAL" --backend cpu --quick -n 3 >mismatch.out 2>&1 && fail "mismatch accepted"
expect mismatch.out "ranks disagree on their arguments"

# --timeout keeps what was measured, marked incomplete, and the CLI still loads it.
"$MPIEXEC" -np 2 "$CAL" --backend cpu -e 4M -n 50 -k 9 --timeout 1 --out partial.json >timeout.out 2>&1
[ $? -eq 3 ] || { cat timeout.out; fail "timeout exit status"; }
expect partial.json '"complete": false'
expect timeout.out "stopped by --timeout"
"$TSLAB" validate partial.json >/dev/null || fail "validate of a partial profile"

# Clear errors: an unknown op, sizes beyond memory, a corrupt profile.
"$CAL" --ops allreduce,allredcue >op.out 2>&1; [ $? -eq 2 ] || fail "unknown op status"
expect op.out 'did you mean allreduce?'
"$MPIEXEC" -np 2 "$CAL" --backend cpu -b 1T -e 1T >mem.out 2>&1 && fail "1 TiB accepted"
expect mem.out "sizes beyond memory"
head -c 300 profile.json >truncated.json
"$TSLAB" validate truncated.json >trunc.out 2>&1; [ $? -eq 2 ] || fail "truncated profile status"
expect trunc.out "truncated.json: truncated JSON"

# Without a launcher: one rank, and it says so.
"$CAL" --backend cpu --quick --ops memory --out single.json >single.out 2>&1 || { cat single.out; fail "single process"; }
expect single.out "running as one rank"
expect single.json '"ranks": 1'
# Ctrl-C (SIGINT) also keeps what was measured.
# A run far longer than the test (-n 20000), interrupted once its first row is out (or after 30 s):
# a fixed sleep raced start-up under a loaded sanitizer build, either before the handler existed
# or after a short run had already finished.
"$CAL" --backend cpu --ops memory -n 20000 -k 20 --out interrupted.json >int.out 2>&1 &
pid=$!
for _ in $(seq 300); do grep -q "^ *memcpy " int.out 2>/dev/null && break; sleep 0.1; done
kill -INT $pid
wait $pid; [ $? -eq 3 ] || { cat int.out; fail "SIGINT exit status"; }
expect interrupted.json '"complete": false'
expect int.out "stopped by a signal"
echo "calibrate end-to-end: ok"
