//! What a run did, in words: the summaries every front end shows of a
//! split search ([`SearchSummary`]), a memoized count ([`MemoSummary`]),
//! a Sudoku batch's part ([`PartFile`]) and the sums of parts
//! ([`Merged`], [`PartsMerged`]).
//! Each displays itself, as an error does: plain lines, no flag named,
//! the numbers said by `dancer_core::words`; the command line writes them
//! to standard error.

use crate::batch::{PartFile, PartsMerged};
use crate::plan::{MemoRun, SearchOutcome, SearchRun};
use crate::search::Merged;
use dancer_core::memo::MemoOutcome;
use dancer_core::parallel::ending;
use dancer_core::parallel::Stop;
use dancer_core::words::plural;
use dancer_core::Problem;
use std::fmt;

/// A split search's summary ([`SearchRun::summary`]): `engine dlx: 92
/// solutions, 2000 nodes, ...` with the engine named (nodes and updates
/// are counted by each engine in its own way), the verified solutions,
/// with `detail` the split, the problem's size and the nodes per level,
/// and a shard's units.
pub struct SearchSummary<'a> {
    run: &'a SearchRun,
    ran: &'a SearchOutcome,
    problem: &'a Problem,
    detail: bool,
}

impl SearchRun {
    /// What this run did, `ran` on `problem`, in words (with `detail`: the
    /// counters `--stats` asks for).
    pub fn summary<'a>(
        &'a self,
        problem: &'a Problem,
        ran: &'a SearchOutcome,
        detail: bool,
    ) -> SearchSummary<'a> {
        SearchSummary {
            run: self,
            ran,
            problem,
            detail,
        }
    }
}

/// `3 items (2 primary), 4 options, 9 entries`.
fn size(p: &Problem) -> String {
    format!(
        "{} ({} primary), {}, {}",
        plural(p.n_items(), "item", "items"),
        p.n_primary(),
        plural(p.n_options(), "option", "options"),
        plural(p.n_entries(), "entry", "entries")
    )
}

impl fmt::Display for SearchSummary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (stats, split, problem) = (&self.ran.stats, &self.run.split, self.problem);
        let secs = stats.elapsed.as_secs_f64();
        let units = plural(split.plan.units.len(), "unit", "units");
        let (engine, ended) = (self.run.engine, ending(self.ran.stopped));
        write!(f, "engine {engine}: {stats}, {secs:.3} s ({ended})")?;
        if let Some(verified) = self.ran.verified {
            let v = plural(verified, "solution", "solutions");
            let what = dancer_core::what_is_checked(problem);
            write!(
                f,
                "\nverified {v} against the problem, not the engine: {what}"
            )?;
        }
        if self.detail {
            let threads = plural(self.run.config.threads, "thread", "threads");
            let depth = split.plan.depth;
            write!(
                f,
                "\n{threads}, {units} at depth {depth}; {}",
                size(problem)
            )?;
            write!(f, "\nmaximum level {}", stats.max_level())?;
            if secs > 0.0 {
                let (n, u) = (stats.nodes as f64 / secs, stats.updates as f64 / secs);
                write!(f, "\n{n:.0} nodes/s, {u:.0} updates/s")?;
            }
            write!(f, "\nnodes per level:")?;
            for (l, n) in stats.profile_trimmed().iter().enumerate() {
                write!(f, "\n  {l:3} {n:12}")?;
            }
        }
        if let Some(s) = split.shard {
            write!(
                f,
                "\nshard {} of {}: {} of {units}",
                s.k,
                s.n,
                split.selected.len()
            )?;
        }
        Ok(())
    }
}

/// A memoized count's summary ([`MemoRun::summary`]): `memo: 2,339
/// solutions, ... (complete)`, and with a problem the rest of the
/// counters and its size.
pub struct MemoSummary<'a> {
    outcome: &'a MemoOutcome,
    problem: Option<&'a Problem>,
    memory: u64,
}

impl MemoRun {
    /// What the count `outcome` did in words; with `detail`, its problem's
    /// size and the rest of its counters too.
    pub fn summary<'a>(
        &self,
        outcome: &'a MemoOutcome,
        detail: Option<&'a Problem>,
    ) -> MemoSummary<'a> {
        MemoSummary {
            outcome,
            problem: detail,
            memory: self.memory,
        }
    }
}

/// How a memoized count ended: complete, or interrupted.
pub fn memo_stopped(r: &MemoOutcome) -> Option<Stop> {
    (!r.complete).then_some(Stop::Interrupted)
}

