//! Human-style logical solving of standard 9x9 Sudoku, with ratings on the
//! Sudoku Explainer (SE) scale.
//!
//! * [`Board`]: the grid with its pencil marks (candidates);
//! * one function per technique, each finding one [`Step`] (see
//!   [`Technique`] for the list and [`find`] to call one by name);
//! * [`next_step`]: the easiest step available (lowest SE rating, then the
//!   order of [`Technique::ALL`]), and [`apply`];
//! * [`rate`]: solves by always taking the easiest step and reports the
//!   hardest one, as SE does.
//!
//! ```
//! use dancer_sudoku::logic::{rate, Board, next_step, Level};
//! use dancer_sudoku::Puzzle;
//! let p = Puzzle::parse_line(
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//!     None,
//! ).unwrap();
//! let r = rate(&p.givens);
//! assert!(r.solved);
//! assert_eq!(r.level, Level::Easy);
//! let step = next_step(&Board::from_grid(&p.givens)).unwrap();
//! println!("{}", step.description);
//! ```
//!
//! ## Ratings
//!
//! The values follow SE and its Sukaku Explainer fork: full house 1.0,
//! hidden single 1.2 (box) / 1.5 (line), naked single 2.3, pointing 2.6,
//! claiming 2.8, naked pair 3.0, X-Wing 3.2, hidden pair 3.4, naked triple
//! 3.6, swordfish 3.8, hidden triple 4.0, skyscraper 4.0, 2-string kite 4.1,
//! turbot fish and empty rectangle 4.2, XY-Wing 4.2, XYZ-Wing 4.4, unique
//! rectangles 4.5-4.8, naked quad 5.0, jellyfish 5.2, hidden quad 5.4, three
//! strong links 5.4-5.6, WXYZ-Wing 5.5, BUG+1 5.6, four strong links 6.2-6.4,
//! X-cycles 6.5+, X-chains 6.6+, XY-chains, AICs and loops 7.0+,
//! Nishio 7.5+, cell/digit/double/contradiction forcing chains 8.0+, their
//! dynamic forms 8.5+, dynamic plus 9.0+, nested 9.5+. Chains add
//! [`length_increment`] for their length. Patterns SE lacks by name are rated
//! like the deduction SE would find instead (see [`Technique::se_rating`]).

#![allow(clippy::needless_range_loop)] // unit and peer tables are walked by index
mod basic;
mod board;
mod chains;
mod forcing;
mod links;
mod step;
mod unique;
mod wings;

pub use basic::{
    claiming, finned_jellyfish, finned_swordfish, finned_x_wing, full_house, hidden_pair,
    hidden_quad, hidden_single_box, hidden_single_line, hidden_triple, jellyfish, naked_pair,
    naked_quad, naked_single, naked_triple, pointing, swordfish, x_wing,
};
pub use board::{
    bit, box_of, cell_name, cells_of, col_of, digits_of, row_of, sees, unit_name, Board, Cells,
    Digits, ALL_DIGITS, CELL_UNITS, PEERS, PEER_MASK, UNITS, UNIT_MASK,
};
pub use chains::{aic, continuous_loop, x_chain, x_cycle, xy_chain, y_cycle};
pub use forcing::{
    cell_forcing_chain, contradiction_forcing_chain, digit_forcing_chain, double_forcing_chain,
    dynamic_cell_forcing_chain, dynamic_contradiction_forcing_chain, dynamic_digit_forcing_chain,
    dynamic_double_forcing_chain, dynamic_forcing_chain_plus, nested_forcing_chain, nishio,
};
pub use links::{
    colour_trap, colour_wrap, empty_rectangle, four_strong_links, skyscraper, three_strong_links,
    turbot_fish, two_string_kite,
};
pub use step::{length_increment, Step, Technique};
pub use unique::{
    bug_plus_one, unique_rectangle_1, unique_rectangle_2, unique_rectangle_3, unique_rectangle_4,
};
pub use wings::{als_wing, uvwxyz_wing, vwxyz_wing, w_wing, wxyz_wing, xy_wing, xyz_wing};

use crate::grid::Grid;
use chains::Mode;
use forcing::Kind;

/// A technique search: the board, the rating a step must stay below, and
/// the budget (only the long searches look at it).
type Finder = fn(&Board, f64, &Budget) -> Option<Step>;

/// The searches of [`next_step`], by the lowest rating each can return.
struct Entry {
    floor: f64,
    find: Finder,
}

