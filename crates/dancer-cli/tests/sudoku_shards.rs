//! Sudoku batch files in shards (`dancer sudoku solve|count|check FILE
//! --shard K/N`, then `dancer merge`): the parts merged print exactly what
//! the whole run prints, byte for byte, for any number of parts; invalid
//! puzzles are named with the whole file's line numbers; a part stopped by
//! SIGTERM (or killed) goes on with `--resume`; damaged, forged, missing
//! and duplicate parts are refused with exit 2, never a panic.

use dancer_runs::batch::PartFile;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn dancer(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dancer"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A run that must end with `code`, whose standard error says nothing of
/// a panic.
fn expect(o: &Output, code: i32, what: &str) {
    let err = text(&o.stderr);
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert_eq!(o.status.code(), Some(code), "{what}: {err}");
}

/// A batch file `name` in a new folder: the first `lines` lines of
/// 17_clue.txt with blank lines, comments and invalid puzzles sprinkled
/// in, and a last line without a line break; the folder, the file's name
/// and the numbers of the invalid lines. `None` (the test skips, saying
/// why) without the shared data.
fn batch(name: &str, lines: usize) -> Option<(tempfile::TempDir, String, Vec<usize>)> {
    let src = dancer_testdata::shared_file("sudoku", "17_clue.txt")?;
    let all = std::fs::read_to_string(src).unwrap();
    let mut out = String::from("# the first puzzles of 17_clue.txt, and some bad lines\n");
    let mut at = 1;
    let mut invalid = Vec::new();
    let mut push = |out: &mut String, line: &str, bad: bool| {
        out.push_str(line);
        out.push('\n');
        at += 1;
        if bad {
            invalid.push(at);
        }
    };
    let puzzles: Vec<&str> = all.lines().take(lines).collect();
    for (i, p) in puzzles.iter().enumerate() {
        if i + 1 == puzzles.len() {
            // the last line has no line break
            out.push_str(p);
            break;
        }
        push(&mut out, p, false);
        match i % 1013 {
            7 => push(&mut out, "", false),
            11 => push(&mut out, "# a comment", false),
            // 80 cells
            13 => push(&mut out, &p[1..], true),
            // two 5s in a row
            17 => push(&mut out, &format!("55{}", &p[2..]), true),
            _ => {}
        }
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), out).unwrap();
    Some((dir, name.to_string(), invalid))
}

/// Runs every part of `file` (`args` before the shard flags), `threads`
/// threads each, and returns the part files' names in order of K.
fn run_parts(dir: &Path, args: &[&str], n: usize, tag: &str, code: i32) -> Vec<String> {
    let mut parts = Vec::new();
    for k in 1..=n {
        let out = format!("{tag}-{k}-of-{n}.json");
        let threads = if k % 2 == 0 { "2" } else { "1" };
        let mut a = args.to_vec();
        let shard = format!("{k}/{n}");
        a.extend(["--threads", threads, "--shard", &shard, "--shard-out", &out]);
        let o = dancer(dir, &a);
        expect(&o, code_of_part(code, &o), &format!("{a:?}"));
        assert!(o.stdout.is_empty(), "a part prints nothing: {a:?}");
        parts.push(out);
    }
    parts
}

/// A part ends as its own puzzles say (a part without an invalid line
/// ends 0 where the whole ends 2): taken from its summary.
fn code_of_part(whole: i32, o: &Output) -> i32 {
    let err = text(&o.stderr);
    if whole == 2 && !err.contains("invalid puzzle") {
        o.status.code().unwrap_or(-1)
    } else {
        whole
    }
}

fn merge(dir: &Path, parts: &[String]) -> Output {
    let mut a = vec!["merge"];
    a.extend(parts.iter().map(String::as_str));
    dancer(dir, &a)
}

/// Whether `solution` (81 digits) solves `puzzle` (81 symbols, `.` or `0`
/// empty): every given kept, every row, column and box holding 1 to 9.
fn solves(puzzle: &str, solution: &str) -> bool {
    let p = puzzle.trim().as_bytes();
    let s: Vec<u8> = solution.bytes().map(|b| b.wrapping_sub(b'0')).collect();
    if p.len() != 81 || s.len() != 81 || s.iter().any(|&d| !(1..=9).contains(&d)) {
        return false;
    }
    let kept = (0..81).all(|i| !p[i].is_ascii_digit() || p[i] == b'0' || p[i] - b'0' == s[i]);
    let house = |cells: &mut dyn Iterator<Item = usize>| {
        cells.fold(0u16, |m, i| m | 1 << s[i]) == 0b11_1111_1110
    };
    kept && (0..9).all(|a| {
        house(&mut (0..9).map(|b| a * 9 + b))
            && house(&mut (0..9).map(|b| b * 9 + a))
            && house(&mut (0..9).map(|b| (a / 3 * 3 + b / 3) * 9 + a % 3 * 3 + b % 3))
    })
}

