//! BurrTools' two grids of cells cut from cubes: rhombic dodecahedra as
//! rhombic tetrahedra (BurrTools' grid 3) and tetrahedra with octahedra
//! (grid 4), as BurrTools numbers their cells: points `[x, y, z]` of a
//! cubic lattice of voxels, of which a pattern repeating in blocks are
//! cells. They are here so that BurrTools' files on them can be counted;
//! no puzzle file names them (they are not in
//! [`PolyGrid::ALL`](super::PolyGrid::ALL)).
//!
//! ## Rhombic tetrahedra (grid 3)
//!
//! Blocks of 5 x 5 x 5 voxels, one block a cube of the underlying cube
//! lattice. With `r` a coordinate mod 5 folded to `f(r) = min(r, 4 - r)`,
//! the voxel is a cell when its three folded coordinates are 0, 1 and 2
//! in some order: 24 cells a block, the tetrahedra of the cube cut by its
//! centre, edges and faces. Translations: whole blocks. Symmetries: the
//! cube's 48 about the block's centre `(2, 2, 2)`: a cell's point is its
//! voxel less `(2, 2, 2)`.
//!
//! ## Tetrahedra and octahedra (grid 4)
//!
//! Blocks of 3 x 3 x 3 voxels, one a unit cube; a block's centre voxel
//! `(1, 1, 1)` is a cell (its octahedron's part in the cube), and four of
//! its corners: `(2, 0, 0), (0, 2, 0), (0, 0, 2), (2, 2, 2)` (an odd number
//! of 2s) when the block's coordinates have an even sum, the other four
//! (`(0, 0, 0), (2, 2, 0), (2, 0, 2), (0, 2, 2)`) when odd: 5 cells a
//! block. Translations: whole blocks with an even sum (the checkerboard of
//! blocks is kept). Symmetries: the cube's 48 about the corner `(2.5, 2.5,
//! 2.5)` shared by eight blocks: a cell's point is twice its voxel less
//! `(5, 5, 5)`.
//!
//! BurrTools' `y` grows upwards; dancer takes voxels as they are (these
//! grids are drawn as their voxels, and never as text pictures).

use super::Cell;

/// A voxel of grid 3 that is a cell.
pub(super) fn is_rhombic(p: Cell) -> bool {
    let f = |v: i32| {
        let r = v.rem_euclid(5);
        r.min(4 - r)
    };
    let mut k = [f(p[0]), f(p[1]), f(p[2])];
    k.sort_unstable();
    k == [0, 1, 2]
}

/// A voxel of grid 4 that is a cell.
pub(super) fn is_tetra_octa(p: Cell) -> bool {
    let s = p.map(|v| v.rem_euclid(3));
    let block = p.map(|v| v.div_euclid(3));
    if s == [1, 1, 1] {
        return true;
    }
    if s.contains(&1) {
        return false;
    }
    let twos = s.iter().filter(|&&v| v == 2).count();
    let even_block = (block[0] + block[1] + block[2]).rem_euclid(2) == 0;
    (twos % 2 == 1) == even_block
}

/// The block a voxel lies in, of side `side`.
pub(super) fn block(p: Cell, side: i32) -> [i32; 3] {
    p.map(|v| v.div_euclid(side))
}

/// Which of its block's cells a voxel is (grid 4: and the block's
/// parity, which a translation keeps).
pub(super) fn kind(p: Cell, side: i32, parity: bool) -> i32 {
    let s = p.map(|v| v.rem_euclid(side));
    let k = (s[0] * side + s[1]) * side + s[2];
    let b = block(p, side);
    match parity {
        true => k * 2 + (b[0] + b[1] + b[2]).rem_euclid(2),
        false => k,
    }
}

/// The voxels next to a cell along an axis that are cells: BurrTools'
/// adjacency of voxels (used only to say whether a shape is connected,
/// which BurrTools' files never ask).
pub(super) fn neighbours(p: Cell, is_cell: fn(Cell) -> bool) -> Vec<Cell> {
    let mut out = Vec::new();
    for k in 0..3 {
        for d in [-1, 1] {
            let mut q = p;
            q[k] += d;
            if is_cell(q) {
                out.push(q);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::PolyGrid;

    /// 24 cells a block on grid 3, 5 on grid 4; every symmetry maps cells
    /// to cells; a translation keeps them.
    #[test]
    fn blocks_and_symmetries() {
        let count = |f: fn(Cell) -> bool, side: i32| {
            (0..side)
                .flat_map(|x| (0..side).flat_map(move |y| (0..side).map(move |z| [x, y, z])))
                .filter(|&p| f(p))
                .count()
        };
        assert_eq!(count(is_rhombic, 5), 24);
        assert_eq!(count(is_tetra_octa, 3), 5);
        for (grid, side) in [(PolyGrid::Rhombic, 5), (PolyGrid::TetraOcta, 3)] {
            let cells: Vec<Cell> = (-side..2 * side)
                .flat_map(|x| {
                    (-side..2 * side).flat_map(move |y| (-side..2 * side).map(move |z| [x, y, z]))
                })
                .filter(|&p| grid.is_cell(p))
                .collect();
            assert!(!cells.is_empty());
            for t in grid.symmetries() {
                for &c in &cells {
                    let image = grid.cell_at(t.apply(grid.embed(c)));
                    assert!(image.is_some_and(|i| grid.is_cell(i)), "{grid:?} {c:?}");
                }
            }
            let by = if grid == PolyGrid::TetraOcta {
                [1, 1, 0]
            } else {
                [1, 0, 0]
            };
            for &c in &cells {
                let moved = grid.translate(c, by);
                assert!(grid.is_cell(moved));
                assert_eq!(grid.shift_between(c, moved), Some(by));
            }
        }
    }
}
