//! Uniqueness techniques: unique rectangles (types 1 to 4) and BUG+1. They
//! assume the puzzle has a single solution.

use super::basic::combinations;
use super::board::*;
use super::step::{Step, Technique};

/// The rectangles of four empty cells on two rows, two columns and two
/// boxes, as `[r1c1, r1c2, r2c1, r2c2]`.
fn rectangles(b: &Board) -> Vec<[usize; 4]> {
    let mut v = Vec::new();
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    let same_band = r1 / 3 == r2 / 3;
                    let same_stack = c1 / 3 == c2 / 3;
                    if same_band == same_stack {
                        continue;
                    }
                    let cells = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                    if cells.iter().all(|&c| b.value(c) == 0) {
                        v.push(cells);
                    }
                }
            }
        }
    }
    v
}

fn shared_units(a: usize, c: usize) -> Vec<usize> {
    let mut v = Vec::new();
    for &u in &CELL_UNITS[a] {
        if CELL_UNITS[c].contains(&u) {
            v.push(u as usize);
        }
    }
    v
}

fn ur_step(t: Technique, cells: &[usize; 4], ab: Digits) -> Step {
    let mut s = Step::new(t);
    s.cells = cells.to_vec();
    s.digits = digits_of(ab).collect();
    s
}

/// Finds the easiest unique rectangle of the given type (1 to 4).
pub fn unique_rectangle(b: &Board, ty: u8) -> Option<Step> {
    for cells in rectangles(b) {
        let common = cells.iter().fold(ALL_DIGITS, |m, &c| m & b.cands(c));
        if count(common) < 2 {
            continue;
        }
        let cs: Vec<u8> = digits_of(common).collect();
        for i in 0..cs.len() {
            for j in i + 1..cs.len() {
                let ab = bit(cs[i]) | bit(cs[j]);
                let floor: Vec<usize> = cells
                    .iter()
                    .copied()
                    .filter(|&c| b.cands(c) == ab)
                    .collect();
                let roof: Vec<usize> = cells
                    .iter()
                    .copied()
                    .filter(|&c| b.cands(c) != ab)
                    .collect();
                let pair = digits_name(ab);
                match ty {
                    1 if floor.len() == 3 => {
                        let r = roof[0];
                        let mut s = ur_step(Technique::UniqueRectangle1, &cells, ab);
                        s.eliminations = digits_of(ab).map(|d| (r, d)).collect();
                        s.description = format!(
                            "Unique rectangle type 1: {} would hold only {} in {}, leaving two \
                             solutions; so {} cannot be {}",
                            cells_name(cells),
                            pair,
                            cells_name(floor.iter().copied()),
                            cell_name(r),
                            pair
                        );
                        return Some(s);
                    }
                    2 if floor.len() == 2 && sees(roof[0], roof[1]) => {
                        let extra = b.cands(roof[0]) & !ab;
                        if count(extra) != 1 || b.cands(roof[1]) != b.cands(roof[0]) {
                            continue;
                        }
                        let x = extra.trailing_zeros() as u8 + 1;
                        let targets = PEER_MASK[roof[0]] & PEER_MASK[roof[1]];
                        let el: Vec<(usize, u8)> = cells_of(targets)
                            .filter(|&c| b.has(c, x))
                            .map(|c| (c, x))
                            .collect();
                        if el.is_empty() {
                            continue;
                        }
                        let mut s = ur_step(Technique::UniqueRectangle2, &cells, ab);
                        s.eliminations = el;
                        s.digits.push(x);
                        s.description = format!(
                            "Unique rectangle type 2: in {} on {}, one of {} and {} must be {} \
                             (else two solutions), so {} leaves the cells seeing both",
                            cells_name(cells),
                            pair,
                            cell_name(roof[0]),
                            cell_name(roof[1]),
                            x,
                            x
                        );
                        return Some(s);
                    }
                    3 if floor.len() == 2 && sees(roof[0], roof[1]) => {
                        let extra = (b.cands(roof[0]) | b.cands(roof[1])) & !ab;
                        if count(extra) < 2 {
                            continue;
                        }
                        for u in shared_units(roof[0], roof[1]) {
                            let others: Vec<usize> = UNITS[u]
                                .iter()
                                .map(|&c| c as usize)
                                .filter(|&c| b.value(c) == 0 && c != roof[0] && c != roof[1])
                                .collect();
                            // the roof acts as one cell holding `extra`: a naked subset with it
                            for k in 1..=3usize {
                                let found = combinations(others.len(), k, &mut |idx| {
                                    let mut m = extra;
                                    let mut set: Cells = 0;
                                    for &i in idx {
                                        m |= b.cands(others[i]);
                                        set |= 1u128 << others[i];
                                    }
                                    if count(m) as usize != k + 1 {
                                        return None;
                                    }
                                    let mut el = Vec::new();
                                    for &c in &others {
                                        if set >> c & 1 == 0 {
                                            for d in digits_of(b.cands(c) & m) {
                                                el.push((c, d));
                                            }
                                        }
                                    }
                                    if el.is_empty() {
                                        return None;
                                    }
                                    let mut s = ur_step(Technique::UniqueRectangle3, &cells, ab);
                                    s.adjust = 0.1 * (k as f64 - 1.0);
                                    s.eliminations = el;
                                    s.units.push(unit_name(u));
                                    s.description = format!(
                                        "Unique rectangle type 3: in {} on {}, {} and {} hold one \
                                         of {}; with {} they form a naked set in {}, whose digits \
                                         leave its other cells",
                                        cells_name(cells),
                                        pair,
                                        cell_name(roof[0]),
                                        cell_name(roof[1]),
                                        digits_name(extra),
                                        cells_name(cells_of(set)),
                                        unit_name(u)
                                    );
                                    Some(s)
                                });
                                if found.is_some() {
                                    return found;
                                }
                            }
                        }
                    }
                    4 if floor.len() == 2 && sees(roof[0], roof[1]) => {
                        for u in shared_units(roof[0], roof[1]) {
                            for (a, bb) in [(cs[i], cs[j]), (cs[j], cs[i])] {
                                let p = b.unit_positions(u, a);
                                if p != (1u128 << roof[0]) | (1u128 << roof[1]) {
                                    continue;
                                }
                                let mut s = ur_step(Technique::UniqueRectangle4, &cells, ab);
                                s.eliminations = vec![(roof[0], bb), (roof[1], bb)];
                                s.eliminations.sort_unstable();
                                s.units.push(unit_name(u));
                                s.description = format!(
                                    "Unique rectangle type 4: in {} on {}, {} must be in {} or \
                                     {} ({} has no other place), so neither can be {} (else two \
                                     solutions)",
                                    cells_name(cells),
                                    pair,
                                    a,
                                    cell_name(roof[0]),
                                    cell_name(roof[1]),
                                    unit_name(u),
                                    bb
                                );
                                return Some(s);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    None
}

pub fn unique_rectangle_1(b: &Board) -> Option<Step> {
    unique_rectangle(b, 1)
}
pub fn unique_rectangle_2(b: &Board) -> Option<Step> {
    unique_rectangle(b, 2)
}
pub fn unique_rectangle_3(b: &Board) -> Option<Step> {
    unique_rectangle(b, 3)
}
pub fn unique_rectangle_4(b: &Board) -> Option<Step> {
    unique_rectangle(b, 4)
}

/// BUG+1: every empty cell holds two candidates but one, which holds three;
/// every digit appears twice in each unit except one digit of that cell,
/// which must then be its value (else the grid would have no single solution).
pub fn bug_plus_one(b: &Board) -> Option<Step> {
    let mut extra = None;
    for c in 0..81 {
        if b.value(c) != 0 {
            continue;
        }
        match count(b.cands(c)) {
            2 => {}
            3 if extra.is_none() => extra = Some(c),
            _ => return None,
        }
    }
    let x = extra?;
    'digit: for d in digits_of(b.cands(x)) {
        for u in 0..27 {
            for e in 1..=9u8 {
                let mut n = b.unit_positions(u, e).count_ones();
                if e == d && UNIT_MASK[u] >> x & 1 == 1 {
                    n -= 1;
                }
                if n != 0 && n != 2 {
                    continue 'digit;
                }
            }
        }
        let mut s = Step::new(Technique::BugPlusOne);
        s.placements.push((x, d));
        s.cells.push(x);
        s.digits.push(d);
        s.description = format!(
            "BUG+1: every empty cell but {} has two candidates; without {} there, every digit \
             would appear twice in each unit and the grid would have two solutions, so {} is {}",
            cell_name(x),
            d,
            cell_name(x),
            d
        );
        return Some(s);
    }
    None
}
