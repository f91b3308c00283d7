//! Checkpoints and shard results, as `dancer solve --resume` and `dancer
//! merge` read them back: up to three records, separated by NUL bytes.
//!
//! Each record is read twice: as it is, by `Saved::from_json` (which
//! checks its checksum), and *forged*: deserialised without any check and
//! written again by `Saved::to_json`, which gives it a right checksum, so
//! that the checks behind the checksum (`Saved::validate`) are fuzzed too.
//!
//! * `from_json` of a record as it is agrees with the forged one when both
//!   read; `from_json` of a forged record reads exactly when `validate`
//!   accepts it, and as itself (a file dancer writes always reads back).
//! * `expect_format` accepts exactly its own format; a `done` bitmap that
//!   `parse_bitmap` takes has one bit per unit and survives `hex_bitmap`.
//! * A checkpoint resumed (`Split::new` with `resume`) on the problem whose
//!   fingerprint it has (one of a few small problems; else the first, to
//!   be refused) is a typed error, or selects exactly the units not done;
//!   its totals are the checked sums (or a typed overflow error), and its
//!   next save keeps its counts and bitmap.
//! * `merge` of the records read (and of the forged ones, and of raw ones
//!   that were never checked; one, two, three, both orders; and a record of
//!   shard K of 2 with its other half made up) is a typed error, or its
//!   sums are the checked sums of the parts: never a wrapped or a panicked
//!   sum.
//! * Counts of any size: digits made from the input, of lengths around the
//!   points where reading splits them (1,024 digits and its doublings, up
//!   to 5,000), read by `Count::from_str` as `BigUint` reads them and
//!   written back as they were; two memo shards of such counts, written
//!   and read back, merge to their exact sum.
#![no_main]

use dancer_core::memo::{MemoOutcome, MemoSplit, MemoStats};
use dancer_core::parallel::Stop;
use dancer_core::{classic, Count, EngineKind, Problem, Stats};
use dancer_runs::search::{
    self, fingerprint_hex, hex_bitmap, merge, parse_bitmap, Saved, Split, SplitOptions,
};
use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use std::sync::OnceLock;
use std::time::Duration;

/// The problems a checkpoint may be of: Knuth's toy problem, his toy with
/// colours, a problem with multiplicities, and the 4 to 6 queens.
fn problems() -> &'static [(String, Problem)] {
    static P: OnceLock<Vec<(String, Problem)>> = OnceLock::new();
    P.get_or_init(|| {
        let texts = [
            "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n",
            "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n",
            "2|a b | x\na b\na x\nb\na\n",
        ];
        let mut v: Vec<Problem> = texts
            .iter()
            .map(|t| dancer_formats::dlx::read_str(t, "p").unwrap().problem)
            .collect();
        v.extend((4..=6).map(classic::queens));
        v.into_iter().map(|p| (fingerprint_hex(&p), p)).collect()
    })
}

type Sums = (u64, u64, u64, Vec<u64>);

/// The parts' counts added with checked arithmetic: `None` on overflow.
fn checked_sums<'a>(parts: impl IntoIterator<Item = &'a Stats>) -> Option<Sums> {
    let mut s: Sums = (0, 0, 0, Vec::new());
    for p in parts {
        s.0 = s.0.checked_add(p.solutions)?;
        s.1 = s.1.checked_add(p.nodes)?;
        s.2 = s.2.checked_add(p.updates)?;
        if s.3.len() < p.profile.len() {
            s.3.resize(p.profile.len(), 0);
        }
        for (a, b) in s.3.iter_mut().zip(&p.profile) {
            *a = a.checked_add(*b)?;
        }
    }
    Some(s)
}

fn trimmed(v: &[u64]) -> Vec<u64> {
    let end = v.iter().rposition(|&n| n > 0).map_or(0, |p| p + 1);
    v[..end].to_vec()
}

/// Writes `s` with `to_json` and reads it back: it reads exactly when it
/// validates, and as itself.
fn write_and_read(s: &Saved) -> Option<Saved> {
    let bytes = s.to_json();
    let text = std::str::from_utf8(&bytes).expect("to_json writes UTF-8");
    let valid = s.validate();
    match Saved::from_json(text) {
        Ok(back) => {
            assert!(
                valid.is_ok(),
                "from_json reads what validate refuses: {valid:?}"
            );
            let mut want = s.clone();
            want.checksum.clear();
            assert_eq!(back, want, "a record written reads back as another\n{text}");
            Some(back)
        }
        Err(e) => {
            assert!(
                valid.is_err(),
                "a record that validates, written by to_json, does not read back: {e}\n{text}"
            );
            None
        }
    }
}

