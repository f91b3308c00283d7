//! The rules asked for ([`RulesSpec`]: a box shape, a jigsaw map, the
//! diagonal and windoku variants), and input sniffing: whether an
//! argument is a puzzle rather than a file, whether a text holds grids over
//! several lines or one puzzle per line, and its cut into units.

use crate::puzzle::{looks_like_grids, read_puzzles, Entry, Layout, Puzzle};
use crate::rules::{Rules, RulesError};

/// The rules asked for; without a fixed shape, each puzzle's size decides.
#[derive(Clone, Debug, Default)]
pub struct RulesSpec {
    pub(super) fixed: Option<Rules>,
    pub(super) diagonal: bool,
    pub(super) windoku: bool,
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
        })
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

    /// Reads the puzzles of `text`, lines numbered from `first_line`.
    pub fn read(&self, text: &str, layout: Layout, first_line: usize) -> Vec<Entry> {
        let fixed = self.fixed.as_ref().map(|r| self.finish(r.clone()));
        if let Some(Err(e)) = &fixed {
            return vec![Entry {
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
