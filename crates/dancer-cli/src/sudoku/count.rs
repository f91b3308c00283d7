//! `dancer sudoku count`: the number of solutions of each puzzle (with
//! `--shard K/N`, of part K of a batch file: see `common.rs`).

use super::common::{
    push_invalid, push_record, run_batch, CommonArgs, Job, ShardArgs, BOX_HINT, SHARDS_HELP,
};
use crate::output::Found;
use crate::output::Out;
use anyhow::{bail, Result};
use clap::Args;
use dancer_sudoku::batch::Outcome;
use dancer_sudoku::records;

#[derive(Args)]
#[command(after_long_help = SHARDS_HELP)]
pub struct CountArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Stop counting at N (default: count all)
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub shard: ShardArgs,
}

pub fn run(args: CountArgs, out: &mut Out) -> Result<Found> {
    let json = args.common.json.json;
    let limit = args.limit.unwrap_or(u64::MAX);
    if limit == 0 {
        bail!("--limit must be at least 1");
    }
    let job = Job {
        command: "count",
        flags: vec![("limit", limit.to_string())],
        shard: &args.shard,
        all_unique: false,
    };
    run_batch(&args.common, &job, limit, 0, out, |line, o, buf| {
        if json {
            return push_record(&records::count_record(line, o, limit, BOX_HINT), buf);
        }
        match o {
            Outcome::Invalid(why) => push_invalid(why, buf),
            Outcome::Solved(_, s) => {
                buf.push_str(&s.count.to_string());
                buf.push('\n');
            }
        }
    })
}
