//! The logical solver, tested against the exact cover engine.
//!
//! * every technique on a position where it applies, each step checked
//!   against the solution found by dancing links (never by the logic itself);
//! * where techniques must not apply: boards whose every candidate belongs to
//!   some solution (no sound elimination exists), boards without the pattern,
//!   and, for the basic techniques, an independent brute-force search on every
//!   board of many solving paths;
//! * whole solving paths: every step sound, the end the solution;
//! * hints, levels, ratings (Spearman correlation with Sudoku Explainer on the
//!   calibration set in `../shared`, skipped when absent), the generator and
//!   play support.
//!
//! The positions were found by solving puzzles of the calibration set step by
//! step and keeping a board where the technique applies (the easiest step
//! there, unless noted); they are written out here so that these tests need
//! nothing outside the repository.

#![allow(clippy::needless_range_loop)] // cells are walked by index, as in the solver

use dancer_sudoku::generate::{generate, GenerateOptions, GivensSymmetry};
use dancer_sudoku::logic::{
    apply, find, next_step, next_step_within, rate, rate_at_most, rate_with, rate_within, Budget,
    Halt, Level, MarkedGrid, Step, Technique as T, ORDER,
};
use dancer_sudoku::play::{Check, Game, PlayError};
use dancer_sudoku::{Grid, Puzzle, Rules, Solver, SudokuEngine};
use std::time::Instant;

/// A board: its digits (81 symbols, `.` for empty) and the candidates removed
/// beyond those the digits rule out, as `r4c7-159` (digits 1, 5 and 9 gone
/// from row 4, column 7), separated by spaces.
type Position = (T, &'static str, &'static str);

/// One position per technique of [`T::ALL`].
const POSITIONS: &[Position] = &[
    // calibration 0001d2888928
    (T::FullHouse, "28435917631562789.679841523857294631426713958931586742192478365568932417743165289", ""),
    // calibration 00035f2db993
    (T::HiddenSingleBox, "5768492139813265742431758968375914621627843594952637813586.2.476249.7.38719438625", ""),
    // calibration 02ba840e5e74
    (T::HiddenSingleLine, ".98..4.2..23.98.4.417..289.842613975931587462756249318275436189384921657169875234", ""),
    // calibration 05e9dc93116a
    (T::NakedSingle, "2194...35458.3..2176315294817.2..85339..7.16282..13497987326514631...289542..1376", ""),
    // calibration 0524f90189d7
    (T::Pointing, "..5792834248653197..7814652.86541.2.4.296758..592384.6..34852..5241793688.1326.45", ""),
    // calibration 038a0eddc2c4
    (T::Claiming, "136...572254731986879526431693..57247.5.42..342.3.7..59.2...35754..73269367259148", ""),
    // calibration 0d5dba4cbf44
    (T::NakedPair, "19276.83.87..2169.6..9..27121.6..35998..1.4263.629.187431859762568472913729136548", ""),
    // calibration 00fd914fb1f5
    (T::XWing, ".8...71...49.81.26.1..4..831368724959741352682584..317463.18.725976248318217.36..", ""),
    // calibration 08351192042f
    (T::HiddenPair, "769485123841293567235176948.146387.2.2.947.1..7.5124..4.386127.6.2754..11.73296.4", ""),
    // calibration 0d13246380c2
    (T::NakedTriple, ".5...9.8........9.91724836518.6.39744.69.1538..948.216291536847.6.794123743812659", ""),
    // calibration 1cab28d31ad1
    (T::Swordfish, "764.2.9152839156749516742833.6...541418.5.7..57.46183.1.5.3.4.864.1..35783754.19.", ""),
    // calibration 1e60cba50102
    (T::HiddenTriple, "539714826142869375...3251943.4196.82..657.4.....4.....4.52.79.1.21.5..4.7.3.41258", ""),
    // calibration 02b049012fed
    (T::Skyscraper, "9.53.4.6738625794147.69..3573.4.965869857..245.48.6.791639457828571624932497..516", ""),
    // calibration 1123c5929953
    (T::TwoStringKite, "8512..364736841529249653..8917385642685.2.9.3423...85.1745382963927...85568..2.3.", ""),
    // calibration 035db04e7440
    (T::TurbotFish, "93.127.565..689..22.63549...915462..6.29315..345278619.5946372.46.712.95.2.895.6.", ""),
    // calibration 049cc39f1b59
    (T::EmptyRectangle, "..3462.1...65139.2251897436518274693.6...1.543...5...1635729148.291..36.18.....29", ""),
    // calibration 046a370d47b1
    (T::XYWing, "3564.1.9889763..14412..8.63963.8.451274519836185364972729143685538..61476418..329", ""),
    // calibration 210a368ceb5f
    (T::XYZWing, "893152647275364819416879532..29.63...385.7.2...1238.....97231.43.749126.124685793", ""),
    // calibration 0b04b4beb570
    (T::FinnedXWing, "1683795247592846133426518795..1..7488..547...4178....52319654879754.8.366847..95.", ""),
    // calibration 166ff8f1d315
    (T::UniqueRectangle1, "6459732813..6824.58.2..13.67268145399537261481843957625.82.961.46...892.2...6785.", ""),
    // calibration 08de946e08d2
    (T::UniqueRectangle2, "1..96284.29.8547.14..13729.64.5.31.252.418...3.12.6..4962385417835741.2.714629..8", ""),
    // calibration 049789ff8cf8
    (T::UniqueRectangle3, "9.2..4.16715..834264.1...593972465818513796242648..97342....1975..4..2681.....435", ""),
    // calibration 189c10a1cf70
    (T::UniqueRectangle4, "314.98.27.8273194.7...42381.2.4871..17532649884.9157.22381.4.794.12798.3..78.3214", ""),
    // calibration 0ee3c80a051e
    (T::WXYZWing, "687239541245817639319...2878.31.2..61.6.8...2452.9..18731528964928364175564971823", ""),
    // calibration 13b1c856466b
    (T::NakedQuad, "....47.32...3....5......17.29...458.5872936414.1....2..49....5.6.8..5...35248....", "r7c7-7 r7c9-7 r8c5-17 r8c7-79 r8c9-79"),
    // calibration 2ef5a8e6383a
    (T::Jellyfish, "6..3.71.8..3...6..17.....4.9..7.5..6....2....5..1.3..9.9.....61.65...8..7.18.6..4", "r5c3-48 r6c3-248"),
    // calibration 16e27ace8e13
    (T::HiddenQuad, "............923......6.8...1643897252957461838732..649..189.56.94856231765..3..98", "r1c1-4 r1c6-7 r1c7-4 r1c9-4"),
    // calibration 0001d2888928
    (T::ThreeStrongLinks, "2..3591.631.627.9.6.9841.23..72946.1.267139..9.1586..2192478365.6.932.177.31652.9", "r5c8-4"),
    // calibration 02b049012fed
    (T::FinnedSwordfish, "9.53.4.673.625794.47.69..3573.4.965.69.57..245.48.6.791639457828571624932497..516", "r3c3-8"),
    // calibration 013d80562698
    (T::BugPlusOne, "7839162542498..316516...897435.9.681891.6.472627184935352..8169968..1743174639528", ""),
    // calibration 19099734540b
    (T::VWXYZWing, "6.2.4.1....13.69....9.1.6..263794815897165234145283769974638521526471398318...476", ""),
    // calibration 1e08803a9dff
    (T::UVWXYZWing, "19.6.7.54....9....6...45.9.2..75..3.5.7...9.634..862758..47...9....1....93.568.27", "r2c7-1 r4c7-1"),
    // calibration 263a1682e4e0
    (T::FinnedJellyfish, "128.3.56...7615283536....7181..4..5626.9.1.38.7..8612.681...3.775.1638.23.2...615", "r6c3-49"),
    // calibration 1f99d64a8e27
    (T::FourStrongLinks, "32......894...653265823.4.7.169.37...7461.3..539742.8.1.3.6725.7.532....4.2....73", "r8c6-8 r8c7-16 r8c9-49"),
    // calibration 3122914534ff
    (T::WWing, ".215.384684.1..593.5348.127479318265385264719.1..5.38413.64.958594831672.68..5431", ""),
    // calibration 0001d2888928, not the easiest step
    (T::XCycle, "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..", ""),
    // calibration 29e66a1b0655
    (T::YCycle, "21..473...35.8614.84.1.3.9.674398..1528461739193.7.864.6.8...13382619475.5173....", ""),
    // calibration 0001d2888928, not the easiest step
    (T::ColourTrap, "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..", ""),
    // calibration 0001d2888928, not the easiest step
    (T::ColourWrap, "2..359176315627.9.679841523..72946.1.267139..9.15867.219247836556.932.177.31652.9", "r4c2-8 r5c8-4"),
    // calibration 0001d2888928, not the easiest step
    (T::XChain, "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..", ""),
    // calibration 0c41dddd93f6
    (T::XYChain, "127.4.583569...421438...796382574169794...352651...847846...2152134..978975812634", ""),
    // calibration 2a8f0e7b7289
    (T::ContinuousLoop, "5247198637.6.3.29..9362.57.641872359...1..68....3.641...2.8793...89.172.975263148", ""),
    // calibration 2fa991cf3990
    (T::Aic, "3857.4.2.1498623577625.3..887.2519..21.479..595438671262.935.7.49712856353.6472..", ""),
    // calibration 20c18206b2ae
    (T::Nishio, "..17...24.....4..8.4..231...6......22176.845.9..2...1.8.345..6.1..3......7...29..", ""),
    // calibration 0001d2888928, not the easiest step
    (T::ContradictionForcingChain, "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..", ""),
    // calibration 0001d2888928, not the easiest step
    (T::DoubleForcingChain, "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..", ""),
    // calibration 29ca3cf7aa81
    (T::CellForcingChain, ".8.516......3826...1.94783.9..138..6.3.264.9..4.795.8..6..5..2..51.2396.4..67...8", "r2c9-7"),
    // calibration 0e090a2da4e1
    (T::DigitForcingChain, "3..4...18.8.3..429.24...3.....5472.3.3.691.8...52831....3...94.7....4.3.64..3...1", "r1c5-7"),
    // calibration 009616a77e5e
    (T::DynamicContradictionForcingChain, "..64.153.3..5.9..1....3....2.5...7.3.3.745.2.67...3.58.6.9.7.8.....5......23.49..", "r4c2-18 r4c8-6 r8c7-4"),
    // calibration 05d4d8b37001
    (T::DynamicDoubleForcingChain, "4..9....6...8..5...2..74.....13.2.59..9.5.1..54.7196.....19..3...8..7...1....3..5", "r1c2-5 r1c8-1 r2c5-6 r2c8-1 r2c9-13 r3c1-3 r3c8-8 r3c9-3 r4c7-8 r5c1-8 r5c8-8 r5c9-8 r7c3-5 r8c5-2 r9c2-6 r9c3-6 r9c5-26 r9c8-289"),
    // calibration 2ee6930eeb02
    (T::DynamicCellForcingChain, "6..84..2...569..3......7..63..4...6..61...75......6..98.65.4...54..2.6...7..68..5", "r3c3-3 r4c2-2 r4c3-2 r6c7-2 r7c9-7 r8c9-7"),
    // calibration 009616a77e5e
    (T::DynamicDigitForcingChain, "..64.153.3..5.9..1....3....2.5...7.3.3.745.2.67...3.58.6.9.7.8.....5......23.49..", "r3c2-9 r3c8-6 r4c2-18 r4c8-6 r8c7-4"),
    // calibration 0001d2888928, not the easiest step
    (T::DynamicForcingChainPlus, "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..", ""),
    // calibration 0001d2888928, not the easiest step
    (T::NestedForcingChain, "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..", ""),
    // calibration 0001d2888928, not the easiest step
    (T::NestedMultipleForcingChain, "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..", ""),
    // calibration 0001d2888928, not the easiest step
    (T::NestedDynamicForcingChain, "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..", ""),
    // se_rated_17clue_calibration line 120
    (T::DirectPointing, "....1...6.....6..16.18.2.34..6........4....62.5.16.7.....681...18.5..6..76....81.", ""),
    // crafted on the first 17-clue calibration puzzle: 1 of row 1 only in
    // box 2, so row 3's 1 outside box 2 is r3c2 (SE never needs this one)
    (T::DirectClaiming, ".................1.....2.34.....5.....1...6....7..38......6.7...4..1....35.4.....", "r1c1-1 r1c2-1 r3c1-1"),
    // se_rated_17clue_calibration line 20
    (T::DirectHiddenPair, ".....1........6..1.....2.34...6.541.5.12.46..467193852...36.74574.51.32.35.4271..", ""),
    // se_rated_17clue_calibration line 920
    (T::DirectHiddenTriple, ".1..4...2....2...1.52183.49..54129.3239567184.418392.5...258316168394527523671498", ""),
    // calibration positions (SE's own solving paths)
    (T::UniqueLoop1, "9.6.47...48.319.76317.56..956.4.8...2746319581.85.2.6.8...6572.7...846.36.17238.5", "r8c2-9 r8c3-9"),
    (T::UniqueLoop2, "734...586589764..1126853947312....654...36.1969....7..2..6.917.86.1.5.9.9.13..65.", "r4c5-4 r6c5-4 r6c9-8"),
    (T::UniqueLoop3, ".9..34.5.8...95.47..4.271.946237..151..462.73...51.462..694.5..9..75...4.4.28.79.", "r1c7-8 r8c3-3 r8c7-28"),
    (T::UniqueLoop4, "12.645.98..529361..9681752.5.4.3698226..8943593852417665.978.41...461.5....352.6.", "r8c3-3 r8c7-3"),
    (T::BugType2, "81..9.7.24.7.1.96...2753148548.3.6972.6.7.81.17..6.2.4321985476..4.2..89.8..4..21", ""),
    (T::BugType3, "1..9728.38..6.4..2...8.5...97..2853..85.932.72315674893492.167....7.93...1.34692.", "r1c8-6 r2c8-1 r3c1-6 r3c2-6 r3c3-46 r3c8-1 r3c9-1 r8c2-5 r8c3-6 r8c8-5 r8c9-58"),
    (T::BugType4, "..6..9..4847632195..9....6.96824751347215398615396824779..26.3.32487165968.39....", "r1c7-7"),
    // calibration 09deeed61d84
    (T::AlignedPairExclusion, ".3.871.4...74.38...489.67.3.615..92...42.83....21..4....36152...2638.17..1.7.2.3.", "r1c1-59 r1c9-5 r2c1-59 r2c9-5 r3c1-5 r6c1-8 r6c9-8 r7c1-8 r7c9-8 r9c1-5 r9c9-5"),
    // calibration 00121d9a9024
    (T::AlignedTripletExclusion, "7...4...6...759..29..861..3...524.3..3....42.4.......75.1...2.8.8.....1.2.9...3.4", "r1c2-2 r1c3-23 r4c1-1 r4c3-8 r4c7-1 r5c1-8 r5c3-7 r5c4-1 r6c3-8 r6c5-8 r6c7-1 r8c4-3 r8c5-3 r8c6-3 r9c5-7 r9c6-7"),
];

