#!/usr/bin/python3
"""python3-bjdata (Debian pybj 0.2.6) as a sinkcheck conformance encoder, BJData only.

    sinkcheck conform --format bjdata --mode batch --encoder '/usr/bin/python3 bjdata_encoder.py'

Writes bjdata.dumpb(value) with the library's defaults (binary64 floats, keys in the order the
vector wrote them), container_count=True when the vector asks for use_size. pybj writes
optimized (`$`) containers only for bytes and numpy arrays, never for lists or dicts, so use_type
is declared unsupported. A JData ND-array annotation (an object with `_ArrayType_`,
`_ArraySize_`, `_ArrayData_`) is an ordinary object to pybj and is passed as one: turning it
into a numpy array is the separate jdata package's job, not the encoder's. BJData has no binary
subtype: a binary is its bytes whatever the subtype. Discarded values have no Python
counterpart and are declared unsupported. pybj refuses what it cannot encode with
EncoderException, and a string that is not UTF-8 with UnicodeEncodeError; any other exception
is an error.

pybj 0.2.6 implements BJData Draft 1, which is big-endian; nlohmann 3.11.2 and the corpus follow
Draft 2, which made every number little-endian (docs/conformance-results.md, findings).
"""

import sys

import bjdata

from sinkcheck_protocol import Unsupported, map_leaves, serve, without_subtype


def encode(value, fmt, use_size, use_type):
    if fmt != "bjdata":
        raise Unsupported("pybj writes BJData only")
    if use_type:
        raise Unsupported("pybj writes no optimized ($) containers for lists and dicts (use_type)")
    return bjdata.dumpb(map_leaves(value, without_subtype), container_count=use_size)


if __name__ == "__main__":
    sys.exit(serve(encode, refusals=(bjdata.EncoderException, UnicodeEncodeError)))
