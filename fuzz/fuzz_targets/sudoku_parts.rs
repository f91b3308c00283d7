//! The part files of sharded Sudoku batches (`dancer sudoku solve|count|
//! check --shard K/N`, `dancer merge`) and the small pieces of `dancer
//! slurm`: up to three records separated by NUL bytes, the input's first
//! line, and the whole input as a batch text.
//!
//! Each record is read as it is, by `PartFile::from_json` (which checks
//! its checksum), and *forged*: deserialised without any check and written
//! again by `PartFile::to_json`, which gives it a right checksum, so that
//! the checks behind the checksum (`PartFile::validate`) are fuzzed too.
//!
//! * `from_json` of a record as it is agrees with the forged one when both
//!   read; `from_json` of a forged record reads exactly when `validate`
//!   accepts it (else with `validate`'s error), and as itself: written
//!   again, the same bytes. A record that reads keeps every rule of the
//!   module's documentation (checked here apart from `validate`).
//! * `merge` and `to_rerun` of the records read (and of the forged ones,
//!   and of raw ones never checked; one, two, three, in both orders; and a
//!   record with the other parts of its run made up) give exactly the
//!   typed error that the documented checks say, in their order, or a
//!   result whose tallies are the checked sums of the parts, whose order
//!   is by K, and, for `to_rerun`, whose ranges are exactly the parts not
//!   given complete: never a panic or a wrapped sum.
//! * The split: the whole input as text (lossy UTF-8), cut in N parts for
//!   N = 1, a small N drawn from the input, N = the number of lines (and
//!   one more), N drawn from the input's last 8 bytes and N = usize::MAX:
//!   `part_lines` puts every line in exactly one part, in order (parts of
//!   sizes that differ by at most one), and `line_bytes` and `part_of`
//!   give the very bytes of those lines, which one after the other are the
//!   text (for a large N, of the lines of a short text, or of some lines). `count_lines` is `str::lines().count()`; `fingerprint` is 16 hex
//!   digits, the same for the same input, and tells fields apart.
//! * `dancer_runs::slurm`: `check_time`, `check_memory`,
//!   `check_partition` and `check_name` of the first line never panic, and
//!   what they accept has the documented form (only characters that are
//!   plain in a shell script); `shell_quote` of the first line (and of the
//!   first record) is one POSIX shell word that unquotes to the string
//!   itself; `RunRecord::from_json` of each record never panics, accepts
//!   exactly the `job.json` records with its format, 1 to `MAX_TASKS` tasks
//!   and a known kind of parts, and what it accepts written again reads
//!   back as itself.
#![no_main]

use dancer_runs::batch::{
    count_lines, fingerprint, format_of, line_bytes, merge, part_lines, part_of, to_rerun, Part,
    PartFile, PartsMergeError, COMMANDS, FORMAT, MAX_SECONDS,
};
use dancer_runs::parts::{PartsError, MAX_LISTED};
use dancer_runs::search::ShardSpec;
use dancer_runs::slurm::{self, RunRecord, MAX_TASKS, RUN};
use dancer_sudoku::batch::Tally;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;

/// Inputs larger than this are skipped.
const MAX_INPUT: usize = 8192;
/// Numbers of parts up to this are checked part by part (every K).
const MAX_WALKED: usize = 16;
/// For a larger N, the parts of the first and last this many lines are
/// checked (of every line of a text of twice as many at most).
const MAX_SAMPLED: usize = 16;
/// For a larger N, the bytes of the parts of a text of at most this many
/// lines are checked.
const MAX_SLICED: usize = 16;
/// Made-up companions of a record: only for runs of at most this many
/// parts.
const MAX_MADE_UP: usize = 8;

fn spec(k: usize, n: usize) -> ShardSpec {
    ShardSpec { k, n }
}

// ---------------------------------------------------------------- records