/// The line numbers named in `FILE:LINE: invalid puzzle` messages.
fn invalid_lines(stderr: &str, file: &str) -> Vec<usize> {
    let mut v: Vec<usize> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("{file}:")))
        .filter_map(|l| l.split_once(": invalid puzzle: "))
        .map(|(n, _)| n.parse().unwrap())
        .collect();
    v.sort_unstable();
    v
}

/// 10,000 puzzles and some bad lines, in 1, 4 and 7 parts: merged, the
/// output of one run, byte for byte (and its exit code), for solve, count,
/// check and --json; every grid solved checked here; invalid puzzles named
/// with the whole file's line numbers.
#[test]
fn parts_merge_to_the_output_of_one_run() {
    let Some((dir, file, invalid)) = batch("batch.txt", 10_000) else {
        return;
    };
    let (d, file) = (dir.path(), file.as_str());
    assert_eq!(invalid.len(), 20);
    let cases: [(&[&str], &[usize]); 4] = [
        (&["sudoku", "solve"], &[1, 4, 7]),
        (&["sudoku", "solve", "--json"], &[4]),
        (&["sudoku", "count"], &[4]),
        (&["sudoku", "check"], &[4]),
    ];
    for (args, ns) in cases {
        let mut a = args.to_vec();
        a.push(file);
        let whole = dancer(d, &a);
        expect(&whole, 2, &format!("{a:?}"));
        assert_eq!(invalid_lines(&text(&whole.stderr), file), invalid);
        for &n in ns {
            let tag = format!("{}-{n}", args[1..].join(""));
            let parts = run_parts(d, &a, n, &tag, 2);
            let m = merge(d, &parts);
            expect(&m, 2, &format!("merge {a:?} in {n}"));
            assert!(
                m.stdout == whole.stdout,
                "{a:?} in {n} parts: the merged output differs from the whole run's"
            );
            let err = text(&m.stderr);
            assert!(
                err.contains(&format!(
                    "{n} part{} of `sudoku {}`: 10020 puzzles: 10000 unique, 0 multiple, 0 none, 20 invalid",
                    if n == 1 { "" } else { "s" },
                    args[1],
                )),
                "{err}"
            );
        }
    }
    // every answer of the plain solve is the solution of its puzzle
    let input = std::fs::read_to_string(d.join(file)).unwrap();
    let puzzles: Vec<&str> = input
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let parts: Vec<String> = (1..=7).map(|k| format!("solve-7-{k}-of-7.json")).collect();
    let merged = text(&merge(d, &parts).stdout);
    let answers: Vec<&str> = merged.lines().collect();
    assert_eq!(answers.len(), puzzles.len());
    let mut solved = 0;
    for (p, a) in puzzles.iter().zip(&answers) {
        if a.starts_with("invalid: ") {
            continue;
        }
        assert!(solves(p, a), "{a} does not solve {p}");
        solved += 1;
    }
    assert_eq!(solved, 10_000);
}

/// Invalid puzzles are named on standard error with their lines in the
/// whole file, whichever part meets them, resumed or not.
#[test]
fn parts_name_the_whole_files_lines() {
    let Some((dir, file, invalid)) = batch("lines.txt", 3000) else {
        return;
    };
    let (d, file) = (dir.path(), file.as_str());
    let mut seen = Vec::new();
    for k in 1..=5 {
        let shard = format!("{k}/5");
        let o = dancer(
            d,
            &[
                "sudoku",
                "check",
                file,
                "--shard",
                &shard,
                "--shard-out",
                "p.json",
            ],
        );
        seen.extend(invalid_lines(&text(&o.stderr), file));
    }
    seen.sort_unstable();
    assert_eq!(seen, invalid);
    assert_eq!(invalid, [18, 23, 1035, 1040, 2052, 2057]);
}

