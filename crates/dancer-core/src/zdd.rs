//! # ZDDs of solutions
//!
//! A ZDD (zero-suppressed decision diagram) holds a family of sets: here
//! the solutions of a problem, each a set of options. [`crate::memo::count_to_zdd`]
//! writes one while it counts; this module reads it back to count, list and
//! draw uniformly random solutions.
//!
//! ## The text format
//!
//! Knuth's, as his DLX6 writes it and his ZDDREAD programs read it: one
//! node per line,
//!
//! ```text
//! ID: (~VAR?LO:HI)
//! ```
//!
//! `ID`, `LO` and `HI` are node numbers in hexadecimal; `VAR` is a decimal
//! option number, 1-based in input order (the option numbered `k` in
//! `dancer solve --json`'s records is variable `k + 1`). The node stands
//! for the solutions of `LO` together with those of `HI` with option `VAR`
//! added. Node 0 is the empty family (no solution), node 1 the family of
//! the empty set (everything covered); they are never defined on a line.
//! The last line is the root; when it is Knuth's dummy node (variable 0,
//! `LO` 0), the root is its `HI`. dancer writes each node after the nodes
//! it points to, and reads them in any order (a reference to a node never
//! defined, a node defined twice or a cycle is an error naming its line
//! and column). Blank lines are skipped.
//!
//! The ZDDs the counter writes are not *ordered* in the strict sense (the
//! variables on a path do not increase); counting, listing and sampling
//! do not need them to be. But a solution is a *set*: a path from the root
//! to node 1 that takes the `HI` of two nodes of the same variable would
//! name an option twice, and is an error (at the second node's line) when
//! it is listed or drawn; [`Zdd::count`] first checks that no path does.
//!
//! ## Memory: linear in the file
//!
//! Reading keeps a few words a node ([`READ_BYTES_PER_NODE`] at most) and
//! whether each node has a solution at all; no counts. Counts are exact
//! and grow with the depth (a chain of `n` nodes can count `2^n`
//! solutions), so a table of every node's count can take memory growing
//! with the *square* of the file (a ZDD of 200,000 blocks of two solutions
//! each, 15 MB of text, would need 7 GB). So:
//!
//! * [`Zdd::count`] adds counts from the terminals up in the order the
//!   nodes are numbered (children first) and drops each count once the
//!   last node that uses it has been counted: what it holds at a time is
//!   the counts of the nodes still waiting for a parent (a handful on a
//!   chain), and it stops with [`ZddError::Memory`] if that grows past its
//!   budget;
//! * [`Zdd::counted`], for [`Counted::solution`] and [`Counted::sample`],
//!   needs every node's count: it works out their size first (from
//!   the base-2 logarithms of the counts, in floating point, a few bits of
//!   margin) and refuses with [`ZddError::Memory`] when the table would not
//!   fit its budget, before allocating it.
//!
//! Budgets are the caller's ([`crate::memory::Limits`] says what the
//! process may use); both take a cancel flag.
//!
//! ## The check that solutions are sets
//!
//! A variable `v` can repeat on a path only when it labels two nodes `a`
//! and `b` with `b` reachable from `HI(a)` along nodes that lead to node 1.
//! [`Zdd::count`] finds such a pair, if any, with one pass over the nodes a
//! batch of at most 64 * [`CHECK_WORDS`] such variables (those on two nodes
//! or more): each node gets the set of the batch's variables taken on some
//! path below it (`set(LO) | set(HI) | {var}`), and a node whose variable
//! is already in the set of its `HI` is the error. The sets of a batch take
//! [`CHECK_WORDS`] words a node; the time is the nodes times the batches.
//!
//! ## Counting and sampling
//!
//! The count of a node is the count of `LO` plus the count of `HI`, from
//! the terminals up ([`Count`]: exact at any size). A uniformly random
//! solution draws a number `r` uniformly below the root's count (by
//! rejection, so every value has exactly the same probability), then walks
//! down: at a node, if `r` is below the count of `HI` it takes the node's
//! option and goes to `HI`, else it takes `r - count(HI)` to `LO`. Each
//! solution is the path of exactly one `r`, so each is drawn with
//! probability exactly `1 / count`.

use crate::count::Count;
use crate::problem::Problem;
use crate::rng::{Draw, SplitMix64};
use crate::verify::{verify, VerifyError};
use num_bigint::BigUint;
use rustc_hash::FxHashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most bytes reading takes per node of the text (the nodes as
/// written, their index by number, the graph kept), what
/// [`Zdd::parse_within`] weighs against its budget before reading: a node
/// takes at least 10 bytes of text (`2:(~1?0:1)`), so reading takes at
/// most `READ_BYTES_PER_NODE / 10` times the file.
pub const READ_BYTES_PER_NODE: u64 = 160;

/// Words a node of the sets of one batch of [`Zdd::count`]'s check (see
/// the module's prose): 8, a batch of 512 variables.
pub const CHECK_WORDS: usize = 8;

/// A ZDD read from its text: nodes numbered from 2 in an order where each
/// node comes after the nodes it points to.
#[derive(Clone, Debug)]
pub struct Zdd {
    /// Per node (index 2 on; 0 and 1 are the terminals): its variable,
    /// LO and HI.
    var: Vec<u32>,
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// Whether the node has a solution at all (a path to node 1).
    live: Vec<bool>,
    /// Where each node was written: its line, and the column of its
    /// variable (for the errors of paths that repeat one).
    line: Vec<usize>,
    var_col: Vec<u32>,
    root: u32,
}

/// What went wrong with a ZDD: its text, or the work it asks for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZddError {
    /// Text that is not a ZDD, or a path that names an option twice:
    /// where (1-based line and column, in characters) and what.
    #[error("line {line}, column {column}: {message}")]
    Text {
        line: usize,
        column: usize,
        message: String,
    },
    /// The work would take more memory than its budget (bytes).
    #[error("{what} needs about {} of memory, more than the {} it may use", mib(*needed), mib(*budget))]
    Memory {
        what: &'static str,
        needed: u64,
        budget: u64,
    },
    /// The cancel flag was set.
    #[error("stopped before the end")]
    Cancelled,
    /// The ZDD names option `var` (1-based), past the last of a problem
    /// of `options` options: it is not that problem's ([`Zdd::fits`]).
    #[error(
        "the ZDD names option {var} but the problem has {}: not the ZDD of this problem",
        crate::plural(options, "option", "options")
    )]
    NotOfProblem { var: u32, options: usize },
    /// A solution of the ZDD (its options, 0-based) that does not solve
    /// the problem, and why ([`verify_solution`]).
    #[error("the ZDD holds a set of options {options:?} that is not a solution: {why}")]
    NotASolution {
        options: Vec<usize>,
        why: VerifyError,
    },
}

