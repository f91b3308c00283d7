//! Watching a search step by step: the endpoints behind the Watch view
//! (an exact cover problem, every step with its links) and the Polyforms
//! tab's watch mode (pieces placed and removed as the search goes).
//!
//! Both run the dancing-links engine traced
//! ([`dancer_core::engines::trace`]) and send its steps as the records of
//! `dancer solve --trace --json` ([`dancer_formats::trace::StepRecord`]):
//! the page draws from them, and never runs the algorithm itself. They
//! answer at once (no job): the problems are small, and the steps are cut
//! at a limit that the page states.

use crate::body::JsonBody;
use crate::error::{Error, Result};
use crate::poly::{poly_error, tiling, ProblemSpec, Source};
use crate::{blocking, stopped, AppState};
use axum::extract::State;
use axum::Json;
use dancer_core::engines::trace::{self, Detail, TraceOptions, TraceStop, Traced};
use dancer_core::Problem;
use dancer_formats::trace::{Records, StepRecord};
use dancer_poly::render::{self, Style};
use dancer_poly::Model;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The largest problem the Watch view takes: its matrix is drawn whole.
pub const MAX_ITEMS: usize = 100;
pub const MAX_OPTIONS: usize = 400;
pub const MAX_ENTRIES: usize = 2_000;
/// The most steps sent for one problem (and the default).
pub const MAX_STEPS: u64 = 20_000;
/// The largest polyform puzzle the watch mode takes: board cells and
/// placements.
pub const MAX_POLY_CELLS: usize = 200;
pub const MAX_PLACEMENTS: usize = 5_000;
/// The most steps (of choose, try, solution, backtrack) sent for a
/// polyform puzzle.
pub const MAX_POLY_STEPS: u64 = 50_000;

fn limits() -> Value {
    json!({
        "items": MAX_ITEMS,
        "options": MAX_OPTIONS,
        "entries": MAX_ENTRIES,
        "steps": MAX_STEPS,
    })
}

fn steps_of(asked: Option<u64>, most: u64) -> Result<u64> {
    match asked {
        None => Ok(most),
        Some(0) => Err(Error::BadValue("steps: at least 1".into())),
        Some(n) if n > most => Err(Error::BadValue(format!("steps: at most {most}"))),
        Some(n) => Ok(n),
    }
}

/// Runs `problem` traced: the records, and how it ended.
fn run(
    problem: &Problem,
    detail: Detail,
    limit: u64,
    cancel: Arc<AtomicBool>,
) -> Result<(Vec<StepRecord>, Traced)> {
    let options = TraceOptions {
        detail,
        limit: Some(limit),
        cancel: Some(cancel),
    };
    let mut records = Records::default();
    let mut steps = Vec::new();
    let traced = trace::trace(problem, &options, |s| {
        steps.push(records.record(problem, s));
        true
    })
    .map_err(|e| Error::BadValue(e.to_string()))?;
    if traced.stopped == Some(TraceStop::Cancelled) {
        // stopped by the cap on the work (answered already) or a shutdown
        return Err(Error::ShuttingDown);
    }
    Ok((steps, traced))
}

