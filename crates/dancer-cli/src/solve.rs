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
use crate::output::{Found, Out};
use crate::{interrupt, progress};
use anyhow::{bail, Context, Result};
use clap::Args;
use dancer_core::memo::MemoError;
use dancer_core::parallel::{Progress, SolutionBlock, UnitResult};
use dancer_core::words::plural;
use dancer_core::Problem;
use dancer_formats::ndjson::SolveRecord;
use dancer_formats::out_file::{OutFile, OutKind, OutSet};
use dancer_runs::plan::{MemoRun, PlanError, RunHooks, RunOptions, RunPlan, SearchRun};
use dancer_runs::search::{Saved, SavedError, ShardSpec, SplitError};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
    /// Print every step of the search as it happens (choose an item,
    /// cover, hide, try option k of n, solution, backtrack, unhide,
    /// uncover), in the manner of Knuth's DLX1 at its verbose level; with
    /// --json one record per step ("type":"step"). The dlx engine, one
    /// thread
    #[arg(long, conflicts_with_all = ["count", "memo", "checkpoint", "checkpoint_every", "resume", "shard", "shard_out", "ordered", "threads", "progress", "zdd", "memo_memory"])]
    pub trace: bool,
    /// With --trace: stop the trace, and the search, after N steps (the
    /// summary says where)
    #[arg(long, value_name = "N", requires = "trace", value_parser = crate::args::parse_limit)]
    pub trace_limit: Option<u64>,
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
        let mut add = |path: Option<&Path>, kind, what, flag| {
            let added = path.map(|p| set.add(p, kind, what).context(flag));
            added.transpose()
        };
        let (state, product) = (OutKind::State, OutKind::Product);
        let (checkpoint, resume) = (args.checkpoint.as_deref(), args.resume.as_deref());
        let flag = if checkpoint.is_some() {
            "--checkpoint"
        } else {
            "--resume"
        };
        let checkpoint = add(checkpoint.or(resume), state, "the checkpoint", flag)?;
        // shard-K-of-N.json by default, as a Sudoku batch's part
        let shard_out = args.shard_out.as_deref();
        let shard = (args.shard).map(|s| dancer_runs::batch::part_path(shard_out, None, s));
        let shard = add(shard.as_deref(), state, "the shard result", "--shard-out")?;
        let zdd = add(args.zdd.as_deref(), product, "the ZDD", "--zdd")?;
        Ok(Outputs {
            checkpoint,
            shard,
            zdd,
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
    /// Prints a block of solutions as the run hands it on: the run waits
    /// meanwhile, so a slow reader holds the search up (nothing piles up).
    fn solutions(&self, _index: usize, block: &SolutionBlock) {
        let mut p = self.printed.lock().expect("no thread panics holding it");
        let p = &mut *p;
        if self.args.count {
            return;
        }
        for sol in block.iter() {
            if p.error.is_some() {
                return;
            }
            if let Err(e) = self.print(p, sol) {
                p.error = Some(e);
                self.cancel.store(true, Ordering::Relaxed);
            }
        }
    }

    fn unit(&self, _r: &UnitResult) {}

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
        if self.args.progress.progress == ProgressMode::Json {
            let line = serde_json::to_string(&SolveRecord::progress(pr));
            eprintln!("{}", line.expect("plain data serialises"));
        } else if let Some(bar) = &self.bar {
            bar.set_position((pr.fraction * 1000.0) as u64);
            bar.set_message(pr.to_string());
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
    if args.trace {
        let run = crate::trace::TraceRun {
            engine: args.engine.engine,
            trace_limit: args.trace_limit,
            limit: args.limit,
            json: args.json.json,
            verify: args.verify,
            stats: args.stats,
            file: args.file.as_deref(),
        };
        return crate::trace::run(&run, problem, out);
    }
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
            dancer_core::words::bytes(asked),
            dancer_core::words::bytes(left),
            dancer_core::words::bytes(left / 2)
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

/// The split search: solutions printed as the run hands them on (a block
/// at a time), checkpoints written when it hands them out, then the
/// summary.
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
        let record = SolveRecord::summary(stats, ran.complete, ran.stopped);
        out.record(&if args.stats {
            record.with_profile(stats)
        } else {
            record
        })?;
    } else if args.count {
        out.line(&stats.solutions.to_string())?;
    }
    // the partial result of an interrupted run is out too, before the exit
    out.flush()?;
    eprintln!("{}", search.summary(problem, &ran, args.stats));
    Ok(Found::of_search(stats.solutions, ran.stopped))
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
    let stopped = dancer_runs::summary::memo_stopped(&r);
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
    eprintln!("{}", memo.summary(&r, args.stats.then_some(problem)));
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
    let pr = Arc::new(dancer_core::memo::MemoProgress::default());
    let spinner = match show {
        true => progress::memo_spinner(pr.clone()),
        false => ProgressBar::hidden(),
    };
    let opts = memo.options((!spinner.is_hidden()).then_some(pr));
    let r = match zdd {
        None => dancer_core::memo::count(problem, &opts).map(|r| (r, None)),
        Some(path) => {
            let mut w = path.create()?;
            let r = dancer_core::memo::count_to_zdd(problem, &opts, &mut w);
            r.map(|r| (r, Some((w, path))))
        }
    };
    spinner.finish_and_clear();
    let (r, zdd) = r.map_err(memo_error)?;
    // an interrupted count leaves no ZDD (the writer, dropped, takes its
    // temporary file away)
    if let Some((w, path)) = zdd.filter(|_| r.complete) {
        w.commit().context("cannot write the ZDD")?;
        eprintln!(
            "wrote the ZDD of {} to {} ({})",
            plural(&r.count, "solution", "solutions"),
            path.path().display(),
            plural(r.stats.zdd_nodes, "node", "nodes")
        );
    }
    Ok(r)
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
}
