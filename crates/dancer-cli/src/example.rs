//! `dancer example`: the built-in examples, solved and verified.

use crate::output::Found;
use crate::output::Out;
use anyhow::{ensure, Result};
use dancer_core::{verify, Dlx, Engine};

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
    let s = dlx.stats();
    out.line(&format!(
        "{} solution, {} nodes, {} updates\n",
        s.solutions, s.nodes, s.updates
    ))?;

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
    out.line(&format!(
        "8 queens: {} solutions (all verified), {} nodes, {} updates; the first:",
        s.solutions, s.nodes, s.updates
    ))?;
    ensure!(s.solutions == 92, "8 queens must have 92 solutions");
    let mut board = vec![vec!['.'; 8]; 8];
    for &o in first.as_deref().unwrap_or_default() {
        let mut r = 0;
        let mut c = 0;
        for item in q.option(o).items() {
            let name = q.item_name(item);
            let v = name[1..].parse::<usize>().unwrap_or(0);
            match &name[..1] {
                "r" => r = v,
                "c" => c = v,
                _ => {}
            }
        }
        board[r][c] = 'Q';
    }
    for row in board {
        out.line(&format!(
            "  {}",
            row.iter()
                .map(|c| format!("{c} "))
                .collect::<String>()
                .trim_end()
        ))?;
    }
    Ok(Found::Some)
}