/// Writes `p` with `to_json` and reads it back: it reads exactly when it
/// validates (else with `validate`'s error), and as itself.
fn write_and_read(p: &PartFile) -> Option<PartFile> {
    let bytes = p.to_json();
    let text = std::str::from_utf8(&bytes).expect("to_json writes UTF-8");
    let valid = p.validate();
    match PartFile::from_json(text) {
        Ok(back) => {
            assert!(
                valid.is_ok(),
                "from_json reads what validate refuses: {valid:?}\n{text}"
            );
            assert!(
                back.checksum.len() == 16
                    && back
                        .checksum
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
                "a checksum that is not 16 hex digits: {:?}",
                back.checksum
            );
            assert_eq!(
                PartFile {
                    checksum: String::new(),
                    ..back.clone()
                },
                PartFile {
                    checksum: String::new(),
                    ..p.clone()
                },
                "a record written reads back as another\n{text}"
            );
            // the identity: written again, the same file
            assert_eq!(
                String::from_utf8_lossy(&back.to_json()),
                text,
                "a record read back is written otherwise"
            );
            Some(back)
        }
        Err(e) => {
            let Err(v) = valid else {
                panic!(
                    "a record that validates, written by to_json, does not read back: {e}\n{text}"
                );
            };
            assert_eq!(
                e.to_string(),
                v.to_string(),
                "from_json and validate refuse a written record for different reasons\n{text}"
            );
            None
        }
    }
}

/// The rules of the module documentation, checked apart from `validate`,
/// on a record that `from_json` read.
fn check_record(p: &PartFile) {
    assert_eq!(p.format, FORMAT, "format");
    assert!(
        COMMANDS.contains(&p.command.as_str()),
        "command {:?}",
        p.command
    );
    assert!(
        p.input.len() == 16 && p.input.bytes().all(|b| b.is_ascii_hexdigit()),
        "input {:?}",
        p.input
    );
    assert!(
        1 <= p.shard && p.shard <= p.shards,
        "part {} of {}",
        p.shard,
        p.shards
    );
    assert!(p.lines < usize::MAX, "lines {}", p.lines);
    assert_eq!(
        (p.first, p.end),
        part_lines(p.lines, p.spec()),
        "first and end of part {} of {} of {} lines",
        p.shard,
        p.shards,
        p.lines
    );
    assert!(
        p.first <= p.next && p.next <= p.end,
        "next {} not in {}..={}",
        p.next,
        p.first,
        p.end
    );
    assert_eq!(p.complete, p.next == p.end, "complete");
    assert!(
        !(p.complete && p.stopped.is_some()),
        "a complete part stopped"
    );
    let answered = (p.next - p.first) as u64;
    let puzzles = p
        .puzzles()
        .expect("the puzzles of a record read fit in 64 bits");
    assert!(puzzles <= answered, "{puzzles} puzzles in {answered} lines");
    let t = p.tally();
    assert_eq!(
        (t.unique, t.multiple, t.none, t.invalid, t.stopped),
        (p.unique, p.multiple, p.none, p.invalid, false),
        "tally"
    );
    if puzzles == 0 {
        assert!(p.output.is_empty(), "output without puzzles");
    } else {
        assert!(p.output.ends_with('\n'), "output without a last line break");
        assert!(
            p.output.bytes().filter(|&b| b == b'\n').count() as u64 >= puzzles,
            "fewer lines of output than puzzles"
        );
        assert!(count_lines(&p.output) as u64 >= puzzles);
    }
    assert!(
        p.seconds.is_finite() && p.seconds >= 0.0 && p.seconds <= MAX_SECONDS,
        "seconds {}",
        p.seconds
    );
    // its tally counted in again: checked
    let mut twice = p.clone();
    let want = checked_sum([t, t].iter());
    match (twice.add(&t), want) {
        (Some(()), Some(w)) => assert_eq!(twice.tally(), w, "add"),
        (None, None) => {}
        (got, w) => panic!("add gave {got:?}, checked sum {w:?}"),
    }
}

