//! The catalogue: classic puzzles on every grid, each with the count an
//! author published and where.
//!
//! Each puzzle is a puzzle file under `crates/dancer-poly/catalogue/<grid>/`
//! (the format of [`crate::puzzle`], with `about` and a `[known]` table:
//! the published count up to the symmetries the file's `unique` names, the
//! total when published, the source). The build embeds them all
//! (`build.rs`); [`entries`] lists them grouped by grid, in the order of
//! [`PolyGrid::ALL`], and by name within a grid. The tests reproduce every
//! count (`tests/catalogue.rs`; those marked `slow` with `--ignored`).

use crate::grid::PolyGrid;
use crate::puzzle::{Known, PolyPuzzle};
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));

/// A puzzle of the catalogue.
#[derive(Clone, Debug)]
pub struct CatalogEntry {
    /// Its name, as `dancer poly solve NAME` takes it (the file's stem).
    pub name: String,
    /// A line about it.
    pub about: String,
    pub grid: PolyGrid,
    /// The published count.
    pub known: Known,
    /// Its file, relative to the catalogue folder (`triangle/hexiamond-6x6.toml`).
    pub file: &'static str,
    /// The file's text.
    pub text: &'static str,
}

/// Every puzzle of the catalogue, grouped by grid.
///
/// Panics if a catalogue file does not read (the tests read them all).
pub fn entries() -> &'static [CatalogEntry] {
    static ENTRIES: OnceLock<Vec<CatalogEntry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        let mut v: Vec<CatalogEntry> = FILES
            .iter()
            .map(|&(file, text)| {
                let p = crate::puzzle::parse(text, file)
                    .unwrap_or_else(|e| panic!("catalogue file {e}"));
                CatalogEntry {
                    name: p.name.clone(),
                    about: p.about.clone().unwrap_or_default(),
                    grid: p.grid(),
                    known: p
                        .known
                        .clone()
                        .unwrap_or_else(|| panic!("catalogue file {file}: no [known] count")),
                    file,
                    text,
                }
            })
            .collect();
        let rank = |g: PolyGrid| PolyGrid::ALL.iter().position(|&x| x == g);
        v.sort_by(|a, b| (rank(a.grid), &a.name).cmp(&(rank(b.grid), &b.name)));
        v
    })
}

/// The catalogue in lines, grouped by grid: a heading for each grid
/// (`triangle (polyiamonds): 23 puzzles`), then a line for each puzzle:
/// its name, its published count up to symmetry (and in all, when
/// published), and what it is.
pub fn listing() -> Vec<String> {
    let mut out = Vec::new();
    let totals = |e: &CatalogEntry| {
        e.known
            .total
            .map_or(String::new(), |t| format!(" ({t} in all)"))
    };
    let name_w = entries().iter().map(|e| e.name.len()).max().unwrap_or(0);
    let unique_w = entries()
        .iter()
        .map(|e| e.known.unique.to_string().len())
        .max()
        .unwrap_or(0);
    let total_w = entries().iter().map(|e| totals(e).len()).max().unwrap_or(0);
    for grid in PolyGrid::ALL {
        let of: Vec<&CatalogEntry> = entries().iter().filter(|e| e.grid == grid).collect();
        if of.is_empty() {
            continue;
        }
        out.push(format!(
            "{} ({}): {}",
            grid.name(),
            grid.forms(),
            crate::puzzle::counted(of.len() as u64, "puzzle", "puzzles")
        ));
        for e in of {
            out.push(format!(
                "  {:name_w$} {:>unique_w$} unique{:total_w$}  {}",
                e.name,
                e.known.unique,
                totals(e),
                e.about
            ));
        }
    }
    out
}

/// The catalogue's puzzle called `name`.
pub fn entry(name: &str) -> Option<&'static CatalogEntry> {
    entries().iter().find(|e| e.name == name)
}

/// The puzzle called `name` in the puzzle file format (TOML), if built
/// in: what a user starts from to write a variation (the web app shows
/// it).
pub fn toml(name: &str) -> Option<String> {
    entry(name).map(|e| e.text.to_string())
}

