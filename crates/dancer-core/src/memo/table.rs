//! The cache of counts: one open-addressing table within the memory cap,
//! the cheaper half dropped when it is full.

use super::MemoStats;
use crate::count::Count;
use num_bigint::BigUint;
use rustc_hash::FxHashMap;

/// The cache (see the module's prose): one table within the cap. When an
/// insertion would take it over, the cheaper half of the entries (by the
/// nodes their sub-problems took) is dropped in place first.
pub(super) struct Cache {
    pub(super) table: Table,
    pub(super) cap: usize,
}

impl Cache {
    pub(super) fn new(cap: usize) -> Self {
        Cache {
            table: Table::default(),
            cap,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.table.len()
    }

    pub(super) fn get(&self, key: &[u64], hash: u64) -> Option<(Count, u64)> {
        self.table.get(key, hash)
    }

    /// Stores a count and its ZDD node (0 without a ZDD).
    pub(super) fn insert(
        &mut self,
        key: &[u64],
        hash: u64,
        (c, z): (&Count, u64),
        cost: u64,
        stats: &mut MemoStats,
        held: usize,
    ) {
        let cap = self.cap.saturating_sub(held);
        if self.table.bytes_after(key.len(), c, z) > cap && self.table.len() > 0 {
            stats.evicted += self.table.drop_cheap_half() as u64;
        }
        self.table.insert(key, hash, c, z, cost);
        stats.stored += 1;
        stats.peak_bytes = stats.peak_bytes.max(self.table.bytes() as u64);
    }
}

/// The table: open addressing over entry numbers, keys in one arena.
///
/// ```text
/// slot (u64):  [ high 32 bits of the hash | entry number + 1 ]   (0: empty)
/// entry e:     keys[key_at[e] .. key_at[e + 1]], vals[e], cost[e],
///              zdd[e] (only while a ZDD is written)
/// ```
///
/// A probe compares the hash bits in the slot before it looks at a key, so
/// a miss (most lookups: the sub-problem is new) reads the slots only.
#[derive(Default)]
pub(super) struct Table {
    /// A power of two long, at most half full.
    pub(super) slots: Vec<u64>,
    pub(super) key_at: Vec<u32>,
    pub(super) keys: Vec<u64>,
    /// Counts below `u128::MAX`; `u128::MAX` says "in `big`".
    pub(super) vals: Vec<u128>,
    /// log2 of 1 + the nodes each entry's sub-problem took.
    pub(super) cost: Vec<u8>,
    /// The ZDD node of each entry, when a ZDD is written (else empty).
    pub(super) zdd: Vec<u64>,
    pub(super) big: FxHashMap<u32, BigUint>,
    pub(super) big_bytes: usize,
}

/// The capacity a vector of capacity `cap` and length `len` has after
/// `add` more (doubling, as `Vec` grows).
pub(super) fn grown(cap: usize, len: usize, add: usize) -> usize {
    if len + add <= cap {
        cap
    } else {
        (cap * 2).max(len + add).max(4)
    }
}

impl Table {
    pub(super) fn len(&self) -> usize {
        self.key_at.len()
    }

    pub(super) fn bytes(&self) -> usize {
        self.slots.capacity() * 8
            + self.key_at.capacity() * 4
            + self.keys.capacity() * 8
            + self.vals.capacity() * 16
            + self.cost.capacity()
            + self.zdd.capacity() * 8
            + self.big_bytes
    }

    /// [`bytes`](Self::bytes) after inserting a key of `key_len` words,
    /// count `c` and ZDD node `z`.
    pub(super) fn bytes_after(&self, key_len: usize, c: &Count, z: u64) -> usize {
        let n = self.len();
        let slots = if (n + 1) * 2 > self.slots.len() {
            (self.slots.len() * 2).max(1024)
        } else {
            self.slots.len()
        };
        let big = if c.to_u128().is_some_and(|v| v != u128::MAX) {
            0
        } else {
            big_size(c)
        };
        slots * 8
            + grown(self.key_at.capacity(), n, 1) * 4
            + grown(self.keys.capacity(), self.keys.len(), key_len) * 8
            + grown(self.vals.capacity(), n, 1) * 16
            + grown(self.cost.capacity(), n, 1)
            + if z == 0 {
                self.zdd.capacity() * 8
            } else {
                grown(self.zdd.capacity(), n, 1) * 8
            }
            + self.big_bytes
            + big
    }

    pub(super) fn get(&self, key: &[u64], hash: u64) -> Option<(Count, u64)> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let tag = hash & !0xffff_ffff;
        let mut s = (hash as usize) & mask;
        loop {
            let v = self.slots[s];
            if v == 0 {
                return None;
            }
            if v & !0xffff_ffff == tag {
                let e = (v as u32 - 1) as usize;
                let at = self.key_at[e] as usize;
                // same first word (the position): same length
                if self.keys[at] == key[0] && self.keys[at..at + key.len()] == *key {
                    let c = match self.vals[e] {
                        u128::MAX => Count::from(self.big[&(e as u32)].clone()),
                        v => Count::from(v),
                    };
                    return Some((c, self.zdd.get(e).copied().unwrap_or(0)));
                }
            }
            s = (s + 1) & mask;
        }
    }

