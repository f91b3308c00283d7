//! Work whose client leaves, or whose cap passes, is stopped: every long
//! call an endpoint starts runs under the request's flag (`blocking`),
//! which is set when the client goes away, the cap passes or the server
//! stops. Seen through `AppState::work_in_progress`, which counts a
//! request's work until it has returned. Every wait is a generous guard
//! against a hang, never a measure of speed.

mod common;

use common::{kind, start_with};
use reqwest::StatusCode;
use serde_json::json;
use std::time::{Duration, Instant};

/// A 25x25 puzzle whose uniqueness check (a count to two solutions) takes
/// over a minute of one core: a solution's cells kept at random, four of
/// them changed to digits that break no rule at once.
const SLOW_25: &str = concat!(
    "..PC....N...5H..M.KJ3.9.L...9..5..O.8A.P...DI..M..FDI.4..7...B6..A..G..2....H.1.K6...N...IE...LG8..P6K...G..CP9.E3.51......F.",
    ".1.2..G.B...3.F....E.I8.A3.......7E..GM6....A1.2K5..E7..K.......A.4..FMP.G.GM..PCDI..7.H...2......3FD...IN..4F..K.5..........",
    "....GP....EH......O.I3F.N.O..KJ..A....IN.EH...D.8C.IN..L..E9..B..8AD.C....18PC.D...F..K..1.....L..7.7.9...2.51..8P.4F3INJ...M",
    ".E..1.J.K....A...9.4.CGP..A.D.F.9.......PGC...1HO..N...AI.....O.7.....F.....5..M6..G.39...O...7A.....F..9.O......6.I....5.K.2",
    "1.HO5..6J.I..8D9.E4..AB...2.J.BCEP.L.9..1...H.F.ND.8..F4..L3.6.2.C.A...5....B.PA8NFI.O......62.4...3...........AC..N.F8D.....",
);

/// Waits until no request's work runs (at most `secs` seconds).
async fn work_ends(s: &common::Srv, secs: u64, what: &str) {
    let end = Instant::now() + Duration::from_secs(secs);
    while s.state.work_in_progress() > 0 {
        assert!(
            Instant::now() < end,
            "{what}: the work still runs {secs} s after its client left or its cap passed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn start_game() -> serde_json::Value {
    json!({"action": {"type": "start", "puzzle": SLOW_25}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_whose_client_left_stops_its_uniqueness_check() {
    let s = start_with(|c| c.work_time = Duration::from_secs(600)).await;
    let left = s
        .http
        .post(s.url("/api/sudoku/game"))
        .timeout(Duration::from_millis(500))
        .json(&start_game())
        .send()
        .await;
    assert!(left.is_err(), "a check of a minute answered in 500 ms");
    // the count goes on for a minute and more unless its flag stops it
    work_ends(&s, 20, "a game started, its client gone").await;
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_past_its_cap_stops_its_uniqueness_check() {
    let s = start_with(|c| c.work_time = Duration::from_secs(1)).await;
    let (st, v) = s.post("/api/sudoku/game", start_game()).await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "too_long"),
        "{v}"
    );
    work_ends(&s, 20, "a game started past its cap").await;
    s.shutdown().await;
}
