//! The problem model: items, options, colours, and a validating builder.
//!
//! An exact cover problem has *items* and *options*. Each option is a set of
//! items. The first `n_primary` items are *primary*: a solution covers each of
//! them exactly once. The remaining items are *secondary*: a solution covers
//! each at most once, except that several options may share a secondary item
//! when they all give it the same *colour* (Knuth's Algorithm C, his DLX2).
//! An uncoloured use of a secondary item excludes every other use.
//!
//! Items and options are numbered from 0 in the order they were added. Colours
//! are interned names; [`ColorId`] 0 is reserved for "no colour".
//!
//! Options that contain no primary item can never be chosen by Algorithm X;
//! Knuth's programs drop them with a warning. [`ProblemBuilder`] keeps them in
//! the problem, so that option numbers stay equal to input order, but records
//! a [`Warning`] and marks them inactive; engines never link them.

use rustc_hash::FxHashMap;
use std::fmt;

/// Index of an item (0-based; primary items come first).
pub type ItemId = usize;
/// Index of an option (0-based, in the order options were added).
pub type OptionId = usize;
/// Interned colour. 0 means "no colour".
pub type ColorId = u32;

/// Flag bit marking a spacer in [`Problem`]'s flat slot array. The low bits of
/// a spacer hold the number of the option that follows it.
pub(crate) const SPACER: u32 = 1 << 31;

/// Largest number of slots (entries plus one spacer per option) a problem may
/// hold, so that every index fits in a `u32` below the spacer flag.
pub const MAX_SLOTS: usize = (SPACER as usize) - 1;

/// One option in `STRIDE` has its spacer's position recorded.
const STRIDE: usize = 32;

/// Why a problem could not be built. Positions are 0-based and refer to the
/// builder's calls: the option number and the position of the entry within it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("item name {0:?} is declared twice")]
    DuplicateItem(String),
    #[error("invalid item name {name:?}: {why}")]
    InvalidItemName { name: String, why: &'static str },
    #[error("invalid colour name {name:?}: {why}")]
    InvalidColorName { name: String, why: &'static str },
    #[error("primary item {0:?} declared after secondary items")]
    PrimaryAfterSecondary(String),
    #[error("unknown item {name:?} (option {option}, entry {entry})")]
    UnknownItem {
        name: String,
        option: OptionId,
        entry: usize,
    },
    #[error("item {name:?} appears twice in option {option} (entry {entry})")]
    RepeatedItem {
        name: String,
        option: OptionId,
        entry: usize,
    },
    #[error("colour given for primary item {name:?} (option {option}, entry {entry})")]
    ColorOnPrimary {
        name: String,
        option: OptionId,
        entry: usize,
    },
    #[error("the problem has no primary items")]
    NoPrimaryItems,
    /// An option without entries: it covers nothing, and neither format
    /// can write it (a blank DLX line is not an option).
    #[error("option {0} has no items")]
    EmptyOption(OptionId),
    #[error("the problem is too large: more than {MAX_SLOTS} entries and options")]
    TooLarge,
    #[error("item id {0} out of range")]
    ItemOutOfRange(ItemId),
    #[error("item {name:?}: bounds {lo}:{hi} are impossible (need lo <= hi and hi >= 1)")]
    BadBounds { name: String, lo: u32, hi: u32 },
}

/// Something worth telling the user that does not stop the problem from being
/// built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// The option has no primary item; it is kept (so numbering is unchanged)
    /// but no engine will ever choose it, as in Knuth's programs.
    NoPrimaryItem { option: OptionId },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::NoPrimaryItem { option } => {
                write!(f, "option {option} has no primary item and is ignored")
            }
        }
    }
}

/// One entry of an option: an item and its colour (0 when uncoloured).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Entry {
    pub item: ItemId,
    pub color: ColorId,
}

/// An exact cover problem, possibly with secondary items and colours.
///
/// Storage is compact: one `u32` per entry plus one per option (a spacer),
/// a second `u32` per entry only if some entry has a colour, and the
/// item names. Engines read the option entries in place.
#[derive(Clone)]
pub struct Problem {
    names: Vec<Box<str>>,
    index: FxHashMap<Box<str>, u32>,
    n_primary: usize,
    color_names: Vec<Box<str>>,
    /// `[spacer 0, entries of option 0, spacer 1, entries of option 1, ..., spacer m]`.
    slots: Vec<u32>,
    /// Colour per slot (0 for none and for spacers); empty when no entry is coloured.
    colors: Vec<u32>,
    n_options: usize,
    /// `spacers[j]` is the slot index of spacer `STRIDE * j`; the others are
    /// found by scanning forward (a spacer's slot names its option), which
    /// keeps this index at a fraction of a byte per option.
    spacers: Vec<u32>,
    /// Bit `k` is set when option `k` has a primary item.
    active: Vec<u64>,
    /// (least, most) times each primary item is to be covered; empty when
    /// every primary item is covered exactly once.
    bounds: Vec<(u32, u32)>,
    warnings: Vec<Warning>,
}

