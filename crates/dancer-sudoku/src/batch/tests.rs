//! The batch tests: outcomes, order, stops and progress of `run` and its kin.

use super::*;
use crate::grid::Grid;
use proptest::prelude::*;
use std::sync::atomic::AtomicU64;

#[test]
fn sniffing_and_chunks() {
    assert!(is_puzzle_text(
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    ));
    assert!(!is_puzzle_text("puzzles.txt"));
    assert!(!is_puzzle_text("../data/1234567890123456"));
    assert!(is_grid_text("12 34\n34 12\n\n21 43\n43 21\n", Layout::Auto));
    assert!(!is_grid_text("1234341221434321\n", Layout::Auto));
    let text = "a\nb\nc\nd\ne";
    assert_eq!(
        chunks(text, 2),
        vec![(1, "a\nb\n"), (3, "c\nd\n"), (5, "e")]
    );
}

/// Where an argument points (a puzzle meant as one is a puzzle, to be
/// told what is wrong with it), whether a text holds a puzzle, and its
/// puzzle lines; the words name no flag.
#[test]
fn sources_and_inputs_without_puzzles() {
    assert_eq!(source(None, |_| true).unwrap(), Source::Stdin);
    assert_eq!(source(Some("-"), |_| true).unwrap(), Source::Stdin);
    assert_eq!(source(Some("a"), |_| true).unwrap(), Source::File("a"));
    let p = " 8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.. ";
    assert_eq!(
        source(Some(p), |_| false).unwrap(),
        Source::Puzzle(p.trim())
    );
    let meant = "1234x678901234567abc";
    assert_eq!(
        source(Some(meant), |_| false).unwrap(),
        Source::Puzzle(meant)
    );
    for not in [
        "puzzles.txt",
        "../1234567890123456",
        "a\\1234567890123456789",
        "12345",
    ] {
        let e = source(Some(not), |_| false).unwrap_err();
        assert!(matches!(&e, BatchError::NoSuchInput(a) if a == not), "{e}");
        assert!(!e.to_string().contains("--"));
    }
    assert!(matches!(has_puzzle(""), Err(BatchError::Empty)));
    assert!(matches!(has_puzzle(" \n\t\n"), Err(BatchError::Empty)));
    let e = has_puzzle("# a\n\n  # b\n").unwrap_err();
    assert!(matches!(e, BatchError::OnlyComments));
    assert_eq!(
        e.to_string(),
        "no puzzle found: the input has only blank lines and comments"
    );
    assert!(has_puzzle("# a\n12\n").is_ok());
    assert_eq!(puzzle_lines("# a\n\n12\n 34 \n  # b\nx"), 3);
}

/// A watched batch answers as a plain one, and tells its progress
/// from its own thread while it runs (only when asked).
#[test]
fn a_watched_batch_tells_its_progress() {
    let text =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
            .repeat(200);
    let (calls, most) = (AtomicU64::new(0), AtomicU64::new(0));
    let progress = |n| {
        calls.fetch_add(1, Ordering::Relaxed);
        most.fetch_max(n, Ordering::Relaxed);
    };
    let mut seen = 0;
    let render = |_: usize, _: &LineOutcome, buf: &mut String| buf.push('x');
    let each = |a: Answers| {
        seen += a.text.len();
        Ok(())
    };
    let t = run_watched(&batch_on(2), &text, render, each, Some(&progress)).unwrap();
    assert_eq!((t.unique, seen), (200, 200));
    assert!(calls.load(Ordering::Relaxed) >= 1);
    // the last call tells the whole count
    assert_eq!(most.load(Ordering::Relaxed), 200);
    let ok = |_: Answers| Ok(());
    assert_eq!(
        run_watched(&batch_on(2), &text, render, ok, None).unwrap(),
        t
    );
}

#[test]
fn lines_as_str_lines_cuts_them() {
    for t in [
        "",
        "\n",
        "a",
        "a\n",
        "a\r\nb",
        "a\n\nb\r\n",
        "\r\n\r",
        "x\ry\n\n\n",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\r\nx",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4.....\n\n",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......x\n",
    ] {
        for lane9 in [false, true] {
            let mut it = Lines::new(t);
            let mut got = Vec::new();
            while let Some((line, cells)) = it.next(lane9) {
                // the shortcut reads the same cells as the lane does
                if let Some(c) = cells {
                    assert!(lane9);
                    assert_eq!(Some(c), lane9::parse(line));
                }
                got.push(line);
            }
            assert_eq!(got, t.lines().collect::<Vec<_>>(), "{t:?}");
        }
    }
}

