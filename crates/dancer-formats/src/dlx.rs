//! Knuth's DLX text format, as read by his programs DLX1 and DLX2.
//!
//! ```text
//! | comment lines start with '|' (after optional blanks); blank lines are skipped
//! A B C D E | F G        <- the item line: primary items, '|', secondary items
//! C E F                  <- then one option per line
//! A D G:red              <- name:colour gives a secondary item a colour (DLX2)
//! ```
//!
//! Item and colour names are any characters but blanks, `:` and `|`. DLX3's
//! multiplicities on the item line: `u:v|name` makes a primary item that
//! must be covered at least `u` and at most `v` times, `v|name` exactly `v`
//! times.

use crate::{Diagnostic, FormatError, Location, Parsed};
use dancer_core::{BuildError, Problem, ProblemBuilder};
use std::io::{BufRead, Read, Write};

/// Whitespace-separated tokens of a line with their 1-based character columns.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut col = 0usize;
    let mut rest = line;
    std::iter::from_fn(move || {
        // skip blanks
        let skip = rest
            .char_indices()
            .find(|(_, c)| !c.is_whitespace())
            .map(|(i, _)| i)?;
        col += rest[..skip].chars().count();
        rest = &rest[skip..];
        let end = rest
            .char_indices()
            .find(|(_, c)| c.is_whitespace())
            .map_or(rest.len(), |(i, _)| i);
        let tok = &rest[..end];
        let start_col = col + 1;
        col += tok.chars().count();
        rest = &rest[end..];
        Some((start_col, tok))
    })
}

/// The column of the first token of a line (1 for a line of blanks).
fn first_col(line: &str) -> usize {
    tokens(line).next().map_or(1, |(col, _)| col)
}

fn is_comment_or_blank(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('|')
}

/// Does `tok` look like DLX3's `a:b|name` or `b|name` multiplicity syntax?
fn is_multiplicity(tok: &str) -> bool {
    match tok.split_once('|') {
        Some((bounds, _)) if !bounds.is_empty() => bounds
            .split(':')
            .all(|b| !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit())),
        _ => false,
    }
}

/// The longest line the reader takes (64 MiB): far beyond any real item
/// line, and a bound on the memory one line can take (a file with no line
/// breaks, such as `/dev/zero`, is refused at this length instead of being
/// read whole).
pub const MAX_LINE: usize = 64 << 20;

/// Reads a problem in DLX format. `file` names the input in messages.
/// A UTF-8 byte order mark at the start is skipped; a line longer than
/// [`MAX_LINE`] is an error.
pub fn read<R: BufRead>(mut input: R, file: &str) -> Result<Parsed, FormatError> {
    let mut buf = Vec::new();
    let mut lineno = 0usize;
    let mut b = ProblemBuilder::new();
    let mut warnings = Vec::new();
    // the line of the item line, once read
    let mut items_at = None;
    let io = |e| FormatError::Io {
        file: file.to_string(),
        source: e,
    };
    loop {
        buf.clear();
        let n = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(io)?;
        if n == 0 {
            break;
        }
        lineno += 1;
        if buf.len() > MAX_LINE {
            return Err(FormatError::at(
                file,
                lineno,
                1,
                format!("the line is longer than {} MiB", MAX_LINE >> 20),
            ));
        }
        let text = if lineno == 1 {
            buf.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&buf)
        } else {
            &buf[..]
        };
        let line = match std::str::from_utf8(text) {
            Ok(s) => s,
            Err(e) => {
                let col = String::from_utf8_lossy(&text[..e.valid_up_to()])
                    .chars()
                    .count()
                    + 1;
                return Err(FormatError::at(file, lineno, col, "invalid UTF-8"));
            }
        };
        if is_comment_or_blank(line) {
            continue;
        }
        if items_at.is_none() {
            read_items(&mut b, line, file, lineno)?;
            items_at = Some((lineno, first_col(line)));
        } else {
            read_option(&mut b, line, file, lineno, &mut warnings)?;
        }
    }
    let Some((items_line, items_col)) = items_at else {
        // where the item line should have been: the end of the input
        let why = if lineno == 0 {
            "the input is empty"
        } else {
            "the input has only comments and blank lines"
        };
        return Err(FormatError::at(
            file,
            lineno.max(1),
            1,
            format!("no item line: {why}"),
        ));
    };
    let problem = b
        .build()
        .map_err(|e| FormatError::at(file, items_line, items_col, e.to_string()))?;
    Ok(Parsed { problem, warnings })
}

