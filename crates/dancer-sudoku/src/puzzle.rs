//! Puzzles (rules and givens), their validation, and reading them from text.
//!
//! Two input forms:
//!
//! * **one puzzle per line**: `size * size` symbols (81 for 9x9), `.` or `0`
//!   for an empty cell; blank lines and lines starting with `#` are skipped;
//! * **a grid over several lines**, one row per line, with or without
//!   spaces and `|`, `-`, `+` separators; several such grids may follow one
//!   another, separated by blank lines.
//!
//! [`read_puzzles`] tells the two apart by looking at the text (separators, or
//! as many equal-length rows as each row has symbols, mean grids), and
//! reports each bad puzzle with its line and what is wrong, going on with the
//! next one.

use crate::grid::{digit, symbol, Grid};
use crate::rules::{cell_name, default_boxes, HouseKind, Rules, RulesError};

/// A Sudoku to solve: its rules and its givens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub rules: Rules,
    pub givens: Grid,
}

/// What is wrong with a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// A puzzle of `found` cells where `expected` says how many there
    /// should be (see [`PuzzleError::words`] for a front end's hint on
    /// other shapes).
    #[error("wrong length: {found} cells, expected {expected}")]
    WrongLength { found: usize, expected: Expected },
    #[error("bad symbol {ch:?} at column {column}")]
    BadSymbol { ch: char, column: usize },
    #[error("symbol {ch:?} at column {column} is too large for a {size}x{size} grid")]
    DigitTooLarge {
        ch: char,
        column: usize,
        size: usize,
    },
    #[error("two {digit}s in {unit}: {a} and {b}")]
    Conflict {
        digit: char,
        unit: String,
        a: String,
        b: String,
    },
    #[error("{0}")]
    Rules(#[from] RulesError),
    /// A killer puzzle's line that cannot be ([`crate::killer`]).
    #[error(transparent)]
    Killer(#[from] crate::killer::error::KillerError),
    #[error("the grid has {rows} rows of {cols} cells; a grid needs as many rows as columns")]
    NotSquare { rows: usize, cols: usize },
    /// A solution of a Sudoku's exact cover, read back
    /// ([`crate::cover::sudoku_grid`]), with an option that names no cell
    /// and digit: `text` is the option's line.
    #[error("option {option} ({text}) is not a Sudoku cell and digit")]
    NotACell { option: usize, text: String },
    /// A solution of an exact cover whose cells and digits make no grid:
    /// `cells` placed, the largest row, column or digit `side` (none, or
    /// more than 25, or a digit past the side).
    #[error("not a Sudoku's solution: {cells} cells placed for a grid of side {side}")]
    NotAGrid { cells: usize, side: usize },
}

/// The number of cells a puzzle should have had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// `cells` cells, for the rules given (`rules`: as
    /// [`Rules::describe`] says them).
    Rules { cells: usize, rules: String },
    /// With no rules given, the cells of a size with usual boxes
    /// ([`default_boxes`], 4x4 to 25x25): 81 (9x9) most often. Other
    /// shapes need their box shape given: a front end says how in its own
    /// words ([`PuzzleError::words`]).
    Standard,
}

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expected::Rules { cells, rules } => write!(f, "{cells} for {rules}"),
            Expected::Standard => {
                write!(f, "81 (9x9), or 16, 36, 64, 100, 144, 256, 400 or 625")
            }
        }
    }
}

impl PuzzleError {
    /// The error in a front end's words: `box_hint` says how to give the
    /// box shape of a grid of another size (the command line: `use --box
    /// RxC for other shapes`), added to a length that fits no standard
    /// size ([`Expected::Standard`]); every other error is as
    /// [`Display`](std::fmt::Display) says it.
    pub fn words(&self, box_hint: &str) -> String {
        match self {
            PuzzleError::WrongLength {
                found,
                expected: expected @ Expected::Standard,
            } => format!("wrong length: {found} cells, expected {expected}; {box_hint}"),
            e => e.to_string(),
        }
    }
}

impl Puzzle {
    /// A puzzle, checked: no digit twice in a unit.
    pub fn new(rules: Rules, givens: Grid) -> Result<Self, PuzzleError> {
        assert_eq!(
            rules.size(),
            givens.size(),
            "rules and grid of different sizes"
        );
        let p = Puzzle { rules, givens };
        p.check_givens()?;
        Ok(p)
    }