/// Puzzles that logic finishes quickly, from easy to hard.
const PUZZLES: &[&str] = &[
    // singles only
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
    // Norvig's hard 17-clue puzzle: needs locked candidates
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    // from the calibration set, SE 7.1, 8.2 and 7.2
    "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2..",
    "..6...2..9.......4243...896...591.....2.8.3..4..2.3..13.......7...9.7....1.4.8.2.",
    "....3....56.749.83...8.2..............16.85...9.3.7.4.3...9...6.7.1.3.5...5...8..",
];

/// A puzzle with exactly two solutions: a full grid without the four cells
/// r1c3, r1c6, r2c3, r2c6, whose 2s and 3s can be swapped.
const TWO_SOLUTIONS: &str =
    "81.75.64994.68.175675491283154237896369845721287169534521974368438526917796318452";

// ---------------------------------------------------------------- helpers

fn dlx9() -> Solver {
    Solver::new(&Rules::standard(9).unwrap(), SudokuEngine::Dlx).unwrap()
}

fn grid_of(line: &str) -> Grid {
    let cells: Vec<u8> = line
        .chars()
        .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
        .collect();
    Grid::from_cells(9, cells)
}

fn cell_of(name: &str) -> usize {
    let b = name.as_bytes();
    assert!(
        b.len() == 4 && b[0] == b'r' && b[2] == b'c',
        "bad cell {name:?}"
    );
    (b[1] - b'1') as usize * 9 + (b[3] - b'1') as usize
}

/// The board of a position; panics if a removed candidate was not there.
fn board(values: &str, removed: &str) -> MarkedGrid {
    let mut b = MarkedGrid::from_line(values).expect("81 symbols");
    for tok in removed.split_whitespace() {
        let (cell, digits) = tok.split_once('-').expect("r4c7-159");
        let c = cell_of(cell);
        for ch in digits.chars() {
            let d = ch.to_digit(10).unwrap() as u8;
            assert!(b.eliminate(c, d), "{tok}: {d} is not a candidate of {cell}");
        }
    }
    b
}

