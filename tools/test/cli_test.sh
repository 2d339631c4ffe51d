#!/usr/bin/env bash
# CLI tests: drive the built `sinkcheck` binary and check exit codes, stdout and stderr.
#
# usage: cli_test.sh SINKCHECK SAMPLES_DIR GROUP
# Each GROUP is one CTest test (tools/CMakeLists.txt). Expected bytes are written by hand
# from the format specifications (RFC 8949, the MessagePack spec, ...), never taken from the tool.
set -u
bin=$1
samples=$2
group=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run CMD...: runs the tool, leaving stdout in $work/out, stderr in $work/err, status in $rc.
run() {
  "$bin" "$@" >"$work/out" 2>"$work/err"
  rc=$?
}

# run_in INPUT_FILE CMD...: the same with stdin from INPUT_FILE.
run_in() {
  local input=$1
  shift
  "$bin" "$@" <"$input" >"$work/out" 2>"$work/err"
  rc=$?
}

# expect_rc WANT WHAT: the last run exited with WANT.
expect_rc() {
  checks=$((checks + 1))
  if [ "$rc" != "$1" ]; then
    fail "$2: exit status $rc, want $1; stderr: $(head -c 400 "$work/err")"
  fi
}

# expect_in FILE TEXT WHAT: FILE ($work/out or $work/err) contains TEXT.
expect_in() {
  checks=$((checks + 1))
  if ! grep -qF -- "$2" "$1"; then
    fail "$3: $(basename "$1") lacks '$2'; it holds: $(head -c 400 "$1")"
  fi
}

expect_empty_stdout() {
  checks=$((checks + 1))
  if [ -s "$work/out" ]; then
    fail "$1: stdout holds $(wc -c <"$work/out") bytes, want none"
  fi
}

# expect_stdout TEXT WHAT: stdout is exactly TEXT (plus the newline a here-string adds).
expect_stdout() {
  checks=$((checks + 1))
  if ! diff -q <(printf '%s\n' "$1") "$work/out" >/dev/null; then
    fail "$2: stdout is '$(head -c 400 "$work/out")', want '$1'"
  fi
}

# expect_bytes HEX WHAT: stdout holds exactly these bytes.
expect_bytes() {
  checks=$((checks + 1))
  local got
  got=$(od -An -v -tx1 "$work/out" | tr -d ' \n')
  if [ "$got" != "$1" ]; then
    fail "$2: stdout bytes $got, want $1"
  fi
}

# bytes HEX FILE: writes the bytes HEX to FILE.
bytes() {
  local hex=$1 out=""
  while [ -n "$hex" ]; do
    out+="\\x${hex:0:2}"
    hex=${hex:2}
  done
  printf "$out" >"$2"
}

