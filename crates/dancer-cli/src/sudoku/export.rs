//! `dancer sudoku export`: a puzzle's exact cover problem, in Knuth's DLX
//! format, or with `--json` as the JSON document `dancer solve` reads
//! (`dancer_formats::json`).

use super::common::{read_input, read_one, CommonArgs};
use crate::output::{Found, Out};
use anyhow::Result;

pub fn run(a: CommonArgs, out: &mut Out) -> Result<Found> {
    let spec = a.spec()?;
    let (name, text) = read_input(a.input.as_deref())?;
    let p = read_one(&name, &text, &spec, a.layout(), true)?;
    let cover = dancer_sudoku::cover::to_exact_cover(&p);
    if a.json.json {
        out.line(&dancer_formats::json::to_string(&cover.problem))?;
    } else {
        let comment = format!("sudoku {}: {}", p.rules.describe(), p.to_line());
        dancer_formats::dlx::write(&cover.problem, &mut *out, Some(&comment))?;
    }
    Ok(Found::Some)
}
