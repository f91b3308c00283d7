//! The kernels of `bitmrv`: the least of a row of counts, and the loops
//! that take killed options out of the rows (portable, and unrolled for
//! the common widths).

use super::*;

/// The smallest value of `v` and the first place it is at. `v`'s length
/// is a multiple of 16.
#[inline(always)]
pub(super) fn argmin(v: &[u16]) -> (u16, usize) {
    if v.len() <= 1 << 16 {
        // one pass over (value, place) keys: vectorises to unsigned
        // minimums of 8 or 16 keys at a time
        let key = v
            .iter()
            .enumerate()
            .map(|(i, &x)| (x as u32) << 16 | i as u32)
            .fold(u32::MAX, u32::min);
        return ((key >> 16) as u16, (key & 0xffff) as usize);
    }
    let m = v.iter().copied().fold(COVERED, u16::min);
    (m, v.iter().position(|&x| x == m).unwrap_or(0))
}

/// Clears from `live` the options of `kill` and counts them off the items
/// in `lens` (each option's `S` entries of `prims`, padding included: the
/// caller puts the padding's count back); returns Knuth's updates.
#[inline(always)]
pub(super) fn kill_loop<const S: usize>(
    live: &mut [u64],
    kill: &[u64],
    lens: &mut [u16],
    prims: &[u16],
    cost: &[u32],
) -> u64 {
    let mut updates = 0u64;
    for (k, (lv, kl)) in live.iter_mut().zip(kill).enumerate() {
        let mut d = *lv & *kl;
        *lv &= !*kl;
        while d != 0 {
            let x = k * 64 + d.trailing_zeros() as usize;
            d &= d - 1;
            debug_assert!(x < cost.len() && (x + 1) * S <= prims.len());
            // SAFETY: a live bit is an option, x < cost.len() (bits past
            // the last option are never set: `check_invariants` checks
            // it), and `prims` holds S entries for each option, each below
            // lens.len() (items below np, padding npad - 1).
            unsafe {
                let row = prims.get_unchecked(x * S..x * S + S);
                for &j in row {
                    let c = lens.get_unchecked_mut(j as usize);
                    *c = c.wrapping_sub(1);
                }
                updates += *cost.get_unchecked(x) as u64;
            }
        }
    }
    updates
}

/// [`kill_loop`] for options of any length: option `x`'s `pn[x]` primary
/// items only, not its row's padding to the stride `s` (one option of 121
/// cells, BurrTools' AlPackino box, made every option of its puzzle cost
/// 121 counts a kill).
#[inline(always)]
pub(super) fn kill_loop_any(
    live: &mut [u64],
    kill: &[u64],
    lens: &mut [u16],
    prims: &[u16],
    cost: &[u32],
    s: usize,
    pn: &[u32],
) -> u64 {
    let mut updates = 0u64;
    for (k, (lv, kl)) in live.iter_mut().zip(kill).enumerate() {
        let mut d = *lv & *kl;
        *lv &= !*kl;
        while d != 0 {
            let x = k * 64 + d.trailing_zeros() as usize;
            d &= d - 1;
            for &j in &prims[x * s..x * s + pn[x] as usize] {
                lens[j as usize] = lens[j as usize].wrapping_sub(1);
            }
            updates += cost[x] as u64;
        }
    }
    updates
}

/// With multiplicities, the number of branches of each open item:
/// `len + 1 - need` (0 when fewer options are left than it needs, `len + 1`
/// when it needs none: the options, and "no more"), [`COVERED`] for closed
/// items; the smallest and the first place of it.
#[inline(always)]
pub(super) fn argmin_theta(lens: &[u16], need: &[u16], scratch: &mut [u16]) -> (u16, usize) {
    for ((t, &l), &n) in scratch.iter_mut().zip(lens).zip(need) {
        *t = if l == COVERED {
            COVERED
        } else {
            (l + 1).saturating_sub(n)
        };
    }
    argmin(scratch)
}
