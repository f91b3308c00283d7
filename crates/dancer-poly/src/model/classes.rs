//! Classes of solutions: which solution stands for its class under the
//! puzzle's symmetries (`--unique`), and the class of a solution.
//!
//! A solution's labelling gives each board cell (piece type, smallest cell
//! of the placement on it), or `(u32::MAX, u32::MAX)` for a hole; the
//! labelling fixes the solution (its placements are the cells of equal
//! labels) and orders the solutions. A class's representative is its
//! solution of the smallest labelling, among those the search finds
//! (with symmetry breaking, the restricted search finds some of a class
//! only). The labelling and an image's are compared cell by cell from the
//! first, each label made only when the walk reaches it: two images part
//! within a few cells, and a board of thousands of cells is walked whole
//! only for the symmetries that fix the solution.

use super::{Model, Restriction};
use std::cmp::Ordering;

impl Model {
    /// A solution's labelling, ready to be compared with its images.
    fn label_walk(&self, sol: &[usize]) -> Labels<'_> {
        let mut owner = vec![u32::MAX; self.puzzle.board.len()];
        for (k, &q) in sol.iter().enumerate() {
            for &c in &self.placements[q].cells {
                owner[c] = k as u32;
            }
        }
        Labels {
            model: self,
            sol: sol.to_vec(),
            owner,
            image_lo: vec![u32::MAX; sol.len()],
        }
    }

    /// Is `sol` the representative of its class, for a search with this
    /// restriction (None: the full search)? And its class size.
    pub fn classify(
        &self,
        sol: &[usize],
        restriction: Option<&(Restriction, Vec<bool>)>,
    ) -> (bool, u64) {
        let mut walk = self.label_walk(sol);
        let mut stab = 0u64;
        let mut rep = true;
        for g in 0..self.symmetries.len() {
            match walk.image_vs_own(g) {
                Ordering::Equal => {
                    stab += 1;
                    continue;
                }
                Ordering::Greater => continue,
                Ordering::Less if !rep => continue,
                Ordering::Less => {}
            }
            // a smaller image: does the restricted search find it too?
            let found_too = match restriction {
                None => true,
                Some((Restriction::Piece(pi), keep)) => sol
                    .iter()
                    .map(|&q| self.image_placement(g, q))
                    .filter(|&q| self.placements[q].piece == *pi)
                    .all(|q| keep[q]),
                Some((Restriction::Cell(c), keep)) => sol
                    .iter()
                    .map(|&q| self.image_placement(g, q))
                    .filter(|&q| self.placements[q].cells.binary_search(c).is_ok())
                    .all(|q| keep[q]),
            };
            if found_too {
                rep = false;
            }
        }
        (rep, self.symmetries.len() as u64 / stab.max(1))
    }

    /// The distinct images of a solution under the symmetries (its class).
    pub fn class_of(&self, sol: &[usize]) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = Vec::new();
        for g in 0..self.symmetries.len() {
            let mut img: Vec<usize> = sol.iter().map(|&q| self.image_placement(g, q)).collect();
            img.sort_unstable();
            if !out.contains(&img) {
                out.push(img);
            }
        }
        out
    }
}

/// A solution's labelling (see [`Model::label_walk`]), with what its
/// images need: the placement (index into `sol`) on each cell, and each
/// placement's smallest cell in the image being compared, once the walk
/// has met it.
struct Labels<'m> {
    model: &'m Model,
    sol: Vec<usize>,
    owner: Vec<u32>,
    image_lo: Vec<u32>,
}

impl Labels<'_> {
    /// The label of board cell `c` under symmetry `g`, None for the
    /// solution itself; under a symmetry, asked of the cells in
    /// increasing order, from 0, and at least at the first cell of each
    /// placement's image.
    fn label(&mut self, g: Option<usize>, c: usize) -> (u32, u32) {
        let m = self.model;
        let (from, s) = match g {
            None => (c, None),
            Some(g) => (m.symmetries[g].inverse[c], Some(&m.symmetries[g])),
        };
        let k = self.owner[from];
        if k == u32::MAX {
            return (u32::MAX, u32::MAX);
        }
        let p = &m.placements[self.sol[k as usize]];
        match s {
            None => (p.piece as u32, p.cells[0] as u32),
            Some(s) => {
                // cells come in increasing order: the first cell at which
                // a placement's image is met is its smallest
                let lo = &mut self.image_lo[k as usize];
                if *lo == u32::MAX {
                    *lo = c as u32;
                }
                (s.sigma[p.piece] as u32, *lo)
            }
        }
    }

    /// The image's labelling under `g` against the solution's own,
    /// lexicographically.
    fn image_vs_own(&mut self, g: usize) -> Ordering {
        if self.model.symmetries[g].identity {
            return Ordering::Equal;
        }
        self.image_lo.iter_mut().for_each(|lo| *lo = u32::MAX);
        let model = self.model;
        // along a run of cells with the same placements on both sides the
        // labels repeat: compare them where a run starts
        let mut run = (u32::MAX - 1, u32::MAX - 1);
        for (c, &from) in model.symmetries[g].inverse.iter().enumerate() {
            let owners = (self.owner[from], self.owner[c]);
            if owners == run {
                continue;
            }
            run = owners;
            let theirs = self.label(Some(g), c);
            let mine = self.label(None, c);
            if theirs != mine {
                return theirs.cmp(&mine);
            }
        }
        Ordering::Equal
    }
}