/// The tallies added with checked arithmetic, and their puzzles in all:
/// `None` when a count passes 64 bits.
fn checked_sum<'a>(tallies: impl Iterator<Item = &'a Tally>) -> Option<Tally> {
    let mut s = Tally::default();
    for t in tallies {
        s.unique = s.unique.checked_add(t.unique)?;
        s.multiple = s.multiple.checked_add(t.multiple)?;
        s.none = s.none.checked_add(t.none)?;
        s.invalid = s.invalid.checked_add(t.invalid)?;
    }
    Some(s)
}

fn checked_total(t: &Tally) -> Option<u64> {
    t.unique
        .checked_add(t.multiple)?
        .checked_add(t.none)?
        .checked_add(t.invalid)
}

// ---------------------------------------------------------------- merges

/// What `merge` must say of `parts`, by the checks the module documents,
/// in their order: `Err(None)` for a `Different` (checked apart: which
/// field it names is the merge's), else the error or the tally.
fn expected_merge(parts: &[(String, PartFile)]) -> Result<Tally, Option<PartsMergeError>> {
    let Some((_, first)) = parts.first() else {
        return Err(Some(PartsMergeError::Parts(PartsError::NoParts {
            noun: "part",
        })));
    };
    let same = |p: &PartFile| {
        p.version == first.version
            && p.input == first.input
            && p.command == first.command
            && p.shards == first.shards
            && p.lines == first.lines
    };
    if !parts.iter().all(|(_, p)| same(p)) {
        return Err(None);
    }
    if let Some(e) = misnumbered(parts) {
        return Err(Some(e));
    }
    let n = first.shards;
    let given: BTreeSet<usize> = parts.iter().map(|(_, p)| p.shard).collect();
    let missing: Vec<usize> = (1..=n)
        .filter(|k| !given.contains(k))
        .take(MAX_LISTED)
        .collect();
    if !missing.is_empty() {
        return Err(Some(PartsMergeError::Parts(PartsError::Missing {
            noun: "part",
            n,
            missing,
        })));
    }
    let mut by_k: Vec<&(String, PartFile)> = parts.iter().collect();
    by_k.sort_by_key(|(_, p)| p.shard);
    let incomplete: Vec<(usize, String)> = by_k
        .iter()
        .filter(|(_, p)| !p.complete)
        .map(|(f, p)| (p.shard, f.clone()))
        .take(MAX_LISTED)
        .collect();
    if !incomplete.is_empty() {
        return Err(Some(PartsMergeError::Parts(PartsError::Incomplete {
            noun: "part",
            n,
            incomplete,
        })));
    }
    let tallies: Vec<Tally> = parts.iter().map(|(_, p)| p.tally()).collect();
    match checked_sum(tallies.iter()) {
        Some(t) if checked_total(&t).is_some() => Ok(t),
        _ => Err(Some(PartsMergeError::Overflow)),
    }
}

/// The first part (by the order given) numbered outside 1 to N
/// (`OutOfRange`, N the first part's) or given twice (`Twice`).
fn misnumbered(parts: &[(String, PartFile)]) -> Option<PartsMergeError> {
    let n = parts.first().map_or(0, |(_, p)| p.shards);
    for (j, (f, p)) in parts.iter().enumerate() {
        if p.shard == 0 || p.shard > n {
            return Some(PartsMergeError::Parts(PartsError::OutOfRange {
                noun: "part",
                file: f.clone(),
                k: p.shard,
                n,
            }));
        }
        if let Some((a, _)) = parts[..j].iter().find(|(_, q)| q.shard == p.shard) {
            return Some(PartsMergeError::Parts(PartsError::Twice {
                noun: "part",
                k: p.shard,
                n: p.shards,
                a: a.clone(),
                b: f.clone(),
            }));
        }
    }
    None
}

