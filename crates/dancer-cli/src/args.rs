//! Flags that several commands share, each parsed once into a typed value
//! (as ripgrep resolves its flags in one place): `--threads`, `--engine`,
//! `--json`, `--progress`, the rule for `--limit`, and the parser that turns a name into a value
//! of one of the libraries' enums (engines, symmetries), listing the names
//! in `--help` and in shell completions.

use clap::builder::{PossibleValue, TypedValueParser};
use clap::Args;
use dancer_core::EngineKind;
use std::ffi::OsStr;

/// `--threads N`: worker threads, 1 to 4 per core; all cores by default.
#[derive(Args, Clone, Debug)]
pub struct ThreadsArg {
    /// Worker threads, at most 4 per core (default: all cores)
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

impl ThreadsArg {
    /// The number of threads: as given, else one per core.
    pub fn get(&self) -> usize {
        self.threads.unwrap_or_else(dancer_core::parallel::cores)
    }

    /// Whether `--threads` was given.
    pub fn given(&self) -> bool {
        self.threads.is_some()
    }
}

/// The one rule for `--threads`: a whole number from 1 to
/// [`dancer_core::parallel::max_threads`] (4 per core: more only share the
/// same cores).
fn parse_threads(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        // one thread needs no look at the machine's cores
        Ok(1) => Ok(1),
        Ok(n) if n > dancer_core::parallel::max_threads() => Err(format!(
            "must be at most {} ({} per core, and this machine has {})",
            dancer_core::parallel::max_threads(),
            dancer_core::parallel::THREADS_PER_CORE,
            dancer_core::parallel::cores()
        )),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a whole number: {e}")),
    }
}

/// The one rule for `--limit`: a whole number, at least 1 (a limit of 0
/// would search nothing and report "none").
pub fn parse_limit(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a whole number: {e}")),
    }
}

/// A whole number from `lo` to `hi`; `unit` follows the bounds in the
/// message (`" bytes"`).
pub fn whole_in(s: &str, lo: usize, hi: usize, unit: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        Ok(_) => Err(format!("must be from {lo} to {hi}{unit}")),
        Err(e) => Err(format!("not a whole number: {e}")),
    }
}

/// A size in bytes: a whole number, optionally followed by K, M, G or T
/// (with or without `iB` or `B`: binary multiples all, 1K = 1024 bytes).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err("not a size: a whole number, then K, M, G or T (2GiB, 512M)".into());
    }
    let n: u64 = t[..digits]
        .parse()
        .map_err(|_| "too large a size".to_string())?;
    let shift = match t[digits..].trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        unit => {
            return Err(format!(
                "unknown unit {unit:?}: use K, M, G or T (2GiB, 512M)"
            ))
        }
    };
    n.checked_mul(1 << shift)
        .ok_or_else(|| "too large a size".to_string())
}

/// The most seconds a flag takes (about 31 years).
pub const MAX_SECONDS: f64 = 1e9;

/// A number of seconds: finite, above 0, at most [`MAX_SECONDS`].
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_nan() => Err("not a number of seconds".into()),
        Ok(x) if x <= 0.0 => Err("must be a number of seconds above 0".into()),
        Ok(x) if x > MAX_SECONDS => Err(format!(
            "must be at most {MAX_SECONDS:.0} seconds (about 31 years)"
        )),
        Ok(x) => Ok(x),
        Err(e) => Err(format!("not a number: {e}")),
    }
}

/// `--engine` for exact cover: auto (the default), dlx, dlxm, bitset,
/// bitmrv.
#[derive(Args, Clone, Debug)]
pub struct EngineArg {
    /// Search engine: auto (the one whose estimated tree costs least), dlx
    /// (Knuth's, step for step), dlxm (multiplicities), bitset (packings of
    /// up to 512 items), bitmrv (Knuth's rule on bitmaps: colours and
    /// multiplicities too)
    #[arg(long, default_value = "auto", value_parser = Named::new(EngineKind::NAMES, |s| s.parse::<EngineKind>().map_err(|e| e.to_string())))]
    pub engine: EngineKind,
}

/// `--json`: NDJSON on standard output.
#[derive(Args, Clone, Copy, Debug)]
pub struct JsonArg {
    /// Print NDJSON: one record per line (every record is documented in
    /// dancer_formats::ndjson)
    #[arg(long)]
    pub json: bool,
}

/// `--progress`: how a long search reports on standard error.
#[derive(Args, Clone, Copy, Debug)]
pub struct ProgressArg {
    /// Progress on standard error: auto (a bar, when it is a terminal), json (NDJSON lines), none
    #[arg(long, value_enum, default_value = "auto")]
    pub progress: ProgressMode,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressMode {
    Auto,
    Json,
    None,
}

/// Parses a name into one of a library's values (with the library's own
/// message for an unknown name), and tells clap the names for `--help`.
#[derive(Clone)]
pub struct Named<T> {
    names: &'static [&'static str],
    parse: fn(&str) -> Result<T, String>,
}

impl<T> Named<T> {
    pub fn new(names: &'static [&'static str], parse: fn(&str) -> Result<T, String>) -> Self {
        Named { names, parse }
    }
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let flag = arg
            .and_then(|a| a.get_long())
            .map_or(String::new(), |l| format!("--{l}: "));
        let s = value.to_str().ok_or_else(|| {
            clap::Error::raw(
                clap::error::ErrorKind::InvalidUtf8,
                format!("{flag}not UTF-8\n"),
            )
            .with_cmd(cmd)
        })?;
        (self.parse)(s).map_err(|msg| {
            clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!("{flag}{msg}\n"),
            )
            .with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(PossibleValue::new)))
    }
}