macro_rules! plain {
    ($f:path) => {{
        fn w(b: &Board, _limit: f64, _budget: &Budget) -> Option<Step> {
            $f(b)
        }
        w as Finder
    }};
}

fn entries() -> &'static [Entry] {
    use std::sync::OnceLock;
    static E: OnceLock<Vec<Entry>> = OnceLock::new();
    E.get_or_init(|| {
        let t = |t: Technique| t.se_rating();
        let mut v = vec![
            Entry {
                floor: t(Technique::FullHouse),
                find: plain!(full_house),
            },
            Entry {
                floor: t(Technique::HiddenSingleBox),
                find: plain!(hidden_single_box),
            },
            Entry {
                floor: t(Technique::HiddenSingleLine),
                find: plain!(hidden_single_line),
            },
            Entry {
                floor: t(Technique::NakedSingle),
                find: plain!(naked_single),
            },
            Entry {
                floor: t(Technique::Pointing),
                find: plain!(pointing),
            },
            Entry {
                floor: t(Technique::Claiming),
                find: plain!(claiming),
            },
            Entry {
                floor: t(Technique::NakedPair),
                find: plain!(naked_pair),
            },
            Entry {
                floor: t(Technique::XWing),
                find: plain!(x_wing),
            },
            Entry {
                floor: t(Technique::HiddenPair),
                find: plain!(hidden_pair),
            },
            Entry {
                floor: t(Technique::NakedTriple),
                find: plain!(naked_triple),
            },
            Entry {
                floor: t(Technique::Swordfish),
                find: plain!(swordfish),
            },
            Entry {
                floor: t(Technique::HiddenTriple),
                find: plain!(hidden_triple),
            },
            Entry {
                floor: t(Technique::Skyscraper),
                find: plain!(two_links),
            },
            Entry {
                floor: t(Technique::EmptyRectangle),
                find: plain!(empty_rectangle),
            },
            Entry {
                floor: t(Technique::XYWing),
                find: plain!(xy_wing),
            },
            Entry {
                floor: t(Technique::FinnedXWing),
                find: plain!(finned_x_wing),
            },
            Entry {
                floor: t(Technique::XYZWing),
                find: plain!(xyz_wing),
            },
            Entry {
                floor: t(Technique::UniqueRectangle1),
                find: plain!(unique_rectangle_1),
            },
            Entry {
                floor: t(Technique::WXYZWing),
                find: plain!(wxyz_wing),
            },
            Entry {
                floor: t(Technique::UniqueRectangle2),
                find: plain!(unique_rectangle_2),
            },
            Entry {
                floor: t(Technique::UniqueRectangle3),
                find: plain!(unique_rectangle_3),
            },
            Entry {
                floor: t(Technique::UniqueRectangle4),
                find: plain!(unique_rectangle_4),
            },
            Entry {
                floor: t(Technique::NakedQuad),
                find: plain!(naked_quad),
            },
            Entry {
                floor: t(Technique::Jellyfish),
                find: plain!(jellyfish),
            },
            Entry {
                floor: t(Technique::HiddenQuad),
                find: plain!(hidden_quad),
            },
            Entry {
                floor: t(Technique::ThreeStrongLinks),
                find: plain!(three_strong_links),
            },
            Entry {
                floor: t(Technique::FinnedSwordfish),
                find: plain!(finned_swordfish),
            },
            Entry {
                floor: t(Technique::BugPlusOne),
                find: plain!(bug_plus_one),
            },
            Entry {
                floor: t(Technique::VWXYZWing),
                find: plain!(vwxyz_wing),
            },
            Entry {
                floor: t(Technique::UVWXYZWing),
                find: plain!(uvwxyz_wing),
            },
            Entry {
                floor: t(Technique::FinnedJellyfish),
                find: plain!(finned_jellyfish),
            },
            Entry {
                floor: t(Technique::FourStrongLinks),
                find: plain!(four_strong_links),
            },
            Entry {
                floor: t(Technique::WWing),
                find: plain!(w_wing),
            },
            Entry {
                floor: t(Technique::XCycle),
                find: |b, l, _| chains::cycle(b, Mode::X, Technique::XCycle, l),
            },
            Entry {
                floor: t(Technique::YCycle),
                find: |b, l, _| chains::cycle(b, Mode::Y, Technique::YCycle, l),
            },
            Entry {
                floor: t(Technique::ColourTrap),
                find: plain!(colour_trap),
            },
            Entry {
                floor: t(Technique::ColourWrap),
                find: plain!(colour_wrap),
            },
            Entry {
                floor: t(Technique::XChain),
                find: |b, l, _| chains::forcing_chain(b, Mode::X, Technique::XChain, l),
            },
            Entry {
                floor: t(Technique::XYChain),
                find: |b, l, _| chains::forcing_chain(b, Mode::Y, Technique::XYChain, l),
            },
            Entry {
                floor: t(Technique::ContinuousLoop),
                find: |b, l, _| chains::cycle(b, Mode::XY, Technique::ContinuousLoop, l),
            },
            Entry {
                floor: t(Technique::Aic),
                find: |b, l, _| chains::forcing_chain(b, Mode::XY, Technique::Aic, l),
            },
            Entry {
                floor: t(Technique::Nishio),
                find: |b, l, budget| forcing::forcing(b, Kind::Nishio, l, budget),
            },
            Entry {
                floor: t(Technique::CellForcingChain),
                find: |b, l, budget| forcing::forcing(b, Kind::Static, l, budget),
            },
            Entry {
                floor: t(Technique::DynamicCellForcingChain),
                find: |b, l, budget| forcing::forcing(b, Kind::Dynamic, l, budget),
            },
            Entry {
                floor: t(Technique::DynamicForcingChainPlus),
                find: |b, l, budget| forcing::forcing(b, Kind::Plus, l, budget),
            },
            Entry {
                floor: t(Technique::NestedForcingChain),
                find: |b, l, budget| forcing::forcing(b, Kind::Nested, l, budget),
            },
        ];
        // stable: equal floors keep the order above
        v.sort_by(|a, b| a.floor.partial_cmp(&b.floor).unwrap());
        v
    })
}

