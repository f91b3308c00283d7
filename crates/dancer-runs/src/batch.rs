//! Shards of a batch file: a file of puzzles, one a line, split by its
//! lines into parts that run apart (on the machines of a cluster, or one
//! after another), each writing a *part file*, and merged back into
//! exactly what one run over the whole file prints.
//!
//! # The split
//!
//! The `L` lines of the input (every line: blank lines and `#` comments
//! too, counted as `wc -l` does plus a last line without a line break) are
//! cut into `N` contiguous ranges: part `K` of `N` (1-based) has the lines
//! `floor((K-1)L/N)` to `floor(KL/N)` (0-based, the end left out)
//! ([`part_lines`], [`part_of`]). Every line is in exactly one part; with
//! more parts than lines some parts are empty, and an empty part is
//! complete. Each part runs the ordinary batch ([`dancer_sudoku::batch`]) on its
//! slice of the text with [`Batch::first_line`](dancer_sudoku::batch::Batch) set to
//! its first line, so that its lines are numbered as in the whole file,
//! and its output is the whole run's output for those lines: the outputs
//! of parts `1..=N` one after the other are the output of the whole file,
//! byte for byte.
//!
//! # The part file
//!
//! ```json
//! {
//!   "format": "dancer-sudoku-shard",
//!   "version": "0.1.0",               // of dancer
//!   "input": "4bd1c0a4c1b9f0e2",      // fingerprint of the whole input, the command
//!                                     // and its flags that change the output
//!   "command": "solve",               // or "count", "check"
//!   "shard": 2, "shards": 4,          // this part, of how many
//!   "lines": 10000,                   // lines of the whole input
//!   "first": 2501, "end": 5001,       // this part's lines: the first, one past the last (1-based)
//!   "next": 3712,                     // the first line not yet answered (end when complete)
//!   "unique": 1210, "multiple": 0, "none": 0, "invalid": 1,   // the puzzles answered
//!   "complete": false,
//!   "stopped": "interrupted",         // when a signal stopped it (else left out)
//!   "seconds": 0.42,                  // of work, all runs of the part together
//!   "output": "8127536...\n...",      // what the part printed so far, exactly
//!   "checksum": "9f86d081884c7d65"    // of all the rest (below)
//! }
//! ```
//!
//! The `input` ([`fingerprint`]) is a 64-bit hash of the whole input text,
//! the command and every flag that changes what it prints (the rules, the
//! layout, `--json`, the engine, `--pretty`, `--limit`; not `--threads`),
//! taken 8 bytes at a time (a gigabyte of puzzles in a fraction of a
//! second: every part hashes the whole file): parts of other files or
//! flags do not merge, and a part resumes only on its own input.
//!
//! A part starts from a new record, or from one read back that goes on
//! with it ([`PartFile::start`]). A part interrupted (or killed: the
//! record is saved every few seconds while it runs) goes on from `next`:
//! the batch runs on the lines `next..end` with `first_line = next`, and
//! what it prints is appended to `output` ([`PartRun::run`]: the record
//! kept and saved as the answers come in; the caller writes the file).
//!
//! # Files read back are checked
//!
//! [`PartFile::from_json`] checks a file whole before anything uses it:
//!
//! * the `checksum`: 16 hex digits of a 64-bit FNV-1a hash of the record's
//!   compact JSON without the checksum (fields in the order above), as
//!   [`crate::search`] checks its files; a file whose checksum is
//!   missing or does not match is refused;
//! * every field in range and consistent with the others: the format, the
//!   command, `input` 16 hex digits, `1 <= shard <= shards`, `first` and
//!   `end` the lines that the split gives part `shard` of `shards` of
//!   `lines` lines, `first <= next <= end`, `complete` exactly when
//!   `next == end`, no `stopped` in a complete part, the puzzles answered
//!   at most the lines answered (a puzzle is a line), the output empty
//!   exactly when no puzzle was answered and otherwise at least a line per
//!   puzzle, ending with a line break, `seconds` finite, not negative, at
//!   most [`MAX_SECONDS`].
//!
//! Nothing is allocated by a number read from a file: the sizes of what is
//! read are those of the file itself, and the split is arithmetic.
//!
//! # Merging
//!
//! [`merge`] takes the parts of one run (their headers: the command line
//! reads each file twice, once to check them all, once to print its
//! output, so that one part's output at a time is in memory) and refuses
//! parts of other inputs, commands, versions or splits, a part given
//! twice, parts missing and parts incomplete; [`to_rerun`] says instead
//! which parts to run again, as `crate::parts::ToRerun` does for
//! searches (the same `sbatch --array` form, `3,5-6`).

use crate::parts::{Differs, Field, PartHeader, PartsError, ToRerun};
use crate::search::ShardSpec;
use dancer_sudoku::batch::{Answers, Batch, BatchError, LineOutcome, Tally};
use dancer_sudoku::records::BatchOutput;
use dancer_sudoku::{Layout, SudokuEngine};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The `format` of a part file.
pub const FORMAT: &str = "dancer-sudoku-shard";

/// The most seconds of work a part file may hold (about 31 years), as in
/// [`crate::search`].
pub const MAX_SECONDS: f64 = crate::search::MAX_SAVED_SECONDS;

/// The most bytes of a part file read back (4 GiB): its output is what the
/// part printed, and a part of a gigabyte of puzzles printed with `--json`
/// is larger than the input.
pub const MAX_PART_BYTES: u64 = 4 << 30;

/// The commands whose batches are split.
pub const COMMANDS: &[&str] = &["solve", "count", "check"];

/// The version of dancer written into part files.
pub fn version() -> &'static str {
    crate::search::version()
}

