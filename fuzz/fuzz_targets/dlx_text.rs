//! Knuth's DLX text format: `dancer_formats::dlx::read` on any bytes.
//!
//! * An error is a syntax error with a place in the text (line and column
//!   1-based, inside the text); `read_str` says the same on UTF-8 text.
//! * A problem read has one warning per option without primary items, each
//!   at a place in the text.
//! * A small problem (at most `MAX_OPTIONS` options and `MAX_ITEMS` items)
//!   is solved by every engine that takes it, within a budget: every
//!   solution passes `dancer_core::verify`, none comes twice, and the
//!   engines that finish agree on the solutions.
//! * Written back with the DLX writer (and the JSON writer) and read again,
//!   it is the same problem, written the same way, with as many solutions.
#![no_main]

use dancer_formats::{dlx, FormatError};
use dancer_fuzz::{check_location, check_round_trip, is_small, solve_with_every_engine, MAX_INPUT};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    match dlx::read(data, "fuzz.dlx") {
        Err(e) => {
            match &e {
                FormatError::Syntax { at, .. } => check_location(data, at, "DLX error"),
                _ => {
                    panic!("an error other than of syntax reading from a slice: {e}")
                }
            }
            assert!(
                e.location().is_some(),
                "a syntax error without a place: {e}"
            );
            assert!(e.to_string().starts_with("fuzz.dlx:"), "{e}");
            if let Ok(text) = std::str::from_utf8(data) {
                let again = dlx::read_str(text, "fuzz.dlx").expect_err("read_str accepts it");
                assert_eq!(
                    again.to_string(),
                    e.to_string(),
                    "read and read_str disagree"
                );
            }
        }
        Ok(parsed) => {
            let p = &parsed.problem;
            for w in &parsed.warnings {
                check_location(data, &w.at, "DLX warning");
            }
            let inactive = (0..p.n_options()).filter(|&k| !p.is_active(k)).count();
            assert_eq!(
                parsed.warnings.len(),
                inactive,
                "one warning per option without primary items"
            );
            let count = if is_small(p) {
                solve_with_every_engine(p)
            } else {
                None
            };
            check_round_trip(p, count);
        }
    }
});
