#!/usr/bin/python3
"""python3-bson (Debian 3.11: the `bson` package of pymongo 3.11, not the standalone one on
PyPI) as a sinkcheck conformance encoder, BSON only.

    sinkcheck conform --format bson --mode batch --encoder '/usr/bin/python3 bson_encoder.py'

Writes bson.encode(document), pymongo's own entry point, with its defaults: int32 for an
integer that fits, else int64; every float a double; keys in the order the vector wrote them;
bytes as binary subtype 0. Debian ships it without the _cbson C extension, so this is the
pure-Python encoder. A binary with a subtype becomes bson.binary.Binary(data, subtype), which
refuses a subtype beyond 255 (ValueError). Subtype 2 (binary, old) is special: the value's
bytes are what the document holds, an int32 count and the payload after it, while pymongo's
Binary(payload, 2) writes the count itself; so the count is taken off, and bytes without a
valid count (which must be refused) have no pymongo counterpart and are declared unsupported.
Discarded values have no Python counterpart either. pymongo refuses a value with InvalidDocument,
an integer beyond 64 bits with OverflowError, a string that is not UTF-8 with
UnicodeEncodeError, and a document that is not a mapping with TypeError; any other exception is
an error.
"""

import struct
import sys
from collections.abc import Mapping

import bson
import bson.binary
import bson.errors

from sinkcheck_protocol import DISCARDED, Binary, Refused, Unsupported, map_leaves, serve

OLD_BINARY = 2


def leaf(v):
    if v is DISCARDED:
        raise Unsupported("a discarded value has no Python counterpart")
    if not isinstance(v, Binary):
        return v
    data = v.data
    if v.subtype == OLD_BINARY:
        if len(data) < 4 or struct.unpack("<i", data[:4])[0] != len(data) - 4:
            raise Unsupported("subtype 2 bytes without their int32 count: pymongo writes the count itself")
        data = data[4:]
    try:
        return bson.binary.Binary(data, v.subtype)
    except ValueError as e:
        raise Refused("bson.binary.Binary: %s" % e)


def encode(value, fmt, use_size, use_type):
    if fmt != "bson":
        raise Unsupported("pymongo's bson writes BSON only")
    document = map_leaves(value, leaf)
    try:
        return bson.encode(document)
    except TypeError as e:
        if isinstance(document, Mapping):
            raise  # not the refusal of a non-document: an error
        raise Refused("TypeError: %s" % e)


if __name__ == "__main__":
    sys.exit(serve(encode, refusals=(bson.errors.InvalidDocument, OverflowError, UnicodeEncodeError)))
