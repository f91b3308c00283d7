//! Reading problems from files or standard input.
//!
//! Every command that reads standard input goes through [`stdin`] (or
//! [`read_stdin`]): when standard input is a terminal, they first say on
//! standard error that they are waiting for it, and how to end it, rather
//! than seem to hang.

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

/// The most bytes of text a command reads whole (puzzles, a puzzle file,
/// a checkpoint): 1 GiB, some twelve million Sudoku lines. Beyond it, an
/// error: memory follows the input, and the input has an end (`/dev/zero`
/// has none).
pub const MAX_TEXT: u64 = 1 << 30;

/// The most bytes of a small file read whole: a polyform puzzle, a
/// jigsaw map, a checkpoint or a shard result (64 MiB).
pub const MAX_SMALL: u64 = 64 << 20;

/// The longest line of puzzles read (1 MiB: a 25x25 grid on one line is
/// 625 characters): input without line breaks (`/dev/zero`) is refused at
/// this length, not read to the end.
pub const MAX_PUZZLE_LINE: usize = 1 << 20;

/// Reads `input` whole as UTF-8 text, at most `limit` bytes and lines of
/// at most `max_line` bytes; `name` is the input in messages. A byte
/// order mark at the start is dropped.
fn read_capped(
    mut input: impl Read,
    name: &str,
    limit: u64,
    max_line: usize,
    size_hint: usize,
) -> Result<String> {
    let mut bytes = Vec::with_capacity(size_hint);
    prepare_buffer(&mut bytes, size_hint);
    let mut line = 1usize;
    let mut line_len = 0usize;
    loop {
        // 64 KiB at a time, read straight into the text's buffer
        let start = bytes.len();
        let n = (&mut input)
            .take(1 << 16)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {name}"))?;
        if n == 0 {
            break;
        }
        let chunk = &bytes[start..];
        // the longest line so far, found a newline at a time
        let mut from = 0;
        for nl in dancer_core::cpu::find_bytes(b'\n', chunk).chain(std::iter::once(n)) {
            line_len += nl - from;
            if line_len > max_line {
                anyhow::bail!(
                    "{name}:{line}: the line is longer than {} KiB",
                    max_line >> 10
                );
            }
            if nl < n {
                line += 1;
                line_len = 0;
            }
            from = nl + 1;
        }
        if bytes.len() as u64 > limit {
            anyhow::bail!(
                "{name}: more than {} MiB: larger than dancer reads whole",
                limit >> 20
            );
        }
    }
    if bytes.starts_with("\u{feff}".as_bytes()) {
        bytes.drain(..3);
    }
    match String::from_utf8(bytes) {
        Ok(t) => Ok(t),
        Err(e) => {
            let text = e.as_bytes();
            let before = &text[..e.utf8_error().valid_up_to()];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let col = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
            anyhow::bail!("{name}:{line}:{col}: invalid UTF-8")
        }
    }
}

/// All of standard input as text, to read `what` from (with the notice of
/// [`stdin`]): for the commands that read all of it at once (at most
/// [`MAX_TEXT`] bytes).
pub fn read_stdin(what: &str) -> Result<String> {
    read_capped(stdin(what), STDIN_NAME, MAX_TEXT, MAX_PUZZLE_LINE, 0)
}

/// Readies the buffer of a large input before anything is read into it,
/// on Linux: its 2 MiB-aligned part backed by huge pages where the system
/// lets a program ask (`madvise` mode), and the first `len` bytes
/// faulted in by one call instead of a page fault every 4 KiB as the read
/// fills them (a 4 MiB batch of puzzles took a thousand, a twentieth of
/// `dancer sudoku solve`'s time on it). Only hints: where they are
/// refused (an older kernel), or on another system, nothing changes.
fn prepare_buffer(buf: &mut Vec<u8>, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4 << 10;
        const HUGE: usize = 2 << 20;
        if len < HUGE || buf.capacity() < len {
            return;
        }
        let start = buf.as_mut_ptr() as usize;
        let end = start + buf.capacity();
        let (from, to) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if to > from {
            // SAFETY: [from, to) lies within the vector's own allocation;
            // MADV_HUGEPAGE changes how its pages are backed, never what
            // they hold, and nothing points into them yet
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
        let (from, to) = (start.next_multiple_of(PAGE), (start + len) / PAGE * PAGE);
        if to > from {
            // SAFETY: as above; MADV_POPULATE_WRITE faults the pages in as
            // a first write would, and never changes what a page holds
            unsafe {
                libc::madvise(
                    from as *mut libc::c_void,
                    to - from,
                    libc::MADV_POPULATE_WRITE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (buf, len);
}

/// A file read whole as text, at most `limit` bytes ([`MAX_TEXT`],
/// [`MAX_SMALL`]), with messages that name it.
pub fn read_file(path: &Path, limit: u64) -> Result<String> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {name}"))?;
    // puzzles come in short lines; a small file's lines are bounded by it
    let max_line = if limit == MAX_TEXT {
        MAX_PUZZLE_LINE
    } else {
        limit as usize
    };
    // room for the whole file at once when its size is known (never more
    // than the limit: a size is only a hint), so that a large file is not
    // copied as its buffer grows
    let hint = file.metadata().map_or(0, |m| m.len()).min(limit + 1);
    read_capped(file, &name, limit, max_line, hint as usize)
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
        let what = match format {
            Format::Dlx => "the problem (DLX)",
            Format::Json => "the problem (JSON)",
        };
        let input = stdin(what);
        match format {
            Format::Dlx => dancer_formats::dlx::read(input, STDIN_NAME)?,
            Format::Json => dancer_formats::json::read(input, STDIN_NAME)?,
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