# the subcommands `sinkcheck --help` lists (every one must answer --help and refuse a bad option)
commands=$("$bin" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
# the ones whose options tools/arguments.cpp parses, whose messages these tests know (conform
# parses its own, in the conformance runner)
own_commands="encode decode check formats sinks corpus"
# every format, from format_table (scripts/lib/formats.py, which tools/CMakeLists.txt runs through
# SINKCHECK_FORMATS): the formats group checks that `sinkcheck formats` lists the same
formats=${SINKCHECK_FORMATS:?SINKCHECK_FORMATS names the formats (tools/CMakeLists.txt sets it)}

group_usage() {
  run
  expect_rc 2 "no command"
  expect_in "$work/err" "usage: sinkcheck COMMAND" "no command prints the usage"
  run bogus
  expect_rc 2 "unknown command"
  expect_in "$work/err" "unknown command 'bogus'" "unknown command"
  checks=$((checks + 1))
  [ "$(echo $commands)" != "" ] || fail "sinkcheck --help lists no commands"
  for c in $commands; do
    run "$c" --bogus
    expect_rc 2 "$c --bogus"
    expect_empty_stdout "$c --bogus"
  done
  for c in $own_commands; do
    run "$c" --bogus
    expect_in "$work/err" "unknown option '--bogus'" "$c --bogus"
    expect_in "$work/err" "usage: sinkcheck $c" "$c --bogus prints the usage"
  done
  echo '[1]' >"$work/one.json"
  run encode "$work/one.json"
  expect_rc 2 "encode without --to"
  expect_in "$work/err" "--to FORMAT is required" "encode without --to"
  run encode --to
  expect_rc 2 "--to without a value"
  expect_in "$work/err" "option '--to' needs a value" "--to without a value"
  run encode --to xml "$work/one.json"
  expect_rc 2 "unknown --to format"
  expect_in "$work/err" "unknown format 'xml'" "unknown --to format"
  run encode --to cbor --from yaml "$work/one.json"
  expect_rc 2 "unknown --from format"
  run encode --to cbor --hex=yes "$work/one.json"
  expect_rc 2 "value for a flag"
  for c in encode check; do
    run "$c" --to ubjson --use-type "$work/one.json"
    expect_rc 2 "$c --use-type without --use-size"
    expect_in "$work/err" "--use-type needs --use-size" "$c --use-type without --use-size"
    expect_empty_stdout "$c --use-type without --use-size"
  done
  run encode --to cbor --window 64 "$work/one.json"
  expect_rc 2 "--window without --sink"
  run encode --to cbor --sink bogus "$work/one.json"
  expect_rc 2 "unknown sink"
  expect_in "$work/err" "unknown sink 'bogus'" "unknown sink"
  run encode --to cbor --sink chunked --window 64 "$work/one.json"
  expect_rc 2 "--window on a sink without one"
  for w in 0 -1 abc 99999999999999999999; do
    run encode --to cbor --sink vector --window "$w" "$work/one.json"
    expect_rc 2 "--window $w"
  done
  run encode --to cbor "$work/one.json" "$work/one.json"
  expect_rc 2 "two FILE operands"
  run decode "$work/one.json"
  expect_rc 2 "decode without --from"
  run decode --from json --indent x "$work/one.json"
  expect_rc 2 "decode --indent x"
  run formats extra
  expect_rc 2 "formats with an operand"
  run sinks extra
  expect_rc 2 "sinks with an operand"
  run check --corrupt bogus "$work/one.json"
  expect_rc 2 "check --corrupt with an unknown sink"
  run encode --to cbor "$work/missing.json"
  expect_rc 2 "missing file"
  expect_in "$work/err" "missing.json: cannot open" "missing file"
  run encode --to cbor "$work"
  expect_rc 2 "a directory as FILE"
}

group_help() {
  for h in --help -h help; do
    run "$h"
    expect_rc 0 "sinkcheck $h"
    for c in $commands; do
      expect_in "$work/out" "  $c" "sinkcheck $h lists $c"
    done
  done
  for c in $commands; do
    for form in "$c --help" "$c -h" "help $c" "$c --to cbor --help"; do
      # shellcheck disable=SC2086
      run $form
      expect_rc 0 "$form"
      checks=$((checks + 1))
      if [ "$(head -n1 "$work/out" | cut -c1-$((17 + ${#c})))" != "usage: sinkcheck $c" ]; then
        fail "$form: stdout does not start with 'usage: sinkcheck $c'"
      fi
      checks=$((checks + 1))
      grep -qi "exit status" "$work/out" || fail "$form does not document the exit status"
      checks=$((checks + 1))
      [ -s "$work/err" ] && fail "$form: writes to stderr"
    done
  done
  run help bogus
  expect_rc 2 "help bogus"
  run --version
  expect_rc 0 "--version"
  expect_in "$work/out" "sinkcheck " "--version"
}

group_formats_and_sinks() {
  run formats
  expect_rc 0 formats
  expect_stdout "$(printf '%s\n' $formats)" formats
  run sinks
  expect_rc 0 sinks
  cp "$work/out" "$work/sinks"
  checks=$((checks + 1))
  [ "$(wc -l <"$work/sinks")" -ge 10 ] || fail "sinks lists $(wc -l <"$work/sinks") sinks, want at least 10"
  # every line: a name, then a description; every name works with --sink, with the same bytes
  echo '{"a":[1,2.5,"three",null,true],"b":{"$binary":"00ff"}}' >"$work/doc.json"
  run encode --to cbor "$work/doc.json"
  cp "$work/out" "$work/default.cbor"
  while read -r name description; do
    checks=$((checks + 1))
    [ -n "$description" ] || fail "sinks: '$name' has no description"
    windows="-"
    case "$description" in *"[windowed]"*) windows="1 7 unlimited" ;; esac
    for w in $windows; do
      if [ "$w" = "-" ]; then run encode --to cbor --sink "$name" "$work/doc.json"
      else run encode --to cbor --sink "$name" --window "$w" "$work/doc.json"; fi
      expect_rc 0 "encode --sink $name (window $w)"
      checks=$((checks + 1))
      if [ "$name" = counting ]; then
        [ "$(cat "$work/out")" = "$(wc -c <"$work/default.cbor")" ] || fail "--sink counting printed '$(cat "$work/out")'"
      elif ! cmp -s "$work/out" "$work/default.cbor"; then
        fail "encode --sink $name (window $w) writes other bytes than the default sink"
      fi
    done
  done <"$work/sinks"
}

