#!/usr/bin/env bash
# Rewrites the README's accuracy tables (between the accuracy:begin/end and
# accuracy-published:begin/end markers) from `tslab accuracy [--published] --format table`.
# Usage: update_readme_table.sh [TSLAB] [README]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tslab="${1:-$root/build/native/tslab}"
readme="${2:-$root/README.md}"
replace() {
    local marker="$1" table="$2"
    python3 - "$readme" "$marker" "$table" <<'PY'
import sys
path, marker, table = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path, encoding="utf-8").read()
begin, end = f"<!-- {marker}:begin -->\n", f"<!-- {marker}:end -->"
i, j = text.index(begin) + len(begin), text.index(end)
open(path, "w", encoding="utf-8").write(text[:i] + table.rstrip("\n") + "\n" + text[j:])
PY
}
replace accuracy "$("$tslab" accuracy --format table)"
replace accuracy-published "$("$tslab" accuracy --published --format table)"
