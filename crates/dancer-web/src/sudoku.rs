//! The Sudoku endpoints: new, check, solve, count, hint, rate, the logical
//! solution path and batches (the game is [`crate::game`]).
//!
//! Each is the command line's library call on one puzzle
//! (`dancer_sudoku::batch::solve_one`, `records`, `hint::hint_after`,
//! `logic::rate_puzzle_within`, `generate::generate_rated`), and answers
//! with the command line's records. Everything but `check`/`solve` of a
//! plain puzzle may take a while, so every handler runs its work on a
//! blocking thread ([`crate::blocking`]), and the slow ones within a
//! budget: a time limit, and a flag set when the client goes away or the
//! server stops.

use crate::body::JsonBody;
use crate::error::{At, Error, Result};
use crate::{blocking, blocking_within, stopped, AppState};
use axum::extract::State;
use axum::Json;
use dancer_sudoku::batch::{self, LineOutcome, RulesSpec, SpecError};
use dancer_sudoku::generate::{self, GivensSymmetry, RatingRange};
use dancer_sudoku::hint::{hint_after, Hint, HintLevel};
use dancer_sudoku::logic::{self, Budget, Level, Step};
use dancer_sudoku::rules::{cell_name, default_boxes, Rules};
use dancer_sudoku::{records, Layout, Puzzle, PuzzleError, SudokuEngine};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The rules of a request: the command line's flags.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesReq {
    #[serde(rename = "box")]
    pub boxes: Option<String>,
    pub jigsaw: Option<String>,
    #[serde(default)]
    pub diagonal: bool,
    #[serde(default)]
    pub windoku: bool,
}

impl RulesReq {
    /// The rules asked for, as `dancer sudoku` reads its flags.
    pub fn spec(&self) -> Result<RulesSpec> {
        RulesSpec::new(
            self.boxes.as_deref(),
            self.jigsaw.as_deref(),
            self.diagonal,
            self.windoku,
        )
        .map_err(|e| Error::BadValue(format!("rules: {}", spec_words(&e))))
    }

    /// The rules object that gives `rules` back.
    pub fn of(rules: &Rules) -> Value {
        let n = rules.size();
        let boxes = match rules.regions() {
            dancer_sudoku::Regions::Boxes { rows, cols } => Some(format!("{rows}x{cols}")),
            _ => default_boxes(n).map(|(r, c)| format!("{r}x{c}")),
        };
        json!({
            "box": boxes,
            "diagonal": rules.is_diagonal(),
            "windoku": rules.is_windoku(),
        })
    }
}

/// How the API says to give the box shape of a grid whose size has no
/// usual boxes, after a puzzle of such a length
/// ([`PuzzleError::words`]): the rules' `"box"`.
pub const BOX_HINT: &str = "give the rules' \"box\": \"RxC\" for other shapes";

/// Rules that cannot be, in the API's words: the rules' fields `box` and
/// `jigsaw`.
fn spec_words(e: &SpecError) -> String {
    match e {
        SpecError::Box { text, problem } => format!("box {text:?}: {problem}"),
        SpecError::BoxAndJigsaw => "box and jigsaw cannot be used together".into(),
        SpecError::Jigsaw(e) => format!("jigsaw: {e}"),
        SpecError::Rules(e) => e.to_string(),
    }
}

/// Where a puzzle's error is: the cell, when the error names one.
pub fn puzzle_at(e: &PuzzleError) -> At {
    match e {
        PuzzleError::Conflict { b, .. } => At::cell(Some(b.clone())),
        PuzzleError::DigitTooLarge { column, size, .. } if *column >= 1 => {
            At::cell(Some(cell_name(*size, column - 1)))
        }
        PuzzleError::BadSymbol { column, .. } => At {
            column: Some(*column),
            ..At::none()
        },
        _ => At::none(),
    }
}

