//! The dancing-links lists that [`crate::engines::dlx`] and [`crate::engines::dlxm`] share:
//! how they are built from a [`Problem`], and the moves on them that the
//! two engines make alike (cover, uncover, hide, unhide, purify,
//! unpurify).
//!
//! # Layout
//!
//! Everything lives in flat arrays of `u32` indices; there are no pointers,
//! no per-node allocation and no recursion.
//!
//! * The option entries are read in place from the problem's slot array:
//!   `[spacer 0, entries of option 0, spacer 1, entries of option 1, ...,
//!   spacer m]`. A slot holds its item number, or for a spacer the flag
//!   `SPACER` and the number of the option that follows. Node `i` *is*
//!   slot `i`; nodes `S..S+n` (with `S` the number of slots) are the list
//!   heads of the `n` items. Reading the items from the problem instead of
//!   copying them saves four bytes per entry.
//! * `links[i] = (up, down)` threads every node into the circular vertical
//!   list of its item, in input order. For a spacer, `up` is the first node
//!   of the option before it and `down` the last node of the option after
//!   it, as in Knuth's layout: walking right from any node of an option and
//!   following `up` at the spacer visits the whole option cyclically, and
//!   walking left and following `down` does the same backwards. Up and down
//!   sit together in 8 bytes, so one cache line holds eight of them.
//! * `len[c]` is the number of options still in item `c`'s list.
//! * `prev`/`next` thread the primary items that are still to be covered
//!   into a circular list with root `n`, in item order; secondary items
//!   have a list of their own (root `n + 1`) that nobody searches: it is
//!   there so that covering any item is the same code, without a
//!   primary-or-secondary test.
//! * `off[i]` (only when asked for: uncoloured problems of `dlx` up to four
//!   million slots) gives node `i`'s position in its option and the
//!   option's length, so that hiding an option is a counted loop over its
//!   nodes rather than a walk that stops at a spacer (see `dlx.rs`, *Why
//!   this way*).
//! * For coloured problems only, `color[i]` is a mutable copy of each
//!   entry's colour: positive for a colour, 0 for none, and -1 once the
//!   entry's item has been *purified* to that colour, which tells later
//!   covers to leave the node alone.
//!
//! The moves are generic over two constants, `C` (the problem has colours)
//! and `F` (the `off` table is there), so that each engine's search is
//! compiled once per case and the unused tests vanish.
//!
//! # Unchecked access
//!
//! The hot loops index without bounds checks, through the accessors below.
//! They rely on what [`Lists::new`] establishes and every move keeps:
//! every link value is a node number below `links.len()`, every non-spacer
//! slot is an item number below `len.len()`, and `color` (when there) has
//! one entry per slot. Nothing writes other values: all writes copy values
//! read from the same arrays. Each accessor `debug_assert`s its index, and
//! [`Lists::check`] verifies the whole structure in the tests.

use crate::problem::{Problem, SPACER};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Link {
    pub up: u32,
    pub down: u32,
}

/// The lists of one problem (see the module documentation).
pub(crate) struct Lists<'p> {
    /// The problem's slots: the item of each option node, or a spacer.
    pub slots: &'p [u32],
    /// Number of slots, also the node number of item 0's list head.
    pub base: u32,
    /// Number of items, also the root of the list of primary items to cover.
    pub root: u32,
    pub links: Vec<Link>,
    pub len: Vec<u32>,
    pub prev: Vec<u32>,
    pub next: Vec<u32>,
    pub color: Vec<i32>,
    /// For each node: its distance from the first node of its option in the
    /// low byte, the option's length in the high byte; `u16::MAX` for
    /// options of 256 entries or more (then found from the spacers). Empty
    /// unless asked for, and always for coloured problems.
    pub off: Vec<u16>,
}