/// Skyscraper, 2-string kite or turbot fish, the easiest.
fn two_links(b: &Board) -> Option<Step> {
    links::strong_link_chain(b, 2, None)
}

/// Finds one step of a given technique, if the board has one.
pub fn find(board: &Board, technique: Technique) -> Option<Step> {
    use Technique::*;
    match technique {
        FullHouse => full_house(board),
        HiddenSingleBox => hidden_single_box(board),
        HiddenSingleLine => hidden_single_line(board),
        NakedSingle => naked_single(board),
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
        WXYZWing => wxyz_wing(board),
        NakedQuad => naked_quad(board),
        Jellyfish => jellyfish(board),
        HiddenQuad => hidden_quad(board),
        ThreeStrongLinks => three_strong_links(board),
        FinnedSwordfish => finned_swordfish(board),
        BugPlusOne => bug_plus_one(board),
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
    }
}

/// The easiest step: the lowest SE rating, and among equal ratings the
/// first technique in the order of [`Technique::ALL`]. `None` when the board
/// is solved or no technique applies (no or several solutions).
pub fn next_step(board: &Board) -> Option<Step> {
    match next_step_below(board, f64::INFINITY, &Budget::unlimited()) {
        Ok(step) => step,
        Err(_) => unreachable!("an unlimited budget never runs out"),
    }
}

/// [`next_step`] within a budget: `Err` when it ran out before the step was
/// known, saying how hard the step is at least.
pub fn next_step_within(board: &Board, budget: &Budget) -> Result<Option<Step>, Stopped> {
    next_step_below(board, f64::INFINITY, budget)
}

/// [`next_step`] among the steps rated at most `max`: the techniques whose
/// base rating is above it are not tried.
///
/// The searches run from the lowest base rating up, so when the budget runs
/// out during one, no step rated below its base exists: the step is at
/// least that hard.
fn next_step_below(board: &Board, max: f64, budget: &Budget) -> Result<Option<Step>, Stopped> {
    if board.is_solved() {
        return Ok(None);
    }
    let mut best: Option<Step> = None;
    let mut limit = max + 2e-9;
    for e in entries() {
        if e.floor >= limit - 1e-9 {
            break;
        }
        let found = (e.find)(board, limit, budget);
        if let Some(why) = budget.check() {
            return Err(Stopped {
                why,
                at_least: e.floor,
            });
        }
        if let Some(s) = found {
            if s.is_productive() && s.rating() < limit - 1e-9 {
                limit = s.rating();
                best = Some(s);
            }
        }
    }
    Ok(best)
}