/// Reads the one puzzle of a request: `Err` for a request that names none
/// or bad rules; `Ok(Err)` for a puzzle that breaks its rules.
pub fn read_puzzle(
    text: &str,
    rules: Option<&RulesReq>,
) -> Result<std::result::Result<Puzzle, PuzzleError>> {
    let spec = rules.cloned().unwrap_or_default().spec()?;
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::BadValue("puzzle: empty".into()));
    }
    if text.lines().count() > 1 && !batch::is_grid_text(text, Layout::Auto) {
        return Err(Error::BadValue(
            "puzzle: one puzzle, on one line (or as one grid)".into(),
        ));
    }
    let mut entries = spec.read(text, Layout::Auto, 1);
    match entries.len() {
        0 => Err(Error::BadValue("puzzle: no puzzle found".into())),
        1 => Ok(entries.remove(0).puzzle),
        n => Err(Error::BadValue(format!(
            "puzzle: {n} puzzles found; send one (or use /api/sudoku/batch)"
        ))),
    }
}

/// The puzzle, or `422 invalid_puzzle`.
pub fn valid_puzzle(text: &str, rules: Option<&RulesReq>) -> Result<Puzzle> {
    read_puzzle(text, rules)?.map_err(|e| Error::InvalidPuzzle {
        message: e.words(BOX_HINT),
        at: puzzle_at(&e),
    })
}

/// The outcome of one puzzle, as `dancer sudoku solve` has it.
fn outcome(
    text: &str,
    rules: Option<&RulesReq>,
    limit: u64,
    keep: usize,
    flag: &Arc<AtomicBool>,
) -> Result<(LineOutcome, At)> {
    let (entry, at) = match read_puzzle(text, rules)? {
        Ok(p) => (Ok(p), At::none()),
        Err(e) => {
            let at = puzzle_at(&e);
            (Err(e), at)
        }
    };
    let e = dancer_sudoku::PuzzleLine {
        line: 1,
        puzzle: entry,
    };
    let o = batch::solve_one(e, SudokuEngine::Auto, limit, keep, Some(flag))
        .map_err(|e| Error::Internal(e.to_string()))?;
    stopped(flag)?;
    Ok((o, at))
}

/// A record as JSON, with the cell of an invalid puzzle added.
fn with_cell<T: serde::Serialize>(record: &T, at: &At) -> Value {
    let mut v = record_json(record);
    if let (Some(cell), Some(obj)) = (&at.cell, v.as_object_mut()) {
        obj.insert("cell".into(), json!(cell));
    }
    v
}