impl<'p> Lists<'p> {
    /// Builds the lists for `problem`, with the `off` table when `with_off`
    /// and the problem has no colours. Options without primary items are
    /// left out, as Knuth's programs leave them out.
    pub fn new(problem: &'p Problem, with_off: bool) -> Self {
        let slots = problem.slots();
        let n = problem.n_items();
        let s = slots.len();
        let base = s as u32;
        let mut links = vec![Link::default(); s + n];
        let mut len = vec![0u32; n];
        for c in 0..n {
            let h = base + c as u32;
            links[h as usize] = Link { up: h, down: h };
        }
        let use_off = with_off && !problem.has_colors();
        let mut off = if use_off { vec![0u16; s] } else { Vec::new() };
        // Walk the slots option by option: `sp` is spacer k, `end` spacer k+1.
        let mut sp = 0usize;
        for k in 0..problem.n_options() {
            let mut end = sp + 1;
            while slots[end] & SPACER == 0 {
                end += 1;
            }
            // Spacer k: down = last node of option k; spacer k+1: up = first
            // node of option k.
            links[sp].down = (end - 1) as u32;
            links[end].up = (sp + 1) as u32;
            if problem.is_active(k) {
                for nn in sp + 1..end {
                    let c = slots[nn] as usize;
                    let h = s + c;
                    let last = links[h].up;
                    links[nn] = Link {
                        up: last,
                        down: h as u32,
                    };
                    links[last as usize].down = nn as u32;
                    links[h].up = nn as u32;
                    len[c] += 1;
                }
            }
            if use_off {
                let size = end - sp - 1;
                for (i, o) in off[sp + 1..end].iter_mut().enumerate() {
                    *o = if size < 256 {
                        (i | size << 8) as u16
                    } else {
                        u16::MAX
                    };
                }
            }
            sp = end;
        }
        // Items in two circular lists: primary items with root `n`,
        // secondary items with root `n + 1`.
        let np = problem.n_primary();
        let mut prev = vec![0u32; n + 2];
        let mut next = vec![0u32; n + 2];
        let mut ring = |members: std::ops::Range<usize>, root: usize| {
            let mut last = root;
            for c in members {
                next[last] = c as u32;
                prev[c] = last as u32;
                last = c;
            }
            next[last] = root as u32;
            prev[root] = last as u32;
        };
        ring(0..np, n);
        ring(np..n, n + 1);
        let color = if problem.has_colors() {
            problem.slot_colors().iter().map(|&c| c as i32).collect()
        } else {
            Vec::new()
        };
        Lists {
            slots,
            base,
            root: n as u32,
            links,
            len,
            prev,
            next,
            color,
            off,
        }
    }

    // ----- unchecked access (see "Unchecked access" above) -----

    #[inline(always)]
    pub fn link(&self, i: u32) -> Link {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: `i` is a node number read from the lists, below
        // `links.len()` by the invariant of the module.
        unsafe { *self.links.get_unchecked(i as usize) }
    }
    #[inline(always)]
    pub fn set_down(&mut self, i: u32, v: u32) {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: as in `link`.
        unsafe { self.links.get_unchecked_mut(i as usize).down = v }
    }
    #[inline(always)]
    pub fn set_up(&mut self, i: u32, v: u32) {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: as in `link`.
        unsafe { self.links.get_unchecked_mut(i as usize).up = v }
    }
    #[inline(always)]
    pub fn slot(&self, i: u32) -> u32 {
        debug_assert!((i as usize) < self.slots.len());
        // SAFETY: option nodes are slots: every node number that is not a
        // list head is below `slots.len()`, and callers only pass those.
        unsafe { *self.slots.get_unchecked(i as usize) }
    }
    #[inline(always)]
    pub fn len_of(&self, c: u32) -> u32 {
        debug_assert!((c as usize) < self.len.len());
        // SAFETY: `c` is an item number (a non-spacer slot or a list
        // member), below `len.len()`.
        unsafe { *self.len.get_unchecked(c as usize) }
    }
    #[inline(always)]
    pub fn len_mut(&mut self, c: u32) -> &mut u32 {
        debug_assert!((c as usize) < self.len.len());
        // SAFETY: as in `len_of`.
        unsafe { self.len.get_unchecked_mut(c as usize) }
    }
    #[inline(always)]
    pub fn next_of(&self, c: u32) -> u32 {
        debug_assert!((c as usize) < self.next.len());
        // SAFETY: `c` is an item number or a root, below `next.len()`
        // (`n + 2` entries).
        unsafe { *self.next.get_unchecked(c as usize) }
    }
    #[inline(always)]
    pub fn col(&self, i: u32) -> i32 {
        debug_assert!((i as usize) < self.color.len());
        // SAFETY: called only for coloured problems, where `color` has one
        // entry per slot, with an option node's number.
        unsafe { *self.color.get_unchecked(i as usize) }
    }
    #[inline(always)]
    pub fn set_col(&mut self, i: u32, v: i32) {
        debug_assert!((i as usize) < self.color.len());
        // SAFETY: as in `col`.
        unsafe { *self.color.get_unchecked_mut(i as usize) = v }
    }

