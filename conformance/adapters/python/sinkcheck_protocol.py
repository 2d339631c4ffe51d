"""The encoder side of the sinkcheck conformance protocol, for encoders written in Python.

An adapter is one function, encode(value, fmt, use_size, use_type) -> bytes, handed to serve().
It raises Unsupported to declare a value, option or format unsupported, and Refused (or one of
the exception classes it passes to serve() as refusals: those its library raises to reject a
value) to refuse the value. A refusal must be deliberate: any other exception is an error of the
adapter, which prints its traceback and exits 70, and the runner grades the vector a crash; an
encoder dying of an error must not look as if it refused a value it should refuse. serve() speaks
both modes of docs/conformance.md: per-vector (the request in the environment and on stdin, the
answer on stdout and in the exit status) and batch (length-prefixed frames on stdin and stdout,
selected by SINKCHECK_MODE=batch).

Values arrive in the value notation of corpus/conformance/README.md, or with `sinkcheck conform
--notation json` in the JSON notation of docs/cli.md (SINKCHECK_NOTATION=json), and become Python
values: dicts keep the order the vector wrote its keys in, integers of any size stay ints, a
double is a float with its exact bits, binary is bytes (or Binary when it has a subtype), a
string holding bytes that are not UTF-8 decodes with surrogateescape (so encoding it raises, as
it should), and discarded becomes DISCARDED.
"""

import json
import os
import re
import struct
import sys
import traceback

__all__ = [
    "Binary",
    "DISCARDED",
    "Refused",
    "Unsupported",
    "map_leaves",
    "parse_json_notation",
    "parse_value",
    "serve",
    "without_subtype",
]

# Per-vector exit statuses (docs/conformance.md): a refusal, unsupported, an error of the adapter.
EXIT_REFUSED = 65
EXIT_UNSUPPORTED = 77
EXIT_SOFTWARE = 70


class Unsupported(Exception):
    """The encoder does not support this value, option or format."""


class Refused(Exception):
    """The encoder refuses this value (put the error category, e.g. type_error.316, in the message)."""


class _AdapterError(Exception):
    """An exception that is no refusal escaped encode(): the traceback, for stderr."""


class Binary:
    """A byte string with a subtype (a CBOR tag, a MessagePack ext type, a BSON subtype)."""

    __slots__ = ("data", "subtype")

    def __init__(self, data, subtype):
        self.data = data
        self.subtype = subtype

    def __repr__(self):
        return "Binary(%r, %d)" % (self.data, self.subtype)


class _Discarded:
    def __repr__(self):
        return "DISCARDED"


