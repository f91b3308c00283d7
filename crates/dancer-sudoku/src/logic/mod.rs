//! Human-style logical solving of standard 9x9 Sudoku, with ratings on the
//! Sudoku Explainer (SE) scale.
//!
//! * [`MarkedGrid`]: the grid with its pencil marks (candidates);
//! * one function per technique, each finding one [`Step`] (see
//!   [`Technique`] for the list and [`find`] to call one by name);
//! * [`next_step`]: the step Sudoku Explainer would take next (see *Order*
//!   below), and [`apply`];
//! * [`rate`]: solves by always taking that step and reports the hardest
//!   one, as SE does.
//!
//! ```
//! use dancer_sudoku::logic::{rate, MarkedGrid, next_step, Level};
//! use dancer_sudoku::Puzzle;
//! let p = Puzzle::parse_line(
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//!     None,
//! ).unwrap();
//! let r = rate(&p.givens);
//! assert!(r.solved);
//! assert_eq!(r.level, Level::Easy);
//! let step = next_step(&MarkedGrid::from_grid(&p.givens)).unwrap();
//! println!("{}", step.description);
//! ```
//!
//! ## Ratings
//!
//! The values are those of SukakuExplainer's `serate` (the SE fork the
//! calibration sets were rated with; its default techniques of early
//! 2020): full house 1.0, hidden single 1.2 (box) / 1.5 (line), direct
//! pointing 1.7, direct claiming 1.9, direct hidden pair 2.0, naked single
//! 2.3, direct hidden triple 2.5, pointing 2.6, claiming 2.8, naked pair
//! 3.0, X-Wing 3.2, hidden pair 3.4, naked triple 3.6, swordfish 3.8,
//! hidden triple 4.0, two strong links 4.0-4.3 (skyscraper, kite, turbot
//! fish, grouped), XY-Wing 4.2, XYZ-Wing 4.4, unique rectangles and loops
//! 4.5 and up, naked quad 5.0, jellyfish 5.2, hidden quad 5.4, three strong
//! links 5.4-5.7, WXYZ-Wing 5.5-5.6, BUG 5.6 and up, VWXYZ-Wing 6.2-6.4,
//! aligned pair exclusion 6.2, X- and Y-cycles 6.5+, X-chains 6.6+,
//! XY-chains, AICs and loops 7.0+, aligned triplet exclusion 7.5, Nishio
//! 7.5+, cell/digit/double/contradiction forcing chains 8.0+, their dynamic
//! forms 8.5+, dynamic plus 9.0+, nested 9.5+. Chains add
//! [`length_increment`] for their length.
//!
//! ## Order
//!
//! SE does not take the lowest-rated step: it runs its hint producers in a
//! fixed order and takes the easiest hint of the first one that has any
//! (see `groups`). So does [`next_step`], which is what makes a rating
//! SE's: the path decides which hard steps are needed. Techniques SE does
//! not use by default (finned fish, W-Wing, colouring, four strong links,
//! UVWXYZ-Wing) are still here to be called by name ([`find`]) but never
//! taken by [`next_step`].
//!
//! ## Invariance
//!
//! A rating, a level and a hint do not depend on how the puzzle is written:
//! [`rate`] and [`next_step`] search the canonical form of the grid (see
//! [`crate::canon`]) and give the step back in the player's cells and
//! digits, its words written with the player's names (the search runs
//! under `board::with_names`, so every name a step prints goes through
//! [`cell_name`], [`unit_name`], [`digits_name`] and [`digit_name`]).
//! Where two steps tie, the canonical form decides, the same way for every
//! form. (SE itself takes the first hint in its own scan order, so two
//! forms of one puzzle can rate differently there; they cannot here.)

#![allow(clippy::needless_range_loop)] // unit and peer tables are walked by index
mod aligned;
mod basic;
mod board;
mod chains;
mod forcing;
mod links;
mod step;
mod unique;
mod wings;

