//! The polyform endpoints on every grid (API.md, "Polyforms"): the
//! catalogue grouped by grid with its published counts, the page's example
//! puzzles (`assets/poly/examples.js`, one per grid) checked, counted to the
//! counts their comments give, solved and drawn; cells written `[x, y]` or
//! `[x, y, k]` as the grid needs; and one colour per piece in every
//! answer (the check's pieces, each solution's placements, the pictures).

mod common;

use common::{config, start, Srv};
use dancer_poly::grid::PolyGrid;
use dancer_poly::render::piece_colour;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The page's examples: (grid, TOML, solutions, up to symmetry), the
/// counts read from the comment line `# 1,796 solutions, 449 up to
/// symmetry` of each.
fn examples() -> Vec<(String, String, u64, u64)> {
    let js = include_str!("../assets/poly/examples.js");
    let mut out = Vec::new();
    let mut rest = js;
    while let Some(at) = rest.find("grid: '") {
        rest = &rest[at + 7..];
        let grid = rest[..rest.find('\'').unwrap()].to_string();
        let start = rest.find("toml: `").unwrap() + 7;
        let len = rest[start..].find('`').unwrap();
        let toml = rest[start..start + len].to_string();
        assert!(!toml.contains("${"), "{grid}: a template in the TOML");
        rest = &rest[start + len..];
        let line = toml
            .lines()
            .find(|l| l.starts_with("# ") && l.contains(" up to symmetry"))
            .unwrap_or_else(|| panic!("{grid}: no counts in a comment"));
        let nums: Vec<u64> = line
            .split(|c: char| !(c.is_ascii_digit() || c == ','))
            .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
            .take(2)
            .map(|w| w.replace(',', "").parse().unwrap())
            .collect();
        out.push((grid, toml, nums[0], nums[1]));
    }
    out
}

/// How many coordinates a record's cell has on `grid`.
fn arity(grid: PolyGrid) -> usize {
    match grid {
        PolyGrid::Square | PolyGrid::Hexagon => 2,
        _ => 3,
    }
}

fn cell_of(v: &Value, grid: PolyGrid) -> [i32; 3] {
    let c: Vec<i32> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap() as i32)
        .collect();
    assert_eq!(c.len(), arity(grid), "{grid:?}: cell {v}");
    [c[0], c[1], *c.get(2).unwrap_or(&0)]
}

fn is_hex_colour(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].chars().all(|c| c.is_ascii_hexdigit())
}

