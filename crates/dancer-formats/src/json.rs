//! JSON: problems as JSON documents. (The NDJSON records `dancer` prints
//! are [`crate::ndjson`]'s.)
//!
//! A problem:
//!
//! ```json
//! {"primary": ["A", "B"], "secondary": ["X"], "options": [["A", "X:red"], ["B"]]}
//! ```
//!
//! Entries are written as in the DLX format, `name` or `name:colour`, and
//! primary items may carry DLX3 multiplicities, `"2:3|name"`.

use crate::{Diagnostic, FormatError, Location, Parsed};
use dancer_core::{Problem, ProblemBuilder};
use serde::{Deserialize, Serialize};
use std::io::Read;

/// A problem as a JSON document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemDoc {
    pub primary: Vec<String>,
    #[serde(default)]
    pub secondary: Vec<String>,
    pub options: Vec<Vec<String>>,
}

impl ProblemDoc {
    pub fn from_problem(p: &Problem) -> Self {
        ProblemDoc {
            // DLX3 multiplicities as the text format writes them
            primary: (0..p.n_primary())
                .map(|i| crate::dlx::bounded_name(p, i))
                .collect(),
            secondary: (p.n_primary()..p.n_items())
                .map(|i| p.item_name(i).to_string())
                .collect(),
            options: (0..p.n_options())
                .map(|k| {
                    p.option(k)
                        .entries()
                        .map(|e| {
                            if e.color == 0 {
                                p.item_name(e.item).to_string()
                            } else {
                                format!("{}:{}", p.item_name(e.item), p.color_name(e.color))
                            }
                        })
                        .collect()
                })
                .collect(),
        }
    }

    /// Builds the problem. Errors name the JSON path (`options[3][1]`) and
    /// where the value is in the document's compact JSON form (the one
    /// [`to_string`] writes: all on line 1); [`read`] gives the place in
    /// the text read instead.
    pub fn to_problem(&self, file: &str) -> Result<Parsed, FormatError> {
        let text = serde_json::to_vec(self).expect("plain data serialises");
        self.build(file, &text)
    }

    /// Builds the problem read from `text`, locating errors and warnings
    /// there.
    fn build(&self, file: &str, text: &[u8]) -> Result<Parsed, FormatError> {
        let place = |path: &[Seg]| {
            let (line, col) = locate(text, path).unwrap_or((1, 1));
            Location {
                file: file.to_string(),
                line,
                col,
            }
        };
        let at = |path: &[Seg], e: &dyn std::fmt::Display| FormatError::Syntax {
            at: place(path),
            message: format!("{}: {e}", path_text(path)),
        };
        let mut b = ProblemBuilder::new();
        for (i, n) in self.primary.iter().enumerate() {
            let path = [Seg::Key("primary"), Seg::Index(i)];
            // DLX3 multiplicities, as in the text format: "2:3|name"
            let r = match crate::dlx::multiplicity(n) {
                Some(Ok((u, v, name))) => b.primary_bounded(name, u, v),
                Some(Err(msg)) => return Err(at(&path, &msg)),
                None => b.primary(n),
            };
            r.map_err(|e| at(&path, &e))?;
        }
        for (i, n) in self.secondary.iter().enumerate() {
            b.secondary(n)
                .map_err(|e| at(&[Seg::Key("secondary"), Seg::Index(i)], &e))?;
        }
        let mut warnings = Vec::new();
        for (k, opt) in self.options.iter().enumerate() {
            if opt.is_empty() {
                return Err(at(
                    &[Seg::Key("options"), Seg::Index(k)],
                    &"an option has at least one item",
                ));
            }
            b.begin_option();
            for (j, tok) in opt.iter().enumerate() {
                let (name, color) = match tok.split_once(':') {
                    Some((n, c)) => (n, Some(c)),
                    None => (tok.as_str(), None),
                };
                b.push_named(name, color).map_err(|e| {
                    let msg = crate::dlx::entry_error(e);
                    at(&[Seg::Key("options"), Seg::Index(k), Seg::Index(j)], &msg)
                })?;
            }
            let o = b.end_option();
            if !b.is_active(o) {
                let path = [Seg::Key("options"), Seg::Index(k)];
                warnings.push(Diagnostic {
                    at: place(&path),
                    message: format!("{} has no primary items; it is ignored", path_text(&path)),
                });
            }
        }
        let problem = b.build().map_err(|e| at(&[Seg::Key("primary")], &e))?;
        Ok(Parsed { problem, warnings })
    }
}

