//! `dancer sudoku`: a module per subcommand (`batch.rs`: `solve`, `count`
//! and `check`) over `dancer_sudoku` and `dancer_runs::batch`; `common.rs`
//! holds what they share.

mod batch;
pub(crate) mod common;
mod export;
mod gattai;
mod generate;
mod hint;
mod killer;
mod rate;
mod variant;

use crate::output::Found;
use crate::output::Out;
use anyhow::Result;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum SudokuCommand {
    /// Solve: one line per puzzle: the solution, or none / multiple / invalid: REASON
    Solve(batch::SolveArgs),
    /// Count solutions: one number per puzzle
    Count(batch::CountArgs),
    /// Check: unique / multiple / none / invalid per puzzle; exit 0 only if all are unique
    #[command(mut_arg("pretty", |a| a.help(batch::CHECK_PRETTY)))]
    Check(batch::CheckArgs),
    /// Write a puzzle's exact cover problem: Knuth's DLX format, or JSON with --json
    Export(common::CommonArgs),
    /// The easiest next step, as a player would take it
    Hint(hint::HintArgs),
    /// Rate puzzles on the Sudoku Explainer (SE) scale, with a level name (each within --timeout)
    Rate(rate::RateArgs),
    /// Generate puzzles with one solution, minimal, of a symmetry and level
    Generate(generate::GenerateArgs),
}

/// The parser of `dancer sudoku NAME` with that one subcommand, for the
/// batch commands (`solve`, `count`, `check`): what [`SudokuCommand`]'s
/// whole tree parses them with, without building the other four (see
/// `quick_matches` in main.rs).
pub fn one_command(name: &str) -> Option<clap::Command> {
    use clap::Args;
    let sub = match name {
        "solve" => batch::SolveArgs::augment_args(clap::Command::new("solve")),
        "count" => batch::CountArgs::augment_args(clap::Command::new("count")),
        "check" => batch::CheckArgs::augment_args(clap::Command::new("check"))
            .mut_arg("pretty", |a| a.help(batch::CHECK_PRETTY)),
        _ => return None,
    };
    Some(
        clap::Command::new("sudoku")
            .subcommand_required(true)
            .arg_required_else_help(true)
            .subcommand(sub),
    )
}

/// Whether a batch command was given the flags of a part (`--shard`,
/// `--shard-out`, `--resume`): `dancer slurm` sets them itself.
pub fn shard_flags_given(cmd: &SudokuCommand) -> bool {
    let s = match cmd {
        SudokuCommand::Solve(a) => &a.shard,
        SudokuCommand::Count(a) => &a.shard,
        SudokuCommand::Check(a) => &a.shard,
        _ => return false,
    };
    s.shard.is_some() || s.shard_out.is_some() || s.resume.is_some()
}

pub fn run(cmd: SudokuCommand, out: &mut Out) -> Result<Found> {
    match cmd {
        SudokuCommand::Solve(a) => batch::solve(a, out),
        SudokuCommand::Count(a) => batch::count(a, out),
        SudokuCommand::Check(a) => batch::check(a, out),
        SudokuCommand::Export(a) => export::run(a, out),
        SudokuCommand::Hint(a) => hint::run(a, out),
        SudokuCommand::Rate(a) => rate::run(a, out),
        SudokuCommand::Generate(a) => generate::run(a, out),
    }
}