impl fmt::Debug for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Problem")
            .field("primary", &self.n_primary)
            .field("secondary", &self.n_secondary())
            .field("options", &self.n_options())
            .field("entries", &self.n_entries())
            .finish()
    }
}

/// A borrowed view of one option.
#[derive(Clone, Copy)]
pub struct OptionRef<'a> {
    items: &'a [u32],
    colors: Option<&'a [u32]>,
}

impl<'a> OptionRef<'a> {
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// The items, in the order they were given.
    pub fn items(&self) -> impl ExactSizeIterator<Item = ItemId> + 'a {
        self.items.iter().map(|&i| i as ItemId)
    }
    /// The entries (item and colour), in the order they were given.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = Entry> + 'a {
        let colors = self.colors;
        self.items.iter().enumerate().map(move |(k, &i)| Entry {
            item: i as ItemId,
            color: colors.map_or(0, |c| c[k]),
        })
    }
}

/// The options of a problem in order (see [`Problem::options`]).
struct OptionsIter<'a> {
    problem: &'a Problem,
    /// The slot after the next option's spacer.
    at: usize,
    left: usize,
}

impl<'a> Iterator for OptionsIter<'a> {
    type Item = OptionRef<'a>;
    fn next(&mut self) -> Option<OptionRef<'a>> {
        if self.left == 0 {
            return None;
        }
        let slots = &self.problem.slots;
        let a = self.at;
        let mut b = a;
        while slots[b] & SPACER == 0 {
            b += 1;
        }
        self.at = b + 1;
        self.left -= 1;
        let colors = &self.problem.colors;
        Some(OptionRef {
            items: &slots[a..b],
            colors: if colors.is_empty() {
                None
            } else {
                Some(&colors[a..b])
            },
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for OptionsIter<'_> {}

impl Problem {
    /// Number of items, primary and secondary.
    pub fn n_items(&self) -> usize {
        self.names.len()
    }
    /// Number of primary items; they are items `0..n_primary()`.
    pub fn n_primary(&self) -> usize {
        self.n_primary
    }
    /// Number of secondary items; they are items `n_primary()..n_items()`.
    pub fn n_secondary(&self) -> usize {
        self.names.len() - self.n_primary
    }
    /// Number of options, active or not.
    pub fn n_options(&self) -> usize {
        self.n_options
    }
    /// Total number of entries over all options.
    pub fn n_entries(&self) -> usize {
        self.slots.len() - self.n_options - 1
    }
    pub fn is_primary(&self, item: ItemId) -> bool {
        item < self.n_primary
    }
    /// How many times an item must be covered: (least, most). (1, 1) for
    /// plain primary items, (0, 1) for secondary ones.
    pub fn bounds(&self, item: ItemId) -> (u32, u32) {
        if item >= self.n_primary {
            (0, 1)
        } else if self.bounds.is_empty() {
            (1, 1)
        } else {
            self.bounds[item]
        }
    }
    /// Whether some primary item has a multiplicity other than exactly once
    /// (Knuth's DLX3 `u:v|name`).
    pub fn has_multiplicities(&self) -> bool {
        !self.bounds.is_empty()
    }
    pub fn item_name(&self, item: ItemId) -> &str {
        &self.names[item]
    }
    /// Looks an item up by name.
    pub fn item_id(&self, name: &str) -> Option<ItemId> {
        self.index.get(name).map(|&i| i as ItemId)
    }
    /// Whether any entry carries a colour.
    pub fn has_colors(&self) -> bool {
        !self.colors.is_empty()
    }
    /// Number of distinct colours (ids `1..=n_colors()`).
    pub fn n_colors(&self) -> usize {
        self.color_names.len() - 1
    }
    /// Name of colour `c` (`""` for 0, no colour).
    pub fn color_name(&self, c: ColorId) -> &str {
        &self.color_names[c as usize]
    }
    pub fn color_id(&self, name: &str) -> Option<ColorId> {
        self.color_names
            .iter()
            .skip(1)
            .position(|n| &**n == name)
            .map(|p| p as ColorId + 1)
    }
    /// Option `k`.
    pub fn option(&self, k: OptionId) -> OptionRef<'_> {
        assert!(k < self.n_options, "option {k} out of range");
        let std::ops::Range { start: a, end: b } = self.option_slots(k);
        OptionRef {
            items: &self.slots[a..b],
            colors: if self.colors.is_empty() {
                None
            } else {
                Some(&self.colors[a..b])
            },
        }
    }
    /// Iterates over all options, in order: one pass over the entries
    /// (cheaper than calling [`option`](Self::option) for each).
    pub fn options(&self) -> impl ExactSizeIterator<Item = OptionRef<'_>> {
        OptionsIter {
            problem: self,
            at: 1,
            left: self.n_options,
        }
    }
    /// Whether option `k` has a primary item (only such options can be chosen).
    pub fn is_active(&self, k: OptionId) -> bool {
        self.active[k / 64] >> (k % 64) & 1 == 1
    }
    /// Warnings recorded while building (options dropped, ...).
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }
    /// Option `k` as one line of Knuth's DLX format: item names separated by
    /// spaces, `name:colour` for coloured entries.
    pub fn option_text(&self, k: OptionId) -> String {
        let mut s = String::new();
        for (j, e) in self.option(k).entries().enumerate() {
            if j > 0 {
                s.push(' ');
            }
            s.push_str(self.item_name(e.item));
            if e.color != 0 {
                s.push(':');
                s.push_str(self.color_name(e.color));
            }
        }
        s
    }

