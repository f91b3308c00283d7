//! Runs `dancer` and the benchmark runners side by side on the same problem
//! files and compares their search times.
//!
//! For each file, every implementation runs `--repeat` times, round-robin
//! (dancer, runner A, runner B, dancer, ...), so that slow spells of the
//! machine fall on all of them alike. Each run is a fresh process. The times
//! compared are the ones the programs report for their search, never the
//! harness's wall clock, which would add process start-up and file parsing.

use clap::Parser;
use serde_json::{json, Value};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus, Stdio};
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    about = "Compare dancer's search times with other exact cover implementations",
    long_about = "Compare dancer's search times with other exact cover implementations.\n\n\
        Runs `dancer solve --count --json FILE` and every runner binary (runner-*) on each \
        problem, --repeat times each, round-robin, then prints the median, minimum and maximum \
        search seconds of each implementation, the solution counts, and dancer's median as a \
        ratio to each other implementation's (below 1: dancer is faster)."
)]
struct Cli {
    /// Runs of each implementation on each problem
    #[arg(long, default_value_t = 5, value_name = "K",
          value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// The dancer binary [default: target/release/dancer in the repository]
    #[arg(long, value_name = "PATH")]
    dancer: Option<PathBuf>,
    /// Directory holding the runner-* binaries [default: bench/target/release in the repository]
    #[arg(long, value_name = "DIR")]
    runners: Option<PathBuf>,
    /// Seconds one run may take before it is killed and reported as "timeout"
    #[arg(long, default_value_t = 600.0, value_name = "SECS")]
    timeout: f64,
    /// Print NDJSON records instead of a Markdown table
    #[arg(long)]
    json: bool,
    /// A dancer configuration to run, as NAME=ARGS (e.g. `auto=--engine auto
    /// --threads 1`); repeatable. The first is the reference of the ratio
    /// columns. Default: `dancer=--engine dlx --threads 1`
    #[arg(long = "variant", value_name = "NAME=ARGS")]
    variants: Vec<String>,
    /// Problem files in DLX format
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// The repository root, found from where this crate was built.
fn repo_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Dancer,
    Runner,
}

struct Implementation {
    name: String,
    program: PathBuf,
    kind: Kind,
    /// Extra arguments (dancer variants).
    args: Vec<String>,
}

impl Implementation {
    fn command(&self, file: &Path) -> Command {
        let mut c = Command::new(&self.program);
        if self.kind == Kind::Dancer {
            c.args(["solve", "--count", "--json", "--progress", "none"]);
            c.args(&self.args);
        }
        c.arg(file);
        c
    }
}

/// Every `runner-*` executable in `dir`, by name.
fn find_runners(dir: &Path) -> Result<Vec<Implementation>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let file_name = entry.file_name();
        let Some(name) = file_name.to_str().and_then(|n| n.strip_prefix("runner-")) else {
            continue;
        };
        // Skip cargo's dependency files (runner-x.d) and the like.
        if name.is_empty() || name.contains('.') {
            continue;
        }
        let path = entry.path();
        if !is_executable(&path) {
            continue;
        }
        found.push(Implementation {
            name: name.to_string(),
            program: path,
            kind: Kind::Runner,
            args: Vec::new(),
        });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(found)
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// What one run measured.
#[derive(Clone, Debug)]
struct Sample {
    seconds: f64,
    solutions: u64,
    build_seconds: Option<f64>,
    nodes: Option<u64>,
    updates: Option<u64>,
    emulated_secondary: bool,
    wall_seconds: f64,
}

/// How one run ended.
#[derive(Clone, Debug)]
enum Run {
    Ok(Sample),
    Unsupported(String),
    Timeout,
    Failed(String),
}

/// The last non-blank line of `out`, as JSON.
fn last_json_line(out: &str) -> Result<Value, String> {
    let line = out
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .ok_or("no output")?;
    serde_json::from_str(line).map_err(|e| format!("cannot read {line:?}: {e}"))
}

