//! The step trace of the dancing-links engine (`engines::trace`), checked
//! against the problem itself, not against the engine:
//!
//! * the traced search is the search: the same solutions in the same
//!   order, nodes and updates as the untraced engine, and the options
//!   tried are the nodes less the root;
//! * the steps replayed tell the truth: at every choice, each item's
//!   length is the number of options still compatible with the options
//!   tried above it (worked out from the problem), and the options hidden
//!   at that moment are exactly the incompatible ones;
//! * the links each step reports: a covered item's neighbours skip it while
//!   it keeps its own links, an unhidden node is pointed at again;
//! * a limit cuts the trace exactly; the moves alone are the full trace
//!   less the covering; a cancelled trace stops.

mod common;

use common::{spec_strategy, Spec};
use dancer_core::engines::trace::{trace, Action, Detail, NodeLinks, TraceOptions, TraceStop};
use dancer_core::{classic, Dlx, Engine, OptionId, Problem};
use proptest::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn all_steps(
    p: &Problem,
    detail: Detail,
) -> (Vec<Action>, Vec<usize>, dancer_core::engines::trace::Traced) {
    let mut actions = Vec::new();
    let mut levels = Vec::new();
    let opts = TraceOptions {
        detail,
        ..TraceOptions::default()
    };
    let t = trace(p, &opts, |s| {
        actions.push(s.action.clone());
        levels.push(s.level);
        true
    })
    .unwrap();
    (actions, levels, t)
}

fn text(dlx: &str) -> Problem {
    dancer_formats::dlx::read_str(dlx, "t.dlx").unwrap().problem
}

/// The untraced engine's solutions and statistics.
fn untraced(p: &Problem) -> (Vec<Vec<OptionId>>, u64, u64) {
    let mut d = Dlx::new(p).unwrap();
    let mut sols = Vec::new();
    while let Some(s) = d.next_solution() {
        sols.push(s.to_vec());
    }
    (sols, d.stats().nodes, d.stats().updates)
}

/// Can `o` join the options `chosen`? Worked out from the problem alone.
fn compatible(p: &Problem, chosen: &[OptionId], o: OptionId) -> bool {
    chosen.iter().all(|&c| {
        p.option(o).entries().all(|e| {
            p.option(c).entries().all(|f| {
                f.item != e.item || (!p.is_primary(e.item) && e.color != 0 && e.color == f.color)
            })
        })
    })
}

/// Replays the steps as a picture of them would, and checks each against
/// the problem.
fn replay(p: &Problem, actions: &[Action], levels: &[usize]) {
    let mut hidden = vec![0u32; p.n_options()];
    let mut stack: Vec<OptionId> = Vec::new();
    let mut covered = vec![false; p.n_items()];
    for (a, &level) in actions.iter().zip(levels) {
        match a {
            Action::Choose { item, len, items } => {
                assert_eq!(stack.len(), level);
                let live = |i: usize| {
                    (0..p.n_options())
                        .filter(|&o| p.is_active(o) && !stack.contains(&o))
                        .filter(|&o| p.option(o).entries().any(|e| e.item == i))
                        .filter(|&o| compatible(p, &stack, o))
                        .count() as u32
                };
                for &(i, l) in items {
                    assert!(!covered[i]);
                    assert_eq!(l, live(i), "item {i} at level {level}");
                }
                // the leftmost of the fewest
                let min = items.iter().map(|x| x.1).min().unwrap();
                let first = items.iter().find(|x| x.1 == min).unwrap();
                assert_eq!((*item, *len), *first);
                // what is hidden is what cannot join
                for o in (0..p.n_options()).filter(|&o| p.is_active(o)) {
                    let out = stack.contains(&o) || !compatible(p, &stack, o);
                    assert_eq!(hidden[o] > 0, out, "option {o} at level {level}");
                }
            }
            Action::Cover { item, links } => {
                assert!(!std::mem::replace(&mut covered[*item], true));
                skipped_in_ring(links);
            }
            Action::Uncover { item, links } => {
                assert!(std::mem::replace(&mut covered[*item], false));
                back_in_ring(links);
            }
            Action::Hide { option, links, .. } => {
                hidden[*option] += 1;
                for t in links.chunks(3) {
                    let (n, up, down) = (t[0], t[1], t[2]);
                    assert_eq!((n.up, n.down), (up.node, down.node), "its own links kept");
                    assert_eq!((up.down, down.up), (n.down, n.up), "skipped");
                }
            }
            Action::Unhide { option, links, .. } => {
                assert!(hidden[*option] > 0);
                hidden[*option] -= 1;
                for t in links.chunks(3) {
                    let (n, up, down) = (t[0], t[1], t[2]);
                    assert_eq!((up.down, down.up), (n.node, n.node), "pointed at again");
                }
            }
            Action::Try { option, k, n, .. } => {
                assert!(1 <= *k && k <= n);
                stack.truncate(level);
                stack.push(*option);
            }
            Action::Backtrack { .. } => stack.truncate(level),
            Action::Solution { options } => {
                assert_eq!(options, &stack);
                dancer_core::verify(p, options).unwrap();
            }
            Action::Purify { .. } | Action::Unpurify { .. } => {}
        }
    }
    assert!(hidden.iter().all(|&h| h == 0), "every hide undone");
    assert!(covered.iter().all(|&c| !c), "every cover undone");
}

