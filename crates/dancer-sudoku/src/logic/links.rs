//! Single-digit patterns made of strong links: Skyscraper, 2-String Kite,
//! Turbot Fish, Empty Rectangle, chains of three and four strong links, and
//! simple colouring.

use super::board::*;
use super::step::{Step, Technique};

/// A strong link on one digit, oriented: if no cell of `s` holds the digit,
/// a cell of `e` does. Most are a unit with two places for the digit; in an
/// empty rectangle (a box whose places lie on one row and one column) `s` is
/// the places on one line (the crossing cell included) and `e` those on the
/// other line.
#[derive(Clone, Copy)]
struct Link {
    unit: usize,
    grouped: bool,
    s: Cells,
    e: Cells,
}

fn strong_links(b: &Board, d: u8, grouped: bool) -> Vec<Link> {
    let mut v = Vec::new();
    for u in 0..27 {
        let p = b.unit_positions(u, d);
        if p.count_ones() == 2 {
            let a = 1u128 << p.trailing_zeros();
            let c = p & !a;
            v.push(Link {
                unit: u,
                grouped: false,
                s: a,
                e: c,
            });
            v.push(Link {
                unit: u,
                grouped: false,
                s: c,
                e: a,
            });
        } else if grouped && u >= 18 && p.count_ones() >= 3 {
            let bx = u - 18;
            let (r0, c0) = ((bx / 3) * 3, (bx % 3) * 3);
            for r in r0..r0 + 3 {
                for col in c0..c0 + 3 {
                    let (rp, cp) = (p & UNIT_MASK[r], p & UNIT_MASK[9 + col]);
                    if p & !(rp | cp) != 0 {
                        continue;
                    }
                    let x = 1u128 << (r * 9 + col);
                    if rp & !x == 0 || cp & !x == 0 {
                        continue;
                    }
                    v.push(Link {
                        unit: u,
                        grouped: true,
                        s: rp | (p & x),
                        e: cp & !x,
                    });
                    v.push(Link {
                        unit: u,
                        grouped: true,
                        s: cp | (p & x),
                        e: rp & !x,
                    });
                }
            }
        }
    }
    v
}

/// 0 for a box, 1 for a row, 2 for a column.
fn kind(u: usize) -> u8 {
    match u {
        0..=8 => 1,
        9..=17 => 2,
        _ => 0,
    }
}

/// The technique and shape adjustment of a chain of strong links in these
/// units (`grouped`: some link is an empty rectangle).
fn classify(units: &[usize], grouped: bool) -> (Technique, f64) {
    let has_box = units.iter().any(|&u| kind(u) == 0);
    let rows = units.iter().any(|&u| kind(u) == 1);
    let cols = units.iter().any(|&u| kind(u) == 2);
    match units.len() {
        2 => {
            if grouped {
                (Technique::EmptyRectangle, 0.0)
            } else if has_box {
                (Technique::TurbotFish, 0.0)
            } else if rows && cols {
                (Technique::TwoStringKite, 0.0)
            } else {
                (Technique::Skyscraper, 0.0)
            }
        }
        n => {
            let t = if n == 3 {
                Technique::ThreeStrongLinks
            } else {
                Technique::FourStrongLinks
            };
            let adj = if grouped {
                0.3
            } else if has_box && rows && cols {
                0.2
            } else if has_box || (rows && cols) {
                0.1
            } else {
                0.0
            };
            (t, adj)
        }
    }
}

struct Search<'a> {
    d: u8,
    n: usize,
    pos: Cells,
    links: &'a [Link],
    /// For each link, the links that may follow it.
    next: &'a [Vec<u16>],
    chain: Vec<usize>,
    used: Cells,
    best: Option<(f64, Step)>,
    only: Option<Technique>,
}

