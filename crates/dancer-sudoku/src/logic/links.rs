//! Single-digit patterns made of strong links: Skyscraper, 2-String Kite,
//! Turbot Fish, Empty Rectangle, chains of three and four strong links, and
//! simple colouring.
//!
//! The chains of strong links follow Sudoku Explainer's (SukakuExplainer's)
//! "strong links" hint producer, which finds and rates all of them at once:
//!
//! * A strong link is a unit where the digit has two places (a box only
//!   when the two do not share a row or column), or a *grouped* one: a box
//!   whose three to six places lie on one row and one column (an empty
//!   rectangle) or on two rows or two columns of the box, or a row or column
//!   whose three to six places lie in two of its boxes.
//! * A chain joins `n` strong links whose units hold disjoint places: the
//!   end of each link and the start of the next lie in one unit. Either the
//!   chain's first start or its last end holds the digit, so every place
//!   that sees both leaves, except in the units of the chain. When the first
//!   start and the last end share a unit too, the chain is a loop, and the
//!   digit leaves every unit joining two links, outside the links.
//! * The rating is 4.0 for two links and 5.4 for three, +0.3 when a link is
//!   grouped; otherwise +0.1 when a link is a box or rows and columns mix,
//!   +0.2 when both.
//! * The producer's step is the easiest, then the one removing most, then
//!   the smallest shape code (the grouped count, then the unit kinds along
//!   the chain), then the first found (digit, units in order: boxes, rows,
//!   columns). That last order depends on where the cells are; `next_step`
//!   searches the puzzle's canonical form, so it is the same for every
//!   equivalent form of a puzzle.
//!
//! Steps of two links are named Skyscraper (parallel lines, 4.0), 2-String
//! Kite (a row and a column, 4.1), Turbot Fish (a box and a line, 4.1 as SE
//! rates it) or Empty Rectangle (a grouped link, 4.3); longer ones Three
//! (5.4 to 5.7) or Four Strong Links.

use super::board::*;
use super::step::{Step, Technique};
use std::cmp::Reverse;

/// A strong link on one digit: the digit is in `side[0]` or in `side[1]`
/// (a single cell each, or a group of cells in one box and line).
#[derive(Clone, Copy, Default)]
struct Link {
    unit: usize,
    /// More than two places: the sides are groups.
    grouped: bool,
    /// A box whose places lie on one row and one column.
    rectangle: bool,
    /// 1 for the second way of splitting a box whose four places make a
    /// square (by columns as well as by rows).
    ordinal: u8,
    /// Every place of the digit in the unit.
    places: Cells,
    side: [Cells; 2],
    /// The units holding each side (bit `u` for unit `u`).
    units: [u32; 2],
}

/// 0 for a box, 1 for a row, 2 for a column.
fn kind(u: usize) -> u8 {
    match u {
        0..=8 => 1,
        9..=17 => 2,
        _ => 0,
    }
}

/// SE's order of the units: boxes, then rows, then columns.
fn se_order(u: usize) -> usize {
    if u >= 18 {
        u - 18
    } else {
        u + 9
    }
}

/// The cells of unit `u` at the positions of a 9-bit mask.
fn cells_at(u: usize, m: u16) -> Cells {
    let mut set = 0;
    for (p, &c) in UNITS[u].iter().enumerate() {
        if m >> p & 1 == 1 {
            set |= 1u128 << c;
        }
    }
    set
}

/// Box positions 0..9 (row by row): a row, a column of the box.
const BOX_ROW: [u16; 3] = [0o007, 0o070, 0o700];
const BOX_COL: [u16; 3] = [0b001_001_001, 0b010_010_010, 0b100_100_100];

/// The shapes SE tries for a box, in its order: for `e` < 9 the places
/// must avoid the cells off the row and column of cell `e` (the heart);
/// then two rows, then two columns of the box. Returns (the cells that must
/// be empty, the two halves).
fn box_shape(e: usize) -> (u16, u16, u16) {
    let others = |k: usize| -> (usize, usize) {
        match k {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        }
    };
    if e < 9 {
        let (r, c) = (e / 3, e % 3);
        let heart = 1u16 << e;
        (
            0x1ff & !(BOX_ROW[r] | BOX_COL[c]),
            BOX_COL[c] & !heart,
            BOX_ROW[r] & !heart,
        )
    } else if e < 12 {
        let k = 11 - e;
        let (a, b) = others(k);
        (BOX_ROW[k], BOX_ROW[a], BOX_ROW[b])
    } else {
        let k = 14 - e;
        let (a, b) = others(k);
        (BOX_COL[k], BOX_COL[a], BOX_COL[b])
    }
}

