//! Reading problems from files or standard input.
//!
//! Every command that reads standard input goes through [`stdin`] (or
//! [`read_stdin`]): when standard input is a terminal, they first say on
//! standard error that they are waiting for it, and how to end it, rather
//! than seem to hang.

use anyhow::{Context, Result};
use dancer_formats::text;
use dancer_formats::{Parsed, ProblemFormat};
use std::io::{BufReader, IsTerminal};
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Knuth's DLX text format
    Dlx,
    /// JSON: {"primary": [...], "secondary": [...], "options": [[...], ...]}
    Json,
}

/// The name standard input has in messages (`<stdin>:2:5: ...`).
pub const STDIN_NAME: &str = "<stdin>";

/// How to end input typed at a terminal.
const END_OF_INPUT: &str = if cfg!(windows) {
    "Ctrl-Z then Enter"
} else {
    "Ctrl-D"
};

/// What to say before reading `what` (`"the problem"`, `"puzzles"`) from
/// standard input: something when it is a terminal, where the user may
/// not know that the program waits for them; nothing otherwise.
pub fn stdin_notice(what: &str, is_terminal: bool) -> Option<String> {
    is_terminal
        .then(|| format!("dancer: reading {what} from standard input... ({END_OF_INPUT} to end)"))
}

/// Standard input, to read `what` from: says so first on standard error
/// when it is a terminal (see [`stdin_notice`]).
pub fn stdin(what: &str) -> std::io::StdinLock<'static> {
    let stdin = std::io::stdin();
    if let Some(notice) = stdin_notice(what, stdin.is_terminal()) {
        eprintln!("{notice}");
    }
    stdin.lock()
}

pub use dancer_formats::text::{MAX_SMALL, MAX_TEXT};

/// All of standard input as text, to read `what` from (with the notice of
/// [`stdin`]): for the commands that read all of it at once (at most
/// [`MAX_TEXT`] bytes, lines of puzzles).
pub fn read_stdin(what: &str) -> Result<String> {
    let limits = text::ReadLimits {
        bytes: MAX_TEXT,
        line: text::MAX_PUZZLE_LINE,
        size_hint: 0,
    };
    Ok(text::read_capped(stdin(what), STDIN_NAME, limits)?)
}

/// A file read whole as text, at most `limit` bytes ([`MAX_TEXT`],
/// [`MAX_SMALL`]), with messages that name it (`dancer_formats::text`).
pub fn read_file(path: &Path, limit: u64) -> Result<String> {
    Ok(text::read_file(path, limit)?)
}

/// Reads a problem from `path` (`-` or none for standard input), in
/// `format`, else in the one its name says
/// ([`ProblemFormat::of_path`]: `.json`, else DLX).
pub fn read_problem(path: Option<&str>, format: Option<Format>) -> Result<Parsed> {
    let path = path.unwrap_or("-");
    let format = match format {
        None => ProblemFormat::of_path(Path::new(path)),
        Some(Format::Dlx) => ProblemFormat::Dlx,
        Some(Format::Json) => ProblemFormat::Json,
    };
    let parsed = if path == "-" {
        let what = match format {
            ProblemFormat::Dlx => "the problem (DLX)",
            ProblemFormat::Json => "the problem (JSON)",
        };
        format.read(stdin(what), STDIN_NAME)?
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
        format.read(BufReader::with_capacity(1 << 16, file), path)?
    };
    for w in &parsed.warnings {
        eprintln!("{w}");
    }
    Ok(parsed)
}

/// A file read whole as bytes, at most `limit` bytes, with messages that
/// name it.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let name = path.display();
    let f = std::fs::File::open(path).with_context(|| format!("cannot read {name}"))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        anyhow::bail!("cannot read {name}: it is a directory");
    }
    let mut out = Vec::new();
    f.take(limit + 1)
        .read_to_end(&mut out)
        .with_context(|| format!("cannot read {name}"))?;
    if out.len() as u64 > limit {
        anyhow::bail!("{name} is larger than {} MiB", limit >> 20);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notice_only_on_a_terminal() {
        assert_eq!(stdin_notice("the problem", false), None);
        let n = stdin_notice("puzzles", true).unwrap();
        assert!(n.starts_with("dancer: reading puzzles from standard input..."));
        assert!(n.contains(END_OF_INPUT));
        let n = stdin_notice("the problem (JSON)", true).unwrap();
        assert!(n.chars().count() <= 80, "{n}");
    }
}
