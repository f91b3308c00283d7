//! BurrTools files hostile by their size and shape, posted to the server:
//! three gzip bombs of XML elements at once are refused at their place in
//! bounded memory (they aborted the server once: "memory allocation of
//! 1207956312 bytes failed"), and the server answers afterwards; a file
//! of 100,000 shapes is checked within a generous guard against a hang.

mod common;

use base64::Engine;
use common::{config, kind, start};
use reqwest::StatusCode;
use serde_json::json;
use std::io::Write;
use std::time::Duration;

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// The most memory this process has held, in bytes (Linux: `VmHWM`).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// A good file of cubes: a row of three and `more` cubes, the first of
/// them used three times.
fn good(more: usize) -> Vec<u8> {
    let cube = "<voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n";
    let text = format!(
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\"><gridType type=\"0\"/><colors/><shapes><voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\">###</voxel>\n{}</shapes><problems><problem><shapes><shape id=\"1\" count=\"3\"/></shapes><result id=\"0\"/><bitmap/></problem></problems></puzzle>\n",
        cube.repeat(more)
    );
    gzip(text.as_bytes())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_gzip_bombs_at_once_are_refused_and_the_server_answers_on() {
    let s = start(config()).await;
    // 64 MiB of <a/> in the comment: 87 KB of base64
    let head = "<?xml version=\"1.0\"?>\n<puzzle version=\"2\"><comment>";
    let tail = "</comment></puzzle>\n";
    let n = ((64 << 20) - head.len() - tail.len()) / 4;
    let bomb = gzip(format!("{head}{}{tail}", "<a/>".repeat(n)).as_bytes());
    let body = json!({ "burr": b64(&bomb) });
    assert!(body.to_string().len() < 200_000);
    let post = || s.post("/api/poly/check", body.clone());
    let answers = tokio::time::timeout(
        Duration::from_secs(120),
        futures_util::future::join3(post(), post(), post()),
    )
    .await
    .expect("three answers within 120 s");
    for (st, v) in [answers.0, answers.1, answers.2] {
        assert_eq!(
            (st, kind(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_poly"),
            "{v}"
        );
        // node 2,000,001: <a/> number 1,999,996 of line 2
        assert_eq!(v["error"]["line"], 2, "{v}");
        assert_eq!(v["error"]["column"], 30 + 4 * 1_999_995, "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains("more than 2000000 XML nodes"), "{message}");
    }
    // each took 1.3 GB before; now each its 64 MiB of text and little more
    if let Some(peak) = peak_memory() {
        eprintln!("peak memory: {} MiB", peak >> 20);
        assert!(peak < 1 << 30, "{} MiB at the peak", peak >> 20);
    }
    // the server answers on
    let (st, v) = s.get("/api/health").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, v) = s
        .post("/api/poly/check", json!({ "burr": b64(&good(1)) }))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["pieces"].as_array().unwrap().len(), 1, "{v}");
    s.finish().await;
}

/// 100,000 shapes (17 KB of base64): answered within a generous guard
/// against a hang (it took 60 s, and the server worked on 4.5 minutes).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hundred_thousand_shapes_are_checked_within_a_minute() {
    let s = start(config()).await;
    // the row of three and 99,999 cubes: 100,000 shapes, the most a file
    // may have
    let file = good(99_999);
    let (st, v) = tokio::time::timeout(
        Duration::from_secs(60),
        s.post("/api/poly/check", json!({ "burr": b64(&file) })),
    )
    .await
    .expect("an answer within 60 s");
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["board"].as_array().unwrap().len(), 3, "{v}");
    s.finish().await;
}
