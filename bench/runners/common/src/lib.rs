//! What the benchmark runners share.
//!
//! Every runner is a small program that reads one problem in Knuth's DLX text
//! format, hands it to one exact cover implementation, counts all solutions
//! and prints one JSON line per repetition:
//!
//! ```text
//! {"runner":"NAME","solutions":N,"seconds":F,"build_seconds":F,"emulated_secondary":B}
//! ```
//!
//! `seconds` times the search alone; `build_seconds` the construction of the
//! implementation's own structure from the item indices read here. Reading
//! and parsing the file is timed by neither.
//!
//! Exit codes: 0 when the search ran (whatever the count), 2 for a bad
//! command line or an unreadable or invalid file, 3 when the file uses
//! something the runners do not handle (colours, multiplicities).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Duration;

/// An exact cover problem with items numbered `0..primary` (primary) then
/// `primary..primary + secondary` (secondary).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Names of the primary items.
    pub primary: Vec<String>,
    /// Names of the secondary items.
    pub secondary: Vec<String>,
    /// The options, each a list of item numbers in the order of the file.
    /// Options without a primary item are not kept.
    pub options: Vec<Vec<usize>>,
    /// How many options were dropped for having no primary item.
    pub ignored: usize,
}

impl Problem {
    /// Number of primary items.
    pub fn n_primary(&self) -> usize {
        self.primary.len()
    }

    /// Number of secondary items.
    pub fn n_secondary(&self) -> usize {
        self.secondary.len()
    }

    /// Number of items, primary and secondary.
    pub fn n_items(&self) -> usize {
        self.primary.len() + self.secondary.len()
    }

    /// The same problem for an implementation without secondary items: every
    /// secondary item becomes primary, and gets one extra option that holds
    /// it alone, to be chosen when no other option covers it. Each solution
    /// of the original problem extends in exactly one way, so the count is
    /// unchanged (the search tree is not).
    pub fn secondary_as_primary(&self) -> Problem {
        let mut options = self.options.clone();
        options.extend((self.n_primary()..self.n_items()).map(|i| vec![i]));
        let mut primary = self.primary.clone();
        primary.extend(self.secondary.iter().cloned());
        Problem {
            primary,
            secondary: Vec::new(),
            options,
            ignored: self.ignored,
        }
    }
}

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Valid DLX input that uses a feature the runners do not support.
    Unsupported(String),
    /// Input that is not valid DLX.
    Invalid { line: usize, message: String },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Unsupported(what) => write!(f, "unsupported: {what}"),
            ReadError::Invalid { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

/// Does an item-line token look like DLX3's `a:b|name` or `b|name`?
fn is_multiplicity(tok: &str) -> bool {
    match tok.split_once('|') {
        Some((bounds, _)) if !bounds.is_empty() => bounds
            .split(':')
            .all(|b| !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit())),
        _ => false,
    }
}

/// Reads a problem in Knuth's DLX text format.
///
/// Lines whose first non-blank character is `|` are comments and blank lines
/// are skipped. The first other line names the primary items, then
/// optionally `|` and the secondary items; every later line is an option.
/// Colours (`item:colour`) and multiplicities are reported as
/// [`ReadError::Unsupported`].
pub fn read_dlx(text: &str) -> Result<Problem, ReadError> {
    let mut primary = Vec::new();
    let mut secondary = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut options = Vec::new();
    let mut ignored = 0;
    let mut have_items = false;
    let mut seen: Vec<usize> = Vec::new(); // per item: last option that used it, plus one
    for (n, line) in text.lines().enumerate() {
        let lineno = n + 1;
        let invalid = |message: String| ReadError::Invalid {
            line: lineno,
            message,
        };
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('|') {
            continue;
        }
        if !have_items {
            have_items = true;
            let mut in_secondary = false;
            let mut names: Vec<&str> = Vec::new();
            for tok in line.split_whitespace() {
                if is_multiplicity(tok) || tok.strip_prefix('|').is_some_and(is_multiplicity) {
                    return Err(ReadError::Unsupported("multiplicities".into()));
                }
                let name = match tok.strip_prefix('|') {
                    Some(rest) => {
                        if in_secondary {
                            return Err(invalid("the item line contains '|' twice".into()));
                        }
                        primary = std::mem::take(&mut names);
                        in_secondary = true;
                        if rest.is_empty() {
                            continue;
                        }
                        rest
                    }
                    None => tok,
                };
                if name.contains('|') || name.contains(':') {
                    return Err(invalid(format!("bad item name {name:?}")));
                }
                if index.insert(name, index.len()).is_some() {
                    return Err(invalid(format!("duplicate item name {name:?}")));
                }
                names.push(name);
            }
            if in_secondary {
                secondary = names;
            } else {
                primary = names;
            }
            if primary.is_empty() {
                return Err(invalid("the item line has no primary items".into()));
            }
            seen = vec![0; index.len()];
            continue;
        }
        let mark = options.len() + ignored + 1;
        let mut option = Vec::new();
        for tok in line.split_whitespace() {
            if tok.contains(':') {
                return Err(ReadError::Unsupported("colours".into()));
            }
            let Some(&i) = index.get(tok) else {
                return Err(invalid(format!("unknown item {tok:?}")));
            };
            if seen[i] == mark {
                return Err(invalid(format!(
                    "item {tok:?} appears twice in this option"
                )));
            }
            seen[i] = mark;
            option.push(i);
        }
        if option.iter().any(|&i| i < primary.len()) {
            options.push(option);
        } else {
            ignored += 1;
        }
    }
    if !have_items {
        return Err(ReadError::Invalid {
            line: 0,
            message: "no item line".into(),
        });
    }
    Ok(Problem {
        primary: primary.into_iter().map(String::from).collect(),
        secondary: secondary.into_iter().map(String::from).collect(),
        options,
        ignored,
    })
}

