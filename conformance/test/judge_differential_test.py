#!/usr/bin/python3
"""The runner's "same value" verdict against independent decoders (cbor2, msgpack-python).

    judge_differential_test.py JUDGE [--seed N] [--pairs N]

JUDGE is conform_judge (conformance/test/conform_judge.cpp): it reads "FORMAT HEX_A HEX_B" lines
and answers "equal" or "unequal" with the comparison classify() makes. This script writes pairs
of encodings -- two random encodings of one value (bignum or integer, leading zeros, wider
heads, float widths, key order, indefinite lengths for CBOR; integer families and widths,
float 32 or 64, wider lengths for MessagePack), and encodings of a value and of a mutation of
it -- and decodes both sides with the third-party decoder. The runner must say "equal" exactly
where the third-party values are the same in the format's data model, compared as the runner
documents (docs/conformance.md "Equal values"): an integer never equals a float, every NaN
equals every NaN, -0.0 is not 0.0.

Exit status: 0 every verdict agrees, 1 a disagreement (each one printed with both encodings),
2 usage error, 77 skipped: python3-cbor2 or python3-msgpack is missing.
"""

import argparse
import math
import random
import struct
import subprocess
import sys

try:
    import cbor2
    import msgpack
except ImportError as missing:
    print(f"SKIP: {missing.name} is not importable by {sys.executable}; install python3-cbor2 and "
          "python3-msgpack (scripts/setup.sh) to compare the runner's verdicts with theirs")
    sys.exit(77)


class Tagged:
    """A CBOR tag other than 2 and 3 over a byte string (the runner keeps it as a binary subtype)."""

    def __init__(self, tag, data):
        self.tag, self.data = tag, data


class Ext:
    """A MessagePack ext value."""

    def __init__(self, code, data):
        self.code, self.data = code, data


# ------------------------------------------------------------------------------------------
# Values

INT_EDGES = [0, 1, 23, 24, 255, 256, 65535, 65536, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**63,
             2**64 - 1]
TEXT = ["", "a", "IETF", "\u00fc", "\u6c34", "\U0001f600", "k10", "k2", "aa", "b", "\"\\"]


def random_int(rng, fmt):
    r = rng.random()
    if r < 0.5:
        v = rng.choice(INT_EDGES) + rng.choice([-1, 0, 0, 1])
    else:
        v = rng.getrandbits(rng.choice([3, 7, 8, 15, 16, 31, 32, 63, 64]))
    if rng.random() < 0.45:
        v = -v - rng.choice([0, 1])
    if fmt == "cbor" and rng.random() < 0.15:
        # beyond 64 bits: only bignums hold these
        v = (rng.getrandbits(rng.choice([65, 72, 100])) | 2**64) * rng.choice([1, -1])
    if fmt == "msgpack":
        v = max(-2**63, min(v, 2**64 - 1))
    return v


def random_float(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice([0.0, -0.0, 1.0, 1.5, -4.0, 65504.0, 100000.0, 0.1, 1e300, 2.0**-24, 2.0**-14, 2.0**-149,
                           float("nan"), float("inf"), float("-inf"), 3.4028234663852886e38, 2.0**64])
    if r < 0.55:
        return struct.unpack(">e", struct.pack(">H", rng.getrandbits(16)))[0]
    if r < 0.8:
        return struct.unpack(">f", struct.pack(">I", rng.getrandbits(32)))[0]
    return struct.unpack(">d", struct.pack(">Q", rng.getrandbits(64)))[0]


def random_text(rng):
    return "".join(rng.choice(TEXT) for _ in range(rng.choice([0, 1, 1, 2, 3, 12])))


def random_value(rng, fmt, depth=0):
    kinds = ["int", "int", "float", "text", "bytes", "null", "bool"]
    if fmt == "cbor":
        kinds.append("tag")
    else:
        kinds.append("ext")
    if depth < 3:
        kinds += ["array", "map"]
    kind = rng.choice(kinds)
    if kind == "int":
        return random_int(rng, fmt)
    if kind == "float":
        return random_float(rng)
    if kind == "text":
        return random_text(rng)
    if kind == "bytes":
        return bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 1, 2, 5, 30])))
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "tag":
        return Tagged(rng.choice([6, 7, 23, 40, 1000, 65536, 2**32]), bytes(rng.getrandbits(8) for _ in range(3)))
    if kind == "ext":
        return Ext(rng.randrange(0, 128), bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 1, 2, 3, 4, 8, 16]))))
    if kind == "array":
        return [random_value(rng, fmt, depth + 1) for _ in range(rng.choice([0, 1, 2, 3, 17]))]
    keys = {random_text(rng) + str(i) for i in range(rng.choice([0, 1, 2, 3, 17]))}
    return {k: random_value(rng, fmt, depth + 1) for k in keys}


