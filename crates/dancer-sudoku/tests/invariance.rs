//! Ratings, levels and hints do not depend on how a puzzle is written down:
//! every equivalent form (digits relabelled, rows inside a band or bands
//! permuted, columns and stacks likewise, transposed) gets the same rating,
//! level and hardest technique, and the same hint, moved the same way.
//! (One exception, for SE's sake and not tested here: at SE's nested level
//! 3, 10.0 and up, the inner rule meets regions in the player's cell
//! order, as SE does, so two forms of such a puzzle can rate 0.1 apart.)
//!
//! * every puzzle of both calibration sets in `../shared` (skipped when
//!   absent; required on CI), each under a random transform;
//! * a property test over random transforms of a fixed set of puzzles,
//!   comparing the first hints step by step along the whole solving path.

use dancer_sudoku::canon::{canonical, GridTransform};
use dancer_sudoku::logic::{next_step, rate, MarkedGrid, Step};
use dancer_sudoku::{Grid, Puzzle};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn grid_of(line: &str) -> Grid {
    Puzzle::parse_line(&line.replace('0', "."), None)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .givens
}

fn cells81(g: &Grid) -> [u8; 81] {
    let mut a = [0u8; 81];
    a.copy_from_slice(g.cells());
    a
}

fn transformed(g: &Grid, t: &GridTransform) -> Grid {
    Grid::from_cells(9, t.apply(&cells81(g)).to_vec())
}

/// The puzzles of a calibration file (`id puzzle SE` lines).
fn calibration(name: &str) -> Option<Vec<String>> {
    let p = dancer_testdata::shared_file("sudoku", name)?;
    let text = std::fs::read_to_string(p).unwrap();
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| l.split_whitespace().nth(1).unwrap().to_string())
            .collect(),
    )
}

/// What must not change: the rating, the hardest technique, the level,
/// whether logic finished, the number of steps.
fn key(g: &Grid) -> (String, Option<String>, String, bool, usize) {
    let r = rate(g);
    (
        format!("{:.1}", r.se),
        r.hardest.map(|t| t.name().to_string()),
        r.level.name().to_string(),
        r.solved,
        r.steps,
    )
}