/// More parts than lines: some parts are empty, complete, and the merge
/// is still the whole output; `--missing` names the parts not given in the
/// form of `sbatch --array`.
#[test]
fn more_parts_than_lines_and_the_parts_to_run_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    let multi = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    std::fs::write(d.join("few.txt"), format!("{p}\n\n{multi}\n# end\n{p}")).unwrap();
    let whole = dancer(d, &["sudoku", "solve", "--pretty", "few.txt"]);
    expect(&whole, 0, "whole");
    let parts = run_parts(d, &["sudoku", "solve", "--pretty", "few.txt"], 8, "few", 0);
    let m = merge(d, &parts);
    expect(&m, 0, "merge");
    assert_eq!(text(&m.stdout), text(&whole.stdout));
    // parts 3, 5 and 6 not given
    let given: Vec<String> = parts
        .iter()
        .enumerate()
        .filter(|(i, _)| ![2, 4, 5].contains(i))
        .map(|(_, p)| p.clone())
        .collect();
    let mut a = vec!["merge", "--missing"];
    a.extend(given.iter().map(String::as_str));
    let o = dancer(d, &a);
    expect(&o, 0, "--missing");
    assert_eq!(text(&o.stdout), "3,5-6\n");
    let o = merge(d, &given);
    expect(&o, 2, "missing parts");
    assert!(
        text(&o.stderr).contains("missing parts of 8: 3, 5, 6"),
        "{}",
        text(&o.stderr)
    );
    // every part given: nothing to run again
    let mut a = vec!["merge", "--missing"];
    a.extend(parts.iter().map(String::as_str));
    let o = dancer(d, &a);
    expect(&o, 0, "--missing, none");
    assert_eq!(text(&o.stdout), "");
}

