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
//! do not need them to be.
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
use num_bigint::BigUint;
use rustc_hash::FxHashMap;
use std::ops::ControlFlow;

/// A ZDD read from its text: nodes numbered from 2 in an order where each
/// node comes after the nodes it points to.
#[derive(Clone, Debug)]
pub struct Zdd {
    /// Per node (index 2 on; 0 and 1 are the terminals): its variable,
    /// LO and HI.
    var: Vec<u32>,
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// The count of every node (terminals included).
    counts: Vec<Count>,
    root: u32,
}

/// Text that is not a ZDD: where and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ZddError {
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
}

/// A node as written, before its references are resolved.
struct Raw {
    id: u64,
    var: u32,
    lo: u64,
    hi: u64,
    line: usize,
    /// Columns of LO and HI, for errors.
    lo_col: usize,
    hi_col: usize,
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
}

impl Cursor<'_> {
    fn err(&self, message: impl Into<String>) -> ZddError {
        ZddError {
            line: self.line,
            column: self.i + 1,
            message: message.into(),
        }
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
                .ok_or_else(|| ZddError {
                    line: self.line,
                    column: start + 1,
                    message: format!("{what} is too large"),
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

fn parse_line(s: &[u8], line: usize) -> Result<Raw, ZddError> {
    let mut c = Cursor { s, i: 0, line };
    let (id, id_col) = c.number(16, "a node number")?;
    c.expect(b':')?;
    c.expect(b'(')?;
    c.expect(b'~')?;
    let (var, var_col) = c.number(10, "a variable (option number)")?;
    let var = u32::try_from(var).map_err(|_| ZddError {
        line,
        column: var_col,
        message: "the variable is too large".into(),
    })?;
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
        return Err(ZddError {
            line,
            column: id_col,
            message: "nodes 0 and 1 are the terminals and cannot be defined".into(),
        });
    }
    Ok(Raw {
        id,
        var,
        lo,
        hi,
        line,
        lo_col,
        hi_col,
    })
}

impl Zdd {
    /// Reads a ZDD from its text (see the module's prose).
    pub fn parse(text: &[u8]) -> Result<Zdd, ZddError> {
        let mut raws: Vec<Raw> = Vec::new();
        let mut index: FxHashMap<u64, u32> = FxHashMap::default();
        for (n, line) in text.split(|&b| b == b'\n').enumerate() {
            if line.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            let r = parse_line(line, n + 1)?;
            if raws.len() >= u32::MAX as usize - 2 {
                return Err(ZddError {
                    line: n + 1,
                    column: 1,
                    message: "too many nodes".into(),
                });
            }
            if let Some(&k) = index.get(&r.id) {
                return Err(ZddError {
                    line: n + 1,
                    column: 1,
                    message: format!(
                        "node {:x} is already defined on line {}",
                        r.id, raws[k as usize].line
                    ),
                });
            }
            index.insert(r.id, raws.len() as u32);
            raws.push(r);
        }
        let Some(last) = raws.last() else {
            return Err(ZddError {
                line: 1,
                column: 1,
                message: "no nodes: an empty ZDD file".into(),
            });
        };
        let last_line = last.line;
        // resolve references to raw indices (terminals: u32::MAX - 1, MAX)
        const BOT: u32 = u32::MAX - 1;
        const TOP: u32 = u32::MAX;
        let resolve = |id: u64, line: usize, column: usize| -> Result<u32, ZddError> {
            match id {
                0 => Ok(BOT),
                1 => Ok(TOP),
                _ => index.get(&id).copied().ok_or_else(|| ZddError {
                    line,
                    column,
                    message: format!("node {id:x} is not defined"),
                }),
            }
        };
        let mut edges: Vec<[u32; 2]> = Vec::with_capacity(raws.len());
        for r in &raws {
            if r.var == 0 && r.line != last_line {
                return Err(ZddError {
                    line: r.line,
                    column: 1,
                    message: "variable 0 is only for the dummy root, on the last line".into(),
                });
            }
            edges.push([
                resolve(r.lo, r.line, r.lo_col)?,
                resolve(r.hi, r.line, r.hi_col)?,
            ]);
        }
        // the root: the last line, or the HI of Knuth's dummy there
        let last_k = raws.len() as u32 - 1;
        let root_raw = if last.var == 0 {
            if last.lo != 0 {
                return Err(ZddError {
                    line: last.line,
                    column: last.lo_col,
                    message: "the dummy root (variable 0) must have LO 0".into(),
                });
            }
            edges[last_k as usize][1]
        } else {
            last_k
        };
        // number the nodes reachable from the root children first (an
        // iterative depth-first walk that finds cycles)
        const NEW: u32 = u32::MAX;
        const OPEN: u32 = u32::MAX - 1;
        let mut num = vec![NEW; raws.len()];
        let mut order: Vec<u32> = Vec::new();
        if root_raw < BOT {
            let mut stack: Vec<(u32, u8)> = vec![(root_raw, 0)];
            num[root_raw as usize] = OPEN;
            while let Some(top) = stack.last_mut() {
                let (k, side) = *top;
                if side == 2 {
                    stack.pop();
                    num[k as usize] = order.len() as u32 + 2;
                    order.push(k);
                    continue;
                }
                top.1 += 1;
                let c = edges[k as usize][side as usize];
                if c >= BOT {
                    continue;
                }
                match num[c as usize] {
                    NEW => {
                        num[c as usize] = OPEN;
                        stack.push((c, 0));
                    }
                    OPEN => {
                        let r = &raws[k as usize];
                        return Err(ZddError {
                            line: r.line,
                            column: if side == 0 { r.lo_col } else { r.hi_col },
                            message: format!(
                                "a cycle: node {:x} leads back to itself",
                                raws[c as usize].id
                            ),
                        });
                    }
                    _ => {}
                }
            }
        }
        let map = |c: u32| -> u32 {
            match c {
                BOT => 0,
                TOP => 1,
                k => num[k as usize],
            }
        };
        let n = order.len() + 2;
        let (mut var, mut lo, mut hi) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        var.extend([0, 0]);
        lo.extend([0, 0]);
        hi.extend([0, 0]);
        let mut counts = Vec::with_capacity(n);
        counts.extend([Count::ZERO, Count::ONE]);
        for &k in &order {
            let [l, h] = edges[k as usize];
            let (l, h) = (map(l), map(h));
            var.push(raws[k as usize].var);
            lo.push(l);
            hi.push(h);
            let mut c = counts[l as usize].clone();
            c += &counts[h as usize];
            counts.push(c);
        }
        Ok(Zdd {
            var,
            lo,
            hi,
            counts,
            root: map(root_raw),
        })
    }

    /// The number of solutions.
    pub fn count(&self) -> &Count {
        &self.counts[self.root as usize]
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

    /// Calls `f` with each solution (its options, 0-based, in the order of
    /// the path), until `f` breaks.
    pub fn for_each<B>(&self, mut f: impl FnMut(&[usize]) -> ControlFlow<B>) -> Option<B> {
        if self.counts[self.root as usize].is_zero() {
            return None;
        }
        // a path: the nodes whose HI was taken are the options
        let mut opts: Vec<usize> = Vec::new();
        // (node, how far: 0 = HI next, 1 = LO next, 2 = done)
        let mut stack: Vec<(u32, u8)> = vec![(self.root, 0)];
        while let Some(top) = stack.last_mut() {
            let (z, step) = *top;
            if z == 1 {
                if let ControlFlow::Break(b) = f(&opts) {
                    return Some(b);
                }
                stack.pop();
                continue;
            }
            match step {
                0 => {
                    top.1 = 1;
                    let h = self.hi[z as usize];
                    if !self.counts[h as usize].is_zero() {
                        opts.push(self.var[z as usize] as usize - 1);
                        stack.push((h, 0));
                    }
                }
                1 => {
                    if self.counts[self.hi[z as usize] as usize].is_zero() {
                        top.1 = 2;
                    } else {
                        // back from HI: drop its option
                        top.1 = 2;
                        opts.pop();
                    }
                    let l = self.lo[z as usize];
                    if !self.counts[l as usize].is_zero() {
                        stack.push((l, 0));
                    }
                }
                _ => {
                    stack.pop();
                }
            }
        }
        None
    }

    /// The solution numbered `r` (below [`count`](Self::count)), in the
    /// order of [`for_each`](Self::for_each); `None` when `r` is too large.
    pub fn solution(&self, r: &Count) -> Option<Vec<usize>> {
        if r >= self.count() {
            return None;
        }
        let mut r = r.to_biguint();
        let mut z = self.root;
        let mut opts = Vec::new();
        while z > 1 {
            let h = self.hi[z as usize];
            let ch = self.counts[h as usize].to_biguint();
            if r < ch {
                opts.push(self.var[z as usize] as usize - 1);
                z = h;
            } else {
                r -= ch;
                z = self.lo[z as usize];
            }
        }
        debug_assert!(z == 1);
        Some(opts)
    }

    /// A uniformly random solution (each with probability exactly
    /// `1 / count`), or `None` when there is none. `next_u64` gives
    /// uniformly random 64-bit words.
    pub fn sample(&self, mut next_u64: impl FnMut() -> u64) -> Option<Vec<usize>> {
        let n = self.count().to_biguint();
        if n.bits() == 0 {
            return None;
        }
        let r = below(&n, &mut next_u64);
        self.solution(&Count::from(r))
    }
}

/// Sebastiano Vigna's SplitMix64: a small, fast generator of uniformly
/// distributed 64-bit words, the same words for the same seed on every
/// machine (what `dancer zdd sample --seed` promises).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
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

    #[test]
    fn knuths_two_solution_example() {
        // dlx6 on options 1: A, 2: B, 3: A B
        let z = Zdd::parse(b"2: (~2?0:1)\n3: (~1?0:2)\n4: (~3?3:1)\n5: (~0?0:4)\n").unwrap();
        assert_eq!(z.count(), &Count::from(2u64));
        assert_eq!(z.nodes(), 3);
        let mut all = Vec::new();
        z.for_each::<()>(|s| {
            let mut s = s.to_vec();
            s.sort();
            all.push(s);
            ControlFlow::Continue(())
        });
        all.sort();
        assert_eq!(all, vec![vec![0, 1], vec![2]]);
        for r in 0..2u64 {
            let mut s = z.solution(&Count::from(r)).unwrap();
            s.sort();
            assert!(all.contains(&s));
        }
        assert_eq!(z.solution(&Count::from(2u64)), None);
    }

    #[test]
    fn errors_say_where() {
        let e = |t: &str| Zdd::parse(t.as_bytes()).unwrap_err();
        assert_eq!(e("").line, 1);
        let x = e("2: (~1?0:1)\n3: (~2?0:5)\n");
        assert_eq!((x.line, x.column), (2, 10), "{x}");
        assert!(x.message.contains("not defined"));
        let x = e("2: (~1?0:3)\n3: (~2?0:2)\n");
        assert!(x.message.contains("cycle"), "{x}");
        let x = e("2: (~1?0:1)\n2: (~2?0:1)\n");
        assert!(x.message.contains("already defined"), "{x}");
        let x = e("2: (~1?0:1)\n3: (~2?x:1)\n");
        assert_eq!((x.line, x.column), (2, 8), "{x}");
        let x = e("1: (~1?0:1)\n");
        assert!(x.message.contains("terminals"), "{x}");
        let x = e("2: (~99999999999?0:1)\n");
        assert!(x.message.contains("too large"), "{x}");
        let x = e("2: (~1?0:1)\nfffffffffffffffff: (~1?0:1)\n");
        assert!(x.message.contains("too large"), "{x}");
        let x = e("2: (~0?0:1)\n3: (~1?0:2)\n");
        assert!(x.message.contains("variable 0"), "{x}");
    }

    #[test]
    fn nodes_in_any_order_and_no_dummy() {
        let z = Zdd::parse(b"a: (~3?b:1)\nb: (~1?0:c)\nc: (~2?0:1)\n").unwrap();
        // the root is the last line: c, one solution {2}
        assert_eq!(z.count(), &Count::ONE);
        let z = Zdd::parse(b"b: (~1?0:c)\nc: (~2?0:1)\na: (~3?b:1)\n").unwrap();
        assert_eq!(z.count(), &Count::from(2u64));
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
}
