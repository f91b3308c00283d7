//! The killer game: what a [`Game`] of kind [`GameKind::Killer`] adds to
//! the plain one.
//!
//! A killer game is a plain game whose puzzle also has cages: the cages
//! are units (no digit twice: conflicts and the filled-in candidates
//! follow them), the solution is found by the killer exact cover
//! ([`crate::killer::solve`]), and the hints are the killer techniques
//! ([`crate::killer::hint`]) from the grid as it stands, after the
//! candidates the hints applied so far removed. A player may also ask for
//! a cage's digit combinations ([`Game::cage_combinations`]): all those
//! that make its sum, and those that still fit the grid; the filled-in
//! candidates are those digits of the combinations that fit.
//!
//! The saved game keeps the killer puzzle as its line
//! ([`KillerPuzzle::to_line`]); [`load_cages`] reads it back with every
//! check of [`KillerPuzzle::parse`], and checks the saved solution against
//! the cages.

#[cfg(test)]
use super::GameKind;
use super::{Game, PlayError};
use crate::grid::Grid;
use crate::killer::{self, KillerHint, KillerPuzzle, KillerStep};
use crate::logic::Budget;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The longest killer line a saved game may hold (the JSON form of a
/// 16x16 of one-cell cages is about 7 KiB).
const MOST_LINE: usize = 32 * 1024;

/// A cage's digit combinations (digits in increasing order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageCombinations {
    /// The cage, by its index in the puzzle's cages.
    pub cage: usize,
    pub sum: u32,
    /// Its cells, in reading order.
    pub cells: Vec<usize>,
    /// Every set of distinct digits that makes the sum.
    pub all: Vec<Vec<u8>>,
    /// Those that hold the cage's digits placed so far and can still be
    /// put in its empty cells, each on a candidate of its cell.
    pub fitting: Vec<Vec<u8>>,
}

/// The digits of a bit set (bit d for digit d).
fn digits(set: u32, n: usize) -> Vec<u8> {
    (1..=n as u8).filter(|&d| set >> d & 1 == 1).collect()
}

impl Game {
    /// Starts a killer game; the puzzle must have exactly one solution
    /// and rules with boxes.
    pub fn new_killer(k: &KillerPuzzle) -> Result<Self, PlayError> {
        Self::new_killer_until(k, None)
    }

