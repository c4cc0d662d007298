#!/usr/bin/env bash
# Shared by the CLI test scripts (sourced): a scratch folder, pass/fail counters, one command check and the summary.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0; passed=0

# record NAME STATUS MESSAGE: counts a check by its status (0 passed) and prints the message of a failure.
record() {
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else echo "FAIL $1: $3"; fail=$((fail + 1)); fi
}

# check_run NAME EXPECTED-RC EXPECTED-SUBSTRING CMD...: runs CMD (120 s at most: a guard against a
# hang, not a speed check, so generous enough for a sanitized build on a loaded machine; standard input from
# $check_stdin, /dev/null unless set) and checks its exit status and that stdout+stderr contain the text.
check_run() {
    local name=$1 rc_want=$2 want=$3; shift 3
    out=$(timeout 120 "$@" <"${check_stdin:-/dev/null}" 2>&1); rc=$?
    [ "$rc" -eq "$rc_want" ] && grep -qF -- "$want" <<<"$out"
    record "$name" $? "rc=$rc out=$(head -c 400 <<<"$out") (wanted rc $rc_want and: $want)"
}

# finish NAME: the summary line; the script's status is 1 when any check failed.
finish() {
    echo "$1: $passed passed, $fail failed"
    [ "$fail" -eq 0 ]
}
