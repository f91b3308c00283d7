//! The tests' independent check of a disassembly: it replays every move
//! one cell at a time and shares no code with the search.
//!
//! It checks that every tree is well formed (one state more than moves,
//! the last move and only it a removal, each move a proper subset of its
//! part sliding along a direction of the grid, the states agreeing with
//! the moves), that no two pieces share a voxel in any state nor at any
//! cell of any slide, that a removal leaves no piece of the rest on any
//! line ahead of a removed voxel (so the removed pieces could slide on for
//! ever), and that the parts are the removed pieces and the rest, each
//! starting where its parent's last move found it, or is one piece or one
//! group.

use super::{Assembly, Disassembly, MoveGrid, Separation};
use std::collections::HashMap;

fn directions(grid: MoveGrid) -> Vec<[i32; 3]> {
    let plus: &[[i32; 3]] = match grid {
        MoveGrid::Cubes => &[[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        MoveGrid::Prisms => &[[0, 0, 1], [2, 0, 0], [1, 1, 0], [-1, 1, 0]],
    };
    plus.iter()
        .flat_map(|&[x, y, z]| [[x, y, z], [-x, -y, -z]])
        .collect()
}

fn shifted(v: [i32; 3], by: [i32; 3], times: i32) -> [i32; 3] {
    [
        v[0] + by[0] * times,
        v[1] + by[1] * times,
        v[2] + by[2] * times,
    ]
}

/// Check the whole tree of `d` against the assembly it came from.
pub(super) fn check(a: &Assembly, d: &Disassembly) -> Result<(), String> {
    let n = a.pieces.len();
    if d.root.pieces != (0..n).collect::<Vec<_>>() {
        return Err(format!("the root's pieces are {:?}", d.root.pieces));
    }
    if d.root
        .states
        .first()
        .is_none_or(|s| s.iter().any(|&o| o != [0; 3]))
    {
        return Err("the root does not start assembled".into());
    }
    separation(a, &d.root)
}

/// Where every voxel of the part is, or the two pieces that share one.
fn occupy(
    a: &Assembly,
    s: &Separation,
    at: &[[i32; 3]],
) -> Result<HashMap<[i32; 3], usize>, String> {
    let mut cells = HashMap::new();
    for (k, &p) in s.pieces.iter().enumerate() {
        for &v in &a.pieces[p] {
            if let Some(q) = cells.insert(shifted(v, at[k], 1), p) {
                return Err(format!(
                    "pieces {q} and {p} overlap at {:?}",
                    shifted(v, at[k], 1)
                ));
            }
        }
    }
    Ok(cells)
}

fn separation(a: &Assembly, s: &Separation) -> Result<(), String> {
    let m = s.pieces.len();
    let dirs = directions(a.grid);
    if m < 2 || s.moves.is_empty() || s.states.len() != s.moves.len() + 1 {
        return Err(format!(
            "part {:?}: {} states for {} moves",
            s.pieces,
            s.states.len(),
            s.moves.len()
        ));
    }
    if s.states.iter().any(|st| st.len() != m) {
        return Err(format!("part {:?}: a state of another size", s.pieces));
    }
    occupy(a, s, &s.states[0])?;
    for (i, mv) in s.moves.iter().enumerate() {
        let last = i + 1 == s.moves.len();
        if mv.removes != last {
            return Err(format!(
                "part {:?}: move {i} removes: {}",
                s.pieces, mv.removes
            ));
        }
        if !dirs.contains(&mv.direction) || mv.distance == 0 {
            return Err(format!(
                "part {:?}: move {i} by {:?} x {}",
                s.pieces, mv.direction, mv.distance
            ));
        }
        let moving: Vec<bool> = s.pieces.iter().map(|p| mv.pieces.contains(p)).collect();
        let count = moving.iter().filter(|&&x| x).count();
        if count == 0 || count == m || count != mv.pieces.len() {
            return Err(format!(
                "part {:?}: move {i} moves {:?}",
                s.pieces, mv.pieces
            ));
        }
        let (from, to) = (&s.states[i], &s.states[i + 1]);
        for k in 0..m {
            let want = if moving[k] { mv.by() } else { [0; 3] };
            if to[k] != shifted(from[k], want, 1) {
                return Err(format!(
                    "part {:?}: move {i} does not lead to the next state",
                    s.pieces
                ));
            }
        }
        for t in 1..=mv.distance as i32 {
            let at: Vec<[i32; 3]> = (0..m)
                .map(|k| {
                    if moving[k] {
                        shifted(from[k], mv.direction, t)
                    } else {
                        from[k]
                    }
                })
                .collect();
            occupy(a, s, &at)
                .map_err(|e| format!("part {:?}: move {i}, step {t}: {e}", s.pieces))?;
        }
    }
    let removal = &s.moves[s.moves.len() - 1];
    let end = &s.states[s.states.len() - 1];
    let cells = occupy(a, s, end)?;
    let reach = a
        .pieces
        .iter()
        .flatten()
        .flat_map(|v| v.iter())
        .map(|c| c.abs())
        .max()
        .unwrap_or(0)
        + end.iter().flatten().map(|c| c.abs()).max().unwrap_or(0);
    for (k, &p) in s.pieces.iter().enumerate() {
        if !removal.pieces.contains(&p) {
            continue;
        }
        for &v in &a.pieces[p] {
            let mut cell = shifted(v, end[k], 1);
            while cell.iter().all(|c| c.abs() <= 2 * reach + 2) {
                if cells
                    .get(&cell)
                    .is_some_and(|q| !removal.pieces.contains(q))
                {
                    return Err(format!(
                        "part {:?}: piece {p} is not clear of piece {:?}",
                        s.pieces, cells[&cell]
                    ));
                }
                cell = shifted(cell, removal.direction, 1);
            }
        }
    }
    let before = &s.states[s.states.len() - 2];
    for (removed, part) in [(false, &s.left), (true, &s.removed)] {
        let pieces: Vec<usize> = s
            .pieces
            .iter()
            .copied()
            .filter(|p| removal.pieces.contains(p) == removed)
            .collect();
        let at: Vec<[i32; 3]> = (0..m)
            .filter(|&k| removal.pieces.contains(&s.pieces[k]) == removed)
            .map(|k| before[k])
            .collect();
        match part {
            Some(sub) => {
                if sub.pieces != pieces || sub.states[0] != at {
                    return Err(format!(
                        "part {:?}: a part {:?} that is not {pieces:?} where it was",
                        s.pieces, sub.pieces
                    ));
                }
                separation(a, sub)?;
            }
            None => {
                let group = |p: usize| a.groups.get(p).copied().unwrap_or(0);
                let one_group =
                    group(pieces[0]) != 0 && pieces.iter().all(|&p| group(p) == group(pieces[0]));
                if pieces.len() > 1 && !one_group {
                    return Err(format!(
                        "part {:?}: the part {pieces:?} is not taken apart",
                        s.pieces
                    ));
                }
            }
        }
    }
    Ok(())
}
