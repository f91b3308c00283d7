//! Placements that can be in no solution, removed before the search (as
//! BurrTools' "reduce placements" does).
//!
//! A placement is useless when, once it is on the board, some cell that
//! must be covered has no placement left that fits beside it, or some
//! piece that must be used has none (another of its own, when it must be
//! used twice or more): no solution can hold it. Removing one can make
//! others useless, so the rule runs to its fixed point. The fixed point is
//! the largest set of placements in which every placement leaves every
//! required cell coverable; it does not depend on the order of the
//! removals, so a symmetry of the puzzle, which maps the placements onto
//! themselves, maps the pruned set onto itself too (the symmetry breaking
//! and the classes need exactly that).
//!
//! The test runs on bitmaps over the placements: `meets[r]`, the
//! placements that share a cell with `r` (itself included). A placement
//! has no partner for cell `c` exactly when it meets every kept placement
//! covering `c`: the AND of their `meets`, less those covering `c`, and
//! only kept placements can be struck. Cells covered by the same
//! placements (most cells of a large piece) make one test. The tests run
//! in passes, each test again only when one of its placements went, and
//! in a pass those with the fewest kept placements first: a cell that one
//! placement alone can cover (a piece that never moves, a frame's corner)
//! strikes every placement that meets it at once, after which the other
//! tests AND few rows. An AND stops when no word is left that is not zero,
//! and a `meets` row is made only when first used, so most of the
//! placements squared bits are never made; a puzzle of more than
//! [`MAX_PRUNED`] placements is searched unpruned all the same (its rows
//! could take 32 MiB), which is always correct.

use super::Placement;

/// The most placements pruned (their bitmaps take 32 MiB).
pub const MAX_PRUNED: usize = 16_384;

/// Which placements are kept: `keep[q]`. `required[c]`: cell `c` must be
/// covered; `least[p]`: piece `p` must be placed at least that often (a
/// placement of another piece must leave room for one of its placements,
/// and one of a piece needed twice or more for another of its own).
pub fn useful(
    placements: &[Placement],
    cells: usize,
    required: &[bool],
    least: &[u32],
) -> Vec<bool> {
    let n = placements.len();
    let mut keep = vec![true; n];
    if n == 0 || n > MAX_PRUNED {
        return keep;
    }
    let words = n.div_ceil(64);
    let covering = Lists::new(cells, placements.iter().map(|p| p.cells.iter().copied()));
    let of_piece = Lists::new(
        least.len(),
        placements.iter().map(|p| [p.piece].into_iter()),
    );
    // cells covered by the same placements are one test: a class per set
    // of placements, required when one of its cells is
    let mut class_of: rustc_hash::FxHashMap<&[u32], usize> = Default::default();
    let mut classes: Vec<(&[u32], bool)> = Vec::new();
    let mut cell_class = vec![0; cells];
    for (c, k) in cell_class.iter_mut().enumerate() {
        let qs = covering.get(c);
        *k = *class_of.entry(qs).or_insert_with(|| {
            classes.push((qs, false));
            classes.len() - 1
        });
        classes[*k].1 |= required[c];
    }
    // each placement's classes, each once
    let mut seen = vec![usize::MAX; classes.len()];
    let mut classes_of = Lists {
        start: Vec::with_capacity(n + 1),
        items: Vec::with_capacity(covering.items.len()),
    };
    for (r, p) in placements.iter().enumerate() {
        classes_of.start.push(classes_of.items.len() as u32);
        let mine = (p.cells.iter().map(|&c| cell_class[c]))
            .filter(|&k| std::mem::replace(&mut seen[k], r) != r);
        classes_of.items.extend(mine.map(|k| k as u32));
    }
    classes_of.start.push(classes_of.items.len() as u32);
    // the tests: a required class's (`t = k`), a needed piece's (`t =
    // classes + p`); each with its placements, and those it spares (a
    // placement covering the class; one of the piece when it is used
    // once, which needs no other of its own)
    let k_all = classes.len();
    let needed = |t: usize| match t.checked_sub(k_all) {
        None => classes[t].1,
        Some(p) => least[p] > 0,
    };
    let group = |t: usize| match t.checked_sub(k_all) {
        None => classes[t].0,
        Some(p) => of_piece.get(p),
    };
    let spares = |t: usize| t < k_all || least[t - k_all] == 1;
    let tests = k_all + least.len();
    let mut left: Vec<usize> = (0..tests).map(|t| group(t).len()).collect();
    let mut queued: Vec<bool> = (0..tests).map(needed).collect();
    let mut queue: Vec<usize> = Vec::new();
    // on[k]: the placements covering class k; meets[r]: those sharing a
    // cell with r (itself included), the OR of its classes' `on`
    let mut on = Rows::new(classes.len(), words);
    let mut meets = Rows::new(n, words);
    // the kept placements as bits
    let mut kept = vec![!0u64; words];
    if n % 64 != 0 {
        kept[words - 1] = (1 << (n % 64)) - 1;
    }
    let mut blocked = vec![0u64; words];
    let mut live: Vec<usize> = Vec::with_capacity(words);
    loop {
        queue.clear();
        queue.extend((0..tests).filter(|&t| queued[t]));
        if queue.is_empty() {
            return keep;
        }
        queue.sort_by_key(|&t| left[t]);
        for &t in &queue {
            queued[t] = false;
            // the kept placements that meet every kept one of the group,
            // less those it spares: the AND of the `meets` rows over the
            // words not yet zero, stopping when none is left
            blocked.copy_from_slice(&kept);
            if spares(t) {
                group(t)
                    .iter()
                    .for_each(|&q| blocked[q as usize / 64] &= !(1 << (q % 64)));
            }
            live.clear();
            live.extend((0..words).filter(|&w| blocked[w] != 0));
            for &r in group(t).iter().filter(|&&r| keep[r as usize]) {
                let r = r as usize;
                let m = meets.row(r, |row| {
                    for k in classes_of.get(r).iter().map(|&k| k as usize) {
                        let o = on.row(k, |o| {
                            (classes[k].0.iter()).for_each(|&q| o[q as usize / 64] |= 1 << (q % 64))
                        });
                        row.iter_mut().zip(o).for_each(|(m, o)| *m |= o);
                    }
                });
                live.retain(|&w| {
                    blocked[w] &= m[w];
                    blocked[w] != 0
                });
                if live.is_empty() {
                    break;
                }
            }
            for &w in &live {
                let mut b = blocked[w];
                while b != 0 {
                    let q = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    keep[q] = false;
                    kept[w] &= !(1 << (q % 64));
                    let again = classes_of.get(q).iter().map(|&k| k as usize);
                    for u in again.chain([k_all + placements[q].piece]) {
                        left[u] -= 1;
                        queued[u] |= needed(u);
                    }
                }
            }
        }
    }
}