    // ----- crate-internal access for engines -----

    /// The flat slot array (see the struct's documentation).
    pub(crate) fn slots(&self) -> &[u32] {
        &self.slots
    }
    pub(crate) fn slot_colors(&self) -> &[u32] {
        &self.colors
    }
    /// Slot index of spacer `k` (the one before option `k`; `k` may be
    /// `n_options()`, the final spacer).
    pub(crate) fn spacer(&self, k: OptionId) -> usize {
        let mut i = self.spacers[k / STRIDE] as usize;
        let want = SPACER | k as u32;
        while self.slots[i] != want {
            i += 1;
        }
        i
    }
    /// The slots of option `k`'s entries.
    pub(crate) fn option_slots(&self, k: OptionId) -> std::ops::Range<usize> {
        let a = self.spacer(k) + 1;
        let mut b = a;
        while self.slots[b] & SPACER == 0 {
            b += 1;
        }
        a..b
    }
    /// The option that the entry in slot `slot` belongs to (the engines'
    /// nodes are slots): the number in the spacer that ends it.
    pub(crate) fn option_at_slot(&self, slot: usize) -> OptionId {
        let mut s = slot;
        while self.slots[s] & SPACER == 0 {
            s += 1;
        }
        (self.slots[s] & !SPACER) as usize - 1
    }
}

/// Builds a [`Problem`], checking every rule as it goes.
///
/// ```
/// use dancer_core::ProblemBuilder;
/// let mut b = ProblemBuilder::new();
/// for name in ["a", "b", "c"] { b.primary(name).unwrap(); }
/// b.secondary("x").unwrap();
/// b.option(["a", "b"]).unwrap();
/// b.option(["c", "x:red"]).unwrap();
/// let p = b.build().unwrap();
/// assert_eq!(p.n_options(), 2);
/// ```
#[derive(Default)]
pub struct ProblemBuilder {
    names: Vec<Box<str>>,
    index: FxHashMap<Box<str>, u32>,
    n_primary: usize,
    color_names: Vec<Box<str>>,
    color_index: FxHashMap<Box<str>, u32>,
    slots: Vec<u32>,
    colors: Vec<u32>,
    /// Slot index of the open (or next) option's spacer.
    cur: usize,
    n_options: usize,
    spacers: Vec<u32>,
    active: Vec<u64>,
    bounds: Vec<(u32, u32)>,
    warnings: Vec<Warning>,
    /// For each item, 1 + the last option that used it (repeat detection).
    stamp: Vec<u32>,
    /// An option is open (begun but not finished).
    open: bool,
    open_has_primary: bool,
    /// The first option finished without entries (refused by `build`).
    first_empty: Option<OptionId>,
}