/// Reads a problem in DLX format from a string.
pub fn read_str(text: &str, file: &str) -> Result<Parsed, FormatError> {
    read(text.as_bytes(), file)
}

/// Splits DLX3's `u:v|name` or `v|name` into bounds and name.
pub(crate) fn multiplicity(tok: &str) -> Option<Result<(u32, u32, &str), String>> {
    if !is_multiplicity(tok) {
        return None;
    }
    let (bounds, name) = tok.split_once('|').expect("checked");
    let parse = |x: &str| {
        x.parse::<u32>()
            .map_err(|_| format!("{tok:?}: multiplicity {x:?} is too large"))
    };
    Some((|| {
        if bounds.matches(':').count() > 1 {
            return Err(format!(
                "{tok:?}: a multiplicity is u:v or v (at least u, at most v), not {bounds:?}"
            ));
        }
        let (u, v) = match bounds.split_once(':') {
            Some((u, v)) => (parse(u)?, parse(v)?),
            None => {
                let v = parse(bounds)?;
                (v, v)
            }
        };
        if u > v || v == 0 {
            return Err(format!(
                "{tok:?}: multiplicity {u}:{v} is impossible (need u <= v and v >= 1)"
            ));
        }
        if name.is_empty() {
            return Err(format!("{tok:?}: no item name after the multiplicity"));
        }
        Ok((u, v, name))
    })())
}

fn read_items(
    b: &mut ProblemBuilder,
    line: &str,
    file: &str,
    lineno: usize,
) -> Result<(), FormatError> {
    let mut secondary = false;
    for (col, tok) in tokens(line) {
        let mut name = tok;
        let mut col = col;
        if let Some(rest) = name.strip_prefix('|') {
            if secondary {
                return Err(FormatError::at(
                    file,
                    lineno,
                    col,
                    "the item line contains '|' twice",
                ));
            }
            secondary = true;
            if rest.is_empty() {
                continue;
            }
            name = rest;
            col += 1;
        }
        // DLX3: `u:v|name` or `v|name`, primary items only
        let mut bounds = None;
        if let Some(m) = multiplicity(name) {
            let (u, v, n) = m.map_err(|msg| FormatError::at(file, lineno, col, msg))?;
            if secondary {
                return Err(FormatError::at(
                    file,
                    lineno,
                    col,
                    format!("{name:?}: only primary items can have multiplicities"),
                ));
            }
            bounds = Some((u, v));
            col += name.len() - n.len();
            name = n;
        }
        for (c, why) in [
            ('|', "'|' inside an item name"),
            (':', "':' inside an item name (colours belong on options)"),
        ] {
            if name.contains(c) {
                return Err(FormatError::at(
                    file,
                    lineno,
                    col,
                    format!("{name:?}: {why}"),
                ));
            }
        }
        let r = match (secondary, bounds) {
            (true, _) => b.secondary(name),
            (false, Some((u, v))) => b.primary_bounded(name, u, v),
            (false, None) => b.primary(name),
        };
        r.map_err(|e| match e {
            BuildError::DuplicateItem(n) => {
                FormatError::at(file, lineno, col, format!("duplicate item name {n:?}"))
            }
            e => FormatError::at(file, lineno, col, e.to_string()),
        })?;
    }
    if b.n_primary() == 0 {
        return Err(FormatError::at(
            file,
            lineno,
            first_col(line),
            "the item line has no primary items",
        ));
    }
    Ok(())
}

