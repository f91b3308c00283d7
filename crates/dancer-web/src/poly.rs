//! The polyform endpoints, and their jobs.
//!
//! A polyform puzzle comes as the puzzle file format (TOML), read by
//! `dancer_poly::parse` (its errors say where: `422 invalid_poly` with the
//! line and column, the message without them), solved by `Model::solve` as
//! `dancer poly solve` does, its solutions drawn by `dancer_poly::render`.

use crate::body::JsonBody;
use crate::error::{At, Error, Result};
use crate::runtime::{engine_of, limit_of, solve_mode, Ctx, Ending, JobParts, Work};
use crate::{blocking, AppState};
use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use axum::Json;
use dancer_poly::model::{Live, Model, Options};
use dancer_poly::render::{self, Style, Tiling};
use dancer_poly::{catalog, PolyError, PolyPuzzle};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The name of a posted puzzle in messages.
const TOML_FILE: &str = "puzzle.toml";

fn poly_error(e: PolyError) -> Error {
    let at = e
        .location()
        .map_or(At::none(), |l| At::line_col(l.line, l.col));
    Error::InvalidPoly {
        message: e.message(),
        at,
    }
}

/// Reads a posted puzzle and builds its model: `422` for any error.
fn model(toml: &str) -> Result<Model> {
    let p = dancer_poly::parse(toml, TOML_FILE).map_err(poly_error)?;
    Model::new(p).map_err(poly_error)
}

/// `GET /api/poly/catalog`.
pub async fn catalog() -> Json<Value> {
    let puzzles: Vec<Value> = catalog::entries()
        .iter()
        .filter_map(|e| {
            let p = catalog::puzzle(&e.name)?;
            let pieces: u64 = p
                .pieces
                .iter()
                .map(|x| match x.count {
                    dancer_poly::Copies::Exactly(k) => u64::from(k),
                    dancer_poly::Copies::Between(_, b) => u64::from(b),
                    dancer_poly::Copies::Any => 0,
                })
                .sum();
            Some(json!({
                "name": e.name,
                "title": e.about,
                "dim": p.board.dim,
                "pieces": pieces,
                "cells": p.board.len(),
                "grid": e.grid.name(),
                "known": {"solutions": e.known.total, "unique": e.known.unique, "source": e.known.source},
            }))
        })
        .collect();
    Json(json!({ "puzzles": puzzles }))
}

