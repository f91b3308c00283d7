//! `POST /api/poly/render` draws a solution only when it is one: every
//! cell of a placement a cell of the board, and no cell twice, in one
//! placement or in two (`400 bad_value`, the placement and the cell
//! named).

mod common;

use common::{bad_value, config, start};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A 2x2 board and two dominoes.
const TOML: &str =
    "[board]\nrect = [2, 2]\n\n[[piece]]\nname = \"D\"\ncells = [[0, 0], [1, 0]]\ncount = 2\n";

fn render(placements: Value) -> Value {
    json!({"toml": TOML, "solution": {"placements": placements}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_placement_with_a_repeated_cell_is_refused() {
    let s = start(config()).await;
    let (st, v) = s
        .post(
            "/api/poly/render",
            render(json!([
                {"piece": "D", "cells": [[0, 1], [1, 1]]},
                {"piece": "D", "cells": [[0, 0], [0, 0]]},
            ])),
        )
        .await;
    bad_value(
        st,
        &v,
        "solution: placements[1] (piece \"D\") has the cell [0, 0] twice",
        "a repeated cell",
    );
    // a cell given with its third coordinate is the same cell
    let (st, v) = s
        .post(
            "/api/poly/render",
            render(json!([{"piece": "D", "cells": [[1, 0], [1, 0, 0]]}])),
        )
        .await;
    bad_value(
        st,
        &v,
        "has the cell [1, 0, 0] twice",
        "the cell with its z",
    );
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn placements_that_overlap_are_refused() {
    let s = start(config()).await;
    let (st, v) = s
        .post(
            "/api/poly/render",
            render(json!([
                {"piece": "D", "cells": [[0, 0], [1, 0]]},
                {"piece": "D", "cells": [[1, 0], [1, 1]]},
            ])),
        )
        .await;
    bad_value(
        st,
        &v,
        "solution: placements[1] (piece \"D\") covers the cell [1, 0], which placements[0] (piece \"D\") covers",
        "two placements on one cell",
    );
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_true_solution_is_still_drawn() {
    let s = start(config()).await;
    let r = s
        .http
        .post(s.url("/api/poly/render"))
        .json(&render(json!([
            {"piece": "D", "cells": [[0, 0], [1, 0]]},
            {"piece": "D", "cells": [[0, 1], [1, 1]]},
        ])))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    assert!(r.text().await.unwrap().contains("<svg"));
    s.shutdown().await;
}
