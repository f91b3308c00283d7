//! Progress bars on standard error, for every command: one place for their
//! templates, so that each fits an 80-column terminal (a test renders them
//! at 80 columns). The numbers they show are said as every message says
//! them ([`dancer_core::words`]: `791 puzzles/s`, `3.2M nodes/s`, `eta 1h
//! 05m`).

use dancer_core::memo::MemoProgress;
use dancer_core::words::{duration, rate};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The width every bar fits in.
#[allow(dead_code)] // (in the tests)
pub const COLUMNS: usize = 80;

/// Where a bar draws: standard error when it is a terminal, else nowhere.
pub fn on_terminal() -> Option<ProgressDrawTarget> {
    std::io::stderr()
        .is_terminal()
        .then(ProgressDrawTarget::stderr)
}

/// On a terminal, a bar of `len` (a spinner, without) drawn by
/// `template`, ticking five times a second; elsewhere a hidden one.
pub fn terminal_bar(len: Option<u64>, template: &str) -> ProgressBar {
    let style = ProgressStyle::with_template(template).expect("a valid template");
    styled(len, style)
}

/// [`terminal_bar`] with a style of its own.
fn styled(len: Option<u64>, style: ProgressStyle) -> ProgressBar {
    let Some(target) = on_terminal() else {
        return ProgressBar::hidden();
    };
    let b = ProgressBar::with_draw_target(len, target);
    b.set_style(style);
    b.enable_steady_tick(Duration::from_millis(200));
    b
}

/// On a terminal, a bar of the puzzles `count` gives, if it gives a
/// number ([`batch_bar`]); else a hidden one. Not counted off a terminal:
/// a batch may be a gigabyte.
pub fn puzzles_bar(count: impl FnOnce() -> Option<u64>) -> ProgressBar {
    let Some(n) = std::io::stderr().is_terminal().then(count).flatten() else {
        return ProgressBar::hidden();
    };
    let b = batch_bar(ProgressDrawTarget::stderr(), n, "puzzles");
    b.enable_steady_tick(Duration::from_millis(200));
    b
}

/// On a terminal, the spinner of a memoized count, drawn from `pr` by
/// indicatif's ticker ([`MemoProgress::message`]: within 80 columns);
/// elsewhere a hidden one.
pub fn memo_spinner(pr: Arc<MemoProgress>) -> ProgressBar {
    let start = Instant::now();
    let memo = move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = w.write_str(&pr.message(start.elapsed().as_secs_f64()));
    };
    let style = ProgressStyle::with_template("{spinner} {memo}").expect("a valid template");
    styled(None, style.with_key("memo", memo))
}

/// The bar of a search (`dancer solve`): the estimated fraction done, in
/// thousandths (`set_position(0..=1000)`), the time so far, and a message
/// of a [`Progress`](dancer_core::parallel::Progress) (`92 solutions, 12.3M nodes/s, eta 42 s`); the
/// message is cut to fit the terminal.
pub fn search_bar(target: ProgressDrawTarget) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(1000), target);
    bar.set_style(
        ProgressStyle::with_template("{bar:20} {percent:>3}% {elapsed_precise} {wide_msg}")
            .expect("a valid template"),
    );
    bar
}

/// The bar of a batch of `len` things (`puzzles`, `lines`): `pos/len`,
/// the rate, and the time left, as `1200/5000 lines, 791 lines/s, eta 5 s`.
pub fn batch_bar(target: ProgressDrawTarget, len: u64, things: &'static str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), target);
    let info = move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        let eta = if state.pos() == 0 {
            "?".to_string()
        } else {
            duration(state.eta().as_secs_f64())
        };
        let _ = write!(
            w,
            "{}/{} {things}, {} {things}/s, eta {eta}",
            state.pos(),
            state.len().unwrap_or(0),
            rate(state.per_sec()),
        );
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:20} {info}")
            .expect("a valid template")
            .with_key("info", info),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::InMemoryTerm;

    /// What `bar` shows on a terminal of 80 columns once `set` has been
    /// applied: one line (a line drawn too long would wrap onto a second
    /// row of the screen, and stay there).
    fn drawn(
        make: impl Fn(ProgressDrawTarget) -> ProgressBar,
        set: impl Fn(&ProgressBar),
    ) -> String {
        let screen = InMemoryTerm::new(4, COLUMNS as u16);
        let bar = make(ProgressDrawTarget::term_like(Box::new(screen.clone())));
        set(&bar);
        bar.abandon();
        let shown = screen.contents();
        assert_eq!(shown.lines().count(), 1, "{shown:?}");
        shown
    }

    fn columns(s: &str) -> usize {
        s.chars().count()
    }

    /// Every bar fits in 80 columns, with its message whole for ordinary
    /// numbers, and cut (never wrapped) for huge ones.
    #[test]
    fn bars_fit_80_columns() {
        let at = |solutions, nodes, secs| dancer_core::parallel::Progress {
            fraction: 0.523,
            solutions,
            nodes,
            units_done: 0,
            units: 1,
            elapsed: std::time::Duration::from_secs_f64(secs),
        };
        let ordinary = at(14_200, 456_000_000, 10.0).to_string();
        assert_eq!(ordinary, "14200 solutions, 45.6M nodes/s, eta 9 s");
        let line = drawn(search_bar, |b| {
            b.set_position(523);
            b.set_message(ordinary.clone());
        });
        assert!(columns(&line) <= COLUMNS, "{line:?}");
        assert!(line.contains(" 52% "), "{line:?}");
        assert!(line.trim_end().ends_with(&ordinary), "{line:?}");
        let huge = at(u64::MAX, u64::MAX, 1e-6).to_string();
        let line = drawn(search_bar, |b| b.set_message(huge.clone()));
        assert!(columns(&line) <= COLUMNS, "{line:?}");

        let line = drawn(
            |t| batch_bar(t, 1_000_000_000, "puzzles"),
            |b| b.set_position(999_999_999),
        );
        assert!(columns(&line) <= COLUMNS, "{line:?}");
        assert!(line.contains("999999999/1000000000 puzzles, "), "{line:?}");
        assert!(line.contains(" puzzles/s, eta "), "{line:?}");
        // the rate: a rounded number, at most 5 characters (`791`, `12.3k`)
        let r = line.split(", ").nth(1).unwrap().split(' ').next().unwrap();
        assert!(r.len() <= 5 && !r.contains('e'), "{line:?}");
        let line = drawn(|t| batch_bar(t, 81, "lines"), |b| b.set_position(0));
        assert!(line.contains("0/81 lines, 0 lines/s, eta ?"), "{line:?}");
    }
}