/// The number of lines of `text`, as the batch reads them: its line
/// breaks, plus a last line without one.
pub fn count_lines(text: &str) -> usize {
    let breaks = dancer_core::cpu::find_bytes(b'\n', text.as_bytes()).count();
    breaks + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// The lines of part `k` of `n` of a text of `lines` lines: the first and
/// one past the last, 1-based (equal for an empty part). `k` must be 1 to
/// `n`.
pub fn part_lines(lines: usize, ShardSpec { k, n }: ShardSpec) -> (usize, usize) {
    debug_assert!(1 <= k && k <= n, "part {k} of {n}");
    // (k - 1) * lines can be larger than a usize: in 128 bits it cannot
    let at = |j: usize| (j as u128 * lines as u128 / n.max(1) as u128) as usize + 1;
    (at(k - 1), at(k))
}

/// The bytes of `text` that hold its lines `first` to `end` (1-based, the
/// end left out), line breaks included: from the start of line `first` to
/// the start of line `end` (the end of the text for a line past the last).
pub fn line_bytes(text: &str, first: usize, end: usize) -> Range<usize> {
    debug_assert!(1 <= first && first <= end);
    // the start of 0-based line i: after the i-th line break
    let (from, to) = (first - 1, end - 1);
    let mut start = if from == 0 { Some(0) } else { None };
    let mut stop = if to == 0 { Some(0) } else { None };
    if start.is_none() || stop.is_none() {
        for (i, at) in dancer_core::cpu::find_bytes(b'\n', text.as_bytes()).enumerate() {
            if i + 1 == from {
                start = Some(at + 1);
            }
            if i + 1 == to {
                stop = Some(at + 1);
                break;
            }
        }
    }
    let len = text.len();
    let start = start.unwrap_or(len);
    start..stop.unwrap_or(len).max(start)
}

/// The part file that part `spec` writes: `out` when given, else the
/// file it resumes, else `shard-K-of-N.json`.
pub fn part_path(out: Option<&Path>, resume: Option<&Path>, spec: ShardSpec) -> PathBuf {
    match out.or(resume) {
        Some(p) => p.to_path_buf(),
        None => PathBuf::from(format!("shard-{}-of-{}.json", spec.k, spec.n)),
    }
}

/// A part of a text: its lines (1-based, the end left out) and their
/// bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Lines of the whole text.
    pub lines: usize,
    pub first: usize,
    pub end: usize,
    pub bytes: Range<usize>,
}

/// Part `spec` of `text` (see the module documentation).
pub fn part_of(text: &str, spec: ShardSpec) -> Part {
    let lines = count_lines(text);
    let (first, end) = part_lines(lines, spec);
    Part {
        lines,
        first,
        end,
        bytes: line_bytes(text, first, end),
    }
}

/// A 64-bit hash of bytes, 8 at a time (FxHash's step, then a final mix):
/// fast enough for a gigabyte of input in a fraction of a second, for
/// telling inputs apart (not against forgery: that is not what it is for).
struct Hasher(u64);

impl Hasher {
    const K: u64 = 0x517c_c1b7_2722_0a95;

    fn word(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(Self::K);
    }

    /// A field: its length, then its bytes (so that fields cannot run
    /// into each other).
    fn field(&mut self, b: &[u8]) {
        self.word(b.len() as u64);
        let mut words = b.chunks_exact(8);
        for w in &mut words {
            self.word(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(last));
        }
    }

    /// MurmurHash3's finaliser: every bit of the state moves every bit of
    /// the result.
    fn finish(self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// The fingerprint of a sharded run (the `input` of its part files): the
/// whole input `text`, the `command` and `flags`, each a name and its
/// value as the command line has it after parsing (every flag that changes
/// the output; not `--threads`), in a fixed order. 16 hex digits.
pub fn fingerprint(text: &str, command: &str, flags: &[(&str, &str)]) -> String {
    let mut h = Hasher(0);
    h.field(FORMAT.as_bytes());
    h.field(command.as_bytes());
    for (name, value) in flags {
        h.field(name.as_bytes());
        h.field(value.as_bytes());
    }
    h.field(text.as_bytes());
    format!("{:016x}", h.finish())
}

/// What changes a batch's output, which the fingerprint of its parts
/// holds: the rules as asked (a jigsaw map by its content), the layout,
/// records or text, the engine and what the command prints of each puzzle;
/// not the input's name, nor the threads.
#[derive(Clone, Copy, Debug)]
pub struct PartSettings<'a> {
    pub boxes: Option<&'a str>,
    pub jigsaw: Option<&'a str>,
    pub diagonal: bool,
    pub windoku: bool,
    pub layout: Layout,
    pub json: bool,
    pub engine: SudokuEngine,
    pub output: BatchOutput,
}

impl PartSettings<'_> {
    /// The fingerprint of a run with these settings on `text` (the whole
    /// input): [`fingerprint`] of its command and each setting by name, in
    /// a fixed order.
    pub fn fingerprint(&self, text: &str) -> String {
        let own = match self.output {
            BatchOutput::Count { limit } => ("limit", limit.to_string()),
            BatchOutput::Solve { pretty } | BatchOutput::Check { pretty } => {
                ("pretty", pretty.to_string())
            }
        };
        let words = [self.diagonal, self.windoku, self.json].map(|b| b.to_string());
        let flags = [
            ("box", self.boxes.unwrap_or_default()),
            ("jigsaw", self.jigsaw.unwrap_or_default()),
            ("diagonal", &words[0]),
            ("windoku", &words[1]),
            ("layout", self.layout.name()),
            ("json", &words[2]),
            ("engine", self.engine.name()),
            (own.0, &own.1),
        ];
        fingerprint(text, self.output.command(), &flags)
    }
}

/// Why a part stopped before its end.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Stopped {
    /// A signal (Ctrl-C, SIGTERM, SIGHUP).
    Interrupted,
}

/// A part file (see the module documentation for the fields).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PartFile {
    pub format: String,
    pub version: String,
    pub input: String,
    pub command: String,
    pub shard: usize,
    pub shards: usize,
    pub lines: usize,
    pub first: usize,
    pub end: usize,
    pub next: usize,
    pub unique: u64,
    pub multiple: u64,
    pub none: u64,
    pub invalid: u64,
    pub complete: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
    pub seconds: f64,
    pub output: String,
    /// Of the rest of the record: made by [`PartFile::to_json`], checked
    /// by [`PartFile::from_json`] (and kept, to tell two readings of a
    /// file apart).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub checksum: String,
}