fn summary(t: &Traced) -> Value {
    json!({
        "solutions": t.solutions,
        "nodes": t.stats.nodes,
        "updates": t.stats.updates,
        "steps": t.steps,
        "complete": t.stopped.is_none(),
        "at_limit": t.stopped == Some(TraceStop::Limit),
        "node": t.at.map(|a| a.0),
        "level": t.at.map(|a| a.1),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceReq {
    pub problem: String,
    pub steps: Option<u64>,
}

/// `POST /api/cover/trace`: `{"problem": DLX text, "steps": N}` ->
/// the problem (items, options), every step (up to `steps`, at most
/// [`MAX_STEPS`]) with its links, and a summary.
pub async fn cover_trace(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<TraceReq>,
) -> Result<Json<Value>> {
    blocking(&s, move |cancel| {
        let limit = steps_of(r.steps, MAX_STEPS)?;
        let problem = crate::cover::read_problem(&r.problem)?.problem;
        let p = &problem;
        let too_big = |what: &str, n: usize, most: usize| {
            Error::TooBig(format!(
                "the problem has {n} {what}: the Watch view draws at most {most}"
            ))
        };
        if p.n_items() > MAX_ITEMS {
            return Err(too_big("items", p.n_items(), MAX_ITEMS));
        }
        if p.n_options() > MAX_OPTIONS {
            return Err(too_big("options", p.n_options(), MAX_OPTIONS));
        }
        if p.n_entries() > MAX_ENTRIES {
            return Err(too_big("entries", p.n_entries(), MAX_ENTRIES));
        }
        if p.has_multiplicities() {
            return Err(Error::Unsupported(
                "the Watch view follows Knuth's dancing links, which take no multiplicities (items with u:v| on the item line)"
                    .into(),
            ));
        }
        let (steps, traced) = run(p, Detail::Full, limit, cancel)?;
        let items: Vec<Value> = (0..p.n_items())
            .map(|i| json!({"name": p.item_name(i), "primary": p.is_primary(i)}))
            .collect();
        let options: Vec<Value> = (0..p.n_options())
            .map(|o| {
                let entries: Vec<String> = p
                    .option(o)
                    .entries()
                    .map(|e| match e.color {
                        0 => p.item_name(e.item).to_string(),
                        c => format!("{}:{}", p.item_name(e.item), p.color_name(c)),
                    })
                    .collect();
                json!({"entries": entries, "active": p.is_active(o)})
            })
            .collect();
        let heads = p.n_entries() + p.n_options() + 1;
        Ok(Json(json!({
            "items": items,
            "options": options,
            "heads": heads,
            "steps": steps,
            "summary": summary(&traced),
            "limits": limits(),
        })))
    })
    .await
}

/// A polyform puzzle in a watch request: a catalogue name, a puzzle file
/// (TOML), or a problem of a BurrTools file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolyWatchReq {
    pub toml: Option<String>,
    pub name: Option<String>,
    pub burr: Option<String>,
    pub problem: Option<ProblemSpec>,
    pub steps: Option<u64>,
}

/// A frame of a watched polyform search: the puzzle and the placements on
/// the board.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolyFrameReq {
    pub toml: Option<String>,
    pub name: Option<String>,
    pub burr: Option<String>,
    pub problem: Option<ProblemSpec>,
    pub placements: Vec<usize>,
}

impl PolyWatchReq {
    fn source(&self) -> Source<'_> {
        Source {
            toml: self.toml.as_deref(),
            name: self.name.as_deref(),
            burr: self.burr.as_deref(),
            problem: self.problem.as_ref(),
        }
    }
}

impl PolyFrameReq {
    fn source(&self) -> Source<'_> {
        Source {
            toml: self.toml.as_deref(),
            name: self.name.as_deref(),
            burr: self.burr.as_deref(),
            problem: self.problem.as_ref(),
        }
    }
}

impl Source<'_> {
    /// The puzzle's model, within the watch mode's limits (given up after
    /// the reading once `flag`, the request's, is set).
    fn model(&self, flag: &AtomicBool) -> Result<Model> {
        let loaded = self.load("toml, name or burr")?;
        stopped(flag)?;
        let cells = loaded.puzzle.board.cells.len();
        if cells > MAX_POLY_CELLS {
            return Err(Error::TooBig(format!(
                "the board has {cells} cells: watch takes at most {MAX_POLY_CELLS}"
            )));
        }
        let m = Model::new(loaded.puzzle).map_err(poly_error)?;
        if m.placements.len() > MAX_PLACEMENTS {
            return Err(Error::TooBig(format!(
                "the puzzle has {} placements: watch takes at most {MAX_PLACEMENTS}",
                m.placements.len()
            )));
        }
        Ok(m)
    }
}