pub use aligned::{aligned_pair_exclusion, aligned_triplet_exclusion};
pub use basic::{
    claiming, direct_claiming, direct_hidden_pair, direct_hidden_triple, direct_pointing,
    finned_jellyfish, finned_swordfish, finned_x_wing, full_house, hidden_pair, hidden_quad,
    hidden_single_box, hidden_single_line, hidden_triple, jellyfish, naked_pair, naked_quad,
    naked_single, naked_triple, pointing, swordfish, x_wing,
};
pub use board::{
    bit, box_of, cell_name, cells_of, col_of, digit_name, digits_name, digits_of, row_of, sees,
    unit_name, Cells, Digits, MarkedGrid, ALL_DIGITS, CELL_UNITS, PEERS, PEER_MASK, UNITS,
    UNIT_MASK,
};
pub use chains::{aic, continuous_loop, x_chain, x_cycle, xy_chain, y_cycle};
pub use forcing::{
    cell_forcing_chain, contradiction_forcing_chain, digit_forcing_chain, double_forcing_chain,
    dynamic_cell_forcing_chain, dynamic_contradiction_forcing_chain, dynamic_digit_forcing_chain,
    dynamic_double_forcing_chain, dynamic_forcing_chain_plus, nested_dynamic_forcing_chain,
    nested_forcing_chain, nested_multiple_forcing_chain, nishio,
};
pub use links::{
    colour_trap, colour_wrap, empty_rectangle, four_strong_links, skyscraper, three_strong_links,
    turbot_fish, two_string_kite,
};
pub use step::{length_increment, Step, Technique};
pub use unique::{
    bug_plus_one, bug_type_2, bug_type_3, bug_type_4, unique_loop_1, unique_loop_2, unique_loop_3,
    unique_loop_4, unique_rectangle_1, unique_rectangle_2, unique_rectangle_3, unique_rectangle_4,
};
pub use wings::{als_wing, uvwxyz_wing, vwxyz_wing, w_wing, wxyz_wing, xy_wing, xyz_wing};

pub use crate::budget::{Budget, Halt};
use crate::grid::Grid;
use forcing::Kind;

/// A technique search: the board, the rating a step must stay below, and
/// the budget (only the long searches look at it).
type Finder = fn(&MarkedGrid, f64, &Budget) -> Option<Step>;

/// The searches of [`next_step`], by the lowest rating each can return.
struct Entry {
    floor: f64,
    find: Finder,
}

macro_rules! plain {
    ($f:path) => {{
        fn w(b: &MarkedGrid, _limit: f64, _budget: &Budget) -> Option<Step> {
            $f(b)
        }
        w as Finder
    }};
}

