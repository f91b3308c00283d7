//! # dancer-core
//!
//! Exact cover with Knuth's Algorithm X and dancing links, secondary items
//! and colours (Algorithm C), multiplicities (his DLX3's input), and a
//! bitset engine for packings. The problem model, the engines, the sinks
//! that receive solutions, statistics, split searches (units on threads:
//! the plans shards and checkpoints are made of), counting with memos,
//! ZDDs, and [`verify()`], an independent check of any solution. No I/O:
//! reading and writing problems is `dancer-formats`' job; the saved runs
//! (checkpoints, shards, their merge, Slurm arrays) are `dancer-runs`'.
//!
//! Where things are (the modules in `code` are private: what they offer
//! is re-exported here, at the crate's root):
//!
//! | module | what |
//! |---|---|
//! | `problem` | items, options, colours, multiplicities; the validating builder |
//! | [`engines`] | every engine behind one API: the [`Engine`] trait, [`EngineKind`], [`choose_engine`] (what `auto` means), the engines `dlx`, `dlxm`, `bitset`, `bitmrv` and the control layer and lists they share |
//! | `solve` | one call: [`solve()`], [`count`](fn@count), [`first`], [`all`], [`solutions`] |
//! | `sink` | where a search's solutions go: [`Sink`], [`CountSink`], [`CollectSink`], [`FirstSink`] |
//! | `stats` | [`Stats`] (nodes, updates, the profile) and Knuth's [`Estimate`] |
//! | [`parallel`] | a search cut into units, run on threads |
//! | `verify` | the independent check |
//! | [`memo`] | counting with memos of sub-problems ([`memo::count`]), without visiting each solution |
//! | [`memory`] | the memory the process may really use (RLIMIT_AS, cgroups, MemAvailable): what caches are sized by |
//! | [`count`](mod@count) | [`Count`], exact counts of any size |
//! | [`zdd`] | ZDDs of solutions ([`memo::count_to_zdd`] writes them): read, count, list, uniformly random solutions |
//! | [`rng`] | every random number, through one interface ([`rng::Draw`]): [`rng::SplitMix64`] for new code, the two older streams users got (estimates, generated puzzles) |
//! | [`classic`] | the n queens and Langford pairs, generated |
//! | [`cpu`] | what the processor can do (AVX2, BMI), asked once; byte searches that ask nothing |
//! | [`words`] | numbers in messages, said one way by every front end: [`plural`] (`1 unit`, `2 units`: every count in a message goes through it), rates (`12.3M`), durations (`3h 07m`), sizes (`812 MiB`) |
//! | [`ValueError`] | a value given to one of the rules above that it does not take (a classic problem's size, a size in bytes, threads) |
//!
//! ```
//! use dancer_core::{ProblemBuilder, solutions, verify};
//! let mut b = ProblemBuilder::new();
//! for name in ["A", "B", "C", "D", "E"] { b.primary(name).unwrap(); }
//! for name in ["F", "G"] { b.secondary(name).unwrap(); }
//! for opt in ["C E F", "A D G", "B C F", "A D", "B G", "D E G"] {
//!     b.option(opt.split(' ')).unwrap();
//! }
//! let problem = b.build().unwrap();
//! let all: Vec<_> = solutions(&problem).collect();
//! assert_eq!(all, vec![vec![3, 0, 4]]);
//! verify(&problem, &all[0]).unwrap();
//! ```

/// The Rust examples of the README and of the guide's chapter on the
/// library, run as doctests (every code block of the docs runs in a test).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
#[doc = include_str!("../../../docs/library.md")]
struct GuideExamples;

pub mod classic;
pub mod count;
pub mod cpu;
pub mod engines;
pub mod memo;
pub mod memory;
pub mod parallel;
mod problem;
pub mod rng;
mod sink;
mod solve;
mod stats;
mod verify;
pub mod words;
pub mod zdd;

pub use count::Count;
pub use engines::dlx::Dlx;
pub use engines::dlxm::Dlxm;
pub use engines::{
    choose_engine, links_engine, DescendError, Engine, EngineError, EngineKind, Event,
    UnknownEngine, Unsupported, CANCEL_INTERVAL,
};
pub use engines::{watch, Watched, Watcher};
pub use problem::{
    BuildError, ColorId, Entry, ItemId, OptionId, OptionRef, Problem, ProblemBuilder, Warning,
};
pub use sink::{CollectSink, CountSink, FirstSink, Flow, Sink};
pub use solve::{all, count, first, solutions, solve, Outcome, Solutions, SolveOptions};
pub use stats::{Estimate, Stats};
pub use verify::{verify, what_is_checked, VerifyError};
pub use words::plural;

/// A value that a rule of this crate does not take, with what was given
/// and what is allowed: a classic problem's size or board
/// ([`classic::queens_within`], [`classic::macmahon_board`]), a size in
/// bytes ([`memory::parse_size`]), a number of threads
/// ([`parallel::threads_allowed`]). A front end words it, naming its flag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// `n` outside 1 to `max` for the classic `problem` (`queens`).
    #[error("{problem}: n must be from 1 to {max}, not {n}")]
    ProblemSize {
        problem: &'static str,
        n: usize,
        max: usize,
    },
    /// MacMahon's squares in other than 2, 3 or 4 colours.
    #[error("MacMahon's squares have 2, 3 or 4 colours, not {colours}")]
    Colours { colours: usize },
    /// A MacMahon board that is not `ROWSxCOLS` with one cell for each of
    /// the `squares` of `colours` colours.
    #[error("the board is ROWSxCOLS with one cell per square ({squares} with {colours} colours), not {board:?}")]
    Board {
        board: String,
        colours: usize,
        squares: usize,
    },
    /// A size in bytes that does not start with a whole number.
    #[error("not a size: a whole number, then K, M, G or T (2GiB, 512M)")]
    NotASize,
    /// A size in bytes with a unit other than K, M, G or T.
    #[error("unknown unit {unit:?}: use K, M, G or T (2GiB, 512M)")]
    UnknownUnit { unit: String },
    /// A size in bytes beyond 64 bits.
    #[error("too large a size")]
    SizeTooLarge,
    /// No thread at all.
    #[error("a search needs at least 1 thread")]
    NoThreads,
    /// More threads than [`parallel::max_threads`]: `per_core` for each of
    /// the `cores`.
    #[error(
        "{threads} threads: at most {max} ({per_core} per core, and this machine has {cores})"
    )]
    TooManyThreads {
        threads: usize,
        max: usize,
        per_core: usize,
        cores: usize,
    },
}
