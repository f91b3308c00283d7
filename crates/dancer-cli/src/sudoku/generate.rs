//! `dancer sudoku generate`: puzzles with one solution, minimal, of a
//! symmetry and a level (the generator and its policies are
//! `dancer_sudoku::generate`'s).

use crate::args::{JsonArg, Named, ThreadsArg};
use crate::output::{Found, Out};
use anyhow::{bail, Result};
use clap::Args;
use dancer_core::plural;
use dancer_sudoku::generate::{
    clock_seed, generate_range, Effort, RangeError, RatingRange, Request, RequestError, Symmetry,
    ATTEMPTS, RARE_RATING,
};
use dancer_sudoku::logic::Level;
use dancer_sudoku::records;
use std::io::IsTerminal;
use std::time::Instant;

#[derive(Args)]
pub struct GenerateArgs {
    /// How many puzzles (printed as they are made)
    #[arg(long, default_value = "1", value_parser = crate::args::parse_limit)]
    pub count: u64,
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
    /// Do not insist that no given can be removed: with a symmetry, no
    /// symmetric group of givens can (needed for 16x16 with a symmetry,
    /// where minimal puzzles are too rare to look for)
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

/// Puzzles made at a time: each block is printed (and flushed) as soon
/// as it is done, so that memory stays small and output flows whatever
/// `--count` is.
const BLOCK: u64 = 256;

/// A request that cannot be met, in the command line's words: its flags
/// `--rating`, `--size` and `--not-minimal`.
fn request_error(e: RequestError) -> anyhow::Error {
    match e {
        RequestError::Size(n) => anyhow::anyhow!("--size must be 4, 9 or 16, not {n}"),
        RequestError::RareMinimal { .. } => anyhow::anyhow!("{e}: add --not-minimal"),
        e => e.into(),
    }
}

/// A rating range that cannot be, in the command line's words.
fn range_error(e: RangeError) -> anyhow::Error {
    anyhow::anyhow!("--rating {:?}: {}", e.text, e.problem)
}

pub fn run(args: GenerateArgs, out: &mut Out) -> Result<Found> {
    let range = match (&args.rating, args.level) {
        (Some(r), _) => Some(r.parse::<RatingRange>().map_err(range_error)?),
        (None, Some(l)) => Some(RatingRange::of_level(l)),
        (None, None) => None,
    };
    let opts = Request {
        size: args.size,
        symmetry: args.symmetry,
        minimal: !args.not_minimal,
        range,
    }
    .options()
    .map_err(request_error)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let threads = args.threads.get();
    let count = args.count;
    let start = Instant::now();
    let cancel = crate::interrupt::cancel_flag();
    let effort = Effort::with_cancel(cancel.clone());
    let terminal = std::io::stderr().is_terminal();
    if let Some(r) = range.filter(|r| r.min >= RARE_RATING) {
        eprintln!(
            "dancer: puzzles rated {:.1}-{:.1} are rare: each may take up to {ATTEMPTS} candidate grids (minutes); Ctrl-C stops",
            r.min, r.max
        );
    }
    let bar = terminal.then(|| {
        let b = indicatif::ProgressBar::with_draw_target(
            Some(count),
            indicatif::ProgressDrawTarget::stderr(),
        );
        b.set_style(
            indicatif::ProgressStyle::with_template("{pos}/{len} puzzles {elapsed} {wide_msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.enable_steady_tick(std::time::Duration::from_millis(200));
        b
    });
    let mut made_n: u64 = 0;
    let mut failed: u64 = 0;
    let mut next: u64 = 0;
    while next < count && !effort.stopped() {
        let end = next.saturating_add(BLOCK).min(count);
        let made = generate_range(&opts, seed, next..end, range, threads, &effort, || {
            if let Some(b) = &bar {
                b.inc(1);
                let best = effort
                    .best()
                    .map_or(String::new(), |x| format!(", hardest seen SE {x:.1}"));
                b.set_message(format!("{} candidates tried{best}", effort.tries()));
            }
        })?;
        next = end;
        for m in &made {
            let Some((p, rating)) = m else {
                failed += 1;
                continue;
            };
            made_n += 1;
            if args.json.json {
                out.record(&records::generate_record(p, rating.as_ref(), args.symmetry))?;
            } else if args.pretty {
                out.line(&p.givens.pretty(&p.rules))?;
            } else {
                out.line(&p.to_line())?;
            }
        }
        out.flush()?;
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    let each = if made_n > 0 {
        format!("{:.1} ms each, ", secs * 1000.0 / made_n as f64)
    } else {
        String::new()
    };
    eprintln!(
        "{} in {secs:.2} s ({each}{}), seed {seed}",
        plural(made_n, "puzzle", "puzzles"),
        plural(threads, "thread", "threads"),
    );
    if effort.stopped() {
        eprintln!("interrupted: {made_n} of {count} made");
        return Ok(Found::Interrupted);
    }
    if failed > 0 {
        let wanted = range.map_or(String::new(), |r| {
            format!(" rated {:.1}-{:.1}", r.min, r.max)
        });
        let best = effort.best().map_or(String::new(), |x| {
            format!("; the hardest candidate rated SE {x:.1}")
        });
        bail!(
            "{} could not be made: no puzzle{wanted} was found in {ATTEMPTS} candidate grids each ({} tried in all{best})",
            plural(failed, "puzzle", "puzzles"),
            effort.tries()
        );
    }
    Ok(Found::Some)
}
