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
//! | `slurm.rs` | `dancer slurm`: a Slurm job array of shards and its merge |
//! | `zdd.rs` | `dancer zdd`: count, list and sample the solutions of a ZDD |
//! | `classic.rs` | `dancer gen`: the n queens and Langford pairs |
//! | `example.rs` | `dancer example` |
//! | `sudoku/` | `dancer sudoku ...`: one module per subcommand |
//! | `poly.rs` | `dancer poly ...` |
//! | `serve.rs` | `dancer serve`: the web app (`dancer_web`) |
//! | `install.rs` | `dancer completions`, `dancer man` |
//!
//! Shared by every command: `args.rs` (flags), `input.rs` (files and
//! standard input, with the notice when it is a terminal), `output.rs`
//! (standard output, the exit codes), `interrupt.rs` (Ctrl-C, SIGTERM,
//! SIGHUP), `progress.rs` (progress bars that fit 80 columns).
//!
//! Exit codes (`output::EXIT_CODES`, also in `--help` and docs/cli.md): 0
//! when at least one solution was found (also when `--limit` stopped the
//! search), 1 when a complete search found none, 2 on any error (bad input,
//! bad flags), 130 when a signal interrupted the run. Writing to a closed
//! pipe ends the command quietly with 0, handled once, here.

// The doc comments of the flags are clap's help text, written for a
// terminal (`MAP SUMS [GIVENS]`), not rustdoc links.
#![allow(rustdoc::broken_intra_doc_links)]

mod args;
mod classic;
mod example;
mod input;
mod install;
mod interrupt;
mod merge;
mod output;
mod poly;
mod progress;
mod serve;
mod slurm;
mod solve;
mod sudoku;
mod trace;
mod zdd;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use output::Out;
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
    /// Add up the parts of a sharded run (`dancer solve --shard K/N`, or a Sudoku batch's)
    Merge(merge::MergeArgs),
    /// Run a command in parts on a Slurm cluster: a job array and a merge after it
    #[command(long_about = slurm::LONG_ABOUT)]
    Slurm(slurm::SlurmArgs),
    /// Write a classic problem in DLX format
    #[command(subcommand)]
    Gen(classic::GenCommand),
    /// Solve built-in examples: Knuth's toy problem and the 8 queens
    #[command(long_about = example::LONG_ABOUT)]
    Example,
    /// Sudoku of any size and common variants: solve, count, check, hint, rate, generate
    #[command(subcommand)]
    Sudoku(sudoku::SudokuCommand),
    /// Polyomino and polycube packing puzzles
    #[command(subcommand)]
    Poly(poly::PolyCommand),
    /// Read a ZDD of solutions (`solve --zdd`): count, list, draw uniformly random ones
    #[command(subcommand)]
    Zdd(zdd::ZddCommand),
    /// A local web app: play and solve Sudoku, polyforms, exact cover
    Serve(serve::ServeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    #[command(long_about = install::COMPLETIONS_ABOUT)]
    Completions(install::CompletionsArgs),
    /// Print the man page (roff) to standard output, or write every page into a folder
    #[command(long_about = install::MAN_ABOUT)]
    Man(install::ManArgs),
}

/// The whole command line, as parsed, with the exit codes after `--help`:
/// also what completions and man pages are made from.
pub fn command() -> clap::Command {
    Cli::command().after_help(output::exit_codes_text(80))
}

/// The command line read by the parser of the one command it names, for
/// `solve` and `sudoku`, the commands that scripts run in loops: building
/// clap's whole tree of commands took a sixth of a millisecond of every
/// run, as long as a small search. The parser is the same derived one the
/// whole tree holds for that command, so what it accepts it reads the same
/// way; anything it does not accept (help, a mistake, another command)
/// goes to the whole tree, which prints what it always printed.
fn quick_parse() -> Option<Cli> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let matches = quick_matches(&args)?;
    let command = match args[0].to_str()? {
        "solve" => Command::Solve(solve::SolveArgs::from_arg_matches(&matches).ok()?),
        _ => Command::Sudoku(sudoku::SudokuCommand::from_arg_matches(&matches).ok()?),
    };
    Some(Cli { command })
}

/// What the parser of the command that `args` (the arguments after the
/// program's name) start with makes of them, for `solve` and `sudoku`.
fn quick_matches(args: &[std::ffi::OsString]) -> Option<clap::ArgMatches> {
    use clap::Args;
    let parser = match args.first()?.to_str()? {
        "solve" => solve::SolveArgs::augment_args(clap::Command::new("solve")),
        // the batch commands alone, the others as clap's derive makes a
        // command of subcommands
        "sudoku" => args
            .get(1)
            .and_then(|a| a.to_str())
            .and_then(sudoku::one_command)
            .unwrap_or_else(|| {
                sudoku::SudokuCommand::augment_subcommands(
                    clap::Command::new("sudoku")
                        .subcommand_required(true)
                        .arg_required_else_help(true),
                )
            }),
        _ => return None,
    };
    parser.try_get_matches_from(args).ok()
}

