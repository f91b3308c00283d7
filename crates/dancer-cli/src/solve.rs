//! `dancer solve` and `dancer merge`.
//!
//! Every run goes through the core's split search (`dancer_core::parallel`):
//! the tree is cut into units, the units run on `--threads` workers, and
//! the same units make checkpoints (the completed ones, saved every few
//! seconds) and shards (dealt round-robin).

use crate::input::{read_problem, Format};
use crate::Found;
use anyhow::{bail, Context, Result};
use clap::Args;
use dancer_core::parallel::{self, Observer, Plan, Progress, RunConfig, UnitResult};
use dancer_core::{verify, EngineKind, Problem, Stats};
use dancer_formats::json::{SolutionLine, SummaryLine};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::io::{BufWriter, ErrorKind, IsTerminal, Write};
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
    /// Stop after N solutions (found in this run)
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Print statistics: nodes, updates, maximum level, per-level profile, time
    #[arg(long)]
    pub stats: bool,
    /// Print NDJSON: a line per solution, then a summary line
    #[arg(long)]
    pub json: bool,
    /// Search engine: auto (picks by problem shape), dlx (Knuth's, step for
    /// step), bitset (packings of up to 512 items)
    #[arg(long, default_value = "auto")]
    pub engine: String,
    /// Input format (default: by extension, else dlx)
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Check every solution independently of the engine
    #[arg(long)]
    pub verify: bool,
    /// Worker threads (default: all cores)
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Print solutions in the order of the sequential search
    #[arg(long)]
    pub ordered: bool,
    /// Progress on standard error: auto (a bar, when it is a terminal), json (NDJSON lines), none
    #[arg(long, value_enum, default_value = "auto")]
    pub progress: ProgressMode,
    /// Save the run's position and counts to FILE every few seconds (atomically)
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints
    #[arg(long, value_name = "SECS", default_value = "5")]
    pub checkpoint_every: f64,
    /// Continue the run saved in FILE (same problem and engine); keeps saving to it
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Run only part K of N (1-based) of the search, and write a result file for `dancer merge`
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Where the shard's result goes (default: shard-K-of-N.json)
    #[arg(long, value_name = "FILE")]
    pub shard_out: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressMode {
    Auto,
    Json,
    None,
}

/// A checkpoint, or a shard's result: what a later run needs to go on or
/// to add up.
#[derive(Serialize, Deserialize, Clone, Debug)]
struct Saved {
    format: String,
    version: String,
    fingerprint: String,
    engine: String,
    depth: usize,
    units: usize,
    /// Checkpoints: the completed units, as a hex bitmap.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    done: String,
    /// Shards: this part and the number of parts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shard: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shards: Option<usize>,
    solutions: u64,
    nodes: u64,
    updates: u64,
    #[serde(default)]
    profile: Vec<u64>,
    complete: bool,
    seconds: f64,
}

const CHECKPOINT: &str = "dancer-checkpoint";
const SHARD: &str = "dancer-shard";

fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

fn hex_bitmap(bits: &[bool]) -> String {
    bits.chunks(4)
        .map(|c| {
            let v = c
                .iter()
                .enumerate()
                .fold(0u8, |v, (i, &b)| v | ((b as u8) << i));
            char::from_digit(v as u32, 16).unwrap()
        })
        .collect()
}

fn parse_bitmap(s: &str, n: usize) -> Option<Vec<bool>> {
    let mut v = Vec::with_capacity(n);
    for ch in s.chars() {
        let d = ch.to_digit(16)?;
        for i in 0..4 {
            v.push(d >> i & 1 == 1);
        }
    }
    if v.len() < n {
        return None;
    }
    v.truncate(n);
    Some(v)
}

