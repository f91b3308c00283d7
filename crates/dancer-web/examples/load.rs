//! The load test of `dancer serve` (bounded, loopback only, stops by
//! itself in about a minute at most):
//!
//! 1. 5,000 `POST /api/sudoku/solve` with 64 in flight (puzzles from easy
//!    to the hardest known for the bitboard solver), every answer checked;
//! 2. 100 long jobs submitted at once (the 20 queens counted, a time cap
//!    of 1 s each), with `--jobs` = the cores and `--queue` 64: the first
//!    ones run, 64 wait, the rest are refused with `429`; every accepted
//!    job ends by itself (`timeout`), and every job thread ends.
//!
//! It reports throughput, p50/p99 latency, the statuses seen and the peak
//! resident memory (`VmHWM` of this process: the server and its client
//! together, an upper bound on the server's), and exits non-zero on any status but 2xx and
//! the documented 429/503, or on a wrong answer.
//!
//! `cargo run --release -p dancer-web --example load [REQUESTS] [IN_FLIGHT]`
//!
//! With `DANCER_URL=http://127.0.0.1:PORT` it loads a server started apart
//! (`dancer serve --port PORT --jobs 2 --job-time 1`, so that its peak
//! memory can be read alone, from `/proc/PID/status`); the job threads are
//! then not visible from here and their checks are left out.

use dancer_web::Config;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

const PUZZLES: [&str; 3] = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    ".4.2...3..3..5.1.2.....4.....28.3...7......93..1...8...9.7....85..3...1.....1.2..",
];

/// Each long job's time cap.
const JOB_TIME: Duration = Duration::from_secs(1);

/// Peak resident memory in kB, from /proc (0 where there is none).
fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let requests: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let in_flight: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(64);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let ok = rt.block_on(run(requests, in_flight));
    if ok {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}