/// The strong links of digit `d` (places `pos`) in unit `u`, as SE sees them.
fn unit_links(pos: Cells, u: usize, out: &mut Vec<Link>) {
    let places = pos & UNIT_MASK[u];
    let count = places.count_ones();
    if !(2..=6).contains(&count) {
        return;
    }
    let mut push = |s0: Cells, s1: Cells, ordinal: u8, rectangle: bool| {
        out.push(Link {
            unit: u,
            grouped: count > 2,
            rectangle,
            ordinal,
            places,
            side: [s0, s1],
            units: [units_holding(s0), units_holding(s1)],
        })
    };
    if count == 2 {
        let a = places & places.wrapping_neg();
        let (x, y) = (
            a.trailing_zeros() as usize,
            (places & !a).trailing_zeros() as usize,
        );
        if u >= 18 && (row_of(x) == row_of(y) || col_of(x) == col_of(y)) {
            return; // the link of a line, not the box's
        }
        push(a, places & !a, 0, false);
        return;
    }
    let mut m = 0u16;
    for (p, &c) in UNITS[u].iter().enumerate() {
        if places >> c & 1 == 1 {
            m |= 1 << p;
        }
    }
    let at = |x: u16| cells_at(u, x);
    if u >= 18 {
        let Some(e) = (0..15).find(|&e| (e < 9 || count >= 4) && m & box_shape(e).0 == 0) else {
            return;
        };
        let (_, h1, h2) = box_shape(e);
        let (b1, b2) = (m & h1, m & h2);
        if b1 == 0 || b2 == 0 {
            return;
        }
        if e < 9 {
            // an empty rectangle: a lone cell on one arm, or the other arm
            // with the heart (when both arms are lone cells, SE keeps the
            // row's as the lone one); with two cells on each arm the heart
            // changes nothing and is left out
            let heart = 1u128 << UNITS[u][e];
            if b2.count_ones() == 1 {
                push(at(b2), at(b1) | heart, 0, true);
            } else if b1.count_ones() == 1 {
                push(at(b1), at(b2) | heart, 0, true);
            } else {
                push(at(b1), at(b2), 0, true);
            }
        } else {
            push(at(b1), at(b2), 0, false);
            let (c1, c2) = (at(b1), at(b2));
            if count == 4 && c1.count_ones() == 2 {
                let (x1, x2) = (c1 & c1.wrapping_neg(), c2 & c2.wrapping_neg());
                let (y1, y2) = (c1 & !x1, c2 & !x2);
                let line = |p: Cells, q: Cells| {
                    let (p, q) = (p.trailing_zeros() as usize, q.trailing_zeros() as usize);
                    row_of(p) == row_of(q) || col_of(p) == col_of(q)
                };
                if line(x1, x2) && line(y1, y2) {
                    // a square: split by columns as well
                    push(x1 | x2, y1 | y2, 1, false);
                }
            }
        }
    } else {
        let seg = |k: usize| 7u16 << (3 * k);
        let Some(e) = (0..3).find(|&e| m & seg(e) == 0) else {
            return;
        };
        let (a, b) = match e {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        let (b1, b2) = (m & seg(a), m & seg(b));
        if b1 == 0 || b2 == 0 {
            return;
        }
        if b2.count_ones() == 1 {
            push(at(b2), at(b1), 0, false);
        } else {
            push(at(b1), at(b2), 0, false);
        }
    }
}

/// The units holding every cell of `set` (bit `u` for unit `u`).
fn units_holding(set: Cells) -> u32 {
    let c = set.trailing_zeros() as usize;
    let mut m = 0;
    for u in CELL_UNITS[c] {
        if set & !UNIT_MASK[u as usize] == 0 {
            m |= 1 << u;
        }
    }
    m
}

/// The unit SE names among some units holding two groups: a column, else a
/// row, else a box.
fn first_shared(m: u32) -> usize {
    const COLUMNS: u32 = 0x1ff << 9;
    if m & COLUMNS != 0 {
        (m & COLUMNS).trailing_zeros() as usize
    } else {
        m.trailing_zeros() as usize
    }
}

/// SE's shape code of a chain from the kinds of its units in chain order:
/// the chain or its reverse, rows and columns swapped or not, whichever
/// reads smallest.
fn shape_code(kinds: &[u8]) -> [u8; 4] {
    let n = kinds.len();
    let mut code = [9u8; 4];
    let mut consider = |v: [u8; 4]| {
        if v < code {
            code = v;
        }
    };
    for rev in [false, true] {
        for swap in [false, true] {
            let mut v = [0u8; 4];
            for i in 0..n {
                let k = kinds[if rev { n - 1 - i } else { i }];
                v[i] = if swap && k > 0 { 3 - k } else { k };
            }
            consider(v);
        }
    }
    code
}

/// The orders SE tries a chain's links in (the indices of the links in SE's
/// unit order): the permutations of `0..n`, in the order of a countdown
/// QuickPerm, that read no larger than their reverse.
fn chain_orders(n: usize) -> Vec<[u8; 4]> {
    let mut a = [0u8, 1, 2, 3];
    let mut c = [0usize, 1, 2, 3, 4];
    let mut out = Vec::new();
    let keep = |a: &[u8; 4], out: &mut Vec<[u8; 4]>| {
        let mut r = *a;
        r[..n].reverse();
        if a[..n] <= r[..n] {
            out.push(*a);
        }
    };
    keep(&a, &mut out);
    let mut i = 1;
    while i < n {
        c[i] -= 1;
        let j = if i % 2 == 1 { c[i] } else { 0 };
        a.swap(j, i);
        keep(&a, &mut out);
        i = 1;
        while c[i] == 0 {
            c[i] = i;
            i += 1;
        }
    }
    out
}

/// SE's order of the steps of one producer: the easiest, then the one
/// removing most, then the smallest shape code, then the first found.
type Key = (u32, Reverse<u32>, [u8; 5], u64);

#[derive(Clone)]
struct Found {
    key: Key,
    d: u8,
    links: Vec<Link>,
    dirs: Vec<u8>,
    shared: Vec<usize>,
    ring: Option<usize>,
    targets: Cells,
    technique: Technique,
}

struct Search<'a> {
    d: u8,
    n: usize,
    pos: Cells,
    links: &'a [Link],
    /// The link sides (link, side) lying in each unit `u`:
    /// `sides[first[u]..first[u + 1]]`.
    sides: &'a [(u8, u8)],
    first: &'a [usize; 28],
    orders: &'a [[u8; 4]],
    chain: [(usize, u8); 4],
    len: usize,
    shared: [usize; 3],
    used: Cells,
    /// The places of the digit that see the chain's start.
    start_peers: Cells,
    only: Option<Technique>,
    best: Option<Found>,
}

