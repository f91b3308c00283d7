//! Tests of the gattai game: moves on a canvas with dead cells, hints,
//! save and load, forged saves.

use super::*;
use crate::killer::KillerHint;
use crate::play::Check;

/// A generated twodoku and its solution.
fn twodoku() -> (GattaiPuzzle, Vec<u8>) {
    let shape = Shape::builtin("twodoku").unwrap();
    let g = gattai::generate(&shape, 7, None).unwrap();
    (g.puzzle, g.solution)
}

/// The first dead cell of a shape's canvas.
fn dead(s: &Shape) -> usize {
    s.live().iter().position(|&l| !l).unwrap()
}

#[test]
fn a_gattai_game() {
    let (p, solution) = twodoku();
    let mut g = Game::new_gattai(&p).unwrap();
    assert_eq!(g.kind(), GameKind::Gattai);
    assert_eq!(g.cell_count(), 15 * 15);
    let sol = g.doc.solution.clone();
    let live = p.shape.live();
    for c in 0..sol.len() {
        assert_eq!(sol[c] != 0, live[c]);
        if live[c] {
            assert_eq!(sol[c], solution[c]);
        }
    }
    // dead cells are not played
    let d = dead(&p.shape);
    assert!(!g.is_live(d));
    assert_eq!(g.set(d, 1), Err(PlayError::NoSuchCell(d)));
    assert_eq!(g.toggle_mark(d, 1), Err(PlayError::NoSuchCell(d)));
    assert_eq!(g.reveal(d), Err(PlayError::NoSuchCell(d)));
    assert_eq!(g.set(15 * 15, 1), Err(PlayError::NoSuchCell(15 * 15)));
    // moves, a mistake, undo
    let e = (0..sol.len())
        .find(|&c| live[c] && g.given(c) == 0)
        .unwrap();
    assert_eq!(g.set(e, sol[e]).unwrap(), Check::Right);
    let f = (e + 1..sol.len())
        .find(|&c| live[c] && g.given(c) == 0)
        .unwrap();
    let wrong = if sol[f] == 9 { 8 } else { 9 };
    assert_eq!(g.set(f, wrong).unwrap(), Check::Wrong);
    assert_eq!(g.mistakes(), vec![f]);
    assert_eq!(g.gattai_hint(), Some(KillerHint::NoSolution));
    assert!(g.undo());
    assert!(g.mistakes().is_empty());
    g.toggle_mark(f, 4).unwrap();
    assert_eq!(g.marks(f), vec![4]);
    assert!(g.undo() && g.redo() && g.undo());
    // filled-in marks: none on dead cells, the answer in every empty cell
    g.fill_marks();
    for c in 0..sol.len() {
        if !live[c] {
            assert_eq!(g.doc.marks[c], 0);
        } else if g.values()[c] == 0 {
            assert_ne!(g.doc.marks[c] >> (sol[c] - 1) & 1, 0);
        }
    }
    assert!(g.undo());
    // a digit twice in the shared box (r7c7 to r9c9, in both grids)
    // conflicts
    let bx: Vec<usize> = (0..9).map(|k| (6 + k / 3) * 15 + 6 + k % 3).collect();
    let empty: Vec<usize> = bx.iter().copied().filter(|&c| g.given(c) == 0).collect();
    let mut h = g.clone();
    h.set(empty[0], 5).unwrap();
    h.set(empty[1], 5).unwrap();
    assert!(h.conflicts().contains(&empty[0]) && h.conflicts().contains(&empty[1]));
    // the plain and killer hints are not for gattai games
    assert!(g.hint().is_none() && g.killer_hint().is_none());
    // hints lead on and keep the solution
    let mut steps = 0;
    while let Some(KillerHint::Step(step)) = g.gattai_hint() {
        g.apply_killer(&step);
        assert!(g.mistakes().is_empty(), "a hint made a mistake");
        for c in 0..sol.len() {
            if live[c] && g.values()[c] == 0 {
                assert_eq!(
                    g.doc.removed[c] >> (sol[c] - 1) & 1,
                    0,
                    "removed the answer"
                );
            }
        }
        steps += 1;
        assert!(steps < 3000);
    }
    assert!(steps > 0);
    if g.is_solved() {
        assert_eq!(g.gattai_hint(), Some(KillerHint::Solved));
    }
    g.reveal_all();
    assert!(g.is_solved());
    // save and load
    let back = Game::load(&g.save()).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.gattai_puzzle(), Some(p.clone()));
    while g.undo() {}
    assert_eq!(g.values(), p.givens);
}

