#!/usr/bin/env bash
# action-build.sh — builds `sinkcheck` for the GitHub Action (action.yml): installs the build
# dependencies (scripts/setup.sh --tool; root or sudo), configures the source tree with the
# `plain` preset without benchmarks or the examples test, and builds the CLI alone.
#
#   action-build.sh BUILD_DIR       the program is then BUILD_DIR/tools/sinkcheck
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ne 1 ]; then
  echo "usage: action-build.sh BUILD_DIR" >&2
  exit 2
fi
build=$1
bash "$src/scripts/setup.sh" --tool
cmake --preset plain -S "$src" -B "$build" -DSINKCHECK_BUILD_BENCH=OFF -DSINKCHECK_TEST_EXAMPLES=OFF >/dev/null
cmake --build "$build" --target sinkcheck_cli
"$build/tools/sinkcheck" --version
