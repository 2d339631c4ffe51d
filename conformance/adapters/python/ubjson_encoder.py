#!/usr/bin/python3
"""python3-ubjson (Debian py-ubjson 0.16.1) as a sinkcheck conformance encoder, UBJSON only.

    sinkcheck conform --format ubjson --mode batch --encoder '/usr/bin/python3 ubjson_encoder.py'

Writes ubjson.dumpb(value) with the library's defaults (binary64 floats, keys in the order the
vector wrote them), container_count=True when the vector asks for use_size. py-ubjson has no
optimized (`$`) containers other than the one it always writes for bytes, so use_type is
declared unsupported. UBJSON has no binary subtype: a binary is its bytes whatever the subtype
(as nlohmann's model writes it). Discarded values have no Python counterpart and are declared
unsupported. py-ubjson refuses what it cannot encode with EncoderException, and a string that is
not UTF-8 with UnicodeEncodeError; any other exception is an error.
"""

import sys

import ubjson

from sinkcheck_protocol import Unsupported, map_leaves, serve, without_subtype


def encode(value, fmt, use_size, use_type):
    if fmt != "ubjson":
        raise Unsupported("py-ubjson writes UBJSON only")
    if use_type:
        raise Unsupported("py-ubjson writes no optimized ($) containers (use_type)")
    return ubjson.dumpb(map_leaves(value, without_subtype), container_count=use_size)


if __name__ == "__main__":
    sys.exit(serve(encode, refusals=(ubjson.EncoderException, UnicodeEncodeError)))
