#!/usr/bin/python3
"""python_reader_test.py ADAPTERS_DIR — the Python helper's two readers of the token notation
agree: for random wire texts holding every token kind (h'' with and without subtype, f64'' NaN
payloads, NaN, -NaN, ±Infinity, discarded, \\x and \\u escapes, integers beyond 64 bits, strings
and keys that spell the special tokens or the fast reader's own marker, nesting deeper than the
json module may recurse), what serve() reads through the json module's C parser (_fast_value)
is what the iterative parser (parse_value) reads, type for type: floats by their bits, dicts in
order, Binary by data and subtype, DISCARDED itself; and a leaf function sees the same leaves.
A text the fast reader declines (None) is counted, and both kinds must occur.
"""

import math
import os
import random
import struct
import sys

sys.path.insert(0, sys.argv[1])
import sinkcheck_protocol as p  # noqa: E402

WORDS = ["NaN", "-NaN", "Infinity", "-Infinity", "true", "false", "null", "discarded"]
# Strings whose text looks like a token, or like the fast reader's marker, must stay strings.
TRICKY = ["h'00'", "f64'7ff8000000000001'", "discarded", "-NaN", "0" + p._MARK, "\\\"", "a\\\\b", "\\u00e9",
          "\\ud83d\\ude00", "\\x80", "\\xff\\xfe", "\\n\\t", "'", "#1", "é", "漢字"]


def scalar(r):
    k = r.randrange(10)
    if k == 0:
        return r.choice(WORDS)
    if k == 1:
        return "h'%s'" % os.urandom(r.randrange(5)).hex() + ("#%d" % r.choice([0, 5, 255, 2 ** 64 - 1]) if r.random() < 0.5 else "")
    if k == 2:
        return "f64'%016x'" % r.choice([0x7FF8000000000001, 0xFFF0000000000001, r.getrandbits(64)])
    if k == 3:
        return str(r.choice([0, -1, 2 ** 63, -(2 ** 63), 2 ** 64, -(2 ** 64) - 1, 10 ** 30, r.getrandbits(70) - 2 ** 69]))
    if k == 4:
        d = struct.unpack(">d", struct.pack(">Q", r.getrandbits(64)))[0]
        return repr(d) if math.isfinite(d) else "1.5e300"
    if k == 5:
        return r.choice(["1.0", "-0.0", "1E5", "2e-308", "4.9e-324", "1e999", "-1e999"])
    return '"%s"' % "".join(r.choice(TRICKY) if r.random() < 0.5 else r.choice("abc xyz") for _ in range(r.randrange(4)))


def text(r, depth=0):
    if depth > 3 or r.random() < 0.4:
        return scalar(r)
    if r.random() < 0.5:
        return "[" + ",".join(text(r, depth + 1) for _ in range(r.randrange(4))) + "]"
    keys = []
    while len(keys) < r.randrange(4):
        k = '"%s%d"' % (r.choice(TRICKY), len(keys))
        keys.append(k)
    return "{" + ",".join("%s:%s" % (k, text(r, depth + 1)) for k in keys) + "}"


def same(a, b):
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, list):
            if len(x) != len(y):
                return False
            todo.extend(zip(x, y))
        elif isinstance(x, dict):
            if list(x) != list(y):
                return False
            todo.extend((x[k], y[k]) for k in x)
        elif isinstance(x, float):
            if struct.pack(">d", x) != struct.pack(">d", y):
                return False
        elif isinstance(x, p.Binary):
            if (x.data, x.subtype) != (y.data, y.subtype):
                return False
        elif isinstance(x, tuple):
            if x != y:
                return False
        elif x is not y and x != y:
            return False
    return True


def main():
    r = random.Random(20261206)
    tagged = lambda v: ("leaf", v.data, v.subtype) if isinstance(v, p.Binary) else ("leaf", repr(v))  # noqa: E731
    fast = declined = 0
    texts = [text(r) for _ in range(20000)]
    texts.append("[" * 1500 + "h'00'" + "]" * 1500)  # too deep for a recursive parser
    texts.append("[" * 900 + "h'00'" + "]" * 900)
    for t in texts:
        try:
            want = p.parse_value(t)
        except ValueError:
            continue  # the generator wrote something the notation does not allow (a bare word as key...)
        got = p._fast_value(t, None)
        if got is None:
            declined += 1
            continue
        fast += 1
        if not same(got, want):
            sys.exit("FAIL: the readers differ on %r:\n  fast:      %r\n  iterative: %r" % (t[:300], got, want))
        if not same(p._fast_value(t, tagged), p.parse_value(t, tagged)):
            sys.exit("FAIL: the readers hand other leaves to leaf() on %r" % t[:300])
    print("%d texts read by the json module as by the iterative parser, %d declined" % (fast, declined))
    if fast < 10000 or declined < 100:
        sys.exit("FAIL: both readers must be exercised (fast %d, declined %d)" % (fast, declined))


if __name__ == "__main__":
    main()
