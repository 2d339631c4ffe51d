#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for sinkcheck.
#
# Builds every fuzz/fuzz_*.cpp the OSS-Fuzz way — $CXX $CXXFLAGS for compiling,
# $LIB_FUZZING_ENGINE for linking, so libFuzzer, AFL++, honggfuzz and centipede builds all work —
# and puts next to each binary in $OUT its seed corpus (<fuzzer>_seed_corpus.zip: the seeds and the
# regression inputs), dictionary (<fuzzer>.dict) and options (<fuzzer>.options). The library is
# header-only: no other build step is needed. run_tests.sh, next to this file, runs the unit
# tests and the regression replays afterwards. nlohmann_json 3.11.2 comes from the clone the
# Dockerfile makes ($SRC/nlohmann_json), or from $NLOHMANN_JSON_INCLUDE when set (the local
# simulation uses /usr/include).

src_root=${SINKCHECK_SRC:-$SRC/sinkcheck}
nlohmann_include=${NLOHMANN_JSON_INCLUDE:-$SRC/nlohmann_json/single_include}
if [ ! -f "$nlohmann_include/nlohmann/json.hpp" ]; then
  echo "build.sh: nlohmann/json.hpp not found under $nlohmann_include" >&2
  exit 1
fi

# SINKCHECK_FUZZ_TARGETS="fuzz_a fuzz_b" builds only those (default: every fuzz/fuzz_*.cpp)
targets=${SINKCHECK_FUZZ_TARGETS:-}
if [ -z "$targets" ]; then
  for src in "$src_root"/fuzz/fuzz_*.cpp; do
    targets="$targets $(basename "$src" .cpp)"
  done
fi

# a system include directory must not be named again: -isystem /usr/include would put it before
# libstdc++'s own headers and break their #include_next
nlohmann_flags=()
[ "$nlohmann_include" = /usr/include ] || nlohmann_flags=(-isystem "$nlohmann_include")

# libFuzzer gets feedback from sinkcheck's own code under test only, and the standard library's
# loops go without UBSan's checks (the lists say why: testkit/cmake/coverage-ignorelist.txt and
# ubsan-ignorelist.txt, fuzz/coverage-ignorelist.txt)
feedback_flags=(-fsanitize-ignorelist="$src_root/testkit/cmake/ubsan-ignorelist.txt")
[ "${FUZZING_ENGINE:-libfuzzer}" = libfuzzer ] &&
  feedback_flags+=(-fsanitize-coverage-ignorelist="$src_root/testkit/cmake/coverage-ignorelist.txt"
    -fsanitize-coverage-ignorelist="$src_root/fuzz/coverage-ignorelist.txt")

common_flags=(-std=c++17 -I"$src_root/reference/include" -I"$src_root/testkit/include" -I"$src_root/fuzz"
  -I"$src_root/conformance/runner/include" "${nlohmann_flags[@]}")

jobs=${SINKCHECK_BUILD_JOBS:-$(nproc)}
# in_parallel COMMAND...: runs COMMAND in the background, at most $jobs at a time; all_done waits
# for the rest (a failure shows as a missing binary below)
running=0
in_parallel() {
  "$@" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
}
all_done() {
  while [ "$running" -gt 0 ]; do
    wait -n || true
    running=$((running - 1))
  done
}

# compile NAME: the target's objects, listed in $WORK/NAME.objects
compile() {
  local name=$1 s o
  local sources=("$src_root/fuzz/$name.cpp")
  if [ "$name" = fuzz_vectors ]; then
    # the conformance runner's vector-file reader, compiled with the target's instrumentation
    sources+=("$src_root/conformance/runner/src/corpus.cpp" "$src_root/conformance/runner/src/value_text.cpp"
      "$src_root/conformance/runner/src/corpus_json.cpp" "$src_root/conformance/runner/src/value_json.cpp")
  fi
  rm -f "$WORK/$name.objects"
  : >"$WORK/$name.objects.part"
  for s in "${sources[@]}"; do
    o="$WORK/$name-$(basename "$s" .cpp).o"
    $CXX $CXXFLAGS "${feedback_flags[@]}" "${common_flags[@]}" -c "$s" -o "$o" || return 1
    echo "$o" >>"$WORK/$name.objects.part"
  done
  mv "$WORK/$name.objects.part" "$WORK/$name.objects"
}

for name in $targets; do
  [ -f "$src_root/fuzz/$name.cpp" ] || { echo "build.sh: no fuzz/$name.cpp" >&2; exit 1; }
  in_parallel compile "$name"
done
all_done

# What the targets share is compiled once, as the CMake build does, into an archive they link,
# and only when a target calls it: the differential targets' checks (fuzz/support/differential.cpp,
# the six fuzz_<format> targets), and the encoders over any sink (testkit/src/encode_any.cpp,
# sinkcheck/testkit/any_sink.hpp, which those checks and fuzz_sink call; fuzz_decode and
# fuzz_vectors do not, and it takes a minute to compile with every sanitizer).
support_archive="$WORK/libsinkcheck_fuzz_shared.a"
rm -f "$support_archive"
objects=()
for name in $targets; do
  [ -f "$WORK/$name.objects" ] && mapfile -t -O "${#objects[@]}" objects <"$WORK/$name.objects"
done
# shared SYMBOL SOURCE: compiles SOURCE into the archive when an object so far needs SYMBOL
shared() {
  local o
  o="$WORK/shared-$(basename "$2" .cpp).o"
  [ ${#objects[@]} -gt 0 ] && nm -u "${objects[@]}" 2>/dev/null | grep -q "$1" || return 0
  $CXX $CXXFLAGS "${feedback_flags[@]}" "${common_flags[@]}" -c "$src_root/$2" -o "$o" ||
    { echo "build.sh: $2 failed to build" >&2; exit 1; }
  ar rcs "$support_archive" "$o"
  objects+=("$o")
}
shared run_differential fuzz/support/differential.cpp
shared encode_through testkit/src/encode_any.cpp

# link NAME: the target's objects, the shared archive when built, the engine
link() {
  local name=$1
  local objects
  mapfile -t objects <"$WORK/$name.objects"
  [ -f "$support_archive" ] && objects+=("$support_archive")
  $CXX $CXXFLAGS "${objects[@]}" $LIB_FUZZING_ENGINE -o "$OUT/$name"
}
for name in $targets; do
  [ -f "$WORK/$name.objects" ] && in_parallel link "$name"
done
all_done

for name in $targets; do
  [ -x "$OUT/$name" ] || { echo "build.sh: $name failed to build" >&2; exit 1; }
  # the seed corpus is corpus/<target>/ and every regression input (corpus/regressions/<target>/,
  # READMEs aside, named regression-<file>), so that every engine starts from the bugs found
  seeds="$WORK/seeds-$name"
  rm -rf "$seeds" "$OUT/${name}_seed_corpus.zip"
  mkdir -p "$seeds"
  [ -d "$src_root/corpus/$name" ] && cp -R "$src_root/corpus/$name"/. "$seeds"/
  if [ -d "$src_root/corpus/regressions/$name" ]; then
    for input in "$src_root/corpus/regressions/$name"/*; do
      case "$(basename "$input")" in README*) continue ;; esac
      [ -f "$input" ] && cp "$input" "$seeds/regression-$(basename "$input")"
    done
  fi
  if [ -n "$(ls -A "$seeds")" ]; then
    (cd "$seeds" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
  fi
  for extra in dict options; do
    if [ -f "$src_root/fuzz/$name.$extra" ]; then
      cp "$src_root/fuzz/$name.$extra" "$OUT/$name.$extra"
    fi
  done
done
