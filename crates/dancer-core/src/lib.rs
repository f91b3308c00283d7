//! # dancer-core
//!
//! Exact cover with Knuth's Algorithm X and dancing links, secondary items
//! and colours (Algorithm C). The problem model, the engines, the sinks that
//! receive solutions, statistics, and [`verify()`], an independent check of any
//! solution. No I/O: reading and writing problems is `dancer-formats`' job.
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

pub mod bitset;
pub mod dlx;
pub mod dlxm;
pub mod gen;
pub mod parallel;
pub mod problem;
pub mod sink;
pub mod solve;
pub mod stats;
pub mod verify;

pub use dlx::Dlx;
pub use problem::{
    BuildError, ColorId, Entry, ItemId, OptionId, OptionRef, Problem, ProblemBuilder, Warning,
};
pub use sink::{CollectSink, CountSink, FirstSink, Flow, Sink};
pub use solve::{
    all, choose_engine, count, first, solutions, solve, DescendError, Engine, EngineError,
    EngineKind, Event, Outcome, Solutions, SolveOptions, UnknownEngine,
};
pub use stats::Stats;
pub use verify::{verify, VerifyError};
