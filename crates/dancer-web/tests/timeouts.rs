//! Slow clients: headers that never end, bodies that stop or trickle in,
//! and many of them at once. Headers have `Config::header_time` (then the
//! connection is closed), a body `Config::body_time` in all and
//! `Config::body_idle` between two pieces (then `408 request_timeout`);
//! at most `Config::connections` connections are open at once, and the
//! server answers others all along. The times here are short (1 to 3 s);
//! every wait is a generous guard against a hang, never a measure of
//! speed.

mod common;

use common::{start_with, Srv};
use dancer_web::Config;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Short times for the tests.
fn short(c: &mut Config) {
    c.header_time = Duration::from_secs(1);
    c.body_time = Duration::from_secs(3);
    c.body_idle = Duration::from_secs(1);
}

fn connect(s: &Srv) -> TcpStream {
    TcpStream::connect(("127.0.0.1", s.port)).unwrap()
}

/// What the server sends on `c` until it closes the connection, waiting
/// `secs` seconds at most: the text, and whether it closed.
fn until_closed(c: &mut TcpStream, secs: u64) -> (String, bool) {
    until_closed_by(c, Instant::now() + Duration::from_secs(secs))
}

/// [`until_closed`], waiting until `end` at most.
fn until_closed_by(c: &mut TcpStream, end: Instant) -> (String, bool) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return (String::from_utf8_lossy(&got).into(), false);
        }
        c.set_read_timeout(Some(left)).unwrap();
        match c.read(&mut buf) {
            Ok(0) => return (String::from_utf8_lossy(&got).into(), true),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            // reset by the server: closed as well
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return (String::from_utf8_lossy(&got).into(), true)
            }
            Err(_) => return (String::from_utf8_lossy(&got).into(), false),
        }
    }
}

/// Sends `bytes` one at a time, `every` apart, on a thread of its own,
/// until they are all sent or the server closed the connection.
fn trickle(c: &TcpStream, bytes: Vec<u8>, every: Duration) -> std::thread::JoinHandle<()> {
    let mut c = c.try_clone().unwrap();
    std::thread::spawn(move || {
        for b in bytes {
            if c.write_all(&[b]).is_err() {
                return;
            }
            std::thread::sleep(every);
        }
    })
}

/// The server still answers a request at once.
async fn answers(s: &Srv, what: &str) {
    let r = s
        .http
        .get(s.url("/api/health"))
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{what}: no answer: {e}"));
    assert_eq!(r.status(), 200, "{what}");
}

