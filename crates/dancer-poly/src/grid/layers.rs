//! Text pictures of solids, layer by layer: what the sphere and prism
//! grids share in reading and writing them.
//!
//! A solid is given as one picture per layer, `z = 0` first (a puzzle
//! file's `layers = ["...", "..."]`). In each picture a character stands
//! at a *position*: its column `c` and line `y`, both from 0, the first
//! line at the top. Each grid says which cell a position is, if any
//! ([`super::sphere`], [`super::prism`]); here a position is `[c, y, z]`.
//! A space or a `.` is no cell, any other character a cell, labelled by
//! that character. A tab is refused: its width is anyone's guess, and the
//! columns are what place a cell.
//!
//! A written picture fills every layer's box of lines and columns: a cell
//! by its label, another position that is a cell of the grid by `.`, a
//! position that is none (on the sphere grid) by a space, and trailing
//! blanks cut. Reading it back gives the same cells.

use std::collections::HashMap;

/// What is wrong with a picture, and where: `line` and `column` count from
/// 1, in characters of the picture's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureError {
    pub line: usize,
    pub column: usize,
    /// What is wrong, as a sentence without a capital or a full stop.
    pub what: String,
}

impl std::fmt::Display for PictureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.what
        )
    }
}

impl std::error::Error for PictureError {}

/// Whether a character is no cell: `.` or a space.
pub fn is_blank(ch: char) -> bool {
    ch == '.' || ch == ' '
}

/// The cells of one layer's picture: `cell_at([c, y, z])` for each
/// character that is not blank (`None`: not a cell of the grid, the error
/// `why_not`), with the character.
pub(crate) fn read(
    text: &str,
    z: i32,
    cell_at: impl Fn([i32; 3]) -> Option<[i32; 3]>,
    why_not: &str,
) -> Result<Vec<([i32; 3], char)>, PictureError> {
    let mut out = Vec::new();
    for (y, line) in text.lines().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            let at = |what: String| PictureError {
                line: y + 1,
                column: c + 1,
                what,
            };
            if ch == '\t' {
                return Err(at(
                    "a tab: write spaces, so that the columns are plain".into()
                ));
            }
            if is_blank(ch) {
                continue;
            }
            match cell_at([c as i32, y as i32, z]) {
                Some(cell) => out.push((cell, ch)),
                None => return Err(at(format!("`{ch}` is no cell: {why_not}"))),
            }
        }
    }
    Ok(out)
}

/// The layer pictures of labelled positions `[c, y, z]` (none negative):
/// layers `0..=max z`, each of lines `0..=max y` and columns `0..=max c`;
/// a position without a label is `blank(position)`, trailing blanks cut.
pub(crate) fn write(marks: &[([i32; 3], char)], blank: impl Fn([i32; 3]) -> char) -> Vec<String> {
    let at: HashMap<[i32; 3], char> = marks.iter().copied().collect();
    let hi = marks
        .iter()
        .fold([-1; 3], |m, (p, _)| [0, 1, 2].map(|k| m[k].max(p[k])));
    (0..=hi[2])
        .map(|z| {
            let lines: Vec<String> = (0..=hi[1])
                .map(|y| {
                    let line: String = (0..=hi[0])
                        .map(|c| {
                            at.get(&[c, y, z])
                                .copied()
                                .unwrap_or_else(|| blank([c, y, z]))
                        })
                        .collect();
                    line.trim_end().to_string()
                })
                .collect();
            lines.join("\n")
        })
        .collect()
}
