//! The steps of a traced search and their recorder (see `trace.rs` for
//! the whole story): the records ([`TraceStep`], [`Action`], the links
//! of the nodes a step touched) and the [`Recorder`] that the traced
//! dancing-links search (`dlx.rs`) writes them into, between the very
//! moves of `links.rs` it makes. Apart from `trace.rs`, which drives a
//! [`crate::engines::dlx::Dlx`], so that the engine and its driver do not
//! import each other.

use super::links::Lists;
use crate::problem::{OptionId, Problem, SPACER};

/// The four pointers of one node, after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeLinks {
    /// The node's number (see the `trace` module's documentation).
    pub node: u32,
    /// Its item (for an item's head: that item).
    pub item: usize,
    /// Its option; `None` for an item's head.
    pub option: Option<OptionId>,
    pub left: u32,
    pub right: u32,
    pub up: u32,
    pub down: u32,
}

/// What a step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The item to branch on, with its number of options: the leftmost of
    /// the primary items still to cover with the fewest options. `items`:
    /// the primary items still to cover, with their numbers of options, in
    /// order, up to the first with none (where the engine stops looking:
    /// what the choice was made from).
    Choose {
        item: usize,
        len: u32,
        items: Vec<(usize, u32)>,
    },
    /// `item` was taken out of the ring of items still to cover; its
    /// options are hidden next, each a [`Action::Hide`].
    Cover { item: usize, links: Vec<NodeLinks> },
    /// `option`, in the list of `item` (being covered or purified), had its
    /// other nodes unlinked from their items' lists.
    Hide {
        option: OptionId,
        item: usize,
        links: Vec<NodeLinks>,
    },
    /// A secondary `item` was given colour `color` by the option tried: the
    /// options that give it another colour are hidden next.
    Purify { item: usize, color: u32 },
    /// Option `option` is tried, the `k`th (from 1) of the `n` options
    /// of `item`, the item chosen at this level. `node` is its node in
    /// that item's list.
    Try {
        option: OptionId,
        item: usize,
        k: u32,
        n: u32,
        node: u32,
    },
    /// Every primary item is covered: the options chosen, from the root.
    Solution { options: Vec<OptionId> },
    /// The options of `item`, chosen at this level, are all tried: the
    /// search goes back up (after uncovering `item`).
    Backtrack { item: usize },
    /// Inverse of [`Action::Hide`]: the option's nodes are linked back.
    Unhide {
        option: OptionId,
        item: usize,
        links: Vec<NodeLinks>,
    },
    /// Inverse of [`Action::Purify`] (after its unhides).
    Unpurify { item: usize, color: u32 },
    /// Inverse of [`Action::Cover`]: `item` is back in its ring (after its
    /// options were unhidden).
    Uncover { item: usize, links: Vec<NodeLinks> },
}

impl Action {
    /// The action's name in the records: `"choose"`, `"cover"`, `"hide"`,
    /// `"purify"`, `"try"`, `"solution"`, `"backtrack"`, `"unhide"`,
    /// `"unpurify"`, `"uncover"`.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Choose { .. } => "choose",
            Action::Cover { .. } => "cover",
            Action::Hide { .. } => "hide",
            Action::Purify { .. } => "purify",
            Action::Try { .. } => "try",
            Action::Solution { .. } => "solution",
            Action::Backtrack { .. } => "backtrack",
            Action::Unhide { .. } => "unhide",
            Action::Unpurify { .. } => "unpurify",
            Action::Uncover { .. } => "uncover",
        }
    }
}

/// One step of a traced search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// The level of the search tree it happened at (the root is 0; a
    /// solution is reported at the level of its last option).
    pub level: usize,
    pub action: Action,
}

/// How much a trace tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Detail {
    /// Every step, with the links touched.
    #[default]
    Full,
    /// Choose, try, solution and backtrack only: the moves of the search
    /// tree, without the covering under them.
    Moves,
}

/// Where the traced engine writes its steps (see `dlx.rs`).
pub(crate) struct Recorder {
    pub steps: Vec<TraceStep>,
    pub detail: Detail,
}

impl Recorder {
    fn full(&self) -> bool {
        self.detail == Detail::Full
    }

