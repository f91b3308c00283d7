//! Cells, shapes and the symmetries of the square and cubic grids.
//!
//! A cell is `[x, y, z]` (z = 0 in the plane). The symmetries that fix the
//! origin are the signed permutations of the axes: 48 in space (24 of them
//! rotations) and, keeping z, 8 in the plane (4 rotations).

pub type Cell = [i32; 3];

/// A symmetry of the grid: `out[i] = sign[i] * p[perm[i]]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transform {
    pub perm: [usize; 3],
    pub sign: [i32; 3],
}

impl Transform {
    pub const IDENTITY: Transform = Transform {
        perm: [0, 1, 2],
        sign: [1, 1, 1],
    };

    pub fn apply(&self, p: Cell) -> Cell {
        [
            self.sign[0] * p[self.perm[0]],
            self.sign[1] * p[self.perm[1]],
            self.sign[2] * p[self.perm[2]],
        ]
    }

    /// +1 for a rotation, -1 for a reflection.
    pub fn det(&self) -> i32 {
        let parity = {
            let p = self.perm;
            let mut inv = 0;
            for i in 0..3 {
                for j in i + 1..3 {
                    if p[i] > p[j] {
                        inv += 1;
                    }
                }
            }
            if inv % 2 == 0 {
                1
            } else {
                -1
            }
        };
        parity * self.sign[0] * self.sign[1] * self.sign[2]
    }

    pub fn is_rotation(&self) -> bool {
        self.det() == 1
    }

    /// `self` after `other`.
    pub fn compose(&self, other: &Transform) -> Transform {
        let mut perm = [0; 3];
        let mut sign = [0; 3];
        for i in 0..3 {
            perm[i] = other.perm[self.perm[i]];
            sign[i] = self.sign[i] * other.sign[self.perm[i]];
        }
        Transform { perm, sign }
    }
}

/// The symmetries of the grid in `dim` dimensions (8 or 48), identity
/// first, rotations before reflections.
pub fn symmetries(dim: u8) -> Vec<Transform> {
    let perms: Vec<[usize; 3]> = if dim == 2 {
        vec![[0, 1, 2], [1, 0, 2]]
    } else {
        vec![
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ]
    };
    let mut out = Vec::new();
    for perm in perms {
        for s in 0..8 {
            let sign = [
                if s & 1 == 0 { 1 } else { -1 },
                if s & 2 == 0 { 1 } else { -1 },
                if s & 4 == 0 { 1 } else { -1 },
            ];
            if dim == 2 && sign[2] == -1 {
                continue;
            }
            out.push(Transform { perm, sign });
        }
    }
    out.sort_by_key(|t| (t.det() != 1, *t != Transform::IDENTITY, *t));
    out
}

