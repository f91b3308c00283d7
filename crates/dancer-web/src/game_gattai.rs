//! The gattai game's JSON for `POST /api/sudoku/game` (see `game.rs`):
//! starting one on a built-in shape (samurai, twodoku, flower, sohei,
//! butterfly, windmill) from a puzzle line or from the gattai generator,
//! the canvas in the view, and the hints across the grids as the page
//! draws them.
//!
//! The logic is the library's: `Game::new_gattai_until`,
//! `Game::gattai_hint`, `gattai::generate`. The board is the shape's
//! canvas, `height x width` cells in reading order, the cells in no grid
//! dead (`live` false; never played).

use crate::error::{play_error, At, Error, Result};
use crate::game_killer::{hint_budget, other_status, rate_budget, rating_json};
use dancer_sudoku::gattai::{self, GattaiPuzzle, Shape};
use dancer_sudoku::hint::HintLevel;
use dancer_sudoku::killer::{KillerHint, KillerStep};
use dancer_sudoku::play::Game;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The longest puzzle line taken (a samurai's is 369 cells, or 405 as
/// its grids one after the other).
const MOST_LINE: usize = 4096;

/// A built-in shape by name (`shape` is required).
fn shape_of(name: Option<&str>) -> Result<Shape> {
    let name = name.ok_or_else(|| {
        Error::BadValue(
            "shape: missing (twodoku, samurai, flower, sohei, butterfly, windmill)".into(),
        )
    })?;
    Shape::builtin(name).ok_or_else(|| {
        let shown: String = name.chars().take(40).collect();
        Error::BadValue(format!(
            "shape: {shown:?} is not a built-in shape ({})",
            Shape::BUILTIN.join(", ")
        ))
    })
}

/// A gattai game on the built-in `shape` from a puzzle line (either
/// form: the grids one after the other, or the canvas's live cells), and
/// its rating (`{"rating","level","stopped"}`, on the killer scale).
pub fn start(text: &str, shape: Option<&str>, cancel: &Arc<AtomicBool>) -> Result<(Game, Value)> {
    let shape = shape_of(shape)?;
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::BadValue("puzzle: empty".into()));
    }
    if text.len() > MOST_LINE {
        return Err(Error::BadValue(format!(
            "puzzle: longer than {MOST_LINE} characters"
        )));
    }
    let p = GattaiPuzzle::parse(text, &shape).map_err(|e| Error::InvalidPuzzle {
        message: e.to_string(),
        at: At::none(),
    })?;
    let g = Game::new_gattai_until(&p, Some(cancel.clone())).map_err(play_error)?;
    let rated = gattai::rate_within(&p, &rate_budget(cancel));
    Ok((g, rating_json(&rated)))
}

/// A new gattai game on `shape` from the generator, and what it says:
/// `{"shape","seed","rating","level","stopped"}`.
pub fn generate(
    shape: Option<&str>,
    seed: Option<u64>,
    cancel: &Arc<AtomicBool>,
) -> Result<(Game, Value)> {
    let shape = shape_of(shape)?;
    let seed = seed.unwrap_or_else(dancer_sudoku::generate::clock_seed);
    let made = gattai::generate(&shape, seed, Some(cancel))
        .ok_or_else(|| Error::BadValue(format!("no {} was made; try again", shape.name)))?;
    let g = Game::new_gattai_generated(&made).map_err(play_error)?;
    let mut v = rating_json(&gattai::rate_within(&made.puzzle, &rate_budget(cancel)));
    v["shape"] = json!(shape.name);
    v["seed"] = json!(seed);
    Ok((g, v))
}

/// Adds a gattai game's canvas to its VIEW: `shape` (its name), `height`
/// and `width` (the canvas's), `grids` (each grid's top-left cell, row
/// and column), `live` (per cell), `regions` (the canvas box of each live
/// cell, -1 for the dead ones: box lines fall where it changes), and
/// `gattai` (the line that starts the same game, the live cells in
/// reading order; also `givens` and `puzzle`).
pub fn view(g: &Game, s: &Shape, v: &mut Value) {
    let (br, bc) = s.boxes;
    let across = s.width.div_ceil(bc);
    let regions: Vec<i64> = (0..s.height * s.width)
        .map(|c| {
            if g.is_live(c) {
                ((c / s.width / br) * across + c % s.width / bc) as i64
            } else {
                -1
            }
        })
        .collect();
    let line = g.gattai_puzzle().map(|p| p.to_line()).unwrap_or_default();
    v["shape"] = json!(s.name);
    v["height"] = json!(s.height);
    v["width"] = json!(s.width);
    v["grids"] = json!(s.grids);
    v["live"] = json!((0..s.height * s.width)
        .map(|c| g.is_live(c))
        .collect::<Vec<_>>());
    v["regions"] = json!(regions);
    v["extra_units"] = json!([]);
    v["gattai"] = json!(line);
    v["givens"] = json!(line);
    v["puzzle"] = json!(line);
    v["hints"] = json!(true);
}

/// The next step across the grids and its answer, as killer hints have
/// it (`{"status":"hint","step":STEP}`, or a status and a message),
/// stopped when `cancel` is set.
pub fn hint(g: &Game, cancel: &Arc<AtomicBool>) -> (Option<KillerStep>, Value) {
    let (Some(s), Some(h)) = (g.shape(), g.gattai_hint_within(&hint_budget(cancel))) else {
        return (
            None,
            json!({"status": "stuck", "message": "not a gattai game"}),
        );
    };
    let cell = |c: usize| s.cell_name(c);
    let cage = |i: usize| i.to_string();
    match h {
        KillerHint::Step(st) => {
            let nudge = KillerHint::Step(st.clone()).text_with(HintLevel::Nudge, &cell, &cage);
            let v = json!({"status": "hint", "step": step_json(&st, nudge.trim_end())});
            (Some(st), v)
        }
        KillerHint::NoSolution => (
            None,
            json!({"status": "none", "message": "a digit is wrong: no step leads on from here"}),
        ),
        KillerHint::Solved => (None, json!({"status": "solved"})),
        other => {
            let text = other.text_with(HintLevel::Nudge, &cell, &cage);
            let status = other_status(&other);
            (None, json!({"status": status, "message": text.trim_end()}))
        }
    }
}

/// A step as the page draws it (the killer step's fields, no cages).
fn step_json(s: &KillerStep, nudge: &str) -> Value {
    let mut digits: Vec<u8> = s
        .placements
        .iter()
        .chain(&s.eliminations)
        .map(|&(_, d)| d)
        .collect();
    digits.sort_unstable();
    digits.dedup();
    json!({
        "technique": s.technique.name(),
        "rating": s.rating,
        "nudge": nudge,
        "text": s.description,
        "units": s.units,
        "cells": s.cells,
        "cages": [],
        "digits": digits,
        "placements": s.placements,
        "eliminations": s.eliminations,
    })
}
