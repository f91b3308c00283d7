//! # dancer-runs
//!
//! Runs in parts, in one place: a search or a Sudoku batch split into
//! parts that run apart (on the machines of a cluster, or across
//! restarts), saved as small checked files, and put back together.
//!
//! | module | what |
//! |---|---|
//! | [`parts`] | what both kinds of parts share: the part a file says it is ([`parts::PartHeader`]), the checks before a sum ([`parts::numbered`]: one run, each number once, none missing), what to run again ([`parts::ToRerun`]) |
//! | [`plan`] | one run plan: a search run's options decided once ([`plan::RunOptions::plan`]: memos or an engine, the engine, the split, the checkpoints), and the run itself with the front end's hooks ([`plan::SearchRun::run`]) |
//! | [`search`] | a search's checkpoints and shard results: the saved record ([`search::Saved`]), its checks, the split of this run ([`search::Split`]), dealing units to shards, [`search::merge`] |
//! | [`batch`] | a Sudoku batch's parts: the part file ([`batch::PartFile`], started or resumed by [`batch::PartFile::start`]), the split by lines, the part's run ([`batch::PartRun::run`]: the record kept and saved as answers come in), [`batch::merge`] |
//! | [`slurm`] | Slurm job arrays: the scripts, the checks on their values, what a task runs ([`slurm::Task`]), the run's record, what stops a run ([`slurm::ClusterError`]) |
//! | `folder` (private) | a Slurm run's folder and jobs: a new run's folder checked and written ([`NewRun`]: nothing that is not dancer's removed or overwritten), a run written there ([`RunFolder`]: its parts missing, submitted again, its merge waited for) |
//! | `given` (private) | the files given to a merge, read: their kind and each part checked ([`GivenParts`]), a part's output read again ([`reread`]) |
//! | [`summary`] | what a run did, in words: each summary displays itself (a split search's, a memoized count's, the sums of parts) |
//! | [`signals`] | Ctrl-C, SIGTERM and SIGHUP: the one handler of a process, the cancel flag a run watches |
//!
//! The engines, the plans that shards are cut from and the batch itself
//! are `dancer-core`'s and `dancer-sudoku`'s; this crate saves, checks and
//! adds up. No I/O but a Slurm run's folder and jobs (`folder`): reading
//! and writing the files is the caller's (through
//! `dancer_formats::out_file`), or, where this crate decides which file is
//! read, through the caller's function.

pub mod batch;
pub mod parts;
pub mod plan;
pub mod search;
pub mod signals;
pub mod slurm;
pub mod summary;

mod folder;
mod given;

pub use folder::{NewRun, RunFolder, Submitted};
pub use given::{is_part, reread, GivenError, GivenParts};
