//! The game endpoint (`POST /api/sudoku/game`, API.md) with killer games:
//! started from the generator, from a killer line and from its JSON form;
//! the cages in the view; moves, undo, a cage's combinations; the killer
//! hints applied to the end, the grid then checked by the library's
//! independent killer checker; and hostile requests and saved games
//! refused with a clear `400`, never a panic.

mod common;

use common::{bad_value, config, kind, start, Srv};
use dancer_sudoku::killer::{check_solution, KillerPuzzle};
use dancer_sudoku::Grid;
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
async fn a_killer_game_from_the_generator_to_the_end() {
    let s = start(config()).await;
    let v = act(
        &s,
        &Value::Null,
        json!({"type": "generate", "kind": "killer", "level": "easy", "seed": 7}),
    )
    .await;
    assert_eq!(v["result"]["level"], "easy");
    assert_eq!(v["result"]["seed"], 7);
    let view = &v["view"];
    assert_eq!(
        (view["kind"].as_str(), view["size"].as_u64()),
        (Some("killer"), Some(9))
    );
    assert_eq!(view["hints"], true);
    let line = view["killer"].as_str().unwrap().to_string();
    let k = KillerPuzzle::parse(&line, None).unwrap();
    let cages = view["cages"].as_array().unwrap();
    assert_eq!(cages.len(), k.cages.len());
    let covered: usize = cages
        .iter()
        .map(|c| c["cells"].as_array().unwrap().len())
        .sum();
    assert_eq!(covered, 81);
    let mut g = v["game"].clone();
    // a move, a pencil mark, undo
    let v = act(&s, &g, json!({"type": "set", "cell": 0, "digit": 5})).await;
    assert_eq!(v["view"]["cells"][0]["digit"], 5);
    let v = act(
        &s,
        &v["game"],
        json!({"type": "mark", "cell": 1, "digit": 3}),
    )
    .await;
    assert_eq!(v["view"]["cells"][1]["marks"], json!([3]));
    let v = act(&s, &v["game"], json!({"type": "undo"})).await;
    let v = act(&s, &v["game"], json!({"type": "undo"})).await;
    assert_eq!(v["view"]["cells"][0]["digit"], 0);
    g = v["game"].clone();
    // the combinations of cell 0's cage
    let v = act(&s, &g, json!({"type": "cage", "cell": 0})).await;
    let r = &v["result"];
    let cage = &k.cages[r["cage"].as_u64().unwrap() as usize];
    assert!(cage.cells.contains(&0));
    assert_eq!(r["sum"], cage.sum);
    for set in r["all"].as_array().unwrap() {
        let sum: u64 = set
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap())
            .sum();
        assert_eq!(sum, cage.sum as u64);
    }
    assert!(!r["fitting"].as_array().unwrap().is_empty());
    // hints to the end: each keeps the grid right
    let mut steps = 0;
    loop {
        let v = act(&s, &g, json!({"type": "hint"})).await;
        if v["result"]["status"] != "hint" {
            assert_eq!(v["result"]["status"], "solved", "{}", v["result"]);
            break;
        }
        let step = &v["result"]["step"];
        assert!(step["technique"].is_string() && step["nudge"].is_string());
        assert!(step["cages"].is_array());
        let v = act(&s, &g, json!({"type": "apply_hint"})).await;
        g = v["game"].clone();
        let c = act(&s, &g, json!({"type": "check"})).await;
        assert_eq!(c["result"]["wrong"], json!([]), "{step}");
        steps += 1;
        assert!(steps < 400);
    }
    let v = act(&s, &g, json!({"type": "view"})).await;
    assert_eq!(v["view"]["solved"], true);
    let grid = Grid::from_cells(9, digits(&v["view"]));
    check_solution(&k, &grid).unwrap();
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killers_from_a_line_and_its_json_form() {
    let s = start(config()).await;
    let v = act(
        &s,
        &Value::Null,
        json!({"type": "generate", "kind": "killer", "level": "medium", "seed": 2}),
    )
    .await;
    let line = v["view"]["killer"].as_str().unwrap().to_string();
    let cages = v["view"]["cages"].clone();
    // the line starts the same game
    let w = act(
        &s,
        &Value::Null,
        json!({"type": "start", "kind": "killer", "puzzle": line}),
    )
    .await;
    assert_eq!(w["view"]["cages"], cages);
    assert_eq!(w["view"]["killer"], line.as_str());
    // started from its line, it is rated as the generator rated it
    assert_eq!(w["result"]["rating"], v["result"]["rating"]);
    assert_eq!(w["result"]["level"], "medium");
    assert_eq!(w["result"]["stopped"], Value::Null);
    // the JSON form too
    let name = |c: u64| format!("r{}c{}", c / 9 + 1, c % 9 + 1);
    let form: Vec<Value> = cages
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let cells: Vec<String> = c["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| name(x.as_u64().unwrap()))
                .collect();
            json!({"sum": c["sum"], "cells": cells})
        })
        .collect();
    let text = json!({"size": 9, "cages": form}).to_string();
    let w = act(
        &s,
        &Value::Null,
        json!({"type": "start", "kind": "killer", "puzzle": text}),
    )
    .await;
    assert_eq!(w["view"]["cages"], cages);
    // a killer with givens keeps them
    let first = w["game"].clone();
    let sol = act(&s, &first, json!({"type": "reveal"})).await;
    let answer = digits(&sol["view"]);
    let givens: String = (0..81)
        .map(|c| {
            if c % 10 == 0 {
                char::from(b'0' + answer[c])
            } else {
                '.'
            }
        })
        .collect();
    let with = act(
        &s,
        &Value::Null,
        json!({"type": "start", "kind": "killer", "puzzle": format!("{line} {givens}")}),
    )
    .await;
    assert_eq!(with["view"]["cells"][0]["given"], true);
    assert_eq!(with["view"]["puzzle"], givens.replace('0', "."));
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hostile_killer_requests() {
    let s = start(config()).await;
    let n = Value::Null;
    // bad starts
    let (st, v) = refused(
        &s,
        &n,
        json!({"type": "start", "kind": "samurai", "puzzle": "x"}),
    )
    .await;
    bad_value(st, &v, "not a kind of game", "unknown kind");
    let (st, v) = refused(
        &s,
        &n,
        json!({"type": "generate", "kind": "killer", "level": "extreme"}),
    )
    .await;
    bad_value(st, &v, "not a killer level", "bad level");
    let (st, v) = refused(
        &s,
        &n,
        json!({"type": "generate", "kind": "plain", "level": "easy"}),
    )
    .await;
    bad_value(st, &v, "not a kind of game", "plain generate");
    let (st, v) = refused(
        &s,
        &n,
        json!({"type": "start", "kind": "killer", "puzzle": "abc 1,2"}),
    )
    .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_puzzle"),
        "{v}"
    );
    let four = "aabbaabbccddccdd 10,10,10,10";
    let (st, v) = refused(
        &s,
        &n,
        json!({"type": "start", "kind": "killer", "puzzle": four}),
    )
    .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_puzzle"),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("more than one"),
        "{v}"
    );
    let (st, v) = refused(
        &s,
        &n,
        json!({"type": "start", "kind": "killer", "puzzle": four, "rules": {"diagonal": true}}),
    )
    .await;
    bad_value(st, &v, "plain rules", "killer with a variant");
    let (st, _) = refused(
        &s,
        &n,
        json!({"type": "start", "kind": "killer", "puzzle": format!("{{\"size\":{}}}", u64::MAX)}),
    )
    .await;
    assert!(st.is_client_error());
    // moves on a killer game
    let v = act(
        &s,
        &n,
        json!({"type": "generate", "kind": "killer", "level": "easy", "seed": 1}),
    )
    .await;
    let g = v["game"].clone();
    for (action, says) in [
        (json!({"type": "cage", "cell": 81}), "does not exist"),
        (json!({"type": "cage", "cell": u64::MAX}), ""),
        (
            json!({"type": "set", "cell": 3, "digit": 10}),
            "not a digit",
        ),
        (
            json!({"type": "mark", "cell": 100000, "digit": 1}),
            "does not exist",
        ),
    ] {
        let (st, v) = refused(&s, &g, action.clone()).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{action}: {v}");
        assert!(v.to_string().contains(says), "{action}: {v}");
    }
    // a plain game has no cages
    let plain = act(
        &s,
        &n,
        json!({"type": "start", "puzzle": "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"}),
    )
    .await;
    assert_eq!(plain["view"]["kind"], "plain");
    assert!(plain["view"].get("cages").is_none());
    let (st, v) = refused(&s, &plain["game"], json!({"type": "cage", "cell": 1})).await;
    bad_value(st, &v, "no cages", "cage of a plain game");
    // forged saved killers
    let saved: Value = serde_json::from_str(g.as_str().unwrap()).unwrap();
    let line = saved["killer"].as_str().unwrap().to_string();
    let (map, sums) = line.split_once(' ').unwrap();
    let forged = [
        ("not a line", json!("zz")),
        ("a number", json!(17)),
        (
            "sums changed",
            json!(format!("{map} {}", sums.replacen(',', ",1", 1))),
        ),
        ("a huge line", json!("a".repeat(40_000))),
    ];
    for (what, value) in forged {
        let mut w = saved.clone();
        w["killer"] = value;
        let (st, v) = refused(&s, &Value::String(w.to_string()), json!({"type": "view"})).await;
        bad_value(st, &v, "game:", what);
    }
    s.shutdown().await;
}