/// Rates every puzzle and a random transform of it on all cores; returns
/// the puzzles whose two answers differ.
fn rate_both(puzzles: &[String], seed: u64) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = puzzles.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let hs: Vec<_> = puzzles
            .chunks(chunk)
            .enumerate()
            .map(|(k, part)| {
                s.spawn(move || {
                    let mut bad = Vec::new();
                    for (i, p) in part.iter().enumerate() {
                        let g = grid_of(p);
                        let t = GridTransform::random(seed ^ ((k * chunk + i) as u64) << 20);
                        let (a, b) = (key(&g), key(&transformed(&g, &t)));
                        if a != b {
                            bad.push(format!("{p}: {a:?} but transformed {b:?}"));
                        }
                    }
                    bad
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn every_calibration_puzzle_rates_the_same_in_every_form() {
    let mut total = 0;
    for name in [
        "se_rated_17clue_calibration.txt",
        "se_rated_calibration.txt",
    ] {
        let Some(puzzles) = calibration(name) else {
            eprintln!("skipped {name}: not in ../shared");
            continue;
        };
        let bad = rate_both(&puzzles, 0x5eed_0001);
        assert!(
            bad.is_empty(),
            "{name}: {} of {} puzzles rate differently once transformed, e.g.\n{}",
            bad.len(),
            puzzles.len(),
            bad.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
        );
        total += puzzles.len();
    }
    eprintln!("{total} calibration puzzles rated the same under a random transform");
}

/// The cell and unit names a step's words use (`r3c7`, `row 3`, `box 5`).
fn names_in(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let b = text.as_bytes();
    for i in 0..b.len() {
        if b[i] == b'r'
            && i + 3 < b.len()
            && b[i + 1].is_ascii_digit()
            && b[i + 2] == b'c'
            && b[i + 3].is_ascii_digit()
        {
            out.insert(text[i..i + 4].to_string());
        }
    }
    for word in ["row ", "column ", "box "] {
        for (i, _) in text.match_indices(word) {
            if let Some(d) = text[i + word.len()..].chars().next() {
                if d.is_ascii_digit() {
                    out.insert(format!("{word}{d}"));
                }
            }
        }
    }
    out
}

/// The name of cell `r{R}c{C}` or unit `row N` after `t`.
fn moved_name(name: &str, t: &GridTransform) -> String {
    if let Some(rest) = name.strip_prefix('r').filter(|r| r.len() == 3) {
        let r = rest.as_bytes()[0] - b'1';
        let c = rest.as_bytes()[2] - b'1';
        let to = t.cell(r as usize * 9 + c as usize);
        return format!("r{}c{}", to / 9 + 1, to % 9 + 1);
    }
    let (word, n) = name.rsplit_once(' ').unwrap();
    let n: usize = n.parse::<usize>().unwrap() - 1;
    let cells: Vec<usize> = match word {
        "row" => (0..9).map(|c| n * 9 + c).collect(),
        "column" => (0..9).map(|r| r * 9 + n).collect(),
        _ => (0..9)
            .map(|i| (n / 3 * 3 + i / 3) * 9 + n % 3 * 3 + i % 3)
            .collect(),
    };
    let to: Vec<usize> = cells.iter().map(|&c| t.cell(c)).collect();
    if to.iter().all(|&c| c / 9 == to[0] / 9) {
        format!("row {}", to[0] / 9 + 1)
    } else if to.iter().all(|&c| c % 9 == to[0] % 9) {
        format!("column {}", to[0] % 9 + 1)
    } else {
        format!("box {}", to[0] / 27 * 3 + to[0] % 9 / 3 + 1)
    }
}

/// A step as compared: technique, rating, placements, eliminations.
type Moved = (String, String, Vec<(usize, u8)>, Vec<(usize, u8)>);

fn moved(s: &Step, t: &GridTransform) -> Moved {
    let mut p: Vec<(usize, u8)> = s
        .placements
        .iter()
        .map(|&(c, d)| (t.cell(c), t.digit(d)))
        .collect();
    let mut e: Vec<(usize, u8)> = s
        .eliminations
        .iter()
        .map(|&(c, d)| (t.cell(c), t.digit(d)))
        .collect();
    p.sort_unstable();
    e.sort_unstable();
    (
        s.technique.name().into(),
        format!("{:.1}", s.rating()),
        p,
        e,
    )
}

/// Steps the puzzle and its transform side by side: each hint of the
/// transform is the hint of the puzzle, moved (cells, digits, the names in
/// its words). Grids with symmetries of their own (a transform that maps
/// the grid onto itself) may take an equivalent step instead: for them the
/// steps are compared in canonical coordinates.
fn same_path(line: &str, t: &GridTransform) -> Result<usize, String> {
    let g = grid_of(line);
    let mut a = MarkedGrid::from_grid(&g);
    let mut b = MarkedGrid::from_grid(&transformed(&g, t));
    for n in 0..200 {
        let (sa, sb) = match (next_step(&a), next_step(&b)) {
            (None, None) => return Ok(n),
            (Some(x), Some(y)) => (x, y),
            (x, y) => return Err(format!("step {n}: {x:?} vs {y:?}")),
        };
        let (_, ta) = canonical(a.values());
        let (_, tb) = canonical(b.values());
        // the transform from a's canonical form to b's through t: identity
        // unless the grid maps onto itself
        let symmetric = ta.inverse().then(t).then(&tb) != GridTransform::identity();
        let (want, got) = if symmetric {
            (moved(&sa, &ta), moved(&sb, &tb))
        } else {
            (moved(&sa, t), moved(&sb, &GridTransform::identity()))
        };
        if want != got {
            return Err(format!(
                "step {n}: {want:?} vs {got:?}\n{}\n{}",
                sa.description, sb.description
            ));
        }
        if !symmetric {
            let names: BTreeSet<String> = names_in(&sa.description)
                .iter()
                .map(|x| moved_name(x, t))
                .collect();
            if names != names_in(&sb.description) {
                return Err(format!(
                    "step {n}: the words name other places\n{}\n{}",
                    sa.description, sb.description
                ));
            }
        }
        for (board, s) in [(&mut a, &sa), (&mut b, &sb)] {
            dancer_sudoku::logic::apply(board, s);
        }
    }
    Err("no end".into())
}

const PUZZLES: &[&str] = &[
    // 17 clues, SE 1.5 to 7.2 (se_rated_17clue_calibration.txt)
    "000000000000000001000002034000005000001000600007003800000060700040010000350400000",
    "000000000000000001000023040000005230006000000017800000000100007300000050920000000",
    "000000000000000001000023040000045020006007000081000000000400000090100006500000030",
    // hard ones (se_rated_calibration.txt)
    "200050006010000090600801003007090600000703000900080002100000005060902010003060200",
    "006000200900000004243000896000591000002080300400203001300000007000907000010408020",
    "700040006000759000900801003000524000030000020400000007501000208080000010209000304",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn hints_move_with_the_puzzle(i in 0..PUZZLES.len(), seed in any::<u64>()) {
        let t = GridTransform::random(seed);
        let r = same_path(PUZZLES[i], &t);
        prop_assert!(r.is_ok(), "{}: {}", PUZZLES[i], r.unwrap_err());
    }
}