fn field_u64(v: &Value, key: &str) -> Result<u64, String> {
    v.get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| format!("no {key:?} in {v}"))
}

fn field_f64(v: &Value, key: &str) -> Result<f64, String> {
    v.get(key)
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("no {key:?} in {v}"))
}

/// Reads a finished run's output into a sample.
fn interpret(kind: Kind, status: ExitStatus, stdout: &str, stderr: &str, wall_seconds: f64) -> Run {
    let code = status.code();
    let last_stderr = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_string();
    let failed = |why: String| {
        let mut msg = match code {
            Some(c) => format!("exit code {c}: {why}"),
            None => format!("killed by a signal: {why}"),
        };
        if !last_stderr.is_empty() {
            msg.push_str(&format!(" (stderr: {last_stderr})"));
        }
        Run::Failed(msg)
    };
    match (kind, code) {
        (Kind::Runner, Some(3)) => return Run::Unsupported(last_stderr),
        // dancer exits 1 when there is no solution.
        (Kind::Dancer, Some(0 | 1)) | (Kind::Runner, Some(0)) => {}
        _ => return failed("the run failed".into()),
    }
    let v = match last_json_line(stdout) {
        Ok(v) => v,
        Err(e) => return failed(e),
    };
    let sample = match kind {
        Kind::Dancer => {
            if v.get("type").and_then(Value::as_str) != Some("summary") {
                return failed(format!("the last line is not a summary: {v}"));
            }
            if v.get("complete").and_then(Value::as_bool) != Some(true) {
                return failed("the search did not complete".into());
            }
            (|| {
                Ok::<_, String>(Sample {
                    seconds: field_f64(&v, "seconds")?,
                    solutions: field_u64(&v, "solutions")?,
                    build_seconds: None,
                    nodes: Some(field_u64(&v, "nodes")?),
                    updates: Some(field_u64(&v, "updates")?),
                    emulated_secondary: false,
                    wall_seconds,
                })
            })()
        }
        Kind::Runner => (|| {
            Ok::<_, String>(Sample {
                seconds: field_f64(&v, "seconds")?,
                solutions: field_u64(&v, "solutions")?,
                build_seconds: v.get("build_seconds").and_then(Value::as_f64),
                nodes: v.get("nodes").and_then(Value::as_u64),
                updates: v.get("updates").and_then(Value::as_u64),
                emulated_secondary: v
                    .get("emulated_secondary")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                wall_seconds,
            })
        })(),
    };
    match sample {
        Ok(s) => Run::Ok(s),
        Err(e) => failed(e),
    }
}

/// Runs one implementation once on `file`, killing it after `timeout`.
fn run_once(imp: &Implementation, file: &Path, timeout: Duration) -> Run {
    let start = Instant::now();
    let mut child = match imp
        .command(file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => return Run::Failed(format!("cannot start {}: {e}", imp.program.display())),
    };
    let collect = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let out = collect(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = collect(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    // Poll rather than block, so that a run past the deadline can be killed.
    // The programs time their own searches, so the polling costs them nothing
    // worth measuring.
    let mut pause = Duration::from_millis(1);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(None);
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(Some(e));
            }
        }
    };
    let wall = start.elapsed().as_secs_f64();
    match status {
        Ok(status) => {
            let stdout = out.join().unwrap_or_default();
            let stderr = err.join().unwrap_or_default();
            interpret(imp.kind, status, &stdout, &stderr, wall)
        }
        // The readers are left behind: a grandchild may still hold the pipes.
        Err(None) => Run::Timeout,
        Err(Some(e)) => Run::Failed(format!("cannot wait for {}: {e}", imp.program.display())),
    }
}

/// All runs of one implementation on one problem.
#[derive(Default)]
struct Results {
    samples: Vec<Sample>,
    /// Set when a run did not give a sample; later runs are skipped.
    stopped: Option<Run>,
}