/// The searches of [`next_step`], grouped as Sudoku Explainer's hint
/// producers, in the order SE runs them. SE takes a hint from the first
/// producer that has one, the easiest of that producer's hints; so does
/// [`next_step`]. The order is not quite that of the ratings (a 6.6 chain
/// comes before a 7.5 aligned triplet exclusion, but a 4.5 unique
/// rectangle before a 5.0 naked quad), and following it is what makes the
/// ratings SE's.
fn groups() -> &'static [Vec<Entry>] {
    use std::sync::OnceLock;
    static G: OnceLock<Vec<Vec<Entry>>> = OnceLock::new();
    G.get_or_init(|| {
        let e = |t: Technique, find: Finder| Entry {
            floor: t.se_rating(),
            find,
        };
        use Technique as T;
        vec![
            vec![
                e(T::FullHouse, plain!(full_house)),
                e(T::HiddenSingleBox, plain!(hidden_single_box)),
                e(T::HiddenSingleLine, plain!(hidden_single_line)),
            ],
            vec![
                e(T::DirectPointing, plain!(direct_pointing)),
                e(T::DirectClaiming, plain!(direct_claiming)),
            ],
            vec![e(T::DirectHiddenPair, plain!(direct_hidden_pair))],
            vec![e(T::NakedSingle, plain!(naked_single))],
            vec![e(T::DirectHiddenTriple, plain!(direct_hidden_triple))],
            vec![
                e(T::Pointing, plain!(pointing)),
                e(T::Claiming, plain!(claiming)),
            ],
            vec![e(T::NakedPair, plain!(naked_pair))],
            vec![e(T::XWing, plain!(x_wing))],
            vec![e(T::HiddenPair, plain!(hidden_pair))],
            vec![e(T::NakedTriple, plain!(naked_triple))],
            vec![e(T::Swordfish, plain!(swordfish))],
            vec![e(T::HiddenTriple, plain!(hidden_triple))],
            vec![e(T::Skyscraper, |b, _, _| {
                links::strong_links_producer(b, 2)
            })],
            vec![e(T::XYWing, plain!(xy_wing))],
            vec![e(T::XYZWing, plain!(xyz_wing))],
            vec![e(T::UniqueRectangle1, |b, _, _| unique::unique_loops(b))],
            vec![e(T::NakedQuad, plain!(naked_quad))],
            vec![e(T::Jellyfish, plain!(jellyfish))],
            vec![e(T::HiddenQuad, plain!(hidden_quad))],
            vec![e(T::ThreeStrongLinks, |b, _, _| {
                links::strong_links_producer(b, 3)
            })],
            vec![e(T::WXYZWing, plain!(wxyz_wing))],
            vec![e(T::BugPlusOne, |b, _, _| unique::bugs(b))],
            vec![e(T::VWXYZWing, plain!(vwxyz_wing))],
            vec![e(T::AlignedPairExclusion, plain!(aligned_pair_exclusion))],
            vec![e(T::XCycle, |b, l, _| chains::chain_producer(b, l))],
            vec![e(
                T::AlignedTripletExclusion,
                plain!(aligned_triplet_exclusion),
            )],
            vec![e(T::Nishio, |b, l, budget| {
                forcing::forcing(b, Kind::Nishio, l, budget)
            })],
            vec![e(T::CellForcingChain, |b, l, budget| {
                forcing::forcing(b, Kind::Static, l, budget)
            })],
            vec![e(T::DynamicCellForcingChain, |b, l, budget| {
                forcing::forcing(b, Kind::Dynamic, l, budget)
            })],
            vec![e(T::DynamicForcingChainPlus, |b, l, budget| {
                forcing::forcing(b, Kind::Plus, l, budget)
            })],
            vec![e(T::NestedForcingChain, |b, l, budget| {
                forcing::forcing(b, Kind::Level2, l, budget)
            })],
            vec![e(T::NestedMultipleForcingChain, |b, l, budget| {
                forcing::forcing(b, Kind::Level3, l, budget)
            })],
            vec![e(T::NestedDynamicForcingChain, |b, l, budget| {
                forcing::forcing(b, Kind::Nested, l, budget)
            })],
        ]
    })
}

/// Sudoku Explainer's hint producers in the order [`next_step`] runs them,
/// each as the techniques whose steps it gives: the step taken is the
/// easiest of the first group that has one. Techniques in no group
/// (finned fish, W-Wing, colouring, four strong links, UVWXYZ-Wing: not in
/// SE's default set) are only found by name, with [`find`].
pub const ORDER: &[&[Technique]] = {
    use Technique::*;
    &[
        &[FullHouse, HiddenSingleBox, HiddenSingleLine],
        &[DirectPointing, DirectClaiming],
        &[DirectHiddenPair],
        &[NakedSingle],
        &[DirectHiddenTriple],
        &[Pointing, Claiming],
        &[NakedPair],
        &[XWing],
        &[HiddenPair],
        &[NakedTriple],
        &[Swordfish],
        &[HiddenTriple],
        &[Skyscraper, TwoStringKite, TurbotFish, EmptyRectangle],
        &[XYWing],
        &[XYZWing],
        &[
            UniqueRectangle1,
            UniqueRectangle2,
            UniqueRectangle3,
            UniqueRectangle4,
            UniqueLoop1,
            UniqueLoop2,
            UniqueLoop3,
            UniqueLoop4,
        ],
        &[NakedQuad],
        &[Jellyfish],
        &[HiddenQuad],
        &[ThreeStrongLinks],
        &[WXYZWing],
        &[BugPlusOne, BugType2, BugType3, BugType4],
        &[VWXYZWing],
        &[AlignedPairExclusion],
        &[XCycle, YCycle, XChain, XYChain, ContinuousLoop, Aic],
        &[AlignedTripletExclusion],
        &[Nishio],
        &[
            ContradictionForcingChain,
            DoubleForcingChain,
            CellForcingChain,
            DigitForcingChain,
        ],
        &[
            DynamicContradictionForcingChain,
            DynamicDoubleForcingChain,
            DynamicCellForcingChain,
            DynamicDigitForcingChain,
        ],
        &[DynamicForcingChainPlus],
        &[NestedForcingChain],
        &[NestedMultipleForcingChain],
        &[NestedDynamicForcingChain],
    ]
};