group_errors() {
  # an encoder refusal: what() with category, id and JSON pointer, exit 1
  echo '[1]' >"$work/array.json"
  run encode --to bson "$work/array.json"
  expect_rc 1 "BSON of an array"
  expect_in "$work/err" "[sinkcheck.type_error.317]" "BSON of an array"
  expect_in "$work/err" "(at '')" "BSON of an array names the root"
  echo '{"a":[0,18446744073709551615]}' >"$work/big.json"
  for f in bson bon8; do
    run encode --to "$f" "$work/big.json"
    expect_rc 1 "$f of 2^64-1"
    expect_in "$work/err" "[sinkcheck.out_of_range.407]" "$f of 2^64-1"
    expect_in "$work/err" "(at '/a/1')" "$f of 2^64-1 names the pointer"
  done
  printf '{"a\\u0000b":1}' >"$work/nulkey.json"
  run encode --to bson "$work/nulkey.json"
  expect_rc 1 "BSON key with U+0000"
  expect_in "$work/err" "[sinkcheck.out_of_range.409]" "BSON key with U+0000"
  # CBOR input whose text string is not UTF-8: {"k": "\xff"} (RFC 8949 §3.1: a2.. map, 61 text)
  bytes a1616b61ff "$work/badutf8.cbor"
  for f in $formats; do
    run encode --from cbor --to "$f" "$work/badutf8.cbor"
    expect_rc 1 "$f of a string that is not UTF-8"
    expect_in "$work/err" ".316]" "$f of a string that is not UTF-8"
    expect_in "$work/err" "(at '/k')" "$f of a string that is not UTF-8 names the pointer"
  done
}