#[test]
fn specs() {
    assert_eq!(parse_box("2x3"), Ok((2, 3)));
    assert_eq!(
        parse_box("2-3"),
        Err(SpecError::Box {
            text: "2-3".into(),
            problem: BoxProblem::Form
        })
    );
    assert!(matches!(
        RulesSpec::new(Some("1152921504606846977x16"), None, false, false),
        Err(SpecError::Box {
            problem: BoxProblem::TooLarge,
            ..
        })
    ));
    assert!(matches!(
        RulesSpec::new(Some("2x2"), Some("AABBAABBCCDDCCDD"), false, false),
        Err(SpecError::BoxAndJigsaw)
    ));
    // the library's words name no flag of any front end
    for e in [
        parse_box("2x").unwrap_err(),
        parse_box("2-3").unwrap_err(),
        parse_box("x3").unwrap_err(),
        RulesSpec::new(Some("1152921504606846977x16"), None, false, false).unwrap_err(),
        RulesSpec::new(Some("2x2"), Some("AABBAABBCCDDCCDD"), false, false).unwrap_err(),
        RulesSpec::new(None, Some("AAB"), false, false).unwrap_err(),
    ] {
        assert!(!e.to_string().contains("--"), "{e}");
    }
    assert_eq!(
        parse_box("2x").unwrap_err().to_string(),
        "box shape \"2x\": bad number of columns: cannot parse integer from empty string"
    );
    let spec = RulesSpec::new(None, Some("# map\nAABB\nAABB\nCCDD\nCCDD\n"), false, false).unwrap();
    let e = spec.read("1...\n....\n....\n...4\n", Layout::Grids, 1);
    assert_eq!(e.len(), 1);
    assert!(e[0].puzzle.is_ok());
}

/// A batch with the default rules, engine and layout, counting up to 2
/// solutions and keeping one, on `threads`.
fn batch_on(threads: usize) -> Batch {
    Batch {
        spec: RulesSpec::default(),
        engine: SudokuEngine::Auto,
        layout: Layout::Auto,
        limit: 2,
        keep: 1,
        threads,
        first_line: 1,
        cancel: None,
    }
}

/// A batch: outcomes in input order, checked, tallied; an error of the
/// output stops it.
#[test]
fn a_batch() {
    let text =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
                11...............................................................................\n\
                .................................................................................\n\
                1...............\n";
    let batch = Batch {
        keep: 2,
        ..batch_on(2)
    };
    let mut lines = Vec::new();
    let done = std::sync::atomic::AtomicU64::new(0);
    let tally = run(
        &batch,
        text,
        |line, o| {
            if let LineOutcome::Solved(p, s) = o {
                for g in &s.solutions {
                    check_solution(p, g).unwrap();
                }
            }
            lines.push(line);
            Ok(())
        },
        &done,
    )
    .unwrap();
    assert_eq!(lines, vec![1, 2, 3, 4]);
    assert_eq!(done.load(Ordering::Relaxed), 4);
    assert_eq!(
        tally,
        Tally {
            unique: 1,
            multiple: 2,
            none: 0,
            invalid: 1,
            stopped: false,
        }
    );
    let err = run(
        &batch,
        text,
        |_, _| Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe)),
        &std::sync::atomic::AtomicU64::new(0),
    )
    .unwrap_err();
    assert!(matches!(err, BatchError::Output(_)));
}

/// A solved 9x9 grid (rows shifted by 3, 6, then 1 within bands).
fn solved_grid() -> [u8; 81] {
    let mut g = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            g[r * 9 + c] = ((r * 3 + r / 3 + c) % 9 + 1) as u8;
        }
    }
    g
}

