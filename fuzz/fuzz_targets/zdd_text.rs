//! ZDD files, as `dancer zdd` reads them: `dancer_core::zdd::Zdd::parse` on
//! any bytes, and on ZDDs of any size and shape made from the input.
//!
//! An input that starts with `#shape` describes a ZDD instead of being one:
//! two bytes of node count (up to 4,000), then for each node three bytes
//! taken round the rest of the input, its variable (1 to 64) and two
//! choices among the nodes before it and the terminals, for LO and HI.
//! That reaches the shapes the text fuzzer finds slowly: long chains,
//! doublings whose counts grow to thousands of bits, wide fans, variables
//! repeated on a path.
//!
//! * An error has a place inside the text (line and column 1-based).
//! * `count` with all the memory it likes is `Ok` exactly when no path
//!   names an option twice; listing (`for_each`, up to 512) then gives
//!   solutions of distinct options, exactly as many as the count when they
//!   are fewer, in the order `solution(r)` numbers them; a draw (`sample`)
//!   is one of them, and there is one exactly when the count is not zero.
//!   When a path repeats an option, `count` says so at a node's line, and
//!   listing, numbering and drawing fail the same way or list only paths
//!   without repeats.
//! * A budget never changes an answer: `count` and `counted` within a small
//!   budget give the same count, or a `Memory` error (the table of every
//!   count refused only when its estimate is over the budget); a set
//!   cancel flag gives `Cancelled` or the answer.
//! * `parse_within` refuses exactly what its estimate (`READ_BYTES_PER_NODE`
//!   a node, the text's length over 10 nodes) puts over its budget.
#![no_main]

use dancer_core::rng::{Draw, SplitMix64};
use dancer_core::zdd::{Zdd, ZddError, READ_BYTES_PER_NODE};
use dancer_core::Count;
use dancer_fuzz::MAX_INPUT;
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

const MAX_LISTED: usize = 512;
const ALL: u64 = u64::MAX;

/// The ZDD text an input starting with `#shape` describes.
fn shape(data: &[u8]) -> Vec<u8> {
    let rest = &data[6..];
    if rest.len() < 3 {
        return b"2: (~1?0:1)\n".to_vec();
    }
    let n = (usize::from(rest[0]) << 8 | usize::from(rest[1])).min(4_000);
    let bytes = &rest[2..];
    let byte = |i: usize| bytes.get(i % bytes.len().max(1)).copied().unwrap_or(0);
    let mut t = String::with_capacity(n * 24);
    for k in 0..n {
        let var = byte(3 * k) % 64 + 1;
        // among the terminals and the nodes before, the nearer ones likelier
        let pick = |b: u8| -> String {
            let b = usize::from(b);
            if b < 16 || k == 0 {
                (b % 2).to_string()
            } else {
                let back = 1 + (b - 16) % k.min(240);
                format!("{:x}", k + 2 - back)
            }
        };
        let (lo, hi) = (pick(byte(3 * k + 1)), pick(byte(3 * k + 2)));
        t.push_str(&format!("{:x}: (~{var}?{lo}:{hi})\n", k + 2));
    }
    t.into_bytes()
}

