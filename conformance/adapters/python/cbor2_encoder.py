#!/usr/bin/python3
"""python3-cbor2 (Debian 5.4.6) as a sinkcheck conformance encoder, CBOR only.

    sinkcheck conform --format cbor --mode batch --encoder '/usr/bin/python3 cbor2_encoder.py'
    ... --level canonical --encoder '/usr/bin/python3 cbor2_encoder.py --canonical'
    ... --level canonical --encoder '/usr/bin/python3 cbor2_encoder.py --canonical-pure'

Writes what a typical program writes: cbor2.dumps(value), or dumps(value, canonical=True) with
--canonical (the C extension). --canonical-pure uses cbor2's pure-Python CBOREncoder with
canonical=True instead, which does not share the C extension's half-float bug (formats.md §2)
and is the independent check on the corpus's canonical CBOR bytes. A binary subtype becomes a
CBORTag over the bytes (how nlohmann's model maps subtypes to CBOR). Discarded values have no
Python counterpart and are declared unsupported. cbor2 refuses a value by raising CBOREncodeError,
and a string that is not UTF-8 by UnicodeEncodeError; any other exception is an error.
"""

import io
import sys

import cbor2
import cbor2.encoder
import cbor2.types

from sinkcheck_protocol import DISCARDED, Binary, Unsupported, serve

CANONICAL = "--canonical" in sys.argv[1:]
PURE = "--canonical-pure" in sys.argv[1:]
# The pure-Python encoder knows only the pure-Python tag type.
Tag = cbor2.types.CBORTag if PURE else cbor2.CBORTag


def to_cbor2(leaf):
    # Applied by the helper to each binary and discarded value as it reads the value, so the
    # value needs no second walk (the corpus nests 1,000 deep and more).
    if isinstance(leaf, Binary):
        return Tag(leaf.subtype, leaf.data)
    if leaf is DISCARDED:
        raise Unsupported("a discarded value has no Python counterpart")
    return leaf


def encode(value, fmt, use_size, use_type):
    if fmt != "cbor":
        raise Unsupported("cbor2 writes CBOR only")
    if PURE:
        out = io.BytesIO()
        cbor2.encoder.CBOREncoder(out, canonical=True).encode(value)
        return out.getvalue()
    return cbor2.dumps(value, canonical=CANONICAL)


if __name__ == "__main__":
    sys.exit(serve(encode, refusals=(cbor2.CBOREncodeError, UnicodeEncodeError), leaf=to_cbor2))
