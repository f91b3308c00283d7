//! `dancer sudoku solve`: one line per puzzle, in input order: the
//! solution, or none / multiple / invalid: REASON (with `--pretty`, grids).
//! With `--shard K/N`, part K of a batch file, into a part file (see
//! `common.rs`).

use super::common::{
    push_invalid, push_record, run_batch, CommonArgs, Job, ShardArgs, BOX_HINT, SHARDS_HELP,
};
use crate::output::Found;
use crate::output::Out;
use anyhow::Result;
use clap::Args;
use dancer_sudoku::batch::Outcome;
use dancer_sudoku::{records, Status};

#[derive(Args)]
#[command(after_long_help = SHARDS_HELP)]
pub struct SolveArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Print grids with box lines, for people
    #[arg(long)]
    pub pretty: bool,
    #[command(flatten)]
    pub shard: ShardArgs,
}

pub fn run(args: SolveArgs, out: &mut Out) -> Result<Found> {
    let json = args.common.json.json;
    let pretty = args.pretty;
    let job = Job {
        command: "solve",
        flags: vec![("pretty", pretty.to_string())],
        shard: &args.shard,
        all_unique: false,
    };
    run_batch(&args.common, &job, 2, 2, out, |line, o, buf| {
        if json {
            push_record(&records::solve_record(line, o, BOX_HINT), buf)
        } else {
            render(o, pretty, buf)
        }
    })
}

fn render(o: &Outcome, pretty: bool, buf: &mut String) {
    let (p, s) = match o {
        Outcome::Invalid(why) => return push_invalid(why, buf),
        Outcome::Solved(p, s) => (p, s),
    };
    let status = s.status();
    match (status, pretty) {
        (Status::Unique, false) => s.solutions[0].push_line(buf),
        (Status::Unique, true) => buf.push_str(&s.solutions[0].pretty(&p.rules)),
        (Status::Multiple, false) => buf.push_str("multiple"),
        (Status::Multiple, true) => {
            buf.push_str("multiple; two of the solutions:\n");
            for g in &s.solutions {
                buf.push_str(&g.pretty(&p.rules));
                buf.push('\n');
            }
        }
        (Status::None, _) => buf.push_str("none"),
    }
    if !pretty || status == Status::None || status == Status::Unique {
        buf.push('\n');
    }
}