/// A part file that cannot be read back: not JSON of a part, damaged, or
/// a field out of range.
#[derive(Debug, thiserror::Error)]
pub enum PartReadError {
    #[error("not a Sudoku shard part file: {0}")]
    Json(#[from] serde_json::Error),
    #[error("not a Sudoku shard part file (format {0:?})")]
    Format(String),
    #[error("no checksum: not a file this dancer wrote")]
    NoChecksum,
    #[error("the checksum does not match: the file was changed or damaged since it was written")]
    Checksum,
    #[error("{field}: {why}")]
    Field { field: &'static str, why: String },
    /// A file read to go on with a part that it does not go on with
    /// ([`PartFile::start`]).
    #[error(transparent)]
    Resume(#[from] PartResumeError),
}

/// The `format` of a JSON document, if it is an object that has one:
/// which kind of file it is, without reading the rest into memory.
pub fn format_of(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Format {
        format: String,
    }
    serde_json::from_str::<Format>(text).ok().map(|f| f.format)
}

/// FNV-1a 64 of the record's compact JSON without its checksum.
fn checksum_of(p: &PartFile) -> String {
    let mut bare = p.clone();
    bare.checksum.clear();
    crate::search::checksum(&bare)
}

impl PartFile {
    /// Part `spec` of a run of `command` on an input of `lines` lines with
    /// fingerprint `input`, as it starts: nothing answered (complete when
    /// the part is empty).
    pub fn new(input: &str, command: &str, spec: ShardSpec, lines: usize) -> PartFile {
        let (first, end) = part_lines(lines, spec);
        PartFile {
            format: FORMAT.into(),
            version: version().into(),
            input: input.into(),
            command: command.into(),
            shard: spec.k,
            shards: spec.n,
            lines,
            first,
            end,
            next: first,
            unique: 0,
            multiple: 0,
            none: 0,
            invalid: 0,
            complete: first == end,
            stopped: None,
            seconds: 0.0,
            output: String::new(),
            checksum: String::new(),
        }
    }

    /// Which part it is.
    pub fn spec(&self) -> ShardSpec {
        ShardSpec {
            k: self.shard,
            n: self.shards,
        }
    }

    /// The puzzles answered, as a batch's tally (not stopped).
    pub fn tally(&self) -> Tally {
        Tally {
            unique: self.unique,
            multiple: self.multiple,
            none: self.none,
            invalid: self.invalid,
            stopped: false,
        }
    }

    /// Counts a batch's tally in (checked: a sum beyond 64 bits is `None`).
    pub fn add(&mut self, t: &Tally) -> Option<()> {
        let sum = add_tally(&self.tally(), t)?;
        self.unique = sum.unique;
        self.multiple = sum.multiple;
        self.none = sum.none;
        self.invalid = sum.invalid;
        Some(())
    }

    /// The puzzles answered (`None`: more than 64 bits hold, a forged
    /// file).
    pub fn puzzles(&self) -> Option<u64> {
        self.unique
            .checked_add(self.multiple)?
            .checked_add(self.none)?
            .checked_add(self.invalid)
    }

    /// The record as a JSON document (pretty, as it is saved), with its
    /// checksum.
    pub fn to_json(&self) -> Vec<u8> {
        let mut p = self.clone();
        p.checksum = checksum_of(&p);
        serde_json::to_vec_pretty(&p).expect("plain data serialises")
    }

    /// Reads a part file and checks it whole (see the module
    /// documentation).
    pub fn from_json(text: &str) -> Result<PartFile, PartReadError> {
        // another kind of file says so, rather than which field it lacks
        if let Some(f) = format_of(text) {
            if f != FORMAT {
                return Err(PartReadError::Format(f));
            }
        }
        let p: PartFile = serde_json::from_str(text)?;
        if p.checksum.is_empty() {
            return Err(PartReadError::NoChecksum);
        }
        if p.checksum != checksum_of(&p) {
            return Err(PartReadError::Checksum);
        }
        p.validate()?;
        Ok(p)
    }

    /// Every field in range, and consistent with the others.
    pub fn validate(&self) -> Result<(), PartReadError> {
        let bad = |field: &'static str, why: String| Err(PartReadError::Field { field, why });
        if self.format != FORMAT {
            return Err(PartReadError::Format(self.format.clone()));
        }
        if !COMMANDS.contains(&self.command.as_str()) {
            return bad(
                "command",
                format!("{:?} is not solve, count or check", self.command),
            );
        }
        if self.input.len() != 16 || !self.input.bytes().all(|b| b.is_ascii_hexdigit()) {
            return bad(
                "input",
                format!("{:?} is not a fingerprint (16 hex digits)", self.input),
            );
        }
        if self.shards == 0 || self.shard == 0 || self.shard > self.shards {
            return bad(
                "shard",
                format!("part {} of {} is not a part", self.shard, self.shards),
            );
        }
        // the lines of the part are the split's (the last line's number,
        // one past it, must fit too)
        if self.lines == usize::MAX {
            return bad(
                "lines",
                format!(
                    "{} lines cannot be: the number one past the last line must fit in a count",
                    self.lines
                ),
            );
        }
        let (first, end) = part_lines(self.lines, self.spec());
        if (self.first, self.end) != (first, end) {
            return bad(
                "first",
                format!(
                    "lines {} to {} are not part {} of {} of {} lines (that is lines {first} to {end})",
                    self.first, self.end, self.shard, self.shards, self.lines
                ),
            );
        }
        if !(self.first <= self.next && self.next <= self.end) {
            return bad(
                "next",
                format!(
                    "line {} is not within the part's lines {} to {}",
                    self.next, self.first, self.end
                ),
            );
        }
        if self.complete != (self.next == self.end) {
            return bad(
                "complete",
                format!(
                    "a part is complete exactly when its next line ({}) is its end ({})",
                    self.next, self.end
                ),
            );
        }
        if self.complete && self.stopped.is_some() {
            return bad("stopped", "a complete part did not stop early".into());
        }
        let answered = (self.next - self.first) as u64;
        let puzzles = match self.puzzles() {
            Some(p) if p <= answered => p,
            _ => {
                return bad(
                    "unique",
                    format!(
                        "the puzzles counted ({} unique, {} multiple, {} none, {} invalid) are more than the {answered} lines answered",
                        self.unique, self.multiple, self.none, self.invalid
                    ),
                )
            }
        };
        let breaks = dancer_core::cpu::find_bytes(b'\n', self.output.as_bytes()).count() as u64;
        let fits = if puzzles == 0 {
            self.output.is_empty()
        } else {
            breaks >= puzzles && self.output.ends_with('\n')
        };
        if !fits {
            return bad(
                "output",
                format!(
                    "{} bytes in {breaks} lines are not the output of {puzzles} puzzles",
                    self.output.len()
                ),
            );
        }
        if !(self.seconds.is_finite() && (0.0..=MAX_SECONDS).contains(&self.seconds)) {
            return bad(
                "seconds",
                format!(
                    "{} is not a time of work (0 to {MAX_SECONDS})",
                    self.seconds
                ),
            );
        }
        Ok(())
    }
}

/// Why a part file does not resume a part: it is a part of another run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartResumeError {
    #[error("it was written by dancer {theirs}, this is dancer {ours}")]
    Version { theirs: String, ours: String },
    #[error("it is a part of `sudoku {theirs}`, not `sudoku {ours}`")]
    Command { theirs: String, ours: String },
    #[error("it is part {theirs}, not part {ours}")]
    Part { theirs: ShardSpec, ours: ShardSpec },
    /// Another input, or other settings: `input` names this run's.
    #[error("it is a part of another input, or of other flags (its fingerprint is {theirs}; {input} with these flags has {ours})")]
    Input {
        theirs: String,
        ours: String,
        input: String,
    },
}

impl PartFile {
    /// The record that part `spec` of a run with `settings` starts from,
    /// on `text` (the whole input, named `input` in errors): the part file
    /// `resume` (its text), read and checked whole
    /// ([`from_json`](Self::from_json)), when it goes on with this very part
    /// ([`resumes`](Self::resumes)); else a new record.
    pub fn start(
        text: &str,
        input: &str,
        settings: &PartSettings,
        spec: ShardSpec,
        resume: Option<&str>,
    ) -> Result<PartFile, PartReadError> {
        let (print, lines) = (settings.fingerprint(text), count_lines(text));
        let command = settings.output.command();
        let Some(saved) = resume else {
            return Ok(PartFile::new(&print, command, spec, lines));
        };
        let p = PartFile::from_json(saved)?;
        p.resumes(input, command, spec, &print, lines)?;
        Ok(p)
    }

    /// Whether this part file (read and checked by
    /// [`from_json`](Self::from_json)) goes on with part `spec` of `command` on the
    /// input named `input`, of `lines` lines and fingerprint
    /// `fingerprint` ([`fingerprint`]).
    pub fn resumes(
        &self,
        input: &str,
        command: &str,
        spec: ShardSpec,
        fingerprint: &str,
        lines: usize,
    ) -> Result<(), PartResumeError> {
        if self.version != version() {
            Err(PartResumeError::Version {
                theirs: self.version.clone(),
                ours: version().into(),
            })
        } else if self.command != command {
            Err(PartResumeError::Command {
                theirs: self.command.clone(),
                ours: command.into(),
            })
        } else if self.spec() != spec {
            Err(PartResumeError::Part {
                theirs: self.spec(),
                ours: spec,
            })
        } else if self.input != fingerprint || self.lines != lines {
            Err(PartResumeError::Input {
                theirs: self.input.clone(),
                ours: fingerprint.into(),
                input: input.into(),
            })
        } else {
            Ok(())
        }
    }
}

/// A part being run: its record kept up to date as answers come in, and
/// the moments to save it decided here (about every `every`, and at the
/// end); the caller writes the file.
#[derive(Debug)]
pub struct PartRun {
    part: PartFile,
    /// Seconds of the runs before this one.
    before: f64,
    start: Instant,
    every: Duration,
    last_save: Instant,
}

impl PartRun {
    /// Runs `part` (new, or read back to go on with it) from its next
    /// line, saving about every `every`.
    pub fn new(mut part: PartFile, every: Duration) -> PartRun {
        part.stopped = None;
        PartRun {
            before: part.seconds,
            part,
            start: Instant::now(),
            every,
            last_save: Instant::now(),
        }
    }

    /// The record as it is.
    pub fn part(&self) -> &PartFile {
        &self.part
    }

    /// The lines still to answer: the first and one past the last,
    /// 1-based.
    pub fn lines(&self) -> (usize, usize) {
        (self.part.next, self.part.end)
    }

    /// The text of the lines still to answer, in `text` (the whole input).
    pub fn rest<'t>(&self, text: &'t str) -> &'t str {
        &text[line_bytes(text, self.part.next, self.part.end)]
    }