/// `merge` and `to_rerun` of `parts`; `checked`: every part read by
/// `from_json` (else some may be raw, never checked).
fn check_merge(parts: &[(String, PartFile)], checked: bool) {
    let got = merge(parts);
    let want = expected_merge(parts);
    if let Err(e) = &got {
        assert!(!e.to_string().is_empty());
    }
    match (&got, &want) {
        (Ok(m), Ok(t)) => {
            assert_eq!(&m.tally, t, "merged tally: not the checked sums");
            assert_eq!(m.command, parts[0].1.command, "merged command");
            assert_eq!(m.shards, parts[0].1.shards, "merged number of parts");
            let mut seen: Vec<usize> = m.order.clone();
            seen.sort_unstable();
            assert_eq!(
                seen,
                (0..parts.len()).collect::<Vec<_>>(),
                "the merged order is not of every part once"
            );
            let ks: Vec<usize> = m.order.iter().map(|&i| parts[i].1.shard).collect();
            assert!(ks.windows(2).all(|w| w[0] < w[1]), "order not by K: {ks:?}");
            if checked {
                assert_eq!(
                    ks,
                    (1..=m.shards).collect::<Vec<_>>(),
                    "a merge of parts that are not 1 to N"
                );
                let sum: f64 = parts.iter().map(|(_, p)| p.seconds).sum();
                assert!(
                    m.seconds.is_finite()
                        && m.seconds >= 0.0
                        && (m.seconds - sum).abs() <= 1e-9 * sum.max(1.0),
                    "merged seconds {} for {sum}",
                    m.seconds
                );
            }
        }
        (
            Err(PartsMergeError::Parts(PartsError::Different {
                first,
                other,
                first_value,
                other_value,
                ..
            })),
            Err(None),
        ) => {
            assert_eq!(first, &parts[0].0, "Different names another first part");
            assert_ne!(first_value, other_value, "Different of the same values");
            let first_part = &parts[0].1;
            let i = parts
                .iter()
                .position(|(_, p)| {
                    (&p.version, &p.input, &p.command, p.shards, p.lines)
                        != (
                            &first_part.version,
                            &first_part.input,
                            &first_part.command,
                            first_part.shards,
                            first_part.lines,
                        )
                })
                .expect("a part differs");
            assert_eq!(other, &parts[i].0, "Different names another part");
        }
        (Err(e), Err(Some(w))) => assert_eq!(e, w, "merge refused for another reason"),
        (g, w) => panic!("merge gave {g:?}, expected {w:?}"),
    }

    let r = to_rerun(parts);
    match (&got, &r) {
        // the checks before the missing parts are merge's
        (
            Err(
                e @ PartsMergeError::Parts(
                    PartsError::NoParts { .. }
                    | PartsError::Different { .. }
                    | PartsError::OutOfRange { .. }
                    | PartsError::Twice { .. },
                ),
            ),
            r,
        ) => assert_eq!(Err(e), r.as_ref(), "to_rerun and merge refuse differently"),
        (_, Ok(r)) => {
            let n = parts[0].1.shards;
            assert_eq!(r.n, n, "to_rerun's number of parts");
            let mut by_k: Vec<&PartFile> = parts.iter().map(|(_, p)| p).collect();
            by_k.sort_by_key(|p| p.shard);
            let incomplete: Vec<usize> = by_k
                .iter()
                .filter(|p| !p.complete)
                .map(|p| p.shard)
                .collect();
            assert_eq!(r.incomplete, incomplete, "to_rerun's incomplete parts");
            // the array form reads back as the ranges
            let array = r.array();
            let back: Vec<(usize, usize)> = if array.is_empty() {
                Vec::new()
            } else {
                array
                    .split(',')
                    .map(|s| match s.split_once('-') {
                        Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
                        None => (s.parse().unwrap(), s.parse().unwrap()),
                    })
                    .collect()
            };
            assert_eq!(back, r.ranges, "ToRerun::array {array:?}");
            if checked {
                // the ranges are exactly the numbers 1..=N not given complete
                let complete: Vec<u128> = by_k
                    .iter()
                    .filter(|p| p.complete)
                    .map(|p| p.shard as u128)
                    .collect();
                let mut want = Vec::new();
                let mut prev = 0u128;
                for k in complete.into_iter().chain([n as u128 + 1]) {
                    if k > prev + 1 {
                        want.push((prev + 1, k - 1));
                    }
                    prev = k;
                }
                let ranges: Vec<(u128, u128)> = r
                    .ranges
                    .iter()
                    .map(|&(a, b)| (a as u128, b as u128))
                    .collect();
                assert_eq!(ranges, want, "to_rerun's ranges");
                // nothing to run again exactly when merge has no part
                // missing or incomplete
                assert_eq!(
                    r.ranges.is_empty(),
                    !matches!(
                        got,
                        Err(PartsMergeError::Parts(
                            PartsError::Missing { .. } | PartsError::Incomplete { .. }
                        ))
                    ),
                    "to_rerun {:?} and merge {got:?}",
                    r.ranges
                );
            }
        }
        (g, r) => panic!("to_rerun refused ({r:?}) where merge says {g:?}"),
    }
}

