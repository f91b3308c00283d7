//! The API of `dancer serve` (API.md), against a real server on an
//! ephemeral loopback port: every endpoint, every error class, the Host
//! and Origin checks, the body cap, jobs (progress, solutions, cancel,
//! queueing, the time cap, a stream's client going away) and shutdown.
//! Answers are checked independently of the engines: Sudoku solutions by
//! `dancer_sudoku::check_solution`, exact cover solutions by
//! `dancer_core::verify`, polyform solutions cell by cell against the
//! board and the pieces. No test asserts a speed; waits are generous.

mod common;

use common::{bad_value, config, get_request, kind, raw, raw_to, start, start_with, Srv};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

const HARDISH: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const PLATINUM: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// A long exact cover job (the 20 queens, counted: hours).
fn long_problem() -> String {
    dancer_formats::dlx::to_string(&dancer_core::classic::queens(20), None)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn page_and_health() {
    let s = start(config()).await;
    let r = s.http.get(format!("{}/", s.base)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert_eq!(r.headers()["cache-control"], "no-cache");
    assert!(r.text().await.unwrap().contains("/assets/app.js"));
    for (path, ty) in [
        ("/assets/app.js", "text/javascript"),
        ("/assets/api.js", "text/javascript"),
        ("/assets/style.css", "text/css"),
    ] {
        let r = s
            .http
            .get(format!("{}{path}", s.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with(ty),
            "{path}"
        );
        assert_eq!(r.headers()["cache-control"], "no-cache");
    }
    let (st, v) = s.get("/assets/nothing.js").await;
    assert_eq!((st, kind(&v)), (StatusCode::NOT_FOUND, "not_found"));
    // no way out of the folder
    let own = format!("127.0.0.1:{}", s.port);
    for path in ["/assets/../Cargo.toml", "/assets/%2e%2e/Cargo.toml"] {
        let (code, _) = raw(s.port, &get_request(path, &own)).await;
        assert_eq!(code, 404, "{path}");
    }
    let (st, v) = s.get("/api/health").await;
    assert_eq!(st, 200);
    assert_eq!(v["ok"], true);
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_error_class() {
    let s = start_with(|c| c.body_limit = 4096).await;
    // 400: not JSON, with the place
    let (st, v) = s
        .post_raw(
            "/api/sudoku/solve",
            "application/json",
            b"{\n  \"puzzle\": \"1\",\n  oops\n}".to_vec(),
        )
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::BAD_REQUEST, "bad_request"),
        "{v}"
    );
    assert_eq!(v["error"]["line"], 3);
    assert!(v["error"]["column"].as_u64().unwrap() >= 3);
    // 400: a field of the wrong type, a missing field
    let (st, v) = s.post("/api/sudoku/solve", json!({"puzzle": 12})).await;
    assert_eq!((st, kind(&v)), (StatusCode::BAD_REQUEST, "bad_request"));
    assert_eq!(v["error"]["line"], 1);
    let (st, v) = s.post("/api/sudoku/solve", json!({})).await;
    assert_eq!((st, kind(&v)), (StatusCode::BAD_REQUEST, "bad_request"));
    // 400: a value out of range
    for (path, body) in [
        ("/api/sudoku/new", json!({"size": 5})),
        ("/api/sudoku/count", json!({"puzzle": HARDISH, "limit": 0})),
        ("/api/sudoku/new", json!({"level": "impossible"})),
        ("/api/sudoku/rate", json!({"puzzle": HARDISH, "timeout": 0})),
        (
            "/api/sudoku/solve",
            json!({"puzzle": HARDISH, "rules": {"box": "3y3"}}),
        ),
    ] {
        let (st, v) = s.post(path, body.clone()).await;
        assert_eq!(
            (st, kind(&v)),
            (StatusCode::BAD_REQUEST, "bad_value"),
            "{path} {body}"
        );
    }
    // 403: a Host that is not ours (DNS rebinding)
    let (code, text) = raw(s.port, &get_request("/api/health", "evil.example:80")).await;
    assert_eq!(code, 403);
    assert!(text.contains("\"forbidden\""), "{text}");
    let (code, _) = raw(s.port, "GET /api/health HTTP/1.0\r\n\r\n").await;
    assert_eq!(code, 403, "no Host at all");
    for host in ["127.0.0.1", "localhost", "[::1]", "LOCALHOST"] {
        let (code, _) = raw(
            s.port,
            &get_request("/api/health", &format!("{host}:{}", s.port)),
        )
        .await;
        assert_eq!(code, 200, "{host}");
    }
    // 403: an Origin that is not ours (another page); ours is fine
    let r = s
        .http
        .post(format!("{}/api/sudoku/solve", s.base))
        .header("origin", "http://evil.example")
        .json(&json!({"puzzle": HARDISH}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert_eq!(kind(&r.json().await.unwrap()), "forbidden");
    for origin in ["https://127.0.0.1", "null", "http://127.0.0.1:1"] {
        let r = s
            .http
            .get(format!("{}/api/health", s.base))
            .header("origin", origin)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 403, "{origin}");
    }
    let r = s
        .http
        .post(format!("{}/api/sudoku/solve", s.base))
        .header("origin", format!("http://localhost:{}", s.port))
        .json(&json!({"puzzle": HARDISH}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // 404
    for path in [
        "/api/nothing",
        "/api/jobs/j999",
        "/api/poly/catalog/nothing",
    ] {
        let (st, v) = s.get(path).await;
        assert_eq!(
            (st, kind(&v)),
            (StatusCode::NOT_FOUND, "not_found"),
            "{path}"
        );
    }
    // 405
    for (st, v) in [
        s.get("/api/sudoku/solve").await,
        s.delete("/api/health").await,
    ] {
        assert_eq!(
            (st, kind(&v)),
            (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed")
        );
    }
    // 413
    let big = json!({"puzzle": "1".repeat(10_000)});
    let (st, v) = s.post("/api/sudoku/solve", big).await;
    assert_eq!((st, kind(&v)), (StatusCode::PAYLOAD_TOO_LARGE, "too_large"));
    // 415
    let (st, v) = s
        .post_raw(
            "/api/sudoku/solve",
            "text/plain",
            format!("{{\"puzzle\":\"{HARDISH}\"}}").into_bytes(),
        )
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
    );
    // 422: a Sudoku that breaks its rules (count, hint, rate), with the cell
    let bad = format!("44{}", &HARDISH[2..]);
    for path in [
        "/api/sudoku/count",
        "/api/sudoku/hint",
        "/api/sudoku/rate",
        "/api/sudoku/path",
    ] {
        let (st, v) = s.post(path, json!({"puzzle": bad})).await;
        assert_eq!(
            (st, kind(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_puzzle"),
            "{path}"
        );
        assert_eq!(v["error"]["cell"], "r1c2", "{path}");
    }
    // 422: a bad polyform puzzle and a bad exact cover problem, at their
    // line and column, checked or sent as a job
    let toml = "name = \"x\"\n\n[board]\nrect = [3, 3]\nbogus = 1\n";
    for (job, field, text, invalid, line, column) in [
        ("poly", "toml", toml, "invalid_poly", 5, 1),
        ("cover", "problem", "A B\nA\nB Z\n", "invalid_problem", 3, 3),
    ] {
        let (st, v) = s
            .post(&format!("/api/{job}/check"), json!({field: text}))
            .await;
        assert_eq!(
            (st, kind(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, invalid),
            "{v}"
        );
        assert_eq!(v["error"]["line"], line);
        assert_eq!(v["error"]["column"], column);
        let (st, v) = s.post("/api/jobs", json!({"kind": job, field: text})).await;
        assert_eq!((st, kind(&v)), (StatusCode::UNPROCESSABLE_ENTITY, invalid));
    }
    // a job of no known kind
    let (st, v) = s.post("/api/jobs", json!({"kind": "chess"})).await;
    assert_eq!((st, kind(&v)), (StatusCode::BAD_REQUEST, "bad_request"));
    s.shutdown().await;
}

/// Odd inputs to every endpoint: never a 5xx.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_input_reaches_a_500() {
    let s = start(config()).await;
    let posts = [
        "/api/sudoku/new",
        "/api/sudoku/check",
        "/api/sudoku/solve",
        "/api/sudoku/count",
        "/api/sudoku/hint",
        "/api/sudoku/rate",
        "/api/sudoku/path",
        "/api/sudoku/batch",
        "/api/sudoku/game",
        "/api/poly/burr",
        "/api/poly/check",
        "/api/poly/render",
        "/api/cover/check",
        "/api/cover/trace",
        "/api/poly/watch",
        "/api/poly/frame",
        "/api/jobs",
    ];
    let long = "9".repeat(700);
    let bodies = [
        json!(null),
        json!([]),
        json!("x"),
        json!({"puzzle": ""}),
        json!({"puzzle": "\u{1F600}".repeat(81)}),
        json!({"puzzle": long}),
        json!({"puzzle": ".".repeat(625)}),
        json!({"puzzle": ".".repeat(81), "entries": "1".repeat(81)}),
        json!({"puzzle": HARDISH, "removed": [[99999, 3], [0, 200]]}),
        json!({"puzzle": ".".repeat(16), "rules": {"jigsaw": "AAAABBBBCCCCDDDE"}}),
        json!({"puzzle": ".".repeat(81), "rules": {"windoku": true, "box": "9x1"}}),
        json!({"size": 16, "level": "extreme"}),
        json!({"text": "1\n2\n", "action": "rate"}),
        json!({"text": "", "action": "count", "limit": 18446744073709551615u64}),
        json!({"game": "{}", "action": {"type": "view"}}),
        json!({"game": null, "action": {"type": "set", "cell": 0, "digit": 1}}),
        json!({"game": null, "action": {"type": "start", "puzzle": ".".repeat(81)}}),
        json!({"toml": "[board]\nrect = [100000, 100000]\n[[piece]]\nset = \"pentominoes\"\n"}),
        json!({"toml": "[board]\nrect = [-1, 3]\n"}),
        json!({"toml": "[board]\nrect = [3, 3]\n[[piece]]\nname = \"X\"\ncells = [[0,0],[5000000000,0]]\n"}),
        json!({"toml": "[board]\nrect = [5, 1]\n[[piece]]\nname = \"I\"\n", "solution": {"placements": [{"piece": "Q", "cells": [[0]]}]}, "size": 3}),
        json!({"problem": "\u{0}\u{1}"}),
        json!({"problem": "| A\nA\n"}),
        json!({"kind": "cover", "problem": "A\nA\n", "limit": 0}),
        json!({"kind": "cover", "problem": "A\nA\n", "time": -1}),
        json!({"kind": "cover", "problem": "A\nA\n", "engine": "warp"}),
        json!({"kind": "poly", "name": "nothing"}),
        json!({"kind": "poly"}),
        json!({"burr": ""}),
        json!({"burr": "H4sIAAAA", "problem": -1}),
        json!({"burr": "PHB1enpsZT48L3B1enpsZT4=", "problem": [1]}),
        json!({"burr": "PD94bWw/Pjw=", "problem": 18446744073709551615u64}),
        json!({"kind": "poly", "burr": "\u{0}", "disassemble": true}),
        json!({"problem": "A\nA\n", "steps": 0}),
        json!({"problem": "A\nA\n", "steps": 18446744073709551615u64}),
        json!({"problem": "2:3|A\nA\n"}),
        json!({"name": "corner", "placements": [18446744073709551615u64]}),
        json!({"name": "corner", "steps": -1}),
        json!({"name": "pentomino-6x10", "placements": [0, 0, 0]}),
        json!({"kind": "poly", "toml": "[board]\nbox = [1, 1, 2]\n[[piece]]\nname = \"I\"\ncells = [[0, 0, 0]]\ncount = 2\n", "disassemble": "yes"}),
    ];
    for p in posts {
        for b in &bodies {
            let (st, v) = s.post(p, b.clone()).await;
            assert!(st.is_success() || st.is_client_error(), "{p} {b}: {st} {v}");
            if st.is_client_error() {
                assert!(v["error"]["kind"].is_string(), "{p} {b}: {v}");
                assert!(v["error"]["message"].is_string(), "{p} {b}: {v}");
            }
        }
    }
    for id in ["j1", "x", "../", "%00"] {
        let (st, _) = s.get(&format!("/api/jobs/{id}/solutions?from=zz")).await;
        assert!(st.is_client_error(), "{id}");
    }
    // stop what was started
    s.state.jobs.cancel_all();
    s.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sudoku_solve_check_count() {
    let s = start(config()).await;
    // unique: the solution checked independently of the engine
    let (st, v) = s
        .post("/api/sudoku/solve", json!({"puzzle": PLATINUM}))
        .await;
    assert_eq!(st, 200);
    assert_eq!(v["status"], "unique");
    let p = dancer_sudoku::Puzzle::parse_line(PLATINUM, None).unwrap();
    let sol = dancer_sudoku::Puzzle::parse_line(v["solution"].as_str().unwrap(), None).unwrap();
    dancer_sudoku::check_solution(&p, &sol.givens).unwrap();
    // every size the CLI reads; 6x6 with its 2x3 boxes from the length
    for n in [4usize, 6, 16, 25] {
        let (st, v) = s
            .post("/api/sudoku/solve", json!({"puzzle": ".".repeat(n * n)}))
            .await;
        assert_eq!(st, 200, "{n}");
        assert_eq!(v["status"], "multiple", "{n}");
        let two = v["solutions"].as_array().unwrap();
        assert_eq!(two.len(), 2);
        let p = dancer_sudoku::Puzzle::parse_line(&".".repeat(n * n), None).unwrap();
        for g in two {
            let g = dancer_sudoku::Puzzle::parse_line(g.as_str().unwrap(), None).unwrap();
            dancer_sudoku::check_solution(&p, &g.givens).unwrap();
        }
    }
    // none; invalid with the reason and the cell
    let none = format!("12345678.........9{}", ".".repeat(63));
    let (_, v) = s.post("/api/sudoku/solve", json!({"puzzle": none})).await;
    assert_eq!(v["status"], "none");
    let bad = format!("44{}", &HARDISH[2..]);
    let (st, v) = s.post("/api/sudoku/solve", json!({"puzzle": bad})).await;
    assert_eq!(st, 200);
    assert_eq!(v["status"], "invalid");
    assert_eq!(v["error"], "two 4s in row 1: r1c1 and r1c2");
    assert_eq!(v["cell"], "r1c2");
    let (_, v) = s.post("/api/sudoku/check", json!({"puzzle": bad})).await;
    assert_eq!(
        (v["status"].as_str(), v["cell"].as_str()),
        (Some("invalid"), Some("r1c2"))
    );
    let (_, v) = s.post("/api/sudoku/solve", json!({"puzzle": "123"})).await;
    assert_eq!(v["status"], "invalid");
    assert!(v["error"].as_str().unwrap().contains("wrong length"));
    // check
    for (puzzle, status) in [
        (PLATINUM.to_string(), "unique"),
        (".".repeat(16), "multiple"),
        (none, "none"),
    ] {
        let (_, v) = s.post("/api/sudoku/check", json!({"puzzle": puzzle})).await;
        assert_eq!(v["status"], status, "{puzzle}");
    }
    // the rules object: a diagonal 9x9 has fewer solutions
    let srv = &s;
    let count = |body: Value| async move { srv.post("/api/sudoku/count", body).await.1 };
    let v = count(json!({"puzzle": ".".repeat(16), "limit": 1000})).await;
    assert_eq!(
        (v["count"].as_u64(), v["complete"].as_bool()),
        (Some(288), Some(true))
    );
    let v = count(json!({"puzzle": ".".repeat(16), "rules": {"diagonal": true}})).await;
    assert_eq!(v["count"], 48);
    let v = count(json!({"puzzle": ".".repeat(81), "limit": 5})).await;
    assert_eq!(
        (v["count"].as_u64(), v["complete"].as_bool()),
        (Some(5), Some(false))
    );
    assert!(v["effort"].is_u64());
    // a 6x6 given as 3x2 boxes
    let v = count(json!({"puzzle": ".".repeat(36), "rules": {"box": "3x2"}, "limit": 2})).await;
    assert_eq!(v["count"], 2);
    s.shutdown().await;
}

/// The option numbers of a job's solution record.
fn options_of(sol: &Value) -> Vec<usize> {
    ints(&sol["options"]).map(|o| o as usize).collect()
}

/// The whole numbers of a JSON array.
fn ints(v: &Value) -> impl Iterator<Item = i64> + '_ {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap())
}

/// Applies a step's placements to a grid line.
fn apply(line: &mut [u8], step: &Value) {
    for pl in step["placements"].as_array().unwrap() {
        let c = pl[0].as_u64().unwrap() as usize;
        let d = pl[1].as_u64().unwrap() as u8;
        line[c] = b'0' + d;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sudoku_hint_rate_path_batch() {
    let s = start(config()).await;
    let p = dancer_sudoku::Puzzle::parse_line(HARDISH, None).unwrap();
    let solution = dancer_sudoku::solve(&p, 2).solutions[0].to_line();
    // a hint: its placements are the solution's digits
    let (st, v) = s.post("/api/sudoku/hint", json!({"puzzle": HARDISH})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["status"], "hint");
    let step = &v["step"];
    for k in [
        "technique",
        "rating",
        "nudge",
        "text",
        "units",
        "cells",
        "digits",
        "placements",
        "eliminations",
    ] {
        assert!(!step[k].is_null(), "{k}");
    }
    assert!(step["nudge"].as_str().unwrap().starts_with("Try a "));
    let mut grid = HARDISH.as_bytes().to_vec();
    apply(&mut grid, step);
    for pl in step["placements"].as_array().unwrap() {
        let c = pl[0].as_u64().unwrap() as usize;
        assert_eq!(grid[c], solution.as_bytes()[c]);
    }
    // with entries: the player's grid goes on; entries that drop a given are refused
    let entries = String::from_utf8(grid.clone()).unwrap();
    let (st, v) = s
        .post(
            "/api/sudoku/hint",
            json!({"puzzle": HARDISH, "entries": entries}),
        )
        .await;
    assert_eq!((st, v["status"].as_str()), (StatusCode::OK, Some("hint")));
    let (st, _) = s
        .post(
            "/api/sudoku/hint",
            json!({"puzzle": HARDISH, "entries": ".".repeat(81)}),
        )
        .await;
    assert_eq!(st, 400);
    for (puzzle, status) in [(solution.clone(), "solved"), (".".repeat(81), "multiple")] {
        let (_, v) = s.post("/api/sudoku/hint", json!({"puzzle": puzzle})).await;
        assert_eq!(v["status"], status, "{puzzle}");
    }
    // rate: the CLI's record
    let (st, v) = s.post("/api/sudoku/rate", json!({"puzzle": HARDISH})).await;
    assert_eq!(st, 200);
    assert!(v["rating"].as_f64().unwrap() >= 1.0);
    assert_eq!(v["solved"], true);
    assert!(v["level"].is_string());
    let rating = v["rating"].as_f64().unwrap();
    // the path: its steps, applied in turn, give the solution
    let (st, v) = s.post("/api/sudoku/path", json!({"puzzle": HARDISH})).await;
    assert_eq!(st, 200);
    assert_eq!(v["solved"], true);
    assert_eq!(v["rating"].as_f64().unwrap(), rating);
    let mut grid = HARDISH.as_bytes().to_vec();
    let steps = v["steps"].as_array().unwrap();
    assert!(steps.len() > 10);
    let mut hardest = 0.0f64;
    for st in steps {
        // the board before each step is the grid the steps before made
        let before = &st["before"];
        assert_eq!(before["values"].as_str().unwrap().as_bytes(), &grid[..]);
        let cands = before["candidates"].as_array().unwrap();
        assert_eq!(cands.len(), 81);
        for (c, cand) in cands.iter().enumerate() {
            let cand = cand.as_str().unwrap();
            assert_eq!(cand.is_empty(), grid[c] != b'.', "cell {c}");
            // the solution's digit is always among the candidates left
            if grid[c] == b'.' {
                assert!(cand.contains(solution.as_bytes()[c] as char), "cell {c}");
            }
        }
        for e in st["eliminations"].as_array().unwrap() {
            let (c, d) = (e[0].as_u64().unwrap() as usize, e[1].as_u64().unwrap());
            assert!(
                cands[c].as_str().unwrap().contains(&d.to_string()),
                "{e} is a candidate"
            );
        }
        apply(&mut grid, st);
        hardest = hardest.max(st["rating"].as_f64().unwrap());
    }
    assert_eq!(String::from_utf8(grid).unwrap(), solution);
    assert_eq!(hardest, rating);
    // batch: the CLI's records in input order, with their lines
    let text = format!("{HARDISH}\n\n{}\n{PLATINUM}\n", ".".repeat(16));
    let (st, v) = s
        .post(
            "/api/sudoku/batch",
            json!({"text": text, "action": "solve"}),
        )
        .await;
    assert_eq!(st, 200, "{v}");
    let r = v["records"].as_array().unwrap();
    assert_eq!(r.len(), 3);
    assert_eq!(
        (r[0]["line"].as_u64(), r[0]["status"].as_str()),
        (Some(1), Some("unique"))
    );
    assert_eq!(r[0]["solution"], solution);
    assert_eq!(
        (r[1]["line"].as_u64(), r[1]["status"].as_str()),
        (Some(3), Some("multiple"))
    );
    assert_eq!(r[2]["line"], 4);
    let (_, v) = s
        .post(
            "/api/sudoku/batch",
            json!({"text": text, "action": "count", "limit": 1000}),
        )
        .await;
    assert_eq!(v["records"][1]["count"], 288);
    let (_, v) = s
        .post(
            "/api/sudoku/batch",
            json!({"text": text, "action": "check"}),
        )
        .await;
    assert_eq!(v["records"][2]["status"], "unique");
    let (_, v) = s
        .post(
            "/api/sudoku/batch",
            json!({"text": format!("{HARDISH}\n123\n"), "action": "rate"}),
        )
        .await;
    let r = v["records"].as_array().unwrap();
    assert_eq!(r[0]["rating"].as_f64().unwrap(), rating);
    assert_eq!(r[1]["status"], "invalid");
    let many = format!("{HARDISH}\n").repeat(10_001);
    let (st, v) = s
        .post(
            "/api/sudoku/batch",
            json!({"text": many, "action": "solve"}),
        )
        .await;
    assert_eq!((st, kind(&v)), (StatusCode::BAD_REQUEST, "bad_value"));
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sudoku_new() {
    let s = start(config()).await;
    for (size, variant) in [
        (4, "none"),
        (6, "none"),
        (9, "none"),
        (9, "diagonal"),
        (9, "windoku"),
        (16, "none"),
    ] {
        // a level is for plain 9x9 puzzles only (refused elsewhere: see
        // tests/hostile.rs)
        let mut req = json!({"size": size, "variant": variant, "seed": 7});
        if size == 9 && variant == "none" {
            req["level"] = json!("easy");
        }
        let (st, v) = s.post("/api/sudoku/new", req).await;
        assert_eq!(st, 200, "{size} {variant}: {v}");
        let rules = &v["rules"];
        // the puzzle, read back with the rules it came with, is unique, and its
        // solution is right
        let (_, c) = s
            .post(
                "/api/sudoku/check",
                json!({"puzzle": v["puzzle"], "rules": rules}),
            )
            .await;
        assert_eq!(c["status"], "unique", "{size} {variant}");
        let (_, sol) = s
            .post(
                "/api/sudoku/solve",
                json!({"puzzle": v["puzzle"], "rules": rules}),
            )
            .await;
        assert_eq!(sol["solution"], v["solution"], "{size} {variant}");
        if size == 9 && variant == "none" {
            assert_eq!(v["level"], "easy");
            let r = v["rating"].as_f64().unwrap();
            assert!((1.0..=2.5).contains(&r), "{r}");
        }
        if variant == "diagonal" {
            assert_eq!(rules["diagonal"], true);
        }
        // SE ratings and levels are for plain 9x9 only
        if size != 9 || variant != "none" {
            assert!(
                v["rating"].is_null() && v["level"].is_null(),
                "{size} {variant}: {v}"
            );
        }
    }
    // a seed repeats
    let a = s.post("/api/sudoku/new", json!({"seed": 42})).await.1;
    let b = s.post("/api/sudoku/new", json!({"seed": 42})).await.1;
    assert_eq!(a["puzzle"], b["puzzle"]);
    let (st, _) = s
        .post("/api/sudoku/new", json!({"size": 4, "variant": "windoku"}))
        .await;
    assert_eq!(st, 400);
    let (st, _) = s
        .post("/api/sudoku/new", json!({"symmetry": "spiral"}))
        .await;
    assert_eq!(st, 400);
    s.shutdown().await;
}

async fn act(s: &Srv, game: &Value, action: Value) -> Value {
    let (st, v) = s
        .post("/api/sudoku/game", json!({"game": game, "action": action}))
        .await;
    assert_eq!(st, 200, "{action}: {v}");
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_game() {
    let s = start(config()).await;
    let (_, new) = s
        .post("/api/sudoku/new", json!({"level": "easy", "seed": 3}))
        .await;
    let puzzle = new["puzzle"].as_str().unwrap().to_string();
    let solution: Vec<u8> = new["solution"]
        .as_str()
        .unwrap()
        .bytes()
        .map(|b| b - b'0')
        .collect();
    let v = act(&s, &Value::Null, json!({"type": "start", "puzzle": puzzle})).await;
    let view = &v["view"];
    assert_eq!(view["size"], 9);
    assert_eq!(view["box"], json!([3, 3]));
    assert_eq!(view["regions"].as_array().unwrap().len(), 81);
    assert_eq!(view["puzzle"], puzzle.as_str());
    assert_eq!(view["solved"], false);
    assert_eq!(
        (view["can_undo"].as_bool(), view["can_redo"].as_bool()),
        (Some(false), Some(false))
    );
    let empty = puzzle.bytes().position(|b| b == b'.').unwrap();
    let given = puzzle.bytes().position(|b| b != b'.').unwrap();
    let mut g = v["game"].clone();
    assert!(g.is_string());
    // set: right, then wrong; check finds the wrong one
    let right = solution[empty];
    let wrong = if right == 9 { 1 } else { right + 1 };
    let v = act(
        &s,
        &g,
        json!({"type": "set", "cell": empty, "digit": wrong}),
    )
    .await;
    assert_eq!(v["result"]["check"], "wrong");
    assert_eq!(v["view"]["cells"][empty]["digit"], wrong);
    g = v["game"].clone();
    let v = act(&s, &g, json!({"type": "check"})).await;
    assert_eq!(v["result"]["wrong"], json!([empty]));
    // a given cannot be changed
    let (st, e) = s
        .post(
            "/api/sudoku/game",
            json!({"game": g, "action": {"type": "set", "cell": given, "digit": 1}}),
        )
        .await;
    assert_eq!((st, kind(&e)), (StatusCode::BAD_REQUEST, "bad_value"));
    // undo, redo
    let v = act(&s, &g, json!({"type": "undo"})).await;
    assert_eq!(v["view"]["cells"][empty]["digit"], 0);
    assert_eq!(v["view"]["can_redo"], true);
    let v = act(&s, &v["game"], json!({"type": "redo"})).await;
    assert_eq!(v["view"]["cells"][empty]["digit"], wrong);
    let v = act(&s, &v["game"], json!({"type": "clear", "cell": empty})).await;
    assert_eq!(v["view"]["cells"][empty]["digit"], 0);
    g = v["game"].clone();
    // marks: toggle, fill, clear, undo
    let v = act(&s, &g, json!({"type": "mark", "cell": empty, "digit": 5})).await;
    assert_eq!(v["view"]["cells"][empty]["marks"], json!([5]));
    let v = act(
        &s,
        &v["game"],
        json!({"type": "mark", "cell": empty, "digit": 5}),
    )
    .await;
    assert_eq!(v["view"]["cells"][empty]["marks"], json!([]));
    let v = act(&s, &v["game"], json!({"type": "fill_marks"})).await;
    let marks = v["view"]["cells"][empty]["marks"]
        .as_array()
        .unwrap()
        .clone();
    assert!(marks.contains(&json!(right)));
    let v = act(&s, &v["game"], json!({"type": "clear_marks"})).await;
    assert!(v["view"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["marks"] == json!([])));
    let v = act(&s, &v["game"], json!({"type": "undo"})).await;
    assert_eq!(
        v["view"]["cells"][empty]["marks"].as_array().unwrap(),
        &marks
    );
    g = v["game"].clone();
    // conflicts: the same digit twice in a row
    let row = empty / 9;
    let other = (row * 9..row * 9 + 9).find(|&c| c != empty && puzzle.as_bytes()[c] == b'.');
    if let Some(other) = other {
        let v = act(
            &s,
            &g,
            json!({"type": "set", "cell": empty, "digit": right}),
        )
        .await;
        let v = act(
            &s,
            &v["game"],
            json!({"type": "set", "cell": other, "digit": right}),
        )
        .await;
        assert_eq!(v["view"]["cells"][other]["conflict"], true);
        assert_eq!(v["view"]["cells"][empty]["conflict"], true);
        let v = act(&s, &v["game"], json!({"type": "undo"})).await;
        let v = act(&s, &v["game"], json!({"type": "undo"})).await;
        g = v["game"].clone();
    }
    // a hint leaves the game as it is
    let v = act(&s, &g, json!({"type": "hint"})).await;
    assert_eq!(v["result"]["status"], "hint");
    assert!(v["result"]["step"]["technique"].is_string());
    assert_eq!(v["game"], g);
    // apply hints until solved: never a wrong digit
    let mut g = v["game"].clone();
    let mut steps = 0;
    loop {
        let v = act(&s, &g, json!({"type": "apply_hint"})).await;
        g = v["game"].clone();
        for (c, cell) in v["view"]["cells"].as_array().unwrap().iter().enumerate() {
            let d = cell["digit"].as_u64().unwrap() as u8;
            assert!(
                d == 0 || d == solution[c],
                "a hint placed a wrong digit in cell {c}"
            );
        }
        if v["view"]["solved"] == true {
            break;
        }
        steps += 1;
        assert!(steps < 200, "hints never finish");
    }
    let v = act(&s, &g, json!({"type": "hint"})).await;
    assert_eq!(v["result"]["status"], "solved");
    // reveal one cell, then the whole grid, on a fresh game
    let v = act(&s, &Value::Null, json!({"type": "start", "puzzle": puzzle})).await;
    let v = act(&s, &v["game"], json!({"type": "reveal", "cell": empty})).await;
    assert_eq!(v["view"]["cells"][empty]["digit"], right);
    let v = act(&s, &v["game"], json!({"type": "reveal"})).await;
    assert_eq!(v["view"]["solved"], true);
    let v = act(&s, &v["game"], json!({"type": "view"})).await;
    assert_eq!(v["view"]["solved"], true);
    // a game that does not load; a puzzle that has no unique solution
    let (st, e) = s
        .post(
            "/api/sudoku/game",
            json!({"game": "{\"size\":9}", "action": {"type": "view"}}),
        )
        .await;
    assert_eq!((st, kind(&e)), (StatusCode::BAD_REQUEST, "bad_value"));
    let (st, e) = s
        .post(
            "/api/sudoku/game",
            json!({"game": null, "action": {"type": "start", "puzzle": ".".repeat(81)}}),
        )
        .await;
    assert_eq!(
        (st, kind(&e)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_puzzle")
    );
    s.shutdown().await;
}

/// Checks a polyform solution record against the puzzle: every board cell
/// covered once, each placement a copy (turned) of its piece.
fn check_poly(p: &dancer_poly::PolyPuzzle, record: &Value) {
    use dancer_poly::geometry::{canonical, symmetries};
    let mut seen = BTreeMap::new();
    let group = symmetries(p.board.dim);
    for pl in record["placements"].as_array().unwrap() {
        let name = pl["piece"].as_str().unwrap();
        let piece = p
            .pieces
            .iter()
            .find(|x| x.name == name)
            .expect("a piece of the puzzle");
        let cells: Vec<[i32; 3]> = pl["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let v: Vec<i32> = ints(c).map(|x| x as i32).collect();
                [v[0], v[1], *v.get(2).unwrap_or(&0)]
            })
            .collect();
        assert_eq!(
            canonical(&cells, &group),
            canonical(&piece.cells, &group),
            "{name}"
        );
        for c in cells {
            assert!(p.board.index(&c).is_some(), "{c:?} off the board");
            *seen.entry(c).or_insert(0) += 1;
        }
    }
    assert_eq!(seen.len(), p.board.len(), "every cell covered");
    assert!(seen.values().all(|&k| k == 1), "no cell twice");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn polyforms() {
    let s = start(config()).await;
    let (st, v) = s.get("/api/poly/catalog").await;
    assert_eq!(st, 200);
    let list = v["puzzles"].as_array().unwrap();
    assert!(list.iter().any(|e| e["name"] == "pentomino-6x10"
        && e["dim"] == 2
        && e["pieces"] == 12
        && e["cells"] == 60));
    for e in list {
        let name = e["name"].as_str().unwrap();
        let (st, t) = s.get(&format!("/api/poly/catalog/{name}")).await;
        assert_eq!(st, 200);
        let (st, c) = s.post("/api/poly/check", json!({"toml": t["toml"]})).await;
        assert_eq!(st, 200, "{name}: {c}");
        assert_eq!(c["dim"], e["dim"]);
        assert_eq!(
            c["board"].as_array().unwrap().len() as u64,
            e["cells"].as_u64().unwrap()
        );
        assert!(
            c["svg"].as_str().unwrap().starts_with("<svg")
                || c["svg"].as_str().unwrap().starts_with("<?xml")
        );
    }
    // solve the 3x20 pentomino puzzle as a job: 8 solutions, 2 up to symmetry
    let (_, t) = s.get("/api/poly/catalog/pentomino-3x20").await;
    let toml = t["toml"].as_str().unwrap().to_string();
    let puzzle = dancer_poly::parse(&toml, "t").unwrap();
    let (st, j) = s
        .post(
            "/api/jobs",
            json!({"kind": "poly", "toml": toml, "mode": "solve"}),
        )
        .await;
    assert_eq!(st, 202, "{j}");
    let id = j["id"].as_str().unwrap().to_string();
    let done = s.wait_done(&id, 120).await;
    let sum = &done["summary"];
    assert_eq!(sum["status"], "complete", "{done}");
    assert_eq!(
        (sum["solutions"].as_u64(), sum["unique"].as_u64()),
        (Some(8), Some(2))
    );
    assert_eq!(done["progress"]["fraction"], 1.0);
    let (_, sols) = s.get(&format!("/api/jobs/{id}/solutions?from=0")).await;
    let sols = sols["solutions"].as_array().unwrap().clone();
    assert_eq!(sols.len(), 8);
    for r in &sols {
        check_poly(&puzzle, r);
        assert!(r["svg"].as_str().unwrap().contains("<svg"));
    }
    let (_, later) = s.get(&format!("/api/jobs/{id}/solutions?from=6")).await;
    assert_eq!(
        (
            later["solutions"].as_array().unwrap().len(),
            later["next"].as_u64()
        ),
        (2, Some(8))
    );
    // unique, count
    let (_, j) = s
        .post(
            "/api/jobs",
            json!({"kind": "poly", "name": "pentomino-3x20", "mode": "count", "unique": true}),
        )
        .await;
    let done = s.wait_done(j["id"].as_str().unwrap(), 120).await;
    assert_eq!(done["summary"]["unique"], 2);
    assert_eq!(done["summary"]["kept"], 0);
    // render: SVG and PNG of a solution
    let r = s
        .http
        .post(format!("{}/api/poly/render", s.base))
        .json(&json!({"toml": toml, "solution": sols[0], "format": "svg", "size": 10}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    assert!(r.text().await.unwrap().contains("<svg"));
    let r = s
        .http
        .post(format!("{}/api/poly/render", s.base))
        .json(&json!({"toml": toml, "solution": sols[0], "format": "png"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "image/png");
    assert_eq!(&r.bytes().await.unwrap()[..4], b"\x89PNG");
    let (st, _) = s
        .post("/api/poly/render", json!({"toml": toml, "solution": {"placements": [{"piece": "F", "cells": [[50, 50]]}]}}))
        .await;
    assert_eq!(st, 400);
    // a 3D puzzle: cells [x, y, z]
    let (_, j) = s
        .post(
            "/api/jobs",
            json!({"kind": "poly", "name": "soma", "limit": 3}),
        )
        .await;
    let done = s.wait_done(j["id"].as_str().unwrap(), 120).await;
    assert_eq!(done["summary"]["status"], "limit");
    let (_, sols) = s
        .get(&format!(
            "/api/jobs/{}/solutions",
            j["id"].as_str().unwrap()
        ))
        .await;
    let soma = dancer_poly::catalog::puzzle("soma").unwrap();
    for r in sols["solutions"].as_array().unwrap() {
        check_poly(&soma, r);
    }
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn exact_cover() {
    let s = start(config()).await;
    let toy = "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
    let (st, v) = s.post("/api/cover/check", json!({"problem": toy})).await;
    assert_eq!(st, 200);
    assert_eq!(
        (
            v["items"].as_u64(),
            v["secondary"].as_u64(),
            v["options"].as_u64()
        ),
        (Some(5), Some(2), Some(6))
    );
    let (st, j) = s
        .post("/api/jobs", json!({"kind": "cover", "problem": toy}))
        .await;
    assert_eq!(st, 202);
    let id = j["id"].as_str().unwrap();
    let done = s.wait_done(id, 60).await;
    assert_eq!(done["kind"], "cover");
    assert_eq!(done["summary"]["status"], "complete");
    assert_eq!(done["summary"]["solutions"], 1);
    let (_, sols) = s.get(&format!("/api/jobs/{id}/solutions")).await;
    let sol = &sols["solutions"][0];
    assert_eq!(sol["lines"].as_array().unwrap().len(), 3);
    let problem = dancer_formats::dlx::read_str(toy, "toy").unwrap().problem;
    let opts = options_of(sol);
    dancer_core::verify(&problem, &opts).unwrap();
    // the 8 queens: 92 solutions, kept at most `keep`, every one verified
    let q8 = dancer_core::classic::queens(8);
    let text = dancer_formats::dlx::to_string(&q8, None);
    let (_, j) = s
        .post(
            "/api/jobs",
            json!({"kind": "cover", "problem": text, "keep": 50, "engine": "dlx"}),
        )
        .await;
    let id = j["id"].as_str().unwrap();
    let done = s.wait_done(id, 60).await;
    assert_eq!(done["summary"]["solutions"], 92);
    assert_eq!(done["summary"]["kept"], 50);
    assert_eq!(done["summary"]["engine"], "dlx");
    assert!(done["summary"]["nodes"].as_u64().unwrap() > 92);
    assert!(done["summary"]["updates"].as_u64().unwrap() > 0);
    let (_, sols) = s.get(&format!("/api/jobs/{id}/solutions")).await;
    let read = dancer_formats::dlx::read_str(&text, "q8").unwrap().problem;
    for sol in sols["solutions"].as_array().unwrap() {
        let opts = options_of(sol);
        dancer_core::verify(&read, &opts).unwrap();
    }
    // a limit; count mode
    let (_, j) = s
        .post(
            "/api/jobs",
            json!({"kind": "cover", "problem": text, "limit": 10}),
        )
        .await;
    let done = s.wait_done(j["id"].as_str().unwrap(), 60).await;
    assert_eq!(
        (
            done["summary"]["status"].as_str(),
            done["summary"]["solutions"].as_u64()
        ),
        (Some("limit"), Some(10))
    );
    let (_, j) = s
        .post(
            "/api/jobs",
            json!({"kind": "cover", "problem": text, "mode": "count"}),
        )
        .await;
    let done = s.wait_done(j["id"].as_str().unwrap(), 60).await;
    assert_eq!(
        (
            done["summary"]["solutions"].as_u64(),
            done["summary"]["kept"].as_u64()
        ),
        (Some(92), Some(0))
    );
    s.shutdown().await;
}

/// Reads a job's event stream until `done` (or `max` events).
async fn read_events(s: &Srv, id: &str, max: usize) -> Vec<(String, Value)> {
    let mut r = s.events(id).await;
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let mut buf = String::new();
    let mut out = Vec::new();
    let end = Instant::now() + Duration::from_secs(120);
    while out.len() < max {
        let chunk = tokio::time::timeout_at(end.into(), r.chunk())
            .await
            .expect("events in time")
            .unwrap();
        let Some(chunk) = chunk else { break };
        buf.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(i) = buf.find("\n\n") {
            let block = buf[..i].to_string();
            buf.drain(..i + 2);
            let mut name = String::new();
            let mut data = String::new();
            for line in block.lines() {
                if let Some(n) = line.strip_prefix("event:") {
                    name = n.trim().to_string();
                } else if let Some(d) = line.strip_prefix("data:") {
                    data.push_str(d.trim_start());
                }
            }
            if name.is_empty() {
                continue; // a keep-alive comment
            }
            let v: Value = serde_json::from_str(&data).unwrap();
            let last = name == "done";
            out.push((name, v));
            if last {
                return out;
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn events_replay_and_end_with_done() {
    let s = start(config()).await;
    let q = dancer_formats::dlx::to_string(&dancer_core::classic::queens(6), None);
    let (_, j) = s
        .post("/api/jobs", json!({"kind": "cover", "problem": q}))
        .await;
    let id = j["id"].as_str().unwrap();
    s.wait_done(id, 60).await;
    // a late stream replays the solutions kept, then done
    let ev = read_events(&s, id, 1000).await;
    let names: Vec<&str> = ev.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names.iter().filter(|&&n| n == "solution").count(),
        4,
        "{names:?}"
    );
    assert_eq!(names.last(), Some(&"done"));
    let done = &ev.last().unwrap().1;
    for k in [
        "status",
        "solutions",
        "nodes",
        "updates",
        "elapsed_s",
        "engine",
        "message",
    ] {
        assert!(done.get(k).is_some(), "{k}");
    }
    // a live stream of a long job sends progress with nodes going up
    let (_, j) = s
        .post(
            "/api/jobs",
            json!({"kind": "cover", "problem": long_problem(), "mode": "count", "time": 60}),
        )
        .await;
    let id = j["id"].as_str().unwrap().to_string();
    let ev = read_events(&s, &id, 12).await;
    let progress: Vec<&Value> = ev
        .iter()
        .filter(|(n, _)| n == "progress")
        .map(|(_, v)| v)
        .collect();
    assert!(progress.len() >= 8);
    let last = progress.last().unwrap();
    for k in [
        "fraction",
        "solutions",
        "nodes",
        "nodes_per_s",
        "elapsed_s",
        "eta_s",
    ] {
        assert!(last.get(k).is_some(), "{k}");
    }
    assert!(last["nodes"].as_u64().unwrap() > 0, "{last}");
    assert!(last["fraction"].as_f64().unwrap() >= 0.0);
    // the stream was dropped: the job is cancelled
    let done = s.wait_done(&id, 10).await;
    assert_eq!(done["summary"]["status"], "cancelled");
    s.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cancel_really_stops_the_work() {
    let s = start(config()).await;
    for kind in ["cover", "poly"] {
        let spec = if kind == "cover" {
            json!({"kind": "cover", "problem": long_problem(), "mode": "count"})
        } else {
            json!({"kind": "poly", "name": "ypent-5x5x5", "mode": "count"})
        };
        let (st, j) = s.post("/api/jobs", spec).await;
        assert_eq!(st, 202);
        let id = j["id"].as_str().unwrap().to_string();
        s.wait_state(&id, "running").await;
        // wait until it has really searched
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let (_, v) = s.get(&format!("/api/jobs/{id}")).await;
            if v["progress"]["nodes"].as_u64().unwrap() > 0 {
                break;
            }
            assert!(Instant::now() < end, "no progress: {v}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(s.state.jobs.live_threads(), 1);
        let t = Instant::now();
        let (st, v) = s.delete(&format!("/api/jobs/{id}")).await;
        assert_eq!(st, 200);
        assert_eq!(v["state"], "done", "{v}");
        assert_eq!(v["summary"]["status"], "cancelled");
        assert!(t.elapsed() < Duration::from_secs(5), "{kind}");
        s.threads_end().await;
        // the counters stand still: the thread has ended
        let (_, a) = s.get(&format!("/api/jobs/{id}")).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (_, b) = s.get(&format!("/api/jobs/{id}")).await;
        assert_eq!(a["progress"]["nodes"], b["progress"]["nodes"]);
        // a second DELETE is harmless
        let (st, _) = s.delete(&format!("/api/jobs/{id}")).await;
        assert_eq!(st, 200);
    }
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn queueing_and_the_queue_cap() {
    let s = start_with(|c| (c.jobs, c.queue) = (1, 2)).await;
    let spec = json!({"kind": "cover", "problem": long_problem(), "mode": "count"});
    let (_, a) = s.post("/api/jobs", spec.clone()).await;
    assert_eq!(a["state"], "running");
    let (_, b) = s.post("/api/jobs", spec.clone()).await;
    assert_eq!(b["state"], "queued");
    let (_, c) = s.post("/api/jobs", spec.clone()).await;
    assert_eq!(c["state"], "queued");
    let (st, v) = s.post("/api/jobs", spec.clone()).await;
    assert_eq!((st, kind(&v)), (StatusCode::TOO_MANY_REQUESTS, "busy"));
    let (a, b, c) = (
        a["id"].as_str().unwrap().to_string(),
        b["id"].as_str().unwrap().to_string(),
        c["id"].as_str().unwrap().to_string(),
    );
    // b waits while a runs: one thread
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, v) = s.get(&format!("/api/jobs/{b}")).await;
    assert_eq!(v["state"], "queued");
    assert_eq!(s.state.jobs.live_threads(), 1);
    // cancelling a queued job ends it without running it
    let (_, v) = s.delete(&format!("/api/jobs/{c}")).await;
    assert_eq!(
        (v["state"].as_str(), v["summary"]["status"].as_str()),
        (Some("done"), Some("cancelled"))
    );
    assert_eq!(v["summary"]["nodes"], 0);
    // a ends: b runs
    s.delete(&format!("/api/jobs/{a}")).await;
    s.wait_state(&b, "running").await;
    assert_eq!(s.state.jobs.live_threads(), 1);
    s.delete(&format!("/api/jobs/{b}")).await;
    s.threads_end().await;
    assert_eq!(s.state.jobs.waiting(), 0);
    // the time cap ends a job by itself
    let (_, j) = s
        .post(
            "/api/jobs",
            json!({"kind": "cover", "problem": long_problem(), "mode": "count", "time": 0.3}),
        )
        .await;
    let done = s.wait_done(j["id"].as_str().unwrap(), 30).await;
    assert_eq!(done["summary"]["status"], "timeout");
    s.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn closing_the_stream_cancels_the_job() {
    let s = start_with(|c| c.jobs = 1).await;
    let spec = json!({"kind": "cover", "problem": long_problem(), "mode": "count"});
    let (_, a) = s.post("/api/jobs", spec.clone()).await;
    let (_, b) = s.post("/api/jobs", spec.clone()).await;
    let (a, b) = (
        a["id"].as_str().unwrap().to_string(),
        b["id"].as_str().unwrap().to_string(),
    );
    for id in [&a, &b] {
        // the tab opens the stream, reads a little, and is closed
        let mut r = s.events(id).await;
        let first = tokio::time::timeout(Duration::from_secs(10), r.chunk())
            .await
            .unwrap()
            .unwrap();
        assert!(first.is_some());
        drop(r);
        let done = s.wait_done(id, 10).await;
        assert_eq!(done["summary"]["status"], "cancelled", "{id}");
    }
    s.threads_end().await;
    // two streams: the job goes on while one is left
    let (_, c) = s.post("/api/jobs", spec).await;
    let c = c["id"].as_str().unwrap().to_string();
    let url = format!("{}/api/jobs/{c}/events", s.base);
    let mut r1 = s.http.get(&url).send().await.unwrap();
    let r2 = s.http.get(&url).send().await.unwrap();
    r1.chunk().await.unwrap();
    drop(r2);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, v) = s.get(&format!("/api/jobs/{c}")).await;
    assert_eq!(v["state"], "running");
    drop(r1);
    assert_eq!(s.wait_done(&c, 10).await["summary"]["status"], "cancelled");
    s.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn shutdown_cancels_jobs_and_refuses_work() {
    let s = start(config()).await;
    let (_, j) = s
        .post(
            "/api/jobs",
            json!({"kind": "cover", "problem": long_problem(), "mode": "count"}),
        )
        .await;
    let id = j["id"].as_str().unwrap().to_string();
    s.wait_state(&id, "running").await;
    let state = s.state.clone();
    state.stop();
    let (st, v) = s
        .post("/api/sudoku/solve", json!({"puzzle": HARDISH}))
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::SERVICE_UNAVAILABLE, "shutting_down")
    );
    let (st, v) = s
        .post("/api/jobs", json!({"kind": "cover", "problem": "A\nA\n"}))
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::SERVICE_UNAVAILABLE, "shutting_down")
    );
    let end = Instant::now() + Duration::from_secs(5);
    while state.jobs.live_threads() > 0 {
        assert!(Instant::now() < end);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        state.jobs.get(&id).unwrap().state(),
        dancer_web::JobState::Done
    );
    s.shutdown().await;
}

/// The load test's small version: many solves at once, all answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_requests_at_once() {
    let s = start(config()).await;
    let puzzles = [HARDISH, PLATINUM];
    let sem = Arc::new(tokio::sync::Semaphore::new(16));
    let mut tasks = Vec::new();
    for i in 0..300 {
        let http = s.http.clone();
        let url = format!("{}/api/sudoku/solve", s.base);
        let p = puzzles[i % 2];
        let permit = sem.clone().acquire_owned().await.unwrap();
        tasks.push(tokio::spawn(async move {
            let r = http
                .post(url)
                .json(&json!({"puzzle": p}))
                .send()
                .await
                .unwrap();
            let st = r.status();
            let v: Value = r.json().await.unwrap();
            drop(permit);
            (st, v)
        }));
    }
    for t in tasks {
        let (st, v) = t.await.unwrap();
        assert_eq!(st, 200);
        assert_eq!(v["status"], "unique");
    }
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn game_variants_and_forged_saves() {
    let s = start(config()).await;
    for variant in ["diagonal", "windoku"] {
        let (_, new) = s
            .post("/api/sudoku/new", json!({"variant": variant, "seed": 5}))
            .await;
        let v = act(
            &s,
            &Value::Null,
            json!({"type": "start", "puzzle": new["puzzle"], "rules": new["rules"]}),
        )
        .await;
        let view = &v["view"];
        assert_eq!(view["variant"], variant);
        assert_eq!(view["hints"], false);
        assert_eq!(view["rules"], new["rules"]);
        let units = view["extra_units"].as_array().unwrap();
        assert_eq!(units.len(), if variant == "diagonal" { 2 } else { 4 });
        // filled-in candidates leave out what the extra units hold
        let g = act(&s, &v["game"], json!({"type": "fill_marks"})).await;
        let cells = g["view"]["cells"].as_array().unwrap();
        for u in units {
            let cells_of: Vec<usize> = ints(u).map(|c| c as usize).collect();
            let held: Vec<u64> = cells_of
                .iter()
                .filter_map(|&c| cells[c]["digit"].as_u64().filter(|&d| d != 0))
                .collect();
            for &c in &cells_of {
                for m in cells[c]["marks"].as_array().unwrap() {
                    assert!(
                        !held.contains(&m.as_u64().unwrap()),
                        "{variant}: cell {c} mark {m}"
                    );
                }
            }
        }
        // a hint says that hints are for plain 9x9; the game is unchanged
        let h = act(&s, &g["game"], json!({"type": "hint"})).await;
        assert_eq!(h["result"]["status"], "stuck");
        assert!(h["result"]["message"]
            .as_str()
            .unwrap()
            .contains("plain 9x9"));
        // revealed whole, the game is solved under its own rules
        let r = act(&s, &g["game"], json!({"type": "reveal"})).await;
        assert_eq!(r["view"]["solved"], true);
        let sol: String = r["view"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| char::from(b'0' + c["digit"].as_u64().unwrap() as u8))
            .collect();
        assert_eq!(sol, new["solution"].as_str().unwrap());
    }
    // a jigsaw game is refused
    let (st, e) = s
        .post(
            "/api/sudoku/game",
            json!({"game": null, "action": {"type": "start", "puzzle": "1...............", "rules": {"jigsaw": "AABBAABBCCDDCCDD"}}}),
        )
        .await;
    assert_eq!(
        (st, kind(&e)),
        (StatusCode::BAD_REQUEST, "bad_value"),
        "{e}"
    );
    // forged saves: refused with 400, never a panic or a 500
    let (_, new) = s.post("/api/sudoku/new", json!({"seed": 9})).await;
    let v = act(
        &s,
        &Value::Null,
        json!({"type": "start", "puzzle": new["puzzle"]}),
    )
    .await;
    let empty = new["puzzle"].as_str().unwrap().find('.').unwrap();
    let v = act(
        &s,
        &v["game"],
        json!({"type": "mark", "cell": empty, "digit": 3}),
    )
    .await;
    let saved: Value = serde_json::from_str(v["game"].as_str().unwrap()).unwrap();
    let forged = |f: &dyn Fn(&mut Value)| {
        let mut w = saved.clone();
        f(&mut w);
        w.to_string()
    };
    let bad = [
        forged(&|w| w["size"] = json!(5)),
        forged(&|w| w["size"] = json!(1u64 << 40)),
        forged(&|w| w["box"] = json!([0, 9])),
        forged(&|w| w["history"][0]["Cell"]["cell"] = json!(100_000)),
        forged(&|w| w["marks"][empty] = json!(u32::MAX)),
        forged(&|w| w["solution"][0] = json!(0)),
        "not json".to_string(),
        "{}".to_string(),
    ];
    for game in &bad {
        for action in [
            json!({"type": "undo"}),
            json!({"type": "view"}),
            json!({"type": "fill_marks"}),
        ] {
            let (st, e) = s
                .post("/api/sudoku/game", json!({"game": game, "action": action}))
                .await;
            bad_value(st, &e, "not a saved game", game);
        }
    }
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bound_to_all_addresses_it_answers_to_the_address_reached() {
    // 127.0.0.2 is this machine too (all of 127/8 is loopback on Linux):
    // a stand-in for a LAN address that another machine would use
    let s = start_with(|c| c.bind = "0.0.0.0".parse().unwrap()).await;
    let get = |host: String| get_request("/api/health", &host);
    let p = s.port;
    let (code, text) = raw_to("127.0.0.2", p, &get(format!("127.0.0.2:{p}"))).await;
    assert_eq!(code, 200, "{text}");
    // the address reached, not another one, and never a name
    for host in [
        format!("127.0.0.3:{p}"),
        format!("evil.example:{p}"),
        "127.0.0.2:1".to_string(),
    ] {
        let (code, _) = raw_to("127.0.0.2", p, &get(host.clone())).await;
        assert_eq!(code, 403, "{host}");
    }
    // an Origin of that address is its own page; another is not
    let post = |origin: &str| {
        format!(
            "POST /api/sudoku/check HTTP/1.1\r\nHost: 127.0.0.2:{p}\r\nOrigin: {origin}\r\nContent-Type: application/json\r\nContent-Length: 14\r\nConnection: close\r\n\r\n{{\"puzzle\":\"1\"}}"
        )
    };
    let (code, text) = raw_to("127.0.0.2", p, &post(&format!("http://127.0.0.2:{p}"))).await;
    assert_eq!(code, 200, "{text}");
    let (code, _) = raw_to("127.0.0.2", p, &post("http://evil.example")).await;
    assert_eq!(code, 403);
    // loopback names still work
    let (code, _) = raw(p, &get(format!("localhost:{p}"))).await;
    assert_eq!(code, 200);
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_job_nobody_follows_is_cancelled() {
    let s = start_with(|c| c.job_orphan = Duration::from_millis(400)).await;
    let spec = json!({"kind": "cover", "problem": long_problem(), "mode": "count"});
    // submitted, then never followed (a tab closed before its stream
    // connected): cancelled after the orphan time
    let (_, a) = s.post("/api/jobs", spec.clone()).await;
    let a = a["id"].as_str().unwrap().to_string();
    // followed by GETs alone (a script polling): it runs on
    let (_, b) = s.post("/api/jobs", spec.clone()).await;
    let b = b["id"].as_str().unwrap().to_string();
    let t = Instant::now();
    let mut a_done = None;
    while t.elapsed() < Duration::from_millis(1500) {
        let (_, v) = s.get(&format!("/api/jobs/{b}")).await;
        assert_eq!(v["state"], "running", "a polled job runs on");
        if a_done.is_none()
            && s.state
                .jobs
                .get(&a)
                .is_some_and(|j| j.state() == dancer_web::JobState::Done)
        {
            a_done = Some(t.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let waited = a_done.expect("the job nobody followed ended");
    assert!(
        waited >= Duration::from_millis(300),
        "not before the orphan time: {waited:?}"
    );
    let (_, v) = s.get(&format!("/api/jobs/{a}")).await;
    assert_eq!(v["summary"]["status"], "cancelled");
    // once nobody polls it (looked at from inside, not by GET), the other
    // one goes the same way
    let end = Instant::now() + Duration::from_secs(10);
    let job = s.state.jobs.get(&b).unwrap();
    while job.state() != dancer_web::JobState::Done {
        assert!(Instant::now() < end, "the job nobody polls any more ended");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (_, v) = s.get(&format!("/api/jobs/{b}")).await;
    assert_eq!(v["summary"]["status"], "cancelled");
    s.finish().await;
}