impl ZddError {
    /// The line and column of a text error.
    pub fn place(&self) -> Option<(usize, usize)> {
        match self {
            ZddError::Text { line, column, .. } => Some((*line, *column)),
            _ => None,
        }
    }

    fn text(line: usize, column: usize, message: impl Into<String>) -> ZddError {
        ZddError::Text {
            line,
            column,
            message: message.into(),
        }
    }
}

/// `1.5 GiB`, `300 MiB`.
fn mib(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
    } else {
        format!("{} MiB", bytes.div_ceil(1 << 20))
    }
}

/// A node as written, before its references are resolved.
struct Raw {
    id: u64,
    lo: u64,
    hi: u64,
    var: u32,
    var_col: u32,
    line: usize,
}

/// Where the fields of a node's line start (1-based columns).
#[derive(Default)]
struct Columns {
    lo: usize,
    hi: usize,
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
}

impl Cursor<'_> {
    fn err(&self, message: impl Into<String>) -> ZddError {
        ZddError::text(self.line, self.i + 1, message)
    }

    fn spaces(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\r') {
            self.i += 1;
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), ZddError> {
        self.spaces();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.err(format!("expected '{}'", c as char)))
        }
    }

    fn number(&mut self, radix: u32, what: &str) -> Result<(u64, usize), ZddError> {
        self.spaces();
        let start = self.i;
        let mut v: u64 = 0;
        while let Some(d) = self
            .s
            .get(self.i)
            .and_then(|&b| (b as char).to_digit(radix))
        {
            v = v
                .checked_mul(u64::from(radix))
                .and_then(|v| v.checked_add(u64::from(d)))
                .ok_or_else(|| {
                    ZddError::text(self.line, start + 1, format!("{what} is too large"))
                })?;
            self.i += 1;
        }
        if self.i == start {
            return Err(self.err(format!(
                "expected {what} ({})",
                if radix == 16 {
                    "hexadecimal"
                } else {
                    "decimal"
                }
            )));
        }
        Ok((v, start + 1))
    }
}

fn parse_line(s: &[u8], line: usize) -> Result<(Raw, Columns), ZddError> {
    let mut c = Cursor { s, i: 0, line };
    let (id, id_col) = c.number(16, "a node number")?;
    c.expect(b':')?;
    c.expect(b'(')?;
    c.expect(b'~')?;
    let (var, var_col) = c.number(10, "a variable (option number)")?;
    let var = u32::try_from(var)
        .map_err(|_| ZddError::text(line, var_col, "the variable is too large"))?;
    c.expect(b'?')?;
    let (lo, lo_col) = c.number(16, "a node number")?;
    c.expect(b':')?;
    let (hi, hi_col) = c.number(16, "a node number")?;
    c.expect(b')')?;
    c.spaces();
    if c.i != s.len() {
        return Err(c.err("unexpected text after the node"));
    }
    if id <= 1 {
        return Err(ZddError::text(
            line,
            id_col,
            "nodes 0 and 1 are the terminals and cannot be defined",
        ));
    }
    let raw = Raw {
        id,
        lo,
        hi,
        var,
        var_col: u32::try_from(var_col).unwrap_or(u32::MAX),
        line,
    };
    let cols = Columns {
        lo: lo_col,
        hi: hi_col,
    };
    Ok((raw, cols))
}

/// The columns of the fields of line `line` (1-based) of `text`, for an
/// error found after the line was read.
fn columns(text: &[u8], line: usize) -> Columns {
    text.split(|&b| b == b'\n')
        .nth(line - 1)
        .and_then(|l| parse_line(l, line).ok())
        .map_or_else(Columns::default, |(_, c)| c)
}

/// Looks at the cancel flag every this many nodes.
const CANCEL_EVERY: usize = 1 << 12;

fn cancelled(cancel: Option<&AtomicBool>, k: usize) -> Result<(), ZddError> {
    if k % CANCEL_EVERY == 0 && cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        return Err(ZddError::Cancelled);
    }
    Ok(())
}

/// Bytes a count of `bits` bits takes in a table (the value in place, and
/// beyond 128 bits its box and its digits on the heap).
fn count_bytes(bits: u64) -> u64 {
    let inline = std::mem::size_of::<Count>() as u64;
    if bits <= 128 {
        inline
    } else {
        inline + 64 + bits.div_ceil(64) * 8
    }
}

impl Zdd {
    /// Reads a ZDD from its text (see the module's prose), whatever memory
    /// it takes ([`READ_BYTES_PER_NODE`] a node at most).
    pub fn parse(text: &[u8]) -> Result<Zdd, ZddError> {
        Zdd::parse_within(text, u64::MAX)
    }

    /// [`Zdd::parse`], refused with [`ZddError::Memory`] before anything
    /// is read when the nodes the text can hold would take more than
    /// `budget` bytes.
    pub fn parse_within(text: &[u8], budget: u64) -> Result<Zdd, ZddError> {
        let most_nodes = text.len() as u64 / 10 + 1;
        let needed = most_nodes.saturating_mul(READ_BYTES_PER_NODE);
        if needed > budget {
            return Err(ZddError::Memory {
                what: "reading this ZDD",
                needed,
                budget,
            });
        }
        let mut raws: Vec<Raw> = Vec::new();
        let mut index: FxHashMap<u64, u32> = FxHashMap::default();
        for (n, line) in text.split(|&b| b == b'\n').enumerate() {
            if line.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            let (r, _) = parse_line(line, n + 1)?;
            if raws.len() >= u32::MAX as usize - 2 {
                return Err(ZddError::text(n + 1, 1, "too many nodes"));
            }
            if let Some(&k) = index.get(&r.id) {
                return Err(ZddError::text(
                    n + 1,
                    1,
                    format!(
                        "node {:x} is already defined on line {}",
                        r.id, raws[k as usize].line
                    ),
                ));
            }
            index.insert(r.id, raws.len() as u32);
            raws.push(r);
        }
        let Some(last) = raws.last() else {
            return Err(ZddError::text(1, 1, "no nodes: an empty ZDD file"));
        };
        let edges = resolve(text, &raws, &index)?;
        drop(index);
        let last_k = raws.len() as u32 - 1;
        // the root: the last line, or the HI of Knuth's dummy there
        let root_raw = if last.var == 0 {
            if last.lo != 0 {
                return Err(ZddError::text(
                    last.line,
                    columns(text, last.line).lo,
                    "the dummy root (variable 0) must have LO 0",
                ));
            }
            edges[last_k as usize][1]
        } else {
            last_k
        };
        let order = postorder(text, &raws, &edges, root_raw)?;
        Ok(Zdd::numbered(&raws, &edges, &order, root_raw))
    }

