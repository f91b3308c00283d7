//! Reading a file or a stream whole as text, within limits.
//!
//! Every input a front end reads whole (a batch of puzzles, a polyform
//! puzzle, a checkpoint, a part's result, a ZDD) comes through
//! [`read_capped`] or [`read_file`]. The input is hostile until read:
//!
//! * its size is capped ([`MAX_TEXT`], [`MAX_SMALL`], or the caller's
//!   own): memory follows the input, and an input may have no end
//!   (`/dev/zero`);
//! * so is its longest line ([`MAX_PUZZLE_LINE`] for puzzles), found a
//!   newline at a time as the bytes come in, so that input without line
//!   breaks is refused at that length, not read to the end;
//! * it must be UTF-8; the first invalid byte is reported at its line and
//!   column (in characters), and a byte order mark at the start is
//!   dropped.
//!
//! A file's size, when known, only sizes the buffer (never beyond the
//! cap): the file is read whole at once instead of copied as the buffer
//! grows. Every error says which input ([`FormatError`]: `Io` with the input's
//! name, `TooLarge`, `LineTooLong`, `Syntax` at the bad byte).

use crate::{FormatError, Location};
use std::io::Read;
use std::path::Path;

/// The most bytes of text read whole (puzzles, a puzzle file, a ZDD):
/// 1 GiB, some twelve million Sudoku lines.
pub const MAX_TEXT: u64 = 1 << 30;

/// The most bytes of a small file read whole: a polyform puzzle, a
/// jigsaw map, a checkpoint or a shard result (64 MiB).
pub const MAX_SMALL: u64 = 64 << 20;

/// The longest line of puzzles read (1 MiB: a 25x25 grid on one line is
/// 625 characters).
pub const MAX_PUZZLE_LINE: usize = 1 << 20;

/// The limits of one read: at most `bytes` in all, lines of at most
/// `line` bytes; `size_hint` bytes are made room for at once.
#[derive(Clone, Copy, Debug)]
pub struct ReadLimits {
    pub bytes: u64,
    pub line: usize,
    pub size_hint: usize,
}

/// Reads `input` whole as UTF-8 text within `limits`; `name` is the input
/// in errors.
pub fn read_capped(
    mut input: impl Read,
    name: &str,
    limits: ReadLimits,
) -> Result<String, FormatError> {
    let mut bytes = Vec::with_capacity(limits.size_hint);
    prepare_buffer(&mut bytes, limits.size_hint);
    let mut line = 1usize;
    let mut line_len = 0usize;
    loop {
        // 64 KiB at a time, read straight into the text's buffer
        let start = bytes.len();
        let n = (&mut input)
            .take(1 << 16)
            .read_to_end(&mut bytes)
            .map_err(|source| FormatError::Read {
                file: name.to_string(),
                source,
            })?;
        if n == 0 {
            break;
        }
        // the longest line so far, found a newline at a time
        let mut from = 0;
        for nl in dancer_core::cpu::find_bytes(b'\n', &bytes[start..]).chain(std::iter::once(n)) {
            line_len += nl - from;
            if line_len > limits.line {
                return Err(FormatError::LineTooLong {
                    file: name.to_string(),
                    line,
                    max: limits.line,
                });
            }
            if nl < n {
                line += 1;
                line_len = 0;
            }
            from = nl + 1;
        }
        if bytes.len() as u64 > limits.bytes {
            return Err(FormatError::TooLarge {
                file: name.to_string(),
                max: limits.bytes,
            });
        }
    }
    if bytes.starts_with("\u{feff}".as_bytes()) {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let text = e.as_bytes();
        let before = &text[..e.utf8_error().valid_up_to()];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let col = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
        FormatError::Syntax {
            at: Location {
                file: name.to_string(),
                line,
                col,
            },
            message: "invalid UTF-8".into(),
        }
    })
}

/// A file read whole as text, at most `limit` bytes ([`MAX_TEXT`],
/// [`MAX_SMALL`], or the caller's), named in errors as its path shows.
/// Lines of text as large as [`MAX_TEXT`] are puzzles, at most
/// [`MAX_PUZZLE_LINE`] bytes each; a smaller file's lines are bounded by
/// the file.
pub fn read_file(path: &Path, limit: u64) -> Result<String, FormatError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|source| FormatError::Open {
        file: name.clone(),
        source,
    })?;
    let line = if limit == MAX_TEXT {
        MAX_PUZZLE_LINE
    } else {
        usize::try_from(limit).unwrap_or(usize::MAX)
    };
    // room for the whole file at once when its size is known (never more
    // than the limit: a size is only a hint)
    let hint = file.metadata().map_or(0, |m| m.len()).min(limit + 1);
    let limits = ReadLimits {
        bytes: limit,
        line,
        size_hint: usize::try_from(hint).unwrap_or(0),
    };
    read_capped(file, &name, limits)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8], bytes: u64, line: usize) -> Result<String, FormatError> {
        let limits = ReadLimits {
            bytes,
            line,
            size_hint: 0,
        };
        read_capped(text, "in", limits)
    }

    #[test]
    fn reads_within_the_limits_and_drops_a_byte_order_mark() {
        assert_eq!(read(b"ab\ncd\n", 100, 10).unwrap(), "ab\ncd\n");
        assert_eq!(read("\u{feff}x".as_bytes(), 100, 10).unwrap(), "x");
    }

    #[test]
    fn each_limit_is_an_error_that_says_where() {
        let e = read(b"ab\nabcdefgh\n", 100, 4).unwrap_err();
        assert!(
            matches!(
                e,
                FormatError::LineTooLong {
                    line: 2,
                    max: 4,
                    ..
                }
            ),
            "{e:?}"
        );
        let e = read(&[b'\n'; 200], 100, 4).unwrap_err();
        assert!(matches!(e, FormatError::TooLarge { max: 100, .. }), "{e:?}");
        let e = read(b"ok\nx\xffy", 100, 10).unwrap_err();
        assert_eq!(e.to_string(), "in:2:2: invalid UTF-8");
    }

    #[test]
    fn a_missing_file_is_named() {
        let e = read_file(Path::new("/no/such/file"), MAX_SMALL).unwrap_err();
        assert!(
            matches!(&e, FormatError::Open { file, .. } if file == "/no/such/file"),
            "{e:?}"
        );
    }
}