/// The first group of [`ORDER`] whose steps remove candidates (locked
/// candidates): the ones before only place digits.
const FIRST_ELIMINATING_GROUP: usize = 5;

/// For each group, the lowest rating a step of it or of a later group can
/// have (a technique's base is the least it rates): once the search has
/// passed the groups before, the step is at least that hard.
fn floors_from() -> &'static [f64] {
    use std::sync::OnceLock;
    static F: OnceLock<Vec<f64>> = OnceLock::new();
    F.get_or_init(|| {
        debug_assert_eq!(groups().len(), ORDER.len());
        debug_assert!(ORDER[FIRST_ELIMINATING_GROUP].contains(&Technique::Pointing));
        let mut v = vec![f64::INFINITY; ORDER.len() + 1];
        for i in (0..ORDER.len()).rev() {
            let own = ORDER[i]
                .iter()
                .map(|t| t.se_rating())
                .fold(f64::INFINITY, f64::min);
            v[i] = own.min(v[i + 1]);
        }
        v
    })
}

/// Finds one step of a given technique, if the board has one.
pub fn find(board: &MarkedGrid, technique: Technique) -> Option<Step> {
    use Technique::*;
    match technique {
        FullHouse => full_house(board),
        HiddenSingleBox => hidden_single_box(board),
        HiddenSingleLine => hidden_single_line(board),
        DirectPointing => direct_pointing(board),
        DirectClaiming => direct_claiming(board),
        DirectHiddenPair => direct_hidden_pair(board),
        NakedSingle => naked_single(board),
        DirectHiddenTriple => direct_hidden_triple(board),
        Pointing => pointing(board),
        Claiming => claiming(board),
        NakedPair => naked_pair(board),
        XWing => x_wing(board),
        HiddenPair => hidden_pair(board),
        NakedTriple => naked_triple(board),
        Swordfish => swordfish(board),
        HiddenTriple => hidden_triple(board),
        Skyscraper => skyscraper(board),
        TwoStringKite => two_string_kite(board),
        TurbotFish => turbot_fish(board),
        EmptyRectangle => empty_rectangle(board),
        XYWing => xy_wing(board),
        XYZWing => xyz_wing(board),
        FinnedXWing => finned_x_wing(board),
        UniqueRectangle1 => unique_rectangle_1(board),
        UniqueRectangle2 => unique_rectangle_2(board),
        UniqueRectangle3 => unique_rectangle_3(board),
        UniqueRectangle4 => unique_rectangle_4(board),
        UniqueLoop1 => unique_loop_1(board),
        UniqueLoop2 => unique_loop_2(board),
        UniqueLoop3 => unique_loop_3(board),
        UniqueLoop4 => unique_loop_4(board),
        WXYZWing => wxyz_wing(board),
        NakedQuad => naked_quad(board),
        Jellyfish => jellyfish(board),
        HiddenQuad => hidden_quad(board),
        ThreeStrongLinks => three_strong_links(board),
        FinnedSwordfish => finned_swordfish(board),
        BugPlusOne => bug_plus_one(board),
        BugType2 => bug_type_2(board),
        BugType3 => bug_type_3(board),
        BugType4 => bug_type_4(board),
        AlignedPairExclusion => aligned_pair_exclusion(board),
        AlignedTripletExclusion => aligned_triplet_exclusion(board),
        VWXYZWing => vwxyz_wing(board),
        UVWXYZWing => uvwxyz_wing(board),
        FinnedJellyfish => finned_jellyfish(board),
        FourStrongLinks => four_strong_links(board),
        WWing => w_wing(board),
        XCycle => x_cycle(board),
        YCycle => y_cycle(board),
        ColourTrap => colour_trap(board),
        ColourWrap => colour_wrap(board),
        XChain => x_chain(board),
        XYChain => xy_chain(board),
        ContinuousLoop => continuous_loop(board),
        Aic => aic(board),
        Nishio => nishio(board),
        ContradictionForcingChain => contradiction_forcing_chain(board),
        DoubleForcingChain => double_forcing_chain(board),
        CellForcingChain => cell_forcing_chain(board),
        DigitForcingChain => digit_forcing_chain(board),
        DynamicContradictionForcingChain => dynamic_contradiction_forcing_chain(board),
        DynamicDoubleForcingChain => dynamic_double_forcing_chain(board),
        DynamicCellForcingChain => dynamic_cell_forcing_chain(board),
        DynamicDigitForcingChain => dynamic_digit_forcing_chain(board),
        DynamicForcingChainPlus => dynamic_forcing_chain_plus(board),
        NestedForcingChain => nested_forcing_chain(board),
        NestedMultipleForcingChain => nested_multiple_forcing_chain(board),
        NestedDynamicForcingChain => nested_dynamic_forcing_chain(board),
    }
}

