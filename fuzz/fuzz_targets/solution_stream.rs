//! The streaming path: a split search's solutions handed on from the
//! workers to the observer (`dancer_core::parallel::run` and its hand-on)
//! on 1 to 3 threads, ordered or not, kept or counted, with or without a
//! limit, on problems made from the input with up to 20,000 solutions (so
//! that a unit's solutions fill many blocks).
//!
//! The input: a flags byte (threads, ordered, kept, a limit, the plan's
//! target), a limit byte, then two bytes an item: how many options it has
//! (1 to 4), and which earlier item each of its options also takes, if any
//! (a secondary item, or a primary one: fewer solutions).
//!
//! * Every solution handed on passes `verify`, and none comes twice.
//! * A unit's solutions come before its end, each unit ends once, and
//!   its count is what it handed on; ordered, the units come in plan
//!   order and the solutions are the sequential search's, in its order
//!   (its first ones up to the limit).
//! * Unordered without a limit, the solutions are the sequential
//!   search's; with a limit, as many as the limit or all, each one of them.
//! * Counted only (not kept), no solution is handed on, and the count is
//!   the sequential one, or the limit.
//! * The summary says how many were handed on, complete exactly when the
//!   limit cut nothing.
#![no_main]

use dancer_core::parallel::{self, Observer, RunConfig, SolutionBlock, UnitResult};
use dancer_core::{EngineKind, OptionId, Problem, ProblemBuilder};
use libfuzzer_sys::fuzz_target;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Mutex;

/// The most solutions a problem may have to be run.
const MAX_SOLUTIONS: usize = 20_000;

/// The problem the input describes: 2 bytes an item (up to 16 items).
fn problem(bytes: &[u8]) -> Option<Problem> {
    let items = (bytes.len() / 2).clamp(1, 16);
    let mut b = ProblemBuilder::new();
    let names: Vec<String> = (0..items).map(|i| format!("p{i}")).collect();
    for n in &names {
        b.primary(n).ok()?;
    }
    b.secondary("s").ok()?;
    for (i, name) in names.iter().enumerate() {
        let (count, extra) = (
            bytes.get(2 * i).copied().unwrap_or(1),
            bytes.get(2 * i + 1).copied().unwrap_or(0),
        );
        for k in 0..=(count % 4) {
            let mut option = vec![name.clone()];
            match (extra >> (2 * k)) & 3 {
                1 if i > 0 => option.push(names[usize::from(extra >> 4) % i].clone()),
                2 => option.push("s".into()),
                _ => {}
            }
            b.option(&option).ok()?;
        }
    }
    b.build().ok()
}

/// One thing handed on: a unit's index, and a block of its solutions or
/// its counters.
type Handed = (usize, Option<Vec<Vec<OptionId>>>, Option<UnitResult>);

/// What the run handed on, in order.
#[derive(Default)]
struct Collect(Mutex<Vec<Handed>>);

impl Observer for Collect {
    fn solutions(&self, index: usize, block: &SolutionBlock) {
        let sols = block.iter().map(<[_]>::to_vec).collect();
        self.0.lock().unwrap().push((index, Some(sols), None));
    }
    fn unit(&self, r: &UnitResult) {
        self.0
            .lock()
            .unwrap()
            .push((r.index, None, Some(r.clone())));
    }
    fn wants_progress(&self) -> bool {
        false
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 || data.len() > 64 {
        return;
    }
    let (flags, limit_byte) = (data[0], data[1]);
    let Some(p) = problem(&data[2..]) else {
        return;
    };
    let engine = EngineKind::Dlx;
    let mut e = engine.build(&p).unwrap();
    let mut seq: Vec<Vec<OptionId>> = Vec::new();
    while let Some(s) = e.next_solution() {
        seq.push(s.to_vec());
        if seq.len() > MAX_SOLUTIONS {
            return;
        }
    }
    let threads = 1 + usize::from(flags % 3);
    let ordered = flags & 4 != 0;
    let keep = flags & 8 != 0;
    let limit = match (flags >> 4) & 3 {
        0 => None,
        1 => Some(1 + u64::from(limit_byte)),
        2 => Some(1 + u64::from(limit_byte) * 97),
        _ => Some(seq.len() as u64 + 1),
    };
    let target = [1, 4, 64, 512][usize::from(flags >> 6)];
    let plan = parallel::plan(&p, engine, target, 8).unwrap();
    let selected: Vec<usize> = (0..plan.units.len()).collect();
    let cfg = RunConfig {
        engine,
        threads,
        ordered,
        limit,
        keep,
        ..Default::default()
    };
    let obs = Collect::default();
    let sum = parallel::run(&p, &plan, &selected, &cfg, &obs).unwrap();
    let want = limit.map_or(seq.len() as u64, |l| l.min(seq.len() as u64));
    assert_eq!(sum.solutions, want, "solutions handed on");
    // a limit reached stops the search, even at its last solution
    let whole = limit.is_none_or(|l| l > seq.len() as u64);
    assert_eq!(sum.complete, whole, "complete");
    let mut handed: Vec<Vec<OptionId>> = Vec::new();
    let mut ended = BTreeSet::new();
    let mut of_unit: HashMap<usize, u64> = HashMap::new();
    let mut last = 0usize;
    for (index, sols, unit) in obs.0.into_inner().unwrap() {
        if ordered {
            assert!(index >= last, "unit {index} after unit {last}");
            last = index;
        }
        assert!(
            !ended.contains(&index),
            "unit {index}: handed on after its end"
        );
        if let Some(sols) = sols {
            assert!(keep, "solutions handed on while only counting");
            assert!(!sols.is_empty(), "an empty block");
            *of_unit.entry(index).or_default() += sols.len() as u64;
            handed.extend(sols);
        }
        if let Some(r) = unit {
            ended.insert(index);
            if keep {
                let n = of_unit.get(&index).copied().unwrap_or(0);
                assert_eq!(r.stats.solutions, n, "unit {index}'s count");
            }
        }
    }
    if !keep {
        return;
    }
    assert_eq!(handed.len() as u64, want, "solutions listed");
    let mut seen = HashSet::new();
    for s in &handed {
        dancer_core::verify(&p, s).unwrap();
        assert!(seen.insert(s.clone()), "a solution twice: {s:?}");
    }
    if ordered {
        assert_eq!(handed[..], seq[..handed.len()], "the sequential order");
    } else {
        let all: HashSet<&Vec<OptionId>> = seq.iter().collect();
        assert!(
            handed.iter().all(|s| all.contains(s)),
            "a solution of the search"
        );
    }
});