    /// The first node and one past the last node of the option that holds
    /// node `rr` (with the `off` table).
    #[inline(always)]
    pub fn option_span(&self, rr: u32) -> (u32, u32) {
        debug_assert!((rr as usize) < self.off.len());
        // SAFETY: `rr` is an option node, and `off` has one entry per slot
        // when the engine uses it (F = true).
        let o = unsafe { *self.off.get_unchecked(rr as usize) };
        if o != u16::MAX {
            let start = rr - (o & 0xFF) as u32;
            (start, start + (o >> 8) as u32)
        } else {
            let mut s = rr;
            while self.slot(s - 1) & SPACER == 0 {
                s -= 1;
            }
            (s, self.link(s - 1).down + 1)
        }
    }

    /// Unlinks every node of option `rr` except `rr` itself (and, with
    /// colours, except purified nodes) from its item's list.
    #[inline(always)]
    pub fn hide<const C: bool, const F: bool>(&mut self, rr: u32, updates: &mut u64) {
        if !C && F {
            // Branch-free form: visit the whole option, and make the writes
            // for `rr` itself rewrite the values they find (`rr` is linked in
            // the list being walked, so `up.down == rr` and `down.up == rr`).
            let (start, end) = self.option_span(rr);
            for nn in start..end {
                let x = self.slot(nn);
                let l = self.link(nn);
                let me = nn == rr;
                let d = if me { rr } else { l.down };
                let u = if me { rr } else { l.up };
                self.set_down(l.up, d);
                self.set_up(l.down, u);
                *self.len_mut(x) -= (!me) as u32;
            }
            *updates += (end - start - 1) as u64;
            return;
        }
        let mut nn = rr + 1;
        while nn != rr {
            if C && self.col(nn) < 0 {
                nn += 1;
                continue;
            }
            let x = self.slot(nn);
            let l = self.link(nn);
            if x & SPACER != 0 {
                nn = l.up;
                continue;
            }
            self.set_down(l.up, l.down);
            self.set_up(l.down, l.up);
            *self.len_mut(x) -= 1;
            *updates += 1;
            nn += 1;
        }
    }

    /// Inverse of [`hide`](Self::hide), walking the option the other way.
    #[inline(always)]
    pub fn unhide<const C: bool, const F: bool>(&mut self, rr: u32) {
        if !C && F {
            // Within one option every node is in a different list, so the
            // order of relinking inside the option does not matter; relinking
            // `rr` itself rewrites the values its neighbours already hold.
            let (start, end) = self.option_span(rr);
            for nn in start..end {
                let x = self.slot(nn);
                let l = self.link(nn);
                self.set_down(l.up, nn);
                self.set_up(l.down, nn);
                *self.len_mut(x) += (nn != rr) as u32;
            }
            return;
        }
        let mut nn = rr - 1;
        while nn != rr {
            if C && self.col(nn) < 0 {
                nn -= 1;
                continue;
            }
            let x = self.slot(nn);
            let l = self.link(nn);
            if x & SPACER != 0 {
                nn = l.down;
                continue;
            }
            self.set_down(l.up, nn);
            self.set_up(l.down, nn);
            *self.len_mut(x) += 1;
            nn -= 1;
        }
    }

    /// Takes item `c` out of its list of items (primary or secondary).
    #[inline(always)]
    pub fn unlink_item(&mut self, c: u32) {
        let p = self.prev[c as usize];
        let n = self.next[c as usize];
        self.next[p as usize] = n;
        self.prev[n as usize] = p;
    }

    /// Puts item `c` back where [`unlink_item`](Self::unlink_item) took it from.
    #[inline(always)]
    pub fn relink_item(&mut self, c: u32) {
        let p = self.prev[c as usize];
        let n = self.next[c as usize];
        self.next[p as usize] = c;
        self.prev[n as usize] = c;
    }

    /// Covers item `c`: takes it out of its list of items and hides every
    /// option that uses it.
    #[inline(always)]
    pub fn cover<const C: bool, const F: bool>(&mut self, c: u32, updates: &mut u64) {
        self.unlink_item(c);
        *updates += 1;
        let h = self.base + c;
        let mut rr = self.link(h).down;
        while rr != h {
            self.hide::<C, F>(rr, updates);
            rr = self.link(rr).down;
        }
    }

