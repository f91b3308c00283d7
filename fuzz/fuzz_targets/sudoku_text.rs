//! Sudoku text: `Puzzle::parse_line` and the batch reader
//! (`batch::RulesSpec::new` and `RulesSpec::read`) on any text, then the
//! solvers on every valid puzzle of size at most 9.
//!
//! The first byte chooses the rules and the layout; the rest is the text:
//!
//! | bits | meaning |
//! |---|---|
//! | 0 | `--diagonal` |
//! | 1 | `--windoku` |
//! | 2-3 | layout: 1 lines, 2 grids, else auto |
//! | 4 | `--box`: the text's first line is its argument (`2x3`) |
//! | 5 | `--jigsaw`: the text up to its first NUL byte is the map |
//!
//! Checked:
//!
//! * every entry read says its line (1-based, inside the text);
//! * a puzzle read keeps the rules: `Puzzle::new` accepts its givens, and
//!   its line (`to_line`) reads back, with its rules, as the same puzzle;
//! * `dancer_sudoku::solve(&p, 2)` reports at most 2 solutions, keeps as
//!   many as it counts, each a different grid that keeps the givens and the
//!   rules (`check_solution`);
//! * the engines (`logic`, `dlx`, and `fast9` for plain 9x9) agree on the
//!   count up to 2, and each of their solutions passes `check_solution`.
#![no_main]

use dancer_sudoku::batch::RulesSpec;
use dancer_sudoku::{check_solution, solve, Layout, Puzzle, Solver, SudokuEngine};
use libfuzzer_sys::fuzz_target;

/// Puzzles larger than this (cells a side) are read, not solved.
const MAX_SOLVED_SIZE: usize = 9;
/// At most this many different puzzles of one input are checked.
const MAX_PUZZLES: usize = 4;

fn check_puzzle(p: &Puzzle) {
    let n = p.rules.size();
    assert_eq!(p.givens.size(), n, "givens and rules of different sizes");
    assert_eq!(
        Puzzle::new(p.rules.clone(), p.givens.clone()).as_ref(),
        Ok(p),
        "a puzzle read breaks its own rules"
    );
    let line = p.to_line();
    assert_eq!(
        Puzzle::parse_line(&line, Some(&p.rules)).as_ref(),
        Ok(p),
        "the puzzle's line {line:?} does not read back"
    );
    if n > MAX_SOLVED_SIZE {
        return;
    }
    let s = solve(p, 2);
    assert!(s.count <= 2, "solve(p, 2) counted {} solutions", s.count);
    assert_eq!(
        s.solutions.len() as u64,
        s.count,
        "solve(p, 2) keeps the first two solutions"
    );
    for g in &s.solutions {
        if let Err(e) = check_solution(p, g) {
            panic!("wrong solution {} of {}: {e}", g.to_line(), p.to_line());
        }
    }
    if s.solutions.len() == 2 {
        assert_ne!(
            s.solutions[0], s.solutions[1],
            "one solution reported twice"
        );
    }
    for &engine in &[SudokuEngine::Logic, SudokuEngine::Dlx, SudokuEngine::Fast9] {
        let solver = match Solver::new(&p.rules, engine) {
            Ok(s) => s,
            Err(e) => {
                assert!(
                    engine == SudokuEngine::Fast9 && !p.rules.is_standard_9x9(),
                    "{engine} refuses {}: {e}",
                    p.rules.describe()
                );
                continue;
            }
        };
        let r = solver.solve(&p.givens, 2, 2);
        for g in &r.solutions {
            if let Err(e) = check_solution(p, g) {
                panic!(
                    "{engine}: wrong solution {} of {}: {e}",
                    g.to_line(),
                    p.to_line()
                );
            }
        }
        assert_eq!(
            r.count,
            s.count,
            "{engine} and solve() disagree on {} ({})",
            p.to_line(),
            p.rules.describe()
        );
        assert_eq!(
            r.solutions.len() as u64,
            r.count,
            "{engine}: kept solutions"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    if data.is_empty() || data.len() > 4096 {
        return;
    }
    let flags = data[0];
    let Ok(text) = std::str::from_utf8(&data[1..]) else {
        return;
    };
    // the puzzles to check, each once (the two readers often read the same)
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let mut add = |p: &Puzzle| {
        if puzzles.len() < MAX_PUZZLES && !puzzles.contains(p) {
            puzzles.push(p.clone());
        }
    };
    // one line, its size inferred
    for line in text.lines().take(MAX_PUZZLES) {
        if let Ok(p) = Puzzle::parse_line(line, None) {
            add(&p);
        }
    }
    // the batch reader, with the rules the flags ask for
    let mut rest = text;
    let mut boxes = None;
    if flags & 0x10 != 0 {
        let (b, r) = rest.split_once('\n').unwrap_or((rest, ""));
        boxes = Some(b);
        rest = r;
    }
    let mut jigsaw = None;
    if flags & 0x20 != 0 {
        let (j, r) = rest.split_once('\0').unwrap_or((rest, ""));
        jigsaw = Some(j);
        rest = r;
    }
    let layout = match (flags >> 2) & 3 {
        1 => Layout::Lines,
        2 => Layout::Grids,
        _ => Layout::Auto,
    };
    if let Ok(spec) = RulesSpec::new(boxes, jigsaw, flags & 1 != 0, flags & 2 != 0) {
        let entries = spec.read(rest, layout, 1);
        let lines = rest.lines().count().max(1);
        for e in &entries {
            assert!(
                (1..=lines).contains(&e.line),
                "entry at line {} of a text of {lines} lines",
                e.line
            );
            if let Ok(p) = &e.puzzle {
                add(p);
            }
        }
    }
    for p in &puzzles {
        check_puzzle(p);
    }
});