    fn check_givens(&self) -> Result<(), PuzzleError> {
        let n = self.rules.size();
        for unit in self.rules.shared_units().iter() {
            // the digits seen in the unit (bit d; bit 0 for empty cells)
            let mut seen = 0u64;
            for &c in &unit.cells {
                let d = self.givens.get(c);
                let bit = (1u64 << d) & !1;
                if seen & bit != 0 {
                    let first = unit
                        .cells
                        .iter()
                        .copied()
                        .find(|&e| self.givens.get(e) == d)
                        .expect("the digit was seen in the unit");
                    return Err(conflict(n, d, unit.kind, first, c));
                }
                seen |= bit;
            }
        }
        Ok(())
    }

    /// Reads one puzzle written on one line. With `rules`, the line must have
    /// `size * size` symbols; without, the size is inferred from the length
    /// (16, 36, 64, 81, 100, 144, 256, ... 625) with the usual boxes.
    pub fn parse_line(line: &str, rules: Option<&Rules>) -> Result<Self, PuzzleError> {
        let cells: Vec<char> = line.trim().chars().collect();
        Self::from_symbols(
            &cells
                .iter()
                .enumerate()
                .map(|(i, &c)| (i + 1, c))
                .collect::<Vec<_>>(),
            rules,
            None,
        )
    }

    /// Builds a puzzle from `(column, symbol)` pairs. `rows` is the number of
    /// rows when the puzzle was written as a grid (checked against the size).
    fn from_symbols(
        cells: &[(usize, char)],
        rules: Option<&Rules>,
        rows: Option<usize>,
    ) -> Result<Self, PuzzleError> {
        let rules = match rules {
            Some(r) => {
                let n = r.size();
                if cells.len() != n * n {
                    return Err(PuzzleError::WrongLength {
                        found: cells.len(),
                        expected: Expected::Rules {
                            cells: n * n,
                            rules: r.describe(),
                        },
                    });
                }
                r.clone()
            }
            None => {
                let n = (cells.len() as f64).sqrt().round() as usize;
                if n * n != cells.len() || default_boxes(n).is_none() || !(4..=25).contains(&n) {
                    return Err(PuzzleError::WrongLength {
                        found: cells.len(),
                        expected: Expected::Standard,
                    });
                }
                Rules::standard(n)?
            }
        };
        let n = rules.size();
        if let Some(rows) = rows {
            if rows != n {
                return Err(PuzzleError::NotSquare {
                    rows,
                    cols: cells.len() / rows.max(1),
                });
            }
        }
        let mut g = Vec::with_capacity(n * n);
        for &(column, ch) in cells {
            let d = digit(ch).ok_or(PuzzleError::BadSymbol { ch, column })?;
            if d as usize > n {
                return Err(PuzzleError::DigitTooLarge {
                    ch,
                    column,
                    size: n,
                });
            }
            g.push(d);
        }
        Puzzle::new(rules, Grid::from_cells(n, g))
    }

    /// The givens as one line of symbols.
    pub fn to_line(&self) -> String {
        self.givens.to_line()
    }
}

fn conflict(n: usize, d: u8, unit: HouseKind, a: usize, b: usize) -> PuzzleError {
    PuzzleError::Conflict {
        digit: symbol(d),
        unit: unit.to_string(),
        a: cell_name(n, a),
        b: cell_name(n, b),
    }
}

/// Checks that `solution` is a solution of `puzzle`: complete, every unit
/// holding each digit once, every given kept. Shares no code with the
/// solvers.
pub fn check_solution(puzzle: &Puzzle, solution: &Grid) -> Result<(), String> {
    let n = puzzle.rules.size();
    if solution.size() != n {
        return Err(format!(
            "solution is {0}x{0}, puzzle {n}x{n}",
            solution.size()
        ));
    }
    for c in 0..n * n {
        let d = solution.get(c);
        if d == 0 || d as usize > n {
            return Err(format!("{} is empty or out of range", cell_name(n, c)));
        }
        let g = puzzle.givens.get(c);
        if g != 0 && g != d {
            return Err(format!(
                "{} changes the given {}",
                cell_name(n, c),
                symbol(g)
            ));
        }
    }
    for unit in puzzle.rules.shared_units().iter() {
        let mut seen = 0u64;
        for &c in &unit.cells {
            seen |= 1 << solution.get(c);
        }
        if seen != ((1u64 << (n + 1)) - 2) {
            return Err(format!("{} does not hold every digit once", unit.kind));
        }
    }
    Ok(())
}