impl Results {
    fn seconds(&self) -> Vec<f64> {
        let mut s: Vec<f64> = self.samples.iter().map(|s| s.seconds).collect();
        s.sort_by(f64::total_cmp);
        s
    }

    fn median(&self) -> Option<f64> {
        median(&self.seconds())
    }

    fn is_ok(&self) -> bool {
        self.stopped.is_none() && !self.samples.is_empty()
    }

    /// The solution counts seen, without repeats.
    fn counts(&self) -> Vec<u64> {
        let mut c: Vec<u64> = self.samples.iter().map(|s| s.solutions).collect();
        c.sort_unstable();
        c.dedup();
        c
    }

    fn status(&self) -> &'static str {
        match &self.stopped {
            None => "ok",
            Some(Run::Unsupported(_)) => "unsupported",
            Some(Run::Timeout) => "timeout",
            Some(Run::Failed(_)) => "error",
            Some(Run::Ok(_)) => unreachable!("a sample never stops the runs"),
        }
    }
}

fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// A duration in seconds, with a unit and about three significant digits.
fn fmt_secs(s: f64) -> String {
    if s <= 0.0 {
        return "0".into();
    }
    let (v, unit) = if s >= 1.0 {
        (s, "s")
    } else if s >= 1e-3 {
        (s * 1e3, "ms")
    } else if s >= 1e-6 {
        (s * 1e6, "µs")
    } else {
        (s * 1e9, "ns")
    };
    let decimals = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.decimals$} {unit}")
}

/// dancer's median over another's, with two decimals, or two significant
/// digits when that would show nothing.
fn fmt_ratio(r: f64) -> String {
    if r >= 0.1 || r <= 0.0 {
        format!("{r:.2}")
    } else {
        let decimals = (1 - r.log10().floor() as i32).clamp(2, 12) as usize;
        format!("{r:.decimals$}")
    }
}

/// One problem's outcome across implementations.
struct ProblemReport<'a> {
    file: &'a Path,
    name: String,
    results: Vec<Results>,
}

impl ProblemReport<'_> {
    /// Every solution count reported on this problem, with who reported it.
    fn counts(&self, imps: &[Implementation]) -> Vec<(String, u64)> {
        let mut all = Vec::new();
        for (imp, r) in imps.iter().zip(&self.results) {
            for c in r.counts() {
                all.push((imp.name.clone(), c));
            }
        }
        all
    }

    fn counts_agree(&self, imps: &[Implementation]) -> bool {
        let c = self.counts(imps);
        c.windows(2).all(|w| w[0].1 == w[1].1)
    }
}

fn measure<'a>(
    file: &'a Path,
    imps: &[Implementation],
    repeat: u32,
    timeout: Duration,
) -> ProblemReport<'a> {
    let name = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut results: Vec<Results> = imps.iter().map(|_| Results::default()).collect();
    for round in 1..=repeat {
        eprint!("{name}: round {round}/{repeat}:");
        for (imp, res) in imps.iter().zip(results.iter_mut()) {
            if res.stopped.is_some() {
                continue;
            }
            match run_once(imp, file, timeout) {
                Run::Ok(s) => {
                    eprint!(" {} {}", imp.name, fmt_secs(s.seconds));
                    res.samples.push(s);
                }
                other => {
                    eprint!(" {} {}", imp.name, status_word(&other));
                    res.stopped = Some(other);
                }
            }
        }
        eprintln!();
    }
    ProblemReport {
        file,
        name,
        results,
    }
}

fn status_word(r: &Run) -> &'static str {
    match r {
        Run::Ok(_) => "ok",
        Run::Unsupported(_) => "unsupported",
        Run::Timeout => "timeout",
        Run::Failed(_) => "error",
    }
}

/// The Markdown table, one row per problem.
struct Table<'a> {
    imps: &'a [Implementation],
    repeat: u32,
    notes: Vec<String>,
    bad: bool,
}

