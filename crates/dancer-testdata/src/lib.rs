//! For dancer's tests and benchmarks only: where the public data sets that
//! every developer and CI share live (`../shared/data/` beside the
//! checkout, see `shared/README.md`), and what happens when they are
//! missing.
//!
//! The rule: on a developer's machine a test that needs the data says
//! `SKIPPED` (on the real standard error, so that it shows in the test
//! output) and passes; on CI (the `CI` environment variable set to
//! anything but `false` or `0`) the data must be there, and a missing
//! folder fails the test, so that a check never passes without running.

use std::io::Write;
use std::path::PathBuf;

/// The folder `../shared/data/<sub>` beside the checkout (e.g. `"dlx"`,
/// `"sudoku"`), if it is there. Panics when it is not and [`on_ci`].
pub fn shared_dir(sub: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    missing(&dir.display().to_string());
    None
}

/// The file `../shared/data/<sub>/<name>`, if it is there; as
/// [`shared_dir`] when it is not.
pub fn shared_file(sub: &str, name: &str) -> Option<PathBuf> {
    let path = shared_dir(sub)?.join(name);
    if path.is_file() {
        return Some(path);
    }
    missing(&path.display().to_string());
    None
}

/// Whether this run is on CI.
pub fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Says that `what` is missing: a failure on CI, a printed skip elsewhere.
fn missing(what: &str) {
    if on_ci() {
        panic!("{what} not found, and CI is set: the shared data sets must be there on CI");
    }
    say(&format!(
        "SKIPPED: {what} not found; the shared data sets are not on this machine"
    ));
}

/// Writes a line to the real standard error, past the test harness's
/// capture, so that it shows in the output of `cargo test`.
pub fn say(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// A tiny deterministic random generator (Knuth's MMIX linear
/// congruential one, the high bits), so that the tests' random problems
/// and puzzles are the same on every run: `Lcg(seed)`.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number, below 2^31.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// `below` and `shuffle` as every generator of the workspace has them
/// (`dancer_core::rng::Draw`), from the numbers of [`Lcg::next`].
impl dancer_core::rng::Draw for Lcg {
    fn next_u64(&mut self) -> u64 {
        self.next()
    }
}
