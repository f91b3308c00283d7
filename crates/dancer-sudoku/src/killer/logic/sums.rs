//! The killer techniques: cells whose digits add up to a known sum (a
//! cage, or innies and outies by the rule of 45).
//!
//! [`fit`] is the one search under them all: every way to give a group of
//! cells digits from their candidates that add up to the sum, distinct
//! where two cells see each other. What no such way puts in a cell goes.

use super::{digits_words, KillerBoard, KillerStep, KillerTechnique};

/// The search gives up on a group past this many nodes (a group of many
/// open cells says little anyway).
const FIT_NODES: usize = 20_000;

/// What a group of cells can hold: per cell, the digits some fitting way
/// puts there; the digit sets of the ways.
pub(super) struct Fit {
    pub can: Vec<u32>,
    pub sets: Vec<u32>,
}

/// Every way to fill `cells` from their candidates adding up to `sum`,
/// distinct where cells see each other. `None` when the search is too
/// long.
pub(super) fn fit(b: &KillerBoard, cells: &[usize], sum: u32) -> Option<Fit> {
    let k = cells.len();
    // see[i]: the earlier cells of the group that cell i sees
    let see: Vec<Vec<usize>> = (0..k)
        .map(|i| (0..i).filter(|&j| b.sees(cells[i], cells[j])).collect())
        .collect();
    let cand: Vec<u32> = cells.iter().map(|&c| b.cand[c]).collect();
    if cand.contains(&0) {
        return Some(Fit {
            can: vec![0; k],
            sets: Vec::new(),
        });
    }
    let lo: Vec<u32> = cand.iter().map(|m| m.trailing_zeros()).collect();
    let hi: Vec<u32> = cand.iter().map(|m| 31 - m.leading_zeros()).collect();
    // least and most the cells from i on can add up to
    let mut rest_lo = vec![0u32; k + 1];
    let mut rest_hi = vec![0u32; k + 1];
    for i in (0..k).rev() {
        rest_lo[i] = rest_lo[i + 1] + lo[i];
        rest_hi[i] = rest_hi[i + 1] + hi[i];
    }
    struct S<'a> {
        see: &'a [Vec<usize>],
        cand: &'a [u32],
        rest_lo: &'a [u32],
        rest_hi: &'a [u32],
        cur: Vec<u32>,
        can: Vec<u32>,
        sets: Vec<u32>,
        nodes: usize,
    }
    fn go(s: &mut S, i: usize, left: u32) -> bool {
        s.nodes += 1;
        if s.nodes > FIT_NODES {
            return false;
        }
        if i == s.cand.len() {
            if left == 0 {
                let mut set = 0;
                for (j, &d) in s.cur.iter().enumerate() {
                    s.can[j] |= 1 << d;
                    set |= 1 << d;
                }
                if !s.sets.contains(&set) {
                    s.sets.push(set);
                }
            }
            return true;
        }
        if left < s.rest_lo[i] || left > s.rest_hi[i] {
            return true;
        }
        let mut m = s.cand[i];
        for &j in &s.see[i] {
            m &= !(1 << s.cur[j]);
        }
        while m != 0 {
            let d = m.trailing_zeros();
            m &= m - 1;
            if d > left {
                break;
            }
            s.cur.push(d);
            let ok = go(s, i + 1, left - d);
            s.cur.pop();
            if !ok {
                return false;
            }
        }
        true
    }
    let mut s = S {
        see: &see,
        cand: &cand,
        rest_lo: &rest_lo,
        rest_hi: &rest_hi,
        cur: Vec::with_capacity(k),
        can: vec![0; k],
        sets: Vec::new(),
        nodes: 0,
    };
    go(&mut s, 0, sum).then_some(Fit {
        can: s.can,
        sets: s.sets,
    })
}

/// The removals a fit makes in `cells`.
fn removals(b: &KillerBoard, cells: &[usize], f: &Fit) -> Vec<(usize, u8)> {
    let mut out = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        let gone = b.cand[c] & !f.can[i];
        for d in 1..=b.n as u8 {
            if gone >> d & 1 == 1 {
                out.push((c, d));
            }
        }
    }
    out
}

fn sets_words(sets: &[u32]) -> String {
    let mut sets = sets.to_vec();
    sets.sort_unstable();
    let shown: Vec<String> = sets
        .iter()
        .take(8)
        .map(|&s| {
            let ds: String = (1..32)
                .filter(|d| s >> d & 1 == 1)
                .map(|d| crate::grid::symbol(d as u8))
                .collect();
            format!("{{{ds}}}")
        })
        .collect();
    if sets.len() > 8 {
        format!("{} and {} more", shown.join(" "), sets.len() - 8)
    } else {
        shown.join(" ")
    }
}

