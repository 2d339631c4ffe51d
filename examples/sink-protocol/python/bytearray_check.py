#!/usr/bin/python3
"""bytearray under the sinkcheck sink protocol (docs/sink-protocol.md), CPython 3.11.

    sinkcheck check-sink -- env PYTHONPATH=testkit/sink-protocol/python \
        python3 examples/sink-protocol/python/bytearray_check.py [--plant drop-byte|rule]

A `w` call is `ba += data`, a `b` call ba.append(byte) (both resize through
PyByteArray_Resize); the position is len(ba). There is nothing to finish or abandon. The
capacity is ob_alloc, which sys.getsizeof(ba) counts on top of an empty bytearray's size; it
includes the trailing NUL byte CPython keeps, which is why the array grows when needed + 1
passes it (Objects/bytearrayobject.c). A write of no bytes changes nothing, not even on a new
bytearray, whose ob_alloc is 0.

--plant drop-byte: a block of 3 bytes or more is appended without its last byte, and the
position counts the dropped bytes as if they had been written.
--plant rule: the greeting forgets the NUL byte: it declares that the array grows when
needed > capacity.
"""

import argparse
import sys

from sinkcheck_sink import serve

GROWTH = "8 * needed <= 9 * capacity ? needed + (needed >> 3) + (needed < 9 ? 3 : 6) : needed + 1"
GROWS_WHEN = "length > 0 && needed + 1 > capacity"
PLANTED_GROWS_WHEN = "length > 0 && needed > capacity"

EMPTY_BYTEARRAY = sys.getsizeof(bytearray())


class BytearraySink:
    def __init__(self, plant):
        self.ba = bytearray()
        self.plant = plant
        self.dropped = 0  # bytes --plant drop-byte did not write

    def write(self, data):
        if self.plant == "drop-byte" and len(data) >= 3:
            self.ba += data[:-1]
            self.dropped += 1
        else:
            self.ba += data

    def write_byte(self, byte):
        self.ba.append(byte)

    def position(self):
        return len(self.ba) + self.dropped

    def capacity(self):
        return sys.getsizeof(self.ba) - EMPTY_BYTEARRAY

    def contents(self):
        return bytes(self.ba)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plant", choices=("drop-byte", "rule"))
    plant = parser.parse_args().plant
    greeting = {
        "name": "bytearray (CPython %d.%d)" % sys.version_info[:2],
        "seeks": 0,
        "capacity": "reported",
        "growth": GROWTH,
        "grows_when": PLANTED_GROWS_WHEN if plant == "rule" else GROWS_WHEN,
    }
    serve(greeting, lambda: BytearraySink(plant))


if __name__ == "__main__":
    main()
