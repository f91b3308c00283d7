//! Steps and techniques, with their ratings on the Sudoku Explainer scale.

use std::fmt;

/// A solving technique.
///
/// The ratings follow Sudoku Explainer (SE) and its Sukaku Explainer fork:
/// [`Technique::se_rating`] is the base value, [`Step::rating`] adds the
/// length of chains and the shape of some patterns. Techniques that SE does
/// not have by name (W-Wing, finned fish, colouring) are rated like the chain
/// or pattern SE would use for the same deduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last empty cell of a unit.
    FullHouse,
    /// The only place for a digit in a box.
    HiddenSingleBox,
    /// The only place for a digit in a row or column.
    HiddenSingleLine,
    /// Locked candidates in a box whose removal leaves a digit one place in
    /// another box: that digit is placed (no candidate is removed).
    DirectPointing,
    /// Locked candidates in a line whose removal leaves a digit one place in
    /// a parallel line: that digit is placed.
    DirectClaiming,
    /// A hidden pair whose other candidates, removed, leave a digit one
    /// place in the unit: that digit is placed.
    DirectHiddenPair,
    /// The only candidate of a cell.
    NakedSingle,
    /// A hidden triple whose other candidates, removed, leave a digit one
    /// place in the unit: that digit is placed.
    DirectHiddenTriple,
    /// Locked candidates in a box, confined to one line.
    Pointing,
    /// Locked candidates in a line, confined to one box.
    Claiming,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriple,
    Swordfish,
    HiddenTriple,
    /// Two strong links on parallel lines (2 strong links).
    Skyscraper,
    /// A row and a column strong link joined in a box.
    TwoStringKite,
    /// Two strong links, one of them in a box.
    TurbotFish,
    /// A box whose candidates lie on one row and one column, with a strong link.
    EmptyRectangle,
    XYWing,
    XYZWing,
    /// An X-Wing with fins in one box (sashimi included).
    FinnedXWing,
    UniqueRectangle1,
    UniqueRectangle2,
    UniqueRectangle3,
    UniqueRectangle4,
    /// A unique loop (6, 8, ... cells of two digits) with one extra cell.
    UniqueLoop1,
    /// A unique loop whose extra cells hold one same extra digit.
    UniqueLoop2,
    /// A unique loop whose extra cells form a naked or hidden set.
    UniqueLoop3,
    /// A unique loop with a strong link in its extra cells.
    UniqueLoop4,
    /// A bivalue cell and an almost locked set of three cells.
    WXYZWing,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    /// A single-digit chain of three strong links.
    ThreeStrongLinks,
    FinnedSwordfish,
    /// Bivalue universal grave plus one.
    BugPlusOne,
    /// Bivalue universal grave: the extra cells share one extra digit.
    BugType2,
    /// Bivalue universal grave: the extra cells with a naked set.
    BugType3,
    /// Bivalue universal grave: two extra cells in a unit, with a strong link.
    BugType4,
    /// Two cells of a unit, or seeing each other: the pairs of digits they
    /// can hold together, each excluded by a cell whose candidates it would
    /// take.
    AlignedPairExclusion,
    /// Aligned exclusion on three cells.
    AlignedTripletExclusion,
    /// A bivalue cell and an almost locked set of four cells.
    VWXYZWing,
    /// A bivalue cell and an almost locked set of five cells.
    UVWXYZWing,
    FinnedJellyfish,
    /// A single-digit chain of four strong links.
    FourStrongLinks,
    /// Two bivalue cells with the same digits joined by a strong link.
    WWing,
    /// A single-digit continuous loop.
    XCycle,
    /// A continuous loop whose strong links are bivalue cells.
    YCycle,
    /// Simple colouring: a candidate sees both colours of a cluster.
    ColourTrap,
    /// Simple colouring: one colour sees itself, so it is false.
    ColourWrap,
    /// A single-digit alternating chain.
    XChain,
    /// An alternating chain whose strong links are bivalue cells.
    XYChain,
    /// A continuous loop with strong links of both kinds.
    ContinuousLoop,
    /// An alternating inference chain with strong links on cells and units.
    Aic,
    /// Assuming a digit in a cell leads, on that digit alone, to a contradiction.
    Nishio,
    /// A candidate that implies both a candidate and its negation is false.
    ContradictionForcingChain,
    /// A candidate and its negation imply the same thing.
    DoubleForcingChain,
    /// Every candidate of a cell implies the same thing.
    CellForcingChain,
    /// Every place of a digit in a unit implies the same thing.
    DigitForcingChain,
    DynamicContradictionForcingChain,
    DynamicDoubleForcingChain,
    DynamicCellForcingChain,
    DynamicDigitForcingChain,
    /// Dynamic forcing chains that also use locked candidates and subsets.
    DynamicForcingChainPlus,
    /// Dynamic forcing chains that also use the eliminations of static
    /// forcing chains in the assumed grid (SE's nested level 2).
    NestedForcingChain,
    /// ... and of static cell and region forcing chains (SE's level 3).
    NestedMultipleForcingChain,
    /// ... and dynamic contradictions (in the place of SE's level 4).
    NestedDynamicForcingChain,
}

