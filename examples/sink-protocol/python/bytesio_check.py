#!/usr/bin/python3
"""io.BytesIO under the sinkcheck sink protocol (docs/sink-protocol.md), CPython 3.11.

    sinkcheck check-sink -- env PYTHONPATH=testkit/sink-protocol/python \
        python3 examples/sink-protocol/python/bytesio_check.py [--plant drop-byte|seek|rule]

A `w` call is bio.write(data), a `b` call bio.write() of one byte, a seek bio.seek(offset); the
position is bio.tell(). Finishing is bio.flush() (a no-op; close() would discard the bytes),
abandoning lets the BytesIO go. The capacity is the size of the bytes object BytesIO keeps its
bytes in (Modules/_io/bytesio.c, resize_buffer). Its growth rule is bytearray's without the
trailing NUL byte: BytesIO grows when the write's end passes the buffer, and a write of no bytes
changes nothing, not even after a seek past the end.

--plant drop-byte: a block of 3 bytes or more is written without its last byte, and the cursor
skips that byte (bio.seek(1, SEEK_CUR)), so the position counts it but the target never gets it.
--plant seek: a seek lands one byte past the offset asked for.
--plant rule: the greeting forgets the one byte a major upsize adds (`needed` for `needed + 1`).
"""

import argparse
import io
import sys

from sinkcheck_sink import serve

GROWTH = "8 * needed <= 9 * capacity ? needed + (needed >> 3) + (needed < 9 ? 3 : 6) : needed + 1"
PLANTED_GROWTH = "8 * needed <= 9 * capacity ? needed + (needed >> 3) + (needed < 9 ? 3 : 6) : needed"

# sys.getsizeof(bio) counts the object, plus the bytes object holding the buffer when BytesIO
# owns it alone (bytesio_sizeof). A new BytesIO shares the interpreter's empty bytes object,
# which is not counted: the capacity is 0 then, and otherwise what the bytes object's size adds
# to an empty one's.
EMPTY_BYTESIO = sys.getsizeof(io.BytesIO())
EMPTY_BYTES = sys.getsizeof(b"")


class BytesIOSink:
    def __init__(self, plant):
        self.bio = io.BytesIO()
        self.plant = plant

    def write(self, data):
        if self.plant == "drop-byte" and len(data) >= 3:
            self.bio.write(data[:-1])
            self.bio.seek(1, io.SEEK_CUR)
        else:
            self.bio.write(data)

    def seek(self, offset):
        self.bio.seek(offset + 1 if self.plant == "seek" else offset)

    def position(self):
        return self.bio.tell()

    def capacity(self):
        owned = sys.getsizeof(self.bio) - EMPTY_BYTESIO
        return owned - EMPTY_BYTES if owned else 0

    def finish(self):
        self.bio.flush()

    def contents(self):
        return self.bio.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plant", choices=("drop-byte", "seek", "rule"))
    plant = parser.parse_args().plant
    greeting = {
        "name": "io.BytesIO (CPython %d.%d)" % sys.version_info[:2],
        "seeks": 1,
        "capacity": "reported",
        "growth": PLANTED_GROWTH if plant == "rule" else GROWTH,
        "grows_when": "length > 0 && needed > capacity",
    }
    serve(greeting, lambda: BytesIOSink(plant))


if __name__ == "__main__":
    main()