/// One step of a path into a JSON document.
#[derive(Clone, Copy, Debug)]
enum Seg {
    Key(&'static str),
    Index(usize),
}

/// `options[3][1]`.
fn path_text(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) if s.is_empty() => s.push_str(k),
            Seg::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// Where the value at `path` starts in the JSON document `text`: 1-based
/// line and column (in characters). `None` when the text has no such value
/// (it is not the document, or not valid JSON).
fn locate(text: &[u8], path: &[Seg]) -> Option<(usize, usize)> {
    let mut sc = Scan { b: text, i: 0 };
    for seg in path {
        sc.ws();
        match *seg {
            Seg::Key(key) => sc.member(key)?,
            Seg::Index(n) => sc.element(n)?,
        }
    }
    sc.ws();
    let before = &text[..sc.i];
    let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    // characters, not bytes: UTF-8 continuation bytes do not count
    let col = 1 + before[line_start..]
        .iter()
        .filter(|&&c| c & 0xC0 != 0x80)
        .count();
    Some((line, col))
}

/// A cursor over a JSON text that skips values without building them.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// A string, decoded.
    fn string(&mut self) -> Option<String> {
        self.ws();
        let start = self.i;
        self.eat(b'"')?;
        loop {
            match self.peek()? {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return serde_json::from_slice(&self.b[start..self.i]).ok();
                }
                _ => self.i += 1,
            }
        }
    }

    /// Skips an object's members (`keys`) or an array's items, from its
    /// opening bracket to `close`.
    fn skip_items(&mut self, close: u8, keys: bool) -> Option<()> {
        self.i += 1;
        if self.eat(close).is_some() {
            return Some(());
        }
        loop {
            if keys {
                self.string()?;
                self.eat(b':')?;
            }
            self.skip_value()?;
            if self.eat(b',').is_none() {
                return self.eat(close);
            }
        }
    }

    fn skip_value(&mut self) -> Option<()> {
        self.ws();
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'{' => self.skip_items(b'}', true),
            b'[' => self.skip_items(b']', false),
            _ => {
                // a number, true, false or null
                let start = self.i;
                while self.peek().is_some_and(|c| {
                    !matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\r' | b'\n')
                }) {
                    self.i += 1;
                }
                (self.i > start).then_some(())
            }
        }
    }

    /// Moves to the value of `key` in the object here.
    fn member(&mut self, key: &str) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return None;
        }
        loop {
            let k = self.string()?;
            self.eat(b':')?;
            if k == key {
                self.ws();
                return Some(());
            }
            self.skip_value()?;
            self.eat(b',')?;
        }
    }

    /// Moves to element `n` of the array here.
    fn element(&mut self, n: usize) -> Option<()> {
        self.eat(b'[')?;
        if self.eat(b']').is_some() {
            return None;
        }
        for _ in 0..n {
            self.skip_value()?;
            self.eat(b',')?;
        }
        self.ws();
        Some(())
    }
}

/// The most bytes of a JSON problem read (4 GiB).
pub const MAX_JSON: u64 = 4 << 30;