/// Checks a solution event against the puzzle: every board cell covered
/// once, each placement its piece turned and moved on the grid, a colour
/// per placement: the piece type's for its first placement, one of its own
/// after the types' for a further copy.
fn check_solution(p: &dancer_poly::PolyPuzzle, sol: &Value) {
    let grid = p.grid();
    let placements = sol["placements"].as_array().unwrap();
    let colours: Vec<&str> = sol["colours"]
        .as_array()
        .unwrap_or_else(|| panic!("no colours in {sol}"))
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(colours.len(), placements.len());
    let mut first = BTreeSet::new();
    let mut extra = p.pieces.len();
    let mut seen = BTreeMap::new();
    for (k, pl) in placements.iter().enumerate() {
        let name = pl["piece"].as_str().unwrap();
        let i = p.pieces.iter().position(|x| x.name == name).unwrap();
        let cells: Vec<[i32; 3]> = pl["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| cell_of(c, grid))
            .collect();
        assert_eq!(
            grid.canonical(&cells, false),
            grid.canonical(&p.pieces[i].cells, false),
            "{name} in {sol}"
        );
        for c in cells {
            assert!(p.board.index(&c).is_some(), "{c:?} off the board");
            *seen.entry(c).or_insert(0) += 1;
        }
        assert!(is_hex_colour(colours[k]), "{}", colours[k]);
        // a type's first placement: the type's colour; a further copy: a
        // colour of its own, after the types'
        let want = if first.insert(i) {
            i
        } else {
            extra += 1;
            extra - 1
        };
        assert_eq!(colours[k], piece_colour(want as u32), "placement {k}");
    }
    assert_eq!(seen.len(), p.board.len(), "every cell covered");
    assert!(seen.values().all(|&n| n == 1), "no cell twice");
    let distinct: BTreeSet<&str> = colours.iter().copied().collect();
    assert_eq!(distinct.len(), colours.len(), "a colour per placement");
}

async fn job(s: &Srv, spec: Value) -> (Value, Vec<Value>) {
    let (st, j) = s.post("/api/jobs", spec).await;
    assert_eq!(st, 202, "{j}");
    let id = j["id"].as_str().unwrap().to_string();
    let done = s.wait_done(&id, 120).await;
    let (_, sols) = s.get(&format!("/api/jobs/{id}/solutions?from=0")).await;
    (done, sols["solutions"].as_array().unwrap().clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_catalogue_by_grid() {
    let s = start(config()).await;
    let (st, v) = s.get("/api/poly/catalog").await;
    assert_eq!(st, 200);
    let grids = v["grids"].as_array().unwrap();
    let names: Vec<&str> = grids.iter().map(|g| g["name"].as_str().unwrap()).collect();
    let all: Vec<&str> = PolyGrid::ALL.iter().map(|g| g.name()).collect();
    assert_eq!(names, all, "every grid, in dancer poly list's order");
    for (g, want) in grids.iter().zip(PolyGrid::ALL) {
        assert_eq!(g["forms"], want.forms());
        assert_eq!(g["dim"], want.dim());
        assert_eq!(g["edges"], want.is_edge_grid());
    }
    let puzzles = v["puzzles"].as_array().unwrap();
    let total: u64 = grids.iter().map(|g| g["puzzles"].as_u64().unwrap()).sum();
    assert_eq!(total, puzzles.len() as u64);
    // grouped: the grids' ranks never go down
    let rank = |p: &Value| all.iter().position(|&g| p["grid"] == g).expect("a grid");
    assert!(puzzles.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])));
    for p in puzzles {
        let e = dancer_poly::catalog::entry(p["name"].as_str().unwrap()).unwrap();
        assert_eq!(p["grid"], e.grid.name());
        assert_eq!(p["known"]["unique"], e.known.unique);
        assert_eq!(p["known"]["solutions"], json!(e.known.total));
        assert_eq!(p["known"]["source"], e.known.source.as_str());
        assert!(!e.known.source.is_empty());
        assert!(matches!(
            p["known"]["unique_under"].as_str(),
            Some("all" | "rotations")
        ));
    }
    let soma = puzzles.iter().find(|p| p["name"] == "soma").unwrap();
    assert_eq!(
        (soma["grid"].as_str(), soma["known"]["unique"].as_u64()),
        (Some("cube"), Some(240))
    );
    s.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_example_on_every_grid() {
    let s = start(config()).await;
    let ex = examples();
    let grids: BTreeSet<&str> = ex.iter().map(|e| e.0.as_str()).collect();
    for g in [
        "square", "cube", "triangle", "hexagon", "stick", "twig", "trig",
    ] {
        assert!(grids.contains(g), "an example on the {g} grid");
    }
    for (name, toml, total, unique) in &ex {
        let grid = PolyGrid::from_name(name).unwrap();
        let p = dancer_poly::parse(toml, "example").unwrap();
        assert_eq!(p.grid(), grid);
        // check: the grid, cells as the grid writes them, a colour a piece
        let (st, c) = s.post("/api/poly/check", json!({"toml": toml})).await;
        assert_eq!(st, 200, "{name}: {c}");
        assert_eq!(c["grid"]["name"], *name);
        assert_eq!(c["grid"]["forms"], grid.forms());
        assert_eq!(c["grid"]["edges"], grid.is_edge_grid());
        assert_eq!(c["crossings"], false);
        let board: BTreeSet<[i32; 3]> = c["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| cell_of(x, grid))
            .collect();
        assert_eq!(board, p.board.cells.iter().copied().collect());
        for (i, piece) in c["pieces"].as_array().unwrap().iter().enumerate() {
            assert_eq!(piece["colour"], piece_colour(i as u32), "{name}");
            for x in piece["cells"].as_array().unwrap() {
                cell_of(x, grid);
            }
        }
        let svg = c["svg"].as_str().unwrap();
        assert!(svg.contains("<svg"), "{name}");
        // the counts the example says
        let (done, _) = job(
            &s,
            json!({"kind": "poly", "toml": toml, "mode": "count", "unique": true}),
        )
        .await;
        let sum = &done["summary"];
        assert_eq!(sum["status"], "complete", "{name}: {done}");
        assert_eq!(
            (sum["solutions"].as_u64(), sum["unique"].as_u64()),
            (Some(*total), Some(*unique)),
            "{name}"
        );
        // solutions: checked cell by cell, drawn, coloured
        let (done, sols) = job(
            &s,
            json!({"kind": "poly", "toml": toml, "mode": "solve", "limit": 3}),
        )
        .await;
        assert_eq!(sols.len(), 3, "{name}: {done}");
        for sol in &sols {
            check_solution(&p, sol);
            assert!(sol["svg"].as_str().unwrap().contains("<svg"));
        }
        for format in ["svg", "png"] {
            let r = s
                .http
                .post(s.url("/api/poly/render"))
                .json(&json!({"toml": toml, "solution": sols[0], "format": format}))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200, "{name} {format}");
            let body = r.bytes().await.unwrap();
            if format == "png" {
                assert_eq!(&body[..4], b"\x89PNG");
            } else {
                assert!(String::from_utf8_lossy(&body).contains("<svg"));
            }
        }
    }
    s.shutdown().await;
}

/// On the triangle grid the records keep each cell's kind (up and down
/// triangles, not `[x, y]` twice), and the render endpoint refuses a cell
/// of a kind the grid has not.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cells_keep_their_kind() {
    let s = start(config()).await;
    let ex = examples();
    let (_, toml, ..) = ex.iter().find(|e| e.0 == "triangle").unwrap();
    let (_, sols) = job(
        &s,
        json!({"kind": "poly", "toml": toml, "mode": "solve", "limit": 1}),
    )
    .await;
    let sol = &sols[0];
    let ups_and_downs: BTreeSet<i64> = sol["placements"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|pl| pl["cells"].as_array().unwrap().clone())
        .map(|c| c[2].as_i64().unwrap())
        .collect();
    assert_eq!(ups_and_downs, BTreeSet::from([0, 1]));
    let (st, e) = s
        .post(
            "/api/poly/render",
            json!({"toml": toml, "solution": {"placements": [{"piece": "I4", "cells": [[0, 0, 7]]}]}}),
        )
        .await;
    assert_eq!(st, 400, "{e}");
    s.shutdown().await;
}

