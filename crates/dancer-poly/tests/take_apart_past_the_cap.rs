//! A solution whose disassembly passes the states it may visit: handed on
//! saying so, counted apart from those that do not come apart, and the run
//! goes on with the next solution (once the run stopped with an error and
//! what it had found was lost).

use dancer_formats::ndjson::{PolyRecord, Undecided as Said};
use dancer_poly::burr::{TakeApart, Undecided};
use dancer_poly::model::Options;
use dancer_poly::pictures::Pictures;
use dancer_poly::run::{ShowAs, Shown, SolveRun};
use dancer_poly::{parse, Model};

/// Three cubes of their own locked in a cage (a 5x5x5 box's shell) with a
/// room of 27 cells: they slide about inside for ever (some 17,550
/// arrangements) and never come out.
fn cage() -> Model {
    let mut shell = Vec::new();
    let mut room = Vec::new();
    for z in 0..5 {
        for y in 0..5 {
            for x in 0..5 {
                let c = format!("[{x}, {y}, {z}]");
                match [x, y, z].iter().any(|&v| v == 0 || v == 4) {
                    true => shell.push(c),
                    false => room.push(c),
                }
            }
        }
    }
    let all: Vec<String> = shell.iter().chain(&room).cloned().collect();
    let mut text = format!(
        "grid = \"cube\"\n[board]\ncells = [{}]\nholes = [{}]\n[[piece]]\nname = \"cage\"\ncells = [{}]\n",
        all.join(", "),
        room[3..].join(", "),
        shell.join(", ")
    );
    for k in 0..3 {
        text += &format!("[[piece]]\nname = \"q{k}\"\ncells = [[0, 0, 0]]\n");
    }
    Model::new(parse(&text, "cage.toml").unwrap()).unwrap()
}

/// A front end's error: the search's or the puzzle's.
#[derive(Debug)]
#[allow(dead_code)]
enum Failed {
    Engine(dancer_core::EngineError),
    Puzzle(dancer_poly::PolyError),
}

impl From<dancer_core::EngineError> for Failed {
    fn from(e: dancer_core::EngineError) -> Failed {
        Failed::Engine(e)
    }
}

impl From<dancer_poly::PolyError> for Failed {
    fn from(e: dancer_poly::PolyError) -> Failed {
        Failed::Puzzle(e)
    }
}

#[test]
fn a_solution_past_the_state_cap_is_handed_on_and_the_run_goes_on() {
    let m = cage();
    let apart = TakeApart::new(&m, None).unwrap().with_max_states(1000);
    assert_eq!(apart.max_states(4), 1000);
    let mut run = SolveRun {
        options: Options::default(),
        show: ShowAs::Record,
        pictures: Pictures::new(None, None, false, None),
        take_apart: Some(apart),
    };
    let mut seen = Vec::new();
    let end = run
        .run(&m, |shown, _| {
            seen.push(shown);
            Ok::<_, Failed>(())
        })
        .unwrap();
    // every solution handed on, each saying it was not taken apart
    assert_eq!(seen.len(), 6);
    for (k, shown) in seen.iter().enumerate() {
        let Some(Shown::Record(PolyRecord::Solution {
            number,
            disassembly: Some(d),
            ..
        })) = shown
        else {
            panic!("a solution record: {shown:?}");
        };
        assert_eq!(*number, k as u64 + 1);
        assert_eq!((d.apart, d.undecided), (false, Some(Said::States)));
    }
    assert_eq!(end.past_cap, vec![1, 2, 3, 4, 5, 6]);
    assert_eq!((end.disassemblies, end.undecided()), (Some(0), 6));
    assert!(!end.cancelled && end.stopped.is_none());
    let PolyRecord::Summary {
        disassemblies,
        undecided,
        complete,
        ..
    } = end.record(&m)
    else {
        panic!("a summary");
    };
    assert_eq!(
        (disassemblies, undecided, complete),
        (Some(0), Some(6), true)
    );
    assert_eq!(
        end.apart_summary(false).unwrap(),
        "0 of the 6 solutions come apart; 6 not taken apart (6 past the states a disassembly may visit)"
    );
    // within the default cap, the same solutions are taken apart: none
    // comes apart, and that is known
    let mut t = TakeApart::new(&m, None).unwrap();
    let mut sol = Vec::new();
    m.solve(&Options::default(), |s| {
        sol = s.to_vec();
        false
    })
    .unwrap();
    let a = t.take_apart(&m, &sol, None).unwrap();
    assert_eq!((a.disassembly, a.undecided), (None, None));
    let capped = TakeApart::new(&m, None).unwrap().with_max_states(10);
    let a = { capped }.take_apart(&m, &sol, None).unwrap();
    assert_eq!(a.undecided, Some(Undecided::States { limit: 10 }));
    assert_eq!(
        TakeApart::new(&m, None).unwrap().text(&m, &sol, &a),
        "not taken apart: its search passed 10 states\n"
    );
}
