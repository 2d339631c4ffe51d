//! `Vec<u8>` through `std::io::Write` under the sinkcheck sink protocol (docs/sink-protocol.md).
//!
//! ```text
//! dir=$(mktemp -d) && cp testkit/sink-protocol/rust/sinkcheck_sink.rs \
//!     examples/sink-protocol/rust/vec_check.rs "$dir"
//! rustc -O --edition 2021 "$dir"/vec_check.rs -o vec_check
//! sinkcheck check-sink -- ./vec_check [--plant drop-byte|rule]
//! ```
//!
//! The sink is the target itself, the helper's `&mut Vec<u8>`: a `w` call is `write_all` (Vec's
//! `Write`, which is `extend_from_slice`), a `b` call `push`; the position is `len()` and the
//! capacity `capacity()`. There is nothing to finish; dropping a `&mut Vec<u8>` changes nothing.
//! The growth rule is `RawVec::grow_amortized`: twice the capacity, at least the bytes needed,
//! and at least 8 for a vector of bytes (`MIN_NON_ZERO_CAP`); `push` grows as `reserve(1)` does.
//!
//! --plant drop-byte: a block of 3 bytes or more is written without its last byte, and the
//! position counts the dropped bytes as if they had been written.
//! --plant rule: the greeting forgets the minimum of 8.

// the helper, copied beside this file (share/sinkcheck/sink-protocol/rust/sinkcheck_sink.rs)
mod sinkcheck_sink;

use sinkcheck_sink::{plant_option, serve, Greeting, Outcome, Sink};
use std::io::Write;

struct VecSink<'t> {
    target: &'t mut Vec<u8>,
    drop_byte: bool,
    dropped: u64, // bytes --plant drop-byte did not write
}

impl Sink for VecSink<'_> {
    fn write_byte(&mut self, byte: u8) -> Outcome {
        self.target.push(byte);
        Ok(())
    }

    fn write(&mut self, mut data: &[u8]) -> Outcome {
        if self.drop_byte && data.len() >= 3 {
            data = &data[..data.len() - 1];
            self.dropped += 1;
        }
        Ok(self.target.write_all(data)?)
    }

    fn position(&self) -> u64 {
        self.target.len() as u64 + self.dropped
    }

    fn capacity(&self) -> Option<u64> {
        Some(self.target.capacity() as u64)
    }
}

fn main() {
    let plant = plant_option(&["drop-byte", "rule"]);
    let growth = if plant == "rule" {
        "max(needed, 2 * capacity)"
    } else {
        "max(8, needed, 2 * capacity)"
    };
    let greeting = Greeting {
        name: "Vec<u8> (Rust std)",
        capacity_reported: true,
        growth: Some(growth),
        ..Greeting::default()
    };
    let drop_byte = plant == "drop-byte";
    serve(&greeting, |target| {
        Box::new(VecSink {
            target,
            drop_byte,
            dropped: 0,
        })
    });
}
