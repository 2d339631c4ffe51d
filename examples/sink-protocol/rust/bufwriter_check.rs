//! `std::io::BufWriter` over a `Vec<u8>` under the sinkcheck sink protocol
//! (docs/sink-protocol.md).
//!
//! ```text
//! dir=$(mktemp -d) && cp testkit/sink-protocol/rust/sinkcheck_sink.rs \
//!     examples/sink-protocol/rust/bufwriter_check.rs "$dir"
//! rustc -O --edition 2021 "$dir"/bufwriter_check.rs -o bufwriter_check
//! sinkcheck check-sink -- ./bufwriter_check [--plant drop-byte]
//! ```
//!
//! The writer is `BufWriter::new(&mut target)`: dropping a `BufWriter<Vec<u8>>` would drop its
//! vector with it, so a program that keeps the bytes of a writer it drops writes through
//! `&mut Vec<u8>`, whose `Write` is the vector's. A `w` call is `write_all`, a `b` call
//! `write_all` of one byte; the position is what reached the vector plus what the writer holds,
//! `get_ref().len() + buffer().len()`. Finishing is `flush`; abandoning is dropping the writer,
//! which flushes too (unless a write panicked), so the target may hold every byte: buffers=8192
//! (the writer's capacity) allows no more than that many fewer. The capacity is none: the
//! writer's buffer never grows, and the vector's growth is `Vec<u8>`'s (vec_check.rs).
//!
//! --plant drop-byte: a block of 3 bytes or more is written without its last byte, and the
//! position counts the dropped bytes as if they had been written.

// the helper, copied beside this file (share/sinkcheck/sink-protocol/rust/sinkcheck_sink.rs)
mod sinkcheck_sink;

use sinkcheck_sink::{plant_option, serve, Greeting, Outcome, Sink};
use std::io::{self, BufWriter, Write};

struct BufWriterSink<'t> {
    writer: BufWriter<&'t mut Vec<u8>>,
    drop_byte: bool,
    dropped: u64, // bytes --plant drop-byte did not write
}

impl Sink for BufWriterSink<'_> {
    fn write(&mut self, mut data: &[u8]) -> Outcome {
        if self.drop_byte && data.len() >= 3 {
            data = &data[..data.len() - 1];
            self.dropped += 1;
        }
        Ok(self.writer.write_all(data)?)
    }

    fn position(&self) -> u64 {
        (self.writer.get_ref().len() + self.writer.buffer().len()) as u64 + self.dropped
    }

    fn finish(mut self: Box<Self>) -> Outcome {
        Ok(self.writer.flush()?)
    }
}

fn main() {
    let drop_byte = plant_option(&["drop-byte"]) == "drop-byte";
    let greeting = Greeting {
        name: "BufWriter<&mut Vec<u8>> (Rust std)",
        buffers: BufWriter::new(io::sink()).capacity() as u64,
        ..Greeting::default()
    };
    serve(&greeting, |target| {
        Box::new(BufWriterSink {
            writer: BufWriter::new(target),
            drop_byte,
            dropped: 0,
        })
    });
}
