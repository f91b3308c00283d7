//! Wings: XY-Wing, XYZ-Wing, WXYZ-Wing and VWXYZ-Wing (a pivot and bivalue
//! wings), and the W-Wing.

use super::board::*;
use super::step::{Step, Technique};

/// A pivot seeing `wings` bivalue cells `{a, z}`, one for each digit `a` of
/// the pivot other than `z`; the pivot may hold `z` too. Whatever the pivot
/// is, one of the wings (or the pivot) is `z`, so `z` leaves every cell that
/// sees all the `z` cells.
fn pivot_wing(b: &MarkedGrid, wings: usize, t: Technique, with_z: Option<bool>) -> Option<Step> {
    debug_assert!(wings >= 2);
    for p in 0..81 {
        let pm = b.cands(p);
        let k = count(pm) as usize;
        if b.value(p) != 0 || k < wings || k > wings + 1 {
            continue;
        }
        let pivot_has_z = k == wings + 1;
        if let Some(w) = with_z {
            if w != pivot_has_z {
                continue;
            }
        }
        for z in 1..=9u8 {
            if (pm & bit(z) != 0) != pivot_has_z {
                continue;
            }
            let others = pm & !bit(z);
            // candidate wings for each digit a of the pivot
            let mut lists: Vec<Vec<usize>> = Vec::with_capacity(wings);
            for a in digits_of(others) {
                let want = bit(a) | bit(z);
                let l: Vec<usize> = PEERS[p]
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| b.cands(c) == want)
                    .collect();
                if l.is_empty() {
                    break;
                }
                lists.push(l);
            }
            if lists.len() != wings {
                continue;
            }
            // every combination of one wing per digit
            let mut idx = vec![0usize; wings];
            loop {
                let mut zcells: Cells = 0;
                for (i, l) in lists.iter().enumerate() {
                    zcells |= 1u128 << l[idx[i]];
                }
                if pivot_has_z {
                    zcells |= 1u128 << p;
                }
                let targets = common_peers(zcells) & !(1u128 << p);
                let el: Vec<(usize, u8)> = cells_of(targets)
                    .filter(|&c| b.has(c, z))
                    .map(|c| (c, z))
                    .collect();
                if !el.is_empty() {
                    let mut s = Step::new(t);
                    let wing_cells: Vec<usize> =
                        lists.iter().enumerate().map(|(i, l)| l[idx[i]]).collect();
                    s.eliminations = el;
                    s.cells.push(p);
                    s.cells.extend(&wing_cells);
                    s.digits = digits_of(pm | bit(z)).collect();
                    s.description = format!(
                        "{}: pivot {} ({}) with wings {}: whatever the pivot is, {} is in {}, \
                         so {} leaves {}",
                        t.name(),
                        cell_name(p),
                        digits_name(pm),
                        wing_cells
                            .iter()
                            .map(|&c| format!("{} ({})", cell_name(c), digits_name(b.cands(c))))
                            .collect::<Vec<_>>()
                            .join(", "),
                        digit_name(z),
                        cells_name(cells_of(zcells)),
                        digit_name(z),
                        cells_name(s.eliminations.iter().map(|e| e.0))
                    );
                    return Some(s);
                }
                // next combination
                let mut i = 0;
                loop {
                    if i == wings {
                        break;
                    }
                    idx[i] += 1;
                    if idx[i] < lists[i].len() {
                        break;
                    }
                    idx[i] = 0;
                    i += 1;
                }
                if i == wings {
                    break;
                }
            }
        }
    }
    None
}

/// XY-Wing: pivot `xy`, wings `xz` and `yz`; `z` leaves the cells seeing both wings.
pub fn xy_wing(b: &MarkedGrid) -> Option<Step> {
    pivot_wing(b, 2, Technique::XYWing, Some(false))
}

/// XYZ-Wing: pivot `xyz`, wings `xz` and `yz`; `z` leaves the cells seeing all three.
pub fn xyz_wing(b: &MarkedGrid) -> Option<Step> {
    pivot_wing(b, 2, Technique::XYZWing, Some(true))
}

/// WXYZ-Wing: a bivalue cell and an almost locked set of three cells (see
/// [`als_wing`]).
pub fn wxyz_wing(b: &MarkedGrid) -> Option<Step> {
    als_wing(b, 3)
}

/// VWXYZ-Wing: a bivalue cell and an almost locked set of four cells.
pub fn vwxyz_wing(b: &MarkedGrid) -> Option<Step> {
    als_wing(b, 4)
}