/// Lists of numbers in one array: list `i` is `items[start[i]..start[i +
/// 1]]`.
struct Lists {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// `lists` lists, holding `q` in list `i` for each `i` that the `q`th
    /// entry of `of` yields, in the order of `q`.
    fn new<I: Iterator<Item = usize>>(lists: usize, of: impl Iterator<Item = I> + Clone) -> Lists {
        let mut start = vec![0u32; lists + 1];
        of.clone().flatten().for_each(|i| start[i + 1] += 1);
        for i in 0..lists {
            start[i + 1] += start[i];
        }
        let mut at = start.clone();
        let mut items = vec![0; start[lists] as usize];
        for (q, is) in of.enumerate() {
            for i in is {
                items[at[i] as usize] = q as u32;
                at[i] += 1;
            }
        }
        Lists { start, items }
    }

    fn get(&self, i: usize) -> &[u32] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// Rows of bits over the placements, each made when first asked for and
/// kept: row `i` at `bits[at[i] * words..]` (most rows of a large puzzle
/// are never made).
struct Rows {
    bits: Vec<u64>,
    at: Vec<u32>,
    words: usize,
}

impl Rows {
    fn new(rows: usize, words: usize) -> Rows {
        Rows {
            bits: Vec::new(),
            at: vec![u32::MAX; rows],
            words,
        }
    }

    /// Row `i`, made by `make` from zeros if it is not made yet.
    fn row(&mut self, i: usize, make: impl FnOnce(&mut [u64])) -> &[u64] {
        let w = self.words;
        if self.at[i] == u32::MAX {
            self.at[i] = (self.bits.len() / w) as u32;
            let end = self.bits.len() + w;
            self.bits.resize(end, 0);
            make(&mut self.bits[end - w..]);
        }
        let at = self.at[i] as usize * w;
        &self.bits[at..at + w]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pl(cells: &[usize]) -> Placement {
        Placement {
            piece: 0,
            cells: cells.to_vec(),
        }
    }

    /// A domino on the middle of a 1x4 strip leaves the end cells
    /// uncoverable; the end dominoes stay.
    #[test]
    fn a_placement_that_strands_a_cell_goes() {
        let p = [pl(&[0, 1]), pl(&[1, 2]), pl(&[2, 3])];
        assert_eq!(useful(&p, 4, &[true; 4], &[0]), vec![true, false, true]);
        // with both end cells optional the middle one may stay
        assert_eq!(
            useful(&p, 4, &[false, true, true, false], &[0]),
            vec![true, true, true]
        );
    }

    /// Against brute force: a placement is kept exactly when it is in a
    /// fixed point; every placement of every exact cover stays.
    #[test]
    fn every_solution_survives() {
        // 2x3 board, cells 0..6 row by row; dominoes and an L tromino
        let p = [
            pl(&[0, 1]),
            pl(&[1, 2]),
            pl(&[3, 4]),
            pl(&[4, 5]),
            pl(&[0, 3]),
            pl(&[1, 4]),
            pl(&[2, 5]),
            pl(&[0, 1, 3]),
        ];
        let keep = useful(&p, 6, &[true; 6], &[0]);
        // every exact cover's placements are kept
        for mask in 0u32..(1 << p.len()) {
            let mut seen = [0; 6];
            for (q, pq) in p.iter().enumerate() {
                if mask >> q & 1 == 1 {
                    pq.cells.iter().for_each(|&c| seen[c] += 1);
                }
            }
            if seen.iter().all(|&k| k == 1) {
                for (q, &k) in keep.iter().enumerate() {
                    assert!(mask >> q & 1 == 0 || k, "{q} of {mask:b}");
                }
            }
        }
        // the L tromino leaves 2, 4, 5, covered by [2, 5] and [4, 5]...
        // which overlap, but each cell alone has a placement: kept
        assert!(keep[7]);
    }

    /// A piece that must be used: a placement of another piece that
    /// overlaps all of its placements goes.
    #[test]
    fn a_placement_that_leaves_no_room_for_a_needed_piece_goes() {
        let mut p = vec![pl(&[0, 1]), pl(&[2, 3]), pl(&[1, 2])];
        p[2].piece = 1; // piece 1 must be used once, on [1, 2] only
        let keep = useful(&p, 4, &[false; 4], &[0, 1]);
        assert_eq!(keep, vec![false, false, true]);
        // used at least twice: a placement needs another one of its own
        let q = [pl(&[0, 1]), pl(&[1, 2]), pl(&[2, 3])];
        assert_eq!(useful(&q, 4, &[false; 4], &[2]), vec![true, false, true]);
    }
}
