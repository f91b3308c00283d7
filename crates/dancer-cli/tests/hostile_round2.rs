//! Hostile input, second round: each case the second round of hostile
//! tries found (memos, ZDDs, shards and merge, Slurm runs, Sudoku parts,
//! output files), run as it was reported, with the limits it was reported
//! under (`ulimit -v 4000000` where memory was the question; a generous
//! guard against a hang where time was, never a measure of speed). The
//! web server's cases are in `dancer-web`'s tests (`tests/hostile.rs`).
//!
//! What every case holds to: nothing a user owns is overwritten or
//! deleted (a written file replaces only a regular file, never the input;
//! a FIFO or a device is written through or refused; a write error is an
//! error), no abort at a memory limit (exit 0 or 1, or 2 with a clear
//! message), no hang.

mod common;

use common::{
    all_refused, answered, err, out, refused, run, run_limited, run_stdin, run_within, write,
};
use dancer_core::memo::{MemoOutcome, MemoSplit, MemoStats};
use dancer_core::{Count, ProblemBuilder};
use dancer_runs::search::Saved;
use std::path::Path;

/// The address space of the reported cases, in MiB (`ulimit -v 4000000`).
const LIMIT_MB: u64 = 4_000_000 / 1024;

/// `dancer gen queens 6` into `dir/q6.dlx`.
fn queens6(dir: &Path) {
    let o = run(dir, &["gen", "queens", "6"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    write(dir, "q6.dlx", &o.stdout);
}

fn is_symlink(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Case 1: `dancer slurm` on an existing folder deleted every file in
/// `parts/` and `checkpoints/` (a user's `design.cad` included) and
/// `result.txt`, and a finished run's results when written again.
#[test]
fn slurm_never_removes_what_it_did_not_write() {
    let d = tempfile::tempdir().unwrap();
    queens6(d.path());
    let slurm = |dir: &str, force: bool| {
        let mut args = vec!["slurm", "--tasks", "2", "--dir", dir];
        if force {
            args.push("--force");
        }
        args.extend(["--", "solve", "q6.dlx", "--count"]);
        run(d.path(), &args)
    };
    // a folder of the user's
    let mine = d.path().join("mine");
    std::fs::create_dir_all(mine.join("parts")).unwrap();
    std::fs::create_dir_all(mine.join("checkpoints")).unwrap();
    write(&mine, "parts/design.cad", b"my design");
    write(&mine, "checkpoints/notes.txt", b"my notes");
    write(&mine, "result.txt", b"my result");
    refused(&slurm("mine", false), "did not make");
    // with --force: beside them, but never over a file at a name the run
    // writes (result.txt)
    refused(
        &slurm("mine", true),
        "result.txt is not a file of a dancer slurm run",
    );
    std::fs::rename(mine.join("result.txt"), mine.join("my-result.txt")).unwrap();
    let o = slurm("mine", true);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(read(&mine.join("parts/design.cad")), "my design");
    assert_eq!(read(&mine.join("checkpoints/notes.txt")), "my notes");
    assert_eq!(read(&mine.join("my-result.txt")), "my result");
    assert!(mine.join("array.sbatch").is_file());

    // a finished run: its parts and result are kept unless --force
    let o = slurm("run", false);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let run_dir = d.path().join("run");
    // written again before anything ran: only its scripts, rewritten
    let o = slurm("run", false);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    for k in 1..=2 {
        let part = format!("run/parts/{k}.json");
        let o = run(
            d.path(),
            &[
                "solve",
                "q6.dlx",
                "--count",
                "--shard",
                &format!("{k}/2"),
                "--shard-out",
                &part,
            ],
        );
        answered(&o);
    }
    let o = run(d.path(), &["merge", "run/parts/1.json", "run/parts/2.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    write(&run_dir, "result.txt", &o.stdout);
    write(&run_dir, "parts/design.cad", b"my design");
    let o = slurm("run", false);
    refused(&o, "holds a run with results");
    for f in [
        "parts/1.json",
        "parts/2.json",
        "result.txt",
        "parts/design.cad",
    ] {
        assert!(run_dir.join(f).is_file(), "{f} removed: {}", err(&o));
    }
    // --force removes the run's own files, nothing else
    let o = slurm("run", true);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    for f in ["parts/1.json", "parts/2.json", "result.txt"] {
        assert!(!run_dir.join(f).exists(), "{f} kept");
    }
    assert_eq!(read(&run_dir.join("parts/design.cad")), "my design");
    // a part that is not dancer's, at a part's name: never removed
    write(&run_dir, "parts/1.json", b"{\"mine\": true}");
    refused(&slurm("run", true), "not a file of the older run there");
    assert_eq!(read(&run_dir.join("parts/1.json")), "{\"mine\": true}");
}

/// Case 10: Slurm replaces `%` patterns in `--output` and `--error`, so a
/// folder named `d%a` is written `d%%a` there (and as it is elsewhere); a
/// backslash, which Slurm drops from those paths, is refused.
#[test]
fn slurm_paths_say_what_slurm_reads() {
    let d = tempfile::tempdir().unwrap();
    queens6(d.path());
    let o = run(
        d.path(),
        &[
            "slurm", "--tasks", "2", "--dir", "d%a", "--", "solve", "q6.dlx", "--count",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let script = read(&d.path().join("d%a/array.sbatch"));
    let output = script
        .lines()
        .find(|l| l.starts_with("#SBATCH --output="))
        .unwrap();
    assert!(output.ends_with("/d%%a/logs/%a.out"), "{output}");
    assert!(
        script.contains("/d%a/parts'/$k.json") || script.contains("/d%a/parts/$k.json"),
        "{script}"
    );
    let merge = read(&d.path().join("d%a/merge.sbatch"));
    assert!(merge.contains("/d%%a/logs/merge.err"), "{merge}");
    refused(
        &run(
            d.path(),
            &[
                "slurm", "--tasks", "2", "--dir", "b\\x", "--", "solve", "q6.dlx", "--count",
            ],
        ),
        "backslash",
    );
}

/// Cases 2 and 3: `--zdd`, `--shard-out` and `--checkpoint` renamed a
/// temporary file over a FIFO, a device node or a symbolic link (as root,
/// `--zdd /dev/full` replaced the system's `/dev/full`, and no ENOSPC was
/// said); `poly solve` overwrote its own puzzle with `--zdd` or `--sheet`
/// (through a link too), and wrote SVG into `x.gif`.
#[cfg(unix)]
#[test]
fn written_files_never_replace_what_is_not_theirs() {
    use std::os::unix::fs::FileTypeExt;
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    queens6(p);
    let fifo = p.join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let is_fifo = |f: &Path| std::fs::symlink_metadata(f).is_ok_and(|m| m.file_type().is_fifo());
    // files read back later must be files
    refused(
        &run(p, &["solve", "q6.dlx", "--count", "--checkpoint", "fifo"]),
        "a FIFO, not a regular file",
    );
    refused(
        &run(
            p,
            &[
                "solve",
                "q6.dlx",
                "--count",
                "--shard",
                "1/2",
                "--shard-out",
                "fifo",
            ],
        ),
        "a FIFO, not a regular file",
    );
    assert!(is_fifo(&fifo));
    // a ZDD goes through a FIFO to whoever reads it
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let o = run(
        p,
        &["solve", "q6.dlx", "--count", "--memo", "--zdd", "fifo"],
    );
    if o.status.code() != Some(0) {
        // let the reader go before failing
        let _ = std::fs::OpenOptions::new().write(true).open(&fifo);
        panic!("{}", err(&o));
    }
    let zdd = reader.join().unwrap();
    assert!(is_fifo(&fifo), "the FIFO is still a FIFO");
    write(p, "got.zdd", &zdd);
    let o = run(p, &["zdd", "count", "got.zdd"]);
    assert_eq!(out(&o).trim(), "4", "{}", err(&o));

    // a link stays a link: the file it leads to is written
    write(p, "real.json", b"old");
    std::os::unix::fs::symlink("real.json", p.join("link.json")).unwrap();
    let o = run(
        p,
        &[
            "solve",
            "q6.dlx",
            "--count",
            "--shard",
            "1/1",
            "--shard-out",
            "link.json",
        ],
    );
    answered(&o);
    assert!(is_symlink(&p.join("link.json")));
    assert!(Saved::from_json(&read(&p.join("real.json"))).is_ok());
    // a device through a link: written through, and a full disk said
    std::os::unix::fs::symlink("/dev/full", p.join("full")).unwrap();
    let o = run(
        p,
        &["solve", "q6.dlx", "--count", "--memo", "--zdd", "full"],
    );
    refused(&o, "No space left on device");
    assert!(is_symlink(&p.join("full")));
    assert!(std::fs::metadata("/dev/full")
        .unwrap()
        .file_type()
        .is_char_device());
    // a file named as a temporary file once was is not touched
    write(p, "out.tmp", b"mine");
    let o = run(
        p,
        &["solve", "q6.dlx", "--count", "--memo", "--zdd", "out.zdd"],
    );
    answered(&o);
    assert_eq!(read(&p.join("out.tmp")), "mine");
    // the problem's own file
    refused(
        &run(
            p,
            &["solve", "q6.dlx", "--count", "--memo", "--zdd", "q6.dlx"],
        ),
        "the problem's own file",
    );

    // poly solve: the puzzle's own file, by its name or through a link
    let puzzle = "[board]\nrect = [4, 4]\n[[piece]]\nset = \"dominoes\"\ncount = \"any\"\n";
    write(p, "ok.toml", puzzle.as_bytes());
    write(p, "ok.svg", puzzle.as_bytes());
    std::os::unix::fs::symlink("ok.svg", p.join("link.svg")).unwrap();
    for args in [
        &[
            "poly", "solve", "ok.toml", "--count", "--memo", "--zdd", "ok.toml",
        ][..],
        &[
            "poly", "solve", "ok.svg", "--limit", "2", "--sheet", "ok.svg",
        ],
        &[
            "poly", "solve", "ok.svg", "--limit", "2", "--sheet", "link.svg",
        ],
    ] {
        refused(&run(p, args), "the puzzle's own file");
    }
    assert_eq!(read(&p.join("ok.toml")), puzzle);
    assert_eq!(read(&p.join("ok.svg")), puzzle);
    // a contact sheet is SVG or PNG, and named so
    refused(
        &run(
            p,
            &[
                "poly", "solve", "ok.toml", "--limit", "2", "--sheet", "x.gif",
            ],
        ),
        "name the file .svg or .png",
    );
    assert!(!p.join("x.gif").exists());
    let o = run(
        p,
        &[
            "poly", "solve", "ok.toml", "--limit", "2", "--sheet", "x.SVG",
        ],
    );
    answered(&o);
    assert!(read(&p.join("x.SVG")).contains("<svg"));
}

/// `n` doubling nodes, each on a variable of its own with both edges to
/// the one below: 2^n solutions, every path naming each option once.
fn doubling_chain(n: usize) -> String {
    let mut t = String::with_capacity(n * 30);
    // node k + 2 on option k + 1, both edges to the node before (or to 1)
    let mut below = "1".to_string();
    for k in 0..n {
        let node = format!("{:x}", k + 2);
        t.push_str(&format!("{node}: (~{}?{below}:{below})\n", k + 1));
        below = node;
    }
    t
}

/// The ZDD the counter writes for `n` blocks of `a b / a / b` (three
/// nodes a block, the way `solve --memo --zdd` chains them), 2^n solutions.
fn blocks_zdd(n: usize) -> String {
    let mut t = String::with_capacity(n * 70);
    let mut id = 2usize;
    let mut below = "1".to_string();
    for b in (0..n).rev() {
        let (ab, a, bb) = (3 * b + 1, 3 * b + 2, 3 * b + 3);
        let p = id;
        t.push_str(&format!("{p:x}: (~{bb}?0:{below})\n"));
        let q = p + 1;
        t.push_str(&format!("{q:x}: (~{a}?0:{p:x})\n"));
        let r = q + 1;
        t.push_str(&format!("{r:x}: (~{ab}?{q:x}:{below})\n"));
        below = format!("{r:x}");
        id = r + 1;
    }
    t.push_str(&format!("{id:x}: (~0?0:{below})\n"));
    t
}

/// The decimal length and last nine digits of 2^n.
fn power_of_two(n: u32) -> (usize, u64) {
    let digits = (f64::from(n) * std::f64::consts::LOG10_2).floor() as usize + 1;
    let m = 1_000_000_000u128;
    let (mut r, mut b, mut e) = (1u128, 2u128, n);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    (digits, r as u64)
}

#[track_caller]
fn is_power_of_two(text: &str, n: u32) {
    let text = text.trim();
    let (digits, last) = power_of_two(n);
    assert_eq!(text.len(), digits, "digits of 2^{n}");
    assert_eq!(
        text[digits - 9..].parse::<u64>().unwrap(),
        last,
        "last digits of 2^{n}"
    );
}

/// Case 4: `zdd count` took memory growing with the square of the nodes:
/// a 300,000-node ZDD (8.4 MB) aborted at 3.9 GB, and a ZDD dancer itself
/// wrote (200,000 blocks, 15.5 MB) could not be read back.
#[test]
fn zdds_are_read_in_memory_linear_in_the_file() {
    let d = tempfile::tempdir().unwrap();
    // `text` (longer than `bytes`) as `name`, counted: 2^n solutions
    let counts = |name: &str, text: String, bytes: usize, n: u32| {
        assert!(text.len() > bytes);
        write(d.path(), name, text.as_bytes());
        let o = run_limited(d.path(), LIMIT_MB, &["zdd", "count", name]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        is_power_of_two(&out(&o), n);
    };
    counts("chain.zdd", doubling_chain(300_000), 8_000_000, 300_000);
    // every node's count (to draw solutions) does not fit: said, before
    // anything is allocated
    let o = run_limited(d.path(), LIMIT_MB, &["zdd", "sample", "chain.zdd"]);
    refused(&o, "needs about");
    // listing needs no counts
    let o = run_limited(
        d.path(),
        LIMIT_MB,
        &["zdd", "list", "chain.zdd", "--limit", "2"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o).lines().count(), 2);

    counts("blocks.zdd", blocks_zdd(200_000), 15_000_000, 200_000);
}

/// Case 11, of ZDDs: a path that names an option twice was counted and
/// listed (`0 0`); `zdd count -` did not read standard input.
#[test]
fn a_zdd_path_names_each_option_once() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "twice.zdd", b"2: (~1?0:1)\n3: (~1?0:2)\n");
    for args in [
        &["zdd", "count", "twice.zdd"][..],
        &["zdd", "list", "twice.zdd"],
        &["zdd", "sample", "twice.zdd"],
    ] {
        let o = run(d.path(), args);
        refused(
            &o,
            "twice.zdd: not a ZDD: line 2, column 6: option 1 is named twice",
        );
        assert!(out(&o).is_empty(), "nothing printed: {}", out(&o));
    }
    let o = run_stdin(
        d.path(),
        &["zdd", "count", "-"],
        b"2: (~1?0:1)\n3: (~2?2:1)\n",
    );
    assert_eq!(out(&o).trim(), "2", "{}", err(&o));
    let o = run_stdin(d.path(), &["zdd", "count", "-"], b"2: (~1?0:x)\n");
    refused(&o, "<stdin>: not a ZDD: line 1, column 10");
}

/// `n` blocks of `a b / a / b` in DLX: 2^n solutions.
fn blocks_dlx(n: usize) -> String {
    let mut t = String::with_capacity(n * 40);
    for i in 0..n {
        t.push_str(&format!("a{i} b{i} "));
    }
    t.push('\n');
    for i in 0..n {
        t.push_str(&format!("a{i} b{i}\na{i}\nb{i}\n"));
    }
    t
}

/// Case 5: the default `--memo-memory` (a quarter of the machine's memory)
/// ignored the address-space and cgroup limits: `solve blocks200000.dlx
/// --count` aborted (134) under `ulimit -v 4000000`.
#[test]
fn memos_fit_the_limits_the_process_has() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "blocks200000.dlx", blocks_dlx(200_000).as_bytes());
    let o = run_limited(
        d.path(),
        LIMIT_MB,
        &["solve", "blocks200000.dlx", "--count"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    is_power_of_two(&out(&o), 200_000);
    // a cap the limit cannot hold is refused, not aborted on
    refused(
        &run_limited(
            d.path(),
            LIMIT_MB,
            &[
                "solve",
                "blocks200000.dlx",
                "--count",
                "--memo",
                "--memo-memory",
                "3G",
            ],
        ),
        "--memo-memory 3.0 GiB: the memos may take up to twice that",
    );
}

/// Case 6: `sudoku generate --size 16 --symmetry rotate180` (or mirror,
/// rotate90, diagonal) printed nothing in 60 s: minimal 16x16 puzzles
/// with a symmetry are too rare. Refused at once; with `--not-minimal`, a
/// puzzle minimal within its symmetry, at once.
#[test]
fn sixteen_by_sixteen_with_a_symmetry_is_answered_at_once() {
    let d = tempfile::tempdir().unwrap();
    for sym in ["rotate180", "rotate90", "mirror", "diagonal"] {
        let generate = |more: &[&str]| {
            let mut args = vec!["sudoku", "generate", "--size", "16", "--symmetry", sym];
            args.extend(["--seed", "5"]);
            args.extend(more);
            run_within(d.path(), 60, &args).unwrap_or_else(|| panic!("{sym}: no answer in 60 s"))
        };
        refused(&generate(&[]), "add --not-minimal");
        let o = generate(&["--not-minimal"]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let line = out(&o).trim().to_string();
        assert_eq!(line.len(), 256, "{line}");
        // its symmetry, and one solution (checked by `sudoku check`)
        let cells: Vec<bool> = line.bytes().map(|b| b != b'.').collect();
        let n = 16;
        for c in 0..n * n {
            let (r, k) = (c / n, c % n);
            let partner = match sym {
                "rotate180" => (n - 1 - r) * n + (n - 1 - k),
                "rotate90" => k * n + (n - 1 - r),
                "mirror" => r * n + (n - 1 - k),
                _ => k * n + r,
            };
            assert_eq!(cells[c], cells[partner], "{sym}: cell {c}");
        }
        let o = run(d.path(), &["sudoku", "check", &line]);
        assert_eq!(o.status.code(), Some(0), "{sym}: {}{}", out(&o), err(&o));
    }
}

/// A memo shard result of `count`, as `solve --memo --shard 1/1` writes
/// it (the checksum right).
fn memo_part(count: Count) -> Vec<u8> {
    let mut b = ProblemBuilder::new();
    b.primary("a").unwrap();
    b.option(["a"]).unwrap();
    let p = b.build().unwrap();
    let r = MemoOutcome {
        count,
        complete: true,
        stats: MemoStats::default(),
        split: Some(MemoSplit { depth: 1, units: 1 }),
    };
    Saved::memo_shard(&p, (1, 1), &r).to_json()
}

/// Case 8: `dancer merge` of a shard whose count has 10^7 digits (10 MB,
/// checksum right) ran past 60 s: its parsing was quadratic in the digits.
#[test]
fn a_count_of_ten_million_digits_merges() {
    let d = tempfile::tempdir().unwrap();
    let digits: String = (0..10_000_000u32)
        .map(|i| char::from(b'1' + (i.wrapping_mul(2_654_435_761) >> 29) as u8 % 9))
        .collect();
    write(d.path(), "part.json", &memo_part(digits.parse().unwrap()));
    let o = run_within(d.path(), 60, &["merge", "part.json"]).expect("merged within 60 s");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).trim() == digits, "the count as it was");
}

/// Case 9: the shards of a problem with no solution could not be merged
/// ("units: a split has at least 1 unit"), nor its checkpoint resumed.
#[test]
fn a_problem_without_solutions_in_parts() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    write(p, "none.dlx", b"a b\na\n");
    for k in 1..=2 {
        let spec = format!("{k}/2");
        let part = format!("{k}.json");
        let o = run(
            p,
            &[
                "solve",
                "none.dlx",
                "--count",
                "--shard",
                &spec,
                "--shard-out",
                &part,
            ],
        );
        assert_eq!(o.status.code(), Some(1), "{}", err(&o));
        let memo = format!("m{k}.json");
        let o = run(
            p,
            &[
                "solve",
                "none.dlx",
                "--count",
                "--memo",
                "--shard",
                &spec,
                "--shard-out",
                &memo,
            ],
        );
        assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    }
    for parts in [["1.json", "2.json"], ["m1.json", "m2.json"]] {
        let o = run(p, &["merge", parts[0], parts[1]]);
        assert_eq!(o.status.code(), Some(1), "{}", err(&o));
        assert_eq!(out(&o).trim(), "0");
        let o = run(p, &["merge", "--missing", parts[0], parts[1]]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        assert!(out(&o).trim().is_empty(), "{}", out(&o));
    }
    let o = run(
        p,
        &["solve", "none.dlx", "--count", "--checkpoint", "cp.json"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let o = run(p, &["solve", "none.dlx", "--count", "--resume", "cp.json"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
}

/// Case 11, the smaller ones: counts and messages that said something
/// else than what was so.
#[test]
fn messages_say_what_is_so() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    queens6(p);
    // the units of a part of u64::MAX parts: it counts one, and says one
    let o = run(
        p,
        &[
            "solve",
            "q6.dlx",
            "--count",
            "--memo",
            "--shard",
            "1/18446744073709551615",
            "--shard-out",
            "s.json",
        ],
    );
    answered(&o);
    assert!(
        err(&o).contains("shard 1/18446744073709551615: 1 unit of "),
        "{}",
        err(&o)
    );
    // messages said whole
    all_refused(
        p,
        &[
            (
                &["sudoku", "solve", "--box", "1152921504606846977x16", "x"][..],
                "boxes that large cannot be: a box has at most 25 cells",
            ),
            (
                &["sudoku", "rate", "--timeout", "1e30", "x"],
                "must be at most 1000000000 seconds",
            ),
            (
                &["serve", "--job-time", "1e308"],
                "must be at most 1000000000 seconds",
            ),
            (
                &["sudoku", "generate", "--rating", "NaN-NaN"],
                "bad lower bound: not a number",
            ),
        ],
    );
    // export writes one puzzle's problem: a second is said, not dropped
    let puzzles = format!(
        "{}\n{}\n",
        ".".repeat(81),
        "1".to_string() + &".".repeat(80)
    );
    write(p, "two.txt", puzzles.as_bytes());
    let o = run(p, &["sudoku", "export", "two.txt"]);
    refused(&o, "two.txt:2: a second puzzle");
    assert!(out(&o).is_empty());
}
