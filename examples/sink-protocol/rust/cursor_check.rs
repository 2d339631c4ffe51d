//! `std::io::Cursor<Vec<u8>>` under the sinkcheck sink protocol (docs/sink-protocol.md).
//!
//! ```text
//! dir=$(mktemp -d) && cp testkit/sink-protocol/rust/sinkcheck_sink.rs \
//!     examples/sink-protocol/rust/cursor_check.rs "$dir"
//! rustc -O --edition 2021 "$dir"/cursor_check.rs -o cursor_check
//! sinkcheck check-sink -- ./cursor_check [--plant drop-byte|seek|rule]
//! ```
//!
//! A `w` call is `write_all`, a `b` call `write_all` of one byte, a seek
//! `seek(SeekFrom::Start(offset))`; the position is `position()` and the capacity
//! `get_ref().capacity()`. `write_all` of no bytes calls no `write`, so it fills no gap after a
//! seek past the end (a `write` of no bytes would, in Rust 1.63). There is nothing to finish;
//! the sink owns its Cursor and moves the Cursor's bytes into the helper's target when it is
//! dropped, after `F` or `A`. The growth rule is `Vec<u8>`'s (vec_check.rs): a write the vector
//! does not hold reserves what it needs. A write after a seek past the end grows in two steps in
//! Rust 1.63 (`resize` to the cursor, then `extend_from_slice`); the checker does not judge
//! those writes against the rule.
//!
//! --plant drop-byte: a block of 3 bytes or more is written without its last byte, and the
//! cursor skips that byte (`SeekFrom::Current(1)`), so the position counts it but the target
//! never gets it.
//! --plant seek: a seek lands one byte past the offset asked for.
//! --plant rule: the greeting declares growth by half the capacity instead of doubling.

// the helper, copied beside this file (share/sinkcheck/sink-protocol/rust/sinkcheck_sink.rs)
mod sinkcheck_sink;

use sinkcheck_sink::{plant_option, serve, Greeting, Outcome, Sink};
use std::io::{Cursor, Seek, SeekFrom, Write};

struct CursorSink<'t> {
    cursor: Cursor<Vec<u8>>,
    target: &'t mut Vec<u8>,
    plant: &'static str,
}

impl Sink for CursorSink<'_> {
    fn write(&mut self, data: &[u8]) -> Outcome {
        if self.plant == "drop-byte" && data.len() >= 3 {
            self.cursor.write_all(&data[..data.len() - 1])?;
            self.cursor.seek(SeekFrom::Current(1))?;
            return Ok(());
        }
        Ok(self.cursor.write_all(data)?)
    }

    fn seek(&mut self, offset: u64) -> Outcome {
        let offset = if self.plant == "seek" {
            offset + 1
        } else {
            offset
        };
        self.cursor.seek(SeekFrom::Start(offset))?;
        Ok(())
    }

    fn position(&self) -> u64 {
        self.cursor.position()
    }

    fn capacity(&self) -> Option<u64> {
        Some(self.cursor.get_ref().capacity() as u64)
    }
}

impl Drop for CursorSink<'_> {
    fn drop(&mut self) {
        *self.target = std::mem::take(self.cursor.get_mut());
    }
}

fn main() {
    let plant = plant_option(&["drop-byte", "seek", "rule"]);
    let growth = if plant == "rule" {
        "max(8, needed, capacity + capacity / 2)"
    } else {
        "max(8, needed, 2 * capacity)"
    };
    let greeting = Greeting {
        name: "Cursor<Vec<u8>> (Rust std)",
        seeks: true,
        capacity_reported: true,
        growth: Some(growth),
        ..Greeting::default()
    };
    serve(&greeting, |target| {
        Box::new(CursorSink {
            cursor: Cursor::new(Vec::new()),
            target,
            plant,
        })
    });
}