/// The last empty cell of a cage gets the sum less the cage's digits.
pub(super) fn cage_last_cell(b: &KillerBoard) -> Option<KillerStep> {
    for (i, (cells, sum, _)) in b.cages.iter().enumerate() {
        let empty = b.empty(cells);
        if empty.len() != 1 {
            continue;
        }
        let c = empty[0];
        let d = sum.checked_sub(b.filled_sum(cells))?;
        if d == 0 || d > b.n as u32 || b.cand[c] >> d & 1 == 0 {
            continue; // broken: the search for a step stops elsewhere
        }
        return Some(KillerStep {
            technique: KillerTechnique::CageLastCell,
            rating: KillerTechnique::CageLastCell.rating(),
            description: format!(
                "{} is the last empty cell of {}: it holds {sum} less the others, {d}",
                b.name(c),
                b.cage_words(i)
            ),
            placements: vec![(c, d as u8)],
            eliminations: Vec::new(),
            cells: cells.clone(),
            cages: vec![i],
            units: Vec::new(),
        });
    }
    None
}

/// The combinations of a cage that fit its candidates: a candidate no
/// fitting placement uses goes.
pub(super) fn cage_combinations(b: &KillerBoard) -> Option<KillerStep> {
    for (i, (cells, sum, _)) in b.cages.iter().enumerate() {
        let empty = b.empty(cells);
        if empty.is_empty() {
            continue;
        }
        let left = sum.saturating_sub(b.filled_sum(cells));
        let Some(f) = fit(b, &empty, left) else {
            continue;
        };
        let gone = removals(b, &empty, &f);
        if gone.is_empty() {
            continue;
        }
        let description = format!(
            "{}: its open cells must add up to {left}; the combinations that fit their candidates are {}, so {}",
            b.cage_words(i),
            sets_words(&f.sets),
            gone_words(b, &gone)
        );
        return Some(KillerStep {
            technique: KillerTechnique::CageCombinations,
            rating: KillerTechnique::CageCombinations.rating(),
            description,
            placements: Vec::new(),
            eliminations: gone,
            cells: cells.clone(),
            cages: vec![i],
            units: Vec::new(),
        });
    }
    None
}

/// Removals in words: `r1c1 cannot be 4 or 5, r1c2 cannot be 4`.
pub(super) fn gone_words(b: &KillerBoard, gone: &[(usize, u8)]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < gone.len() {
        let c = gone[i].0;
        let mut m = 0u32;
        while i < gone.len() && gone[i].0 == c {
            m |= 1 << gone[i].1;
            i += 1;
        }
        parts.push(format!(
            "{} cannot be {}",
            b.name(c),
            digits_words(m).replace(" and ", " or ")
        ));
    }
    parts.join(", ")
}

/// A digit every fitting combination of a cage holds, whose candidates in
/// the cage lie in one unit, leaves the rest of the unit; a digit whose
/// candidates in a unit all lie in one cage leaves the rest of the cage.
pub(super) fn cage_unit(b: &KillerBoard) -> Option<KillerStep> {
    for (i, (cells, sum, _)) in b.cages.iter().enumerate() {
        let empty = b.empty(cells);
        if empty.len() < 2 {
            continue;
        }
        let left = sum.saturating_sub(b.filled_sum(cells));
        let Some(f) = fit(b, &empty, left) else {
            continue;
        };
        let must = f.sets.iter().fold(u32::MAX, |m, &s| m & s) & !1;
        for d in 1..=b.n as u8 {
            if must >> d & 1 == 0 || f.sets.is_empty() {
                continue;
            }
            let at: Vec<usize> = empty
                .iter()
                .copied()
                .filter(|&c| b.cand[c] >> d & 1 == 1)
                .collect();
            for u in &b.units {
                if !at.iter().all(|c| u.cells.contains(c)) {
                    continue;
                }
                let gone: Vec<(usize, u8)> = u
                    .cells
                    .iter()
                    .copied()
                    .filter(|&c| b.values[c] == 0 && b.cage_of[c] != i && b.cand[c] >> d & 1 == 1)
                    .map(|c| (c, d))
                    .collect();
                if gone.is_empty() {
                    continue;
                }
                let description = format!(
                    "every combination of {} that fits holds {d}, and its {d} can only be in {} of {}: no other cell of {} is {d}, so {}",
                    b.cage_words(i),
                    names(b, &at),
                    u.words,
                    u.words,
                    gone_words(b, &gone)
                );
                return Some(step_of(
                    KillerTechnique::CageUnit,
                    description,
                    gone,
                    cells.clone(),
                    vec![i],
                    vec![u.words.clone()],
                ));
            }
        }
    }
    for u in &b.units {
        for d in 1..=b.n as u8 {
            let at: Vec<usize> = u
                .cells
                .iter()
                .copied()
                .filter(|&c| b.values[c] == 0 && b.cand[c] >> d & 1 == 1)
                .collect();
            let Some(&first) = at.first() else { continue };
            let i = b.cage_of[first];
            if i == usize::MAX || !at.iter().all(|&c| b.cage_of[c] == i) {
                continue;
            }
            let gone: Vec<(usize, u8)> = b.cages[i]
                .0
                .iter()
                .copied()
                .filter(|&c| b.values[c] == 0 && !u.cells.contains(&c) && b.cand[c] >> d & 1 == 1)
                .map(|c| (c, d))
                .collect();
            if gone.is_empty() {
                continue;
            }
            let description = format!(
                "the {d} of {} can only be in {}, all in {}; the cage holds one {d}, so {}",
                u.words,
                names(b, &at),
                b.cage_words(i),
                gone_words(b, &gone)
            );
            return Some(step_of(
                KillerTechnique::CageUnit,
                description,
                gone,
                b.cages[i].0.clone(),
                vec![i],
                vec![u.words.clone()],
            ));
        }
    }
    None
}