    pub(super) fn insert(&mut self, key: &[u64], hash: u64, c: &Count, z: u64, cost: u64) {
        if (self.len() + 1) * 2 > self.slots.len() {
            let n = (self.slots.len() * 2).max(1024);
            self.rehash(n);
        }
        let e = self.len();
        assert!(
            e + 2 < u32::MAX as usize && self.keys.len() + key.len() < u32::MAX as usize,
            "the cache's own limits: the memory cap keeps it far below"
        );
        self.key_at.push(self.keys.len() as u32);
        self.keys.extend_from_slice(key);
        self.cost.push((64 - cost.leading_zeros()) as u8);
        if z != 0 {
            // a count of 0 has no node: keep the arrays in step
            self.zdd.resize(e, 0);
            self.zdd.push(z);
        }
        match c.to_u128() {
            Some(v) if v != u128::MAX => self.vals.push(v),
            _ => {
                self.vals.push(u128::MAX);
                self.big_bytes += big_size(c);
                self.big.insert(e as u32, c.to_biguint());
            }
        }
        self.place(hash, e);
    }

    pub(super) fn place(&mut self, hash: u64, e: usize) {
        let mask = self.slots.len() - 1;
        let mut s = (hash as usize) & mask;
        while self.slots[s] != 0 {
            s = (s + 1) & mask;
        }
        self.slots[s] = (hash & !0xffff_ffff) | (e as u64 + 1);
    }

    /// The end of entry `e`'s key: where the next one begins.
    pub(super) fn key_end(&self, e: usize) -> usize {
        self.key_at
            .get(e + 1)
            .map_or(self.keys.len(), |&a| a as usize)
    }

    /// Slots anew, `n` of them, for the entries there are.
    pub(super) fn rehash(&mut self, n: usize) {
        self.slots.clear();
        self.slots.resize(n, 0);
        for e in 0..self.len() {
            let at = self.key_at[e] as usize;
            let h = hash_words(&self.keys[at..self.key_end(e)]);
            self.place(h, e);
        }
    }

    /// Drops the entries whose sub-problems were cheapest, about half of
    /// them (all those below a cost, by powers of two), compacting the
    /// rest in place; how many were dropped. Recounting a cheap
    /// sub-problem costs little, and the expensive ones stay.
    pub(super) fn drop_cheap_half(&mut self) -> usize {
        let n = self.len();
        let mut hist = [0usize; 66];
        for &c in &self.cost {
            hist[c as usize] += 1;
        }
        // the least cost kept: below it at most half the entries
        let (mut below, mut keep_from) = (0usize, 0usize);
        for (c, &h) in hist.iter().enumerate() {
            if (below + h) * 2 > n {
                keep_from = if below == 0 { c + 1 } else { c };
                break;
            }
            below += h;
        }
        let mut big = std::mem::take(&mut self.big);
        self.big_bytes = 0;
        let (mut w, mut wk) = (0usize, 0usize);
        for e in 0..n {
            let (at, end) = (self.key_at[e] as usize, self.key_end(e));
            if (self.cost[e] as usize) < keep_from {
                big.remove(&(e as u32));
                continue;
            }
            self.keys.copy_within(at..end, wk);
            self.key_at[w] = wk as u32;
            wk += end - at;
            self.vals[w] = self.vals[e];
            self.cost[w] = self.cost[e];
            if w < self.zdd.len() {
                self.zdd[w] = self.zdd.get(e).copied().unwrap_or(0);
            }
            if let Some(b) = big.remove(&(e as u32)) {
                self.big_bytes += big_size(&Count::from(b.clone()));
                self.big.insert(w as u32, b);
            }
            w += 1;
        }
        self.key_at.truncate(w);
        self.keys.truncate(wk);
        self.vals.truncate(w);
        self.cost.truncate(w);
        self.zdd.truncate(w);
        let slots = self.slots.len();
        self.rehash(slots);
        n - w
    }
}

/// Bytes a count beyond `u128` takes in a table (roughly).
pub(super) fn big_size(c: &Count) -> usize {
    64 + c.bits() as usize / 8
}

/// Bytes a frame's sum takes beyond the frame: the digits of a count
/// above 128 bits (0 below).
pub(super) fn held_size(c: &Count) -> usize {
    if c.to_u128().is_some() {
        0
    } else {
        big_size(c)
    }
}

/// A hash of a key's words.
#[inline]
pub(super) fn hash_words(words: &[u64]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0u64;
    for &w in words {
        h = (h.rotate_left(23) ^ w).wrapping_mul(K);
    }
    h ^ h >> 29
}
