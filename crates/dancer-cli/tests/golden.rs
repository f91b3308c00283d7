//! Golden outputs: a fixed list of `dancer` commands whose standard output,
//! standard error, exit code and written files must stay byte for byte what
//! was recorded, timings aside.
//!
//! The cases are listed in `tests/golden/cases.txt` (its header explains the
//! format); the inputs they read are in `tests/golden/input/`, and what they
//! produced when recorded is in `tests/golden/expected/`.
//!
//! Timing-dependent text is replaced by a fixed token before comparing (and
//! before recording): see [`MASKS`]. Counts, nodes, updates and solutions are
//! never masked.
//!
//! To re-record after an intentional change in behaviour:
//!
//! ```sh
//! DANCER_BLESS=1 cargo test -p dancer-cli --test golden
//! ```
//!
//! and review the diff of `tests/golden/expected/` before committing it.

use assert_cmd::Command;
use regex::bytes::Regex;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Each command gets at most this long (the whole suite takes a few seconds).
const CASE_TIMEOUT: Duration = Duration::from_secs(120);

/// Timing-dependent text and its replacement: (what, pattern, replacement).
/// Kept as narrow as possible; applied in this order to standard output,
/// standard error and every written file.
const MASKS: &[(&str, &str, &str)] = &[
    // `"seconds":0.0012` in NDJSON, `"seconds": 0.0012` in checkpoint and shard files
    (
        "JSON seconds",
        r#"("seconds":[ \t]*)-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"#,
        "${1}<SECONDS>",
    ),
    // the checksum of a checkpoint or shard file covers its seconds
    (
        "file checksum",
        r#"("checksum":[ \t]*)"[0-9a-f]{16}""#,
        "${1}\"<CHECKSUM>\"",
    ),
    // throughput of `sudoku generate`: `(0.3 ms each, 1 thread)`
    (
        "ms each",
        r"\b[0-9]+(?:\.[0-9]+)? ms each\b",
        "<MS> ms each",
    ),
    // rates: `3300 puzzles/s`, `19031 nodes/s, 41234 updates/s`
    (
        "rate per second",
        r"\b[0-9]+(?:\.[0-9]+)? (puzzles|nodes|updates)/s\b",
        "<RATE> $1/s",
    ),
    // throughput of `sudoku rate`: `(3667/s)`
    ("bare rate", r"\([0-9]+(?:\.[0-9]+)?/s\)", "(<RATE>/s)"),
    // durations: `0.003 s`, `0.00 s`, `0.002 s of work`
    ("seconds", r"\b[0-9]+\.[0-9]+ s\b", "<TIME> s"),
];

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// One line of `cases.txt`.
#[derive(Debug)]
struct Case {
    /// Line number in `cases.txt`, for messages.
    line: usize,
    name: String,
    /// Cases of one group share a directory and run in file order.
    group: Option<String>,
    args: Vec<String>,
    /// File (relative to the case's directory) fed to standard input.
    stdin: Option<String>,
    /// Files or folders (relative) the case writes, compared after masking.
    writes: Vec<String>,
}

fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut names = BTreeSet::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let mut tokens = l.split_whitespace();
        let name = tokens.next().unwrap().to_string();
        assert!(
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
            "cases.txt:{line}: bad case name {name:?} (letters, digits, _ and - only)"
        );
        assert!(
            names.insert(name.clone()),
            "cases.txt:{line}: case {name:?} is listed twice"
        );
        let mut case = Case {
            line,
            name,
            group: None,
            args: Vec::new(),
            stdin: None,
            writes: Vec::new(),
        };
        let mut first = true;
        while let Some(t) = tokens.next() {
            if first && t.starts_with('@') {
                case.group = Some(t[1..].to_string());
            } else if t == "<" {
                let f = tokens
                    .next()
                    .unwrap_or_else(|| panic!("cases.txt:{line}: `<` needs a file"));
                assert!(
                    case.stdin.is_none(),
                    "cases.txt:{line}: two `<` for one case"
                );
                case.stdin = Some(f.to_string());
            } else if t == "=>" {
                let f = tokens
                    .next()
                    .unwrap_or_else(|| panic!("cases.txt:{line}: `=>` needs a path"));
                assert!(
                    is_plain_relative(f),
                    "cases.txt:{line}: `=> {f}` must be a relative path without `..`"
                );
                case.writes.push(f.trim_end_matches('/').to_string());
            } else {
                case.args.push(t.to_string());
            }
            first = false;
        }
        assert!(
            !case.args.is_empty(),
            "cases.txt:{line}: case {:?} has no command",
            case.name
        );
        cases.push(case);
    }
    cases
}