pub(super) fn names(b: &KillerBoard, cells: &[usize]) -> String {
    let ns: Vec<String> = cells.iter().map(|&c| b.name(c)).collect();
    ns.join(", ")
}

fn step_of(
    technique: KillerTechnique,
    description: String,
    eliminations: Vec<(usize, u8)>,
    cells: Vec<usize>,
    cages: Vec<usize>,
    units: Vec<String>,
) -> KillerStep {
    KillerStep {
        technique,
        rating: technique.rating(),
        description,
        placements: Vec::new(),
        eliminations,
        cells,
        cages,
        units,
    }
}

/// Innies and outies of an area: the cells, the sum of the empty ones,
/// the cages involved.
struct Side {
    cells: Vec<usize>,
    sum: u32,
    cages: Vec<usize>,
}

/// The innies and the outies of an area (cells of `total`), when their
/// sums are known.
fn sides(b: &KillerBoard, area: &[usize], total: u32) -> (Option<Side>, Option<Side>) {
    let n2 = b.n * b.n;
    let mut inside = vec![false; n2];
    for &c in area {
        inside[c] = true;
    }
    let mut touching = Vec::new();
    for &c in area {
        let i = b.cage_of[c];
        if i != usize::MAX && !touching.contains(&i) {
            touching.push(i);
        }
    }
    let whole: Vec<usize> = touching
        .iter()
        .copied()
        .filter(|&i| b.cages[i].0.iter().all(|&c| inside[c]))
        .collect();
    let whole_sum: u32 = whole.iter().map(|&i| b.cages[i].1).sum();
    let innie_cells: Vec<usize> = area
        .iter()
        .copied()
        .filter(|&c| {
            let i = b.cage_of[c];
            i == usize::MAX || !whole.contains(&i)
        })
        .collect();
    let innies = total.checked_sub(whole_sum).and_then(|s| {
        let empty = b.empty(&innie_cells);
        let sum = s.checked_sub(b.filled_sum(&innie_cells))?;
        (!empty.is_empty()).then(|| Side {
            cells: empty,
            sum,
            cages: whole.clone(),
        })
    });
    // outies: known when every uncaged cell of the area is filled
    let uncaged: Vec<usize> = area
        .iter()
        .copied()
        .filter(|&c| b.cage_of[c] == usize::MAX)
        .collect();
    let outies = if b.empty(&uncaged).is_empty() {
        let reach: Vec<usize> = touching
            .iter()
            .copied()
            .filter(|i| !whole.contains(i))
            .collect();
        let reach_sum: u32 = reach.iter().map(|&i| b.cages[i].1).sum::<u32>() + whole_sum;
        let caged_in = total - b.filled_sum(&uncaged);
        let out_cells: Vec<usize> = reach
            .iter()
            .flat_map(|&i| b.cages[i].0.iter().copied())
            .filter(|&c| !inside[c])
            .collect();
        reach_sum.checked_sub(caged_in).and_then(|s| {
            let empty = b.empty(&out_cells);
            let sum = s.checked_sub(b.filled_sum(&out_cells))?;
            (!empty.is_empty()).then_some(Side {
                cells: empty,
                sum,
                cages: reach,
            })
        })
    } else {
        None
    };
    (innies, outies)
}

