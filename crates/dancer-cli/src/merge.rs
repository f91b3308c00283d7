//! `dancer merge`: adds up the result files of a sharded run. The files
//! are read here; the rules (same problem, engine, version and split, no
//! duplicates, none missing) are `dancer_core::shard::merge`'s.

use crate::args::JsonArg;
use crate::output::Found;
use crate::output::Out;
use anyhow::{Context, Result};
use clap::Args;
use dancer_core::shard::{self, Saved};
use dancer_formats::ndjson::SolveRecord;
use std::path::PathBuf;

#[derive(Args)]
pub struct MergeArgs {
    /// Result files written by `dancer solve --shard K/N`
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: MergeArgs, out: &mut Out) -> Result<Found> {
    let mut parts: Vec<(String, Saved)> = Vec::new();
    for f in &args.files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        let s = Saved::from_json(&text)
            .with_context(|| format!("{}: not a dancer shard result", f.display()))?;
        parts.push((f.display().to_string(), s));
    }
    let m = shard::merge(&parts)?;
    for f in &m.incomplete {
        eprintln!("warning: {f} is incomplete (interrupted or limited)");
    }
    if args.json.json {
        out.record(&SolveRecord::summary(&m.stats, m.complete))?;
    } else {
        out.line(&m.stats.solutions.to_string())?;
    }
    eprintln!(
        "{} shards: {} solutions, {} nodes, {} updates, {:.3} s of work ({})",
        m.shards,
        m.stats.solutions,
        m.stats.nodes,
        m.stats.updates,
        m.seconds,
        if m.complete { "complete" } else { "incomplete" }
    );
    Ok(if m.stats.solutions > 0 {
        Found::Some
    } else {
        Found::None
    })
}
