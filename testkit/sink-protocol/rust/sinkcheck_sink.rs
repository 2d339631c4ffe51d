//! The process side of the sinkcheck sink protocol, for sinks written in Rust
//! (docs/sink-protocol.md). Edition 2021, rustc 1.63 or later, std only, no cargo.
//!
//! A check is one file that includes this one as a module, a `Sink` adapter and a `main` that
//! calls `serve`:
//!
//! ```text
//! #[path = "PATH/TO/sinkcheck_sink.rs"] // relative to the check's own file
//! mod sinkcheck_sink;
//! use sinkcheck_sink::{serve, Greeting, Outcome, Sink};
//! ```
//!
//! built with `rustc -O --edition 2021 my_check.rs -o my_check` and run as
//! `sinkcheck check-sink -- ./my_check`.
//!
//! `serve(&greeting, make_sink)` writes the greeting, then plays every program of its standard
//! input and exits 0 at the end of the input. For each program the helper owns a new, empty
//! target `Vec<u8>` and hands it to `make_sink(&mut target)`: a sink writes into it (a
//! `BufWriter<&mut Vec<u8>>`), is it (`&mut Vec<u8>` through `std::io::Write`), or moves its own
//! bytes there when it is dropped. The program's end is `finish` after `F`; after `A` the sink
//! is dropped without it, as Rust drops an abandoned writer. The answer's contents are what the
//! target holds after that. An `Err` from a call fails the call: its text becomes the answer's
//! error text, the sink is dropped and the program's remaining calls are read but not played;
//! an `Err` from `finish` is the answer's error text too. A panic is no answer: it ends the
//! process. Malformed input (an unknown op, a seek to a sink that declared no seeks, a program
//! cut short) ends the process with status 2 and the byte offset on standard error.

use std::error::Error;
use std::io::{self, BufRead, BufWriter, Write};
use std::process;

/// What a call of a sink returns: an `Err`'s text is the call's error text.
pub type Outcome = Result<(), Box<dyn Error>>;

/// What the process declares (docs/sink-protocol.md, "The conversation").
#[derive(Default)]
pub struct Greeting<'g> {
    pub name: &'g str,
    /// The sink takes `s` calls: implement `Sink::seek`.
    pub seeks: bool,
    /// capacity=reported: `Sink::capacity` gives the target's capacity after every call.
    pub capacity_reported: bool,
    pub growth: Option<&'g str>,
    /// None: the protocol's default, needed > capacity.
    pub grows_when: Option<&'g str>,
    pub initial: u64,
    pub buffers: u64,
}

/// One sink over a new, empty target, for one program.
pub trait Sink {
    /// A `b` call.
    fn write_byte(&mut self, byte: u8) -> Outcome {
        self.write(&[byte])
    }
    /// A `w` call.
    fn write(&mut self, data: &[u8]) -> Outcome;
    /// An `s` call, with `seeks: true`.
    fn seek(&mut self, _offset: u64) -> Outcome {
        Err("this sink does not seek".into())
    }
    /// The cursor after each call.
    fn position(&self) -> u64;
    /// The target's capacity after each call, with `capacity_reported: true`.
    fn capacity(&self) -> Option<u64> {
        None
    }
    /// The program ended with `F`: flush, close. The sink is dropped afterwards.
    fn finish(self: Box<Self>) -> Outcome {
        Ok(())
    }
}

const NO_CAPACITY: u64 = u64::MAX;

/// For a check that can plant bugs of its own, to show that sinkcheck catches them: the KIND of
/// `--plant KIND` on the command line, one of `kinds` ("" without the option); anything else
/// ends the process with a usage line and status 2.
#[allow(dead_code)] // a check that plants no bugs does not call it
pub fn plant_option(kinds: &[&'static str]) -> &'static str {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => return "",
        [flag, kind] if flag == "--plant" => {
            if let Some(k) = kinds.iter().find(|k| *k == kind) {
                return k;
            }
        }
        _ => {}
    }
    let program = std::env::args().next().unwrap_or_default();
    eprintln!("usage: {} [--plant {}]", program, kinds.join("|"));
    process::exit(2);
}

/// Speaks the protocol on stdin and stdout until the end of the input; never returns.
pub fn serve<F>(greeting: &Greeting, mut make_sink: F) -> !
where
    F: for<'t> FnMut(&'t mut Vec<u8>) -> Box<dyn Sink + 't>,
{
    if let Err(message) = run(greeting, &mut make_sink) {
        eprintln!("sinkcheck_sink: {}", message);
        process::exit(2);
    }
    process::exit(0);
}

