//! The images of the placements under a model's symmetries (see
//! [`Images`]).

use super::Model;
use std::sync::atomic::{AtomicU32, Ordering};

/// The images of the placements under a model's symmetries: a table of
/// symmetries times placements when it takes at most [`Images::MAX_TABLE`]
/// entries, each image found when first asked for, else each image looked
/// up whenever asked for. Choosing the restriction asks for nearly
/// every image, classifying each solution for its pieces' images under
/// every symmetry.
///
/// A placement is found by a sum of a random number for each of its cells
/// and one for its piece, which a symmetry's image gets without sorting
/// its cells (the sum does not depend on their order); the placement found
/// is then checked cell by cell, and on the rare sum shared by two
/// placements the lookup falls back to the sorted cells.
#[derive(Default)]
pub(super) struct Images {
    index: std::sync::OnceLock<Index>,
    table: std::sync::OnceLock<Option<Vec<AtomicU32>>>,
}

struct Index {
    /// A random number for each board cell, and for each piece.
    cell: Vec<u64>,
    piece: Vec<u64>,
    /// Placement by sum; `None` when two placements share a sum.
    by_sum: Option<rustc_hash::FxHashMap<u64, u32>>,
    /// Placement by piece and sorted cells, made when `by_sum` fails.
    exact: std::sync::OnceLock<rustc_hash::FxHashMap<(usize, Vec<usize>), u32>>,
}

/// A set of board cells made anew in constant time: cell `c` is in it
/// when `stamp[c] == now`.
struct Marks {
    stamp: Vec<u32>,
    now: u32,
}

thread_local! {
    /// The cells of the placement found, to check an image against.
    static MARKS: std::cell::RefCell<Marks> = const {
        std::cell::RefCell::new(Marks {
            stamp: Vec::new(),
            now: 0,
        })
    };
}

impl Marks {
    fn mark(&mut self, cells: &[usize]) {
        if let Some(&most) = cells.iter().max() {
            if most >= self.stamp.len() {
                self.stamp.resize(most + 1, 0);
            }
        }
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.now = 1;
        }
        cells.iter().for_each(|&c| self.stamp[c] = self.now);
    }

    fn has(&self, c: usize) -> bool {
        self.stamp[c] == self.now
    }
}

/// SplitMix64: well-spread numbers from consecutive seeds.
fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Images {
    const MAX_TABLE: usize = 1 << 22;

    fn index(&self, m: &Model) -> &Index {
        self.index.get_or_init(|| {
            let cell: Vec<u64> = (0..m.puzzle.board.len() as u64).map(mix).collect();
            let piece: Vec<u64> = (0..m.puzzle.pieces.len() as u64)
                .map(|p| mix(p | 1 << 40))
                .collect();
            let mut by_sum = rustc_hash::FxHashMap::default();
            let mut clash = false;
            for (q, p) in m.placements.iter().enumerate() {
                let sum = (p.cells.iter()).fold(piece[p.piece], |h, &c| h.wrapping_add(cell[c]));
                clash |= by_sum.insert(sum, q as u32).is_some();
            }
            Index {
                cell,
                piece,
                by_sum: (!clash).then_some(by_sum),
                exact: Default::default(),
            }
        })
    }

    /// The image of placement `q` under symmetry `g`: from the table, found
    /// and kept there when first asked for (no more than the asking needs:
    /// a representative's test stops at its first smaller image).
    pub(super) fn get(&self, m: &Model, g: usize, q: usize) -> usize {
        let n = m.placements.len();
        let table = self.table.get_or_init(|| {
            (m.symmetries.len().saturating_mul(n) <= Self::MAX_TABLE).then(|| {
                (0..m.symmetries.len() * n)
                    .map(|_| AtomicU32::new(u32::MAX))
                    .collect()
            })
        });
        let Some(table) = table else {
            return self.find(m, g, q);
        };
        let slot = &table[g * n + q];
        match slot.load(Ordering::Relaxed) {
            u32::MAX => {
                let image = self.find(m, g, q);
                slot.store(image as u32, Ordering::Relaxed);
                image
            }
            image => image as usize,
        }
    }

    /// The image of placement `q` under symmetry `g`, looked up.
    fn find(&self, m: &Model, g: usize, q: usize) -> usize {
        let s = &m.symmetries[g];
        let p = &m.placements[q];
        if s.identity {
            return q;
        }
        let index = self.index(m);
        let piece = s.sigma[p.piece];
        if let Some(by_sum) = &index.by_sum {
            let sum = (p.cells.iter()).fold(index.piece[piece], |h, &c| {
                h.wrapping_add(index.cell[s.perm[c]])
            });
            if let Some(&r) = by_sum.get(&sum) {
                let image = &m.placements[r as usize];
                let same = image.piece == piece
                    && image.cells.len() == p.cells.len()
                    && MARKS.with_borrow_mut(|marks| {
                        marks.mark(&image.cells);
                        p.cells.iter().all(|&c| marks.has(s.perm[c]))
                    });
                if same {
                    return r as usize;
                }
            }
        }
        let exact = index.exact.get_or_init(|| {
            (m.placements.iter().enumerate())
                .map(|(q, p)| ((p.piece, p.cells.clone()), q as u32))
                .collect()
        });
        let mut cells: Vec<usize> = p.cells.iter().map(|&c| s.perm[c]).collect();
        cells.sort_unstable();
        *exact
            .get(&(piece, cells))
            .expect("symmetries map placements to placements") as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The images of the placements, found by sums and checked cell by
    /// cell (the table, and without it), are those of the sorted cells,
    /// also when the sums are not used.
    #[test]
    fn images_are_the_placements_moved() {
        let cage = crate::burr::read(
            include_bytes!("../../tests/burr/CubeInCage.xmpuzzle"),
            "CubeInCage",
        )
        .unwrap();
        let models = [
            Model::new(crate::catalog::puzzle("soma").unwrap()).unwrap(),
            Model::new(crate::catalog::puzzle("pentomino-3x20").unwrap()).unwrap(),
            Model::new(cage.puzzle(0).unwrap()).unwrap(),
        ];
        for m in &models {
            assert!(m.symmetries.len() > 1);
            let plain = Images::default();
            let index = plain.index(m);
            let without_sums = Images::default();
            let _ = without_sums.index.set(Index {
                by_sum: None,
                cell: index.cell.clone(),
                piece: index.piece.clone(),
                exact: Default::default(),
            });
            for (g, s) in m.symmetries.iter().enumerate() {
                for (q, p) in m.placements.iter().enumerate() {
                    let mut cells: Vec<usize> = p.cells.iter().map(|&c| s.perm[c]).collect();
                    cells.sort_unstable();
                    let image = m.image_placement(g, q);
                    assert_eq!(m.placements[image].cells, cells);
                    assert_eq!(m.placements[image].piece, s.sigma[p.piece]);
                    assert_eq!(plain.find(m, g, q), image);
                    assert_eq!(without_sums.find(m, g, q), image);
                }
            }
        }
    }
}
