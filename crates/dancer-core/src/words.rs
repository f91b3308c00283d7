//! Numbers in messages, said one way wherever dancer says them (the
//! summaries of runs, progress bars, errors): a count before its noun
//! ([`plural`]), a rate rounded to three digits ([`rate`]), a duration
//! ([`duration`]), a size in bytes ([`bytes`]). Plain and rounded (`791
//! puzzles/s`, `3.2M nodes/s`, `eta 1h 05m`), never `791.3741/s`. A leaf:
//! it imports nothing of this crate, so that every module may use it.

/// A count and its noun, in the singular for exactly one: `plural(1,
/// "unit", "units")` is `1 unit`, `plural(0, "unit", "units")` is `0
/// units`. Every message of the workspace that prints a count before a
/// noun says it through this (the command line too), so that `1 units`
/// cannot come back.
///
/// ```
/// use dancer_core::plural;
/// assert_eq!(plural(1u64, "solution", "solutions"), "1 solution");
/// assert_eq!(plural(92usize, "solution", "solutions"), "92 solutions");
/// assert_eq!(plural(0, "time", "times"), "0 times");
/// ```
pub fn plural<N: std::fmt::Display>(n: N, one: &str, many: &str) -> String {
    let n = n.to_string();
    let noun = if n == "1" { one } else { many };
    format!("{n} {noun}")
}

/// A rate, rounded: `791`, `12.3k`, `4.57M`, `1.20G` (three significant
/// digits from ten thousand on); `?` for no number.
///
/// ```
/// use dancer_core::words::rate;
/// assert_eq!(rate(791.3741), "791");
/// assert_eq!(rate(4_567_890.0), "4.57M");
/// ```
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

/// A duration, short: `42 s`, `12m 05s`, `3h 07m`, `12d 03h`; `?` for no
/// number.
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

/// A size in bytes: `512 MiB` below a gibibyte, else `3.2 GiB`.
pub fn bytes(b: u64) -> String {
    if b >= 1 << 30 {
        format!("{:.1} GiB", b as f64 / f64::from(1 << 30))
    } else {
        format!("{} MiB", b >> 20)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(bytes(812 << 20), "812 MiB");
        assert_eq!(bytes(3 << 30), "3.0 GiB");
    }
}
