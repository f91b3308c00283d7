//! BurrTools files in the API (API.md, "Polyforms"): a file posted in
//! base64, its problems listed (`POST /api/poly/burr`), one checked and
//! solved as a job like any polyform puzzle, each solution taken apart
//! (`"disassemble": true`: the `disassembly` record of `dancer poly solve
//! --disassemble --json`); files, problems and grids that are refused, at
//! their line where the file says where. The moves are checked here as a
//! player plays them: every slide lands its pieces on free cells of the
//! part being taken apart, and every part ends in single pieces or a group.

mod common;

use base64::Engine;
use common::{bad_value, config, kind, start, Srv};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::collections::BTreeSet;

const PELIKAN: &[u8] = include_bytes!("../../dancer-poly/tests/burr/PelikanBurr.xmpuzzle");
const CUBE_IN_CAGE: &[u8] = include_bytes!("../../dancer-poly/tests/burr/CubeInCage.xmpuzzle");
const PRISGON: &[u8] = include_bytes!("../../dancer-poly/tests/burr/Prisgon.xmpuzzle");
const BALLROOM: &[u8] = include_bytes!("../../dancer-poly/tests/burr/BallRoom.xmpuzzle");

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Posts a job and waits for it: its record, and the solutions kept.
async fn solved(s: &Srv, spec: Value) -> (Value, Vec<Value>) {
    let (st, j) = s.post("/api/jobs", spec).await;
    assert_eq!(st, StatusCode::ACCEPTED, "{j}");
    let id = j["id"].as_str().unwrap().to_string();
    let done = s.wait_done(&id, 120).await;
    let (_, sols) = s.get(&format!("/api/jobs/{id}/solutions")).await;
    (done, sols["solutions"].as_array().unwrap().clone())
}

fn cells_of(placement: &Value) -> Vec<Vec<i64>> {
    placement["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect()
        })
        .collect()
}

/// A cell moved by a lattice translation `by`: on prisms `[x, y, w]` goes
/// to `[x + dx, y + dy, w + 2 dz]` (the grid's rule), on cubes by `by`.
fn moved(cell: &[i64], by: &[i64], prisms: bool) -> Vec<i64> {
    let z = if prisms { 2 * by[2] } else { by[2] };
    vec![cell[0] + by[0], cell[1] + by[1], cell[2] + z]
}