/// The next step, as SE takes it: the easiest step of the first group of
/// techniques (in SE's order) that has one. `None` when the board is solved
/// or no technique applies (no or several solutions).
pub fn next_step(board: &MarkedGrid) -> Option<Step> {
    match next_step_within(board, &Budget::unlimited()) {
        Ok(step) => step,
        Err(_) => unreachable!("an unlimited budget never runs out"),
    }
}

/// [`next_step`] within a budget: `Err` when it ran out before the step was
/// known, saying how hard the step is at least.
///
/// The search runs on the canonical form of the board's digits (see
/// [`crate::canon`]) and the step comes back in the board's own cells,
/// digits and words: every equivalent form of a position (digits
/// relabelled, rows or bands swapped, transposed...) gets the same step,
/// moved the same way; but for a step of SE's nested level 3, whose inner
/// rule meets regions in the player's cell order, as SE does
/// (`forcing::inner::search_multiple`).
pub fn next_step_within(board: &MarkedGrid, budget: &Budget) -> Result<Option<Step>, Halted> {
    let (_, to) = crate::canon::canonical(board.values());
    let searched = board.transformed(&to);
    let back = to.inverse();
    let step = board::with_names(Some(back), || {
        next_step_below(&searched, f64::INFINITY, budget)
    })?;
    Ok(step.map(|s| s.transformed(&back)))
}

/// The next step of `board` as it is (not its canonical form), `None` as
/// well when that step is rated above `max`: the groups that can only give
/// steps above it are not tried.
///
/// When the budget runs out during a group, the groups before it had no
/// step: the step is at least the lowest base rating of that group and
/// the ones after it.
fn next_step_below(board: &MarkedGrid, max: f64, budget: &Budget) -> Result<Option<Step>, Halted> {
    if board.is_solved() {
        return Ok(None);
    }
    let floors = floors_from();
    for (i, group) in groups().iter().enumerate() {
        if floors[i] > max + 1e-9 {
            // every step left is harder than asked
            return Ok(None);
        }
        // past singles and direct techniques (sound and safe on any board),
        // a board that lost its last candidate somewhere (a grid without
        // solution, or with several and a uniqueness step) gets no step
        if i == FIRST_ELIMINATING_GROUP && !board.is_consistent() {
            return Ok(None);
        }
        let mut best: Option<Step> = None;
        let mut limit = f64::INFINITY;
        for e in group {
            if e.floor >= limit - 1e-9 {
                continue;
            }
            let found = (e.find)(board, limit, budget);
            if let Some(why) = budget.check() {
                return Err(Halted {
                    why,
                    at_least: floors[i],
                });
            }
            if let Some(s) = found {
                if s.is_productive() && s.rating() < limit - 1e-9 {
                    limit = s.rating();
                    best = Some(s);
                }
            }
        }
        if let Some(s) = best {
            return Ok((s.rating() <= max + 1e-9).then_some(s));
        }
    }
    Ok(None)
}

