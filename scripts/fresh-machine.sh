#!/usr/bin/env bash
# fresh-machine.sh — the README's promise, checked as a new user would meet it: clones this
# repository's committed HEAD into an empty directory and runs, there, exactly the two commands
# the README gives under "On a fresh Debian 12 machine" (read from README.md, so the README
# cannot drift from what works).
#
# usage: scripts/fresh-machine.sh [--main-only] [--budget SECONDS] [--dir DIR] [--keep]
#   --main-only       run only the first command (the main job); CI does this, since CI itself
#                     is the second command
#   --budget SECONDS  fuzzing time per target for the main job (SINKCHECK_FUZZ_TIME; default 60)
#   --dir DIR         where to clone (must be empty or absent; default a new temporary directory)
#   --keep            keep the clone afterwards (default: removed when every command passed)
# Exit status: 0 every command passed, 1 a command failed, 2 usage error or README unreadable.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

main_only=0
budget=""
dir=""
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --main-only) main_only=1; shift ;;
    --budget) budget=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh-machine: unknown option '$1'" >&2; exit 2 ;;
  esac
done
case "$budget" in
  *[!0-9]*) echo "fresh-machine: --budget takes whole seconds, not '$budget'" >&2; exit 2 ;;
esac

# the indented command lines of the README's fresh-machine section, in order
mapfile -t commands < <(awk '
  /^## / { inside = ($0 ~ /^## On a fresh Debian 12 machine/); next }
  inside && /^    [^ ]/ { sub(/^    /, ""); print }' "$root/README.md")
if [ ${#commands[@]} -ne 2 ]; then
  echo "fresh-machine: README.md:'## On a fresh Debian 12 machine' should give exactly two indented commands, found ${#commands[@]}" >&2
  exit 2
fi

if [ -z "$dir" ]; then
  dir=$(mktemp -d /tmp/sinkcheck-fresh.XXXXXX)
elif [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
  echo "fresh-machine: $dir is not empty" >&2
  exit 2
fi
git clone --quiet "$root" "$dir"
echo "fresh-machine: cloned $(git -C "$dir" log --oneline -1) into $dir"

[ -n "$budget" ] && export SINKCHECK_FUZZ_TIME=$budget
run=("${commands[0]}")
[ "$main_only" = 1 ] || run+=("${commands[1]}")
for cmd in "${run[@]}"; do
  echo "fresh-machine: \$ $cmd"
  start=$SECONDS
  if ! (cd "$dir" && bash -c "$cmd"); then
    echo "fresh-machine: '$cmd' failed after $((SECONDS - start)) s (clone kept in $dir)" >&2
    exit 1
  fi
  echo "fresh-machine: '$cmd' passed in $((SECONDS - start)) s"
done
[ "$keep" = 1 ] || rm -rf "$dir"
echo "fresh-machine: all ${#run[@]} README command(s) passed"