impl<'a> Table<'a> {
    fn new(imps: &'a [Implementation], repeat: u32) -> Self {
        Table {
            imps,
            repeat,
            notes: Vec::new(),
            bad: false,
        }
    }

    fn header(&self) {
        println!(
            "Search time: median (min–max) of {} run{} each; \
             dancer/X is dancer's median over X's (below 1: dancer is faster).\n",
            self.repeat,
            if self.repeat == 1 { "" } else { "s" }
        );
        let mut h = vec![
            "problem".to_string(),
            "solutions".into(),
            "dancer nodes".into(),
            "dancer updates".into(),
        ];
        for (k, imp) in self.imps.iter().enumerate() {
            h.push(imp.name.clone());
            if k > 0 {
                h.push(format!("{}/{}", self.imps[0].name, imp.name));
            }
        }
        println!("| {} |", h.join(" | "));
        let align: Vec<&str> = h
            .iter()
            .enumerate()
            .map(|(i, _)| if i == 0 { "---" } else { "---:" })
            .collect();
        println!("|{}|", align.join("|"));
    }

    fn cell(&mut self, p: &ProblemReport, imp: &Implementation, r: &Results) -> String {
        match &r.stopped {
            Some(Run::Unsupported(msg)) => {
                // The runner's message ends in "unsupported: WHAT".
                let what = msg.rfind("unsupported").map_or(msg.as_str(), |i| &msg[i..]);
                self.notes
                    .push(format!("{} on {}: {what}", imp.name, p.name));
                return "unsupported".into();
            }
            Some(Run::Timeout) => return "timeout".into(),
            Some(Run::Failed(msg)) => {
                self.bad = true;
                self.notes
                    .push(format!("{} on {}: {msg}", imp.name, p.name));
                return "**error**".into();
            }
            _ => {}
        }
        let s = r.seconds();
        let (Some(med), Some(min), Some(max)) = (median(&s), s.first(), s.last()) else {
            return "—".into();
        };
        let mut cell = format!("{} ({}–{})", fmt_secs(med), fmt_secs(*min), fmt_secs(*max));
        if r.samples.iter().any(|s| s.emulated_secondary) {
            cell.push_str(" ²");
        }
        cell
    }

    fn row(&mut self, p: &ProblemReport) {
        let dancer = self
            .imps
            .iter()
            .zip(&p.results)
            .find(|(i, _)| i.kind == Kind::Dancer)
            .map(|(_, r)| r);
        let solutions = if p.counts_agree(self.imps) {
            p.counts(self.imps)
                .first()
                .map_or("—".into(), |(_, c)| c.to_string())
        } else {
            self.bad = true;
            let detail: Vec<String> = p
                .counts(self.imps)
                .iter()
                .map(|(n, c)| format!("{n} {c}"))
                .collect();
            self.notes.push(format!(
                "SOLUTION COUNTS DIFFER on {}: {}",
                p.file.display(),
                detail.join(", ")
            ));
            format!("**MISMATCH: {}**", detail.join(", "))
        };
        let stat = |f: fn(&Sample) -> Option<u64>| {
            dancer
                .and_then(|r| r.samples.first())
                .and_then(f)
                .map_or("—".to_string(), |v| v.to_string())
        };
        let mut cells = vec![
            p.name.clone(),
            solutions,
            stat(|s| s.nodes),
            stat(|s| s.updates),
        ];
        let dancer_median = dancer.filter(|r| r.is_ok()).and_then(Results::median);
        for (k, (imp, r)) in self.imps.iter().zip(&p.results).enumerate() {
            cells.push(self.cell(p, imp, r));
            if k > 0 {
                let ratio = match (dancer_median, r.is_ok().then(|| r.median()).flatten()) {
                    (Some(d), Some(o)) if o > 0.0 => fmt_ratio(d / o),
                    _ => "—".into(),
                };
                cells.push(ratio);
            }
        }
        println!("| {} |", cells.join(" | "));
    }