/// A search that stopped early: why, and the least rating of the step it
/// was looking for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Halted {
    pub why: Halt,
    /// Every step rated below this was ruled out.
    pub at_least: f64,
}

/// Applies a step: places its digits, removes its candidates.
pub fn apply(board: &mut MarkedGrid, step: &Step) {
    for &(c, d) in &step.placements {
        if board.value(c) == 0 {
            board.place(c, d);
        }
    }
    for &(c, d) in &step.eliminations {
        board.eliminate(c, d);
    }
}

/// A difficulty level, from the SE rating: the same number gives the same
/// level, so a puzzle SE rates 2.0 is easy here and for SE's users alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// SE 1.0-2.3: singles, and the direct techniques that end in a single
    /// (direct pointing and claiming, direct hidden pair).
    Easy,
    /// SE 2.4-3.4: direct hidden triple, pointing and claiming, naked and
    /// hidden pairs, X-Wing.
    Medium,
    /// SE 3.5-4.6: naked and hidden triples, swordfish, two strong links
    /// (skyscraper, kite, turbot fish, empty rectangle), XY- and XYZ-Wings,
    /// unique rectangles and short unique loops.
    Hard,
    /// SE 4.7-6.9: longer unique loops, quads, jellyfish, three strong
    /// links, WXYZ- and VWXYZ-Wings, BUG, aligned pair exclusion, X- and
    /// Y-cycles, short chains.
    Expert,
    /// SE 7.0 and above: XY-chains, AICs and nice loops, aligned triplet
    /// exclusion, Nishio and forcing chains.
    Extreme,
}

impl Level {
    /// Every level, from the easiest.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
    ];

    /// Every name [`Level::from_name`] takes, from the easiest.
    pub const NAMES: &'static [&'static str] = &["easy", "medium", "hard", "expert", "extreme"];

    /// The level of a name (see [`Level::NAMES`]).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The level's name: easy, medium, hard, expert or extreme.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }

    /// The SE ratings of the level, as the range of ratings (in tenths, as
    /// SE gives them) that [`Level::of`] puts in it, from 0.0 to 12.0:
    /// easy 0.0-2.3, medium 2.4-3.4, hard 3.5-4.6, expert 4.7-6.9, extreme
    /// 7.0-12.0 (no known puzzle rates near 12).
    pub fn range(self) -> (f64, f64) {
        match self {
            Level::Easy => (0.0, 2.3),
            Level::Medium => (2.4, 3.4),
            Level::Hard => (3.5, 4.6),
            Level::Expert => (4.7, 6.9),
            Level::Extreme => (7.0, 12.0),
        }
    }

    /// The level of an SE rating.
    pub fn of(se: f64) -> Level {
        if se <= 2.3 + 1e-9 {
            Level::Easy
        } else if se <= 3.4 + 1e-9 {
            Level::Medium
        } else if se <= 4.6 + 1e-9 {
            Level::Hard
        } else if se <= 6.9 + 1e-9 {
            Level::Expert
        } else {
            Level::Extreme
        }
    }
}

/// The rating of a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The SE rating of the hardest step.
    pub se: f64,
    /// The technique of the hardest step.
    pub hardest: Option<Technique>,
    /// Steps taken.
    pub steps: usize,
    /// Whether logic solved the puzzle.
    pub solved: bool,
    pub level: Level,
    /// Set when the budget ran out: the rating is then only a lower bound,
    /// [`Rating::at_least`].
    pub stopped: Option<Halted>,
}

impl Rating {
    /// What the rating is known to be at least: the hardest step so far,
    /// or, when the search stopped, the least rating of the step it was
    /// looking for if that is more.
    pub fn at_least(&self) -> f64 {
        match self.stopped {
            Some(s) => self.se.max(s.at_least),
            None => self.se,
        }
    }
}

/// Rates a 9x9 puzzle: applies the easiest step until solved and returns the
/// hardest. A grid that is not 9x9, or one logic cannot finish (no or
/// several solutions), comes back with `solved == false`.
pub fn rate(givens: &Grid) -> Rating {
    rate_below(givens, f64::INFINITY, &Budget::unlimited(), None)
}

