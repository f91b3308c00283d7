//! Every NDJSON record `dancer` prints, in one place: each command's
//! records as typed structs, every field documented. The command line
//! prints them with `--json` (and `--progress json`), one record per line;
//! a program reading them can deserialize them with these same types.
//!
//! Conventions:
//!
//! * One JSON object per line, fields in the order given here. Optional
//!   fields marked *(omitted)* are left out when they do not apply; fields
//!   marked *(may be null)* are always there.
//! * Streams that mix kinds of records ([`SolveRecord`], [`PolyRecord`])
//!   name the kind in a `type` field, first; the others are one kind per
//!   command.
//! * Counts are integers; `seconds` and the other times are wall-clock
//!   seconds as decimals; lines are 1-based lines of the input.
//! * Option numbers are 0-based in input order, counting every option line
//!   (also one ignored for having no primary item).
//!
//! | command | records |
//! |---|---|
//! | `dancer solve --json` | [`SolveRecord::Solution`] per solution, then one [`SolveRecord::Summary`] |
//! | `dancer solve --trace --json` | [`SolveRecord::Step`] per step (a solution's step followed by its [`SolveRecord::Solution`]), then one [`SolveRecord::Summary`] |
//! | `dancer solve --progress json` (standard error) | [`SolveRecord::Progress`] |
//! | `dancer merge --json` | one [`SolveRecord::Summary`] |
//! | `dancer sudoku solve --json` | [`SudokuSolveRecord`] per puzzle |
//! | `dancer sudoku count --json` | [`SudokuCountRecord`] per puzzle |
//! | `dancer sudoku check --json` | [`SudokuCheckRecord`] per puzzle |
//! | `dancer sudoku rate --json` | [`SudokuRateRecord`] per puzzle |
//! | `dancer sudoku hint --json` | one [`SudokuHintRecord`] |
//! | `dancer sudoku generate --json` | [`SudokuGenerateRecord`] per puzzle |
//! | `dancer poly solve --json` | [`PolyRecord::Solution`] per solution, then one [`PolyRecord::Summary`] |
//! | `dancer poly pieces --json` | [`PieceRecord`] per piece |
//! | `dancer zdd count --json` | one [`ZddRecord::Summary`] |
//! | `dancer zdd list --json`, `dancer zdd sample --json` | [`ZddRecord::Solution`] per solution |

use serde::{Deserialize, Serialize};

/// `dancer solve` and `dancer merge`: tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SolveRecord {
    /// With `--trace`: a step of the search, before the solution records
    /// and the summary it leads to (see [`crate::trace`]):
    /// `{"type":"step","step":1,"level":0,"action":"choose",...}`.
    Step(crate::trace::StepRecord),
    /// `{"type":"solution","options":[3,0,4]}`
    Solution {
        /// The options of the solution, in the order the engine chose them.
        options: Vec<usize>,
    },
    /// The last record of a run, always there (also after an
    /// interruption or a limit).
    Summary {
        /// Solutions found (for a merge: of all shards); with `--memo`,
        /// counted without being visited. An exact JSON integer of any
        /// size (`dancer_core::Count`): beyond 2^53, read it as a big
        /// integer. Deserialized with these types, exact up to 2^64.
        #[serde(deserialize_with = "dancer_core::count::deserialize_buffered")]
        solutions: dancer_core::Count,
        /// Nodes of the search tree: one per option tried, plus one per
        /// solution (Knuth's count, for the engine's own tree).
        nodes: u64,
        /// Items covered plus option entries unlinked (Knuth's updates).
        updates: u64,
        /// The whole tree was searched: `solutions` is the exact count.
        complete: bool,
        /// Why the search ended early: `"limit"` (`--limit` solutions were
        /// found; a count is a lower bound) or `"interrupted"` (Ctrl-C or
        /// another signal; the exit code is then 130). For a merge: the
        /// parts' (one interrupted part makes it `"interrupted"`).
        /// *(omitted when complete)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stopped: Option<dancer_core::parallel::Stop>,
        /// Search time (for a merge: of all shards together).
        seconds: f64,
        /// With `--stats`: the deepest level reached. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_level: Option<usize>,
        /// With `--stats`: nodes per level, from the root. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        profile: Option<Vec<u64>>,
        /// With `--memo`: what the memoizing counter did. *(omitted
        /// otherwise)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        memo: Option<MemoRecord>,
        /// With `--trace`: how many steps were traced, and where a trace
        /// cut by `--trace-limit` stopped. *(omitted otherwise)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trace: Option<crate::trace::TraceEnd>,
    },
    /// Progress of a running search, on standard error.
    Progress {
        /// Estimated fraction done, 0 to 1 (Knuth's estimate from the
        /// position in the tree).
        fraction: f64,
        /// Solutions so far.
        solutions: u64,
        /// Nodes so far.
        nodes: u64,
        nodes_per_second: f64,
        elapsed_seconds: f64,
        /// Estimated seconds left. *(may be null: not known yet)*
        eta_seconds: Option<f64>,
        /// Units of the split search finished, and in all.
        units_done: usize,
        units: usize,
    },
}