/// The only solution of a grid's digits, by dancing links.
fn solution(values: &str) -> [u8; 81] {
    let s = dlx9().solve(&grid_of(values), 2, 1);
    assert_eq!(s.count, 1, "{values} must have exactly one solution");
    s.solutions[0].cells().try_into().unwrap()
}

/// The board agrees with the solution: its digits are the solution's and
/// every empty cell still has the solution's digit as a candidate.
fn agrees(b: &MarkedGrid, sol: &[u8; 81]) -> Result<(), String> {
    for c in 0..81 {
        let v = b.value(c);
        if v != 0 && v != sol[c] {
            return Err(format!("cell {c} holds {v}, the solution has {}", sol[c]));
        }
        if v == 0 && !b.has(c, sol[c]) {
            return Err(format!("cell {c} lost its solution digit {}", sol[c]));
        }
    }
    Ok(())
}

/// A step is sound: it changes something, every digit it places is the
/// solution's, every candidate it removes is there and is not the solution's.
fn sound(b: &MarkedGrid, s: &Step, sol: &[u8; 81]) -> Result<(), String> {
    let what = format!("{} step {:?}", s.technique.name(), s.description);
    if !s.is_productive() {
        return Err(format!("{what} changes nothing"));
    }
    for &(c, d) in &s.placements {
        if b.value(c) != 0 || !b.has(c, d) {
            return Err(format!("{what} places {d} in cell {c}, not a candidate"));
        }
        if sol[c] != d {
            return Err(format!(
                "{what} places {d} in cell {c}; the solution has {}",
                sol[c]
            ));
        }
    }
    let mut seen = Vec::new();
    for &(c, d) in &s.eliminations {
        if !b.has(c, d) {
            return Err(format!("{what} removes {d} from cell {c}, not a candidate"));
        }
        if sol[c] == d {
            return Err(format!(
                "{what} removes the solution digit {d} from cell {c}"
            ));
        }
        if seen.contains(&(c, d)) {
            return Err(format!("{what} removes {d} from cell {c} twice"));
        }
        seen.push((c, d));
    }
    Ok(())
}

/// Does the description name the technique? Hidden singles say "hidden
/// single" (the unit follows), sashimi fish are finned fish.
fn names(s: &Step) -> bool {
    let d = s.description.to_lowercase();
    let n = s
        .technique
        .name()
        .to_lowercase()
        .replace(" (box)", "")
        .replace(" (line)", "");
    d.contains(&n) || d.contains(&n.replace("finned", "sashimi"))
}

/// The description of a step reads well: it names the technique and has no
/// hole where a unit or a chain should be.
fn explained(s: &Step) -> Result<(), String> {
    let d = &s.description;
    if !names(s) {
        return Err(format!(
            "{}: the description does not name it: {d}",
            s.technique
        ));
    }
    if d.contains("  ") || d.contains(": ?") || d.contains(" ,") || d.ends_with(' ') {
        return Err(format!("{}: a hole in the description: {d:?}", s.technique));
    }
    Ok(())
}

/// Follows the easiest steps to the end, checking each against the solution.
fn solve_checked(start: &MarkedGrid, sol: &[u8; 81], what: &str) -> Vec<MarkedGrid> {
    let mut b = start.clone();
    let mut boards = Vec::new();
    while !b.is_solved() {
        let s = next_step(&b).unwrap_or_else(|| panic!("{what}: stuck at {b:?}"));
        if let Err(e) = sound(&b, &s, sol).and_then(|_| explained(&s)) {
            panic!("{what}: {e}\n{b}");
        }
        boards.push(b.clone());
        apply(&mut b, &s);
        assert!(boards.len() < 500, "{what}: no end");
    }
    let got: Vec<u8> = b.values().to_vec();
    assert_eq!(got, sol.to_vec(), "{what}: solved to another grid");
    boards
}

/// The calibration set of hard puzzles: `(id, puzzle, SE rating)`; `None`
/// when `../shared` is absent.
fn calibration() -> Option<Vec<(String, String, f64)>> {
    calibration_file("se_rated_calibration.txt")
}

/// A calibration file of `../shared/data/sudoku` (`id puzzle SE` lines).
fn calibration_file(name: &str) -> Option<Vec<(String, String, f64)>> {
    let p = dancer_testdata::shared_file("sudoku", name)?;
    Some(rating_lines(&std::fs::read_to_string(p).unwrap()))
}

/// The `ID PUZZLE SE` lines of a calibration text (`#` comments).
fn rating_lines(text: &str) -> Vec<(String, String, f64)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 3, "{l}");
            (f[0].to_string(), f[1].to_string(), f[2].parse().unwrap())
        })
        .collect()
}

/// `f(id, puzzle)` of every calibration puzzle of `sample`, on all cores,
/// in order.
fn on_all_cores<T: Send>(
    sample: &[(String, String, f64)],
    f: impl Fn(&str, &str) -> T + Sync,
) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = sample.len().div_ceil(threads).max(1);
    let f = &f;
    std::thread::scope(|s| {
        let hs: Vec<_> = sample
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(|(id, p, _)| f(id, p)).collect::<Vec<T>>()))
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    })
}

/// Every `step`-th entry, `n` of them at most.
fn every<X: Clone>(v: &[X], n: usize) -> Vec<X> {
    let step = (v.len() / n).max(1);
    v.iter().step_by(step).take(n).cloned().collect()
}

fn line_of(values: &str) -> String {
    values
        .chars()
        .map(|c| if c == '0' { '.' } else { c })
        .collect()
}

/// The board with exactly the candidates that appear in some solution of its
/// digits (found by dancing links, one query per candidate).
fn live_board(values: &str) -> MarkedGrid {
    let solver = dlx9();
    let b = MarkedGrid::from_line(values).unwrap();
    let g = grid_of(values);
    let mut cands = [0u16; 81];
    for c in 0..81 {
        if b.value(c) != 0 {
            continue;
        }
        for d in 1..=9u8 {
            let mut t = g.clone();
            t.set(c, d);
            if b.has(c, d) && solver.solve(&t, 1, 0).count > 0 {
                cands[c] |= 1 << (d - 1);
            }
        }
    }
    MarkedGrid::from_parts(*b.values(), cands)
}

/// Units of my own: rows, columns, boxes (cells 0..81).
fn units() -> Vec<Vec<usize>> {
    let mut v = Vec::new();
    for r in 0..9 {
        v.push((0..9).map(|c| r * 9 + c).collect());
    }
    for c in 0..9 {
        v.push((0..9).map(|r| r * 9 + c).collect());
    }
    for b in 0..9 {
        let (r0, c0) = (b / 3 * 3, b % 3 * 3);
        v.push((0..9).map(|i| (r0 + i / 3) * 9 + c0 + i % 3).collect());
    }
    v
}

fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    if n < k {
        return vec![];
    }
    let mut v = subsets(n - 1, k);
    for mut s in subsets(n - 1, k - 1) {
        s.push(n - 1);
        v.push(s);
    }
    v
}

