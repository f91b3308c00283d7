//! What the fuzz targets share: running every engine on a small problem
//! within a budget and checking what each reports, the round trip of a
//! problem through the DLX and JSON writers, and the checks of an error's
//! place in the text.
//!
//! Every check panics with a message that says what broke, so that
//! libFuzzer records the input as a crash.

use dancer_core::{verify, Engine, EngineError, EngineKind, Event, OptionId, Problem};
use dancer_formats::{dlx, json, Location};
use std::collections::BTreeSet;

/// Inputs larger than this are skipped (the formats' interesting cases are
/// all small, and small inputs keep the executions per second high).
pub const MAX_INPUT: usize = 4096;
/// Problems with more options than this are read and written back, not solved.
pub const MAX_OPTIONS: usize = 60;
/// Problems with more items than this are read and written back, not solved.
pub const MAX_ITEMS: usize = 30;
/// An engine stops counting at this many solutions (its run is then
/// incomplete, and only compared on what it found).
pub const MAX_SOLUTIONS: u64 = 256;
/// An engine stops after about this many nodes.
pub const NODE_BUDGET: u64 = 50_000;
/// How often (in nodes) an engine pauses so that the budget is looked at.
const PAUSE: u64 = 1024;

/// What an engine found within the budget.
#[derive(Debug)]
pub struct Run {
    pub engine: EngineKind,
    /// The solutions, each as its sorted options.
    pub solutions: BTreeSet<Vec<OptionId>>,
    /// The search ran to the end (no budget or cap hit).
    pub complete: bool,
}

/// Runs `kind` on `problem` and checks everything it reports: each
/// solution passes [`verify`], none is reported twice, the engine's own
/// count agrees, and a search run to its end says it is complete. `None`
/// when the engine refuses the problem, which it may only do with the
/// typed refusal that [`EngineKind::check`] gives.
pub fn run_engine(problem: &Problem, kind: EngineKind) -> Option<Run> {
    let mut engine: Box<dyn Engine + '_> = match kind.build(problem) {
        Ok(e) => e,
        Err(e @ EngineError::Unsupported { .. }) => {
            assert_eq!(
                kind.check(problem),
                Err(e.clone()),
                "{kind}: build and check disagree on {problem:?}"
            );
            assert!(kind != EngineKind::Auto, "auto refused a problem: {e}");
            return None;
        }
        Err(e) => panic!("{kind}: unexpected error building the engine: {e}"),
    };
    if kind == EngineKind::Auto {
        let chosen = kind.resolve(problem).expect("auto resolves");
        assert!(chosen != EngineKind::Auto && chosen.supports(problem));
    } else {
        assert!(
            kind.supports(problem),
            "{kind} built for a problem it does not support"
        );
    }
    engine.set_pause(Some(PAUSE));
    let mut solutions = BTreeSet::new();
    let mut reported = 0u64;
    let mut complete = true;
    loop {
        match engine.next_event() {
            None => break,
            Some(Event::Solution(s)) => {
                if let Err(e) = verify(problem, s) {
                    panic!("{kind}: wrong solution {s:?} of {problem:?}: {e}");
                }
                let mut sorted = s.to_vec();
                sorted.sort_unstable();
                if !solutions.insert(sorted) {
                    panic!("{kind}: solution {s:?} reported twice");
                }
                reported += 1;
                if reported >= MAX_SOLUTIONS {
                    complete = false;
                    break;
                }
            }
            Some(Event::Pause) => {
                if engine.stats().nodes >= NODE_BUDGET {
                    complete = false;
                    break;
                }
            }
            Some(Event::Frontier(..)) => panic!("{kind}: a frontier event without a frontier"),
        }
    }
    if complete {
        assert!(
            engine.is_complete(),
            "{kind}: the search ended but is not complete"
        );
        assert!(!engine.is_cancelled(), "{kind}: cancelled without a flag");
        assert_eq!(
            engine.stats().solutions,
            reported,
            "{kind}: its statistics count other solutions than it reported"
        );
    }
    Some(Run {
        engine: kind,
        solutions,
        complete,
    })
}