fn run<F>(greeting: &Greeting, make_sink: &mut F) -> Result<(), String>
where
    F: for<'t> FnMut(&'t mut Vec<u8>) -> Box<dyn Sink + 't>,
{
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let broken = |e: io::Error| format!("writing the answer: {}", e);
    let text = greeting_text(greeting)?;
    out.write_all(text.as_bytes()).map_err(broken)?;
    out.flush().map_err(broken)?;
    // Stdin's lock is a BufRead that reads what has arrived and never waits for more than a call
    // needs, which matters: sinkcheck may wait for an answer before it sends more.
    let mut input = Input {
        stdin: io::stdin().lock(),
        offset: 0,
        block: Vec::new(),
    };
    while let Some(answer) = play(&mut input, greeting, make_sink)? {
        out.write_all(&answer).map_err(broken)?;
        out.flush().map_err(broken)?;
    }
    Ok(())
}

fn greeting_text(g: &Greeting) -> Result<String, String> {
    if g.name.is_empty() {
        return Err("greeting: a name is required".into());
    }
    if g.growth.is_some() && !g.capacity_reported {
        return Err("greeting: growth needs capacity_reported".into());
    }
    let capacity = if g.capacity_reported {
        "reported"
    } else {
        "none"
    };
    let mut lines = vec![
        format!("name={}", g.name),
        format!("seeks={}", g.seeks as u8),
        format!("capacity={}", capacity),
    ];
    if let Some(growth) = g.growth {
        lines.push(format!("growth={}", growth));
    }
    if let Some(grows_when) = g.grows_when {
        lines.push(format!("grows_when={}", grows_when));
    }
    lines.push(format!("initial={}", g.initial));
    lines.push(format!("buffers={}", g.buffers));
    if let Some(line) = lines
        .iter()
        .find(|l| l.contains(|c| c == '\n' || c == '\r'))
    {
        return Err(format!("greeting: a line break in {:?}", line));
    }
    Ok(format!("sinkcheck-sink 1\n{}\n\n", lines.join("\n")))
}

/// Reads stdin and counts the bytes read, for the error messages.
struct Input {
    stdin: io::StdinLock<'static>,
    offset: u64,
    block: Vec<u8>, // reused for `w` calls
}

impl Input {
    /// The next byte, or None at the end of the input.
    fn op(&mut self) -> Result<Option<u8>, String> {
        let buf = fill(&mut self.stdin, self.offset)?;
        let op = match buf.first() {
            Some(&op) => op,
            None => return Ok(None),
        };
        self.stdin.consume(1);
        self.offset += 1;
        Ok(Some(op))
    }

    /// n bytes of the `op` call at byte `at`; the end of the input before them is malformed.
    fn exactly(&mut self, n: usize, op: u8, at: u64) -> Result<&[u8], String> {
        self.block.clear();
        while self.block.len() < n {
            let buf = fill(&mut self.stdin, self.offset)?;
            if buf.is_empty() {
                return Err(format!(
                    "truncated input at byte {}: the '{}' call at byte {} is {} byte(s) short",
                    self.offset,
                    op as char,
                    at,
                    n - self.block.len()
                ));
            }
            let take = buf.len().min(n - self.block.len());
            self.block.extend_from_slice(&buf[..take]);
            self.stdin.consume(take);
            self.offset += take as u64;
        }
        Ok(&self.block)
    }

    fn u32(&mut self, op: u8, at: u64) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.exactly(4, op, at)?.try_into().unwrap(),
        ))
    }

    fn u64(&mut self, op: u8, at: u64) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.exactly(8, op, at)?.try_into().unwrap(),
        ))
    }
}

/// What has arrived of the input, at least a byte of it; empty at its end.
fn fill<'s>(stdin: &'s mut io::StdinLock<'static>, offset: u64) -> Result<&'s [u8], String> {
    stdin
        .fill_buf()
        .map_err(|e| format!("reading the input at byte {}: {}", offset, e))
}

enum Call<'d> {
    Byte(u8),
    Block(&'d [u8]),
    Seek(u64),
}

