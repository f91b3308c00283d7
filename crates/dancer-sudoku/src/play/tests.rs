//! The plain game's tests (the killer game's are in `killer.rs`).

use super::*;

const P: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

#[test]
fn a_game() {
    let p = Puzzle::parse_line(P, None).unwrap();
    let mut g = Game::new(&p).unwrap();
    assert_eq!(g.set(0, 1), Err(PlayError::Given("r1c1".into())));
    let sol = g.doc.solution.clone();
    assert_eq!(g.set(1, sol[1]).unwrap(), Check::Right);
    let wrong = if sol[2] == 9 { 8 } else { 9 };
    assert_eq!(g.set(2, wrong).unwrap(), Check::Wrong);
    assert_eq!(g.mistakes(), vec![2]);
    assert!(g.undo());
    assert_eq!(g.check(2), Check::Empty);
    g.toggle_mark(3, 5).unwrap();
    assert_eq!(g.marks(3), vec![5]);
    g.fill_marks();
    assert!(!g.marks(3).is_empty());
    assert!(g.undo()); // the fill
    assert_eq!(g.marks(3), vec![5]);
    // hints lead to the solution
    let mut steps = 0;
    while let Some(step) = g.hint() {
        g.apply(&step);
        assert!(g.mistakes().is_empty(), "a hint made a mistake");
        steps += 1;
        if g.is_solved() || steps > 500 {
            break;
        }
    }
    assert!(g.is_solved());
    // save and restore
    let saved = g.save();
    let back = Game::load(&saved).unwrap();
    assert_eq!(back, g);
    assert!(Game::load("{}").is_err());
    assert!(Game::load(&saved.replace("\"size\":9", "\"size\":4")).is_err());
}

#[test]
fn undo_redo_marks_reveal() {
    let p = Puzzle::parse_line(P, None).unwrap();
    let mut g = Game::new(&p).unwrap();
    let start = g.clone();
    assert!(!g.can_undo() && !g.can_redo());
    g.set(1, 3).unwrap();
    g.set(1, 5).unwrap();
    g.toggle_mark(2, 4).unwrap();
    g.fill_marks();
    let filled = g.clone();
    assert!(g.undo());
    assert!(g.undo());
    assert_eq!(g.marks(2), Vec::<u8>::new());
    assert_eq!(g.grid().get(1), 5);
    assert!(g.can_redo());
    assert!(g.redo());
    assert!(g.redo());
    assert_eq!(g.grid(), filled.grid());
    assert_eq!(g.doc.marks, filled.doc.marks);
    assert!(!g.redo());
    // all the way back, and forward again
    while g.undo() {}
    assert_eq!(g.grid(), start.grid());
    assert_eq!(g.doc.marks, start.doc.marks);
    while g.redo() {}
    assert_eq!(g.doc.marks, filled.doc.marks);
    // a new change forgets the redo list
    g.undo();
    g.set(3, 1).unwrap();
    assert!(!g.can_redo());
    g.clear_marks();
    assert!((0..81).all(|c| g.marks(c).is_empty()));
    g.undo();
    assert!(!g.marks(2).is_empty());
    // conflicts: two 5s in row 1
    let mut h = Game::new(&p).unwrap();
    let r1: Vec<usize> = (1..9).filter(|&c| h.given(c) == 0).collect();
    h.set(r1[0], 5).unwrap();
    h.set(r1[1], 5).unwrap();
    assert!(h.conflicts().contains(&r1[0]) && h.conflicts().contains(&r1[1]));
    // reveal
    h.reveal(r1[0]).unwrap();
    assert_eq!(h.check(r1[0]), Check::Right);
    assert!(h.reveal(0).is_err());
    h.reveal_all();
    assert!(h.is_solved());
    assert!(h.undo());
    assert!(!h.is_solved());
    // the redo list survives a save
    h.undo();
    let back = Game::load(&h.save()).unwrap();
    assert!(back.can_redo());
}

#[test]
fn refuses_bad_puzzles() {
    let none = Puzzle::parse_line(
        "12345678.........9...............................................................",
        None,
    )
    .unwrap();
    assert_eq!(Game::new(&none), Err(PlayError::NoSolution));
    let multi = Puzzle::parse_line(&".".repeat(81), None).unwrap();
    assert_eq!(Game::new(&multi), Err(PlayError::NotUnique));
}

fn generated(rules: Rules) -> Puzzle {
    let opts = crate::generate::GenerateOptions {
        rules,
        symmetry: crate::generate::GivensSymmetry::None,
        minimal: true,
        attempts: 200,
    };
    (1..)
        .find_map(|seed| crate::generate::generate_rated(&opts, seed, None))
        .expect("a puzzle")
        .0
}

