//! An independent check that a set of options solves a problem.
//!
//! This code shares nothing with the engines: it reads the problem's options
//! and counts, item by item, how each is covered. Tests run every solution an
//! engine reports through it.

use crate::problem::{ColorId, OptionId, Problem};
use std::fmt;

/// Why a set of options is not a solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("option {0} does not exist")]
    NoSuchOption(OptionId),
    #[error("option {0} has no primary item, so it is not part of the problem")]
    InactiveOption(OptionId),
    #[error("option {0} is chosen twice")]
    RepeatedOption(OptionId),
    #[error("primary item {0} is not covered")]
    Uncovered(String),
    #[error(
        "primary item {item} is covered {}, not between {lo} and {hi}",
        crate::plural(count, "time", "times")
    )]
    Multiplicity {
        item: String,
        count: u32,
        lo: u32,
        hi: u32,
    },
    #[error("{0} item {1} is covered by options {2} and {3}")]
    Overlap(Kind, String, OptionId, OptionId),
    #[error("secondary item {item} has colour {a:?} in option {oa} but {b:?} in option {ob}")]
    ColorClash {
        item: String,
        a: String,
        oa: OptionId,
        b: String,
        ob: OptionId,
    },
}

/// Primary or secondary, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Primary,
    Secondary,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Primary => "primary",
            Kind::Secondary => "secondary",
        })
    }
}

/// What [`verify`] checks of a solution of `problem`, in words, for a
/// program to say after it checked: `every primary item covered exactly
/// once, every secondary item at most once or in one colour`.
pub fn what_is_checked(problem: &Problem) -> &'static str {
    match (problem.has_multiplicities(), problem.n_primary() < problem.n_items()) {
        (false, false) => "every item covered exactly once",
        (false, true) => {
            "every primary item covered exactly once, every secondary item at most once or in one colour"
        }
        (true, false) => "every item covered as many times as its multiplicity allows",
        (true, true) => {
            "every primary item covered as many times as its multiplicity allows, every secondary item at most once or in one colour"
        }
    }
}

/// Checks that `options` is a solution of `problem`: every primary item is
/// covered exactly once; every secondary item at most once, or by several
/// options that all give it the same colour.
pub fn verify(problem: &Problem, options: &[OptionId]) -> Result<(), VerifyError> {
    // For each item: the first option that used it, and the colour it gave.
    let mut by: Vec<Option<(OptionId, ColorId)>> = vec![None; problem.n_items()];
    let mut times = vec![0u32; problem.n_primary()];
    let mut seen = std::collections::HashSet::new();
    for &o in options {
        if o >= problem.n_options() {
            return Err(VerifyError::NoSuchOption(o));
        }
        if !problem.is_active(o) {
            return Err(VerifyError::InactiveOption(o));
        }
        if !seen.insert(o) {
            return Err(VerifyError::RepeatedOption(o));
        }
        for e in problem.option(o).entries() {
            let name = || problem.item_name(e.item).to_string();
            if problem.is_primary(e.item) && problem.has_multiplicities() {
                times[e.item] += 1;
                continue;
            }
            match by[e.item] {
                None => by[e.item] = Some((o, e.color)),
                Some((prev, pc)) => {
                    if problem.is_primary(e.item) {
                        return Err(VerifyError::Overlap(Kind::Primary, name(), prev, o));
                    }
                    if pc == 0 || e.color == 0 {
                        return Err(VerifyError::Overlap(Kind::Secondary, name(), prev, o));
                    }
                    if pc != e.color {
                        return Err(VerifyError::ColorClash {
                            item: name(),
                            a: problem.color_name(pc).to_string(),
                            oa: prev,
                            b: problem.color_name(e.color).to_string(),
                            ob: o,
                        });
                    }
                }
            }
        }
    }
    if problem.has_multiplicities() {
        for (i, &t) in times.iter().enumerate() {
            let (lo, hi) = problem.bounds(i);
            if t < lo || t > hi {
                return Err(VerifyError::Multiplicity {
                    item: problem.item_name(i).to_string(),
                    count: t,
                    lo,
                    hi,
                });
            }
        }
        return Ok(());
    }
    for (i, b) in by.iter().enumerate().take(problem.n_primary()) {
        if b.is_none() {
            return Err(VerifyError::Uncovered(problem.item_name(i).to_string()));
        }
    }
    Ok(())
}
