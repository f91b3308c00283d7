//! The rules asked for ([`RulesSpec`]: a box shape, a jigsaw map, the
//! diagonal and windoku variants), and input sniffing: where a front end's
//! input argument points ([`source`]: standard input, a file, or a puzzle
//! given as itself), whether a text holds a puzzle at all
//! ([`has_puzzle`]), grids over several lines or one puzzle per line
//! ([`is_grid_text`]), how many puzzle lines ([`puzzle_lines`]), and its
//! cut into units. The front end reads the files; these only decide, on
//! the text and names it gives them.

use super::BatchError;
use crate::killer::KillerPuzzle;
use crate::puzzle::{looks_like_grids, read_puzzles, Layout, Puzzle, PuzzleError, PuzzleLine};
use crate::rules::{Rules, RulesError};

/// The rules asked for; without a fixed shape, each puzzle's size decides.
#[derive(Clone, Debug, Default)]
pub struct RulesSpec {
    pub(super) fixed: Option<Rules>,
    pub(super) diagonal: bool,
    pub(super) windoku: bool,
    /// Each line is a killer puzzle (`MAP SUMS [GIVENS]`, see
    /// [`crate::killer`]).
    pub(super) killer: bool,
}

/// Rules asked for that cannot be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A box shape (`text`, as given) that cannot be.
    #[error("box shape {text:?}: {problem}")]
    Box { text: String, problem: BoxProblem },
    /// Both a box shape and a jigsaw map: one shape of regions at a time.
    #[error("a box shape and a jigsaw map cannot be used together")]
    BoxAndJigsaw,
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A jigsaw map that cannot be.
    #[error("jigsaw map: {0}")]
    Jigsaw(RulesError),
}

/// What is wrong with a box shape.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoxProblem {
    #[error("expected ROWSxCOLS, e.g. 2x3")]
    Form,
    /// The rows are not a number: why.
    #[error("bad number of rows: {0}")]
    Rows(String),
    /// The columns are not a number: why.
    #[error("bad number of columns: {0}")]
    Columns(String),
    #[error("boxes that large cannot be: a box has at most 25 cells (grids are at most 25x25)")]
    TooLarge,
}

impl SpecError {
    fn shape(text: &str, problem: BoxProblem) -> Self {
        SpecError::Box {
            text: text.into(),
            problem,
        }
    }
}

/// A box shape `ROWSxCOLS`, e.g. `2x3`.
pub fn parse_box(s: &str) -> Result<(usize, usize), SpecError> {
    let (r, c) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| SpecError::shape(s, BoxProblem::Form))?;
    let r: usize = r.trim().parse().map_err(|e: std::num::ParseIntError| {
        SpecError::shape(s, BoxProblem::Rows(e.to_string()))
    })?;
    let c: usize = c.trim().parse().map_err(|e: std::num::ParseIntError| {
        SpecError::shape(s, BoxProblem::Columns(e.to_string()))
    })?;
    Ok((r, c))
}

impl RulesSpec {
    /// The rules of a box shape `boxes` (`ROWSxCOLS`), a `jigsaw` map (one
    /// region letter per cell, row-major; whitespace and `#` comment lines
    /// are skipped; the size is the square root of its number of cells)
    /// and the variants.
    pub fn new(
        boxes: Option<&str>,
        jigsaw: Option<&str>,
        diagonal: bool,
        windoku: bool,
    ) -> Result<Self, SpecError> {
        let mut fixed = None;
        if let Some(b) = boxes {
            let (r, c) = parse_box(b)?;
            let size = r
                .checked_mul(c)
                .ok_or_else(|| SpecError::shape(b, BoxProblem::TooLarge))?;
            fixed = Some(Rules::boxed(size, r, c)?);
        }
        if let Some(map) = jigsaw {
            if fixed.is_some() {
                return Err(SpecError::BoxAndJigsaw);
            }
            let map: String = map
                .lines()
                .filter(|l| !l.trim_start().starts_with('#'))
                .collect::<Vec<_>>()
                .join("\n");
            let cells = map.chars().filter(|c| !c.is_whitespace()).count();
            let n = (cells as f64).sqrt().round() as usize;
            fixed = Some(Rules::jigsaw(n, &map).map_err(SpecError::Jigsaw)?);
        }
        Ok(RulesSpec {
            fixed,
            diagonal,
            windoku,
            killer: false,
        })
    }

    /// These rules with killer puzzles (`yes`) or plain ones: a killer
    /// puzzle is read a line at a time, as `MAP SUMS [GIVENS]`.
    pub fn with_killer(mut self, yes: bool) -> Self {
        self.killer = yes;
        self
    }

    /// Whether the lines are killer puzzles.
    pub fn is_killer(&self) -> bool {
        self.killer
    }