    /// Answers came in: `tally` of the lines up to `last` (1-based),
    /// their `output`. `Some(true)` when the record is due to be saved
    /// (its seconds are then up to date); `None` when the counts pass 64
    /// bits (a forged file).
    pub fn answered(&mut self, tally: &Tally, output: &str, last: Option<usize>) -> Option<bool> {
        self.part.add(tally)?;
        self.part.output.push_str(output);
        if let Some(line) = last {
            self.part.next = line + 1;
        }
        if self.last_save.elapsed() < self.every {
            return Some(false);
        }
        self.part.seconds = self.before + self.start.elapsed().as_secs_f64();
        self.last_save = Instant::now();
        Some(true)
    }

    /// The run ended with an error: the record of what was answered, to
    /// be saved.
    pub fn close(&mut self) -> &PartFile {
        self.part.seconds = (self.before + self.start.elapsed().as_secs_f64()).min(MAX_SECONDS);
        &self.part
    }

    /// The run ended, `stopped` early or at the part's end: the record to
    /// be saved.
    pub fn finish(&mut self, stopped: bool) -> &PartFile {
        self.close();
        if stopped {
            self.part.stopped = Some(Stopped::Interrupted);
        } else {
            self.part.next = self.part.end;
            self.part.complete = true;
        }
        &self.part
    }

