#!/usr/bin/env bash
# The README's accuracy tables equal what `tslab accuracy --format table` (the training set) and
# `tslab accuracy --published --format table` (the published runs) print now.
# Usage: check_readme_table.sh TSLAB README. On a difference: run update_readme_table.sh.
set -euo pipefail
tslab="$1"
readme="$2"
check() {
    local marker="$1"
    shift
    local want have
    want="$("$tslab" accuracy "$@" --format table)"
    have="$(sed -n "/<!-- $marker:begin -->/,/<!-- $marker:end -->/p" "$readme" | sed '1d;$d')"
    if [[ "$want" != "$have" ]]; then
        echo "README $marker table is stale; run tests/validation/update_readme_table.sh" >&2
        diff <(echo "$have") <(echo "$want") >&2 || true
        exit 1
    fi
}
check accuracy
check accuracy-published --published
echo "README accuracy tables match tslab accuracy"
