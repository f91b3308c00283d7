//! How far one piece slides along a grid direction before it meets
//! another: the grids' directions, the shapes, and the library that keeps
//! the distances by pair of shapes and relative place.
//!
//! A direction is a one-cell step and, for each kind of voxel, the cells
//! (relative to the voxel) that must be empty for the step: the cell the
//! voxel moves into, and on prisms the triangle it sweeps over on the way
//! (BurrTools' `movementcache_1.cpp`, its `dirs` and `checks` tables;
//! cubes, `movementcache_0.cpp`, check the cell ahead only). A piece `A`
//! can slide `d` steps past a piece `B` when none of the first `d` steps
//! of any of its voxels finds a voxel of `B` in a checked cell; the
//! distance is the largest such `d`, or [`FREE`] when no step ever does.
//!
//! Every checked cell walks a line of the grid (it moves by the step too),
//! so the first voxel of `B` on that line ahead of it gives the distance.
//! A [`Shape`] keeps, per direction, the checked cells that can be the
//! first to meet anything (its probes), and for every cell of its bounding
//! box the steps to its own first voxel ahead (a piece too sparse for its
//! box keeps its voxels' places along each line instead, and pays a binary
//! search): a distance costs one look-up per probe. The [`Library`] keeps
//! the shapes, each moved to the origin, and the distances of pairs of
//! shapes by their relative place, from one assembly to the next.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A distance that never ends: the piece slides past the other for ever.
pub(super) const FREE: u32 = u32::MAX;

/// How a cell lies on the lines of one direction: `key` names the line and
/// `pos` counts steps along it, so that `cell + k * step` has the same key
/// and `pos + k`.
#[derive(Clone, Copy)]
enum Line {
    /// Along `x` by one: cubes' `x`.
    X,
    /// Along `y` by one: cubes' `y`.
    Y,
    /// Along `z` by one: cubes' and prisms' `z`.
    Z,
    /// Prisms along their row, `(2, 0, 0)`.
    Row,
    /// Prisms along `(1, 1, 0)`.
    Rising,
    /// Prisms along `(-1, 1, 0)`.
    Falling,
}

impl Line {
    fn place(self, [x, y, z]: [i32; 3]) -> ([i32; 3], i32) {
        match self {
            Line::X => ([y, z, 0], x),
            Line::Y => ([x, z, 0], y),
            Line::Z => ([x, y, 0], z),
            Line::Row => ([x.rem_euclid(2), y, z], x.div_euclid(2)),
            Line::Rising => ([x - y, z, 0], y),
            Line::Falling => ([x + y, z, 0], y),
        }
    }
}

