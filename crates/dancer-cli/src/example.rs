//! `dancer example`: the built-in examples, solved and verified, with the
//! `dlx` engine (Knuth's counts), which they say.

use crate::output::{Found, Out};
use anyhow::{ensure, Result};
use dancer_core::{verify, Dlx, Engine};

/// `dancer example --help`: why its counts may differ from `dancer solve`'s.
pub const LONG_ABOUT: &str = include_str!("../help/example.txt").trim_ascii_end();

/// Knuth's example from "Dancing Links" (and the start of dlx1.w).
pub const TOY: &str =
    "| Knuth's toy problem\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";

pub fn run(out: &mut Out) -> Result<Found> {
    let parsed = dancer_formats::dlx::read_str(TOY, "toy")?;
    let p = &parsed.problem;
    out.line("Knuth's toy problem: items A B C D E, secondary F G, options:")?;
    for k in 0..p.n_options() {
        out.line(&format!("  {k}: {}", p.option_text(k)))?;
    }
    let mut dlx = Dlx::new(p)?;
    while let Some(sol) = dlx.next_solution() {
        verify(p, sol)?;
        out.line("solution (verified):")?;
        for &o in sol {
            out.line(&format!("  {}", p.option_text(o)))?;
        }
    }
    // the engine is named, as in `dancer solve`'s summary: the counts are its
    let s = dlx.stats();
    out.line(&format!("engine dlx: {s} (as Knuth's DLX1 counts them)\n"))?;

    let q = dancer_core::classic::queens(8);
    let mut dlx = Dlx::new(&q)?;
    let mut first = None;
    while let Some(sol) = dlx.next_solution() {
        verify(&q, sol)?;
        if first.is_none() {
            first = Some(sol.to_vec());
        }
    }
    let s = dlx.stats();
    let (solutions, nodes, updates) = (s.solutions, s.nodes, s.updates);
    out.line(&format!(
        "8 queens, engine dlx: {solutions} solutions (all verified), {nodes} nodes, {updates} updates"
    ))?;
    out.line("the first:")?;
    ensure!(s.solutions == 92, "8 queens must have 92 solutions");
    let board = dancer_core::classic::queens_board(&q, first.as_deref().unwrap_or_default());
    for row in board {
        let cells: Vec<&str> = row.iter().map(|&q| if q { "Q" } else { "." }).collect();
        out.line(&format!("  {}", cells.join(" ")))?;
    }
    Ok(Found::Some)
}