/// The technique naming a chain of `n` links of these kinds.
fn technique_of(n: usize, grouped: bool, kinds: &[u8]) -> Technique {
    match n {
        2 if grouped => Technique::EmptyRectangle,
        2 if kinds.contains(&0) => Technique::TurbotFish,
        2 if kinds[0] != kinds[1] => Technique::TwoStringKite,
        2 => Technique::Skyscraper,
        3 => Technique::ThreeStrongLinks,
        _ => Technique::FourStrongLinks,
    }
}

impl Search<'_> {
    fn rec(&mut self) {
        if self.len == self.n {
            self.conclude();
            return;
        }
        if self.len == 0 {
            for i in 0..self.links.len() {
                for dir in 0..2u8 {
                    self.push(i, dir);
                }
            }
            return;
        }
        // the next link starts in a unit holding the last one's end
        let (p, pd) = self.chain[self.len - 1];
        let end_units = self.links[p].units[1 - pd as usize];
        let last = self.len + 1 == self.n;
        let first_order = se_order(self.links[self.chain[0].0].unit);
        let mut m = end_units;
        while m != 0 {
            let u = m.trailing_zeros() as usize;
            m &= m - 1;
            for &(i, dir) in &self.sides[self.first[u]..self.first[u + 1]] {
                let l = &self.links[i as usize];
                if l.places & self.used != 0
                    || first_shared(end_units & l.units[dir as usize]) != u
                    || (last && se_order(l.unit) < first_order)
                {
                    continue;
                }
                self.shared[self.len - 1] = u;
                self.push(i as usize, dir);
            }
        }
    }

    fn push(&mut self, i: usize, dir: u8) {
        let places = self.links[i].places;
        if self.len == 0 {
            self.start_peers = common_peers(self.links[i].side[dir as usize]) & self.pos;
        }
        self.chain[self.len] = (i, dir);
        self.len += 1;
        self.used |= places;
        self.rec();
        self.used &= !places;
        self.len -= 1;
    }

    fn conclude(&mut self) {
        let n = self.n;
        let chain = &self.chain[..n];
        let link = |w: usize| &self.links[chain[w].0];
        let order = |w: usize| se_order(link(w).unit);
        // SE reads each chain one way only: from the link first in its unit
        // order to the other end
        if order(0) > order(n - 1) {
            return;
        }
        let start = link(0).side[chain[0].1 as usize];
        let end = link(n - 1).side[1 - chain[n - 1].1 as usize];
        let ring_units =
            link(0).units[chain[0].1 as usize] & link(n - 1).units[1 - chain[n - 1].1 as usize];
        let end_peers = common_peers(end);
        if ring_units == 0 && self.start_peers & end_peers == 0 {
            return;
        }
        let mut kinds = [0u8; 4];
        let mut grouped = 0u8;
        for w in 0..n {
            kinds[w] = kind(link(w).unit);
            grouped += link(w).grouped as u8;
        }
        let kinds = &kinds[..n];
        let t = technique_of(n, grouped > 0, kinds);
        if self.only.is_some_and(|o| o != t) {
            return;
        }
        let code = shape_code(kinds);
        let tenths = [0, 0, 40, 54, 58][n]
            + if grouped > 0 {
                3
            } else {
                let (blocks, both) = (code[..n].contains(&0), code[..n].contains(&2));
                blocks as u32 + both as u32
            };
        if self.best.as_ref().is_some_and(|b| b.key.0 < tenths) {
            return;
        }
        let mut base = 0;
        for w in 0..n {
            base |= UNIT_MASK[link(w).unit];
        }
        let ring = (ring_units != 0).then(|| first_shared(ring_units));
        let Some((targets, total)) = self.targets(ring.is_some(), base, start, end, end_peers)
        else {
            return;
        };
        if targets == 0 {
            return;
        }
        let found_at = self.found_at();
        let mut suffix = [0u8; 5];
        suffix[0] = b'0' + grouped;
        for i in 0..n {
            suffix[i + 1] = b'0' + code[i];
        }
        let key = (tenths, Reverse(total), suffix, found_at);
        if self.best.as_ref().is_some_and(|b| b.key <= key) {
            return;
        }
        self.best = Some(Found {
            key,
            d: self.d,
            links: (0..n).map(|w| *link(w)).collect(),
            dirs: chain.iter().map(|&(_, dir)| dir).collect(),
            shared: self.shared[..n - 1].to_vec(),
            ring,
            targets,
            technique: t,
        });
    }

    /// The cells the chain eliminates its digit from, and how many
    /// eliminations (a cell seen by several weak links of a loop counts
    /// once a link); `None` for a loop not taken from its first link,
    /// forwards, as SE takes it. `base`: the cells of the chain's units;
    /// `start`, `end`: its ends.
    #[inline]
    fn targets(
        &self,
        ring: bool,
        base: Cells,
        start: Cells,
        end: Cells,
        end_peers: Cells,
    ) -> Option<(Cells, u32)> {
        let n = self.n;
        let chain = &self.chain[..n];
        let link = |w: usize| &self.links[chain[w].0];
        let order = |w: usize| se_order(link(w).unit);
        if ring {
            // a loop: SE takes it from its first link, that link forwards
            if (1..n).any(|w| order(w) < order(0)) || chain[0].1 != 0 {
                return None;
            }
            let mut targets = 0;
            let mut total = 0;
            let mut weak = |g: Cells| {
                let v = common_peers(g) & self.pos & !base;
                targets |= v;
                total += v.count_ones();
            };
            weak(start | end);
            for w in 0..n - 1 {
                weak(
                    link(w).side[1 - chain[w].1 as usize]
                        | link(w + 1).side[chain[w + 1].1 as usize],
                );
            }
            Some((targets, total))
        } else {
            let mut off = base;
            for &u in &self.shared[..n - 1] {
                off |= UNIT_MASK[u];
            }
            let v = self.start_peers & end_peers & !off;
            Some((v, v.count_ones()))
        }
    }

    /// The order SE finds the chain in: unit kinds, digit, units, link
    /// order, directions.
    #[inline]
    fn found_at(&self) -> u64 {
        let n = self.n;
        let chain = &self.chain[..n];
        let link = |w: usize| &self.links[chain[w].0];
        let order = |w: usize| se_order(link(w).unit);
        let mut rank = [0usize; 4];
        for w in 0..n {
            rank[w] = (0..n).filter(|&x| order(x) < order(w)).count();
        }
        let mut sorted = [0usize; 4];
        for w in 0..n {
            sorted[rank[w]] = w;
        }
        let mut kinds_mask = 0u64;
        let mut units = 0u64;
        for (k, &w) in sorted[..n].iter().enumerate() {
            kinds_mask |= 1 << (kind(link(w).unit) as usize * n + k);
            units = units << 5 | ((order(w) % 9) << 1) as u64 | link(w).ordinal as u64;
        }
        let qi = self
            .orders
            .iter()
            .position(|o| o[..n].iter().zip(&rank).all(|(&a, &r)| a as usize == r))
            .unwrap_or(0) as u64;
        let dirs = chain.iter().fold(0u64, |a, &(_, dir)| a << 1 | dir as u64);
        (((kinds_mask << 4 | self.d as u64) << 20 | units) << 4 | qi) << 4 | dirs
    }
}

