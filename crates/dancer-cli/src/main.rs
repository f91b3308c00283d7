//! `dancer`: the command-line front end. Thin by design: it parses flags,
//! reads files, and prints; everything else lives in the library crates.
//!
//! Exit codes: 0 when at least one solution was found, 1 when none, 2 on any
//! error (bad input, bad flags).

mod example;
mod gen;
mod input;
mod play;
mod poly;
mod solve;
mod sudoku;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "dancer", version, about = "Exact cover with dancing links", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve an exact cover problem (Knuth's DLX format, or JSON)
    Solve(solve::SolveArgs),
    /// Add up the result files of a sharded run (`dancer solve --shard K/N`)
    Merge(solve::MergeArgs),
    /// Write a classic problem in DLX format
    #[command(subcommand)]
    Gen(gen::GenCommand),
    /// Solve built-in examples: Knuth's toy problem and the 8 queens
    Example,
    /// Sudoku: solve, count, check, export
    #[command(subcommand)]
    Sudoku(sudoku::SudokuCommand),
    /// Polyomino and polycube packing puzzles
    #[command(subcommand)]
    Poly(poly::PolyCommand),
}

/// What a command found, for the exit code.
pub enum Found {
    Some,
    None,
    /// Some input was bad, but the rest was processed (exit 2).
    Invalid,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Merge(args) => solve::merge(args),
        Command::Gen(cmd) => gen::run(cmd).map(|()| Found::Some),
        Command::Example => example::run(),
        Command::Sudoku(cmd) => sudoku::run(cmd),
        Command::Poly(cmd) => poly::run(cmd),
    };
    match result {
        Ok(Found::Some) => ExitCode::SUCCESS,
        Ok(Found::None) => ExitCode::from(1),
        Ok(Found::Invalid) => ExitCode::from(2),
        Err(e) => {
            eprintln!("dancer: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
