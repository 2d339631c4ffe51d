#!/usr/bin/env bash
# Regenerates docs/conformance-results.md: every encoder of conformance/adapters/encoders.txt
# graded against the conformance corpus: the reference, and linked in nlohmann_json 3.11.2,
# msgpack-cxx 4.1.3, libcbor 0.8 and libbson 1.23; in batch mode, the Debian Python packages
# cbor2, msgpack, ubjson, bjdata and bson (conformance/adapters/python/), the npm packages
# cbor-x, cbor, msgpackr, @msgpack/msgpack and bson (conformance/adapters/node/), and the Go,
# Perl, Ruby and Qt encoders of Debian packages (conformance/adapters/{go,perl,ruby,qt}/).
#
#   bash scripts/conformance-results.sh [BUILD_DIR]     (default build/gcc)
#
# Builds `sinkcheck` and `sinkcheck-encoder` in BUILD_DIR if needed, installs the npm packages
# at the versions conformance/adapters/node/package-lock.json pins into BUILD_DIR/node-encoders
# (`npm ci`: needs the npm registry; nothing else installs them), runs every encoder at its
# level with JSON reports into BUILD_DIR/conformance-results/, and writes the document from
# them. What an encoder declares unsupported, with the reason, is in
# conformance/adapters/declared/NAME.txt (README.md there): those vectors are its run's
# expected-failures list; an unsupported vector not declared there fails the run. It stops
# with an error when an encoder graded no vector at all (a library that did not load declares
# everything unsupported), when a new encoder fails a vector that no finding below explains,
# when a declared vector was graded after all, or on a difference class that
# scripts/lib/difference_classes.py does not explain. It also writes docs/conformance-results.html, the matrix of every vector and
# encoder on one self-contained page, after headless Chromium (Debian's `chromium`, installed
# by this script if missing) has rendered every row of it. Both documents hold no timings, so a
# rerun on the same corpus and packages reproduces them byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${1:-build/gcc}
python=/usr/bin/python3

