//! Singles, locked candidates, naked and hidden subsets, and fish (basic,
//! finned and sashimi).

use super::board::*;
use super::step::{Step, Technique};

fn digit_list(mask: Digits) -> Vec<u8> {
    digits_of(mask).collect()
}

/// The last empty cell of a unit.
pub fn full_house(b: &MarkedGrid) -> Option<Step> {
    for (u, unit) in UNITS.iter().enumerate() {
        let mut empty = None;
        let mut n = 0;
        let mut seen: Digits = 0;
        for &c in unit {
            let c = c as usize;
            if b.value(c) == 0 {
                n += 1;
                empty = Some(c);
            } else {
                seen |= bit(b.value(c));
            }
        }
        if n == 1 {
            let c = empty.unwrap();
            let missing = ALL_DIGITS & !seen;
            if count(missing) != 1 || b.cands(c) & missing == 0 {
                continue; // broken board: let other techniques (or nothing) handle it
            }
            let d = missing.trailing_zeros() as u8 + 1;
            let mut s = Step::new(Technique::FullHouse);
            s.placements.push((c, d));
            s.cells.push(c);
            s.units.push(unit_name(u));
            s.digits.push(d);
            s.description = format!(
                "Full house: {} is the last empty cell of {}, so it is {}",
                cell_name(c),
                unit_name(u),
                digit_name(d)
            );
            return Some(s);
        }
    }
    None
}

fn hidden_single_in(b: &MarkedGrid, units: Units, t: Technique) -> Option<Step> {
    for u in units {
        let mut once: Digits = 0;
        let mut more: Digits = 0;
        for &c in &UNITS[u] {
            let m = b.cands(c as usize);
            more |= once & m;
            once |= m;
        }
        let single = once & !more;
        if single != 0 {
            let d = single.trailing_zeros() as u8 + 1;
            let c = UNITS[u]
                .iter()
                .map(|&c| c as usize)
                .find(|&c| b.has(c, d))
                .unwrap();
            let mut s = Step::new(t);
            s.placements.push((c, d));
            s.cells.push(c);
            s.units.push(unit_name(u));
            s.digits.push(d);
            s.description = format!(
                "Hidden single: in {}, {} can only go in {}",
                unit_name(u),
                digit_name(d),
                cell_name(c)
            );
            return Some(s);
        }
    }
    None
}

/// The only place of a digit in a box.
pub fn hidden_single_box(b: &MarkedGrid) -> Option<Step> {
    hidden_single_in(b, 18..27, Technique::HiddenSingleBox)
}

/// The only place of a digit in a row or a column.
pub fn hidden_single_line(b: &MarkedGrid) -> Option<Step> {
    hidden_single_in(b, 0..18, Technique::HiddenSingleLine)
}

/// The only candidate of a cell.
pub fn naked_single(b: &MarkedGrid) -> Option<Step> {
    for c in 0..81 {
        let m = b.cands(c);
        if b.value(c) == 0 && count(m) == 1 {
            let d = m.trailing_zeros() as u8 + 1;
            let mut s = Step::new(Technique::NakedSingle);
            s.placements.push((c, d));
            s.cells.push(c);
            s.digits.push(d);
            s.description = format!(
                "Naked single: {} can only be {}",
                cell_name(c),
                digit_name(d)
            );
            return Some(s);
        }
    }
    None
}

/// A range of units (rows `0..9`, columns `9..18`, boxes `18..27`).
type Units = std::ops::Range<usize>;

fn elims_of(b: &MarkedGrid, cells: Cells, d: u8) -> Vec<(usize, u8)> {
    cells_of(cells)
        .filter(|&c| b.has(c, d))
        .map(|c| (c, d))
        .collect()
}

/// In a box, a digit confined to one line: it leaves the rest of the line.
pub fn pointing(b: &MarkedGrid) -> Option<Step> {
    locked(b, Technique::Pointing, 18..27, 0..18)
}

