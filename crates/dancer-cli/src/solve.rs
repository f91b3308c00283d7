//! `dancer solve`.
//!
//! Every run goes through the core's split search: `dancer_runs::search`
//! cuts the tree into units (or re-cuts it as a resumed checkpoint says)
//! and selects this run's units, `dancer_core::parallel` runs them on
//! `--threads` workers. What is left here: reading the problem and the
//! checkpoint, printing solutions, progress and the summary, and writing
//! the checkpoint and shard files (each to a temporary file beside it,
//! flushed, then renamed over it).

use crate::args::{EngineArg, JsonArg, ProgressArg, ProgressMode, ThreadsArg};
use crate::input::{read_problem, Format};
use crate::output::{ending_text, plural, Found, Out};
use crate::{interrupt, progress};
use anyhow::{bail, Context, Result};
use clap::Args;
use dancer_core::memo::MemoError;
use dancer_core::parallel::{Progress, UnitResult};
use dancer_core::Problem;
use dancer_formats::ndjson::SolveRecord;
use dancer_formats::out_file::{OutFile, OutKind, OutSet};
use dancer_runs::plan::{MemoRun, PlanError, RunHooks, RunOptions, RunPlan, SearchRun};
use dancer_runs::search::{Saved, SavedError, ShardSpec, SplitError};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct SolveArgs {
    /// Problem file (DLX format, or JSON if it ends in .json); - or nothing for standard input
    pub file: Option<String>,
    /// Count solutions without printing them
    #[arg(long)]
    pub count: bool,
    /// Stop after N solutions (found in this run); exit code 0 when stopped
    /// so, but the summary says "stopped at the limit": a count is then a
    /// lower bound
    #[arg(long, value_name = "N", value_parser = crate::args::parse_limit)]
    pub limit: Option<u64>,
    /// Print statistics: nodes, updates, maximum level, per-level profile, time
    #[arg(long)]
    pub stats: bool,
    #[command(flatten)]
    pub json: JsonArg,
    #[command(flatten)]
    pub engine: EngineArg,
    /// Input format (default: by extension, else dlx)
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Check every solution independently of the engine
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Print solutions in the order of the sequential search
    #[arg(long)]
    pub ordered: bool,
    #[command(flatten)]
    pub progress: ProgressArg,
    /// Save the run's position and counts to FILE every few seconds (atomically)
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = crate::args::parse_seconds)]
    pub checkpoint_every: f64,
    /// Continue the run saved in FILE (same problem and engine); keeps saving to it
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Run only part K of N (1-based) of the search, and write a result file for `dancer merge`
    #[arg(long, value_name = "K/N", value_parser = |s: &str| s.parse::<ShardSpec>().map_err(|e| e.to_string()))]
    pub shard: Option<ShardSpec>,
    /// Where the shard's result goes (default: shard-K-of-N.json)
    #[arg(long, value_name = "FILE")]
    pub shard_out: Option<PathBuf>,
    /// With --count: count with memos of the sub-problems met (what is left
    /// to cover), without visiting each solution: exact at any size, far
    /// beyond enumeration on boards and strips. One thread; shards
    /// (--shard K/N), but no limit or checkpoints. Without it, a count
    /// with `auto` uses memos where they certainly pay
    #[arg(long, requires = "count", conflicts_with_all = ["limit", "checkpoint", "resume", "ordered", "verify"])]
    pub memo: bool,
    /// The most memory the memos take (2GiB, 512M; default: a quarter of
    /// the machine's memory, at most a quarter of what this process may
    /// still get under ulimit -v and its cgroup); beyond it the cheapest
    /// are dropped and the count goes on, exact
    #[arg(long, value_name = "SIZE", requires = "memo", value_parser = crate::args::parse_size)]
    pub memo_memory: Option<u64>,
    /// With --memo: also write the ZDD of all the solutions to FILE
    /// (Knuth's text format, as DLX6 writes it), for `dancer zdd count`,
    /// `list` and `sample`
    #[arg(long, value_name = "FILE", requires = "memo", conflicts_with = "shard")]
    pub zdd: Option<PathBuf>,
}