    fn footer(&self, any_emulated: bool) {
        if any_emulated {
            println!("\n² secondary items emulated by slack options");
        }
        let (warnings, notes): (Vec<&String>, Vec<&String>) = self
            .notes
            .iter()
            .partition(|n| n.starts_with("SOLUTION COUNTS DIFFER"));
        for w in warnings {
            println!("\n> **WARNING: {w}**");
        }
        if !notes.is_empty() {
            println!();
        }
        for n in notes {
            println!("- {n}");
        }
    }
}

/// The NDJSON records of one problem.
fn json_records(p: &ProblemReport, imps: &[Implementation], repeat: u32) -> Vec<Value> {
    let mut out = Vec::new();
    let dancer_median = imps
        .iter()
        .zip(&p.results)
        .find(|(i, r)| i.kind == Kind::Dancer && r.is_ok())
        .and_then(|(_, r)| r.median());
    for (imp, r) in imps.iter().zip(&p.results) {
        let s = r.seconds();
        let mut rec = json!({
            "type": "result",
            "problem": p.name,
            "file": p.file.display().to_string(),
            "implementation": imp.name,
            "status": r.status(),
            "repeat": repeat,
            "runs": r.samples.len(),
            "seconds": s,
            "median": median(&s),
            "min": s.first(),
            "max": s.last(),
        });
        let counts = r.counts();
        rec["solutions"] = match counts.as_slice() {
            [] => Value::Null,
            [c] => json!(c),
            many => json!(many),
        };
        let first = r.samples.first();
        if let Some(n) = first.and_then(|s| s.nodes) {
            rec["nodes"] = json!(n);
        }
        if let Some(u) = first.and_then(|s| s.updates) {
            rec["updates"] = json!(u);
        }
        let mut builds: Vec<f64> = r.samples.iter().filter_map(|s| s.build_seconds).collect();
        builds.sort_by(f64::total_cmp);
        if let Some(b) = median(&builds) {
            rec["build_seconds_median"] = json!(b);
        }
        let mut walls: Vec<f64> = r.samples.iter().map(|s| s.wall_seconds).collect();
        walls.sort_by(f64::total_cmp);
        rec["wall_seconds_median"] = json!(median(&walls));
        if imp.kind == Kind::Runner {
            rec["emulated_secondary"] = json!(r.samples.iter().any(|s| s.emulated_secondary));
            let ratio = match (dancer_median, r.is_ok().then(|| r.median()).flatten()) {
                (Some(d), Some(o)) if o > 0.0 => json!(d / o),
                _ => Value::Null,
            };
            rec["ratio"] = ratio;
        }
        match &r.stopped {
            Some(Run::Unsupported(m)) | Some(Run::Failed(m)) => rec["message"] = json!(m),
            _ => {}
        }
        out.push(rec);
    }
    let counts = p.counts(imps);
    let agree = p.counts_agree(imps);
    out.push(json!({
        "type": "problem",
        "problem": p.name,
        "file": p.file.display().to_string(),
        "solutions_agree": agree,
        "solutions": if agree {
            counts.first().map_or(Value::Null, |(_, c)| json!(c))
        } else {
            Value::Object(counts.iter().map(|(n, c)| (n.clone(), json!(c))).collect())
        },
    }));
    out
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = repo_root();
    let dancer = cli
        .dancer
        .clone()
        .unwrap_or_else(|| root.join("target/release/dancer"));
    if !is_executable(&dancer) {
        eprintln!(
            "harness: no dancer binary at {}; build it with `cargo build --release -p dancer-cli` \
             in the repository, or give --dancer PATH",
            dancer.display()
        );
        return ExitCode::from(2);
    }
    let runners_dir = cli
        .runners
        .clone()
        .unwrap_or_else(|| root.join("bench/target/release"));
    let runners = match find_runners(&runners_dir) {
        Ok(r) if !r.is_empty() => r,
        Ok(_) => {
            eprintln!(
                "harness: no runner-* binaries in {}; build them with \
                 `cargo build --release --manifest-path bench/Cargo.toml`, or give --runners DIR",
                runners_dir.display()
            );
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("harness: {e}");
            return ExitCode::from(2);
        }
    };
    if !(cli.timeout > 0.0 && cli.timeout.is_finite()) {
        eprintln!("harness: --timeout must be a positive number of seconds");
        return ExitCode::from(2);
    }
    let timeout = Duration::from_secs_f64(cli.timeout);
    for f in &cli.files {
        if !f.is_file() {
            eprintln!("harness: {}: no such file", f.display());
            return ExitCode::from(2);
        }
    }

    let variants = if cli.variants.is_empty() {
        vec!["dancer=--engine dlx --threads 1".to_string()]
    } else {
        cli.variants.clone()
    };
    let mut imps = Vec::new();
    for v in &variants {
        let Some((name, args)) = v.split_once('=') else {
            eprintln!("harness: --variant {v:?}: expected NAME=ARGS");
            return ExitCode::from(2);
        };
        imps.push(Implementation {
            name: name.trim().to_string(),
            program: dancer.clone(),
            kind: Kind::Dancer,
            args: args.split_whitespace().map(String::from).collect(),
        });
    }
    imps.extend(runners);

    let mut table = Table::new(&imps, cli.repeat);
    let mut any_emulated = false;
    let mut bad = false;
    if !cli.json {
        table.header();
    }
    for file in &cli.files {
        let report = measure(file, &imps, cli.repeat, timeout);
        any_emulated |= report
            .results
            .iter()
            .any(|r| r.samples.iter().any(|s| s.emulated_secondary));
        if !report.counts_agree(&imps) {
            eprintln!(
                "harness: WARNING: solution counts differ on {}: {:?}",
                file.display(),
                report.counts(&imps)
            );
        }
        if cli.json {
            bad |= !report.counts_agree(&imps)
                || report
                    .results
                    .iter()
                    .any(|r| matches!(r.stopped, Some(Run::Failed(_))));
            for rec in json_records(&report, &imps, cli.repeat) {
                println!("{rec}");
            }
        } else {
            table.row(&report);
        }
    }
    if !cli.json {
        table.footer(any_emulated);
        bad |= table.bad;
    }
    if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[2.0]), Some(2.0));
        assert_eq!(median(&[1.0, 2.0, 9.0]), Some(2.0));
        assert_eq!(median(&[1.0, 2.0, 4.0, 9.0]), Some(3.0));
    }

    #[test]
    fn seconds_format() {
        assert_eq!(fmt_secs(0.0), "0");
        assert_eq!(fmt_secs(0.012345), "12.3 ms");
        assert_eq!(fmt_secs(0.5), "500 ms");
        assert_eq!(fmt_secs(1.23456), "1.23 s");
        assert_eq!(fmt_secs(123.456), "123 s");
        assert_eq!(fmt_secs(0.000_001_234), "1.23 µs");
        assert_eq!(fmt_secs(4.5e-8), "45.0 ns");
    }

    #[test]
    fn ratio_format() {
        assert_eq!(fmt_ratio(0.2149), "0.21");
        assert_eq!(fmt_ratio(1.0), "1.00");
        assert_eq!(fmt_ratio(12.5), "12.50");
        assert_eq!(fmt_ratio(0.0123), "0.012");
        assert_eq!(fmt_ratio(0.00000987), "0.0000099");
    }

    #[test]
    fn last_line_is_read() {
        let v = last_json_line("{\"a\":1}\n{\"type\":\"summary\",\"solutions\":3}\n\n").unwrap();
        assert_eq!(field_u64(&v, "solutions"), Ok(3));
        assert!(last_json_line("").is_err());
        assert!(last_json_line("14200\n").is_ok()); // a bare number is JSON too
        assert!(last_json_line("nope\n").is_err());
    }
}
