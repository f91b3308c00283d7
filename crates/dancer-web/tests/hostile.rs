//! Hostile requests, as the second round of hostile tries made them: a
//! body announced far over the cap, two `Host` or two `Origin` headers,
//! new 16x16 puzzles with a symmetry (no answer in 20 s once), a `level`
//! the server dropped without a word, work past every cap and work whose
//! client left (28 abandoned requests once took the server from 5 threads
//! to 31). Every wait is a generous guard against a hang, never a measure
//! of speed.

mod common;

use common::{bad_value, config, kind, raw, raw_says, start, start_with};
use reqwest::StatusCode;
use serde_json::json;
use std::time::{Duration, Instant};

/// The empty 16x16 grid: counting 10^7 of its solutions takes a minute.
fn empty16() -> String {
    ".".repeat(256)
}

/// Waits until no request's work runs (at most `secs` seconds).
async fn work_ends(s: &common::Srv, secs: u64) {
    let end = Instant::now() + Duration::from_secs(secs);
    while s.state.work_in_progress() > 0 {
        assert!(
            Instant::now() < end,
            "{} requests still working after {secs} s",
            s.state.work_in_progress()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_body_announced_over_the_cap_is_refused_before_it_comes() {
    let s = start(config()).await;
    // no byte of the body is sent: the answer must not wait for it (the
    // read gives up after 10 s)
    let request = format!(
        "POST /api/sudoku/solve HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n",
        s.port
    );
    let answer = raw(s.port, &request).await;
    raw_says(answer, 413, "\"kind\":\"too_large\"", "a body too large");
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_host_or_origin_headers_are_refused() {
    let s = start(config()).await;
    let own = format!("127.0.0.1:{}", s.port);
    for extra in [
        format!("Host: {own}\r\nHost: evil.example"),
        format!("Host: evil.example\r\nHost: {own}"),
        format!("Host: {own}\r\nOrigin: http://{own}\r\nOrigin: http://evil.example"),
    ] {
        let request = format!("GET /api/health HTTP/1.1\r\n{extra}\r\nConnection: close\r\n\r\n");
        raw_says(raw(s.port, &request).await, 400, "more than one", &extra);
    }
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn new_16x16_puzzles_with_a_symmetry_come_at_once() {
    let s = start(config()).await;
    for sym in ["rotate90", "rotate180", "mirror", "diagonal"] {
        let r = s
            .http
            .post(s.url("/api/sudoku/new"))
            .timeout(Duration::from_secs(60))
            .json(&json!({"size": 16, "symmetry": sym, "seed": 3}))
            .send()
            .await
            .unwrap_or_else(|e| panic!("{sym}: no answer in 60 s: {e}"));
        assert_eq!(r.status(), StatusCode::OK, "{sym}");
        let v: serde_json::Value = r.json().await.unwrap();
        let puzzle = v["puzzle"].as_str().unwrap().to_string();
        assert_eq!(puzzle.len(), 256, "{v}");
        let given: Vec<bool> = puzzle.bytes().map(|b| b != b'.').collect();
        for c in 0..256 {
            let (r, k) = (c / 16, c % 16);
            let partner = match sym {
                "rotate180" => (15 - r) * 16 + (15 - k),
                "rotate90" => k * 16 + (15 - r),
                "mirror" => r * 16 + (15 - k),
                _ => k * 16 + r,
            };
            assert_eq!(given[c], given[partner], "{sym}: cell {c}");
        }
        let (st, v) = s.post("/api/sudoku/check", json!({"puzzle": puzzle})).await;
        assert_eq!(
            (st, v["status"].as_str()),
            (StatusCode::OK, Some("unique")),
            "{v}"
        );
    }
    // a level is for plain 9x9 puzzles: said, not dropped
    let (st, v) = s
        .post("/api/sudoku/new", json!({"size": 16, "level": "easy"}))
        .await;
    bad_value(st, &v, "plain 9x9", "a level of a 16x16");
    let (st, v) = s
        .post(
            "/api/sudoku/new",
            json!({"variant": "diagonal", "level": "hard"}),
        )
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::BAD_REQUEST, "bad_value"),
        "{v}"
    );
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn work_past_its_cap_is_stopped() {
    let s = start_with(|c| {
        (c.work_time, c.batch_time) = (Duration::from_secs(1), Duration::from_secs(1))
    })
    .await;
    let (st, v) = s
        .post(
            "/api/sudoku/count",
            json!({"puzzle": empty16(), "limit": 10_000_000}),
        )
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "too_long"),
        "{v}"
    );
    let lines = format!("{}\n", empty16()).repeat(8);
    let (st, v) = s
        .post(
            "/api/sudoku/batch",
            json!({"text": lines, "action": "count", "limit": 10_000_000}),
        )
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "too_long"),
        "{v}"
    );
    // and the work stopped with the answer
    work_ends(&s, 10).await;
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn work_whose_client_left_is_stopped() {
    let s = start(config()).await;
    let mut left = Vec::new();
    for _ in 0..8 {
        let req = s
            .http
            .post(s.url("/api/sudoku/count"))
            .timeout(Duration::from_millis(300))
            .json(&json!({"puzzle": empty16(), "limit": 10_000_000}));
        left.push(tokio::spawn(async move { req.send().await.is_err() }));
    }
    for l in left {
        assert!(l.await.unwrap(), "a count of a minute answered in 300 ms");
    }
    // a minute of counting each, unless the work stops with its client
    work_ends(&s, 10).await;
    // and the server answers as it did
    let (st, v) = s
        .post("/api/sudoku/solve", json!({"puzzle": ".".repeat(81)}))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    s.shutdown().await;
}

/// A client that holds a connection open with half a request does not
/// hold a stopping server up past its grace (`SHUTDOWN_GRACE`): Ctrl-C
/// ends `dancer serve` whoever is connected.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_half_sent_request_does_not_hold_the_stop_up() {
    use std::io::Write;
    let s = start(config()).await;
    let mut held = std::net::TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    let half = format!(
        "POST /api/sudoku/solve HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"puz",
        s.port
    );
    held.write_all(half.as_bytes()).unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    // `shutdown` fails the test unless the server ends within 10 s, the
    // connection still open (the grace is 3 s)
    s.shutdown().await;
    drop(held);
}