/// The files a solve writes, checked before it starts
/// (`dancer_formats::out_file`): never the problem, never one another, a
/// checkpoint and a shard result only to regular files.
struct Outputs {
    checkpoint: Option<OutFile>,
    shard: Option<OutFile>,
    zdd: Option<OutFile>,
}

impl Outputs {
    fn new(args: &SolveArgs) -> Result<Outputs> {
        let problem = args.file.as_deref().filter(|f| *f != "-").map(Path::new);
        let mut set = OutSet::new(problem.map(|p| (p, "the problem")));
        let checkpoint = match (&args.checkpoint, &args.resume) {
            (Some(p), _) => Some(
                set.add(p, OutKind::State, "the checkpoint")
                    .context("--checkpoint")?,
            ),
            (None, Some(p)) => Some(
                set.add(p, OutKind::State, "the checkpoint")
                    .context("--resume")?,
            ),
            _ => None,
        };
        let shard = args.shard.map(|s| {
            let path = (args.shard_out.clone())
                .unwrap_or_else(|| PathBuf::from(format!("shard-{}-of-{}.json", s.k, s.n)));
            set.add(&path, OutKind::State, "the shard result")
                .context("--shard-out")
        });
        let zdd =
            (args.zdd.as_ref()).map(|p| set.add(p, OutKind::Product, "the ZDD").context("--zdd"));
        Ok(Outputs {
            checkpoint,
            shard: shard.transpose()?,
            zdd: zdd.transpose()?,
        })
    }
}

/// What the workers' results go through, one unit at a time.
struct Printed<'o> {
    out: &'o mut Out,
    first: bool,
    line: String,
    /// The first write error: the run is stopped, and it is returned.
    error: Option<std::io::Error>,
    save_error: Option<anyhow::Error>,
}

struct Printer<'a, 'o> {
    args: &'a SolveArgs,
    problem: &'a Problem,
    printed: Mutex<Printed<'o>>,
    /// Stops the run: a signal (see interrupt.rs), or a write error.
    cancel: Arc<AtomicBool>,
    bar: Option<ProgressBar>,
    checkpoint: Option<OutFile>,
}

impl Printer<'_, '_> {
    fn print(&self, p: &mut Printed<'_>, sol: &[usize]) -> std::io::Result<()> {
        if self.args.json.json {
            return p.out.record(&SolveRecord::Solution {
                options: sol.to_vec(),
            });
        }
        p.line.clear();
        if !p.first {
            p.line.push('\n');
        }
        p.first = false;
        for &o in sol {
            p.line.push_str(&self.problem.option_text(o));
            p.line.push('\n');
        }
        p.out.text(&p.line)
    }
}