    /// The graph in `order` (children first), nodes numbered from 2.
    fn numbered(raws: &[Raw], edges: &[[u32; 2]], order: &[u32], root_raw: u32) -> Zdd {
        let mut num = vec![0u32; raws.len()];
        for (i, &k) in order.iter().enumerate() {
            num[k as usize] = i as u32 + 2;
        }
        let map = |c: u32| -> u32 {
            match c {
                BOT => 0,
                TOP => 1,
                k => num[k as usize],
            }
        };
        let n = order.len() + 2;
        let mut z = Zdd {
            var: Vec::with_capacity(n),
            lo: Vec::with_capacity(n),
            hi: Vec::with_capacity(n),
            live: Vec::with_capacity(n),
            line: Vec::with_capacity(n),
            var_col: Vec::with_capacity(n),
            root: map(root_raw),
        };
        z.var.extend([0, 0]);
        z.lo.extend([0, 0]);
        z.hi.extend([0, 0]);
        z.live.extend([false, true]);
        z.line.extend([0, 0]);
        z.var_col.extend([0, 0]);
        for &k in order {
            let r = &raws[k as usize];
            let [l, h] = edges[k as usize];
            let (l, h) = (map(l), map(h));
            z.var.push(r.var);
            z.lo.push(l);
            z.hi.push(h);
            z.live.push(z.live[l as usize] || z.live[h as usize]);
            z.line.push(r.line);
            z.var_col.push(r.var_col);
        }
        z
    }

    /// Whether the ZDD holds no solution.
    pub fn is_empty(&self) -> bool {
        !self.live[self.root as usize]
    }

    /// Nodes reachable from the root, terminals not included.
    pub fn nodes(&self) -> usize {
        self.var.len() - 2
    }

    /// The largest variable on a node (0 if none): the options a solution
    /// names are below it.
    pub fn max_var(&self) -> u32 {
        self.var.iter().copied().max().unwrap_or(0)
    }

    /// The number of solutions, exact, holding at a time only the counts
    /// still needed (see the module's prose) within `budget` bytes; first
    /// checks that no path names an option twice (an error at the node
    /// where one does). Stops with [`ZddError::Cancelled`] when `cancel` is
    /// set.
    pub fn count(&self, budget: u64, cancel: Option<&AtomicBool>) -> Result<Count, ZddError> {
        self.check_sets(budget, cancel)?;
        if self.root <= 1 || !self.live[self.root as usize] {
            return Ok(if self.root == 1 {
                Count::ONE
            } else {
                Count::ZERO
            });
        }
        let n = self.var.len();
        // parents still to count, per node
        let mut refs = vec![0u32; n];
        let base = n as u64 * 4;
        for z in 2..n {
            if self.live[z] {
                for c in [self.lo[z], self.hi[z]] {
                    if c >= 2 && self.live[c as usize] {
                        refs[c as usize] += 1;
                    }
                }
            }
        }
        refs[self.root as usize] += 1;
        let mut held: FxHashMap<u32, Count> = FxHashMap::default();
        let mut bytes = base;
        let entry = 16 + count_bytes(0);
        for z in 2..n {
            cancelled(cancel, z)?;
            if !self.live[z] {
                continue;
            }
            let mut c = Count::ZERO;
            for child in [self.lo[z], self.hi[z]] {
                match child {
                    0 => {}
                    1 => c.add_u128(1),
                    k if self.live[k as usize] => {
                        let r = &mut refs[k as usize];
                        *r -= 1;
                        if *r == 0 {
                            let v = held.remove(&k).expect("a count waiting for its parent");
                            bytes -= entry + count_bytes(v.bits()) - count_bytes(0);
                            c += &v;
                        } else {
                            c += &held[&k];
                        }
                    }
                    _ => {}
                }
            }
            if z as u32 == self.root {
                return Ok(c);
            }
            if refs[z] > 0 {
                bytes += entry + count_bytes(c.bits()) - count_bytes(0);
                if bytes > budget {
                    return Err(ZddError::Memory {
                        what: "counting this ZDD",
                        needed: bytes,
                        budget,
                    });
                }
                held.insert(z as u32, c);
            }
        }
        unreachable!("the root is numbered last")
    }