/// Soma: each piece placed once, so each placement has its piece type's
/// colour, the one the check gives the piece (the page's pieces panel, its
/// isometric view and the server's layers all use it).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn soma_pieces_keep_their_colours() {
    let s = start(config()).await;
    let (_, t) = s.get("/api/poly/catalog/soma").await;
    let (_, c) = s.post("/api/poly/check", json!({"toml": t["toml"]})).await;
    let colour_of: BTreeMap<String, String> = c["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["colour"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(colour_of.len(), 7);
    let (_, sols) = job(&s, json!({"kind": "poly", "name": "soma", "limit": 2})).await;
    let soma = dancer_poly::catalog::puzzle("soma").unwrap();
    for sol in &sols {
        check_solution(&soma, sol);
        let svg = sol["svg"].as_str().unwrap();
        for (pl, colour) in sol["placements"]
            .as_array()
            .unwrap()
            .iter()
            .zip(sol["colours"].as_array().unwrap())
        {
            assert_eq!(
                colour.as_str().unwrap(),
                colour_of[pl["piece"].as_str().unwrap()]
            );
            // the layers of the server's picture fill the piece with it
            assert!(svg.contains(&format!("fill=\"{}\"", colour.as_str().unwrap())));
        }
    }
    s.shutdown().await;
}