impl SolveRecord {
    /// The summary of a search with these counters, `complete` or not, and
    /// why it `stopped` early when it says.
    pub fn summary(
        stats: &dancer_core::Stats,
        complete: bool,
        stopped: Option<dancer_core::parallel::Stop>,
    ) -> Self {
        SolveRecord::Summary {
            solutions: stats.solutions.into(),
            nodes: stats.nodes,
            updates: stats.updates,
            complete,
            stopped,
            seconds: stats.elapsed.as_secs_f64(),
            max_level: None,
            profile: None,
            memo: None,
            trace: None,
        }
    }

    /// This summary with the deepest level and the nodes per level of
    /// `stats` (what `--stats` adds); other records as they are.
    pub fn with_profile(mut self, stats: &dancer_core::Stats) -> Self {
        if let SolveRecord::Summary {
            max_level, profile, ..
        } = &mut self
        {
            *max_level = Some(stats.max_level());
            *profile = Some(stats.profile_trimmed().to_vec());
        }
        self
    }

    /// The progress record of a running search.
    pub fn progress(pr: &dancer_core::parallel::Progress) -> Self {
        SolveRecord::Progress {
            fraction: pr.fraction,
            solutions: pr.solutions,
            nodes: pr.nodes,
            nodes_per_second: pr.nodes_per_second(),
            elapsed_seconds: pr.elapsed.as_secs_f64(),
            eta_seconds: pr.eta_seconds(),
            units_done: pr.units_done,
            units: pr.units,
        }
    }

    /// The summary of a memoized count (`dancer solve --count --memo`):
    /// `nodes` are the sub-problems it branched on, `updates` the options
    /// it tried.
    pub fn memo_summary(
        r: &dancer_core::memo::MemoOutcome,
        stopped: Option<dancer_core::parallel::Stop>,
    ) -> Self {
        let s = &r.stats;
        SolveRecord::Summary {
            solutions: r.count.clone(),
            nodes: s.nodes,
            updates: s.options_tried,
            complete: r.complete,
            stopped,
            seconds: s.elapsed.as_secs_f64(),
            max_level: None,
            profile: None,
            trace: None,
            memo: Some(MemoRecord {
                hits: s.hits,
                stored: s.stored,
                entries: s.entries,
                evicted: s.evicted,
                peak_bytes: s.peak_bytes,
                width: s.width,
            }),
        }
    }
}

/// What the memoizing counter did (`memo` of a summary).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoRecord {
    /// Sub-problems answered by the cache.
    pub hits: u64,
    /// Counts stored in the cache over the run.
    pub stored: u64,
    /// Counts in the cache at the end.
    pub entries: u64,
    /// Counts dropped to stay within `--memo-memory`.
    pub evicted: u64,
    /// Most bytes the cache held at once.
    pub peak_bytes: u64,
    /// The most items whose state one cache key holds (the frontier).
    pub width: usize,
}

