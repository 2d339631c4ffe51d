#!/usr/bin/python3
"""python3-msgpack (Debian 1.0.3) as a sinkcheck conformance encoder, MessagePack only.

    sinkcheck conform --format msgpack --mode batch --encoder '/usr/bin/python3 msgpack_encoder.py'

Writes msgpack.packb(value) with the library's defaults (use_bin_type=True, floats as float 64).
A binary subtype becomes an ExtType; subtypes 128..255 are passed as the signed type byte
nlohmann writes (-128..-1), larger ones are refused by ExtType itself (ValueError): the mapping of
docs/conformance.md, "Binary subtypes". Discarded
values have no Python counterpart and are declared unsupported. A string that is not UTF-8 is
refused by UnicodeEncodeError; any other exception is an error.
"""

import sys

import msgpack

from sinkcheck_protocol import DISCARDED, Binary, Refused, Unsupported, serve


def ext(b):
    code = b.subtype - 256 if 128 <= b.subtype <= 255 else b.subtype
    return msgpack.ExtType(code, b.data)


def default(obj):
    if isinstance(obj, Binary):
        return ext(obj)
    if obj is DISCARDED:
        raise Unsupported("a discarded value has no Python counterpart")
    # msgpack hands over what it cannot pack itself: integers beyond 64 bits, for one.
    raise Refused("msgpack cannot pack %r" % (obj,))


def encode(value, fmt, use_size, use_type):
    if fmt != "msgpack":
        raise Unsupported("msgpack-python writes MessagePack only")
    return msgpack.packb(value, default=default)


if __name__ == "__main__":
    sys.exit(serve(encode, refusals=(UnicodeEncodeError, ValueError)))
