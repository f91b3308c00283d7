use super::check::check;
use super::*;
use proptest::prelude::*;
use std::collections::{HashMap, HashSet, VecDeque};

/// Take apart and check the tree; the level, or `None`.
fn take_apart(
    grid: MoveGrid,
    pieces: &[Vec<[i32; 3]>],
    groups: &[u32],
    weights: &[i32],
) -> Option<Disassembly> {
    let a = Assembly {
        grid,
        pieces,
        groups,
        weights,
        keys: &[],
    };
    let d = disassemble(&a, None, 1 << 20).expect("a valid assembly");
    if let Some(d) = &d {
        check(&a, d).unwrap_or_else(|e| panic!("{e}\n{d:#?}"));
    }
    d
}

fn cubes(pieces: &[Vec<[i32; 3]>]) -> Option<Disassembly> {
    take_apart(MoveGrid::Cubes, pieces, &[], &[])
}

/// Every cell of the box `[0, x) x [0, y) x [0, z)` but `holes`.
fn block(x: i32, y: i32, z: i32, holes: &[[i32; 3]]) -> Vec<[i32; 3]> {
    let mut cells = Vec::new();
    for k in 0..z {
        for j in 0..y {
            for i in 0..x {
                if !holes.contains(&[i, j, k]) {
                    cells.push([i, j, k]);
                }
            }
        }
    }
    cells
}

#[test]
fn two_cubes_side_by_side_come_apart_in_one_move() {
    let d = cubes(&[vec![[0, 0, 0]], vec![[1, 0, 0]]]).expect("apart");
    assert_eq!(d.level(), "1");
    assert_eq!(d.moves(), 1);
    // BurrTools' order: +x first; piece 0 would push piece 1, piece 1 goes
    assert_eq!(
        d.root.moves,
        vec![Move {
            pieces: vec![1],
            direction: [1, 0, 0],
            distance: 1,
            removes: true
        }]
    );
    assert_eq!(
        d.root.states,
        vec![vec![[0; 3], [0; 3]], vec![[0; 3], [1, 0, 0]]]
    );
    assert!(d.root.left.is_none() && d.root.removed.is_none());
}

#[test]
fn a_cube_shut_in_a_box_does_not_come_apart() {
    let shell = block(3, 3, 3, &[[1, 1, 1]]);
    assert!(cubes(&[shell, vec![[1, 1, 1]]]).is_none());
}

#[test]
fn a_cube_in_a_bent_tunnel_takes_two_moves() {
    // the cube slides +x into the bend, then leaves +y through the top
    let tunnel = [[1, 1, 1], [2, 1, 1], [2, 2, 1], [2, 3, 1]];
    let d = cubes(&[block(4, 4, 3, &tunnel), vec![[1, 1, 1]]]).expect("apart");
    assert_eq!(d.level(), "2");
    let m = &d.root.moves;
    assert_eq!(
        (m[0].direction, m[0].distance, m[0].removes),
        ([1, 0, 0], 1, false)
    );
    assert_eq!((m[1].direction, m[1].removes), ([0, 1, 0], true));
    assert_eq!(m[1].pieces, vec![1]);
}

#[test]
fn the_lighter_side_moves() {
    let pieces = [vec![[0, 0, 0]], vec![[1, 0, 0]]];
    let d = take_apart(MoveGrid::Cubes, &pieces, &[], &[1, 2]).expect("apart");
    // the move found slides piece 1 on +x; piece 1 is heavier, so piece 0
    // goes the other way
    assert_eq!(d.root.moves[0].pieces, vec![0]);
    assert_eq!(d.root.moves[0].direction, [-1, 0, 0]);
}

/// A box holding a cube, and a cube beside the box.
fn box_and_two_cubes() -> Vec<Vec<[i32; 3]>> {
    vec![
        block(3, 3, 3, &[[1, 1, 1]]),
        vec![[1, 1, 1]],
        vec![[3, 0, 0]],
    ]
}

#[test]
fn a_part_in_one_group_need_not_come_apart() {
    let pieces = box_and_two_cubes();
    assert!(cubes(&pieces).is_none());
    let d = take_apart(MoveGrid::Cubes, &pieces, &[1, 1, 0], &[]).expect("apart as a group");
    assert_eq!(d.level(), "1");
    assert_eq!(d.root.moves[0].pieces, vec![2]);
    assert!(d.root.left.is_none());
    // a group of one piece is no group
    assert!(take_apart(MoveGrid::Cubes, &pieces, &[1, 2, 0], &[]).is_none());
}

