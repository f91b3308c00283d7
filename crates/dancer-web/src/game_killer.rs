//! The killer game's JSON for `POST /api/sudoku/game` (see `game.rs`):
//! starting one from a killer line (or its JSON form) or from the killer
//! generator at a level, the cages in the view, a cage's combinations, and
//! the killer hints as the page draws them.
//!
//! The logic is the library's: `Game::new_killer`, `Game::killer_hint`,
//! `Game::cage_combinations`, `killer::generate`.

use crate::error::{play_error, At, Error, Result};
use crate::sudoku::RulesReq;
use dancer_sudoku::hint::HintLevel;
use dancer_sudoku::killer::{
    self, KillerHint, KillerLevel, KillerPuzzle, KillerRating, KillerStep,
};
use dancer_sudoku::logic::Budget;
use dancer_sudoku::play::Game;
use dancer_sudoku::Rules;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How long the rating of a game started from a line may take: the page
/// shows it, and a hostile line cannot keep a thread past this.
const RATE_SECONDS: u64 = 10;

/// The budget of a started game's rating: [`RATE_SECONDS`], or less if
/// the request goes.
pub fn rate_budget(cancel: &Arc<AtomicBool>) -> Budget {
    Budget::timeout(Duration::from_secs(RATE_SECONDS)).with_cancel(cancel.clone())
}

/// A killer or gattai rating as the page shows it: `{"rating","level",
/// "stopped"}`; stopped early (`"timeout"`), the rating is a lower bound.
pub fn rating_json(r: &KillerRating) -> Value {
    json!({
        "rating": r.rating,
        "level": r.level.map(|l| l.name()),
        "stopped": r.stopped.map(|h| h.name()),
    })
}

/// A killer game from a line `MAP SUMS [GIVENS]` or its JSON form, under
/// the plain rules of its size, and its rating (`rating_json`).
pub fn start(
    text: &str,
    rules: Option<&RulesReq>,
    cancel: &Arc<AtomicBool>,
) -> Result<(Game, Value)> {
    if rules.is_some_and(|r| r.diagonal || r.windoku || r.jigsaw.is_some()) {
        return Err(Error::BadValue(
            "rules: killer games are played under the plain rules of their size".into(),
        ));
    }
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::BadValue("puzzle: empty".into()));
    }
    let k = KillerPuzzle::parse(text, None).map_err(|e| Error::InvalidPuzzle {
        message: e.to_string(),
        at: At::none(),
    })?;
    let g = Game::new_killer_until(&k, Some(cancel.clone())).map_err(play_error)?;
    let rated = killer::rate_within(&k, &rate_budget(cancel));
    Ok((g, rating_json(&rated)))
}

/// A new 9x9 killer game of `level` (easy, medium, hard, expert), and
/// what the generator says of it: `{"level","rating","seed"}`.
pub fn generate(level: &str, seed: Option<u64>, cancel: &Arc<AtomicBool>) -> Result<(Game, Value)> {
    let lv = KillerLevel::from_name(level).ok_or_else(|| {
        Error::BadValue(format!(
            "level: {level:?} is not a killer level (easy, medium, hard, expert)"
        ))
    })?;
    let seed = seed.unwrap_or_else(dancer_sudoku::generate::clock_seed);
    let rules = Rules::standard(9).expect("9x9 rules");
    let made = killer::generate(&rules, lv, seed, killer::TRIES, Some(cancel.as_ref()))
        .ok_or_else(|| Error::BadValue(format!("no {level} killer was made; try again")))?;
    let g = Game::new_killer_until(&made.puzzle, Some(cancel.clone())).map_err(play_error)?;
    let v = json!({ "level": lv.name(), "rating": made.rating, "seed": seed });
    Ok((g, v))
}

/// Adds a killer game's cages to its VIEW: `cages` (sum and cells, in the
/// puzzle's order), `killer` (the line that starts it again), and the
/// hints that are given.
pub fn view(k: &KillerPuzzle, v: &mut Value) {
    let cages: Vec<Value> = k
        .cages
        .iter()
        .map(|c| json!({ "sum": c.sum, "cells": c.cells }))
        .collect();
    v["cages"] = Value::Array(cages);
    v["killer"] = Value::String(k.to_line());
    v["hints"] = Value::Bool(true);
}