group_malformed() {
  printf '{\n  "a": [1, 2],\n  "b": tru\n}\n' >"$work/bad.json"
  run encode --to cbor "$work/bad.json"
  expect_rc 2 "malformed JSON file"
  checks=$((checks + 1))
  grep -q "^$work/bad.json:3:11: syntax error" "$work/err" || fail "malformed JSON: stderr '$(cat "$work/err")', want '$work/bad.json:3:11: syntax error ...'"
  expect_empty_stdout "malformed JSON file"
  run_in "$work/bad.json" decode --from json
  expect_rc 2 "malformed JSON on stdin"
  expect_in "$work/err" "<stdin>:3:11: " "malformed JSON on stdin is named <stdin>"
  # columns count characters: '2' is the 14th character, the 15th byte
  printf '{"\xc3\xa9": 1, "b" 2}' >"$work/utf8.json"
  run check "$work/utf8.json"
  expect_rc 2 "malformed JSON after a two-byte character"
  expect_in "$work/err" "utf8.json:1:14: " "column counted in characters"
  printf '' >"$work/empty.json"
  run encode --to cbor "$work/empty.json"
  expect_rc 2 "empty input"
  expect_in "$work/err" "empty.json:1:1: " "empty input"
  printf '[1] [2]' >"$work/two.json"
  run encode --to cbor "$work/two.json"
  expect_rc 2 "two JSON values"
  expect_in "$work/err" "two.json:1:5: " "two JSON values"

  # binary input: FILE: byte OFFSET (from 0): message
  bytes 8201 "$work/short.cbor"          # array of two, one element
  run decode --from cbor "$work/short.cbor"
  expect_rc 2 "truncated CBOR"
  expect_in "$work/err" "short.cbor: byte 2: " "truncated CBOR"
  bytes 820102ff "$work/long.cbor"       # a complete array, then one more byte
  run decode --from cbor "$work/long.cbor"
  expect_rc 2 "CBOR with trailing bytes"
  expect_in "$work/err" "long.cbor: byte 3: " "CBOR with trailing bytes"
  bytes 8261 "$work/short.bon8"          # array of two: "a" and no end
  run decode --from bon8 "$work/short.bon8"
  expect_rc 2 "truncated BON8"
  expect_in "$work/err" "short.bon8: byte " "truncated BON8"
  run_in "$work/short.cbor" encode --from cbor --to msgpack
  expect_rc 2 "truncated CBOR on stdin"
  expect_in "$work/err" "<stdin>: byte 2: " "truncated CBOR on stdin"
  # UBJSON: an array of 2^63-1 nulls in 13 bytes ([ $ Z # L count), refused, not attempted
  bytes 5b245a234c7fffffffffffffff "$work/bomb.ubj"
  run decode --from ubjson "$work/bomb.ubj"
  expect_rc 2 "UBJSON element-count bomb"
  # nesting: 100000 levels are accepted, 100001 refused
  printf '%*s' 100000 '' | tr ' ' '[' >"$work/deep.json"
  printf '%*s' 100000 '' | tr ' ' ']' >>"$work/deep.json"
  run encode --to cbor "$work/deep.json"
  expect_rc 0 "100000 levels of nesting"
  printf '[%s]' "$(cat "$work/deep.json")" >"$work/deeper.json"
  run encode --to cbor "$work/deeper.json"
  expect_rc 2 "100001 levels of nesting"
  expect_in "$work/err" "nesting deeper than 100000 levels" "100001 levels of nesting"
  python_free_cbor_depth "$work/deep.cbor" 200000
  run decode --from cbor "$work/deep.cbor"
  expect_rc 2 "CBOR nested 200000 levels"

  # no input crashes a decoder: pseudo-random bytes (fixed seed) in every format exit 0 or 2
  local i f status
  for f in $formats; do
    for i in $(seq 1 60); do
      LC_ALL=C awk -v seed="$i" -v f="$f" 'BEGIN { srand(seed * 7 + length(f)); n = int(rand() * 24);
        for (k = 0; k < n; k++) printf "%c", int(rand() * 256) }' >"$work/random.bin"
      "$bin" decode --from "$f" "$work/random.bin" >/dev/null 2>&1
      status=$?
      checks=$((checks + 1))
      case $status in 0 | 2) ;; *) fail "decode --from $f of random input $i exits $status (od: $(od -An -tx1 "$work/random.bin"))" ;; esac
    done
  done
}

# python_free_cbor_depth FILE N: N nested one-element CBOR arrays around 0 (81 ... 81 00).
python_free_cbor_depth() {
  { head -c "$2" /dev/zero | tr '\0' '\201'; printf '\0'; } >"$1"
}