async fn run(requests: usize, in_flight: usize) -> bool {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // in this process, or a server started apart
    let external = std::env::var("DANCER_URL").ok();
    let (base, state, stop_tx, serving) = match &external {
        Some(url) => (url.trim_end_matches('/').to_string(), None, None, None),
        None => {
            let server = dancer_web::bind(Config {
                port: 0,
                jobs: cores,
                queue: 64,
                job_time: JOB_TIME,
                ..Config::default()
            })
            .await
            .expect("binds on loopback");
            let base = format!("http://127.0.0.1:{}", server.addr().port());
            let state = server.state();
            let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
            let serving = tokio::spawn(server.run(async move {
                let _ = stop_rx.await;
            }));
            (base, Some(state), Some(stop_tx), Some(serving))
        }
    };
    let live = || state.as_ref().map_or(0, |s| s.jobs.live_threads());
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(in_flight)
        .build()
        .expect("a client");
    let solutions: Vec<String> = PUZZLES
        .iter()
        .map(|p| {
            let p = dancer_sudoku::Puzzle::parse_line(p, None).unwrap();
            dancer_sudoku::solve(&p, 2).solutions[0].to_line()
        })
        .collect();
    let solutions = Arc::new(solutions);
    let mut ok = true;

    // 1. many solves
    println!("load: {requests} POST /api/sudoku/solve, {in_flight} in flight, {cores} cores");
    let sem = Arc::new(tokio::sync::Semaphore::new(in_flight));
    let start = Instant::now();
    let mut tasks = Vec::with_capacity(requests);
    for i in 0..requests {
        let permit = sem.clone().acquire_owned().await.unwrap();
        let http = http.clone();
        let url = format!("{base}/api/sudoku/solve");
        let sols = solutions.clone();
        tasks.push(tokio::spawn(async move {
            let k = i % PUZZLES.len();
            let t = Instant::now();
            let r = http
                .post(url)
                .json(&json!({"puzzle": PUZZLES[k]}))
                .send()
                .await;
            let out = match r {
                Ok(r) => {
                    let st = r.status().as_u16();
                    let body: Value = r.json().await.unwrap_or(Value::Null);
                    let right = st != 200 || body["solution"] == sols[k].as_str();
                    (st, right)
                }
                Err(_) => (0, false),
            };
            drop(permit);
            (out.0, out.1, t.elapsed())
        }));
    }
    let mut lat = Vec::with_capacity(requests);
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let mut wrong = 0;
    for t in tasks {
        let (st, right, d) = t.await.unwrap();
        *statuses.entry(st).or_default() += 1;
        if !right {
            wrong += 1;
        }
        lat.push(d);
    }
    let secs = start.elapsed().as_secs_f64();
    lat.sort();
    println!(
        "solve: {requests} requests in {secs:.2} s: {:.0} requests/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; statuses {statuses:?}",
        requests as f64 / secs,
        pct(&lat, 0.5).as_secs_f64() * 1e3,
        pct(&lat, 0.99).as_secs_f64() * 1e3,
        lat.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );
    if wrong > 0 {
        println!("load: FAILED: {wrong} wrong or missing answers");
        ok = false;
    }
    if statuses
        .keys()
        .any(|&s| !(200..300).contains(&s) && s != 429 && s != 503)
    {
        println!("load: FAILED: an undocumented status");
        ok = false;
    }

    // 2. many long jobs at once
    let problem = dancer_formats::dlx::to_string(&dancer_core::classic::queens(20), None);
    let jobs = 100;
    println!("load: {jobs} long jobs at once (1 s cap each, {cores} running, queue 64)");
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..jobs {
        let http = http.clone();
        let url = format!("{base}/api/jobs");
        let spec = json!({"kind": "cover", "problem": problem, "mode": "count"});
        tasks.push(tokio::spawn(async move {
            let t = Instant::now();
            match http.post(url).json(&spec).send().await {
                Ok(r) => {
                    let st = r.status().as_u16();
                    let v: Value = r.json().await.unwrap_or(Value::Null);
                    (st, v["id"].as_str().map(str::to_string), t.elapsed())
                }
                Err(_) => (0, None, t.elapsed()),
            }
        }));
    }
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let mut ids = Vec::new();
    let mut lat = Vec::new();
    for t in tasks {
        let (st, id, d) = t.await.unwrap();
        *statuses.entry(st).or_default() += 1;
        ids.extend(id);
        lat.push(d);
    }
    lat.sort();
    println!(
        "jobs: submitted in {:.2} s, latency p50 {:.2} ms, p99 {:.2} ms; statuses {statuses:?}; peak job threads <= {cores}",
        start.elapsed().as_secs_f64(),
        pct(&lat, 0.5).as_secs_f64() * 1e3,
        pct(&lat, 0.99).as_secs_f64() * 1e3,
    );
    if statuses
        .keys()
        .any(|&s| !(200..300).contains(&s) && s != 429 && s != 503)
    {
        println!("load: FAILED: an undocumented status");
        ok = false;
    }
    // the server stays responsive while the jobs run
    let t = Instant::now();
    let r = http
        .post(format!("{base}/api/sudoku/solve"))
        .json(&json!({"puzzle": PUZZLES[0]}))
        .send()
        .await;
    println!(
        "jobs: a solve while they run: {:?} in {:.2} ms",
        r.as_ref().map(|r| r.status().as_u16()).ok(),
        t.elapsed().as_secs_f64() * 1e3
    );
    // every accepted job ends by itself: they run `cores` at a time, each
    // for its cap, so the last one ends after (accepted / cores) caps
    let rounds = ids.len().div_ceil(cores) as u32 + 2;
    let deadline = Instant::now() + JOB_TIME * rounds + Duration::from_secs(10);
    let mut ends: BTreeMap<String, usize> = BTreeMap::new();
    let mut max_live = 0;
    for id in &ids {
        loop {
            max_live = max_live.max(live());
            let v: Value = match http.get(format!("{base}/api/jobs/{id}")).send().await {
                Ok(r) => r.json().await.unwrap_or(Value::Null),
                Err(_) => Value::Null,
            };
            if v["state"] == "done" {
                *ends
                    .entry(v["summary"]["status"].as_str().unwrap_or("?").to_string())
                    .or_default() += 1;
                break;
            }
            if Instant::now() > deadline {
                println!("load: FAILED: job {id} did not end by itself");
                ok = false;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let end = Instant::now() + Duration::from_secs(5);
    while live() > 0 && Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    println!(
        "jobs: {} accepted ended ({ends:?}) in {:.1} s; job threads {}",
        ids.len(),
        start.elapsed().as_secs_f64(),
        if state.is_some() {
            format!("at most {max_live} at once, {} alive at the end", live())
        } else {
            "not visible from here (a server apart)".to_string()
        }
    );
    if live() > 0 || max_live > cores {
        println!("load: FAILED: job threads");
        ok = false;
    }
    if let (Some(stop), Some(serving)) = (stop_tx, serving) {
        let _ = stop.send(());
        let _ = tokio::time::timeout(Duration::from_secs(10), serving).await;
    }
    println!(
        "peak RSS (VmHWM) of {}: {:.1} MiB",
        if external.is_some() {
            "the load client"
        } else {
            "server and client together"
        },
        peak_rss_kb() as f64 / 1024.0
    );
    println!("load: {}", if ok { "ok" } else { "FAILED" });
    ok
}