#[test]
fn each_part_of_more_than_one_piece_is_taken_apart() {
    // two cubes in a row and a third: the second goes +x, then the pair
    // left behind comes apart
    let d = cubes(&[vec![[0, 0, 0]], vec![[1, 0, 0]], vec![[0, 2, 0]]]).expect("apart");
    assert_eq!(d.root.moves[0].pieces, vec![1]);
    let left = d.root.left.as_deref().expect("a part of two");
    assert_eq!(left.pieces, vec![0, 2]);
    assert!(d.root.removed.is_none());
    assert_eq!((d.moves(), d.level()), (2, "1".to_string()));
}

fn sep(moves: usize, left: Option<Separation>, removed: Option<Separation>) -> Separation {
    let mv = |removes| Move {
        pieces: vec![0],
        direction: [1, 0, 0],
        distance: 1,
        removes,
    };
    Separation {
        pieces: vec![0, 1],
        states: vec![vec![[0; 3]; 2]; moves + 1],
        moves: (0..moves).map(|i| mv(i + 1 == moves)).collect(),
        left: left.map(Box::new),
        removed: removed.map(Box::new),
    }
}

#[test]
fn the_level_names_the_parts_that_take_more_than_one_move() {
    // Pelikan's tree: 98 moves; left 2 (its removed 1, its left 4, whose
    // left is 2); removed 1
    let inner = sep(4, Some(sep(2, None, None)), None);
    let left = sep(2, Some(inner), Some(sep(1, None, None)));
    let d = Disassembly {
        root: sep(98, Some(left), Some(sep(1, None, None))),
    };
    assert_eq!(d.level(), "98.2.4.2");
    assert_eq!(d.moves(), 98 + 2 + 4 + 2 + 1 + 1);
    // the left part before the removed one; a part of single moves is
    // left out, even when it has parts
    let d = Disassembly {
        root: sep(
            3,
            Some(sep(1, Some(sep(1, None, None)), None)),
            Some(sep(5, None, None)),
        ),
    };
    assert_eq!(d.level(), "3.5");
    let d = Disassembly {
        root: sep(
            3,
            Some(sep(1, None, Some(sep(2, None, None)))),
            Some(sep(5, None, None)),
        ),
    };
    assert_eq!(d.level(), "3.1.2.5");
}

#[test]
fn prisms_side_by_side_come_apart_in_one_move() {
    // an up triangle and the down triangle beside it
    let d = take_apart(
        MoveGrid::Prisms,
        &[vec![[0, 0, 0]], vec![[1, 0, 0]]],
        &[],
        &[],
    )
    .expect("apart");
    assert_eq!(d.level(), "1");
    // up a layer comes first in BurrTools' prism directions
    assert_eq!(d.root.moves[0].direction, [0, 0, 1]);
    assert_eq!(d.root.moves[0].pieces, vec![0]);
}

#[test]
fn a_prism_shut_in_does_not_come_apart() {
    let shell = block(7, 3, 3, &[[3, 1, 1]]);
    assert!(take_apart(MoveGrid::Prisms, &[shell, vec![[3, 1, 1]]], &[], &[]).is_none());
}

#[test]
fn a_prism_in_a_tunnel_takes_two_moves() {
    // the up prism at (3, 1, 1) slides a cell along its row, sweeping the
    // down prism (4, 1, 1), then up through the top layer
    let tunnel = [[3, 1, 1], [4, 1, 1], [5, 1, 1], [5, 1, 2]];
    let d = take_apart(
        MoveGrid::Prisms,
        &[block(9, 3, 3, &tunnel), vec![[3, 1, 1]]],
        &[],
        &[],
    )
    .expect("apart");
    assert_eq!(d.level(), "2");
    let m = &d.root.moves;
    assert_eq!(
        (m[0].direction, m[0].distance, &m[0].pieces),
        ([2, 0, 0], 1, &vec![1])
    );
    assert_eq!((m[1].direction, &m[1].pieces), ([0, 0, 1], &vec![1]));
    // with the swept prism filled, the row is shut
    let half = [[3, 1, 1], [5, 1, 1], [5, 1, 2]];
    let shell = block(9, 3, 3, &half);
    assert!(take_apart(MoveGrid::Prisms, &[shell, vec![[3, 1, 1]]], &[], &[]).is_none());
}

