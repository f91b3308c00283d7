//! Grids of cells: the square, cubic, triangular and hexagonal grids, the
//! edges of some of them, packed spheres and triangular prisms, with their
//! symmetries, and every polyform of a given size on any of them.
//!
//! This is the grid abstraction the rest of the crate is built on: a
//! puzzle's board names its grid, and the model finds placements, the
//! puzzle's symmetries and canonical forms through it. Squares and cubes
//! list their symmetries in the order they always had (see
//! `square::signed_permutation_order`), so that their searches, solutions
//! and outputs are those of before.
//!
//! ## Cells and points
//!
//! A *cell* is `[i32; 3]`. Its leading [`PolyGrid::lattice_dim`] coordinates
//! (2 in the plane, 3 in space) say which translate of the grid's repeating
//! unit it lies in; the coordinates after them (one at most, in the plane)
//! say which of the unit's cells it is, its *kind*: up or down for a
//! triangle, horizontal or vertical for an edge. A translation by a lattice
//! vector adds to the leading coordinates and keeps the kind, so a
//! translation can never turn an up-triangle into a down-triangle.
//!
//! Two grids in space bend that rule, each for a reason given in its
//! module. A prism's third coordinate is `2z + k`, its layer and its kind
//! together ([`prism`]), so a translation by `[dx, dy, dz]` adds `2 dz` to
//! it; [`PolyGrid::site`] and [`PolyGrid::kind`] take a cell apart. The
//! spheres are the points of `Z^3` with an even sum, one kind, and so are
//! their lattice vectors ([`sphere`]): a translation must move by an even
//! sum, which [`PolyGrid::normalize`] and [`PolyGrid::shift_between`] see to.
//!
//! Symmetries are easier to write on *points*: each grid embeds every cell
//! as an integer point ([`PolyGrid::embed`]), its centre scaled so that it has
//! integer coordinates, in a lattice basis in which every symmetry of the
//! grid that fixes the origin is an integer matrix ([`GridSymmetry`]). Applying
//! a symmetry to a cell is: embed, multiply, read the cell back
//! ([`PolyGrid::cell_at`]). Each grid documents its coordinates with a drawing
//! in its own module ([`square`], [`tri`], [`sphere`], [`prism`]).
//!
//! ## Invariants
//!
//! * `cell_at(embed(c)) == Some(c)` for every cell, and `cell_at` is `None`
//!   on a point that is no cell's centre;
//! * every symmetry maps cell centres to cell centres and neighbours to
//!   neighbours (checked by [`check_grid`]);
//! * the grid's symmetries fixing the origin form a group, listed identity
//!   first and rotations (determinant +1) before reflections, half of each;
//! * every symmetry of the tiling is a translation of the lattice after one
//!   of those (all the grids here have a symmorphic group), so the smallest
//!   [`PolyGrid::normalize`]d image of a shape is a canonical form: two shapes
//!   have the same one exactly when a symmetry maps one onto the other.
//!
//! ## Why an enum
//!
//! [`PolyGrid`] is one enum with a variant per grid: a puzzle file names
//! its grid and the program holds the value (a `Copy` word), each method
//! matches on it and calls the grid's own functions in `square.rs`,
//! `tri.rs`, `sphere.rs` or `prism.rs`, and a new grid is a variant and its
//! arms. The methods that every grid shares (normal forms, images,
//! canonical forms, connection) are written once, over the few that
//! differ. `layers.rs` reads and writes the layer pictures of the two
//! grids in space that have their own.

pub mod edges;
pub mod layers;
pub mod picture;
pub mod prism;
pub mod sphere;
pub mod square;
pub mod tri;
pub mod voxel;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests3d;

use std::collections::HashSet;

/// A cell of a grid: lattice coordinates, then its kind (see the module
/// documentation); the same coordinates as [`crate::geometry`]'s cells.
pub use crate::geometry::Cell;

/// A cell's centre in a grid's integer point coordinates.
pub type Point = [i32; 3];