/// `[head, prev, next]`: the neighbours skip the head, which keeps its own
/// links.
fn skipped_in_ring(l: &[NodeLinks]) {
    let (h, prev, next) = (l[0], l[1], l[2]);
    assert_eq!((h.left, h.right), (prev.node, next.node));
    assert_eq!((prev.right, next.left), (next.node, prev.node));
}

fn back_in_ring(l: &[NodeLinks]) {
    let (h, prev, next) = (l[0], l[1], l[2]);
    assert_eq!((prev.right, next.left), (h.node, h.node));
}

/// Everything about one problem's trace.
fn check(p: &Problem) {
    let (actions, levels, t) = all_steps(p, Detail::Full);
    let (sols, nodes, updates) = untraced(p);
    let traced_sols: Vec<Vec<OptionId>> = actions
        .iter()
        .filter_map(|a| match a {
            Action::Solution { options } => Some(options.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(traced_sols, sols, "the same solutions in the same order");
    assert_eq!(t.solutions, sols.len() as u64);
    let tries = actions
        .iter()
        .filter(|a| matches!(a, Action::Try { .. }))
        .count() as u64;
    assert_eq!(
        tries + 1,
        nodes,
        "every node but the root is an option tried"
    );
    assert_eq!((t.stats.nodes, t.stats.updates), (nodes, updates));
    assert_eq!(t.stopped, None);
    // the counters of the steps themselves, read when the caller stops at
    // the last one, are the engine's
    let (total, mut n) = (actions.len(), 0);
    let cut = trace(p, &TraceOptions::default(), |_| {
        n += 1;
        n < total
    })
    .unwrap();
    assert_eq!(cut.stopped, Some(TraceStop::Caller));
    assert_eq!(cut.steps as usize, total);
    assert_eq!((cut.stats.nodes, cut.stats.updates), (nodes, updates));
    assert_eq!(cut.stats.profile_trimmed(), t.stats.profile_trimmed());
    assert_eq!(cut.solutions, t.solutions);
    replay(p, &actions, &levels);
    // the moves alone: the same choices, tries, solutions and backtracks
    let (moves, _, tm) = all_steps(p, Detail::Moves);
    let filtered: Vec<Action> = actions
        .into_iter()
        .filter(|a| {
            matches!(
                a,
                Action::Choose { .. }
                    | Action::Try { .. }
                    | Action::Solution { .. }
                    | Action::Backtrack { .. }
            )
        })
        .collect();
    assert_eq!(moves, filtered);
    assert_eq!((tm.stats.nodes, tm.stats.updates), (nodes, updates));
}

#[test]
fn classic_problems_traced() {
    for n in 1..=7 {
        check(&classic::queens(n));
    }
    for n in 3..=8 {
        check(&classic::langford(n));
    }
    let toy = "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
    check(&text(toy));
    let colours = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n";
    check(&text(colours));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_problems_traced(spec in spec_strategy(12, 2)) {
        check(&spec.build());
    }

    /// Item and option order do not change what a trace must satisfy.
    #[test]
    fn permuted_problems_traced(spec in spec_strategy(10, 2), seed in any::<u64>()) {
        let p = permuted(&spec, seed).build();
        check(&p);
        // and the count of solutions stays
        let (a, _, _) = untraced(&spec.build());
        let (b, _, _) = untraced(&p);
        prop_assert_eq!(a.len(), b.len());
    }
}

/// The same problem with its options in another order and its secondary
/// items renumbered.
fn permuted(spec: &Spec, seed: u64) -> Spec {
    let mut s = spec.clone();
    let mut x = seed | 1;
    let mut next = |m: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % m.max(1) as u64) as usize
    };
    for i in (1..s.options.len()).rev() {
        let j = next(i + 1);
        s.options.swap(i, j);
    }
    let mut perm: Vec<usize> = (0..s.primary).collect();
    for i in (1..perm.len()).rev() {
        let j = next(i + 1);
        perm.swap(i, j);
    }
    for o in &mut s.options {
        for e in o.iter_mut() {
            if e.0 < s.primary {
                e.0 = perm[e.0];
            }
        }
    }
    s
}

#[test]
fn a_limit_cuts_the_trace_exactly() {
    let p = classic::queens(6);
    let (all, _, _) = all_steps(&p, Detail::Full);
    for limit in [1u64, 2, 17, 100, 1000] {
        let mut got = Vec::new();
        let opts = TraceOptions {
            limit: Some(limit),
            ..TraceOptions::default()
        };
        let t = trace(&p, &opts, |s| {
            got.push(s.action.clone());
            true
        })
        .unwrap();
        assert_eq!(got.len() as u64, limit);
        assert_eq!(got[..], all[..limit as usize]);
        assert_eq!(t.stopped, Some(TraceStop::Limit));
        let tries = got
            .iter()
            .filter(|a| matches!(a, Action::Try { .. }))
            .count() as u64;
        let (node, _) = t.at.unwrap();
        assert_eq!(node, tries + 1);
        assert_eq!(t.stats.nodes, tries + 1);
        let profile: u64 = t.stats.profile.iter().sum();
        assert_eq!(profile, tries + 1, "the profile of the steps reported");
    }
    // a limit past the end: the whole trace
    let opts = TraceOptions {
        limit: Some(all.len() as u64),
        ..TraceOptions::default()
    };
    assert_eq!(trace(&p, &opts, |_| true).unwrap().stopped, None);
}

#[test]
fn the_caller_and_the_flag_stop_a_trace() {
    let p = classic::queens(8);
    let mut n = 0;
    let t = trace(&p, &TraceOptions::default(), |_| {
        n += 1;
        n < 5
    })
    .unwrap();
    assert_eq!(t.stopped, Some(TraceStop::Caller));
    // the step the caller stopped after was reported
    assert_eq!(t.steps, 5);
    let flag = Arc::new(AtomicBool::new(true));
    let opts = TraceOptions {
        cancel: Some(flag),
        ..TraceOptions::default()
    };
    let t = trace(&p, &opts, |_| true).unwrap();
    assert_eq!(t.stopped, Some(TraceStop::Cancelled));
    assert!(t.steps < 100);
}

#[test]
fn multiplicities_are_refused() {
    let p = text("2:2|a b\na\na b\nb\n");
    assert!(trace(&p, &TraceOptions::default(), |_| true).is_err());
}