    fn push(&mut self, level: usize, action: Action) {
        self.steps.push(TraceStep { level, action });
    }

    /// The primary items still to cover and the choice among them.
    pub fn choose(&mut self, lists: &Lists<'_>, level: usize, best: u32) {
        let mut items = Vec::new();
        let mut k = lists.next_of(lists.root);
        // up to the first item with none, where the engine stops looking
        while k != lists.root {
            let len = lists.len_of(k);
            items.push((k as usize, len));
            if len == 0 {
                break;
            }
            k = lists.next_of(k);
        }
        let len = lists.len_of(best);
        self.push(
            level,
            Action::Choose {
                item: best as usize,
                len,
                items,
            },
        );
    }

    pub fn tried(&mut self, lists: &Lists<'_>, problem: &Problem, level: usize, node: u32, k: u32) {
        let item = lists.slot(node);
        let n = lists.len_of(item);
        self.push(
            level,
            Action::Try {
                option: problem.option_at_slot(node as usize),
                item: item as usize,
                k: k + 1,
                n,
                node,
            },
        );
    }

    /// [`Lists::cover`], recorded.
    pub fn cover<const C: bool, const F: bool>(
        &mut self,
        lists: &mut Lists<'_>,
        problem: &Problem,
        level: usize,
        c: u32,
        updates: &mut u64,
    ) {
        if !self.full() {
            return lists.cover::<C, F>(c, updates);
        }
        lists.unlink_item(c);
        *updates += 1;
        let links = ring_links(lists, c);
        self.push(
            level,
            Action::Cover {
                item: c as usize,
                links,
            },
        );
        let h = lists.base + c;
        let mut rr = lists.link(h).down;
        while rr != h {
            lists.hide::<C, F>(rr, updates);
            self.hidden(lists, problem, level, rr, c, true);
            rr = lists.link(rr).down;
        }
    }

    /// [`Lists::uncover`], recorded.
    pub fn uncover<const C: bool, const F: bool>(
        &mut self,
        lists: &mut Lists<'_>,
        problem: &Problem,
        level: usize,
        c: u32,
    ) {
        if !self.full() {
            return lists.uncover::<C, F>(c);
        }
        let h = lists.base + c;
        let mut rr = lists.link(h).up;
        while rr != h {
            lists.unhide::<C, F>(rr);
            self.hidden(lists, problem, level, rr, c, false);
            rr = lists.link(rr).up;
        }
        lists.relink_item(c);
        let links = ring_links(lists, c);
        self.push(
            level,
            Action::Uncover {
                item: c as usize,
                links,
            },
        );
    }

    /// [`Lists::cover_entry`], recorded.
    pub fn cover_entry<const C: bool, const F: bool>(
        &mut self,
        lists: &mut Lists<'_>,
        problem: &Problem,
        level: usize,
        p: u32,
        x: u32,
        updates: &mut u64,
    ) {
        if !C || !self.full() || lists.col(p) == 0 {
            if C && lists.col(p) != 0 && !self.full() {
                return lists.cover_entry::<C, F>(p, x, updates);
            }
            return self.cover::<C, F>(lists, problem, level, x, updates);
        }
        let k = lists.col(p);
        if k < 0 {
            return; // purified before: left alone
        }
        self.push(
            level,
            Action::Purify {
                item: x as usize,
                color: k as u32,
            },
        );
        // Lists::purify, one option at a time
        let h = lists.base + x;
        let mut rr = lists.link(h).down;
        while rr != h {
            if lists.col(rr) != k {
                lists.hide::<true, false>(rr, updates);
                self.hidden(lists, problem, level, rr, x, true);
            } else if rr != p {
                lists.set_col(rr, -1);
            }
            rr = lists.link(rr).down;
        }
    }

