//! Placements that can be in no solution, removed before the search (as
//! BurrTools' "reduce placements" does).
//!
//! A placement is useless when, once it is on the board, some cell that
//! must be covered has no placement left that fits beside it, or some
//! piece that must be used has none (another of its own, when it must be
//! used twice or more): no solution can hold it. Removing one can make others useless, so the rule runs to
//! its fixed point. The fixed point is the largest set of placements in
//! which every placement leaves every required cell coverable; it does not
//! depend on the order of the removals, so a symmetry of the puzzle, which
//! maps the placements onto themselves, maps the pruned set onto itself
//! too (the symmetry breaking and the classes need exactly that).
//!
//! The test runs on bitmaps over the placements: `meets[r]`, the
//! placements that share a cell with `r` (itself included). A placement
//! has no partner for cell `c` exactly when it meets every kept placement
//! covering `c`: the AND of their `meets`, less those covering `c`. Cells
//! covered by the same placements (most cells of a large piece) make one
//! test. A pass costs the entries times the placements over 64 word
//! operations; the
//! bitmaps take placements squared bits, so a puzzle of more than
//! [`MAX_PRUNED`] placements is searched unpruned, which is always correct.

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
    let words = n.div_ceil(64);
    // the bitmaps of the cells take cells times words too
    if n == 0 || n > MAX_PRUNED || cells * words > MAX_PRUNED * MAX_PRUNED / 64 {
        return keep;
    }
    let mut covering: Vec<Vec<usize>> = vec![Vec::new(); cells];
    let mut of_piece: Vec<Vec<usize>> = vec![Vec::new(); least.len()];
    for (q, p) in placements.iter().enumerate() {
        for &c in &p.cells {
            covering[c].push(q);
        }
        of_piece[p.piece].push(q);
    }
    // cells covered by the same placements are one test: a class per set
    // of placements, with its cells' placements, and required when one of
    // its cells is; each placement's classes
    let mut class_of: std::collections::HashMap<&[usize], usize> = Default::default();
    let mut classes: Vec<(&[usize], bool)> = Vec::new();
    let mut cell_class = vec![0; cells];
    for (c, qs) in covering.iter().enumerate() {
        let k = *class_of.entry(&qs[..]).or_insert_with(|| {
            classes.push((&qs[..], false));
            classes.len() - 1
        });
        classes[k].1 |= required[c];
        cell_class[c] = k;
    }
    // on[k]: the placements covering class k; meets[r]: the OR of its
    // classes'
    let mut on = vec![0u64; classes.len() * words];
    for (k, (qs, _)) in classes.iter().enumerate() {
        for &q in qs.iter() {
            on[k * words + q / 64] |= 1 << (q % 64);
        }
    }
    let mut meets = vec![0u64; n * words];
    let mut last = vec![usize::MAX; classes.len()];
    for (r, p) in placements.iter().enumerate() {
        let row = &mut meets[r * words..(r + 1) * words];
        for &c in &p.cells {
            let k = cell_class[c];
            if std::mem::replace(&mut last[k], r) != r {
                row.iter_mut()
                    .zip(&on[k * words..(k + 1) * words])
                    .for_each(|(m, o)| *m |= o);
            }
        }
    }
    // own[p]: the placements of piece p
    let mut own = vec![0u64; least.len() * words];
    for (q, pl) in placements.iter().enumerate() {
        own[pl.piece * words + q / 64] |= 1 << (q % 64);
    }
    let mut blocked = vec![0u64; words];
    let mut changed = true;
    while changed {
        changed = false;
        // the placements with no partner among `group` (all of them meet
        // every kept one), less those of `spare`
        let mut strike = |group: &[usize], spare: Option<&[u64]>, keep: &mut Vec<bool>| {
            blocked.iter_mut().for_each(|w| *w = !0);
            for &r in group.iter().filter(|&&r| keep[r]) {
                let m = &meets[r * words..(r + 1) * words];
                blocked.iter_mut().zip(m).for_each(|(b, m)| *b &= m);
            }
            if let Some(spare) = spare {
                blocked.iter_mut().zip(spare).for_each(|(b, s)| *b &= !s);
            }
            for (w, &b) in blocked.iter().enumerate() {
                let mut b = b;
                while b != 0 {
                    let q = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    if q < n && keep[q] {
                        keep[q] = false;
                        changed = true;
                    }
                }
            }
        };
        for (k, (qs, required)) in classes.iter().enumerate() {
            if *required {
                strike(qs, Some(&on[k * words..(k + 1) * words]), &mut keep);
            }
        }
        for (p, &k) in least.iter().enumerate() {
            if k == 0 {
                continue;
            }
            // a piece used once needs no other placement of its own
            let spare = (k == 1).then(|| &own[p * words..(p + 1) * words]);
            strike(&of_piece[p], spare, &mut keep);
        }
    }
    keep
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