    /// Every node's count, for [`Counted::solution`] and
    /// [`Counted::sample`]: refused with [`ZddError::Memory`] before the
    /// table is made when it would take more than `budget` bytes (its size
    /// is worked out from the counts' logarithms first).
    pub fn counted(
        &self,
        budget: u64,
        cancel: Option<&AtomicBool>,
    ) -> Result<Counted<'_>, ZddError> {
        let n = self.var.len();
        let mut lg = vec![f64::NEG_INFINITY; n];
        lg[1] = 0.0;
        let mut needed = n as u64 * 8;
        for z in 2..n {
            cancelled(cancel, z)?;
            let (a, b) = (lg[self.lo[z] as usize], lg[self.hi[z] as usize]);
            let (hi, low) = if a >= b { (a, b) } else { (b, a) };
            lg[z] = if hi == f64::NEG_INFINITY {
                hi
            } else {
                hi + (1.0 + (low - hi).exp2()).log2()
            };
            let bits = if lg[z] == f64::NEG_INFINITY {
                0
            } else {
                // a few bits of margin for the rounding of the sums
                lg[z] as u64 + 3
            };
            needed = needed.saturating_add(count_bytes(bits));
        }
        drop(lg);
        if needed > budget {
            return Err(ZddError::Memory {
                what: "the counts of every node (to number or draw solutions)",
                needed,
                budget,
            });
        }
        let mut counts = Vec::with_capacity(n);
        counts.extend([Count::ZERO, Count::ONE]);
        for z in 2..n {
            cancelled(cancel, z)?;
            let mut c = counts[self.lo[z] as usize].clone();
            c += &counts[self.hi[z] as usize];
            counts.push(c);
        }
        Ok(Counted { zdd: self, counts })
    }

    /// The error of a path that takes the HI of node `z` while its
    /// variable is already on the path.
    fn repeat_error(&self, z: u32) -> ZddError {
        ZddError::text(
            self.line[z as usize],
            self.var_col[z as usize] as usize,
            format!(
                "option {} is named twice on a path through this node (a solution names each option once)",
                self.var[z as usize]
            ),
        )
    }

    /// Checks that no path names an option twice (see the module's prose).
    fn check_sets(&self, budget: u64, cancel: Option<&AtomicBool>) -> Result<(), ZddError> {
        let n = self.var.len();
        // the nodes whose HI leads to a solution, by variable: only a
        // variable on two of them can repeat, and only when one of them
        // comes no later than the HI of another (children are numbered
        // first)
        let takes = |z: usize| self.live[z] && self.live[self.hi[z] as usize];
        let mut span: FxHashMap<u32, (u32, u32, u32)> = FxHashMap::default();
        for z in 2..n {
            if takes(z) {
                let e = span.entry(self.var[z]).or_insert((0, u32::MAX, 0));
                e.0 += 1;
                e.1 = e.1.min(z as u32);
                e.2 = e.2.max(self.hi[z]);
            }
        }
        let mut slot_of: FxHashMap<u32, u32> = FxHashMap::default();
        for (&v, &(k, first, last_hi)) in &span {
            if k >= 2 && first <= last_hi {
                slot_of.insert(v, slot_of.len() as u32);
            }
        }
        drop(span);
        if slot_of.is_empty() {
            return Ok(());
        }
        let slot: Vec<u32> = (0..n)
            .map(|z| {
                if z >= 2 && takes(z) {
                    slot_of.get(&self.var[z]).copied().unwrap_or(u32::MAX)
                } else {
                    u32::MAX
                }
            })
            .collect();
        let vars = slot_of.len();
        drop(slot_of);
        // words a node in a batch: as many as the budget allows, up to
        // CHECK_WORDS
        let per_word = n as u64 * 8;
        let words = (budget / per_word.max(1)).min(CHECK_WORDS as u64) as usize;
        if words == 0 {
            return Err(ZddError::Memory {
                what: "checking that no solution names an option twice",
                needed: per_word + n as u64 * 4,
                budget,
            });
        }
        let words = words.min(vars.div_ceil(64));
        let width = (words * 64) as u32;
        let mut sets = vec![0u64; n * words];
        let mut first = 0u32;
        let mut k = 0usize;
        while (first as usize) < vars {
            sets.iter_mut().for_each(|w| *w = 0);
            for z in 2..n {
                k += 1;
                cancelled(cancel, k)?;
                if !self.live[z] {
                    continue;
                }
                let (l, h) = (self.lo[z] as usize, self.hi[z] as usize);
                let s = slot[z];
                if s != u32::MAX && s >= first && s - first < width {
                    let b = (s - first) as usize;
                    if sets[h * words + b / 64] >> (b % 64) & 1 == 1 {
                        return Err(self.repeat_error(z as u32));
                    }
                }
                for w in 0..words {
                    let mut x = 0;
                    if self.live[l] {
                        x |= sets[l * words + w];
                    }
                    if self.live[h] {
                        x |= sets[h * words + w];
                    }
                    sets[z * words + w] = x;
                }
                if s != u32::MAX && s >= first && s - first < width {
                    let b = (s - first) as usize;
                    sets[z * words + b / 64] |= 1 << (b % 64);
                }
            }
            first += width;
        }
        Ok(())
    }

    /// Calls `f` with each solution (its options, 0-based, in the order of
    /// the path), until `f` breaks; a path that names an option twice is
    /// an error at its node.
    pub fn for_each<B>(
        &self,
        mut f: impl FnMut(&[usize]) -> ControlFlow<B>,
    ) -> Result<Option<B>, ZddError> {
        if self.is_empty() {
            return Ok(None);
        }
        // a path: the nodes whose HI was taken are the options
        let mut opts: Vec<usize> = Vec::new();
        // the variables taken, and the node that took each (the error
        // names the first of the two, as `count`'s check does)
        let mut on_path: FxHashMap<u32, u32> = FxHashMap::default();
        // (node, how far: 0 = HI next, 1 = LO next, 2 = done)
        let mut stack: Vec<(u32, u8)> = vec![(self.root, 0)];
        while let Some(top) = stack.last_mut() {
            let (z, step) = *top;
            if z == 1 {
                if let ControlFlow::Break(b) = f(&opts) {
                    return Ok(Some(b));
                }
                stack.pop();
                continue;
            }
            let h = self.hi[z as usize];
            match step {
                0 => {
                    top.1 = 1;
                    if self.live[h as usize] {
                        if let Some(&first) = on_path.get(&self.var[z as usize]) {
                            return Err(self.repeat_error(first));
                        }
                        on_path.insert(self.var[z as usize], z);
                        opts.push(self.var[z as usize] as usize - 1);
                        stack.push((h, 0));
                    }
                }
                1 => {
                    top.1 = 2;
                    if self.live[h as usize] {
                        // back from HI: drop its option
                        opts.pop();
                        on_path.remove(&self.var[z as usize]);
                    }
                    let l = self.lo[z as usize];
                    if self.live[l as usize] {
                        stack.push((l, 0));
                    }
                }
                _ => {
                    stack.pop();
                }
            }
        }
        Ok(None)
    }
}

/// How far [`Zdd::list`] or [`Counted::draw`] went: the solutions handed
/// on, and whether the cancel flag stopped it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    pub solutions: u64,
    pub interrupted: bool,
}