/// Translates `cells` so that the smallest coordinate on each axis is 0,
/// and sorts them: the normal form of a shape.
pub fn normalize(cells: &[Cell]) -> Vec<Cell> {
    if cells.is_empty() {
        return Vec::new();
    }
    let mut lo = cells[0];
    for c in cells {
        for k in 0..3 {
            lo[k] = lo[k].min(c[k]);
        }
    }
    let mut v: Vec<Cell> = cells
        .iter()
        .map(|c| [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]])
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The distinct orientations of a shape under `group`, normalised, in a
/// fixed order.
pub fn orientations(cells: &[Cell], group: &[Transform]) -> Vec<Vec<Cell>> {
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for t in group {
        let v = normalize(&cells.iter().map(|&c| t.apply(c)).collect::<Vec<_>>());
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The canonical form of a shape under `group`: its smallest orientation.
pub fn canonical(cells: &[Cell], group: &[Transform]) -> Vec<Cell> {
    orientations(cells, group)
        .into_iter()
        .min()
        .unwrap_or_default()
}

/// Whether the cells are connected through faces.
pub fn is_connected(cells: &[Cell]) -> bool {
    if cells.is_empty() {
        return true;
    }
    let set: std::collections::HashSet<Cell> = cells.iter().copied().collect();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![cells[0]];
    seen.insert(cells[0]);
    while let Some(c) = stack.pop() {
        for k in 0..3 {
            for d in [-1, 1] {
                let mut n = c;
                n[k] += d;
                if set.contains(&n) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
    }
    seen.len() == set.len()
}

/// Every polyform of `size` cells in `dim` dimensions, up to `group`
/// (rotations only, or rotations and reflections), each in canonical form,
/// sorted. Grown cell by cell; fine for the sizes used here (up to 6 in the
/// plane, 5 in space).
pub fn enumerate(size: usize, dim: u8, group: &[Transform]) -> Vec<Vec<Cell>> {
    let mut level: std::collections::BTreeSet<Vec<Cell>> = std::collections::BTreeSet::new();
    level.insert(vec![[0, 0, 0]]);
    for _ in 1..size {
        let mut next = std::collections::BTreeSet::new();
        for shape in &level {
            for c in shape {
                for k in 0..dim as usize {
                    for d in [-1, 1] {
                        let mut n = *c;
                        n[k] += d;
                        if shape.contains(&n) {
                            continue;
                        }
                        let mut grown = shape.clone();
                        grown.push(n);
                        next.insert(canonical(&grown, group));
                    }
                }
            }
        }
        level = next;
    }
    level.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_sizes() {
        let g2 = symmetries(2);
        let g3 = symmetries(3);
        assert_eq!(g2.len(), 8);
        assert_eq!(g3.len(), 48);
        assert_eq!(g2.iter().filter(|t| t.is_rotation()).count(), 4);
        assert_eq!(g3.iter().filter(|t| t.is_rotation()).count(), 24);
        assert_eq!(g3[0], Transform::IDENTITY);
        // closed under composition
        for a in &g3 {
            for b in &g3 {
                assert!(g3.contains(&a.compose(b)));
            }
        }
        let p = [1, 2, 3];
        for a in &g3 {
            for b in &g3 {
                assert_eq!(a.compose(b).apply(p), a.apply(b.apply(p)));
            }
        }
    }

    #[test]
    fn polyomino_and_polycube_counts() {
        let free2 = symmetries(2);
        let one2: Vec<_> = free2
            .iter()
            .copied()
            .filter(Transform::is_rotation)
            .collect();
        // OEIS A000105 (free) and A000988 (one-sided)
        let free: Vec<usize> = (1..=6).map(|n| enumerate(n, 2, &free2).len()).collect();
        assert_eq!(free, vec![1, 1, 2, 5, 12, 35]);
        let one: Vec<usize> = (1..=5).map(|n| enumerate(n, 2, &one2).len()).collect();
        assert_eq!(one, vec![1, 1, 2, 7, 18]);
        let g3 = symmetries(3);
        let rot3: Vec<_> = g3.iter().copied().filter(Transform::is_rotation).collect();
        // OEIS A038119 (free polycubes) and A000162 (up to rotation)
        let free3: Vec<usize> = (1..=5).map(|n| enumerate(n, 3, &g3).len()).collect();
        assert_eq!(free3, vec![1, 1, 2, 7, 23]);
        let rot: Vec<usize> = (1..=5).map(|n| enumerate(n, 3, &rot3).len()).collect();
        assert_eq!(rot, vec![1, 1, 2, 8, 29]);
    }

    #[test]
    fn orientations_of_pieces() {
        let g2 = symmetries(2);
        let l: Vec<Cell> = vec![[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 2, 0]];
        assert_eq!(orientations(&l, &g2).len(), 8);
        let x: Vec<Cell> = vec![[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 2, 0]];
        assert_eq!(orientations(&x, &g2).len(), 1);
        let g3 = symmetries(3);
        assert_eq!(orientations(&l, &g3).len(), 24);
        assert!(is_connected(&l));
        assert!(!is_connected(&[[0, 0, 0], [2, 0, 0]]));
    }
}