/// One search: what a runner measured.
#[derive(Clone, Copy, Debug)]
pub struct Measurement {
    pub solutions: u64,
    /// Building the implementation's structure.
    pub build: Duration,
    /// The search alone.
    pub search: Duration,
    /// The implementation's own statistics, where it keeps them.
    pub nodes: Option<u64>,
    pub updates: Option<u64>,
}

/// The JSON line for one measurement.
pub fn json_line(runner: &str, emulated_secondary: bool, m: &Measurement) -> String {
    // Names are fixed identifiers and `Display` for f64 never uses exponents,
    // so plain formatting yields valid JSON.
    let mut s = format!(
        "{{\"runner\":\"{runner}\",\"solutions\":{},\"seconds\":{},\"build_seconds\":{},\"emulated_secondary\":{emulated_secondary}",
        m.solutions,
        m.search.as_secs_f64(),
        m.build.as_secs_f64(),
    );
    if let Some(n) = m.nodes {
        let _ = write!(s, ",\"nodes\":{n}");
    }
    if let Some(u) = m.updates {
        let _ = write!(s, ",\"updates\":{u}");
    }
    s.push('}');
    s
}

/// The command line of every runner: `RUNNER [--repeat K] FILE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    pub file: String,
    pub repeat: usize,
}

/// Parses the arguments after the program name.
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Args, String> {
    let mut file = None;
    let mut repeat = 1;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let value = if a == "--repeat" {
            Some(it.next().ok_or("--repeat needs a value")?)
        } else {
            a.strip_prefix("--repeat=").map(String::from)
        };
        if let Some(v) = value {
            repeat = v
                .parse()
                .ok()
                .filter(|&k| k > 0)
                .ok_or_else(|| format!("--repeat: {v:?} is not a positive integer"))?;
        } else if a.starts_with("--") {
            return Err(format!("unknown option {a}"));
        } else if file.replace(a).is_some() {
            return Err("give exactly one problem file".into());
        }
    }
    let file = file.ok_or("give a problem file")?;
    Ok(Args { file, repeat })
}