group_binary_output() {
  # RFC 8949 §3: 85 = array(5); 00 0a 0d = 0, 10, 13; 18 1a = 26, 18 ff = 255 (one-byte argument)
  echo '[0, 10, 13, 26, 255]' >"$work/ctl.json"
  run encode --to cbor "$work/ctl.json"
  expect_rc 0 "encode to stdout"
  expect_bytes 85000a0d181a18ff "CBOR bytes 00 0a 0d 1a ff survive stdout"
  run encode --to cbor --hex "$work/ctl.json"
  expect_stdout 85000a0d181a18ff "--hex"
  run_in "$work/ctl.json" encode --to cbor
  expect_bytes 85000a0d181a18ff "JSON from stdin"
  # MessagePack spec: 81 fixmap(1), a1 61 fixstr "a", a3 0a 0d 00 fixstr of three bytes
  printf '{"a":"\\n\\r\\u0000"}' >"$work/ctl2.json"
  run encode --to msgpack "$work/ctl2.json"
  expect_bytes 81a161a30a0d00 "MessagePack bytes through stdout"
  cp "$work/out" "$work/ctl2.msgpack"
  run decode --from msgpack "$work/ctl2.msgpack"
  expect_stdout '{"a":"\n\r\u0000"}' "decode of the MessagePack bytes"
  # binary data with every byte value, through stdin and stdout
  local hex="" i
  for i in $(seq 0 255); do hex+=$(printf '%02x' "$i"); done
  echo "{\"\$binary\": \"$hex\"}" >"$work/all.json"
  run encode --to cbor "$work/all.json"
  # RFC 8949 §3: 59 = byte string with a two-byte length, 0100 = 256
  expect_bytes "590100$hex" "256 bytes of binary with every byte value"
  checks=$((checks + 1))
  [ "$(wc -c <"$work/out")" = 259 ] || fail "CBOR of 256 bytes of binary: $(wc -c <"$work/out") bytes, want 259"
  cp "$work/out" "$work/all.cbor"
  run_in "$work/all.cbor" encode --from cbor --to cbor
  checks=$((checks + 1))
  cmp -s "$work/out" "$work/all.cbor" || fail "CBOR -> CBOR through stdin and stdout changed the bytes"
}

group_no_output_on_failure() {
  echo '[1]' >"$work/array.json"
  run encode --to bson "$work/array.json"
  expect_rc 1 "BSON of an array"
  expect_empty_stdout "BSON of an array"
  # fails after the first member was written: {"a": 1, "b": "\xff"} (CBOR a2 61 61 01 61 62 61 ff)
  bytes a2616101616261ff "$work/late.cbor"
  local f sink
  for f in $formats; do
    for sink in "" "--sink vector --window 1" "--sink chunked" "--sink ostream" "--sink span" "--hex"; do
      # shellcheck disable=SC2086
      run encode --from cbor --to "$f" $sink "$work/late.cbor"
      expect_rc 1 "late failure in $f $sink"
      expect_empty_stdout "late failure in $f $sink"
    done
  done
  echo '[1, 2, 3, 18446744073709551615]' >"$work/late.json"
  run encode --to bon8 "$work/late.json"
  expect_rc 1 "BON8 of 2^64-1 after three elements"
  expect_empty_stdout "BON8 of 2^64-1 after three elements"
  printf '[1, 2,' >"$work/cut.json"
  run encode --to cbor "$work/cut.json"
  expect_rc 2 "truncated JSON"
  expect_empty_stdout "truncated JSON"
}