impl Technique {
    /// Every technique, in the order `next_step` tries them among equal ratings.
    pub const ALL: &'static [Technique] = &[
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriple,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::EmptyRectangle,
        Technique::XYWing,
        Technique::XYZWing,
        Technique::FinnedXWing,
        Technique::UniqueRectangle1,
        Technique::UniqueRectangle2,
        Technique::UniqueRectangle3,
        Technique::UniqueRectangle4,
        Technique::UniqueLoop1,
        Technique::UniqueLoop2,
        Technique::UniqueLoop3,
        Technique::UniqueLoop4,
        Technique::WXYZWing,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::ThreeStrongLinks,
        Technique::FinnedSwordfish,
        Technique::BugPlusOne,
        Technique::BugType2,
        Technique::BugType3,
        Technique::BugType4,
        Technique::VWXYZWing,
        Technique::AlignedPairExclusion,
        Technique::UVWXYZWing,
        Technique::FinnedJellyfish,
        Technique::FourStrongLinks,
        Technique::WWing,
        Technique::XCycle,
        Technique::YCycle,
        Technique::ColourTrap,
        Technique::ColourWrap,
        Technique::XChain,
        Technique::XYChain,
        Technique::ContinuousLoop,
        Technique::Aic,
        Technique::AlignedTripletExclusion,
        Technique::Nishio,
        Technique::ContradictionForcingChain,
        Technique::DoubleForcingChain,
        Technique::CellForcingChain,
        Technique::DigitForcingChain,
        Technique::DynamicContradictionForcingChain,
        Technique::DynamicDoubleForcingChain,
        Technique::DynamicCellForcingChain,
        Technique::DynamicDigitForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain,
        Technique::NestedMultipleForcingChain,
        Technique::NestedDynamicForcingChain,
    ];

    /// The technique's name, as players know it.
    pub fn name(&self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "Full House",
            HiddenSingleBox => "Hidden Single (box)",
            HiddenSingleLine => "Hidden Single (line)",
            DirectPointing => "Direct Pointing",
            DirectClaiming => "Direct Claiming",
            DirectHiddenPair => "Direct Hidden Pair",
            NakedSingle => "Naked Single",
            DirectHiddenTriple => "Direct Hidden Triple",
            Pointing => "Pointing",
            Claiming => "Claiming",
            NakedPair => "Naked Pair",
            XWing => "X-Wing",
            HiddenPair => "Hidden Pair",
            NakedTriple => "Naked Triple",
            Swordfish => "Swordfish",
            HiddenTriple => "Hidden Triple",
            Skyscraper => "Skyscraper",
            TwoStringKite => "2-String Kite",
            TurbotFish => "Turbot Fish",
            EmptyRectangle => "Empty Rectangle",
            XYWing => "XY-Wing",
            XYZWing => "XYZ-Wing",
            FinnedXWing => "Finned X-Wing",
            UniqueRectangle1 => "Unique Rectangle Type 1",
            UniqueRectangle2 => "Unique Rectangle Type 2",
            UniqueRectangle3 => "Unique Rectangle Type 3",
            UniqueRectangle4 => "Unique Rectangle Type 4",
            UniqueLoop1 => "Unique Loop Type 1",
            UniqueLoop2 => "Unique Loop Type 2",
            UniqueLoop3 => "Unique Loop Type 3",
            UniqueLoop4 => "Unique Loop Type 4",
            WXYZWing => "WXYZ-Wing",
            NakedQuad => "Naked Quad",
            Jellyfish => "Jellyfish",
            HiddenQuad => "Hidden Quad",
            ThreeStrongLinks => "3 Strong Links",
            FinnedSwordfish => "Finned Swordfish",
            BugPlusOne => "BUG+1",
            BugType2 => "BUG Type 2",
            BugType3 => "BUG Type 3",
            BugType4 => "BUG Type 4",
            AlignedPairExclusion => "Aligned Pair Exclusion",
            AlignedTripletExclusion => "Aligned Triplet Exclusion",
            VWXYZWing => "VWXYZ-Wing",
            UVWXYZWing => "UVWXYZ-Wing",
            FinnedJellyfish => "Finned Jellyfish",
            FourStrongLinks => "4 Strong Links",
            WWing => "W-Wing",
            XCycle => "X-Cycle",
            YCycle => "Y-Cycle",
            ColourTrap => "Colour Trap",
            ColourWrap => "Colour Wrap",
            XChain => "X-Chain",
            XYChain => "XY-Chain",
            ContinuousLoop => "Continuous Nice Loop",
            Aic => "AIC",
            Nishio => "Nishio Forcing Chain",
            ContradictionForcingChain => "Contradiction Forcing Chain",
            DoubleForcingChain => "Double Forcing Chain",
            CellForcingChain => "Cell Forcing Chain",
            DigitForcingChain => "Digit Forcing Chain",
            DynamicContradictionForcingChain => "Dynamic Contradiction Forcing Chain",
            DynamicDoubleForcingChain => "Dynamic Double Forcing Chain",
            DynamicCellForcingChain => "Dynamic Cell Forcing Chain",
            DynamicDigitForcingChain => "Dynamic Digit Forcing Chain",
            DynamicForcingChainPlus => "Dynamic Forcing Chain (+)",
            NestedForcingChain => "Nested Forcing Chain",
            NestedMultipleForcingChain => "Nested Multiple Forcing Chain",
            NestedDynamicForcingChain => "Nested Dynamic Forcing Chain",
        }
    }

    /// The base rating on the SE scale. Chains add to it with their length
    /// (see [`length_increment`]), some patterns with their shape.
    pub fn se_rating(&self) -> f64 {
        use Technique::*;
        match self {
            FullHouse => 1.0,
            HiddenSingleBox => 1.2,
            HiddenSingleLine => 1.5,
            DirectPointing => 1.7,
            DirectClaiming => 1.9,
            DirectHiddenPair => 2.0,
            NakedSingle => 2.3,
            DirectHiddenTriple => 2.5,
            Pointing => 2.6,
            Claiming => 2.8,
            NakedPair => 3.0,
            XWing => 3.2,
            HiddenPair => 3.4,
            NakedTriple => 3.6,
            Swordfish => 3.8,
            HiddenTriple => 4.0,
            Skyscraper => 4.0,
            TwoStringKite => 4.1,
            TurbotFish => 4.1,
            EmptyRectangle => 4.2,
            XYWing => 4.2,
            XYZWing => 4.4,
            FinnedXWing => 4.3,
            UniqueRectangle1 => 4.5,
            UniqueRectangle2 => 4.5,
            UniqueRectangle3 => 4.5,
            UniqueRectangle4 => 4.5,
            UniqueLoop1 => 4.5,
            UniqueLoop2 => 4.5,
            UniqueLoop3 => 4.5,
            UniqueLoop4 => 4.5,
            WXYZWing => 5.5,
            NakedQuad => 5.0,
            Jellyfish => 5.2,
            HiddenQuad => 5.4,
            ThreeStrongLinks => 5.4,
            FinnedSwordfish => 5.7,
            BugPlusOne => 5.6,
            BugType2 => 5.7,
            BugType3 => 5.7,
            BugType4 => 5.7,
            AlignedPairExclusion => 6.2,
            AlignedTripletExclusion => 7.5,
            VWXYZWing => 6.2,
            UVWXYZWing => 6.6,
            FinnedJellyfish => 5.8,
            FourStrongLinks => 6.2,
            WWing => 7.0,
            XCycle => 6.5,
            YCycle => 6.5,
            ColourTrap => 6.6,
            ColourWrap => 6.6,
            XChain => 6.6,
            XYChain => 7.0,
            ContinuousLoop => 7.0,
            Aic => 7.0,
            Nishio => 7.5,
            ContradictionForcingChain => 8.0,
            DoubleForcingChain => 8.0,
            CellForcingChain => 8.0,
            DigitForcingChain => 8.0,
            DynamicContradictionForcingChain => 8.5,
            DynamicDoubleForcingChain => 8.5,
            DynamicCellForcingChain => 8.5,
            DynamicDigitForcingChain => 8.5,
            DynamicForcingChainPlus => 9.0,
            NestedForcingChain => 9.5,
            NestedMultipleForcingChain => 10.0,
            NestedDynamicForcingChain => 10.5,
        }
    }

    /// Does the rating grow with the length of the chain?
    pub fn is_chain(&self) -> bool {
        use Technique::*;
        matches!(
            self,
            WWing
                | XCycle
                | YCycle
                | ColourTrap
                | ColourWrap
                | XChain
                | XYChain
                | ContinuousLoop
                | Aic
                | Nishio
                | ContradictionForcingChain
                | DoubleForcingChain
                | CellForcingChain
                | DigitForcingChain
                | DynamicContradictionForcingChain
                | DynamicDoubleForcingChain
                | DynamicCellForcingChain
                | DynamicDigitForcingChain
                | DynamicForcingChainPlus
                | NestedForcingChain
                | NestedMultipleForcingChain
                | NestedDynamicForcingChain
        )
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a chain's length adds to its rating.
///
/// `complexity` counts the nodes (candidates assumed on or off) of all the
/// chains of a step. Past 6 nodes, each step of the length along the
/// half-octave ladder 4, 6, 8, 12, 16, 24, 32, 48, ... (of `complexity - 2`)
/// adds 0.1: about +0.2 per doubling, so long chains keep getting harder, but
/// slowly.
pub fn length_increment(complexity: usize) -> f64 {
    let length = complexity.saturating_sub(2);
    let mut threshold = 4usize;
    let mut steps = 0u32;
    let mut odd = false;
    while length > threshold {
        steps += 1;
        threshold = if odd {
            threshold * 4 / 3
        } else {
            threshold * 3 / 2
        };
        odd = !odd;
    }
    steps as f64 / 10.0
}

/// The largest complexity whose length increment is at most `inc` tenths.
pub(crate) fn max_complexity_for(tenths: u32) -> usize {
    let mut threshold = 4usize;
    let mut odd = false;
    for _ in 0..tenths {
        threshold = if odd {
            threshold * 4 / 3
        } else {
            threshold * 3 / 2
        };
        odd = !odd;
    }
    threshold + 2
}

/// One logical step: what it places and removes, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub technique: Technique,
    /// `(cell 0..81, digit)` to place.
    pub placements: Vec<(usize, u8)>,
    /// `(cell 0..81, digit)` candidates to remove.
    pub eliminations: Vec<(usize, u8)>,
    /// The cells that justify the step.
    pub cells: Vec<usize>,
    /// The units involved, e.g. "row 3", "box 5".
    pub units: Vec<String>,
    /// The digits involved.
    pub digits: Vec<u8>,
    /// A sentence a player can follow.
    pub description: String,
    /// For chains: the number of nodes of all chains together (what the
    /// length increment of the rating counts); 0 for other techniques.
    pub complexity: usize,
    /// What the pattern's shape adds to the base rating (e.g. +0.1 when the
    /// strong links of a chain mix rows and columns).
    pub adjust: f64,
}