impl Search<'_> {
    fn rec(&mut self) {
        let n = self.n;
        if self.chain.len() == n {
            self.conclude();
            return;
        }
        let next = self.next;
        let last = self.chain.last().copied();
        let total = match last {
            Some(x) => next[x].len(),
            None => self.links.len(),
        };
        for k in 0..total {
            let i = match last {
                Some(x) => next[x][k] as usize,
                None => k,
            };
            let l = self.links[i];
            if self.used & (l.s | l.e) != 0 {
                continue;
            }
            self.chain.push(i);
            self.used |= l.s | l.e;
            self.rec();
            self.used &= !(l.s | l.e);
            self.chain.pop();
        }
    }

    fn conclude(&mut self) {
        let n = self.n;
        let first = self.links[self.chain[0]];
        let last = self.links[self.chain[n - 1]];
        let grouped = self.chain.iter().any(|&i| self.links[i].grouped);
        if !grouped && first.s.trailing_zeros() > last.e.trailing_zeros() {
            return; // each chain once, from its lower end
        }
        let targets = common_peers(first.s | last.e) & self.pos & !self.used;
        if targets == 0 {
            return;
        }
        let units: Vec<usize> = self.chain.iter().map(|&i| self.links[i].unit).collect();
        let (t, adj) = classify(&units, grouped);
        if self.only.is_some_and(|o| o != t) {
            return;
        }
        let r = t.se_rating() + adj;
        if self.best.as_ref().is_some_and(|(br, _)| *br <= r + 1e-9) {
            return;
        }
        let d = self.d;
        let mut s = Step::new(t);
        s.adjust = adj;
        s.eliminations = cells_of(targets).map(|c| (c, d)).collect();
        for &i in &self.chain {
            s.cells.extend(cells_of(self.links[i].s | self.links[i].e));
        }
        s.units = units.iter().map(|&u| unit_name(u)).collect();
        s.digits.push(d);
        let group = |m: Cells| {
            if m.count_ones() == 1 {
                cell_name(m.trailing_zeros() as usize)
            } else {
                format!("({})", cells_name(cells_of(m)))
            }
        };
        let mut desc = format!("{} on {}: ", t.name(), d);
        for (k, &i) in self.chain.iter().enumerate() {
            let l = self.links[i];
            if k > 0 {
                desc.push_str(" - ");
            }
            desc.push_str(&format!(
                "{}={} ({}{})",
                group(l.s),
                group(l.e),
                unit_name(l.unit),
                if l.grouped { ", empty rectangle" } else { "" }
            ));
        }
        desc.push_str(&format!(
            "; {} or {} holds {}, so {} leaves {}",
            group(first.s),
            group(last.e),
            d,
            d,
            cells_name(cells_of(targets))
        ));
        s.description = desc;
        self.best = Some((r, s));
    }
}

/// The easiest single-digit chain of exactly `n` strong links (2 to 4)
/// whose two ends see a common candidate: that candidate is false, since one
/// end is true.
pub(crate) fn strong_link_chain(b: &Board, n: usize, only: Option<Technique>) -> Option<Step> {
    let mut best: Option<(f64, Step)> = None;
    for d in 1..=9u8 {
        let links = strong_links(b, d, n >= 3 || only == Some(Technique::EmptyRectangle));
        if links.len() < 2 * n {
            continue;
        }
        // every cell of the next start sees every cell of the last end
        let next: Vec<Vec<u16>> = links
            .iter()
            .map(|l| {
                let cp = common_peers(l.e);
                (0..links.len() as u16)
                    .filter(|&j| links[j as usize].s & !cp == 0)
                    .collect()
            })
            .collect();
        let mut search = Search {
            d,
            n,
            pos: b.positions(d),
            links: &links,
            next: &next,
            chain: Vec::with_capacity(n),
            used: 0,
            best: best.take(),
            only,
        };
        search.rec();
        best = search.best;
    }
    best.map(|(_, s)| s)
}

pub fn skyscraper(b: &Board) -> Option<Step> {
    strong_link_chain(b, 2, Some(Technique::Skyscraper))
}
pub fn two_string_kite(b: &Board) -> Option<Step> {
    strong_link_chain(b, 2, Some(Technique::TwoStringKite))
}
pub fn turbot_fish(b: &Board) -> Option<Step> {
    strong_link_chain(b, 2, Some(Technique::TurbotFish))
}
pub fn three_strong_links(b: &Board) -> Option<Step> {
    strong_link_chain(b, 3, None)
}
pub fn four_strong_links(b: &Board) -> Option<Step> {
    strong_link_chain(b, 4, None)
}

