//! Standard output, exit codes, and the one place where a closed pipe is
//! handled.
//!
//! Every command writes its results through one [`Out`], a buffered
//! standard output, and passes every write error up. `main` ends quietly,
//! with exit code 0, when the error is a closed pipe (`dancer solve big.dlx
//! | head` stops the search as soon as `head` has what it wants); any other
//! write error (a full disk) is an error, exit 2.

use serde::Serialize;
use std::io::{BufWriter, ErrorKind, Write};

/// What a command found, for the exit code.
pub enum Found {
    /// At least one solution (for `sudoku check`: every puzzle unique): 0.
    Some,
    /// None: 1.
    None,
    /// Some input was bad, but the rest was processed: 2.
    Invalid,
    /// A signal (Ctrl-C) stopped the command before the end; what it found
    /// so far was printed: 130.
    Interrupted,
}

/// Buffered standard output.
pub struct Out {
    w: BufWriter<std::io::Stdout>,
}

impl Out {
    pub fn new() -> Self {
        Out {
            w: BufWriter::with_capacity(1 << 16, std::io::stdout()),
        }
    }

    /// Writes `s` and a newline.
    pub fn line(&mut self, s: &str) -> std::io::Result<()> {
        self.w.write_all(s.as_bytes())?;
        self.w.write_all(b"\n")
    }

    /// Writes `s` as it is.
    pub fn text(&mut self, s: &str) -> std::io::Result<()> {
        self.w.write_all(s.as_bytes())
    }

    /// Sends what is buffered on its way.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }

    /// Writes one NDJSON record (one of `dancer_formats::ndjson`'s).
    pub fn record<T: Serialize>(&mut self, r: &T) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.w, r)?;
        self.w.write_all(b"\n")
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.w.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.w.write_all(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

/// Whether `e` is, or was caused by, writing to a closed pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
    })
}