/// Reads a problem from a JSON document. Errors say where, as
/// `FILE:LINE:COL` (1-based), with the JSON path of the value for errors
/// in the problem itself (`p.json:3:14: options[1][1]: unknown item "Q"`).
///
/// At most [`MAX_JSON`] bytes are read; input that does not start (after
/// white space and a byte order mark) with `{` is refused at once, without
/// reading the rest.
pub fn read<R: Read>(input: R, file: &str) -> Result<Parsed, FormatError> {
    let io = |e| FormatError::Io {
        file: file.to_string(),
        source: e,
    };
    let mut input = input.take(MAX_JSON + 1);
    // the start first: a problem is an object
    let mut text = Vec::new();
    let mut chunk = [0u8; 4096];
    let start = loop {
        let n = input.read(&mut chunk).map_err(io)?;
        text.extend_from_slice(&chunk[..n]);
        let body = text.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&text);
        if let Some(i) = body.iter().position(|b| !b.is_ascii_whitespace()) {
            break Some(body[i]);
        }
        if n == 0 {
            break None;
        }
    };
    if let Some(b) = start.filter(|&b| b != b'{') {
        let body = text.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&text);
        let at = body
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(0);
        let line = body[..at].iter().filter(|&&c| c == b'\n').count() + 1;
        let col = at
            - body[..at]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |i| i + 1)
            + 1;
        let found = if b.is_ascii_graphic() {
            format!("{:?}", b as char)
        } else {
            format!("byte 0x{b:02x}")
        };
        return Err(FormatError::at(
            file,
            line,
            col,
            format!("expected a JSON object {{\"primary\": ..., \"options\": ...}}, found {found}"),
        ));
    }
    input.read_to_end(&mut text).map_err(io)?;
    if text.len() as u64 > MAX_JSON {
        return Err(FormatError::at(
            file,
            1,
            1,
            format!("the input is larger than {} MiB", MAX_JSON >> 20),
        ));
    }
    if text.starts_with("\u{feff}".as_bytes()) {
        text.drain(..3);
    }
    let doc: ProblemDoc = serde_json::from_slice(&text).map_err(|e| {
        // serde_json's message ends in " at line L column C": said once, in front
        let msg = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let msg = msg.strip_suffix(&suffix).unwrap_or(&msg);
        // serde's names for our types are not the user's words
        let msg = msg
            .replace("struct ProblemDoc with 3 elements", "a problem object")
            .replace("struct ProblemDoc", "a problem object");
        let msg = if text.iter().all(u8::is_ascii_whitespace) {
            "the input is empty (expected a JSON object)".to_string()
        } else {
            msg
        };
        // serde_json counts the column in bytes; ours count characters
        // (column 0: at the start of a line, before its first character)
        let col = char_column(&text, e.line(), e.column());
        FormatError::at(file, e.line().max(1), col.max(1), msg)
    })?;
    doc.build(file, &text)
}

/// The column, in characters, of the byte `col` (1-based) of line `line`
/// (1-based) of `text`: the characters that start in its first `col` bytes.
fn char_column(text: &[u8], line: usize, col: usize) -> usize {
    let Some(start) = (if line <= 1 {
        Some(0)
    } else {
        text.iter()
            .enumerate()
            .filter(|&(_, &c)| c == b'\n')
            .nth(line - 2)
            .map(|(i, _)| i + 1)
    }) else {
        return col;
    };
    let rest = &text[start..];
    let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
    rest[..col.min(end)]
        .iter()
        .filter(|&&c| c & 0xC0 != 0x80)
        .count()
        + col.saturating_sub(end)
}

/// Writes a problem as a JSON document.
pub fn to_string(problem: &Problem) -> String {
    serde_json::to_string(&ProblemDoc::from_problem(problem)).expect("serialisable")
}

#[cfg(test)]
mod tests {
    use super::*;
    use dancer_core::BuildError;

    #[test]
    fn round_trip() {
        let text =
            r#"{"primary":["A","B"],"secondary":["X"],"options":[["A","X:red"],["B"],["X"]]}"#;
        let p = read(text.as_bytes(), "p.json").unwrap();
        assert_eq!(p.warnings.len(), 1);
        assert_eq!(p.problem.option_text(0), "A X:red");
        assert_eq!(to_string(&p.problem), text);
    }

    #[test]
    fn errors_name_the_place() {
        let e = read(
            r#"{"primary":["A"],"options":[["A"],["A","Q"]]}"#.as_bytes(),
            "p.json",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "p.json:1:40: options[1][1]: unknown item \"Q\"");
        let e = read(
            "{\"primary\":[\"A\"],\n \"options\": [[\"A\"]\n".as_bytes(),
            "p.json",
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("p.json:3:"), "{e}");
    }

    fn err(text: &str) -> String {
        read(text.as_bytes(), "<stdin>").unwrap_err().to_string()
    }