    /// The killer puzzle of one line under these rules (a box shape or a
    /// jigsaw map of the map's size, the variants).
    pub fn killer_puzzle(&self, line: &str) -> Result<KillerPuzzle, PuzzleError> {
        let fixed = match &self.fixed {
            Some(r) => Some(self.finish(r.clone())?),
            None => None,
        };
        let k = KillerPuzzle::parse(line, fixed.as_ref())?;
        if fixed.is_none() && (self.diagonal || self.windoku) {
            let rules = self.finish(k.puzzle.rules.clone())?;
            let puzzle = Puzzle::new(rules, k.puzzle.givens)?;
            return Ok(KillerPuzzle {
                puzzle,
                cages: k.cages,
            });
        }
        Ok(k)
    }

    /// Applies the variants to rules of the right size.
    pub fn finish(&self, mut rules: Rules) -> Result<Rules, RulesError> {
        if self.diagonal {
            rules = rules.with_diagonal();
        }
        if self.windoku {
            rules = rules.with_windoku()?;
        }
        Ok(rules)
    }

    /// The puzzle of one line under these rules: with a box shape or a
    /// jigsaw map, of their size; else of the size its length gives, with
    /// the variants.
    pub fn puzzle(&self, line: &str) -> Result<Puzzle, PuzzleError> {
        let fixed = match &self.fixed {
            Some(r) => Some(self.finish(r.clone())?),
            None => None,
        };
        let p = Puzzle::parse_line(line, fixed.as_ref())?;
        if fixed.is_none() && (self.diagonal || self.windoku) {
            return Puzzle::new(self.finish(p.rules.clone())?, p.givens);
        }
        Ok(p)
    }

    /// The rules for a grid of `size` (a generator's): those of the box
    /// shape or jigsaw map, whose size is theirs, or the standard ones of
    /// `size`, with the variants.
    pub fn rules(&self, size: Option<usize>) -> Result<Rules, RulesError> {
        let base = match (&self.fixed, size) {
            (Some(r), Some(n)) if r.size() != n => {
                return Err(RulesError::SizeMismatch {
                    size: n,
                    shape: r.size(),
                })
            }
            (Some(r), _) => r.clone(),
            (None, n) => Rules::standard(n.unwrap_or(9))?,
        };
        self.finish(base)
    }

    /// Reads the puzzles of `text`, lines numbered from `first_line`.
    pub fn read(&self, text: &str, layout: Layout, first_line: usize) -> Vec<PuzzleLine> {
        let fixed = self.fixed.as_ref().map(|r| self.finish(r.clone()));
        if let Some(Err(e)) = &fixed {
            return vec![PuzzleLine {
                line: first_line,
                puzzle: Err(e.clone().into()),
            }];
        }
        let fixed = fixed.map(|r| r.expect("checked above"));
        let mut entries = read_puzzles(text, fixed.as_ref(), layout);
        for e in &mut entries {
            e.line += first_line - 1;
            if fixed.is_none() && (self.diagonal || self.windoku) {
                if let Ok(p) = &e.puzzle {
                    e.puzzle = self
                        .finish(p.rules.clone())
                        .map_err(Into::into)
                        .and_then(|r| Puzzle::new(r, p.givens.clone()));
                }
            }
        }
        entries
    }
}

/// Whether a command-line argument that is not a file is a puzzle given
/// as itself: 16 characters or more, all digits, symbols, `.` or spaces.
pub fn is_puzzle_text(arg: &str) -> bool {
    let t = arg.trim();
    t.len() >= 16
        && !t.contains('/')
        && t.chars()
            .all(|c| crate::grid::digit(c).is_some() || c.is_whitespace())
}

/// Where a front end's input argument points (see [`source`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source<'a> {
    /// Standard input: no argument, or `-`.
    Stdin,
    /// A file of that path.
    File(&'a str),
    /// A puzzle given as the argument itself, trimmed.
    Puzzle(&'a str),
}

/// Where the input argument `arg` points: standard input for `None` or
/// `-`, a file when `is_path` says that one is there (the caller looks),
/// else a puzzle given as itself when it is one ([`is_puzzle_text`]) or
/// meant as one (long, no path separator, mostly puzzle symbols: so that
/// its error says what is wrong with the puzzle, not that no such file
/// exists); anything else is [`BatchError::NoSuchInput`].
pub fn source<'a>(
    arg: Option<&'a str>,
    is_path: impl FnOnce(&str) -> bool,
) -> Result<Source<'a>, BatchError> {
    match arg {
        None | Some("-") => Ok(Source::Stdin),
        Some(path) if is_path(path) => Ok(Source::File(path)),
        Some(text) if is_puzzle_text(text) || looks_like_a_puzzle(text) => {
            Ok(Source::Puzzle(text.trim()))
        }
        Some(text) => Err(BatchError::NoSuchInput(text.into())),
    }
}

