#!/usr/bin/env bash
# Rewrites the README's accuracy table (between the accuracy:begin/end markers) from
# `tslab accuracy --format table`. Usage: update_readme_table.sh [TSLAB] [README]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tslab="${1:-$root/build/native/tslab}"
readme="${2:-$root/README.md}"
table="$("$tslab" accuracy --format table)"
python3 - "$readme" "$table" <<'PY'
import sys
path, table = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
begin, end = "<!-- accuracy:begin -->\n", "<!-- accuracy:end -->"
i, j = text.index(begin) + len(begin), text.index(end)
open(path, "w", encoding="utf-8").write(text[:i] + table.rstrip("\n") + "\n" + text[j:])
PY