DISCARDED = _Discarded()

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<punct>[\[\]{},:])
    | (?P<string>"(?:[^"\\]|\\.)*")
    | (?P<f64>f64'(?P<bits>[0-9a-fA-F]{16})')
    | (?P<binary>h'(?P<hex>[0-9a-fA-F]*)'(?:\#(?P<subtype>[0-9]+))?)
    | (?P<word>-?NaN|-?Infinity|true|false|null|discarded)
    | (?P<number>-?(?:0|[1-9][0-9]*)(?P<frac>\.[0-9]+)?(?P<exp>[eE][+-]?[0-9]+)?)
    )""",
    re.VERBOSE,
)

_WORDS = {
    "true": True,
    "false": False,
    "null": None,
    "NaN": float("nan"),
    "-NaN": -float("nan"),
    "Infinity": float("inf"),
    "-Infinity": -float("inf"),
    "discarded": DISCARDED,
}

_ESCAPES = {'"': b'"', "\\": b"\\", "/": b"/", "b": b"\b", "f": b"\f", "n": b"\n", "r": b"\r", "t": b"\t"}


def _string(token):
    if "\\x" not in token:
        return json.loads(token)
    # \xHH stands for a raw byte: build the bytes, then decode keeping invalid ones escaped.
    out = bytearray()
    body = token[1:-1]
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            j = body.find("\\", i)
            j = len(body) if j < 0 else j
            out += body[i:j].encode("utf-8")
            i = j
            continue
        e = body[i + 1]
        if e == "x":
            out.append(int(body[i + 2 : i + 4], 16))
            i += 4
        elif e == "u":
            cp = int(body[i + 2 : i + 6], 16)
            i += 6
            if 0xD800 <= cp <= 0xDBFF and body[i : i + 2] == "\\u":
                cp = 0x10000 + ((cp - 0xD800) << 10) + (int(body[i + 2 : i + 6], 16) - 0xDC00)
                i += 6
            out += chr(cp).encode("utf-8")
        else:
            out += _ESCAPES[e]
            i += 2
    return out.decode("utf-8", "surrogateescape")


# The tokens of the notation that JSON has not (besides NaN, Infinity and -Infinity, which the
# json module reads as the notation means them), each with the value it stands for.
_SPECIAL = re.compile(
    r"""("[^"\\]*(?:\\.[^"\\]*)*")|h'([0-9a-fA-F]*)'(?:\#([0-9]+))?|f64'([0-9a-fA-F]{16})'|(-NaN)|(discarded)"""
)
# A special token is replaced by "<index>" + _MARK, a float literal that parse_float turns back
# into the token's value; text already holding _MARK takes the slow path.
_MARK = "E-000000000"
# json.loads recurses in C: deeper text (it may nest 20,000 deep) takes the iterative parser.
_MAX_FAST_BRACKETS = 1000


def _fast_value(text, leaf):
    """The value by the json module's C parser, or None when the text needs parse_value (a \\x
    escape, nesting that could be too deep for a recursive parser, or anything it cannot read)."""
    if "\\x" in text or _MARK in text or text.count("[") + text.count("{") > _MAX_FAST_BRACKETS:
        return None
    if "'" not in text and "discarded" not in text and "-NaN" not in text:
        try:
            return json.loads(text)
        except ValueError:
            return None
    specials = []

    def mark(m):
        if m.group(1) is not None:  # a string: as it is, whatever it holds
            return m.group(1)
        if m.group(4) is not None:
            v = struct.unpack(">d", bytes.fromhex(m.group(4)))[0]
        elif m.group(5) is not None:
            v = -float("nan")
        elif m.group(6) is not None:
            v = DISCARDED if leaf is None else leaf(DISCARDED)
        else:
            data = bytes.fromhex(m.group(2))
            v = data if m.group(3) is None else Binary(data, int(m.group(3)))
            if leaf is not None:
                v = leaf(v)
        specials.append(v)
        return "%d%s" % (len(specials) - 1, _MARK)

    marked = _SPECIAL.sub(mark, text)

    def number(literal):
        if literal.endswith(_MARK):
            return specials[int(literal[: -len(_MARK)])]
        return float(literal)

    try:
        return json.loads(marked, parse_float=number)
    except ValueError:
        return None


def parse_value(text, leaf=None):
    """Parses one value in wire notation, without recursion (values may nest 100,000 deep).

    leaf, when given, replaces each binary (bytes or Binary) and DISCARDED as they are read."""
    stack = []  # [container, pending key or None]
    root = None
    have_root = False
    expect_key = False
    pos = 0
    end = len(text)
    while True:
        m = _TOKEN.match(text, pos)
        if m is None:
            if text[pos:].strip() == "" and have_root and not stack:
                return root
            raise ValueError("value notation: unexpected text at byte %d" % pos)
        pos = m.end()
        kind = m.lastgroup
        if kind == "punct":
            p = m.group("punct")
            if p in "[{":
                value = [] if p == "[" else {}
            elif p in "]}":
                stack.pop()
                expect_key = False
                if not stack:
                    if text[pos:].strip():
                        raise ValueError("value notation: text after the value at byte %d" % pos)
                    return root
                continue
            elif p == ",":
                expect_key = isinstance(stack[-1][0], dict)
                continue
            else:  # ':'
                continue
        elif kind == "string":
            value = _string(m.group("string"))
            if expect_key:
                stack[-1][1] = value
                expect_key = False
                continue
        elif kind == "f64":
            value = struct.unpack(">d", bytes.fromhex(m.group("bits")))[0]
        elif kind == "binary":
            data = bytes.fromhex(m.group("hex"))
            sub = m.group("subtype")
            value = data if sub is None else Binary(data, int(sub))
            if leaf is not None:
                value = leaf(value)
        elif kind == "word":
            value = _WORDS[m.group("word")]
            if value is DISCARDED and leaf is not None:
                value = leaf(value)
        else:
            n = m.group("number")
            value = float(n) if (m.group("frac") or m.group("exp")) else int(n)
        # Place the value.
        if stack:
            container, key = stack[-1]
            if isinstance(container, list):
                container.append(value)
            else:
                container[key] = value
        else:
            root = value
            have_root = True
        if isinstance(value, (list, dict)):
            stack.append([value, None])
            expect_key = isinstance(value, dict)
        elif not stack:
            if text[pos:].strip():
                raise ValueError("value notation: text after the value at byte %d" % pos)
            return root
        if pos >= end and stack:
            raise ValueError("value notation: the text ends inside a container")


# The key sets that make an object notation (docs/cli.md, "Values JSON text cannot hold").
_NOTATION_KEYS = frozenset(
    frozenset(keys)
    for keys in (
        ("$binary",),
        ("$binary", "$subtype"),
        ("$float",),
        ("$integer",),
        ("$string",),
        ("$discarded",),
        ("$members",),
        ("$object",),
    )
)
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*\Z")
_BITS = re.compile(r"0x[0-9a-fA-F]{16}\Z")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z")
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_SPECIAL_FLOATS = {"nan": float("nan"), "inf": float("inf"), "-inf": -float("inf")}


def _notation_error(what):
    return ValueError("JSON notation: %s" % what)


def _hex_bytes(text, name):
    if not isinstance(text, str) or not _HEX.match(text):
        raise _notation_error('"%s" holds a string of an even number of hex digits' % name)
    return bytes.fromhex(text)


def _json_float(text):
    # --notation json sends every double as its 64 bits, so no decimal text is ever rounded by a
    # reader; the decimal form (--notation json-decimal, the export) reads with float(), which
    # rounds correctly.
    if isinstance(text, str):
        if _BITS.match(text):
            return struct.unpack(">d", bytes.fromhex(text[2:]))[0]
        if text in _SPECIAL_FLOATS:
            return _SPECIAL_FLOATS[text]
        if _DECIMAL.match(text):
            return float(text)
    raise _notation_error('"$float" holds "nan", "inf", "-inf", "0x" and 16 hex digits, or a decimal')


def _json_integer(v, name, signed):
    if isinstance(v, int) and not isinstance(v, bool) and (signed or v >= 0):
        return v
    if isinstance(v, str) and _INTEGER.match(v) and (signed or not v.startswith("-")):
        return int(v)
    raise _notation_error('"%s" holds an integer, as a number or a string of decimal digits' % name)


def _json_key(k):
    if isinstance(k, str):
        return k
    if isinstance(k, dict) and list(k) == ["$string"]:
        return _hex_bytes(k["$string"], "$string").decode("utf-8", "surrogateescape")
    raise _notation_error('a key is a string or {"$string": "hex"}')


def parse_json_notation(text, leaf=None):
    """Parses one value in the JSON notation of docs/cli.md into the values parse_value makes.

    JSON text is wire notation without extensions, so parse_value reads it (without recursion:
    json.loads recurses in C and overflows the stack on the generator's 20,000-deep values);
    this then replaces each notation object by its value, also iteratively."""
    box = [None]
    # (container, slot, parsed node, True when the node is an object of data: {"$object": ...})
    todo = [(box, 0, parse_value(text), False)]
    while todo:
        parent, slot, node, data = todo.pop()
        if isinstance(node, dict):
            if data or frozenset(node) not in _NOTATION_KEYS:
                value = dict.fromkeys(node)  # the order written
                todo.extend((value, k, v, False) for k, v in node.items())
            elif "$binary" in node:
                data_bytes = _hex_bytes(node["$binary"], "$binary")
                sub = node.get("$subtype")
                value = data_bytes if sub is None else Binary(data_bytes, _json_integer(sub, "$subtype", False))
                if leaf is not None:
                    value = leaf(value)
            elif "$float" in node:
                value = _json_float(node["$float"])
            elif "$integer" in node:
                value = _json_integer(node["$integer"], "$integer", True)
            elif "$string" in node:
                value = _hex_bytes(node["$string"], "$string").decode("utf-8", "surrogateescape")
            elif "$discarded" in node:
                if node["$discarded"] is not True:
                    raise _notation_error('"$discarded" holds true')
                value = DISCARDED if leaf is None else leaf(DISCARDED)
            elif "$members" in node:
                members = node["$members"]
                if not isinstance(members, list) or not all(isinstance(m, list) and len(m) == 2 for m in members):
                    raise _notation_error('"$members" holds an array of [key, value] pairs')
                value = {}
                for k, v in members:
                    key = _json_key(k)
                    if key in value:
                        raise _notation_error("duplicate key %r in $members" % key)
                    value[key] = None
                    todo.append((value, key, v, False))
            else:  # $object: the object inside is data, whatever its keys
                if not isinstance(node["$object"], dict):
                    raise _notation_error('"$object" holds an object')
                todo.append((parent, slot, node["$object"], True))
                continue
        elif isinstance(node, list):
            value = [None] * len(node)
            todo.extend((value, i, v, False) for i, v in enumerate(node))
        else:
            value = node
        parent[slot] = value
    return box[0]


def map_leaves(value, fn):
    """Replaces every value that is not a list or dict by fn(value), in place where it can.

    Iterative (values may nest 100,000 deep); returns the new root. An adapter converts the
    protocol's Binary and DISCARDED into its library's types with it."""
    if not isinstance(value, (list, dict)):
        return fn(value)
    todo = [value]
    while todo:
        container = todo.pop()
        for key in range(len(container)) if isinstance(container, list) else list(container):
            v = container[key]
            if isinstance(v, (list, dict)):
                todo.append(v)
            else:
                container[key] = fn(v)
    return value


def without_subtype(v):
    """A leaf converter for map_leaves, for formats without binary subtypes (UBJSON, BJData): a
    binary becomes its bytes whatever the subtype (as nlohmann's model writes it), a discarded
    value is declared unsupported (no Python library has one), anything else stays."""
    if isinstance(v, Binary):
        return v.data
    if v is DISCARDED:
        raise Unsupported("a discarded value has no Python counterpart")
    return v


def _read(text, plain, leaf):
    """The value of a request's text, in whichever notation the runner sends."""
    # Plain JSON (no extension in the text) goes through the C parser of the json module.
    if plain:
        return json.loads(text)
    if os.environ.get("SINKCHECK_NOTATION") == "json":
        return parse_json_notation(text, leaf)
    value = _fast_value(text, leaf)
    return parse_value(text, leaf) if value is None else value


class _LeafFailed(Exception):
    """An exception of leaf() other than Unsupported, carried out of the reader: it is judged as
    encode()'s own would be (a refusal, or an error of the adapter), not as unreadable text."""


def _guarded(leaf):
    if leaf is None:
        return None

    def call(v):
        try:
            return leaf(v)
        except Unsupported:
            raise
        except Exception as e:
            raise _LeafFailed(e) from e

    return call


def _answer(encode, refusals, leaf, fmt, use_size, use_type, text, plain):
    """(status, payload): 0 encoded, 1 refused, 2 unsupported; raises _AdapterError otherwise."""
    failure = None
    try:
        value = _read(text, plain, _guarded(leaf))
    except Unsupported as e:  # leaf declared a part of the value unsupported
        return 2, str(e).encode("utf-8", "replace")
    except _LeafFailed as e:
        failure = e.args[0]
    except Exception as e:  # a value this adapter cannot read is its own limitation
        return 2, ("cannot read the value: %s" % e).encode("utf-8", "replace")
    try:
        if failure is not None:
            raise failure
        return 0, bytes(encode(value, fmt, use_size, use_type))
    except Unsupported as e:
        return 2, str(e).encode("utf-8", "replace")
    except (Refused,) + tuple(refusals) as e:
        return 1, ("%s: %s" % (type(e).__name__, e)).encode("utf-8", "replace")
    except Exception:
        raise _AdapterError(traceback.format_exc())


# A batch request's "key=value" header lines (one C call for all of them; a line without "="
# is ignored, as every key the helper does not know).
_HEADER_LINE = re.compile(rb"^([^=\n]*)=([^\n]*)", re.MULTILINE)


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _serve_batch(encode, refusals, leaf):
    # Requests are read in large chunks and their answers written together before the next read
    # that could block: a runner that pipelines its requests gets one write per window, and one
    # that sends a request at a time still gets each answer before the encoder waits.
    fd_in = sys.stdin.fileno()
    fd_out = sys.stdout.fileno()
    buf = bytearray()  # appended to in place: a large request arrives in many reads
    at = 0
    answers = []
    while True:
        if len(buf) - at >= 4:
            (n,) = struct.unpack_from(">I", buf, at)
            if len(buf) - at - 4 >= n:
                payload = bytes(buf[at + 4 : at + 4 + n])
                at += 4 + n
                header, _, text = payload.partition(b"\n\n")
                fields = dict(_HEADER_LINE.findall(header))
                status, body = _answer(
                    encode,
                    refusals,
                    leaf,
                    fields.get(b"format", b"").decode(),
                    fields.get(b"use_size") == b"1",
                    fields.get(b"use_type") == b"1",
                    text.decode("utf-8"),
                    fields.get(b"plain") == b"1",
                )
                # The status, the request's sequence number echoed, the payload's length.
                seq = int(fields.get(b"seq", b"0"))
                answers.append(struct.pack(">BII", status, seq, len(body)))
                answers.append(body)
                continue
        if answers:
            _write_all(fd_out, b"".join(answers))
            answers = []
        chunk = os.read(fd_in, 1 << 16)
        if not chunk:
            return 0  # end of input (a truncated request at the end is never answered)
        del buf[:at]
        buf += chunk
        at = 0


def _serve_one(encode, refusals, leaf):
    text = sys.stdin.buffer.read().decode("utf-8")
    status, body = _answer(
        encode,
        refusals,
        leaf,
        os.environ.get("SINKCHECK_FORMAT", ""),
        os.environ.get("SINKCHECK_USE_SIZE") == "1",
        os.environ.get("SINKCHECK_USE_TYPE") == "1",
        text,
        os.environ.get("SINKCHECK_INPUT_PLAIN") == "1",
    )
    if status == 0:
        sys.stdout.buffer.write(body)
        sys.stdout.buffer.flush()
        return 0
    sys.stderr.write(body.decode("utf-8", "replace") + "\n")
    return EXIT_REFUSED if status == 1 else EXIT_UNSUPPORTED


def serve(encode, refusals=(), leaf=None):
    """Runs the protocol on stdin/stdout; returns the exit status.

    refusals: exception classes that encode() raises to refuse a value (besides Refused).
    leaf: a function applied to every binary (bytes, or Binary with a subtype) and DISCARDED as
    the value is read, to make the library's own types without a second walk over the value; an
    Unsupported it raises declares the value unsupported before encode() is called."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 250000))  # encoders may recurse on deep values
    try:
        if os.environ.get("SINKCHECK_MODE") == "batch":
            return _serve_batch(encode, refusals, leaf)
        return _serve_one(encode, refusals, leaf)
    except _AdapterError as e:
        # Not an answer: in batch mode the process ends mid-exchange, per vector it exits 70.
        sys.stderr.write(str(e))
        return EXIT_SOFTWARE
