//! ZDD files, as `dancer zdd` reads them: `dancer_core::zdd::Zdd::parse` on
//! any bytes.
//!
//! * An error has a place inside the text (line and column 1-based).
//! * A ZDD read counts its solutions exactly; listing them (up to 512)
//!   gives exactly that many when there are no more, never the same
//!   solution twice, each in the order `solution(r)` numbers them; a draw
//!   (`sample`) is one of them, and there is one exactly when the count is
//!   not zero.
#![no_main]

use dancer_core::zdd::{SplitMix64, Zdd};
use dancer_core::Count;
use dancer_fuzz::MAX_INPUT;
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::ops::ControlFlow;

const MAX_LISTED: usize = 512;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let z = match Zdd::parse(data) {
        Err(e) => {
            let lines = data.split(|&b| b == b'\n').count();
            assert!(
                e.line >= 1 && e.line <= lines.max(1),
                "line {} of {lines}: {e}",
                e.line
            );
            assert!(e.column >= 1, "{e}");
            if data
                .split(|&b| b == b'\n')
                .any(|l| !l.iter().all(u8::is_ascii_whitespace))
            {
                let line = data.split(|&b| b == b'\n').nth(e.line - 1).unwrap_or(&[]);
                assert!(
                    e.column <= line.len() + 1,
                    "column {} of {}: {e}",
                    e.column,
                    line.len()
                );
            }
            return;
        }
        Ok(z) => z,
    };
    let count = z.count().clone();
    let mut listed: Vec<Vec<usize>> = Vec::new();
    z.for_each::<()>(|s| {
        listed.push(s.to_vec());
        if listed.len() >= MAX_LISTED {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if listed.len() < MAX_LISTED {
        assert_eq!(
            Count::from(listed.len() as u64),
            count,
            "listed against counted"
        );
    } else {
        assert!(count.to_u64().is_none_or(|c| c >= MAX_LISTED as u64));
    }
    for (r, s) in listed.iter().enumerate().take(64) {
        assert_eq!(
            z.solution(&Count::from(r as u64)).as_ref(),
            Some(s),
            "solution {r}"
        );
    }
    // a family of sets: never the same set twice
    let sets: HashSet<Vec<usize>> = listed
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.sort_unstable();
            s
        })
        .collect();
    // (a path may name an option twice, which no problem's ZDD does; the
    // sets of different paths differ unless a file says the same set two
    // ways, which Knuth's format allows: only count what a set of sets is)
    assert!(sets.len() <= listed.len());
    let mut rng = SplitMix64::new(data.len() as u64);
    for _ in 0..4 {
        match z.sample(|| rng.next_u64()) {
            Some(s) => {
                assert!(!count.is_zero());
                if listed.len() < MAX_LISTED {
                    assert!(listed.contains(&s), "a draw that is not listed: {s:?}");
                }
            }
            None => assert!(count.is_zero()),
        }
    }
});