/// One direction of a grid (its positive sense; the negative one is the
/// same slide seen from the other piece).
pub(super) struct Axis {
    /// The one-cell step in voxel coordinates.
    pub(super) step: [i32; 3],
    /// The cells that must be empty for one step, for a voxel of kind 0
    /// and of kind 1 (prisms: `x + y` even, pointing up, and odd).
    checks: [&'static [[i32; 3]]; 2],
    line: Line,
    /// A coordinate that grows by `gain` with every step, for the
    /// distance that takes removed pieces clear of the rest.
    pub(super) along: usize,
    pub(super) gain: i32,
}

const CUBE_X: &[[i32; 3]] = &[[1, 0, 0]];
const CUBE_Y: &[[i32; 3]] = &[[0, 1, 0]];
const CUBE_Z: &[[i32; 3]] = &[[0, 0, 1]];
const PRISM_ROW: &[[i32; 3]] = &[[1, 0, 0], [2, 0, 0]];
const PRISM_RISING_UP: &[[i32; 3]] = &[[1, 0, 0], [1, 1, 0]];
const PRISM_RISING_DOWN: &[[i32; 3]] = &[[0, 1, 0], [1, 1, 0]];
const PRISM_FALLING_UP: &[[i32; 3]] = &[[-1, 0, 0], [-1, 1, 0]];
const PRISM_FALLING_DOWN: &[[i32; 3]] = &[[0, 1, 0], [-1, 1, 0]];

/// Cubes: `x`, `y`, `z`, in BurrTools' order (`movementcache_0.cpp`).
pub(super) const CUBES: [Axis; 3] = [
    Axis {
        step: [1, 0, 0],
        checks: [CUBE_X, CUBE_X],
        line: Line::X,
        along: 0,
        gain: 1,
    },
    Axis {
        step: [0, 1, 0],
        checks: [CUBE_Y, CUBE_Y],
        line: Line::Y,
        along: 1,
        gain: 1,
    },
    Axis {
        step: [0, 0, 1],
        checks: [CUBE_Z, CUBE_Z],
        line: Line::Z,
        along: 2,
        gain: 1,
    },
];

/// Prisms: up a layer, along the row, and the two slanting rows, in
/// BurrTools' order (`movementcache_1.cpp`).
pub(super) const PRISMS: [Axis; 4] = [
    Axis {
        step: [0, 0, 1],
        checks: [CUBE_Z, CUBE_Z],
        line: Line::Z,
        along: 2,
        gain: 1,
    },
    Axis {
        step: [2, 0, 0],
        checks: [PRISM_ROW, PRISM_ROW],
        line: Line::Row,
        along: 0,
        gain: 2,
    },
    Axis {
        step: [1, 1, 0],
        checks: [PRISM_RISING_UP, PRISM_RISING_DOWN],
        line: Line::Rising,
        along: 1,
        gain: 1,
    },
    Axis {
        step: [-1, 1, 0],
        checks: [PRISM_FALLING_UP, PRISM_FALLING_DOWN],
        line: Line::Falling,
        along: 1,
        gain: 1,
    },
];

/// The most directions a grid has (prisms' four).
pub(super) const MAX_AXES: usize = 4;

/// A quick multiplicative hasher for the tables of this module and the
/// search's (keys are small integers; no input chooses them adversarially
/// beyond what the bounds on states allow).
#[derive(Default, Clone, Copy)]
pub(super) struct MixHasher(u64);

const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(MIX);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_i32(&mut self, x: i32) {
        self.write_u64(u64::from(x as u32));
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

pub(super) type Mix = BuildHasherDefault<MixHasher>;

/// A piece whose bounding box has at most this many cells, or at most
/// [`DENSE_FACTOR`] times its voxels, gets a table of its box (else its
/// voxels are filed by line, slower and smaller): the tables are bounded by
/// the input's own size.
const DENSE_LIMIT: i64 = 1 << 12;
const DENSE_FACTOR: i64 = 8;

/// Where a piece's voxels lie ahead of any cell, per direction.
enum Ahead {
    /// Over the piece's bounding box `lo..=hi`: for each cell and
    /// direction the steps to the first voxel of the piece on the way, or
    /// [`FREE`].
    Dense {
        lo: [i32; 3],
        dims: [i32; 3],
        next: Vec<Vec<u32>>,
    },
    /// Per direction, the positions of the voxels along every line,
    /// sorted.
    Lines(Vec<HashMap<[i32; 3], Vec<i32>, Mix>>),
}

/// One shape: the cells its slides must find empty, and where its voxels
/// lie ahead of a cell.
pub(super) struct Shape {
    /// Per direction, the checked cells of its voxels (`voxel + check`)
    /// that can be the first to meet another piece: a check of `v` is
    /// left out when `v + step` and the checked cell are both the
    /// piece's own, since `v + step` then meets whatever `v` would, a step
    /// sooner.
    probes: Vec<Vec<[i32; 3]>>,
    ahead: Ahead,
}

fn plus(a: [i32; 3], b: [i32; 3]) -> [i32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Which cells a shape holds: a bitmap of its bounding box when that is
/// small enough to tabulate, else a hash set.
enum Own {
    Box {
        lo: [i32; 3],
        dims: [i32; 3],
        bits: Vec<u64>,
    },
    Set(std::collections::HashSet<[i32; 3], Mix>),
}

impl Own {
    fn new(voxels: &[[i32; 3]], lo: [i32; 3], dims: [i32; 3], dense: bool) -> Own {
        if !dense {
            return Own::Set(voxels.iter().copied().collect());
        }
        let size = (dims[0] * dims[1] * dims[2]) as usize;
        let mut own = Own::Box {
            lo,
            dims,
            bits: vec![0; size.div_ceil(64)],
        };
        if let Own::Box { bits, .. } = &mut own {
            for &v in voxels {
                let i = box_index(v, lo, dims).expect("a voxel is in its box");
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        own
    }

    fn contains(&self, p: [i32; 3]) -> bool {
        match self {
            Own::Box { lo, dims, bits } => {
                box_index(p, *lo, *dims).is_some_and(|i| bits[i / 64] >> (i % 64) & 1 == 1)
            }
            Own::Set(set) => set.contains(&p),
        }
    }
}

/// The place of `p` in the box `lo + [0, dims)`, x fastest, if inside.
fn box_index(p: [i32; 3], lo: [i32; 3], dims: [i32; 3]) -> Option<usize> {
    let q = [p[0] - lo[0], p[1] - lo[1], p[2] - lo[2]];
    (0..3)
        .all(|c| q[c] >= 0 && q[c] < dims[c])
        .then(|| ((q[2] * dims[1] + q[1]) * dims[0] + q[0]) as usize)
}

impl Shape {
    pub(super) fn new(voxels: &[[i32; 3]], axes: &[Axis], prisms: bool) -> Shape {
        let mut lo = voxels[0];
        let mut hi = voxels[0];
        for v in voxels {
            for c in 0..3 {
                lo[c] = lo[c].min(v[c]);
                hi[c] = hi[c].max(v[c]);
            }
        }
        let dims = [hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1];
        let volume = dims.iter().map(|&d| i64::from(d)).product::<i64>();
        let dense = volume <= DENSE_LIMIT.max(DENSE_FACTOR * voxels.len() as i64);
        let own = Own::new(voxels, lo, dims, dense);
        let probes = axes
            .iter()
            .map(|axis| {
                let mut list = Vec::new();
                for &v in voxels {
                    let kind = if prisms {
                        (v[0] + v[1]).rem_euclid(2) as usize
                    } else {
                        0
                    };
                    let next_own = own.contains(plus(v, axis.step));
                    for &c in axis.checks[kind] {
                        let cell = plus(v, c);
                        if !(next_own && own.contains(cell)) {
                            list.push(cell);
                        }
                    }
                }
                list
            })
            .collect();
        let ahead = if dense {
            Ahead::Dense {
                lo,
                dims,
                next: axes
                    .iter()
                    .map(|axis| self::dense(&own, lo, dims, axis))
                    .collect(),
            }
        } else {
            Ahead::Lines(
                axes.iter()
                    .map(|axis| {
                        let mut map: HashMap<[i32; 3], Vec<i32>, Mix> = HashMap::default();
                        for &v in voxels {
                            let (key, pos) = axis.line.place(v);
                            map.entry(key).or_default().push(pos);
                        }
                        for list in map.values_mut() {
                            list.sort_unstable();
                        }
                        map
                    })
                    .collect(),
            )
        };
        Shape { probes, ahead }
    }

    /// The steps from `cell` (in this piece's frame) along `axis` to the
    /// first of its voxels, or [`FREE`].
    fn steps_to(&self, cell: [i32; 3], axis: &Axis, index: usize) -> u32 {
        match &self.ahead {
            Ahead::Dense { lo, dims, next } => dense_steps(
                [cell[0] - lo[0], cell[1] - lo[1], cell[2] - lo[2]],
                *dims,
                axis.step,
                &next[index],
            ),
            Ahead::Lines(lines) => {
                let (key, pos) = axis.line.place(cell);
                let Some(list) = lines[index].get(&key) else {
                    return FREE;
                };
                let at = list.partition_point(|&p| p < pos);
                // p >= pos, and both are within the coordinates' bounds
                list.get(at).map_or(FREE, |&p| (p - pos) as u32)
            }
        }
    }
}

/// For every cell of the box `lo + [0, dims)`, the steps along `axis` to
/// the first voxel of `own`, or [`FREE`].
fn dense(own: &Own, lo: [i32; 3], dims: [i32; 3], axis: &Axis) -> Vec<u32> {
    let size = (dims[0] * dims[1] * dims[2]) as usize;
    let mut next = vec![FREE; size];
    // cells further along come first: the step raises coordinate `along`
    let along = axis.along;
    for t in (0..dims[along]).rev() {
        for a in 0..dims[(along + 1) % 3] {
            for b in 0..dims[(along + 2) % 3] {
                let mut q = [0; 3];
                q[along] = t;
                q[(along + 1) % 3] = a;
                q[(along + 2) % 3] = b;
                let p = plus(q, lo);
                let i = ((q[2] * dims[1] + q[1]) * dims[0] + q[0]) as usize;
                next[i] = if own.contains(p) {
                    0
                } else {
                    match box_index(plus(p, axis.step), lo, dims).map(|j| next[j]) {
                        Some(d) if d != FREE => d + 1,
                        _ => FREE,
                    }
                };
            }
        }
    }
    next
}

/// How many steps `a` slides along `axis` (positive sense) before a voxel
/// of `b` is in its way, `b` lying `shift` further than `a` (offset of `b`
/// minus offset of `a`), or [`FREE`].
fn distance(a: &Shape, b: &Shape, shift: [i32; 3], axis: &Axis, index: usize) -> u32 {
    let probes = &a.probes[index];
    let mut best = FREE;
    match &b.ahead {
        // the table looked at once, not for every probe
        Ahead::Dense { lo, dims, next } => {
            let next = &next[index];
            let base = [shift[0] + lo[0], shift[1] + lo[1], shift[2] + lo[2]];
            for u in probes {
                let cell = [u[0] - base[0], u[1] - base[1], u[2] - base[2]];
                best = best.min(dense_steps(cell, *dims, axis.step, next));
                if best == 0 {
                    break;
                }
            }
        }
        Ahead::Lines(_) => {
            for u in probes {
                let cell = [u[0] - shift[0], u[1] - shift[1], u[2] - shift[2]];
                best = best.min(b.steps_to(cell, axis, index));
                if best == 0 {
                    break;
                }
            }
        }
    }
    best
}

/// The steps from `u` (relative to the corner of a box of `dims`) along
/// `step` to the first voxel of a shape whose table over that box is
/// `next`, or [`FREE`]: the first step at which the way is inside the box,
/// and the table's count from there.
#[inline(always)]
fn dense_steps(u: [i32; 3], dims: [i32; 3], step: [i32; 3], next: &[u32]) -> u32 {
    // 0 <= u + k step <= top on every coordinate, k >= 0 (the parts are
    // within +-2^21: no overflow)
    let (mut first, mut last) = (0i32, i32::MAX);
    for c in 0..3 {
        let (v, top) = (u[c], dims[c] - 1);
        match step[c] {
            0 if v < 0 || v > top => return FREE,
            0 => {}
            // every step but the prisms' row: no division
            1 => (first, last) = (first.max(-v), last.min(top - v)),
            -1 => (first, last) = (first.max(v - top), last.min(v)),
            s => {
                let (a, b) = if s > 0 { (-v, top - v) } else { (v - top, v) };
                let m = s.abs();
                first = first.max(a.div_euclid(m) + i32::from(a.rem_euclid(m) != 0));
                last = last.min(b.div_euclid(m));
            }
        }
    }
    if first > last {
        return FREE;
    }
    let at = [
        u[0] + first * step[0],
        u[1] + first * step[1],
        u[2] + first * step[2],
    ];
    let i = ((at[2] * dims[1] + at[1]) * dims[0] + at[0]) as usize;
    match next[i] {
        FREE => FREE,
        d => d + first as u32,
    }
}

/// The distances of a pair in every direction: `[i slides past j along
/// axis 0, 1, ..., j slides past i along axis 0, 1, ...]`.
pub(super) type PairDistances = [u32; 2 * MAX_AXES];

/// Entries the cache holds before it starts again (a few tens of
/// megabytes).
const CACHE_LIMIT: usize = 1 << 19;

/// Shapes kept before the registry starts again, and their voxels.
const SHAPE_LIMIT: usize = 1 << 12;
const SHAPE_VOXEL_LIMIT: usize = 1 << 22;

/// The pieces' shapes met so far, each its voxels moved so that its
/// bounding box starts at the origin (on prisms at a cell with `x + y`
/// even, so that every voxel keeps its kind), and the blocking distances of
/// pairs of them by their relative place, kept from one assembly to the
/// next as BurrTools keeps its movement cache for a whole problem.
pub(super) struct Library {
    pub(super) shapes: Vec<Shape>,
    ids: HashMap<Vec<[i32; 3]>, u32, Mix>,
    /// A list to put a shape in before looking it up.
    buffer: Vec<[i32; 3]>,
    voxels: usize,
    /// Counts the times [`Library::clear`] ran.
    generation: u64,
    /// Keyed by the two shapes (`first <= second`) and the place of the
    /// second's origin relative to the first's.
    cache: HashMap<(u32, u32, u64), PairDistances, Mix>,
}

impl Library {
    pub(super) fn new() -> Library {
        Library {
            shapes: Vec::new(),
            ids: HashMap::default(),
            buffer: Vec::new(),
            voxels: 0,
            generation: 0,
            // room for a small puzzle's pairs at once (a table grown
            // from empty rehashed itself a tenth of the time of taking
            // CubeInCage's assemblies apart)
            cache: HashMap::with_capacity_and_hasher(1 << 12, Mix::default()),
        }
    }

    /// How many times it forgot everything.
    pub(super) fn generation(&self) -> u64 {
        self.generation
    }

    /// Forget everything (another grid, or too much kept).
    pub(super) fn clear(&mut self) {
        self.generation += 1;
        self.shapes.clear();
        self.ids.clear();
        self.voxels = 0;
        self.cache.clear();
    }

    /// Room for `pieces` more shapes of `voxels` voxels in all.
    pub(super) fn make_room(&mut self, pieces: usize, voxels: usize) {
        if self.shapes.len() + pieces > SHAPE_LIMIT || self.voxels + voxels > SHAPE_VOXEL_LIMIT {
            self.clear();
        }
    }

    /// The shape of a placed piece and where its origin lies.
    pub(super) fn shape_of(
        &mut self,
        voxels: &[[i32; 3]],
        axes: &[Axis],
        prisms: bool,
    ) -> (u32, [i32; 3]) {
        let mut lo = voxels[0];
        for v in voxels {
            for c in 0..3 {
                lo[c] = lo[c].min(v[c]);
            }
        }
        if prisms && (lo[0] + lo[1]).rem_euclid(2) == 1 {
            lo[0] -= 1;
        }
        // the shape in a list kept for the purpose (most shapes are met
        // before: nothing is allocated for them)
        let mut own = std::mem::take(&mut self.buffer);
        own.clear();
        own.extend(
            voxels
                .iter()
                .map(|v| [v[0] - lo[0], v[1] - lo[1], v[2] - lo[2]]),
        );
        if !own.is_sorted() {
            own.sort_unstable();
        }
        own.dedup();
        if let Some(&id) = self.ids.get(&own[..]) {
            self.buffer = own;
            return (id, lo);
        }
        let id = self.shapes.len() as u32;
        self.voxels += own.len();
        self.shapes.push(Shape::new(&own, axes, prisms));
        self.ids.insert(own, id);
        (id, lo)
    }

    /// The distances of two shapes, the second lying `shift` from the
    /// first.
    pub(super) fn distances(
        &mut self,
        axes: &[Axis],
        a: u32,
        b: u32,
        shift: [i32; 3],
    ) -> PairDistances {
        if a > b {
            let d = self.distances(axes, b, a, [-shift[0], -shift[1], -shift[2]]);
            let mut swapped = [FREE; 2 * MAX_AXES];
            swapped[..MAX_AXES].copy_from_slice(&d[MAX_AXES..]);
            swapped[MAX_AXES..].copy_from_slice(&d[..MAX_AXES]);
            return swapped;
        }
        // the shift's parts are within +-2^19 (origins and offsets within
        // +-2^16 each)
        let key = shift
            .iter()
            .fold(0u64, |k, &s| (k << 21) | u64::from((s + (1 << 20)) as u32));
        if let Some(d) = self.cache.get(&(a, b, key)) {
            return *d;
        }
        let mut d = [FREE; 2 * MAX_AXES];
        let back = [-shift[0], -shift[1], -shift[2]];
        let (sa, sb) = (&self.shapes[a as usize], &self.shapes[b as usize]);
        for (k, axis) in axes.iter().enumerate() {
            d[k] = distance(sa, sb, shift, axis, k);
            d[MAX_AXES + k] = distance(sb, sa, back, axis, k);
        }
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache.insert((a, b, key), d);
        d
    }
}