impl Zdd {
    /// [`Zdd::for_each`] for a front end: `f` gets each solution until
    /// `limit` (if any) were handed on, `f` fails (its error is the inner
    /// one) or `cancel` is set (looked at before each).
    pub fn list<E>(
        &self,
        limit: Option<u64>,
        cancel: &AtomicBool,
        mut f: impl FnMut(&[usize]) -> Result<(), E>,
    ) -> Result<Result<Walked, E>, ZddError> {
        let mut w = Walked::default();
        let limit = limit.unwrap_or(u64::MAX);
        let stop = self.for_each(|sol| {
            if cancel.load(Ordering::Relaxed) {
                w.interrupted = true;
                return ControlFlow::Break(None);
            }
            w.solutions += 1;
            match f(sol) {
                Err(e) => ControlFlow::Break(Some(e)),
                Ok(()) if w.solutions >= limit => ControlFlow::Break(None),
                Ok(()) => ControlFlow::Continue(()),
            }
        })?;
        Ok(match stop {
            Some(Some(e)) => Err(e),
            _ => Ok(w),
        })
    }

    /// Checks that the ZDD can be `problem`'s: it names no option past the
    /// problem's last ([`ZddError::NotOfProblem`]).
    pub fn fits(&self, problem: &Problem) -> Result<(), ZddError> {
        let var = self.max_var();
        if var as usize > problem.n_options() {
            return Err(ZddError::NotOfProblem {
                var,
                options: problem.n_options(),
            });
        }
        Ok(())
    }
}

/// Checks a solution a ZDD holds (options, 0-based) against the problem
/// it was made from, with [`verify`]: [`ZddError::NotASolution`] when it
/// does not solve it.
pub fn verify_solution(problem: &Problem, sol: &[usize]) -> Result<(), ZddError> {
    verify(problem, sol).map_err(|why| ZddError::NotASolution {
        options: sol.to_vec(),
        why,
    })
}

/// How a front end shows each solution of a ZDD, decided once from what
/// it was given ([`ZddForm::of`]); each is first checked against the
/// problem, when there is one ([`verify_solution`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZddForm {
    /// A record of the options, whatever else is given.
    Record,
    /// A line the front end draws from the problem (a Sudoku's grid).
    Line,
    /// A picture the front end draws (a polyform packing), a blank line
    /// before each after the first.
    Picture,
    /// The problem's option lines ([`ZddForm::text`]), a blank line before
    /// each solution after the first.
    Options,
    /// The option numbers (0-based) on one line ([`ZddForm::text`]): no
    /// problem at hand.
    Numbers,
}

impl ZddForm {
    /// The form for what a front end was given: a record when asked, else
    /// a line or a picture when asked (`line` needs the problem), else the
    /// problem's options when there is one, else the numbers.
    pub fn of(record: bool, line: bool, picture: bool, problem: bool) -> ZddForm {
        match (record, line && problem, picture, problem) {
            (true, ..) => ZddForm::Record,
            (_, true, ..) => ZddForm::Line,
            (_, _, true, _) => ZddForm::Picture,
            (_, _, _, true) => ZddForm::Options,
            _ => ZddForm::Numbers,
        }
    }

    /// Whether solution `n` (1-based, in the order shown) comes after a
    /// blank line.
    pub fn gap(self, n: u64) -> bool {
        n > 1 && matches!(self, ZddForm::Picture | ZddForm::Options)
    }

    /// A solution as text in the forms this module writes, each line with
    /// its newline: the problem's option lines ([`ZddForm::Options`], with
    /// `problem`), else the option numbers.
    pub fn text(self, problem: Option<&Problem>, sol: &[usize]) -> String {
        match (self, problem) {
            (ZddForm::Options, Some(p)) => sol.iter().map(|&k| p.option_text(k) + "\n").collect(),
            _ => {
                let words: Vec<String> = sol.iter().map(usize::to_string).collect();
                words.join(" ") + "\n"
            }
        }
    }
}

/// The memory a ZDD's work may take: nine tenths of what the process can
/// still get under its limits ([`crate::memory::Limits`]), all of it where
/// they are unknown.
pub fn work_budget() -> u64 {
    crate::memory::Limits::read()
        .headroom()
        .map_or(u64::MAX, |h| h / 10 * 9)
}

/// A ZDD with every node's count ([`Zdd::counted`]): solutions by number,
/// and uniformly random ones.
#[derive(Debug)]
pub struct Counted<'z> {
    zdd: &'z Zdd,
    counts: Vec<Count>,
}

impl Counted<'_> {
    /// The number of solutions (as [`Zdd::count`], without its check that
    /// solutions are sets: [`solution`](Self::solution) checks the path it
    /// takes).
    pub fn count(&self) -> &Count {
        &self.counts[self.zdd.root as usize]
    }

    /// The solution numbered `r` (below [`count`](Self::count)), in the
    /// order of [`Zdd::for_each`]; `None` when `r` is too large; an error
    /// when its path names an option twice.
    pub fn solution(&self, r: &Count) -> Result<Option<Vec<usize>>, ZddError> {
        if r >= self.count() {
            return Ok(None);
        }
        let z = self.zdd;
        let mut r = r.to_biguint();
        let mut node = z.root;
        let mut opts = Vec::new();
        let mut on_path: FxHashMap<u32, u32> = FxHashMap::default();
        while node > 1 {
            let h = z.hi[node as usize];
            let ch = self.counts[h as usize].to_biguint();
            if r < ch {
                if let Some(&first) = on_path.get(&z.var[node as usize]) {
                    return Err(z.repeat_error(first));
                }
                on_path.insert(z.var[node as usize], node);
                opts.push(z.var[node as usize] as usize - 1);
                node = h;
            } else {
                r -= ch;
                node = z.lo[node as usize];
            }
        }
        debug_assert!(node == 1);
        Ok(Some(opts))
    }

    /// A uniformly random solution (each with probability exactly
    /// `1 / count`), or `None` when there is none. `next_u64` gives
    /// uniformly random 64-bit words.
    pub fn sample(
        &self,
        mut next_u64: impl FnMut() -> u64,
    ) -> Result<Option<Vec<usize>>, ZddError> {
        let n = self.count().to_biguint();
        if n.bits() == 0 {
            return Ok(None);
        }
        let r = below(&n, &mut next_u64);
        self.solution(&Count::from(r))
    }

    /// `n` uniformly random solutions, drawn independently (one may come
    /// twice) with [`SplitMix64`] from `seed`, so that a seed always
    /// draws the same ones: `f` gets each until it fails (its error is the
    /// inner one) or `cancel` is set (looked at before each). None when the
    /// ZDD is empty.
    pub fn draw<E>(
        &self,
        n: u64,
        seed: u64,
        cancel: &AtomicBool,
        mut f: impl FnMut(&[usize]) -> Result<(), E>,
    ) -> Result<Result<Walked, E>, ZddError> {
        let mut rng = SplitMix64::new(seed);
        let mut w = Walked::default();
        while w.solutions < n {
            if cancel.load(Ordering::Relaxed) {
                w.interrupted = true;
                break;
            }
            let Some(sol) = self.sample(|| rng.next_u64())? else {
                break;
            };
            if let Err(e) = f(&sol) {
                return Ok(Err(e));
            }
            w.solutions += 1;
        }
        Ok(Ok(w))
    }
}

