//! The release binary aborts on a panic (`panic = "abort"`), so a panic
//! anywhere in the server, a handler, a connection's task or a blocking
//! thread, would end `dancer serve`. Here slow headers, slow and stopped
//! bodies, clients that leave mid-work, work past its cap, connections
//! past the cap and solutions drawn with repeated cells all come to one
//! server, with a panic hook counting every panic of the process: none
//! may happen, no answer may be a `500`, and the server answers and stops
//! as usual afterwards. Every wait is a generous guard against a hang.

mod common;

use common::start_with;
use serde_json::json;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Counts every panic of the process (the default hook still prints it).
fn count_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default(info);
    }));
}

/// Sends `request` and reads until the server closes (15 s at most): the
/// text.
fn send(port: u16, request: &str, pause_after: usize) -> String {
    let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let bytes = request.as_bytes();
    let (first, rest) = bytes.split_at(pause_after.min(bytes.len()));
    c.write_all(first).unwrap();
    for &b in rest {
        if c.write_all(&[b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    c.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let mut got = Vec::new();
    let _ = c.read_to_end(&mut got);
    String::from_utf8_lossy(&got).into()
}

/// A 25x25 puzzle whose uniqueness check takes over a minute (see
/// `client_gone.rs`).
const SLOW_25: &str = concat!(
    "..PC....N...5H..M.KJ3.9.L...9..5..O.8A.P...DI..M..FDI.4..7...B6..A..G..2....H.1.K6...N...IE...LG8..P6K...G..CP9.E3.51......F.",
    ".1.2..G.B...3.F....E.I8.A3.......7E..GM6....A1.2K5..E7..K.......A.4..FMP.G.GM..PCDI..7.H...2......3FD...IN..4F..K.5..........",
    "....GP....EH......O.I3F.N.O..KJ..A....IN.EH...D.8C.IN..L..E9..B..8AD.C....18PC.D...F..K..1.....L..7.7.9...2.51..8P.4F3INJ...M",
    ".E..1.J.K....A...9.4.CGP..A.D.F.9.......PGC...1HO..N...AI.....O.7.....F.....5..M6..G.39...O...7A.....F..9.O......6.I....5.K.2",
    "1.HO5..6J.I..8D9.E4..AB...2.J.BCEP.L.9..1...H.F.ND.8..F4..L3.6.2.C.A...5....B.PA8NFI.O......62.4...3...........AC..N.F8D.....",
);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn slow_and_leaving_clients_and_bad_pictures_never_panic_the_server() {
    count_panics();
    let s = start_with(|c| {
        c.header_time = Duration::from_secs(1);
        c.body_time = Duration::from_secs(2);
        c.body_idle = Duration::from_secs(1);
        c.work_time = Duration::from_secs(2);
        c.connections = 16;
    })
    .await;
    let port = s.port;
    let host = format!("Host: 127.0.0.1:{port}\r\n");
    let solve = |length: usize| {
        format!("POST /api/sudoku/solve HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n")
    };
    // raw clients, several of each at once: headers a byte at a time, a
    // body that stops, a body a byte at a time, half a header line
    let mut raw = Vec::new();
    for _ in 0..8 {
        for (request, pause_after) in [
            (
                format!("GET /api/health HTTP/1.1\r\n{host}X-Slow: zzzzzzzz"),
                10,
            ),
            (format!("{}{{\"puz", solve(100)), usize::MAX),
            (format!("{}{}", solve(60), "z".repeat(60)), solve(60).len()),
            ("POST /api/sudoku/solve HT".to_string(), usize::MAX),
        ] {
            raw.push(tokio::task::spawn_blocking(move || {
                send(port, &request, pause_after)
            }));
        }
    }
    // clients that leave mid-work, and work past its cap
    let mut left = Vec::new();
    for _ in 0..4 {
        let req = s
            .http
            .post(s.url("/api/sudoku/game"))
            .timeout(Duration::from_millis(300))
            .json(&json!({"action": {"type": "start", "puzzle": SLOW_25}}));
        left.push(tokio::spawn(async move { req.send().await.is_err() }));
    }
    let (st, v) = s
        .post(
            "/api/sudoku/game",
            json!({"action": {"type": "start", "puzzle": SLOW_25}}),
        )
        .await;
    assert_eq!(st, 422, "{v}");
    // solutions with repeated cells
    let toml = "[board]\nrect = [2, 1]\n[[piece]]\nname = \"D\"\ncells = [[0, 0], [1, 0]]\n";
    for cells in [json!([[0, 0], [0, 0]]), json!([[1, 0], [1, 0, 0]])] {
        let (st, v) = s
            .post(
                "/api/poly/render",
                json!({"toml": toml, "solution": {"placements": [{"piece": "D", "cells": cells}]}}),
            )
            .await;
        assert_eq!(st, 400, "{v}");
    }
    for r in raw {
        let text = r.await.unwrap();
        assert!(!text.contains(" 500 "), "{text}");
        assert!(
            text.is_empty() || text.starts_with("HTTP/1.1 408") || text.starts_with("HTTP/1.1 400"),
            "{text}"
        );
    }
    for l in left {
        assert!(l.await.unwrap(), "a check of a minute answered in 300 ms");
    }
    let end = Instant::now() + Duration::from_secs(20);
    while s.state.work_in_progress() > 0 {
        assert!(Instant::now() < end, "work still running 20 s on");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (st, v) = s.get("/api/health").await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "the server panicked");
    s.shutdown().await;
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "the server panicked");
}