    /// Inverse of [`cover`](Self::cover).
    #[inline(always)]
    pub fn uncover<const C: bool, const F: bool>(&mut self, c: u32) {
        let h = self.base + c;
        let mut rr = self.link(h).up;
        while rr != h {
            self.unhide::<C, F>(rr);
            rr = self.link(rr).up;
        }
        self.relink_item(c);
    }

    /// Covers item `x` of option node `p` as choosing the option does: an
    /// uncoloured entry covers the item, a coloured one purifies it (a
    /// purified node, colour -1, is left alone).
    #[inline(always)]
    pub fn cover_entry<const C: bool, const F: bool>(&mut self, p: u32, x: u32, updates: &mut u64) {
        if !C {
            return self.cover::<C, F>(x, updates);
        }
        let k = self.col(p);
        if k == 0 {
            self.cover::<C, F>(x, updates);
        } else if k > 0 {
            self.purify(p, updates);
        }
    }

    /// Inverse of [`cover_entry`](Self::cover_entry).
    #[inline(always)]
    pub fn uncover_entry<const C: bool, const F: bool>(&mut self, p: u32, x: u32) {
        if !C {
            return self.uncover::<C, F>(x);
        }
        let k = self.col(p);
        if k == 0 {
            self.uncover::<C, F>(x);
        } else if k > 0 {
            self.unpurify(p);
        }
    }

    /// Restricts the secondary item of node `p` to `p`'s colour: hides the
    /// options that give it another colour (or none), and marks the ones that
    /// agree as purified.
    #[inline(always)]
    pub fn purify(&mut self, p: u32, updates: &mut u64) {
        let c = self.slot(p);
        let x = self.col(p);
        let h = self.base + c;
        let mut rr = self.link(h).down;
        while rr != h {
            if self.col(rr) != x {
                self.hide::<true, false>(rr, updates);
            } else if rr != p {
                self.set_col(rr, -1);
            }
            rr = self.link(rr).down;
        }
    }

    /// Inverse of [`purify`](Self::purify).
    #[inline(always)]
    pub fn unpurify(&mut self, p: u32) {
        let c = self.slot(p);
        let x = self.col(p);
        let h = self.base + c;
        let mut rr = self.link(h).up;
        while rr != h {
            if self.col(rr) < 0 {
                self.set_col(rr, x);
            } else if rr != p {
                self.unhide::<true, false>(rr);
            }
            rr = self.link(rr).up;
        }
    }

    /// The structure is sound: every item's list is a circular doubly
    /// linked list of its own nodes, in increasing order, `len` long; every
    /// spacer points at its neighbouring options; both item rings are
    /// consistent and in item order. What the lists *hold* depends on the
    /// engine's choices, which the engines check themselves.
    pub fn check(&self) -> Result<(), String> {
        let s = self.slots.len();
        let n = self.len.len();
        if self.links.len() != s + n || self.prev.len() != n + 2 || self.next.len() != n + 2 {
            return Err("array sizes do not match the problem".into());
        }
        for c in 0..n {
            let h = self.base + c as u32;
            let mut count = 0u32;
            let mut last = h;
            let mut x = self.links[h as usize].down;
            while x != h {
                if x as usize >= s {
                    return Err(format!(
                        "item {c}: node {x} in its list is not an option node"
                    ));
                }
                if self.slots[x as usize] != c as u32 {
                    return Err(format!(
                        "item {c}: node {x} belongs to item {}",
                        self.slots[x as usize]
                    ));
                }
                if self.links[x as usize].up != last {
                    return Err(format!(
                        "item {c}: node {x}'s up link is not its predecessor"
                    ));
                }
                if last != h && x <= last {
                    return Err(format!("item {c}: node {x} out of order after {last}"));
                }
                count += 1;
                if count as usize > s {
                    return Err(format!("item {c}: its list does not close"));
                }
                last = x;
                x = self.links[x as usize].down;
            }
            if self.links[h as usize].up != last {
                return Err(format!("item {c}: the head's up link is not the last node"));
            }
            if count != self.len[c] {
                return Err(format!("item {c}: len {} but {count} nodes", self.len[c]));
            }
        }
        // spacers
        let mut prev_spacer = 0usize;
        for i in 1..s {
            if self.slots[i] & SPACER != 0 {
                if self.links[i].up as usize != prev_spacer + 1 {
                    return Err(format!("spacer at {i}: up is not the option's first node"));
                }
                if self.links[prev_spacer].down as usize != i - 1 {
                    return Err(format!(
                        "spacer at {prev_spacer}: down is not the option's last node"
                    ));
                }
                prev_spacer = i;
            }
        }
        for root in [n, n + 1] {
            let mut x = self.next[root] as usize;
            let mut last = root;
            let mut steps = 0;
            while x != root {
                if self.prev[x] as usize != last {
                    return Err(format!("item ring: prev of {x} is not {last}"));
                }
                if last != root && x <= last {
                    return Err(format!("item ring: {x} out of order after {last}"));
                }
                steps += 1;
                if steps > n {
                    return Err("item ring does not close".into());
                }
                last = x;
                x = self.next[x] as usize;
            }
            if self.prev[root] as usize != last {
                return Err("item ring: the root's prev is not the last item".into());
            }
        }
        Ok(())
    }

