//! `dancer sudoku generate`: puzzles with one solution, minimal, of a
//! symmetry and a level (the generator, its policies and its run in
//! blocks are `dancer_sudoku::generate`'s; here are the flags, the words,
//! the bar and the printing).

use super::common::batch_error;
use crate::args::{JsonArg, Named, ThreadsArg};
use crate::output::{Found, Out};
use anyhow::Result;
use clap::Args;
use dancer_core::plural;
use dancer_sudoku::generate::{
    clock_seed, generate_blocks, Effort, GivensSymmetry, Made, RangeError, RatingRange, Request,
    RequestError, CANDIDATES_PER_SECOND,
};
use dancer_sudoku::logic::Level;
use dancer_sudoku::records;
use std::sync::atomic::Ordering;
use std::time::Duration;
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
    /// GivensSymmetry of the givens: none, rotate180, rotate90, mirror, diagonal
    #[arg(long, default_value = "none", value_parser = Named::new(GivensSymmetry::NAMES, |s| s.parse::<GivensSymmetry>()))]
    pub symmetry: GivensSymmetry,
    /// Grid size: 4, 9 or 16 (9 unless told; with --shape, the shape's
    /// grids are of its own size: the built-in ones 9x9, a shape file's
    /// as its `size` line says)
    #[arg(long)]
    pub size: Option<usize>,
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
    /// Stop after this many seconds, or `none`; puzzles not made by then
    /// are reported (exit 1 when fewer than asked were made). Default: 60 for ratings
    /// from 9.0 up (rare for random generation), else none
    #[arg(long, value_name = "SECONDS", value_parser = super::rate::parse_timeout)]
    pub timeout: Option<super::rate::Timeout>,
    /// Overlapping grids: samurai, twodoku, flower, sohei, butterfly,
    /// windmill, or a shape file: minimal puzzles with one solution, a line
    /// each (the shape's cells in reading order)
    #[arg(long, value_name = "NAME|FILE", conflicts_with_all = ["rating", "level", "killer", "not_minimal", "symmetry"])]
    pub shape: Option<String>,
    /// Killer Sudoku: unique killers with no givens, one MAP SUMS line
    /// each, of a --level on the killer scale (easy, medium, hard, expert;
    /// medium unless told)
    #[arg(long, conflicts_with_all = ["rating", "pretty", "not_minimal", "symmetry"])]
    pub killer: bool,
}

/// A request that cannot be met, in the command line's words: its flags
/// `--rating`, `--size` and `--not-minimal`.
fn request_error(e: RequestError) -> anyhow::Error {
    match e {
        RequestError::Size(n) => anyhow::anyhow!("--size must be 4, 9 or 16, not {n}"),
        RequestError::RareMinimal { .. } => anyhow::anyhow!("{e}: add --not-minimal"),
        e => e.into(),
    }
}

/// The default `--timeout` for ratings that are rare: one minute.
const RARE_TIMEOUT: u64 = 60;

/// What a request for rare ratings may expect, from the generator's
/// measured sample (`dancer_sudoku::generate::Rarity`), said before the
/// search starts.
fn rarity_words(r: RatingRange, threads: usize, limit: Option<Duration>) -> String {
    let rarity = r.rarity();
    let bound = match limit {
        Some(d) => format!("stopping after {:.0} s (--timeout)", d.as_secs_f64()),
        None => "no time limit (--timeout none); Ctrl-C stops".into(),
    };
    let speed = format!(
        "at {CANDIDATES_PER_SECOND:.0} candidates a second a thread as measured, {:.0} s a puzzle on {}",
        rarity.seconds_per_puzzle(threads),
        plural(threads, "thread", "threads")
    );
    if rarity.never_seen() {
        format!(
            "puzzles rated {:.1}-{:.1} are practically never made at random: none of the {} in the generator's sample rated so, fewer than 1 in {:.0} candidates expected ({speed} at least); {bound}",
            r.min,
            r.max,
            rarity.sample,
            rarity.candidates_per_puzzle()
        )
    } else {
        format!(
            "puzzles rated {:.1}-{:.1} are rare: {} of the {} in the generator's sample rated so, about 1 in {:.0} candidates ({speed}); {bound}",
            r.min,
            r.max,
            rarity.hits,
            rarity.sample,
            rarity.candidates_per_puzzle()
        )
    }
}

