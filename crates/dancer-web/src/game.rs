//! `POST /api/sudoku/game`: one move of a game, on the library's
//! [`dancer_sudoku::play::Game`].
//!
//! The server keeps nothing: the page holds the saved game (the opaque
//! string of `Game::save`), sends it with each action, and gets the new
//! one back with a view of the grid (digits, givens, marks, conflicts)
//! and the action's result. A saved game that does not load is a `400`.
//!
//! Games are of a kind: plain, or killer (cages with sums; started from a
//! killer line or its JSON form, or made by the killer generator at a
//! level), or gattai (overlapping grids on a built-in shape's canvas,
//! from a puzzle line or the gattai generator). `game_killer.rs` and
//! `game_gattai.rs` hold those games' JSON.

use crate::body::JsonBody;
use crate::error::{play_error, Error, Result};
use crate::sudoku::{hint_json, step_json, valid_puzzle, RulesReq};
use crate::{blocking, AppState};
use axum::extract::State;
use axum::Json;
use dancer_sudoku::hint::Hint;
use dancer_sudoku::logic::Budget;
use dancer_sudoku::play::Game;
use dancer_sudoku::rules::{HouseKind, Rules};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    Start {
        puzzle: String,
        rules: Option<RulesReq>,
        /// `plain` (the default), `killer` or `gattai`.
        kind: Option<String>,
        /// A gattai game's built-in shape.
        shape: Option<String>,
    },
    /// A new puzzle of a kind made by the generator (`killer`, 9x9, at a
    /// level; `gattai` on a shape).
    Generate {
        kind: String,
        level: Option<String>,
        shape: Option<String>,
        seed: Option<u64>,
    },
    /// The digit combinations of the cage of `cell` (killer games).
    Cage {
        cell: usize,
    },
    Set {
        cell: usize,
        digit: u8,
    },
    Clear {
        cell: usize,
    },
    Mark {
        cell: usize,
        digit: u8,
    },
    FillMarks,
    ClearMarks,
    Undo,
    Redo,
    Hint,
    ApplyHint,
    Check,
    Reveal {
        cell: Option<usize>,
    },
    View,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameReq {
    pub game: Option<String>,
    pub action: Action,
}

/// The variant's name, as `/api/sudoku/new` takes it.
pub fn variant_name(rules: &Rules) -> &'static str {
    match (rules.is_diagonal(), rules.is_windoku()) {
        (false, false) => "none",
        (true, false) => "diagonal",
        (false, true) => "windoku",
        (true, true) => "diagonal+windoku",
    }
}

/// The variant's extra units (diagonals, windows), as cell lists.
pub fn extra_units(rules: &Rules) -> Vec<Vec<usize>> {
    rules
        .units()
        .into_iter()
        .filter(|u| {
            matches!(
                u.kind,
                HouseKind::Diagonal | HouseKind::AntiDiagonal | HouseKind::Window(_)
            )
        })
        .map(|u| u.cells)
        .collect()
}

/// What the page draws.
pub fn view(g: &Game) -> Value {
    let n = g.size();
    let rules = g.rules();
    let grid = g.values();
    let conflicts = g.conflicts();
    let cells: Vec<Value> = (0..g.cell_count())
        .map(|c| {
            json!({
                "digit": grid[c],
                "given": g.given(c) != 0,
                "marks": g.marks(c),
                "conflict": conflicts.binary_search(&c).is_ok(),
            })
        })
        .collect();
    let boxes = match rules.regions() {
        dancer_sudoku::Regions::Boxes { rows, cols } => json!([rows, cols]),
        _ => Value::Null,
    };
    let mut v = json!({
        "kind": g.kind().name(),
        "size": n,
        "box": boxes,
        "regions": (0..n * n).map(|c| rules.region_of(c)).collect::<Vec<_>>(),
        "variant": variant_name(rules),
        "extra_units": extra_units(rules),
        "rules": RulesReq::of(rules),
        "hints": rules.is_standard_9x9(),
        "givens": g.puzzle(),
        "puzzle": g.puzzle(),
        "cells": cells,
        "solved": g.is_solved(),
        "can_undo": g.can_undo(),
        "can_redo": g.can_redo(),
    });
    if let Some(k) = g.killer() {
        crate::game_killer::view(k, &mut v);
    }
    if let Some(s) = g.shape() {
        crate::game_gattai::view(g, s, &mut v);
    }
    v
}