/// What is known of a puzzle's solutions (the `status` of Sudoku records).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// Exactly one solution.
    #[serde(rename = "unique")]
    Unique,
    /// Two or more.
    #[serde(rename = "multiple")]
    Multiple,
    /// None.
    #[serde(rename = "none")]
    None,
    /// The input is not a puzzle of the rules (`error` says why).
    #[serde(rename = "invalid")]
    Invalid,
    /// `rate` only: the puzzle has no unique solution, so it is not rated.
    #[serde(rename = "not unique")]
    NotUnique,
}

/// A puzzle that could not be read (every Sudoku batch command).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvalidPuzzle {
    /// The line of the input where the puzzle starts.
    pub line: usize,
    /// Always [`Verdict::Invalid`].
    pub status: Verdict,
    /// What is wrong, e.g. `two 8s in row 1: r1c1 and r1c2`.
    pub error: String,
}

impl InvalidPuzzle {
    pub fn new(line: usize, error: impl Into<String>) -> Self {
        InvalidPuzzle {
            line,
            status: Verdict::Invalid,
            error: error.into(),
        }
    }
}

/// `dancer sudoku solve --json`: one per puzzle, in input order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SudokuSolveRecord {
    Invalid(InvalidPuzzle),
    Solved {
        line: usize,
        /// The puzzle as one line (`.` for empty).
        puzzle: String,
        /// Unique, multiple or none.
        status: Verdict,
        /// When unique: the solution as one line. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        solution: Option<String>,
        /// When multiple: two of the solutions. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        solutions: Option<Vec<String>>,
    },
}

/// `dancer sudoku count --json`: one per puzzle, in input order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SudokuCountRecord {
    Invalid(InvalidPuzzle),
    Counted {
        line: usize,
        /// Solutions counted (at most the limit).
        count: u64,
        /// The count is below the limit, so it is the whole count.
        complete: bool,
        /// Search effort: guesses for `fast9` and `logic`, nodes for `dlx`.
        effort: u64,
    },
}

/// `dancer sudoku check --json`: one per puzzle, in input order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SudokuCheckRecord {
    Invalid(InvalidPuzzle),
    Checked {
        line: usize,
        /// Unique, multiple or none.
        status: Verdict,
    },
}

/// `dancer sudoku rate --json`: one per puzzle, in input order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SudokuRateRecord {
    Invalid(InvalidPuzzle),
    Rated {
        line: usize,
        /// On the Sudoku Explainer scale (with `--killer`, dancer's
        /// killer scale, `dancer_sudoku::killer::KillerTechnique`): the
        /// rating of the hardest step when the easiest is always taken.
        rating: f64,
        /// easy, medium, hard, expert or extreme (killer: easy to expert).
        level: String,
        /// The technique of the hardest step. *(may be null: no step)*
        hardest: Option<String>,
        /// Steps taken.
        steps: usize,
        /// Logic solved the puzzle (else the rating is a lower bound).
        solved: bool,
        /// The rating stopped early: `timeout` (`--timeout`) or
        /// `interrupted` (Ctrl-C); `rating` and `hardest` are those of the
        /// steps taken. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stopped: Option<String>,
        /// With `stopped`: the rating is at least this (the hardest step so
        /// far, or the least rating of the step being looked for). *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_least: Option<f64>,
    },
    /// The puzzle has several solutions or none: [`Verdict::NotUnique`].
    NotRated {
        line: usize,
        status: Verdict,
    },
}

/// A cell and a digit, in a hint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellDigit {
    /// `r5c2`.
    pub cell: String,
    pub digit: u8,
}

/// Whether a hint was found, and if not, why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HintStatus {
    /// A step: the record says which.
    Hint,
    /// The puzzle has no solution.
    None,
    /// The puzzle has more than one solution.
    Multiple,
    /// The grid is full.
    Solved,
    /// No logical step is known.
    Stuck,
    /// The search stopped (`--timeout`, Ctrl-C) before it found the step;
    /// `message` says how hard the step is at least.
    Stopped,
}