/// Every merge of these parts: the first one, two, three, in both orders.
fn check_merges(parts: &[(String, PartFile)], checked: bool) {
    for n in 1..=parts.len() {
        check_merge(&parts[..n], checked);
        let mut reversed = parts[..n].to_vec();
        reversed.reverse();
        check_merge(&reversed, checked);
    }
    if parts.is_empty() {
        check_merge(parts, checked);
    }
}

/// A record read, with the other parts of its run made up (complete, no
/// puzzle): every one of them validates, and they merge into the record's
/// tally, or (the record incomplete) are refused for it alone.
fn check_made_up(p: &PartFile) {
    let n = p.shards;
    if n > MAX_MADE_UP {
        return;
    }
    let mut parts = Vec::new();
    for k in 1..=n {
        if k == p.shard {
            parts.push((format!("given-{k}.json"), p.clone()));
            continue;
        }
        let mut q = PartFile::new(&p.input, &p.command, spec(k, n), p.lines);
        q.version = p.version.clone();
        if let Err(e) = q.validate() {
            panic!("a part as it starts does not validate: {e}\n{q:?}");
        }
        q.next = q.end;
        q.complete = true;
        if let Err(e) = q.validate() {
            panic!("a complete part without puzzles does not validate: {e}\n{q:?}");
        }
        parts.push((format!("made-up-{k}.json"), q));
    }
    for order in [false, true] {
        if order {
            parts.reverse();
        }
        let got = merge(&parts);
        if p.complete {
            let m = got.unwrap_or_else(|e| panic!("a whole run does not merge: {e}"));
            assert_eq!(m.tally, p.tally(), "the merged tally of one part");
            let ks: Vec<usize> = m.order.iter().map(|&i| parts[i].1.shard).collect();
            assert_eq!(ks, (1..=n).collect::<Vec<_>>(), "merged order");
        } else {
            let name = format!("given-{}.json", p.shard);
            assert_eq!(
                got,
                Err(PartsMergeError::Parts(PartsError::Incomplete {
                    noun: "part",
                    n,
                    incomplete: vec![(p.shard, name)]
                })),
                "a run with one part incomplete"
            );
        }
        check_merge(&parts, true);
    }
}

// ---------------------------------------------------------------- split

/// The start of each line of `text` (0-based), and the end of the text
/// after them: `lines + 1` offsets.
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(
        text.bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'\n')
            .map(|(i, _)| i + 1),
    );
    if !text.is_empty() && !text.ends_with('\n') {
        starts.push(text.len());
    }
    starts
}

