//! `dancer`: the command-line front end. Thin by design: it parses flags
//! (`args.rs`: the flags commands share), reads files (`input.rs`, and each
//! command's own), and prints (`output.rs`: one buffered standard output,
//! NDJSON records from `dancer_formats::ndjson`); every decision is a
//! library call.
//!
//! | module | command |
//! |---|---|
//! | `solve.rs` | `dancer solve`: exact cover, with threads, checkpoints, shards |
//! | `merge.rs` | `dancer merge`: adds up shards |
//! | `classic.rs` | `dancer gen`: the n queens and Langford pairs |
//! | `example.rs` | `dancer example` |
//! | `sudoku/` | `dancer sudoku ...`: one module per subcommand |
//! | `poly.rs` | `dancer poly ...` |
//!
//! Exit codes: 0 when at least one solution was found, 1 when none, 2 on any
//! error (bad input, bad flags). Writing to a closed pipe ends the command
//! quietly with 0, handled once, here.

mod args;
mod classic;
mod example;
mod input;
mod merge;
mod output;
mod poly;
mod solve;
mod sudoku;

use clap::{Parser, Subcommand};
use output::{Found, Out};
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
    Merge(merge::MergeArgs),
    /// Write a classic problem in DLX format
    #[command(subcommand)]
    Gen(classic::GenCommand),
    /// Solve built-in examples: Knuth's toy problem and the 8 queens
    Example,
    /// Sudoku: solve, count, check, export, hint, rate and generate (any size, common variants)
    #[command(subcommand)]
    Sudoku(sudoku::SudokuCommand),
    /// Polyomino and polycube packing puzzles
    #[command(subcommand)]
    Poly(poly::PolyCommand),
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
    let mut out = Out::new();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args, &mut out),
        Command::Merge(args) => merge::run(args, &mut out),
        Command::Gen(cmd) => classic::run(cmd, &mut out),
        Command::Example => example::run(&mut out),
        Command::Sudoku(cmd) => sudoku::run(cmd, &mut out),
        Command::Poly(cmd) => poly::run(cmd, &mut out),
    };
    // what was printed goes out before any error message
    let result = match (result, out.flush()) {
        (Ok(found), Ok(())) => Ok(found),
        (Ok(_), Err(e)) => Err(e.into()),
        (Err(e), _) => Err(e),
    };
    match result {
        Ok(Found::Some) => ExitCode::SUCCESS,
        Ok(Found::None) => ExitCode::from(1),
        Ok(Found::Invalid) => ExitCode::from(2),
        Ok(Found::Interrupted) => ExitCode::from(130),
        Err(e) if output::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dancer: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