    /// Runs the lines of the part still to answer: `batch` on them in
    /// `text` (the whole input), one puzzle a line as the whole file was
    /// found to be (a part's own first lines are not looked at again),
    /// numbered as in the whole file, each outcome rendered by `render`,
    /// `progress` told the puzzles answered ([`run_watched`]). Each unit's
    /// answers go first to `report` (the caller's messages), then into the
    /// record, which goes to `save` when due, at the end (complete, or
    /// stopped by the batch's cancel) and, what was answered before it,
    /// after an error (the error may be `save`'s own: then that save is
    /// not looked at). The batch's tally.
    ///
    /// [`run_watched`]: dancer_sudoku::batch::run_watched
    pub fn run<R>(
        &mut self,
        batch: &Batch,
        text: &str,
        render: R,
        mut report: impl FnMut(&Answers) -> std::io::Result<()> + Send,
        mut save: impl FnMut(&PartFile) -> std::io::Result<()> + Send,
        progress: Option<&(dyn Fn(u64) + Sync)>,
    ) -> Result<Tally, BatchError>
    where
        R: Fn(usize, &LineOutcome, &mut String) + Sync,
    {
        let b = Batch {
            layout: Layout::Lines,
            first_line: self.part.next,
            ..batch.clone()
        };
        let rest = self.rest(text);
        let mut overflow = false;
        let each = |a: Answers| {
            report(&a)?;
            let mut t = Tally::default();
            for (_, o, _) in a.outcomes {
                t.add(o);
            }
            let last = a.outcomes.last().map(|(line, _, _)| *line);
            match self.answered(&t, a.text, last) {
                Some(true) => save(&self.part),
                Some(false) => Ok(()),
                None => {
                    overflow = true;
                    Err(std::io::ErrorKind::InvalidData.into())
                }
            }
        };
        match dancer_sudoku::batch::run_watched(&b, rest, render, each, progress) {
            Ok(tally) => {
                save(self.finish(tally.stopped)).map_err(BatchError::Output)?;
                Ok(tally)
            }
            Err(e) => {
                let _ = save(self.close());
                Err(if overflow { BatchError::Count } else { e })
            }
        }
    }
}

/// Parts that do not merge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartsMergeError {
    #[error(transparent)]
    Parts(#[from] PartsError),
    #[error("the counts add up to more than 64 bits can hold (a damaged or forged file?)")]
    Overflow,
}

/// `a + b`, each count checked (`None`: beyond 64 bits).
fn add_tally(a: &Tally, b: &Tally) -> Option<Tally> {
    Some(Tally {
        unique: a.unique.checked_add(b.unique)?,
        multiple: a.multiple.checked_add(b.multiple)?,
        none: a.none.checked_add(b.none)?,
        invalid: a.invalid.checked_add(b.invalid)?,
        stopped: a.stopped || b.stopped,
    })
}

/// What the parts of a run add up to.
#[derive(Clone, Debug, PartialEq)]
pub struct PartsMerged {
    /// The indices of the parts given, in the order of their numbers K:
    /// their outputs, printed in this order, are the whole run's.
    pub order: Vec<usize>,
    /// The puzzles of all parts.
    pub tally: Tally,
    pub command: String,
    pub shards: usize,
    /// Seconds of work of all parts together.
    pub seconds: f64,
}

/// Merges the parts of a run, given as (name, record) pairs (the name,
/// usually the file, is for messages; the records checked by
/// [`PartFile::from_json`], their outputs may be left out): refuses parts
/// of other inputs, commands, versions or splits, a part numbered outside
/// 1 to N or given twice, parts missing and parts incomplete
/// ([`crate::parts`]).
pub fn merge(parts: &[(String, PartFile)]) -> Result<PartsMerged, PartsMergeError> {
    let numbered = crate::parts::numbered(parts)?;
    numbered.all_there::<PartFile>()?;
    numbered.all_complete(parts)?;
    let mut tally = Tally::default();
    let mut seconds = 0.0;
    for (_, p) in parts {
        tally = add_tally(&tally, &p.tally()).ok_or(PartsMergeError::Overflow)?;
        seconds += p.seconds;
    }
    // the puzzles in all, as the summary says them
    add_tally(&Tally::default(), &tally)
        .and_then(|t| {
            t.unique
                .checked_add(t.multiple)?
                .checked_add(t.none)?
                .checked_add(t.invalid)
        })
        .ok_or(PartsMergeError::Overflow)?;
    Ok(PartsMerged {
        order: numbered.by_number.into_values().collect(),
        tally,
        command: parts[0].1.command.clone(),
        shards: numbered.n,
        seconds,
    })
}

/// The parts of a run to run again: the parts missing and those that did
/// not finish, as ranges of their numbers K (`ToRerun::array` writes them
/// as `sbatch --array` takes them: `3,5-6`), found in time and memory of
/// the parts given (not of N). The checks of [`merge`] but the missing
/// and incomplete parts come first.
pub fn to_rerun(parts: &[(String, PartFile)]) -> Result<ToRerun, PartsMergeError> {
    Ok(crate::parts::numbered(parts)?.to_rerun(parts))
}

/// The parts of one run: the same version, input, command, number of
/// parts and lines.
impl PartHeader for PartFile {
    const NOUN: &'static str = "part";

    fn number(&self) -> Option<usize> {
        Some(self.shard)
    }

    fn of(&self) -> Option<usize> {
        Some(self.shards)
    }

    fn complete(&self) -> bool {
        self.complete
    }