    /// The items that the `chosen` options use, worked out from the problem
    /// alone: `covered` (used without a colour, primary items always) and
    /// `purified` (the colour a secondary item is fixed to, or 0).
    pub fn used_by(problem: &Problem, chosen: &[usize]) -> (Vec<bool>, Vec<u32>) {
        let n = problem.n_items();
        let mut covered = vec![false; n];
        let mut purified = vec![0u32; n];
        for &o in chosen {
            for e in problem.option(o).entries() {
                if e.color == 0 {
                    covered[e.item] = true;
                } else {
                    purified[e.item] = e.color;
                }
            }
        }
        (covered, purified)
    }

    /// Checks that the ring of primary items to cover holds `open`, in order.
    pub fn check_open(&self, open: &[u32]) -> Result<(), String> {
        let have = self.open_primaries();
        if have != open {
            return Err(format!(
                "the primary items in the ring are {have:?}, not {open:?}"
            ));
        }
        Ok(())
    }

    /// Checks what the lists hold against the problem itself: every item
    /// that is neither `covered` nor purified (`purified[i]`, the colour it
    /// is fixed to, or 0) holds exactly the nodes of the options that are
    /// still live, in input order: active, not `excluded` (chosen, or
    /// otherwise taken out by the engine), and compatible with the covered
    /// items and the purified colours. `problem` is the one the lists were
    /// built from.
    pub fn check_live(
        &self,
        problem: &Problem,
        covered: &[bool],
        purified: &[u32],
        excluded: impl Fn(usize) -> bool,
    ) -> Result<(), String> {
        let live = |o: usize| {
            problem.is_active(o)
                && !excluded(o)
                && problem.option(o).entries().all(|e| {
                    !covered[e.item] && (purified[e.item] == 0 || purified[e.item] == e.color)
                })
        };
        let live: Vec<usize> = (0..problem.n_options()).filter(|&o| live(o)).collect();
        for c in 0..problem.n_items() {
            if covered[c] || purified[c] != 0 {
                continue;
            }
            let want: Vec<u32> = live
                .iter()
                .flat_map(|&o| problem.option_slots(o))
                .filter(|&k| self.slots[k] == c as u32)
                .map(|k| k as u32)
                .collect();
            let have = self.list(c as u32);
            if have != want {
                return Err(format!(
                    "item {} holds nodes {have:?}, not {want:?}",
                    problem.item_name(c)
                ));
            }
            if !self.color.is_empty() {
                for &x in &have {
                    for k in problem.option_slots(problem.option_at_slot(x as usize)) {
                        let item = self.slots[k] as usize;
                        let original = problem.slot_colors()[k] as i32;
                        if purified[item] == 0 && self.color[k] != original {
                            return Err(format!("node {k}: its colour {original} was changed"));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The items still in the ring of primary items, in order.
    pub fn open_primaries(&self) -> Vec<u32> {
        let mut v = Vec::new();
        let mut x = self.next[self.root as usize];
        while x != self.root {
            v.push(x);
            x = self.next[x as usize];
        }
        v
    }

    /// The option nodes in item `c`'s list, in order.
    pub fn list(&self, c: u32) -> Vec<u32> {
        let h = self.base + c;
        let mut v = Vec::new();
        let mut x = self.links[h as usize].down;
        while x != h {
            v.push(x);
            x = self.links[x as usize].down;
        }
        v
    }
}