/// `GET /api/poly/catalog/{name}`.
pub async fn catalog_entry(Path(name): Path<String>) -> Result<Json<Value>> {
    let toml = catalog::toml(&name)
        .ok_or_else(|| Error::NotFound(format!("no catalogue puzzle {name:?}")))?;
    Ok(Json(json!({"name": name, "toml": toml})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TomlReq {
    pub toml: String,
}

fn cell_json(p: &PolyPuzzle, c: [i32; 3]) -> Value {
    if p.board.dim == 2 {
        json!([c[0], c[1]])
    } else {
        json!(c)
    }
}

/// The board (one colour) and each piece, as one picture.
fn overview(p: &PolyPuzzle) -> String {
    let board = Tiling {
        dim: p.board.dim,
        cells: p.board.cells.iter().map(|&c| (c, 0, 0)).collect(),
        pieces: vec![String::new()],
        title: Some("board".into()),
    };
    let mut sheet = vec![board];
    for (i, x) in p.pieces.iter().enumerate() {
        sheet.push(Tiling {
            dim: p.board.dim,
            cells: x.cells.iter().map(|&c| (c, 0, i as u32 + 1)).collect(),
            pieces: std::iter::once(String::new())
                .chain(p.pieces.iter().map(|q| q.name.clone()))
                .collect(),
            title: Some(x.name.clone()),
        });
    }
    let style = Style {
        labels: false,
        ..Style::default()
    };
    render::contact_sheet(&sheet, 6, &style)
}

/// `POST /api/poly/check`.
pub async fn check(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<TomlReq>,
) -> Result<Json<Value>> {
    blocking(&s, move |_| {
        let m = model(&r.toml)?;
        let p = &m.puzzle;
        let pieces: Vec<Value> = p
            .pieces
            .iter()
            .map(|x| {
                let count = match x.count {
                    dancer_poly::Copies::Exactly(k) => json!(k),
                    dancer_poly::Copies::Between(a, b) => json!([a, b]),
                    dancer_poly::Copies::Any => json!("any"),
                };
                json!({
                    "name": x.name,
                    "cells": x.cells.iter().map(|&c| cell_json(p, c)).collect::<Vec<_>>(),
                    "count": count,
                    "one_sided": x.one_sided,
                })
            })
            .collect();
        Ok(Json(json!({
            "name": p.name,
            "dim": p.board.dim,
            "extent": p.board.extent(),
            "board": p.board.cells.iter().map(|&c| cell_json(p, c)).collect::<Vec<_>>(),
            "pieces": pieces,
            "placements": m.placements.len(),
            "symmetries": m.symmetries.len(),
            "svg": overview(p),
        })))
    })
    .await
}

#[derive(Deserialize)]
pub struct PlacementReq {
    pub piece: String,
    pub cells: Vec<Vec<i32>>,
}

#[derive(Deserialize)]
pub struct SolutionReq {
    pub placements: Vec<PlacementReq>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenderReq {
    pub toml: String,
    pub solution: SolutionReq,
    pub format: Option<String>,
    pub size: Option<u32>,
}

/// A solution record as a picture's input, checked against the board.
fn tiling_of(p: &PolyPuzzle, sol: &SolutionReq) -> Result<Tiling> {
    let mut uses = vec![0usize; p.pieces.len()];
    let mut kinds = Vec::new();
    for pl in &sol.placements {
        let k = p
            .pieces
            .iter()
            .position(|x| x.name == pl.piece)
            .ok_or_else(|| {
                Error::BadValue(format!("solution: no piece {:?} in the puzzle", pl.piece))
            })?;
        uses[k] += 1;
        kinds.push(k);
    }
    let per_placement = uses.iter().any(|&u| u > 1);
    let mut cells = Vec::new();
    for (i, (pl, &k)) in sol.placements.iter().zip(&kinds).enumerate() {
        for c in &pl.cells {
            let cell = match c.as_slice() {
                [x, y] => [*x, *y, 0],
                [x, y, z] => [*x, *y, *z],
                _ => {
                    return Err(Error::BadValue(
                        "solution: a cell is [x, y] or [x, y, z]".into(),
                    ))
                }
            };
            if p.board.index(&cell).is_none() {
                return Err(Error::BadValue(format!(
                    "solution: {c:?} is not a cell of the board"
                )));
            }
            let colour = if per_placement { i } else { k };
            cells.push((cell, i as u32, colour as u32));
        }
    }
    let pieces = if per_placement {
        kinds.iter().map(|&k| p.pieces[k].name.clone()).collect()
    } else {
        p.pieces.iter().map(|x| x.name.clone()).collect()
    };
    cells.sort();
    Ok(Tiling {
        dim: p.board.dim,
        cells,
        pieces,
        title: None,
    })
}

/// `POST /api/poly/render`: a solution as SVG or PNG.
pub async fn render(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<RenderReq>,
) -> Result<Response> {
    let size = r.size.unwrap_or(24);
    if !(4..=256).contains(&size) {
        return Err(Error::BadValue(format!(
            "size must be from 4 to 256 pixels, not {size}"
        )));
    }
    let png = match r.format.as_deref().unwrap_or("svg") {
        "svg" => false,
        "png" => true,
        f => {
            return Err(Error::BadValue(format!(
                "format must be svg or png, not {f:?}"
            )))
        }
    };
    blocking(&s, move |_| {
        let p = dancer_poly::parse(&r.toml, TOML_FILE).map_err(poly_error)?;
        let t = tiling_of(&p, &r.solution)?;
        let style = Style {
            cell: f64::from(size),
            ..Style::default()
        };
        let svg = render::svg(&t, &style);
        let (bytes, kind) = if png {
            let b = render::png(&svg).map_err(|e| Error::BadValue(e.to_string()))?;
            (b, "image/png")
        } else {
            (svg.into_bytes(), "image/svg+xml")
        };
        let mut res = bytes.into_response();
        res.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(kind));
        res.headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        Ok(res)
    })
    .await
}

/// A polyform job: `{"kind":"poly","toml":"..." (or "name":"pentomino-6x10"),
/// "mode":"solve"|"count","unique":true,"limit":N,"time":S,"keep":N}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolySpec {
    pub toml: Option<String>,
    pub name: Option<String>,
    pub mode: Option<String>,
    #[serde(default)]
    pub unique: bool,
    pub limit: Option<u64>,
    pub engine: Option<String>,
    pub time: Option<f64>,
    pub keep: Option<usize>,
}

/// Checks a polyform job and makes its work.
pub fn poly_job(s: PolySpec) -> Result<JobParts> {
    let solve = solve_mode(s.mode.as_deref())?;
    let limit = limit_of(s.limit)?;
    let engine = engine_of(s.engine.as_deref())?;
    let m = match (&s.toml, &s.name) {
        (Some(t), None) => model(t)?,
        (None, Some(n)) => {
            let p = catalog::puzzle(n)
                .ok_or_else(|| Error::NotFound(format!("no catalogue puzzle {n:?}")))?;
            Model::new(p).map_err(poly_error)?
        }
        _ => {
            return Err(Error::BadValue(
                "a poly job needs toml or name (one of them)".into(),
            ))
        }
    };
    engine
        .resolve(&m.cover(true).problem)
        .map_err(|e| Error::BadValue(e.to_string()))?;
    let unique = s.unique;
    let keep = if solve { s.keep } else { Some(0) };
    let work: Work = Box::new(move |ctx: &Ctx| {
        let live = Arc::new(Live::default());
        let l = live.clone();
        ctx.watch(move || (l.nodes(), Some(l.position())));
        let opts = Options {
            engine,
            symmetry_breaking: true,
            limit,
            unique,
            cancel: Some(ctx.cancel.clone()),
            threads: 1,
            live: Some(live),
        };
        let style = Style::default();
        let r = m.solve(&opts, |sol| {
            ctx.solution(|n| {
                let mut v = serde_json::to_value(m.solution_record(n, sol)).expect("serialises");
                v["svg"] = json!(render::svg(&m.tiling(sol, None), &style));
                v
            })
        });
        match r {
            Ok(c) => {
                let mut extra = serde_json::Map::new();
                extra.insert("solutions".into(), json!(c.total));
                extra.insert("unique".into(), json!(c.unique));
                extra.insert("nodes".into(), json!(c.nodes));
                extra.insert("symmetries".into(), json!(m.symmetries.len()));
                Ending {
                    complete: c.complete,
                    limit: !c.complete && !ctx.cancelled(),
                    engine: c.engine.map(|e| e.to_string()),
                    extra,
                    ..Ending::default()
                }
            }
            Err(e) => Ending {
                error: Some(e.to_string()),
                ..Ending::default()
            },
        }
    });
    Ok(("poly", s.time, keep, work))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error record carries the place apart from the message: read
    /// from the library's fields, never parsed back from its text.
    #[test]
    fn messages_lose_their_place() {
        let e = match model("[board]\nrect = [3, 3]\n[[piece]]\nname = \"Q9\"\n") {
            Err(e) => e,
            Ok(_) => panic!("a piece that does not exist"),
        };
        match e {
            Error::InvalidPoly { message, at } => {
                assert!(!message.starts_with(TOML_FILE), "{message}");
                assert_eq!(at.line, Some(3), "{message}");
            }
            e => panic!("{e:?}"),
        }
    }
}
