//! `dancer sudoku export`: a puzzle's exact cover problem in DLX format.

use super::common::{read_input, CommonArgs};
use crate::output::Found;
use crate::output::Out;
use anyhow::{bail, Result};

pub fn run(a: CommonArgs, out: &mut Out) -> Result<Found> {
    let spec = a.spec()?;
    let (name, text) = read_input(a.input.as_deref())?;
    let Some(e) = spec.read(&text, a.layout(), 1).into_iter().next() else {
        bail!("{name}: no puzzle found");
    };
    let p = e
        .puzzle
        .map_err(|err| anyhow::anyhow!("{name}:{}: invalid puzzle: {err}", e.line))?;
    let cover = dancer_sudoku::cover::to_exact_cover(&p);
    let comment = format!("sudoku {}: {}", p.rules.describe(), p.to_line());
    dancer_formats::dlx::write(&cover.problem, &mut *out, Some(&comment))?;
    Ok(Found::Some)
}
