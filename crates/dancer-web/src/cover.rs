//! The exact cover endpoints, and their jobs.
//!
//! An exact cover problem is Knuth's DLX text, read by
//! `dancer_formats::dlx` (`422 invalid_problem` with the line and column,
//! the message without them) and searched by `dancer_core`'s engines, the
//! job's loop pausing every few thousand nodes to tell its progress (the
//! engine's own estimate of the fraction explored).

use crate::body::JsonBody;
use crate::error::{At, Error, Result};
use crate::runtime::{engine_of, limit_of, solve_mode, Ctx, Ending, JobParts, Work};
use crate::{blocking, stopped, AppState};
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The name of a posted problem in messages.
const DLX_FILE: &str = "problem.dlx";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemReq {
    pub problem: String,
}

pub(crate) fn read_problem(text: &str) -> Result<dancer_formats::Parsed> {
    dancer_formats::dlx::read_str(text, DLX_FILE).map_err(|e| {
        let at = e
            .location()
            .map_or(At::none(), |l| At::line_col(l.line, l.col));
        let message = match e {
            dancer_formats::FormatError::Syntax { message, .. } => message,
            e => e.to_string(),
        };
        Error::InvalidProblem { message, at }
    })
}

/// `POST /api/cover/check`.
pub async fn cover_check(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<ProblemReq>,
) -> Result<Json<Value>> {
    blocking(&s, move |flag| {
        let parsed = read_problem(&r.problem)?;
        stopped(&flag)?;
        let p = &parsed.problem;
        let warnings: Vec<Value> = parsed
            .warnings
            .iter()
            .map(|w| json!({"line": w.at.line, "column": w.at.col, "message": w.message}))
            .collect();
        Ok(Json(json!({
            "items": p.n_primary(),
            "secondary": p.n_secondary(),
            "options": p.n_options(),
            "engine": dancer_core::choose_engine(p).to_string(),
            "warnings": warnings,
        })))
    })
    .await
}

/// An exact cover job: `{"kind":"cover","problem":"...","mode":"solve"|"count",
/// "limit":N,"engine":"auto","time":S,"keep":N}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoverSpec {
    pub problem: String,
    pub mode: Option<String>,
    pub limit: Option<u64>,
    pub engine: Option<String>,
    pub time: Option<f64>,
    pub keep: Option<usize>,
}

/// Nodes between two progress updates of a cover job.
const PAUSE: u64 = 1 << 14;

/// A cover job's search, watched: each solution sent to the job's page
/// (up to the limit), the nodes and the fraction done at each pause.
struct CoverWatcher<'c> {
    ctx: &'c Ctx,
    problem: &'c dancer_core::Problem,
    limit: Option<u64>,
    found: u64,
    at_limit: bool,
}

impl dancer_core::Watcher for CoverWatcher<'_> {
    fn solution(&mut self, options: &[dancer_core::OptionId]) -> bool {
        self.found += 1;
        let problem = self.problem;
        let go = self.ctx.solution(|n| {
            json!({
                "number": n,
                "options": options,
                "lines": options.iter().map(|&o| problem.option_text(o)).collect::<Vec<_>>(),
            })
        });
        if self.limit.is_some_and(|l| self.found >= l) {
            self.at_limit = true;
            return false;
        }
        go
    }

    fn progress(&mut self, nodes: u64, fraction: f64) -> bool {
        self.ctx
            .nodes
            .store(nodes, std::sync::atomic::Ordering::Relaxed);
        self.ctx.set_fraction(fraction);
        true
    }
}

/// Checks an exact cover job and makes its work (given up between its
/// steps once `flag`, the request's, is set).
pub fn cover_job(s: CoverSpec, flag: &AtomicBool) -> Result<JobParts> {
    let solve = solve_mode(s.mode.as_deref())?;
    let limit = limit_of(s.limit)?;
    let problem = read_problem(&s.problem)?.problem;
    stopped(flag)?;
    let kind = engine_of(s.engine.as_deref())?
        .resolve(&problem)
        .map_err(|e| Error::BadValue(e.to_string()))?;
    stopped(flag)?;
    let keep = if solve { s.keep } else { Some(0) };
    let work: Work = Box::new(move |ctx: &Ctx| {
        let mut engine = match kind.build(&problem) {
            Ok(e) => e,
            Err(e) => {
                return Ending {
                    error: Some(e.to_string()),
                    ..Ending::default()
                }
            }
        };
        engine.set_cancel(ctx.cancel.clone());
        let mut job = CoverWatcher {
            ctx,
            problem: &problem,
            limit,
            found: 0,
            at_limit: false,
        };
        dancer_core::watch(&mut *engine, Some(PAUSE), &mut job);
        let at_limit = job.at_limit;
        let stats = engine.stats();
        ctx.nodes
            .store(stats.nodes, std::sync::atomic::Ordering::Relaxed);
        Ending {
            complete: engine.is_complete(),
            limit: at_limit,
            updates: stats.updates,
            engine: Some(kind.to_string()),
            ..Ending::default()
        }
    });
    Ok(("cover", s.time, keep, work))
}