/// The combinations of the cage of `cell`: `{"cage","sum","cells","all",
/// "fitting"}` (lists of digit lists).
pub fn cage(g: &Game, cell: usize) -> Result<Value> {
    if g.killer().is_none() {
        return Err(Error::BadValue("cage: this game has no cages".into()));
    }
    let n = g.size();
    if cell >= n * n {
        return Err(Error::BadValue(format!("cell {cell} does not exist")));
    }
    let Some(c) = g.cage_combinations(cell) else {
        return Err(Error::BadValue(format!(
            "{} is in no cage",
            dancer_sudoku::rules::cell_name(n, cell)
        )));
    };
    Ok(json!({
        "cage": c.cage,
        "sum": c.sum,
        "cells": c.cells,
        "all": c.all,
        "fitting": c.fitting,
    }))
}

/// The budget of a game's hint: none of its own, but the request's flag
/// (set when the client goes, the server stops or the request's time
/// cap passes), handed to the library's count and step search.
pub fn hint_budget(cancel: &Arc<AtomicBool>) -> Budget {
    Budget::unlimited().with_cancel(cancel.clone())
}

/// The next killer step of a game and its answer, as plain hints have it
/// (`{"status":"hint","step":STEP}` with the cages it uses, or a status
/// and a message), stopped when `cancel` is set.
pub fn hint(g: &Game, cancel: &Arc<AtomicBool>) -> (Option<KillerStep>, Value) {
    let (Some(k), Some(h)) = (g.killer(), g.killer_hint_within(&hint_budget(cancel))) else {
        return (
            None,
            json!({"status": "stuck", "message": "not a killer game"}),
        );
    };
    match h {
        KillerHint::Step(s) => {
            let v = json!({"status": "hint", "step": step_json(k, &s)});
            (Some(s), v)
        }
        KillerHint::NoSolution => (
            None,
            json!({"status": "none", "message": "a digit is wrong: no step leads on from here"}),
        ),
        KillerHint::Solved => (None, json!({"status": "solved"})),
        other => {
            let text = other.text(k, HintLevel::Nudge);
            let status = other_status(&other);
            (None, json!({"status": status, "message": text.trim_end()}))
        }
    }
}

/// The status of a hint with no step: `multiple`, `stopped` (the
/// request's flag was set) or `stuck`.
pub fn other_status(h: &KillerHint) -> &'static str {
    match h {
        KillerHint::NotUnique => "multiple",
        KillerHint::Stopped(_) => "stopped",
        _ => "stuck",
    }
}

/// A killer step as the page draws it: STEP's fields, and `cages` (their
/// indexes in the view's cages).
fn step_json(k: &KillerPuzzle, s: &KillerStep) -> Value {
    let h = KillerHint::Step(s.clone());
    let nudge = h.text(k, HintLevel::Nudge);
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
        "nudge": nudge.trim_end(),
        "text": s.description,
        "units": s.units,
        "cells": s.cells,
        "cages": s.cages,
        "digits": digits,
        "placements": s.placements,
        "eliminations": s.eliminations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request's flag, set (the client gone, the cap passed), reaches
    /// the library's count and step search of a killer's and a gattai
    /// game's hint: `stopped`, not a search run to its end.
    #[test]
    fn a_games_hint_stops_with_its_requests_flag() {
        let set = Arc::new(AtomicBool::new(true));
        let clear = Arc::new(AtomicBool::new(false));
        let k = KillerPuzzle::parse("aabcdefcgefhgijj 3,4,4,3,7,3,5,2,2,7", None).unwrap();
        let g = Game::new_killer(&k).unwrap();
        let (step, v) = hint(&g, &set);
        assert!(step.is_none());
        assert_eq!(v["status"], "stopped", "{v}");
        let (step, v) = hint(&g, &clear);
        assert!(step.is_some(), "{v}");
        let twodoku = dancer_sudoku::gattai::Shape::builtin("twodoku").unwrap();
        let made = dancer_sudoku::gattai::generate(&twodoku, 3, None).unwrap();
        let g = Game::new_gattai_generated(&made).unwrap();
        let (step, v) = crate::game_gattai::hint(&g, &set);
        assert!(step.is_none());
        assert_eq!(v["status"], "stopped", "{v}");
        let (step, v) = crate::game_gattai::hint(&g, &clear);
        assert!(step.is_some(), "{v}");
    }
}
