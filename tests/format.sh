#!/usr/bin/env bash
# The formatters' check: C++ (clang-format, .clang-format) and TypeScript / JS (prettier, .prettierrc.json).
# Usage: bash tests/format.sh [--fix]. Without --fix it changes nothing and fails on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t cpp < <(git ls-files '*.cpp' '*.hpp')
ts=("web/src/**/*.ts" "tests/**/*.ts" "tests/**/*.mjs" "*.ts" "*.mjs")
if [ "${1:-}" = "--fix" ]; then
    clang-format -i --style=file "${cpp[@]}"
    npx prettier --log-level warn --write "${ts[@]}"
    exit 0
fi
clang-format --dry-run --Werror --style=file "${cpp[@]}"
npx prettier --log-level warn --check "${ts[@]}"
echo "format: ${#cpp[@]} C++ files and the TypeScript sources are formatted"
