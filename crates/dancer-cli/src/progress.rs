//! Progress bars on standard error, for every command: one place for their
//! templates, so that each fits an 80-column terminal (a test renders them
//! at 80 columns), and for the numbers they show: plain and rounded
//! (`791 puzzles/s`, `3.2M nodes/s`, `eta 1h 05m`), never `791.3741/s`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;

/// The width every bar fits in.
#[allow(dead_code)] // (in the tests)
pub const COLUMNS: usize = 80;

/// A rate, rounded: `791`, `12.3k`, `4.57M`, `1.20G` (three significant
/// digits from ten thousand on).
pub fn rate(per_second: f64) -> String {
    if !per_second.is_finite() || per_second < 0.0 {
        return "?".into();
    }
    if per_second < 10_000.0 {
        return format!("{per_second:.0}");
    }
    let (v, unit) = [(1e3, "k"), (1e6, "M"), (1e9, "G"), (1e12, "T")]
        .iter()
        .rev()
        .find(|(scale, _)| per_second >= *scale * 0.9995)
        .map(|(scale, unit)| (per_second / scale, *unit))
        .unwrap_or((per_second, ""));
    if v >= 99.95 {
        format!("{v:.0}{unit}")
    } else if v >= 9.995 {
        format!("{v:.1}{unit}")
    } else {
        format!("{v:.2}{unit}")
    }
}

/// A duration, short: `42 s`, `12m 05s`, `3h 07m`, `12d 03h`.
pub fn duration(secs: f64) -> String {
    if !secs.is_finite() || secs < 0.0 {
        return "?".into();
    }
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        3600..86400 => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d {:02}h", s / 86400, s % 86400 / 3600),
    }
}

/// Where a bar draws: standard error when it is a terminal, else nowhere.
pub fn on_terminal() -> Option<ProgressDrawTarget> {
    std::io::stderr()
        .is_terminal()
        .then(ProgressDrawTarget::stderr)
}

/// The bar of a search (`dancer solve`): the estimated fraction done, in
/// thousandths (`set_position(0..=1000)`), the time so far, and a message
/// of [`search_message`]; the message is cut to fit the terminal.
pub fn search_bar(target: ProgressDrawTarget) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(1000), target);
    bar.set_style(
        ProgressStyle::with_template("{bar:20} {percent:>3}% {elapsed_precise} {wide_msg}")
            .expect("a valid template"),
    );
    bar
}

/// The message of a [`search_bar`]: `92 solutions, 12.3M nodes/s, eta 42 s`.
pub fn search_message(solutions: u64, nodes_per_second: f64, eta_seconds: Option<f64>) -> String {
    format!(
        "{}, {} nodes/s, eta {}",
        dancer_core::plural(solutions, "solution", "solutions"),
        rate(nodes_per_second),
        eta_seconds.map_or("?".into(), duration)
    )
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
    use indicatif::TermLike;
    use std::sync::{Arc, Mutex};

    /// A terminal of 80 columns that keeps what is drawn on it, line by
    /// line (a line ends at a newline or where it is cleared).
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<Vec<String>>>);

    impl Screen {
        fn add(&self, s: &str, end: bool) {
            let mut lines = self.0.lock().unwrap();
            if lines.is_empty() {
                lines.push(String::new());
            }
            lines.last_mut().unwrap().push_str(s);
            if end {
                lines.push(String::new());
            }
        }
    }

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            COLUMNS as u16
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.add(s, true);
            Ok(())
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.add(s, false);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.add("", true);
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// What `bar` draws last, once `set` has been applied.
    fn drawn(
        make: impl Fn(ProgressDrawTarget) -> ProgressBar,
        set: impl Fn(&ProgressBar),
    ) -> String {
        let screen = Screen::default();
        let bar = make(ProgressDrawTarget::term_like(Box::new(screen.clone())));
        set(&bar);
        bar.abandon();
        let lines = screen.0.lock().unwrap();
        // every line drawn fits, not only the last
        for l in lines.iter() {
            assert!(columns(l) <= COLUMNS, "{l:?}");
        }
        lines
            .iter()
            .rfind(|l| !l.trim().is_empty())
            .cloned()
            .unwrap_or_default()
    }

    fn columns(s: &str) -> usize {
        s.chars().count()
    }

    #[test]
    fn numbers_are_plain_and_rounded() {
        assert_eq!(rate(791.3741), "791");
        assert_eq!(rate(0.4), "0");
        assert_eq!(rate(9_999.4), "9999");
        assert_eq!(rate(12_345.0), "12.3k");
        assert_eq!(rate(4_567_890.0), "4.57M");
        assert_eq!(rate(999_999.0), "1.00M");
        assert_eq!(rate(123_456_789.0), "123M");
        assert_eq!(rate(f64::NAN), "?");
        assert_eq!(duration(0.4), "0 s");
        assert_eq!(duration(42.0), "42 s");
        assert_eq!(duration(725.0), "12m 05s");
        assert_eq!(duration(3.0 * 3600.0 + 7.0 * 60.0), "3h 07m");
        assert_eq!(duration(1e9), "11574d 01h");
        assert_eq!(
            search_message(1, 12_345_678.9, Some(61.0)),
            "1 solution, 12.3M nodes/s, eta 1m 01s"
        );
        assert_eq!(
            search_message(92, 791.3, None),
            "92 solutions, 791 nodes/s, eta ?"
        );
    }

    /// Every bar fits in 80 columns, with its message whole for ordinary
    /// numbers, and cut (never wrapped) for huge ones.
    #[test]
    fn bars_fit_80_columns() {
        let ordinary = search_message(14_200, 45_600_000.0, Some(3.0 * 3600.0 + 400.0));
        let line = drawn(search_bar, |b| {
            b.set_position(523);
            b.set_message(ordinary.clone());
        });
        assert!(columns(&line) <= COLUMNS, "{line:?}");
        assert!(line.contains(" 52% "), "{line:?}");
        assert!(line.trim_end().ends_with(&ordinary), "{line:?}");
        let huge = search_message(u64::MAX, 1e15, Some(1e12));
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