fn check_item_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("empty name");
    }
    if name.chars().any(char::is_whitespace) {
        return Err("contains whitespace");
    }
    if name.contains(':') {
        return Err("contains ':'");
    }
    if name.contains('|') {
        return Err("contains '|'");
    }
    Ok(())
}

fn check_color_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("empty name");
    }
    if name.chars().any(char::is_whitespace) {
        return Err("contains whitespace");
    }
    if name.contains(':') || name.contains('|') {
        return Err("contains ':' or '|'");
    }
    Ok(())
}

impl ProblemBuilder {
    pub fn new() -> Self {
        ProblemBuilder {
            color_names: vec!["".into()],
            slots: vec![SPACER],
            spacers: vec![0],
            ..Default::default()
        }
    }

    /// Reserves room for `options` options with `entries` entries in all.
    pub fn reserve(&mut self, options: usize, entries: usize) {
        self.slots.reserve(options + entries);
        self.spacers.reserve(options / STRIDE + 1);
        self.active.reserve(options / 64 + 1);
    }

    fn add_item(&mut self, name: &str) -> Result<ItemId, BuildError> {
        check_item_name(name).map_err(|why| BuildError::InvalidItemName {
            name: name.to_string(),
            why,
        })?;
        if self.index.contains_key(name) {
            return Err(BuildError::DuplicateItem(name.to_string()));
        }
        let id = self.names.len();
        if id >= MAX_SLOTS {
            return Err(BuildError::TooLarge);
        }
        self.names.push(name.into());
        self.index.insert(name.into(), id as u32);
        self.stamp.push(0);
        Ok(id)
    }