group_round_trip() {
  # every sample in every format: encode, decode, and compare with the sample's canonical text;
  # where a format cannot hold a value, the expectation says what it holds instead
  local s f name canon want got pattern
  for s in "$samples"/*.json; do
    name=$(basename "$s" .json)
    run decode --from json "$s"
    expect_rc 0 "decode --from json $name"
    canon=$(cat "$work/out")
    for f in $formats; do
      want=$canon
      pattern=""
      case "$name/$f" in
        scalars/bson | big_unsigned/bson)
          want="refused: [sinkcheck.type_error.317]" ;;  # BSON: a document at top level
        big_unsigned/bon8)
          want="refused: [sinkcheck.out_of_range.407]" ;;  # BON8: int64 at most
        binary/ubjson | binary/bjdata | binary/bon8)
          # no binary type: an array of the byte values (formats.md §4, §7.3)
          want='{"empty":[],"in_array":[[171],1,"x"],"plain":[0,255,10,13,26],"subtype_large":[1,2,3,4],"subtype_small":[202,254]}' ;;
        binary/bson)
          # BSON binary always has a subtype byte: 0x00 ("generic") when the value has none
          want='{"empty":{"$binary":"","$subtype":0},"in_array":[{"$binary":"ab","$subtype":0},1,"x"],"plain":{"$binary":"00ff0a0d1a","$subtype":0},"subtype_large":{"$binary":"01020304","$subtype":200},"subtype_small":{"$binary":"cafe","$subtype":5}}' ;;
        nonfinite/ubjson)
          # UBJSON Draft 12: NaN and infinities are written as null (ubjson-nonfinite-as-null)
          want='{"finite_bits":1.5,"inf":null,"looks_like_notation":{"$object":{"$float":"this object is data, not a number"}},"minus_inf":null,"nan":null}' ;;
        nonfinite/bon8)
          # BON8 rev. C: NaN as binary32 0x7f800001, which widens to a NaN of other bits
          want='{"finite_bits":1.5,"inf":{"$float":"inf"},"looks_like_notation":{"$object":{"$float":"this object is data, not a number"}},"minus_inf":{"$float":"-inf"},"nan":{"$float":"0x7ff?????????????"}}'
          pattern=$want ;;
      esac
      run encode --to "$f" "$s"
      if [ "$rc" = 1 ]; then
        got="refused: $(grep -o '^\[sinkcheck\.[a-z_]*\.[0-9]*\]' "$work/err")"
      else
        cp "$work/out" "$work/encoded"
        run decode --from "$f" "$work/encoded"
        got=$(cat "$work/out")
      fi
      checks=$((checks + 1))
      if [ -n "$pattern" ]; then
        # shellcheck disable=SC2053
        [[ "$got" == $pattern ]] || fail "$name via $f: got '$got', want '$want'"
      else
        [ "$got" = "$want" ] || fail "$name via $f: got '$got', want '$want'"
      fi
    done
  done
  # UBJSON and BJData with counts and types
  for f in ubjson bjdata; do
    run encode --to "$f" --use-size --use-type "$samples/typed_arrays.json"
    cp "$work/out" "$work/typed"
    run decode --from "$f" "$work/typed"
    got=$(cat "$work/out")
    run decode --from json "$samples/typed_arrays.json"
    checks=$((checks + 1))
    [ "$got" = "$(cat "$work/out")" ] || fail "typed_arrays via $f --use-size --use-type: got '$got'"
  done
}

group_notation() {
  # CBOR tag 5 over h'0102' (RFC 8949 §3.4; nlohmann writes the tag with a one-byte argument: d8 05)
  bytes d805420102 "$work/tagged.cbor"
  run decode --from cbor "$work/tagged.cbor"
  expect_stdout '{"$binary":"0102","$subtype":5}' "decode of a tagged byte string"
  cp "$work/out" "$work/tagged.json"
  run encode --to cbor "$work/tagged.json"
  expect_bytes d805420102 "the binary notation encodes back to the same CBOR"
  # MessagePack float 64 (cb) NaN with payload 1, and -Inf: their bits survive text
  bytes 92cb7ff8000000000001cbfff0000000000000 "$work/nan.msgpack"
  run decode --from msgpack "$work/nan.msgpack"
  expect_stdout '[{"$float":"0x7ff8000000000001"},{"$float":"-inf"}]' "decode of NaN with payload and -Inf"
  cp "$work/out" "$work/nan.json"
  run encode --to msgpack "$work/nan.json"
  expect_bytes 92cb7ff8000000000001cbfff0000000000000 "NaN payload round trip through text"
  # CBOR preferred NaN f97e00 (RFC 8949 §4.2.2) reads as the default NaN
  bytes f97e00 "$work/nan.cbor"
  run decode --from cbor "$work/nan.cbor"
  expect_stdout '{"$float":"nan"}' "decode of CBOR NaN"
  # a real object shaped like notation: CBOR a1 66 "$float" 61 "x"
  echo '{"$object": {"$float": "x"}}' >"$work/literal.json"
  run encode --to cbor "$work/literal.json"
  expect_bytes a16624666c6f61746178 "\$object makes an object of what looks like notation"
  cp "$work/out" "$work/literal.cbor"
  run decode --from cbor "$work/literal.cbor"
  expect_stdout '{"$object":{"$float":"x"}}' "decode wraps an object shaped like notation"
  # other keys: an ordinary object (81 a2 ...: keys "$binary" then "x")
  echo '{"$binary": "00", "x": 1}' >"$work/plain.json"
  run encode --to cbor "$work/plain.json"
  expect_bytes a2672462696e617279623030617801 "an object with more keys is data"
  run decode --from json --indent 2 "$work/tagged.json"
  expect_stdout "$(printf '{\n  "$binary": "0102",\n  "$subtype": 5\n}')" "--indent 2"
  # malformed notation: exit 2, naming the pointer
  local bad
  for bad in '{"v": {"$float": "nope"}}' '{"v": {"$binary": 12}}' '{"v": {"$binary": "0g"}}' \
    '{"v": {"$binary": "012"}}' '{"v": {"$binary": "00", "$subtype": -1}}' '{"v": {"$object": 1}}'; do
    echo "$bad" >"$work/bad.json"
    run encode --to cbor "$work/bad.json"
    expect_rc 2 "notation $bad"
    expect_in "$work/err" "bad.json: at '/v': " "notation $bad names the pointer"
    expect_empty_stdout "notation $bad"
  done
  # the forms the corpus export added: a string that is not UTF-8 prints as $string, and the
  # encoders refuse it; $members, $integer, a decimal $float and $discarded read
  bytes a1616b6268ff "$work/badstring.cbor"
  run decode --from cbor "$work/badstring.cbor"
  expect_rc 0 "decode of a string that is not UTF-8"
  expect_stdout '{"k":{"$string":"68ff"}}' "decode prints a string that is not UTF-8 as \$string"
  echo '[{"$members":[["b",1],["a",2]]},{"$integer":"-5"},{"$float":"2"},{"$discarded":true},{"$object":{"$members":0}}]' \
    >"$work/forms.json"
  run decode --from json "$work/forms.json"
  expect_rc 0 "decode of the export's notation forms"
  expect_stdout '[{"a":2,"b":1},-5,2.0,{"$discarded":true},{"$object":{"$members":0}}]' "the export's notation forms"
  # plain JSON skips the notation's reader (no key starts with '$'): each sample under "v" must
  # encode as it does under {"$object": ...}, which goes through the reader, in every format
  local sample format
  for sample in "$samples"/*.json; do
    printf '{"v": %s}' "$(cat "$sample")" >"$work/direct.json"
    printf '{"$object": {"v": %s}}' "$(cat "$sample")" >"$work/read.json"
    for format in $formats; do
      run encode --to "$format" "$work/read.json"
      local read_rc=$rc
      cp "$work/out" "$work/read.out"
      run encode --to "$format" "$work/direct.json"
      checks=$((checks + 1))
      if [ "$rc" != "$read_rc" ] || ! cmp -s "$work/out" "$work/read.out"; then
        fail "$(basename "$sample") to $format: exit $rc and $(wc -c <"$work/out") bytes without the notation's reader, exit $read_rc and $(wc -c <"$work/read.out") bytes with it"
      fi
    done
  done
}

group_corpus() {
  run corpus
  expect_rc 2 "corpus without export"
  expect_in "$work/err" "expected \`sinkcheck corpus export\`" "corpus without export"
  run corpus export --format json
  expect_rc 2 "corpus export --format json"
  run corpus export --corpus "$work/none"
  expect_rc 2 "corpus export of a missing corpus"
  expect_in "$work/err" "$work/none: no such corpus" "corpus export of a missing corpus names it"
  printf 'id: cbor/x\ninput: [1,\n' >"$work/cbor.vectors"
  run corpus export --corpus "$work/cbor.vectors"
  expect_rc 2 "corpus export of a malformed vector file"
  expect_in "$work/err" "cbor.vectors:2: " "corpus export names the malformed line"
  printf 'id: cbor/x\ninput: [1.0,"\\xff"]\nlevel: exact\nexpect: 82f93c0061ff\nrule: r\nsource: s\n' >"$work/cbor.vectors"
  run corpus export --json --corpus "$work/cbor.vectors" --output "$work/x.json"
  expect_rc 0 "corpus export --output"
  expect_in "$work/x.json" '"input":[{"$float":"1.0"},{"$string":"ff"}]' "the export's input notation"
  run corpus export --json --corpus "$work/cbor.vectors" --output "$work/no/such/dir/x.json"
  expect_rc 2 "corpus export to an unwritable place"
  expect_in "$work/err" "cannot write the export" "corpus export to an unwritable place"
  checks=$((checks + 1))
  [ ! -e "$work/no/such/dir/x.json.partial" ] || fail "a failed export left its partial file"
  run conform --format cbor --corpus "$work/x.json" --encoder linked:nlohmann
  expect_rc 1 "conform grades the export (nlohmann writes the bytes as they are)"
  expect_in "$work/out" "summary: pass 0, pass-equivalent 0, fail 1," "conform reads the export back"
}

group_check() {
  local s
  for s in "$samples"/*.json; do
    run check "$s"
    expect_rc 0 "check $(basename "$s")"
    expect_in "$work/out" " 0 failed" "check $(basename "$s") summary"
  done
  run check --to ubjson --to bjdata --use-size --use-type "$samples/typed_arrays.json"
  expect_rc 0 "check --use-size --use-type"
  run check --to cbor "$samples/document.json"
  local w
  for w in 1 7 64 4096 65536 unlimited; do
    expect_in "$work/out" "cbor     vector           $w " "check runs the vector sink with window $w"
  done
  expect_in "$work/out" "cbor     nlohmann 3.11.2" "check runs the oracle"
  expect_in "$work/out" "cbor     round trip" "check decodes the encoding"
  run check "$samples/nonfinite.json"
  expect_in "$work/out" "recorded divergence: ubjson-nonfinite-as-null" "check names a recorded divergence"
  # the checker must notice a sink that writes one byte too many
  run check --to msgpack --corrupt string "$samples/document.json"
  expect_rc 1 "check with a corrupted sink"
  checks=$((checks + 1))
  [ "$(grep -c 'FAIL' "$work/out")" = 6 ] || fail "check --corrupt string: $(grep -c FAIL "$work/out") failed rows, want 6 (one per window)"
  # binary input
  run encode --to cbor "$samples/document.json"
  cp "$work/out" "$work/document.cbor"
  run check --from cbor "$work/document.cbor"
  expect_rc 0 "check --from cbor"
}

case $group in
  usage | help | formats_and_sinks | errors | malformed | binary_output | no_output_on_failure | round_trip | notation | check | corpus)
    "group_$group" ;;
  *)
    echo "unknown group '$group'"
    exit 2 ;;
esac
echo "$group: $checks checks, $failures failed"
[ "$failures" = 0 ]
