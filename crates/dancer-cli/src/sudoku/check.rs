//! `dancer sudoku check`: unique / multiple / none / invalid per puzzle.

use super::common::{found, push_invalid, push_record, run_batch, CommonArgs};
use crate::output::Found;
use crate::output::Out;
use anyhow::Result;
use dancer_sudoku::batch::Outcome;
use dancer_sudoku::records;

pub fn run(a: CommonArgs, out: &mut Out) -> Result<Found> {
    let json = a.json.json;
    let t = run_batch(&a, 2, 0, out, |line, o, buf| {
        if json {
            return push_record(&records::check_record(line, o), buf);
        }
        match o {
            Outcome::Invalid(why) => push_invalid(why, buf),
            Outcome::Solved(_, s) => {
                buf.push_str(&s.status().to_string());
                buf.push('\n');
            }
        }
    })?;
    Ok(found(&t, true))
}
