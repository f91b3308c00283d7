//! A BurrTools problem as a dancer puzzle, and a dancer puzzle as a
//! BurrTools file.
//!
//! Voxels map to cells by the grid's own rule ([`crate::grid::prism`],
//! [`crate::grid::sphere`]; on cubes `(x, y, z)` is the cube `[x, -y, z]`,
//! as on the other two, since BurrTools' `y` grows upwards and dancer's
//! downwards): a reflection, the same for the result and every piece, so
//! no count changes. Each shape is then moved to dancer's origin (the
//! board by the same translation as its colours and optional cells).
//! Writing goes back the same way and moves each shape into its box, by a
//! translation that keeps the grid (prisms: `x + y` even at the box's
//! corner; spheres: `x + y + z`).

use super::{BurrFile, BurrGrid, BurrPart, BurrProblem, BurrShape, BurrVoxel};
use crate::grid::{prism, sphere, Cell, PolyGrid};
use crate::puzzle::{Board, Colouring, Copies, Location, Piece, PolyError, PolyPuzzle};
use std::collections::HashMap;

impl BurrGrid {
    /// The dancer grid of this BurrTools grid, if dancer has it.
    pub fn poly_grid(self) -> Option<PolyGrid> {
        match self {
            BurrGrid::Cubes => Some(PolyGrid::Cube),
            BurrGrid::Prisms => Some(PolyGrid::Prism),
            BurrGrid::Spheres => Some(PolyGrid::Sphere),
            BurrGrid::Rhombic => Some(PolyGrid::Rhombic),
            BurrGrid::TetraOcta => Some(PolyGrid::TetraOcta),
        }
    }

    /// The BurrTools grid of a dancer grid, if BurrTools has it.
    pub fn of_poly(grid: PolyGrid) -> Option<BurrGrid> {
        match grid {
            PolyGrid::Cube => Some(BurrGrid::Cubes),
            PolyGrid::Prism => Some(BurrGrid::Prisms),
            PolyGrid::Sphere => Some(BurrGrid::Spheres),
            PolyGrid::Rhombic => Some(BurrGrid::Rhombic),
            PolyGrid::TetraOcta => Some(BurrGrid::TetraOcta),
            _ => None,
        }
    }

    /// The cell of a voxel (None: no cell of the grid).
    pub fn cell(self, v: [i32; 3]) -> Option<Cell> {
        match self {
            BurrGrid::Cubes => Some([v[0], -v[1], v[2]]),
            BurrGrid::Prisms => Some(prism::from_burrtools(v)),
            BurrGrid::Spheres => sphere::from_burrtools(v),
            // taken as they are (see `crate::grid::voxel`)
            BurrGrid::Rhombic => PolyGrid::Rhombic.is_cell(v).then_some(v),
            BurrGrid::TetraOcta => PolyGrid::TetraOcta.is_cell(v).then_some(v),
        }
    }

    /// The voxel of a cell: the inverse of [`BurrGrid::cell`].
    pub fn voxel(self, c: Cell) -> [i32; 3] {
        match self {
            BurrGrid::Prisms => prism::to_burrtools(c),
            BurrGrid::Spheres => sphere::to_burrtools(c),
            BurrGrid::Rhombic | BurrGrid::TetraOcta => c,
            BurrGrid::Cubes => [c[0], -c[1], c[2]],
        }
    }
}