fn read_option(
    b: &mut ProblemBuilder,
    line: &str,
    file: &str,
    lineno: usize,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), FormatError> {
    b.begin_option();
    for (col, tok) in tokens(line) {
        let (name, color) = match tok.split_once(':') {
            Some((n, c)) => (n, Some(c)),
            None => (tok, None),
        };
        if let Some(c) = color {
            if c.is_empty() {
                b.abandon_option();
                return Err(FormatError::at(
                    file,
                    lineno,
                    col,
                    format!("{tok:?}: empty colour"),
                ));
            }
        }
        if let Err(e) = b.push_named(name, color) {
            b.abandon_option();
            return Err(FormatError::at(file, lineno, col, entry_error(e)));
        }
    }
    let k = b.end_option();
    if !b.is_active(k) {
        warnings.push(Diagnostic {
            at: Location {
                file: file.to_string(),
                line: lineno,
                col: first_col(line),
            },
            message: "option has no primary items; it is ignored".to_string(),
        });
    }
    Ok(())
}

/// Writes `problem` in DLX format, with an optional comment line first.
pub fn write<W: Write>(
    problem: &Problem,
    mut out: W,
    comment: Option<&str>,
) -> std::io::Result<()> {
    if let Some(c) = comment {
        for l in c.lines() {
            writeln!(out, "| {l}")?;
        }
    }
    let mut line = String::new();
    for i in 0..problem.n_items() {
        if i == problem.n_primary() {
            line.push_str(" |");
        }
        if i > 0 {
            line.push(' ');
        }
        line.push_str(&bounded_name(problem, i));
    }
    writeln!(out, "{line}")?;
    for k in 0..problem.n_options() {
        writeln!(out, "{}", problem.option_text(k))?;
    }
    out.flush()
}

/// Item `i`'s name as the item line writes it: with its DLX3
/// multiplicity in front (`2|A`, `1:3|B`) when it is primary and not
/// covered exactly once.
pub fn bounded_name(problem: &Problem, i: usize) -> String {
    let name = problem.item_name(i);
    match problem.bounds(i) {
        (1, 1) => name.to_string(),
        _ if !problem.is_primary(i) => name.to_string(),
        (u, v) if u == v => format!("{v}|{name}"),
        (u, v) => format!("{u}:{v}|{name}"),
    }
}

/// The problem in DLX format as a string.
pub fn to_string(problem: &Problem, comment: Option<&str>) -> String {
    let mut v = Vec::new();
    write(problem, &mut v, comment).expect("writing to a Vec cannot fail");
    String::from_utf8(v).expect("names are UTF-8")
}