impl RunHooks for Printer<'_, '_> {
    fn unit(&self, r: &UnitResult) {
        let mut p = self.printed.lock().expect("no thread panics holding it");
        let p = &mut *p;
        if self.args.count {
            return;
        }
        for sol in &r.solutions {
            if p.error.is_some() {
                return;
            }
            if let Err(e) = self.print(p, sol) {
                p.error = Some(e);
                self.cancel.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Saves the checkpoint; what was printed goes on its way first.
    fn save(&self, saved: &Saved) {
        let Some(file) = &self.checkpoint else {
            return;
        };
        let mut p = self.printed.lock().expect("no thread panics holding it");
        if let Err(e) = p.out.flush() {
            p.error.get_or_insert(e);
        }
        if let Err(e) = file.write(&saved.to_json()) {
            p.save_error = Some(anyhow::Error::from(e).context("cannot save the checkpoint"));
        }
    }

    fn progress(&self, pr: &Progress) {
        let rate = pr.nodes_per_second();
        let eta = pr.eta_seconds();
        match self.args.progress.progress {
            ProgressMode::Json => {
                let record = SolveRecord::Progress {
                    fraction: pr.fraction,
                    solutions: pr.solutions,
                    nodes: pr.nodes,
                    nodes_per_second: rate,
                    elapsed_seconds: pr.elapsed.as_secs_f64(),
                    eta_seconds: eta,
                    units_done: pr.units_done,
                    units: pr.units,
                };
                let line = serde_json::to_string(&record).expect("plain data serialises");
                eprintln!("{line}");
            }
            _ => {
                if let Some(bar) = &self.bar {
                    bar.set_position((pr.fraction * 1000.0) as u64);
                    bar.set_message(progress::search_message(pr.solutions, rate, eta));
                }
            }
        }
    }

    fn wants_progress(&self) -> bool {
        self.args.progress.progress == ProgressMode::Json || self.bar.is_some()
    }
}

/// Reads a checkpoint to resume.
fn read_checkpoint(path: &Path) -> Result<Saved> {
    let text = crate::input::read_file(path, crate::input::MAX_SMALL)?;
    Saved::from_json(&text).with_context(|| format!("{}: cannot resume from it", path.display()))
}

pub fn run(args: SolveArgs, out: &mut Out) -> Result<Found> {
    // the files it writes: never the problem it reads, never one another
    let outputs = Outputs::new(&args)?;
    let parsed = read_problem(args.file.as_deref(), args.format)?;
    let problem = &parsed.problem;
    let resume = args.resume.as_deref().map(read_checkpoint).transpose()?;
    // set by Ctrl-C, SIGTERM or SIGHUP: the search stops, and what it
    // found is printed
    let cancel = interrupt::cancel_flag();
    let options = RunOptions {
        engine: args.engine.engine,
        count: args.count,
        memo: args.memo,
        memo_memory: args.memo_memory,
        limit: args.limit,
        threads: args.threads.get(),
        ordered: args.ordered,
        verify: args.verify,
        resume,
        shard: args.shard,
        checkpoint_every: outputs
            .checkpoint
            .as_ref()
            .map(|_| Duration::from_secs_f64(args.checkpoint_every)),
        cancel: Some(cancel.clone()),
        tick: Duration::from_millis(if args.progress.progress == ProgressMode::Json {
            1000
        } else {
            200
        }),
    };
    match options
        .plan(problem)
        .map_err(|e| plan_error(e, args.resume.as_deref()))?
    {
        RunPlan::Memo(memo) => run_memo(&args, &outputs, problem, &memo, out),
        RunPlan::Search(search) => run_search(&args, &outputs, problem, &search, cancel, out),
    }
}

/// A run that cannot be planned, in the command line's words.
pub fn plan_error(e: PlanError, resume: Option<&Path>) -> anyhow::Error {
    match e {
        PlanError::MemoWithEngine(_) => {
            anyhow::anyhow!("--memo counts with its own search: leave out --engine")
        }
        PlanError::MemoMemory { asked, left } => anyhow::anyhow!(
            "--memo-memory {}: the memos may take up to twice that, and this process can get at most {} more (its address-space or cgroup limit); ask for at most {}, or leave it out (the default fits the limits)",
            human_bytes(asked),
            human_bytes(left),
            human_bytes(left / 2)
        ),
        PlanError::Split(SplitError::Saved(e)) => {
            let path = resume.unwrap_or(Path::new("checkpoint"));
            match e {
                SavedError::Engine { theirs, ours } => anyhow::anyhow!(
                    "{}: the checkpoint was made with --engine {theirs}, not {ours}",
                    path.display()
                ),
                e => anyhow::anyhow!("{}: {e}", path.display()),
            }
        }
        e => e.into(),
    }
}

/// A problem the memoizing counter does not take, in the command line's
/// words: its flag `--memo`.
fn memo_error(e: MemoError) -> anyhow::Error {
    match e {
        MemoError::TooWide { width } => anyhow::anyhow!(
            "the problem's frontier is too wide for memoized counting ({width} items at one position): count without --memo"
        ),
        e => e.into(),
    }
}

/// The split search: solutions printed unit by unit, checkpoints written
/// when the run hands them out, then the summary.
fn run_search(
    args: &SolveArgs,
    outputs: &Outputs,
    problem: &Problem,
    search: &SearchRun,
    cancel: Arc<AtomicBool>,
    out: &mut Out,
) -> Result<Found> {
    let bar = (args.progress.progress == ProgressMode::Auto)
        .then(progress::on_terminal)
        .flatten()
        .map(progress::search_bar);
    let printer = Printer {
        args,
        problem,
        printed: Mutex::new(Printed {
            out,
            first: true,
            line: String::new(),
            error: None,
            save_error: None,
        }),
        cancel,
        bar,
        checkpoint: outputs.checkpoint.clone(),
    };
    let ran = search.run(problem, &printer)?;
    if let Some(b) = &printer.bar {
        b.finish_and_clear();
    }
    let mut p = printer.printed.lock().expect("the run is over");
    if let Some(e) = p.save_error.take() {
        return Err(e);
    }
    if let Some((sol, e)) = &ran.invalid {
        bail!("engine produced an invalid solution {sol:?}: {e}");
    }
    if let Some(e) = p.error.take() {
        return Err(anyhow::Error::from(e).context("cannot write the output"));
    }
    if let (Some(file), Some(result)) = (&outputs.shard, &ran.shard) {
        file.write(&result.to_json())
            .context("cannot write the shard result")?;
    }
    let stats = &ran.stats;
    let out = &mut *p.out;
    if args.json.json {
        let mut record = SolveRecord::summary(stats, ran.complete, ran.stopped);
        if let SolveRecord::Summary {
            max_level, profile, ..
        } = &mut record
        {
            if args.stats {
                *max_level = Some(stats.max_level());
                *profile = Some(stats.profile_trimmed().to_vec());
            }
        }
        out.record(&record)?;
    } else if args.count {
        out.line(&stats.solutions.to_string())?;
    }
    // the partial result of an interrupted run is out too, before the exit
    out.flush()?;
    search_summary(args, problem, search, stats, ran.stopped, ran.verified);
    Ok(Found::of_search(stats.solutions, ran.stopped))
}

/// What a split search did, on standard error.
fn search_summary(
    args: &SolveArgs,
    problem: &Problem,
    search: &SearchRun,
    stats: &dancer_core::Stats,
    stopped: Option<dancer_core::parallel::Stop>,
    verified: Option<u64>,
) {
    let secs = stats.elapsed.as_secs_f64();
    let split = &search.split;
    // nodes and updates are counted by each engine in its own way: the
    // summary says whose they are
    eprintln!(
        "engine {}: {}, {}, {}, {secs:.3} s ({})",
        search.engine,
        plural(stats.solutions, "solution", "solutions"),
        plural(stats.nodes, "node", "nodes"),
        plural(stats.updates, "update", "updates"),
        ending_text(stopped)
    );
    if let Some(verified) = verified {
        eprintln!(
            "verified {} against the problem, not the engine: {}",
            plural(verified, "solution", "solutions"),
            dancer_core::what_is_checked(problem)
        );
    }
    if args.stats {
        eprintln!(
            "{}, {} at depth {}; {} ({} primary), {}, {}",
            plural(search.config.threads, "thread", "threads"),
            plural(split.plan.units.len(), "unit", "units"),
            split.plan.depth,
            plural(problem.n_items(), "item", "items"),
            problem.n_primary(),
            plural(problem.n_options(), "option", "options"),
            plural(problem.n_entries(), "entry", "entries")
        );
        eprintln!("maximum level {}", stats.max_level());
        if secs > 0.0 {
            eprintln!(
                "{:.0} nodes/s, {:.0} updates/s",
                stats.nodes as f64 / secs,
                stats.updates as f64 / secs
            );
        }
        eprintln!("nodes per level:");
        for (l, n) in stats.profile_trimmed().iter().enumerate() {
            eprintln!("  {l:3} {n:12}");
        }
    }
    if let Some(s) = args.shard {
        eprintln!(
            "shard {} of {}: {} of {}",
            s.k,
            s.n,
            split.selected.len(),
            plural(split.plan.units.len(), "unit", "units")
        );
    }
}

/// `dancer solve --count --memo`: the memoizing counter
/// ([`dancer_core::memo`]), its count on standard output (a JSON summary
/// with `--json`), what it did on standard error.
fn run_memo(
    args: &SolveArgs,
    outputs: &Outputs,
    problem: &Problem,
    memo: &MemoRun,
    out: &mut Out,
) -> Result<Found> {
    let show = args.progress.progress == ProgressMode::Auto;
    let r = memo_count(problem, memo, outputs.zdd.as_ref(), show)?;
    let stopped = (!r.complete).then_some(dancer_core::parallel::Stop::Interrupted);
    if let (Some(s), Some(file)) = (args.shard, &outputs.shard) {
        let saved = Saved::memo_shard(problem, (s.k, s.n), &r);
        file.write(&saved.to_json())
            .context("cannot write the shard result")?;
        let path = file.path();
        if let Some(sp) = r.split {
            eprintln!(
                "shard {}/{}: {} of {} (memo, {} down), written to {}",
                s.k,
                s.n,
                plural(s.units_of(sp.units), "unit", "units"),
                sp.units,
                plural(sp.depth, "level", "levels"),
                path.display()
            );
        }
    }
    if args.json.json {
        out.record(&SolveRecord::memo_summary(&r, stopped))?;
    } else {
        out.line(&r.count.to_string())?;
    }
    out.flush()?;
    memo_summary(&r, args.stats.then_some(problem), memo.memory);
    Ok(memo_found(&r))
}

/// The memoized count of `problem` as `memo` decides (its cap, its
/// part), stopped by a signal; a problem it cannot take is an error. With
/// `show`, a spinner on standard error when it is a terminal
/// (sub-problems, hits, the cache's size, the rate). With `zdd`, the ZDD
/// of the solutions is written there (to a temporary file beside it,
/// renamed when complete; an interrupted count leaves no ZDD).
pub fn memo_count(
    problem: &Problem,
    memo: &MemoRun,
    zdd: Option<&OutFile>,
    show: bool,
) -> Result<dancer_core::memo::MemoOutcome> {
    let shown = show.then(progress::on_terminal).flatten().map(|target| {
        let pr = Arc::new(dancer_core::memo::MemoProgress::default());
        (pr.clone(), memo_spinner(target, pr))
    });
    let opts = memo.options(shown.as_ref().map(|(pr, _)| pr.clone()));
    let _spinner = shown.map(|(_, s)| s);
    let Some(path) = zdd else {
        return dancer_core::memo::count(problem, &opts).map_err(memo_error);
    };
    let mut w = path.create()?;
    let r = dancer_core::memo::count_to_zdd(problem, &opts, &mut w).map_err(memo_error)?;
    if !r.complete {
        // an interrupted count leaves no ZDD (the writer, dropped, takes
        // its temporary file away)
        return Ok(r);
    }
    w.commit().context("cannot write the ZDD")?;
    eprintln!(
        "wrote the ZDD of {} to {} ({})",
        plural(&r.count, "solution", "solutions"),
        path.path().display(),
        plural(r.stats.zdd_nodes, "node", "nodes")
    );
    Ok(r)
}

/// A spinner for a memoized count, redrawn five times a second from `pr`
/// (by indicatif's ticker) until it is dropped: `memo: 12.3M
/// sub-problems, 4.57M hits, 812 MiB cached, 1.20M/s, 42 s` (within 80
/// columns).
struct MemoSpinner(ProgressBar);

impl Drop for MemoSpinner {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

fn memo_spinner(
    target: indicatif::ProgressDrawTarget,
    pr: Arc<dancer_core::memo::MemoProgress>,
) -> MemoSpinner {
    let start = Instant::now();
    let memo = move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let nodes = pr.nodes.load(Ordering::Relaxed);
        let secs = start.elapsed().as_secs_f64();
        let (hits, bytes) = (
            pr.hits.load(Ordering::Relaxed),
            pr.bytes.load(Ordering::Relaxed),
        );
        let rate = nodes as f64 / secs.max(1e-9);
        let _ = w.write_str(&memo_message(nodes, hits, bytes, rate, secs));
    };
    let bar = ProgressBar::with_draw_target(None, target);
    let style = indicatif::ProgressStyle::with_template("{spinner} {memo}");
    bar.set_style(style.expect("a valid template").with_key("memo", memo));
    bar.enable_steady_tick(Duration::from_millis(200));
    MemoSpinner(bar)
}

/// The message of a memoized count's spinner.
pub fn memo_message(nodes: u64, hits: u64, bytes: u64, per_second: f64, secs: f64) -> String {
    format!(
        "memo: {} sub-problems, {} hits, {} MiB cached, {}/s, {}",
        progress::rate(nodes as f64),
        progress::rate(hits as f64),
        bytes >> 20,
        progress::rate(per_second),
        progress::duration(secs)
    )
}

/// What a memoized count did, on standard error; with `stats`, the
/// problem's size and the rest of the counters too.
pub fn memo_summary(r: &dancer_core::memo::MemoOutcome, stats: Option<&Problem>, memory: u64) {
    let s = &r.stats;
    let stopped = (!r.complete).then_some(dancer_core::parallel::Stop::Interrupted);
    let mib = |b: u64| b as f64 / f64::from(1 << 20);
    eprintln!(
        "memo: {}, {}, {}, {} kept (peak {:.1} MiB), {:.3} s ({})",
        plural(&r.count, "solution", "solutions"),
        plural(s.nodes, "node", "nodes"),
        plural(s.hits, "hit", "hits"),
        plural(s.entries, "count", "counts"),
        mib(s.peak_bytes),
        s.elapsed.as_secs_f64(),
        ending_text(stopped)
    );
    if let Some(problem) = stats {
        eprintln!(
            "{} tried, {} stored, {} dropped for the {:.0} MiB cap; frontier of at most {}; {} order",
            plural(s.options_tried, "option", "options"),
            plural(s.stored, "count", "counts"),
            s.evicted,
            mib(memory),
            plural(s.width, "item", "items"),
            if s.own_order { "the problem's own" } else { "a grown" }
        );
        eprintln!(
            "{} ({} primary), {}, {}; one thread",
            plural(problem.n_items(), "item", "items"),
            problem.n_primary(),
            plural(problem.n_options(), "option", "options"),
            plural(problem.n_entries(), "entry", "entries")
        );
    }
}

/// What a memoized count found, for the exit code.
pub fn memo_found(r: &dancer_core::memo::MemoOutcome) -> Found {
    if !r.complete {
        Found::Interrupted
    } else if r.count.is_zero() {
        Found::None
    } else {
        Found::Some
    }
}

/// `512 MiB`, `3.2 GiB`.
fn human_bytes(b: u64) -> String {
    if b >= 1 << 30 {
        format!("{:.1} GiB", b as f64 / f64::from(1 << 30))
    } else {
        format!("{} MiB", b >> 20)
    }
}

#[cfg(test)]
mod tests {
    /// The library says what it cannot do with no flag; the command line
    /// names its own.
    #[test]
    fn errors_name_the_flags_here_only() {
        use dancer_core::memo::MemoError;
        use dancer_runs::search::SavedError;
        let wide = MemoError::TooWide { width: 70 };
        assert!(!wide.to_string().contains("--"), "{wide}");
        assert_eq!(
            super::memo_error(wide).to_string(),
            "the problem's frontier is too wide for memoized counting (70 items at one position): count without --memo"
        );
        let engine = SavedError::Engine {
            theirs: "dlx".into(),
            ours: "bitset".into(),
        };
        assert!(!engine.to_string().contains("--"), "{engine}");
        let e = super::plan_error(
            dancer_runs::plan::PlanError::Split(engine.into()),
            Some(std::path::Path::new("ck.json")),
        );
        assert_eq!(
            e.to_string(),
            "ck.json: the checkpoint was made with --engine dlx, not bitset"
        );
    }

    /// The spinner's message fits 80 columns with its spinner, at the
    /// largest numbers it shows.
    #[test]
    fn memo_message_fits_80_columns() {
        let m = super::memo_message(
            999_000_000_000,
            999_000_000_000,
            u64::MAX >> 24,
            9.99e11,
            9e8,
        );
        assert!(m.chars().count() + 2 <= 80, "{m}");
        let m = super::memo_message(12_300_000, 4_570_000, 812 << 20, 1.2e6, 42.0);
        assert_eq!(
            m,
            "memo: 12.3M sub-problems, 4.57M hits, 812 MiB cached, 1.20M/s, 42 s"
        );
    }
}
