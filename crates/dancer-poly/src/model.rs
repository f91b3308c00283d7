//! A puzzle as exact cover, its symmetries, and the search.
//!
//! # The exact cover problem
//!
//! Items: every board cell (primary), and for each piece type one primary
//! item, to be covered as many times as the piece is to be used: exactly
//! once, exactly `k` times, or between `a` and `b` times (multiplicities, as
//! in Knuth's DLX3); none when any number may be used, or when there is one
//! piece type only (then the board's cells alone say when it is full).
//! Options: every placement of every piece (each orientation its group
//! allows, at every position where it fits). Copies of a piece are never
//! numbered, so identical pieces are never told apart and nothing is
//! counted twice.
//!
//! # Symmetry
//!
//! The puzzle's symmetries are the board's symmetries that map the piece
//! set onto itself (a reflection maps a one-sided piece to its mirror
//! image, which must be a piece of the same count). Two ways to count up to
//! symmetry, cross-checked in the tests:
//!
//! * **canonical forms**: search everything; a solution is the
//!   representative of its class when no symmetry maps it to a smaller one
//!   (solutions compared as cell-by-cell labellings);
//! * **symmetry breaking**: restrict one piece's placements (as Knuth
//!   restricts the X pentomino) or the placements that cover one cell (as
//!   the corner piece of a cube) to one per orbit, so that every class still
//!   has a member in the smaller search; then keep a found solution only if
//!   no symmetry maps it to a smaller one that the restricted search could
//!   also have found. Each kept solution stands for `|G| / |stabiliser|`
//!   solutions, which gives the total without searching for it.

use crate::puzzle::{Count, Piece, Puzzle};
use crate::render::Tiling;
use dancer_core::{EngineKind, Problem, ProblemBuilder};
use dancer_formats::ndjson::{PiecePlacement, PolyRecord};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A piece placed on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Index of the piece type in the puzzle.
    pub piece: usize,
    /// Board cell indices, sorted.
    pub cells: Vec<usize>,
}

/// A symmetry of the puzzle.
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// Board cell `i` goes to `perm[i]`.
    pub perm: Vec<usize>,
    /// Piece type `p` goes to `sigma[p]`.
    pub sigma: Vec<usize>,
    pub transform: crate::geometry::Transform,
}

/// What the symmetry breaking restricts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Restriction {
    /// The placements of this piece type (used exactly once).
    Piece(usize),
    /// The placements covering this board cell.
    Cell(usize),
}

/// How to search.
#[derive(Clone, Debug)]
pub struct Options {
    /// The engine; `Auto` (the default) is [`dancer_core::choose_engine`]'s
    /// pick for the exact cover problem. An engine that cannot take the
    /// problem (the bitset engine with pieces used several times, which
    /// make multiplicities) is refused, not replaced.
    pub engine: EngineKind,
    /// Break symmetry before the search (else canonicalise every solution).
    pub symmetry_breaking: bool,
    /// Stop after this many solutions (counted as reported: unique ones with
    /// `unique`, all otherwise).
    pub limit: Option<u64>,
    /// Report only one solution per symmetry class.
    pub unique: bool,
    pub cancel: Option<Arc<AtomicBool>>,
    /// Worker threads (1: the plain sequential search). The solutions reach
    /// `emit` in the same order either way.
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: EngineKind::Auto,
            symmetry_breaking: true,
            limit: None,
            unique: false,
            cancel: None,
            threads: 1,
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// All solutions.
    pub total: u64,
    /// Solutions up to symmetry.
    pub unique: u64,
    /// Search nodes (of the engine's tree).
    pub nodes: u64,
    pub complete: bool,
    /// The engine that ran.
    pub engine: Option<EngineKind>,
}

/// A puzzle ready to search.
pub struct Model {
    pub puzzle: Puzzle,
    pub placements: Vec<Placement>,
    index: HashMap<Placement, usize>,
    pub symmetries: Vec<Symmetry>,
    /// Per piece: its item's bounds (least, most), or None when it has no
    /// item.
    copies: Vec<Option<(u32, u32)>>,
}

/// An exact cover problem built from a model, with its restriction.
pub struct Cover {
    pub problem: Problem,
    /// Option -> (placement, 0).
    pub options: Vec<(u32, u32)>,
    pub restriction: Option<(Restriction, Vec<bool>)>,
}

