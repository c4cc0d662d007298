#!/usr/bin/env bash
# Faults under a real 2-rank mpirun (CPU backend): one rank failing, hanging or interrupted at a
# chosen probe (TSLAB_CALIBRATE_FAULT), launch mismatches, ranks reading different scenario files,
# a file-size limit at write time, Ctrl-C to mpirun; plus nccl-tests table parity and the grouped
# send/recv all-to-all (the NCCL < 2.28 path). Every case is bounded by `timeout` (exit 124), and no
# check reads the wall clock: the suite must pass on a loaded machine, where start-up under the
# sanitizers alone can take seconds.
set -u
MPIEXEC=$1 CAL=$2 DIR=$3
rm -rf "$DIR" && mkdir -p "$DIR" && cd "$DIR" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
expect() { grep -qF -- "$2" "$1" || { cat "$1"; fail "$1 lacks '$2'"; }; }
run2() { timeout 180 "$MPIEXEC" -np 2 "$@"; }
no_temp() { ls ./*.tmp.* 2>/dev/null && fail "temporary profile left behind"; true; }
Q="--backend cpu --quick"

# 1. Rank 1 throws at allgather: both ranks print their own line, rank 0 keeps the partial profile.
run2 -x TSLAB_CALIBRATE_FAULT=rank=1,at=allgather,kind=error "$CAL" $Q --out err.json >err.out 2>&1
rc=$?; [ $rc -eq 70 ] || { cat err.out; fail "error fault: rc $rc, wanted 70"; }
expect err.out "rank 1 on $(hostname): error: injected fault at allgather"
expect err.out "rank 0 on $(hostname): stopping: rank 1 on $(hostname) failed: injected fault at allgather"
expect err.json '"complete": false'
expect err.json '"stop_reason": "rank 1 on'
expect err.json '"op": "reducescatter"'   # measured before the fault: kept
grep -q '"op": "allgather"' err.json && fail "the failed op was recorded"

# 2. Rank 0 itself fails: it writes first, then rank 1 stops.
run2 -x TSLAB_CALIBRATE_FAULT=rank=0,at=alltoall,kind=error "$CAL" $Q --out err0.json >err0.out 2>&1
[ $? -eq 70 ] || fail "rank-0 fault status"
expect err0.out "rank 1 on $(hostname): stopping: rank 0 on"
expect err0.json '"stop_reason": "rank 0 on'

# 3. Rank 1 hangs inside a point: -T 2 fails it and every rank stops (exit 70, where the hang itself
# would end in run2's timeout with 124).
run2 -x TSLAB_CALIBRATE_FAULT=rank=1,at=reducescatter,kind=hang "$CAL" $Q -T 2 --out hang.json >hang.out 2>&1
rc=$?; [ $rc -eq 70 ] || { cat hang.out; fail "hang: rc $rc"; }
expect hang.out "did not finish within -T 2 s"
expect hang.json '"complete": false'

# 4. SIGINT on rank 1 only: rank 0 names the signal and the rank, exit 3, partial profile.
run2 -x TSLAB_CALIBRATE_FAULT=rank=1,at=allgather,kind=sigint "$CAL" $Q --out sig.json >sig.out 2>&1
rc=$?; [ $rc -eq 3 ] || { cat sig.out; fail "sigint on one rank: rc $rc, wanted 3"; }
expect sig.out "stopped by a signal (SIGINT on rank 1)"
expect sig.json '"stop_reason": "SIGINT on rank 1"'

# 5. Ctrl-C to mpirun itself (it forwards SIGTERM): the partial profile is kept every time, and it
# names the signal. The signal goes once rank 0 has said it is measuring (a fixed sleep could land
# before mpirun had started the ranks on a loaded machine). The check reads the profile, not the
# ranks' last line: mpirun stops forwarding their output once it is tearing the job down.
for i in 1 2; do
    rm -f ctrlc.json
    "$MPIEXEC" -np 2 "$CAL" --backend cpu -e 8M -n 30 -k 20 --out ctrlc.json >ctrlc.out 2>&1 &
    pid=$!
    for _ in $(seq 600); do grep -q "^# backend cpu" ctrlc.out 2>/dev/null && break; sleep 0.1; done
    kill -INT $pid
    ( sleep 60; kill -KILL $pid 2>/dev/null ) & guard=$!
    wait $pid; kill $guard 2>/dev/null
    expect ctrlc.json '"complete": false'
    expect ctrlc.json '"stop_reason": "SIG'
done
no_temp

# 6. Launch mismatch: PMI_SIZE says 3, MPI sees 2; every rank says so and stops with 2.
run2 -x PMI_SIZE=3 "$CAL" $Q --out mis.json >mis.out 2>&1
[ $? -eq 2 ] || fail "launch mismatch status"
expect mis.out "rank 0 on $(hostname): error: PMI_SIZE=3 but MPI sees 2 rank(s)"
expect mis.out "rank 1 on $(hostname): error: PMI_SIZE=3 but MPI sees 2 rank(s)"
expect mis.out "srun --mpi=pmix"
[ -e mis.json ] && fail "a mismatched launch wrote a profile"

# 7. Same argv, different scenario files (no shared file system): stopped before measuring.
mkdir -p a b
echo '{"schema": "tslab/scenario@1", "model": "gpt-1.7b", "parallel": {"dp": 2}}' >a/s.json
echo '{"schema": "tslab/scenario@1", "model": "gpt-1.7b", "parallel": {"tp": 2}}' >b/s.json
timeout 180 "$MPIEXEC" -np 1 -wdir "$PWD/a" "$CAL" $Q --scenario s.json --out p.json : \
    -np 1 -wdir "$PWD/b" "$CAL" $Q --scenario s.json --out p.json >scen.out 2>&1
[ $? -eq 2 ] || fail "scenario mismatch status"
expect scen.out "ranks disagree on the scenario file's content"
expect scen.out "rank 1 on $(hostname): scenario s.json content hash"
[ -e a/p.json ] && fail "a mismatched scenario wrote a profile"

# 8. A file-size limit at write time (EFBIG): an OS reason, exit 2, no temp file left.
(ulimit -f 1; exec "$CAL" $Q --ops memory --out big.json) 2>&1 | cat >big.out
expect big.out "error: --out: "
expect big.out "File too large"
[ -e big.json ] && fail "a truncated profile was written"
no_temp

# 9. nccl-tests parity: columns, footer, count convention, -a, -c 0, -o, -r, grouped all-to-all.
run2 "$CAL" $Q --ops allgather,alltoall,reduce -o max -r 1 -a 3 -c 0 --alltoall-sendrecv --out par.json >par.out 2>&1 \
    || { cat par.out; fail "parity run"; }
expect par.out "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong"
expect par.out "# Out of bounds values : 0 OK"
expect par.out "# Avg bus bandwidth    : "
expect par.out "alltoall: 2 ranks, intra, timer steady_clock, time across ranks -a 3, grouped send/recv"
grep -Eq '^ +524288 +65536 +float +none +-1 ' par.out || fail "allgather count is not size/4/n"
grep -Eq '^ +524288 +131072 +float +max +1 ' par.out || fail "reduce row lacks redop max or root 1"
grep -Eq 'N/A +[0-9.]+ +[0-9.]+ +[0-9.]+ +N/A$' par.out || fail "-c 0 did not print N/A"
run2 "$CAL" $Q --ops alltoall,reduce,broadcast -o min -r 1 --alltoall-sendrecv --out chk.json >chk.out 2>&1 || fail "checked run"
grep -Eq '^ +[0-9]+ +[0-9]+ +float .* [1-9][0-9]* *$' chk.out && { cat chk.out; fail "#wrong > 0 with the fallback or -o min -r 1"; }
expect chk.out "# Out of bounds values : 0 OK"
echo "calibrate faults: ok"
