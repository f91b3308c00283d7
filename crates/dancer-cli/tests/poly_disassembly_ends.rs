//! How a `dancer poly solve --disassemble` run ends when a solution cannot
//! be taken apart to the end: a signal while one is taken apart is an
//! interruption (exit 130, with what was found and the summary), and a
//! solution whose disassembly passes the states it may visit is printed
//! saying so while the run goes on, and ends it with exit 2 once
//! everything found is printed.

#![cfg(unix)]

mod common;

use common::{err, records, run, wait_within, write};
use std::io::Read;
use std::process::Stdio;
use std::time::Duration;

/// A closed cage of cubes (the shell of a 5x5x5 box) holding `loose`
/// monocubes in its 3x3x3 room, the rest of the room empty: the cubes
/// slide about inside for ever and never come out, so that taking the
/// assembly apart visits every arrangement of them (some ten million for
/// five cubes). `distinct`: each cube a piece of its own (several
/// solutions), else copies of one (one solution).
fn cage(loose: usize, distinct: bool) -> String {
    let cell = |[x, y, z]: [i32; 3]| format!("[{x}, {y}, {z}]");
    let list = |cells: &[[i32; 3]]| {
        let v: Vec<String> = cells.iter().map(|&c| cell(c)).collect();
        format!("[{}]", v.join(", "))
    };
    let mut shell = Vec::new();
    let mut room = Vec::new();
    for z in 0..5 {
        for y in 0..5 {
            for x in 0..5 {
                let c = [x, y, z];
                if c.iter().any(|&v| v == 0 || v == 4) {
                    shell.push(c);
                } else {
                    room.push(c);
                }
            }
        }
    }
    let board: Vec<[i32; 3]> = shell.iter().chain(&room).copied().collect();
    let mut text = format!(
        "name = \"cage\"\ngrid = \"cube\"\n[board]\ncells = {}\nholes = {}\n[[piece]]\nname = \"cage\"\ncells = {}\n",
        list(&board),
        list(&room[loose..]),
        list(&shell)
    );
    if distinct {
        for k in 0..loose {
            text += &format!("[[piece]]\nname = \"q{k}\"\ncells = [[0, 0, 0]]\n");
        }
    } else {
        text += &format!("[[piece]]\nname = \"q\"\ncells = [[0, 0, 0]]\ncount = {loose}\n");
    }
    text
}

/// `dancer poly solve cage.toml ARGS` (five loose cubes: a take-apart of
/// minutes) sent `signal` once its one solution is being taken apart:
/// (exit code, standard output, standard error).
fn interrupted(args: &[&str], signal: libc::c_int) -> (Option<i32>, String, String) {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "cage.toml", cage(5, false).as_bytes());
    let mut all = vec!["poly", "solve", "cage.toml", "--disassemble"];
    all.extend(args);
    let mut child = common::spawn(d.path(), &all, Stdio::null());
    // its search takes a few nodes, the take-apart minutes: two seconds
    // in, it is taking the solution apart
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(child.try_wait().unwrap(), None, "ended before the signal");
    // SAFETY: kill(2) on our child's pid with a valid signal number.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    let status = wait_within(
        &mut child,
        Duration::from_secs(60),
        "dancer did not stop within a minute of the signal",
    );
    let (mut out, mut e) = (String::new(), String::new());
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child.stderr.take().unwrap().read_to_string(&mut e).unwrap();
    (status.code(), out, e)
}