/// One program played on one sink.
struct Program<'t> {
    sink: Option<Box<dyn Sink + 't>>, // None once dropped: after a failed call, or at the end
    capacity_reported: bool,
    report: Report,
}

/// What the answer reports besides the target's bytes.
#[derive(Default)]
struct Report {
    track: Vec<u8>, // position, capacity after each call that returned
    done: u32,
    error: Option<String>,
}

impl Program<'_> {
    /// Plays a call unless one before it failed.
    fn call(&mut self, call: Call) {
        let sink = match self.sink.as_mut() {
            Some(sink) => sink,
            None => return,
        };
        let outcome = match call {
            Call::Byte(byte) => sink.write_byte(byte),
            Call::Block(data) => sink.write(data),
            Call::Seek(offset) => sink.seek(offset),
        };
        let capacity_reported = self.capacity_reported;
        let played = outcome.and_then(|()| {
            let capacity = if capacity_reported {
                sink.capacity()
                    .ok_or("capacity() gave None, but the greeting declares capacity_reported")?
            } else {
                NO_CAPACITY
            };
            Ok((sink.position(), capacity))
        });
        let report = &mut self.report;
        match played {
            Ok((position, capacity)) => {
                report.track.extend_from_slice(&position.to_le_bytes());
                report.track.extend_from_slice(&capacity.to_le_bytes());
                report.done += 1;
            }
            Err(e) => {
                report.error = Some(error_text(e.as_ref()));
                self.sink = None; // dropped, as after `A`
            }
        }
    }

    /// The program's end: finish after `F`, drop after `A`. Gives up the borrow of the target.
    fn end(mut self, finishing: bool) -> Report {
        if let Some(sink) = self.sink.take() {
            if finishing {
                if let Err(e) = sink.finish() {
                    self.report.error = Some(error_text(e.as_ref()));
                }
            }
        }
        self.report
    }
}

impl Report {
    fn answer(self, contents: &[u8]) -> Vec<u8> {
        let error = self.error.unwrap_or_default();
        let mut a =
            Vec::with_capacity(1 + 4 + self.track.len() + 4 + error.len() + 8 + contents.len());
        a.push(b'r');
        a.extend_from_slice(&self.done.to_le_bytes());
        a.extend_from_slice(&self.track);
        a.extend_from_slice(&(error.len() as u32).to_le_bytes());
        a.extend_from_slice(error.as_bytes());
        a.extend_from_slice(&(contents.len() as u64).to_le_bytes());
        a.extend_from_slice(contents);
        a
    }
}

/// Never empty: an empty error text means "no error" in the answer.
fn error_text(e: &dyn Error) -> String {
    let text = e.to_string();
    if text.is_empty() {
        format!("{:?}", e)
    } else {
        text
    }
}

/// Plays the next program; Ok(None) at the end of the input.
fn play<F>(input: &mut Input, g: &Greeting, make_sink: &mut F) -> Result<Option<Vec<u8>>, String>
where
    F: for<'t> FnMut(&'t mut Vec<u8>) -> Box<dyn Sink + 't>,
{
    let mut at = input.offset;
    let mut op = match input.op()? {
        Some(op) => op,
        None => return Ok(None),
    };
    let mut target = Vec::new();
    let mut program = Program {
        sink: Some(make_sink(&mut target)),
        capacity_reported: g.capacity_reported,
        report: Report::default(),
    };
    let report = loop {
        match op {
            b'b' => program.call(Call::Byte(input.exactly(1, op, at)?[0])),
            b'w' => {
                let n = input.u32(op, at)?;
                program.call(Call::Block(input.exactly(n as usize, op, at)?));
            }
            b's' if g.seeks => program.call(Call::Seek(input.u64(op, at)?)),
            b'F' | b'A' => break program.end(op == b'F'),
            b's' => {
                return Err(format!(
                    "malformed input at byte {}: a seek to a sink that declared seeks=0",
                    at
                ))
            }
            _ => {
                return Err(format!(
                    "malformed input at byte {}: unknown op 0x{:02x}",
                    at, op
                ))
            }
        }
        at = input.offset;
        op = input.op()?.ok_or_else(|| {
            format!(
                "truncated input at byte {}: the program has no end (F or A)",
                at
            )
        })?;
    };
    Ok(Some(report.answer(&target)))
}
