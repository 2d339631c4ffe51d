"""The process side of the sinkcheck sink protocol, for sinks in Python (docs/sink-protocol.md).

A check is an adapter class over the sink and one call:

    from sinkcheck_sink import serve
    serve({"name": "my sink", "capacity": "reported", "growth": "max(8, needed, 2 * capacity)"},
          MySinkAdapter)

and runs as `sinkcheck check-sink -- env PYTHONPATH=DIR python3 my_check.py`, DIR being the
folder of this file (share/sinkcheck/sink-protocol/python once installed). Standard library only.

serve(greeting, make_sink) writes the greeting (its keys are the protocol's: name, seeks,
capacity, growth, grows_when, initial, buffers), then plays every program of its standard input
on a new adapter from make_sink(), and exits 0 at the end of the input. The adapter has:

    write(data: bytes)          a `w` call (and a `b` call when there is no write_byte)
    write_byte(byte: int)       optional: a `b` call
    seek(offset: int)           with seeks=1: move the cursor to offset
    position() -> int           the cursor after each call
    capacity() -> int           with capacity=reported: the target's capacity after each call
    finish()                    optional: the program ended with `F` (flush, close)
    abandon()                   optional: it ended with `A`, or a call failed (let the sink go)
    contents() -> bytes         what the target holds after finish() or abandon()

An exception raised by a call (position() and capacity() included) fails the call: its type and
message become the answer's error text, the adapter is abandoned and the program's remaining
calls are read but not played. An exception from finish() or abandon() is the answer's error
text too. Malformed input (an unknown op, a seek to a sink that declared seeks=0, a program cut
short) ends the process with status 2 and the byte offset on standard error; so does a greeting
the protocol would refuse or an adapter that lacks a method the greeting needs.
"""

import struct
import sys
from array import array

__all__ = ["serve"]

_KEYS = ("name", "seeks", "capacity", "growth", "grows_when", "initial", "buffers")
_NO_CAPACITY = 0xFFFFFFFFFFFFFFFF
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")
_BYTE, _BLOCK, _SEEK, _FINISH, _ABANDON = b"bwsFA"  # the ops, as ints


class _Malformed(Exception):
    """The input or the check broke the protocol: the message goes to stderr, the status is 2."""


class _Input:
    """Buffered binary reads from a stream that know their byte offset, for the error messages.

    It refills with read1(), which returns what has arrived: sinkcheck may wait for an answer
    before it sends more, so a read must never wait for bytes past the call it reads. Only the
    rest of a call that has begun is read with read(), which waits for all of it.
    """

    def __init__(self, stream):
        self._stream = stream
        self._buf = b""
        self._at = 0  # the next unread byte of _buf
        self._base = 0  # the input offset of _buf[0]

    @property
    def offset(self):
        return self._base + self._at

    def byte(self):
        """One byte as an int, or None at the end of the input."""
        if self._at == len(self._buf):
            chunk = self._stream.read1(1 << 16)
            if not chunk:
                return None
            self._base += len(self._buf)
            self._buf, self._at = chunk, 0
        self._at += 1
        return self._buf[self._at - 1]

    def exactly(self, n, op, op_offset):
        """n bytes of the call at op_offset; the end of the input before them is malformed."""
        if self._at + n <= len(self._buf):
            self._at += n
            return self._buf[self._at - n : self._at]
        pieces = [self._buf[self._at :]]
        self._base += len(self._buf)
        self._buf, self._at = b"", 0
        missing = n - len(pieces[0])
        while missing:
            # in pieces of at most 1 MiB: memory grows with what arrives, not with what a length claims
            piece = self._stream.read(min(missing, 1 << 20))
            if not piece:
                raise _Malformed(
                    "truncated input at byte %d: the '%s' call at byte %d is %d byte(s) short"
                    % (self._base, op, op_offset, missing)
                )
            pieces.append(piece)
            self._base += len(piece)
            missing -= len(piece)
        return b"".join(pieces)


class _Declared:
    """What the greeting declares that the helper acts on, and its text."""

    def __init__(self, greeting):
        self.text = _greeting_text(greeting)
        self.seeks = int(greeting.get("seeks", 0)) == 1
        self.reports_capacity = greeting.get("capacity") == "reported"