/// `dancer sudoku hint --json`: one record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SudokuHintRecord {
    /// A step (`status` is [`HintStatus::Hint`], and comes last).
    Step {
        /// The technique's name, e.g. `Hidden single`.
        technique: String,
        /// Its rating on the Sudoku Explainer scale.
        rating: f64,
        /// Where to look: `row 5`, `box 4`, ...
        units: Vec<String>,
        /// `--level full`: the cells that justify the step. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cells: Option<Vec<String>>,
        /// `--level full`: the digits involved. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        digits: Option<Vec<u8>>,
        /// `--level full`: digits to place. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        placements: Option<Vec<CellDigit>>,
        /// `--level full`: candidates to remove. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        eliminations: Option<Vec<CellDigit>>,
        /// `--killer`, `--level full`: the cages the step uses, by their
        /// names. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cages: Option<Vec<String>>,
        /// `--level full`: the step in words. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        status: HintStatus,
    },
    /// No step: why.
    NoStep {
        status: HintStatus,
        /// For `none`, `multiple` and `stopped`: the same in words. *(omitted)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
}

/// `dancer sudoku generate --json`: one per puzzle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SudokuGenerateRecord {
    /// The puzzle as one line.
    pub puzzle: String,
    /// Number of givens.
    pub givens: usize,
    /// SE rating (9x9). *(may be null: other sizes)*
    pub rating: Option<f64>,
    /// Level of the rating. *(may be null: other sizes)*
    pub level: Option<String>,
    /// Symmetry of the givens: none, rotate180, rotate90, mirror, diagonal.
    pub symmetry: String,
    /// The solution as one line. *(may be null: never for a generated
    /// puzzle, which has exactly one)*
    pub solution: Option<String>,
}

/// One piece placed, in a polyform solution.
///
/// `{"piece":"L","cells":[[0,0],[0,1],[0,2],[0,3],[1,3]]}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PiecePlacement {
    /// The piece's name, as the puzzle names it (`F`, `H17`, `Q03`, a name
    /// of your own, ...): the true name, also where the text output shows
    /// another character. Copies of a piece have the same name.
    pub piece: String,
    /// The board cells it covers, sorted by `z`, then `y`, then `x`: `[x,
    /// y]` on a flat board of squares or hexagons, `[x, y, k]` on the grids
    /// whose third coordinate tells cells apart (a triangle up or down, a
    /// polystick's edge across or down: see `dancer_poly::grid`), `[x, y,
    /// z]` in a box. The origin `[0, 0]` is the
    /// top left cell: `x` grows to the right (columns), `y` downwards (rows,
    /// `y = 0` is the top row) and `z` from the first layer (`z = 0`) on,
    /// the coordinates of the puzzle file (`rect = [width, height]` is `0 <=
    /// x < width`, `0 <= y < height`), of the text output and of the
    /// pictures.
    pub cells: Vec<Vec<i32>>,
}

/// `dancer poly solve --json`: tagged by `type`.
///
/// ```text
/// {"type":"solution","number":1,"placements":[{"piece":"F","cells":[[1,0],[2,0],[0,1],[1,1],[1,2]]},...]}
/// {"type":"summary","solutions":8,"unique":2,"nodes":38728,"complete":true,"seconds":0.01,"symmetries":4}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PolyRecord {
    /// A solution, one record per solution printed (with `--limit N`, at
    /// most `N`; with `--unique`, one per class).
    Solution {
        /// 1-based number of the solution in this run: 1, 2, 3, ... in the
        /// order printed (also the number of `--svg` and `--png` files).
        number: u64,
        /// Every piece placed, one entry per copy; together they cover
        /// every board cell exactly once. In the order of the search's
        /// placements: by piece, in the puzzle's order of pieces.
        placements: Vec<PiecePlacement>,
        /// With `--disassemble`: whether and how it comes apart by
        /// BurrTools' rules. *(omitted otherwise)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        disassembly: Option<DisassemblyRecord>,
    },
    /// The last record, always there (also after a limit or an
    /// interruption).
    Summary {
        /// Solutions found. When `complete`, all of the puzzle's. When the
        /// search stopped at `--limit N`: without `--unique`, exactly the
        /// solutions printed; with `--unique`, all the solutions of the
        /// classes printed. With `--memo`: counted without being visited.
        /// An exact JSON integer of any size (`dancer_core::Count`);
        /// deserialized with these types, exact up to 2^64.
        #[serde(deserialize_with = "dancer_core::count::deserialize_buffered")]
        solutions: dancer_core::Count,
        /// Solutions up to the puzzle's symmetries (classes of solutions
        /// that a symmetry maps onto each other); with `--unique`, the
        /// solution records printed. *(null with `--memo`, which does not
        /// tell classes apart)*
        unique: Option<u64>,
        /// Nodes of the engine's search tree.
        nodes: u64,
        /// The whole tree was searched: `solutions` and `unique` are the
        /// puzzle's counts. False after `--limit` or an interruption.
        complete: bool,
        /// Wall-clock seconds of the search (and of printing).
        seconds: f64,
        /// Number of symmetries of the puzzle: the rotations and
        /// reflections of the board that map it onto itself and the set of
        /// pieces onto itself, the identity included (1 when there are
        /// none but the identity).
        symmetries: usize,
        /// With `--disassemble`: how many of the solutions counted come
        /// apart (with `--unique`, of the classes: BurrTools' count of
        /// solutions). *(omitted otherwise)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        disassemblies: Option<u64>,
        /// With `--disassemble`: how many of the solutions were not taken
        /// apart, so that `disassemblies` is a lower bound (each such
        /// solution's `disassembly.undecided` says why). *(omitted when
        /// none)*
        #[serde(default, skip_serializing_if = "Option::is_none")]
        undecided: Option<u64>,
    },
}

