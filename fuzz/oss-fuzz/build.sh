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

# libFuzzer gets feedback from sinkcheck's own code only (fuzz/coverage-ignorelist.txt says why)
feedback_flags=()
[ "${FUZZING_ENGINE:-libfuzzer}" = libfuzzer ] &&
  feedback_flags=(-fsanitize-coverage-ignorelist="$src_root/fuzz/coverage-ignorelist.txt")

common_flags=(-std=c++17 -I"$src_root/reference/include" -I"$src_root/testkit/include" -I"$src_root/fuzz"
  -I"$src_root/conformance/runner/include" "${nlohmann_flags[@]}")

# run_sink (every sink x every format) is compiled once, as the CMake build does, into an archive
# that the targets running the sink catalogue link (those including the differential support or
# the registry; any other target that calls run_sink still compiles it itself, only slower)
uses_run_sink() {
  grep -qE '#include "(support/differential|support/sinks|sinkcheck/testkit/registry)\.hpp"' "$1"
}
run_sink_archive="$WORK/libsinkcheck_run_sink.a"
rm -f "$run_sink_archive"
for name in $targets; do
  if [ -f "$src_root/fuzz/$name.cpp" ] && uses_run_sink "$src_root/fuzz/$name.cpp"; then
    # one object per part of run_sink, as many as registry.hpp declares (run_sink_parts)
    parts=$(sed -n 's/.*constexpr std::size_t run_sink_parts = \([0-9]*\);.*/\1/p' \
      "$src_root/testkit/include/sinkcheck/testkit/registry.hpp")
    [ -n "$parts" ] || { echo "build.sh: no run_sink_parts in testkit/include/sinkcheck/testkit/registry.hpp" >&2; exit 1; }
    # side by side, in a subshell of their own so that the targets' job count below sees none of them
    (
      for ((part = 0; part < parts; ++part)); do
        sed "s/@part@/$part/g" "$src_root/testkit/src/run_sink_part.cpp.in" >"$WORK/run_sink_part_$part.cpp"
        $CXX $CXXFLAGS "${feedback_flags[@]}" "${common_flags[@]}" -c "$WORK/run_sink_part_$part.cpp" \
          -o "$WORK/run_sink_part_$part.o" &
      done
      wait
    ) || true
    for ((part = 0; part < parts; ++part)); do
      [ -f "$WORK/run_sink_part_$part.o" ] || { echo "build.sh: run_sink part $part failed to build" >&2; exit 1; }
      ar rcs "$run_sink_archive" "$WORK/run_sink_part_$part.o"
    done
    break
  fi
done

jobs=${SINKCHECK_BUILD_JOBS:-$(nproc)}
running=0
for name in $targets; do
  src="$src_root/fuzz/$name.cpp"
  [ -f "$src" ] || { echo "build.sh: no fuzz/$name.cpp" >&2; exit 1; }
  sources=("$src")
  run_sink=()
  if uses_run_sink "$src"; then
    run_sink=(-DSINKCHECK_PREBUILT_RUN_SINK=1)
  fi
  if [ "$name" = fuzz_vectors ]; then
    # the conformance runner's vector-file reader, compiled with the target's instrumentation
    sources+=("$src_root/conformance/runner/src/corpus.cpp" "$src_root/conformance/runner/src/value_text.cpp"
      "$src_root/conformance/runner/src/corpus_json.cpp" "$src_root/conformance/runner/src/value_json.cpp")
  fi
  (
    objects=()
    for s in "${sources[@]}"; do
      o="$WORK/$name-$(basename "$s" .cpp).o"
      $CXX $CXXFLAGS "${feedback_flags[@]}" "${common_flags[@]}" "${run_sink[@]}" -c "$s" -o "$o"
      objects+=("$o")
    done
    [ ${#run_sink[@]} -eq 0 ] || objects+=("$run_sink_archive")
    $CXX $CXXFLAGS "${objects[@]}" $LIB_FUZZING_ENGINE -o "$OUT/$name"
  ) &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n
  running=$((running - 1))
done

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