/// A 9x9 line to read: cells of a solved grid with its digits
/// relabelled, some kept, one maybe changed (which may put a digit
/// twice in a house), written with `.` or `0`, sometimes with spaces
/// around it or a symbol the lane does not take.
fn line_strategy() -> impl Strategy<Value = String> {
    (
        Just((1..=9).collect::<Vec<u8>>()).prop_shuffle(),
        proptest::collection::vec(0u8..100, 81),
        any::<u8>(),
        0usize..81,
        0u8..=9,
        0u8..6,
    )
        .prop_map(|(digits, keep, density, at, d, decoration)| {
            let g = solved_grid();
            let mut cells: Vec<u8> = g
                .iter()
                .zip(&keep)
                .map(|(&x, &k)| {
                    if k < density % 60 {
                        digits[x as usize - 1]
                    } else {
                        0
                    }
                })
                .collect();
            if decoration == 1 {
                cells[at] = d;
            }
            let mut line: String = cells
                .iter()
                .map(|&x| match x {
                    0 if decoration == 2 => '0',
                    0 => '.',
                    x => (b'0' + x) as char,
                })
                .collect();
            match decoration {
                3 => line = format!("  {line}\t"),
                4 => line.replace_range(at..at + 1, "x"),
                5 => line.push('5'),
                _ => {}
            }
            line
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The 9x9 lane gives the general path's outcome, or leaves the
    /// line to it; it takes every line of 81 symbols it is meant for.
    #[test]
    fn the_lane_gives_what_the_general_path_gives(
        line in line_strategy(),
        limit in 1u64..=4,
        keep in 0usize..=3,
    ) {
        let reader = Reader::new(&RulesSpec::default());
        let fast9 = Solver::new(&reader.rules9, SudokuEngine::Fast9).unwrap();
        let general = solve_entry(Some(&fast9), reader.read_line(&line, 1), limit, keep, None);
        let trimmed = line.trim_ascii();
        let meant = trimmed.len() == 81
            && trimmed.bytes().all(|b| b == b'.' || b.is_ascii_digit());
        prop_assert_eq!(lane9::parse(&line).is_some(), meant);
        if let Some(cells) = lane9::parse(&line) {
            match lane9::solve(&reader.rules9, cells, limit, keep) {
                Some(o) => prop_assert_eq!(format!("{o:?}"), format!("{general:?}")),
                // only givens in conflict are left to the general path
                None => prop_assert!(matches!(general, LineOutcome::Invalid(_))),
            }
        }
        if let LineOutcome::Solved(p, s) = &general {
            for g in &s.solutions {
                prop_assert!(check_solution(p, g).is_ok());
            }
        }
    }

    /// The lane's checks agree with the general ones: givens in
    /// conflict with [`Puzzle::new`], answers with [`check_solution`].
    #[test]
    fn the_lanes_checks_agree(
        line in line_strategy(),
        changes in proptest::collection::vec((0usize..81, 0u8..=9), 0..3),
    ) {
        let rules = Rules::standard(9).unwrap();
        let Some(givens) = lane9::parse(&line) else { return Ok(()) };
        let general = Puzzle::new(rules.clone(), Grid::from_cells(9, givens.to_vec()));
        prop_assert_eq!(lane9::givens_ok(&givens), general.is_ok());
        let mut sol = solved_grid();
        // the givens' own digits where there are any, so that some
        // answers keep them
        let mut map = [0u8; 10];
        for (&g, &x) in givens.iter().zip(&solved_grid()) {
            if g != 0 {
                map[x as usize] = g;
            }
        }
        if map[1..].iter().all(|&m| m != 0) {
            for x in &mut sol {
                *x = map[*x as usize];
            }
        }
        for &(at, d) in &changes {
            sol[at] = d;
        }
        let p = Puzzle { rules, givens: Grid::from_cells(9, givens.to_vec()) };
        prop_assert_eq!(
            lane9::solution_ok(&givens, &sol),
            check_solution(&p, &Grid::from_cells(9, sol.to_vec())).is_ok()
        );
    }
}

/// A digit above 9 is never part of an answer.
#[test]
fn the_lane_refuses_digits_out_of_range() {
    let g = solved_grid();
    let mut sol = g;
    assert!(lane9::solution_ok(&[0; 81], &sol));
    sol[40] = 10;
    assert!(!lane9::solution_ok(&[0; 81], &sol));
    sol[40] = 0;
    assert!(!lane9::solution_ok(&[0; 81], &sol));
}

/// Many units on several threads come back in input order, the same
/// as on one thread, with a stop at the first puzzle an engine cannot
/// take and the answers before it handed on.
#[test]
fn threads_keep_the_order() {
    let mut text = String::new();
    let lines = [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "# a comment",
        "11...............................................................................",
        ".................................................................................",
        "",
        "1...............",
    ];
    for i in 0..3000 {
        text.push_str(lines[i % lines.len()]);
        text.push('\n');
    }
    let run_on = |threads: usize, engine: SudokuEngine, text: &str| {
        let batch = Batch {
            engine,
            ..batch_on(threads)
        };
        let mut seen = Vec::new();
        let done = std::sync::atomic::AtomicU64::new(0);
        let r = run_rendered(
            &batch,
            text,
            |line, o, buf| buf.push_str(&format!("{line} {o:?}\n")),
            |a: Answers| {
                let mut from = 0;
                for (line, o, to) in a.outcomes {
                    let t = &a.text[from..*to];
                    assert_eq!(t, format!("{line} {o:?}\n"));
                    seen.push(t.to_string());
                    from = *to;
                }
                assert_eq!(from, a.text.len());
                Ok(())
            },
            &done,
        );
        (r.map(|t| t.puzzles()), seen)
    };
    let (one, a) = run_on(1, SudokuEngine::Auto, &text);
    assert_eq!(one.unwrap(), 2000);
    // the workers hand the units on themselves, whichever finishes
    // first: the same lines in the same order on any number of them
    for threads in [2, 3, 4, 8] {
        let (two, b) = run_on(threads, SudokuEngine::Auto, &text);
        assert_eq!(two.unwrap(), 2000);
        assert_eq!(a, b, "{threads} threads");
    }
    // fast9 cannot take the 4x4 puzzle of line 6: the three puzzles
    // before it are answered, then the batch stops
    for threads in [1, 2] {
        let (r, seen) = run_on(threads, SudokuEngine::Fast9, &text);
        assert!(matches!(r, Err(BatchError::Engine(_))));
        assert_eq!(seen, a[..3].to_vec());
    }
}

/// A slice of a text run with `first_line` set numbers its lines as
/// the whole text does, on one thread and on several, and the slices'
/// outputs one after the other are the whole text's.
#[test]
fn a_slice_numbers_its_lines_as_the_whole_text() {
    let lines = [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "# a comment",
        "11...............................................................................",
        "",
        "1...............",
    ];
    let mut text = String::new();
    for i in 0..700 {
        text.push_str(lines[i % lines.len()]);
        text.push('\n');
    }
    let run_on = |threads: usize, text: &str, first_line: usize| {
        let batch = Batch {
            layout: Layout::Lines,
            first_line,
            ..batch_on(threads)
        };
        let mut out = String::new();
        let done = std::sync::atomic::AtomicU64::new(0);
        run_rendered(
            &batch,
            text,
            |line, o, buf| {
                buf.push_str(&format!(
                    "{line} {}\n",
                    matches!(o, LineOutcome::Invalid(_))
                ))
            },
            |a: Answers| {
                out.push_str(a.text);
                Ok(())
            },
            &done,
        )
        .unwrap();
        out
    };
    let whole = run_on(1, &text, 1);
    assert!(
        whole.starts_with("1 false\n3 true\n5 false\n6 false\n"),
        "{whole}"
    );
    // cut after line 333 (a byte offset at a line's start)
    let cut = text.match_indices('\n').nth(332).unwrap().0 + 1;
    for threads in [1, 2, 3] {
        let parts = run_on(threads, &text[..cut], 1) + &run_on(threads, &text[cut..], 334);
        assert_eq!(parts, whole, "{threads} threads");
    }
}

/// A batch stopped on several threads hands on a prefix of the input,
/// in order and without a gap, and says it stopped.
#[test]
fn a_stop_leaves_a_prefix_in_order() {
    let line =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let text = line.repeat(5000);
    for threads in [1, 2, 4] {
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let batch = Batch {
            cancel: Some(cancel.clone()),
            ..batch_on(threads)
        };
        let done = std::sync::atomic::AtomicU64::new(0);
        let mut seen: Vec<usize> = Vec::new();
        let tally = run_rendered(
            &batch,
            &text,
            |line, _, buf| buf.push_str(&format!("{line}\n")),
            |a: Answers| {
                seen.extend(a.text.lines().map(|l| l.parse::<usize>().unwrap()));
                cancel.store(true, Ordering::Relaxed);
                Ok(())
            },
            &done,
        )
        .unwrap();
        assert!(tally.stopped, "{threads} threads");
        assert!(!seen.is_empty() && seen.len() < 5000);
        assert_eq!(tally.puzzles() as usize, seen.len());
        assert_eq!(
            seen,
            (1..=seen.len()).collect::<Vec<_>>(),
            "{threads} threads"
        );
    }
}