#[test]
fn games_need_one_solution_on_a_builtin_shape() {
    let shape = Shape::builtin("twodoku").unwrap();
    let empty = GattaiPuzzle {
        givens: vec![0; shape.height * shape.width],
        shape: shape.clone(),
    };
    assert_eq!(Game::new_gattai(&empty), Err(PlayError::NotUnique));
    let stop = Arc::new(AtomicBool::new(true));
    let r = Game::new_gattai_until(&empty, Some(stop));
    assert!(
        matches!(r, Err(PlayError::Stopped | PlayError::NotUnique)),
        "{r:?}"
    );
    // a generated game starts from the generator's solution
    let shape = Shape::builtin("flower").unwrap();
    let made = gattai::generate(&shape, 3, None).unwrap();
    let g = Game::new_gattai_generated(&made).unwrap();
    assert_eq!(g, Game::new_gattai(&made.puzzle).unwrap());
    let mut wrong = made.clone();
    let c = (0..wrong.solution.len())
        .find(|&c| wrong.solution[c] != 0)
        .unwrap();
    wrong.solution[c] = wrong.solution[c] % 9 + 1;
    assert!(Game::new_gattai_generated(&wrong).is_err());
    let (mut p, _) = twodoku();
    p.shape.name = "mine".into();
    assert!(matches!(
        Game::new_gattai(&p),
        Err(PlayError::Unsupported(_))
    ));
}

#[test]
fn forged_gattai_saves_are_refused() {
    let (p, _) = twodoku();
    let mut g = Game::new_gattai(&p).unwrap();
    let live = p.shape.live();
    let e = (0..live.len())
        .find(|&c| live[c] && g.given(c) == 0)
        .unwrap();
    g.set(e, g.doc.solution[e]).unwrap();
    let v: serde_json::Value = serde_json::from_str(&g.save()).unwrap();
    let forge = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut w = v.clone();
        f(&mut w);
        Game::load(&w.to_string())
    };
    assert_eq!(forge(&|_| {}).unwrap(), g);
    let d = dead(&p.shape);
    let given = (0..live.len()).find(|&c| g.given(c) != 0).unwrap();
    let other = (0..live.len())
        .find(|&c| live[c] && g.given(c) == 0 && g.doc.solution[c] != g.doc.solution[e])
        .unwrap();
    let (se, so) = (g.doc.solution[e], g.doc.solution[other]);
    type Forgery = Box<dyn Fn(&mut serde_json::Value)>;
    let bad: Vec<(&str, Forgery)> = vec![
        ("unknown shape", Box::new(|w| w["gattai"] = "nine".into())),
        (
            "a huge name",
            Box::new(|w| w["gattai"] = "x".repeat(1 << 20).into()),
        ),
        (
            "another shape",
            Box::new(|w| w["gattai"] = "samurai".into()),
        ),
        ("not a name", Box::new(|w| w["gattai"] = 3.into())),
        ("another size", Box::new(|w| w["size"] = 4.into())),
        (
            "an entry on a dead cell",
            Box::new(move |w| w["entries"][d] = 1.into()),
        ),
        (
            "a mark on a dead cell",
            Box::new(move |w| w["marks"][d] = 1.into()),
        ),
        (
            "a solution on a dead cell",
            Box::new(move |w| w["solution"][d] = 1.into()),
        ),
        (
            "two answers swapped",
            Box::new(move |w| {
                w["solution"][e] = so.into();
                w["solution"][other] = se.into();
            }),
        ),
        (
            "a given taken off",
            Box::new(move |w| w["givens"][given] = 0.into()),
        ),
        (
            "a history on a dead cell",
            Box::new(move |w| w["history"][0]["Cell"]["cell"] = d.into()),
        ),
        ("cages", Box::new(|w| w["killer"] = "aabb 3,3".into())),
        ("short", Box::new(|w| w["removed"] = vec![0; 81].into())),
    ];
    for (what, f) in bad {
        let r = forge(&*f);
        assert!(matches!(r, Err(PlayError::Load(_))), "{what}: {r:?}");
    }
    // without its shape, the save is no plain game either
    let plain = forge(&|w| {
        w.as_object_mut().unwrap().remove("gattai");
    });
    assert!(matches!(plain, Err(PlayError::Load(_))), "{plain:?}");
    // a removed candidate that is the answer is not given to the hints
    let sol = g.doc.solution.clone();
    let c = (0..live.len())
        .find(|&c| live[c] && g.values()[c] == 0)
        .unwrap();
    let forged = forge(&|w| w["removed"][c] = (1u32 << (sol[c] - 1)).into()).unwrap();
    assert!(matches!(forged.gattai_hint(), Some(KillerHint::Step(_))));
}
