#!/usr/bin/env bash
# format.sh — formats every tracked C++ file with clang-format 14 and the committed .clang-format.
#   bash scripts/format.sh           rewrite the files in place
#   bash scripts/format.sh --check   change nothing; list each file that differs, exit 1 if any
# Exit status: 0 formatted (or nothing to change), 1 files differ (--check), 2 usage error or
# clang-format-14 missing.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=fix
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "format: unknown option '$1' (use --check or nothing)" >&2; exit 2 ;;
esac

command -v clang-format-14 >/dev/null || { echo "format: clang-format-14 not found (bash scripts/setup.sh installs it)" >&2; exit 2; }

mapfile -t files < <(git ls-files '*.hpp' '*.cpp' '*.h' '*.cc')
if [ "$mode" = fix ]; then
  clang-format-14 -i "${files[@]}"
  echo "format: ${#files[@]} files formatted"
  exit 0
fi

differ=0
for f in "${files[@]}"; do
  if ! clang-format-14 "$f" | cmp -s - "$f"; then
    echo "format: $f differs from .clang-format (run: bash scripts/format.sh)"
    differ=$((differ + 1))
  fi
done
if [ "$differ" -ne 0 ]; then
  echo "format: $differ of ${#files[@]} files need formatting" >&2
  exit 1
fi
echo "format: all ${#files[@]} files match .clang-format"