/// An argument meant as a puzzle, though maybe not a valid one: 16
/// characters or more, no path separator, nine in ten puzzle symbols and
/// eight in ten digits or `.`.
fn looks_like_a_puzzle(text: &str) -> bool {
    let t = text.trim();
    let n = t.chars().count();
    let symbols = t
        .chars()
        .filter(|&c| c == '.' || c == '0' || c.is_ascii_alphanumeric())
        .count();
    let digits = t
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.')
        .count();
    n >= 16 && !t.contains(['/', '\\']) && symbols * 10 >= n * 9 && digits * 10 >= n * 8
}

/// Whether a line holds no puzzle: blank, or a `#` comment.
fn is_blank(line: &str) -> bool {
    let l = line.trim_start();
    l.is_empty() || l.starts_with('#')
}

/// Whether `text` holds a puzzle to answer: not when it is empty
/// ([`BatchError::Empty`]) or has only blank lines and `#` comments
/// ([`BatchError::OnlyComments`]), the same for every command: there is
/// nothing to answer. Stops at the first line that is neither.
pub fn has_puzzle(text: &str) -> Result<(), BatchError> {
    if !text.lines().all(is_blank) {
        Ok(())
    } else if text.trim().is_empty() {
        Err(BatchError::Empty)
    } else {
        Err(BatchError::OnlyComments)
    }
}

/// The lines of `text` that are neither blank nor `#` comments: its
/// puzzles, for a text of one puzzle per line (what a progress bar counts
/// to).
pub fn puzzle_lines(text: &str) -> u64 {
    text.lines().filter(|l| !is_blank(l)).count() as u64
}

/// The number (from 1) of the first puzzle line of `text` when that line
/// reads as a killer puzzle (`MAP SUMS [GIVENS]` or its JSON form, under
/// the plain rules of its size): a text that a front end asked to read
/// as plain puzzles, whose lines want reading as killers. A plain puzzle
/// line never reads so (it has no sums for the cages of its map).
pub fn killer_line(text: &str) -> Option<usize> {
    let (i, line) = text.lines().enumerate().find(|(_, l)| !is_blank(l))?;
    KillerPuzzle::parse(line.trim(), None)
        .is_ok()
        .then_some(i + 1)
}

/// Whether `text` holds grids over several lines (else one puzzle per
/// line), decided once from its first lines.
pub fn is_grid_text(text: &str, layout: Layout) -> bool {
    match layout {
        Layout::Grids => true,
        Layout::Lines => false,
        Layout::Auto => {
            let probe: String = text.lines().take(64).collect::<Vec<_>>().join("\n");
            !read_puzzles(&probe, None, Layout::Auto).is_empty() && looks_like_grids(&probe)
        }
    }
}

/// Splits `text` into pieces of about `lines` lines, with the number of
/// the first line of each.
pub fn chunks(text: &str, lines: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut first = 1;
    let mut count = 0;
    for i in dancer_core::cpu::find_bytes(b'\n', text.as_bytes()) {
        count += 1;
        if count == lines {
            out.push((first, &text[start..=i]));
            start = i + 1;
            first += count;
            count = 0;
        }
    }
    if start < text.len() {
        out.push((first, &text[start..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_puzzle_and_a_generators_rules_follow_the_spec() {
        let plain = RulesSpec::default();
        assert!(plain
            .puzzle(&".".repeat(81))
            .unwrap()
            .rules
            .is_standard_9x9());
        assert_eq!(plain.puzzle(&".".repeat(16)).unwrap().rules.size(), 4);
        let x = RulesSpec::new(None, None, true, false).unwrap();
        assert!(x.puzzle(&".".repeat(81)).unwrap().rules.is_diagonal());
        assert!(x.rules(Some(4)).unwrap().is_diagonal());
        // two 1s on the main diagonal break only the diagonal rule
        let mut two = vec!['.'; 81];
        two[0] = '1';
        two[10] = '1';
        let two: String = two.into_iter().collect();
        assert!(plain.puzzle(&two).is_err(), "r1c1 and r2c2 share box 1");
        let mut far = vec!['.'; 81];
        far[0] = '1';
        far[40] = '1';
        let far: String = far.into_iter().collect();
        assert!(plain.puzzle(&far).is_ok());
        assert!(x.puzzle(&far).is_err());
        let six = RulesSpec::new(Some("2x3"), None, false, false).unwrap();
        assert_eq!(six.puzzle(&".".repeat(36)).unwrap().rules.size(), 6);
        assert!(six.puzzle(&".".repeat(81)).is_err());
        assert_eq!(six.rules(None).unwrap().size(), 6);
        assert_eq!(
            six.rules(Some(9)),
            Err(RulesError::SizeMismatch { size: 9, shape: 6 })
        );
        let w = RulesSpec::new(None, None, false, true).unwrap();
        assert!(w.puzzle(&".".repeat(81)).unwrap().rules.is_windoku());
        assert_eq!(
            w.puzzle(&".".repeat(16)).unwrap_err(),
            RulesError::WindokuSize.into()
        );
    }
}
