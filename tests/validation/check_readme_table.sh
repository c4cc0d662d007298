#!/usr/bin/env bash
# The README's accuracy table equals what `tslab accuracy --format table` prints now.
# Usage: check_readme_table.sh TSLAB README. On a difference: run update_readme_table.sh.
set -euo pipefail
tslab="$1"
readme="$2"
want="$("$tslab" accuracy --format table)"
have="$(sed -n '/<!-- accuracy:begin -->/,/<!-- accuracy:end -->/p' "$readme" | sed '1d;$d')"
if [[ "$want" != "$have" ]]; then
    echo "README accuracy table is stale; run tests/validation/update_readme_table.sh" >&2
    diff <(echo "$have") <(echo "$want") >&2 || true
    exit 1
fi
echo "README accuracy table matches tslab accuracy"