/// The chain of `n` strong links (2 to 4) Sudoku Explainer's producer
/// would pick, limited to one technique if `only` says so.
fn search(b: &MarkedGrid, n: usize, only: Option<Technique>) -> Option<Step> {
    use std::sync::OnceLock;
    static ORDERS: OnceLock<Vec<Vec<[u8; 4]>>> = OnceLock::new();
    let orders = &ORDERS.get_or_init(|| (0..=4).map(chain_orders).collect())[n];
    let mut best: Option<Found> = None;
    let mut links = Vec::with_capacity(64);
    let mut sides = Vec::with_capacity(256);
    let mut all = [0u128; 10];
    for (c, &m) in b.all_cands().iter().enumerate() {
        let mut m = m;
        while m != 0 {
            all[m.trailing_zeros() as usize + 1] |= 1u128 << c;
            m &= m - 1;
        }
    }
    for d in 1..=9u8 {
        let pos = all[d as usize];
        links.clear();
        for u in 0..27 {
            unit_links(pos, u, &mut links);
        }
        if links.len() < n {
            continue;
        }
        let mut first = [0usize; 28];
        for l in &links {
            for m in l.units {
                let mut m = m;
                while m != 0 {
                    first[m.trailing_zeros() as usize + 1] += 1;
                    m &= m - 1;
                }
            }
        }
        for u in 0..27 {
            first[u + 1] += first[u];
        }
        let mut next = first;
        sides.clear();
        sides.resize(first[27], (0u8, 0u8));
        for (i, l) in links.iter().enumerate() {
            for (dir, &m) in l.units.iter().enumerate() {
                let mut m = m;
                while m != 0 {
                    let u = m.trailing_zeros() as usize;
                    m &= m - 1;
                    sides[next[u]] = (i as u8, dir as u8);
                    next[u] += 1;
                }
            }
        }
        let mut s = Search {
            d,
            n,
            pos,
            links: &links,
            sides: &sides,
            first: &first,
            orders,
            chain: [(0, 0); 4],
            len: 0,
            shared: [0; 3],
            used: 0,
            start_peers: 0,
            only,
            best: best.take(),
        };
        s.rec();
        best = s.best;
    }
    best.map(|f| step_of(&f, b))
}