/// The checks of a record that reads back.
fn check_record(s: &Saved) {
    for f in [search::CHECKPOINT, search::SHARD] {
        assert_eq!(
            s.expect_format(f).is_ok(),
            s.format == f,
            "expect_format({f})"
        );
    }
    if let Some(bits) = parse_bitmap(&s.done, s.units) {
        assert_eq!(bits.len(), s.units, "parse_bitmap: one bit per unit");
        assert_eq!(
            parse_bitmap(&hex_bitmap(&bits), s.units).as_ref(),
            Some(&bits),
            "hex_bitmap and parse_bitmap disagree"
        );
    }
    if s.format == search::CHECKPOINT {
        check_resume(s);
    }
}

fn check_resume(s: &Saved) {
    let all = problems();
    let problem = all
        .iter()
        .find(|(f, _)| *f == s.fingerprint)
        .map_or(&all[0].1, |(_, p)| p);
    let mut engines = vec![EngineKind::Auto];
    if let Ok(e) = s.engine.parse::<EngineKind>() {
        engines.push(e);
    }
    for engine in engines {
        let opts = SplitOptions {
            threads: 1,
            shard: None,
            checkpoints: true,
            resume: Some(s.clone()),
        };
        let Ok(split) = Split::new(problem, engine, opts) else {
            continue;
        };
        let done = parse_bitmap(&s.done, s.units).expect("a resumed bitmap reads");
        assert_eq!(split.plan.units.len(), s.units, "resumed on another plan");
        let todo: Vec<usize> = (0..s.units).filter(|&i| !done[i]).collect();
        assert_eq!(split.selected, todo, "a resume selects the units not done");
        let want = checked_sums([&split.plan.top, &s.stats()]);
        match (split.totals(&Stats::default()), want) {
            (Ok(t), Some(w)) => assert_eq!(
                (t.solutions, t.nodes, t.updates),
                (w.0, w.1, w.2),
                "resumed totals"
            ),
            (Err(_), None) => {}
            (t, w) => panic!("resumed totals {t:?}, checked sums {w:?}"),
        }
        let saved = split
            .checkpoint(Duration::from_secs(3600))
            .saved(false, None, 0.0);
        assert_eq!(saved.done, hex_bitmap(&done), "the next save's bitmap");
        assert_eq!(
            (&saved.solutions, saved.nodes, saved.updates),
            (&s.solutions, s.nodes, s.updates),
            "the next save's counts"
        );
        assert_eq!(
            (&saved.fingerprint, saved.depth, saved.units),
            (&s.fingerprint, s.depth, s.units),
            "the next save's problem and plan"
        );
        // and the next save is valid, and reads back (see write_and_read)
        if let Err(e) = saved.validate() {
            panic!("the next save of a resumed checkpoint does not validate: {e}");
        }
        write_and_read(&saved);
    }
}

fn check_merge(parts: &[(String, Saved)]) {
    let m = match merge(parts) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    // counts are added exactly, whatever their size; nodes, updates and
    // the profile must not pass u64::MAX
    let stats: Vec<Stats> = parts
        .iter()
        .map(|(_, s)| Stats {
            solutions: 0,
            ..s.stats()
        })
        .collect();
    let exact: dancer_core::Count = parts.iter().map(|(_, s)| s.solutions.clone()).sum();
    assert_eq!(m.solutions, exact, "merged count");
    assert_eq!(
        m.stats.solutions,
        exact.to_u64().unwrap_or(u64::MAX),
        "merged count, saturated"
    );
    let Some((_, nodes, updates, profile)) = checked_sums(&stats) else {
        panic!(
            "merge accepted parts whose counts add past u64::MAX: {:?}",
            stats
                .iter()
                .map(|s| (s.solutions, s.nodes, s.updates))
                .collect::<Vec<_>>()
        );
    };
    assert_eq!(
        (m.stats.nodes, m.stats.updates),
        (nodes, updates),
        "merged counts"
    );
    assert_eq!(
        trimmed(&m.stats.profile),
        trimmed(&profile),
        "merged profile"
    );
    assert_eq!(Some(m.shards), parts[0].1.shards, "merged shard count");
    assert_eq!(
        m.shards,
        parts.len(),
        "a merge with a part missing or twice"
    );
    for (_, s) in parts {
        assert!(
            s.validate().is_ok(),
            "merge accepted a part that does not validate"
        );
    }
    let incomplete: Vec<(String, Option<Stop>)> = parts
        .iter()
        .filter(|(_, s)| !s.complete)
        .map(|(f, s)| (f.clone(), s.stopped))
        .collect();
    assert_eq!(m.incomplete, incomplete, "merged incomplete parts");
    assert_eq!(m.complete, incomplete.is_empty(), "merged completeness");
    assert_eq!(
        m.stopped,
        incomplete.iter().filter_map(|(_, s)| *s).max(),
        "merged stop"
    );
}