impl BurrFile {
    /// Problem `index` as a dancer puzzle: see the module documentation.
    /// Errors: a grid dancer does not have, an empty result or piece.
    pub fn puzzle(&self, index: usize) -> Result<PolyPuzzle, PolyError> {
        let Some(grid) = self.grid.poly_grid() else {
            return Err(PolyError::File {
                at: self.grid_at.clone(),
                message: format!(
                    "BurrTools' grid {} ({}) is not one dancer solves on: it reads cubes (0), triangular prisms (1) and spheres (2)",
                    self.grid.number(),
                    self.grid.name()
                ),
            });
        };
        let problem = &self.problems[index];
        let file_err = |at: &Location, message: String| PolyError::File {
            at: at.clone(),
            message,
        };
        let result = &self.shapes[problem.result];
        if result.voxels.is_empty() {
            return Err(file_err(
                &problem.at,
                format!("the result shape {} has no cells", problem.result),
            ));
        }
        let grid_of = self.grid;
        fn cells(g: BurrGrid, s: &BurrShape) -> Vec<(Cell, &BurrVoxel)> {
            s.voxels
                .iter()
                .filter_map(|v| Some((g.cell(v.at)?, v)))
                .collect()
        }
        let cells = |s| cells(grid_of, s);
        let board_cells = cells(result);
        let plain: Vec<Cell> = board_cells.iter().map(|m| m.0).collect();
        let by = grid.normal_shift(&plain);
        let moved = |c: Cell| grid.translate(c, by);
        let board = Board::on(grid, plain.iter().map(|&c| moved(c)).collect());
        let optional: Vec<Cell> = (board_cells.iter())
            .filter(|m| m.1.variable)
            .map(|m| moved(m.0))
            .collect();
        if let Some(h) = problem.max_holes {
            if h as usize > board.len() {
                return Err(file_err(
                    &problem.at,
                    format!(
                        "maxHoles {h} is larger than the result's {} cells",
                        board.len()
                    ),
                ));
            }
        }
        let coloured = !self.colours.is_empty();
        let mut colouring = Colouring {
            board: (board_cells.iter())
                .filter(|m| m.1.colour > 0)
                .map(|m| (moved(m.0), m.1.colour))
                .collect(),
            pieces: Vec::new(),
            fits: problem
                .colour_pairs
                .iter()
                .map(|&(p, r)| (p + 1, r + 1))
                .collect(),
        };
        let names = piece_names(self, problem);
        let mut pieces = Vec::new();
        for (part, name) in problem.parts.iter().zip(names) {
            let shape = &self.shapes[part.shape];
            let pc = cells(shape);
            if pc.is_empty() {
                return Err(file_err(
                    &part.at,
                    format!("shape {} has no cells", part.shape),
                ));
            }
            let plain: Vec<Cell> = pc.iter().map(|m| m.0).collect();
            let by = grid.normal_shift(&plain);
            let count = if part.min == part.max {
                Copies::Exactly(part.max)
            } else {
                Copies::Between(part.min, part.max)
            };
            colouring.pieces.push(
                (pc.iter())
                    .filter(|m| m.1.colour > 0)
                    .map(|m| (grid.translate(m.0, by), m.1.colour))
                    .collect(),
            );
            pieces.push(Piece {
                name,
                cells: grid.normalize(&plain),
                count,
                one_sided: true,
                at: Some(part.at.clone()),
            });
        }
        if pieces.is_empty() {
            return Err(file_err(&problem.at, "the problem has no pieces".into()));
        }
        let puzzle = PolyPuzzle {
            name: problem.title(index),
            board_at: Some(problem.at.clone()),
            optional,
            max_holes: problem.max_holes,
            colouring: coloured.then_some(colouring),
            connected: false,
            reduce: true,
            about: self
                .comment
                .as_ref()
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty()),
            ..PolyPuzzle::new("", board, pieces)
        };
        puzzle.check()?;
        Ok(puzzle)
    }
}

/// The pieces' names: each shape's own when it is a good piece name
/// (blanks made `_`), else `S` and its number from 1 as BurrTools shows
/// it; a name taken twice gets the shape's number after it.
fn piece_names(file: &BurrFile, problem: &BurrProblem) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in &problem.parts {
        let fallback = format!("S{}", part.shape + 1);
        let own = file.shapes[part.shape].name.as_deref().map(|n| {
            n.trim()
                .chars()
                .map(|c| {
                    if c.is_whitespace() || c.is_control() || c == ':' || c == '|' {
                        '_'
                    } else {
                        c
                    }
                })
                .collect::<String>()
        });
        let mut name = match own {
            Some(n) if !n.is_empty() && !n.contains('.') => n,
            _ => fallback.clone(),
        };
        if out.contains(&name) {
            name = format!("{name}-{}", part.shape + 1);
        }
        out.push(name);
    }
    out
}

/// A dancer puzzle as a BurrTools file of one problem: the board is shape
/// 1 (named after the puzzle), the pieces the shapes after it. Errors: a
/// grid BurrTools does not have; a piece that may be turned over and whose
/// mirror image is no rotation of it (BurrTools only turns pieces).
pub fn from_puzzle(puzzle: &PolyPuzzle) -> Result<BurrFile, PolyError> {
    let grid = puzzle.grid();
    let Some(bg) = BurrGrid::of_poly(grid) else {
        return Err(PolyError::BadBoard {
            why: format!(
                "BurrTools has no grid of {}: it has cubes, triangular prisms and spheres",
                grid.forms()
            ),
            at: puzzle.board_at.clone(),
        });
    };
    let here = Location {
        file: String::new(),
        line: 1,
        col: 1,
    };
    let marks = puzzle.cell_marks();
    let result = shape_of(
        bg,
        Some(puzzle.name.clone()),
        (puzzle.board.cells.iter().zip(&marks)).map(|(&c, &(k, opt))| (c, opt, k)),
    );
    let mut shapes = vec![result];
    let mut parts = Vec::new();
    for (pi, p) in puzzle.pieces.iter().enumerate() {
        if !p.one_sided && chiral(grid, &p.cells) && grid.dim() == 3 {
            return Err(PolyError::BadPiece {
                piece: p.name.clone(),
                why: "it may be turned over, which BurrTools cannot say (it only turns pieces): give its mirror image as a piece of its own, and both one-sided".into(),
                at: p.at.clone(),
            });
        }
        let colours: HashMap<Cell, u8> = puzzle.coloured_cells(pi).into_iter().collect();
        shapes.push(shape_of(
            bg,
            Some(p.name.clone()),
            p.cells.iter().map(|c| (*c, false, colours[c])),
        ));
        let (min, max) = match p.count {
            Copies::Exactly(k) => (k, k),
            Copies::Between(a, b) => (a, b),
            Copies::Any => (0, (puzzle.board.len() / p.cells.len().max(1)) as u32),
        };
        parts.push(BurrPart {
            shape: pi + 1,
            min,
            max,
            groups: Vec::new(),
            at: here.clone(),
        });
    }
    let colouring = puzzle.colouring.as_ref();
    let most = (colouring.iter())
        .flat_map(|c| {
            c.board
                .iter()
                .map(|m| m.1)
                .chain(c.pieces.iter().flatten().map(|m| m.1))
        })
        .chain(
            colouring
                .iter()
                .flat_map(|c| c.fits.iter().flat_map(|&(a, b)| [a, b])),
        )
        .max()
        .unwrap_or(0);
    let problem = BurrProblem {
        name: Some(puzzle.name.clone()),
        parts,
        result: 0,
        max_holes: puzzle.max_holes,
        colour_pairs: (colouring.iter())
            .flat_map(|c| c.fits.iter().map(|&(a, b)| (a - 1, b - 1)))
            .collect(),
        found: None,
        kept: 0,
        at: here.clone(),
    };
    Ok(BurrFile {
        file: String::new(),
        grid: bg,
        grid_at: here,
        colours: (1..=most).map(palette).collect(),
        shapes,
        problems: vec![problem],
        comment: puzzle.about.clone(),
    })
}