#[test]
fn prisms_slide_along_the_slanting_rows() {
    // an up prism leaves along (1, 1, 0): each step passes the down prism
    // to its right and lands on the up prism above that
    let lane = [
        [3, 1, 1],
        [4, 1, 1],
        [4, 2, 1],
        [5, 2, 1],
        [5, 3, 1],
        [6, 3, 1],
        [6, 4, 1],
        [7, 4, 1],
    ];
    let d = take_apart(
        MoveGrid::Prisms,
        &[block(9, 5, 3, &lane), vec![[3, 1, 1]]],
        &[],
        &[],
    )
    .expect("apart");
    assert_eq!(d.level(), "1");
    assert_eq!(
        (d.root.moves[0].direction, &d.root.moves[0].pieces),
        ([1, 1, 0], &vec![1])
    );
    // shut the lane's last down prism: no way out
    let shut = &lane[..7];
    assert!(take_apart(
        MoveGrid::Prisms,
        &[block(9, 5, 3, shut), vec![[3, 1, 1]]],
        &[],
        &[]
    )
    .is_none());
}

#[test]
fn bad_assemblies_are_errors() {
    let err = |pieces: &[Vec<[i32; 3]>], groups: &[u32]| {
        let a = Assembly {
            grid: MoveGrid::Cubes,
            pieces,
            groups,
            weights: &[],
            keys: &[],
        };
        disassemble(&a, None, 100).unwrap_err()
    };
    assert_eq!(
        err(&[vec![[0, 0, 0]]], &[]),
        DisassemblyError::TooFewPieces { pieces: 1 }
    );
    assert_eq!(
        err(&[vec![[0, 0, 0]], vec![]], &[]),
        DisassemblyError::EmptyPiece { piece: 1 }
    );
    assert!(matches!(
        err(&[vec![[0, 0, 0]], vec![[0, 0, 0]]], &[]),
        DisassemblyError::Overlap { .. }
    ));
    assert!(matches!(
        err(&[vec![[0, 0, 0]], vec![[1, 0, 0]]], &[1]),
        DisassemblyError::NotPerPiece { .. }
    ));
    assert!(matches!(
        err(&[vec![[0, 0, 0]], vec![[1 << 20, 0, 0]]], &[]),
        DisassemblyError::OutOfRange { .. }
    ));
    let many: Vec<Vec<[i32; 3]>> = (0..200).map(|i| vec![[i, 0, 0]]).collect();
    assert!(matches!(
        err(&many, &[]),
        DisassemblyError::TooManyPieces { .. }
    ));
}

/// Two cubes in a long closed corridor, each able to slide along it: many
/// states and no way out.
fn corridor(length: i32) -> Vec<Vec<[i32; 3]>> {
    let inside: Vec<[i32; 3]> = (1..=length).map(|i| [i, 1, 1]).collect();
    vec![
        block(length + 2, 3, 3, &inside),
        vec![[1, 1, 1]],
        vec![[length, 1, 1]],
    ]
}

#[test]
fn states_are_bounded_and_the_search_cancels() {
    let pieces = corridor(40);
    let a = Assembly {
        grid: MoveGrid::Cubes,
        pieces: &pieces,
        groups: &[],
        weights: &[],
        keys: &[],
    };
    assert_eq!(disassemble(&a, None, 1 << 20), Ok(None));
    assert_eq!(
        disassemble(&a, None, 50),
        Err(DisassemblyError::TooManyStates { limit: 50 })
    );
    let stop = AtomicBool::new(true);
    assert_eq!(
        disassemble(&a, Some(&stop), 1 << 20),
        Err(DisassemblyError::Cancelled)
    );
}

#[test]
fn far_apart_pieces_are_no_trouble() {
    // pieces far apart on one line: a long slide, no overflow
    let pieces = [vec![[-60000, 0, 0]], vec![[60000, 0, 0]], vec![[0, 5, 0]]];
    let a = Assembly {
        grid: MoveGrid::Cubes,
        pieces: &pieces,
        groups: &[],
        weights: &[],
        keys: &[],
    };
    let d = disassemble(&a, None, 1000).unwrap().unwrap();
    check(&a, &d).unwrap();
}

