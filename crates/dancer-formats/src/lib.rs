//! # dancer-formats
//!
//! Reading and writing exact cover problems:
//!
//! * [`dlx`]: Knuth's text format, the input of his programs DLX1 and DLX2,
//!   so that problems made for them run unchanged.
//! * [`json`]: a JSON form of problems.
//! * [`ndjson`]: every NDJSON record that `dancer` prints for programs,
//!   documented in one place.
//!
//! Every error says where: `FILE:LINE:COL: message`.

pub mod dlx;
pub mod json;
pub mod ndjson;

use std::fmt;

/// A place in an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters); 0 when the whole line is meant.
    pub col: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col > 0 {
            write!(f, "{}:{}:{}", self.file, self.line, self.col)
        } else {
            write!(f, "{}:{}", self.file, self.line)
        }
    }
}

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input breaks a rule of its format.
    #[error("{at}: {message}")]
    Syntax { at: Location, message: String },
    /// The input could not be read.
    #[error("{file}: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    pub(crate) fn at(file: &str, line: usize, col: usize, message: impl Into<String>) -> Self {
        Error::Syntax {
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
            Error::Syntax { at, .. } => Some(at),
            Error::Io { .. } => None,
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