const BOT: u32 = u32::MAX - 1;
const TOP: u32 = u32::MAX;

/// References resolved to raw indices (terminals: [`BOT`], [`TOP`]).
fn resolve(
    text: &[u8],
    raws: &[Raw],
    index: &FxHashMap<u64, u32>,
) -> Result<Vec<[u32; 2]>, ZddError> {
    let last_line = raws.last().map_or(0, |r| r.line);
    let find = |id: u64| -> Option<u32> {
        match id {
            0 => Some(BOT),
            1 => Some(TOP),
            _ => index.get(&id).copied(),
        }
    };
    let mut edges: Vec<[u32; 2]> = Vec::with_capacity(raws.len());
    for r in raws {
        if r.var == 0 && r.line != last_line {
            return Err(ZddError::text(
                r.line,
                1,
                "variable 0 is only for the dummy root, on the last line",
            ));
        }
        let (Some(l), Some(h)) = (find(r.lo), find(r.hi)) else {
            let cols = columns(text, r.line);
            let (id, column) = if find(r.lo).is_none() {
                (r.lo, cols.lo)
            } else {
                (r.hi, cols.hi)
            };
            return Err(ZddError::text(
                r.line,
                column,
                format!("node {id:x} is not defined"),
            ));
        };
        edges.push([l, h]);
    }
    Ok(edges)
}

/// The raw nodes reachable from `root`, children first (an iterative
/// depth-first walk that finds cycles).
fn postorder(
    text: &[u8],
    raws: &[Raw],
    edges: &[[u32; 2]],
    root: u32,
) -> Result<Vec<u32>, ZddError> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; raws.len()];
    let mut order: Vec<u32> = Vec::new();
    if root >= BOT {
        return Ok(order);
    }
    let mut stack: Vec<(u32, u8)> = vec![(root, 0)];
    state[root as usize] = OPEN;
    while let Some(top) = stack.last_mut() {
        let (k, side) = *top;
        if side == 2 {
            stack.pop();
            state[k as usize] = DONE;
            order.push(k);
            continue;
        }
        top.1 += 1;
        let c = edges[k as usize][side as usize];
        if c >= BOT {
            continue;
        }
        match state[c as usize] {
            NEW => {
                state[c as usize] = OPEN;
                stack.push((c, 0));
            }
            OPEN => {
                let r = &raws[k as usize];
                let cols = columns(text, r.line);
                return Err(ZddError::text(
                    r.line,
                    if side == 0 { cols.lo } else { cols.hi },
                    format!(
                        "a cycle: node {:x} leads back to itself",
                        raws[c as usize].id
                    ),
                ));
            }
            _ => {}
        }
    }
    Ok(order)
}