/// The puzzle called `name`, if built in: its file alone is read (a
/// file's stem is its puzzle's name, a test checks), not the whole
/// catalogue, so that naming a file costs no start-up.
pub fn puzzle(name: &str) -> Option<PolyPuzzle> {
    let (_, text) = FILES.iter().find(|(file, _)| stem(file) == name)?;
    Some(crate::puzzle::parse(text, name).expect("the catalogue reads"))
}

/// A catalogue file's stem: `square/pentomino-6x10.toml` is
/// `pentomino-6x10`.
fn stem(file: &str) -> &str {
    file.rsplit(['/', '\\'])
        .next()
        .unwrap_or(file)
        .trim_end_matches(".toml")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pieces;
    use crate::puzzle::{Board, Copies, Piece};

    #[test]
    fn every_file_reads_and_is_where_it_says() {
        let mut names = std::collections::HashSet::new();
        for e in entries() {
            let stem = e.file.rsplit('/').next().unwrap().trim_end_matches(".toml");
            assert_eq!(stem, e.name, "{}", e.file);
            assert!(
                e.file.starts_with(&format!("{}/", e.grid.name())),
                "{}",
                e.file
            );
            assert!(names.insert(e.name.clone()), "two called {}", e.name);
            assert!(
                !e.about.is_empty() && !e.known.source.is_empty(),
                "{}",
                e.file
            );
            assert!(puzzle(&e.name).is_some());
        }
        assert!(toml("nothing").is_none());
    }

    /// The classic ten, as they were built in code before the catalogue
    /// was files: the files give the same puzzles (boards, pieces in the
    /// same order), so their searches and outputs are the same.
    #[test]
    fn the_classic_files_are_the_puzzles_once_built_in_code() {
        let free = |shapes: Vec<pieces::Shape>, count| -> Vec<Piece> {
            shapes
                .into_iter()
                .map(|s| Piece::new(s.name, &s.cells, count))
                .collect()
        };
        let pent = || free(pieces::pentominoes(), Copies::Exactly(1));
        let one = |name: &str, count| free(vec![pieces::piece(name).unwrap()], count);
        let mut soma = free(pieces::soma(), Copies::Exactly(1));
        soma.iter_mut().for_each(|p| p.one_sided = true);
        let cases = vec![
            ("pentomino-6x10", Board::rect(10, 6), pent()),
            ("pentomino-5x12", Board::rect(12, 5), pent()),
            ("pentomino-4x15", Board::rect(15, 4), pent()),
            ("pentomino-3x20", Board::rect(20, 3), pent()),
            (
                "scott",
                Board::rect(8, 8).without(&[[3, 3, 0], [4, 3, 0], [3, 4, 0], [4, 4, 0]]),
                pent(),
            ),
            ("soma", Board::cuboid(3, 3, 3), soma),
            (
                "ypent-5x5x5",
                Board::cuboid(5, 5, 5),
                one("pentacubes/Y", Copies::Exactly(25)),
            ),
            (
                "npent-5x5x5",
                Board::cuboid(5, 5, 5),
                one("pentacubes/N", Copies::Exactly(25)),
            ),
            (
                "corner",
                Board::picture("##..\n##..\n####\n####"),
                one("trominoes/V", Copies::Exactly(4)),
            ),
            (
                "tetromino-4x5",
                Board::rect(5, 4),
                free(pieces::tetrominoes(), Copies::Exactly(1)),
            ),
        ];
        for (name, board, pieces) in cases {
            let p = puzzle(name).unwrap();
            assert_eq!(p.board, board, "{name}");
            let plain = |v: &[Piece]| -> Vec<_> {
                v.iter()
                    .map(|x| (x.name.clone(), x.cells.clone(), x.count, x.one_sided))
                    .collect()
            };
            assert_eq!(plain(&p.pieces), plain(&pieces), "{name}");
        }
    }
}
