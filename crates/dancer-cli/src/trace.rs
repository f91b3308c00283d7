//! `dancer solve --trace`: every step of the search, as it happens.
//!
//! The steps come from the dancing-links engine itself
//! ([`dancer_core::engines::trace`]), one thread, the tree searched in
//! Knuth's order; each is printed as a line in the manner of Knuth's DLX1
//! at its verbose level, or with `--json` as an NDJSON record
//! ([`dancer_formats::trace::StepRecord`], the records the web app's Watch
//! view draws from), then the usual summary. `--trace-limit N` cuts the
//! trace (and the search) after N steps, and the summary says where.

use crate::output::{Found, Out};
use anyhow::{bail, Context, Result};
use dancer_core::engines::trace::{self, Action, TraceOptions, TraceStop};
use dancer_core::parallel::Stop;
use dancer_core::words::plural;
use dancer_core::{EngineError, EngineKind, Problem, Unsupported};
use dancer_formats::ndjson::SolveRecord;
use dancer_formats::trace::{text_line, Records, TraceEnd};

/// What `solve --trace` was asked for (from `solve`'s flags).
pub struct TraceRun<'a> {
    pub engine: EngineKind,
    pub trace_limit: Option<u64>,
    pub limit: Option<u64>,
    pub json: bool,
    pub verify: bool,
    pub stats: bool,
    /// The problem's file, `None` for standard input.
    pub file: Option<&'a str>,
}

/// Runs `problem` traced, printing each step to `out`.
pub fn run(args: &TraceRun, problem: &Problem, out: &mut Out) -> Result<Found> {
    let engine = args.engine;
    if !matches!(engine, EngineKind::Auto | EngineKind::Dlx) {
        bail!("--trace follows the dlx engine (Knuth's dancing links), not --engine {engine}");
    }
    let options = TraceOptions {
        detail: trace::Detail::Full,
        limit: args.trace_limit,
        cancel: Some(crate::interrupt::cancel_flag()),
    };
    let mut records = Records::default();
    let mut error = None;
    let mut invalid = None;
    let mut found = 0u64;
    let json = args.json;
    let started = std::time::Instant::now();
    let traced = trace::trace(problem, &options, |step| {
        let r = records.record(problem, step);
        let written = if json {
            out.record(&SolveRecord::Step(r))
        } else {
            out.line(&text_line(problem, &r))
        };
        let mut go = written.is_ok();
        if let Err(e) = written {
            error = Some(e);
        }
        if let Action::Solution { options } = &step.action {
            found += 1;
            if args.verify {
                if let Err(e) = dancer_core::verify(problem, options) {
                    invalid = Some((options.clone(), e));
                    go = false;
                }
            }
            if json && go {
                let r = out.record(&SolveRecord::Solution {
                    options: options.clone(),
                });
                if let Err(e) = r {
                    error = Some(e);
                    go = false;
                }
            }
            if args.limit.is_some_and(|l| found >= l) {
                go = false;
            }
        }
        go
    })
    .map_err(|e| match e {
        EngineError::Unsupported {
            reason: Unsupported::Multiplicities,
            ..
        } => anyhow::anyhow!(
            "{}: --trace follows Knuth's dancing links, which take no multiplicities (items with u:v| on the item line): solve it without --trace",
            args.file.unwrap_or("-")
        ),
        e => anyhow::anyhow!("{e}"),
    })?;
    if let Some((sol, e)) = invalid {
        bail!("engine produced an invalid solution {sol:?}: {e}");
    }
    if let Some(e) = error {
        return Err(anyhow::Error::from(e).context("cannot write the output"));
    }
    let stopped = match traced.stopped {
        None => None,
        Some(TraceStop::Cancelled) => Some(Stop::Interrupted),
        Some(TraceStop::Limit | TraceStop::Caller) => Some(Stop::Limit),
    };
    let mut stats = traced.stats.clone();
    stats.solutions = traced.solutions;
    stats.elapsed = started.elapsed();
    let at_limit = traced.stopped == Some(TraceStop::Limit);
    if json {
        let mut record = SolveRecord::summary(&stats, stopped.is_none(), stopped);
        if args.stats {
            record = record.with_profile(&stats);
        }
        if let SolveRecord::Summary { trace, .. } = &mut record {
            *trace = Some(TraceEnd {
                steps: traced.steps,
                at_limit,
                node: traced.at.map(|a| a.0),
                level: traced.at.map(|a| a.1),
            });
        }
        out.record(&record)?;
    }
    out.flush().context("cannot write the output")?;
    eprintln!("{}", summary(&traced, &stats, at_limit));
    if args.stats && !json {
        eprintln!("{}", profile(&stats));
    }
    // a trace cut at its limit printed what was asked for, as --limit does
    Ok(match at_limit {
        true => Found::Some,
        false => Found::of_search(traced.solutions, stopped),
    })
}

/// What `--stats` adds: the time, the deepest level, the nodes per level.
fn profile(stats: &dancer_core::Stats) -> String {
    let mut s = format!(
        "{:.3} s\nmaximum level {}\nnodes per level:",
        stats.elapsed.as_secs_f64(),
        stats.max_level()
    );
    for (l, n) in stats.profile_trimmed().iter().enumerate() {
        s.push_str(&format!("\n  {l:3} {n:12}"));
    }
    s
}

/// The summary line on standard error.
fn summary(t: &trace::Traced, stats: &dancer_core::Stats, at_limit: bool) -> String {
    let mut s = format!(
        "{}, {} ({} tried), {}, {} traced (engine dlx)",
        plural(t.solutions, "solution", "solutions"),
        plural(stats.nodes, "node", "nodes"),
        plural(stats.nodes.saturating_sub(1), "option", "options"),
        plural(stats.updates, "update", "updates"),
        plural(t.steps, "step", "steps"),
    );
    if let Some((node, level)) = t.at {
        let why = if at_limit {
            "the trace stopped at its limit"
        } else {
            "stopped"
        };
        s.push_str(&format!(
            "; {why}, in node {node} at level {level}: a count is a lower bound"
        ));
    } else if t.stopped == Some(TraceStop::Cancelled) {
        s.push_str("; interrupted");
    }
    s
}