/// Brute force: does a basic technique have a productive instance? `None`
/// for the techniques it does not know. Conventions as in Sudoku Explainer:
/// locked candidates and fish lines hold the digit at least twice.
fn brute(b: &MarkedGrid, t: T) -> Option<bool> {
    let us = units();
    let has = |c: usize, d: u8| b.value(c) == 0 && b.has(c, d);
    let pos =
        |u: &[usize], d: u8| -> Vec<usize> { u.iter().copied().filter(|&c| has(c, d)).collect() };
    let open =
        |u: &[usize]| -> Vec<usize> { u.iter().copied().filter(|&c| b.value(c) == 0).collect() };
    let ncands = |c: usize| (1..=9).filter(|&d| has(c, d)).count();
    let hidden_single = |range: std::ops::Range<usize>| {
        us[range]
            .iter()
            .any(|u| (1..=9).any(|d| pos(u, d).len() == 1))
    };
    let locked = |from: std::ops::Range<usize>, to: std::ops::Range<usize>| {
        us[from.clone()].iter().any(|u| {
            (1..=9).any(|d| {
                let p = pos(u, d);
                p.len() >= 2
                    && us[to.clone()].iter().any(|v| {
                        p.iter().all(|c| v.contains(c))
                            && v.iter().any(|&c| !u.contains(&c) && has(c, d))
                    })
            })
        })
    };
    let naked = |k: usize| {
        us.iter().any(|u| {
            let o = open(u);
            subsets(o.len(), k).iter().any(|idx| {
                let set: Vec<usize> = idx.iter().map(|&i| o[i]).collect();
                let digits: Vec<u8> = (1..=9)
                    .filter(|&d| set.iter().any(|&c| has(c, d)))
                    .collect();
                digits.len() == k
                    && o.iter()
                        .any(|c| !set.contains(c) && digits.iter().any(|&d| has(*c, d)))
            })
        })
    };
    let hidden = |k: usize| {
        us.iter().any(|u| {
            let ds: Vec<u8> = (1..=9).filter(|&d| !pos(u, d).is_empty()).collect();
            subsets(ds.len(), k).iter().any(|idx| {
                let digits: Vec<u8> = idx.iter().map(|&i| ds[i]).collect();
                let mut cells: Vec<usize> = digits.iter().flat_map(|&d| pos(u, d)).collect();
                cells.sort_unstable();
                cells.dedup();
                cells.len() == k
                    && cells
                        .iter()
                        .any(|&c| (1..=9).any(|d| has(c, d) && !digits.contains(&d)))
            })
        })
    };
    let fish = |k: usize| {
        (1..=9u8).any(|d| {
            [(0..9, 9..18), (9..18, 0..9)].iter().any(|(base, cover)| {
                let lines: Vec<usize> = base
                    .clone()
                    .filter(|&l| (2..=k).contains(&pos(&us[l], d).len()))
                    .collect();
                subsets(lines.len(), k).iter().any(|idx| {
                    let bl: Vec<usize> = idx.iter().map(|&i| lines[i]).collect();
                    let cl: Vec<usize> = cover
                        .clone()
                        .filter(|&x| {
                            bl.iter()
                                .any(|&l| pos(&us[l], d).iter().any(|c| us[x].contains(c)))
                        })
                        .collect();
                    cl.len() == k
                        && cl.iter().any(|&x| {
                            us[x]
                                .iter()
                                .any(|&c| has(c, d) && !bl.iter().any(|&l| us[l].contains(&c)))
                        })
                })
            })
        })
    };
    Some(match t {
        T::FullHouse => us.iter().any(|u| open(u).len() == 1),
        T::HiddenSingleBox => hidden_single(18..27),
        T::HiddenSingleLine => hidden_single(0..18),
        T::NakedSingle => (0..81).any(|c| b.value(c) == 0 && ncands(c) == 1),
        T::Pointing => locked(18..27, 0..18),
        T::Claiming => locked(0..18, 18..27),
        T::NakedPair => naked(2),
        T::NakedTriple => naked(3),
        T::NakedQuad => naked(4),
        T::HiddenPair => hidden(2),
        T::HiddenTriple => hidden(3),
        T::HiddenQuad => hidden(4),
        T::XWing => fish(2),
        T::Swordfish => fish(3),
        T::Jellyfish => fish(4),
        _ => return None,
    })
}

/// Techniques that assume a unique solution: they may remove candidates that
/// appear in some solution of a puzzle with several.
fn uses_uniqueness(t: T) -> bool {
    matches!(
        t,
        T::UniqueRectangle1
            | T::UniqueRectangle2
            | T::UniqueRectangle3
            | T::UniqueRectangle4
            | T::UniqueLoop1
            | T::UniqueLoop2
            | T::UniqueLoop3
            | T::UniqueLoop4
            | T::BugPlusOne
            | T::BugType2
            | T::BugType3
            | T::BugType4
    )
}

/// A board open to every digit everywhere but in the cells given.
fn open_board(marks: &[(&str, &[u8])]) -> MarkedGrid {
    let mut cands = [0x1ffu16; 81];
    for (cell, digits) in marks {
        cands[cell_of(cell)] = digits.iter().map(|&d| 1u16 << (d - 1)).sum();
    }
    MarkedGrid::from_parts([0; 81], cands)
}

fn elim_set(s: &Step) -> Vec<(usize, u8)> {
    let mut v = s.eliminations.clone();
    v.sort_unstable();
    v
}

// ------------------------------------------------------- every technique

#[test]
fn every_technique_has_a_position() {
    for t in T::ALL {
        let n = POSITIONS.iter().filter(|p| p.0 == *t).count();
        assert_eq!(n, 1, "{t}: {n} positions");
    }
    assert_eq!(POSITIONS.len(), T::ALL.len());
}

#[test]
fn each_technique_applies_soundly_where_it_should() {
    let start = Instant::now();
    for &(t, values, removed) in POSITIONS {
        let b = board(values, removed);
        let sol = solution(values);
        agrees(&b, &sol).unwrap_or_else(|e| panic!("{t}: the position is wrong: {e}"));
        let s = find(&b, t).unwrap_or_else(|| panic!("{t} not found in its position\n{b}"));
        assert_eq!(s.technique, t, "{t}: find returned {}", s.technique);
        sound(&b, &s, &sol).unwrap_or_else(|e| panic!("{e}\n{b}"));
        assert!(
            s.rating() >= t.se_rating() - 1e-9,
            "{t}: rated {} below its base {}",
            s.rating(),
            t.se_rating()
        );
        explained(&s).unwrap();
        assert!(!s.cells.is_empty(), "{t}: no cells to show");
        // Used again and again, the technique stays sound and runs dry.
        let mut b2 = b.clone();
        apply(&mut b2, &s);
        let mut rounds = 0;
        while let Some(s2) = find(&b2, t) {
            sound(&b2, &s2, &sol)
                .and_then(|_| explained(&s2))
                .unwrap_or_else(|e| panic!("{t}, round {rounds}: {e}\n{b2}"));
            apply(&mut b2, &s2);
            rounds += 1;
            assert!(rounds < 200, "{t} never runs dry");
        }
        assert!(find(&b2, t).is_none());
        agrees(&b2, &sol).unwrap();
    }
    eprintln!("positions: {:.2} s", start.elapsed().as_secs_f64());
}

/// Grids with several solutions or none end their rating without a panic,
/// not solved (uniqueness steps can break such a grid; the search stops
/// there).
#[test]
fn grids_without_one_solution_are_not_rated_solved() {
    let mut lines: Vec<String> = Vec::new();
    if let Some(p) = dancer_testdata::shared_file("sudoku", "serg_benchmark.txt") {
        let text = std::fs::read_to_string(p).unwrap();
        lines.extend(text.lines().take(20).map(str::to_string));
    }
    // no solution: a given changed to another digit its units allow
    for line in PUZZLES {
        let g = grid_of(line);
        let sol = solution(line);
        let c = (0..81).find(|&c| g.get(c) == 0).unwrap();
        for d in 1..=9u8 {
            let mut v: Vec<u8> = g.cells().to_vec();
            v[c] = d;
            let h = Grid::from_cells(9, v);
            if d != sol[c] && MarkedGrid::try_from_grid(&h).is_some_and(|b| b.is_consistent()) {
                lines.push(h.to_line());
                break;
            }
        }
    }
    let mut rated = 0;
    for line in &lines {
        let g = grid_of(line);
        let n = dlx9().solve(&g, 2, 1).count;
        let r = rate(&g);
        if n != 1 {
            assert!(!r.solved, "{line}: {n} solutions, rated {r:?}");
            rated += 1;
        }
    }
    assert!(rated >= PUZZLES.len(), "{rated}");
}