/// The next step's answer for a game (the search of a plain game's step
/// stopped once `cancel` is set).
fn game_hint(
    g: &Game,
    cancel: &Arc<AtomicBool>,
) -> Result<(Option<dancer_sudoku::logic::Step>, Value)> {
    if g.is_solved() {
        return Ok((None, hint_json(&Hint::Solved)));
    }
    if g.killer().is_some() {
        return Ok((None, crate::game_killer::hint(g, cancel).1));
    }
    if g.shape().is_some() {
        return Ok((None, crate::game_gattai::hint(g, cancel).1));
    }
    if !g.rules().is_standard_9x9() {
        return Ok((
            None,
            json!({"status": "stuck", "message": format!(
                "hints are given for plain 9x9 puzzles, not {}", g.rules().describe()
            )}),
        ));
    }
    let budget = Budget::unlimited().with_cancel(cancel.clone());
    let step = g.hint_within(&budget).map_err(|_| Error::ShuttingDown)?;
    Ok(match step {
        Some(step) => {
            let v = json!({"status": "hint", "step": step_json(&step)});
            (Some(step), v)
        }
        None if g.mistakes().is_empty() => (None, hint_json(&Hint::Stuck)),
        None => (
            None,
            json!({"status": "none", "message": "a digit is wrong: no step leads on from here"}),
        ),
    })
}

fn act(game: Option<String>, action: Action, cancel: &Arc<AtomicBool>) -> Result<Value> {
    let mut made = json!({});
    let mut g = match (&action, game) {
        (
            Action::Start {
                puzzle,
                rules,
                kind,
                shape,
            },
            _,
        ) => match kind.as_deref() {
            None | Some("plain") => {
                let p = valid_puzzle(puzzle, rules.as_ref())?;
                Game::new_until(&p, Some(cancel.clone())).map_err(play_error)?
            }
            Some("killer") => {
                let (g, v) = crate::game_killer::start(puzzle, rules.as_ref(), cancel)?;
                made = v;
                g
            }
            Some("gattai") if rules.is_some() => {
                return Err(Error::BadValue(
                    "rules: gattai games take a shape, not rules".into(),
                ))
            }
            Some("gattai") => {
                let (g, v) = crate::game_gattai::start(puzzle, shape.as_deref(), cancel)?;
                made = v;
                g
            }
            Some(k) => return Err(unknown_kind(k)),
        },
        (
            Action::Generate {
                kind,
                level,
                shape,
                seed,
            },
            _,
        ) => match kind.as_str() {
            "killer" => {
                let level = level.as_deref().ok_or_else(|| {
                    Error::BadValue("level: missing (easy, medium, hard, expert)".into())
                })?;
                let (g, v) = crate::game_killer::generate(level, *seed, cancel)?;
                made = v;
                g
            }
            "gattai" => {
                let (g, v) = crate::game_gattai::generate(shape.as_deref(), *seed, cancel)?;
                made = v;
                g
            }
            k => return Err(unknown_kind(k)),
        },
        (_, Some(saved)) => Game::load(&saved).map_err(play_error)?,
        (_, None) => return Err(Error::BadValue("game: missing (start a game first)".into())),
    };
    let result = match action {
        Action::Start { .. } | Action::Generate { .. } | Action::View => made,
        Action::Cage { cell } => crate::game_killer::cage(&g, cell)?,
        Action::Set { cell, digit } => {
            let c = g.set(cell, digit).map_err(play_error)?;
            json!({ "check": format!("{c:?}").to_lowercase() })
        }
        Action::Clear { cell } => {
            g.set(cell, 0).map_err(play_error)?;
            json!({})
        }
        Action::Mark { cell, digit } => {
            g.toggle_mark(cell, digit).map_err(play_error)?;
            json!({})
        }
        Action::FillMarks => {
            g.fill_marks();
            json!({})
        }
        Action::ClearMarks => {
            g.clear_marks();
            json!({})
        }
        Action::Undo => json!({ "done": g.undo() }),
        Action::Redo => json!({ "done": g.redo() }),
        Action::Hint => game_hint(&g, cancel)?.1,
        Action::ApplyHint if g.killer().is_some() => {
            let (step, v) = crate::game_killer::hint(&g, cancel);
            if let Some(step) = step {
                g.apply_killer(&step);
            }
            v
        }
        Action::ApplyHint if g.shape().is_some() => {
            let (step, v) = crate::game_gattai::hint(&g, cancel);
            if let Some(step) = step {
                g.apply_killer(&step);
            }
            v
        }
        Action::ApplyHint => {
            let (step, v) = game_hint(&g, cancel)?;
            if let Some(step) = step {
                g.apply(&step);
            }
            v
        }
        Action::Check => json!({ "wrong": g.mistakes() }),
        Action::Reveal { cell: Some(c) } => {
            g.reveal(c).map_err(play_error)?;
            json!({})
        }
        Action::Reveal { cell: None } => {
            g.reveal_all();
            json!({})
        }
    };
    Ok(json!({ "game": g.save(), "view": view(&g), "result": result }))
}

fn unknown_kind(k: &str) -> Error {
    Error::BadValue(format!(
        "kind: {k:?} is not a kind of game (plain, killer, gattai)"
    ))
}

/// `POST /api/sudoku/game`.
pub async fn game(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<GameReq>,
) -> Result<Json<Value>> {
    blocking(&s, move |flag| act(r.game, r.action, &flag).map(Json)).await
}
