//! The Sudoku techniques on a killer board: singles, locked candidates,
//! naked and hidden subsets, and the contradiction (a candidate tried).

use super::sums::{gone_words, names};
use super::{digits_words, find, KillerBoard, KillerStep, KillerTechnique};

fn step(
    technique: KillerTechnique,
    description: String,
    placements: Vec<(usize, u8)>,
    eliminations: Vec<(usize, u8)>,
    cells: Vec<usize>,
    units: Vec<String>,
) -> KillerStep {
    KillerStep {
        technique,
        rating: technique.rating(),
        description,
        placements,
        eliminations,
        cells,
        cages: Vec::new(),
        units,
    }
}

/// The last empty cell of a unit.
pub(super) fn full_house(b: &KillerBoard) -> Option<KillerStep> {
    for u in &b.units {
        let empty = b.empty(&u.cells);
        if empty.len() != 1 {
            continue;
        }
        let c = empty[0];
        let m = b.cand[c];
        if m.count_ones() != 1 {
            continue;
        }
        let d = m.trailing_zeros() as u8;
        return Some(step(
            KillerTechnique::FullHouse,
            format!(
                "{} is the last empty cell of {}: it holds {d}",
                b.name(c),
                u.words
            ),
            vec![(c, d)],
            Vec::new(),
            u.cells.clone(),
            vec![u.words.clone()],
        ));
    }
    None
}

/// The only place left for a digit in a unit.
pub(super) fn hidden_single(b: &KillerBoard) -> Option<KillerStep> {
    for u in &b.units {
        for d in 1..=b.n as u8 {
            if u.cells.iter().any(|&c| b.values[c] == d) {
                continue;
            }
            let at: Vec<usize> = u
                .cells
                .iter()
                .copied()
                .filter(|&c| b.cand[c] >> d & 1 == 1)
                .collect();
            if at.len() == 1 {
                return Some(step(
                    KillerTechnique::HiddenSingle,
                    format!("{} is the only place for {d} in {}", b.name(at[0]), u.words),
                    vec![(at[0], d)],
                    Vec::new(),
                    u.cells.clone(),
                    vec![u.words.clone()],
                ));
            }
        }
    }
    None
}

/// The only candidate of a cell.
pub(super) fn naked_single(b: &KillerBoard) -> Option<KillerStep> {
    (0..b.values.len())
        .find(|&c| b.values[c] == 0 && b.cand[c].count_ones() == 1)
        .map(|c| {
            let d = b.cand[c].trailing_zeros() as u8;
            step(
                KillerTechnique::NakedSingle,
                format!("{d} is the only candidate left in {}", b.name(c)),
                vec![(c, d)],
                Vec::new(),
                vec![c],
                Vec::new(),
            )
        })
}

/// A digit's candidates in one unit all in another: the rest of the other
/// loses the digit.
pub(super) fn locked_candidates(b: &KillerBoard) -> Option<KillerStep> {
    for u in &b.units {
        for d in 1..=b.n as u8 {
            let at: Vec<usize> = u
                .cells
                .iter()
                .copied()
                .filter(|&c| b.values[c] == 0 && b.cand[c] >> d & 1 == 1)
                .collect();
            if at.len() < 2 {
                continue;
            }
            for v in &b.units {
                if std::ptr::eq(u, v) || !at.iter().all(|c| v.cells.contains(c)) {
                    continue;
                }
                let gone: Vec<(usize, u8)> = v
                    .cells
                    .iter()
                    .copied()
                    .filter(|&c| b.values[c] == 0 && b.cand[c] >> d & 1 == 1 && !at.contains(&c))
                    .map(|c| (c, d))
                    .collect();
                if gone.is_empty() {
                    continue;
                }
                return Some(step(
                    KillerTechnique::LockedCandidates,
                    format!(
                        "in {}, {d} can only be in {}, all in {}: so {}",
                        u.words,
                        names(b, &at),
                        v.words,
                        gone_words(b, &gone)
                    ),
                    Vec::new(),
                    gone,
                    at,
                    vec![u.words.clone(), v.words.clone()],
                ));
            }
        }
    }
    None
}

/// Calls `f` on every `k`-subset of `0..len` (as indices), until it says
/// stop.
fn subsets(len: usize, k: usize, f: &mut dyn FnMut(&[usize]) -> bool) -> bool {
    fn go(
        from: usize,
        len: usize,
        k: usize,
        cur: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if cur.len() == k {
            return f(cur);
        }
        for i in from..len {
            cur.push(i);
            if go(i + 1, len, k, cur, f) {
                return true;
            }
            cur.pop();
        }
        false
    }
    go(0, len, k, &mut Vec::with_capacity(k), f)
}