/// A part given twice, parts missing, a part of another input, a search's
/// shard among Sudoku parts, and files damaged, edited or forged (a bad
/// checksum, counts changed, K > N, next past the end): each refused with
/// exit 2 and a message naming the file, never a panic; `--resume` refuses
/// them too.
#[test]
fn odd_and_hostile_parts_are_refused() {
    let Some((dir, file, _)) = batch("small.txt", 300) else {
        return;
    };
    let (d, file) = (dir.path(), file.as_str());
    let parts = run_parts(d, &["sudoku", "solve", file], 3, "s", 2);
    expect(&merge(d, &parts), 2, "the parts merge");
    let refused = |files: &[&str], says: &[&str]| {
        let files: Vec<String> = files.iter().map(|s| s.to_string()).collect();
        let o = merge(d, &files);
        expect(&o, 2, &format!("merge {files:?}"));
        let err = text(&o.stderr);
        for s in says {
            assert!(
                err.contains(s),
                "merge {files:?}: {err:?} does not say {s:?}"
            );
        }
    };
    let [p1, p2, p3] = [&parts[0], &parts[1], &parts[2]].map(String::as_str);
    // a part twice, one missing
    std::fs::copy(d.join(p2), d.join("again.json")).unwrap();
    refused(
        &[p1, p2, "again.json", p3],
        &["part 2 of 3 appears twice", p2, "again.json"],
    );
    refused(&[p1, p3], &["missing parts of 3: 2"]);
    refused(&[p3], &["missing parts of 3: 1, 2"]);
    // a part of another input (or flags)
    std::fs::write(
        d.join("other.txt"),
        std::fs::read_to_string(d.join(file)).unwrap() + "\n",
    )
    .unwrap();
    let o = dancer(
        d,
        &[
            "sudoku",
            "solve",
            "other.txt",
            "--shard",
            "2/3",
            "--shard-out",
            "other.json",
        ],
    );
    assert!(matches!(o.status.code(), Some(0 | 2)));
    refused(
        &[p1, "other.json", p3],
        &[p1, "other.json", "different inputs"],
    );
    let o = dancer(
        d,
        &[
            "sudoku",
            "solve",
            "--json",
            file,
            "--shard",
            "2/3",
            "--shard-out",
            "json.json",
        ],
    );
    assert!(matches!(o.status.code(), Some(0 | 2)));
    refused(&[p1, "json.json", p3], &["json.json", "different inputs"]);
    // a search's shard among Sudoku parts, and the other way round
    let q = dancer(d, &["gen", "queens", "6"]);
    std::fs::write(d.join("q.dlx"), &q.stdout).unwrap();
    let o = dancer(
        d,
        &[
            "solve",
            "q.dlx",
            "--count",
            "--shard",
            "2/3",
            "--shard-out",
            "search.json",
        ],
    );
    assert!(o.status.success());
    refused(
        &[p1, "search.json", p3],
        &["search.json", "not a Sudoku part file"],
    );
    refused(&["search.json", p1], &[p1, "a Sudoku part file"]);
    // damaged and edited files
    let original = std::fs::read_to_string(d.join(p2)).unwrap();
    let edits: Vec<(&str, String, &str)> = vec![
        (
            "damaged.json",
            original.replacen("\\n", "\\n1", 1),
            "checksum does not match",
        ),
        (
            "counted.json",
            original.replacen("\"unique\": ", "\"unique\": 1", 1),
            "checksum does not match",
        ),
        (
            "cut.json",
            original[..original.len() / 2].to_string(),
            "cannot merge it",
        ),
        ("empty.json", String::new(), "cannot merge it"),
        (
            "nosum.json",
            {
                let mut v: serde_json::Value = serde_json::from_str(&original).unwrap();
                v.as_object_mut().unwrap().remove("checksum");
                v.to_string()
            },
            "no checksum",
        ),
    ];
    for (name, body, says) in &edits {
        std::fs::write(d.join(name), body).unwrap();
        refused(&[p1, name, p3], &[name, says]);
    }
    // forged files: a matching checksum, fields out of range
    let part: PartFile = serde_json::from_str(&original).unwrap();
    let forge = |name: &str, f: &dyn Fn(&mut PartFile)| {
        let mut p = part.clone();
        f(&mut p);
        std::fs::write(d.join(name), p.to_json()).unwrap();
    };
    forge("k.json", &|p| p.shard = 4);
    refused(
        &[p1, "k.json", p3],
        &["k.json", "shard: part 4 of 3 is not a part"],
    );
    forge("next.json", &|p| p.next = p.end + 1);
    refused(&[p1, "next.json", p3], &["next.json", "next: line"]);
    forge("more.json", &|p| p.unique += 1000);
    refused(&[p1, "more.json", p3], &["more.json", "more than the"]);
    forge("huge.json", &|p| p.invalid = u64::MAX);
    refused(&[p1, "huge.json", p3], &["huge.json"]);
    forge("lines.json", &|p| p.lines = usize::MAX);
    refused(&[p1, "lines.json", p3], &["lines.json"]);
    forge("half.json", &|p| {
        p.next = (p.first + p.end) / 2;
        p.stopped = None;
    });
    refused(&[p1, "half.json", p3], &["half.json", "complete"]);
    // --resume refuses them too, and parts of another input or shard
    for (name, says) in [
        ("damaged.json", "checksum does not match"),
        ("k.json", "not a part"),
        ("other.json", "another input"),
        (p1, "it is part 1/3, not part 2/3"),
        ("search.json", "not a Sudoku shard part file"),
    ] {
        let o = dancer(
            d,
            &[
                "sudoku",
                "solve",
                file,
                "--shard",
                "2/3",
                "--resume",
                name,
                "--shard-out",
                "r.json",
            ],
        );
        expect(&o, 2, &format!("--resume {name}"));
        let err = text(&o.stderr);
        assert!(
            err.contains(name) && err.contains(says),
            "--resume {name}: {err}"
        );
    }
    // a complete part resumed is left as it is
    let before = std::fs::metadata(d.join(p2)).unwrap().modified().unwrap();
    let o = dancer(
        d,
        &["sudoku", "solve", file, "--shard", "2/3", "--resume", p2],
    );
    expect(&o, 0, "a complete part resumed");
    assert!(text(&o.stderr).contains("nothing to do"));
    assert_eq!(
        std::fs::metadata(d.join(p2)).unwrap().modified().unwrap(),
        before
    );
    // what cannot be split
    for (args, says) in [
        (
            vec!["sudoku", "solve", "--shard", "1/2", "-"],
            "standard input",
        ),
        (
            vec![
                "sudoku",
                "solve",
                "--shard",
                "1/2",
                "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            ],
            "is not a file",
        ),
        (
            vec![
                "sudoku", "solve", "--layout", "grids", "--shard", "1/2", file,
            ],
            "grids",
        ),
        (
            vec![
                "sudoku",
                "solve",
                "--shard",
                "1/2",
                "--shard-out",
                file,
                file,
            ],
            "overwritten",
        ),
    ] {
        let o = dancer(d, &args);
        expect(&o, 2, &format!("{args:?}"));
        assert!(
            text(&o.stderr).contains(says),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
    let o = dancer(d, &["merge", "--json", p1, p2, p3]);
    expect(&o, 2, "merge --json of Sudoku parts");
}

/// Waits for `path` to exist, for at most a minute.
#[cfg(unix)]
fn wait_for(path: &Path) {
    let start = std::time::Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "{} was not written",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// A part stopped by SIGTERM (what Slurm sends at a time limit) saves what
/// it answered and exits 130; a part killed (SIGKILL) leaves its last
/// checkpoint; `merge` refuses both, `merge --missing` names them, and
/// `--resume` finishes each: the merge is then the whole run's output.
#[cfg(unix)]
#[test]
fn parts_stopped_by_a_signal_resume_and_merge() {
    let Some((dir, file, _)) = batch("long.txt", 20_000) else {
        return;
    };
    let (d, file) = (dir.path(), file.as_str());
    // dancing links on one thread: a second or so a part, time to stop it
    let flags = ["--engine", "dlx", "--threads", "1"];
    let start = |k: usize| {
        Command::new(env!("CARGO_BIN_EXE_dancer"))
            .current_dir(d)
            .args(["sudoku", "solve", file])
            .args(flags)
            .args([
                "--shard",
                &format!("{k}/2"),
                "--shard-out",
                &format!("p{k}.json"),
            ])
            .args(["--checkpoint-every", "0.2"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut children = [start(1), start(2)];
    for (k, signal) in [(1, "KILL"), (2, "TERM")] {
        wait_for(&d.join(format!("p{k}.json")));
        let ok = Command::new("kill")
            .args([format!("-{signal}"), children[k - 1].id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    }
    let mut stopped = Vec::new();
    for (k, child) in children.iter_mut().enumerate() {
        let o = child.try_clone_output();
        let k = k + 1;
        let p: PartFile =
            serde_json::from_slice(&std::fs::read(d.join(format!("p{k}.json"))).unwrap()).unwrap();
        match (k, o.status.code()) {
            // killed: its last checkpoint, not marked stopped
            (1, None) => {
                assert!(!p.complete && p.stopped.is_none(), "{p:?}");
                stopped.push(k);
            }
            (2, Some(130)) => {
                assert!(!p.complete, "{}", text(&o.stderr));
                assert_eq!(p.stopped, Some(dancer_runs::batch::Stopped::Interrupted));
                assert!(o.stdout.is_empty());
                assert!(
                    text(&o.stderr).contains("--resume p2.json"),
                    "{}",
                    text(&o.stderr)
                );
                stopped.push(k);
            }
            // it ended before the signal (a fast machine): nothing to resume
            (_, code) => {
                assert!(p.complete, "part {k}: {code:?}: {}", text(&o.stderr));
                eprintln!("part {k} ended before its signal");
            }
        }
        assert!(p.first <= p.next && p.next <= p.end);
        assert_eq!(
            p.unique + p.invalid,
            p.output.lines().count() as u64,
            "part {k}: one line a puzzle answered"
        );
    }
    let both = ["p1.json".to_string(), "p2.json".to_string()];
    if !stopped.is_empty() {
        let o = merge(d, &both);
        expect(&o, 2, "merging stopped parts");
        let err = text(&o.stderr);
        assert!(
            err.contains("incomplete parts of 2") && err.contains("--resume"),
            "{err}"
        );
        let o = dancer(d, &["merge", "--missing", "p1.json", "p2.json"]);
        expect(&o, 0, "--missing");
        let want = match stopped[..] {
            [1, 2] => "1-2\n",
            [1] => "1\n",
            _ => "2\n",
        };
        assert_eq!(text(&o.stdout), want);
    }
    for k in stopped {
        let shard = format!("{k}/2");
        let part = format!("p{k}.json");
        let mut a = vec!["sudoku", "solve", file];
        a.extend(flags);
        a.extend(["--shard", &shard, "--resume", &part]);
        let o = dancer(d, &a);
        expect(&o, code_of_part(2, &o), &format!("{a:?}"));
        assert!(text(&o.stderr).contains("complete"), "{}", text(&o.stderr));
    }
    // the same flags but --threads, which changes nothing printed
    let whole = dancer(
        d,
        &["sudoku", "solve", file, "--engine", "dlx", "--threads", "2"],
    );
    expect(&whole, 2, "the whole run");
    assert!(text(&whole.stderr).contains("20040 puzzles in"));
    let m = merge(d, &both);
    expect(&m, 2, "the merge");
    assert!(
        m.stdout == whole.stdout,
        "the merged output differs from the whole run's"
    );
}

/// The output of a child that has ended or will end (its pipes read to the
/// end).
trait Finish {
    fn try_clone_output(&mut self) -> Output;
}

impl Finish for std::process::Child {
    fn try_clone_output(&mut self) -> Output {
        use std::io::Read;
        let mut stdout = Vec::new();
        let mut stderr = Vec::new();
        self.stdout
            .take()
            .unwrap()
            .read_to_end(&mut stdout)
            .unwrap();
        self.stderr
            .take()
            .unwrap()
            .read_to_end(&mut stderr)
            .unwrap();
        let status = self.wait().unwrap();
        Output {
            status,
            stdout,
            stderr,
        }
    }
}
