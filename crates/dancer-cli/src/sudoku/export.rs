//! `dancer sudoku export`: a puzzle's exact cover problem, in Knuth's DLX
//! format, or with `--json` as the JSON document `dancer solve` reads
//! (`dancer_formats::json`).

use super::common::{read_input, CommonArgs, BOX_HINT};
use crate::output::Found;
use crate::output::Out;
use anyhow::{bail, Result};

pub fn run(a: CommonArgs, out: &mut Out) -> Result<Found> {
    let spec = a.spec()?;
    let (name, text) = read_input(a.input.as_deref())?;
    let mut entries = spec.read(&text, a.layout(), 1).into_iter();
    let Some(e) = entries.next() else {
        bail!("{name}: no puzzle found");
    };
    // one problem is written: a second puzzle is not dropped without a word
    if let Some(second) = entries.next() {
        bail!(
            "{name}:{}: a second puzzle: export writes the problem of one puzzle (give a file of one, or the puzzle itself)",
            second.line
        );
    }
    let p = e.puzzle.map_err(|err| {
        anyhow::anyhow!("{name}:{}: invalid puzzle: {}", e.line, err.words(BOX_HINT))
    })?;
    let cover = dancer_sudoku::cover::to_exact_cover(&p);
    if a.json.json {
        out.line(&dancer_formats::json::to_string(&cover.problem))?;
    } else {
        let comment = format!("sudoku {}: {}", p.rules.describe(), p.to_line());
        dancer_formats::dlx::write(&cover.problem, &mut *out, Some(&comment))?;
    }
    Ok(Found::Some)
}