/// Writes `data` to `path` atomically: a temporary file beside it, flushed
/// to disk, then renamed over it.
fn write_atomically(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

fn parse_engine(s: &str, problem: &Problem) -> Result<EngineKind> {
    if s == "auto" {
        return Ok(dancer_core::choose_engine(problem));
    }
    let e: EngineKind = s
        .parse()
        .map_err(|e: dancer_core::UnknownEngine| anyhow::anyhow!("{e} (or auto)"))?;
    if !e.supports(problem) {
        e.build(problem)?;
    }
    Ok(e)
}

fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let (k, n) = s
        .split_once('/')
        .with_context(|| format!("--shard {s:?}: expected K/N, e.g. 3/16"))?;
    let k: usize = k
        .trim()
        .parse()
        .with_context(|| format!("--shard {s:?}: bad K"))?;
    let n: usize = n
        .trim()
        .parse()
        .with_context(|| format!("--shard {s:?}: bad N"))?;
    if n == 0 || k == 0 || k > n {
        bail!("--shard {s:?}: shards are numbered 1 to N (N at least 1)");
    }
    Ok((k, n))
}

struct Out {
    writer: BufWriter<std::io::Stdout>,
    first: bool,
    line: String,
    error: Option<std::io::Error>,
    bad: Option<String>,
    /// Checkpoint state: units done, their counters.
    done: Vec<bool>,
    saved: Stats,
    last_save: Instant,
    save_error: Option<anyhow::Error>,
}

struct Run<'a> {
    args: &'a SolveArgs,
    problem: &'a Problem,
    out: Mutex<Out>,
    bar: Option<ProgressBar>,
    checkpoint: Option<(PathBuf, Saved)>,
    start: Instant,
}

impl Run<'_> {
    fn save(&self, out: &mut Out, complete: bool) {
        if let Some(cp) = &self.checkpoint {
            save_checkpoint(cp, self.start, out, complete);
        }
    }
}

/// Writes the checkpoint: the template with the completed units and their
/// counters.
fn save_checkpoint(cp: &(PathBuf, Saved), start: Instant, out: &mut Out, complete: bool) {
    {
        let (path, template) = cp;
        let mut s = template.clone();
        s.done = hex_bitmap(&out.done);
        s.solutions = out.saved.solutions;
        s.nodes = out.saved.nodes;
        s.updates = out.saved.updates;
        s.profile = out.saved.profile_trimmed().to_vec();
        s.complete = complete;
        s.seconds += start.elapsed().as_secs_f64();
        let data = serde_json::to_vec_pretty(&s).expect("serialisable");
        if let Err(e) = write_atomically(path, &data) {
            out.save_error = Some(anyhow::anyhow!(
                "cannot write the checkpoint {}: {e}",
                path.display()
            ));
        }
        out.last_save = Instant::now();
    }
}

impl Observer for Run<'_> {
    fn unit(&self, r: &UnitResult) {
        let mut out = self.out.lock().unwrap();
        let out = &mut *out;
        for sol in &r.solutions {
            if self.args.verify {
                if let Err(e) = verify(self.problem, sol) {
                    out.bad
                        .get_or_insert(format!("engine produced an invalid solution {sol:?}: {e}"));
                }
            }
            if self.args.count || out.error.is_some() {
                continue;
            }
            let res = if self.args.json {
                serde_json::to_writer(&mut out.writer, &SolutionLine::new(sol))
                    .map_err(std::io::Error::from)
                    .and_then(|()| out.writer.write_all(b"\n"))
            } else {
                out.line.clear();
                if !out.first {
                    out.line.push('\n');
                }
                out.first = false;
                for &o in sol {
                    out.line.push_str(&self.problem.option_text(o));
                    out.line.push('\n');
                }
                out.writer.write_all(out.line.as_bytes())
            };
            if let Err(e) = res {
                out.error = Some(e);
            }
        }
        if r.complete && self.checkpoint.is_some() {
            out.done[r.index] = true;
            out.saved.merge(&r.stats);
            if out.last_save.elapsed().as_secs_f64() >= self.args.checkpoint_every {
                // what was printed must be on its way before the checkpoint
                // says it is done
                let _ = out.writer.flush();
                self.save(out, false);
            }
        }
    }

    fn progress(&self, p: &Progress) {
        let secs = p.elapsed.as_secs_f64();
        let eta = if p.fraction > 0.0 {
            secs * (1.0 - p.fraction) / p.fraction
        } else {
            f64::NAN
        };
        let rate = if secs > 0.0 {
            p.nodes as f64 / secs
        } else {
            0.0
        };
        match self.args.progress {
            ProgressMode::Json => {
                let line = serde_json::json!({
                    "type": "progress", "fraction": p.fraction, "solutions": p.solutions,
                    "nodes": p.nodes, "nodes_per_second": rate, "elapsed_seconds": secs,
                    "eta_seconds": if eta.is_finite() { Some(eta) } else { None },
                    "units_done": p.units_done, "units": p.units,
                });
                eprintln!("{line}");
            }
            _ => {
                if let Some(bar) = &self.bar {
                    bar.set_position((p.fraction * 1000.0) as u64);
                    let eta = if eta.is_finite() {
                        format!("{eta:.0} s")
                    } else {
                        "?".into()
                    };
                    bar.set_message(format!(
                        "{} solutions, {:.2e} nodes/s, eta {eta}",
                        p.solutions, rate
                    ));
                }
            }
        }
    }
}

