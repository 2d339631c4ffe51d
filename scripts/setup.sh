#!/usr/bin/env bash
# Installs every Debian package sinkcheck builds, tests or fuzzes with. Idempotent: when all are
# present it changes nothing; otherwise it runs apt-get update once, then apt-get install -y.
#
#   setup.sh          everything (CI, development)
#   setup.sh --build  what configuring and building the whole tree with g++ needs (scripts/test.sh
#                     installs this first, and the rest while g++ compiles)
#   setup.sh --tool   only what building `sinkcheck` (the CLI and the conformance runner) needs:
#                     the GitHub Action (action.yml) installs this much
set -euo pipefail

# The CLI is built with the test tree (SINKCHECK_BUILD_TESTS), so GoogleTest and RapidCheck are
# among its build dependencies; the linked adapters need msgpack-cxx, libcbor and libbson, and
# the fuzz replay binaries built with the CLI clang's FuzzedDataProvider.h (libclang-rt-14-dev).
# The full set adds the subjects the tests grade: Python encoders, and Go's and Rust's standard
# sinks under the sink protocol (golang-go, rustc: examples/sink-protocol).
tool_packages=(
  cmake ninja-build g++ nlohmann-json3-dev librapidcheck-dev libgtest-dev
  libmsgpack-cxx-dev libcbor-dev libbson-dev pkg-config libclang-rt-14-dev
)
# The g++ build also compiles the benchmarks (Google Benchmark) through ccache, and its configure
# step looks for valgrind (the perf gate is skipped without it) and python3.
build_packages=(
  "${tool_packages[@]}"
  ccache git python3 valgrind libbenchmark-dev
)
packages=(
  "${build_packages[@]}"
  clang-14 llvm-14 lld-14 clang-format-14 clang-tidy-14 binutils
  python3-cbor2 python3-msgpack python3-ubjson python3-bjdata python3-bson python3-jsonschema python3-yaml
  zip unzip afl++ libfmt-dev libprotobuf-dev libabsl-dev
  golang-go rustc
)
case "${1:-}" in
  --tool) packages=("${tool_packages[@]}") ;;
  --build) packages=("${build_packages[@]}") ;;
  "") ;;
  *) echo "setup: unknown option '$1' (--build, --tool, or nothing)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update
"${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