    fn differs(&self, first: &Self) -> Option<Differs> {
        const VERSIONS: Field = Field::named("versions");
        const INPUTS: Field = Field {
            what: "inputs",
            why: ": parts of another file, command or flags",
        };
        const COMMANDS: Field = Field::named("commands");
        const PARTS: Field = Field::named("numbers of parts");
        const LINES: Field = Field::named("numbers of lines");
        for (field, a, b) in [
            (&VERSIONS, first.version.clone(), self.version.clone()),
            (&INPUTS, first.input.clone(), self.input.clone()),
            (&COMMANDS, first.command.clone(), self.command.clone()),
            (&PARTS, first.shards.to_string(), self.shards.to_string()),
            (&LINES, first.lines.to_string(), self.lines.to_string()),
        ] {
            if a != b {
                return Some(Differs::Field {
                    field,
                    first: a,
                    other: b,
                });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(k: usize, n: usize) -> ShardSpec {
        ShardSpec { k, n }
    }

    /// Every line is in exactly one part, the parts in order and of sizes
    /// that differ by at most one, for many numbers of lines and parts
    /// (more parts than lines, and no line, too); the bytes of the parts
    /// one after the other are the text.
    #[test]
    fn every_line_in_exactly_one_part() {
        for lines in 0..40usize {
            for last_break in [true, false] {
                // lines of 0 to 2 characters; a last line without a line
                // break has one at least
                let mut text = String::new();
                for i in 0..lines {
                    text.push_str(&"x".repeat(i % 3));
                    if i + 1 < lines || last_break {
                        text.push('\n');
                    } else {
                        text.push('y');
                    }
                }
                assert_eq!(count_lines(&text), lines, "{text:?}");
                for n in (1..=45).chain([1000, usize::MAX]) {
                    let mut next_line = 1;
                    let mut next_byte = 0;
                    let (mut small, mut large) = (usize::MAX, 0);
                    for k in 1..=n.min(50) {
                        let p = part_of(&text, spec(k, n));
                        assert_eq!(p.lines, lines);
                        assert_eq!(p.first, next_line, "{lines} lines, part {k} of {n}");
                        assert!(p.end >= p.first);
                        assert_eq!(p.bytes.start, next_byte);
                        assert_eq!(
                            count_lines(&text[p.bytes.clone()]),
                            p.end - p.first,
                            "{lines} lines, part {k} of {n}"
                        );
                        next_line = p.end;
                        next_byte = p.bytes.end;
                        small = small.min(p.end - p.first);
                        large = large.max(p.end - p.first);
                    }
                    if n <= 50 {
                        assert_eq!(next_line, lines + 1);
                        assert_eq!(next_byte, text.len());
                        assert!(large - small <= 1, "{lines} lines in {n} parts");
                    }
                    // the last part ends at the end, whatever N
                    let last = part_of(&text, spec(n, n));
                    assert_eq!((last.end, last.bytes.end), (lines + 1, text.len()));
                }
            }
        }
        // no overflow where (K - 1) * L is beyond 64 bits
        assert_eq!(
            part_lines(usize::MAX - 1, spec(usize::MAX, usize::MAX)),
            (usize::MAX - 1, usize::MAX)
        );
        assert_eq!(part_lines(3, spec(usize::MAX - 1, usize::MAX)), (3, 3));
        // lines of a text with \r\n: the \r stays in its line
        let t = "a\r\nb\r\nc";
        assert_eq!(&t[line_bytes(t, 2, 3)], "b\r\n");
        assert_eq!(&t[line_bytes(t, 3, 4)], "c");
        assert_eq!(&t[line_bytes(t, 4, 4)], "");
    }

    #[test]
    fn fingerprints_tell_inputs_commands_and_flags_apart() {
        let a = fingerprint("1\n2\n", "solve", &[("json", "false")]);
        assert_eq!(a.len(), 16);
        assert_eq!(a, fingerprint("1\n2\n", "solve", &[("json", "false")]));
        for other in [
            fingerprint("1\n3\n", "solve", &[("json", "false")]),
            fingerprint("1\n2\n", "count", &[("json", "false")]),
            fingerprint("1\n2\n", "solve", &[("json", "true")]),
            fingerprint("1\n2\n", "solve", &[("jso", "nfalse")]),
            fingerprint("1\n2\n", "solve", &[]),
        ] {
            assert_ne!(a, other);
        }
    }

    fn sample() -> PartFile {
        let mut p = PartFile::new(&"ab".repeat(8), "solve", spec(2, 3), 10);
        assert_eq!((p.first, p.end, p.next, p.complete), (4, 7, 4, false));
        p.next = 6;
        p.unique = 1;
        p.invalid = 1;
        p.output = "812753649943682175675491283154237896369845721287169534521974368438526917796318452\ninvalid: \"why\"\n".into();
        p.stopped = Some(Stopped::Interrupted);
        p.seconds = 0.125;
        p
    }

    #[test]
    fn a_record_round_trips() {
        let p = sample();
        let json = p.to_json();
        let back = PartFile::from_json(std::str::from_utf8(&json).unwrap()).unwrap();
        assert!(!back.checksum.is_empty());
        assert_eq!(
            PartFile {
                checksum: String::new(),
                ..back.clone()
            },
            p
        );
        // written again, the same file
        assert_eq!(back.to_json(), json);
        let text = String::from_utf8(json).unwrap();
        assert!(text.contains("\"stopped\": \"interrupted\""), "{text}");
        assert_eq!(format_of(&text).as_deref(), Some(FORMAT));
        // complete: no `stopped`, next at the end
        let mut done = p.clone();
        done.next = done.end;
        done.complete = true;
        done.stopped = None;
        let text = String::from_utf8(done.to_json()).unwrap();
        assert!(!text.contains("stopped"));
        PartFile::from_json(&text).unwrap();
        // an empty part is complete from the start
        let empty = PartFile::new(&"0".repeat(16), "check", spec(3, 20), 10);
        assert_eq!((empty.first, empty.end), (2, 2));
        assert!(empty.complete);
        PartFile::from_json(std::str::from_utf8(&empty.to_json()).unwrap()).unwrap();
    }

    /// `f` applied to a record's JSON: `rechecksum` writes a matching
    /// checksum (a forged file), else the old one stays (an edit).
    fn forged(p: &PartFile, rechecksum: bool, f: impl Fn(&mut serde_json::Value)) -> String {
        let mut v: serde_json::Value = serde_json::from_slice(&p.to_json()).unwrap();
        f(&mut v);
        if rechecksum {
            v.as_object_mut().unwrap().remove("checksum");
            let bare: PartFile = match serde_json::from_value(v.clone()) {
                Ok(b) => b,
                // not a record any more: the checksum does not matter
                Err(_) => return v.to_string(),
            };
            v["checksum"] = checksum_of(&bare).into();
        }
        serde_json::to_string_pretty(&v).unwrap()
    }

    #[test]
    fn damaged_edited_and_forged_files_are_refused() {
        let p = sample();
        let edited = forged(&p, false, |v| v["unique"] = 2.into());
        assert!(matches!(
            PartFile::from_json(&edited),
            Err(PartReadError::Checksum)
        ));
        let no_sum = forged(&p, false, |v| {
            v.as_object_mut().unwrap().remove("checksum");
        });
        assert!(matches!(
            PartFile::from_json(&no_sum),
            Err(PartReadError::NoChecksum)
        ));
        type Edit = Box<dyn Fn(&mut serde_json::Value)>;
        let cases: Vec<(&str, Edit)> = vec![
            ("shard", Box::new(|v| v["shard"] = 4.into())),
            ("shard", Box::new(|v| v["shard"] = 0.into())),
            ("shard", Box::new(|v| v["shards"] = 0.into())),
            ("next", Box::new(|v| v["next"] = 8.into())),
            ("next", Box::new(|v| v["next"] = 3.into())),
            ("first", Box::new(|v| v["first"] = 5.into())),
            ("first", Box::new(|v| v["end"] = 9.into())),
            ("first", Box::new(|v| v["lines"] = 1000.into())),
            ("lines", Box::new(|v| v["lines"] = usize::MAX.into())),
            ("complete", Box::new(|v| v["complete"] = true.into())),
            ("unique", Box::new(|v| v["unique"] = 3.into())),
            ("unique", Box::new(|v| v["none"] = u64::MAX.into())),
            ("output", Box::new(|v| v["output"] = "".into())),
            ("output", Box::new(|v| v["output"] = "no line break".into())),
            ("input", Box::new(|v| v["input"] = "abc".into())),
            ("command", Box::new(|v| v["command"] = "rate".into())),
            ("seconds", Box::new(|v| v["seconds"] = (-1.0).into())),
            ("seconds", Box::new(|v| v["seconds"] = 1e300.into())),
        ];
        for (field, f) in cases {
            let text = forged(&p, true, f);
            match PartFile::from_json(&text) {
                Err(PartReadError::Field { field: got, .. }) => assert_eq!(got, field, "{text}"),
                other => panic!("{field}: {other:?}"),
            }
        }
        // not a part at all, or not JSON of one
        for (text, want) in [
            (
                forged(&p, true, |v| v["format"] = "dancer-shard".into()),
                "format",
            ),
            (forged(&p, true, |v| v["stopped"] = "limit".into()), "json"),
            (forged(&p, true, |v| v["next"] = (-1).into()), "json"),
            (forged(&p, true, |v| v["extra"] = 1.into()), "json"),
            ("[1, 2]".to_string(), "json"),
            ("{\"format\": 3}".to_string(), "json"),
            ("".to_string(), "json"),
        ] {
            let e = PartFile::from_json(&text).unwrap_err();
            let got = match e {
                PartReadError::Format(_) => "format",
                PartReadError::Json(_) => "json",
                _ => "other",
            };
            assert_eq!(got, want, "{text}: {e}");
        }
    }

    fn finished(k: usize, n: usize, lines: usize) -> PartFile {
        let mut p = PartFile::new(&"cd".repeat(8), "count", spec(k, n), lines);
        p.next = p.end;
        p.complete = true;
        p.unique = (p.end - p.first) as u64;
        p.output = "1\n".repeat(p.unique as usize);
        p
    }

    #[test]
    fn parts_merge_in_order_and_refuse_what_does_not_fit() {
        let name = |k: usize| format!("p{k}.json");
        let mut parts: Vec<(String, PartFile)> =
            [3, 1, 2].map(|k| (name(k), finished(k, 3, 10))).to_vec();
        let m = merge(&parts).unwrap();
        assert_eq!(m.order, vec![1, 2, 0]);
        assert_eq!(m.tally.unique, 10);
        assert_eq!((m.command.as_str(), m.shards), ("count", 3));
        assert_eq!(to_rerun(&parts).unwrap().array(), "");
        // another input
        let mut other = finished(2, 3, 10);
        other.input = "ef".repeat(8);
        let e = merge(&[parts[0].clone(), ("x.json".into(), other)]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("p3.json and x.json: different inputs"),
            "{e}"
        );
        // another split
        let e = merge(&[parts[0].clone(), ("y.json".into(), finished(1, 4, 10))]).unwrap_err();
        assert!(
            matches!(
                e,
                PartsMergeError::Parts(PartsError::Different {
                    field: Field {
                        what: "numbers of parts",
                        ..
                    },
                    ..
                })
            ),
            "{e}"
        );
        // twice
        let mut twice = parts.clone();
        twice.push(("again.json".into(), finished(1, 3, 10)));
        let e = merge(&twice).unwrap_err();
        assert_eq!(
            e.to_string(),
            "part 1 of 3 appears twice: p1.json and again.json"
        );
        // missing, and to run again
        let e = merge(&parts[..1]).unwrap_err();
        assert_eq!(e.to_string(), "missing parts of 3: 1, 2");
        assert_eq!(to_rerun(&parts[..1]).unwrap().array(), "1-2");
        // incomplete
        let mut half = PartFile::new(&"cd".repeat(8), "count", spec(2, 3), 10);
        half.stopped = Some(Stopped::Interrupted);
        parts[2] = (name(2), half);
        let e = merge(&parts).unwrap_err();
        assert_eq!(e.to_string(), "incomplete parts of 3: 2 (p2.json)");
        let r = to_rerun(&parts).unwrap();
        assert_eq!((r.array(), r.incomplete), ("2".to_string(), vec![2]));
        // many parts, few given: found without a pass over N
        let big = [(name(5), finished(5, usize::MAX / 2, 10))];
        assert_eq!(
            to_rerun(&big).unwrap().array(),
            format!("1-4,6-{}", usize::MAX / 2)
        );
        assert!(matches!(
            merge(&big),
            Err(PartsMergeError::Parts(PartsError::Missing { .. }))
        ));
    }

    /// The lines of a text, blank lines and comments among them, as a
    /// batch of 4x4 puzzles: solved, not unique, invalid.
    const TEXT: &str = "1234341221434321\n# a comment\n................\n\n12\n1.3.3.1.2.4.4.2.\n1234341221434312\n";

    fn batch() -> Batch {
        Batch {
            spec: dancer_sudoku::batch::RulesSpec::default(),
            engine: dancer_sudoku::SudokuEngine::Auto,
            layout: Layout::Auto,
            limit: 2,
            keep: 0,
            threads: 1,
            first_line: 1,
            cancel: None,
        }
    }

    /// A count's settings, with none of the rest.
    fn counted() -> PartSettings<'static> {
        PartSettings {
            boxes: None,
            jigsaw: None,
            diagonal: false,
            windoku: false,
            layout: Layout::Auto,
            json: false,
            engine: dancer_sudoku::SudokuEngine::Auto,
            output: BatchOutput::Count { limit: 2 },
        }
    }

    fn render(line: usize, o: &LineOutcome, buf: &mut String) {
        match o {
            LineOutcome::Invalid(_) => buf.push_str(&format!("{line} invalid\n")),
            LineOutcome::Solved(_, s) | LineOutcome::Killer(_, s) => {
                buf.push_str(&format!("{line} {}\n", s.count))
            }
        }
    }

    #[test]
    fn part_paths() {
        let (out, resume) = (Path::new("o.json"), Path::new("r.json"));
        assert_eq!(part_path(Some(out), Some(resume), spec(2, 9)), out);
        assert_eq!(part_path(None, Some(resume), spec(2, 9)), resume);
        assert_eq!(
            part_path(None, None, spec(2, 9)),
            Path::new("shard-2-of-9.json")
        );
    }

    /// The parts of a text, each started and run on its own, save records
    /// whose outputs one after the other are the whole run's, lines
    /// numbered as in the whole text, every puzzle counted once; a part's
    /// record resumes only that part.
    #[test]
    fn parts_run_answer_as_the_whole_batch() {
        let mut whole = String::new();
        let t = dancer_sudoku::batch::run_rendered(
            &batch(),
            TEXT,
            render,
            |a: Answers| {
                whole.push_str(a.text);
                Ok(())
            },
            &Default::default(),
        )
        .unwrap();
        let settings = counted();
        // the fingerprint of the settings, by the names of old
        let old = [
            ("box", ""),
            ("jigsaw", ""),
            ("diagonal", "false"),
            ("windoku", "false"),
            ("layout", "auto"),
            ("json", "false"),
            ("engine", "auto"),
            ("limit", "2"),
        ];
        assert_eq!(settings.fingerprint(TEXT), fingerprint(TEXT, "count", &old));
        let mut output = String::new();
        let mut sum = Tally::default();
        for k in 1..=3 {
            let p = PartFile::start(TEXT, "t.txt", &settings, spec(k, 3), None).unwrap();
            assert_eq!((p.next, p.lines), (p.first, 7));
            let mut run = PartRun::new(p, Duration::ZERO);
            let mut saved = Vec::new();
            let mut reported = 0;
            let r = run.run(
                &batch(),
                TEXT,
                render,
                |a: &Answers| {
                    reported += a.outcomes.len();
                    Ok(())
                },
                |p: &PartFile| {
                    saved.push(p.clone());
                    Ok(())
                },
                None,
            );
            let tally = r.unwrap();
            let last = saved.last().unwrap();
            assert!(last.complete && last == run.part());
            assert_eq!(
                (last.puzzles(), reported as u64),
                (Some(tally.puzzles()), tally.puzzles())
            );
            output.push_str(&last.output);
            sum = add_tally(&sum, &last.tally()).unwrap();
            // the record goes on with this part only
            let json = String::from_utf8(last.to_json()).unwrap();
            let again = PartFile::start(TEXT, "t.txt", &settings, spec(k, 3), Some(&json));
            assert_eq!(again.unwrap().output, last.output);
            let moved = PartFile::start("1\n", "t.txt", &settings, spec(k, 3), Some(&json));
            assert!(matches!(
                moved,
                Err(PartReadError::Resume(PartResumeError::Input { .. }))
            ));
            let bad = PartFile::start(TEXT, "t.txt", &settings, spec(k, 3), Some("{}"));
            assert!(matches!(bad, Err(PartReadError::Json(_))));
        }
        let json = String::from_utf8(
            PartFile::start(TEXT, "t", &settings, spec(1, 3), None)
                .unwrap()
                .to_json(),
        )
        .unwrap();
        let solve = PartSettings {
            output: BatchOutput::Solve { pretty: false },
            ..settings
        };
        let other = PartFile::start(TEXT, "t.txt", &solve, spec(1, 3), Some(&json));
        assert!(matches!(
            other,
            Err(PartReadError::Resume(PartResumeError::Command { .. }))
        ));
        assert_eq!(output, whole);
        assert_eq!(sum, t);
        assert_eq!((t.unique, t.multiple, t.invalid), (1, 2, 2));
    }

    /// A part resumed goes on from its next line; counts beyond 64 bits
    /// (a forged record) stop it with what it had, saved; an error of the
    /// caller's report stops it too, the record saved up to there.
    #[test]
    fn a_resumed_part_goes_on_and_errors_keep_the_record() {
        let settings = counted();
        let mut p = PartFile::start(TEXT, "t.txt", &settings, spec(1, 1), None).unwrap();
        p.next = 5;
        let mut run = PartRun::new(p.clone(), Duration::from_secs(3600));
        assert_eq!(run.rest(TEXT), "12\n1.3.3.1.2.4.4.2.\n1234341221434312\n");
        let ok = |_: &Answers| Ok(());
        let tally = run
            .run(&batch(), TEXT, render, ok, |_: &PartFile| Ok(()), None)
            .unwrap();
        assert_eq!(tally.puzzles(), 3);
        assert_eq!(run.part().output, "5 invalid\n6 2\n7 invalid\n");
        p.multiple = u64::MAX;
        let mut saved = Vec::new();
        let mut run = PartRun::new(p.clone(), Duration::ZERO);
        let save = |p: &PartFile| {
            saved.push(p.clone());
            Ok(())
        };
        let e = run.run(&batch(), TEXT, render, ok, save, None).unwrap_err();
        assert!(matches!(e, BatchError::Count), "{e}");
        assert_eq!(
            (saved.len(), saved[0].next, saved[0].complete),
            (1, 5, false)
        );
        let mut run = PartRun::new(p, Duration::ZERO);
        let closed = |_: &Answers| Err(std::io::Error::other("closed"));
        let e = run.run(&batch(), TEXT, render, closed, |_: &PartFile| Ok(()), None);
        assert!(matches!(e, Err(BatchError::Output(_))));
        assert_eq!(run.part().next, 5);
    }
}
