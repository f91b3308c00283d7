//! # Parts of one run, put together
//!
//! A run split into N parts (a search's shards, a Sudoku batch's parts)
//! comes back as N files, numbered K = 1..N. Whatever the kind, the same
//! checks come before their sum: the files are parts of one run (the same
//! version, input, split: each kind says which of its fields must agree,
//! through [`PartHeader::differs`]), each is numbered within 1..N, no number
//! comes twice, and none is missing; and the same answer is given when a
//! run is to be finished: the numbers to run again, as `sbatch --array`
//! takes them ([`ToRerun`]). This module is that logic, written once for
//! both kinds ([`crate::search`] and [`crate::batch`] implement [`PartHeader`]).
//!
//! Everything here works in time and memory of the parts given, never of
//! N (which a file may say is 2^64 - 1): the missing numbers are found
//! between the numbers given, and at most [`MAX_LISTED`] are named.

use std::collections::BTreeMap;

/// At most this many missing or incomplete parts are named.
pub const MAX_LISTED: usize = 1000;

/// What every saved part says of itself.
pub trait PartHeader {
    /// The word for one part in messages: `shard` or `part`.
    const NOUN: &'static str;
    /// Its number K (1-based), when it says.
    fn number(&self) -> Option<usize>;
    /// The number N of parts of its run, when it says.
    fn of(&self) -> Option<usize>;
    /// It ran to its end.
    fn complete(&self) -> bool;
    /// The first way this is not a part of the same run as `first`.
    fn differs(&self, first: &Self) -> Option<Differs>;
}

/// A field of a part file that all parts of a run share, as messages
/// name it.
#[derive(Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name: `version`, `numbers of lines`.
    pub what: &'static str,
    /// What a difference means: empty, or a clause that starts with `: `.
    pub why: &'static str,
}

impl Field {
    /// A field whose difference needs no word of why.
    pub const fn named(what: &'static str) -> Field {
        Field { what, why: "" }
    }
}

/// How two parts are not parts of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Differs {
    /// A field differs: which, and the two values.
    Field {
        field: &'static Field,
        first: String,
        other: String,
    },
    /// They split the work differently.
    Split,
}

/// Parts that are not the parts of one run, or not all of them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartsError {
    #[error("no {noun} files")]
    NoParts { noun: &'static str },
    #[error("{noun} result without a {noun} count")]
    NoCount { noun: &'static str },
    #[error("{noun} result without a {noun} number")]
    NoNumber { noun: &'static str },
    /// Two files disagree on `what`: `first` (the first file named) has
    /// `first_value`, `other` has `other_value`; the message names both in
    /// that order.
    #[error(
        "{first} and {other}: different {} ({first_value} and {other_value}){}",
        field.what,
        field.why
    )]
    Different {
        first: String,
        other: String,
        field: &'static Field,
        first_value: String,
        other_value: String,
    },
    #[error("{first} and {other}: different splits of the search")]
    Split { first: String, other: String },
    #[error("{file}: {noun} {k} of {n} is out of range")]
    OutOfRange {
        noun: &'static str,
        file: String,
        k: usize,
        n: usize,
    },
    #[error("{noun} {k} of {n} appears twice: {a} and {b}")]
    Twice {
        noun: &'static str,
        k: usize,
        n: usize,
        a: String,
        b: String,
    },
    /// The parts missing (their numbers K; the first [`MAX_LISTED`]).
    #[error("missing {noun}s of {n}: {}", list(missing))]
    Missing {
        noun: &'static str,
        n: usize,
        missing: Vec<usize>,
    },
    /// The parts that did not finish: their numbers and files (the first
    /// [`MAX_LISTED`]).
    #[error("incomplete {noun}s of {n}: {}", list_files(incomplete))]
    Incomplete {
        noun: &'static str,
        n: usize,
        incomplete: Vec<(usize, String)>,
    },
}

