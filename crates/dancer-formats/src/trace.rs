//! The steps of a traced search ([`dancer_core::engines::trace`]) as the
//! command line and the web app give them: an NDJSON record per step
//! ([`StepRecord`], `"type":"step"` in `dancer solve --trace --json`, and
//! the very records the web app's Watch view draws from), and a line of
//! text per step in the manner of Knuth's DLX1 at its verbose level
//! ([`text_line`]): `Level 0: a(2) b(2) ... branching on a(2)` for a choice
//! and `L0: a d g (1 of 2)` for an option tried, as DLX1 prints them, and
//! lines of dancer's own for the steps DLX1 does not print.
//!
//! Items are named as in the problem, options numbered from 0 in input
//! order; an option's entries are written as in the input (`X:1` for a
//! colour), and for a try from the branching item on, cyclically, as DLX1
//! writes them.

use dancer_core::engines::trace::{Action, NodeLinks, TraceStep};
use dancer_core::Problem;
use serde::{Deserialize, Serialize};

/// One step, as a record: `{"type":"step","step":1,"level":0,
/// "action":"choose",...}`. Fields that do not apply to the action are
/// left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// The step's number, from 1.
    pub step: u64,
    /// The level of the search tree (the root is 0).
    pub level: usize,
    /// `"choose"`, `"cover"`, `"hide"`, `"purify"`, `"try"`, `"solution"`,
    /// `"backtrack"`, `"unhide"`, `"unpurify"` or `"uncover"`.
    pub action: String,
    /// The item chosen, covered, uncovered, purified, backtracked from, or
    /// through whose list an option is hidden; for a try, the item
    /// branched on. *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// choose: the chosen item's number of options. *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub len: Option<u32>,
    /// choose: why this item: `"fewest"` (the leftmost of the items with
    /// the fewest options). *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// choose: the primary items still to cover, with their numbers of
    /// options, in order, up to the first with none (where the choice
    /// stops looking). *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<ItemLen>>,
    /// try, hide, unhide: the option (from 0, in input order). *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<usize>,
    /// try, hide, unhide: the option's entries (for a try from the item
    /// branched on, as DLX1 prints it). *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entries: Option<Vec<String>>,
    /// try: the option's place in the item's list, from 1. *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<u32>,
    /// try: the number of options of the item branched on. *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
    /// purify, unpurify: the colour. *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// solution: the options chosen, from the root. *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<usize>>,
    /// solution: its number, from 1. *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u64>,
    /// cover, uncover, hide, unhide: the nodes the step touched, their
    /// links after it. *(omitted)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub links: Option<Vec<LinkRecord>>,
}

/// An item and its number of options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemLen {
    pub item: String,
    pub len: u32,
}

/// One node's four links after a step. Nodes are numbered as the engine
/// numbers them: the option nodes first (with a spacer before each
/// option), then the heads of the items, then the roots of the rings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkRecord {
    pub node: u32,
    /// `"node"` (an option's), `"head"` (an item's list head) or `"root"`
    /// (the root of the ring of primary or of secondary items).
    pub kind: String,
    /// The node's item (for a head: its item). *(may be null: a root)*
    pub item: Option<String>,
    /// The node's option. *(may be null: a head or a root)*
    pub option: Option<usize>,
    pub left: u32,
    pub right: u32,
    pub up: u32,
    pub down: u32,
}

/// The end of a trace, in the summary record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEnd {
    /// The steps reported.
    pub steps: u64,
    /// The trace was cut at its limit of steps (`--trace-limit`): the
    /// search stopped there.
    pub at_limit: bool,
    /// Where it stopped: the nodes entered by the steps reported (the root
    /// and one per option tried) and the level of the last step.
    /// *(omitted when the whole tree was traced)*
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<usize>,
}

/// Numbers solutions as the steps go by.
#[derive(Debug, Default)]
pub struct Records {
    steps: u64,
    solutions: u64,
}