/// A record as JSON (an invalid puzzle's `error` is in the API's words:
/// each record is made with [`BOX_HINT`]).
fn record_json<T: serde::Serialize>(record: &T) -> Value {
    serde_json::to_value(record).expect("records serialise")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleReq {
    pub puzzle: String,
    pub rules: Option<RulesReq>,
}

/// `POST /api/sudoku/check`.
pub async fn check(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<PuzzleReq>,
) -> Result<Json<Value>> {
    one_puzzle(s, r, 0, records::check_record).await
}

/// `POST /api/sudoku/solve`.
pub async fn solve(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<PuzzleReq>,
) -> Result<Json<Value>> {
    one_puzzle(s, r, 2, records::solve_record).await
}

/// One puzzle searched for up to two solutions (`keep` of them kept), its
/// record made by `record` (as the command line makes it for a line).
async fn one_puzzle<R: serde::Serialize + 'static>(
    s: Arc<AppState>,
    r: PuzzleReq,
    keep: usize,
    record: fn(usize, &batch::LineOutcome, &str) -> R,
) -> Result<Json<Value>> {
    blocking(&s, move |flag| {
        let (o, at) = outcome(&r.puzzle, r.rules.as_ref(), 2, keep, &flag)?;
        Ok(Json(with_cell(&record(1, &o, BOX_HINT), &at)))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountReq {
    pub puzzle: String,
    pub rules: Option<RulesReq>,
    pub limit: Option<u64>,
}

/// The largest `limit` of `/api/sudoku/count` (a count is not interrupted:
/// the limit is its budget; larger counts are exact cover jobs).
pub const MAX_COUNT: u64 = 10_000_000;

/// A count's limit: 1 to [`MAX_COUNT`], 1000 when not given.
fn count_limit(limit: Option<u64>) -> Result<u64> {
    let l = limit.unwrap_or(1000);
    if !(1..=MAX_COUNT).contains(&l) {
        return Err(Error::BadValue(format!(
            "limit must be from 1 to {MAX_COUNT}, not {l}"
        )));
    }
    Ok(l)
}

/// `POST /api/sudoku/count`.
pub async fn count(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<CountReq>,
) -> Result<Json<Value>> {
    let limit = count_limit(r.limit)?;
    blocking(&s, move |flag| {
        let p = valid_puzzle(&r.puzzle, r.rules.as_ref())?;
        let e = dancer_sudoku::PuzzleLine {
            line: 1,
            puzzle: Ok(p),
        };
        let o = batch::solve_one(e, SudokuEngine::Auto, limit, 0, Some(&flag))
            .map_err(|e| Error::Internal(e.to_string()))?;
        stopped(&flag)?;
        Ok(Json(
            serde_json::to_value(records::count_record(1, &o, limit, BOX_HINT))
                .expect("serialises"),
        ))
    })
    .await
}

/// A step as the page draws it (cells 0-based, row-major).
pub fn step_json(step: &Step) -> Value {
    let nudge = Hint::Step(step.clone()).text(HintLevel::Nudge);
    json!({
        "technique": step.technique.name(),
        "rating": step.rating(),
        "nudge": nudge.trim_end(),
        "text": step.description,
        "units": step.units,
        "cells": step.cells,
        "digits": step.digits,
        "placements": step.placements,
        "eliminations": step.eliminations,
    })
}

/// The logic's board as the page draws it: `values` one line (`.` for
/// empty), `candidates` per cell its candidate digits as a string ("" for a
/// filled cell).
pub fn board_json(b: &logic::MarkedGrid) -> Value {
    let values: String = b
        .values()
        .iter()
        .map(|&d| dancer_sudoku::grid::symbol(d))
        .collect();
    let candidates: Vec<String> = b
        .all_cands()
        .iter()
        .map(|&m| {
            (1..=9u8)
                .filter(|d| m >> (d - 1) & 1 == 1)
                .map(|d| char::from(b'0' + d))
                .collect()
        })
        .collect();
    json!({ "values": values, "candidates": candidates })
}

/// A hint's answer: `{"status":"hint","step":STEP}` or a status and a
/// message.
pub fn hint_json(h: &Hint) -> Value {
    match h {
        Hint::Step(step) => json!({"status": "hint", "step": step_json(step)}),
        h => {
            let r = serde_json::to_value(h.record(HintLevel::Full)).expect("serialises");
            let message = r
                .get("message")
                .cloned()
                .filter(|m| !m.is_null())
                .unwrap_or_else(|| json!(h.text(HintLevel::Full).trim_end()));
            json!({"status": r["status"], "message": message})
        }
    }
}

/// The cap of work with a `timeout` of its own (see [`budget`]): five
/// seconds more, a backstop.
fn timed_cap(timeout: Option<f64>) -> Duration {
    let t = timeout
        .filter(|t| (0.1..=600.0).contains(t))
        .unwrap_or(30.0);
    Duration::from_secs_f64(t + 5.0)
}

/// A budget: `timeout` seconds (checked: 0.1 to 600, default 30), and the
/// request's flag.
fn budget(timeout: Option<f64>, flag: Arc<AtomicBool>) -> Result<Budget> {
    let t = timeout.unwrap_or(30.0);
    if !(0.1..=600.0).contains(&t) {
        return Err(Error::BadValue(format!(
            "timeout must be from 0.1 to 600 seconds, not {t}"
        )));
    }
    Ok(Budget::timeout(Duration::from_secs_f64(t)).with_cancel(flag))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintReq {
    pub puzzle: String,
    pub rules: Option<RulesReq>,
    pub entries: Option<String>,
    #[serde(default)]
    pub removed: Vec<(usize, u8)>,
    pub timeout: Option<f64>,
}

/// The givens with the player's entries: the entries must keep every given.
fn with_entries(p: Puzzle, entries: Option<&str>) -> Result<Puzzle> {
    let Some(entries) = entries.map(str::trim).filter(|e| !e.is_empty()) else {
        return Ok(p);
    };
    let mut rules = RulesReq::default();
    if let dancer_sudoku::Regions::Boxes { rows, cols } = p.rules.regions() {
        rules.boxes = Some(format!("{rows}x{cols}"));
    }
    rules.diagonal = p.rules.is_diagonal();
    rules.windoku = p.rules.is_windoku();
    let e = valid_puzzle(entries, Some(&rules))?;
    if e.givens.size() != p.givens.size() {
        return Err(Error::BadValue(
            "entries: not the size of the puzzle".into(),
        ));
    }
    for c in 0..p.givens.cells().len() {
        let g = p.givens.get(c);
        if g != 0 && e.givens.get(c) != g {
            return Err(Error::BadValue(format!(
                "entries: the given of {} is not kept",
                cell_name(p.rules.size(), c)
            )));
        }
    }
    Ok(Puzzle {
        rules: p.rules,
        givens: e.givens,
    })
}

/// `POST /api/sudoku/hint`.
pub async fn hint(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<HintReq>,
) -> Result<Json<Value>> {
    blocking_within(&s, timed_cap(r.timeout), move |flag| {
        let budget = budget(r.timeout, flag)?;
        let p = valid_puzzle(&r.puzzle, r.rules.as_ref())?;
        let p = with_entries(p, r.entries.as_deref())?;
        let h = hint_after(&p, &r.removed, &budget).map_err(|e| Error::BadValue(e.to_string()))?;
        Ok(Json(hint_json(&h)))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateReq {
    pub puzzle: String,
    pub rules: Option<RulesReq>,
    pub timeout: Option<f64>,
}

/// `POST /api/sudoku/rate`.
pub async fn rate(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<RateReq>,
) -> Result<Json<Value>> {
    blocking_within(&s, timed_cap(r.timeout), move |flag| {
        let budget = budget(r.timeout, flag)?;
        let p = valid_puzzle(&r.puzzle, r.rules.as_ref())?;
        let rated = logic::rate_puzzle_within(&p, &budget, |_, _| {}).map_err(Error::BadValue)?;
        Ok(Json(
            serde_json::to_value(records::rate_record(1, &Ok(rated), BOX_HINT))
                .expect("serialises"),
        ))
    })
    .await
}

/// `POST /api/sudoku/path`: the whole logical solution.
pub async fn path(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<RateReq>,
) -> Result<Json<Value>> {
    blocking_within(&s, timed_cap(r.timeout), move |flag| {
        let budget = budget(r.timeout, flag)?;
        let p = valid_puzzle(&r.puzzle, r.rules.as_ref())?;
        let mut steps = Vec::new();
        let rated = logic::rate_puzzle_within(&p, &budget, |board, step| {
            let mut v = step_json(step);
            v["before"] = board_json(board);
            steps.push(v);
        })
        .map_err(Error::BadValue)?;
        Ok(Json(match rated {
            None => json!({
                "status": "not_unique", "rating": null, "level": null, "solved": false,
                "stopped": null, "steps": [],
                "message": "the puzzle has no unique solution: it has no logical solution path",
            }),
            Some(rt) => json!({
                "status": "rated",
                "rating": rt.se,
                "level": rt.level.name(),
                "solved": rt.solved,
                "stopped": rt.stopped.map(|s| s.why.name()),
                "steps": steps,
            }),
        }))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchReq {
    pub text: String,
    pub action: String,
    pub rules: Option<RulesReq>,
    pub limit: Option<u64>,
    pub timeout: Option<f64>,
}

/// The most puzzles of one batch.
pub const MAX_BATCH: usize = 10_000;

/// `POST /api/sudoku/batch`.
pub async fn batch(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<BatchReq>,
) -> Result<Json<Value>> {
    let threads = s.config.jobs;
    let lines = r
        .text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count();
    if lines > MAX_BATCH && !batch::is_grid_text(&r.text, Layout::Auto) {
        return Err(Error::BadValue(format!(
            "at most {MAX_BATCH} puzzles in a batch, not {lines}"
        )));
    }
    let limit = match r.action.as_str() {
        "solve" | "check" => 2,
        "count" => count_limit(r.limit)?,
        "rate" => 0,
        a => {
            return Err(Error::BadValue(format!(
                "action must be solve, count, check or rate, not {a:?}"
            )))
        }
    };
    blocking_within(&s, s.config.batch_time, move |flag| {
        let mut out = Vec::new();
        if r.action == "rate" {
            let b = budget(r.timeout, flag.clone())?;
            drop(b);
            let opts = batch::RateOptions {
                threads,
                timeout: Some(Duration::from_secs_f64(r.timeout.unwrap_or(30.0))),
                cancel: flag,
            };
            let results =
                batch::rate(&r.text, &opts, &|_| {}).map_err(|e| Error::Internal(e.to_string()))?;
            for (line, rt) in &results {
                out.push(record_json(&records::rate_record(*line, rt, BOX_HINT)));
            }
        } else {
            let b = batch::Batch {
                spec: r.rules.clone().unwrap_or_default().spec()?,
                engine: SudokuEngine::Auto,
                layout: Layout::Auto,
                limit,
                keep: if r.action == "solve" { 2 } else { 0 },
                threads,
                first_line: 1,
                cancel: Some(flag.clone()),
            };
            let done = AtomicU64::new(0);
            batch::run(
                &b,
                &r.text,
                |line, o| {
                    out.push(match r.action.as_str() {
                        "solve" => record_json(&records::solve_record(line, o, BOX_HINT)),
                        "check" => record_json(&records::check_record(line, o, BOX_HINT)),
                        _ => record_json(&records::count_record(line, o, limit, BOX_HINT)),
                    });
                    if flag.load(Ordering::Relaxed) {
                        return Err(std::io::Error::other("cancelled"));
                    }
                    Ok(())
                },
                &done,
            )
            .map_err(|e| match e {
                batch::BatchError::Output(_) => Error::ShuttingDown,
                e => Error::BadValue(e.to_string()),
            })?;
        }
        Ok(Json(json!({ "records": out })))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewReq {
    pub level: Option<String>,
    pub size: Option<usize>,
    pub symmetry: Option<String>,
    pub variant: Option<String>,
    pub seed: Option<u64>,
}

/// `POST /api/sudoku/new`.
pub async fn new(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<NewReq>,
) -> Result<Json<Value>> {
    let size = r.size.unwrap_or(9);
    if ![4, 6, 9, 16].contains(&size) {
        return Err(Error::BadValue(format!(
            "size must be 4, 6, 9 or 16, not {size}"
        )));
    }
    let level_given = r.level.is_some();
    let level_name = r.level.clone().unwrap_or_else(|| "easy".into());
    let level = Level::from_name(&level_name).ok_or_else(|| {
        Error::BadValue(format!(
            "unknown level {level_name:?} (known: {})",
            Level::NAMES.join(", ")
        ))
    })?;
    let symmetry: GivensSymmetry = r
        .symmetry
        .as_deref()
        .unwrap_or("none")
        .parse()
        .map_err(Error::BadValue)?;
    let mut rules = Rules::standard(size).map_err(|e| Error::BadValue(e.to_string()))?;
    match r.variant.as_deref().unwrap_or("none") {
        "none" => {}
        "diagonal" => rules = rules.with_diagonal(),
        "windoku" if size == 9 => {
            rules = rules
                .with_windoku()
                .map_err(|e| Error::BadValue(e.to_string()))?
        }
        "windoku" => return Err(Error::BadValue("windoku is for 9x9".into())),
        v => {
            return Err(Error::BadValue(format!(
                "variant must be none, diagonal or windoku, not {v:?}"
            )))
        }
    }
    // levels are SE ratings: plain 9x9 only
    if level_given && !rules.is_standard_9x9() {
        return Err(Error::BadValue(format!(
            "level {level_name:?}: levels are the SE ratings of plain 9x9 puzzles; leave \"level\" out for size {size} or a variant"
        )));
    }
    let seed = r.seed.unwrap_or_else(generate::clock_seed);
    let time = s.config.work_time;
    blocking_within(&s, time + Duration::from_secs(5), move |flag| {
        let range = rules
            .is_standard_9x9()
            .then(|| RatingRange::of_level(level));
        // minimal, or (on 16x16 with a symmetry, where minimal puzzles are
        // too rare: see `generate::MAX_MINIMAL_SYMMETRIC`) minimal within
        // the symmetry
        let opts = generate::GenerateOptions {
            rules: rules.clone(),
            symmetry,
            minimal: symmetry == GivensSymmetry::None || size <= generate::MAX_MINIMAL_SYMMETRIC,
            attempts: 200,
        };
        // given up when the client leaves (the flag) or at the cap
        let effort = generate::Effort::until(flag.clone(), std::time::Instant::now() + time);
        for i in 0.. {
            if flag.load(Ordering::Relaxed) {
                return Err(Error::ShuttingDown);
            }
            if effort.stopped() {
                return Err(Error::BadValue(format!(
                    "no {}puzzle with these settings was found in {} s",
                    if range.is_some() {
                        format!("{level_name} ")
                    } else {
                        String::new()
                    },
                    time.as_secs()
                )));
            }
            if let Some((p, rating)) =
                generate::generate_rated_with(&opts, generate::puzzle_seed(seed, i), range, &effort)
            {
                let mut v =
                    serde_json::to_value(records::generate_record(&p, rating.as_ref(), symmetry))
                        .expect("serialises");
                v["rules"] = RulesReq::of(&p.rules);
                v["seed"] = json!(seed);
                return Ok(Json(v));
            }
        }
        unreachable!("the loop returns")
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzles_are_read_as_the_cli_reads_them() {
        let p = valid_puzzle(&".".repeat(36), None).unwrap();
        assert_eq!(p.rules.size(), 6);
        let e = valid_puzzle(&format!("88{}", ".".repeat(79)), None).unwrap_err();
        match e {
            Error::InvalidPuzzle { at, .. } => assert_eq!(at.cell.as_deref(), Some("r1c2")),
            e => panic!("{e:?}"),
        }
        assert!(matches!(valid_puzzle("  ", None), Err(Error::BadValue(_))));
        let r = RulesReq {
            boxes: Some("2x".into()),
            ..RulesReq::default()
        };
        assert!(matches!(
            valid_puzzle(&".".repeat(36), Some(&r)),
            Err(Error::BadValue(_))
        ));
        // rules that cannot be, in the API's words (its fields, no flag)
        match RulesReq::spec(&r) {
            Err(Error::BadValue(m)) => assert_eq!(
                m,
                "rules: box \"2x\": bad number of columns: cannot parse integer from empty string"
            ),
            e => panic!("{e:?}"),
        }
        let both = RulesReq {
            boxes: Some("2x2".into()),
            jigsaw: Some("AABBAABBCCDDCCDD".into()),
            ..RulesReq::default()
        };
        match both.spec() {
            Err(Error::BadValue(m)) => {
                assert_eq!(m, "rules: box and jigsaw cannot be used together")
            }
            e => panic!("{e:?}"),
        }
        let rules = Rules::standard(6).unwrap();
        assert_eq!(RulesReq::of(&rules)["box"], "2x3");
        // the command line's flag is named as the API has it
        let e = valid_puzzle("123", None).unwrap_err().to_string();
        assert!(
            e.contains("\"box\": \"RxC\"") && !e.contains("--box"),
            "{e}"
        );
        // and so it is in a record of a batch or a check
        let flag = Arc::new(AtomicBool::new(false));
        let (o, at) = outcome("123", None, 2, 0, &flag).unwrap();
        let v = with_cell(&records::check_record(1, &o, BOX_HINT), &at);
        assert_eq!(
            v["error"],
            "wrong length: 3 cells, expected 81 (9x9), or 16, 36, 64, 100, 144, 256, 400 or 625; give the rules' \"box\": \"RxC\" for other shapes"
        );
    }
}