/// Every merge of these parts: the first one, two, three, in both orders,
/// and for a lone half of two, with its other half made up.
fn check_merges(parts: &[(String, Saved)]) {
    for n in 1..=parts.len() {
        check_merge(&parts[..n]);
        let mut reversed = parts[..n].to_vec();
        reversed.reverse();
        check_merge(&reversed);
    }
    if let Some((_, s)) = parts.first() {
        if let (Some(k @ 1..=2), Some(2)) = (s.shard, s.shards) {
            let mut other = s.clone();
            other.shard = Some(3 - k);
            check_merge(&[
                ("half.json".into(), s.clone()),
                ("other.json".into(), other),
            ]);
        }
    }
}

/// Long counts from the input's bytes: read exactly, and merged exactly.
fn check_long_counts(data: &[u8]) {
    if data.is_empty() {
        return;
    }
    let len = [1023, 1024, 1025, 2047, 2049, 4096, 5000][usize::from(data[0]) % 7];
    let digits = |salt: usize| -> String {
        let s: String = (0..len)
            .map(|i| char::from(b'0' + data[(i + salt) % data.len()] % 10))
            .collect();
        // no leading zeros: the count's own digits
        let t = s.trim_start_matches('0');
        if t.is_empty() {
            "0".to_string()
        } else {
            t.to_string()
        }
    };
    let (a, b) = (digits(0), digits(7));
    let mut counts = Vec::new();
    for d in [&a, &b] {
        let c: Count = d.parse().expect("digits are a count");
        assert_eq!(
            c.to_biguint(),
            BigUint::parse_bytes(d.as_bytes(), 10).expect("digits"),
            "a long count read wrong"
        );
        assert_eq!(&c.to_string(), d, "a long count written back");
        counts.push(c);
    }
    let problem = &problems()[0].1;
    let parts: Vec<(String, Saved)> = counts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let r = MemoOutcome {
                count: c.clone(),
                complete: true,
                stats: MemoStats::default(),
                split: Some(MemoSplit { depth: 1, units: 2 }),
            };
            let s = Saved::memo_shard(problem, (i + 1, 2), &r);
            let text = String::from_utf8(s.to_json()).expect("UTF-8");
            let back = Saved::from_json(&text).expect("a memo shard reads back");
            assert_eq!(&back.solutions, c, "a long count through its file");
            (format!("{}.json", i + 1), back)
        })
        .collect();
    let m = merge(&parts).expect("two halves merge");
    let mut sum = counts[0].clone();
    sum += &counts[1];
    assert_eq!(m.solutions, sum, "long counts merged");
    assert_eq!(
        m.solutions.to_biguint(),
        counts[0].to_biguint() + counts[1].to_biguint(),
        "long counts added"
    );
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 8192 {
        return;
    }
    check_long_counts(data);
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut read = Vec::new();
    let mut forged = Vec::new();
    let mut raw = Vec::new();
    for (i, piece) in text.split('\0').take(3).enumerate() {
        let name = format!("part{}.json", i + 1);
        let as_is = Saved::from_json(piece);
        if let Ok(r) = serde_json::from_str::<Saved>(piece) {
            if let Some(f) = write_and_read(&r) {
                if let Ok(a) = &as_is {
                    assert_eq!(a, &f, "a record read as it is and forged differ");
                }
                check_record(&f);
                forged.push((name.clone(), f));
            }
            raw.push((name.clone(), r));
        } else {
            assert!(as_is.is_err(), "from_json reads what serde_json refuses");
        }
        if let Ok(s) = as_is {
            check_record(&s);
            read.push((name, s));
        }
    }
    check_merges(&read);
    check_merges(&forged);
    check_merges(&raw);
});