impl Model {
    pub fn new(puzzle: Puzzle) -> Result<Self, crate::puzzle::PuzzleError> {
        puzzle.check()?;
        let board = &puzzle.board;
        let mut placements = Vec::new();
        for (pi, p) in puzzle.pieces.iter().enumerate() {
            let before = placements.len();
            for o in crate::geometry::orientations(&p.cells, &puzzle.piece_group(p)) {
                for &b in &board.cells {
                    let shift = [b[0] - o[0][0], b[1] - o[0][1], b[2] - o[0][2]];
                    let cells: Option<Vec<usize>> = o
                        .iter()
                        .map(|c| board.index(&[c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]]))
                        .collect();
                    if let Some(mut cells) = cells {
                        cells.sort_unstable();
                        placements.push(Placement { piece: pi, cells });
                    }
                }
            }
            if placements.len() == before && !matches!(p.count, Count::Any | Count::Between(0, _)) {
                return Err(crate::puzzle::PuzzleError::FitsNowhere(p.name.clone()));
            }
        }
        let index: HashMap<Placement, usize> = placements
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, p)| (p, i))
            .collect();
        let symmetries = puzzle_symmetries(&puzzle);
        let copies = Vec::new();
        let mut m = Model {
            puzzle,
            placements,
            index,
            symmetries,
            copies,
        };
        m.copies = m.copy_items();
        Ok(m)
    }

    fn copy_items(&self) -> Vec<Option<(u32, u32)>> {
        if self.puzzle.pieces.len() == 1 {
            // One piece type: the board's area fixes the number of copies
            // (checked before), so no item is needed.
            return vec![None];
        }
        self.puzzle
            .pieces
            .iter()
            .map(|p| match p.count {
                Count::Exactly(0) => Some((0, 0)),
                Count::Exactly(k) => Some((k, k)),
                Count::Between(a, b) => Some((a, b)),
                Count::Any => None,
            })
            .collect()
    }

    /// The best restriction: the one that leaves the fewest placements to
    /// try, relative to how many it had.
    pub fn choose_restriction(&self) -> Option<(Restriction, Vec<bool>)> {
        if self.symmetries.len() <= 1 {
            return None;
        }
        let mut best: Option<(f64, Restriction, Vec<bool>)> = None;
        let mut consider = |r: Restriction, group: Vec<usize>, members: Vec<usize>| {
            if members.is_empty() || group.len() <= 1 {
                return;
            }
            let mut keep = vec![false; self.placements.len()];
            let mut reps = 0;
            for &q in &members {
                // q is a representative if no symmetry of the subgroup maps
                // it to a smaller placement
                let rep = group.iter().all(|&g| self.image_placement(g, q) >= q);
                if rep {
                    keep[q] = true;
                    reps += 1;
                }
            }
            let gain = members.len() as f64 / reps as f64;
            if best.as_ref().is_none_or(|b| gain > b.0) {
                best = Some((gain, r, keep));
            }
        };
        let all: Vec<usize> = (0..self.symmetries.len()).collect();
        for (pi, p) in self.puzzle.pieces.iter().enumerate() {
            if p.count == Count::Exactly(1) && self.symmetries.iter().all(|s| s.sigma[pi] == pi) {
                let members: Vec<usize> = (0..self.placements.len())
                    .filter(|&q| self.placements[q].piece == pi)
                    .collect();
                consider(Restriction::Piece(pi), all.clone(), members);
            }
        }
        for c in 0..self.puzzle.board.len() {
            let group: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&g| self.symmetries[g].perm[c] == c)
                .collect();
            let members: Vec<usize> = (0..self.placements.len())
                .filter(|&q| self.placements[q].cells.binary_search(&c).is_ok())
                .collect();
            consider(Restriction::Cell(c), group, members);
        }
        best.map(|(_, r, k)| (r, k))
    }

    /// The placement that symmetry `g` maps placement `q` to.
    pub fn image_placement(&self, g: usize, q: usize) -> usize {
        let s = &self.symmetries[g];
        let p = &self.placements[q];
        let mut cells: Vec<usize> = p.cells.iter().map(|&c| s.perm[c]).collect();
        cells.sort_unstable();
        let img = Placement {
            piece: s.sigma[p.piece],
            cells,
        };
        *self
            .index
            .get(&img)
            .expect("symmetries map placements to placements")
    }

    /// The exact cover problem, with symmetry breaking or without.
    pub fn cover(&self, symmetry_breaking: bool) -> Cover {
        let restriction = if symmetry_breaking {
            self.choose_restriction()
        } else {
            None
        };
        let mut b = ProblemBuilder::new();
        for c in &self.puzzle.board.cells {
            let name = if self.puzzle.board.dim == 2 {
                format!("{}.{}", c[0], c[1])
            } else {
                format!("{}.{}.{}", c[0], c[1], c[2])
            };
            b.primary(&name).expect("fresh");
        }
        let mut piece_item = vec![usize::MAX; self.puzzle.pieces.len()];
        for (pi, p) in self.puzzle.pieces.iter().enumerate() {
            match self.copies[pi] {
                None | Some((_, 0)) => {}
                Some((1, 1)) => piece_item[pi] = b.primary(&p.name).expect("fresh"),
                Some((lo, hi)) => {
                    piece_item[pi] = b.primary_bounded(&p.name, lo, hi).expect("fresh")
                }
            }
        }
        let mut options = Vec::new();
        for (q, pl) in self.placements.iter().enumerate() {
            if let Some((_, keep)) = &restriction {
                let restricted = match restriction.as_ref().unwrap().0 {
                    Restriction::Piece(pi) => pl.piece == pi,
                    Restriction::Cell(c) => pl.cells.binary_search(&c).is_ok(),
                };
                if restricted && !keep[q] {
                    continue;
                }
            }
            if self.copies[pl.piece] == Some((0, 0)) {
                continue; // a piece not to be used
            }
            let mut entries: Vec<(usize, u32)> = pl.cells.iter().map(|&c| (c, 0)).collect();
            if piece_item[pl.piece] != usize::MAX {
                entries.push((piece_item[pl.piece], 0));
            }
            b.option_ids(entries).expect("valid");
            options.push((q as u32, 0));
        }
        Cover {
            problem: b.build().expect("has cells"),
            options,
            restriction,
        }
    }

    /// The labelling of the board by a set of placements: for each cell,
    /// (piece type, smallest cell of its placement).
    fn labels(&self, sol: &[usize], g: Option<usize>, out: &mut Vec<(u32, u32)>) {
        out.clear();
        out.resize(self.puzzle.board.len(), (u32::MAX, u32::MAX));
        for &q in sol {
            let p = &self.placements[q];
            let (piece, cells): (usize, Vec<usize>) = match g {
                None => (p.piece, p.cells.clone()),
                Some(g) => {
                    let s = &self.symmetries[g];
                    (
                        s.sigma[p.piece],
                        p.cells.iter().map(|&c| s.perm[c]).collect(),
                    )
                }
            };
            let lo = *cells.iter().min().unwrap() as u32;
            for c in cells {
                out[c] = (piece as u32, lo);
            }
        }
    }

    /// Is `sol` the representative of its class, for a search with this
    /// restriction (None: the full search)? And its class size.
    pub fn classify(
        &self,
        sol: &[usize],
        restriction: Option<&(Restriction, Vec<bool>)>,
    ) -> (bool, u64) {
        let mut mine = Vec::new();
        let mut other = Vec::new();
        self.labels(sol, None, &mut mine);
        let mut stab = 0u64;
        let mut rep = true;
        for g in 0..self.symmetries.len() {
            self.labels(sol, Some(g), &mut other);
            if other == mine {
                stab += 1;
                continue;
            }
            if !rep || other > mine {
                continue;
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

    /// Searches, sending each solution (as placements) to `emit`, which
    /// returns false to stop.
    pub fn solve(
        &self,
        opts: &Options,
        mut emit: impl FnMut(&[usize]) -> bool,
    ) -> Result<Counts, dancer_core::EngineError> {
        let cover = self.cover(opts.symmetry_breaking);
        let kind = opts.engine.resolve(&cover.problem)?;
        if opts.threads > 1 {
            return self.solve_threads(opts, &cover, kind, emit);
        }
        let mut engine = kind.build(&cover.problem)?;
        if let Some(c) = &opts.cancel {
            engine.set_cancel(c.clone());
        }
        let mut counts = Counts::default();
        let mut stopped = false;
        let mut sol: Vec<usize> = Vec::new();
        while let Some(options) = engine.next_solution() {
            if self.take(opts, &cover, options, &mut sol, &mut counts, &mut emit) {
                stopped = true;
                break;
            }
        }
        counts.nodes = engine.stats().nodes;
        counts.engine = Some(kind);
        counts.complete = !stopped && engine.is_complete();
        Ok(counts)
    }

    /// The search on `opts.threads` workers: the tree is cut into units
    /// (see `dancer_core::parallel`), their solutions come back in the
    /// sequential order and are classified and emitted here, on the
    /// calling thread.
    fn solve_threads(
        &self,
        opts: &Options,
        cover: &Cover,
        kind: EngineKind,
        mut emit: impl FnMut(&[usize]) -> bool,
    ) -> Result<Counts, dancer_core::EngineError> {
        use dancer_core::parallel::{self, Observer, Progress, RunConfig, UnitResult};
        use std::sync::atomic::Ordering;
        use std::sync::mpsc;
        use std::sync::Mutex;

        /// Sends each unit's solutions to the thread that emits them, and
        /// passes the caller's cancellation on to the run.
        struct Forward<'a> {
            tx: Mutex<mpsc::Sender<Vec<Vec<usize>>>>,
            user: Option<&'a AtomicBool>,
            halt: &'a AtomicBool,
        }
        impl Observer for Forward<'_> {
            fn unit(&self, r: &UnitResult) {
                // the receiver only goes away once the run has ended
                let _ = self.tx.lock().unwrap().send(r.solutions.clone());
            }
            fn progress(&self, _p: &Progress) {
                if self.user.is_some_and(|u| u.load(Ordering::Relaxed)) {
                    self.halt.store(true, Ordering::Relaxed);
                }
            }
        }

        let plan = parallel::plan_for(
            &cover.problem,
            kind,
            opts.threads,
            parallel::Purpose::Threads,
        )?;
        let selected: Vec<usize> = (0..plan.units.len()).collect();
        let halt = Arc::new(AtomicBool::new(false));
        let cfg = RunConfig {
            engine: kind,
            threads: opts.threads,
            ordered: true,
            limit: None,
            cancel: Some(halt.clone()),
            keep: true,
            tick: std::time::Duration::from_millis(100),
        };
        let (tx, rx) = mpsc::channel();
        let observer = Forward {
            tx: Mutex::new(tx),
            user: opts.cancel.as_deref(),
            halt: &halt,
        };
        let mut counts = Counts::default();
        let mut stopped = false;
        let mut sol: Vec<usize> = Vec::new();
        let summary = std::thread::scope(|scope| {
            let run = scope.spawn(|| {
                let r = parallel::run(&cover.problem, &plan, &selected, &cfg, &observer);
                // ends the receiving loop below
                drop(observer);
                r
            });
            for unit in rx {
                if stopped {
                    continue;
                }
                for options in &unit {
                    if self.take(opts, cover, options, &mut sol, &mut counts, &mut emit) {
                        stopped = true;
                        halt.store(true, Ordering::Relaxed);
                        break;
                    }
                }
            }
            run.join().expect("the search thread does not panic")
        })?;
        counts.nodes = plan.top.nodes + summary.stats.nodes;
        counts.engine = Some(kind);
        counts.complete = !stopped && summary.complete;
        Ok(counts)
    }

    /// Classifies one solution of the cover (its options), counts it and
    /// emits it (or its class). True when the search is to stop.
    fn take(
        &self,
        opts: &Options,
        cover: &Cover,
        options: &[dancer_core::OptionId],
        sol: &mut Vec<usize>,
        counts: &mut Counts,
        emit: &mut impl FnMut(&[usize]) -> bool,
    ) -> bool {
        let restriction = cover.restriction.as_ref();
        let mut stopped = false;
        {
            sol.clear();
            sol.extend(options.iter().map(|&o| cover.options[o].0 as usize));
            sol.sort_unstable();
            let (rep, size) = self.classify(sol, restriction);
            if restriction.is_some() {
                if !rep {
                    return false;
                }
                counts.unique += 1;
                counts.total += size;
                if opts.unique {
                    if !emit(sol) {
                        stopped = true;
                    }
                } else {
                    for img in self.class_of(sol) {
                        if !emit(&img) {
                            stopped = true;
                            break;
                        }
                    }
                }
            } else {
                counts.total += 1;
                if rep {
                    counts.unique += 1;
                }
                if (!opts.unique || rep) && !emit(sol) {
                    stopped = true;
                }
            }
        }
        let reported = if opts.unique {
            counts.unique
        } else {
            counts.total
        };
        stopped || opts.limit.is_some_and(|l| reported >= l)
    }

    /// A solution as an NDJSON record: each placement's piece and cells
    /// (`[x, y]`, or `[x, y, z]` for solids). `number` is 1-based.
    pub fn solution_record(&self, number: u64, sol: &[usize]) -> PolyRecord {
        let board = &self.puzzle.board;
        let placements = sol
            .iter()
            .map(|&q| {
                let pl = &self.placements[q];
                let cells = pl
                    .cells
                    .iter()
                    .map(|&c| {
                        let c = board.cells[c];
                        if board.dim == 2 {
                            vec![c[0], c[1]]
                        } else {
                            c.to_vec()
                        }
                    })
                    .collect();
                PiecePlacement {
                    piece: self.puzzle.pieces[pl.piece].name.clone(),
                    cells,
                }
            })
            .collect();
        PolyRecord::Solution { number, placements }
    }

    /// The summary record of a search that gave `counts` in `seconds`.
    pub fn summary_record(&self, counts: &Counts, seconds: f64) -> PolyRecord {
        PolyRecord::Summary {
            solutions: counts.total,
            unique: counts.unique,
            nodes: counts.nodes,
            complete: counts.complete,
            seconds,
            symmetries: self.symmetries.len(),
        }
    }

    /// A solution as a picture's input. Pieces are coloured by type, so
    /// that a piece looks the same in every solution; when a type is used
    /// more than once (25 Y pentacubes), by placement instead, so that the
    /// copies can be told apart.
    pub fn tiling(&self, sol: &[usize], title: Option<String>) -> Tiling {
        let mut uses = vec![0usize; self.puzzle.pieces.len()];
        for &q in sol {
            uses[self.placements[q].piece] += 1;
        }
        let per_placement = uses.iter().any(|&u| u > 1);
        let mut cells = Vec::new();
        let mut names = Vec::new();
        for (k, &q) in sol.iter().enumerate() {
            let p = &self.placements[q];
            let colour = if per_placement {
                names.push(self.puzzle.pieces[p.piece].name.clone());
                k as u32
            } else {
                p.piece as u32
            };
            for &c in &p.cells {
                cells.push((self.puzzle.board.cells[c], k as u32, colour));
            }
        }
        if !per_placement {
            names = self.puzzle.pieces.iter().map(|p| p.name.clone()).collect();
        }
        cells.sort();
        Tiling {
            dim: self.puzzle.board.dim,
            cells,
            pieces: names,
            title,
        }
    }

    /// A solution as text: one character per cell (the piece's name when it
    /// is one character, else a letter per placement), layers side by side.
    pub fn ascii(&self, sol: &[usize]) -> String {
        let b = &self.puzzle.board;
        let [w, h, d] = b.extent();
        let single = self
            .puzzle
            .pieces
            .iter()
            .all(|p| p.name.chars().count() == 1)
            && self
                .puzzle
                .pieces
                .iter()
                .all(|p| p.count == Count::Exactly(1));
        let mut at = vec![' '; (w * h * d) as usize];
        for (k, &q) in sol.iter().enumerate() {
            let p = &self.placements[q];
            let ch = if single {
                self.puzzle.pieces[p.piece].name.chars().next().unwrap()
            } else {
                let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
                alphabet[k % alphabet.len()] as char
            };
            for &c in &p.cells {
                let [x, y, z] = b.cells[c];
                at[((z * h + y) * w + x) as usize] = ch;
            }
        }
        let mut out = String::new();
        for y in 0..h {
            let mut line = String::new();
            for z in 0..d {
                if z > 0 {
                    line.push_str("   ");
                }
                for x in 0..w {
                    let i = ((z * h + y) * w + x) as usize;
                    let inside = b.index(&[x, y, z]).is_some();
                    line.push(if inside { at[i] } else { '.' });
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// The puzzle's symmetries (see the module documentation).
fn puzzle_symmetries(puzzle: &Puzzle) -> Vec<Symmetry> {
    let keys: Vec<(Vec<crate::geometry::Cell>, &Piece)> = puzzle
        .pieces
        .iter()
        .map(|p| (crate::puzzle::piece_key(p, &puzzle.piece_group(p)), p))
        .collect();
    let mut out = Vec::new();
    'sym: for (t, perm) in puzzle.board.symmetries() {
        let mut sigma = Vec::new();
        for p in &puzzle.pieces {
            let moved: Vec<_> = p.cells.iter().map(|&c| t.apply(c)).collect();
            let key = crate::geometry::canonical(&moved, &puzzle.piece_group(p));
            let same = |(k, q): &(Vec<crate::geometry::Cell>, &Piece)| {
                *k == key && q.count == p.count && q.one_sided == p.one_sided
            };
            // a piece maps to itself when it can (identical pieces listed
            // separately would otherwise both map to the first)
            let me = puzzle
                .pieces
                .iter()
                .position(|x| std::ptr::eq(x, p))
                .unwrap();
            let q = if same(&keys[me]) {
                Some(me)
            } else {
                keys.iter().position(same)
            };
            match q {
                Some(q) => sigma.push(q),
                None => continue 'sym,
            }
        }
        out.push(Symmetry {
            perm,
            sigma,
            transform: t,
        });
    }
    out
}