/// One puzzle read from a text, with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleLine {
    /// 1-based line number where the puzzle starts.
    pub line: usize,
    pub puzzle: Result<Puzzle, PuzzleError>,
}

/// How the puzzles are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Decide from the text.
    Auto,
    /// One puzzle per line.
    Lines,
    /// Grids over several lines, separated by blank lines.
    Grids,
}

impl Layout {
    /// Its name: `auto`, `lines` or `grids`.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Auto => "auto",
            Layout::Lines => "lines",
            Layout::Grids => "grids",
        }
    }
}

pub(crate) fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

fn is_separator_char(c: char) -> bool {
    matches!(c, '|' | '+' | '-' | '=') || c.is_whitespace()
}

/// Does the text look like grids written over several lines?
pub fn looks_like_grids(text: &str) -> bool {
    let mut rows: Vec<usize> = Vec::new();
    for line in text.lines() {
        if is_comment(line) {
            continue;
        }
        let t = line.trim();
        if t.is_empty() {
            if !rows.is_empty() {
                break;
            }
            continue;
        }
        if t.contains('|') || t.contains('+') || t.starts_with("--") || t.contains(' ') {
            return true;
        }
        rows.push(t.chars().count());
    }
    // As many rows as each row has cells: a grid (e.g. 9 lines of 9).
    !rows.is_empty() && rows.iter().all(|&k| k == rows.len()) && rows.len() <= 25 && rows.len() > 1
}

/// Reads every puzzle in `text`. With `rules`, every puzzle follows them
/// (and must have their size); without, each puzzle's size is inferred.
pub fn read_puzzles(text: &str, rules: Option<&Rules>, layout: Layout) -> Vec<PuzzleLine> {
    let grids = match layout {
        Layout::Auto => looks_like_grids(text),
        Layout::Lines => false,
        Layout::Grids => true,
    };
    if grids {
        read_grids(text, rules)
    } else {
        read_lines(text, rules)
    }
}

fn read_lines(text: &str, rules: Option<&Rules>) -> Vec<PuzzleLine> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if is_comment(line) || line.trim().is_empty() {
            continue;
        }
        out.push(PuzzleLine {
            line: i + 1,
            puzzle: Puzzle::parse_line(line, rules),
        });
    }
    out
}