/// `k` cells of a unit or a cage whose candidates are `k` digits: the
/// group's other cells lose them.
pub(super) fn naked_subset(b: &KillerBoard, k: usize) -> Option<KillerStep> {
    let technique = if k == 2 {
        KillerTechnique::NakedPair
    } else {
        KillerTechnique::NakedTriple
    };
    let groups = b
        .units
        .iter()
        .map(|u| (u.words.clone(), &u.cells, false))
        .chain(
            b.cages
                .iter()
                .enumerate()
                .map(|(i, c)| (b.cage_words(i), &c.0, true)),
        );
    for (words, cells, _) in groups {
        let empty = b.empty(cells);
        if empty.len() <= k {
            continue;
        }
        let small: Vec<usize> = empty
            .iter()
            .copied()
            .filter(|&c| (2..=k as u32).contains(&b.cand[c].count_ones()))
            .collect();
        let mut found = None;
        subsets(small.len(), k, &mut |pick| {
            let set: Vec<usize> = pick.iter().map(|&i| small[i]).collect();
            let m = set.iter().fold(0u32, |m, &c| m | b.cand[c]);
            if m.count_ones() as usize != k {
                return false;
            }
            let gone: Vec<(usize, u8)> = empty
                .iter()
                .copied()
                .filter(|c| !set.contains(c))
                .flat_map(|c| {
                    (1..=b.n as u8)
                        .filter(move |&d| m >> d & 1 == 1)
                        .map(move |d| (c, d))
                })
                .filter(|&(c, d)| b.cand[c] >> d & 1 == 1)
                .collect();
            if gone.is_empty() {
                return false;
            }
            found = Some(step(
                technique,
                format!(
                    "{} hold only {} between them in {words}: so {}",
                    names(b, &set),
                    digits_words(m),
                    gone_words(b, &gone)
                ),
                Vec::new(),
                gone,
                set,
                vec![words.clone()],
            ));
            true
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// `k` digits of a unit that only `k` cells can take: those cells lose
/// their other candidates.
pub(super) fn hidden_subset(b: &KillerBoard, k: usize) -> Option<KillerStep> {
    let technique = if k == 2 {
        KillerTechnique::HiddenPair
    } else {
        KillerTechnique::HiddenTriple
    };
    for u in &b.units {
        let empty = b.empty(&u.cells);
        if empty.len() <= k {
            continue;
        }
        let digits: Vec<u8> = (1..=b.n as u8)
            .filter(|&d| !u.cells.iter().any(|&c| b.values[c] == d))
            .collect();
        let mut found = None;
        subsets(digits.len(), k, &mut |pick| {
            let ds: u32 = pick.iter().fold(0, |m, &i| m | 1 << digits[i]);
            let at: Vec<usize> = empty
                .iter()
                .copied()
                .filter(|&c| b.cand[c] & ds != 0)
                .collect();
            if at.len() != k {
                return false;
            }
            let gone: Vec<(usize, u8)> = at
                .iter()
                .flat_map(|&c| {
                    (1..=b.n as u8)
                        .filter(move |&d| b.cand[c] >> d & 1 == 1 && ds >> d & 1 == 0)
                        .map(move |d| (c, d))
                })
                .collect();
            if gone.is_empty() {
                return false;
            }
            found = Some(step(
                technique,
                format!(
                    "in {}, {} can only go in {}: so {}",
                    u.words,
                    digits_words(ds),
                    names(b, &at),
                    gone_words(b, &gone)
                ),
                Vec::new(),
                gone,
                at,
                vec![u.words.clone()],
            ));
            true
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The steps a contradiction follows at most, per candidate tried.
const TRY_STEPS: usize = 100;

/// A candidate of a cell of two candidates that, placed, leads by
/// techniques up to `inner` to a board with no solution: it goes (and the
/// cell's other candidate is placed by the next step).
pub(super) fn contradiction(b: &KillerBoard, inner: KillerTechnique) -> Option<KillerStep> {
    let cells: Vec<usize> = (0..b.values.len())
        .filter(|&c| b.values[c] == 0 && b.cand[c].count_ones() == 2)
        .collect();
    let easy: Vec<KillerTechnique> = KillerTechnique::ALL
        .iter()
        .copied()
        .filter(|t| t.rating() <= inner.rating() && *t != KillerTechnique::Contradiction)
        .collect();
    for c in cells {
        for d in 1..=b.n as u8 {
            if b.cand[c] >> d & 1 == 0 {
                continue;
            }
            let mut t = b.clone();
            t.place(c, d);
            let mut steps = 0;
            while !t.is_broken() && !t.is_solved() && steps < TRY_STEPS {
                let Some(s) = easy.iter().find_map(|&e| find(&t, e, inner)) else {
                    break;
                };
                t.apply(&s);
                steps += 1;
            }
            if t.is_broken() {
                return Some(step(
                    KillerTechnique::Contradiction,
                    format!(
                        "if {} were {d}, singles and cage combinations would lead in {steps} steps to a cell or a unit with no digit left: so {} cannot be {d}",
                        b.name(c),
                        b.name(c)
                    ),
                    Vec::new(),
                    vec![(c, d)],
                    vec![c],
                    Vec::new(),
                ));
            }
        }
    }
    None
}
