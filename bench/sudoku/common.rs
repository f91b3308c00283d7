//! What the two runners share: the command line, reading a one-puzzle-per-line
//! file, and the JSON result line. Included by each runner with `#[path]`, so
//! the workspace needs no library crate of its own.

use std::process::exit;

/// The command line of a runner: `runner-X FILE [--limit N]`.
pub struct Args {
    /// The puzzle file as given on the command line.
    pub file: String,
    /// Stop each puzzle's search at this many solutions (default 2).
    pub limit: u64,
}

/// Parses the command line; prints usage and exits with status 2 on misuse.
pub fn parse_args(runner: &str) -> Args {
    let usage = || -> ! {
        eprintln!("usage: {runner} FILE [--limit N]   (N >= 1, default 2)");
        exit(2)
    };
    let mut file = None;
    let mut limit = 2u64;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--limit" => {
                limit = match it.next().and_then(|v| v.parse().ok()) {
                    Some(n) if n >= 1 => n,
                    _ => usage(),
                }
            }
            "-h" | "--help" => usage(),
            _ if file.is_none() && !a.starts_with("--") => file = Some(a),
            _ => usage(),
        }
    }
    Args {
        file: file.unwrap_or_else(|| usage()),
        limit,
    }
}

/// Reads every puzzle of `path`: one per line, 81 cells, `.` or `0` for an
/// empty cell, `1`..`9` for a given; anything after the 81st character is
/// ignored. Empty lines and lines starting with `#` are skipped. Exits with
/// status 2 on an unreadable file or a malformed line.
pub fn read_puzzles(path: &str) -> Vec<[u8; 81]> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        exit(2)
    });
    let mut puzzles = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bytes = line.as_bytes();
        let mut p = [0u8; 81];
        let ok = bytes.len() >= 81
            && bytes[..81].iter().zip(p.iter_mut()).all(|(&c, d)| match c {
                b'.' | b'0' => true,
                b'1'..=b'9' => {
                    *d = c - b'0';
                    true
                }
                _ => false,
            });
        if !ok {
            eprintln!("{path}:{}: not an 81-cell puzzle line", n + 1);
            exit(2);
        }
        puzzles.push(p);
    }
    puzzles
}

/// How the puzzles of a file split by their number of solutions.
#[derive(Default)]
pub struct Tally {
    pub unique: u64,
    pub multiple: u64,
    pub none: u64,
}

impl Tally {
    /// Counts one puzzle with `count` solutions (as found under the limit).
    pub fn add(&mut self, count: u64) {
        match count {
            0 => self.none += 1,
            1 => self.unique += 1,
            _ => self.multiple += 1,
        }
    }
}

/// CPU time of this thread so far, in seconds (`clock_gettime` with
/// `CLOCK_THREAD_CPUTIME_ID`: exact to the nanosecond on Linux, and up to
/// date when read, unlike `/proc/self/schedstat`, which lags by up to a
/// scheduler tick and made short runs look up to twice as fast); None where
/// the clock is missing. Unlike wall time it leaves out the spells when
/// another process held the core.
pub fn cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0).then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// A clock for the timed loop: wall time, and CPU time where available.
pub struct Clock {
    wall: std::time::Instant,
    cpu: Option<f64>,
}

impl Clock {
    pub fn start() -> Clock {
        let cpu = cpu_seconds();
        Clock {
            wall: std::time::Instant::now(),
            cpu,
        }
    }

    /// (wall seconds, CPU seconds) since `start`.
    pub fn stop(&self) -> (f64, Option<f64>) {
        let wall = self.wall.elapsed().as_secs_f64();
        let cpu = match (self.cpu, cpu_seconds()) {
            (Some(a), Some(b)) => Some(b - a),
            _ => None,
        };
        (wall, cpu)
    }
}

/// Prints the one JSON line of a run. `cpu_seconds` and
/// `cpu_puzzles_per_second` are null where CPU time is not available.
pub fn print_json(
    runner: &str,
    file: &str,
    puzzles: usize,
    (seconds, cpu): (f64, Option<f64>),
    t: &Tally,
) {
    let rate = |s: f64| if s > 0.0 { puzzles as f64 / s } else { 0.0 };
    let (cpu_s, cpu_pps) = match cpu {
        Some(c) => (format!("{c:.6}"), format!("{:.1}", rate(c))),
        None => ("null".to_string(), "null".to_string()),
    };
    println!(
        "{{\"runner\":\"{}\",\"file\":\"{}\",\"puzzles\":{},\"seconds\":{:.6},\"puzzles_per_second\":{:.1},\"cpu_seconds\":{},\"cpu_puzzles_per_second\":{},\"unique\":{},\"multiple\":{},\"none\":{}}}",
        json_escape(runner),
        json_escape(file),
        puzzles,
        seconds,
        rate(seconds),
        cpu_s,
        cpu_pps,
        t.unique,
        t.multiple,
        t.none
    );
}

fn json_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o
}
