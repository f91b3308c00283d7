//! # The engines
//!
//! Every engine behind one API: the [`Engine`] trait, the names of the
//! engines ([`EngineKind`]), the typed refusal of a problem an engine cannot
//! take ([`EngineError`]), and [`choose_engine`], the one place that decides
//! which engine `auto` means for a problem.
//!
//! | engine | module | takes | branches on |
//! |---|---|---|---|
//! | `dlx` | [`dlx`] | everything but multiplicities | Knuth's rule: the leftmost item with the fewest options (his DLX1/DLX2, step for step) |
//! | `dlxm` | [`dlxm`] | everything | the item with the fewest branches (multiplicities, his DLX3's input) |
//! | `bitset` | [`bitset`] | no colours, no multiplicities, at most 512 items | the first uncovered item, in an order the engine works out |
//! | `bitmrv` | [`bitmrv`] | everything up to 65,535 options an item and 256 MiB of tables | Knuth's rule on bitmaps of live options; ties to the item with the fewest options at the start (`Ties::Knuth`: DLX1's, same nodes and updates) |
//!
//! `auto` ([`choose_engine`]) weighs the engines that take a problem by
//! time, not by tree size: each tree is estimated with Knuth's random
//! probes ([`auto_costs`]), and each engine's cost per node, per word of
//! its masks, per update (constants fitted by the `calibrate` example)
//! turns the tree into nanoseconds; the cheapest wins, and two too close to
//! tell apart go to the bitset engine. Weighing costs time too, and `auto`
//! spends it only where it can pay: a small tree (a Sudoku's, nearly a
//! path) stops its probes once they have walked a quarter of it, the
//! linked engine's own tree is probed on a large tree only when what it
//! promises to save outweighs its probes, and the bitset engine is not
//! weighed when its set-up alone would take longer than the search
//! `bitmrv` promises. No engine is chosen on another engine's tree.
//!
//! Every engine implements [`Engine`] the same way: its own search step
//! (the loop that covers, uncovers and chooses) under one control layer
//! (`control.rs`: frontier, pauses, cancellation, statistics, the current
//! solution), so that splitting a search into units, checkpoints and
//! progress work alike on all of them.

//!
//! ## The files
//!
//! | file | what | imports |
//! |---|---|---|
//! | `api.rs` | the [`Engine`] trait, [`Event`], [`EngineError`], [`DescendError`], [`Unsupported`], [`CANCEL_INTERVAL`], [`STOP`] | `kind.rs` only |
//! | `kind.rs` | [`EngineKind`]: the names, [`UnknownEngine`] | nothing |
//! | `control.rs` | the control layer under every engine | `api.rs` |
//! | `links.rs` | the lists `dlx` and `dlxm` share | nothing of the engines |
//! | `dlx.rs`, `dlxm.rs`, `bitset.rs`, `bitmrv.rs` | one engine each | `api.rs`, `kind.rs`, `control.rs`, `links.rs` |
//! | `watch.rs` | [`watch`]: the one event loop (solutions, pauses with progress, stops) that split searches, web jobs and the polyform solver run engines through | `api.rs` |
//! | `choose.rs` | `auto` ([`choose_engine`], [`auto_costs`], [`trial`]) and the factory ([`EngineKind::build`]) | every engine |
//!
//! No engine imports another, nor `choose.rs`, nor this module: the
//! imports run one way.

mod api;
pub mod bitmrv;
pub mod bitset;
mod choose;
mod control;
pub mod dlx;
pub mod dlxm;
mod kind;
mod links;
mod record;
pub mod trace;
mod watch;

pub use api::{DescendError, Engine, EngineError, Event, Unsupported, CANCEL_INTERVAL, STOP};
pub use choose::{
    auto_costs, bitset_setup_nanos, choose_engine, choose_from, links_engine, reweigh, too_close,
    trial, Costed, ProblemShape, Trial, PROBES_MAX, TRIAL_NODES,
};
pub use kind::{EngineKind, UnknownEngine};
pub use watch::{watch, Watched, Watcher};