def mutate(rng, v, fmt):
    """Another value, usually different, close to v (one node changed)."""
    if isinstance(v, list) and v and rng.random() < 0.7:
        w = list(v)
        i = rng.randrange(len(w))
        if rng.random() < 0.2:
            del w[i]
        else:
            w[i] = mutate(rng, w[i], fmt)
        return w
    if isinstance(v, dict) and v and rng.random() < 0.7:
        w = dict(v)
        k = rng.choice(sorted(w))
        if rng.random() < 0.2:
            w[k + "x"] = w.pop(k)
        else:
            w[k] = mutate(rng, w[k], fmt)
        return w
    if isinstance(v, bool) or v is None:
        return rng.choice([None, False, True, 0])
    if isinstance(v, int):
        w = v + rng.choice([-1, 1])
        if fmt == "msgpack" and not -2**63 <= w < 2**64:
            w = v - w + v
        if rng.random() < 0.2 and abs(v) < 2**53:
            w = float(v)  # an integer is no float
        return w
    if isinstance(v, float):
        return rng.choice([-v, float(int(v)) if math.isfinite(v) else 0.0, math.nextafter(v, math.inf), 0, v])
    if isinstance(v, str):
        return rng.choice([v + "a", v[:-1], v.encode()])
    if isinstance(v, bytes):
        return rng.choice([v + b"\0", v[:-1], v.decode("latin-1")])
    if isinstance(v, Tagged):
        return rng.choice([Tagged(v.tag + 1, v.data), Tagged(v.tag, v.data + b"\1"), v.data])
    if isinstance(v, Ext):
        return rng.choice([Ext((v.code + 1) % 128, v.data), Ext(v.code, v.data + b"\1"), v.data])
    return random_value(rng, fmt)


# ------------------------------------------------------------------------------------------
# Encoders that choose, at random, among the encodings each format allows for a value

