#!/usr/bin/env bash
# Command-line checks of tslab-calibrate (CLI11) run as one rank, measuring nothing: --help,
# --version, and flags that are unknown or out of range exit 2 naming the flag.
set -u
cal="$1"
source "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

# check NAME EXPECTED-RC EXPECTED-SUBSTRING -- ARGS...
check() { local name=$1 want_rc=$2 want=$3; shift 4; check_run "$name" "$want_rc" "$want" "$cal" "$@"; }

check help 0 'Exit status: 0 complete; 3 stopped early' -- --help
check help_short 0 '-f,--stepfactor FACTOR' -- -h
check version 0 'tslab-calibrate 0.' -- --version
check unknown 2 'error: --bogus: unknown option for tslab-calibrate' -- --bogus
check format_is_not_a_flag 2 '--format: unknown option for tslab-calibrate' -- --format json
check extra 2 'extra: unexpected argument for tslab-calibrate' -- --quick extra
check iters_range 2 'error: --iters: 0 is out of range [1, 1000000]' -- -n 0
check iters_word 2 'error: --iters: expected a whole number, got "x"' -- -n x
check size 2 'error: --minbytes: expected a size such as 8, 64K, 32M or 1G, got "3Q"' -- -b 3Q
check backend 2 'error: --backend: expected cuda or cpu, got "gpu"' -- --backend gpu
check sizes_order 2 'error: -e: 1K is below -b 64K' -- -b 64K -e 1K
check op 2 'did you mean allreduce?' -- --ops allredcue
check no_value 2 'error: --stepfactor: needs a value' -- -f
# nccl-tests' letters: the same meaning or a clear refusal; repeats moved to -k, -r is the root.
check ngpus 2 'error: --ngpus: 2 is out of range [1, 1]' -- -g 2
check average 2 'error: --average: 4 is out of range [0, 3]' -- -a 4
check datatype 2 'error: --datatype: expected float, got "half"' -- -d half
check redop 2 'error: --op: expected sum, min or max, got "prod"' -- -o prod
check repeats_letter 0 '-k,--repeats REPEATS' -- --help
check root_letter 0 '-r,--root ROOT' -- --help
check out_checked_first 2 'error: --out: /nonexistent/p.json: cannot create a file there: No such file or directory' -- --backend cpu --ops memory --out /nonexistent/p.json
check out_is_dir 2 'error: --out: .: is a directory' -- --backend cpu --ops memory --out .
SLURM_NTASKS=4 SLURM_PROCID=0 check srun_without_pmi 2 'srun started 4 tasks without a PMI' -- --quick
TSLAB_CALIBRATE_FAULT=bogus check bad_fault 2 'TSLAB_CALIBRATE_FAULT: "bogus": expected rank=R,at=PROBE' -- --backend cpu --ops memory --quick --out f.json
[ -e tslab-calibration.json ] && { echo "FAIL a profile was written"; fail=$((fail + 1)); }

finish calibrate_options
