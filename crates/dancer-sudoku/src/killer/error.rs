//! What is wrong with a killer puzzle's text: its own file, below both
//! the killer module and `crate::puzzle` (whose `PuzzleError` wraps it),
//! so that neither needs the other for it.

/// What is wrong with a killer puzzle's line. Columns are 1-based
/// characters of the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KillerError {
    #[error("a killer puzzle is MAP SUMS [GIVENS]; this line has {0} fields")]
    Fields(usize),
    #[error(
        "the map has {found} cells: a killer's map has {} cells (a {} grid, the sizes with boxes)",
        map_lengths_words(),
        sizes_words()
    )]
    MapLength { found: usize },
    /// A map of a square number of cells whose side has no boxes (a
    /// prime), read under the plain rules of its size.
    #[error(
        "the map has {cells} cells, a {size}x{size} grid, which has no boxes ({size} is a prime): a killer's map has {} cells (a {} grid, the sizes with boxes)",
        map_lengths_words(),
        sizes_words()
    )]
    NoBoxes { cells: usize, size: usize },
    #[error("map column {column}: {ch:?} cannot name a cage (letters and digits, or . for none)")]
    BadCageName { ch: char, column: usize },
    #[error("cage {name:?} is in two pieces ({a} and {b} are not joined through the cage)")]
    Disconnected { name: String, a: String, b: String },
    #[error("cage {name:?} has {cells} cells: at most {size} fit without a digit twice")]
    CageTooBig {
        name: String,
        cells: usize,
        size: usize,
    },
    #[error("the map has {cages} cages but {sums} sums are given")]
    SumsCount { cages: usize, sums: usize },
    #[error("sum {index} ({text:?}) is not a whole number")]
    BadSum { index: usize, text: String },
    #[error("cage {name:?} ({first}) has sum {sum}, which {cells} different digits from 1 to {size} cannot make (from {least} to {most})")]
    ImpossibleSum {
        name: String,
        first: String,
        sum: u32,
        cells: usize,
        size: usize,
        least: u32,
        most: u32,
    },
    #[error("the givens: {0}")]
    Givens(String),
    #[error("cage {name:?} holds two {digit}s among its givens")]
    GivenTwice { name: String, digit: u8 },
    #[error("cage {name:?} ({first}): its givens cannot be completed to its sum {sum}")]
    GivensPastSum {
        name: String,
        first: String,
        sum: u32,
    },
    #[error("{0}")]
    Rules(String),
    /// The JSON form: not JSON of the form, or a cell named wrongly or
    /// twice.
    #[error("the JSON form: {0}")]
    Json(String),
}

/// The sides of the killer puzzles read under the plain rules of their
/// size (no rules given): from 4 to 16, those with boxes (the rule of
/// `Rules::standard`: a prime has none).
pub fn plain_sizes() -> Vec<usize> {
    (4..=16)
        .filter(|&n| crate::rules::Rules::standard(n).is_ok())
        .collect()
}

/// `a, b or c`.
fn one_of(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The sides of [`plain_sizes`] in words: `4x4, 6x6, ... or 16x16`.
pub fn sizes_words() -> String {
    let sizes: Vec<String> = plain_sizes()
        .into_iter()
        .map(|n| format!("{n}x{n}"))
        .collect();
    one_of(&sizes)
}

/// The cells of their maps: `16, 36, ... or 256`.
pub fn map_lengths_words() -> String {
    let cells: Vec<String> = plain_sizes()
        .into_iter()
        .map(|n| (n * n).to_string())
        .collect();
    one_of(&cells)
}
