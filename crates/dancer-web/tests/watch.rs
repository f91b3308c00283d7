//! The endpoints behind the Watch view and the polyform watch mode
//! (API.md, "Exact cover" and "Polyforms"), against a real server: the
//! steps replayed as the page replays them, each solution checked by
//! `dancer_core::verify` or cell by cell against the board, the limits and
//! refusals with their reasons.

mod common;

use common::{config, kind, start};
use serde_json::{json, Value};

/// Replays the steps of a trace as the Watch view does: the stack of
/// options tried, and each row's hides; checks each solution with the
/// independent checker. Returns (solutions, tries).
fn replay_steps(problem: &dancer_core::Problem, steps: &[Value]) -> (Vec<Vec<usize>>, u64) {
    let mut stack: Vec<usize> = Vec::new();
    let mut hidden = vec![0i64; problem.n_options()];
    let (mut sols, mut tries) = (Vec::new(), 0);
    for (i, st) in steps.iter().enumerate() {
        assert_eq!(st["step"].as_u64(), Some(i as u64 + 1));
        let level = st["level"].as_u64().unwrap() as usize;
        let option = st["option"].as_u64().map(|o| o as usize);
        match st["action"].as_str().unwrap() {
            "try" => {
                tries += 1;
                stack.truncate(level);
                stack.push(option.unwrap());
            }
            "backtrack" => stack.truncate(level),
            "hide" => hidden[option.unwrap()] += 1,
            "unhide" => hidden[option.unwrap()] -= 1,
            "solution" => {
                let options: Vec<usize> = serde_json::from_value(st["options"].clone()).unwrap();
                assert_eq!(options, stack);
                dancer_core::verify(problem, &options).unwrap();
                sols.push(options);
            }
            _ => {}
        }
        assert!(hidden.iter().all(|&h| h >= 0));
    }
    (sols, tries)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn watching_a_search() {
    let s = start(config()).await;
    // the lecture's problem: B, D, F
    let lecture = "1 2 3 4 5 6 7\n1 4 7\n1 4\n4 5 7\n3 5 6\n2 3 6 7\n2 7\n";
    let (st, v) = s
        .post("/api/cover/trace", json!({"problem": lecture}))
        .await;
    assert_eq!(st, 200, "{v}");
    let problem = dancer_formats::dlx::read_str(lecture, "l").unwrap().problem;
    let steps = v["steps"].as_array().unwrap();
    let (sols, tries) = replay_steps(&problem, steps);
    assert_eq!(sols.len(), 1);
    let mut sol = sols[0].clone();
    sol.sort();
    assert_eq!(sol, vec![1, 3, 5]);
    let summary = &v["summary"];
    assert_eq!(summary["nodes"].as_u64(), Some(tries + 1));
    assert_eq!(summary["steps"].as_u64(), Some(steps.len() as u64));
    assert_eq!(summary["complete"], true);
    assert_eq!(v["items"].as_array().unwrap().len(), 7);
    assert_eq!(v["options"][0]["entries"], json!(["1", "4", "7"]));
    assert_eq!(v["heads"].as_u64(), Some(24));
    // the same records as `dancer solve --trace --json`
    let first: dancer_formats::trace::StepRecord =
        serde_json::from_value(steps[0].clone()).unwrap();
    assert_eq!(first.action, "choose");
    // cut at a limit, which says where
    let (_, v) = s
        .post("/api/cover/trace", json!({"problem": lecture, "steps": 7}))
        .await;
    assert_eq!(v["steps"].as_array().unwrap().len(), 7);
    assert_eq!(v["summary"]["at_limit"], true);
    assert_eq!(v["summary"]["complete"], false);
    assert!(v["summary"]["node"].as_u64().is_some());
    // too big, or not for this engine: refused with the reason
    let names: Vec<String> = (0..101).map(|i| format!("i{i}")).collect();
    let wide = format!("{}\n{}\n", names.join(" "), names.join(" "));
    let (st, v) = s.post("/api/cover/trace", json!({"problem": wide})).await;
    assert_eq!((st.as_u16(), kind(&v)), (422, "too_big"), "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("at most"),
        "{v}"
    );
    let (st, v) = s
        .post(
            "/api/cover/trace",
            json!({"problem": "2:2|a b\na\na b\nb\n"}),
        )
        .await;
    assert_eq!((st.as_u16(), kind(&v)), (422, "unsupported"), "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("multiplicities"),
        "{v}"
    );
    let (st, v) = s
        .post("/api/cover/trace", json!({"problem": "a b\na\nc\n"}))
        .await;
    assert_eq!((st.as_u16(), kind(&v)), (422, "invalid_problem"), "{v}");
    assert_eq!(v["error"]["line"], 3);
    let (st, v) = s
        .post(
            "/api/cover/trace",
            json!({"problem": lecture, "steps": 20001}),
        )
        .await;
    assert_eq!((st.as_u16(), kind(&v)), (400, "bad_value"), "{v}");

    // a polyform puzzle watched: the corner, its one solution
    let (st, v) = s.post("/api/poly/watch", json!({"name": "corner"})).await;
    assert_eq!(st, 200, "{v}");
    let steps = v["steps"].as_array().unwrap();
    let actions: std::collections::BTreeSet<&str> = steps
        .iter()
        .map(|s| s["action"].as_str().unwrap())
        .collect();
    assert!(actions
        .iter()
        .all(|a| ["choose", "try", "solution", "backtrack"].contains(a)));
    assert_eq!(v["summary"]["solutions"], 1);
    let tries = steps.iter().filter(|s| s["action"] == "try").count() as u64;
    assert_eq!(v["summary"]["nodes"].as_u64(), Some(tries + 1));
    let sol = steps.iter().find(|s| s["action"] == "solution").unwrap();
    let placements: Vec<u64> = sol["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            v["options"][o.as_u64().unwrap() as usize]["placement"]
                .as_u64()
                .unwrap()
        })
        .collect();
    // the placements of the solution tile the board: 4 trominoes, 12 cells
    let m = dancer_poly::Model::new(dancer_poly::catalog::puzzle("corner").unwrap()).unwrap();
    let mut cells: Vec<usize> = placements
        .iter()
        .flat_map(|&q| m.placements[q as usize].cells.clone())
        .collect();
    cells.sort();
    assert_eq!(cells, (0..12).collect::<Vec<_>>());
    assert!(
        v["frame"].as_str().unwrap().contains("<svg"),
        "{}",
        v["frame"]
    );
    let (st, f) = s
        .post(
            "/api/poly/frame",
            json!({"name": "corner", "placements": placements}),
        )
        .await;
    assert_eq!(st, 200, "{f}");
    let full = f["svg"].as_str().unwrap().to_string();
    let (_, f) = s
        .post(
            "/api/poly/frame",
            json!({"name": "corner", "placements": [placements[0]]}),
        )
        .await;
    assert_ne!(f["svg"].as_str().unwrap(), full, "the frames differ");
    let (st, v) = s
        .post(
            "/api/poly/frame",
            json!({"name": "corner", "placements": [21]}),
        )
        .await;
    assert_eq!((st.as_u16(), kind(&v)), (400, "bad_value"), "{v}");
    // placements that overlap cannot be on the board together
    let (st, v) = s
        .post(
            "/api/poly/frame",
            json!({"name": "corner", "placements": [0, 0]}),
        )
        .await;
    assert_eq!((st.as_u16(), kind(&v)), (400, "bad_value"), "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("overlaps"),
        "{v}"
    );
    // each endpoint takes its own fields only
    let (st, _) = s
        .post(
            "/api/poly/frame",
            json!({"name": "corner", "placements": [], "steps": 3}),
        )
        .await;
    assert_eq!(st.as_u16(), 400);
    let (st, _) = s
        .post(
            "/api/poly/watch",
            json!({"name": "corner", "placements": [0]}),
        )
        .await;
    assert_eq!(st.as_u16(), 400);
    // copies of two kinds of piece: multiplicities, which the view says
    let two = "[board]\nrect = [4, 2]\n[[piece]]\nname = \"I\"\ncells = [[0,0],[1,0]]\ncount = 2\n[[piece]]\nname = \"O\"\ncells = [[0,0],[1,0],[0,1],[1,1]]\ncount = [0, 2]\n";
    let (st, v) = s.post("/api/poly/watch", json!({"toml": two})).await;
    assert_eq!((st.as_u16(), kind(&v)), (422, "unsupported"), "{v}");
    assert!(
        !v["error"]["message"].as_str().unwrap().contains("dlx"),
        "{v}"
    );
    let (st, v) = s
        .post(
            "/api/poly/watch",
            json!({"toml": "[board]\nrect = [15, 15]\n[[piece]]\nname = \"I\"\ncells = [[0,0],[1,0],[2,0]]\ncount = 75\n"}),
        )
        .await;
    assert_eq!(st.as_u16(), 422, "{v}");
    assert_eq!(kind(&v), "too_big", "{v}");
    s.shutdown().await;
}