fn is_plain_relative(p: &str) -> bool {
    let p = Path::new(p);
    p.is_relative()
        && p.components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Every file below `dir`, by path relative to `dir` (with `/` separators).
fn files_below(dir: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap();
                let rel: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.insert(rel.join("/"), path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn copy_dir(from: &Path, to: &Path) {
    for (rel, path) in files_below(from) {
        let dest = to.join(&rel);
        fs::create_dir_all(dest.parent().unwrap()).unwrap();
        fs::copy(&path, &dest).unwrap();
    }
}

struct Masks(Vec<(Regex, &'static str)>);

impl Masks {
    fn new() -> Masks {
        Masks(
            MASKS
                .iter()
                .map(|(what, re, rep)| {
                    let re = Regex::new(re).unwrap_or_else(|e| panic!("mask {what}: {e}"));
                    (re, *rep)
                })
                .collect(),
        )
    }

    fn apply(&self, bytes: &[u8]) -> Vec<u8> {
        let mut out = bytes.to_vec();
        for (re, rep) in &self.0 {
            out = re.replace_all(&out, rep.as_bytes()).into_owned();
        }
        out
    }
}

/// What one case produced, masked: the file name under `expected/` (such as
/// `NAME.stdout` or `NAME.files/svg/x.svg`) and its contents.
struct Outcome {
    outputs: BTreeMap<String, Vec<u8>>,
    /// Problems found while running (not comparisons): undeclared files, ...
    problems: Vec<String>,
}

fn run_case(case: &Case, dir: &Path, masks: &Masks) -> Outcome {
    let mut problems = Vec::new();
    let before: BTreeSet<String> = files_below(dir).into_keys().collect();

    let mut cmd = Command::cargo_bin("dancer").unwrap();
    cmd.current_dir(dir)
        .args(&case.args)
        .timeout(CASE_TIMEOUT)
        .env("NO_COLOR", "1")
        .env("TERM", "dumb")
        .env("RUST_BACKTRACE", "0")
        .env("LC_ALL", "C")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .env_remove("LINES")
        .env_remove("RAYON_NUM_THREADS")
        .env_remove("RUST_LOG");
    let stdin = match &case.stdin {
        Some(f) => fs::read(dir.join(f)).unwrap_or_else(|e| {
            panic!(
                "cases.txt:{}: cannot read the standard input {f}: {e}",
                case.line
            )
        }),
        None => Vec::new(),
    };
    cmd.write_stdin(stdin);
    let out = match cmd.output() {
        Ok(out) => out,
        Err(e) => {
            return Outcome {
                outputs: BTreeMap::new(),
                problems: vec![format!("did not run to the end: {e}")],
            }
        }
    };

    let mut outputs = BTreeMap::new();
    let code = match out.status.code() {
        Some(c) => c.to_string(),
        None => format!("killed: {}", out.status),
    };
    outputs.insert(
        format!("{}.code", case.name),
        format!("{code}\n").into_bytes(),
    );
    outputs.insert(format!("{}.stdout", case.name), masks.apply(&out.stdout));
    outputs.insert(format!("{}.stderr", case.name), masks.apply(&out.stderr));

    let after = files_below(dir);
    let declared = |rel: &str| {
        case.writes
            .iter()
            .any(|w| rel == w || rel.starts_with(&format!("{w}/")))
    };
    for w in &case.writes {
        let p = dir.join(w);
        if !p.exists() {
            problems.push(format!("declared output {w} was not written"));
        }
    }
    for (rel, path) in &after {
        if declared(rel) {
            let bytes = fs::read(path).unwrap();
            outputs.insert(format!("{}.files/{rel}", case.name), masks.apply(&bytes));
        } else if !before.contains(rel) {
            problems.push(format!(
                "wrote {rel}, which is not declared with `=> {rel}` in cases.txt"
            ));
        }
    }

    // Outputs must not depend on where the test runs.
    let dir_str = dir.to_string_lossy();
    let real = fs::canonicalize(dir).unwrap();
    let real_str = real.to_string_lossy();
    for (file, bytes) in &outputs {
        let text = String::from_utf8_lossy(bytes);
        if text.contains(dir_str.as_ref()) || text.contains(real_str.as_ref()) {
            problems.push(format!(
                "{file} contains the absolute path of the temporary directory"
            ));
        }
    }
    Outcome { outputs, problems }
}

/// A readable account of how `actual` differs from `expected`.
fn describe_diff(expected: &[u8], actual: &[u8]) -> String {
    let e = String::from_utf8_lossy(expected);
    let a = String::from_utf8_lossy(actual);
    let el: Vec<&str> = e.split_inclusive('\n').collect();
    let al: Vec<&str> = a.split_inclusive('\n').collect();
    let mut s = String::new();
    let n = el.len().max(al.len());
    for i in 0..n {
        let (x, y) = (el.get(i), al.get(i));
        if x != y {
            let show = |l: Option<&&str>| match l {
                Some(l) => format!("{:?}", l),
                None => "(end of file)".to_string(),
            };
            let _ = writeln!(s, "      first difference at line {}:", i + 1);
            let _ = writeln!(s, "        expected: {}", show(x));
            let _ = writeln!(s, "        actual:   {}", show(y));
            break;
        }
    }
    let _ = write!(
        s,
        "      ({} lines, {} bytes expected; {} lines, {} bytes actual)",
        el.len(),
        expected.len(),
        al.len(),
        actual.len()
    );
    s
}

/// Which stream or file an expected-file name is about, for messages.
fn what(file: &str, case: &str) -> String {
    let rest = &file[case.len() + 1..];
    match rest {
        "stdout" => "standard output".into(),
        "stderr" => "standard error".into(),
        "code" => "exit code".into(),
        _ => format!(
            "written file {}",
            rest.strip_prefix("files/").unwrap_or(rest)
        ),
    }
}

/// The expected files of one case: `NAME.stdout`, `NAME.stderr`, `NAME.code`
/// and every file below `NAME.files/`.
fn expected_of(expected_dir: &Path, name: &str) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for ext in ["code", "stdout", "stderr"] {
        let f = format!("{name}.{ext}");
        if let Ok(bytes) = fs::read(expected_dir.join(&f)) {
            out.insert(f, bytes);
        }
    }
    let files = expected_dir.join(format!("{name}.files"));
    for (rel, path) in files_below(&files) {
        out.insert(format!("{name}.files/{rel}"), fs::read(path).unwrap());
    }
    out
}

fn compare(case: &Case, actual: &BTreeMap<String, Vec<u8>>, expected_dir: &Path) -> Vec<String> {
    let expected = expected_of(expected_dir, &case.name);
    let mut diffs = Vec::new();
    if expected.is_empty() {
        return vec!["    nothing recorded for this case (record with DANCER_BLESS=1)".to_string()];
    }
    let names: BTreeSet<&String> = expected.keys().chain(actual.keys()).collect();
    for file in names {
        match (expected.get(file), actual.get(file)) {
            (Some(e), Some(a)) if e == a => {}
            (Some(e), Some(a)) => diffs.push(format!(
                "    {} differs (expected/{file}):\n{}",
                what(file, &case.name),
                describe_diff(e, a)
            )),
            (Some(_), None) => diffs.push(format!(
                "    {} was expected but not written (expected/{file})",
                what(file, &case.name)
            )),
            (None, Some(_)) => diffs.push(format!(
                "    {} was written but not expected (expected/{file})",
                what(file, &case.name)
            )),
            (None, None) => unreachable!(),
        }
    }
    diffs
}

fn bless(actual: &BTreeMap<String, Vec<u8>>, expected_dir: &Path) {
    for (file, bytes) in actual {
        let path = expected_dir.join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, bytes).unwrap();
    }
}

/// Files under `expected/` that belong to no case of `cases.txt`.
fn stale_expected(expected_dir: &Path, cases: &[Case]) -> Vec<String> {
    let names: BTreeSet<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    let mut stale = Vec::new();
    let Ok(entries) = fs::read_dir(expected_dir) else {
        return stale;
    };
    for e in entries {
        let file = e.unwrap().file_name().to_string_lossy().into_owned();
        let owner = ["stdout", "stderr", "code", "files"]
            .iter()
            .find_map(|ext| file.strip_suffix(&format!(".{ext}")));
        if !owner.is_some_and(|n| names.contains(n)) {
            stale.push(file);
        }
    }
    stale.sort();
    stale
}

#[test]
fn golden() {
    let root = golden_dir();
    let cases_text = fs::read_to_string(root.join("cases.txt")).unwrap();
    let cases = parse_cases(&cases_text);
    let input = root.join("input");
    let expected_dir = root.join("expected");
    let blessing = std::env::var_os("DANCER_BLESS").is_some_and(|v| !v.is_empty() && v != "0");
    let masks = Masks::new();

    if blessing {
        // Record from scratch, so that no stale file survives.
        if expected_dir.exists() {
            fs::remove_dir_all(&expected_dir).unwrap();
        }
        fs::create_dir_all(&expected_dir).unwrap();
    }

    let mut groups: HashMap<String, tempfile::TempDir> = HashMap::new();
    let mut failures = Vec::new();
    for case in &cases {
        let own;
        let dir = match &case.group {
            Some(g) => groups.entry(g.clone()).or_insert_with(|| {
                let d = tempfile::tempdir().unwrap();
                copy_dir(&input, d.path());
                d
            }),
            None => {
                own = tempfile::tempdir().unwrap();
                copy_dir(&input, own.path());
                &own
            }
        };
        let outcome = run_case(case, dir.path(), &masks);
        let mut report: Vec<String> = outcome
            .problems
            .iter()
            .map(|p| format!("    {p}"))
            .collect();
        if blessing {
            assert!(
                report.is_empty(),
                "cases.txt:{}: case {} cannot be recorded:\n{}",
                case.line,
                case.name,
                report.join("\n")
            );
            bless(&outcome.outputs, &expected_dir);
        } else {
            report.extend(compare(case, &outcome.outputs, &expected_dir));
        }
        if !report.is_empty() {
            failures.push(format!(
                "  {} (cases.txt:{}: dancer {}):\n{}",
                case.name,
                case.line,
                case.args.join(" "),
                report.join("\n")
            ));
        }
    }

    if blessing {
        eprintln!(
            "golden: recorded {} cases in {}",
            cases.len(),
            expected_dir.display()
        );
        return;
    }
    let failing = failures.len();
    let stale = stale_expected(&expected_dir, &cases);
    if !stale.is_empty() {
        failures.push(format!(
            "  expected/ holds files of no case in cases.txt: {}",
            stale.join(", ")
        ));
    }
    assert!(
        failures.is_empty(),
        "{failing} of {} golden cases differ from the recorded outputs \
         (tests/golden/expected/; timings masked):\n{}\n\
         If the change is intended, record again with DANCER_BLESS=1 and review the diff.",
        cases.len(),
        failures.join("\n")
    );
}
