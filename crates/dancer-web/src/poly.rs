//! The polyform endpoints, and their jobs.
//!
//! A polyform puzzle comes as the puzzle file format (TOML), read by
//! `dancer_poly::parse` (its errors say where: `422 invalid_poly` with the
//! line and column, the message without them), or as a BurrTools file
//! (`.xmpuzzle`, its bytes in base64) and one of its problems, read by
//! `dancer_poly::burr` (its errors at their line and column as well);
//! solved by `Model::solve` as `dancer poly solve` does, each solution
//! taken apart by `burr::TakeApart` when the job asks (`--disassemble`),
//! its solutions drawn by `dancer_poly::render`.

use crate::body::JsonBody;
use crate::error::{At, Error, Result};
use crate::runtime::{engine_of, limit_of, solve_mode, Ctx, Ending, JobParts, Work};
use crate::{blocking, stopped, AppState};
use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use axum::Json;
use dancer_formats::ndjson::PolyRecord;
use dancer_poly::burr::{self, BurrFile, TakeApart};
use dancer_poly::grid::PolyGrid;
use dancer_poly::model::{colour_numbers, Live, Model, Options};
use dancer_poly::render::{self, Style, Tiling};
use dancer_poly::{catalog, PolyError, PolyPuzzle};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

/// The name of a posted puzzle in messages.
const TOML_FILE: &str = "puzzle.toml";

/// The name of a posted BurrTools file in messages.
const BURR_FILE: &str = "puzzle.xmpuzzle";

pub(crate) fn poly_error(e: PolyError) -> Error {
    let at = e
        .location()
        .map_or(At::none(), |l| At::line_col(l.line, l.col));
    Error::InvalidPoly {
        message: e.message(),
        at,
    }
}

/// A problem of a BurrTools file, as a request names it: its number from
/// 1, or its name.
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub enum ProblemSpec {
    Number(u64),
    Name(String),
}

impl ProblemSpec {
    /// As `dancer poly solve --problem` takes it.
    fn words(&self) -> String {
        match self {
            ProblemSpec::Number(n) => n.to_string(),
            ProblemSpec::Name(s) => s.clone(),
        }
    }
}

/// A posted BurrTools file's bytes, from base64 (white space ignored).
fn burr_bytes(b64: &str) -> Result<Vec<u8>> {
    use base64::Engine;
    let text: Vec<u8> = b64.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| Error::BadValue(format!("burr: the file is not in base64 ({e})")))
}

/// A posted BurrTools file, read: `422` with the line and column for a
/// file BurrTools' reader refuses.
fn burr_file(b64: &str) -> Result<BurrFile> {
    burr::read(&burr_bytes(b64)?, BURR_FILE).map_err(poly_error)
}

/// Where a request's puzzle comes from: the fields `toml`, `name` (a
/// catalogue puzzle, where the request may name one), `burr` and `problem`.
pub(crate) struct Source<'a> {
    pub toml: Option<&'a str>,
    pub name: Option<&'a str>,
    pub burr: Option<&'a str>,
    pub problem: Option<&'a ProblemSpec>,
}

/// A puzzle read from its [`Source`]; from a BurrTools file, the file and
/// the problem's index too (their weights and groups count when its
/// solutions are taken apart).
pub(crate) struct Loaded {
    pub puzzle: PolyPuzzle,
    burr: Option<(BurrFile, usize)>,
}

impl Source<'_> {
    /// Reads the puzzle: exactly one of `toml`, `name`, `burr` (`what`
    /// names those the request may give, for the error); `problem` only
    /// with `burr`.
    pub(crate) fn load(&self, what: &str) -> Result<Loaded> {
        if self.problem.is_some() && self.burr.is_none() {
            return Err(Error::BadValue(
                "problem names a problem of a BurrTools file (burr)".into(),
            ));
        }
        match (self.toml, self.name, self.burr) {
            (Some(t), None, None) => Ok(Loaded {
                puzzle: dancer_poly::parse(t, TOML_FILE).map_err(poly_error)?,
                burr: None,
            }),
            (None, Some(n), None) => Ok(Loaded {
                puzzle: catalog::puzzle(n)
                    .ok_or_else(|| Error::NotFound(format!("no catalogue puzzle {n:?}")))?,
                burr: None,
            }),
            (None, None, Some(b)) => {
                let file = burr_file(b)?;
                let spec = self.problem.map(ProblemSpec::words);
                let index = file
                    .problem_index(spec.as_deref())
                    .map_err(|e| Error::BadValue(format!("problem: {e}")))?;
                let puzzle = file.puzzle(index).map_err(poly_error)?;
                Ok(Loaded {
                    puzzle,
                    burr: Some((file, index)),
                })
            }
            _ => Err(Error::BadValue(format!(
                "a puzzle is given as {what} (one of them)"
            ))),
        }
    }
}