    /// Multiplicities are written back (they were once dropped: `2|A`
    /// came back as `A`, an item to cover once), in both formats.
    #[test]
    fn multiplicities_round_trip() {
        let dlx_text = "2|A 1:3|B C | X\nA B\nA X\nB C\nA\n";
        let p = crate::dlx::read_str(dlx_text, "m.dlx").unwrap().problem;
        let doc = to_string(&p);
        assert!(doc.contains(r#""primary":["2|A","1:3|B","C"]"#), "{doc}");
        let q = read(doc.as_bytes(), "m.json").unwrap().problem;
        for i in 0..p.n_items() {
            assert_eq!(p.bounds(i), q.bounds(i), "item {i}");
        }
        assert_eq!(
            crate::dlx::to_string(&q, None),
            crate::dlx::to_string(&p, None)
        );
        assert_eq!(dancer_core::count(&p), dancer_core::count(&q));
    }

    /// An option without items is refused where it is: it covers nothing,
    /// and the DLX format cannot write it.
    #[test]
    fn empty_options_are_refused() {
        assert_eq!(
            err(r#"{"primary":["A"],"options":[["A"],[]]}"#),
            "<stdin>:1:35: options[1]: an option has at least one item"
        );
        let mut b = ProblemBuilder::new();
        b.primary("A").unwrap();
        b.option(["A"]).unwrap();
        b.option(Vec::<&str>::new()).unwrap();
        assert_eq!(b.build().unwrap_err(), BuildError::EmptyOption(1));
    }

    /// Errors of the JSON syntax count columns in characters too, as
    /// every other location does (serde_json counts bytes).
    #[test]
    fn syntax_errors_count_characters() {
        // the unclosed string: at its last character, the 4th (6th byte)
        assert_eq!(err("{\"éé"), "<stdin>:1:4: EOF while parsing a string");
        // at the key's closing quote: the 4th character, the 5th byte
        assert_eq!(
            err("{\"primary\": [\"é\"],\n \"ü\": [] ]"),
            "<stdin>:2:4: unknown field `ü`, expected one of `primary`, `secondary`, `options`"
        );
    }

    /// Every location is 1-based, LINE:COL, at the value in question, and
    /// serde's own " at line L column C" is not said twice.
    #[test]
    fn locations_point_at_the_value() {
        let text = "{\n  \"primary\": [\"A\", \"B\"],\n  \"secondary\": [\"X\"],\n  \"options\": [\n    [\"A\", \"X:1\"],\n    [\"X:2\"],\n    [\"B\", \"Q\"]\n  ]\n}\n";
        assert_eq!(err(text), "<stdin>:7:11: options[2][1]: unknown item \"Q\"");
        let p = read(text.replace(", \"Q\"", "").as_bytes(), "<stdin>").unwrap();
        assert_eq!(
            p.warnings[0].to_string(),
            "<stdin>:6:5: warning: options[1] has no primary items; it is ignored"
        );
        assert_eq!(
            err(r#"{"primary":["A","A"],"options":[]}"#),
            "<stdin>:1:17: primary[1]: item name \"A\" is declared twice"
        );
        let e = err(r#"{"primary":["A"],"secondary":[ "1|X"],"options":[]}"#);
        assert!(e.starts_with("<stdin>:1:32: secondary[0]: "), "{e}");
        assert_eq!(
            err(r#"{"primary":[],"options":[]}"#),
            "<stdin>:1:12: primary: the problem has no primary items"
        );
        // columns count characters, keys may come in any order
        assert_eq!(
            err(r#"{"options":[["é","ü"]],"primary":["é"]}"#),
            "<stdin>:1:18: options[0][1]: unknown item \"ü\""
        );
        // errors of the JSON itself
        assert_eq!(
            err(""),
            "<stdin>:1:1: the input is empty (expected a JSON object)"
        );
        assert_eq!(
            err("\n\n"),
            "<stdin>:3:1: the input is empty (expected a JSON object)"
        );
        assert_eq!(err("{}"), "<stdin>:1:2: missing field `primary`");
        assert_eq!(
            err("{\"primary\": [1]}"),
            "<stdin>:1:14: invalid type: integer `1`, expected a string"
        );
        // a document built in memory: located in its compact form
        let doc = ProblemDoc {
            primary: vec!["A".into()],
            secondary: vec![],
            options: vec![vec!["B".into()]],
        };
        assert_eq!(
            doc.to_problem("doc").unwrap_err().to_string(),
            "doc:1:45: options[0][0]: unknown item \"B\""
        );
    }
}
