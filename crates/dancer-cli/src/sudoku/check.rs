//! `dancer sudoku check`: unique / multiple / none / invalid per puzzle
//! (with `--pretty`, each puzzle's grid above its verdict; with `--shard
//! K/N`, of part K of a batch file: see `common.rs`).

use super::common::{
    push_invalid, push_record, run_batch, CommonArgs, Job, ShardArgs, BOX_HINT, SHARDS_HELP,
};
use crate::output::Found;
use crate::output::Out;
use anyhow::Result;
use clap::Args;
use dancer_sudoku::batch::Outcome;
use dancer_sudoku::records;

#[derive(Args)]
#[command(after_long_help = SHARDS_HELP)]
pub struct CheckArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Print each puzzle as a grid with box lines above its verdict
    #[arg(long)]
    pub pretty: bool,
    #[command(flatten)]
    pub shard: ShardArgs,
}

pub fn run(args: CheckArgs, out: &mut Out) -> Result<Found> {
    let json = args.common.json.json;
    let pretty = args.pretty;
    let job = Job {
        command: "check",
        flags: vec![("pretty", pretty.to_string())],
        shard: &args.shard,
        all_unique: true,
    };
    run_batch(&args.common, &job, 2, 0, out, |line, o, buf| {
        if json {
            return push_record(&records::check_record(line, o, BOX_HINT), buf);
        }
        match o {
            Outcome::Invalid(why) => push_invalid(why, buf),
            Outcome::Solved(p, s) => {
                if pretty {
                    buf.push_str(&p.givens.pretty(&p.rules));
                }
                buf.push_str(&s.status().to_string());
                buf.push('\n');
                if pretty {
                    buf.push('\n');
                }
            }
        }
    })
}
