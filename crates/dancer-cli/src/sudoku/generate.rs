//! `dancer sudoku generate`: puzzles with one solution, minimal, of a
//! symmetry and a level (the generator and its policies are
//! `dancer_sudoku::generate`'s).

use crate::args::{JsonArg, Named, ThreadsArg};
use crate::output::{Found, Out};
use anyhow::{bail, Result};
use clap::Args;
use dancer_sudoku::generate::{clock_seed, generate_batch, RatingRange, Request, Symmetry};
use dancer_sudoku::logic::Level;
use dancer_sudoku::records;
use std::io::IsTerminal;
use std::time::Instant;

#[derive(Args)]
pub struct GenerateArgs {
    /// How many puzzles
    #[arg(long, default_value = "1")]
    pub count: usize,
    /// Difficulty level (9x9): easy, medium, hard, expert, extreme
    #[arg(long, conflicts_with = "rating", value_parser = Named::new(Level::NAMES, |s| Level::from_name(s).ok_or_else(|| format!("unknown level {s:?} (known: {})", Level::NAMES.join(", ")))))]
    pub level: Option<Level>,
    /// SE rating range A-B, e.g. 3.0-4.5 (9x9)
    #[arg(long, value_name = "A-B")]
    pub rating: Option<String>,
    /// Symmetry of the givens: none, rotate180, rotate90, mirror, diagonal
    #[arg(long, default_value = "none", value_parser = Named::new(Symmetry::NAMES, |s| s.parse::<Symmetry>()))]
    pub symmetry: Symmetry,
    /// Grid size: 4, 9 or 16
    #[arg(long, default_value = "9")]
    pub size: usize,
    /// Random seed (the same seed and flags give the same puzzles)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Do not insist that no given can be removed
    #[arg(long)]
    pub not_minimal: bool,
    /// (Output order is kept whatever the number of threads.)
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub json: JsonArg,
    /// Print each puzzle as a grid with box lines (a blank line after each)
    #[arg(long, conflicts_with = "json")]
    pub pretty: bool,
}

pub fn run(args: GenerateArgs, out: &mut Out) -> Result<Found> {
    let range = match (&args.rating, args.level) {
        (Some(r), _) => Some(r.parse::<RatingRange>()?),
        (None, Some(l)) => Some(RatingRange::of_level(l)),
        (None, None) => None,
    };
    let opts = Request {
        size: args.size,
        symmetry: args.symmetry,
        minimal: !args.not_minimal,
        range,
    }
    .options()?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let threads = args.threads.get();
    let start = Instant::now();
    let bar = (std::io::stderr().is_terminal() && args.count > 1).then(|| {
        let b = indicatif::ProgressBar::new(args.count as u64);
        b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        b
    });
    let made = generate_batch(&opts, seed, args.count, range, threads, || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut failed = 0;
    for m in &made {
        let Some((p, rating)) = m else {
            failed += 1;
            continue;
        };
        if args.json.json {
            out.record(&records::generate_record(p, rating.as_ref(), args.symmetry))?;
        } else if args.pretty {
            out.line(&p.givens.pretty(&p.rules))?;
        } else {
            out.line(&p.to_line())?;
        }
    }
    out.flush()?;
    let secs = start.elapsed().as_secs_f64();
    let n = made.len() - failed;
    eprintln!(
        "{n} puzzle{} in {secs:.2} s ({:.1} ms each, {threads} thread{}), seed {seed}",
        if n == 1 { "" } else { "s" },
        secs * 1000.0 / (made.len() - failed).max(1) as f64,
        if threads == 1 { "" } else { "s" }
    );
    if failed > 0 {
        bail!(
            "{failed} puzzle{} could not be made with these settings",
            if failed == 1 { "" } else { "s" }
        );
    }
    Ok(Found::Some)
}