fn check_split(text: &str, seeds: &[u8]) {
    let lines = count_lines(text);
    assert_eq!(lines, text.lines().count(), "count_lines of {text:?}");
    let starts = line_starts(text);
    assert_eq!(starts.len(), lines + 1, "line starts of {text:?}");
    assert_eq!(*starts.last().unwrap(), text.len());
    // the bytes of lines first..end, the end of the text past the last
    let bytes_of =
        |first: usize, end: usize| starts[(first - 1).min(lines)]..starts[(end - 1).min(lines)];

    // line_bytes on any lines, beyond the last too
    for w in seeds.chunks(2).take(4) {
        let a = 1 + usize::from(w[0]) % (lines + 3);
        let b = a + usize::from(*w.get(1).unwrap_or(&0)) % (lines + 3);
        assert_eq!(
            line_bytes(text, a, b),
            bytes_of(a, b),
            "line_bytes({a}, {b})"
        );
    }

    let tail = seeds.len().saturating_sub(8);
    let mut word = [0u8; 8];
    word[..seeds.len() - tail].copy_from_slice(&seeds[tail..]);
    let seed = usize::from(*seeds.first().unwrap_or(&0));
    let mut ns: Vec<usize> = vec![
        1,
        1 + seed % MAX_WALKED,
        lines.max(1),
        lines + 1,
        (u64::from_le_bytes(word) as usize).max(1),
        usize::MAX,
    ];
    ns.sort_unstable();
    ns.dedup();
    for n in ns {
        if n <= MAX_WALKED {
            walk_parts(text, lines, n, seed, &bytes_of);
        } else {
            parts_by_line(text, lines, n, seeds, &bytes_of);
        }
    }
}

/// Every part K of N, one after the other (`part_of` of a few).
fn walk_parts(
    text: &str,
    lines: usize,
    n: usize,
    seed: usize,
    bytes_of: &dyn Fn(usize, usize) -> std::ops::Range<usize>,
) {
    let mut next_line = 1;
    let mut whole = String::new();
    let (mut small, mut large) = (usize::MAX, 0);
    for k in 1..=n {
        let (first, end) = part_lines(lines, spec(k, n));
        assert_eq!(
            first, next_line,
            "part {k} of {n} of {lines} lines starts elsewhere"
        );
        assert!(
            first <= end && end <= lines + 1,
            "part {k} of {n}: lines {first} to {end} of {lines}"
        );
        let bytes = line_bytes(text, first, end);
        assert_eq!(bytes, bytes_of(first, end), "line_bytes of part {k} of {n}");
        if k == 1 || k == n || k == 1 + seed % n {
            assert_eq!(
                part_of(text, spec(k, n)),
                Part {
                    lines,
                    first,
                    end,
                    bytes: bytes.clone()
                },
                "part_of {k} of {n}"
            );
        }
        let slice = &text[bytes];
        assert_eq!(count_lines(slice), end - first, "lines in part {k} of {n}");
        whole.push_str(slice);
        next_line = end;
        small = small.min(end - first);
        large = large.max(end - first);
    }
    assert_eq!(next_line, lines + 1, "{n} parts end before the last line");
    assert_eq!(whole, text, "the parts of {n} one after the other");
    assert!(
        large - small <= 1,
        "{lines} lines in {n} parts: {small} to {large} a part"
    );
}