fn check_place(data: &[u8], e: &ZddError) {
    let Some((line, column)) = e.place() else {
        panic!("a text error without a place: {e}");
    };
    let lines = data.split(|&b| b == b'\n').count();
    assert!(
        line >= 1 && line <= lines.max(1),
        "line {line} of {lines}: {e}"
    );
    assert!(column >= 1, "{e}");
    if data
        .split(|&b| b == b'\n')
        .any(|l| !l.iter().all(u8::is_ascii_whitespace))
    {
        let text = data.split(|&b| b == b'\n').nth(line - 1).unwrap_or(&[]);
        assert!(
            column <= text.len() + 1,
            "column {column} of {}: {e}",
            text.len()
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let text = if data.starts_with(b"#shape") {
        shape(data)
    } else if data.len() > MAX_INPUT {
        return;
    } else {
        data.to_vec()
    };
    // the reader's own budget: refused exactly by its estimate
    let estimate = (text.len() as u64 / 10 + 1) * READ_BYTES_PER_NODE;
    match Zdd::parse_within(&text, estimate - 1) {
        Err(ZddError::Memory { needed, .. }) => assert_eq!(needed, estimate),
        r => panic!("a budget below the estimate read: {r:?}"),
    }
    let z = match Zdd::parse(&text) {
        Err(e) => {
            check_place(&text, &e);
            assert!(Zdd::parse_within(&text, estimate).is_err());
            return;
        }
        Ok(z) => z,
    };
    assert!(Zdd::parse_within(&text, estimate).is_ok());
    let counted = z.count(ALL, None);
    let mut listed: Vec<Vec<usize>> = Vec::new();
    let listing = z.for_each::<()>(|s| {
        let distinct: HashSet<&usize> = s.iter().collect();
        assert_eq!(
            distinct.len(),
            s.len(),
            "a listed solution names an option twice: {s:?}"
        );
        listed.push(s.to_vec());
        if listed.len() >= MAX_LISTED {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let count = match (&counted, &listing) {
        (Ok(c), Ok(_)) => c.clone(),
        (Err(e), _) => {
            // a path names an option twice: said at a node's line; listing
            // fails the same way unless it stopped before that path
            check_place(&text, e);
            assert!(e.to_string().contains("named twice"), "{e}");
            if let Err(l) = &listing {
                check_place(&text, l);
            } else {
                assert!(
                    listed.len() >= MAX_LISTED,
                    "every path listed, none repeats: {e}"
                );
            }
            return;
        }
        (Ok(c), Err(l)) => panic!("counted {c} but listing found a repeat: {l}"),
    };
    assert_eq!(count.is_zero(), z.is_empty(), "is_empty");
    if listed.len() < MAX_LISTED {
        assert_eq!(
            Count::from(listed.len() as u64),
            count,
            "listed against counted"
        );
    } else {
        assert!(count.to_u64().is_none_or(|c| c >= MAX_LISTED as u64));
    }
    // budgets and the cancel flag never change an answer
    let stop = AtomicBool::new(true);
    for budget in [0, 1 << 10, 1 << 16, 1 << 20] {
        match z.count(budget, None) {
            Ok(c) => assert_eq!(c, count, "count within {budget} bytes"),
            Err(ZddError::Memory { budget: b, .. }) => assert_eq!(b, budget),
            Err(e) => panic!("count within {budget} bytes: {e}"),
        }
        match z.counted(budget, None) {
            Ok(c) => assert_eq!(c.count(), &count, "counted within {budget} bytes"),
            Err(ZddError::Memory { budget: b, .. }) => assert_eq!(b, budget),
            Err(e) => panic!("counted within {budget} bytes: {e}"),
        }
    }
    match z.count(ALL, Some(&stop)) {
        Ok(c) => assert_eq!(c, count),
        Err(e) => assert_eq!(e, ZddError::Cancelled),
    }
    let Ok(all) = z.counted(1 << 26, None) else {
        return;
    };
    assert_eq!(all.count(), &count, "counted");
    for (r, s) in listed.iter().enumerate().take(64) {
        assert_eq!(
            all.solution(&Count::from(r as u64)),
            Ok(Some(s.clone())),
            "solution {r}"
        );
    }
    assert_eq!(all.solution(&count), Ok(None), "the count is past the last");
    let mut rng = SplitMix64::new(text.len() as u64);
    for _ in 0..4 {
        match all.sample(|| rng.next_u64()) {
            Ok(Some(s)) => {
                assert!(!count.is_zero());
                if listed.len() < MAX_LISTED {
                    assert!(listed.contains(&s), "a draw that is not listed: {s:?}");
                }
            }
            Ok(None) => assert!(count.is_zero()),
            Err(e) => panic!("a draw failed where counting did not: {e}"),
        }
    }
});