/// In a line, a digit confined to one box: it leaves the rest of the box.
pub fn claiming(b: &MarkedGrid) -> Option<Step> {
    locked(b, Technique::Claiming, 0..18, 18..27)
}

/// Locked candidates: in a unit of `from`, a digit confined to a unit of
/// `to` leaves the rest of that unit.
fn locked(b: &MarkedGrid, t: Technique, from: Units, to: Units) -> Option<Step> {
    for u in from {
        for d in 1..=9u8 {
            let p = b.unit_positions(u, d);
            if count_cells(p) < 2 {
                continue;
            }
            for v in to.clone() {
                if p & !UNIT_MASK[v] == 0 {
                    let el = elims_of(b, UNIT_MASK[v] & !UNIT_MASK[u], d);
                    if el.is_empty() {
                        continue;
                    }
                    let mut s = Step::new(t);
                    s.eliminations = el;
                    s.cells = cells_of(p).collect();
                    s.units = vec![unit_name(u), unit_name(v)];
                    s.digits.push(d);
                    s.description = format!(
                        "{}: in {}, {} lies only in {}, so it is removed from the rest of {}",
                        t.name(),
                        unit_name(u),
                        digit_name(d),
                        unit_name(v),
                        unit_name(v)
                    );
                    return Some(s);
                }
            }
        }
    }
    None
}

#[inline]
pub(crate) fn count_cells(s: Cells) -> u32 {
    s.count_ones()
}

/// Calls `f` on every `k`-subset of `items` (as indices into it); stops when
/// `f` returns `Some`.
pub(crate) fn combinations<T>(
    n: usize,
    k: usize,
    f: &mut dyn FnMut(&[usize]) -> Option<T>,
) -> Option<T> {
    fn rec<T>(
        n: usize,
        k: usize,
        start: usize,
        cur: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]) -> Option<T>,
    ) -> Option<T> {
        if cur.len() == k {
            return f(cur);
        }
        let need = k - cur.len();
        for i in start..=n.saturating_sub(need) {
            if n < need {
                break;
            }
            cur.push(i);
            if let Some(t) = rec(n, k, i + 1, cur, f) {
                return Some(t);
            }
            cur.pop();
        }
        None
    }
    if k > n {
        return None;
    }
    let mut cur = Vec::with_capacity(k);
    rec(n, k, 0, &mut cur, f)
}

fn subset_technique(size: usize, hidden: bool) -> Technique {
    match (size, hidden) {
        (2, false) => Technique::NakedPair,
        (3, false) => Technique::NakedTriple,
        (4, false) => Technique::NakedQuad,
        (2, true) => Technique::HiddenPair,
        (3, true) => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    }
}

fn subset_word(size: usize) -> &'static str {
    match size {
        2 => "pair",
        3 => "triple",
        _ => "quad",
    }
}