def _greeting_text(greeting):
    unknown = [key for key in greeting if key not in _KEYS]
    if unknown:
        raise _Malformed("greeting: unknown keys %s (the protocol knows %s)" % (unknown, ", ".join(_KEYS)))
    if not greeting.get("name"):
        raise _Malformed("greeting: a name is required")
    if "growth" in greeting and greeting.get("capacity") != "reported":
        raise _Malformed("greeting: growth needs capacity=reported")
    lines = ["sinkcheck-sink 1"]
    for key in _KEYS:  # the protocol's order, name first
        if key in greeting:
            value = greeting[key]
            if isinstance(value, bool):
                value = int(value)
            value = str(value)
            if "\n" in value or "\r" in value:
                raise _Malformed("greeting: the %s holds a line break" % key)
            lines.append("%s=%s" % (key, value))
    return ("\n".join(lines) + "\n\n").encode("utf-8")


def _error_text(exc):
    # Never empty: an empty error text means "no error" in the answer.
    message = str(exc)
    text = "%s: %s" % (type(exc).__name__, message) if message else type(exc).__name__
    return text.encode("utf-8", "backslashreplace")


class _Program:
    """One program played on one new adapter: what the answer reports."""

    def __init__(self, sink, declared):
        self.sink = sink
        self.reports_capacity = declared.reports_capacity
        self.track = array("Q")  # position, capacity after each call that returned
        self.error = None  # the error text once a call failed
        if self.reports_capacity and not hasattr(sink, "capacity"):
            raise _Malformed("the greeting declares capacity=reported but the adapter has no capacity()")
        if declared.seeks and not hasattr(sink, "seek"):
            raise _Malformed("the greeting declares seeks=1 but the adapter has no seek()")
        self._write_byte = getattr(sink, "write_byte", None) or (lambda byte: sink.write(bytes((byte,))))

    def call(self, op, argument):
        if self.error is not None:
            return  # after a failed call the rest of the program is read, not played
        try:
            if op == "b":
                self._write_byte(argument)
            elif op == "w":
                self.sink.write(argument)
            else:
                self.sink.seek(argument)
            position = self.sink.position()
            capacity = self.sink.capacity() if self.reports_capacity else _NO_CAPACITY
            if capacity is None:
                raise TypeError("capacity() returned None, but the greeting declares capacity=reported")
            # array() raises OverflowError for a negative value before track changes
            self.track += array("Q", (position, capacity))
        except Exception as exc:  # pylint: disable=broad-except  # any exception fails the call
            self.error = _error_text(exc)
            self._end("abandon")

    def end(self, finishing):
        if self.error is None:
            self._end("finish" if finishing else "abandon")

    def _end(self, how):
        method = getattr(self.sink, how, None)
        if method is None:
            return
        try:
            method()
        except Exception as exc:  # pylint: disable=broad-except
            if self.error is None:
                self.error = _error_text(exc)

    def answer(self):
        if sys.byteorder == "big":
            self.track.byteswap()
        error = self.error or b""
        contents = bytes(self.sink.contents())
        return b"".join(
            (
                b"r",
                _U32.pack(len(self.track) // 2),
                self.track.tobytes(),
                _U32.pack(len(error)),
                error,
                _U64.pack(len(contents)),
                contents,
            )
        )


def _play(inp, declared, make_sink):
    """Plays the next program; returns its answer, or None at the end of the input."""
    program = None
    while True:
        at = inp.offset
        op = inp.byte()
        if op is None:
            if program is None:
                return None
            raise _Malformed("truncated input at byte %d: the program has no end (F or A)" % at)
        if program is None:
            program = _Program(make_sink(), declared)
        if op == _BYTE:
            program.call("b", inp.exactly(1, "b", at)[0])
        elif op == _BLOCK:
            n = _U32.unpack(inp.exactly(4, "w", at))[0]
            program.call("w", inp.exactly(n, "w", at))
        elif op == _SEEK and declared.seeks:
            program.call("s", _U64.unpack(inp.exactly(8, "s", at))[0])
        elif op in (_FINISH, _ABANDON):
            program.end(op == _FINISH)
            return program.answer()
        elif op == _SEEK:
            raise _Malformed("malformed input at byte %d: a seek to a sink that declared seeks=0" % at)
        else:
            raise _Malformed("malformed input at byte %d: unknown op 0x%02x" % (at, op))


def serve(greeting, make_sink):
    """Speaks the protocol on stdin and stdout until the end of the input; never returns."""
    out = sys.stdout.buffer
    try:
        declared = _Declared(greeting)
        out.write(declared.text)
        out.flush()
        inp = _Input(sys.stdin.buffer)
        while True:
            answer = _play(inp, declared, make_sink)
            if answer is None:
                sys.exit(0)
            out.write(answer)
            out.flush()
    except _Malformed as exc:
        sys.stderr.write("sinkcheck_sink: %s\n" % exc)
        sys.exit(2)
