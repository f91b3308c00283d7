//! The JSON form of problems: `dancer_formats::json::read` on any bytes.
//!
//! * An error is a syntax error with a place in the text (line and column
//!   1-based, inside the text).
//! * A document that deserialises as a `ProblemDoc` builds (with
//!   `ProblemDoc::to_problem`) exactly when `read` accepts it, into the
//!   same problem; `ProblemDoc::from_problem` gives it back.
//! * A problem read has one warning per option without primary items.
//! * A small problem is solved by every engine that takes it, as in
//!   `dlx_text`, and written back with the DLX and JSON writers it reads
//!   again as the same problem with as many solutions.
#![no_main]

use dancer_formats::json::{self, ProblemDoc};
use dancer_formats::FormatError;
use dancer_fuzz::{
    assert_same_problem, check_location, check_round_trip, is_small, solve_with_every_engine,
    MAX_INPUT,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    // what `read` hands to serde_json: the text after a byte order mark,
    // when it is an object (`read` refuses anything else at once)
    let body = data.strip_prefix("\u{feff}".as_bytes()).unwrap_or(data);
    let is_object = body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    let doc: Option<ProblemDoc> = serde_json::from_slice(body).ok().filter(|_| is_object);
    match json::read(data, "fuzz.json") {
        Err(e) => {
            match &e {
                FormatError::Syntax { at, .. } => check_location(data, at, "JSON error"),
                _ => {
                    panic!("an error other than of syntax reading from a slice: {e}")
                }
            }
            assert!(e.to_string().starts_with("fuzz.json:"), "{e}");
            if let Some(doc) = doc {
                assert!(
                    doc.to_problem("doc").is_err(),
                    "ProblemDoc::to_problem builds what read refuses ({e})"
                );
            }
        }
        Ok(parsed) => {
            let p = &parsed.problem;
            for w in &parsed.warnings {
                check_location(data, &w.at, "JSON warning");
            }
            let inactive = (0..p.n_options()).filter(|&k| !p.is_active(k)).count();
            assert_eq!(
                parsed.warnings.len(),
                inactive,
                "one warning per option without primary items"
            );
            let doc = doc.expect("read accepted a document serde_json refuses");
            match doc.to_problem("doc") {
                Ok(q) => assert_same_problem(p, &q.problem, "ProblemDoc::to_problem"),
                Err(e) => panic!("ProblemDoc::to_problem refuses what read accepts: {e}"),
            }
            let back = ProblemDoc::from_problem(p);
            let q = back.to_problem("back").expect("from_problem builds");
            assert_same_problem(p, &q.problem, "ProblemDoc::from_problem");
            let count = if is_small(p) {
                solve_with_every_engine(p)
            } else {
                None
            };
            check_round_trip(p, count);
        }
    }
});
