//! Overlapping grids: shapes, lines and their errors, counts against
//! brute force on two 4x4 grids sharing a box, generated samurai and
//! twodoku puzzles unique and checked grid by grid.

use super::*;

/// Every 4x4 grid (288), by brute force.
fn all_4x4() -> Vec<Vec<u8>> {
    fn go(g: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        let c = g.len();
        if c == 16 {
            out.push(g.clone());
            return;
        }
        for d in 1..=4u8 {
            let clash = (0..c).any(|e| {
                g[e] == d
                    && (e / 4 == c / 4
                        || e % 4 == c % 4
                        || (e / 8 == c / 8 && (e % 4) / 2 == (c % 4) / 2))
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

#[test]
fn built_in_shapes_have_their_cells() {
    let cells = |n: &str| Shape::builtin(n).unwrap().cells().len();
    assert_eq!(cells("twodoku"), 153);
    assert_eq!(cells("samurai"), 369);
    assert_eq!(cells("sohei"), 288);
    assert_eq!(cells("butterfly"), 144);
    let s = Shape::builtin("samurai").unwrap();
    assert_eq!((s.height, s.width), (21, 21));
    // 5 grids of 27 units, 4 boxes shared
    assert_eq!(s.units().len(), 5 * 27 - 4);
    for name in Shape::BUILTIN {
        assert!(Shape::builtin(name).is_some(), "{name}");
    }
}

#[test]
fn counts_agree_with_brute_force_on_two_4x4_grids() {
    let shape = Shape::parse("pair", "size 4\ngrid 0 0\ngrid 2 2 # a box shared\n").unwrap();
    let grids = all_4x4();
    // brute force: pairs of grids that agree on the shared box
    let mut want = 0u64;
    for a in &grids {
        for b in &grids {
            if [(2, 2, 0, 0), (2, 3, 0, 1), (3, 2, 1, 0), (3, 3, 1, 1)]
                .iter()
                .all(|&(ra, ca, rb, cb)| a[ra * 4 + ca] == b[rb * 4 + cb])
            {
                want += 1;
            }
        }
    }
    let empty = GattaiPuzzle::parse(&".".repeat(28), &shape).unwrap();
    let got = solve(&empty, None, 5, None);
    assert!(got.complete);
    assert_eq!(got.count, want);
    for s in &got.solutions {
        check_solution(&empty, s).unwrap();
    }
    // a given narrows it down to the pairs with it
    let mut line = ".".repeat(28).into_bytes();
    line[0] = b'1';
    let one = GattaiPuzzle::parse(std::str::from_utf8(&line).unwrap(), &shape).unwrap();
    assert_eq!(count(&one, None), want / 4);
}

#[test]
fn generated_puzzles_are_unique_and_checked() {
    for (name, seed) in [("twodoku", 1), ("samurai", 2), ("flower", 3)] {
        let shape = Shape::builtin(name).unwrap();
        let g = generate(&shape, seed, None).unwrap();
        check_solution(&g.puzzle, &g.solution).unwrap();
        assert_eq!(count(&g.puzzle, Some(2)), 1, "{name}");
        let s = solve(&g.puzzle, Some(2), 1, None);
        assert_eq!(s.solutions[0], g.solution);
        // the line reads back, in both forms
        let line = g.puzzle.to_line();
        assert_eq!(GattaiPuzzle::parse(&line, &shape).unwrap(), g.puzzle);
        let by_grids: String = (0..shape.grids.len())
            .flat_map(|k| shape.grid_cells(k))
            .map(|c| crate::grid::symbol(g.puzzle.givens[c]))
            .collect();
        assert_eq!(GattaiPuzzle::parse(&by_grids, &shape).unwrap(), g.puzzle);
        assert!(picture(&shape, &g.solution).lines().count() == shape.height);
    }
}

#[test]
fn a_wrong_answer_is_caught() {
    let shape = Shape::builtin("twodoku").unwrap();
    let g = generate(&shape, 4, None).unwrap();
    let mut bad = g.solution.clone();
    // swap two cells of the shared box: each grid's rows break
    let (a, b) = (6 * shape.width + 6, 6 * shape.width + 7);
    bad.swap(a, b);
    assert!(check_solution(&g.puzzle, &bad).is_err());
    let mut other = g.solution.clone();
    other[0] = 0;
    assert!(check_solution(&g.puzzle, &other).is_err());
}

#[test]
fn bad_shapes_and_lines_say_what() {
    let e = |t: &str| Shape::parse("f", t).unwrap_err().to_string();
    assert_eq!(e(""), "the shape has no grid");
    assert!(
        e("grid 0 0\ngrid 0 0").contains("grid 1 and grid 2"),
        "{}",
        e("grid 0 0\ngrid 0 0")
    );
    assert!(e("grid 0 x").starts_with("line 1:"), "{}", e("grid 0 x"));
    assert!(e("grid 0 99999999999999999999").contains("0 to 200"));
    assert!(e("size 7\ngrid 0 0").starts_with("line 1:"));
    assert!(e("\nwhat 1").starts_with("line 2:"));
    let shape = Shape::builtin("twodoku").unwrap();
    let p = |l: &str| GattaiPuzzle::parse(l, &shape).unwrap_err().to_string();
    assert!(
        p("123").contains("takes 162") && p("123").contains("or 153"),
        "{}",
        p("123")
    );
    assert!(p(&format!("x{}", ".".repeat(152))).contains("character 1"));
    let mut clash = ".".repeat(153).into_bytes();
    clash[0] = b'5';
    clash[1] = b'5';
    let m = p(std::str::from_utf8(&clash).unwrap());
    assert!(
        m.contains("r1c1") && m.contains("r1c2") && m.contains("grid 1 row 1"),
        "{m}"
    );
    // by grids: the shared box given differently in each
    let mut two = ".".repeat(162).into_bytes();
    two[6 * 9 + 6] = b'1'; // grid 1 r7c7
    two[81] = b'2'; // grid 2 r1c1, the same cell
    let m = p(std::str::from_utf8(&two).unwrap());
    assert!(
        m.contains("r7c7") && m.contains("grid 1") && m.contains("grid 2"),
        "{m}"
    );
}

/// The steps across the grids, replayed: placements are the solution's
/// digits, eliminations never; the hint is the path's first step.
#[test]
fn steps_across_the_grids_are_sound() {
    for (name, seed) in [("samurai", 5), ("twodoku", 6)] {
        let shape = Shape::builtin(name).unwrap();
        let g = generate(&shape, seed, None).unwrap();
        let (steps, solved) = path(&g.puzzle);
        assert!(!steps.is_empty());
        let mut b = board(&g.puzzle);
        for s in &steps {
            for &(c, d) in &s.placements {
                assert_eq!(g.solution[c], d, "{}", s.description);
            }
            for &(c, d) in &s.eliminations {
                assert_ne!(g.solution[c], d, "{}", s.description);
            }
            b.apply(s);
        }
        if solved {
            for c in shape.cells() {
                assert_eq!(b.values()[c], g.solution[c]);
            }
        }
        let r = rate(&g.puzzle);
        assert_eq!(r.solved, solved);
        assert_eq!(r.steps, steps.len());
        match hint(&g.puzzle, &[]) {
            crate::killer::KillerHint::Step(s) => assert_eq!(s, steps[0]),
            other => panic!("no step: {other:?}"),
        }
        // the game's hint, which skips the count, gives the same step
        // after the first step's eliminations too
        let removed: Vec<(usize, u8)> = steps[0].eliminations.clone();
        assert_eq!(
            hint_of_unique(&g.puzzle, &removed),
            hint(&g.puzzle, &removed)
        );
    }
}
