//! The game endpoint (`POST /api/sudoku/game`, API.md) with gattai games:
//! a twodoku from the generator played to the end with the hints (the
//! canvas then checked by the library's independent checker), one
//! started from its line, moves on dead cells refused, and hostile
//! requests and saved games refused with a clear `400`, never a panic.

mod common;

use common::{bad_value, config, kind, start, Srv};
use dancer_sudoku::gattai::{self, check_solution, GattaiPuzzle, Shape};
use reqwest::StatusCode;
use serde_json::{json, Value};

async fn act(s: &Srv, game: &Value, action: Value) -> Value {
    let (st, v) = s
        .post("/api/sudoku/game", json!({"game": game, "action": action}))
        .await;
    assert_eq!(st, 200, "{action}: {v}");
    v
}

async fn refused(s: &Srv, game: &Value, action: Value) -> (StatusCode, Value) {
    let (st, v) = s
        .post("/api/sudoku/game", json!({"game": game, "action": action}))
        .await;
    assert_ne!(st, 200, "{action}: {v}");
    (st, v)
}

fn digits(view: &Value) -> Vec<u8> {
    view["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["digit"].as_u64().unwrap() as u8)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_twodoku_from_the_generator_to_the_end() {
    let s = start(config()).await;
    let v = act(
        &s,
        &Value::Null,
        json!({"type": "generate", "kind": "gattai", "shape": "twodoku", "seed": 7}),
    )
    .await;
    assert_eq!(v["result"]["shape"], "twodoku");
    assert_eq!(v["result"]["seed"], 7);
    let rating = v["result"]["rating"].as_f64().expect("a rating");
    let view = &v["view"];
    assert_eq!(view["kind"], "gattai");
    assert_eq!(
        (view["height"].as_u64(), view["width"].as_u64()),
        (Some(15), Some(15))
    );
    assert_eq!(view["cells"].as_array().unwrap().len(), 225);
    let live: Vec<bool> = view["live"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_bool().unwrap())
        .collect();
    let shape = Shape::builtin("twodoku").unwrap();
    assert_eq!(live, shape.live());
    let line = view["gattai"].as_str().unwrap().to_string();
    let p = GattaiPuzzle::parse(&line, &shape).unwrap();
    assert_eq!(gattai::rate(&p).rating, rating);
    // a dead cell is refused; a live one takes a digit
    let dead = live.iter().position(|&l| !l).unwrap();
    let mut game = v["game"].clone();
    let (st, e) = refused(&s, &game, json!({"type": "set", "cell": dead, "digit": 1})).await;
    bad_value(st, &e, "does not exist", "a dead cell");
    let cell = (0..225).find(|&c| live[c] && p.givens[c] == 0).unwrap();
    let v = act(&s, &game, json!({"type": "set", "cell": cell, "digit": 1})).await;
    assert_eq!(digits(&v["view"])[cell], 1);
    let v = act(&s, &v["game"], json!({"type": "undo"})).await;
    game = v["game"].clone();
    // a hint, then the hints to the end
    let v = act(&s, &game, json!({"type": "hint"})).await;
    assert_eq!(v["result"]["status"], "hint", "{}", v["result"]);
    assert!(v["result"]["step"]["nudge"]
        .as_str()
        .unwrap()
        .starts_with("Try"));
    let mut solved = false;
    for _ in 0..400 {
        let v = act(&s, &game, json!({"type": "apply_hint"})).await;
        game = v["game"].clone();
        assert!(v["view"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["conflict"] == false));
        if v["view"]["solved"] == true {
            let grid = digits(&v["view"]);
            check_solution(&p, &grid).unwrap();
            solved = true;
            break;
        }
        if v["result"]["status"] != "hint" {
            break;
        }
    }
    if !solved {
        let v = act(&s, &game, json!({"type": "reveal"})).await;
        assert_eq!(v["view"]["solved"], true);
        check_solution(&p, &digits(&v["view"])).unwrap();
    }
    // started again from its line, in the grids' form too
    let v = act(
        &s,
        &Value::Null,
        json!({"type": "start", "kind": "gattai", "shape": "twodoku", "puzzle": line}),
    )
    .await;
    assert_eq!(v["view"]["gattai"], line.as_str());
    s.finish().await;
}

/// A samurai from the generator (seed 1), its live cells in reading order.
const SAMURAI: &str = "..8..72.......5.36...8..7..9...76........2..972.....1..976.8.....4........4....9..8..3...28..5..1.......2.....3...............27.7.....91....6.........29........9....9.8..3..........5.4.......5..91.....2.....1......8.3...4..3...73..6...3.9.2..........5.....4.253.....61...3741.......5.........5....5.1...8..4.92...........31.9..5.....7..318..........1.9...8..2.1....95.";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_samurai_from_its_line() {
    let s = start(config()).await;
    let v = act(
        &s,
        &Value::Null,
        json!({"type": "start", "kind": "gattai", "shape": "samurai", "puzzle": SAMURAI}),
    )
    .await;
    let view = &v["view"];
    assert_eq!(
        (view["height"].as_u64(), view["width"].as_u64()),
        (Some(21), Some(21))
    );
    assert_eq!(view["cells"].as_array().unwrap().len(), 441);
    assert_eq!(view["gattai"], SAMURAI);
    assert_eq!(view["grids"].as_array().unwrap().len(), 5);
    // it comes with the library's rating of the steps across the grids
    let shape = Shape::builtin("samurai").unwrap();
    let rated = gattai::rate(&GattaiPuzzle::parse(SAMURAI, &shape).unwrap());
    assert!(rated.solved);
    assert_eq!(v["result"]["rating"].as_f64(), Some(rated.rating));
    assert_eq!(v["result"]["level"].as_str(), rated.level.map(|l| l.name()));
    assert_eq!(v["result"]["stopped"], Value::Null);
    // the centre cell r11c11 is live; r1c10 (between two grids) is dead
    assert_eq!(
        (view["live"][220].as_bool(), view["live"][9].as_bool()),
        (Some(true), Some(false))
    );
    let v = act(&s, &v["game"], json!({"type": "reveal"})).await;
    assert_eq!(v["view"]["solved"], true);
    s.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hostile_gattai_requests() {
    let s = start(config()).await;
    let n = Value::Null;
    let bad: Vec<(Value, &str)> = vec![
        (
            json!({"type": "generate", "kind": "gattai"}),
            "shape: missing",
        ),
        (
            json!({"type": "generate", "kind": "gattai", "shape": "x".repeat(5000)}),
            "not a built-in shape",
        ),
        (
            json!({"type": "start", "kind": "gattai", "shape": "samurai", "puzzle": ""}),
            "empty",
        ),
        (
            json!({"type": "start", "kind": "gattai", "shape": "samurai", "puzzle": ".".repeat(100_000)}),
            "longer than",
        ),
        (
            json!({"type": "start", "kind": "gattai", "shape": "twodoku", "puzzle": "1", "rules": {"diagonal": true}}),
            "not rules",
        ),
        (
            json!({"type": "generate", "kind": "killer"}),
            "level: missing",
        ),
    ];
    for (action, says) in bad {
        let (st, v) = refused(&s, &n, action.clone()).await;
        bad_value(st, &v, says, &action.to_string());
    }
    // a line of the wrong length, a clash, no single solution
    for puzzle in [
        "123".to_string(),
        format!("11{}", ".".repeat(160)),
        ".".repeat(162),
    ] {
        let (st, v) = refused(
            &s,
            &n,
            json!({"type": "start", "kind": "gattai", "shape": "twodoku", "puzzle": puzzle}),
        )
        .await;
        assert_eq!(
            (st, kind(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_puzzle"),
            "{v}"
        );
    }
    // forged saves
    let v = act(
        &s,
        &n,
        json!({"type": "generate", "kind": "gattai", "shape": "twodoku", "seed": 3}),
    )
    .await;
    let saved: Value = serde_json::from_str(v["game"].as_str().unwrap()).unwrap();
    let forged: Vec<(&str, Value)> = vec![
        ("unknown shape", json!("hexagon")),
        ("another shape", json!("samurai")),
        ("a huge name", json!("y".repeat(100_000))),
    ];
    for (what, name) in forged {
        let mut w = saved.clone();
        w["gattai"] = name;
        let (st, e) = refused(&s, &json!(w.to_string()), json!({"type": "view"})).await;
        bad_value(st, &e, "game:", what);
    }
    s.finish().await;
}
