//! Statistics of a search: machine-independent counters and the time taken.

use std::time::Duration;

/// Counters of a search. `nodes` and `updates` follow Knuth's definitions
/// (see [`crate::engines::dlx`]), so they can be compared with his programs' reports
/// and asserted in tests; `elapsed` is wall-clock time and is not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Solutions found.
    pub solutions: u64,
    /// Nodes of the search tree: one per option tried, plus one per solution.
    pub nodes: u64,
    /// Items covered plus option entries unlinked.
    pub updates: u64,
    /// `profile[l]` is the number of nodes at depth `l` (the root is depth 0;
    /// a solution is a node one level below its last choice).
    pub profile: Vec<u64>,
    /// Wall-clock time of the search, when measured by the driver.
    pub elapsed: Duration,
}

/// `2 solutions, 36 nodes, 189 updates`: the counters of a search.
impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::words::plural;
        write!(
            f,
            "{}, {}, {}",
            plural(self.solutions, "solution", "solutions"),
            plural(self.nodes, "node", "nodes"),
            plural(self.updates, "update", "updates")
        )
    }
}

impl Stats {
    pub(crate) fn new(levels: usize) -> Self {
        Stats {
            profile: vec![0; levels],
            ..Default::default()
        }
    }

    /// The deepest level of the search tree reached (a solution with `k`
    /// options reaches level `k`); 0 before the search starts.
    pub fn max_level(&self) -> usize {
        self.profile.iter().rposition(|&n| n > 0).unwrap_or(0)
    }

    /// The profile without its trailing zeros.
    pub fn profile_trimmed(&self) -> &[u64] {
        let end = self
            .profile
            .iter()
            .rposition(|&n| n > 0)
            .map_or(0, |p| p + 1);
        &self.profile[..end]
    }

    /// Adds another search's counters to these, unless a sum does not fit
    /// in 64 bits (then `None`, and these are left as they were): for
    /// counts read back from files.
    pub fn checked_merge(&mut self, other: &Stats) -> Option<()> {
        let add = |a: u64, b: u64| a.checked_add(b);
        let mut profile = self.profile.clone();
        if profile.len() < other.profile.len() {
            profile.resize(other.profile.len(), 0);
        }
        for (a, &b) in profile.iter_mut().zip(&other.profile) {
            *a = add(*a, b)?;
        }
        let merged = Stats {
            solutions: add(self.solutions, other.solutions)?,
            nodes: add(self.nodes, other.nodes)?,
            updates: add(self.updates, other.updates)?,
            profile,
            elapsed: self.elapsed.checked_add(other.elapsed)?,
        };
        *self = merged;
        Some(())
    }

    /// Adds another search's counters to these (for split searches).
    pub fn merge(&mut self, other: &Stats) {
        self.solutions += other.solutions;
        self.nodes += other.nodes;
        self.updates += other.updates;
        if self.profile.len() < other.profile.len() {
            self.profile.resize(other.profile.len(), 0);
        }
        for (a, b) in self.profile.iter_mut().zip(&other.profile) {
            *a += b;
        }
        self.elapsed += other.elapsed;
    }
}

/// The random numbers of Knuth's tree-size estimates: the stream of
/// [`crate::rng::XorShift64`] for `seed`.
pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    use crate::rng::Draw;
    let mut r = crate::rng::XorShift64::new(seed);
    move || r.next_u64()
}

/// Knuth's estimate of a search tree from random probes (each probe a path
/// from the root, each node on it weighted by the product of the degrees
/// above it): the mean over the probes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    /// Nodes of the tree.
    pub nodes: f64,
    /// Updates of the search (each engine's own definition).
    pub updates: f64,
    /// The relative standard error of `nodes`: the standard deviation of
    /// the probes' estimates over their mean, divided by the square root of
    /// their number (0 for one probe). Near 0 the trees of queens and
    /// Langford pairs; 0.3 or more those of packings, whose estimates are
    /// rough.
    pub error: f64,
    /// Probes made: as many as asked, or fewer where the tree is so small
    /// that the probes had already walked a quarter of its estimated nodes
    /// (and at least 256 nodes, in two probes or more): more would cost
    /// about as much as the search.
    pub probes: usize,
    /// Nodes the probes went through, each once: what the estimate cost.
    pub walked: u64,
}

/// Adds up the probes of an [`Estimate`].
#[derive(Debug, Default)]
pub(crate) struct Tally {
    probes: usize,
    /// Nodes the probes went through (each once, not weighted).
    walked: u64,
    nodes: f64,
    updates: f64,
    squares: f64,
    this: f64,
}

impl Tally {
    /// A node of weight `w` on the current probe.
    #[inline]
    pub fn node(&mut self, w: f64) {
        self.walked += 1;
        self.nodes += w;
        self.this += w;
    }
    #[inline]
    pub fn updates(&mut self, u: f64) {
        self.updates += u;
    }
    /// The current probe has ended.
    pub fn end_probe(&mut self) {
        self.squares += self.this * self.this;
        self.this = 0.0;
        self.probes += 1;
    }
    /// Whether the tree is so small that more probes would cost more than
    /// they could tell: the probes have walked at least
    /// [`Tally::SMALL_WALK`] nodes (two probes at least), and a quarter of
    /// the nodes the tree is estimated to have. A Sudoku's tree is nearly a
    /// path, 60 to 250 levels deep: 32 probes of it went through as many
    /// nodes as its whole search. The estimators stop there.
    pub fn small_tree(&self) -> bool {
        self.probes >= 2
            && self.walked >= Self::SMALL_WALK
            && 4.0 * self.walked as f64 * self.probes as f64 >= self.nodes
    }
    /// Nodes the probes walk before [`Tally::small_tree`] may stop them.
    /// Shallow trees (packings, 10 to 20 levels) are probed 32 times for
    /// less than this: their probes cost little, and a few of them, dying
    /// young, can make a large unbalanced tree look small.
    pub const SMALL_WALK: u64 = 256;
    pub fn finish(self) -> Estimate {
        let n = self.probes.max(1) as f64;
        let mean = self.nodes / n;
        let error = if self.probes > 1 && mean > 0.0 {
            let var = ((self.squares - n * mean * mean) / (n - 1.0)).max(0.0);
            (var / n).sqrt() / mean
        } else {
            0.0
        };
        Estimate {
            nodes: mean,
            updates: self.updates / n,
            error,
            probes: self.probes,
            walked: self.walked,
        }
    }
}