fn read_grids(text: &str, rules: Option<&Rules>) -> Vec<PuzzleLine> {
    let mut out = Vec::new();
    let mut cells: Vec<(usize, char)> = Vec::new();
    let mut rows = 0;
    let mut start = 0;
    let mut flush = |cells: &mut Vec<(usize, char)>, rows: &mut usize, start: usize| {
        if !cells.is_empty() {
            out.push(PuzzleLine {
                line: start,
                puzzle: Puzzle::from_symbols(cells, rules, Some(*rows)),
            });
        }
        cells.clear();
        *rows = 0;
    };
    for (i, line) in text.lines().enumerate() {
        if is_comment(line) {
            continue;
        }
        if line.trim().is_empty() {
            flush(&mut cells, &mut rows, start);
            continue;
        }
        let mut row = Vec::new();
        for (j, c) in line.chars().enumerate() {
            if !is_separator_char(c) {
                row.push((j + 1, c));
            }
        }
        if row.is_empty() {
            continue; // a line of separators
        }
        if cells.is_empty() {
            start = i + 1;
        }
        rows += 1;
        cells.extend(row);
    }
    flush(&mut cells, &mut rows, start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    #[test]
    fn one_per_line_with_comments() {
        let text = format!("# a comment\n{P}\n\n{}\n", P.replace('.', "0"));
        let v = read_puzzles(&text, None, Layout::Auto);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].line, 2);
        assert_eq!(v[1].line, 4);
        let p = v[0].puzzle.as_ref().unwrap();
        assert!(p.rules.is_standard_9x9());
        assert_eq!(p.givens.filled(), 21);
        assert_eq!(v[1].puzzle.as_ref().unwrap(), p);
    }

    #[test]
    fn grid_with_separators() {
        let text = "\
8 . . | . . . | . . .
. . 3 | 6 . . | . . .
. 7 . | . 9 . | 2 . .
------+-------+------
. 5 . | . . 7 | . . .
. . . | . 4 5 | 7 . .
. . . | 1 . . | . 3 .
------+-------+------
. . 1 | . . . | . 6 8
. . 8 | 5 . . | . 1 .
. 9 . | . . . | 4 . .
";
        let v = read_puzzles(text, None, Layout::Auto);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].puzzle.as_ref().unwrap().to_line(), P);
        // plain rows, no separators
        let rows: String = P
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
            .collect();
        let v = read_puzzles(&rows, None, Layout::Auto);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].puzzle.as_ref().unwrap().to_line(), P);
        // two grids separated by a blank line
        let v = read_puzzles(&format!("{rows}\n{rows}"), None, Layout::Auto);
        assert_eq!(v.len(), 2);
        assert_eq!(v[1].line, 11);
    }

    fn r36() -> Rules {
        Rules::boxed(6, 3, 2).unwrap()
    }

    #[test]
    fn sizes_inferred() {
        for n in [4usize, 6, 8, 9, 12, 16, 25] {
            let line = ".".repeat(n * n);
            let p = Puzzle::parse_line(&line, None).unwrap();
            assert_eq!(p.rules.size(), n);
        }
        let p = Puzzle::parse_line(&".".repeat(36), None).unwrap();
        assert_eq!(p.rules.describe(), "6x6 (2x3 boxes)");
        assert!(matches!(
            Puzzle::parse_line(&".".repeat(80), None),
            Err(PuzzleError::WrongLength { found: 80, .. })
        ));
        assert!(matches!(
            Puzzle::parse_line(&".".repeat(49), None),
            Err(PuzzleError::WrongLength { .. })
        ));
        // the library's words name no flag; a front end adds its own hint
        let e = Puzzle::parse_line(&".".repeat(80), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "wrong length: 80 cells, expected 81 (9x9), or 16, 36, 64, 100, 144, 256, 400 or 625"
        );
        assert_eq!(
            e.words("say RxC for other shapes"),
            "wrong length: 80 cells, expected 81 (9x9), or 16, 36, 64, 100, 144, 256, 400 or 625; say RxC for other shapes"
        );
        let e = Puzzle::parse_line(&".".repeat(81), Some(&r36())).unwrap_err();
        assert_eq!(
            e.to_string(),
            "wrong length: 81 cells, expected 36 for 6x6 (3x2 boxes)"
        );
        assert_eq!(e.words("say RxC"), e.to_string());
        let r = Rules::boxed(6, 3, 2).unwrap();
        assert_eq!(
            Puzzle::parse_line(&".".repeat(36), Some(&r)).unwrap().rules,
            r
        );
        assert!(Puzzle::parse_line(&".".repeat(81), Some(&r)).is_err());
    }

    #[test]
    fn errors_name_the_problem() {
        let e = Puzzle::parse_line(&format!("x{}", &P[1..]), None).unwrap_err();
        assert_eq!(e.to_string(), "bad symbol 'x' at column 1");
        let e = Puzzle::parse_line(&format!("{}A", &P[..80]), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "symbol 'A' at column 81 is too large for a 9x9 grid"
        );
        let bad = format!("88{}", &P[2..]);
        let e = Puzzle::parse_line(&bad, None).unwrap_err();
        assert_eq!(e.to_string(), "two 8s in row 1: r1c1 and r1c2");
        let mut col = P.as_bytes().to_vec();
        col[9] = b'8';
        let e = Puzzle::parse_line(std::str::from_utf8(&col).unwrap(), None).unwrap_err();
        assert_eq!(e.to_string(), "two 8s in column 1: r1c1 and r2c1");
        let mut bx = P.as_bytes().to_vec();
        bx[10] = b'8';
        let e = Puzzle::parse_line(std::str::from_utf8(&bx).unwrap(), None).unwrap_err();
        assert_eq!(e.to_string(), "two 8s in box 1: r1c1 and r2c2");
        // a batch goes on after a bad puzzle
        let v = read_puzzles(&format!("{P}\n{}\n{P}\n", &P[1..]), None, Layout::Auto);
        assert_eq!(v.len(), 3);
        assert!(v[0].puzzle.is_ok() && v[1].puzzle.is_err() && v[2].puzzle.is_ok());
        assert_eq!(v[1].line, 2);
    }

    #[test]
    fn checker() {
        let p = Puzzle::parse_line("1.3.....2..1.4..", None).unwrap();
        let good = Grid::from_cells(4, "1234341221434321".bytes().map(|b| b - b'0').collect());
        assert!(check_solution(&p, &good).is_err()); // r3c3 given 1? see below
        let p = Puzzle::parse_line("1...............", None).unwrap();
        assert!(check_solution(&p, &good).is_ok());
        let mut bad = good.clone();
        bad.set(1, 3);
        assert!(check_solution(&p, &bad).is_err());
    }
}