#[test]
fn a_signal_while_a_solution_is_taken_apart_is_an_interruption() {
    // once: exit 2, "the puzzle is too large: taking a solution apart:
    // cancelled", and no record at all
    let (code, out, e) = interrupted(&["--json"], libc::SIGINT);
    assert_eq!(code, Some(130), "{e}");
    assert!(!e.contains("error"), "{e}");
    let r = records(&out);
    assert_eq!(r.len(), 2, "the solution and the summary: {out}");
    assert_eq!(r[0]["type"], "solution");
    assert_eq!(r[0]["number"], 1);
    let d = &r[0]["disassembly"];
    assert_eq!(
        (&d["apart"], &d["undecided"]),
        (&false.into(), &"interrupted".into()),
        "{d}"
    );
    assert_eq!(r[1]["type"], "summary");
    assert_eq!(r[1]["complete"], false);
    assert_eq!(
        (&r[1]["solutions"], &r[1]["disassemblies"]),
        (&1.into(), &0.into())
    );
    assert_eq!(r[1]["undecided"], 1);
    assert!(e.contains("(interrupted: incomplete)"), "{e}");
    assert!(
        e.contains("0 of the 1 solutions come apart; 1 not taken apart (1 interrupted)"),
        "{e}"
    );
    // SIGTERM alike, with the count so far
    let (code, out, e) = interrupted(&["--count"], libc::SIGTERM);
    assert_eq!(code, Some(130), "{e}");
    assert_eq!(out, "1\n");
    assert!(e.contains("cage: 1 solution"), "{e}");
    assert!(e.contains("(interrupted: incomplete)"), "{e}");
}

#[test]
fn a_solution_past_the_state_cap_is_printed_and_the_run_goes_on() {
    let d = tempfile::tempdir().unwrap();
    // three cubes of their own in the cage: 6 solutions (3 classes of 2),
    // each of some 17,550 arrangements, past a cap of 1,000
    write(d.path(), "cage.toml", cage(3, true).as_bytes());
    let args = [
        "poly",
        "solve",
        "cage.toml",
        "--disassemble",
        "--max-states",
        "1000",
    ];
    let o = run(d.path(), &[&args[..], &["--json"]].concat());
    let e = err(&o);
    // once: exit 2 and no record, the assemblies found lost
    assert_eq!(o.status.code(), Some(2), "{e}");
    let r = records(&String::from_utf8(o.stdout).unwrap());
    let solutions: Vec<_> = r.iter().filter(|r| r["type"] == "solution").collect();
    assert_eq!(solutions.len(), 6, "{r:?}");
    for (k, s) in solutions.iter().enumerate() {
        assert_eq!(s["number"], k as u64 + 1);
        assert_eq!(s["disassembly"]["undecided"], "states", "{s}");
        assert_eq!(s["disassembly"]["apart"], false);
    }
    let summary = r.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(
        (&summary["solutions"], &summary["complete"]),
        (&6.into(), &true.into())
    );
    assert_eq!(
        (&summary["disassemblies"], &summary["undecided"]),
        (&0.into(), &6.into())
    );
    assert!(e.contains("cage: 6 solutions"), "{e}");
    assert!(e.contains("0 of the 6 solutions come apart; 6 not taken apart (6 past the states a disassembly may visit)"), "{e}");
    assert!(
        e.contains("dancer: error: solutions 1, 2, 3, 4, 5 and 6 were not taken apart: their disassemblies passed the 1000 states of --max-states"),
        "{e}"
    );
    // as text: each solution says so under it
    let o = run(d.path(), &args);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        out.matches("not taken apart: its search passed 1000 states")
            .count(),
        6,
        "{out}"
    );
    // under the cap (the default), each is taken apart: none comes apart
    let o = run(
        d.path(),
        &[
            "poly",
            "solve",
            "cage.toml",
            "--disassemble",
            "--count",
            "--limit",
            "1",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("0 of the 1 solutions come apart\n"),
        "{}",
        err(&o)
    );
}

#[test]
fn the_state_cap_asked_is_checked() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "cage.toml", cage(1, false).as_bytes());
    for bad in ["0", "4194305", "-1", "many"] {
        let flag = format!("--max-states={bad}");
        let o = run(
            d.path(),
            &["poly", "solve", "cage.toml", "--disassemble", &flag],
        );
        common::refused(&o, "--max-states");
    }
    let o = run(
        d.path(),
        &["poly", "solve", "cage.toml", "--max-states", "10"],
    );
    common::refused(&o, "--disassemble");
}