pub fn run(args: SolveArgs) -> Result<Found> {
    let parsed = read_problem(args.file.as_deref(), args.format)?;
    let problem = &parsed.problem;
    let engine = parse_engine(&args.engine, problem)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if shard.is_some() && (args.checkpoint.is_some() || args.resume.is_some()) {
        bail!(
            "--shard does not combine with --checkpoint or --resume: rerun a failed shard instead"
        );
    }
    let fingerprint = format!("{:016x}", parallel::fingerprint(problem));

    // the plan: resumed from a checkpoint, or cut fresh
    let mut resumed: Option<Saved> = None;
    if let Some(path) = &args.resume {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the checkpoint {}", path.display()))?;
        let s: Saved = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a dancer checkpoint", path.display()))?;
        if s.format != CHECKPOINT {
            bail!(
                "{}: not a dancer checkpoint (format {:?})",
                path.display(),
                s.format
            );
        }
        if s.version != version() {
            bail!(
                "{}: checkpoint of dancer {}, this is dancer {}",
                path.display(),
                s.version,
                version()
            );
        }
        if s.fingerprint != fingerprint {
            bail!(
                "{}: the checkpoint is of a different problem",
                path.display()
            );
        }
        if s.engine != engine.name() {
            bail!(
                "{}: the checkpoint was made with --engine {}, not {}",
                path.display(),
                s.engine,
                engine.name()
            );
        }
        resumed = Some(s);
    }
    let target = match shard {
        Some((_, n)) => (64 * n).max(1024),
        None if args.checkpoint.is_some() || args.resume.is_some() => (64 * threads).max(1024),
        None => (64 * threads).max(256),
    };
    let plan: Plan = match &resumed {
        Some(s) => parallel::plan_at(problem, engine, s.depth)?,
        None => parallel::plan(problem, engine, target, 24)?,
    };
    let mut done = vec![false; plan.units.len()];
    let mut saved_stats = Stats::default();
    if let Some(s) = &resumed {
        if s.units != plan.units.len() {
            bail!(
                "the checkpoint has {} units, this problem {}: not the same search",
                s.units,
                plan.units.len()
            );
        }
        done = parse_bitmap(&s.done, s.units)
            .context("the checkpoint's list of completed units is damaged")?;
        saved_stats.solutions = s.solutions;
        saved_stats.nodes = s.nodes;
        saved_stats.updates = s.updates;
        saved_stats.profile = s.profile.clone();
    }
    let selected: Vec<usize> = (0..plan.units.len())
        .filter(|&i| !done[i])
        .filter(|&i| shard.is_none_or(|(k, n)| i % n == k - 1))
        .collect();
    let checkpoint_path = args.checkpoint.clone().or_else(|| args.resume.clone());
    let template = Saved {
        format: CHECKPOINT.into(),
        version: version(),
        fingerprint: fingerprint.clone(),
        engine: engine.name().into(),
        depth: plan.depth,
        units: plan.units.len(),
        done: String::new(),
        shard: None,
        shards: None,
        solutions: 0,
        nodes: 0,
        updates: 0,
        profile: Vec::new(),
        complete: false,
        seconds: resumed.as_ref().map_or(0.0, |s| s.seconds),
    };

    let cancel = Arc::new(AtomicBool::new(false));
    {
        let c = cancel.clone();
        // If the handler cannot be installed, Ctrl-C simply kills the
        // process; what was printed and checkpointed is kept either way.
        let _ = ctrlc::set_handler(move || c.store(true, Ordering::Relaxed));
    }
    let bar = (args.progress == ProgressMode::Auto && std::io::stderr().is_terminal()).then(|| {
        let b = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("{bar:40} {percent:>3}% {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    });
    let runner = Run {
        args: &args,
        problem,
        out: Mutex::new(Out {
            writer: BufWriter::with_capacity(1 << 16, std::io::stdout()),
            first: true,
            line: String::new(),
            error: None,
            bad: None,
            done,
            saved: saved_stats.clone(),
            last_save: Instant::now(),
            save_error: None,
        }),
        bar,
        checkpoint: checkpoint_path.map(|p| (p, template)),
        start: Instant::now(),
    };
    let cfg = RunConfig {
        engine,
        threads,
        ordered: args.ordered,
        limit: args.limit,
        cancel: Some(cancel.clone()),
        keep: !args.count || args.verify,
        tick: Duration::from_millis(if args.progress == ProgressMode::Json {
            1000
        } else {
            200
        }),
    };
    let start = Instant::now();
    let summary = parallel::run(problem, &plan, &selected, &cfg, &runner)?;
    let elapsed = start.elapsed();
    if let Some(b) = &runner.bar {
        b.finish_and_clear();
    }
    let mut out = runner.out.into_inner().unwrap();
    let complete_now = summary.complete;
    // the counts of the whole search (or shard): the top part once, the
    // units run now, and those done before a resume
    let mut stats = Stats::default();
    let include_top = shard.is_none_or(|(k, _)| k == 1);
    if include_top {
        stats.merge(&plan.top);
    }
    stats.merge(&summary.stats);
    stats.merge(&saved_stats);
    stats.elapsed = elapsed;
    if let Some(cp) = &runner.checkpoint {
        // a final checkpoint: complete, interrupted, or stopped at the limit
        let _ = out.writer.flush();
        save_checkpoint(cp, runner.start, &mut out, complete_now);
    }
    if let Some(e) = out.save_error.take() {
        return Err(e);
    }
    if let Some(msg) = out.bad.take() {
        bail!(msg);
    }
    let complete = complete_now;
    match out.error.take() {
        Some(e) if e.kind() == ErrorKind::BrokenPipe => {
            return Ok(if stats.solutions > 0 {
                Found::Some
            } else {
                Found::None
            });
        }
        Some(e) => bail!("cannot write the output: {e}"),
        None => {}
    }
    if let Some((k, n)) = shard {
        let path = args
            .shard_out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("shard-{k}-of-{n}.json")));
        let s = Saved {
            format: SHARD.into(),
            version: version(),
            fingerprint: fingerprint.clone(),
            engine: engine.name().into(),
            depth: plan.depth,
            units: plan.units.len(),
            done: String::new(),
            shard: Some(k),
            shards: Some(n),
            solutions: stats.solutions,
            nodes: stats.nodes,
            updates: stats.updates,
            profile: stats.profile_trimmed().to_vec(),
            complete,
            seconds: elapsed.as_secs_f64(),
        };
        write_atomically(&path, &serde_json::to_vec_pretty(&s).expect("serialisable"))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let writer = &mut out.writer;
    let w = |r: std::io::Result<()>| -> Result<()> {
        match r {
            Err(e) if e.kind() != ErrorKind::BrokenPipe => bail!("cannot write the output: {e}"),
            _ => Ok(()),
        }
    };
    if args.json {
        let mut line = SummaryLine::new(&stats, complete);
        if args.stats {
            line.max_level = Some(stats.max_level());
            line.profile = Some(stats.profile_trimmed().to_vec());
        }
        w(serde_json::to_writer(&mut *writer, &line)
            .map_err(std::io::Error::from)
            .and_then(|()| writer.write_all(b"\n")))?;
    } else if args.count {
        w(writeln!(writer, "{}", stats.solutions))?;
    }
    w(writer.flush())?;
    let how = if complete {
        "complete"
    } else if summary.cancelled {
        "interrupted: incomplete"
    } else if args.limit.is_some() {
        "stopped at the limit: incomplete"
    } else {
        "incomplete"
    };
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "{} solution{}, {} nodes, {} updates, {:.3} s ({how})",
        stats.solutions,
        if stats.solutions == 1 { "" } else { "s" },
        stats.nodes,
        stats.updates,
        secs
    );
    if args.stats {
        eprintln!(
            "engine {}, {} thread{}, {} units at depth {}; {} items ({} primary), {} options, {} entries",
            engine,
            threads,
            if threads == 1 { "" } else { "s" },
            plan.units.len(),
            plan.depth,
            problem.n_items(),
            problem.n_primary(),
            problem.n_options(),
            problem.n_entries()
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
    if let Some((k, n)) = shard {
        eprintln!(
            "shard {k} of {n}: {} of {} units",
            selected.len(),
            plan.units.len()
        );
    }
    Ok(if stats.solutions > 0 {
        Found::Some
    } else {
        Found::None
    })
}

#[derive(Args)]
pub struct MergeArgs {
    /// Result files written by `dancer solve --shard K/N`
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the summary as one NDJSON line, like `dancer solve --json`
    #[arg(long)]
    pub json: bool,
}

pub fn merge(args: MergeArgs) -> Result<Found> {
    let mut parts: Vec<(PathBuf, Saved)> = Vec::new();
    for f in &args.files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        let s: Saved = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a dancer shard result", f.display()))?;
        if s.format != SHARD {
            bail!(
                "{}: not a dancer shard result (format {:?})",
                f.display(),
                s.format
            );
        }
        parts.push((f.clone(), s));
    }
    let (f0, first) = &parts[0];
    let n = first.shards.context("shard result without a shard count")?;
    for (f, s) in &parts {
        for (what, a, b) in [
            ("version", &s.version, &first.version),
            ("problem", &s.fingerprint, &first.fingerprint),
            ("engine", &s.engine, &first.engine),
        ] {
            if a != b {
                bail!(
                    "{} and {}: different {what} ({a} and {b})",
                    f0.display(),
                    f.display()
                );
            }
        }
        if s.shards != Some(n) || s.depth != first.depth || s.units != first.units {
            bail!(
                "{} and {}: different splits of the search",
                f0.display(),
                f.display()
            );
        }
    }
    let mut seen: Vec<Option<&PathBuf>> = vec![None; n];
    for (f, s) in &parts {
        let k = s.shard.context("shard result without a shard number")?;
        if k == 0 || k > n {
            bail!("{}: shard {k} of {n} is out of range", f.display());
        }
        if let Some(other) = seen[k - 1] {
            bail!(
                "shard {k} of {n} appears twice: {} and {}",
                other.display(),
                f.display()
            );
        }
        seen[k - 1] = Some(f);
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| seen[k - 1].is_none())
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        bail!("missing shards of {n}: {}", missing.join(", "));
    }
    let mut stats = Stats::default();
    let mut complete = true;
    let mut seconds = 0.0;
    for (f, s) in &parts {
        if !s.complete {
            eprintln!(
                "warning: {} is incomplete (interrupted or limited)",
                f.display()
            );
            complete = false;
        }
        stats.merge(&Stats {
            solutions: s.solutions,
            nodes: s.nodes,
            updates: s.updates,
            profile: s.profile.clone(),
            elapsed: Duration::ZERO,
        });
        seconds += s.seconds;
    }
    stats.elapsed = Duration::from_secs_f64(seconds);
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&SummaryLine::new(&stats, complete))?
        );
    } else {
        println!("{}", stats.solutions);
    }
    eprintln!(
        "{} shards: {} solutions, {} nodes, {} updates, {seconds:.3} s of work ({})",
        n,
        stats.solutions,
        stats.nodes,
        stats.updates,
        if complete { "complete" } else { "incomplete" }
    );
    Ok(if stats.solutions > 0 {
        Found::Some
    } else {
        Found::None
    })
}