fn solve_head(port: u16, length: usize) -> String {
    format!(
        "POST /api/sudoku/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn headers_sent_a_byte_at_a_time_are_cut_off() {
    let s = start_with(short).await;
    let port = s.port;
    let closed = tokio::task::spawn_blocking(move || {
        let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
        // 60 bytes, one every 100 ms: 6 s of headers, with a time of 1 s
        let head = format!(
            "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: {}",
            "z".repeat(20)
        );
        let sender = trickle(&c, head.into_bytes(), Duration::from_millis(100));
        let r = until_closed(&mut c, 15);
        drop(c);
        let _ = sender.join();
        r
    })
    .await
    .unwrap();
    let (text, closed) = closed;
    assert!(closed, "headers still read after 15 s: {text:?}");
    assert!(!text.contains("200 OK"), "{text}");
    answers(&s, "after a slow header").await;
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_half_sent_headers_are_all_cut_off() {
    let s = start_with(short).await;
    let port = s.port;
    let held: Vec<TcpStream> = tokio::task::spawn_blocking(move || {
        (0..200)
            .map(|_| {
                let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
                let half = format!("POST /api/sudoku/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
                c.write_all(half.as_bytes()).unwrap();
                c
            })
            .collect()
    })
    .await
    .unwrap();
    // the server answers others while they hang
    answers(&s, "with 200 half-sent headers").await;
    let all_closed = tokio::task::spawn_blocking(move || {
        let end = Instant::now() + Duration::from_secs(20);
        held.into_iter()
            .map(|mut c| until_closed_by(&mut c, end).1)
            .filter(|&closed| closed)
            .count()
    })
    .await
    .unwrap();
    assert_eq!(all_closed, 200, "half-sent headers held 20 s and more");
    answers(&s, "after 200 half-sent headers").await;
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_body_that_stops_coming_is_answered_408() {
    let s = start_with(short).await;
    let port = s.port;
    let (text, closed) = tokio::task::spawn_blocking(move || {
        let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let request = format!("{}{{\"puz", solve_head(port, 100));
        c.write_all(request.as_bytes()).unwrap();
        until_closed(&mut c, 15)
    })
    .await
    .unwrap();
    assert!(text.starts_with("HTTP/1.1 408"), "{text:?}");
    assert!(text.contains("\"kind\":\"request_timeout\""), "{text}");
    assert!(
        text.contains("the request body stopped coming: nothing for 1 s after 5 of 100 bytes"),
        "{text}"
    );
    assert!(closed, "the connection stays open after a 408");
    answers(&s, "after a body that stopped").await;
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_body_sent_a_byte_at_a_time_is_answered_408() {
    let s = start_with(short).await;
    let port = s.port;
    let (text, closed) = tokio::task::spawn_blocking(move || {
        let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
        c.write_all(solve_head(port, 200).as_bytes()).unwrap();
        // a byte every 300 ms: never a pause of 1 s, but 60 s for the
        // whole body, whose time is 3 s
        let body = format!("{{\"puzzle\": \"{}\"}}", ".".repeat(200))
            .into_bytes()
            .into_iter()
            .take(200)
            .collect();
        let sender = trickle(&c, body, Duration::from_millis(300));
        let r = until_closed(&mut c, 20);
        drop(c);
        let _ = sender.join();
        r
    })
    .await
    .unwrap();
    assert!(text.starts_with("HTTP/1.1 408"), "{text:?}");
    assert!(text.contains("\"kind\":\"request_timeout\""), "{text}");
    assert!(
        text.contains("the request body did not come whole within 3 s"),
        "{text}"
    );
    assert!(closed, "the connection stays open after a 408");
    answers(&s, "after a trickled body").await;
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn slow_clients_hold_no_more_connections_than_the_cap() {
    let s = start_with(|c| {
        short(c);
        c.header_time = Duration::from_secs(2);
        c.connections = 4;
    })
    .await;
    // 20 clients that connect and send nothing
    let silent: Vec<TcpStream> = (0..20).map(|_| connect(&s)).collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let open = s.state.connections_open();
    assert!(
        (1..=4).contains(&open),
        "{open} connections open, the cap is 4"
    );
    // each is closed after 2 s, the next ones served then: a request
    // waits its turn, and is answered
    answers(&s, "behind 20 silent clients").await;
    assert!(s.state.connections_open() <= 4);
    drop(silent);
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_event_stream_outlives_the_header_time() {
    let s = start_with(short).await;
    // the 20 queens, counted for 3 s: a stream of 3 s, the header time 1 s
    let problem = dancer_formats::dlx::to_string(&dancer_core::classic::queens(20), None);
    let (st, v) = s
        .post(
            "/api/jobs",
            serde_json::json!({"kind": "cover", "problem": problem, "mode": "count", "time": 3}),
        )
        .await;
    assert_eq!(st, 202, "{v}");
    let id = v["id"].as_str().unwrap();
    let events = s.events(id).await;
    let text = tokio::time::timeout(Duration::from_secs(30), events.text())
        .await
        .expect("the stream ends with its job")
        .expect("the stream is read whole");
    assert!(text.contains("event: progress"), "{text}");
    assert!(text.contains("event: done"), "{text}");
    assert!(text.contains("\"status\":\"timeout\""), "{text}");
    s.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn times_and_connections_out_of_range_are_refused() {
    for (change, says) in [
        (
            (|c: &mut Config| c.header_time = Duration::ZERO) as fn(&mut Config),
            "header_time must be from 1 ms to 86400 s",
        ),
        (
            |c: &mut Config| c.body_time = Duration::MAX,
            "body_time must be from 1 ms to 86400 s",
        ),
        (
            |c: &mut Config| c.body_idle = Duration::from_secs(86_401),
            "body_idle must be from 1 ms",
        ),
        (
            |c: &mut Config| c.connections = 0,
            "connections must be from 1 to 65536, not 0",
        ),
    ] {
        let mut c = common::config();
        change(&mut c);
        let e = dancer_web::bind(c).await.expect_err(says);
        assert!(e.to_string().contains(says), "{e}");
    }
}