class CborWriter:
    def __init__(self, rng, vary):
        self.rng, self.vary, self.features = rng, vary, set()

    def head(self, major, arg, what="head"):
        widths = [w for w, limit in ((0, 24), (1, 2**8), (2, 2**16), (4, 2**32), (8, 2**64)) if arg < limit]
        w = self.rng.choice(widths) if self.vary and self.rng.random() < 0.3 else widths[0]
        if w != widths[0]:
            self.features.add("wider " + what)
        if w == 0:
            return bytes([major << 5 | arg])
        return bytes([major << 5 | {1: 24, 2: 25, 4: 26, 8: 27}[w]]) + arg.to_bytes(w, "big")

    def bignum(self, tag, n):
        body = n.to_bytes((n.bit_length() + 7) // 8, "big")
        if self.vary and self.rng.random() < 0.4:
            body = b"\0" * self.rng.choice([1, 2, 9]) + body
            self.features.add("bignum leading zeros")
        return self.head(6, tag, "tag head") + self.string(2, body)

    def string(self, major, data, pieces=None):
        if self.vary and self.rng.random() < 0.2:
            self.features.add("indefinite string")
            pieces = pieces if pieces is not None else [data[i:i + 2] for i in range(0, len(data), 2)]
            return bytes([major << 5 | 31]) + b"".join(self.head(major, len(p)) + p for p in pieces) + b"\xff"
        return self.head(major, len(data), "length head") + data

    def write(self, v):
        if v is None:
            return b"\xf6"
        if isinstance(v, bool):
            return b"\xf5" if v else b"\xf4"
        if isinstance(v, int):
            fits = -2**64 <= v < 2**64
            if fits and not (self.vary and self.rng.random() < 0.3):
                return self.head(0, v, "integer head") if v >= 0 else self.head(1, -1 - v, "integer head")
            if fits:
                self.features.add("bignum for a 64-bit integer")
            return self.bignum(2, v) if v >= 0 else self.bignum(3, -1 - v)
        if isinstance(v, float):
            widths = [(0xfb, ">d")]
            for ib, code in ((0xfa, ">f"), (0xf9, ">e")):
                try:
                    back = struct.unpack(code, struct.pack(code, v))[0]
                except (OverflowError, struct.error):
                    continue
                if back == v or (math.isnan(back) and math.isnan(v)):
                    widths.append((ib, code))
            ib, code = self.rng.choice(widths) if self.vary else widths[-1]
            if (ib, code) != widths[-1]:
                self.features.add("wider float")
            return bytes([ib]) + struct.pack(code, v)
        if isinstance(v, str):
            chars = list(v)
            cut = sorted(self.rng.sample(range(len(chars) + 1), min(len(chars) + 1, 2)))
            pieces = [("".join(chars[a:b])).encode() for a, b in zip([0] + cut, cut + [len(chars)])]
            return self.string(3, v.encode(), pieces)
        if isinstance(v, bytes):
            return self.string(2, v)
        if isinstance(v, Tagged):
            return self.head(6, v.tag, "tag head") + self.string(2, v.data)
        if isinstance(v, list):
            items = [self.write(x) for x in v]
            return self.container(4, len(v), b"".join(items))
        keys = list(v)
        if self.vary and len(keys) > 1 and self.rng.random() < 0.5:
            self.rng.shuffle(keys)
            self.features.add("key order")
        else:
            keys.sort(key=lambda k: (len(k.encode()), k.encode()))
        body = b"".join(self.string(3, k.encode(), [k.encode()]) + self.write(v[k]) for k in keys)
        return self.container(5, len(keys), body)

    def container(self, major, count, body):
        if self.vary and self.rng.random() < 0.2:
            self.features.add("indefinite container")
            return bytes([major << 5 | 31]) + body + b"\xff"
        return self.head(major, count, "length head") + body


class MsgpackWriter:
    def __init__(self, rng, vary):
        self.rng, self.vary, self.features = rng, vary, set()

    def pick(self, options, what):
        choice = self.rng.choice(options) if self.vary else options[0]
        if choice is not options[0]:
            self.features.add(what)
        return choice

    def length(self, n, fix, fix_limit, codes, what):
        options = []
        if n < fix_limit and fix is not None:
            options.append(bytes([fix | n]))
        for code, width in codes:
            if n < 2**(8 * width):
                options.append(bytes([code]) + n.to_bytes(width, "big"))
        return self.pick(options, "wider " + what)

    def write(self, v):
        if v is None:
            return b"\xc0"
        if isinstance(v, bool):
            return b"\xc3" if v else b"\xc2"
        if isinstance(v, int):
            options = []
            if 0 <= v < 128:
                options.append(bytes([v]))
            if -32 <= v < 0:
                options.append(struct.pack(">b", v))
            if v >= 0:
                options += [bytes([c]) + v.to_bytes(w, "big") for c, w in ((0xcc, 1), (0xcd, 2), (0xce, 4), (0xcf, 8))
                            if v < 2**(8 * w)]
            options += [bytes([c]) + v.to_bytes(w, "big", signed=True) for c, w in ((0xd0, 1), (0xd1, 2), (0xd2, 4),
                                                                                       (0xd3, 8))
                        if -2**(8 * w - 1) <= v < 2**(8 * w - 1)]
            return self.pick(options, "another integer format")
        if isinstance(v, float):
            options = [b"\xcb" + struct.pack(">d", v)]
            try:
                back = struct.unpack(">f", struct.pack(">f", v))[0]
                if back == v or (math.isnan(back) and math.isnan(v)):
                    options.insert(0, b"\xca" + struct.pack(">f", v))
            except OverflowError:
                pass
            return self.pick(options, "another float width")
        if isinstance(v, str):
            data = v.encode()
            return self.length(len(data), 0xa0, 32, ((0xd9, 1), (0xda, 2), (0xdb, 4)), "str length") + data
        if isinstance(v, bytes):
            return self.length(len(v), None, 0, ((0xc4, 1), (0xc5, 2), (0xc6, 4)), "bin length") + v
        if isinstance(v, Ext):
            options = []
            fixext = {1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8}
            if len(v.data) in fixext:
                options.append(bytes([fixext[len(v.data)], v.code]))
            options += [bytes([c]) + len(v.data).to_bytes(w, "big") + bytes([v.code])
                        for c, w in ((0xc7, 1), (0xc8, 2), (0xc9, 4))]
            return self.pick(options, "wider ext") + v.data
        if isinstance(v, list):
            return self.length(len(v), 0x90, 16, ((0xdc, 2), (0xdd, 4)), "array length") + b"".join(
                self.write(x) for x in v)
        keys = sorted(v)
        if self.vary and len(keys) > 1 and self.rng.random() < 0.5:
            self.rng.shuffle(keys)
            self.features.add("key order")
        return self.length(len(keys), 0x80, 16, ((0xde, 2), (0xdf, 4)), "map length") + b"".join(
            self.write(k) + self.write(v[k]) for k in keys)


# ------------------------------------------------------------------------------------------
# The third party's verdict

def same(a, b):
    """Equal as the runner documents equal values: by kind, NaN = NaN, -0.0 != 0.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, cbor2.CBORTag):
        return a.tag == b.tag and same(a.value, b.value)
    return a == b


def decode(fmt, data):
    if fmt == "cbor":
        return cbor2.loads(data)
    return msgpack.unpackb(data, raw=False, strict_map_key=True)


# The cases RFC 8949 §3.4.3 and the float rules name, drawn or not by the random generator.
FIXED = [
    ("cbor", "c249010000000000000000", "c24a00010000000000000000"),
    ("cbor", "c249010000000000000000", "c24b0000010000000000000000"),
    ("cbor", "3b8000000000000000", "c3488000000000000000"),
    ("cbor", "3bffffffffffffffff", "c348ffffffffffffffff"),
    ("cbor", "01", "c24101"),
    ("cbor", "20", "c340"),
    ("cbor", "c249010000000000000000", "c249010000000000000001"),
    ("cbor", "3bffffffffffffffff", "3bfffffffffffffffe"),
    ("cbor", "20", "c24101"),
    ("cbor", "01", "f93c00"),
    ("cbor", "f97e00", "fb7ff8000000000001"),
    ("cbor", "f90000", "fa80000000"),
    ("msgpack", "01", "d30000000000000001"),
    ("msgpack", "ca3fc00000", "cb3ff8000000000000"),
    ("msgpack", "01", "ca3f800000"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("judge")
    parser.add_argument("--seed", type=int, default=20261215)
    parser.add_argument("--pairs", type=int, default=4000, help="random pairs per format")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    pairs = list(FIXED)
    features = {"cbor": set(), "msgpack": set()}
    for fmt, writer in (("cbor", CborWriter), ("msgpack", MsgpackWriter)):
        for i in range(args.pairs):
            v = random_value(rng, fmt)
            w = mutate(rng, v, fmt) if i % 3 == 2 else v
            a, b = writer(rng, True), writer(rng, True)
            pairs.append((fmt, a.write(v).hex(), b.write(w).hex()))
            features[fmt] |= a.features | b.features

    # Every kind of alternative encoding must have been drawn, or the comparison is not tested.
    wanted = {"cbor": {"bignum for a 64-bit integer", "bignum leading zeros", "wider integer head", "wider tag head",
                       "wider length head", "wider float", "key order", "indefinite string",
                       "indefinite container"},
              "msgpack": {"another integer format", "another float width", "wider str length", "wider bin length",
                          "wider array length", "wider map length", "wider ext", "key order"}}
    missing = {f: sorted(wanted[f] - features[f]) for f in wanted if wanted[f] - features[f]}
    if missing:
        print(f"the pairs drew no {missing}: raise --pairs", file=sys.stderr)
        return 1

    request = "".join(f"{f} {a} {b}\n" for f, a, b in pairs)
    run = subprocess.run([args.judge], input=request, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        print(f"{args.judge} exited {run.returncode}: {run.stderr}", file=sys.stderr)
        return 1
    verdicts = run.stdout.splitlines()
    if len(verdicts) != len(pairs):
        print(f"{args.judge} answered {len(verdicts)} of {len(pairs)} pairs", file=sys.stderr)
        return 1

    disagreements = []
    counts = {}
    for (fmt, a, b), runner in zip(pairs, verdicts):
        theirs = "equal" if same(decode(fmt, bytes.fromhex(a)), decode(fmt, bytes.fromhex(b))) else "unequal"
        key = (fmt, theirs, "same bytes" if a == b else "other bytes")
        counts[key] = counts.get(key, 0) + 1
        if runner != theirs:
            disagreements.append((fmt, a, b, runner, theirs))
    for key in sorted(counts):
        print(f"{key[0]:8} {key[1]:8} {key[2]:12} {counts[key]} pairs")
    for fmt in ("cbor", "msgpack"):
        for verdict in ("equal", "unequal"):
            if counts.get((fmt, verdict, "other bytes"), 0) < args.pairs // 10:
                print(f"too few {fmt} pairs of other bytes judged {verdict} by the third party", file=sys.stderr)
                return 1
    for fmt, a, b, runner, theirs in disagreements[:20]:
        print(f"DISAGREE {fmt}: runner {runner}, {'cbor2' if fmt == 'cbor' else 'msgpack'} {theirs}\n"
              f"  A {a[:200]}\n  B {b[:200]}")
    if disagreements:
        print(f"{len(disagreements)} of {len(pairs)} verdicts disagree (seed {args.seed})")
        return 1
    print(f"all {len(pairs)} verdicts agree (seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