/// What is wrong with an option's entry, as the text formats say it
/// (with the item's name as written).
pub(crate) fn entry_error(e: BuildError) -> String {
    match e {
        BuildError::UnknownItem { name, .. } => format!("unknown item {name:?}"),
        BuildError::RepeatedItem { name, .. } => {
            format!("item {name:?} appears twice in this option")
        }
        BuildError::ColorOnPrimary { name, .. } => {
            format!("colour given for primary item {name:?}")
        }
        e => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        read_str(text, "t.dlx").unwrap_err().to_string()
    }

    #[test]
    fn reads_knuths_toy() {
        let text = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
        let p = read_str(text, "toy").unwrap();
        assert!(p.warnings.is_empty());
        let p = p.problem;
        assert_eq!((p.n_primary(), p.n_secondary(), p.n_options()), (5, 2, 6));
        assert_eq!(p.option_text(5), "D E G");
        // round trip
        let again = read_str(&to_string(&p, None), "x").unwrap().problem;
        assert_eq!(to_string(&again, None), to_string(&p, None));
        assert_eq!(to_string(&p, None).lines().next(), Some("A B C D E | F G"));
    }

    #[test]
    fn colours_and_warnings() {
        let text = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\n   X:0 Y:1\nB X:1\nC Y:1\n";
        let p = read_str(text, "c").unwrap();
        assert_eq!(p.warnings.len(), 1);
        assert_eq!(p.warnings[0].at.line, 4);
        assert_eq!(
            p.warnings[0].to_string(),
            "c:4:4: warning: option has no primary items; it is ignored"
        );
        assert!(p.problem.has_colors());
        assert_eq!(p.problem.option_text(1), "A C X:1 Y:1");
    }

    #[test]
    fn separator_forms() {
        let p = read_str("A B |X Y\nA X\nB Y\n", "s").unwrap().problem;
        assert_eq!((p.n_primary(), p.n_secondary()), (2, 2));
        let p = read_str("  | comment\n\n A B\t|\tX\r\nA X\r\n", "s")
            .unwrap()
            .problem;
        assert_eq!((p.n_primary(), p.n_secondary(), p.n_options()), (2, 1, 1));
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(err("A B\nA C\n"), "t.dlx:2:3: unknown item \"C\"");
        assert_eq!(
            err("A B\nA B A\n"),
            "t.dlx:2:5: item \"A\" appears twice in this option"
        );
        assert_eq!(
            err("A B | X\n  B A:red\n"),
            "t.dlx:2:5: colour given for primary item \"A\""
        );
        assert_eq!(err("A B A\n"), "t.dlx:1:5: duplicate item name \"A\"");
        assert_eq!(
            err("A | B | C\n"),
            "t.dlx:1:7: the item line contains '|' twice"
        );
        assert_eq!(
            err("| X\n| B\n"),
            "t.dlx:2:1: no item line: the input has only comments and blank lines"
        );
        assert_eq!(
            err("| B\n"),
            "t.dlx:1:1: no item line: the input has only comments and blank lines"
        );
        assert_eq!(err(""), "t.dlx:1:1: no item line: the input is empty");
        assert_eq!(
            err("| c\n\n  A B\nA\nB\nC\n"),
            "t.dlx:6:1: unknown item \"C\""
        );
        assert_eq!(
            err("A B:x\n"),
            "t.dlx:1:3: \"B:x\": ':' inside an item name (colours belong on options)"
        );
        assert_eq!(err("A B | X\nA X:\n"), "t.dlx:2:3: \"X:\": empty colour");
    }

    #[test]
    fn multiplicities() {
        let p = read_str("2:3|A 2|B C | X\nA B\nA C X\n", "m")
            .unwrap()
            .problem;
        assert_eq!(p.bounds(0), (2, 3));
        assert_eq!(p.bounds(1), (2, 2));
        assert_eq!(p.bounds(2), (1, 1));
        assert_eq!(p.bounds(3), (0, 1));
        assert!(p.has_multiplicities());
        let text = to_string(&p, None);
        assert_eq!(text.lines().next(), Some("2:3|A 2|B C | X"));
        let again = read_str(&text, "m").unwrap().problem;
        assert_eq!(
            (0..4).map(|i| again.bounds(i)).collect::<Vec<_>>(),
            vec![(2, 3), (2, 2), (1, 1), (0, 1)]
        );
        assert_eq!(
            err("A 3:2|B\n"),
            "t.dlx:1:3: \"3:2|B\": multiplicity 3:2 is impossible (need u <= v and v >= 1)"
        );
        assert_eq!(
            err("A | 1:2|X\n"),
            "t.dlx:1:5: \"1:2|X\": only primary items can have multiplicities"
        );
        assert_eq!(
            err("A 2|\n"),
            "t.dlx:1:3: \"2|\": no item name after the multiplicity"
        );
        assert_eq!(
            err("A x|B\n"),
            "t.dlx:1:3: \"x|B\": '|' inside an item name"
        );
    }

    #[test]
    fn invalid_utf8_is_located() {
        let e = read(&b"A B\nA \xff\n"[..], "u").unwrap_err().to_string();
        assert_eq!(e, "u:2:3: invalid UTF-8");
    }
}
