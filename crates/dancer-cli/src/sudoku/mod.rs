//! `dancer sudoku`: one module per subcommand, over `dancer_sudoku`'s
//! batch, hint, rating and generator APIs; `common.rs` holds what they
//! share (the input and rules flags, reading the input, the batch run with
//! its progress bar and summary line).

mod check;
pub(crate) mod common;
mod count;
mod export;
mod generate;
mod hint;
mod rate;
mod solve;

use crate::output::Found;
use crate::output::Out;
use anyhow::Result;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum SudokuCommand {
    /// Solve: one line per puzzle: the solution, or none / multiple / invalid: REASON
    Solve(solve::SolveArgs),
    /// Count solutions: one number per puzzle
    Count(count::CountArgs),
    /// Check: unique / multiple / none / invalid per puzzle; exit 0 only if all are unique
    Check(check::CheckArgs),
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
        "solve" => solve::SolveArgs::augment_args(clap::Command::new("solve")),
        "count" => count::CountArgs::augment_args(clap::Command::new("count")),
        "check" => check::CheckArgs::augment_args(clap::Command::new("check")),
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
        SudokuCommand::Solve(a) => solve::run(a, out),
        SudokuCommand::Count(a) => count::run(a, out),
        SudokuCommand::Check(a) => check::run(a, out),
        SudokuCommand::Export(a) => export::run(a, out),
        SudokuCommand::Hint(a) => hint::run(a, out),
        SudokuCommand::Rate(a) => rate::run(a, out),
        SudokuCommand::Generate(a) => generate::run(a, out),
    }
}