/// A symmetry fixing the origin, as an integer matrix on points:
/// `out[i] = sum over j of m[i][j] * p[j]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GridSymmetry {
    pub m: [[i32; 3]; 3],
}

impl GridSymmetry {
    pub const IDENTITY: GridSymmetry = GridSymmetry {
        m: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    };

    /// The plane map `(x, y) -> (a x + b y, c x + d y)`, keeping z.
    pub const fn plane(a: i32, b: i32, c: i32, d: i32) -> GridSymmetry {
        GridSymmetry {
            m: [[a, b, 0], [c, d, 0], [0, 0, 1]],
        }
    }

    pub fn apply(&self, p: Point) -> Point {
        let m = &self.m;
        [0, 1, 2].map(|i| m[i][0] * p[0] + m[i][1] * p[1] + m[i][2] * p[2])
    }

    /// `self` after `other`.
    pub fn compose(&self, other: &GridSymmetry) -> GridSymmetry {
        let mut m = [[0; 3]; 3];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = (0..3).map(|k| self.m[i][k] * other.m[k][j]).sum();
            }
        }
        GridSymmetry { m }
    }

    pub fn det(&self) -> i32 {
        let m = &self.m;
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }

    /// A rotation keeps handedness (determinant +1); a reflection turns a
    /// piece over (-1).
    pub fn is_rotation(&self) -> bool {
        self.det() == 1
    }
}

/// The group generated by `gens`: identity first, then rotations, then
/// reflections, each part sorted.
pub fn generate(gens: &[GridSymmetry]) -> Vec<GridSymmetry> {
    let mut group = vec![GridSymmetry::IDENTITY];
    let mut i = 0;
    while i < group.len() {
        for g in gens {
            let h = g.compose(&group[i]);
            if !group.contains(&h) {
                group.push(h);
            }
        }
        i += 1;
    }
    group.sort_by_key(|t| (!t.is_rotation(), *t != GridSymmetry::IDENTITY, *t));
    group
}

/// A grid of cells: see the module documentation, and each grid's
/// coordinates in its module (`square.rs`, `tri.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PolyGrid {
    /// Squares (polyominoes).
    Square,
    /// Cubes (polycubes).
    Cube,
    /// The edges of the square grid (polysticks).
    Stick,
    /// Triangles (polyiamonds).
    Triangle,
    /// Hexagons (polyhexes).
    Hexagon,
    /// The edges of the hexagonal grid (polytwigs).
    Twig,
    /// The edges of the triangular grid (polytrigs).
    Trig,
    /// Packed spheres, the face-centred cubic lattice (polyspheres, as in
    /// ball pyramids).
    Sphere,
    /// Triangular prisms, layers of triangles stacked (BurrTools' prism
    /// grid).
    Prism,
    /// BurrTools' rhombic dodecahedra, cut into rhombic tetrahedra (its
    /// grid 3; [`voxel`]): for its files only.
    Rhombic,
    /// BurrTools' tetrahedra and octahedra (its grid 4; [`voxel`]): for
    /// its files only.
    TetraOcta,
}

impl PolyGrid {
    /// Every grid.
    pub const ALL: [PolyGrid; 9] = [
        PolyGrid::Square,
        PolyGrid::Cube,
        PolyGrid::Stick,
        PolyGrid::Triangle,
        PolyGrid::Hexagon,
        PolyGrid::Twig,
        PolyGrid::Trig,
        PolyGrid::Sphere,
        PolyGrid::Prism,
    ];

    /// The grid of that name (as [`PolyGrid::name`] gives it).
    pub fn from_name(name: &str) -> Option<PolyGrid> {
        PolyGrid::ALL.into_iter().find(|g| g.name() == name)
    }