/// The rule of 45, as `technique` asks: one innie or outie placed
/// ([`KillerTechnique::InnieOutie`]), innies or outies taken as a cage
/// ([`KillerTechnique::HiddenCage`]), or a cage split by them
/// ([`KillerTechnique::CageSplitting`]).
pub(super) fn rule_of_45(b: &KillerBoard, technique: KillerTechnique) -> Option<KillerStep> {
    for (words, area, total) in &b.areas {
        let (innies, outies) = sides(b, area, *total);
        for (side, what) in [(innies, "innie"), (outies, "outie")] {
            let Some(side) = side else { continue };
            let found = match technique {
                KillerTechnique::InnieOutie => one_cell(b, words, *total, &side, what),
                KillerTechnique::HiddenCage => hidden_cage(b, words, *total, &side, what),
                _ => split(b, words, area, &side, what),
            };
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

fn one_cell(
    b: &KillerBoard,
    words: &str,
    total: u32,
    side: &Side,
    what: &str,
) -> Option<KillerStep> {
    if side.cells.len() != 1 {
        return None;
    }
    let c = side.cells[0];
    let d = side.sum;
    if d == 0 || d > b.n as u32 || b.cand[c] >> d & 1 == 0 {
        return None;
    }
    let description = format!(
        "the rule of 45: the digits of {words} add up to {total}; {} is the one open {what} (the cages wholly {} leave it), so it holds {d}",
        b.name(c),
        if what == "innie" { "inside" } else { "reaching out" }
    );
    Some(KillerStep {
        technique: KillerTechnique::InnieOutie,
        rating: KillerTechnique::InnieOutie.rating(),
        description,
        placements: vec![(c, d as u8)],
        eliminations: Vec::new(),
        cells: side.cells.clone(),
        cages: side.cages.clone(),
        units: vec![words.to_string()],
    })
}

fn hidden_cage(
    b: &KillerBoard,
    words: &str,
    total: u32,
    side: &Side,
    what: &str,
) -> Option<KillerStep> {
    if !(2..=6).contains(&side.cells.len()) {
        return None;
    }
    let f = fit(b, &side.cells, side.sum)?;
    let gone = removals(b, &side.cells, &f);
    if gone.is_empty() {
        return None;
    }
    let description = format!(
        "the rule of 45 on {words} (they add up to {total}): the open {what}s {} add up to {}, a hidden cage; the combinations that fit are {}, so {}",
        names(b, &side.cells),
        side.sum,
        sets_words(&f.sets),
        gone_words(b, &gone)
    );
    Some(step_of(
        KillerTechnique::HiddenCage,
        description,
        gone,
        side.cells.clone(),
        side.cages.clone(),
        vec![words.to_string()],
    ))
}

/// All of the side's cells in one cage that is not wholly on that side:
/// the rest of the cage has the cage's sum less theirs.
fn split(
    b: &KillerBoard,
    words: &str,
    area: &[usize],
    side: &Side,
    what: &str,
) -> Option<KillerStep> {
    let i = b.cage_of[side.cells[0]];
    if i == usize::MAX || !side.cells.iter().all(|&c| b.cage_of[c] == i) {
        return None;
    }
    let (cells, sum, _) = &b.cages[i];
    let on_side = |c: &usize| area.contains(c) == (what == "innie");
    let part: Vec<usize> = cells.iter().copied().filter(|c| !on_side(c)).collect();
    let side_all: Vec<usize> = cells.iter().copied().filter(on_side).collect();
    let side_sum = side.sum + b.filled_sum(&side_all);
    let rest = sum.checked_sub(side_sum)?;
    let empty = b.empty(&part);
    if empty.is_empty() {
        return None;
    }
    let left = rest.checked_sub(b.filled_sum(&part))?;
    let f = fit(b, &empty, left)?;
    let gone = removals(b, &empty, &f);
    if gone.is_empty() {
        return None;
    }
    let description = format!(
        "cage splitting: by the rule of 45 on {words}, the {what}s {} add up to {side_sum}, and they are all of {} on that side; its other part {} adds up to {sum} less {side_sum}, {rest}; the combinations that fit are {}, so {}",
        names(b, &side_all),
        b.cage_words(i),
        names(b, &part),
        sets_words(&f.sets),
        gone_words(b, &gone)
    );
    Some(step_of(
        KillerTechnique::CageSplitting,
        description,
        gone,
        cells.clone(),
        vec![i],
        vec![words.to_string()],
    ))
}