impl Step {
    /// A step with no placements, eliminations or justification yet.
    pub(crate) fn new(technique: Technique) -> Self {
        Step {
            technique,
            placements: Vec::new(),
            eliminations: Vec::new(),
            cells: Vec::new(),
            units: Vec::new(),
            digits: Vec::new(),
            description: String::new(),
            complexity: 0,
            adjust: 0.0,
        }
    }

    /// The SE rating of this step: the technique's base, plus the length
    /// increment for chains and the shape adjustment.
    pub fn rating(&self) -> f64 {
        let mut r = self.technique.se_rating() + self.adjust;
        if self.technique.is_chain() {
            r += length_increment(self.complexity);
        }
        (r * 10.0).round() / 10.0
    }

    /// The step `t` makes of this one on the transformed board: its cells
    /// and digits moved and relabelled. Its words and unit names are kept:
    /// they are written in the player's names when it is found (see
    /// `board::with_names`).
    pub(crate) fn transformed(&self, t: &crate::canon::GridTransform) -> Step {
        let mut s = self.clone();
        let cd = |&(c, d): &(usize, u8)| (t.cell(c), t.digit(d));
        s.placements = self.placements.iter().map(cd).collect();
        s.eliminations = self.eliminations.iter().map(cd).collect();
        s.cells = self.cells.iter().map(|&c| t.cell(c)).collect();
        s.digits = self.digits.iter().map(|&d| t.digit(d)).collect();
        s
    }

    /// Does the step change anything?
    pub fn is_productive(&self) -> bool {
        !self.placements.is_empty() || !self.eliminations.is_empty()
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1} {}", self.rating(), self.description)
    }
}