/// The step of a chain, with its description.
fn step_of(f: &Found, b: &MarkedGrid) -> Step {
    let d = f.d;
    let n = f.links.len();
    let pos = b.positions(d);
    let t = f.technique;
    let tenths = f.key.0;
    let mut s = Step::new(t);
    s.adjust = if n <= 3 {
        tenths as f64 / 10.0 - t.se_rating()
    } else {
        (tenths - 58) as f64 / 10.0
    };
    s.eliminations = cells_of(f.targets).map(|c| (c, d)).collect();
    let mut cells = 0;
    for l in &f.links {
        cells |= l.places;
    }
    s.cells = cells_of(cells).collect();
    s.units = f.links.iter().map(|l| unit_name(l.unit)).collect();
    for &u in f.shared.iter().chain(f.ring.iter()) {
        let name = unit_name(u);
        if !s.units.contains(&name) {
            s.units.push(name);
        }
    }
    s.digits.push(d);
    let group = |m: Cells| {
        let m = m & pos;
        if m.count_ones() == 1 {
            cell_name(m.trailing_zeros() as usize)
        } else {
            format!("({})", cells_name(cells_of(m)))
        }
    };
    let ends = |w: usize| {
        let l = &f.links[w];
        let dir = f.dirs[w] as usize;
        (l.side[dir], l.side[1 - dir])
    };
    let dn = digit_name(d);
    let mut desc = format!("{} on {}: ", t.name(), dn);
    if f.ring.is_some() {
        desc.push_str("a loop of strong links, ");
    }
    for (w, l) in f.links.iter().enumerate() {
        let (a, z) = ends(w);
        if w > 0 {
            desc.push_str(&format!(
                ", {} sees {} ({}), ",
                group(ends(w - 1).1),
                group(a),
                unit_name(f.shared[w - 1])
            ));
        }
        let how = if !l.grouped {
            ""
        } else if l.rectangle {
            ", an empty rectangle"
        } else {
            ", grouped"
        };
        desc.push_str(&format!(
            "{}={} ({}{})",
            group(a),
            group(z),
            unit_name(l.unit),
            how
        ));
    }
    let (start, end) = (ends(0).0, ends(n - 1).1);
    let targets = cells_name(cells_of(f.targets));
    match f.ring {
        Some(u) => desc.push_str(&format!(
            ", and {} sees {} ({}): around the loop every link has {} at one end, so every \
             unit joining two links has its {} on the loop, and {} leaves {}",
            group(end),
            group(start),
            unit_name(u),
            dn,
            dn,
            dn,
            targets
        )),
        None => desc.push_str(&format!(
            "; if {} is not {}, the links make {} {}: one of them is {}, so {} leaves {}, \
             which {} both",
            group(start),
            dn,
            group(end),
            dn,
            dn,
            dn,
            targets,
            if f.targets.count_ones() == 1 {
                "sees"
            } else {
                "see"
            }
        )),
    }
    s.description = desc;
    s
}

/// The chain of exactly `n` strong links (2 to 4) that Sudoku Explainer
/// would take, or the best of one technique if `only` says so.
pub(crate) fn strong_link_chain(b: &MarkedGrid, n: usize, only: Option<Technique>) -> Option<Step> {
    search(b, n, only)
}

pub fn skyscraper(b: &MarkedGrid) -> Option<Step> {
    strong_link_chain(b, 2, Some(Technique::Skyscraper))
}
pub fn two_string_kite(b: &MarkedGrid) -> Option<Step> {
    strong_link_chain(b, 2, Some(Technique::TwoStringKite))
}
pub fn turbot_fish(b: &MarkedGrid) -> Option<Step> {
    strong_link_chain(b, 2, Some(Technique::TurbotFish))
}
pub fn three_strong_links(b: &MarkedGrid) -> Option<Step> {
    search(b, 3, None)
}
pub fn four_strong_links(b: &MarkedGrid) -> Option<Step> {
    search(b, 4, None)
}

/// Empty Rectangle, or any chain of two strong links one of which is
/// grouped (a box whose places lie on one row and one column, or on two
/// lines, or a line whose places lie in two boxes).
pub fn empty_rectangle(b: &MarkedGrid) -> Option<Step> {
    search(b, 2, Some(Technique::EmptyRectangle))
}

/// The step of Sudoku Explainer's "strong links" producer for chains of `n`
/// strong links (2: skyscraper, kite, turbot fish, empty rectangle; 3:
/// three strong links): the easiest productive chain, SE's pick among equals.
pub(crate) fn strong_links_producer(b: &MarkedGrid, n: usize) -> Option<Step> {
    search(b, n, None)
}

/// The clusters of one digit's strong links, two-coloured: `colour[c]` is 1 or
/// 2 within cluster `cluster[c]` (0 when the cell is in no strong link).
fn colour_clusters(b: &MarkedGrid, d: u8) -> (Vec<Vec<usize>>, [u8; 81], [usize; 81]) {
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); 81];
    for u in 0..27 {
        let p = b.unit_positions(u, d);
        if p.count_ones() == 2 {
            let a = p.trailing_zeros() as usize;
            let c = 127 - p.leading_zeros() as usize;
            if !adj[a].contains(&c) {
                adj[a].push(c);
                adj[c].push(a);
            }
        }
    }
    let mut colour = [0u8; 81];
    let mut cluster = [usize::MAX; 81];
    let mut clusters = Vec::new();
    for s in 0..81 {
        if adj[s].is_empty() || colour[s] != 0 {
            continue;
        }
        let id = clusters.len();
        let mut members = vec![s];
        colour[s] = 1;
        cluster[s] = id;
        let mut i = 0;
        while i < members.len() {
            let x = members[i];
            i += 1;
            for &y in &adj[x] {
                if colour[y] == 0 {
                    colour[y] = 3 - colour[x];
                    cluster[y] = id;
                    members.push(y);
                }
            }
        }
        clusters.push(members);
    }
    (clusters, colour, cluster)
}