/// Piece counts of a puzzle: the most copies of every piece (`any` counts
/// none).
fn most_pieces(p: &PolyPuzzle) -> u64 {
    p.pieces
        .iter()
        .map(|x| match x.count {
            dancer_poly::Copies::Exactly(k) => u64::from(k),
            dancer_poly::Copies::Between(_, b) => u64::from(b),
            dancer_poly::Copies::Any => 0,
        })
        .sum()
}

/// What the page says about a grid: its name, its pieces' name, whether
/// it is in space, whether its cells are edges.
fn grid_json(g: PolyGrid) -> Value {
    json!({
        "name": g.name(),
        "forms": g.forms(),
        "dim": g.dim(),
        "edges": g.is_edge_grid(),
    })
}

/// `GET /api/poly/catalog`: the puzzles grouped by grid (the order of
/// `catalog::entries`), and every grid with its number of puzzles. The
/// catalogue is built in, so the answer is made once (reading every
/// puzzle takes a while).
pub async fn catalog(State(s): State<Arc<AppState>>) -> Result<Json<Value>> {
    static ANSWER: OnceLock<Value> = OnceLock::new();
    if let Some(v) = ANSWER.get() {
        return Ok(Json(v.clone()));
    }
    let v = blocking(&s, |_| Ok(catalog_answer())).await?;
    Ok(Json(ANSWER.get_or_init(|| v).clone()))
}

fn catalog_answer() -> Value {
    let puzzles: Vec<Value> = catalog::entries()
        .iter()
        .filter_map(|e| {
            let p = catalog::puzzle(&e.name)?;
            Some(json!({
                "name": e.name,
                "title": e.about,
                "dim": p.board.dim,
                "pieces": most_pieces(&p),
                "cells": p.board.len(),
                "grid": e.grid.name(),
                "known": {
                    "solutions": e.known.total,
                    "unique": e.known.unique,
                    "unique_under": p.unique_under.name(),
                    "source": e.known.source,
                },
            }))
        })
        .collect();
    let grids: Vec<Value> = PolyGrid::ALL
        .into_iter()
        .map(|g| {
            let mut v = grid_json(g);
            v["puzzles"] = json!(catalog::entries().iter().filter(|e| e.grid == g).count());
            v
        })
        .collect();
    json!({ "puzzles": puzzles, "grids": grids })
}

