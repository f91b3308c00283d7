//! # dancer-formats
//!
//! Reading and writing exact cover problems:
//!
//! * [`dlx`]: Knuth's text format, the input of his programs DLX1 and DLX2,
//!   so that problems made for them run unchanged.
//! * [`json`]: a JSON form of problems.
//! * [`ndjson`]: every NDJSON record that `dancer` prints for programs,
//!   documented in one place.
//! * [`out_file`]: writing a file without losing anyone's data (never the
//!   input, never over a FIFO, a device or a link, whole or not at all).
//! * [`roff`]: the last touches to a man page (its title first, an EXIT
//!   STATUS section).
//! * [`trace`]: the steps of a traced search, as NDJSON records and as
//!   lines in the manner of Knuth's DLX1.
//! * [`text`]: reading an input whole as text within caps on its size and
//!   its lines (an input is hostile until read).
//!
//! Every error and warning says where: `FILE:LINE:COL: message`, the line
//! and column 1-based (a column counts characters), for standard input
//! too (`<stdin>:2:5:`).

pub mod dlx;
pub mod json;
pub mod ndjson;
pub mod out_file;
pub mod roff;
pub mod text;
pub mod trace;

use std::fmt;

/// A place in an input: where the token, value or line in question
/// starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
}

impl fmt::Display for Location {
    /// `FILE:LINE:COL`, always both numbers and never 0 (a 0 made by
    /// mistake is shown as 1).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line.max(1), self.col.max(1))
    }
}

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The input breaks a rule of its format.
    #[error("{at}: {message}")]
    Syntax { at: Location, message: String },
    /// The input could not be read, or an output written.
    #[error("{file}: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
    /// A file that is not written, and why (see [`out_file`]).
    #[error("{file}: {message}")]
    Refused { file: String, message: String },
    /// An input that could not be opened (see [`text`]).
    #[error("cannot open {file}")]
    Open {
        file: String,
        #[source]
        source: std::io::Error,
    },
    /// An input that could not be read to its end (see [`text`]).
    #[error("cannot read {file}")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    /// A folder that could not be created (see [`out_file::write_into`]).
    #[error("cannot create {dir}")]
    Create {
        dir: String,
        #[source]
        source: std::io::Error,
    },
    /// An input larger than its cap of `max` bytes (see [`text`]).
    #[error("{file}: more than {} MiB: larger than dancer reads whole", max >> 20)]
    TooLarge { file: String, max: u64 },
    /// A line longer than `max` bytes (see [`text`]).
    #[error("{file}:{line}: the line is longer than {} KiB", max >> 10)]
    LineTooLong {
        file: String,
        line: usize,
        max: usize,
    },
}

impl FormatError {
    pub(crate) fn at(file: &str, line: usize, col: usize, message: impl Into<String>) -> Self {
        debug_assert!(line >= 1 && col >= 1, "locations are 1-based");
        FormatError::Syntax {
            at: Location {
                file: file.to_string(),
                line,
                col,
            },
            message: message.into(),
        }
    }
    /// Where the error is, for syntax errors.
    pub fn location(&self) -> Option<&Location> {
        match self {
            FormatError::Syntax { at, .. } => Some(at),
            _ => None,
        }
    }
}

/// A warning tied to a place in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub at: Location,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: warning: {}", self.at, self.message)
    }
}

/// A problem read from a file, with the warnings reading it produced.
#[derive(Debug)]
pub struct Parsed {
    pub problem: dancer_core::Problem,
    pub warnings: Vec<Diagnostic>,
}

/// The formats a problem is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemFormat {
    /// Knuth's text format ([`dlx`]).
    Dlx,
    /// The JSON form ([`json`]).
    Json,
}

impl ProblemFormat {
    /// The format a file's name says: JSON when it ends in `.json`, else
    /// DLX.
    pub fn of_path(path: &std::path::Path) -> ProblemFormat {
        match path.extension().is_some_and(|e| e == "json") {
            true => ProblemFormat::Json,
            false => ProblemFormat::Dlx,
        }
    }

    /// Reads a problem in this format from `input`, named `file` in
    /// messages.
    pub fn read<R: std::io::BufRead>(self, input: R, file: &str) -> Result<Parsed, FormatError> {
        match self {
            ProblemFormat::Dlx => dlx::read(input, file),
            ProblemFormat::Json => json::read(input, file),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_is_read_in_the_format_its_name_says() {
        use std::path::Path;
        let json = ProblemFormat::of_path(Path::new("p.json"));
        assert_eq!(json, ProblemFormat::Json);
        assert_eq!(
            ProblemFormat::of_path(Path::new("p.json.dlx")),
            ProblemFormat::Dlx
        );
        let p = json.read(
            r#"{"primary":["A"],"options":[["A"]]}"#.as_bytes(),
            "p.json",
        );
        assert_eq!(p.unwrap().problem.n_options(), 1);
        let e = ProblemFormat::Dlx
            .read("A\nB\n".as_bytes(), "p.dlx")
            .unwrap_err();
        assert!(e.to_string().starts_with("p.dlx:2:"), "{e}");
    }

    #[test]
    fn locations_are_one_based_and_complete() {
        let at = |line, col| {
            Location {
                file: "<stdin>".into(),
                line,
                col,
            }
            .to_string()
        };
        assert_eq!(at(2, 5), "<stdin>:2:5");
        // never a 0, even if one is made by mistake
        assert_eq!(at(0, 0), "<stdin>:1:1");
    }
}