/// W-Wing: two bivalue cells `xy` that do not see each other, joined by a
/// strong link on `y` (each end seeing one of them): one of them is `x`, so
/// `x` leaves the cells that see both.
pub fn w_wing(b: &MarkedGrid) -> Option<Step> {
    let biv: Vec<usize> = (0..81).filter(|&c| count(b.cands(c)) == 2).collect();
    for (i, &a) in biv.iter().enumerate() {
        for &c2 in &biv[i + 1..] {
            if b.cands(a) != b.cands(c2) || sees(a, c2) {
                continue;
            }
            let m = b.cands(a);
            let targets = PEER_MASK[a] & PEER_MASK[c2];
            for y in digits_of(m) {
                let x = digits_of(m & !bit(y)).next().unwrap();
                let el: Vec<(usize, u8)> = cells_of(targets)
                    .filter(|&c| b.has(c, x))
                    .map(|c| (c, x))
                    .collect();
                if el.is_empty() {
                    continue;
                }
                for u in 0..27 {
                    let p = b.unit_positions(u, y);
                    if p.count_ones() != 2 {
                        continue;
                    }
                    let mut it = cells_of(p);
                    let (p1, p2) = (it.next().unwrap(), it.next().unwrap());
                    for (e1, e2) in [(p1, p2), (p2, p1)] {
                        if e1 == a || e2 == c2 || e1 == c2 || e2 == a {
                            continue;
                        }
                        if sees(e1, a) && sees(e2, c2) {
                            let mut s = Step::new(Technique::WWing);
                            s.complexity = 8;
                            s.eliminations = el;
                            s.cells = vec![a, c2, e1, e2];
                            s.units.push(unit_name(u));
                            s.digits = vec![x, y];
                            s.description = format!(
                                "W-Wing: {} and {} both hold {}/{}; the strong link on {} in {} \
                                 ({} - {}) means one of them is {}, so {} leaves {}",
                                cell_name(a),
                                cell_name(c2),
                                x.min(y),
                                x.max(y),
                                digit_name(y),
                                unit_name(u),
                                cell_name(e1),
                                cell_name(e2),
                                digit_name(x),
                                digit_name(x),
                                cells_name(s.eliminations.iter().map(|e| e.0))
                            );
                            return Some(s);
                        }
                    }
                }
            }
        }
    }
    None
}

/// The technique of an ALS wing with an ALS of `k` cells.
fn als_wing_technique(k: usize) -> Technique {
    match k {
        2 => Technique::XYZWing,
        3 => Technique::WXYZWing,
        4 => Technique::VWXYZWing,
        _ => Technique::UVWXYZWing,
    }
}

/// An ALS wing: a bivalue cell `xz` and an almost locked set of `k` cells of
/// one unit holding `k + 1` digits, among them `x` and `z`, every `x` of the
/// set seeing the bivalue cell. If the bivalue cell is not `z` it is `x`,
/// which leaves the set locked with `z` in it; so `z` leaves every cell that
/// sees the bivalue cell and all the `z`s of the set. (XY- and XYZ-Wings are
/// the case `k = 2`; WXYZ-, VWXYZ- and UVWXYZ-Wings are `k = 3, 4, 5`.)
pub fn als_wing(b: &MarkedGrid, k: usize) -> Option<Step> {
    let t = als_wing_technique(k);
    let biv: Cells = (0..81)
        .filter(|&c| count(b.cands(c)) == 2)
        .fold(0, |m, c| m | 1u128 << c);
    if biv == 0 {
        return None;
    }
    let mut pos = [0u128; 10];
    for (d, p) in pos.iter_mut().enumerate().skip(1) {
        *p = b.positions(d as u8);
    }
    let mut seen_sets: Vec<Cells> = Vec::new();
    let mut best: Option<Step> = None;
    for u in 0..27 {
        let cells: Vec<usize> = UNITS[u]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.value(c) == 0 && (count(b.cands(c)) as usize) <= k + 1)
            .collect();
        let mut sets: Vec<(Cells, Digits)> = Vec::new();
        almost_locked_sets(b, &cells, k, 0, 0, 0, &mut sets);
        for (set, m) in sets {
            // a set inside a box and a line is seen from both units
            if seen_sets.contains(&set) {
                continue;
            }
            seen_sets.push(set);
            let widest = cells_of(set).map(|c| count(b.cands(c))).max().unwrap_or(0);
            let adjust = als_wing_adjust(k, widest as usize);
            if best.as_ref().is_some_and(|s| s.adjust <= adjust) {
                continue;
            }
            for x in digits_of(m) {
                let xcells = pos[x as usize] & set;
                let ys = common_peers(xcells) & biv & !set;
                for y in cells_of(ys) {
                    let ym = b.cands(y);
                    if ym & bit(x) == 0 || ym & !m != 0 {
                        continue;
                    }
                    let z = (ym & !bit(x)).trailing_zeros() as u8 + 1;
                    let w = AlsWing {
                        set,
                        m,
                        u,
                        y,
                        ym,
                        x,
                        z,
                    };
                    let (elim, targets, double) = w.eliminations(&pos);
                    if elim.is_empty() {
                        continue;
                    }
                    if best.as_ref().is_some_and(|s| s.adjust <= adjust) {
                        continue;
                    }
                    best = Some(w.step(t, adjust, elim, targets, double));
                }
            }
        }
    }
    best
}

/// An ALS wing: the set (cells `set`, digits `m`, in unit `u`) and the
/// bivalue cell `y` (digits `ym`: `x`, which every `x` of the set sees,
/// and `z`).
struct AlsWing {
    set: Cells,
    m: Digits,
    u: usize,
    y: usize,
    ym: Digits,
    x: u8,
    z: u8,
}