    /// Declares a primary item. All primary items must come before the
    /// secondary ones.
    pub fn primary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        if self.names.len() > self.n_primary {
            return Err(BuildError::PrimaryAfterSecondary(name.to_string()));
        }
        let id = self.add_item(name)?;
        self.n_primary += 1;
        if !self.bounds.is_empty() {
            self.bounds.push((1, 1));
        }
        Ok(id)
    }

    /// Declares a primary item to be covered at least `lo` and at most
    /// `hi` times (Knuth's DLX3 multiplicities `lo:hi|name`).
    pub fn primary_bounded(&mut self, name: &str, lo: u32, hi: u32) -> Result<ItemId, BuildError> {
        if lo > hi || hi == 0 {
            return Err(BuildError::BadBounds {
                name: name.to_string(),
                lo,
                hi,
            });
        }
        let id = self.primary(name)?;
        if !self.bounds.is_empty() {
            // `primary` recorded (1, 1) for it
            self.bounds[id] = (lo, hi);
        } else if (lo, hi) != (1, 1) {
            self.bounds = vec![(1, 1); id];
            self.bounds.push((lo, hi));
        }
        Ok(id)
    }

    /// Declares a secondary item.
    pub fn secondary(&mut self, name: &str) -> Result<ItemId, BuildError> {
        self.add_item(name)
    }

    pub fn n_items(&self) -> usize {
        self.names.len()
    }
    pub fn n_primary(&self) -> usize {
        self.n_primary
    }
    /// Number of options finished so far.
    pub fn n_options(&self) -> usize {
        self.n_options
    }
    pub fn item_id(&self, name: &str) -> Option<ItemId> {
        self.index.get(name).map(|&i| i as ItemId)
    }
    /// Whether finished option `k` has a primary item.
    pub fn is_active(&self, k: OptionId) -> bool {
        self.active[k / 64] >> (k % 64) & 1 == 1
    }

    /// Interns a colour name.
    pub fn color(&mut self, name: &str) -> Result<ColorId, BuildError> {
        if let Some(&c) = self.color_index.get(name) {
            return Ok(c);
        }
        check_color_name(name).map_err(|why| BuildError::InvalidColorName {
            name: name.to_string(),
            why,
        })?;
        let c = self.color_names.len() as u32;
        self.color_names.push(name.into());
        self.color_index.insert(name.into(), c);
        Ok(c)
    }

    /// Adds an option given as DLX-style tokens: `name` or `name:colour`.
    pub fn option<I, S>(&mut self, tokens: I) -> Result<OptionId, BuildError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.begin_option();
        for tok in tokens {
            let tok = tok.as_ref();
            let (name, color) = match tok.split_once(':') {
                Some((n, c)) => (n, Some(c)),
                None => (tok, None),
            };
            let res = self.push_named(name, color);
            if let Err(e) = res {
                self.abandon_option();
                return Err(e);
            }
        }
        Ok(self.end_option())
    }

    /// Adds an option given by item ids and colours (0 = none).
    pub fn option_ids<I>(&mut self, entries: I) -> Result<OptionId, BuildError>
    where
        I: IntoIterator<Item = (ItemId, ColorId)>,
    {
        self.begin_option();
        for (item, color) in entries {
            if let Err(e) = self.push(item, color) {
                self.abandon_option();
                return Err(e);
            }
        }
        Ok(self.end_option())
    }

    /// Starts a new option; follow with [`push`](Self::push) or
    /// [`push_named`](Self::push_named) and finish with
    /// [`end_option`](Self::end_option). An unfinished option is discarded by
    /// the next `begin_option` or by `build`.
    pub fn begin_option(&mut self) {
        if self.open {
            self.abandon_option();
        }
        self.open = true;
        self.open_has_primary = false;
    }

    /// Discards the option being built.
    pub fn abandon_option(&mut self) {
        if self.open {
            let start = self.cur + 1;
            self.slots.truncate(start);
            if !self.colors.is_empty() {
                self.colors.truncate(start);
            }
            // Clear stamps of the abandoned option so the next one can reuse items.
            let k = self.n_options() as u32 + 1;
            for s in self.stamp.iter_mut() {
                if *s == k {
                    *s = 0;
                }
            }
            self.open = false;
        }
    }

    /// Adds an entry, by name, to the open option.
    pub fn push_named(&mut self, name: &str, color: Option<&str>) -> Result<(), BuildError> {
        let entry = self.slots.len() - (self.cur + 1);
        let option = self.n_options();
        let item = self.item_id(name).ok_or_else(|| BuildError::UnknownItem {
            name: name.to_string(),
            option,
            entry,
        })?;
        let c = match color {
            None => 0,
            Some(c) => {
                if item < self.n_primary {
                    return Err(BuildError::ColorOnPrimary {
                        name: name.to_string(),
                        option,
                        entry,
                    });
                }
                self.color(c)?
            }
        };
        self.push(item, c)
    }

    /// Adds an entry to the open option.
    pub fn push(&mut self, item: ItemId, color: ColorId) -> Result<(), BuildError> {
        assert!(self.open, "push outside begin_option/end_option");
        let entry = self.slots.len() - (self.cur + 1);
        let option = self.n_options();
        if item >= self.names.len() {
            return Err(BuildError::ItemOutOfRange(item));
        }
        let name = || self.names[item].to_string();
        if color != 0 {
            if item < self.n_primary {
                return Err(BuildError::ColorOnPrimary {
                    name: name(),
                    option,
                    entry,
                });
            }
            if color as usize >= self.color_names.len() {
                return Err(BuildError::InvalidColorName {
                    name: format!("#{color}"),
                    why: "colour id not interned",
                });
            }
        }
        let k = option as u32 + 1;
        if self.stamp[item] == k {
            return Err(BuildError::RepeatedItem {
                name: name(),
                option,
                entry,
            });
        }
        if self.slots.len() >= MAX_SLOTS {
            return Err(BuildError::TooLarge);
        }
        self.stamp[item] = k;
        if item < self.n_primary {
            self.open_has_primary = true;
        }
        if color != 0 && self.colors.is_empty() {
            self.colors = vec![0; self.slots.len()];
        }
        self.slots.push(item as u32);
        if !self.colors.is_empty() {
            self.colors.push(color);
        }
        Ok(())
    }

    /// Finishes the open option and returns its number.
    pub fn end_option(&mut self) -> OptionId {
        assert!(self.open, "end_option without begin_option");
        let k = self.n_options();
        if self.slots.len() == self.cur + 1 && self.first_empty.is_none() {
            self.first_empty = Some(k);
        }
        self.open = false;
        self.n_options += 1;
        self.cur = self.slots.len();
        if self.n_options % STRIDE == 0 {
            self.spacers.push(self.cur as u32);
        }
        self.slots.push(SPACER | (k as u32 + 1));
        if !self.colors.is_empty() {
            self.colors.push(0);
        }
        if k % 64 == 0 {
            self.active.push(0);
        }
        self.active[k / 64] |= (self.open_has_primary as u64) << (k % 64);
        if !self.open_has_primary {
            self.warnings.push(Warning::NoPrimaryItem { option: k });
        }
        k
    }

    /// Finishes the problem.
    pub fn build(mut self) -> Result<Problem, BuildError> {
        self.abandon_option();
        if self.n_primary == 0 {
            return Err(BuildError::NoPrimaryItems);
        }
        if let Some(k) = self.first_empty {
            return Err(BuildError::EmptyOption(k));
        }
        self.slots.shrink_to_fit();
        self.colors.shrink_to_fit();
        self.spacers.shrink_to_fit();
        self.active.shrink_to_fit();
        if !self.bounds.is_empty() {
            self.bounds.resize(self.n_primary, (1, 1));
        }
        Ok(Problem {
            names: self.names,
            index: self.index,
            n_primary: self.n_primary,
            color_names: self.color_names,
            slots: self.slots,
            colors: self.colors,
            n_options: self.n_options,
            spacers: self.spacers,
            active: self.active,
            bounds: self.bounds,
            warnings: self.warnings,
        })
    }
}

