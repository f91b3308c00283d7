//! Aligned exclusion (Sudoku Explainer's aligned pair and triplet
//! exclusion, 6.2 and 7.5).
//!
//! Take two (or three) open cells, the *base*. Each way of filling them,
//! one candidate a cell, is a *combination*. A combination is impossible
//! when it puts one digit twice in cells that see each other, or when it
//! takes every candidate of a cell that sees all the base cells (an
//! *excluder*: that cell would be left empty). A candidate of a base cell
//! that belongs to no possible combination is false.
//!
//! As in SE, a base cell has two candidates or more and no peer that is a
//! naked single; excluders hold two candidates (pairs) or two or three
//! (triplets), and a base needs two excluders at least. For triplets, the
//! third cell is taken among the excluders of the first two, as SE does, so
//! the search stays near quadratic. The step is the first found, in the
//! order of the cells.

use super::board::*;
use super::step::{Step, Technique};

/// Aligned pair exclusion: two base cells (6.2).
pub fn aligned_pair_exclusion(b: &MarkedGrid) -> Option<Step> {
    aligned_exclusion(b, 2)
}

/// Aligned triplet exclusion: three base cells (7.5).
pub fn aligned_triplet_exclusion(b: &MarkedGrid) -> Option<Step> {
    aligned_exclusion(b, 3)
}

fn aligned_exclusion(b: &MarkedGrid, degree: usize) -> Option<Step> {
    // base cells, and each one's excluders (peers of 2..=degree candidates)
    let mut base: Cells = 0;
    let mut excluders = [0 as Cells; 81];
    for c in 0..81 {
        if count(b.cands(c)) < 2 {
            continue;
        }
        let mut single = false;
        let mut ex: Cells = 0;
        for &p in &PEERS[c] {
            let k = count(b.cands(p as usize)) as usize;
            if k == 1 {
                single = true;
                break;
            }
            if (2..=degree).contains(&k) {
                ex |= 1u128 << p;
            }
        }
        if !single && ex != 0 {
            base |= 1u128 << c;
            excluders[c] = ex;
        }
    }
    let list: Vec<usize> = cells_of(base).collect();
    for (i, &c0) in list.iter().enumerate() {
        for &c1 in &list[i + 1..] {
            let pair = excluders[c0] & excluders[c1];
            if degree == 2 {
                if let Some(s) = exclude(b, &[c0, c1], pair) {
                    return Some(s);
                }
                continue;
            }
            let twins = (excluders[c0] | excluders[c1]) & base & !(1u128 << c0 | 1u128 << c1);
            for c2 in cells_of(twins) {
                if let Some(s) = exclude(b, &[c0, c1, c2], pair & excluders[c2]) {
                    return Some(s);
                }
            }
        }
    }
    None
}

/// The step of one base (cells) with its common excluders, if it removes
/// anything.
fn exclude(b: &MarkedGrid, cells: &[usize], common: Cells) -> Option<Step> {
    if common.count_ones() < 2 {
        return None;
    }
    let n = cells.len();
    debug_assert!(n <= 3);
    let mut ex = [0 as Digits; 20];
    let mut ne = 0;
    for c in cells_of(common) {
        ex[ne] = b.cands(c);
        ne += 1;
    }
    let ex = &ex[..ne];
    let mut cands = [[0u8; 9]; 3];
    let mut len = [0usize; 3];
    for i in 0..n {
        for d in digits_of(b.cands(cells[i])) {
            cands[i][len[i]] = d;
            len[i] += 1;
        }
    }
    let mut seeing = [[false; 3]; 3];
    for i in 0..n {
        for j in 0..n {
            seeing[i][j] = i != j && sees(cells[i], cells[j]);
        }
    }
    let mut allowed = [0 as Digits; 3];
    let mut idx = [0usize; 3];
    // every combination, as an odometer over the cells' candidates
    'combos: loop {
        let mut pick = [0u8; 3];
        for i in 0..n {
            pick[i] = cands[i][idx[i]];
        }
        let mut ok = true;
        'check: for i in 0..n {
            for j in i + 1..n {
                if pick[i] == pick[j] && seeing[i][j] {
                    ok = false;
                    break 'check;
                }
            }
        }
        if ok {
            let taken = pick[..n].iter().fold(0 as Digits, |m, &d| m | bit(d));
            ok = ex.iter().all(|&m| m & !taken != 0);
        }
        if ok {
            for i in 0..n {
                allowed[i] |= bit(pick[i]);
            }
        }
        let mut i = 0;
        loop {
            idx[i] += 1;
            if idx[i] < len[i] {
                break;
            }
            idx[i] = 0;
            i += 1;
            if i == n {
                break 'combos;
            }
        }
    }
    if (0..n).all(|i| b.cands(cells[i]) & !allowed[i] == 0) {
        return None;
    }
    let ex: Vec<(usize, Digits)> = cells_of(common).map(|c| (c, b.cands(c))).collect();
    let mut s = Step::new(if n == 2 {
        Technique::AlignedPairExclusion
    } else {
        Technique::AlignedTripletExclusion
    });
    for (i, &c) in cells.iter().enumerate() {
        for d in digits_of(b.cands(c) & !allowed[i]) {
            s.eliminations.push((c, d));
        }
    }
    if s.eliminations.is_empty() {
        return None;
    }
    s.cells = cells.to_vec();
    s.cells.extend(cells_of(common));
    s.digits = digits_of(cells.iter().fold(0, |m, &c| m | b.cands(c))).collect();
    let gone: Vec<String> = s
        .eliminations
        .iter()
        .map(|&(c, d)| format!("{} from {}", digit_name(d), cell_name(c)))
        .collect();
    s.description = format!(
        "{}: of the ways to fill {}, one candidate each, every one that holds {} either \
         puts a digit twice in one unit or takes all the candidates of one of {} \
         ({}), which see them all; so {} go",
        s.technique.name(),
        cells_name(cells.iter().copied()),
        if s.eliminations.len() == 1 {
            "the removed candidate"
        } else {
            "a removed candidate"
        },
        cells_name(cells_of(common)),
        ex.iter()
            .map(|&(c, m)| format!("{} {}", cell_name(c), digits_name(m)))
            .collect::<Vec<_>>()
            .join(", "),
        gone.join(", ")
    );
    Some(s)
}