impl Records {
    /// The record of the next step.
    pub fn record(&mut self, problem: &Problem, s: &TraceStep) -> StepRecord {
        self.steps += 1;
        let mut r = StepRecord {
            step: self.steps,
            level: s.level,
            action: s.action.name().to_string(),
            item: None,
            len: None,
            why: None,
            items: None,
            option: None,
            entries: None,
            k: None,
            n: None,
            color: None,
            options: None,
            number: None,
            links: None,
        };
        let name = |i: usize| Some(problem.item_name(i).to_string());
        let links = |l: &[NodeLinks]| Some(l.iter().map(|l| link(problem, l)).collect());
        match &s.action {
            Action::Choose { item, len, items } => {
                r.item = name(*item);
                r.len = Some(*len);
                r.why = Some("fewest".into());
                let items = items.iter().map(|&(i, len)| ItemLen {
                    item: problem.item_name(i).to_string(),
                    len,
                });
                r.items = Some(items.collect());
            }
            Action::Cover { item, links: l } | Action::Uncover { item, links: l } => {
                r.item = name(*item);
                r.links = links(l);
            }
            Action::Hide {
                option,
                item,
                links: l,
            }
            | Action::Unhide {
                option,
                item,
                links: l,
            } => {
                r.item = name(*item);
                r.option = Some(*option);
                r.entries = Some(entries(problem, *option, None));
                r.links = links(l);
            }
            Action::Purify { item, color } | Action::Unpurify { item, color } => {
                r.item = name(*item);
                r.color = Some(problem.color_name(*color).to_string());
            }
            Action::Try {
                option, item, k, n, ..
            } => {
                r.item = name(*item);
                r.option = Some(*option);
                r.entries = Some(entries(problem, *option, Some(*item)));
                r.k = Some(*k);
                r.n = Some(*n);
            }
            Action::Solution { options } => {
                self.solutions += 1;
                r.options = Some(options.clone());
                r.number = Some(self.solutions);
            }
            Action::Backtrack { item } => r.item = name(*item),
        }
        r
    }
}

/// The entries of `option` as text, from `from` on cyclically when given.
fn entries(problem: &Problem, option: usize, from: Option<usize>) -> Vec<String> {
    let o = problem.option(option);
    let mut v: Vec<(usize, String)> = o
        .entries()
        .map(|e| {
            let name = problem.item_name(e.item);
            let text = match e.color {
                0 => name.to_string(),
                c => format!("{name}:{}", problem.color_name(c)),
            };
            (e.item, text)
        })
        .collect();
    if let Some(at) = from.and_then(|f| v.iter().position(|(i, _)| *i == f)) {
        v.rotate_left(at);
    }
    v.into_iter().map(|(_, t)| t).collect()
}

fn link(problem: &Problem, l: &NodeLinks) -> LinkRecord {
    let root = l.item >= problem.n_items();
    let kind = match (root, l.option) {
        (true, _) => "root",
        (false, None) => "head",
        (false, Some(_)) => "node",
    };
    LinkRecord {
        node: l.node,
        kind: kind.into(),
        item: (!root).then(|| problem.item_name(l.item).to_string()),
        option: l.option,
        left: l.left,
        right: l.right,
        up: l.up,
        down: l.down,
    }
}

/// A step as a line of text: DLX1's for a choice and a try, dancer's own
/// (indented under them) for the rest.
pub fn text_line(problem: &Problem, r: &StepRecord) -> String {
    let item = r.item.as_deref().unwrap_or("");
    let entries = r.entries.as_deref().unwrap_or(&[]).join(" ");
    let color = r.color.as_deref().unwrap_or("");
    match r.action.as_str() {
        "choose" => {
            let mut s = format!("Level {}:", r.level);
            for i in r.items.as_deref().unwrap_or(&[]) {
                s.push_str(&format!(" {}({})", i.item, i.len));
            }
            format!("{s} branching on {item}({})", r.len.unwrap_or(0))
        }
        "try" => format!(
            "L{}: {entries} ({} of {})",
            r.level,
            r.k.unwrap_or(0),
            r.n.unwrap_or(0)
        ),
        "cover" => format!("  cover {item}"),
        "uncover" => format!("  uncover {item}"),
        "hide" => format!("    hide {entries} (option {})", r.option.unwrap_or(0)),
        "unhide" => format!("    unhide {entries} (option {})", r.option.unwrap_or(0)),
        "purify" => format!("  purify {item}:{color}"),
        "unpurify" => format!("  unpurify {item}:{color}"),
        "backtrack" => format!("L{}: {item} has no more options: back up", r.level),
        "solution" => {
            let options = r.options.as_deref().unwrap_or(&[]);
            let list: Vec<String> = options.iter().map(|&o| problem.option_text(o)).collect();
            format!("Solution {}: {}", r.number.unwrap_or(0), list.join("; "))
        }
        other => other.to_string(),
    }
}
