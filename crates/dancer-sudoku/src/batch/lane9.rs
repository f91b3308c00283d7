//! The lane of plain 9x9 lines: 81 bytes read straight into cells, the
//! givens and every answer checked with bit masks, `fast9` called on the
//! cells as they are. Anything it does not take (another length, another
//! symbol, givens in conflict, an answer that fails its check) goes back
//! to the general path, which says what is wrong: so the outcomes are
//! those of the general path, only sooner.

use super::{checked, LineOutcome};
use crate::fast9;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::rules::Rules;
use crate::solve::Solved;

/// The cells of a line of exactly 81 symbols `1`-`9`, `.` or `0`
/// (ASCII whitespace around it allowed), digits 0 to 9.
pub fn parse(line: &str) -> Option<[u8; 81]> {
    let b = line.as_bytes().trim_ascii();
    parse_row(b.try_into().ok()?)
}

/// [`parse`] of exactly 81 bytes, no whitespace.
#[inline]
pub fn parse_row(b: &[u8; 81]) -> Option<[u8; 81]> {
    let mut cells = [0u8; 81];
    let mut bad = false;
    // without branches, so that it runs on vectors
    for (c, &x) in cells.iter_mut().zip(b) {
        let d = x.wrapping_sub(b'0');
        let dot = x == b'.';
        bad |= (d > 9) & !dot;
        *c = if dot { 0 } else { d };
    }
    (!bad).then_some(cells)
}

/// The digits of each house of `cells` (bit `d` for digit `d`, bit 0
/// for empty cells; rows 0-8, columns 9-17, boxes 18-26), and whether
/// no digit but 0 was met twice in one of them. A row at a time, its
/// mask and its three box segments in registers (a table of houses
/// per cell would chain every cell's update through memory).
fn houses(cells: &[u8; 81]) -> ([u16; 27], bool) {
    let mut seen = [0u16; 27];
    let mut twice = 0u16;
    for r in 0..9 {
        let mut row = 0u16;
        let mut seg = [0u16; 3];
        for k in 0..9 {
            let bit = 1u16 << (cells[r * 9 + k] & 15);
            twice |= (row | seen[9 + k]) & bit;
            row |= bit;
            seen[9 + k] |= bit;
            seg[k / 3] |= bit;
        }
        seen[r] = row;
        for (j, &sg) in seg.iter().enumerate() {
            let b = 18 + r / 3 * 3 + j;
            // within a segment a digit twice is twice in the row
            twice |= seen[b] & sg;
            seen[b] |= sg;
        }
    }
    (seen, twice & !1 == 0)
}

/// Whether no digit is twice in a row, column or box of `cells`
/// (digits 0 to 9, 0 empty).
pub fn givens_ok(cells: &[u8; 81]) -> bool {
    houses(cells).1
}

/// Whether `sol` is a solution of `givens`: every cell 1 to 9, every
/// given kept, every row, column and box holding each digit once.
/// With every cell 1 to 9, a house holding each digit once is one
/// whose nine cells show all nine digits: the test is an OR of bits per
/// house, in straight loops that need no branch.
pub fn solution_ok(givens: &[u8; 81], sol: &[u8; 81]) -> bool {
    const ALL: u16 = 0b11_1111_1110;
    let mut ok = true;
    let mut bits = [0u16; 81];
    for ((b, &d), &g) in bits.iter_mut().zip(sol).zip(givens) {
        ok &= (1..=9).contains(&d) & ((g == 0) | (g == d));
        *b = 1u16 << (d & 15);
    }
    let mut cols = [0u16; 9];
    for row in bits.chunks_exact(9) {
        let mut m = 0;
        for (c, &b) in cols.iter_mut().zip(row) {
            m |= b;
            *c |= b;
        }
        ok &= m == ALL;
    }
    for band in bits.chunks_exact(27) {
        for j in 0..3 {
            let mut m = 0;
            for i in 0..3 {
                for &b in &band[i * 9 + j * 3..i * 9 + j * 3 + 3] {
                    m |= b;
                }
            }
            ok &= m == ALL;
        }
    }
    ok && cols.iter().all(|&c| c == ALL)
}

/// The outcome of the puzzle `cells` (`rules`: plain 9x9), as the
/// general path would give it; `None` to leave it to the general path.
#[cfg(test)]
pub fn solve(rules: &Rules, cells: [u8; 81], limit: u64, keep: usize) -> Option<LineOutcome> {
    let mut v = Vec::with_capacity(1);
    solve_into(rules, cells, limit, keep, 0, &mut v, None).then(|| v.pop().expect("pushed").1)
}

/// [`solve`], its outcome pushed onto `outcomes` with `line` (and 0
/// for the end of its text) where it is `Some`; whether it was. The
/// outcome is built in its place in the vector: an outcome is a few
/// hundred bytes (its grids in place), and moving it from the solver
/// to the vector, a copy at each step, was a twentieth of a batch's
/// time. With `cancel` set meanwhile, the count may be short: the
/// caller looks at the flag and drops the outcome.
pub fn solve_into(
    rules: &Rules,
    cells: [u8; 81],
    limit: u64,
    keep: usize,
    line: usize,
    outcomes: &mut Vec<(usize, LineOutcome, usize)>,
    cancel: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> bool {
    let keep = keep.min(usize::try_from(limit).unwrap_or(usize::MAX));
    let mut small = [[0u8; 81]; 2];
    let mut large = Vec::new();
    let out: &mut [[u8; 81]] = if keep <= 2 {
        &mut small[..keep]
    } else {
        large.resize(keep, [0u8; 81]);
        &mut large
    };
    let mut st = fast9::Fast9Stats::default();
    let count = fast9::solve_cancellable(&cells, limit, out, &mut st, cancel.map(|c| &**c));
    // givens in conflict give no solution: only then are they looked
    // at, and then the general path says where the conflict is
    if count == 0 && !givens_ok(&cells) {
        return false;
    }
    let kept = &out[..count.min(out.len() as u64) as usize];
    // the parser gave digits 0 to 9, and a solution that passed its
    // check has digits 1 to 9; one that did not is only checked again
    // (by the general check, which takes any byte) and never shown
    if !kept.iter().all(|g| solution_ok(&cells, g)) {
        let puzzle = Puzzle {
            rules: rules.clone(),
            givens: Grid::from_checked_9x9(cells),
        };
        let solved = Solved {
            count,
            solutions: kept.iter().map(|&g| Grid::from_checked_9x9(g)).collect(),
            effort: st.guesses,
        };
        // the general check says what is wrong
        outcomes.push((line, checked(puzzle, solved), 0));
        return true;
    }
    outcomes.push((
        line,
        LineOutcome::Solved(
            Puzzle {
                rules: rules.clone(),
                givens: Grid::from_checked_9x9(cells),
            },
            Solved {
                count,
                solutions: Default::default(),
                effort: st.guesses,
            },
        ),
        0,
    ));
    if let Some((_, LineOutcome::Solved(_, s), _)) = outcomes.last_mut() {
        for &g in kept {
            s.solutions.push(Grid::from_checked_9x9(g));
        }
    }
    true
}
