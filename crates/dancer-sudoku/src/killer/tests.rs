//! Killer puzzles: the line format and its errors, the exact cover model
//! against brute force on every 4x4 grid, planted 9x9 solutions found and
//! checked independently.

use super::*;
use crate::rules::Rules;

/// Every 4x4 Sudoku grid (288), by brute force, sharing nothing with the
/// solver: cells filled in reading order, each digit tried against its
/// row, column and box.
pub(super) fn all_4x4() -> Vec<Vec<u8>> {
    fn go(g: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        let c = g.len();
        if c == 16 {
            out.push(g.clone());
            return;
        }
        let (r, col) = (c / 4, c % 4);
        for d in 1..=4u8 {
            let clash = (0..c).any(|e| {
                let (er, ec) = (e / 4, e % 4);
                g[e] == d && (er == r || ec == col || (er / 2 == r / 2 && ec / 2 == col / 2))
            });
            if !clash {
                g.push(d);
                go(g, out);
                g.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(&mut Vec::new(), &mut out);
    out
}

/// A small generator for the tests.
pub(super) struct Lcg(pub(super) u64);
impl Lcg {
    pub(super) fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Random connected cages over the `n`x`n` grid `grid`, of at most `most`
/// cells each and no digit of `grid` twice: each cell's cage number, the
/// cages numbered in the order of their first cells.
pub(super) fn random_map(n: usize, most: usize, grid: &[u8], rng: &mut Lcg) -> Vec<usize> {
    let mut cage = vec![usize::MAX; n * n];
    let mut next = 0;
    for start in 0..n * n {
        if cage[start] != usize::MAX {
            continue;
        }
        let size = 1 + rng.below(most);
        let mut cells = vec![start];
        cage[start] = next;
        while cells.len() < size {
            let c = cells[rng.below(cells.len())];
            let (r, col) = (c / n, c % n);
            let mut near = Vec::new();
            if col + 1 < n {
                near.push(c + 1);
            }
            if r + 1 < n {
                near.push(c + n);
            }
            if col > 0 {
                near.push(c - 1);
            }
            let free: Vec<usize> = near
                .into_iter()
                .filter(|&d| cage[d] == usize::MAX)
                .filter(|&d| cells.iter().all(|&e| grid[e] != grid[d]))
                .collect();
            if free.is_empty() {
                break;
            }
            let d = free[rng.below(free.len())];
            cage[d] = next;
            cells.push(d);
        }
        next += 1;
    }
    cage
}

const NAMES: &str = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The line of a killer puzzle whose cages are `cage` and whose sums are
/// those of `grid`.
pub(super) fn line_of(cage: &[usize], grid: &[u8], givens: Option<&str>) -> String {
    let names: Vec<char> = NAMES.chars().collect();
    let map: String = cage.iter().map(|&k| names[k]).collect();
    let cages = cage.iter().max().unwrap() + 1;
    // sums in the order of the cages' first cells: cage numbers are given
    // in that order already
    let sums: Vec<String> = (0..cages)
        .map(|k| {
            let s: u32 = (0..cage.len())
                .filter(|&c| cage[c] == k)
                .map(|c| u32::from(grid[c]))
                .sum();
            s.to_string()
        })
        .collect();
    match givens {
        Some(g) => format!("{map} {} {g}", sums.join(",")),
        None => format!("{map} {}", sums.join(",")),
    }
}

#[test]
fn counts_agree_with_brute_force_on_4x4() {
    let grids = all_4x4();
    assert_eq!(grids.len(), 288);
    let mut rng = Lcg(7);
    for round in 0..120 {
        let planted = &grids[rng.below(grids.len())];
        let cage = random_map(4, 1 + round % 4, planted, &mut rng);
        let line = line_of(&cage, planted, None);
        let k = KillerPuzzle::parse(&line, None).unwrap_or_else(|e| panic!("{line}: {e}"));
        // brute force: the grids whose cages add up
        let want: Vec<&Vec<u8>> = grids
            .iter()
            .filter(|g| {
                k.cages.iter().all(|cg| {
                    let digits: Vec<u8> = cg.cells.iter().map(|&c| g[c]).collect();
                    let mut seen = digits.clone();
                    seen.sort();
                    seen.dedup();
                    seen.len() == digits.len()
                        && digits.iter().map(|&d| u32::from(d)).sum::<u32>() == cg.sum
                })
            })
            .collect();
        for model in [
            KillerModel::Mixed,
            KillerModel::Placed,
            KillerModel::Combinations,
        ] {
            let got = solve_with(&k, model, None, 1000, None);
            assert!(got.complete);
            assert_eq!(got.count, want.len() as u64, "{model:?}: {line}");
            for s in &got.solutions {
                check_solution(&k, s).unwrap();
                let cells: Vec<u8> = (0..16).map(|c| s.get(c)).collect();
                assert!(want.contains(&&cells), "{line}");
            }
        }
    }
}

#[test]
fn planted_9x9_solutions_are_found() {
    // a solved grid (the solution of a well-known puzzle)
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let grid: Vec<u8> = solved.bytes().map(|b| b - b'0').collect();
    let mut rng = Lcg(11);
    for round in 0..6 {
        let cage = random_map(9, 2 + round % 3, &grid, &mut rng);
        let line = line_of(&cage, &grid, None);
        let k = KillerPuzzle::parse(&line, None).unwrap();
        let got = solve(&k, Some(50), 50, None);
        assert!(got.count >= 1, "{line}");
        for s in &got.solutions {
            check_solution(&k, s).unwrap();
        }
        if got.complete {
            let cells: Vec<Vec<u8>> = got
                .solutions
                .iter()
                .map(|s| (0..81).map(|c| s.get(c)).collect())
                .collect();
            assert!(
                cells.contains(&grid),
                "the planted grid is among them: {line}"
            );
        }
    }
}

#[test]
fn givens_narrow_it_down() {
    let grids = all_4x4();
    let planted = &grids[100];
    // one cage per row: many grids; the givens of a diagonal pin it
    let cage: Vec<usize> = (0..16).map(|c| c / 4).collect();
    let mut givens = String::new();
    for (c, d) in planted.iter().enumerate() {
        givens.push(if c % 5 == 0 { (b'0' + d) as char } else { '.' });
    }
    let bare = KillerPuzzle::parse(&line_of(&cage, planted, None), None).unwrap();
    let with = KillerPuzzle::parse(&line_of(&cage, planted, Some(&givens)), None).unwrap();
    let (a, b) = (count(&bare, None), count(&with, None));
    assert_eq!(a, 288, "every row of 4 digits adds up to 10");
    assert!(b >= 1 && b < a, "{b}");
    let s = solve(&with, None, 10, None);
    for g in &s.solutions {
        check_solution(&with, g).unwrap();
        for c in (0..16).step_by(5) {
            assert_eq!(g.get(c), planted[c]);
        }
    }
}

#[test]
fn the_checker_catches_a_wrong_answer() {
    let k = KillerPuzzle::parse("aabbaabbccddccdd 10,10,10,10", None).unwrap();
    let s = solve(&k, None, 1, None);
    let g = &s.solutions[0];
    check_solution(&k, g).unwrap();
    // the same grid against other sums
    let other = KillerPuzzle::parse("aabbccddeeffgghh 3,7,3,7,3,7,3,7", None).unwrap();
    let e = check_solution(&other, g);
    let fits = other
        .cages
        .iter()
        .all(|cg| cg.cells.iter().map(|&c| u32::from(g.get(c))).sum::<u32>() == cg.sum);
    assert_eq!(e.is_ok(), fits);
}

#[test]
fn lines_that_are_not_killer_puzzles_say_why() {
    let cases: &[(&str, &str)] = &[
        ("aabb", "this line has 1 fields"),
        ("aab 1,2", "the map has 3 cells"),
        ("aabbaabbccddccd! 10,10,10,10", "'!' cannot name a cage"),
        (
            "abbaabbaccddccdd 10,10,10,10",
            "cage \"a\" is in two pieces",
        ),
        ("aaaaabbbccccdddd 10,10,10,10", "cage \"a\" has 5 cells"),
        ("aabbaabbccddccdd 10,10,10", "4 cages but 3 sums"),
        (
            "aabbaabbccddccdd 10,x,10,10",
            "sum 2 (\"x\") is not a whole number",
        ),
        (
            "aabbaabbccddccdd 10,10,10,11",
            "cage \"d\" (r3c3) has sum 11",
        ),
        (
            "aabbaabbccddccdd 10,10,10,10 11..............",
            "the givens",
        ),
        (
            "aabbccddeeffgghh 3,7,3,7,3,7,3,7 3...............",
            "cannot be completed",
        ),
        (
            "aabbaabbccddccdd 10,10,10,10 1...1...........",
            "the givens",
        ),
        (
            "aabbccddaabbccdd 3,7,3,7 4...............",
            "cage \"a\" is in two pieces",
        ),
    ];
    for (line, want) in cases {
        match KillerPuzzle::parse(line, None) {
            Ok(_) => panic!("{line}: accepted"),
            Err(e) => assert!(e.to_string().contains(want), "{line}: {e}"),
        }
    }
    // rules of another size
    let r9 = Rules::standard(9).unwrap();
    let e = KillerPuzzle::parse("aabbaabbccddccdd 10,10,10,10", Some(&r9)).unwrap_err();
    assert!(e.to_string().contains("4x4"), "{e}");
}

#[test]
fn combinations_are_the_sets_of_the_sum() {
    assert_eq!(combinations(2, 9, 3, 0), vec![0b110]);
    assert_eq!(combinations(2, 9, 17, 0), vec![1 << 8 | 1 << 9]);
    assert_eq!(combinations(9, 9, 45, 0).len(), 1);
    assert_eq!(combinations(3, 9, 15, 0).len(), 8);
    assert_eq!(combinations(3, 9, 15, 1 << 5).len(), 4);
    assert_eq!(sum_range(3, 9), (6, 24));
}

#[test]
fn the_json_form_is_the_same_puzzle() {
    let grids = all_4x4();
    let mut rng = Lcg(5);
    for round in 0..30 {
        let planted = &grids[rng.below(grids.len())];
        let cage = random_map(4, 1 + round % 4, planted, &mut rng);
        let line = line_of(&cage, planted, None);
        let k = KillerPuzzle::parse(&line, None).unwrap();
        let cages: Vec<String> = k
            .cages
            .iter()
            .map(|c| {
                let cells: Vec<String> = c
                    .cells
                    .iter()
                    .map(|&x| format!("\"r{}c{}\"", x / 4 + 1, x % 4 + 1))
                    .collect();
                format!("{{\"sum\":{},\"cells\":[{}]}}", c.sum, cells.join(","))
            })
            .collect();
        let json = format!("{{\"size\":4,\"cages\":[{}]}}", cages.join(","));
        let j = KillerPuzzle::parse(&json, None).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(count(&j, None), count(&k, None), "{json}");
        assert_eq!(j.cages.len(), k.cages.len());
    }
    let bad: &[(&str, &str)] = &[
        (
            r#"{"cages":[{"sum":3,"cells":["r1c1","r1c1"]}]}"#,
            "r1c1 is in cage 1 and cage 1",
        ),
        (
            r#"{"size":4,"cages":[{"sum":3,"cells":["r5c1"]}]}"#,
            "\"r5c1\" is not a cell of a 4x4 grid",
        ),
        (
            r#"{"size":4,"cages":[{"sum":3,"cells":[]}]}"#,
            "cage 1 has no cells",
        ),
        (r#"{"size":4,"cages":[],"colour":1}"#, "unknown field"),
        (r#"{"size":40,"cages":[]}"#, "size 40"),
        (
            r#"{"size":4,"cages":[{"sum":3,"cells":["r1c1","r2c2"]}]}"#,
            "cage \"1\" is in two pieces",
        ),
        (
            r#"{"size":4,"cages":[{"sum":9,"cells":["r1c1","r1c2"]}]}"#,
            "cage \"1\" (r1c1) has sum 9",
        ),
        (
            r#"{"cages":[{"sum":3,"cells":["r1c1","r1c2"]}],"givens":"3..............."}"#,
            "cannot be completed",
        ),
    ];
    for (text, want) in bad {
        match KillerPuzzle::parse(text, None) {
            Ok(_) => panic!("{text}: accepted"),
            Err(e) => assert!(e.to_string().contains(want), "{text}: {e}"),
        }
    }
}