/// `POST /api/poly/watch`: a small puzzle's search, as it places and
/// removes pieces: the placement of each option (its piece and colour), the
/// steps (choose, try, solution, backtrack; up to `steps`, at most
/// [`MAX_POLY_STEPS`]) and a summary. No symmetry is broken: this is the
/// search of the whole problem.
pub async fn poly_watch(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<PolyWatchReq>,
) -> Result<Json<Value>> {
    blocking(&s, move |cancel| {
        let limit = steps_of(r.steps, MAX_POLY_STEPS)?;
        let m = r.source().model(&cancel)?;
        let cover = m.cover(false);
        if cover.problem.has_multiplicities() {
            return Err(Error::Unsupported(
                "watch follows Knuth's dancing links, which take no multiplicities: this puzzle has several copies of some of its pieces (and more than one kind of piece)"
                    .into(),
            ));
        }
        let (mut steps, traced) = run(&cover.problem, Detail::Moves, limit, cancel)?;
        // what the choice was made from is of no use on a board, and half
        // the size
        for s in &mut steps {
            s.items = None;
        }
        let options: Vec<Value> = cover
            .options
            .iter()
            .map(|&(q, _)| {
                let piece = m.placements[q as usize].piece;
                json!({
                    "placement": q,
                    "piece": m.puzzle.pieces[piece].name,
                    "colour": render::piece_colour(piece as u32),
                })
            })
            .collect();
        Ok(Json(json!({
            "options": options,
            "steps": steps,
            "summary": summary(&traced),
            "frame": frame(&m, &[]),
            "limits": {"cells": MAX_POLY_CELLS, "placements": MAX_PLACEMENTS, "steps": MAX_POLY_STEPS},
        })))
    })
    .await
}

/// `POST /api/poly/frame`: the board with the given placements on it
/// (the rest of it grey), as an SVG picture.
pub async fn poly_frame(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<PolyFrameReq>,
) -> Result<Json<Value>> {
    blocking(&s, move |flag| {
        let m = r.source().model(&flag)?;
        let placed = &r.placements;
        let mut taken = vec![false; m.puzzle.board.cells.len()];
        for &q in placed {
            let Some(pl) = m.placements.get(q) else {
                return Err(Error::BadValue(format!(
                    "placements: {q} is not a placement (the puzzle has {})",
                    m.placements.len()
                )));
            };
            if pl
                .cells
                .iter()
                .any(|&c| std::mem::replace(&mut taken[c], true))
            {
                return Err(Error::BadValue(format!(
                    "placements: {q} overlaps a placement before it"
                )));
            }
        }
        Ok(Json(json!({ "svg": frame(&m, placed) })))
    })
    .await
}

/// The picture of the board with `placed` on it, the cells left grey.
fn frame(m: &Model, placed: &[usize]) -> String {
    let p = &m.puzzle;
    let mut on = vec![false; p.board.cells.len()];
    let mut cells = Vec::new();
    for (k, &q) in placed.iter().enumerate() {
        let pl = &m.placements[q];
        for &c in &pl.cells {
            on[c] = true;
            cells.push((p.board.cells[c], k as u32, pl.piece as u32));
        }
    }
    let empty = placed.len() as u32;
    for (c, _) in on.iter().enumerate().filter(|(_, &o)| !o) {
        cells.push((p.board.cells[c], empty, render::BOARD_PIECE));
    }
    cells.sort();
    let names = p.pieces.iter().map(|x| x.name.clone()).collect();
    let style = Style {
        labels: false,
        ..Style::default()
    };
    render::svg(&tiling(p, cells, names), &style)
}

/// The options tried by a trace's records (for the tests).
#[cfg(test)]
fn tries(steps: &[StepRecord]) -> usize {
    steps.iter().filter(|s| s.action == "try").count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lecture_problem_is_traced_to_its_one_solution() {
        let text = "1 2 3 4 5 6 7\n1 4 7\n1 4\n4 5 7\n3 5 6\n2 3 6 7\n2 7\n";
        let p = crate::cover::read_problem(text).unwrap().problem;
        let (steps, t) = run(&p, Detail::Full, 1000, Arc::default()).unwrap();
        assert_eq!(t.solutions, 1);
        assert_eq!(tries(&steps) as u64 + 1, t.stats.nodes);
        let sol = steps.iter().find(|s| s.action == "solution").unwrap();
        let mut options = sol.options.clone().unwrap();
        options.sort();
        assert_eq!(options, vec![1, 3, 5]); // B, D, F
        let whole = trace::trace(&p, &TraceOptions::default(), |_| true).unwrap();
        assert!(whole.stopped.is_none());
    }
}