/// A large N: the part of each line, found by arithmetic (the smallest K
/// with floor(K L / N) > j holds line j), holds it and its neighbours
/// meet it (every line of a short text; of a long one the first and last
/// few and a few drawn from the input). The bytes of the parts of a short
/// text are its lines, and one after the other the text.
fn parts_by_line(
    text: &str,
    lines: usize,
    n: usize,
    seeds: &[u8],
    bytes_of: &dyn Fn(usize, usize) -> std::ops::Range<usize>,
) {
    assert_eq!(part_lines(lines, spec(1, n)).0, 1, "part 1 of {n}");
    assert_eq!(
        part_lines(lines, spec(n, n)).1,
        lines + 1,
        "part {n} of {n}"
    );
    let sampled: Vec<usize> = if lines <= 2 * MAX_SAMPLED {
        (0..lines).collect()
    } else {
        let mut v: Vec<usize> = (0..MAX_SAMPLED)
            .chain(lines - MAX_SAMPLED..lines)
            .chain(
                seeds
                    .iter()
                    .take(MAX_SAMPLED)
                    .map(|&b| usize::from(b) * lines / 256),
            )
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let whole_text = lines <= MAX_SLICED;
    let mut whole = String::new();
    let mut last_k = 0;
    for j in sampled {
        let (l, nn) = (lines as u128, n as u128);
        let k = ((j as u128 + 1) * nn).div_ceil(l) as usize;
        assert!(1 <= k && k <= n);
        let (first, end) = part_lines(lines, spec(k, n));
        assert!(
            first <= j + 1 && j + 1 < end,
            "line {} is not in part {k} of {n} ({first} to {end})",
            j + 1
        );
        if k > 1 {
            assert_eq!(
                part_lines(lines, spec(k - 1, n)).1,
                first,
                "parts {} and {k} of {n} are not contiguous",
                k - 1
            );
        }
        if k < n {
            assert_eq!(
                part_lines(lines, spec(k + 1, n)).0,
                end,
                "parts {k} and {} of {n} are not contiguous",
                k + 1
            );
        }
        assert!(k >= last_k, "parts out of order");
        if k != last_k && whole_text {
            let bytes = line_bytes(text, first, end);
            assert_eq!(bytes, bytes_of(first, end), "line_bytes of part {k} of {n}");
            whole.push_str(&text[bytes]);
        }
        last_k = k;
    }
    if whole_text {
        assert_eq!(
            whole, text,
            "the non-empty parts of {n} one after the other"
        );
    }
}

fn check_fingerprints(text: &str, seeds: &[u8]) {
    let command = COMMANDS[usize::from(*seeds.first().unwrap_or(&0)) % COMMANDS.len()];
    let flags = [("json", "false"), ("limit", "2")];
    let f = fingerprint(text, command, &flags);
    assert!(
        f.len() == 16
            && f.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "fingerprint {f:?}"
    );
    assert_eq!(f, fingerprint(text, command, &flags), "fingerprint twice");
    let longer = format!("{text}\n");
    for (what, other) in [
        ("the text", fingerprint(&longer, command, &flags)),
        (
            "the flags",
            fingerprint(text, command, &[("json", "false"), ("limi", "t2")]),
        ),
        ("no flags", fingerprint(text, command, &[])),
    ] {
        assert_ne!(
            f, other,
            "fingerprint: another {what}, the same fingerprint"
        );
    }
}

// ---------------------------------------------------------------- cluster

/// Undoes the quoting of one POSIX shell word made of plain characters,
/// single-quoted strings and backslash escapes; `None` for anything the
/// shell would split, expand or read otherwise.
fn unquote(word: &str) -> Option<String> {
    if word.is_empty() {
        return None;
    }
    let mut out = String::new();
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => loop {
                match chars.next()? {
                    '\'' => break,
                    c => out.push(c),
                }
            },
            '\\' => match chars.next()? {
                // a line continuation, not a character
                '\n' => return None,
                c => out.push(c),
            },
            c if c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c) => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn plain(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
}

fn check_cluster_line(line: &str) {
    if slurm::check_time(line).is_ok() {
        // minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS
        let ok = line == "UNLIMITED"
            || line == "INFINITE"
            || match line.split_once('-') {
                Some((d, rest)) => {
                    digits(d) && {
                        let f: Vec<&str> = rest.split(':').collect();
                        (1..=3).contains(&f.len()) && f.iter().all(|f| digits(f))
                    }
                }
                None => {
                    let f: Vec<&str> = line.split(':').collect();
                    (1..=3).contains(&f.len()) && f.iter().all(|f| digits(f))
                }
            };
        assert!(ok, "check_time accepts {line:?}");
    }
    if slurm::check_memory(line).is_ok() {
        let number = line
            .strip_suffix(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't'])
            .unwrap_or(line);
        assert!(digits(number), "check_memory accepts {line:?}");
    }
    if slurm::check_partition(line).is_ok() {
        assert!(
            line.split(',').all(plain),
            "check_partition accepts {line:?}"
        );
    }
    if slurm::check_name(line).is_ok() {
        assert!(plain(line), "check_name accepts {line:?}");
    }
    for e in [
        slurm::check_time(line).err(),
        slurm::check_memory(line).err(),
        slurm::check_partition(line).err(),
        slurm::check_name(line).err(),
    ]
    .into_iter()
    .flatten()
    {
        assert!(!e.to_string().is_empty());
    }
}