/// Cells on the shortest strong-link path from `a` to `z` within a cluster.
fn cluster_path(b: &MarkedGrid, d: u8, a: usize, z: usize) -> usize {
    let mut dist = [usize::MAX; 81];
    dist[a] = 0;
    let mut q = vec![a];
    let mut i = 0;
    while i < q.len() {
        let x = q[i];
        i += 1;
        if x == z {
            return dist[x] + 1;
        }
        for &u in &CELL_UNITS[x] {
            let p = b.unit_positions(u as usize, d);
            if p.count_ones() == 2 {
                let y = (p & !(1u128 << x)).trailing_zeros() as usize;
                if dist[y] == usize::MAX {
                    dist[y] = dist[x] + 1;
                    q.push(y);
                }
            }
        }
    }
    usize::MAX / 4
}

/// Simple colouring, trap: a candidate that sees both colours of a cluster is false.
pub fn colour_trap(b: &MarkedGrid) -> Option<Step> {
    let mut best: Option<Step> = None;
    for d in 1..=9u8 {
        let (clusters, colour, _) = colour_clusters(b, d);
        let pos = b.positions(d);
        for members in &clusters {
            if members.len() < 4 {
                continue; // two cells: a single strong link traps nothing new
            }
            let mut set: [Cells; 3] = [0; 3];
            for &m in members {
                set[colour[m] as usize] |= 1u128 << m;
            }
            for c in cells_of(pos & !(set[1] | set[2])) {
                let s1 = PEER_MASK[c] & set[1];
                let s2 = PEER_MASK[c] & set[2];
                if s1 == 0 || s2 == 0 {
                    continue;
                }
                // the shortest path between a seen cell of each colour
                let mut len = usize::MAX;
                let mut ends = (0, 0);
                for x in cells_of(s1) {
                    for y in cells_of(s2) {
                        let l = cluster_path(b, d, x, y);
                        if l < len {
                            len = l;
                            ends = (x, y);
                        }
                    }
                }
                let mut s = Step::new(Technique::ColourTrap);
                s.complexity = len + 2;
                if best.as_ref().is_some_and(|bs| bs.rating() <= s.rating()) {
                    continue;
                }
                s.eliminations.push((c, d));
                s.cells = members.clone();
                s.cells.sort_unstable();
                s.digits.push(d);
                s.description = format!(
                    "Colour trap on {}: the strong links of {} colour it in two colours, one of \
                     which is true; {} sees {} and {} of opposite colours, so it is not {}",
                    digit_name(d),
                    cells_name(s.cells.iter().copied()),
                    cell_name(c),
                    cell_name(ends.0),
                    cell_name(ends.1),
                    digit_name(d)
                );
                best = Some(s);
            }
        }
    }
    best
}