fn list(ks: &[usize]) -> String {
    ks.iter()
        .map(|k| k.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn list_files(parts: &[(usize, String)]) -> String {
    parts
        .iter()
        .map(|(k, f)| format!("{k} ({f})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parts that passed [`numbered`]: N, and the index of each part given
/// by its number K, in order of K.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbered {
    pub n: usize,
    pub by_number: BTreeMap<usize, usize>,
}

/// The checks every part passes before parts are put together: parts of
/// one run (see [`PartHeader::differs`]), numbered within it, each number once.
/// `parts` are (name, record) pairs; the names are for messages.
pub fn numbered<P: PartHeader>(parts: &[(String, P)]) -> Result<Numbered, PartsError> {
    let noun = P::NOUN;
    let Some((f0, first)) = parts.first() else {
        return Err(PartsError::NoParts { noun });
    };
    let n = first.of().ok_or(PartsError::NoCount { noun })?;
    for (f, p) in parts {
        match p.differs(first) {
            None if p.of() == Some(n) => {}
            Some(Differs::Field {
                field,
                first: first_value,
                other,
            }) => {
                return Err(PartsError::Different {
                    first: f0.clone(),
                    other: f.clone(),
                    field,
                    first_value,
                    other_value: other,
                })
            }
            _ => {
                return Err(PartsError::Split {
                    first: f0.clone(),
                    other: f.clone(),
                })
            }
        }
    }
    let mut by_number = BTreeMap::new();
    for (i, (f, p)) in parts.iter().enumerate() {
        let k = p.number().ok_or(PartsError::NoNumber { noun })?;
        if k == 0 || k > n {
            return Err(PartsError::OutOfRange {
                noun,
                file: f.clone(),
                k,
                n,
            });
        }
        if let Some(j) = by_number.insert(k, i) {
            return Err(PartsError::Twice {
                noun,
                k,
                n,
                a: parts[j].0.clone(),
                b: f.clone(),
            });
        }
    }
    Ok(Numbered { n, by_number })
}

impl Numbered {
    /// The numbers from 1 to N that no part has: the first
    /// [`MAX_LISTED`], found in time of the parts given (not of N).
    pub fn missing(&self) -> Vec<usize> {
        let mut missing = Vec::new();
        let mut next = 1usize;
        for &k in self.by_number.keys() {
            missing.extend((next..k).take(MAX_LISTED - missing.len()));
            match k.checked_add(1) {
                Some(after) => next = after,
                // K is usize::MAX: nothing comes after it
                None => return missing,
            }
        }
        if next <= self.n {
            missing.extend((next..=self.n).take(MAX_LISTED - missing.len()));
        }
        missing
    }

    /// Refuses parts with a number missing.
    pub fn all_there<P: PartHeader>(&self) -> Result<(), PartsError> {
        let missing = self.missing();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(PartsError::Missing {
                noun: P::NOUN,
                n: self.n,
                missing,
            })
        }
    }

    /// Refuses parts that did not finish.
    pub fn all_complete<P: PartHeader>(&self, parts: &[(String, P)]) -> Result<(), PartsError> {
        let incomplete: Vec<(usize, String)> = self
            .by_number
            .iter()
            .filter(|(_, &i)| !parts[i].1.complete())
            .map(|(&k, &i)| (k, parts[i].0.clone()))
            .take(MAX_LISTED)
            .collect();
        if incomplete.is_empty() {
            Ok(())
        } else {
            Err(PartsError::Incomplete {
                noun: P::NOUN,
                n: self.n,
                incomplete,
            })
        }
    }

    /// What is to run again: the parts missing and those given that did
    /// not finish.
    pub fn to_rerun<P: PartHeader>(&self, parts: &[(String, P)]) -> ToRerun {
        let (good, incomplete): (Vec<usize>, Vec<usize>) = self
            .by_number
            .iter()
            .map(|(&k, _)| k)
            .partition(|k| parts[self.by_number[k]].1.complete());
        ToRerun::new(self.n, good, incomplete)
    }
}

/// What a run in parts still needs run again: the parts missing and the
/// parts that did not finish, as ranges of their numbers K (`3-5,9`, the
/// form of `sbatch --array`), found in time and memory of the parts given
/// (not of N).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToRerun {
    /// The number of parts.
    pub n: usize,
    /// Every K to run again, as inclusive ranges, in order.
    pub ranges: Vec<(usize, usize)>,
    /// Of those, the parts given that did not finish.
    pub incomplete: Vec<usize>,
}

impl ToRerun {
    /// The parts of `n` to run again when the parts `good` finished
    /// (the others: missing, or among `incomplete`, the parts given that
    /// did not finish).
    pub fn new(n: usize, mut good: Vec<usize>, mut incomplete: Vec<usize>) -> ToRerun {
        good.sort_unstable();
        good.dedup();
        incomplete.sort_unstable();
        // the gaps between the parts that finished (`n` may be usize::MAX:
        // nothing here goes past it)
        let mut ranges = Vec::new();
        // the first part not yet looked at; `None` past usize::MAX
        let mut next = Some(1usize);
        for k in good.into_iter().filter(|&k| (1..=n).contains(&k)) {
            let Some(from) = next else { break };
            if k > from {
                ranges.push((from, k - 1));
            }
            next = k.checked_add(1);
        }
        if let Some(from) = next.filter(|&f| f <= n) {
            ranges.push((from, n));
        }
        ToRerun {
            n,
            ranges,
            incomplete,
        }
    }

    /// `3-5,9` (empty when nothing is to run again).
    pub fn array(&self) -> String {
        self.ranges
            .iter()
            .map(|&(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// What is to run again, in words, when `given` parts were given: `3
    /// of 8 parts: to run again: 4-8 (incomplete: 4)`, or `none to run
    /// again`.
    pub fn summary(&self, given: usize) -> String {
        let array = self.array();
        let what = match array.is_empty() {
            true => "none to run again".to_string(),
            false => format!("to run again: {array}"),
        };
        let incomplete: Vec<String> = self.incomplete.iter().map(|k| k.to_string()).collect();
        let incomplete = match incomplete.is_empty() {
            true => String::new(),
            false => format!(" (incomplete: {})", incomplete.join(", ")),
        };
        let parts = dancer_core::plural(given, "part", "parts");
        format!("{parts} of {}: {what}{incomplete}", self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A part of a toy run: its number, N, a field that must agree, and
    /// whether it finished.
    #[derive(Clone)]
    struct Toy {
        k: Option<usize>,
        n: Option<usize>,
        input: &'static str,
        complete: bool,
    }

    impl PartHeader for Toy {
        const NOUN: &'static str = "part";
        fn number(&self) -> Option<usize> {
            self.k
        }
        fn of(&self) -> Option<usize> {
            self.n
        }
        fn complete(&self) -> bool {
            self.complete
        }
        fn differs(&self, first: &Self) -> Option<Differs> {
            const INPUTS: Field = Field::named("inputs");
            (self.input != first.input).then(|| Differs::Field {
                field: &INPUTS,
                first: first.input.into(),
                other: self.input.into(),
            })
        }
    }

    fn toy(k: usize, n: usize) -> (String, Toy) {
        (
            format!("p{k}"),
            Toy {
                k: Some(k),
                n: Some(n),
                input: "x",
                complete: true,
            },
        )
    }

    #[test]
    fn parts_of_one_run_are_numbered_once_each() {
        let parts = vec![toy(3, 5), toy(1, 5)];
        let m = numbered(&parts).unwrap();
        assert_eq!(m.n, 5);
        assert_eq!(
            m.by_number.into_iter().collect::<Vec<_>>(),
            [(1, 1), (3, 0)]
        );
        let twice = vec![toy(2, 5), toy(2, 5)];
        assert_eq!(
            numbered(&twice).unwrap_err().to_string(),
            "part 2 of 5 appears twice: p2 and p2"
        );
        let out = vec![toy(6, 5)];
        assert_eq!(
            numbered(&out).unwrap_err().to_string(),
            "p6: part 6 of 5 is out of range"
        );
        let mut other = toy(2, 5);
        other.1.input = "y";
        assert_eq!(
            numbered(&[toy(1, 5), other]).unwrap_err().to_string(),
            "p1 and p2: different inputs (x and y)"
        );
        assert_eq!(
            numbered(&[toy(1, 5), toy(2, 6)]).unwrap_err(),
            PartsError::Split {
                first: "p1".into(),
                other: "p2".into()
            }
        );
        assert_eq!(
            numbered::<Toy>(&[]).unwrap_err().to_string(),
            "no part files"
        );
    }

    /// The missing numbers are found between the numbers given, at most
    /// MAX_LISTED of them, whatever N; what is to run again agrees.
    #[test]
    fn missing_parts_in_time_of_the_parts_given() {
        let parts = vec![toy(2, 7), toy(4, 7)];
        let m = numbered(&parts).unwrap();
        assert_eq!(m.missing(), [1, 3, 5, 6, 7]);
        assert_eq!(
            m.all_there::<Toy>().unwrap_err().to_string(),
            "missing parts of 7: 1, 3, 5, 6, 7"
        );
        assert_eq!(m.to_rerun(&parts).array(), "1,3,5-7");
        let huge = vec![toy(1, usize::MAX)];
        let m = numbered(&huge).unwrap();
        let missing = m.missing();
        assert_eq!(missing.len(), MAX_LISTED);
        assert_eq!(missing[0], 2);
        assert_eq!(m.to_rerun(&huge).array(), format!("2-{}", usize::MAX));
        let mut stopped = toy(1, 2);
        stopped.1.complete = false;
        let parts = vec![stopped, toy(2, 2)];
        let m = numbered(&parts).unwrap();
        assert!(m.all_there::<Toy>().is_ok());
        assert_eq!(
            m.all_complete(&parts).unwrap_err().to_string(),
            "incomplete parts of 2: 1 (p1)"
        );
        let r = m.to_rerun(&parts);
        assert_eq!((r.array(), r.incomplete), ("1".to_string(), vec![1]));
    }
}