    /// A short lower-case name: `square`, `cube`, `triangle`, ...
    pub fn name(self) -> &'static str {
        match self {
            PolyGrid::Square => "square",
            PolyGrid::Cube => "cube",
            PolyGrid::Stick => "stick",
            PolyGrid::Triangle => "triangle",
            PolyGrid::Hexagon => "hexagon",
            PolyGrid::Twig => "twig",
            PolyGrid::Trig => "trig",
            PolyGrid::Sphere => "sphere",
            PolyGrid::Prism => "prism",
            PolyGrid::Rhombic => "rhombic",
            PolyGrid::TetraOcta => "tetra-octa",
        }
    }

    /// What the pieces of the grid are called: `polyominoes`,
    /// `polyiamonds`, ...
    pub fn forms(self) -> &'static str {
        match self {
            PolyGrid::Square => "polyominoes",
            PolyGrid::Cube => "polycubes",
            PolyGrid::Stick => "polysticks",
            PolyGrid::Triangle => "polyiamonds",
            PolyGrid::Hexagon => "polyhexes",
            PolyGrid::Twig => "polytwigs",
            PolyGrid::Trig => "polytrigs",
            PolyGrid::Sphere => "polyspheres",
            PolyGrid::Prism => "polyprisms",
            PolyGrid::Rhombic => "rhombic polyhedra",
            PolyGrid::TetraOcta => "tetra-octa polyhedra",
        }
    }

    /// How many leading coordinates of a cell are lattice coordinates
    /// (translations act on them); 2 in the plane, 3 in space.
    pub fn lattice_dim(self) -> usize {
        match self {
            PolyGrid::Cube
            | PolyGrid::Sphere
            | PolyGrid::Prism
            | PolyGrid::Rhombic
            | PolyGrid::TetraOcta => 3,
            _ => 2,
        }
    }

    /// 2 for the grids in the plane, 3 for those in space.
    pub fn dim(self) -> u8 {
        self.lattice_dim() as u8
    }

    /// A cell as records (NDJSON, the web's JSON) write it: `[x, y]` on
    /// the grids of the plane with one kind of cell (squares, hexagons),
    /// `[x, y, k]` where the third coordinate tells cells apart (a
    /// triangle's up or down, an edge's direction), all three in space.
    pub fn record_cell(self, c: Cell) -> Vec<i32> {
        c[..self.arity()].to_vec()
    }

    /// How many coordinates a cell is written with, in puzzle files and
    /// records alike: 2 on the grids of the plane with one kind of cell
    /// (squares, hexagons), else 3 (see [`PolyGrid::cell_form`]).
    pub fn arity(self) -> usize {
        if self.dim() == 2 && kinds(self).len() == 1 {
            2
        } else {
            3
        }
    }

    /// A cell as it is written, in words: `[x, y]` on squares and
    /// hexagons, `[x, y, z]` in space, `[x, y, k]` where the third
    /// coordinate tells the cells of a place apart (a triangle's up or
    /// down, an edge's direction).
    pub fn cell_form(self) -> &'static str {
        match (self.arity(), self.dim()) {
            (2, _) => "[x, y]",
            (_, 3) => "[x, y, z]",
            _ => "[x, y, k]",
        }
    }

    /// Whether the cells are the edges of a grid of faces (sticks, twigs,
    /// trigs).
    pub fn is_edge_grid(self) -> bool {
        edges::face_grid(self).is_some()
    }

    /// The lattice coordinates of the repeating unit a cell lies in: its
    /// leading [`PolyGrid::lattice_dim`] coordinates, 0 after them; a
    /// prism's `[x, y, z]`.
    pub fn site(self, cell: Cell) -> [i32; 3] {
        match self {
            PolyGrid::Prism => prism::site(cell),
            PolyGrid::Rhombic => voxel::block(cell, 5),
            PolyGrid::TetraOcta => voxel::block(cell, 3),
            _ if self.lattice_dim() == 3 => cell,
            _ => [cell[0], cell[1], 0],
        }
    }

    /// Which of its unit's cells a cell is: the coordinate after the
    /// lattice ones in the plane, a prism's up (0) or down (1), 0 for cubes
    /// and spheres.
    pub fn kind(self, cell: Cell) -> i32 {
        match self {
            PolyGrid::Prism => prism::site_and_kind(cell).1,
            PolyGrid::Rhombic => voxel::kind(cell, 5, false),
            PolyGrid::TetraOcta => voxel::kind(cell, 3, true),
            _ if self.lattice_dim() == 3 => 0,
            _ => cell[2],
        }
    }

    /// The lattice vector that moves cell `from` onto cell `to`, if one
    /// does (their kinds are the same).
    pub fn shift_between(self, from: Cell, to: Cell) -> Option<[i32; 3]> {
        if self.kind(from) != self.kind(to) {
            return None;
        }
        let (a, b) = (self.site(from), self.site(to));
        Some([b[0] - a[0], b[1] - a[1], b[2] - a[2]])
    }

    /// The cells sharing an edge (a face in space; an endpoint for the
    /// edges of a grid) with `cell`: the adjacency that makes a piece
    /// connected.
    pub fn neighbours(self, cell: Cell) -> Vec<Cell> {
        match self {
            PolyGrid::Square => square::steps(cell, 2),
            PolyGrid::Cube => square::steps(cell, 3),
            PolyGrid::Stick => square::stick_neighbours(cell),
            PolyGrid::Triangle => tri::triangle_neighbours(cell),
            PolyGrid::Hexagon => tri::hexagon_neighbours(cell),
            PolyGrid::Twig => tri::twig_neighbours(cell),
            PolyGrid::Trig => tri::trig_neighbours(cell),
            PolyGrid::Sphere => sphere::neighbours(cell),
            PolyGrid::Prism => prism::neighbours(cell),
            PolyGrid::Rhombic => voxel::neighbours(cell, voxel::is_rhombic),
            PolyGrid::TetraOcta => voxel::neighbours(cell, voxel::is_tetra_octa),
        }
    }

    /// The cell's centre as an integer point.
    pub fn embed(self, cell: Cell) -> Point {
        match self {
            PolyGrid::Square | PolyGrid::Cube | PolyGrid::Hexagon => cell,
            PolyGrid::Sphere => cell,
            PolyGrid::Stick => square::stick_point(cell),
            PolyGrid::Triangle => tri::triangle_point(cell),
            PolyGrid::Twig | PolyGrid::Trig => tri::segment_point(cell),
            PolyGrid::Prism => prism::point(cell),
            PolyGrid::Rhombic => cell.map(|v| v - 2),
            PolyGrid::TetraOcta => cell.map(|v| 2 * v - 5),
        }
    }

    /// The cell centred on `p`, if any: the inverse of [`PolyGrid::embed`].
    pub fn cell_at(self, p: Point) -> Option<Cell> {
        match self {
            PolyGrid::Square | PolyGrid::Hexagon => (p[2] == 0).then_some(p),
            PolyGrid::Cube => Some(p),
            PolyGrid::Stick => square::stick_at(p),
            PolyGrid::Triangle => tri::triangle_at(p),
            PolyGrid::Twig | PolyGrid::Trig => tri::segment_at(p),
            PolyGrid::Sphere => sphere::sphere_at(p),
            PolyGrid::Prism => prism::prism_at(p),
            PolyGrid::Rhombic => Some(p.map(|v| v + 2)).filter(|&c| voxel::is_rhombic(c)),
            PolyGrid::TetraOcta => (p.iter().all(|v| v.rem_euclid(2) == 1))
                .then(|| p.map(|v| (v + 5) / 2))
                .filter(|&c| voxel::is_tetra_octa(c)),
        }
    }

    /// The symmetries fixing the origin: identity first, rotations before
    /// reflections (see [`generate`]).
    pub fn symmetries(self) -> Vec<GridSymmetry> {
        self.groups().0.clone()
    }

    /// The rotations among [`PolyGrid::symmetries`].
    pub fn rotations(self) -> Vec<GridSymmetry> {
        self.groups().1.clone()
    }

    /// The grid's symmetries and its rotations, generated once for each of
    /// the four groups (a puzzle's set-up asks for them dozens of times).
    fn groups(self) -> &'static (Vec<GridSymmetry>, Vec<GridSymmetry>) {
        type Groups = (Vec<GridSymmetry>, Vec<GridSymmetry>);
        static CACHE: [std::sync::OnceLock<Groups>; 4] = [const { std::sync::OnceLock::new() }; 4];
        let (slot, make): (usize, fn() -> Vec<GridSymmetry>) = match self {
            PolyGrid::Square | PolyGrid::Stick => (0, square::square_group),
            PolyGrid::Cube | PolyGrid::Sphere | PolyGrid::Rhombic | PolyGrid::TetraOcta => {
                (1, square::cube_group)
            }
            PolyGrid::Prism => (2, prism::prism_group),
            _ => (3, tri::hex_group),
        };
        CACHE[slot].get_or_init(|| {
            let all = make();
            let rotations = all
                .iter()
                .copied()
                .filter(GridSymmetry::is_rotation)
                .collect();
            (all, rotations)
        })
    }

    /// The group pieces move by: rotations only when `one_sided`.
    pub fn group(self, one_sided: bool) -> Vec<GridSymmetry> {
        if one_sided {
            self.rotations()
        } else {
            self.symmetries()
        }
    }

    /// The group a given piece moves by: [`PolyGrid::group`], except that a
    /// one-sided piece that can be turned over by a rotation in space that
    /// is no symmetry of the grid moves by every symmetry. Only spheres
    /// have such pieces, those lying flat in a plane (see [`sphere`]).
    pub fn group_of(self, cells: &[Cell], one_sided: bool) -> Vec<GridSymmetry> {
        self.group(one_sided && !self.turns_over(cells))
    }

    /// Whether a rotation in space that is no symmetry of the grid maps
    /// the piece onto its mirror image (see [`PolyGrid::group_of`]).
    pub fn turns_over(self, cells: &[Cell]) -> bool {
        self == PolyGrid::Sphere && sphere::is_flat(cells)
    }

    /// Whether `cell` is a cell of this grid (its kind exists).
    pub fn is_cell(self, cell: Cell) -> bool {
        self.cell_at(self.embed(cell)) == Some(cell)
    }

    /// The image of a cell under a symmetry.
    pub fn apply(self, t: &GridSymmetry, cell: Cell) -> Cell {
        if matches!(
            self,
            PolyGrid::Square | PolyGrid::Cube | PolyGrid::Hexagon | PolyGrid::Sphere
        ) {
            // cells are their own points, and a symmetry's image of one is
            // one
            debug_assert_eq!(self.cell_at(t.apply(cell)), Some(t.apply(cell)));
            return t.apply(cell);
        }
        let image = t.apply(self.embed(cell));
        match self {
            // the inverse of `embed` without `cell_at`'s test that the
            // point is a cell's: a symmetry's image of one is one
            PolyGrid::Rhombic | PolyGrid::TetraOcta => {
                let c = match self {
                    PolyGrid::Rhombic => image.map(|v| v + 2),
                    _ => image.map(|v| (v + 5) / 2),
                };
                debug_assert_eq!(self.cell_at(image), Some(c));
                c
            }
            _ => self
                .cell_at(image)
                .expect("a symmetry of the grid maps cells to cells"),
        }
    }

    /// `cell` moved by the lattice vector `by` (its coordinates past
    /// [`PolyGrid::lattice_dim`] are ignored: a translation keeps the kind;
    /// on the sphere grid `by` must have an even sum, and a prism moves by
    /// `by[2]` layers).
    pub fn translate(self, cell: Cell, by: [i32; 3]) -> Cell {
        match self {
            PolyGrid::Prism => return prism::translate(cell, by),
            PolyGrid::Rhombic => return [0, 1, 2].map(|k| cell[k] + 5 * by[k]),
            PolyGrid::TetraOcta => return [0, 1, 2].map(|k| cell[k] + 3 * by[k]),
            _ => {}
        }
        let mut out = cell;
        for k in 0..self.lattice_dim() {
            out[k] += by[k];
        }
        out
    }

    /// The shape translated so that its smallest lattice coordinate
    /// ([`PolyGrid::site`]) on each axis is 0, sorted, without repeats: its
    /// normal form. (On the sphere grid, where that translation may have an
    /// odd sum, the smallest `x` is 1 instead.)
    pub fn normalize(self, cells: &[Cell]) -> Vec<Cell> {
        let by = self.normal_shift(cells);
        let mut v: Vec<Cell> = cells.iter().map(|&c| self.translate(c, by)).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The translation [`PolyGrid::normalize`] moves a shape by (none for
    /// no cells).
    pub fn normal_shift(self, cells: &[Cell]) -> [i32; 3] {
        self.normal_shift_of(cells.iter().copied())
    }

    fn normal_shift_of(self, mut cells: impl Iterator<Item = Cell>) -> [i32; 3] {
        let Some(first) = cells.next() else {
            return [0; 3];
        };
        let lo = cells.fold(self.site(first), |lo, c| {
            let s = self.site(c);
            [0, 1, 2].map(|k| lo[k].min(s[k]))
        });
        let mut by = [0, 1, 2].map(|k| -lo[k]);
        let even = matches!(self, PolyGrid::Sphere | PolyGrid::TetraOcta);
        if even && (by[0] + by[1] + by[2]) % 2 != 0 {
            by[0] += 1;
        }
        by
    }

    /// A shape with a colour on each cell under `t`, normalised, sorted
    /// by cell: [`PolyGrid::image`] for coloured shapes.
    pub fn coloured_image(self, t: &GridSymmetry, cells: &[(Cell, u8)]) -> Vec<(Cell, u8)> {
        let mut v: Vec<(Cell, u8)> = cells.iter().map(|&(c, k)| (self.apply(t, c), k)).collect();
        let by = self.normal_shift_of(v.iter().map(|m| m.0));
        v.iter_mut().for_each(|m| m.0 = self.translate(m.0, by));
        sort_coloured(&mut v);
        v
    }

    /// The shape's image under `t`, normalised.
    pub fn image(self, t: &GridSymmetry, cells: &[Cell]) -> Vec<Cell> {
        let moved: Vec<Cell> = cells.iter().map(|&c| self.apply(t, c)).collect();
        self.normalize(&moved)
    }

    /// The distinct normalised images of a shape under `group`, in the
    /// group's order.
    pub fn orientations(self, cells: &[Cell], group: &[GridSymmetry]) -> Vec<Vec<Cell>> {
        let mut out: Vec<Vec<Cell>> = Vec::new();
        for t in group {
            let v = self.image(t, cells);
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }

    /// The smallest normalised image of a shape under `group`.
    pub fn canonical_under(self, cells: &[Cell], group: &[GridSymmetry]) -> Vec<Cell> {
        group
            .iter()
            .map(|t| self.image(t, cells))
            .min()
            .unwrap_or_default()
    }

    /// The canonical form of a shape: its smallest normalised image under
    /// the whole group, or under rotations only when `one_sided` (see
    /// [`PolyGrid::group_of`]).
    pub fn canonical(self, cells: &[Cell], one_sided: bool) -> Vec<Cell> {
        self.canonical_under(cells, &self.group_of(cells, one_sided))
    }

    /// Whether the cells are connected through [`PolyGrid::neighbours`].
    pub fn is_connected(self, cells: &[Cell]) -> bool {
        let Some(&first) = cells.first() else {
            return true;
        };
        let set: HashSet<Cell> = cells.iter().copied().collect();
        let mut seen = HashSet::from([first]);
        let mut stack = vec![first];
        while let Some(c) = stack.pop() {
            for n in self.neighbours(c) {
                if set.contains(&n) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        seen.len() == set.len()
    }
}

/// Sorts coloured cells as the pairs compare and keeps the first of each
/// cell (of the least colour). A shape whose box holds few more slots
/// than it has cells (most pieces) is sorted by marking its slots in a
/// table over the box and reading them in order, in time linear in the
/// box; a sparse one is sorted as packed integers that compare the same.
/// (Pieces of hundreds of cells are turned hundreds of times in setting up
/// a puzzle.)
fn sort_coloured(v: &mut Vec<(Cell, u8)>) {
    let (lo, hi) = v
        .iter()
        .fold(([i32::MAX; 3], [i32::MIN; 3]), |(lo, hi), m| {
            (
                [0, 1, 2].map(|k| lo[k].min(m.0[k])),
                [0, 1, 2].map(|k| hi[k].max(m.0[k])),
            )
        });
    let size = [0, 1, 2].map(|k| (i64::from(hi[k]) - i64::from(lo[k]) + 1).max(0) as u64);
    let volume = size[0].saturating_mul(size[1]).saturating_mul(size[2]);
    if !v.is_empty() && volume <= 4 * v.len() as u64 + 64 {
        let [_, sy, sz] = size.map(|s| s as usize);
        // slot of (x, y, z), x the most significant; each slot holds the
        // least colour of its cells plus one (0: no cell)
        let mut slots = vec![0u16; volume as usize];
        for &(c, k) in v.iter() {
            let d = [0, 1, 2].map(|a| (i64::from(c[a]) - i64::from(lo[a])) as usize);
            let s = &mut slots[(d[0] * sy + d[1]) * sz + d[2]];
            let k = u16::from(k) + 1;
            *s = if *s == 0 { k } else { (*s).min(k) };
        }
        v.clear();
        for (i, &s) in slots.iter().enumerate().filter(|(_, &s)| s != 0) {
            let d = [i / (sy * sz), i / sz % sy, i % sz];
            let c = [0, 1, 2].map(|a| (i64::from(lo[a]) + d[a] as i64) as i32);
            v.push((c, (s - 1) as u8));
        }
        return;
    }
    let bias = |v: i32| u128::from(v as u32 ^ 0x8000_0000);
    let unbias = |w: u128| (w as u32 ^ 0x8000_0000) as i32;
    let mut keys: Vec<u128> = (v.iter())
        .map(|&(c, k)| bias(c[0]) << 72 | bias(c[1]) << 40 | bias(c[2]) << 8 | u128::from(k))
        .collect();
    keys.sort_unstable();
    for (m, &w) in v.iter_mut().zip(&keys) {
        *m = ([unbias(w >> 72), unbias(w >> 40), unbias(w >> 8)], w as u8);
    }
    v.dedup_by_key(|m| m.0);
}

/// Every piece of `n` cells on `grid`, free (up to every symmetry) or
/// one-sided (up to rotations), each in canonical form, sorted.
///
/// Grown a cell at a time: each piece of `k + 1` cells is a piece of `k`
/// cells and a neighbour of it (take away a cell that leaves it connected,
/// a leaf of a spanning tree), so growing every canonical piece of `k` cells
/// by every neighbour and keeping the canonical forms finds them all. Every
/// kind of cell is a start: on the triangle grid a monoiamond is an up- or a
/// down-triangle, one piece. Each piece is canonical under its own
/// [`PolyGrid::group_of`]; a one-sided piece that turns over stands for its
/// mirror image as well, so that grows too (into pieces that may not turn
/// over).
pub fn enumerate(grid: PolyGrid, n: usize, one_sided: bool) -> Vec<Vec<Cell>> {
    if n == 0 {
        return Vec::new();
    }
    let (all, some) = (grid.group(false), grid.group(one_sided));
    let group = |shape: &[Cell]| {
        if one_sided && !grid.turns_over(shape) {
            &some
        } else {
            &all
        }
    };
    let mut level: HashSet<Vec<Cell>> = kinds(grid)
        .into_iter()
        .map(|c| grid.canonical_under(&[c], group(&[c])))
        .collect();
    for _ in 1..n {
        let mut next = HashSet::new();
        for shape in &level {
            let mirror = (one_sided && grid.turns_over(shape))
                .then(|| grid.image(&all[all.len() / 2], shape));
            for s in std::iter::once(shape).chain(mirror.as_ref()) {
                for grown in grow(grid, s) {
                    next.insert(grid.canonical_under(&grown, group(&grown)));
                }
            }
        }
        level = next;
    }
    let mut out: Vec<Vec<Cell>> = level.into_iter().collect();
    out.sort_unstable();
    out
}

/// The shape with one neighbour of it more, in every way.
fn grow(grid: PolyGrid, shape: &[Cell]) -> Vec<Vec<Cell>> {
    let mut out = Vec::new();
    for &c in shape {
        for m in grid.neighbours(c) {
            if !shape.contains(&m) {
                let mut grown = shape.to_vec();
                grown.push(m);
                out.push(grown);
            }
        }
    }
    out
}

/// The cells of the repeating unit at the origin, one of each kind.
pub fn kinds(grid: PolyGrid) -> Vec<Cell> {
    (0..6)
        .map(|k| [0, 0, k])
        .filter(|&c| grid.is_cell(c) && grid.site(c) == [0, 0, 0])
        .collect()
}

/// Checks the invariants of the module documentation on the cells within
/// `radius` of the origin; the first one broken, as a sentence.
pub fn check_grid(grid: PolyGrid, radius: i32) -> Result<(), String> {
    let group = grid.symmetries();
    check_group(&group)?;
    for c in cells_near(grid, radius) {
        if grid.cell_at(grid.embed(c)) != Some(c) {
            return Err(format!("{}: {c:?} does not read back", grid.name()));
        }
        let ns = grid.neighbours(c);
        for &m in &ns {
            if !grid.is_cell(m) || !grid.neighbours(m).contains(&c) {
                return Err(format!("{}: {c:?}, {m:?} not mutual", grid.name()));
            }
        }
        for t in &group {
            let image = grid.cell_at(t.apply(grid.embed(c)));
            let Some(tc) = image else {
                return Err(format!("{}: {t:?} maps {c:?} off the grid", grid.name()));
            };
            let tn = grid.neighbours(tc);
            if ns.len() != tn.len() || ns.iter().any(|&m| !tn.contains(&grid.apply(t, m))) {
                return Err(format!("{}: {t:?} breaks {c:?}'s neighbours", grid.name()));
            }
        }
    }
    Ok(())
}

/// Checks that `group` is a group listed as [`generate`] lists one: closed
/// under composition, identity first, rotations first and half of it.
pub fn check_group(group: &[GridSymmetry]) -> Result<(), String> {
    if group.first() != Some(&GridSymmetry::IDENTITY) {
        return Err("the identity is not first".into());
    }
    let rotations = group.iter().take_while(|t| t.is_rotation()).count();
    if rotations * 2 != group.len() || group[rotations..].iter().any(|t| t.det() != -1) {
        return Err(format!("{rotations} rotations in {}", group.len()));
    }
    for a in group {
        for b in group {
            if !group.contains(&a.compose(b)) {
                return Err(format!("{a:?} after {b:?} is missing"));
            }
        }
    }
    Ok(())
}

/// The cells whose lattice coordinates are all within `radius` of 0.
fn cells_near(grid: PolyGrid, radius: i32) -> Vec<Cell> {
    let r = radius;
    let z = if grid.lattice_dim() == 3 {
        -r..=r
    } else {
        0..=0
    };
    let mut out = Vec::new();
    for x in -r..=r {
        for y in -r..=r {
            for k in z.clone() {
                for kind in kinds(grid) {
                    out.push(grid.translate(kind, [x, y, k]));
                }
            }
        }
    }
    // on the sphere grid a vector with an odd sum is no lattice vector
    out.retain(|&c| grid.is_cell(c));
    out
}
