//! Reading problems from files or standard input.

use anyhow::{Context, Result};
use dancer_formats::Parsed;
use std::io::BufReader;
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