/// A uniformly random integer below `n` (> 0): random numbers of `n`'s
/// bit length, until one is below `n` (at most two tries expected).
fn below(n: &BigUint, next_u64: &mut impl FnMut() -> u64) -> BigUint {
    let bits = n.bits();
    let words = bits.div_ceil(64) as usize;
    let top_mask = if bits % 64 == 0 {
        u64::MAX
    } else {
        (1u64 << (bits % 64)) - 1
    };
    loop {
        let mut w: Vec<u64> = (0..words).map(|_| next_u64()).collect();
        if let Some(last) = w.last_mut() {
            *last &= top_mask;
        }
        let r = BigUint::from_slice(
            &w.iter()
                .flat_map(|&x| [x as u32, (x >> 32) as u32])
                .collect::<Vec<u32>>(),
        );
        if &r < n {
            return r;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: u64 = u64::MAX;

    fn count(z: &Zdd) -> Count {
        z.count(ALL, None).unwrap()
    }

    #[test]
    fn knuths_two_solution_example() {
        // dlx6 on options 1: A, 2: B, 3: A B
        let z = Zdd::parse(b"2: (~2?0:1)\n3: (~1?0:2)\n4: (~3?3:1)\n5: (~0?0:4)\n").unwrap();
        assert_eq!(count(&z), Count::from(2u64));
        assert_eq!(z.nodes(), 3);
        let mut all = Vec::new();
        z.for_each::<()>(|s| {
            let mut s = s.to_vec();
            s.sort();
            all.push(s);
            ControlFlow::Continue(())
        })
        .unwrap();
        all.sort();
        assert_eq!(all, vec![vec![0, 1], vec![2]]);
        let c = z.counted(ALL, None).unwrap();
        assert_eq!(c.count(), &Count::from(2u64));
        for r in 0..2u64 {
            let mut s = c.solution(&Count::from(r)).unwrap().unwrap();
            s.sort();
            assert!(all.contains(&s));
        }
        assert_eq!(c.solution(&Count::from(2u64)), Ok(None));
    }

    #[test]
    fn errors_say_where() {
        let e = |t: &str| Zdd::parse(t.as_bytes()).unwrap_err().place().unwrap();
        let m = |t: &str| Zdd::parse(t.as_bytes()).unwrap_err().to_string();
        assert_eq!(e("").0, 1);
        assert_eq!(e("2: (~1?0:1)\n3: (~2?0:5)\n"), (2, 10));
        assert!(m("2: (~1?0:1)\n3: (~2?0:5)\n").contains("not defined"));
        assert!(m("2: (~1?0:3)\n3: (~2?0:2)\n").contains("cycle"));
        assert_eq!(e("2: (~1?0:3)\n3: (~2?0:2)\n"), (1, 10));
        assert!(m("2: (~1?0:1)\n2: (~2?0:1)\n").contains("already defined"));
        assert_eq!(e("2: (~1?0:1)\n3: (~2?x:1)\n"), (2, 8));
        assert!(m("1: (~1?0:1)\n").contains("terminals"));
        assert!(m("2: (~99999999999?0:1)\n").contains("too large"));
        assert!(m("2: (~1?0:1)\nfffffffffffffffff: (~1?0:1)\n").contains("too large"));
        assert!(m("2: (~0?0:1)\n3: (~1?0:2)\n").contains("variable 0"));
        assert_eq!(e("2: (~1?0:1)\n3: (~0?2:1)\n"), (2, 8));
    }

    #[test]
    fn nodes_in_any_order_and_no_dummy() {
        let z = Zdd::parse(b"a: (~3?b:1)\nb: (~1?0:c)\nc: (~2?0:1)\n").unwrap();
        // the root is the last line: c, one solution {2}
        assert_eq!(count(&z), Count::ONE);
        let z = Zdd::parse(b"b: (~1?0:c)\nc: (~2?0:1)\na: (~3?b:1)\n").unwrap();
        assert_eq!(count(&z), Count::from(2u64));
    }

    /// A path that names an option twice is an error at the node where
    /// it does, for counting, listing and numbering alike; a variable on
    /// two nodes of different paths is not.
    #[test]
    fn a_path_names_each_option_once() {
        let z = Zdd::parse(b"2: (~1?0:1)\n3: (~1?0:2)\n").unwrap();
        let err = z.count(ALL, None).unwrap_err();
        assert_eq!(err.place(), Some((2, 6)), "{err}");
        assert!(err.to_string().contains("option 1 is named twice"), "{err}");
        assert_eq!(
            z.for_each::<()>(|_| ControlFlow::Continue(())),
            Err(err.clone())
        );
        let c = z.counted(ALL, None).unwrap();
        assert_eq!(c.solution(&Count::ZERO), Err(err));
        // option 1 on both branches of node 4: two solutions {2, 1} and
        // {9, 3, 1}
        let z = Zdd::parse(b"2: (~1?0:1)\n3: (~2?0:2)\n5: (~1?0:1)\n6: (~3?0:5)\n4: (~9?3:6)\n")
            .unwrap();
        assert_eq!(count(&z), Count::from(2u64));
        // deeper: a repeat four nodes below, behind a LO edge
        let z = Zdd::parse(b"2: (~7?0:1)\n3: (~5?2:1)\n4: (~6?3:0)\n5: (~7?0:4)\n").unwrap();
        let err = z.count(ALL, None).unwrap_err();
        assert_eq!(err.place().map(|p| p.0), Some(4), "{err}");
        // a repeat below a node with no solution is not a path
        let z = Zdd::parse(b"2: (~7?0:0)\n3: (~5?2:1)\n4: (~7?0:3)\n").unwrap();
        assert_eq!(count(&z), Count::ONE);
    }

    /// A chain of `n` nodes whose both edges go to the node below: 2^n
    /// solutions, and on every path each variable once.
    fn doubling_chain(n: usize) -> Vec<u8> {
        let mut t = String::new();
        for k in 0..n {
            let below = if k == 0 {
                "1".to_string()
            } else {
                format!("{:x}", k + 1)
            };
            t.push_str(&format!("{:x}: (~{}?{below}:{below})\n", k + 2, k + 1));
        }
        t.into_bytes()
    }

    /// Counting holds only the counts still waiting for a parent: a chain
    /// of 20,000 doublings (2^20000 solutions, each node's count up to
    /// 2.5 KB, 25 MB for all of them) counts within 256 KiB; the table of
    /// every count is refused at that budget before it is made, and made
    /// with enough.
    #[test]
    fn counting_memory_is_the_frontier() {
        let z = Zdd::parse(&doubling_chain(20_000)).unwrap();
        let c = z.count(256 << 10, None).unwrap();
        assert_eq!(c.bits(), 20_001);
        match z.counted(1 << 20, None) {
            Err(ZddError::Memory { needed, budget, .. }) => {
                assert!(needed > 24 << 20 && needed < 28 << 20, "{needed}");
                assert_eq!(budget, 1 << 20);
            }
            r => panic!("{r:?}"),
        }
        let all = z.counted(64 << 20, None).unwrap();
        assert_eq!(all.count(), &c);
        // too little even for the frontier
        assert!(matches!(
            z.count(10_000, None),
            Err(ZddError::Memory { .. })
        ));
        // reading is refused by the text's size, before anything is read
        let text = doubling_chain(1000);
        match Zdd::parse_within(&text, 1000) {
            Err(ZddError::Memory { what, needed, .. }) => {
                assert_eq!(what, "reading this ZDD");
                assert!(needed >= (text.len() as u64 / 10) * READ_BYTES_PER_NODE);
            }
            r => panic!("{r:?}"),
        }
        assert!(Zdd::parse_within(&text, text.len() as u64 * READ_BYTES_PER_NODE).is_ok());
    }

    #[test]
    fn a_set_flag_stops_the_work() {
        let z = Zdd::parse(&doubling_chain(10_000)).unwrap();
        let stop = AtomicBool::new(true);
        assert_eq!(z.count(ALL, Some(&stop)), Err(ZddError::Cancelled));
        assert_eq!(
            z.counted(ALL, Some(&stop)).unwrap_err(),
            ZddError::Cancelled
        );
    }

    /// The check of repeated options takes its batches within its budget:
    /// 600 variables on two nodes each, in batches of 64 or 512.
    #[test]
    fn the_check_goes_in_batches() {
        // node pairs (a_v, b_v) for v in 1..=600, chained so that every
        // variable is on two nodes of different paths: b_v below a_v's LO
        let mut t = String::new();
        let mut below = "1".to_string();
        let mut id = 2u64;
        for v in 1..=600u32 {
            t.push_str(&format!("{id:x}: (~{v}?{below}:{below})\n"));
            let b = format!("{id:x}");
            id += 1;
            t.push_str(&format!("{id:x}: (~{}?{b}:0)\n", v + 1000));
            let c = format!("{id:x}");
            id += 1;
            t.push_str(&format!("{id:x}: (~{v}?{c}:1)\n"));
            below = format!("{id:x}");
            id += 1;
        }
        let z = Zdd::parse(t.as_bytes()).unwrap();
        let n = z.var.len() as u64;
        assert!(z.count(n * 8 + n * 4, None).is_ok());
        assert!(z.count(ALL, None).is_ok());
        // one repeat: option 600 again on the path below the root's HI
        let t2 = format!("{t}{id:x}: (~600?0:{below})\n");
        let z = Zdd::parse(t2.as_bytes()).unwrap();
        for budget in [n * 8 + 64, ALL] {
            let err = z.count(budget, None).unwrap_err();
            assert!(err.to_string().contains("option 600"), "{err}");
        }
    }

    #[test]
    fn below_is_below() {
        let mut x = 7u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [1u64, 2, 3, 5, 64, 1000] {
            let n = BigUint::from(n);
            for _ in 0..50 {
                assert!(below(&n, &mut next) < n);
            }
        }
        let n = BigUint::from(1u8) << 130u32;
        assert!(below(&(n.clone() + 1u8), &mut next) <= n);
    }
    /// Knuth's example of [`knuths_two_solution_example`]: options 1: A,
    /// 2: B, 3: A B, and its problem.
    fn knuth() -> (Zdd, Problem) {
        let z = Zdd::parse(b"2: (~2?0:1)\n3: (~1?0:2)\n4: (~3?3:1)\n5: (~0?0:4)\n").unwrap();
        let mut b = crate::ProblemBuilder::new();
        b.primary("A").unwrap();
        b.primary("B").unwrap();
        for o in [&["A"][..], &["B"], &["A", "B"]] {
            b.option(o.iter().copied()).unwrap();
        }
        (z, b.build().unwrap())
    }

    #[test]
    fn a_list_stops_at_its_limit_at_a_cancel_or_at_an_error() {
        let (z, _) = knuth();
        let go = AtomicBool::new(false);
        let mut seen = Vec::new();
        let w = z.list::<()>(None, &go, |s| {
            seen.push(s.to_vec());
            Ok(())
        });
        assert_eq!(
            w,
            Ok(Ok(Walked {
                solutions: 2,
                interrupted: false
            }))
        );
        assert_eq!(seen.len(), 2);
        let w = z.list::<()>(Some(1), &go, |_| Ok(()));
        assert_eq!(
            w,
            Ok(Ok(Walked {
                solutions: 1,
                interrupted: false
            }))
        );
        assert_eq!(z.list(None, &go, |_| Err("full")), Ok(Err("full")));
        let stop = AtomicBool::new(true);
        let w = z.list::<()>(None, &stop, |_| panic!("listed after a cancel"));
        assert_eq!(
            w,
            Ok(Ok(Walked {
                solutions: 0,
                interrupted: true
            }))
        );
        let twice = Zdd::parse(b"2: (~1?0:1)\n3: (~1?0:2)\n").unwrap();
        let e = twice.list::<()>(None, &go, |_| Ok(())).unwrap_err();
        assert_eq!(e.place(), Some((2, 6)));
    }

    #[test]
    fn draws_are_seeded_and_stop_when_empty_or_cancelled() {
        let (z, _) = knuth();
        let c = z.counted(ALL, None).unwrap();
        let go = AtomicBool::new(false);
        let drawn = |seed| {
            let mut all = Vec::new();
            let w = c.draw::<()>(20, seed, &go, |s| {
                all.push(s.to_vec());
                Ok(())
            });
            assert_eq!(
                w,
                Ok(Ok(Walked {
                    solutions: 20,
                    interrupted: false
                }))
            );
            all
        };
        let (a, b) = (drawn(7), drawn(7));
        assert_eq!(a, b);
        // both solutions come up in twenty draws of this seed
        assert!(a.iter().any(|s| s.len() == 1) && a.iter().any(|s| s.len() == 2));
        assert_eq!(c.draw(3, 1, &go, |_| Err(5)), Ok(Err(5)));
        let stop = AtomicBool::new(true);
        let w = c.draw::<()>(3, 1, &stop, |_| panic!("drawn after a cancel"));
        assert_eq!(
            w,
            Ok(Ok(Walked {
                solutions: 0,
                interrupted: true
            }))
        );
        let empty = Zdd::parse(b"2: (~1?0:0)\n").unwrap();
        let ec = empty.counted(ALL, None).unwrap();
        let w = ec.draw::<()>(3, 1, &go, |_| panic!("drawn from nothing"));
        assert_eq!(w, Ok(Ok(Walked::default())));
    }

    #[test]
    fn a_zdd_is_checked_against_its_problem() {
        let (z, p) = knuth();
        assert_eq!(z.fits(&p), Ok(()));
        assert_eq!(verify_solution(&p, &[0, 1]), Ok(()));
        assert_eq!(verify_solution(&p, &[2]), Ok(()));
        let e = verify_solution(&p, &[0]).unwrap_err();
        assert!(matches!(&e, ZddError::NotASolution { options, .. } if options == &[0]));
        assert!(e
            .to_string()
            .starts_with("the ZDD holds a set of options [0] that is not a solution: "));
        let mut b = crate::ProblemBuilder::new();
        b.primary("A").unwrap();
        b.option(["A"]).unwrap();
        let small = b.build().unwrap();
        let e = z.fits(&small).unwrap_err();
        assert_eq!(e, ZddError::NotOfProblem { var: 3, options: 1 });
        assert_eq!(
            e.to_string(),
            "the ZDD names option 3 but the problem has 1 option: not the ZDD of this problem"
        );
        assert!(work_budget() > 0);
    }

    #[test]
    fn forms_are_chosen_in_order_and_written() {
        use ZddForm::*;
        assert_eq!(ZddForm::of(true, true, true, true), Record);
        assert_eq!(ZddForm::of(false, true, false, true), Line);
        // a line needs the problem
        assert_eq!(ZddForm::of(false, true, false, false), Numbers);
        assert_eq!(ZddForm::of(false, false, true, true), Picture);
        assert_eq!(ZddForm::of(false, false, false, true), Options);
        assert_eq!(ZddForm::of(false, false, false, false), Numbers);
        assert!(!Options.gap(1) && Options.gap(2) && Picture.gap(3));
        assert!(!Numbers.gap(2) && !Record.gap(2) && !Line.gap(2));
        let (_, p) = knuth();
        assert_eq!(Options.text(Some(&p), &[0, 1]), "A\nB\n");
        assert_eq!(Numbers.text(Some(&p), &[0, 1]), "0 1\n");
        assert_eq!(Numbers.text(None, &[]), "\n");
    }
}
