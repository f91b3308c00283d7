//! The names of the engines ([`EngineKind`]): a leaf, imported by the
//! engines for their errors; what each kind takes and builds is
//! `choose.rs`'s.

use std::fmt;
use std::str::FromStr;

/// The engines there are, and `Auto`, which stands for the one
/// [`choose_engine`](super::choose_engine) picks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EngineKind {
    /// Whichever engine [`choose_engine`](super::choose_engine) picks for the problem.
    #[default]
    Auto,
    /// Dancing links, step for step with Knuth's DLX1/DLX2: [`crate::engines::dlx`].
    Dlx,
    /// Dancing links with multiplicities (Knuth's DLX3 input):
    /// [`crate::engines::dlxm`]. Takes every problem.
    Dlxm,
    /// Bit masks, first uncovered item: for packings of up to 512 items,
    /// [`crate::engines::bitset`].
    Bitset,
    /// Bitmaps of options, Knuth's branching rule (the item with the
    /// fewest options): [`crate::engines::bitmrv`]. Takes everything but very large
    /// problems.
    BitMrv,
}

impl EngineKind {
    /// Every engine (not `Auto`), for tests that run a suite against all
    /// of them.
    pub const ALL: &'static [EngineKind] = &[
        EngineKind::Dlx,
        EngineKind::Dlxm,
        EngineKind::Bitset,
        EngineKind::BitMrv,
    ];

    /// Every name [`FromStr`] takes, `auto` first.
    pub const NAMES: &'static [&'static str] = &["auto", "dlx", "dlxm", "bitset", "bitmrv"];

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Auto => "auto",
            EngineKind::Dlx => "dlx",
            EngineKind::Dlxm => "dlxm",
            EngineKind::Bitset => "bitset",
            EngineKind::BitMrv => "bitmrv",
        }
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An engine name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine {0:?} (known: auto, dlx, dlxm, bitset, bitmrv)")]
pub struct UnknownEngine(pub String);

impl FromStr for EngineKind {
    type Err = UnknownEngine;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(EngineKind::Auto),
            "dlx" => Ok(EngineKind::Dlx),
            "dlxm" => Ok(EngineKind::Dlxm),
            "bitset" => Ok(EngineKind::Bitset),
            "bitmrv" => Ok(EngineKind::BitMrv),
            _ => Err(UnknownEngine(s.to_string())),
        }
    }
}
