//! Standard output, exit codes, and the one place where a closed pipe is
//! handled.
//!
//! Exit codes are decided here, once, for every command: a command says
//! what it [`Found`] ([`Found::of_search`] for a search, from its count and
//! why it stopped), and `main` exits with [`Found::code`]. The table of
//! codes, [`EXIT_CODES`], is what `--help`, the man page and the guide
//! (docs/cli.md) say.
//!
//! Every command writes its results through one [`Out`], a buffered
//! standard output, and passes every write error up. `main` ends quietly,
//! with exit code 0, when the error is a closed pipe (`dancer solve big.dlx
//! | head` stops the search as soon as `head` has what it wants); any other
//! write error (a full disk) is an error, exit 2.

use dancer_core::parallel::{SearchVerdict, Stop};
use serde::Serialize;
use std::io::{BufWriter, ErrorKind, Write};

/// What a command found, for the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// At least one solution (for `sudoku check`: every puzzle unique),
    /// also when a `--limit` stopped the search: 0.
    Some,
    /// None, after a complete search: 1.
    None,
    /// Some input was bad, but the rest was processed: 2.
    Invalid,
    /// A signal (Ctrl-C, SIGTERM, SIGHUP) stopped the command before the
    /// end; what it found so far was printed: 130, whatever was found.
    Interrupted,
}

/// Exit code of a success: something was found.
pub const EXIT_FOUND: u8 = 0;
/// Exit code of a complete search that found nothing.
pub const EXIT_NONE: u8 = 1;
/// Exit code of an error (bad flags, bad input, a file that cannot be
/// read or written).
pub const EXIT_ERROR: u8 = 2;
/// Exit code of a run stopped by a signal: 128 + 2, as a shell reports a
/// command killed by SIGINT, for SIGTERM and SIGHUP too.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Every exit code and what it means: for `--help`, the man page and the
/// guide, docs/cli.md (a test checks that it agrees).
pub const EXIT_CODES: &[(u8, &str)] = &[
    (
        EXIT_FOUND,
        "found: at least one solution (sudoku: every puzzle solved; check: every one unique); \
         also when --limit (or --trace-limit) stopped the search early (the summary then says \
         so, and --json \"stopped\":\"limit\": a count is a lower bound)",
    ),
    (EXIT_NONE, "none: the search was complete and found no solution"),
    (
        EXIT_ERROR,
        "error: bad flags, bad input, a file that cannot be read or written",
    ),
    (
        EXIT_INTERRUPTED,
        "interrupted: Ctrl-C (SIGINT), SIGTERM or SIGHUP stopped the search; what was found so \
         far is printed, and the summary says \"interrupted\" (--json: \"stopped\":\"interrupted\"); \
         a second signal ends the program at once",
    ),
];

/// [`EXIT_CODES`] as text for `--help`, wrapped to `width` columns.
pub fn exit_codes_text(width: usize) -> String {
    let mut s = String::from("Exit codes:\n");
    for (code, what) in EXIT_CODES {
        let mut line = format!("  {code:<4} ");
        let indent = line.len();
        for word in what.split(' ') {
            if line.len() + 1 + word.len() > width && line.len() > indent {
                s.push_str(line.trim_end());
                s.push('\n');
                line = " ".repeat(indent);
            }
            line.push_str(word);
            line.push(' ');
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push_str("A closed pipe (dancer solve big.dlx | head) ends the search quietly, with 0.");
    s
}

impl Found {
    /// What a search that found `solutions` and `stopped` early or not
    /// found: [`SearchVerdict::of`], the one rule.
    pub fn of_search(solutions: u64, stopped: Option<Stop>) -> Found {
        match SearchVerdict::of(solutions, stopped) {
            SearchVerdict::Found => Found::Some,
            SearchVerdict::NoneFound => Found::None,
            SearchVerdict::Interrupted => Found::Interrupted,
        }
    }

    /// The exit code.
    pub fn code(self) -> u8 {
        match self {
            Found::Some => EXIT_FOUND,
            Found::None => EXIT_NONE,
            Found::Invalid => EXIT_ERROR,
            Found::Interrupted => EXIT_INTERRUPTED,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exit_rule() {
        assert_eq!(Found::of_search(3, None), Found::Some);
        assert_eq!(Found::of_search(0, None), Found::None);
        let interrupted = Found::of_search(5, Some(Stop::Interrupted));
        assert_eq!(interrupted, Found::Interrupted);
        let all = [Found::Some, Found::None, Found::Invalid, Found::Interrupted];
        let codes: Vec<u8> = all.iter().map(|f| f.code()).collect();
        assert_eq!(codes, vec![0, 1, 2, 130]);
        // every code has its line in the table, once
        for c in codes {
            assert_eq!(EXIT_CODES.iter().filter(|(k, _)| *k == c).count(), 1);
        }
    }

    #[test]
    fn exit_codes_text_fits_80_columns() {
        let t = exit_codes_text(80);
        for line in t.lines() {
            assert!(line.chars().count() <= 80, "{line:?}");
        }
        for (code, _) in EXIT_CODES {
            assert!(t.contains(&format!("\n  {code:<4} ")), "{t}");
        }
    }
}
