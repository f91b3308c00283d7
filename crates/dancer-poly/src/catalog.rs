//! Built-in puzzles, with their known counts (total, unique up to symmetry).

use crate::pieces;
use crate::puzzle::{Board, Copies, Piece, PolyPuzzle};

/// A built-in puzzle.
pub struct CatalogEntry {
    pub name: &'static str,
    pub about: &'static str,
    /// Known (total, unique) counts.
    pub known: (u64, u64),
}

pub const CATALOG: &[CatalogEntry] = &[
    CatalogEntry {
        name: "pentomino-6x10",
        about: "the 12 pentominoes in a 6x10 rectangle",
        known: (9356, 2339),
    },
    CatalogEntry {
        name: "pentomino-5x12",
        about: "the 12 pentominoes in a 5x12 rectangle",
        known: (4040, 1010),
    },
    CatalogEntry {
        name: "pentomino-4x15",
        about: "the 12 pentominoes in a 4x15 rectangle",
        known: (1472, 368),
    },
    CatalogEntry {
        name: "pentomino-3x20",
        about: "the 12 pentominoes in a 3x20 rectangle",
        known: (8, 2),
    },
    CatalogEntry {
        name: "scott",
        about:
            "Dana Scott's 1958 problem: the 12 pentominoes in an 8x8 square without its centre 2x2",
        known: (520, 65),
    },
    CatalogEntry {
        name: "soma",
        about: "Piet Hein's Soma cube: 7 pieces (rotations only) in a 3x3x3 cube",
        known: (11520, 240),
    },
    CatalogEntry {
        name: "ypent-5x5x5",
        about: "25 Y pentacubes in a 5x5x5 cube",
        known: (60672, 1264),
    },
    CatalogEntry {
        name: "npent-5x5x5",
        about: "25 N pentacubes in a 5x5x5 cube",
        known: (192, 4),
    },
    CatalogEntry {
        name: "corner",
        about: "four L-trominoes tiling the L-tromino doubled in size",
        known: (1, 1),
    },
    CatalogEntry {
        name: "tetromino-4x5",
        about: "the 5 tetrominoes in a 4x5 rectangle (there is none)",
        known: (0, 0),
    },
];

fn free(shapes: Vec<pieces::Shape>, count: Copies) -> Vec<Piece> {
    shapes
        .into_iter()
        .map(|s| Piece::new(s.name, &s.cells, count))
        .collect()
}

/// The puzzle called `name` in the puzzle file format (TOML), if built
/// in: what a user starts from to write a variation (the web app shows
/// it). It reads back as [`puzzle`]`(name)` (a test makes sure).
pub fn toml(name: &str) -> Option<String> {
    let entry = CATALOG.iter().find(|e| e.name == name)?;
    let rect = |w: u32, h: u32| format!("[board]\nrect = [{w}, {h}]\n");
    let set = |s: &str| format!("\n[[piece]]\nset = \"{s}\"\n");
    let body = match name {
        "pentomino-6x10" => rect(10, 6) + &set("pentominoes"),
        "pentomino-5x12" => rect(12, 5) + &set("pentominoes"),
        "pentomino-4x15" => rect(15, 4) + &set("pentominoes"),
        "pentomino-3x20" => rect(20, 3) + &set("pentominoes"),
        "scott" => {
            rect(8, 8) + "holes = [[3, 3], [4, 3], [3, 4], [4, 4]]\n" + &set("pentominoes")
        }
        "soma" => "reflections = false\n\n[board]\nbox = [3, 3, 3]\n".to_string() + &set("soma"),
        "ypent-5x5x5" | "npent-5x5x5" => {
            let letter = if name.starts_with('y') { "Y" } else { "N" };
            format!(
                "[board]\nbox = [5, 5, 5]\n\n[[piece]]\nname = \"pentacubes/{letter}\"\ncount = 25\n"
            )
        }
        "corner" => "[board]\nshape = \"\"\"\n##..\n##..\n####\n####\n\"\"\"\n\n[[piece]]\nname = \"trominoes/V\"\ncount = 4\n".to_string(),
        "tetromino-4x5" => rect(5, 4) + &set("tetrominoes"),
        _ => return None,
    };
    Some(format!("# {}\nname = \"{name}\"\n{body}", entry.about))
}

/// The puzzle called `name`, if built in.
pub fn puzzle(name: &str) -> Option<PolyPuzzle> {
    let pent = || free(pieces::pentominoes(), Copies::Exactly(1));
    let (board, pieces) = match name {
        "pentomino-6x10" => (Board::rect(10, 6), pent()),
        "pentomino-5x12" => (Board::rect(12, 5), pent()),
        "pentomino-4x15" => (Board::rect(15, 4), pent()),
        "pentomino-3x20" => (Board::rect(20, 3), pent()),
        "scott" => (
            Board::rect(8, 8).without(&[[3, 3, 0], [4, 3, 0], [3, 4, 0], [4, 4, 0]]),
            pent(),
        ),
        "soma" => {
            let mut p = free(pieces::soma(), Copies::Exactly(1));
            for x in &mut p {
                x.one_sided = true;
            }
            (Board::cuboid(3, 3, 3), p)
        }
        "ypent-5x5x5" | "npent-5x5x5" => {
            let letter = if name.starts_with('y') { "Y" } else { "N" };
            let s = pieces::piece(&format!("pentacubes/{letter}")).expect("built in");
            (Board::cuboid(5, 5, 5), free(vec![s], Copies::Exactly(25)))
        }
        "corner" => (
            Board::picture("##..\n##..\n####\n####"),
            free(
                vec![pieces::piece("trominoes/V").expect("built in")],
                Copies::Exactly(4),
            ),
        ),
        "tetromino-4x5" => (
            Board::rect(5, 4),
            free(pieces::tetrominoes(), Copies::Exactly(1)),
        ),
        _ => return None,
    };
    Some(PolyPuzzle::new(name, board, pieces))
}

#[cfg(test)]
mod toml_tests {
    use super::*;

    #[test]
    fn the_toml_of_each_puzzle_reads_back_as_it() {
        let plain = |p: PolyPuzzle| {
            let pieces: Vec<_> = p
                .pieces
                .iter()
                .map(|x| (x.name.clone(), x.cells.clone(), x.count, x.one_sided))
                .collect();
            (p.name, p.board, pieces)
        };
        for e in CATALOG {
            let text = toml(e.name).unwrap();
            let read = crate::parse(&text, e.name).unwrap_or_else(|err| panic!("{err}\n{text}"));
            assert_eq!(plain(read), plain(puzzle(e.name).unwrap()), "{}", e.name);
        }
        assert!(toml("nothing").is_none());
    }
}
