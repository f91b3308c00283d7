//! `dancer merge`: adds up the result files of a sharded run. The files
//! are read here; the rules (same problem, engine, version and split, no
//! duplicates, none missing) are `dancer_core::shard::merge`'s.
//!
//! The exit code follows the rule of a search (`Found::of_search`) for
//! the whole: a part that was interrupted makes the sum an interrupted
//! search's (130), since its count is partial; parts stopped at their
//! `--limit` leave it 0 or 1, the summary saying "stopped at the limit".

use crate::args::JsonArg;
use crate::output::{ending_text, plural, Found, Out};
use anyhow::{Context, Result};
use clap::Args;
use dancer_core::parallel::Stop;
use dancer_core::shard::{self, Saved};
use dancer_formats::ndjson::SolveRecord;
use std::path::PathBuf;

#[derive(Args)]
pub struct MergeArgs {
    /// Result files written by `dancer solve --shard K/N`
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the parts to run again instead (missing, or stopped before
    /// the end), as the K values of an `sbatch --array` (`3-5,9`; nothing
    /// when every part is there and complete)
    #[arg(long, conflicts_with = "json")]
    pub missing: bool,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: MergeArgs, out: &mut Out) -> Result<Found> {
    let mut parts: Vec<(String, Saved)> = Vec::new();
    for f in &args.files {
        let text = crate::input::read_file(f, crate::input::MAX_SMALL)?;
        let s = Saved::from_json(&text)
            .with_context(|| format!("{}: not a shard result to add up", f.display()))?;
        parts.push((f.display().to_string(), s));
    }
    if args.missing {
        let r = shard::to_rerun(&parts)?;
        let array = r.array();
        if !array.is_empty() {
            out.line(&array)?;
        }
        let incomplete: Vec<String> = r.incomplete.iter().map(|k| k.to_string()).collect();
        eprintln!(
            "{} of {}: {}{}",
            plural(parts.len(), "part", "parts"),
            r.n,
            if array.is_empty() {
                "none to run again".to_string()
            } else {
                format!("to run again: {array}")
            },
            if incomplete.is_empty() {
                String::new()
            } else {
                format!(" (incomplete: {})", incomplete.join(", "))
            }
        );
        return Ok(Found::Some);
    }
    let m = shard::merge(&parts)?;
    for (f, stopped) in &m.incomplete {
        let why = match stopped {
            Some(Stop::Limit) => ": stopped at its limit",
            Some(Stop::Interrupted) => ": interrupted",
            None => "",
        };
        eprintln!("warning: {f} is incomplete{why}");
    }
    if args.json.json {
        let mut record = SolveRecord::summary(&m.stats, m.complete, m.stopped);
        if let SolveRecord::Summary { solutions, .. } = &mut record {
            // exact at any size (a memoized count's parts)
            *solutions = m.solutions.clone();
        }
        out.record(&record)?;
    } else {
        out.line(&m.solutions.to_string())?;
    }
    let how = match (m.complete, m.stopped) {
        (true, _) => "complete",
        (false, Some(s)) => ending_text(Some(s)),
        (false, None) => "incomplete",
    };
    eprintln!(
        "{}: {}, {}, {}, {:.3} s of work ({how})",
        plural(m.shards, "shard", "shards"),
        plural(&m.solutions, "solution", "solutions"),
        plural(m.stats.nodes, "node", "nodes"),
        plural(m.stats.updates, "update", "updates"),
        m.seconds,
    );
    Ok(Found::of_search(m.stats.solutions, m.stopped))
}