fn check_quote(s: &str) {
    let q = slurm::shell_quote(s);
    assert_eq!(
        unquote(&q).as_deref(),
        Some(s),
        "shell_quote({s:?}) = {q:?} is not one word for it"
    );
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-./=:,+@%".contains(&b))
    {
        assert_eq!(q, s, "a plain word quoted");
    }
}

fn check_run_record(text: &str) {
    let got = RunRecord::from_json(text);
    match serde_json::from_str::<RunRecord>(text) {
        Err(_) => assert!(
            got.is_err(),
            "RunRecord::from_json reads what serde refuses"
        ),
        Ok(raw) => {
            let good = raw.format == RUN
                && (1..=MAX_TASKS).contains(&raw.tasks)
                && (raw.parts == "search" || raw.parts == "sudoku");
            match &got {
                Ok(r) => {
                    assert!(good, "RunRecord::from_json accepts {raw:?}");
                    assert_eq!(r, &raw);
                    assert!(r.kind().is_ok());
                    let again = serde_json::to_string(r).unwrap();
                    assert_eq!(
                        RunRecord::from_json(&again).as_ref(),
                        Ok(r),
                        "a job.json written does not read back"
                    );
                }
                Err(e) => {
                    assert!(!good, "RunRecord::from_json refuses {raw:?}: {e}");
                    assert!(!e.is_empty());
                }
            }
        }
    }
}

// ---------------------------------------------------------------- target

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let first_line = text.split('\n').next().unwrap_or("");
    check_cluster_line(first_line);
    check_quote(first_line);

    let mut read = Vec::new();
    let mut forged = Vec::new();
    let mut raw = Vec::new();
    for (i, piece) in text.split('\0').take(3).enumerate() {
        if i == 0 && piece != first_line {
            check_quote(piece);
        }
        check_run_record(piece);
        let name = format!("part{}.json", i + 1);
        let as_is = PartFile::from_json(piece);
        match serde_json::from_str::<PartFile>(piece) {
            Ok(r) => {
                if let Some(f) = write_and_read(&r) {
                    if let Ok(a) = &as_is {
                        assert_eq!(a, &f, "a record read as it is and forged differ");
                    }
                    check_record(&f);
                    forged.push((name.clone(), f));
                } else {
                    assert!(as_is.is_err(), "from_json reads what validate refuses");
                }
                if let Ok(a) = &as_is {
                    assert_eq!(a, &r, "from_json reads another record than serde");
                }
                raw.push((name.clone(), r));
            }
            Err(_) => assert!(as_is.is_err(), "from_json reads what serde_json refuses"),
        }
        if let Ok(p) = as_is {
            assert_eq!(format_of(piece).as_deref(), Some(FORMAT), "format_of");
            check_record(&p);
            check_made_up(&p);
            read.push((name, p));
        }
    }
    for (name, f) in &forged {
        if !read.iter().any(|(n, _)| n == name) {
            check_made_up(f);
        }
    }
    check_merges(&read, true);
    check_merges(&forged, true);
    check_merges(&raw, false);

    check_split(&text, data);
    check_fingerprints(&text, data);
});