#[test]
fn variants_follow_every_unit() {
    let rules = Rules::standard(9).unwrap().with_diagonal();
    let p = generated(rules.clone());
    let mut g = Game::new(&p).unwrap();
    assert_eq!(g.rules(), &rules);
    // two equal digits on the main diagonal, in different rows, columns
    // and boxes: a conflict only under the diagonal rule
    let diag: Vec<usize> = (0..9)
        .map(|i| i * 10)
        .filter(|&c| g.given(c) == 0)
        .collect();
    let (a, b) = diag
        .iter()
        .flat_map(|&a| diag.iter().map(move |&b| (a, b)))
        .find(|&(a, b)| a / 9 / 3 != b / 9 / 3)
        .expect("two empty diagonal cells in different boxes");
    let d = g.doc.solution[a];
    g.set(a, d).unwrap();
    g.set(b, d).unwrap();
    // (the cells of the main diagonal share no row or column)
    assert!(g.conflicts().contains(&a) && g.conflicts().contains(&b));
    g.undo();
    // candidates leave out what the diagonal holds
    g.fill_marks();
    let on_diag: Vec<u8> = (0..9)
        .map(|i| g.grid().get(i * 10))
        .filter(|&x| x != 0)
        .collect();
    for &c in &diag {
        if g.grid().get(c) == 0 {
            assert!(g.marks(c).iter().all(|m| !on_diag.contains(m)), "{c}");
        }
    }
    // hints are for plain 9x9; the rules survive a save
    assert!(g.hint().is_none());
    let back = Game::load(&g.save()).unwrap();
    assert_eq!(back, g);
    assert!(back.rules().is_diagonal());
    // windoku: a window's digits leave the candidates of its cells
    let w = Rules::standard(9).unwrap().with_windoku().unwrap();
    let mut g = Game::new(&generated(w)).unwrap();
    g.fill_marks();
    let window: Vec<usize> = (1..4)
        .flat_map(|r| (1..4).map(move |c| r * 9 + c))
        .collect();
    let held: Vec<u8> = window
        .iter()
        .map(|&c| g.grid().get(c))
        .filter(|&x| x != 0)
        .collect();
    for &c in &window {
        assert!(g.marks(c).iter().all(|m| !held.contains(m)));
    }
    assert!(Game::load(&g.save()).unwrap().rules().is_windoku());
    // 6x6 with its 2x3 boxes, and a jigsaw refused
    let six = Game::new(&generated(Rules::standard(6).unwrap())).unwrap();
    assert!(six.save().contains("\"box\":[2,3]"));
    let j = Rules::jigsaw(4, "AABBAABBCCDDCCDD").unwrap();
    let jp = Puzzle {
        rules: j,
        givens: crate::grid::Grid::empty(4),
    };
    assert!(matches!(Game::new(&jp), Err(PlayError::Unsupported(_))));
}

#[test]
fn forged_saves_are_refused() {
    let p = Puzzle::parse_line(P, None).unwrap();
    let mut g = Game::new(&p).unwrap();
    g.set(1, 3).unwrap();
    g.fill_marks();
    let saved = g.save();
    let v: serde_json::Value = serde_json::from_str(&saved).unwrap();
    let forge = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut w = v.clone();
        f(&mut w);
        Game::load(&w.to_string())
    };
    assert!(forge(&|_| {}).is_ok());
    type Forge = Box<dyn Fn(&mut serde_json::Value)>;
    let bad: Vec<(&str, Forge)> = vec![
        ("size 5 has no boxes", Box::new(|w| w["size"] = 5.into())),
        ("size 0", Box::new(|w| w["size"] = 0.into())),
        ("huge size", Box::new(|w| w["size"] = u64::MAX.into())),
        (
            "boxes that do not tile",
            Box::new(|w| w["box"] = serde_json::json!([2, 4])),
        ),
        (
            "windoku on 6",
            Box::new(|w| {
                w["windoku"] = true.into();
                w["size"] = 6.into();
            }),
        ),
        (
            "a digit too large",
            Box::new(|w| w["entries"][5] = 10.into()),
        ),
        (
            "a mark beyond the digits",
            Box::new(|w| w["marks"][5] = (1u32 << 9).into()),
        ),
        (
            "a short grid",
            Box::new(|w| {
                w["marks"].as_array_mut().unwrap().pop();
            }),
        ),
        (
            "a wrong solution",
            Box::new(|w| {
                let a = w["solution"][1].clone();
                w["solution"][1] = w["solution"][2].clone();
                w["solution"][2] = a;
            }),
        ),
        (
            "an empty solution cell",
            Box::new(|w| w["solution"][1] = 0.into()),
        ),
        (
            "an entry over a given",
            Box::new(|w| w["entries"][0] = 4.into()),
        ),
        (
            "a history cell out of range",
            Box::new(|w| {
                w["history"][0]["Cell"]["cell"] = 81.into();
            }),
        ),
        (
            "a history mark beyond the digits",
            Box::new(|w| {
                w["history"][0]["Cell"]["marks"] = u32::MAX.into();
            }),
        ),
        (
            "another puzzle line",
            Box::new(|w| w["puzzle"] = ".".repeat(81).into()),
        ),
    ];
    for (what, f) in &bad {
        assert!(
            matches!(forge(f.as_ref()), Err(PlayError::Load(_))),
            "{what}"
        );
    }
    // a history cell out of range would panic on undo were it let in
    assert!(forge(&|w| w["history"][0]["Cell"]["cell"] = 80.into()).is_ok());
}

