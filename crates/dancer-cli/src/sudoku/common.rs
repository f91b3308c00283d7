//! What the Sudoku subcommands share: the input and rules flags, reading
//! the input (a file, standard input, or a puzzle given as the argument:
//! `dancer_sudoku::batch::source` tells which), and the exit code of a
//! batch's verdict.

use crate::args::{JsonArg, Named, ThreadsArg};
use crate::input::{MAX_SMALL, MAX_TEXT, STDIN_NAME};
use crate::output::Found;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use dancer_sudoku::batch::{self, BatchError, BatchVerdict, RulesSpec, Source, SpecError, Tally};
use dancer_sudoku::{Layout, Puzzle, SudokuEngine};
use std::path::Path;

#[derive(Args, Clone)]
pub struct CommonArgs {
    /// Puzzle file (one per line, or grids over several lines); - or nothing
    /// for standard input; or a puzzle itself, as one line
    pub input: Option<String>,
    /// Box shape ROWSxCOLS, e.g. 2x3 for 6x6 (default: inferred from the size)
    #[arg(long = "box", value_name = "RxC")]
    pub boxes: Option<String>,
    /// Jigsaw regions: one letter per cell (row-major), or a file holding them
    #[arg(long, value_name = "MAP|FILE")]
    pub jigsaw: Option<String>,
    /// Diagonal (X) Sudoku: each main diagonal holds every digit once
    #[arg(long, short = 'x')]
    pub diagonal: bool,
    /// Windoku (hyper): four extra 3x3 windows (9x9 only)
    #[arg(long, alias = "hyper")]
    pub windoku: bool,
    /// How puzzles are written (default: guessed)
    #[arg(long, value_enum)]
    pub layout: Option<LayoutArg>,
    #[command(flatten)]
    pub json: JsonArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Engine: auto, fast9 (plain 9x9), logic (any), dlx (exact cover)
    #[arg(long, default_value = "auto", value_parser = Named::new(SudokuEngine::NAMES, |s| s.parse::<SudokuEngine>()))]
    pub engine: SudokuEngine,
}

/// How the command line says to give the box shape of a grid whose size
/// has no usual boxes ([`dancer_sudoku::PuzzleError::words`]).
pub const BOX_HINT: &str = "use --box RxC for other shapes";

/// Rules that cannot be, in the command line's words: its flags `--box`
/// and `--jigsaw`.
pub fn spec_error(e: SpecError) -> anyhow::Error {
    match e {
        SpecError::Box { text, problem } => anyhow!("--box {text:?}: {problem}"),
        SpecError::BoxAndJigsaw => anyhow!("--box and --jigsaw cannot be used together"),
        SpecError::Jigsaw(e) => anyhow!("--jigsaw: {e}"),
        SpecError::Rules(e) => e.into(),
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum LayoutArg {
    /// One puzzle per line
    Lines,
    /// Grids over several lines, separated by blank lines
    Grids,
}

impl CommonArgs {
    pub fn layout(&self) -> Layout {
        match self.layout {
            None => Layout::Auto,
            Some(LayoutArg::Lines) => Layout::Lines,
            Some(LayoutArg::Grids) => Layout::Grids,
        }
    }

    /// The rules asked for; a `--jigsaw` naming a file is read here.
    pub fn spec(&self) -> Result<RulesSpec> {
        let map = self.jigsaw_map()?;
        let (boxes, map) = (self.boxes.as_deref(), map.as_deref());
        RulesSpec::new(boxes, map, self.diagonal, self.windoku).map_err(spec_error)
    }

    /// The jigsaw map: `--jigsaw` itself, or the file it names.
    pub fn jigsaw_map(&self) -> Result<Option<String>> {
        Ok(match &self.jigsaw {
            Some(j) if Path::new(j).is_file() => {
                Some(crate::input::read_file(Path::new(j), MAX_SMALL)?)
            }
            j => j.clone(),
        })
    }
}

/// Where the puzzles come from ([`batch::source`]: standard input for
/// `None` or `-`, a file, or a puzzle given as the argument itself), and
/// the text, which must hold a puzzle ([`batch::has_puzzle`]).
pub fn read_input(input: Option<&str>) -> Result<(String, String)> {
    let (name, text) = match batch::source(input, |p| Path::new(p).exists())? {
        Source::Stdin => (STDIN_NAME.into(), crate::input::read_stdin("puzzles")?),
        Source::File(f) => (f.into(), crate::input::read_file(Path::new(f), MAX_TEXT)?),
        Source::Puzzle(p) => ("<argument>".into(), p.into()),
    };
    batch::has_puzzle(&text).map_err(|e| anyhow!("{name}: {e}"))?;
    Ok((name, text))
}

/// The first puzzle of `text` (from `name`) as `spec` and `layout` read
/// it; with `only`, a second puzzle is refused (`export` writes the
/// problem of one puzzle: a second is not dropped without a word).
pub fn read_one(
    name: &str,
    text: &str,
    spec: &RulesSpec,
    layout: Layout,
    only: bool,
) -> Result<Puzzle> {
    let mut entries = spec.read(text, layout, 1).into_iter();
    let Some(e) = entries.next() else {
        bail!("{name}: no puzzle found");
    };
    if let Some(second) = entries.next().filter(|_| only) {
        bail!(
            "{name}:{}: a second puzzle: export writes the problem of one puzzle (give a file of one, or the puzzle itself)",
            second.line
        );
    }
    e.puzzle
        .map_err(|err| anyhow!("{name}:{}: invalid puzzle: {}", e.line, err.words(BOX_HINT)))
}

/// A batch's (or a generator's) error; an output that failed, or threads
/// that could not start, as itself (a closed pipe is then no error:
/// [`crate::output::is_broken_pipe`]).
pub fn batch_error(e: BatchError) -> anyhow::Error {
    match e {
        BatchError::Output(io) => io.into(),
        BatchError::Threads(e) => e.into(),
        e => e.into(),
    }
}

/// The exit code of a verdict ([`Tally::verdict`], `RateCounts::verdict`).
pub fn found_of(v: BatchVerdict) -> Found {
    match v {
        BatchVerdict::Stopped => Found::Interrupted,
        BatchVerdict::Invalid => Found::Invalid,
        BatchVerdict::Answered => Found::Some,
        BatchVerdict::Unanswered => Found::None,
    }
}

/// The exit code of a batch, from its tally (`dancer merge` gives the
/// parts of a sharded batch the same).
pub fn found(t: &Tally, all_unique: bool) -> Found {
    found_of(t.verdict(all_unique))
}