/// `GET /api/poly/catalog/{name}`.
pub async fn catalog_entry(Path(name): Path<String>) -> Result<Json<Value>> {
    let toml = catalog::toml(&name)
        .ok_or_else(|| Error::NotFound(format!("no catalogue puzzle {name:?}")))?;
    Ok(Json(json!({"name": name, "toml": toml})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleReq {
    pub toml: Option<String>,
    pub burr: Option<String>,
    pub problem: Option<ProblemSpec>,
}

impl PuzzleReq {
    fn source(&self) -> Source<'_> {
        Source {
            toml: self.toml.as_deref(),
            name: None,
            burr: self.burr.as_deref(),
            problem: self.problem.as_ref(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BurrReq {
    pub burr: String,
}

/// `POST /api/poly/burr`: a BurrTools file's grid and problems (the
/// records of `dancer poly problems --json`).
pub async fn burr_problems(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<BurrReq>,
) -> Result<Json<Value>> {
    blocking(&s, move |_| {
        let f = burr_file(&r.burr)?;
        Ok(Json(json!({
            "grid": f.grid.name(),
            "disassembles": f.grid.disassembles(),
            "comment": f.comment,
            "problems": f.problem_records(),
        })))
    })
    .await
}

fn cell_json(p: &PolyPuzzle, c: [i32; 3]) -> Value {
    json!(p.grid().record_cell(c))
}

/// A picture's input on the puzzle's grid.
pub(crate) fn tiling(
    p: &PolyPuzzle,
    cells: Vec<([i32; 3], u32, u32)>,
    pieces: Vec<String>,
) -> Tiling {
    Tiling {
        grid: p.grid(),
        cells,
        pieces,
        title: None,
    }
}

/// The board (grey) and each piece, as one picture: piece `i` in the
/// colour it has in the solutions (`render::piece_colour(i)`).
fn overview(p: &PolyPuzzle) -> String {
    let names: Vec<String> = p.pieces.iter().map(|q| q.name.clone()).collect();
    let mut board = tiling(
        p,
        p.board
            .cells
            .iter()
            .map(|&c| (c, 0, render::BOARD_PIECE))
            .collect(),
        names.clone(),
    );
    board.title = Some("board".into());
    let mut sheet = vec![board];
    for (i, x) in p.pieces.iter().enumerate() {
        let mut t = tiling(
            p,
            x.cells.iter().map(|&c| (c, 0, i as u32)).collect(),
            names.clone(),
        );
        t.title = Some(x.name.clone());
        sheet.push(t);
    }
    let style = Style {
        labels: false,
        ..Style::default()
    };
    render::contact_sheet(&sheet, 6, &style)
}

/// The colour of each placement of a picture (by its number), as
/// `#rrggbb`: what the page draws its own views with.
fn placement_colours(t: &Tiling) -> Vec<String> {
    let n = t.cells.iter().map(|c| c.1 as usize + 1).max().unwrap_or(0);
    let mut colours = vec![String::new(); n];
    for &(_, placement, piece) in &t.cells {
        colours[placement as usize] = render::piece_colour(piece);
    }
    colours
}

/// `POST /api/poly/check`.
pub async fn check(
    State(s): State<Arc<AppState>>,
    JsonBody(r): JsonBody<PuzzleReq>,
) -> Result<Json<Value>> {
    blocking(&s, move |flag| {
        let loaded = r.source().load("toml or burr")?;
        stopped(&flag)?;
        let m = Model::new(loaded.puzzle).map_err(poly_error)?;
        stopped(&flag)?;
        let p = &m.puzzle;
        let pieces: Vec<Value> = p
            .pieces
            .iter()
            .enumerate()
            .map(|(i, x)| {
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
                    "colour": render::piece_colour(i as u32),
                })
            })
            .collect();
        stopped(&flag)?;
        let svg = overview(p);
        Ok(Json(json!({
            "name": p.name,
            "about": p.about,
            "grid": grid_json(p.grid()),
            "crossings": p.crossings,
            "unique_under": p.unique_under.name(),
            "dim": p.board.dim,
            "extent": p.board.extent(),
            "board": p.board.cells.iter().map(|&c| cell_json(p, c)).collect::<Vec<_>>(),
            "pieces": pieces,
            "placements": m.placements.len(),
            "symmetries": m.symmetries.len(),
            "svg": svg,
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
    pub toml: Option<String>,
    pub burr: Option<String>,
    pub problem: Option<ProblemSpec>,
    pub solution: SolutionReq,
    pub format: Option<String>,
    pub size: Option<u32>,
}

/// A solution record as a picture's input, checked against the board:
/// every cell a cell of it, none twice (in a placement, or in two).
fn tiling_of(p: &PolyPuzzle, sol: &SolutionReq) -> Result<Tiling> {
    let mut kinds = Vec::new();
    for pl in &sol.placements {
        let k = p
            .pieces
            .iter()
            .position(|x| x.name == pl.piece)
            .ok_or_else(|| {
                Error::BadValue(format!("solution: no piece {:?} in the puzzle", pl.piece))
            })?;
        kinds.push(k);
    }
    // the colours of the job's pictures (Model::tiling)
    let colours = colour_numbers(&kinds, p.pieces.len());
    let mut pieces: Vec<String> = p.pieces.iter().map(|x| x.name.clone()).collect();
    let mut cells = Vec::new();
    // the placement that has each cell so far
    let mut owner: HashMap<[i32; 3], usize> = HashMap::new();
    for (i, (pl, &k)) in sol.placements.iter().zip(&kinds).enumerate() {
        if colours[i] as usize >= pieces.len() {
            pieces.push(p.pieces[k].name.clone());
        }
        for c in &pl.cells {
            let cell = match c.as_slice() {
                [x, y] => [*x, *y, 0],
                [x, y, z] => [*x, *y, *z],
                _ => {
                    return Err(Error::BadValue(
                        "solution: a cell is [x, y] or [x, y, k] (or [x, y, z])".into(),
                    ))
                }
            };
            if p.board.index(&cell).is_none() {
                return Err(Error::BadValue(format!(
                    "solution: {c:?} is not a cell of the board"
                )));
            }
            if let Some(&first) = owner.get(&cell) {
                let what = format!("solution: placements[{i}] (piece {:?})", pl.piece);
                return Err(Error::BadValue(if first == i {
                    format!("{what} has the cell {c:?} twice")
                } else {
                    format!(
                        "{what} covers the cell {c:?}, which placements[{first}] (piece {:?}) covers",
                        sol.placements[first].piece
                    )
                }));
            }
            owner.insert(cell, i);
            cells.push((cell, i as u32, colours[i]));
        }
    }
    cells.sort();
    Ok(tiling(p, cells, pieces))
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
    blocking(&s, move |flag| {
        let source = Source {
            toml: r.toml.as_deref(),
            name: None,
            burr: r.burr.as_deref(),
            problem: r.problem.as_ref(),
        };
        let p = source.load("toml or burr")?.puzzle;
        stopped(&flag)?;
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

/// A polyform job: `{"kind":"poly","toml":"..." (or "name":"pentomino-6x10",
/// or "burr":"base64","problem":1),"mode":"solve"|"count","unique":true,
/// "disassemble":true,"limit":N,"time":S,"keep":N}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolySpec {
    pub toml: Option<String>,
    pub name: Option<String>,
    pub burr: Option<String>,
    pub problem: Option<ProblemSpec>,
    pub mode: Option<String>,
    #[serde(default)]
    pub unique: bool,
    /// Take each solution apart (`dancer poly solve --disassemble`).
    #[serde(default)]
    pub disassemble: bool,
    pub limit: Option<u64>,
    pub engine: Option<String>,
    pub time: Option<f64>,
    pub keep: Option<usize>,
}

/// Checks a polyform job and makes its work (given up between its steps
/// once `flag`, the request's, is set).
pub fn poly_job(s: PolySpec, flag: &AtomicBool) -> Result<JobParts> {
    let solve = solve_mode(s.mode.as_deref())?;
    let limit = limit_of(s.limit)?;
    let engine = engine_of(s.engine.as_deref())?;
    let source = Source {
        toml: s.toml.as_deref(),
        name: s.name.as_deref(),
        burr: s.burr.as_deref(),
        problem: s.problem.as_ref(),
    };
    let loaded = source.load("toml, name or burr")?;
    stopped(flag)?;
    let m = Model::new(loaded.puzzle).map_err(poly_error)?;
    stopped(flag)?;
    engine
        .resolve(&m.cover(true).problem)
        .map_err(|e| Error::BadValue(e.to_string()))?;
    stopped(flag)?;
    // a grid the disassembler does not take is refused before the search
    let apart = match s.disassemble {
        true => Some(
            TakeApart::new(&m, loaded.burr.as_ref().map(|(f, i)| (f, *i))).map_err(poly_error)?,
        ),
        false => None,
    };
    let unique = s.unique;
    let keep = if solve { s.keep } else { Some(0) };
    let work: Work = Box::new(move |ctx: &Ctx| {
        let mut apart = apart;
        let (mut came_apart, mut undecided, mut failed) = (0u64, 0u64, None);
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
            // taken apart as `dancer poly solve --disassemble` does, the
            // job's cancel flag watched
            let taken = match &mut apart {
                Some(t) => match t.take_apart(&m, sol, Some(&ctx.cancel)) {
                    Ok(a) => {
                        came_apart += u64::from(a.disassembly.is_some());
                        // its record says why it was not taken apart
                        undecided += u64::from(a.undecided.is_some());
                        Some(t.record(&m, sol, &a))
                    }
                    Err(e) => {
                        if !ctx.cancelled() {
                            failed = Some(e.message());
                        }
                        return false;
                    }
                },
                None => None,
            };
            ctx.solution(|n| {
                let mut record = m.solution_record(n, sol);
                if let PolyRecord::Solution { disassembly, .. } = &mut record {
                    *disassembly = taken;
                }
                let mut v = serde_json::to_value(record).expect("serialises");
                let t = m.tiling(sol, None);
                v["colours"] = json!(placement_colours(&t));
                v["svg"] = json!(render::svg(&t, &style));
                v
            })
        });
        match r {
            Ok(_) if failed.is_some() => Ending {
                error: failed,
                ..Ending::default()
            },
            Ok(c) => {
                let mut extra = serde_json::Map::new();
                extra.insert("solutions".into(), json!(c.total));
                extra.insert("unique".into(), json!(c.unique));
                extra.insert("nodes".into(), json!(c.nodes));
                extra.insert("symmetries".into(), json!(m.symmetries.len()));
                if apart.is_some() {
                    extra.insert("disassemblies".into(), json!(came_apart));
                    if undecided > 0 {
                        extra.insert("undecided".into(), json!(undecided));
                    }
                }
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
        let toml = "[board]\nrect = [3, 3]\n[[piece]]\nname = \"Q9\"\n";
        let source = Source {
            toml: Some(toml),
            name: None,
            burr: None,
            problem: None,
        };
        let e = match source.load("toml") {
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