/// The fewest moves of any set of pieces, along any axis, by any number
/// of cells, until some set slides away for ever, from `start`; `None`
/// when none ever does. Cubes only; every subset tried.
fn brute_force(pieces: &[Vec<[i32; 3]>], start: &[[i32; 3]]) -> Option<usize> {
    let n = pieces.len();
    let norm = |s: &[[i32; 3]]| -> Vec<[i32; 3]> {
        s.iter()
            .map(|o| [o[0] - s[0][0], o[1] - s[0][1], o[2] - s[0][2]])
            .collect()
    };
    let first = norm(start);
    let mut seen: HashSet<Vec<[i32; 3]>> = HashSet::from([first.clone()]);
    let mut queue = VecDeque::from([(first, 0usize)]);
    let axes = [
        [1, 0, 0],
        [-1, 0, 0],
        [0, 1, 0],
        [0, -1, 0],
        [0, 0, 1],
        [0, 0, -1],
    ];
    while let Some((state, depth)) = queue.pop_front() {
        for mask in 1u32..(1 << n) {
            if mask & 1 == 1 {
                continue; // the rest moving the other way
            }
            let mut still = HashSet::new();
            let mut moving = Vec::new();
            for (p, cells) in pieces.iter().enumerate() {
                for &v in cells {
                    let c = [v[0] + state[p][0], v[1] + state[p][1], v[2] + state[p][2]];
                    if mask >> p & 1 == 1 {
                        moving.push(c);
                    } else {
                        still.insert(c);
                    }
                }
            }
            for dir in axes {
                let along = |c: &[i32; 3]| c[0] * dir[0] + c[1] * dir[1] + c[2] * dir[2];
                let ahead = still.iter().map(along).max().unwrap_or(0);
                for k in 1.. {
                    if moving.iter().all(|c| along(c) + k > ahead) {
                        return Some(depth + 1);
                    }
                    let hit = moving.iter().any(|c| {
                        still.contains(&[c[0] + k * dir[0], c[1] + k * dir[1], c[2] + k * dir[2]])
                    });
                    if hit {
                        break;
                    }
                    let next: Vec<[i32; 3]> = (0..n)
                        .map(|p| {
                            let o = state[p];
                            if mask >> p & 1 == 1 {
                                [o[0] + k * dir[0], o[1] + k * dir[1], o[2] + k * dir[2]]
                            } else {
                                o
                            }
                        })
                        .collect();
                    if seen.insert(next.clone()) {
                        queue.push_back((next, depth + 1));
                    }
                }
            }
        }
    }
    None
}

/// Every separation of the tree takes as few moves as the brute force
/// finds for its part from where it starts.
fn shortest_everywhere(pieces: &[Vec<[i32; 3]>], s: &Separation) {
    let part: Vec<Vec<[i32; 3]>> = s.pieces.iter().map(|&p| pieces[p].clone()).collect();
    assert_eq!(
        brute_force(&part, &s.states[0]),
        Some(s.moves.len()),
        "part {:?}",
        s.pieces
    );
    for sub in [&s.left, &s.removed].into_iter().flatten() {
        shortest_everywhere(pieces, sub);
    }
}

#[test]
fn the_brute_force_agrees_on_the_hand_made_cases() {
    let tunnel = [[1, 1, 1], [2, 1, 1], [2, 2, 1], [2, 3, 1]];
    let bent = [block(4, 4, 3, &tunnel), vec![[1, 1, 1]]];
    assert_eq!(brute_force(&bent, &[[0; 3]; 2]), Some(2));
    let shut = [block(3, 3, 3, &[[1, 1, 1]]), vec![[1, 1, 1]]];
    assert_eq!(brute_force(&shut, &[[0; 3]; 2]), None);
}

/// Pieces from a box's cells labelled `0` (empty) or `1..`, numbered in
/// the order of their labels; at least two, or `None`.
fn labelled(
    x: usize,
    y: usize,
    labels: &[u8],
    parity_shift: [i32; 3],
) -> Option<Vec<Vec<[i32; 3]>>> {
    let mut by: HashMap<u8, Vec<[i32; 3]>> = HashMap::new();
    for (i, &l) in labels.iter().enumerate() {
        if l != 0 {
            let c = [(i % x) as i32, (i / x % y) as i32, (i / (x * y)) as i32];
            by.entry(l).or_default().push([
                c[0] + parity_shift[0],
                c[1] + parity_shift[1],
                c[2] + parity_shift[2],
            ]);
        }
    }
    let mut keys: Vec<u8> = by.keys().copied().collect();
    keys.sort_unstable();
    let pieces: Vec<Vec<[i32; 3]>> = keys
        .into_iter()
        .map(|k| by.remove(&k).unwrap_or_default())
        .collect();
    (pieces.len() >= 2).then_some(pieces)
}