fn main() -> ExitCode {
    let parsed = match quick_parse() {
        Some(cli) => Ok(cli),
        None => command()
            .try_get_matches()
            .and_then(|m| Cli::from_arg_matches(&m)),
    };
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                output::EXIT_ERROR
            } else {
                output::EXIT_FOUND
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    // Ctrl-C, SIGTERM, SIGHUP: one handler for every command (see
    // interrupt.rs): a command that takes `interrupt::cancel_flag()` stops
    // cleanly; any other ends at once, with 130.
    interrupt::install();
    let cli = match cli.command {
        // a server: its own exit code (0 after a clean stop on a signal)
        Command::Serve(args) => return serve::main(args),
        command => Cli { command },
    };
    let mut out = Out::new();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args, &mut out),
        Command::Merge(args) => merge::run(args, &mut out),
        Command::Slurm(args) => slurm::run(args, &mut out),
        Command::Gen(cmd) => classic::run(cmd, &mut out),
        Command::Example => example::run(&mut out),
        Command::Sudoku(cmd) => sudoku::run(cmd, &mut out),
        Command::Poly(cmd) => poly::run(cmd, &mut out),
        Command::Zdd(cmd) => zdd::run(cmd, &mut out),
        Command::Completions(args) => install::completions(args, &mut out),
        Command::Man(args) => install::man(args, &mut out),
        Command::Serve(_) => unreachable!("served above"),
    };
    // what was printed goes out before any error message
    let result = match (result, out.flush()) {
        (Ok(found), Ok(())) => Ok(found),
        (Ok(_), Err(e)) => Err(e.into()),
        (Err(e), _) => Err(e),
    };
    match result {
        // a command that ran on after a signal was interrupted, whatever
        // it says it found
        Ok(found) => ExitCode::from(interrupt::overrule(found).code()),
        Err(e) if output::is_broken_pipe(&e) => ExitCode::from(output::EXIT_FOUND),
        Err(e) => {
            eprintln!("dancer: error: {e:#}");
            ExitCode::from(output::EXIT_ERROR)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    /// Every argument an `ArgMatches` holds, with its raw values and where
    /// they came from, and the same of its subcommand, as text.
    fn render(m: &clap::ArgMatches) -> String {
        let mut lines: Vec<String> = m
            .ids()
            .filter_map(|id| {
                let raw = m.try_get_raw(id.as_str()).ok()??;
                let values: Vec<_> = raw.map(|v| v.to_string_lossy().into_owned()).collect();
                Some(format!("{id}={values:?} {:?}", m.value_source(id.as_str())))
            })
            .collect();
        lines.sort();
        if let Some((name, sub)) = m.subcommand() {
            lines.push(format!("{name} {{ {} }}", render(sub)));
        }
        lines.join("; ")
    }

    fn args(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    /// The quick parser reads every command line it takes as the whole
    /// tree of commands does, and leaves help, mistakes and other commands
    /// to the whole tree.
    #[test]
    fn the_quick_parser_reads_as_the_whole_tree() {
        let taken = [
            "solve toy.dlx",
            "solve",
            "solve --count --threads 1 --engine bitmrv --progress none p.dlx",
            "solve --limit 3 --json --ordered -",
            "solve --stats --verify --checkpoint cp.json --checkpoint-every 5 p.dlx",
            "solve --shard 2/7 --shard-out part.json p.dlx",
            "sudoku solve puzzles.txt",
            "sudoku solve --threads 1 --engine fast9 puzzles.txt",
            "sudoku count --limit 2 --threads 2 puzzles.txt",
            "sudoku check --box 2x3 p.txt",
            "sudoku check --json --threads 1 p.txt",
            "sudoku count --json --limit 1000 -",
            "sudoku export -x --json p.txt",
            "sudoku rate p.txt",
            "sudoku hint p.txt",
            "sudoku generate --count 3 --seed 1",
        ];
        for line in taken {
            let a = args(line);
            let quick = quick_matches(&a).unwrap_or_else(|| panic!("not taken: {line}"));
            let name = a[0].to_str().unwrap();
            let mut full_args = vec![OsString::from("dancer")];
            full_args.extend(a.iter().cloned());
            let full = command().try_get_matches_from(&full_args).unwrap();
            let (full_name, sub) = full.subcommand().unwrap();
            assert_eq!(name, full_name);
            assert_eq!(render(&quick), render(sub), "{line}");
            assert!(quick_matches(&a).is_some());
        }
        let left = [
            "",
            "solve --help",
            "solve -h",
            "solve --no-such-flag p.dlx",
            "solve --threads many p.dlx",
            "sudoku",
            "sudoku --help",
            "sudoku help solve",
            "sudoku solve --help",
            "sudoku solve --frobnicate p.txt",
            "sudoku count -h",
            "sudoku frobnicate",
            "poly solve pentomino-6x10",
            "--version",
            "help",
        ];
        for line in left {
            assert!(quick_matches(&args(line)).is_none(), "taken: {line}");
        }
    }
}