/// How a solution comes apart (`dancer poly solve --disassemble`).
///
/// `{"apart":true,"level":"2.1","moves":3,"steps":[{"pieces":[1],"by":[0,0,1],"removes":false},...]}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisassemblyRecord {
    /// Whether it comes apart by BurrTools' rules.
    pub apart: bool,
    /// Its level as BurrTools writes it: the moves to the first
    /// separation, then those of the parts (`98.2.4.2`). *(omitted when it
    /// does not come apart)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The number of moves in all.
    pub moves: usize,
    /// The moves in the order played: each part's until it falls in two,
    /// then the part left behind, then the part taken away.
    pub steps: Vec<MoveRecord>,
    /// Why it is not known whether it comes apart (`apart` is then false,
    /// and says nothing). *(omitted when it is known)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undecided: Option<Undecided>,
}

/// Why a solution was not taken apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Undecided {
    /// `"interrupted"`: the run was interrupted while it was taken apart
    /// (the run's last solution).
    Interrupted,
    /// `"states"`: its disassembly met more states than one may visit;
    /// the run went on with the next solution.
    States,
}

/// One move of a disassembly: pieces sliding together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The pieces that move: numbers of the solution's `placements`, from 0.
    pub pieces: Vec<usize>,
    /// The slide, in the grid's coordinates (a translation as the
    /// solution's `cells` are written; `y` grows downwards); for a
    /// removal, far enough to be clear of the rest.
    pub by: Vec<i32>,
    /// Whether this move takes the pieces away for good.
    pub removes: bool,
}

/// `dancer poly pieces --json`: one piece, of a named set or of every
/// piece of a size on a grid.
///
/// `{"type":"piece","number":1,"grid":"square","size":5,"name":"pentominoes/F","cells":[[1,0],[2,0],[0,1],[1,1],[1,2]],"symmetries":1,"chiral":true}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "piece")]
pub struct PieceRecord {
    /// 1-based number of the piece in the list printed.
    pub number: usize,
    /// The grid: `square`, `cube`, `triangle`, `hexagon`, `stick`, `twig`,
    /// `trig`, `sphere`, `prism` (the names a puzzle file's `grid` takes).
    pub grid: String,
    /// How many cells it has (edges on `stick`, `twig`, `trig`).
    pub size: usize,
    /// Its name as a puzzle file names it, `set/NAME` (`pentominoes/F`,
    /// `hexiamonds/p6` for a mirror twin), when a named set holds it.
    /// *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its cells in the grid's coordinates, `y` growing downwards: `[x, y]`
    /// on the grids with one kind of cell (square, hexagon), else `[x, y,
    /// k]` (`k` the kind: up or down, the direction of an edge) or `[x, y,
    /// z]` (`z` the layer of a solid). Of every piece of a size: its
    /// canonical form (the smallest of its images moved to the origin,
    /// sorted); of a set: as the set draws it.
    pub cells: Vec<Vec<i32>>,
    /// The grid's symmetries (rotations and reflections about a point)
    /// that map the piece onto itself, moved back: 1 for an asymmetric
    /// piece, 8 for the X pentomino.
    pub symmetries: usize,
    /// Whether its mirror image is another piece (no rotation maps one
    /// onto the other); a one-sided list holds both.
    pub chiral: bool,
}