/// Empty Rectangle: in a box the digit lies on one row and one column only
/// (on both); with a strong link on a crossing line, the digit leaves the
/// cell where the other end's line meets the box's line.
pub fn empty_rectangle(b: &Board) -> Option<Step> {
    for d in 1..=9u8 {
        for bx in 0..9 {
            let p = b.unit_positions(18 + bx, d);
            if p.count_ones() < 2 {
                continue;
            }
            let (r0, c0) = ((bx / 3) * 3, (bx % 3) * 3);
            for r in r0..r0 + 3 {
                for c in c0..c0 + 3 {
                    let cross = UNIT_MASK[r] | UNIT_MASK[9 + c];
                    if p & !cross != 0 || p & !UNIT_MASK[r] == 0 || p & !UNIT_MASK[9 + c] == 0 {
                        continue;
                    }
                    // a strong link in a column c2 outside the box, one end in row r
                    for c2 in 0..9 {
                        if c2 / 3 == bx % 3 {
                            continue;
                        }
                        let lp = b.unit_positions(9 + c2, d);
                        if lp.count_ones() != 2 || lp >> (r * 9 + c2) & 1 == 0 {
                            continue;
                        }
                        let other = (lp & !(1u128 << (r * 9 + c2))).trailing_zeros() as usize;
                        let rq = row_of(other);
                        if rq / 3 == bx / 3 {
                            continue;
                        }
                        let target = rq * 9 + c;
                        if b.has(target, d) {
                            return Some(er_step(
                                b,
                                d,
                                bx,
                                r,
                                c,
                                9 + c2,
                                r * 9 + c2,
                                other,
                                target,
                            ));
                        }
                    }
                    // a strong link in a row r2 outside the box, one end in column c
                    for r2 in 0..9 {
                        if r2 / 3 == bx / 3 {
                            continue;
                        }
                        let lp = b.unit_positions(r2, d);
                        if lp.count_ones() != 2 || lp >> (r2 * 9 + c) & 1 == 0 {
                            continue;
                        }
                        let other = (lp & !(1u128 << (r2 * 9 + c))).trailing_zeros() as usize;
                        let cq = col_of(other);
                        if cq / 3 == bx % 3 {
                            continue;
                        }
                        let target = r * 9 + cq;
                        if b.has(target, d) {
                            return Some(er_step(b, d, bx, r, c, r2, r2 * 9 + c, other, target));
                        }
                    }
                }
            }
        }
    }
    None
}

#[allow(clippy::too_many_arguments)]
fn er_step(
    b: &Board,
    d: u8,
    bx: usize,
    r: usize,
    c: usize,
    link_unit: usize,
    near: usize,
    far: usize,
    target: usize,
) -> Step {
    let mut s = Step::new(Technique::EmptyRectangle);
    s.eliminations.push((target, d));
    s.cells = cells_of(b.unit_positions(18 + bx, d)).collect();
    s.cells.push(near);
    s.cells.push(far);
    s.units = vec![unit_name(18 + bx), unit_name(link_unit)];
    s.digits.push(d);
    s.description = format!(
        "Empty rectangle on {}: in {} the {}s lie on row {} and column {}; with the strong link \
         {}={} in {}, either {} is {} or {} is, and both see {}, so {} leaves {}",
        d,
        unit_name(18 + bx),
        d,
        r + 1,
        c + 1,
        cell_name(near),
        cell_name(far),
        unit_name(link_unit),
        cell_name(far),
        d,
        if link_unit >= 9 {
            format!("column {} of the box", c + 1)
        } else {
            format!("row {} of the box", r + 1)
        },
        cell_name(target),
        d,
        cell_name(target)
    );
    s
}

/// The clusters of one digit's strong links, two-coloured: `colour[c]` is 1 or
/// 2 within cluster `cluster[c]` (0 when the cell is in no strong link).
fn colour_clusters(b: &Board, d: u8) -> (Vec<Vec<usize>>, [u8; 81], [usize; 81]) {
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
fn cluster_path(b: &Board, d: u8, a: usize, z: usize) -> usize {
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
pub fn colour_trap(b: &Board) -> Option<Step> {
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
                    d,
                    cells_name(s.cells.iter().copied()),
                    cell_name(c),
                    cell_name(ends.0),
                    cell_name(ends.1),
                    d
                );
                best = Some(s);
            }
        }
    }
    best
}

/// Simple colouring, wrap: two cells of one colour see each other, so that
/// colour is false everywhere.
pub fn colour_wrap(b: &Board) -> Option<Step> {
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
                        d,
                        cells_name(s.cells.iter().copied()),
                        cell_name(x),
                        cell_name(y),
                        d,
                        cells_name(s.eliminations.iter().map(|e| e.0))
                    );
                    best = Some(s);
                }
            }
        }
    }
    best
}