    /// [`Lists::uncover_entry`], recorded.
    pub fn uncover_entry<const C: bool, const F: bool>(
        &mut self,
        lists: &mut Lists<'_>,
        problem: &Problem,
        level: usize,
        p: u32,
        x: u32,
    ) {
        if !C || !self.full() || lists.col(p) == 0 {
            if C && lists.col(p) != 0 && !self.full() {
                return lists.uncover_entry::<C, F>(p, x);
            }
            return self.uncover::<C, F>(lists, problem, level, x);
        }
        let k = lists.col(p);
        if k < 0 {
            return;
        }
        let h = lists.base + x;
        let mut rr = lists.link(h).up;
        while rr != h {
            if lists.col(rr) < 0 {
                lists.set_col(rr, k);
            } else if rr != p {
                lists.unhide::<true, false>(rr);
                self.hidden(lists, problem, level, rr, x, false);
            }
            rr = lists.link(rr).up;
        }
        self.push(
            level,
            Action::Unpurify {
                item: x as usize,
                color: k as u32,
            },
        );
    }

    /// Records the hide (or unhide) of option node `rr` in item `c`'s list:
    /// the option's other nodes that moved, and their neighbours.
    fn hidden(
        &mut self,
        lists: &Lists<'_>,
        problem: &Problem,
        level: usize,
        rr: u32,
        c: u32,
        hide: bool,
    ) {
        let mut links = Vec::new();
        for nn in option_nodes(lists, rr) {
            if nn == rr || (!lists.color.is_empty() && lists.col(nn) < 0) {
                continue;
            }
            let l = lists.link(nn);
            links.push(node_links(lists, problem, nn));
            links.push(node_links(lists, problem, l.up));
            links.push(node_links(lists, problem, l.down));
        }
        let option = problem.option_at_slot(rr as usize);
        let item = c as usize;
        let action = if hide {
            Action::Hide {
                option,
                item,
                links,
            }
        } else {
            Action::Unhide {
                option,
                item,
                links,
            }
        };
        self.push(level, action);
    }

    pub fn solution(&mut self, problem: &Problem, level: usize, choice: &[u32]) {
        let options = choice[..=level]
            .iter()
            .map(|&n| problem.option_at_slot(n as usize))
            .collect();
        self.push(level, Action::Solution { options });
    }

    pub fn backtrack(&mut self, level: usize, item: u32) {
        self.push(
            level,
            Action::Backtrack {
                item: item as usize,
            },
        );
    }
}

/// The nodes of the option of node `rr`, from its first.
fn option_nodes(lists: &Lists<'_>, rr: u32) -> std::ops::Range<u32> {
    let mut s = rr;
    while lists.slot(s - 1) & SPACER == 0 {
        s -= 1;
    }
    let mut e = rr + 1;
    while lists.slot(e) & SPACER == 0 {
        e += 1;
    }
    s..e
}

/// The links of node `n`: an option's node, or an item's head.
fn node_links(lists: &Lists<'_>, problem: &Problem, n: u32) -> NodeLinks {
    if n >= lists.base {
        return head_links(lists, n - lists.base);
    }
    let nodes = option_nodes(lists, n);
    let l = lists.link(n);
    NodeLinks {
        node: n,
        item: lists.slot(n) as usize,
        option: Some(problem.option_at_slot(n as usize)),
        left: if n == nodes.start {
            nodes.end - 1
        } else {
            n - 1
        },
        right: if n + 1 == nodes.end {
            nodes.start
        } else {
            n + 1
        },
        up: l.up,
        down: l.down,
    }
}

/// The links of item `c`'s head and of its neighbours in the ring.
fn ring_links(lists: &Lists<'_>, c: u32) -> Vec<NodeLinks> {
    let (p, n) = (lists.prev[c as usize], lists.next[c as usize]);
    vec![
        head_links(lists, c),
        head_links(lists, p),
        head_links(lists, n),
    ]
}

/// The links of item `c`'s head (or of a ring's root: `c` past the last
/// item; it has no list, so up and down are itself).
fn head_links(lists: &Lists<'_>, c: u32) -> NodeLinks {
    let h = lists.base + c;
    let l = if (c as usize) < lists.len.len() {
        lists.link(h)
    } else {
        super::links::Link { up: h, down: h }
    };
    NodeLinks {
        node: h,
        item: c as usize,
        option: None,
        left: lists.base + lists.prev[c as usize],
        right: lists.base + lists.next[c as usize],
        up: l.up,
        down: l.down,
    }
}
