#!/usr/bin/env bash
# Installs every Debian package sinkcheck builds, tests or fuzzes with. Idempotent: when all are
# present it changes nothing; otherwise it runs apt-get update once, then apt-get install -y.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang-14 libclang-rt-14-dev llvm-14 lld-14 clang-format-14 clang-tidy-14 binutils git
  nlohmann-json3-dev librapidcheck-dev libgtest-dev libbenchmark-dev
  libmsgpack-cxx-dev libcbor-dev libbson-dev pkg-config python3 python3-cbor2 python3-msgpack
  valgrind zip unzip afl++ ccache libfmt-dev
)

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