#[test]
fn the_history_is_bounded() {
    let p = Puzzle::parse_line(P, None).unwrap();
    let mut g = Game::new(&p).unwrap();
    let empty = (0..81).find(|&c| g.given(c) == 0).unwrap();
    for i in 0..(MAX_SAVED_CELLS + 100) {
        g.toggle_mark(empty, (i % 9) as u8 + 1).unwrap();
    }
    let saved: usize = g.doc.history.iter().map(Change::cells).sum();
    assert!(saved <= MAX_SAVED_CELLS);
    assert!(Game::load(&g.save()).is_ok());
    // the newest changes are kept: undo takes back the last toggle
    let before = g.marks(empty);
    assert!(g.undo());
    assert_ne!(g.marks(empty), before);
    // a group larger than the bound stays, alone
    g.fill_marks();
    assert!(g.can_undo());
}

#[test]
fn games_saved_before_killers_load() {
    let p = Puzzle::parse_line(P, None).unwrap();
    let mut g = Game::new(&p).unwrap();
    g.set(1, 3).unwrap();
    let saved = g.save();
    // a plain game's save has no killer field: the form saved before killers
    assert!(!saved.contains("killer"));
    let back = Game::load(&saved).unwrap();
    assert_eq!((back.kind(), &back), (GameKind::Plain, &g));
    // and the oldest form, before variants: no box, removed or future
    let mut v: serde_json::Value = serde_json::from_str(&saved).unwrap();
    for f in ["box", "diagonal", "windoku", "removed", "future"] {
        v.as_object_mut().unwrap().remove(f);
    }
    let old = Game::load(&v.to_string()).unwrap();
    assert_eq!(old.grid(), g.grid());
    assert_eq!(old.kind(), GameKind::Plain);
}

#[test]
fn a_game_whose_flag_is_set_stops_its_uniqueness_check() {
    // a 25x25 puzzle whose count to two takes over a minute (the web's
    // `client_gone` test has it): a set flag stops it at once
    let line = concat!(
        "..PC....N...5H..M.KJ3.9.L...9..5..O.8A.P...DI..M..FDI.4..7...B6..A..G..2....H.1.K6...N...IE...LG8..P6K...G..CP9.E3.51......F.",
        ".1.2..G.B...3.F....E.I8.A3.......7E..GM6....A1.2K5..E7..K.......A.4..FMP.G.GM..PCDI..7.H...2......3FD...IN..4F..K.5..........",
        "....GP....EH......O.I3F.N.O..KJ..A....IN.EH...D.8C.IN..L..E9..B..8AD.C....18PC.D...F..K..1.....L..7.7.9...2.51..8P.4F3INJ...M",
        ".E..1.J.K....A...9.4.CGP..A.D.F.9.......PGC...1HO..N...AI.....O.7.....F.....5..M6..G.39...O...7A.....F..9.O......6.I....5.K.2",
        "1.HO5..6J.I..8D9.E4..AB...2.J.BCEP.L.9..1...H.F.ND.8..F4..L3.6.2.C.A...5....B.PA8NFI.O......62.4...3...........AC..N.F8D.....",
    );
    let p = Puzzle::parse_line(line, None).unwrap();
    let flag = Arc::new(AtomicBool::new(true));
    assert_eq!(
        Game::new_until(&p, Some(flag)).err(),
        Some(PlayError::Stopped)
    );
    // an unset flag changes nothing
    let p = Puzzle::parse_line(P, None).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let g = Game::new_until(&p, Some(flag.clone())).unwrap();
    assert_eq!(g.save(), Game::new(&p).unwrap().save());
    // and a hint within the flag is the hint
    let budget = logic::Budget::unlimited().with_cancel(flag);
    assert_eq!(g.hint_within(&budget).unwrap(), g.hint());
}