/// A problem from a short text, for tests: the primary items, `|` and
/// the secondary items on the first line, then an option a line.
#[cfg(test)]
pub(crate) fn from_test_text(text: &str) -> Problem {
    let mut b = ProblemBuilder::new();
    let mut lines = text.lines();
    let head = lines.next().unwrap();
    let (prim, sec) = head.split_once('|').unwrap_or((head, ""));
    for n in prim.split_whitespace() {
        b.primary(n).unwrap();
    }
    for n in sec.split_whitespace() {
        b.secondary(n).unwrap();
    }
    for l in lines {
        b.option(l.split_whitespace()).unwrap();
    }
    b.build().unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> ProblemBuilder {
        let mut b = ProblemBuilder::new();
        for n in ["a", "b", "c"] {
            b.primary(n).unwrap();
        }
        b.secondary("x").unwrap();
        b
    }

    #[test]
    fn builds_and_reads_back() {
        let mut b = toy();
        assert_eq!(b.option(["a", "x:red"]).unwrap(), 0);
        assert_eq!(b.option(["b", "c"]).unwrap(), 1);
        assert_eq!(b.option(["x"]).unwrap(), 2);
        let p = b.build().unwrap();
        assert_eq!(p.n_items(), 4);
        assert_eq!(p.n_primary(), 3);
        assert_eq!(p.n_secondary(), 1);
        assert_eq!(p.n_options(), 3);
        assert_eq!(p.n_entries(), 5);
        assert!(p.has_colors());
        assert_eq!(p.option_text(0), "a x:red");
        assert_eq!(p.option_text(1), "b c");
        assert!(p.is_active(0) && p.is_active(1) && !p.is_active(2));
        assert_eq!(p.warnings(), &[Warning::NoPrimaryItem { option: 2 }]);
        let e: Vec<Entry> = p.option(0).entries().collect();
        assert_eq!(
            e,
            vec![Entry { item: 0, color: 0 }, Entry { item: 3, color: 1 }]
        );
        assert_eq!(p.color_id("red"), Some(1));
        assert_eq!(p.item_id("c"), Some(2));
    }

    #[test]
    fn rejects_bad_input_with_locations() {
        let mut b = toy();
        b.option(["a"]).unwrap();
        assert_eq!(
            b.option(["b", "zz"]),
            Err(BuildError::UnknownItem {
                name: "zz".into(),
                option: 1,
                entry: 1
            })
        );
        assert_eq!(
            b.option(["b", "c", "b"]),
            Err(BuildError::RepeatedItem {
                name: "b".into(),
                option: 1,
                entry: 2
            })
        );
        assert_eq!(
            b.option(["a:red"]),
            Err(BuildError::ColorOnPrimary {
                name: "a".into(),
                option: 1,
                entry: 0
            })
        );
        // the failed options left nothing behind
        assert_eq!(b.option(["b", "c"]).unwrap(), 1);
        assert_eq!(
            b.primary("q"),
            Err(BuildError::PrimaryAfterSecondary("q".into()))
        );
        assert_eq!(b.secondary("x"), Err(BuildError::DuplicateItem("x".into())));
        assert!(matches!(
            b.secondary("has space"),
            Err(BuildError::InvalidItemName { .. })
        ));
        let p = b.build().unwrap();
        assert_eq!(p.n_options(), 2);
        assert_eq!(p.option_text(1), "b c");
    }

    #[test]
    fn needs_a_primary_item() {
        let mut b = ProblemBuilder::new();
        b.secondary("x").unwrap();
        assert_eq!(b.build().unwrap_err(), BuildError::NoPrimaryItems);
    }
}