/// Runs every engine (and `auto`) that takes `problem` and checks that
/// they agree: the same solutions when both ran to the end, and no engine
/// that ran to the end missing a solution another one found. Returns the
/// number of solutions when some engine ran to the end.
pub fn solve_with_every_engine(problem: &Problem) -> Option<u64> {
    let mut runs = Vec::new();
    for &kind in [EngineKind::Auto].iter().chain(EngineKind::ALL) {
        if let Some(r) = run_engine(problem, kind) {
            runs.push(r);
        }
    }
    assert!(
        runs.iter().any(|r| r.engine == EngineKind::Dlxm),
        "dlxm takes every problem"
    );
    let full: Vec<&Run> = runs.iter().filter(|r| r.complete).collect();
    for a in &full {
        for b in &runs {
            if let Some(missing) = b.solutions.difference(&a.solutions).next() {
                panic!(
                    "{} (complete, {} solutions) misses solution {missing:?} that {} found",
                    a.engine,
                    a.solutions.len(),
                    b.engine
                );
            }
            if b.complete {
                assert_eq!(
                    a.solutions.len(),
                    b.solutions.len(),
                    "engines {} and {} disagree on the count",
                    a.engine,
                    b.engine
                );
            }
        }
    }
    let count = full.first().map(|r| r.solutions.len() as u64);
    let links = dancer_core::links_engine(problem);
    if let (Some(c), true) = (count, full.iter().any(|r| r.engine == links)) {
        // the library's one-call shortcut too (it runs the links engine,
        // which ran to the end within the budget)
        assert_eq!(
            dancer_core::count(problem),
            c,
            "dancer_core::count disagrees"
        );
    }
    count
}

/// Whether a problem is small enough to solve here.
pub fn is_small(problem: &Problem) -> bool {
    problem.n_options() <= MAX_OPTIONS && problem.n_items() <= MAX_ITEMS
}

/// The items, bounds and options of two problems are the same.
pub fn assert_same_problem(a: &Problem, b: &Problem, what: &str) {
    assert_eq!(
        (a.n_primary(), a.n_secondary(), a.n_options(), a.n_entries()),
        (b.n_primary(), b.n_secondary(), b.n_options(), b.n_entries()),
        "{what}: primary, secondary items, options or entries changed"
    );
    for i in 0..a.n_items() {
        assert_eq!(a.item_name(i), b.item_name(i), "{what}: item {i} renamed");
        assert_eq!(
            a.bounds(i),
            b.bounds(i),
            "{what}: bounds of item {i} changed"
        );
    }
    for k in 0..a.n_options() {
        assert_eq!(
            a.option_text(k),
            b.option_text(k),
            "{what}: option {k} changed"
        );
        assert_eq!(
            a.is_active(k),
            b.is_active(k),
            "{what}: option {k} (in)active"
        );
    }
    assert_eq!(
        dancer_runs::search::fingerprint(a),
        dancer_runs::search::fingerprint(b),
        "{what}: the fingerprint changed"
    );
}

/// Writes `problem` with the DLX writer (with a comment) and the JSON
/// writer, reads each back, and checks it is the same problem, written
/// the same way again, with the same number of solutions (`count`, when
/// it is known).
pub fn check_round_trip(problem: &Problem, count: Option<u64>) {
    // no problem has an option without entries (which the DLX format
    // cannot write: a blank line is not an option)
    assert!(
        (0..problem.n_options()).all(|k| !problem.option(k).is_empty()),
        "a problem with an empty option was built"
    );
    let text = dlx::to_string(problem, Some("written by the fuzzer\n| a comment line"));
    let again = match dlx::read_str(&text, "again.dlx") {
        Ok(p) => p.problem,
        Err(e) => panic!("the DLX writer's output does not read back: {e}\n{text}"),
    };
    assert_same_problem(problem, &again, "DLX round trip");
    assert_eq!(
        dlx::to_string(&again, Some("written by the fuzzer\n| a comment line")),
        text,
        "DLX round trip: written differently the second time"
    );
    check_json_round_trip(problem);
    if let (Some(c), true) = (count, is_small(&again)) {
        if let Some(r) = run_engine(&again, dancer_core::links_engine(&again)) {
            if r.complete {
                assert_eq!(
                    r.solutions.len() as u64,
                    c,
                    "DLX round trip: another number of solutions"
                );
            }
        }
    }
}

/// Writes `problem` with the JSON writer, reads it back and checks it is
/// the same problem, written the same way again.
pub fn check_json_round_trip(problem: &Problem) {
    let doc = json::to_string(problem);
    let again = match json::read(doc.as_bytes(), "again.json") {
        Ok(p) => p.problem,
        Err(e) => panic!("the JSON writer's output does not read back: {e}\n{doc}"),
    };
    assert_same_problem(problem, &again, "JSON round trip");
    assert_eq!(
        json::to_string(&again),
        doc,
        "JSON round trip: written differently"
    );
}

/// Checks that `at` is a place in `text`: line and column 1-based, the
/// line one of the text's (or the one after its last newline), the column
/// at most one past the line's last character (columns count characters).
pub fn check_location(text: &[u8], at: &Location, what: &str) {
    assert!(
        at.line >= 1 && at.col >= 1,
        "{what}: location {at} is not 1-based"
    );
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    assert!(
        at.line <= lines.len(),
        "{what}: line {} of a text of {} lines",
        at.line,
        lines.len()
    );
    let line = lines[at.line - 1];
    // characters, as String::from_utf8_lossy sees them
    let chars = String::from_utf8_lossy(line).chars().count();
    assert!(
        at.col <= chars + 1,
        "{what}: column {} of line {} which has {chars} characters ({at})",
        at.col,
        at.line
    );
}