#[test]
fn every_technique_is_in_one_group_or_found_by_name_only() {
    // the techniques SE does not use by default: next_step never takes them
    let by_name = [
        T::FinnedXWing,
        T::FinnedSwordfish,
        T::FinnedJellyfish,
        T::WWing,
        T::ColourTrap,
        T::ColourWrap,
        T::FourStrongLinks,
        T::UVWXYZWing,
    ];
    for t in T::ALL {
        let n = ORDER.iter().filter(|g| g.contains(t)).count();
        let want = usize::from(!by_name.contains(t));
        assert_eq!(n, want, "{t} in {n} groups");
    }
    // the groups' least ratings never go down along the order: what is
    // out of rating order is inside the groups' ranges (a 5.0 unique loop
    // before a 5.0 naked quad, a 7.9 chain before a 7.5 aligned triplet
    // exclusion), as in SE
    let first: Vec<f64> = ORDER
        .iter()
        .map(|g| {
            g.iter()
                .map(|t| t.se_rating())
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    assert!(first.windows(2).all(|w| w[0] <= w[1]), "{first:?}");
}

#[test]
fn next_step_is_the_easiest() {
    // On every position, next_step takes the easiest step of the first of
    // SE's producers (ORDER) that has one: no technique of an earlier group
    // finds a step, none of its own group an easier one. (Nested forcing
    // chains are left out: they take seconds.)
    for &(t, values, removed) in POSITIONS {
        let b = board(values, removed);
        let best = next_step(&b).unwrap_or_else(|| panic!("{t}: no step"));
        let g = ORDER
            .iter()
            .position(|group| group.contains(&best.technique))
            .unwrap_or_else(|| panic!("{t}: next_step took {}, in no group", best.technique));
        for (i, group) in ORDER.iter().enumerate().take(g + 1) {
            for &u in group.iter() {
                if is_nested(u) {
                    continue;
                }
                let Some(s) = find(&b, u).filter(|s| s.is_productive()) else {
                    continue;
                };
                assert_eq!(s.technique, u);
                assert!(
                    i == g && best.rating() <= s.rating() + 1e-9,
                    "position of {t}: next_step gives {} {}, but {} finds {}",
                    best.rating(),
                    best.technique,
                    u,
                    s.rating()
                );
            }
        }
    }
}

#[test]
fn nothing_applies_where_every_candidate_is_in_a_solution() {
    // Boards with several solutions whose candidates are exactly the digits
    // of some solution: no sound technique can remove one, and with no cell
    // or unit down to one candidate nothing can be placed either.
    let boards = [
        ".".repeat(81),
        "......2..9......7424...........91.....2......4.5..3...3.......7...9........4.862.".into(),
        "....2......73.186.3......4....5127............73..6...73......4.4.....9.....8....".into(),
        "7...4..8...3.59......8.1..3...524..1.........4.......75...3.............2...8....".into(),
    ];
    let us = units();
    for values in &boards {
        let b = live_board(values);
        // no cell or unit is forced
        for c in 0..81 {
            assert!(
                b.value(c) != 0 || b.cands(c).count_ones() >= 2,
                "{values}: cell {c}"
            );
        }
        for u in &us {
            for d in 1..=9u8 {
                let placed = u.iter().any(|&c| b.value(c) == d);
                let n = u.iter().filter(|&&c| b.has(c, d)).count();
                assert!(placed || n >= 2, "{values}: {d} forced in a unit");
            }
        }
        for &t in T::ALL {
            if uses_uniqueness(t) || is_nested(t) {
                continue; // nested: see the ignored test below
            }
            if let Some(s) = find(&b, t) {
                panic!(
                    "{t} applies to {values}, where nothing can: {}",
                    s.description
                );
            }
        }
    }
}

#[test]
#[ignore = "slow: nested forcing chains on open boards take seconds each"]
fn nested_forcing_chains_find_nothing_where_every_candidate_is_in_a_solution() {
    for values in [
        "......2..9......7424...........91.....2......4.5..3...3.......7...9........4.862.",
        "7...4..8...3.59......8.1..3...524..1.........4.......75...3.............2...8....",
    ] {
        let b = live_board(values);
        for t in [
            T::NestedForcingChain,
            T::NestedMultipleForcingChain,
            T::NestedDynamicForcingChain,
        ] {
            assert!(find(&b, t).is_none(), "{t}: {values}");
        }
    }
}

/// The nested forcing chains (levels 2 and 3, and the dynamic one), which
/// take seconds on some boards.
fn is_nested(t: T) -> bool {
    matches!(
        t,
        T::NestedForcingChain | T::NestedMultipleForcingChain | T::NestedDynamicForcingChain
    )
}

#[test]
fn uniqueness_techniques_need_their_pattern() {
    // Without a cell of two candidates there is no unique rectangle or BUG.
    for values in [
        ".".repeat(81),
        "......2..9......7424...........91.....2......4.5..3...3.......7...9........4.862."
            .to_string(),
    ] {
        let b = live_board(&values);
        assert!((0..81).all(|c| b.cands(c).count_ones() != 2), "{values}");
        for &t in T::ALL.iter().filter(|&&t| uses_uniqueness(t)) {
            assert!(find(&b, t).is_none(), "{t} on {values}");
        }
    }
    // A grid with two solutions, the four cells where they differ empty:
    // logic cannot tell them apart, and must not pretend to.
    assert_eq!(dlx9().solve(&grid_of(TWO_SOLUTIONS), 3, 0).count, 2);
    let r = rate(&grid_of(TWO_SOLUTIONS));
    assert!(!r.solved, "{r:?}");
    let b = MarkedGrid::from_line(TWO_SOLUTIONS).unwrap();
    assert!(next_step(&b).is_none());
}

#[test]
fn crafted_x_wing() {
    // 5 lies in rows 2 and 7 only in columns 4 and 7: it leaves the rest of
    // those columns.
    let mut cands = [0x1ffu16; 81];
    for r in [1, 6] {
        for c in 0..9 {
            if c != 3 && c != 6 {
                cands[r * 9 + c] &= !(1 << 4);
            }
        }
    }
    let b = MarkedGrid::from_parts([0; 81], cands);
    let s = find(&b, T::XWing).expect("an X-Wing");
    let want: Vec<(usize, u8)> = (0..81)
        .filter(|&c| (c % 9 == 3 || c % 9 == 6) && c / 9 != 1 && c / 9 != 6)
        .map(|c| (c, 5))
        .collect();
    assert_eq!(elim_set(&s), want);
    assert_eq!(s.digits, vec![5]);
    // Columns 4 and 8 in row 7 instead: no X-Wing.
    cands[6 * 9 + 6] &= !(1 << 4);
    cands[6 * 9 + 7] |= 1 << 4;
    let b = MarkedGrid::from_parts([0; 81], cands);
    assert!(find(&b, T::XWing).is_none());
}

#[test]
fn crafted_naked_pair() {
    let b = open_board(&[("r1c1", &[1, 2]), ("r1c2", &[1, 2])]);
    let s = find(&b, T::NakedPair).expect("a naked pair");
    // row 1 comes first; box 1 would do as well
    let row: Vec<(usize, u8)> = (2..9).flat_map(|c| [(c, 1), (c, 2)]).collect();
    let mut row = row;
    row.sort_unstable();
    let bx: Vec<(usize, u8)> = [2, 9, 10, 11, 18, 19, 20]
        .iter()
        .flat_map(|&c| [(c, 1), (c, 2)])
        .collect();
    let mut bx = bx;
    bx.sort_unstable();
    let got = elim_set(&s);
    assert!(got == row || got == bx, "{got:?}");
    let b = open_board(&[("r1c1", &[1, 2]), ("r1c2", &[1, 3])]);
    assert!(find(&b, T::NakedPair).is_none());
}

#[test]
fn crafted_xy_wing() {
    // pivot r1c1 1/2, wings r1c5 1/3 and r5c1 2/3: 3 leaves r5c5, the only
    // other cell that sees both wings.
    let b = open_board(&[("r1c1", &[1, 2]), ("r1c5", &[1, 3]), ("r5c1", &[2, 3])]);
    let s = find(&b, T::XYWing).expect("an XY-Wing");
    assert_eq!(elim_set(&s), vec![(cell_of("r5c5"), 3)]);
    let b = open_board(&[("r1c1", &[1, 2]), ("r1c5", &[1, 3]), ("r5c1", &[2, 4])]);
    assert!(find(&b, T::XYWing).is_none());
}

#[test]
fn crafted_unique_rectangle() {
    // Three corners 1/2 and the fourth 1/2/3, on two boxes: the fourth is 3.
    let b = open_board(&[
        ("r1c1", &[1, 2]),
        ("r1c2", &[1, 2]),
        ("r4c1", &[1, 2]),
        ("r4c2", &[1, 2, 3]),
    ]);
    let s = find(&b, T::UniqueRectangle1).expect("a unique rectangle");
    assert_eq!(
        elim_set(&s),
        vec![(cell_of("r4c2"), 1), (cell_of("r4c2"), 2)]
    );
    // On four boxes the digits cannot swap (each box would lose one): no
    // deadly pattern.
    let b = open_board(&[
        ("r1c1", &[1, 2]),
        ("r1c4", &[1, 2]),
        ("r4c1", &[1, 2]),
        ("r4c4", &[1, 2, 3]),
    ]);
    assert!(find(&b, T::UniqueRectangle1).is_none());
}

#[test]
fn basic_techniques_match_a_brute_force_search() {
    // On every board of many solving paths, each basic technique finds a step
    // exactly when a brute-force search over units, subsets and lines does.
    let start = Instant::now();
    let mut boards: Vec<MarkedGrid> = Vec::new();
    for &(t, values, removed) in POSITIONS {
        if t.se_rating() < 6.0 {
            let b = board(values, removed);
            boards.extend(solve_checked(&b, &solution(values), t.name()));
        }
    }
    for p in PUZZLES {
        boards.extend(solve_checked(
            &MarkedGrid::from_line(p).unwrap(),
            &solution(p),
            p,
        ));
    }
    if let Some(cal) = calibration() {
        for (id, p, _) in every(&cal, 25) {
            let p = line_of(&p);
            boards.extend(solve_checked(
                &MarkedGrid::from_line(&p).unwrap(),
                &solution(&p),
                &id,
            ));
        }
    }
    let mut hits = std::collections::BTreeMap::new();
    for b in &boards {
        for &t in T::ALL {
            let Some(want) = brute(b, t) else { continue };
            let got = find(b, t).is_some_and(|s| s.is_productive());
            assert_eq!(got, want, "{t}: find says {got}, brute force {want}\n{b}");
            *hits.entry(t).or_insert(0) += want as usize;
        }
    }
    // the comparison saw each technique apply
    for (t, n) in &hits {
        assert!(*n > 0, "{t} never applied on {} boards", boards.len());
    }
    eprintln!(
        "{} boards compared in {:.2} s",
        boards.len(),
        start.elapsed().as_secs_f64()
    );
}

// ------------------------------------------------------------ soundness

#[test]
fn solving_paths_are_sound() {
    let start = Instant::now();
    for p in PUZZLES {
        solve_checked(&MarkedGrid::from_line(p).unwrap(), &solution(p), p);
    }
    let Some(cal) = calibration() else {
        return;
    };
    let mut steps = 0;
    for (id, p, _) in every(&cal, 200) {
        let p = line_of(&p);
        steps += solve_checked(&MarkedGrid::from_line(&p).unwrap(), &solution(&p), &id).len();
    }
    eprintln!(
        "200 calibration puzzles, {steps} steps checked in {:.2} s",
        start.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore = "solves all 19,859 calibration puzzles step by step: a minute or more"]
fn solving_paths_are_sound_on_the_whole_set() {
    let Some(cal) = calibration() else {
        return;
    };
    let start = Instant::now();
    let steps: usize = on_all_cores(&cal, |id, p| {
        let p = line_of(p);
        solve_checked(&MarkedGrid::from_line(&p).unwrap(), &solution(&p), id).len()
    })
    .into_iter()
    .sum();
    println!(
        "{} puzzles, {steps} steps checked in {:.1} s",
        cal.len(),
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn hints_are_sound_and_say_what_they_are() {
    for p in PUZZLES {
        let b = MarkedGrid::from_line(p).unwrap();
        let s = next_step(&b).unwrap();
        sound(&b, &s, &solution(p)).unwrap();
        assert!(!s.description.trim().is_empty());
        explained(&s).unwrap();
        let shown = s.to_string();
        assert!(shown.starts_with(&format!("{:.1} ", s.rating())), "{shown}");
    }
    // the first hint of an easy puzzle is a single: it places a digit
    let b = MarkedGrid::from_line(PUZZLES[0]).unwrap();
    let s = next_step(&b).unwrap();
    assert!(
        s.technique.se_rating() <= 2.3 && s.placements.len() == 1,
        "{s:?}"
    );
    // a full grid has no hint
    let full = MarkedGrid::from_line(
        &solution(PUZZLES[0])
            .map(|d| (b'0' + d) as char)
            .iter()
            .collect::<String>(),
    )
    .unwrap();
    assert!(full.is_solved());
    assert!(next_step(&full).is_none());
}

// --------------------------------------------------------------- ratings

/// Ranks from 1, ties sharing their average rank.
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].partial_cmp(&v[b]).unwrap());
    let mut r = vec![0.0; v.len()];
    // the number of values below this run of ties
    let mut below = 0;
    for ties in idx.chunk_by(|&a, &b| v[a] == v[b]) {
        let avg = below as f64 + (ties.len() as f64 + 1.0) / 2.0;
        for &k in ties {
            r[k] = avg;
        }
        below += ties.len();
    }
    r
}

fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

fn spearman(a: &[f64], b: &[f64]) -> f64 {
    pearson(&ranks(a), &ranks(b))
}

#[test]
fn spearman_itself() {
    assert_eq!(ranks(&[3.0, 1.0, 2.0, 1.0]), vec![4.0, 1.5, 3.0, 1.5]);
    assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 35.0]) - 1.0).abs() < 1e-12);
    assert!((spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
    // 1 - 6 * sum(d^2) / (n (n^2 - 1)) without ties: d = (0, 1, 1, 0, 0) -> 0.9
    let r = spearman(&[1.0, 2.0, 3.0, 4.0, 5.0], &[1.0, 3.0, 2.0, 4.0, 5.0]);
    assert!((r - 0.9).abs() < 1e-12, "{r}");
}

/// Rates puzzles on all cores: `(ours, SE)`.
fn rate_all(sample: &[(String, String, f64)]) -> (Vec<f64>, Vec<f64>) {
    let ours = on_all_cores(sample, |id, p| {
        let r = rate(&grid_of(p));
        assert!(r.solved, "{id} not solved by logic");
        r.se
    });
    (ours, sample.iter().map(|x| x.2).collect())
}

#[test]
fn ratings_follow_sudoku_explainer() {
    let Some(cal) = calibration() else {
        return;
    };
    let start = Instant::now();
    let sample = every(&cal, 300);
    let (ours, se) = rate_all(&sample);
    let rho = spearman(&ours, &se);
    eprintln!(
        "Spearman {rho:.3} on {} calibration puzzles ({:.2} s)",
        sample.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(rho >= 0.8, "Spearman {rho:.3}");
}

/// `rate_at_most(g, max)` gives up exactly on the puzzles that `rate` finds
/// harder than `max` (or cannot finish), and otherwise gives `rate`'s answer.
#[test]
fn capped_rating_agrees_with_the_full_one() {
    for p in PUZZLES.iter().chain([&TWO_SOLUTIONS]) {
        let g = grid_of(p);
        let full = rate(&g);
        for max in [1.5, 2.3, 2.6, 3.4, 4.2, 4.6, 5.5, 6.9, 7.5, 9.0, 12.0] {
            let capped = rate_at_most(&g, max);
            if full.solved && full.se <= max + 1e-9 {
                assert_eq!(capped.as_ref(), Some(&full), "{p} at most {max}");
            } else {
                assert!(
                    capped.is_none(),
                    "{p} at most {max}: {capped:?}, full {full:?}"
                );
            }
        }
    }
}

/// The goals of the ratings, on both calibration sets together (SE's
/// numbers from SukakuExplainer's serate): identical for 90% or more,
/// within 0.2 for 97%, the same level for 97%, Spearman 0.97 or more; and
/// on the hard set alone no worse than before these goals (77.7% identical,
/// Spearman 0.966). Measured: 99.1%, 100.0%, 100.0%, 0.9996; hard set
/// 99.0% and 0.9994 (`examples/se_agreement.rs` prints them).
#[test]
fn ratings_follow_sudoku_explainer_on_both_whole_sets() {
    let start = Instant::now();
    let mut all_ours = Vec::new();
    let mut all_se = Vec::new();
    for name in [
        "se_rated_17clue_calibration.txt",
        "se_rated_calibration.txt",
    ] {
        let Some(cal) = calibration_file(name) else {
            return;
        };
        let (ours, se) = rate_all(&cal);
        let share = |f: &dyn Fn(f64, f64) -> bool| {
            100.0 * ours.iter().zip(&se).filter(|(a, b)| f(**a, **b)).count() as f64
                / ours.len() as f64
        };
        let exact = share(&|a, b| (a - b).abs() < 0.05);
        let rho = spearman(&ours, &se);
        eprintln!(
            "{name}: {} puzzles, {exact:.1}% identical, Spearman {rho:.4}",
            ours.len()
        );
        if name == "se_rated_calibration.txt" {
            assert!(
                exact >= 77.7 && rho >= 0.966,
                "{name}: {exact:.1}%, {rho:.4}"
            );
        }
        all_ours.extend(ours);
        all_se.extend(se);
    }
    let (ours, se) = (all_ours, all_se);
    let share = |f: &dyn Fn(f64, f64) -> bool| {
        100.0 * ours.iter().zip(&se).filter(|(a, b)| f(**a, **b)).count() as f64 / ours.len() as f64
    };
    let exact = share(&|a, b| (a - b).abs() < 0.05);
    let near = share(&|a, b| (a - b).abs() < 0.25);
    let level = share(&|a, b| Level::of(a) == Level::of(b));
    let rho = spearman(&ours, &se);
    eprintln!(
        "together: {} puzzles, {exact:.1}% identical, {near:.1}% within 0.2, {level:.1}% same \
         level, Spearman {rho:.4} ({:.1} s)",
        ours.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(exact >= 90.0, "identical {exact:.1}%");
    assert!(near >= 97.0, "within 0.2 {near:.1}%");
    assert!(level >= 97.0, "same level {level:.1}%");
    assert!(rho >= 0.97, "Spearman {rho:.4}");
}

/// The extreme end: puzzles of forum_hardest_1905_11plus rated by serate
/// at 2b1d7be, SE 10.9 to 11.3: `se_rated_extreme_calibration.txt` of
/// `../shared` (every 800th line from 400) and the second sample in
/// `tests/data/se_rated_extreme_more.txt` (every 800th from 800, rated
/// here as serate got through them). The goal (issue 35) is SE's rating
/// identical for 90% and within 0.1 for 98%. With SE's nested levels 2
/// and 3 (docs/dev/se-extreme-ratings.md), SE's locking scan order in
/// them and the player's cell order in level 3's inner rule, 104 of the 112
/// are identical and all within 0.1: the others are
/// 0.1 off, chain details that still differ (the gap list of that note).
/// What is asserted
/// is what holds, so that it cannot get worse unnoticed: every puzzle
/// solved by logic, none more than 0.1 from SE, and the identical share no
/// lower than now.
#[test]
fn extreme_ratings_against_sudoku_explainer() {
    let Some(mut cal) = calibration_file("se_rated_extreme_calibration.txt") else {
        return;
    };
    let more = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/se_rated_extreme_more.txt"
    );
    for (id, p, se) in rating_lines(&std::fs::read_to_string(more).unwrap()) {
        cal.push((format!("more:{id}"), p, se));
    }
    let start = Instant::now();
    let (ours, se) = rate_all(&cal);
    let n = ours.len();
    let share = |f: &dyn Fn(f64, f64) -> bool| {
        100.0 * ours.iter().zip(&se).filter(|(a, b)| f(**a, **b)).count() as f64 / n as f64
    };
    let exact = share(&|a, b| (a - b).abs() < 0.05);
    let near = share(&|a, b| (a - b).abs() < 0.15);
    eprintln!(
        "extreme: {n} puzzles, {exact:.1}% identical, {near:.1}% within 0.1 (goals 90%, 98%), \
         {:.1} s",
        start.elapsed().as_secs_f64()
    );
    for ((id, _, s), o) in cal.iter().zip(&ours) {
        assert!(
            (*o - s).abs() < 0.15,
            "{id}: dancer {o}, SE {s}: more than 0.1 apart"
        );
    }
    assert!(exact >= 92.0, "identical {exact:.1}%");
    assert!(near >= 100.0 - 1e-9, "within 0.1 {near:.1}%");
}

#[test]
fn levels() {
    let cases = [
        (1.0, Level::Easy),
        (1.5, Level::Easy),
        (2.3, Level::Easy),
        (2.4, Level::Medium),
        (3.4, Level::Medium),
        (3.5, Level::Hard),
        (4.6, Level::Hard),
        (4.7, Level::Expert),
        (6.9, Level::Expert),
        (7.0, Level::Extreme),
        (11.5, Level::Extreme),
    ];
    for (se, l) in cases {
        assert_eq!(Level::of(se), l, "{se}");
    }
    // monotone
    let mut last = Level::Easy;
    for k in 0..=130 {
        let l = Level::of(k as f64 / 10.0);
        assert!(l >= last, "{k}");
        last = l;
    }
    // a rating computed as a sum of tenths lands on the right side
    assert_eq!(Level::of(2.0 + 0.1 + 0.1 + 0.1), Level::Easy);
    assert_eq!(Level::of(3.0 + 0.4), Level::Medium);
    // singles are easy, locked candidates medium, forcing chains extreme
    let levels: [(Level, &[T]); 5] = [
        (
            Level::Easy,
            &[
                T::FullHouse,
                T::HiddenSingleBox,
                T::HiddenSingleLine,
                T::NakedSingle,
            ],
        ),
        (
            Level::Medium,
            &[
                T::Pointing,
                T::Claiming,
                T::NakedPair,
                T::XWing,
                T::HiddenPair,
            ],
        ),
        (
            Level::Hard,
            &[
                T::NakedTriple,
                T::Swordfish,
                T::Skyscraper,
                T::XYWing,
                T::XYZWing,
                T::FinnedXWing,
                T::UniqueRectangle1,
            ],
        ),
        (
            Level::Expert,
            &[
                T::NakedQuad,
                T::Jellyfish,
                T::WXYZWing,
                T::BugPlusOne,
                T::XCycle,
                T::XChain,
            ],
        ),
        (
            Level::Extreme,
            &[
                T::XYChain,
                T::Aic,
                T::Nishio,
                T::CellForcingChain,
                T::NestedForcingChain,
                T::NestedMultipleForcingChain,
                T::NestedDynamicForcingChain,
            ],
        ),
    ];
    for (level, techniques) in levels {
        for t in techniques {
            assert_eq!(Level::of(t.se_rating()), level, "{t}");
        }
    }
}

#[test]
fn a_rating_is_its_hardest_step() {
    for p in PUZZLES {
        let mut seen: Vec<(f64, T)> = Vec::new();
        let r = rate_with(&grid_of(p), |_, s| seen.push((s.rating(), s.technique)));
        assert!(r.solved, "{p}");
        assert_eq!(r.steps, seen.len());
        let max = seen.iter().map(|x| x.0).fold(0.0, f64::max);
        assert_eq!(r.se, max, "{p}");
        let first_max = seen.iter().find(|x| x.0 == max).unwrap().1;
        assert_eq!(r.hardest, Some(first_max));
        assert_eq!(r.level, Level::of(r.se));
    }
    assert_eq!(rate(&grid_of(PUZZLES[0])).level, Level::Easy);
    // what logic cannot rate
    let r = rate(&Grid::empty(4));
    assert!(!r.solved);
    let mut bad = grid_of(PUZZLES[0]);
    bad.set(1, 3); // a second 3 in row 1
    assert!(!rate(&bad).solved);
}

// ------------------------------------------------------------ generator

/// Exactly one solution, by dancing links.
fn unique(rules: &Rules, g: &Grid) -> bool {
    Solver::new(rules, SudokuEngine::Dlx)
        .unwrap()
        .solve(g, 2, 0)
        .count
        == 1
}

/// Every given matters: without any one of them, a second solution appears.
fn minimal(rules: &Rules, g: &Grid) -> bool {
    (0..g.cells().len()).filter(|&c| g.get(c) != 0).all(|c| {
        let mut t = g.clone();
        t.set(c, 0);
        !unique(rules, &t)
    })
}

/// The pattern of givens has the symmetry (checked cell by cell here).
fn symmetric(sym: GivensSymmetry, g: &Grid) -> bool {
    let n = g.size();
    let m = n - 1;
    let filled = |r: usize, c: usize| g.get(r * n + c) != 0;
    (0..n).all(|r| {
        (0..n).all(|c| {
            let f = filled(r, c);
            match sym {
                GivensSymmetry::None => true,
                GivensSymmetry::Rotate180 => filled(m - r, m - c) == f,
                GivensSymmetry::Rotate90 => filled(c, m - r) == f,
                GivensSymmetry::Mirror => filled(r, m - c) == f,
                GivensSymmetry::Diagonal => filled(c, r) == f,
            }
        })
    })
}

#[test]
fn generated_puzzles_are_unique_minimal_and_symmetric() {
    let start = Instant::now();
    let syms = [
        GivensSymmetry::None,
        GivensSymmetry::Rotate180,
        GivensSymmetry::Rotate90,
        GivensSymmetry::Mirror,
        GivensSymmetry::Diagonal,
    ];
    let mut made = Vec::new();
    for size in [9, 4] {
        let rules = Rules::standard(size).unwrap();
        let per = if size == 9 { 4 } else { 2 };
        for (k, &sym) in syms.iter().enumerate() {
            let opts = GenerateOptions {
                rules: rules.clone(),
                symmetry: sym,
                minimal: true,
                attempts: 100_000,
            };
            for i in 0..per {
                let seed = 1000 * k as u64 + i;
                let p = generate(&opts, seed, |_| true)
                    .unwrap_or_else(|| panic!("{size}x{size} {sym} seed {seed}"));
                assert_eq!(p.rules.size(), size);
                assert!(unique(&rules, &p.givens), "{}", p.to_line());
                assert!(minimal(&rules, &p.givens), "not minimal: {}", p.to_line());
                assert!(symmetric(sym, &p.givens), "not {sym}: {}", p.to_line());
                // the givens are those of the solution
                let sol = Solver::new(&rules, SudokuEngine::Dlx)
                    .unwrap()
                    .solve(&p.givens, 1, 1);
                for c in 0..size * size {
                    let g = p.givens.get(c);
                    assert!(g == 0 || g == sol.solutions[0].get(c));
                }
                // reproducible from the seed
                assert_eq!(generate(&opts, seed, |_| true).unwrap(), p);
                made.push(p.to_line());
            }
        }
    }
    // different seeds, different puzzles
    let mut distinct = made.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), made.len());
    eprintln!(
        "{} puzzles made and checked in {:.2} s",
        made.len(),
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn generated_puzzles_of_a_level() {
    let rules = Rules::standard(9).unwrap();
    let opts = GenerateOptions {
        rules: rules.clone(),
        symmetry: GivensSymmetry::Rotate180,
        minimal: true,
        attempts: 100_000,
    };
    for (level, seed) in [
        (Level::Easy, 1),
        (Level::Medium, 2),
        (Level::Hard, 3),
        (Level::Expert, 4),
    ] {
        let p = generate(&opts, seed, |p| {
            let r = rate(&p.givens);
            r.solved && r.level == level
        })
        .unwrap_or_else(|| panic!("no {level:?} puzzle"));
        assert!(unique(&rules, &p.givens));
        assert!(minimal(&rules, &p.givens));
        assert!(symmetric(GivensSymmetry::Rotate180, &p.givens));
        // solved by logic with every step sound, at the level asked
        let line = p.to_line();
        let sol = solution(&line);
        let boards = solve_checked(&MarkedGrid::from_line(&line).unwrap(), &sol, &line);
        let hardest = boards
            .iter()
            .map(|b| next_step(b).unwrap().rating())
            .fold(0.0, f64::max);
        assert_eq!(Level::of(hardest), level, "{line}: hardest step {hardest}");
    }
}

// ----------------------------------------------------------------- play

#[test]
fn play_a_game() {
    let (_, values, _) = POSITIONS.iter().find(|p| p.0 == T::Pointing).unwrap();
    let p = Puzzle::parse_line(values, None).unwrap();
    let sol = solution(values);
    let mut g = Game::new(&p).unwrap();
    assert_eq!(g.size(), 9);

    // candidates: the digits not yet in the cell's row, column or box
    let us = units();
    let cand = g.candidates();
    for c in 0..81 {
        let want: u32 = if p.givens.get(c) != 0 {
            0
        } else {
            (1..=9u8)
                .filter(|&d| {
                    !us.iter()
                        .filter(|u| u.contains(&c))
                        .any(|u| u.iter().any(|&x| p.givens.get(x) == d))
                })
                .map(|d| 1u32 << (d - 1))
                .sum()
        };
        assert_eq!(cand[c], want, "cell {c}");
    }

    // the hint removes candidates; applied, the next hint goes on from there
    let b = MarkedGrid::from_line(values).unwrap();
    let h = g.hint().expect("a hint");
    sound(&b, &h, &sol).unwrap();
    assert!(!h.eliminations.is_empty(), "{h:?}");
    let saved_before = g.save();
    g.apply(&h);
    let h2 = g.hint().expect("another hint");
    for e in &h2.eliminations {
        assert!(!h.eliminations.contains(e), "{e:?} removed again");
    }
    // saved and restored, the game gives the same hint
    let back = Game::load(&g.save()).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.hint(), Some(h2.clone()));
    // undo the hint: back to the start (with the hint to redo)
    assert!(g.undo());
    let before = Game::load(&saved_before).unwrap();
    assert_eq!(g.grid(), before.grid());
    assert!((0..81).all(|c| g.marks(c) == before.marks(c)));
    assert!(g.can_redo() && !before.can_redo());
    assert_eq!(g.hint(), Some(h));
    assert!(!g.undo(), "nothing left to undo");

    // entries, checked against the solution
    let empty = (0..81).find(|&c| p.givens.get(c) == 0).unwrap();
    let given = (0..81).find(|&c| p.givens.get(c) != 0).unwrap();
    let wrong = if sol[empty] == 9 { 1 } else { sol[empty] + 1 };
    assert_eq!(g.set(empty, wrong), Ok(Check::Wrong));
    assert_eq!(g.mistakes(), vec![empty]);
    assert!(!g.is_solved());
    assert_eq!(g.set(empty, sol[empty]), Ok(Check::Right));
    assert!(g.mistakes().is_empty());
    assert!(g.undo());
    assert_eq!(g.check(empty), Check::Wrong);
    assert!(g.undo());
    assert_eq!(g.check(empty), Check::Empty);
    assert!(matches!(g.set(given, 1), Err(PlayError::Given(_))));
    assert_eq!(g.check(given), Check::Given);
    assert!(matches!(g.set(81, 1), Err(PlayError::NoSuchCell(81))));
    assert!(matches!(g.set(empty, 10), Err(PlayError::BadDigit(10))));

    // hints all the way
    let mut n = 0;
    while !g.is_solved() {
        let s = g.hint().expect("logic finishes this puzzle");
        g.apply(&s);
        assert!(g.mistakes().is_empty());
        n += 1;
        assert!(n < 200);
    }
    assert_eq!(g.grid().cells(), &sol[..]);
    assert_eq!(g.hint(), None);

    // a damaged save is refused
    let saved = g.save();
    assert!(Game::load(&saved).is_ok());
    assert!(Game::load("not json").is_err());
    assert!(Game::load(&saved.replacen("\"size\":9", "\"size\":8", 1)).is_err());
}

/// Ratings and step counts recorded before the forcing-chain searches were
/// made faster (per-digit sets, dirty places, the nested-chain table,
/// abandoned branches): the same steps must still be found. Dynamic plus
/// chains (9.0-9.1) and nested ones (9.5) among them; in the tests the
/// searches also check, at every use, that their incremental state matches
/// the assumed grid (a `debug_assert`).
#[test]
fn forcing_chain_ratings_are_unchanged() {
    // (puzzle, our rating, steps); SukakuExplainer's serate (2020-01 default
    // techniques) says 9.6, 9.5, 9.0, 8.9, 9.0, 8.4 and 8.5
    let cases = [
        (
            "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........",
            9.6,
            109,
        ),
        (
            "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
            9.6,
            107,
        ),
        (
            "3.7..4.2....1..8..9............3..9..5.8......4.6...........5.12...7..........6..",
            9.0,
            87,
        ),
        (
            "5..6.3....2....98.......1...1..9.......3....67.......4....8.25.4..7..............",
            9.0,
            117,
        ),
        (
            ".......71.2.8........5.3...7.9.6.......2..8..1.........3...25..6...1..4..........",
            9.1,
            108,
        ),
        (
            "..7..81....4..9.8.2...1....4.837..1...........1..863.4....4...6.3.7..5....68..7..",
            8.4,
            75,
        ),
        (
            ".84.97...6......27...3..8....8..9.3.4.9.3.6.8.7.5..2....7..2...94......2...45.97.",
            8.5,
            81,
        ),
    ];
    for (line, se, steps) in cases {
        let g = grid_of(line);
        let r = rate(&g);
        assert!(r.solved, "{line}");
        assert_eq!(
            (format!("{:.1}", r.se), r.steps),
            (format!("{se:.1}"), steps),
            "{line}"
        );
        assert_eq!(r.stopped, None);
        // every step sound against the solution dancing links finds
        let sol = solution(line);
        let mut bad = Vec::new();
        rate_with(&g, |b, s| {
            if let Err(e) = sound(b, s, &sol) {
                bad.push(e);
            }
        });
        assert!(bad.is_empty(), "{line}: {bad:?}");
    }
}

/// The first puzzle of forum_hardest_1905_11plus: nested forcing chains
/// from its first step.
const HARDEST: &str =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

/// A budget stops a rating with what it knows: the steps so far, and the
/// least rating of the step it was looking for.
#[test]
fn a_rating_stops_within_its_budget() {
    let g = grid_of(HARDEST);
    let r = rate_within(
        &g,
        &Budget::timeout(std::time::Duration::from_millis(10)),
        |_, _| {},
    );
    let stopped = r.stopped.expect("10 ms is not enough for this one");
    assert_eq!(stopped.why, Halt::Timeout);
    assert!(!r.solved);
    assert!(r.at_least() >= r.se && r.at_least() >= stopped.at_least);
    assert_eq!(r.level, Level::of(r.at_least()));

    // a flag already set: nothing is tried
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let r = rate_within(
        &g,
        &Budget::unlimited().with_cancel(flag.clone()),
        |_, _| {},
    );
    assert_eq!(r.stopped.map(|s| s.why), Some(Halt::Interrupted));
    assert_eq!(r.steps, 0);
    let b = MarkedGrid::from_grid(&g);
    assert!(matches!(
        next_step_within(&b, &Budget::unlimited().with_cancel(flag)),
        Err(s) if s.why == Halt::Interrupted
    ));

    // a budget that is enough changes nothing
    let easy = grid_of(
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    );
    let long = Budget::timeout(std::time::Duration::from_secs(3600));
    assert_eq!(rate_within(&easy, &long, |_, _| {}), rate(&easy));
    assert_eq!(
        next_step_within(&MarkedGrid::from_grid(&easy), &long),
        Ok(next_step(&MarkedGrid::from_grid(&easy)))
    );
}