/// A rating range that cannot be, in the command line's words.
fn range_error(e: RangeError) -> anyhow::Error {
    anyhow::anyhow!("--rating {:?}: {}", e.text, e.problem)
}

pub fn run(args: GenerateArgs, out: &mut Out) -> Result<Found> {
    if let Some(shape) = &args.shape {
        let a = &args;
        let (json, pretty) = (a.json.json, a.pretty);
        let timeout = a.timeout.and_then(|t| t.0);
        let run = super::gattai::GattaiRun {
            size: a.size,
            count: a.count,
            seed: a.seed,
            threads: a.threads.get(),
            json,
            pretty,
            timeout,
        };
        return super::gattai::generate(shape, &run, out);
    }
    if args.killer {
        let run = super::killer::KillerRun {
            size: args.size.unwrap_or(9),
            count: args.count,
            seed: args.seed,
            level: args.level,
            threads: args.threads.get(),
            timeout: args.timeout.and_then(|t| t.0),
            json: args.json.json,
        };
        return super::killer::generate(&run, out);
    }
    let range = match (&args.rating, args.level) {
        (Some(r), _) => Some(r.parse::<RatingRange>().map_err(range_error)?),
        (None, Some(l)) => Some(RatingRange::of_level(l)),
        (None, None) => None,
    };
    let opts = Request {
        size: args.size.unwrap_or(9),
        symmetry: args.symmetry,
        minimal: !args.not_minimal,
        range,
    }
    .options()
    .map_err(request_error)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let (threads, count, start) = (args.threads.get(), args.count, Instant::now());
    let rare = range.filter(RatingRange::is_rare);
    let limit = match args.timeout {
        Some(t) => t.0,
        None => rare.map(|_| Duration::from_secs(RARE_TIMEOUT)),
    };
    let cancel = crate::interrupt::cancel_flag();
    let effort = match limit {
        Some(d) => Effort::until(cancel.clone(), start + d),
        None => Effort::with_cancel(cancel.clone()),
    };
    if let Some(r) = rare {
        eprintln!("dancer: {}", rarity_words(r, threads, limit));
    }
    let bar =
        crate::progress::terminal_bar(Some(count), "{pos}/{len} puzzles {elapsed} {wide_msg}");
    let tick = || {
        if !bar.is_hidden() {
            bar.inc(1);
            bar.set_message(effort.message());
        }
    };
    let (symmetry, json, pretty) = (args.symmetry, args.json.json, args.pretty);
    let print = |made: &[Made]| {
        let mut buf = String::new();
        for (p, rating) in made.iter().flatten() {
            records::push_generated(p, rating.as_ref(), symmetry, json, pretty, &mut buf);
        }
        out.text(&buf).and_then(|()| out.flush())
    };
    let g = generate_blocks(&opts, seed, count, range, threads, &effort, tick, print)
        .map_err(batch_error)?;
    bar.finish_and_clear();
    eprintln!(
        "{}",
        g.summary(start.elapsed().as_secs_f64(), threads, seed)
    );
    if cancel.load(Ordering::Relaxed) {
        eprintln!("interrupted: {} of {count} made", g.made);
        return Ok(Found::Interrupted);
    }
    if g.made < count {
        let secs = limit.map_or(0.0, |d| d.as_secs_f64());
        let why = if effort.stopped() {
            format!("the time allowed ({secs:.0} s, --timeout) ran out")
        } else {
            g.all_made(range, &effort)
                .err()
                .map_or(String::new(), |e| e.to_string())
        };
        eprintln!("{} of {count} made: {why} ({})", g.made, effort.message());
        return Ok(Found::None);
    }
    Ok(Found::Some)
}