source scripts/lib/encoders.sh
build_encoders "$root" "$build"
tool="$build/tools/sinkcheck"
out="$build/conformance-results"
rm -rf "$out"
mkdir -p "$out"
node_dir=$(install_node_encoders "$root" "$build")
install_debian_encoders "$root" "$build"
read_encoders "$root" "$build" "$python" "$node_dir"
mkdir -p "$out/declared"
for run in "${runs[@]}"; do
  IFS='|' read -r name formats level encoder mode <<<"$run"
  for f in $formats; do
    echo "== $name $f ($level)" >&2
    mode_options "$mode" "$encoder"
    declared_unsupported "$root" "$python" "$name" "$f" "$out/declared"
    # Exit status 1 (does not conform) is the expected outcome for most of these.
    status=0
    "$tool" conform --format "$f" --level "$level" "${mode_option[@]}" --jobs 2 --encoder "$encoder" \
      "${declared_list_option[@]}" --report json --output "$out/$name.$f.json" || status=$?
    if [ "$status" -gt 1 ]; then
      [ ${#declared_list_option[@]} -gt 0 ] &&
        echo "conformance-results: ${declared_list_option[1]} is conformance/adapters/declared/$name.txt line for line" >&2
      exit "$status"
    fi
  done
done

PYTHONPATH="$root/scripts/lib" "$python" - "$out" "$root/docs/conformance-results.md" "$out/conformance-results.html" \
  "$root/conformance/adapters/encoders.txt" "$root" <<'PY'
import fnmatch
import html
import json
import os
import re
import sys

from difference_classes import explain
import formats
from encoders_table import read_declared, read_table

out_dir, doc_path, html_path, table_path, ROOT = sys.argv[1:6]

TABLE = read_table(table_path)
ENCODERS = [(row["name"], row["title"], row["how"]) for row in TABLE]
DECLARED = {row["name"]: read_declared(table_path, row) for row in TABLE}

# The encoders graded with findings: every vector one of them fails must match one finding
# (fnmatch globs on the vector id), and each finding's minimal vector must still fail, so the
# findings cannot go stale or leave a failure unexplained.
NOTES = {
    "libbson": "Graded at the exact level: linked, it gets the value in nlohmann's model (keys sorted, integers "
    "beyond 64 bits already doubles), and the adapter makes the caller's choices the reference makes (int32 when "
    "the integer fits, else int64). It writes the reference's bytes for everything it writes.",
    "py-ubjson": "Graded at the equivalent level: py-ubjson legitimately writes other bytes for equal values — "
    "`U` for 0..255 where nlohmann writes `i` for 0..127 (UBJSON Draft 12: both fit), -0.0 as float32 `d` (exact), "
    "bytes always as a `[$U#` typed array, integers beyond 64 bits as high-precision `H` (Draft 12 allows it), keys "
    "in insertion order (Draft 12 has no order). NaN and infinities are `Z` as Draft 12 asks. The runner classes "
    "marker differences as `other`. No failure.",
    "pybj": "Graded at the equivalent level, for the same choices as py-ubjson (pybj is its fork). Its failures are "
    "one root cause: pybj 0.2.6 writes BJData Draft 1.",
    "pymongo-bson": "Graded at the equivalent level: keys in insertion order (BSON has no order; the runner "
    "classes the four key-order vectors as `integer width` because the first differing byte is an element's type). "
    "Everything else is the reference's bytes.",
    "cbor-x": "Graded at the equivalent level: cbor-x writes a float as float32 when that is exact and float64 "
    "otherwise (never half), and a BigInt in 64 bits always with an 8-byte head. Whole doubles other than -0 are "
    "declared unsupported: a JavaScript number does not tell 1.0 from 1 and cbor-x has no float type.",
    "node-cbor": "Graded at the equivalent level: node-cbor writes floats as float32 when exact and uses half only "
    "for the special values; BigInts (integers beyond 2^53) as bignums, also those that fit major type 0/1, which "
    "RFC 8949 §3.4.3 would write as the integer (its `collapseBigIntegers` option, off by default) and which are the "
    "same number (pass-equivalent). Whole doubles other than -0 are declared "
    "unsupported (a JavaScript number does not tell 1.0 from 1).",
    "msgpackr": "Graded at the equivalent level: floats always float64, BigInts as 64-bit integers (8-byte form). "
    "Whole doubles other than -0 are declared unsupported (a JavaScript number does not tell 1.0 from 1).",
    "msgpack-javascript": "Graded at the equivalent level: floats always float64, BigInts (useBigInt64) as 64-bit "
    "integers. Whole doubles other than -0 are declared unsupported (a JavaScript number does not tell 1.0 from 1).",
    "js-bson": "Graded at the equivalent level: keys in JavaScript's property order (integer-like keys first), "
    "integers beyond int32 as BigInt (int64), floats as bson.Double. Everything else is the reference's bytes.",
    "fxamacker-cbor": "Graded at the equivalent level: floats always binary64 (ShortestFloatNone), NaN as `f97e00` "
    "and infinities as half (its NaNConvert/InfConvert defaults), keys sorted bytewise (the adapter's one setting: a "
    "Go map iterates in random order), tags 0..23 with the one-byte head, integers beyond 64 bits as bignums. "
    "Discarded values are declared unsupported (Go has none).",
    "fxamacker-cbor-core": "Graded at the canonical level: CoreDetEncOptions writes RFC 8949 §4.2.1 core "
    "deterministic CBOR and meets every canonical vector; only the text that is not UTF-8 fails.",
    "ugorji-codec": "Graded at the equivalent level: floats always 64-bit (CBOR `fb`, MessagePack `cb`), maps in "
    "the vector's order (MapBySlice), tags 0..23 with the one-byte head. Integers beyond 64 bits (no big integer "
    "in the library) and discarded values (none in Go) are declared unsupported.",
    "cbor-xs": "Graded at the equivalent level: a number with only a double slot is written as an integer when "
    "its value is whole and fits 32 bits, else as binary32 when exact, else binary64; maps through "
    "CBOR::XS::as_map in the vector's order; max_depth 512 by default. Strings that are no sequence of code points "
    "(no Perl text string holds them) and discarded values are declared unsupported.",
    "data-messagepack": "Graded at the equivalent level: floats always float 64, keys sorted (canonical). "
    "Data::MessagePack 1.02 writes every string as str (utf8 mode) or every one as bin, and has no ext type: "
    "binary values are declared unsupported, as are strings that are no sequence of code points and discarded "
    "values.",
    "ruby-msgpack": "Graded at the equivalent level: floats always float 64, Hashes in insertion order (the "
    "vector's), binary as bin and subtypes as ext. Discarded values are declared unsupported (Ruby has none).",
    "qt-cbor": "Graded at the equivalent level: append(double) always writes binary64 (`fb`; a narrower float is "
    "the caller's choice, append(float) or append(qfloat16)), append(QCborTag) writes tags 0..23 with the one-byte "
    "head (RFC 8949 §4.1 preferred), maps in the vector's order (startMap(n) writes what it is given), integers beyond "
    "64 bits as bignums through append(QCborKnownTags) (the writer has no call for them); -2^64 through "
    "QCborNegativeInteger(0) and every integer of qint64, quint64 and QCborNegativeInteger's range come out as "
    "RFC 8949 §3.1 asks. Discarded values (Qt has none) and text that is no sequence of code points (no QString "
    "holds it) are declared unsupported.",
}

FINDINGS = {
    "libbson": [
        ("text that is not UTF-8 is written", ["bson/refuse/invalid-utf8-*"], "bson/refuse/invalid-utf8-string",
         "Not a library bug: bson_append_utf8 requires valid UTF-8 of its caller and does not check (libbson offers "
         "bson_utf8_validate); the bytes break bsonspec.org's `string` (UTF-8) and `e_name` rules."),
    ],
    "py-ubjson": [],
    "pybj": [
        ("every multi-byte number big-endian", ["bjdata/int/*", "bjdata/float/*", "bjdata/string/*", "bjdata/binary/*",
                                                "bjdata/array/*", "bjdata/object/*"], "bjdata/int/256",
         "Legitimate for the draft it implements, wrong for the one graded: pybj 0.2.6 writes BJData Draft 1, "
         "where numbers are big-endian; Draft 2 (nlohmann 3.11.2, this corpus) made them little-endian "
         "(NeuroJSON/bjdata ChangeLog, 2022-01-30, \"Breaking\"). Integers beyond int8/uint8, every float, and "
         "lengths and counts from 256 up read back as other values or do not decode."),
        ("JData ND-array annotations written as objects", ["bjdata/ndarray/*", "bjdata/ndarray-divergent/*"],
         "bjdata/ndarray/int8-3",
         "Legitimate: an object with `_ArrayType_`, `_ArraySize_`, `_ArrayData_` is the JData annotation that "
         "nlohmann 3.11.2's to_bjdata turns into an optimized N-D array; pybj writes ND-arrays only from numpy "
         "arrays and writes this object as the object it is."),
    ],
    "pymongo-bson": [
        ("integers beyond 64 bits refused", ["bson/bigint/*"], "bson/bigint/-9223372036854775809",
         "Legitimate: BSON has int32 and int64 only (bsonspec.org); pymongo raises OverflowError where nlohmann's "
         "model holds the nearest double."),
    ],
    "cbor-x": [
        ("-0.0 written as the integer 0", ["cbor/float/-0.0", "cbor/rfc8949-a/-0.0"], "cbor/float/-0.0",
         "Bug: -0 is a float apart from 0 in JavaScript (Object.is) and in CBOR (RFC 8949 §3.3; Appendix A: "
         "`f98000`); cbor-x's integer test accepts -0 and writes `00`, losing the sign and the type."),
        ("tag numbers truncated to 32 bits", ["cbor/binary/subtype-4294967296"], "cbor/binary/subtype-4294967296",
         "Bug: tag 2^32 is written as tag 0 (`da00000000`); RFC 8949 §3.4 tag numbers take the full 64-bit "
         "argument of §3."),
        ("a lone surrogate written as ED xx xx", ["cbor/refuse/invalid-utf8-surrogate"],
         "cbor/refuse/invalid-utf8-surrogate",
         "Bug: the bytes `eda080` are not UTF-8 (RFC 3629 §3 excludes surrogates), and a text string must be "
         "(RFC 8949 §3.1 major type 3). cbor-x's own UTF-8 writer passes the code unit through."),
    ],
    "node-cbor": [
        ("tag numbers from 2^32-1 up refused", ["cbor/binary/subtype-4294967295", "cbor/binary/subtype-4294967296",
                                                "cbor/binary/subtype-18446744073709551615"],
         "cbor/binary/subtype-4294967295",
         "Bug: `Tagged` refuses tag 4294967295 and above (and a BigInt tag) although RFC 8949 §3.4 tag numbers "
         "take the full 64-bit argument of §3."),
        ("output cut at 16 KiB", ["cbor/array/count-*", "cbor/map/count-*"], "cbor/array/count-32767",
         "Bug (known: hildjj/node-cbor issue 170, open; the README's `highWaterMark` section): cbor.encode() "
         "returns what its stream buffered, at most 16,384 bytes plus the last write, when a value is written in "
         "many pieces. The output ends early and does not decode; nothing is thrown."),
        ("a lone surrogate written as U+FFFD", ["cbor/refuse/invalid-utf8-surrogate"],
         "cbor/refuse/invalid-utf8-surrogate",
         "Legitimate but lossy: Node's UTF-8 conversion replaces a lone surrogate with U+FFFD (`efbfbd`), valid "
         "UTF-8 of another string, where the corpus wants a refusal."),
    ],
    "msgpackr": [
        ("integers beyond 64 bits refused", ["msgpack/bigint/*"], "msgpack/bigint/-9223372036854775809",
         "Legitimate: MessagePack integers end at 64 bits; msgpackr throws a RangeError naming its options "
         "(largeBigIntToFloat, useBigIntExtension) where nlohmann's model holds the nearest double."),
        ("-0.0 written as the integer 0", ["msgpack/float/-0.0"], "msgpack/float/-0.0",
         "Bug: -0 is a float (MessagePack spec float format family, IEEE 754); msgpackr's integer test accepts it "
         "and writes `00`, losing the sign and the type."),
        ("ext type 0 refused", ["msgpack/binary/subtype-0"], "msgpack/binary/subtype-0",
         "Bug: addExtension rejects type 0 (\"Extension has no type\", a falsy test) although 0..127 are the "
         "application's ext types (MessagePack spec, ext format family)."),
        ("a map of 65,536 members refused", ["msgpack/map/count-65536"], "msgpack/map/count-65536",
         "Legitimate default, documented: without `variableMapSize` msgpackr writes map 16 only and throws beyond "
         "it; the value is valid (map 32)."),
        ("a lone surrogate written as U+FFFD", ["msgpack/refuse/invalid-utf8-surrogate"],
         "msgpack/refuse/invalid-utf8-surrogate",
         "Legitimate but lossy: Node's UTF-8 conversion replaces it with U+FFFD where the corpus wants a refusal."),
        ("ext types beyond int8 truncated", ["msgpack/refuse/subtype-*"], "msgpack/refuse/subtype-256",
         "Bug: the ext type is a signed 8-bit integer (MessagePack spec, ext format family); msgpackr writes the "
         "low byte of 256 (type 0) instead of refusing."),
    ],
    "msgpack-javascript": [
        ("integers beyond 64 bits wrapped", ["msgpack/bigint/*"], "msgpack/bigint/-9223372036854775809",
         "Bug: with useBigInt64 a BigInt outside int64/uint64 is written modulo 2^64 (-2^63-1 becomes +2^63-1), "
         "a different integer, silently; MessagePack integers end at 64 bits, so it must throw."),
        ("-0.0 written as the integer 0", ["msgpack/float/-0.0"], "msgpack/float/-0.0",
         "Bug: -0 is a float (MessagePack spec float format family); the integer test accepts it and writes `00`."),
        ("nesting beyond 100 refused", ["msgpack/array/depth-1000", "msgpack/map/depth-100"],
         "msgpack/map/depth-100",
         "Legitimate default, documented: `maxDepth` is 100; the value is valid."),
        ("a lone surrogate written as ED xx xx", ["msgpack/refuse/invalid-utf8-surrogate"],
         "msgpack/refuse/invalid-utf8-surrogate",
         "Bug: `edb080` is not UTF-8 (RFC 3629 §3), and str is UTF-8 (MessagePack spec, str format family); the "
         "library's own UTF-8 writer passes the code unit through."),
        ("ext types beyond int8 truncated", ["msgpack/refuse/subtype-*"], "msgpack/refuse/subtype-256",
         "Bug: ExtData's type is written as its low byte (256 becomes 0) instead of refused; the ext type is a "
         "signed 8-bit integer (MessagePack spec, ext format family)."),
    ],
    "js-bson": [
        ("integers beyond int64 wrapped", ["bson/refuse/uint-*", "bson/bigint/*"],
         "bson/refuse/uint-9223372036854775808",
         "Bug: a BigInt outside int64 is written modulo 2^64 (2^63 becomes -2^63), silently; bsonspec.org int64 "
         "is a signed 64-bit integer, so it must throw as it does for other values it cannot hold."),
        ("null serialized as an empty document", ["bson/refuse/top-null"], "bson/refuse/top-null",
         "Bug: serialize(null) writes `{}` (`0500000000`) where a document is required (bsonspec.org `document`); "
         "an integer, a string or an array at the top is refused."),
        ("binary subtypes beyond 255 truncated", ["bson/refuse/subtype-*"], "bson/refuse/subtype-256",
         "Bug: bson.Binary takes subtype 256 and writes its low byte (0); the subtype is one byte (bsonspec.org "
         "`binary ::= int32 subtype (byte*)`)."),
    ],
    "fxamacker-cbor": [
        ("text that is not UTF-8 is written", ["cbor/refuse/invalid-utf8-*"], "cbor/refuse/invalid-utf8-string",
         "Bug: a Go string may hold any bytes and the encoder writes them as a text string unchecked; RFC 8949 §3.1 "
         "requires a text string to be UTF-8 (RFC 3629 §3 excludes overlongs and surrogates), so the output is invalid "
         "CBOR (§5.3.1). fxamacker/cbor's own decoder rejects these bytes; ugorji checks only when decoding with "
         "ValidateUnicode."),
    ],
    "fxamacker-cbor-core": [
        ("text that is not UTF-8 is written", ["cbor/refuse/invalid-utf8-*"], "cbor/refuse/invalid-utf8-string",
         "Bug, as with fxamacker's default options: the bytes are written unchecked as a text string (RFC 8949 §3.1)."),
    ],
    "ugorji-codec": [
        ("text that is not UTF-8 is written", ["cbor/refuse/invalid-utf8-*", "msgpack/refuse/invalid-utf8-*"],
         "cbor/refuse/invalid-utf8-string",
         "Bug: a Go string's bytes are written as a text string (CBOR, RFC 8949 §3.1) or str (MessagePack spec, str "
         "format family: UTF-8) without a check; the output is invalid."),
        ("ext types beyond 255 truncated to 8 bits", ["msgpack/refuse/subtype-*"], "msgpack/refuse/subtype-256",
         "Bug: RawExt.Tag is a uint64 and EncodeRawExt writes uint8(Tag), so type 256 silently becomes ext type 0 "
         "(`d5000102`), another value; the MessagePack spec's ext type is one signed byte, and a type that does not "
         "fit must be refused."),
    ],
    "cbor-xs": [
        ("-0.0 written as the integer 0", ["cbor/float/-0.0", "cbor/rfc8949-a/-0.0"], "cbor/float/-0.0",
         "Bug: -0.0 is a float apart from 0 (RFC 8949 §3.3; Appendix A: `f98000`); CBOR::XS's test for a whole "
         "number accepts it and writes `00`, losing the sign and the type."),
        ("whole doubles written as integers", ["cbor/float/*", "cbor/rfc8949-a/*.0"], "cbor/float/1.0",
         "Legitimate, documented choice, lossy for the type: Perl has one number type and CBOR::XS writes a value "
         "that seems to be an integer in the shortest form (its MAPPING section), here a double whose value is whole "
         "and fits 32 bits (1.0 as `01`; 4294967296.0 stays a float). A reader gets an integer, not the float."),
        ("negative bignums written with wrong bytes", ["cbor/bigint/-*", "cbor/rfc8949-a/-1844674407370955161*"],
         "cbor/bigint/-9223372036854775809",
         "Bug: Math::BigInt::TO_CBOR writes tag 3 over `substr(as_hex, 2)` of the negative number, which keeps the "
         "`x` of `-0x...` (packed as a digit) and is not -1-n: -2^63-1 becomes `c349018000000000000001`, another "
         "integer; RFC 8949 §3.4.3 asks for tag 3 over -1-n = 2^63 (`c3488000000000000000`), and preferred "
         "serialization for `3b8000000000000000`."),
        ("nesting beyond 512 refused", ["cbor/array/depth-1000"], "cbor/array/depth-1000",
         "Legitimate, documented default: max_depth is 512 (`max_depth` raises it); the value is valid."),
        ("a surrogate written as ED A0 80", ["cbor/refuse/invalid-utf8-surrogate"],
         "cbor/refuse/invalid-utf8-surrogate",
         "Bug: a Perl string may hold the code point U+D800 and CBOR::XS writes its internal encoding `eda080` as "
         "a text string unchecked; RFC 3629 §3 excludes surrogates and RFC 8949 §3.1 requires UTF-8."),
    ],
    "data-messagepack": [
        ("integers beyond 64 bits refused", ["msgpack/bigint/*"], "msgpack/bigint/18446744073709551616",
         "Legitimate: MessagePack has no integer beyond 64 bits; Data::MessagePack refuses the Math::BigInt "
         "(\"encountered object\") where nlohmann's model holds the nearest double."),
        ("nesting beyond 512 refused", ["msgpack/array/depth-1000"], "msgpack/array/depth-1000",
         "Legitimate, documented default: pack's max_depth is 512; the value is valid."),
        ("a surrogate written as ED B0 80", ["msgpack/refuse/invalid-utf8-surrogate"],
         "msgpack/refuse/invalid-utf8-surrogate",
         "Bug: a Perl string may hold the code point U+DC00 and its internal encoding `edb080` is written as str "
         "unchecked; the MessagePack spec's str holds UTF-8, which excludes surrogates (RFC 3629 §3)."),
    ],
    "qt-cbor": [
        ("a lone surrogate written as `?`", ["cbor/refuse/invalid-utf8-surrogate"],
         "cbor/refuse/invalid-utf8-surrogate",
         "Legitimate but lossy, and silent: a QString can hold the unpaired surrogate U+D800 (one UTF-16 unit), and "
         "append(QStringView) converts it to UTF-8 with Qt 5's converter, which writes `?` (`613f`, valid UTF-8 of "
         "another string) where the corpus wants a refusal; the writer has no error path (Unicode §3.9 recommends "
         "U+FFFD as the replacement, node-cbor's choice)."),
    ],
    "ruby-msgpack": [
        ("integers beyond 64 bits refused", ["msgpack/bigint/*"], "msgpack/bigint/18446744073709551616",
         "Legitimate: MessagePack has no integer beyond 64 bits; msgpack raises RangeError where nlohmann's model "
         "holds the nearest double."),
        ("text that is not UTF-8 is written", ["msgpack/refuse/invalid-utf8-*"], "msgpack/refuse/invalid-utf8-string",
         "Bug: a String tagged UTF-8 whose bytes are not (valid_encoding? is false) is written as str unchecked; "
         "the MessagePack spec's str holds UTF-8."),
    ],
}
FORMATS = [row["name"] for row in formats.rows(ROOT)]  # format_table
RESULTS = ["pass", "pass-equivalent", "fail", "refused-correctly", "crash", "timeout", "unsupported", "harness-error"]



def load(name, fmt):
    path = os.path.join(out_dir, "%s.%s.json" % (name, fmt))
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


lines = []
w = lines.append
w("# Conformance results of third-party encoders")
w("")
w("Generated by `bash scripts/conformance-results.sh` from the corpus in `corpus/conformance/` (do not")
w("edit by hand). Every encoder ran at the level shown with the Debian 12 packages or npm versions named;")
w("the protocol, the levels and the result classes are in [conformance.md](conformance.md). An encoder")
w("only *conforms* at the exact level when it is byte-identical to the reference profile (nlohmann")
w("3.11.2 + BON8 + the recorded divergences); for third-party encoders the useful reading is the")
w("pass-equivalent column (a different but equal encoding) against the fail column (a different value,")
w("or no value).")
w("Every vector's result for every encoder, on one page: [conformance-results.html](conformance-results.html).")
w("")
w("| encoder | how it is driven |")
w("|---|---|")
for key, title, how in ENCODERS:
    w("| %s | %s |" % (title, how))
w("")
w("## Counts per encoder and format")
w("")
w("*conforms* is the runner's verdict. A fail that the encoder's own declaration explains (a linked")
w("encoder's `declared`: writes_invalid_utf8, whole_floats_as_integers; docs/conformance.md, \"Declared")
w("behaviour\") is counted under fail and is an expected failure, which does not stop it.")
w("")
w("| encoder | format | level | vectors | " + " | ".join(RESULTS) + " | conforms |")
w("|---|---|---|---:|" + "---:|" * len(RESULTS) + "---|")
diff_examples = {}
diff_totals = {}
failing = {}
for key, title, _ in ENCODERS:
    for fmt in FORMATS:
        r = load(key, fmt)
        if r is None:
            continue
        graded = sum(r["counts"].values()) - r["counts"]["unsupported"]
        if graded == 0:
            sys.exit("%s %s graded no vector: every one was declared unsupported (did the library load?)" % (key, fmt))
        counts = [str(r["counts"][c]) for c in RESULTS]
        total = sum(r["counts"].values())
        verdict = "yes" if r["conforms"] else "no"
        w("| %s | %s | %s | %d | %s | %s |" % (key, fmt, r["level"], total, " | ".join(counts), verdict))
        listed = {vid: (number, reason) for number, vid, reason in DECLARED[key]["vectors"].get(fmt, [])}
        for v in r["vectors"]:
            if v["id"] in listed and v["result"] != "unsupported":
                sys.exit("%s:%d: %s is declared unsupported, but %s graded it %s: take it off the list" % (
                    DECLARED[key]["path"], listed[v["id"]][0], v["id"], key, v["result"]))
            if key in FINDINGS and not v["success"] and v["result"] != "unsupported":
                failing.setdefault(key, {})[v["id"]] = v
            d = v.get("difference")
            if d:
                explain(d)
            if not d or v["success"] or key in FINDINGS:
                continue
            diff_totals.setdefault(d, {}).setdefault((key, fmt), 0)
            diff_totals[d][(key, fmt)] += 1
            diff_examples.setdefault(d, {}).setdefault((key, fmt), v)
w("")
w("A `pass-equivalent` counts as conforming only at the equivalent level (and for the few vectors marked")
w("`equivalent`); at the exact level it is listed and fails the run.")
w("")
w("## Classes of difference")
w("")
w("Every vector an encoder did not get right, by the class of its first differing item (the runner's")
w("`difference`), with one example each; the encoders with findings below are listed there instead.")
for d in sorted(diff_totals, key=lambda k: (-sum(diff_totals[k].values()), k)):
    w("")
    w("### %s" % d)
    w("")
    w(explain(d))
    w("")
    w("| encoder | format | vectors | example | expected | actual |")
    w("|---|---|---:|---|---|---|")
    for (key, fmt), n in sorted(diff_totals[d].items()):
        v = diff_examples[d][(key, fmt)]
        expected = v.get("expected_hex", v.get("expected_error", ""))
        actual = v.get("actual_hex", "")
        if not actual and v["result"] == "fail" and "detail" in v:
            actual = v["detail"].replace("|", "\\|")[:70]
        w("| %s | %s | %d | `%s` | `%s` | `%s` |" % (key, fmt, n, v["id"], expected[:40], actual[:40]))
w("")
w("## Findings per encoder")
w("")
w("Every distinct failure of these encoders, with its smallest vector, the expected and the actual bytes")
w("(or refusal), and a verdict: a bug, against the paragraph of the specification it breaks, or a")
w("legitimate choice. Every failing vector matches one finding (the script stops otherwise).")


def shown(v, side):
    if side == "expected":
        text = v.get("expected_hex") or ("refusal " + v.get("expected_error", ""))
    else:
        text = v.get("actual_hex") or v.get("detail", "").replace("refused a valid value: ", "refusal: ")
    text = text.replace("|", "\\|")
    return text if len(text) <= 48 else text[:48] + "…"


problems = []
for key, title, _ in ENCODERS:
    if key not in FINDINGS:
        continue
    fails = failing.get(key, {})
    w("")
    w("### %s" % title)
    w("")
    w(NOTES[key])
    matched = {}
    for vid in fails:
        finding = next((f for f in FINDINGS[key] if any(fnmatch.fnmatchcase(vid, g) for g in f[1])), None)
        if finding is None:
            problems.append("%s: %s fails (%s) and no finding explains it" % (key, vid, fails[vid].get("difference")))
        else:
            matched.setdefault(finding[0], []).append(vid)
    if not FINDINGS[key]:
        continue
    w("")
    w("| finding | vectors | smallest vector | expected | actual | first difference | verdict |")
    w("|---|---:|---|---|---|---:|---|")
    for name, globs, minimal, verdict in FINDINGS[key]:
        v = fails.get(minimal)
        if v is None or name not in matched:
            problems.append("%s: finding '%s' is stale: %s does not fail" % (key, name, minimal))
            continue
        w("| %s | %d | `%s` | `%s` | `%s` | %s | %s |" % (name, len(matched[name]), minimal, shown(v, "expected"),
                                                   shown(v, "actual"), v.get("first_difference", "—"), verdict))
if problems:
    sys.exit("\n".join(problems))
w("")
w("## Declared unsupported")
w("")
w("What an adapter declares instead of running (not failures, not passes): the adapter's own answer, and")
w("the reason it is declared for in `conformance/adapters/declared/NAME.txt`, which the run passes as its")
w("expected-failures list. An unsupported vector that no file declares fails the run (docs/conformance.md,")
w("\"Unsupported values\"): `not declared` below, and `no` in the table above.")
w("")
w("| encoder | format | vectors | the adapter's answer | declared because |")
w("|---|---|---:|---|---|")
for key, title, _ in ENCODERS:
    for fmt in FORMATS:
        r = load(key, fmt)
        if r is None:
            continue
        listed = {vid: reason for _, vid, reason in DECLARED[key]["vectors"].get(fmt, [])}
        # Answers that differ only in the number they name (a JavaScript adapter names the double) are
        # one row, shown by their first wording.
        groups = {}
        for v in r["vectors"]:
            if v["result"] == "unsupported":
                answer = v.get("detail", "").replace("declared unsupported: ", "")
                because = listed.get(v["id"], "not declared")
                group = groups.setdefault((re.sub(r"-?[0-9][0-9.e+-]*", "#", answer), because), [answer, 0, set()])
                group[1] += 1
                group[2].add(answer)
        for (_, because), (answer, n, wordings) in sorted(groups.items()):
            if len(wordings) > 1:
                answer = "for example: %s (%d different values)" % (answer, len(wordings))
            w("| %s | %s | %d | %s | %s |" % (key, fmt, n, answer.replace("|", "\\|"), because.replace("|", "\\|")))
w("")
with open(doc_path, "w") as f:
    f.write("\n".join(lines))
print("wrote", doc_path)

# The matrix page: one table per format, a row per vector, a column per encoder, a cell per
# verdict (JSONTestSuite's results page is the model). Self-contained: styles inline, no script,
# nothing fetched; the verdict and difference of every cell that is not a plain pass in its title.
LETTER = {"pass": "P", "pass-equivalent": "E", "fail": "F", "refused-correctly": "R", "crash": "C", "timeout": "T",
          "unsupported": "U", "harness-error": "H"}
page = []
h = page.append
h("<!DOCTYPE html>")
h('<html lang="en"><head><meta charset="utf-8"><title>sinkcheck conformance matrix</title><style>')
h("body{font:13px sans-serif;margin:1em}table{border-collapse:collapse;margin-bottom:2em}"
  "th,td{border:1px solid #ccc;padding:1px 4px}th{background:#eee;position:sticky;top:0}"
  "td.v{font-family:monospace;white-space:nowrap}td.c{text-align:center;width:4em}"
  ".ok{background:#7c7}.eq{background:#bfb}.no{background:#e66;color:#fff}.un{background:#ddd}.na{background:#fff}")
h("</style></head><body>")
h("<h1>Conformance of binary JSON encoders: vectors &times; encoders</h1>")
h("<p>Generated by <code>bash scripts/conformance-results.sh</code> with <code>docs/conformance-results.md</code>, "
  "which explains every encoder, level and finding. A cell is the vector's result for the encoder at the level "
  "in its column: P pass, E pass-equivalent, R refused correctly, F fail, C crash, T timeout, U unsupported, "
  "H harness error. Green conforms at that level (light green: an equal value in other bytes), red does not, "
  "grey was declared unsupported (a red U was not declared), blank was not graded at that level. Hover a cell for its difference.</p>")
total_rows = 0
for fmt in FORMATS:
    cols = [(key, load(key, fmt)) for key, _, _ in ENCODERS]
    cols = [(key, r) for key, r in cols if r is not None]
    if not cols:
        continue
    by = [{v["id"]: v for v in r["vectors"]} for _, r in cols]
    order, seen = [], set()
    for cells in by:
        for vid in cells:
            if vid not in seen:
                seen.add(vid)
                order.append(vid)
    h('<h2 id="%s">%s: %d vectors</h2>' % (fmt, fmt, len(order)))
    h('<table data-format="%s" data-rows="%d"><tr><th>vector</th>%s</tr>' % (
        fmt, len(order), "".join("<th>%s<br><small>%s</small></th>" % (html.escape(k), r["level"]) for k, r in cols)))
    for vid in order:
        row = ['<tr><td class="v">%s</td>' % html.escape(vid)]
        for cells in by:
            v = cells.get(vid)
            if v is None:
                row.append('<td class="c na"></td>')
                continue
            res = v["result"]
            if res == "unsupported":
                cls = "un" if v.get("declared") else "no"
            else:
                cls = "no" if not v["success"] else ("eq" if res == "pass-equivalent" else "ok")
            note = res
            if v.get("difference"):
                note += ": " + v["difference"]
            if v.get("detail"):
                note += " — " + v["detail"][:200]
            title = "" if res == "pass" else ' title="%s"' % html.escape(note, quote=True)
            row.append('<td class="c %s"%s>%s</td>' % (cls, title, LETTER[res]))
        row.append("</tr>")
        h("".join(row))
        total_rows += 1
    h("</table>")
h('<p id="matrix-end" data-total-rows="%d">%d vectors in all.</p>' % (total_rows, total_rows))
h("</body></html>")
with open(html_path, "w") as f:
    f.write("\n".join(page) + "\n")
print("wrote", html_path, total_rows)
PY

# The page must load in a browser before it is published: headless Chromium (Debian's package,
# installed here only) renders it and its DOM must hold every row and the closing marker; only
# then is it copied to docs/.
if ! command -v chromium >/dev/null; then
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends chromium >&2
fi
page="$(cd "$out" && pwd)/conformance-results.html"
rows=$(grep -c '^<tr><td class="v">' "$page")
dom=$(timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$page" 2>/dev/null) || {
  echo "conformance-results: chromium could not render $page" >&2
  exit 1
}
rendered=$( (grep -o '<td class="v">' <<<"$dom" || true) | wc -l)
if [ "$rendered" -ne "$rows" ] || ! grep -q "id=\"matrix-end\" data-total-rows=\"$rows\"" <<<"$dom"; then
  echo "conformance-results: $page rendered $rendered of $rows rows, or without its closing marker" >&2
  exit 1
fi
cp "$page" "$root/docs/conformance-results.html"
echo "rendered $page in headless chromium ($rendered rows); wrote docs/conformance-results.html" >&2