/// Why a search stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Its time ran out.
    Timeout,
    /// It was asked to stop (Ctrl-C).
    Interrupted,
}

impl Stop {
    /// `timeout` or `interrupted`.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Timeout => "timeout",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// A search that stopped early: why, and the least rating of the step it
/// was looking for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stopped {
    pub why: Stop,
    /// Every step rated below this was ruled out.
    pub at_least: f64,
}

/// Limits on a rating or hint: a deadline, and a flag that another thread
/// (a Ctrl-C handler, a server's cancel button) sets to stop the search.
/// They are checked between steps and, in the forcing-chain searches (the
/// only long ones), before each assumption: a search stops within a few
/// milliseconds of either.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    deadline: Option<std::time::Instant>,
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Budget {
    /// No limit.
    pub fn unlimited() -> Self {
        Budget::default()
    }

    /// At most `d` from now (no limit if that is beyond the clock's range).
    pub fn timeout(d: std::time::Duration) -> Self {
        Budget {
            deadline: std::time::Instant::now().checked_add(d),
            cancel: None,
        }
    }

    /// Also stops once `flag` is set.
    pub fn with_cancel(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// `Some` once the search must stop: the flag first, then the clock.
    pub fn check(&self) -> Option<Stop> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Some(Stop::Interrupted);
        }
        match self.deadline {
            Some(d) if std::time::Instant::now() >= d => Some(Stop::Timeout),
            _ => None,
        }
    }
}

/// Applies a step: places its digits, removes its candidates.
pub fn apply(board: &mut Board, step: &Step) {
    for &(c, d) in &step.placements {
        if board.value(c) == 0 {
            board.place(c, d);
        }
    }
    for &(c, d) in &step.eliminations {
        board.eliminate(c, d);
    }
}

/// A difficulty level, from the SE rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Singles only (SE <= 2.3): scanning and counting.
    Easy,
    /// Locked candidates, pairs, X-Wing (SE <= 3.4).
    Medium,
    /// Triples, swordfish, skyscraper and kite, XY- and XYZ-Wings, finned
    /// X-Wings, unique rectangles (SE <= 4.6).
    Hard,
    /// Quads, jellyfish, WXYZ-Wings, chains of three or four strong links,
    /// BUG+1, X-cycles, colouring, short X-chains (SE <= 6.9).
    Expert,
    /// XY-chains, AICs, forcing chains and beyond (SE above 6.9).
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
    pub stopped: Option<Stopped>,
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
    rate_with(givens, |_, _| {})
}

/// As [`rate`], calling `f` with the board before each step and the step.
pub fn rate_with(givens: &Grid, f: impl FnMut(&Board, &Step)) -> Rating {
    rate_below(givens, f64::INFINITY, &Budget::unlimited(), f)
}

/// As [`rate_with`], within a budget: when it runs out, the rating so far
/// with [`Rating::stopped`] set.
pub fn rate_within(givens: &Grid, budget: &Budget, f: impl FnMut(&Board, &Step)) -> Rating {
    rate_below(givens, f64::INFINITY, budget, f)
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
    f: impl FnMut(&Board, &Step),
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
    let r = rate_below(givens, max, &Budget::unlimited(), |_, _| {});
    r.solved.then_some(r)
}

fn rate_below(
    givens: &Grid,
    max: f64,
    budget: &Budget,
    mut f: impl FnMut(&Board, &Step),
) -> Rating {
    let mut r = Rating {
        se: 0.0,
        hardest: None,
        steps: 0,
        solved: false,
        level: Level::Easy,
        stopped: None,
    };
    let Some(mut b) = Board::try_from_grid(givens) else {
        return r;
    };
    if !b.is_consistent() {
        return r;
    }
    while !b.is_solved() {
        let s = match next_step_below(&b, max, budget) {
            Ok(Some(s)) => s,
            Ok(None) => break,
            Err(stopped) => {
                r.stopped = Some(stopped);
                break;
            }
        };
        f(&b, &s);
        let x = s.rating();
        if x > r.se || r.hardest.is_none() {
            r.se = r.se.max(x);
            r.hardest = Some(s.technique);
        }
        apply(&mut b, &s);
        r.steps += 1;
        if !b.is_consistent() || r.steps > 1000 {
            break;
        }
    }
    r.solved = b.is_solved();
    r.level = Level::of(r.at_least());
    r
}