/// Simple colouring, wrap: two cells of one colour see each other, so that
/// colour is false everywhere.
pub fn colour_wrap(b: &MarkedGrid) -> Option<Step> {
    let mut best: Option<Step> = None;
    for d in 1..=9u8 {
        let (clusters, colour, _) = colour_clusters(b, d);
        for members in &clusters {
            for (i, &x) in members.iter().enumerate() {
                for &y in &members[i + 1..] {
                    if colour[x] != colour[y] || !sees(x, y) {
                        continue;
                    }
                    let len = cluster_path(b, d, x, y);
                    let mut s = Step::new(Technique::ColourWrap);
                    s.complexity = len + 1;
                    if best.as_ref().is_some_and(|bs| bs.rating() <= s.rating()) {
                        continue;
                    }
                    let bad = colour[x];
                    s.eliminations = members
                        .iter()
                        .filter(|&&m| colour[m] == bad)
                        .map(|&m| (m, d))
                        .collect();
                    s.eliminations.sort_unstable();
                    s.cells = members.clone();
                    s.cells.sort_unstable();
                    s.digits.push(d);
                    s.description = format!(
                        "Colour wrap on {}: the strong links of {} colour it in two colours; {} \
                         and {} have the same colour and see each other, so that colour is false: \
                         {} leaves {}",
                        digit_name(d),
                        cells_name(s.cells.iter().copied()),
                        cell_name(x),
                        cell_name(y),
                        digit_name(d),
                        cells_name(s.eliminations.iter().map(|e| e.0))
                    );
                    best = Some(s);
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    //! Positions met while Sudoku Explainer (SukakuExplainer 2020-01-11)
    //! rated puzzles of the calibration set, just before it took a strong
    //! links step: the step expected is SE's, rating and eliminations.
    use super::*;
    use crate::{Grid, Rules, Solver, SudokuEngine};

    fn cell(name: &str) -> usize {
        let b = name.as_bytes();
        (b[1] - b'1') as usize * 9 + (b[3] - b'1') as usize
    }

    /// `r4c7-159`: digits 1, 5 and 9 of r4c7, separated by spaces.
    fn marks(list: &str) -> Vec<(usize, u8)> {
        let mut v = Vec::new();
        for tok in list.split_whitespace() {
            let (c, ds) = tok.split_once('-').unwrap();
            for ch in ds.bytes() {
                v.push((cell(c), ch - b'0'));
            }
        }
        v.sort_unstable();
        v
    }

    /// The board of the digits `values`, less the candidates `removed`.
    fn board(values: &str, removed: &str) -> MarkedGrid {
        let mut b = MarkedGrid::from_line(values).unwrap();
        for (c, d) in marks(removed) {
            assert!(b.eliminate(c, d), "{c} {d}");
        }
        b
    }

    fn solution(values: &str) -> Vec<u8> {
        let cells = values
            .bytes()
            .map(|c| c.saturating_sub(b'0') % 10)
            .collect();
        let solver = Solver::new(&Rules::standard(9).unwrap(), SudokuEngine::Dlx).unwrap();
        let s = solver.solve(&Grid::from_cells(9, cells), 2, 1);
        assert_eq!(s.count, 1, "{values}");
        s.solutions[0].cells().to_vec()
    }

    /// The producer's step for `n` links on the position: its technique,
    /// rating and eliminations, which must be sound.
    fn check(values: &str, removed: &str, n: usize, t: Technique, rating: f64, gone: &str) -> Step {
        let b = board(values, removed);
        let s = strong_links_producer(&b, n).unwrap_or_else(|| panic!("nothing on {values}"));
        assert_eq!(s.technique, t, "{}", s.description);
        assert!(
            (s.rating() - rating).abs() < 1e-9,
            "{} rated {}",
            s.description,
            s.rating()
        );
        let mut got = s.eliminations.clone();
        got.sort_unstable();
        assert_eq!(got, marks(gone), "{}", s.description);
        let sol = solution(values);
        for &(c, d) in &s.eliminations {
            assert!(b.has(c, d) && sol[c] != d, "{}: {c} {d}", s.description);
        }
        let lower = s.description.to_lowercase();
        assert!(
            lower.contains(&t.name().to_lowercase()),
            "{}",
            s.description
        );
        assert!(!s.cells.is_empty() && !s.units.is_empty() && s.digits.len() == 1);
        s
    }

    #[test]
    fn skyscraper_two_parallel_lines() {
        // 057db0db2b5b: SE "Skyscraper 011" on 2, columns 6 and 8 joined in row 6
        let v = "825136749.4178.35..73..48..2.96174..7648.39..1.8.4.6.73872651945164982734923715..";
        let s = check(v, "", 2, Technique::Skyscraper, 4.0, "r3c8-2 r5c9-2");
        assert!(skyscraper(&board(v, "")).is_some());
        assert!(s.description.contains("r2c9"), "{}", s.description);
    }

    #[test]
    fn kite_a_row_and_a_column() {
        // 117e34aab3ad: SE "2-String Kite 012" on 7
        let v = ".9...8.1.6.1.9...48..15..9.51.8.9426.68.219..9.26.5..1.86.13..93.9...1.817.98..6.";
        check(v, "", 2, Technique::TwoStringKite, 4.1, "r1c5-7");
    }

    #[test]
    fn box_and_line_rate_as_a_kite() {
        // 02f6f1f4f6a2: SE "2 Strong links 001" on 9, box 6 then row 2: 4.1
        let v = "81....2.352.8...1.394721586671.8..2.945672138283...6..138256..9752498361469..7852";
        check(v, "", 2, Technique::TurbotFish, 4.1, "r6c6-9");
        let b = board(v, "");
        assert_eq!(
            turbot_fish(&b).map(|s| s.technique),
            Some(Technique::TurbotFish)
        );
        assert!(skyscraper(&b).is_none_or(|s| s.technique == Technique::Skyscraper));
    }

    #[test]
    fn grouped_links() {
        // 40fb5a015cbf: SE "Grouped 2 Strong links 101" on 1, an empty
        // rectangle in box 5 and row 1
        let v = "82..36.9569...82.31..92.86797..825.44.8.596.25.2....892...97..838.2....675.86..21";
        let s = check(v, "", 2, Technique::EmptyRectangle, 4.3, "r6c7-1");
        assert!(
            s.description.contains("empty rectangle"),
            "{}",
            s.description
        );
        assert!(empty_rectangle(&board(v, "")).is_some());
        // a5cf98acd034: SE "Grouped Skyscraper 111" on 4: column 3 holds its
        // 4s in two boxes
        let v = "2..4618.9...2.9.....9.38.2..67914..2421..379639.627.1..8..962..9.6..2...7.23.596.";
        let s = check(v, "", 2, Technique::EmptyRectangle, 4.3, "r7c9-4");
        assert!(s.description.contains("grouped"), "{}", s.description);
    }

    #[test]
    fn three_links_and_their_ratings() {
        // 5c85121cd731: SE "3 Skyscrapers 0111" on 4, three parallel lines: 5.4
        let v = "5..21.9.7973546182..197...581.73.256635821794..7..58137...523.13461875291523...78";
        check(v, "", 3, Technique::ThreeStrongLinks, 5.4, "r6c4-4 r9c6-4");
        // 7e1eb852a199: SE "3 Strong links 0011" on 6, a box and two rows: 5.5
        let v = "853..17.99.437.8.117..8..34.371..49.498637215.15..437.34..1..877.1...9.358.7.3142";
        check(v, "r7c6-5", 3, Technique::ThreeStrongLinks, 5.5, "r2c8-6");
        // b6e717a79d01: SE "3-String Kite 0112" on 5, rows and a column: 5.5
        let v = "98.1.3.4..13...8..74685921386..3.17.4.971863.371...4.8638547921..7691384194382...";
        check(
            v,
            "r1c9-5 r4c4-2",
            3,
            Technique::ThreeStrongLinks,
            5.5,
            "r9c9-5",
        );
        // 57fb959547e6: SE "3 Strong links 0102" on 1, a box, a row and a column: 5.6
        let v = "974.583..35196.8..82643..592..649..57.93852..4.57..9..1.25946..59..764.2647..359.";
        check(
            v,
            "r6c2-1 r6c8-1 r6c9-1",
            3,
            Technique::ThreeStrongLinks,
            5.6,
            "r4c8-1 r5c8-1",
        );
        // 0378c55edafd: SE "Grouped 3 Skyscrapers 1111" on 6: 5.7
        let v = "81.9.23.72.34.7819.7.831.2.798514.3.345276198621398574..2785...48.12.7....764..8.";
        check(
            v,
            "r9c9-5",
            3,
            Technique::ThreeStrongLinks,
            5.7,
            "r7c7-6 r7c9-6",
        );
    }

    #[test]
    fn three_links_closing_a_loop() {
        // e8ec482d017d: SE "(3 Strong Links) X-Loop 0001" on 1: the ends
        // share a unit too, and 1 leaves every joining unit
        let v = "34.2..756.78.4.231..6.7.984.6712439....8.5..7...79...26.2957..3794....2..354.2679";
        let s = check(
            v,
            "r3c1-1 r6c7-14 r8c5-18 r8c6-36",
            3,
            Technique::ThreeStrongLinks,
            5.5,
            "r1c6-1 r5c2-1 r6c2-1",
        );
        assert!(s.description.contains("loop"), "{}", s.description);
    }

    #[test]
    fn ties_go_to_the_most_eliminations_then_the_shape_code() {
        // 33e530a64866: two skyscrapers on 2; SE takes the one removing two
        let v = "7..36...83.685.7.48514....6.8..36..2.3..8..4.1..94..8.5...9846...86132.....5.48.9";
        let removed = "r1c3-2 r5c1-9 r5c6-1 r6c2-2 r7c2-2 r7c9-7 r8c2-7 r9c2-2 r9c8-7";
        check(v, removed, 2, Technique::Skyscraper, 4.0, "r7c3-2 r9c5-2");
        // 0aa049d68e42: 5.5 chains of shapes 0112 and 0011 remove one each;
        // SE takes the 0011 (a box and two rows)
        let v = "..........2.7.3.969.6...7.8..4.6.1.....3.1...5.......26...1...4..3...8..49.83265.";
        let removed = "r1c1-1 r1c2-13 r1c3-1 r1c4-4 r1c7-3 r1c8-3 r3c2-1 r3c4-4 r4c1-78 r4c2-3 \
                       r4c6-78 r4c8-3 r4c9-7 r6c6-4 r6c7-4";
        let s = check(v, removed, 3, Technique::ThreeStrongLinks, 5.5, "r1c4-2");
        assert!(
            s.units.iter().any(|u| u.starts_with("box")),
            "{:?}",
            s.units
        );
    }

    #[test]
    fn shape_codes_read_the_smallest_way() {
        assert_eq!(shape_code(&[1, 1]), [1, 1, 0, 0]);
        assert_eq!(shape_code(&[2, 2]), [1, 1, 0, 0]);
        assert_eq!(shape_code(&[2, 0]), [0, 1, 0, 0]);
        assert_eq!(shape_code(&[2, 1, 0]), [0, 1, 2, 0]);
        assert_eq!(shape_code(&[2, 2, 1]), [1, 1, 2, 0]);
        assert_eq!(chain_orders(2), vec![[0, 1, 2, 3]]);
        let three: Vec<Vec<u8>> = chain_orders(3).iter().map(|o| o[..3].to_vec()).collect();
        assert_eq!(three, vec![vec![0, 1, 2], vec![1, 0, 2], vec![0, 2, 1]]);
    }

    #[test]
    fn boxes_split_as_se_splits_them() {
        let pos_of = |cells: &[&str]| cells.iter().fold(0u128, |m, c| m | 1u128 << cell(c));
        let links = |cells: &[&str], u: usize| {
            let mut v = Vec::new();
            unit_links(pos_of(cells), u, &mut v);
            v
        };
        // two places on a row of the box: that row's link, not the box's
        assert!(links(&["r1c1", "r1c3"], 18).is_empty());
        // an L of three: the row's lone cell against the column's with the heart
        let l = links(&["r1c1", "r1c2", "r2c1"], 18);
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].side, [pos_of(&["r1c2"]), pos_of(&["r1c1", "r2c1"])]);
        // a square: split by rows and by columns
        let l = links(&["r1c1", "r1c2", "r2c1", "r2c2"], 18);
        assert_eq!(l.len(), 2);
        assert_eq!(
            l[1].side,
            [pos_of(&["r1c1", "r2c1"]), pos_of(&["r1c2", "r2c2"])]
        );
        // three places on a diagonal: no link
        assert!(links(&["r1c1", "r2c2", "r3c3"], 18).is_empty());
        // a row whose places lie in two boxes, one alone
        let l = links(&["r1c1", "r1c7", "r1c8"], 0);
        assert_eq!(l[0].side, [pos_of(&["r1c1"]), pos_of(&["r1c7", "r1c8"])]);
        assert!(l[0].grouped);
    }
}