    /// [`Game::new_killer`], its search stopped ([`PlayError::Stopped`])
    /// once `cancel` is set (a server's request gone or past its time).
    pub fn new_killer_until(
        k: &KillerPuzzle,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Self, PlayError> {
        super::boxes_of(&k.puzzle.rules)?;
        let found = killer::solve(k, Some(2), 1, cancel);
        match found.count {
            _ if found.count < 2 && !found.complete => return Err(PlayError::Stopped),
            0 => return Err(PlayError::NoSolution),
            1 => {}
            _ => return Err(PlayError::NotUnique),
        }
        let mut g = Game::begin(&k.puzzle, &found.solutions[0])?;
        g.doc.killer = Some(k.to_line());
        g.killer = Some(k.clone());
        Ok(g)
    }

    /// A killer game's puzzle (`None` for other kinds).
    pub fn killer(&self) -> Option<&KillerPuzzle> {
        self.killer.as_ref()
    }

    /// The next killer step from the grid as it stands (`None` for other
    /// kinds). A wrong entry gives [`KillerHint::NoSolution`].
    pub fn killer_hint(&self) -> Option<KillerHint> {
        self.killer_hint_within(&Budget::unlimited())
    }

    /// [`Game::killer_hint`] within `budget` (a server's request gone or
    /// past its time): the count of solutions and the search for the step
    /// stop when it runs out ([`KillerHint::Stopped`]).
    pub fn killer_hint_within(&self, budget: &Budget) -> Option<KillerHint> {
        let k = self.killer.as_ref()?;
        if !self.mistakes().is_empty() {
            return Some(KillerHint::NoSolution);
        }
        let mut now = k.clone();
        now.puzzle.givens = self.grid();
        let n = self.doc.size;
        // only what the solution allows: a forged save cannot break the board
        let removed: Vec<(usize, u8)> = (0..n * n)
            .filter(|&c| now.puzzle.givens.get(c) == 0)
            .flat_map(|c| {
                let (r, s) = (self.doc.removed[c], self.doc.solution[c]);
                (1..=n as u8)
                    .filter(move |&d| d != s && r >> (d - 1) & 1 == 1)
                    .map(move |d| (c, d))
            })
            .collect();
        Some(killer::hint_within(&now, &removed, budget))
    }

    /// Applies a killer step: its placements become entries, its
    /// eliminations remove pencil marks (one undo).
    pub fn apply_killer(&mut self, step: &KillerStep) {
        self.apply_moves(&step.placements, &step.eliminations);
    }

    /// The combinations of the cage of `cell` (`None`: not a killer game,
    /// or the cell is in no cage).
    pub fn cage_combinations(&self, cell: usize) -> Option<CageCombinations> {
        let k = self.killer.as_ref()?;
        let i = k.cages.iter().position(|c| c.cells.contains(&cell))?;
        let cage = &k.cages[i];
        let n = self.doc.size;
        let cand = self.candidates();
        let all = killer::combinations(cage.cells.len(), n, cage.sum, 0);
        let allowed = |c: usize| cand[c] & !self.doc.removed[c];
        let fitting = fitting_sets(&all, &cage.cells, &self.values(), allowed);
        Some(CageCombinations {
            cage: i,
            sum: cage.sum,
            cells: cage.cells.clone(),
            all: all.iter().map(|&s| digits(s, n)).collect(),
            fitting: fitting.iter().map(|&s| digits(s, n)).collect(),
        })
    }

    /// Narrows the candidates `cand` (bit d-1 for digit d, per cell) of a
    /// killer game's empty cells to the digits of their cage's
    /// combinations that still fit (as a player's "fill in candidates"
    /// with sums would); other kinds are left as they are.
    pub(super) fn cage_candidates(&self, cand: &mut [u32]) {
        let Some(k) = self.killer.as_ref() else {
            return;
        };
        let values = self.values();
        for cage in &k.cages {
            let all = killer::combinations(cage.cells.len(), self.doc.size, cage.sum, 0);
            let fitting = fitting_sets(&all, &cage.cells, &values, |c| cand[c]);
            let placed = placed_set(&cage.cells, &values);
            let open = fitting.iter().fold(0u32, |m, &s| m | (s & !placed));
            for &c in &cage.cells {
                if values[c] == 0 {
                    cand[c] &= open >> 1;
                }
            }
        }
    }
}

/// The digits placed in `cells` (bit d for digit d).
fn placed_set(cells: &[usize], values: &[u8]) -> u32 {
    cells
        .iter()
        .filter(|&&c| values[c] != 0)
        .fold(0u32, |m, &c| m | 1 << values[c])
}

/// The digit sets of `all` (bit d for digit d) that hold every digit
/// placed in `cells` and whose other digits can go, one each, on the
/// empty cells, each where `allowed` (bit d-1 for digit d) lets it.
fn fitting_sets(
    all: &[u32],
    cells: &[usize],
    values: &[u8],
    allowed: impl Fn(usize) -> u32,
) -> Vec<u32> {
    let placed = placed_set(cells, values);
    let open: Vec<u32> = cells
        .iter()
        .filter(|&&c| values[c] == 0)
        .map(|&c| allowed(c) << 1)
        .collect();
    let fits = |set: u32| {
        set & placed == placed
            && killer::placements(set & !placed, &open, 1).is_none_or(|v| !v.is_empty())
    };
    all.iter().copied().filter(|&s| fits(s)).collect()
}

/// The killer puzzle of a saved game, from its line: read with every check
/// of [`KillerPuzzle::parse`] under the game's rules, its givens the
/// game's, and the saved solution one that keeps its cages.
pub(super) fn load_cages(
    line: &str,
    rules: &crate::rules::Rules,
    givens: &[u8],
    solution: &[u8],
) -> Result<KillerPuzzle, PlayError> {
    let bad = |why: String| PlayError::Load(format!("inconsistent game (killer: {why})"));
    if line.len() > MOST_LINE {
        return Err(bad("the puzzle's line is too long".into()));
    }
    let k = KillerPuzzle::parse(line, Some(rules)).map_err(|e| bad(e.to_string()))?;
    let n = rules.size();
    if k.size() != n || k.puzzle.givens.cells() != givens {
        return Err(bad("its givens are not the game's".into()));
    }
    let grid = Grid::from_cells(n, solution.to_vec());
    killer::check_solution(&k, &grid).map_err(|e| bad(format!("the solution: {e}")))?;
    Ok(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::killer::KillerLevel;
    use crate::rules::Rules;

    /// A generated easy 9x9 killer, no givens.
    fn easy() -> KillerPuzzle {
        let rules = Rules::standard(9).unwrap();
        (1..)
            .find_map(|seed| killer::generate(&rules, KillerLevel::Easy, seed, 50, None))
            .unwrap()
            .puzzle
    }

    #[test]
    fn a_killer_game() {
        let k = easy();
        let mut g = Game::new_killer(&k).unwrap();
        assert_eq!(g.kind(), GameKind::Killer);
        let sol = g.doc.solution.clone();
        // moves, a mistake, undo
        g.set(0, sol[0]).unwrap();
        let wrong = if sol[1] == 9 { 8 } else { 9 };
        g.set(1, wrong).unwrap();
        assert_eq!(g.mistakes(), vec![1]);
        assert_eq!(g.killer_hint(), Some(KillerHint::NoSolution));
        assert!(g.undo());
        g.toggle_mark(2, 4).unwrap();
        assert_eq!(g.marks(2), vec![4]);
        assert!(g.undo());
        // a digit twice in a cage is a conflict
        let cage = k.cages.iter().find(|c| c.cells.len() >= 2).unwrap();
        let (a, b) = (cage.cells[0], cage.cells[1]);
        let mut h = g.clone();
        h.set(a, 5).unwrap();
        h.set(b, 5).unwrap();
        assert!(h.conflicts().contains(&a) && h.conflicts().contains(&b));
        // hints lead to the solution and keep it
        let mut steps = 0;
        while let Some(KillerHint::Step(step)) = g.killer_hint() {
            g.apply_killer(&step);
            assert!(g.mistakes().is_empty(), "a hint made a mistake");
            for (c, &s) in sol.iter().enumerate() {
                if g.grid().get(c) == 0 {
                    assert_eq!(g.doc.removed[c] >> (s - 1) & 1, 0, "removed the answer");
                }
            }
            steps += 1;
            assert!(steps < 2000);
        }
        assert!(g.is_solved(), "{:?}", g.killer_hint());
        assert_eq!(g.killer_hint(), Some(KillerHint::Solved));
        // the plain hints are not for killers
        assert!(g.hint().is_none());
        // save and load
        let back = Game::load(&g.save()).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.killer(), Some(&k));
        while g.undo() {}
        assert_eq!(g.grid().filled(), 0);
    }

    #[test]
    fn combinations_of_a_cage() {
        let k = KillerPuzzle::parse("aabbaabbccddccdd 10,10,10,10", None).unwrap();
        // four 2x2 boxes of 10: every cage is 1+2+3+4; not unique
        assert_eq!(Game::new_killer(&k), Err(PlayError::NotUnique));
        // a search stopped before it ends is not taken for an answer (the
        // engine may see the flag only after a few nodes)
        let stop = Arc::new(AtomicBool::new(true));
        let r = Game::new_killer_until(&k, Some(stop));
        assert!(
            matches!(r, Err(PlayError::Stopped | PlayError::NotUnique)),
            "{r:?}"
        );
        let k = easy();
        let mut g = Game::new_killer(&k).unwrap();
        let cage = k.cages.iter().position(|c| c.cells.len() == 2).unwrap();
        let cells = k.cages[cage].cells.clone();
        let c = g.cage_combinations(cells[1]).unwrap();
        assert_eq!((c.cage, c.sum, &c.cells), (cage, k.cages[cage].sum, &cells));
        assert!(c
            .all
            .iter()
            .all(|v| v.iter().map(|&d| d as u32).sum::<u32>() == c.sum));
        assert!(c.fitting.iter().all(|v| c.all.contains(v)));
        let answer = {
            let mut v: Vec<u8> = cells.iter().map(|&x| g.doc.solution[x]).collect();
            v.sort_unstable();
            v
        };
        assert!(c.fitting.contains(&answer));
        // one digit placed: only the combinations that hold it fit
        g.set(cells[0], g.doc.solution[cells[0]]).unwrap();
        let c = g.cage_combinations(cells[1]).unwrap();
        assert_eq!(c.fitting, vec![answer]);
        // plain games have no cages
        let p = crate::Puzzle::parse_line(&k.puzzle.givens.to_line(), None).unwrap();
        assert!(Game::new(&p).is_err());
    }

    /// Filled-in candidates follow the cage sums: never without the
    /// solution's digit, never a digit outside every fitting combination,
    /// and fewer than no-repeat alone gives.
    #[test]
    fn filled_in_candidates_follow_the_sums() {
        let k = easy();
        let mut g = Game::new_killer(&k).unwrap();
        g.fill_marks();
        let n = g.doc.size;
        let mut fewer = 0;
        for (i, cage) in k.cages.iter().enumerate() {
            let all = killer::combinations(cage.cells.len(), n, cage.sum, 0);
            let union = all.iter().fold(0u32, |m, &s| m | s) >> 1;
            for &c in &cage.cells {
                let m = g.doc.marks[c];
                let d = g.doc.solution[c];
                assert_eq!(
                    m >> (d - 1) & 1,
                    1,
                    "cage {i}: r{}c{} lost {d}",
                    c / n + 1,
                    c % n + 1
                );
                assert_eq!(m & !union, 0, "cage {i}: a digit of no combination");
                if union != (1 << n) - 1 {
                    fewer += 1;
                }
            }
        }
        assert!(fewer > 0, "no cage narrowed its cells");
        // a digit placed narrows its cage mates to the combinations
        // holding it
        let two = k.cages.iter().find(|c| c.cells.len() == 2).unwrap();
        let (a, b) = (two.cells[0], two.cells[1]);
        g.set(a, g.doc.solution[a]).unwrap();
        g.fill_marks();
        let left = two.sum - g.doc.solution[a] as u32;
        assert_eq!(g.doc.marks[b], 1 << (left - 1));
    }

    #[test]
    fn forged_killer_saves_are_refused() {
        let k = easy();
        let mut g = Game::new_killer(&k).unwrap();
        g.set(3, g.doc.solution[3]).unwrap();
        let v: serde_json::Value = serde_json::from_str(&g.save()).unwrap();
        let forge = |f: &dyn Fn(&mut serde_json::Value)| {
            let mut w = v.clone();
            f(&mut w);
            Game::load(&w.to_string())
        };
        assert!(forge(&|_| {}).is_ok());
        let line = v["killer"].as_str().unwrap().to_string();
        let (map, sums) = line.split_once(' ').unwrap();
        let mut sum_list: Vec<u32> = sums.split(',').map(|s| s.parse().unwrap()).collect();
        // two cages' sums swapped keeps the total but not the solution
        let i = (1..sum_list.len())
            .find(|&i| sum_list[i] != sum_list[0])
            .unwrap();
        sum_list.swap(0, i);
        let swapped = format!(
            "{map} {}",
            sum_list
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
        let bad: Vec<(&str, String)> = vec![
            ("not a killer line", "hello".into()),
            ("sums swapped", swapped),
            ("a huge line", "a".repeat(MOST_LINE + 1)),
            ("a 4x4 map", "aabbaabbccddccdd 10,10,10,10".into()),
            (
                "a given the game lacks",
                format!("{line} 1{}", ".".repeat(80)),
            ),
        ];
        for (what, forged) in bad {
            let r = forge(&|w| w["killer"] = forged.clone().into());
            assert!(matches!(r, Err(PlayError::Load(_))), "{what}: {r:?}");
        }
        // a plain save of the same grid loads as plain (no cages)
        let plain = forge(&|w| {
            w.as_object_mut().unwrap().remove("killer");
        });
        // (the killer's solution is a Sudoku solution, so it loads)
        assert_eq!(plain.unwrap().kind(), GameKind::Plain);
        // a removed candidate that is the answer is not given to the hints
        let sol = g.doc.solution.clone();
        let c = (0..81).find(|&c| g.grid().get(c) == 0).unwrap();
        let forged = forge(&|w| w["removed"][c] = (1u32 << (sol[c] - 1)).into()).unwrap();
        assert!(matches!(forged.killer_hint(), Some(KillerHint::Step(_))));
    }
}