/// As [`rate`], calling `f` with the board before each step and the step.
pub fn rate_with(givens: &Grid, mut f: impl FnMut(&MarkedGrid, &Step)) -> Rating {
    rate_below(givens, f64::INFINITY, &Budget::unlimited(), Some(&mut f))
}

/// As [`rate_with`], within a budget: when it runs out, the rating so far
/// with [`Rating::stopped`] set.
pub fn rate_within(
    givens: &Grid,
    budget: &Budget,
    mut f: impl FnMut(&MarkedGrid, &Step),
) -> Rating {
    rate_below(givens, f64::INFINITY, budget, Some(&mut f))
}

/// Rates a puzzle as `dancer sudoku rate` does: plain 9x9 only (else why
/// not), and only a puzzle with exactly one solution, `Ok(None)` for the
/// others (logic on a grid with many solutions can search for a very long
/// time, and a rating means nothing there).
pub fn rate_puzzle(p: &crate::Puzzle) -> Result<Option<Rating>, String> {
    rate_puzzle_within(p, &Budget::unlimited(), |_, _| {})
}

/// [`rate_puzzle`] within a budget, calling `f` as [`rate_with`] does.
pub fn rate_puzzle_within(
    p: &crate::Puzzle,
    budget: &Budget,
    f: impl FnMut(&MarkedGrid, &Step),
) -> Result<Option<Rating>, String> {
    if !p.rules.is_standard_9x9() {
        return Err(format!(
            "ratings are for plain 9x9, not {}",
            p.rules.describe()
        ));
    }
    let unique = crate::solve(p, 2).count == 1;
    Ok(unique.then(|| rate_within(&p.givens, budget, f)))
}

/// As [`rate`] for a puzzle that may not need a step rated above `max`:
/// `None` as soon as it does (or when logic cannot finish it), without
/// trying the costlier techniques. A generator looking for easier puzzles
/// throws the hard ones away quickly this way.
pub fn rate_at_most(givens: &Grid, max: f64) -> Option<Rating> {
    let r = rate_below(givens, max, &Budget::unlimited(), None);
    r.solved.then_some(r)
}

/// What [`rate_with`] calls with each board and step.
type Watcher<'a> = dyn FnMut(&MarkedGrid, &Step) + 'a;

/// The rating loop; `watch` sees each board and step in the puzzle's own
/// form (moving them back from the canonical form costs a board and a step
/// a step, so it is only done for a watcher).
fn rate_below(
    givens: &Grid,
    max: f64,
    budget: &Budget,
    mut watch: Option<&mut Watcher<'_>>,
) -> Rating {
    let mut r = Rating {
        se: 0.0,
        hardest: None,
        steps: 0,
        solved: false,
        level: Level::Easy,
        stopped: None,
    };
    let Some(given) = MarkedGrid::try_from_grid(givens) else {
        return r;
    };
    if !given.is_consistent() {
        return r;
    }
    // the canonical form is rated, so that every equivalent form of the
    // puzzle gets the same rating (but for the nested level 3, whose inner
    // rule follows the player's cell order as SE does: see
    // `forcing::inner::search_multiple`); `watch` sees the puzzle as given
    let (_, to) = crate::canon::canonical(given.values());
    let back = to.inverse();
    let mut b = given.transformed(&to);
    while !b.is_solved() {
        let s = match board::with_names(Some(back), || next_step_below(&b, max, budget)) {
            Ok(Some(s)) => s,
            Ok(None) => break,
            Err(stopped) => {
                r.stopped = Some(stopped);
                break;
            }
        };
        if let Some(f) = watch.as_mut() {
            f(&b.transformed(&back), &s.transformed(&back));
        }
        let x = s.rating();
        if x > r.se || r.hardest.is_none() {
            r.se = r.se.max(x);
            r.hardest = Some(s.technique);
        }
        apply(&mut b, &s);
        r.steps += 1;
        // every step places or removes something: a broken board (a
        // puzzle without solution) still ends, and is caught below
        if r.steps > 1000 {
            break;
        }
    }
    r.solved = b.is_solved() && b.is_consistent();
    r.level = Level::of(r.at_least());
    r
}