impl AlsWing {
    /// What it eliminates (`pos`: the cells of each digit), the cells `z`
    /// leaves, and whether it is doubly linked.
    fn eliminations(&self, pos: &[Cells; 10]) -> (Vec<(usize, u8)>, Cells, bool) {
        let AlsWing {
            set, m, y, x, z, ..
        } = *self;
        let xcells = pos[x as usize] & set;
        let zcells = pos[z as usize] & set;
        let ybit = 1u128 << y;
        let targets = common_peers(zcells | ybit) & pos[z as usize] & !set;
        // doubly linked: every z of the set sees the bivalue
        // cell too. Then the cell and the set hold x and z
        // between them, one each, and the set's other digits
        // are locked in it.
        let double = zcells & !PEER_MASK[y] == 0;
        let mut elim: Vec<(usize, u8)> = cells_of(targets).map(|c| (c, z)).collect();
        if double {
            let xt = common_peers(xcells | ybit) & pos[x as usize] & !set;
            elim.extend(cells_of(xt).map(|c| (c, x)));
            for w in digits_of(m & !bit(x) & !bit(z)) {
                let wt = common_peers(pos[w as usize] & set) & pos[w as usize] & !set & !ybit;
                elim.extend(cells_of(wt).map(|c| (c, w)));
            }
        }
        (elim, targets, double)
    }

    /// Its step, of technique `t`.
    fn step(
        &self,
        t: Technique,
        adjust: f64,
        mut elim: Vec<(usize, u8)>,
        targets: Cells,
        double: bool,
    ) -> Step {
        let AlsWing {
            set,
            m,
            u,
            y,
            ym,
            x,
            z,
        } = *self;
        elim.sort_unstable();
        let mut s = Step::new(t);
        s.adjust = adjust;
        s.eliminations = elim;
        s.cells.push(y);
        s.cells.extend(cells_of(set));
        s.units.push(unit_name(u));
        s.digits = digits_of(m).collect();
        let head = format!(
            "{}{}: {} ({}) is {} or {}",
            t.name(),
            if double { " (doubly linked)" } else { "" },
            cell_name(y),
            digits_name(ym),
            digit_name(x),
            digit_name(z),
        );
        s.description = if double {
            let gone = s
                .eliminations
                .iter()
                .map(|&(c, d)| format!("{} from {}", digit_name(d), cell_name(c)))
                .collect::<Vec<_>>()
                .join(", ");
            format!(
                "{head}, and every {} and every {} of {} ({}) sees it; so the cell takes one \
                 of them and the set the other, with all its other digits: {} go",
                digit_name(x),
                digit_name(z),
                unit_name(u),
                cells_name(cells_of(set)),
                gone
            )
        } else {
            format!(
                "{head}; if {}, the cells {} of {} hold only {} and must take {}: either way \
                 {} leaves {}",
                digit_name(x),
                cells_name(cells_of(set)),
                unit_name(u),
                digits_name(m & !bit(x)),
                digit_name(z),
                digit_name(z),
                cells_name(cells_of(targets))
            )
        };
        s
    }
}

/// What the shape of an ALS wing of `k` cells adds to its base rating, as
/// Sudoku Explainer rates it: by the most candidates a cell of the set
/// holds (`widest`), the middle sizes being the hardest to see. WXYZ-Wing
/// 5.5, or 5.6 when the widest cell holds three digits; VWXYZ-Wing 6.2 to
/// 6.4 (6.4 at three, 6.3 at two or four, 6.2 at five); UVWXYZ-Wing and
/// larger: the base alone.
fn als_wing_adjust(k: usize, widest: usize) -> f64 {
    let middle = 3i64;
    let w = widest as i64;
    match k {
        3 => ((1 - (middle - w).abs()).max(0)) as f64 / 10.0,
        4 => ((2 - (middle - w).abs()).max(0)) as f64 / 10.0,
        _ => 0.0,
    }
}

/// Every set of `k` of `cells` (from index `from`) holding `k + 1` digits.
fn almost_locked_sets(
    b: &MarkedGrid,
    cells: &[usize],
    k: usize,
    from: usize,
    set: Cells,
    m: Digits,
    out: &mut Vec<(Cells, Digits)>,
) {
    let n = set.count_ones() as usize;
    if n == k {
        if count(m) as usize == k + 1 {
            out.push((set, m));
        }
        return;
    }
    for i in from..cells.len() {
        if cells.len() - i < k - n {
            break;
        }
        let m2 = m | b.cands(cells[i]);
        if count(m2) as usize > k + 1 {
            continue;
        }
        almost_locked_sets(b, cells, k, i + 1, set | 1u128 << cells[i], m2, out);
    }
}

/// UVWXYZ-Wing: a bivalue cell and an almost locked set of five cells.
pub fn uvwxyz_wing(b: &MarkedGrid) -> Option<Step> {
    als_wing(b, 5)
}