/// Whether a shape of space differs from its mirror image (no rotation
/// takes one to the other).
fn chiral(grid: PolyGrid, cells: &[Cell]) -> bool {
    let rotations = grid.rotations();
    let Some(mirror) = grid.symmetries().into_iter().find(|t| !t.is_rotation()) else {
        return false;
    };
    let mirrored: Vec<Cell> = cells.iter().map(|&c| grid.apply(&mirror, c)).collect();
    grid.canonical_under(cells, &rotations) != grid.canonical_under(&mirrored, &rotations)
}

/// A shape from cells (each optional or not, with its colour), moved into
/// its box by a translation of the grid.
fn shape_of(
    grid: BurrGrid,
    name: Option<String>,
    cells: impl Iterator<Item = (Cell, bool, u8)>,
) -> BurrShape {
    let vox: Vec<([i32; 3], bool, u8)> = cells.map(|(c, o, k)| (grid.voxel(c), o, k)).collect();
    let lo = vox
        .iter()
        .fold([i32::MAX; 3], |lo, v| [0, 1, 2].map(|k| lo[k].min(v.0[k])));
    // a translation of the grid: whole blocks on grids 3 and 4 (an even
    // number of them on 4), keeping x + y even on prisms, x + y + z on
    // spheres
    let by = match grid {
        BurrGrid::Rhombic => lo.map(|v| -5 * v.div_euclid(5)),
        BurrGrid::TetraOcta => {
            let mut b = lo.map(|v| -v.div_euclid(3));
            if (b[0] + b[1] + b[2]).rem_euclid(2) != 0 {
                b[0] += 1;
            }
            b.map(|v| 3 * v)
        }
        _ => {
            let mut by = lo.map(|v| -v);
            let odd = match grid {
                BurrGrid::Prisms => (by[0] + by[1]) % 2 != 0,
                BurrGrid::Spheres => (by[0] + by[1] + by[2]) % 2 != 0,
                _ => false,
            };
            if odd {
                by[0] += 1;
            }
            by
        }
    };
    let voxels: Vec<BurrVoxel> = vox
        .iter()
        .map(|&(v, variable, colour)| BurrVoxel {
            at: [0, 1, 2].map(|k| v[k] + by[k]),
            variable,
            colour,
        })
        .collect();
    let size = voxels
        .iter()
        .fold([0; 3], |hi, v| [0, 1, 2].map(|k| hi[k].max(v.at[k] + 1)));
    BurrShape {
        name,
        size,
        voxels,
        weight: 1,
        hotspot: [0; 3],
        at: Location {
            file: String::new(),
            line: 1,
            col: 1,
        },
    }
}

/// Colour `k` (from 1) of a written palette: hues around the wheel.
fn palette(k: u8) -> [u8; 3] {
    const HUES: [[u8; 3]; 8] = [
        [230, 60, 60],
        [60, 130, 230],
        [240, 200, 40],
        [60, 180, 90],
        [160, 80, 200],
        [240, 130, 40],
        [60, 200, 200],
        [200, 90, 150],
    ];
    let [r, g, b] = HUES[(k as usize - 1) % HUES.len()];
    let dim = ((k as usize - 1) / HUES.len()) as u8 * 20;
    [
        r.saturating_sub(dim),
        g.saturating_sub(dim),
        b.saturating_sub(dim),
    ]
}