/// `dancer poly problems FILE --json`: one record a problem of a BurrTools
/// file.
///
/// `{"type":"burr_problem","number":1,"name":"Problem","grid":"cubes","pieces":7,"copies_min":7,"copies_max":7,"result":"Result","cells":488,"optional":216,"assemblies":12,"solutions":1}`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "burr_problem")]
pub struct BurrProblemRecord {
    /// Its number, from 1 (what `--problem N` takes).
    pub number: usize,
    /// Its name, or `problem N` when it has none.
    pub name: String,
    /// BurrTools' grid: `cubes`, `triangular prisms`, `spheres`, `rhombic
    /// dodecahedra`, `tetrahedra-octahedra`.
    pub grid: String,
    /// How many shapes are its pieces.
    pub pieces: usize,
    /// The fewest and the most copies of them all together.
    pub copies_min: u64,
    pub copies_max: u64,
    /// The result shape's name (or `S` and its number from 1).
    pub result: String,
    /// The result's cells, and how many of them may stay empty.
    pub cells: usize,
    pub optional: usize,
    /// What the file says BurrTools found (absent when unsolved).
    /// *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assemblies: Option<u64>,
    /// *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solutions: Option<u64>,
}

/// `dancer zdd`: tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ZddRecord {
    /// `{"type":"solution","options":[3,0,4]}`: a solution the ZDD holds
    /// (listed or drawn).
    Solution {
        /// The options of the solution (0-based: variable `k + 1` of the
        /// ZDD), in the order of its path.
        options: Vec<usize>,
    },
    /// `{"type":"summary","solutions":36,"nodes":52}`
    Summary {
        /// Solutions the ZDD holds: an exact JSON integer of any size;
        /// deserialized with these types, exact up to 2^64.
        #[serde(deserialize_with = "dancer_core::count::deserialize_buffered")]
        solutions: dancer_core::Count,
        /// Nodes reachable from the root (terminals not counted).
        nodes: u64,
    },
}