impl fmt::Display for MemoSummary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (r, s) = (self.outcome, &self.outcome.stats);
        let mib = |b: u64| b as f64 / f64::from(1 << 20);
        write!(
            f,
            "memo: {}, {}, {}, {} kept (peak {:.1} MiB), {:.3} s ({})",
            plural(&r.count, "solution", "solutions"),
            plural(s.nodes, "node", "nodes"),
            plural(s.hits, "hit", "hits"),
            plural(s.entries, "count", "counts"),
            mib(s.peak_bytes),
            s.elapsed.as_secs_f64(),
            ending(memo_stopped(r))
        )?;
        if let Some(problem) = self.problem {
            let order = if s.own_order {
                "the problem's own"
            } else {
                "a grown"
            };
            write!(
                f,
                "\n{} tried, {} stored, {} dropped for the {:.0} MiB cap; frontier of at most {}; {order} order",
                plural(s.options_tried, "option", "options"),
                plural(s.stored, "count", "counts"),
                s.evicted,
                mib(self.memory),
                plural(s.width, "item", "items"),
            )?;
            write!(f, "\n{}; one thread", size(problem))?;
        }
        Ok(())
    }
}

/// `3 shards: 92 solutions, ... s of work (complete)`.
impl fmt::Display for Merged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match (self.complete, self.stopped) {
            (true, _) => "complete",
            (false, Some(s)) => ending(Some(s)),
            (false, None) => "incomplete",
        };
        write!(
            f,
            "{}: {}, {}, {}, {:.3} s of work ({how})",
            plural(self.shards, "shard", "shards"),
            plural(&self.solutions, "solution", "solutions"),
            plural(self.stats.nodes, "node", "nodes"),
            plural(self.stats.updates, "update", "updates"),
            self.seconds,
        )
    }
}

/// `4 parts of `sudoku solve`: 1000 puzzles: 998 unique, ...; 1.234 s of
/// work`.
impl fmt::Display for PartsMerged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (t, command, seconds) = (&self.tally, &self.command, self.seconds);
        let (parts, puzzles) = (
            plural(self.shards, "part", "parts"),
            plural(t.puzzles(), "puzzle", "puzzles"),
        );
        let (unique, multiple, none, invalid) = (t.unique, t.multiple, t.none, t.invalid);
        write!(f, "{parts} of `sudoku {command}`: {puzzles}: {unique} unique, {multiple} multiple, {none} none, {invalid} invalid; {seconds:.3} s of work")
    }
}

/// `part 2/4 (lines 2501 to 5000 of 10000)`, or `(no line of 3)`.
impl fmt::Display for PartFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "part {}/{} (", self.shard, self.shards)?;
        match self.first == self.end {
            true => write!(f, "no line of {})", self.lines),
            false => write!(
                f,
                "lines {} to {} of {})",
                self.first,
                self.end - 1,
                self.lines
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parts::ToRerun;
    use crate::search::ShardSpec;

    #[test]
    fn parts_say_their_lines_and_what_is_left() {
        let spec = |k, n| ShardSpec { k, n };
        let p = PartFile::new("x", "solve", spec(2, 4), 10_000);
        assert_eq!(p.to_string(), "part 2/4 (lines 2501 to 5000 of 10000)");
        let p = PartFile::new("x", "solve", spec(1, 2), 0);
        assert_eq!(p.to_string(), "part 1/2 (no line of 0)");
        let r = ToRerun::new(8, vec![1, 2, 3], vec![4]);
        assert_eq!(
            r.summary(4),
            "4 parts of 8: to run again: 4-8 (incomplete: 4)"
        );
        let r = ToRerun::new(2, vec![1, 2], vec![]);
        assert_eq!(r.summary(1), "1 part of 2: none to run again");
    }

    #[test]
    fn a_merge_says_how_it_ended() {
        let mut m = Merged {
            solutions: 92u64.into(),
            stats: dancer_core::Stats {
                nodes: 1,
                updates: 5,
                ..Default::default()
            },
            complete: true,
            stopped: None,
            shards: 1,
            seconds: 0.25,
            incomplete: Vec::new(),
        };
        let said = "1 shard: 92 solutions, 1 node, 5 updates, 0.250 s of work";
        assert_eq!(m.to_string(), format!("{said} (complete)"));
        m.complete = false;
        assert_eq!(m.to_string(), format!("{said} (incomplete)"));
        m.stopped = Some(Stop::Interrupted);
        assert_eq!(m.to_string(), format!("{said} (interrupted: incomplete)"));
    }
}
