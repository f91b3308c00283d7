//! Reading problems from files or standard input.

use anyhow::{Context, Result};
use dancer_formats::Parsed;
use std::io::{BufReader, IsTerminal, Read};
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Knuth's DLX text format
    Dlx,
    /// JSON: {"primary": [...], "secondary": [...], "options": [[...], ...]}
    Json,
}

/// Reads a problem from `path` (`-` or none for standard input). The format
/// is `format`, else guessed from the extension (`.json`), else DLX.
pub fn read_problem(path: Option<&str>, format: Option<Format>) -> Result<Parsed> {
    let path = path.unwrap_or("-");
    let format = format.unwrap_or_else(|| {
        if Path::new(path).extension().is_some_and(|e| e == "json") {
            Format::Json
        } else {
            Format::Dlx
        }
    });
    let parsed = if path == "-" {
        let stdin = std::io::stdin().lock();
        match format {
            Format::Dlx => dancer_formats::dlx::read(stdin, "<stdin>")?,
            Format::Json => dancer_formats::json::read(stdin, "<stdin>")?,
        }
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
        let reader = BufReader::with_capacity(1 << 16, file);
        match format {
            Format::Dlx => dancer_formats::dlx::read(reader, path)?,
            Format::Json => dancer_formats::json::read(reader, path)?,
        }
    };
    for w in &parsed.warnings {
        eprintln!("{w}");
    }
    Ok(parsed)
}

/// Reads the whole of standard input as text, for a command given `-` for
/// a document it reads at once (`dancer poly solve -`). On a terminal it
/// first says on standard error what it waits for ([`waiting_note`]), so
/// that a command typed without its input does not seem to hang.
pub fn read_stdin_text(what: &str) -> Result<String> {
    let mut stdin = std::io::stdin().lock();
    if let Some(note) = waiting_note(stdin.is_terminal(), what) {
        eprintln!("{note}");
    }
    let mut text = String::new();
    stdin
        .read_to_string(&mut text)
        .context("cannot read standard input")?;
    Ok(text)
}

/// What to say on standard error before reading `what` (`the puzzle`) from
/// standard input: `reading the puzzle from standard input...` when it is a
/// terminal, nothing when it is a file or a pipe.
pub fn waiting_note(terminal: bool, what: &str) -> Option<String> {
    terminal.then(|| format!("reading {what} from standard input..."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_what_it_waits_for_on_a_terminal_only() {
        assert_eq!(
            waiting_note(true, "the puzzle").as_deref(),
            Some("reading the puzzle from standard input...")
        );
        assert_eq!(waiting_note(false, "the puzzle"), None);
    }
}