/// `dancer slurm --json`: what was written and submitted, one record.
///
/// `{"type":"slurm","dir":"/runs/q13","tasks":4,"array":"1-4","array_job":12,"merge_job":13,"result":"/runs/q13/result.txt"}`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "slurm")]
pub struct SlurmRecord {
    /// The run's folder: scripts, parts, checkpoints, logs, result.
    pub dir: String,
    /// N: the parts of the run (the array's tasks).
    pub tasks: usize,
    /// The tasks submitted now, as `sbatch --array` ranges (`1-4`, `3,5-6`;
    /// empty when none was).
    pub array: String,
    /// The array's job id, when the array was submitted.
    pub array_job: Option<u64>,
    /// The merge's job id, when it was submitted.
    pub merge_job: Option<u64>,
    /// Where the merge writes the result.
    pub result: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The records print exactly as documented: field order, tags, the
    /// fields that are omitted or null.
    #[test]
    fn records_print_as_documented() {
        fn s<T: Serialize>(r: &T) -> serde_json::Result<String> {
            serde_json::to_string(r)
        }
        assert_eq!(
            s(&SolveRecord::Solution {
                options: vec![3, 0, 4]
            })
            .unwrap(),
            r#"{"type":"solution","options":[3,0,4]}"#
        );
        let stats = dancer_core::Stats {
            solutions: 1,
            nodes: 6,
            updates: 30,
            ..Default::default()
        };
        assert_eq!(
            s(&SolveRecord::summary(&stats, true, None)).unwrap(),
            r#"{"type":"summary","solutions":1,"nodes":6,"updates":30,"complete":true,"seconds":0.0}"#
        );
        let stopped = SolveRecord::summary(
            &stats,
            false,
            Some(dancer_core::parallel::Stop::Interrupted),
        );
        assert_eq!(
            s(&stopped).unwrap(),
            r#"{"type":"summary","solutions":1,"nodes":6,"updates":30,"complete":false,"stopped":"interrupted","seconds":0.0}"#
        );
        let back: SolveRecord = serde_json::from_str(&s(&stopped).unwrap()).unwrap();
        assert_eq!(back, stopped);
        // a count of 2^64 - 1 reads back exactly through the tagged record;
        // one beyond is refused, never rounded
        let max = s(&stopped).unwrap().replace(
            r#""solutions":1,"#,
            &format!(r#""solutions":{},"#, u64::MAX),
        );
        match serde_json::from_str::<SolveRecord>(&max).unwrap() {
            SolveRecord::Summary { solutions, .. } => {
                assert_eq!(solutions.to_u64(), Some(u64::MAX))
            }
            other => panic!("not a summary: {other:?}"),
        }
        let beyond = max.replace(&u64::MAX.to_string(), "18446744073709551616");
        assert!(serde_json::from_str::<SolveRecord>(&beyond).is_err());
        assert_eq!(
            s(&SudokuSolveRecord::Invalid(InvalidPuzzle::new(3, "bad"))).unwrap(),
            r#"{"line":3,"status":"invalid","error":"bad"}"#
        );
        assert_eq!(
            s(&SudokuRateRecord::NotRated {
                line: 2,
                status: Verdict::NotUnique
            })
            .unwrap(),
            r#"{"line":2,"status":"not unique"}"#
        );
        assert_eq!(
            s(&SudokuHintRecord::NoStep {
                status: HintStatus::Solved,
                message: None
            })
            .unwrap(),
            r#"{"status":"solved"}"#
        );
        assert_eq!(
            s(&PolyRecord::Solution {
                disassembly: None,
                number: 1,
                placements: vec![PiecePlacement {
                    piece: "I".into(),
                    cells: vec![vec![0, 0], vec![1, 0]],
                }],
            })
            .unwrap(),
            r#"{"type":"solution","number":1,"placements":[{"piece":"I","cells":[[0,0],[1,0]]}]}"#
        );
        assert_eq!(
            s(&PolyRecord::Summary {
                disassemblies: None,
                undecided: None,
                solutions: 8u64.into(),
                unique: Some(2),
                nodes: 10,
                complete: true,
                seconds: 0.5,
                symmetries: 4,
            })
            .unwrap(),
            r#"{"type":"summary","solutions":8,"unique":2,"nodes":10,"complete":true,"seconds":0.5,"symmetries":4}"#
        );
        let piece = PieceRecord {
            number: 1,
            grid: "triangle".into(),
            size: 2,
            name: None,
            cells: vec![vec![0, 0, 0], vec![0, 0, 1]],
            symmetries: 4,
            chiral: false,
        };
        assert_eq!(
            s(&piece).unwrap(),
            r#"{"type":"piece","number":1,"grid":"triangle","size":2,"cells":[[0,0,0],[0,0,1]],"symmetries":4,"chiral":false}"#
        );
        let named = PieceRecord {
            name: Some("diamonds/D2".into()),
            ..piece.clone()
        };
        let back: PieceRecord = serde_json::from_str(&s(&named).unwrap()).unwrap();
        assert_eq!(back, named);
        // and they read back
        let r: SolveRecord =
            serde_json::from_str(r#"{"type":"solution","options":[1,2]}"#).unwrap();
        assert_eq!(
            r,
            SolveRecord::Solution {
                options: vec![1, 2]
            }
        );
        let r: SudokuCheckRecord = serde_json::from_str(r#"{"line":1,"status":"unique"}"#).unwrap();
        assert_eq!(
            r,
            SudokuCheckRecord::Checked {
                line: 1,
                status: Verdict::Unique
            }
        );
    }
}