/// A box of 2 to 4 by 2 or 3 by 2 or 3 cells, most of them given to one
/// of 2 to 4 pieces (about one in twenty of such assemblies takes more than
/// one move somewhere, and two in five do not come apart).
fn boxes() -> impl Strategy<Value = (usize, usize, Vec<u8>)> {
    (2usize..=4, 2usize..=3, 2usize..=3, 2u8..=4).prop_flat_map(|(x, y, z, k)| {
        let cell = prop_oneof![1 => Just(0u8), 5 => 1..=k];
        (Just(x), Just(y), prop::collection::vec(cell, x * y * z))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_cube_assemblies_replay_and_are_shortest((x, y, labels) in boxes()) {
        let Some(pieces) = labelled(x, y, &labels, [0; 3]) else { return Ok(()) };
        let d = cubes(&pieces);
        match &d {
            Some(d) => shortest_everywhere(&pieces, &d.root),
            None => {
                // no separation at all, or a part that does not come apart
                // after the first one BurrTools takes
            }
        }
        if brute_force(&pieces, &vec![[0; 3]; pieces.len()]).is_none() {
            prop_assert!(d.is_none());
        }
    }

    #[test]
    fn random_prism_assemblies_replay_and_do_not_depend_on_place(
        (x, y, labels) in boxes(),
        shift in (-3i32..=3, -3i32..=3, -2i32..=2),
    ) {
        let Some(pieces) = labelled(x, y, &labels, [0; 3]) else { return Ok(()) };
        let d = take_apart(MoveGrid::Prisms, &pieces, &[], &[]);
        // the same assembly elsewhere (keeping the kind of every prism)
        let s = [shift.0 * 2 + shift.1, shift.1, shift.2];
        let moved = labelled(x, y, &labels, s).unwrap_or_default();
        let e = take_apart(MoveGrid::Prisms, &moved, &[], &[]);
        prop_assert_eq!(d.as_ref().map(|d| (d.level(), d.moves())), e.as_ref().map(|d| (d.level(), d.moves())));
        prop_assert_eq!(d.map(|d| d.root.moves), e.map(|d| d.root.moves));
    }

    #[test]
    fn random_cube_assemblies_do_not_depend_on_place(
        (x, y, labels) in boxes(),
        shift in (-5i32..=5, -5i32..=5, -5i32..=5),
    ) {
        let Some(pieces) = labelled(x, y, &labels, [0; 3]) else { return Ok(()) };
        let moved = labelled(x, y, &labels, [shift.0, shift.1, shift.2]).unwrap_or_default();
        prop_assert_eq!(cubes(&pieces), cubes(&moved));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Keys (a name for each placed piece's voxels) only spare the
    /// disassembler its look-ups: assemblies taken apart one after the
    /// other by one disassembler, each piece keyed by its voxels (the same
    /// voxels, the same key, in any assembly), come apart as each does
    /// alone, unkeyed, on either grid.
    #[test]
    fn keyed_pieces_come_apart_as_unkeyed(
        boxes in prop::collection::vec(boxes(), 1..6),
        prisms in any::<bool>(),
    ) {
        let grid = if prisms { MoveGrid::Prisms } else { MoveGrid::Cubes };
        let mut named: HashMap<Vec<[i32; 3]>, u64> = HashMap::new();
        let mut engine = Disassembler::new();
        for (x, y, labels) in boxes {
            let Some(pieces) = labelled(x, y, &labels, [0; 3]) else { continue };
            let keys: Vec<u64> = pieces
                .iter()
                .map(|p| {
                    let next = named.len() as u64;
                    *named.entry(p.clone()).or_insert(next)
                })
                .collect();
            let keyed = Assembly { grid, pieces: &pieces, groups: &[], weights: &[], keys: &keys };
            let alone = Assembly { keys: &[], ..keyed };
            let d = engine.disassemble(&keyed, None, 1 << 20).expect("a valid assembly");
            prop_assert_eq!(&d, &disassemble(&alone, None, 1 << 20).expect("a valid assembly"));
            if let Some(d) = &d {
                check(&keyed, d).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
        }
    }
}

/// A voxel at either end of `i32` is out of range, and said so: never a
/// wrapped `abs` that lets it in (or panics).
#[test]
fn a_voxel_at_the_ends_of_i32_is_out_of_range() {
    for far in [i32::MIN, i32::MAX, -MAX_COORDINATE - 1] {
        let pieces = vec![vec![[0, 0, 0]], vec![[far, 0, 0]]];
        let a = Assembly {
            grid: MoveGrid::Cubes,
            pieces: &pieces,
            groups: &[],
            weights: &[],
            keys: &[],
        };
        assert_eq!(
            disassemble(&a, None, 1000),
            Err(DisassemblyError::OutOfRange {
                piece: 1,
                limit: MAX_COORDINATE
            }),
            "{far}"
        );
    }
}