/// `size` cells of a unit holding only `size` digits: those digits leave
/// the unit's other cells.
pub fn naked_subset(b: &MarkedGrid, size: usize) -> Option<Step> {
    for u in 0..27 {
        let cells: Vec<usize> = UNITS[u]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.value(c) == 0 && (count(b.cands(c)) as usize) <= size)
            .collect();
        let open = UNITS[u]
            .iter()
            .filter(|&&c| b.value(c as usize) == 0)
            .count();
        if open <= size {
            continue;
        }
        let found = combinations(cells.len(), size, &mut |idx| {
            let mut m: Digits = 0;
            for &i in idx {
                m |= b.cands(cells[i]);
            }
            if count(m) as usize != size {
                return None;
            }
            let mut set: Cells = 0;
            for &i in idx {
                set |= 1u128 << cells[i];
            }
            let mut el = Vec::new();
            for &c in &UNITS[u] {
                let c = c as usize;
                if set >> c & 1 == 0 {
                    for d in digits_of(b.cands(c) & m) {
                        el.push((c, d));
                    }
                }
            }
            if el.is_empty() {
                return None;
            }
            let mut s = Step::new(subset_technique(size, false));
            s.eliminations = el;
            s.cells = cells_of(set).collect();
            s.units.push(unit_name(u));
            s.digits = digit_list(m);
            s.description = format!(
                "Naked {}: {} hold only {} in {}, so these digits leave the other cells of {}",
                subset_word(size),
                cells_name(cells_of(set)),
                digits_name(m),
                unit_name(u),
                unit_name(u)
            );
            Some(s)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// `size` digits of a unit confined to `size` cells: the other candidates of
/// those cells go.
pub fn hidden_subset(b: &MarkedGrid, size: usize) -> Option<Step> {
    for u in 0..27 {
        let mut digits = Vec::new();
        let mut pos = [0u128; 10];
        let mut open = 0;
        for &c in &UNITS[u] {
            if b.value(c as usize) == 0 {
                open += 1;
            }
        }
        if open <= size {
            continue;
        }
        for d in 1..=9u8 {
            let p = b.unit_positions(u, d);
            let k = count_cells(p) as usize;
            if k >= 1 && k <= size {
                digits.push(d);
                pos[d as usize] = p;
            }
        }
        let found = combinations(digits.len(), size, &mut |idx| {
            let mut cells: Cells = 0;
            let mut m: Digits = 0;
            for &i in idx {
                cells |= pos[digits[i] as usize];
                m |= bit(digits[i]);
            }
            if count_cells(cells) as usize != size {
                return None;
            }
            let mut el = Vec::new();
            for c in cells_of(cells) {
                for d in digits_of(b.cands(c) & !m) {
                    el.push((c, d));
                }
            }
            if el.is_empty() {
                return None;
            }
            let mut s = Step::new(subset_technique(size, true));
            s.eliminations = el;
            s.cells = cells_of(cells).collect();
            s.units.push(unit_name(u));
            s.digits = digit_list(m);
            s.description = format!(
                "Hidden {}: in {}, {} can only go in {}, so the other candidates of these cells go",
                subset_word(size),
                unit_name(u),
                digits_name(m),
                cells_name(cells_of(cells))
            );
            Some(s)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

pub fn naked_pair(b: &MarkedGrid) -> Option<Step> {
    naked_subset(b, 2)
}
pub fn naked_triple(b: &MarkedGrid) -> Option<Step> {
    naked_subset(b, 3)
}
pub fn naked_quad(b: &MarkedGrid) -> Option<Step> {
    naked_subset(b, 4)
}
pub fn hidden_pair(b: &MarkedGrid) -> Option<Step> {
    hidden_subset(b, 2)
}
pub fn hidden_triple(b: &MarkedGrid) -> Option<Step> {
    hidden_subset(b, 3)
}
pub fn hidden_quad(b: &MarkedGrid) -> Option<Step> {
    hidden_subset(b, 4)
}

fn fish_name(size: usize) -> &'static str {
    match size {
        2 => "X-Wing",
        3 => "Swordfish",
        _ => "Jellyfish",
    }
}

/// `rows 1,4` or `columns 2,5,8`, in the player's names.
fn lines_name(lines: &[usize], rows: bool) -> String {
    let mut named: Vec<usize> = lines
        .iter()
        .map(|&l| named_unit(if rows { l } else { 9 + l }))
        .collect();
    named.sort_unstable();
    let v: Vec<String> = named.iter().map(|&u| (u % 9 + 1).to_string()).collect();
    format!("{} {}", lines_word(rows), v.join(","))
}

/// `rows` or `columns`, as the player sees lines that are rows here when
/// `rows`.
fn lines_word(rows: bool) -> &'static str {
    if named_unit(if rows { 0 } else { 9 }) < 9 {
        "rows"
    } else {
        "columns"
    }
}

/// The positions of `d` in each base line (rows when `rows`), as 9-bit
/// masks of cross indices, and the base lines holding `lo` to `hi` of them.
fn fish_lines(b: &MarkedGrid, d: u8, rows: bool, lo: usize, hi: usize) -> (Vec<usize>, [u16; 9]) {
    let mut lines = Vec::new();
    let mut masks = [0u16; 9];
    for l in 0..9 {
        let u = if rows { l } else { 9 + l };
        let mut m = 0u16;
        for (i, &c) in UNITS[u].iter().enumerate() {
            if b.has(c as usize, d) {
                m |= 1 << i;
            }
        }
        masks[l] = m;
        let k = m.count_ones() as usize;
        if k >= lo && k <= hi {
            lines.push(l);
        }
    }
    (lines, masks)
}

/// A basic fish of `size` on one digit: `size` lines whose candidates lie in
/// `size` cross lines.
pub fn basic_fish(b: &MarkedGrid, size: usize) -> Option<Step> {
    let t = match size {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    for d in 1..=9u8 {
        for rows in [true, false] {
            let (lines, masks) = fish_lines(b, d, rows, 2, size);
            let found = combinations(lines.len(), size, &mut |idx| {
                let mut cover = 0u16;
                for &i in idx {
                    cover |= masks[lines[i]];
                }
                if cover.count_ones() as usize != size {
                    return None;
                }
                let base: Vec<usize> = idx.iter().map(|&i| lines[i]).collect();
                let mut el = Vec::new();
                for x in 0..9 {
                    if cover >> x & 1 == 0 {
                        continue;
                    }
                    for l in 0..9 {
                        if base.contains(&l) {
                            continue;
                        }
                        let c = if rows { l * 9 + x } else { x * 9 + l };
                        if b.has(c, d) {
                            el.push((c, d));
                        }
                    }
                }
                if el.is_empty() {
                    return None;
                }
                el.sort_unstable();
                let covers: Vec<usize> = (0..9).filter(|&x| cover >> x & 1 == 1).collect();
                let mut s = Step::new(t);
                s.eliminations = el;
                for &l in &base {
                    for &x in &covers {
                        let c = if rows { l * 9 + x } else { x * 9 + l };
                        if b.has(c, d) {
                            s.cells.push(c);
                        }
                    }
                }
                s.cells.sort_unstable();
                for &l in &base {
                    s.units.push(unit_name(if rows { l } else { 9 + l }));
                }
                for &x in &covers {
                    s.units.push(unit_name(if rows { 9 + x } else { x }));
                }
                s.digits.push(d);
                s.description = format!(
                    "{} on {}: in {} the {}s lie in {}, so {} is removed from the rest of those {}",
                    fish_name(size),
                    digit_name(d),
                    lines_name(&base, rows),
                    digit_name(d),
                    lines_name(&covers, !rows),
                    digit_name(d),
                    lines_word(!rows)
                );
                Some(s)
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

pub fn x_wing(b: &MarkedGrid) -> Option<Step> {
    basic_fish(b, 2)
}
pub fn swordfish(b: &MarkedGrid) -> Option<Step> {
    basic_fish(b, 3)
}
pub fn jellyfish(b: &MarkedGrid) -> Option<Step> {
    basic_fish(b, 4)
}

/// A finned (or sashimi) fish of `size` on one digit: `size` base lines
/// whose candidates lie in `size` cover lines, except for fins that all lie
/// in one box. The digit leaves the cover lines' cells in the fins' box
/// (outside the base lines), since either a fin is true or the fish holds.
pub fn finned_fish(b: &MarkedGrid, size: usize) -> Option<Step> {
    let t = match size {
        2 => Technique::FinnedXWing,
        3 => Technique::FinnedSwordfish,
        _ => Technique::FinnedJellyfish,
    };
    for d in 1..=9u8 {
        for rows in [true, false] {
            let (lines, masks) = fish_lines(b, d, rows, 1, size + 3);
            // every choice of `size` lines whose candidates span at most size + 3
            // cross lines
            let mut choices: Vec<(u16, u16)> = Vec::new();
            fn pick(
                lines: &[usize],
                masks: &[u16; 9],
                size: usize,
                from: usize,
                sel: u16,
                union: u16,
                out: &mut Vec<(u16, u16)>,
            ) {
                if sel.count_ones() as usize == size {
                    if union.count_ones() as usize > size {
                        out.push((sel, union));
                    }
                    return;
                }
                for i in from..lines.len() {
                    let u2 = union | masks[lines[i]];
                    if u2.count_ones() as usize > size + 3 {
                        continue;
                    }
                    pick(lines, masks, size, i + 1, sel | 1 << lines[i], u2, out);
                }
            }
            pick(&lines, &masks, size, 0, 0, 0, &mut choices);
            for (sel, union) in choices {
                // the fins lie in one box, so every base line holding a fin is
                // in one band, and every cross line outside one stack is covered
                for stack in 0..3 {
                    let smask: u16 = 0b111 << (3 * stack);
                    let required = union & !smask;
                    let nreq = required.count_ones() as usize;
                    if nreq > size {
                        continue;
                    }
                    let free = union & smask;
                    let need = size - nreq;
                    if need >= free.count_ones() as usize {
                        continue; // no fin left
                    }
                    for extra in 0u16..8 {
                        let add = pdep3(extra, free);
                        if add == u16::MAX || add.count_ones() as usize != need {
                            continue;
                        }
                        let cover = required | add;
                        // quick checks: every base line meets the cover, the fin
                        // lines share a band, and that band has a victim
                        let mut band = usize::MAX;
                        let mut ok = true;
                        for (l, &m) in masks.iter().enumerate() {
                            if sel >> l & 1 == 0 {
                                continue;
                            }
                            if m & cover == 0 {
                                ok = false;
                                break;
                            }
                            if m & !cover != 0 {
                                if band != usize::MAX && band != l / 3 {
                                    ok = false;
                                    break;
                                }
                                band = l / 3;
                            }
                        }
                        if !ok || band == usize::MAX {
                            continue;
                        }
                        let victims = (band * 3..band * 3 + 3)
                            .any(|l| sel >> l & 1 == 0 && masks[l] & cover & smask != 0);
                        if !victims {
                            continue;
                        }
                        let base: Vec<usize> = (0..9).filter(|&l| sel >> l & 1 == 1).collect();
                        if let Some(st) =
                            finned_candidate(b, d, size, t, rows, &base, &masks, cover)
                        {
                            return Some(st);
                        }
                    }
                }
            }
        }
    }
    None
}

/// Spreads the low bits of `bits` over the set bits of `mask` (at most 3);
/// `u16::MAX` when `bits` has a bit beyond them.
fn pdep3(bits: u16, mask: u16) -> u16 {
    let mut out = 0u16;
    let mut m = mask;
    let mut i = 0;
    while m != 0 {
        let low = m & m.wrapping_neg();
        if bits >> i & 1 == 1 {
            out |= low;
        }
        m &= m - 1;
        i += 1;
    }
    if bits >> i != 0 {
        return u16::MAX;
    }
    out
}

/// A finned fish on `base` lines with `cover` cross lines, if its fins lie
/// in one box and it eliminates something.
#[allow(clippy::too_many_arguments)]
fn finned_candidate(
    b: &MarkedGrid,
    d: u8,
    size: usize,
    t: Technique,
    rows: bool,
    base: &[usize],
    masks: &[u16; 9],
    cover: u16,
) -> Option<Step> {
    let cell_at = |l: usize, x: usize| if rows { l * 9 + x } else { x * 9 + l };
    // fins: base candidates outside the cover lines
    let mut fins: Cells = 0;
    for &l in base {
        if masks[l] & cover == 0 {
            return None; // a base line with nothing in the cover
        }
        for x in 0..9 {
            if (masks[l] & !cover) >> x & 1 == 1 {
                fins |= 1u128 << cell_at(l, x);
            }
        }
    }
    if fins == 0 {
        return None;
    }
    let fbox = box_of(fins.trailing_zeros() as usize);
    if fins & !UNIT_MASK[18 + fbox] != 0 {
        return None;
    }
    let mut el = Vec::new();
    for x in 0..9 {
        if cover >> x & 1 == 0 {
            continue;
        }
        for l in 0..9 {
            if base.contains(&l) {
                continue;
            }
            let c = cell_at(l, x);
            if box_of(c) == fbox && b.has(c, d) {
                el.push((c, d));
            }
        }
    }
    if el.is_empty() {
        return None;
    }
    let sashimi = base
        .iter()
        .any(|&l| (masks[l] & cover).count_ones() < 2 && masks[l] & !cover != 0);
    let covers: Vec<usize> = (0..9).filter(|&x| cover >> x & 1 == 1).collect();
    let mut s = Step::new(t);
    s.eliminations = el;
    for &l in base {
        for x in 0..9 {
            if masks[l] >> x & 1 == 1 {
                s.cells.push(cell_at(l, x));
            }
        }
    }
    s.cells.sort_unstable();
    for &l in base {
        s.units.push(unit_name(if rows { l } else { 9 + l }));
    }
    for &x in &covers {
        s.units.push(unit_name(if rows { 9 + x } else { x }));
    }
    s.units.push(unit_name(18 + fbox));
    s.digits.push(d);
    s.description = format!(
        "{} {} on {}: in {} the {}s lie in {} except for the fin{} {}; \
         either a fin is true or the fish holds, so {} leaves {}",
        if sashimi { "Sashimi" } else { "Finned" },
        fish_name(size),
        digit_name(d),
        lines_name(base, rows),
        digit_name(d),
        lines_name(&covers, !rows),
        if count_cells(fins) > 1 { "s" } else { "" },
        cells_name(cells_of(fins)),
        digit_name(d),
        cells_name(s.eliminations.iter().map(|e| e.0))
    );
    Some(s)
}

pub fn finned_x_wing(b: &MarkedGrid) -> Option<Step> {
    finned_fish(b, 2)
}
pub fn finned_swordfish(b: &MarkedGrid) -> Option<Step> {
    finned_fish(b, 3)
}
pub fn finned_jellyfish(b: &MarkedGrid) -> Option<Step> {
    finned_fish(b, 4)
}

/// Direct pointing (Sudoku Explainer's, 1.7): a digit of a box lies only
/// in one line; in another box that line crosses, the digit's places off
/// the line come down to one: it goes there. SE takes only the placement,
/// and so does the step (the locked candidates are not removed).
pub fn direct_pointing(b: &MarkedGrid) -> Option<Step> {
    direct_locked(b, Technique::DirectPointing, 18..27, 0..18)
}

/// Direct claiming (SE's, 1.9): a digit of a line lies only in one box; in
/// another line of the same kind through that box, the digit's places off
/// the box come down to one: it goes there.
pub fn direct_claiming(b: &MarkedGrid) -> Option<Step> {
    direct_locked(b, Technique::DirectClaiming, 0..18, 18..27)
}

/// Locked candidates of `from` units in `to` units that leave a hidden
/// single in a third unit of the `from` kind crossing the same `to` unit.
fn direct_locked(b: &MarkedGrid, t: Technique, from: Units, to: Units) -> Option<Step> {
    // SE's order: digits, then the units the digit is locked in, then the
    // units it is locked to; the first hidden single that follows
    let all = b.all_positions();
    for d in 1..=9u8 {
        for u in from.clone() {
            let p = all[d as usize] & UNIT_MASK[u];
            if count_cells(p) < 2 {
                continue;
            }
            // the unit of the other kind holding all of p, if any: the one
            // of its first cell's units
            let first = p.trailing_zeros() as usize;
            for &v in &CELL_UNITS[first] {
                let v = v as usize;
                if !to.contains(&v) || p & !UNIT_MASK[v] != 0 {
                    continue;
                }
                for w in from.clone() {
                    // another unit of the kind of `u` crossing `v`
                    if w == u || !same_kind(u, w) || UNIT_MASK[w] & UNIT_MASK[v] == 0 {
                        continue;
                    }
                    let q = all[d as usize] & UNIT_MASK[w];
                    let off = q & !UNIT_MASK[v];
                    if count_cells(q) < 2 || count_cells(off) != 1 {
                        continue;
                    }
                    let cell = off.trailing_zeros() as usize;
                    let mut s = Step::new(t);
                    s.placements.push((cell, d));
                    s.cells = cells_of(p).collect();
                    s.cells.push(cell);
                    s.units = vec![unit_name(u), unit_name(v), unit_name(w)];
                    s.digits.push(d);
                    s.description = format!(
                        "{}: in {}, {} can only go in {} ({}), so it cannot go elsewhere in {}; \
                         then in {}, {} can only go in {}: place {} in {}",
                        t.name(),
                        unit_name(u),
                        digit_name(d),
                        unit_name(v),
                        cells_name(cells_of(p)),
                        unit_name(v),
                        unit_name(w),
                        digit_name(d),
                        cell_name(cell),
                        digit_name(d),
                        cell_name(cell)
                    );
                    return Some(s);
                }
            }
        }
    }
    None
}

/// Are units `u` and `w` of the same kind (rows, columns, boxes)?
fn same_kind(u: usize, w: usize) -> bool {
    u / 9 == w / 9
}

/// Direct hidden pair (SE's, 2.0): two digits of a unit confined to the
/// same two cells; the other candidates of those cells removed, another
/// digit of the unit has one place left: it goes there (the placement is
/// the step, as in SE).
pub fn direct_hidden_pair(b: &MarkedGrid) -> Option<Step> {
    direct_hidden_subset(b, 2, Technique::DirectHiddenPair)
}

/// Direct hidden triple (SE's, 2.5): as [`direct_hidden_pair`] with three
/// digits in three cells.
pub fn direct_hidden_triple(b: &MarkedGrid) -> Option<Step> {
    direct_hidden_subset(b, 3, Technique::DirectHiddenTriple)
}

fn direct_hidden_subset(b: &MarkedGrid, size: usize, t: Technique) -> Option<Step> {
    // SE's order of units: boxes, columns, rows
    let all = b.all_positions();
    let open = b.empty_cells();
    for u in (18..27).chain(9..18).chain(0..9) {
        if count_cells(UNIT_MASK[u] & open) as usize <= size {
            continue;
        }
        let mut pos = [0 as Cells; 10];
        for d in 1..=9usize {
            pos[d] = all[d] & UNIT_MASK[u];
        }
        // each digit of the set has two places or more, all among `size`
        let digits: Vec<u8> = (1..=9u8)
            .filter(|&d| (2..=size as u32).contains(&count_cells(pos[d as usize])))
            .collect();
        if digits.len() < size {
            continue;
        }
        let found = combinations(digits.len(), size, &mut |idx: &[usize]| {
            let set: Vec<u8> = idx.iter().map(|&i| digits[i]).collect();
            let cells = set.iter().fold(0 as Cells, |m, &d| m | pos[d as usize]);
            if count_cells(cells) as usize != size {
                return None;
            }
            let d = (1..=9u8).find(|d| {
                let q = pos[*d as usize];
                !set.contains(d) && count_cells(q) >= 2 && count_cells(q & !cells) == 1
            })?;
            let cell = (pos[d as usize] & !cells).trailing_zeros() as usize;
            let mut s = Step::new(t);
            s.placements.push((cell, d));
            s.cells = cells_of(cells).collect();
            s.cells.push(cell);
            s.units.push(unit_name(u));
            s.digits = set.clone();
            s.digits.push(d);
            s.description = format!(
                "{}: in {}, {} can only go in {}, so those cells hold nothing else; \
                 then {} can only go in {}: place {} in {}",
                t.name(),
                unit_name(u),
                set.iter()
                    .map(|&d| digit_name(d).to_string())
                    .collect::<Vec<_>>()
                    .join(" and "),
                cells_name(cells_of(cells)),
                digit_name(d),
                cell_name(cell),
                digit_name(d),
                cell_name(cell)
            );
            Some(s)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}