/// The whole program of a runner: reads the arguments and the file, then
/// calls `search` once per repetition and prints its JSON line.
///
/// `prepare` turns the parsed problem into what `search` needs (untimed),
/// or says why the implementation cannot take it (exit code 3);
/// `search` builds the implementation's structure and counts the solutions,
/// timing both parts itself.
pub fn main<T>(
    runner: &str,
    emulated_secondary: bool,
    prepare: impl FnOnce(&Problem) -> Result<T, String>,
    mut search: impl FnMut(&T) -> Measurement,
) -> ExitCode {
    let usage = format!("usage: runner-{runner} [--repeat K] FILE");
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("runner-{runner}: {e}\n{usage}");
            return ExitCode::from(2);
        }
    };
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("runner-{runner}: {}: {e}", args.file);
            return ExitCode::from(2);
        }
    };
    let problem = match read_dlx(&text) {
        Ok(p) => p,
        Err(e @ ReadError::Unsupported(_)) => {
            eprintln!("runner-{runner}: {}: {e}", args.file);
            return ExitCode::from(3);
        }
        Err(e) => {
            eprintln!("runner-{runner}: {}: {e}", args.file);
            return ExitCode::from(2);
        }
    };
    let problem = if emulated_secondary {
        problem.secondary_as_primary()
    } else {
        problem
    };
    let prepared = match prepare(&problem) {
        Ok(p) => p,
        Err(why) => {
            eprintln!("runner-{runner}: {}: unsupported: {why}", args.file);
            return ExitCode::from(3);
        }
    };
    for _ in 0..args.repeat {
        let m = search(&prepared);
        println!("{}", json_line(runner, emulated_secondary, &m));
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOY: &str = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";

    #[test]
    fn reads_knuths_toy() {
        let p = read_dlx(TOY).unwrap();
        assert_eq!(p.primary, ["A", "B", "C", "D", "E"]);
        assert_eq!(p.secondary, ["F", "G"]);
        assert_eq!(p.options.len(), 6);
        assert_eq!(p.options[5], [3, 4, 6]);
        assert_eq!(p.ignored, 0);
    }

    #[test]
    fn separator_forms_and_comments() {
        let p = read_dlx("  | comment\n\n A B\t|X Y\r\nA X\r\n  X Y\nB\n").unwrap();
        assert_eq!((p.n_primary(), p.n_secondary()), (2, 2));
        assert_eq!(p.options, [vec![0, 2], vec![1]]);
        assert_eq!(p.ignored, 1);
        let p = read_dlx("A B |\nA\n").unwrap();
        assert_eq!((p.n_primary(), p.n_secondary()), (2, 0));
    }

    #[test]
    fn unsupported_and_invalid() {
        let colours = "A B | X\nA X:red\nB X:blue\n";
        assert_eq!(
            read_dlx(colours),
            Err(ReadError::Unsupported("colours".into()))
        );
        assert!(matches!(
            read_dlx("2:3|A B\nA\n"),
            Err(ReadError::Unsupported(_))
        ));
        assert!(matches!(
            read_dlx("A | 1|X\nA\n"),
            Err(ReadError::Unsupported(_))
        ));
        assert!(matches!(
            read_dlx("A B\nA C\n"),
            Err(ReadError::Invalid { line: 2, .. })
        ));
        assert!(matches!(
            read_dlx("A B\nA B A\n"),
            Err(ReadError::Invalid { line: 2, .. })
        ));
        assert!(matches!(
            read_dlx("A B A\n"),
            Err(ReadError::Invalid { line: 1, .. })
        ));
        assert!(matches!(
            read_dlx("A | B | C\n"),
            Err(ReadError::Invalid { .. })
        ));
        assert!(matches!(read_dlx("| X\n"), Err(ReadError::Invalid { .. })));
        assert!(matches!(
            read_dlx("| X Y\n"),
            Err(ReadError::Invalid { .. })
        ));
    }

    #[test]
    fn secondary_as_primary_adds_slack() {
        let p = read_dlx(TOY).unwrap().secondary_as_primary();
        assert_eq!(p.n_primary(), 7);
        assert_eq!(p.n_secondary(), 0);
        assert_eq!(p.options.len(), 8);
        assert_eq!(&p.options[6..], [vec![5], vec![6]]);
    }

    #[test]
    fn args() {
        let a = |v: &[&str]| parse_args(v.iter().map(|s| s.to_string()));
        assert_eq!(
            a(&["f.dlx"]).unwrap(),
            Args {
                file: "f.dlx".into(),
                repeat: 1
            }
        );
        assert_eq!(a(&["--repeat", "4", "f"]).unwrap().repeat, 4);
        assert_eq!(a(&["f", "--repeat=2"]).unwrap().repeat, 2);
        assert!(a(&["--repeat", "0", "f"]).is_err());
        assert!(a(&["f", "g"]).is_err());
        assert!(a(&[]).is_err());
        assert!(a(&["--fast", "f"]).is_err());
    }

    #[test]
    fn json_is_valid() {
        let m = Measurement {
            solutions: 3,
            build: Duration::from_nanos(1),
            search: Duration::from_millis(1500),
            nodes: None,
            updates: Some(7),
        };
        assert_eq!(
            json_line("x", false, &m),
            r#"{"runner":"x","solutions":3,"seconds":1.5,"build_seconds":0.000000001,"emulated_secondary":false,"updates":7}"#
        );
    }
}