/// Plays a solution's disassembly as the page does: the part being taken
/// apart is the innermost one holding the moving pieces (the parts left
/// behind come first, then those taken away); each slide must land on
/// cells no other piece of that part holds, and each removal splits the
/// part in two. Returns the sizes of the parts it ends in (single pieces,
/// and groups that stay together), smallest first.
fn replay(solution: &Value, prisms: bool) -> Vec<usize> {
    let mut cells: Vec<BTreeSet<Vec<i64>>> = solution["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| cells_of(p).into_iter().collect())
        .collect();
    let n = cells.len();
    let mut parts: Vec<BTreeSet<usize>> = vec![(0..n).collect()];
    let mut ended = Vec::new();
    let steps = solution["disassembly"]["steps"].as_array().unwrap();
    for (k, step) in steps.iter().enumerate() {
        let pieces: BTreeSet<usize> = step["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap() as usize)
            .collect();
        let by: Vec<i64> = step["by"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        assert_eq!(by.len(), 3, "step {k}");
        assert!(by.iter().any(|&x| x != 0), "step {k} moves");
        while !pieces.is_subset(parts.last().expect("a part to take apart")) {
            ended.push(parts.pop().unwrap().len());
        }
        let part = parts.pop().unwrap();
        for &p in &pieces {
            cells[p] = cells[p].iter().map(|c| moved(c, &by, prisms)).collect();
        }
        if step["removes"] == true {
            let left: BTreeSet<usize> = part.difference(&pieces).copied().collect();
            assert!(!left.is_empty(), "step {k} takes away a part of a part");
            parts.push(pieces);
            parts.push(left);
        } else {
            for &p in &pieces {
                for &q in part.difference(&pieces) {
                    assert!(
                        cells[p].is_disjoint(&cells[q]),
                        "step {k}: pieces {p} and {q} meet"
                    );
                }
            }
            parts.push(part);
        }
    }
    ended.extend(parts.iter().map(BTreeSet::len));
    ended.sort_unstable();
    ended
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burr_is_listed_checked_solved_and_taken_apart() {
    let s = start(config()).await;
    let file = b64(PELIKAN);
    // its problems: the records of `dancer poly problems --json`
    let (st, v) = s.post("/api/poly/burr", json!({"burr": file})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["grid"], "cubes");
    assert_eq!(v["disassembles"], true);
    let problems = v["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1);
    let p = &problems[0];
    assert_eq!(
        (
            &p["type"],
            &p["number"],
            &p["pieces"],
            &p["cells"],
            &p["optional"]
        ),
        (
            &json!("burr_problem"),
            &json!(1),
            &json!(7),
            &json!(512),
            &json!(216)
        ),
        "{p}"
    );
    // checked as a TOML puzzle is: the board and pieces on the cube grid
    let (st, c) = s
        .post("/api/poly/check", json!({"burr": file, "problem": 1}))
        .await;
    assert_eq!(st, StatusCode::OK, "{c}");
    assert_eq!(c["grid"]["name"], "cube");
    assert_eq!(c["pieces"].as_array().unwrap().len(), 7);
    assert!(c["svg"].as_str().unwrap().contains("<svg"));

    // solved up to rotations and taken apart: 12 classes, one comes apart,
    // at BurrTools' level
    let spec =
        json!({"kind": "poly", "burr": file, "problem": "1", "unique": true, "disassemble": true});
    let (done, sols) = solved(&s, spec).await;
    let sum = &done["summary"];
    assert_eq!(sum["status"], "complete", "{done}");
    assert_eq!(
        (&sum["unique"], &sum["disassemblies"]),
        (&json!(12), &json!(1))
    );
    assert_eq!(sols.len(), 12);
    let apart: Vec<&Value> = sols
        .iter()
        .filter(|r| r["disassembly"]["apart"] == true)
        .collect();
    assert_eq!(apart.len(), 1);
    let d = &apart[0]["disassembly"];
    assert_eq!(d["level"], "98.2.4.2");
    assert_eq!(d["moves"], 108);
    assert_eq!(d["steps"].as_array().unwrap().len(), 108);
    // 7 pieces, no groups: it ends in 7 single pieces
    assert_eq!(replay(apart[0], false), [1; 7]);
    for r in &sols {
        assert!(r["svg"].as_str().unwrap().contains("<svg"));
        assert_eq!(
            r["colours"].as_array().unwrap().len(),
            r["placements"].as_array().unwrap().len()
        );
        if r["disassembly"]["apart"] == false {
            assert_eq!(r["disassembly"]["steps"], json!([]));
            assert!(r["disassembly"].get("level").is_none(), "{r}");
        }
    }
    // without disassemble: no record, no count
    let spec = json!({"kind": "poly", "burr": file, "unique": true, "limit": 1});
    let (done, sols) = solved(&s, spec).await;
    assert!(done["summary"].get("disassemblies").is_none(), "{done}");
    assert!(sols[0].get("disassembly").is_none(), "{}", sols[0]);
    // its picture, drawn from the file (the page's PNG download)
    let r = s
        .http
        .post(s.url("/api/poly/render"))
        .json(&json!({"burr": file, "solution": apart[0], "format": "png"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(&r.bytes().await.unwrap()[..4], b"\x89PNG");
    s.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn groups_and_prisms_come_apart_too() {
    let s = start(config()).await;
    // CubeInCage: its frames are a group that stays together
    let spec =
        json!({"kind": "poly", "burr": b64(CUBE_IN_CAGE), "unique": true, "disassemble": true});
    let (done, sols) = solved(&s, spec).await;
    assert_eq!(done["summary"]["disassemblies"], 1, "{done}");
    let apart: Vec<&Value> = sols
        .iter()
        .filter(|r| r["disassembly"]["apart"] == true)
        .collect();
    assert_eq!(apart.len(), 1);
    assert_eq!(apart[0]["disassembly"]["level"], "4.9.3");
    // three pieces out, the three frames left together
    assert_eq!(replay(apart[0], false), [1, 1, 1, 3]);

    // Prisgon: two problems on triangular prisms, the second by its name
    let file = b64(PRISGON);
    let (_, v) = s.post("/api/poly/burr", json!({"burr": file})).await;
    assert_eq!(v["grid"], "triangular prisms");
    let names: Vec<&str> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Markus", "Philos"]);
    let (st, c) = s
        .post(
            "/api/poly/check",
            json!({"burr": file, "problem": "Philos"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{c}");
    assert_eq!(c["grid"]["name"], "prism");
    assert_eq!(c["board"].as_array().unwrap().len(), 165);
    let spec = json!({"kind": "poly", "burr": file, "problem": "Philos", "unique": true, "disassemble": true});
    let (done, sols) = solved(&s, spec).await;
    assert_eq!(done["summary"]["disassemblies"], 1, "{done}");
    let d = &sols[0]["disassembly"];
    assert_eq!(d["apart"], true);
    // the moves in the prism grid's coordinates: each slide lands on free
    // cells by the grid's rule of translations
    assert_eq!(replay(&sols[0], true), [1; 9]);
    s.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn bad_files_problems_and_grids_are_refused() {
    let s = start(config()).await;
    // a file BurrTools' reader refuses: 422 at its line and column, from
    // every endpoint that reads it
    let xml =
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n  <gridType type=\"9\"/>\n</puzzle>\n";
    let bad = b64(xml.as_bytes());
    for (path, body) in [
        ("/api/poly/burr", json!({"burr": bad})),
        ("/api/poly/check", json!({"burr": bad})),
        ("/api/jobs", json!({"kind": "poly", "burr": bad})),
    ] {
        let (st, v) = s.post(path, body).await;
        assert_eq!(
            (st, kind(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "invalid_poly"),
            "{path}: {v}"
        );
        assert_eq!(v["error"]["line"], 3, "{path}: {v}");
        assert!(v["error"]["column"].as_u64().unwrap() >= 1, "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(!message.contains("xmpuzzle:"), "the place apart: {message}");
    }
    // broken XML, and a file that is no BurrTools file at all
    let (st, v) = s
        .post(
            "/api/poly/burr",
            json!({"burr": b64(b"<puzzle>\n<a>\n</puzzle>")}),
        )
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_poly"),
        "{v}"
    );
    assert!(v["error"]["line"].as_u64().unwrap() >= 2, "{v}");
    let (st, v) = s
        .post("/api/poly/burr", json!({"burr": b64(b"name = \"toml\"\n")}))
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_poly"),
        "{v}"
    );
    // not base64; a problem the file does not have; a problem without a file
    let (st, v) = s
        .post("/api/poly/burr", json!({"burr": "not base64!"}))
        .await;
    bad_value(st, &v, "base64", "not base64");
    let file = b64(PELIKAN);
    let (st, v) = s
        .post("/api/poly/check", json!({"burr": file, "problem": 5}))
        .await;
    bad_value(st, &v, "no problem 5", "problem 5");
    let (st, v) = s
        .post(
            "/api/jobs",
            json!({"kind": "poly", "burr": file, "problem": "Nope"}),
        )
        .await;
    bad_value(st, &v, "no problem named", "problem Nope");
    let (st, v) = s
        .post(
            "/api/poly/check",
            json!({"toml": "[board]\nrect = [1, 1]\n", "problem": 1}),
        )
        .await;
    bad_value(st, &v, "BurrTools", "a problem of a TOML puzzle");
    let (st, v) = s
        .post("/api/poly/check", json!({"toml": "x = 1\n", "burr": file}))
        .await;
    bad_value(st, &v, "one of them", "two puzzles");
    // taking apart on a grid the disassembler does not take: the
    // library's message, at the board (a TOML puzzle's line)
    let toml = "name = \"flat\"\n\n[board]\nrect = [2, 2]\n[[piece]]\nname = \"O\"\n";
    let (st, v) = s
        .post(
            "/api/jobs",
            json!({"kind": "poly", "toml": toml, "disassemble": true}),
        )
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_poly"),
        "{v}"
    );
    assert_eq!(v["error"]["line"], 3, "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("cubes and triangular prisms, not on the square grid"),
        "{message}"
    );
    let (st, v) = s
        .post(
            "/api/jobs",
            json!({"kind": "poly", "burr": b64(BALLROOM), "disassemble": true}),
        )
        .await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_poly"),
        "{v}"
    );
    assert!(
        v["error"]["message"].as_str().unwrap().contains("sphere"),
        "{v}"
    );
    // a file over the body cap: 413, as any body
    let s2 = common::start_with(|c| c.body_limit = 4096).await;
    let big = b64(&vec![b' '; 8192]);
    let (st, v) = s2.post("/api/poly/burr", json!({"burr": big})).await;
    assert_eq!(
        (st, kind(&v)),
        (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
        "{v}"
    );
    s2.shutdown().await;
    s.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn taking_apart_stops_with_its_job() {
    let s = start(config()).await;
    // every solution of Pelikan taken apart (288, each searched): past the
    // job's time cap at once, the job ends with its thread
    let spec = json!({"kind": "poly", "burr": b64(PELIKAN), "disassemble": true, "time": 0.001});
    let (done, _) = solved(&s, spec).await;
    assert_eq!(done["summary"]["status"], "timeout", "{done}");
    // and cancelled by DELETE
    let spec = json!({"kind": "poly", "burr": b64(PELIKAN), "disassemble": true, "mode": "count"});
    let (st, j) = s.post("/api/jobs", spec).await;
    assert_eq!(st, StatusCode::ACCEPTED, "{j}");
    let id = j["id"].as_str().unwrap();
    let (st, v) = s.delete(&format!("/api/jobs/{id}")).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["state"], "done", "{v}");
    let status = v["summary"]["status"].as_str().unwrap();
    assert!(["cancelled", "complete"].contains(&status), "{v}");
    s.finish().await;
}
