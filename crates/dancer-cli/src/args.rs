//! Flags that several commands share, each parsed once into a typed value
//! (as ripgrep resolves its flags in one place): `--threads`, `--engine`,
//! `--json`, `--progress`, the rule for `--limit`, and the parser that turns a name into a value
//! of one of the libraries' enums (engines, symmetries), listing the names
//! in `--help` and in shell completions.

use clap::builder::{PossibleValue, TypedValueParser};
use clap::Args;
use dancer_core::{EngineKind, ValueError};
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

/// `--threads`: a whole number, as [`dancer_core::parallel::threads_allowed`]
/// allows (1 to 4 per core: more only share the same cores).
fn parse_threads(s: &str) -> Result<usize, String> {
    let n = s
        .parse::<usize>()
        .map_err(|e| format!("not a whole number: {e}"))?;
    dancer_core::parallel::threads_allowed(n).map_err(|e| match e {
        ValueError::TooManyThreads {
            max,
            per_core,
            cores,
            ..
        } => {
            format!("must be at most {max} ({per_core} per core, and this machine has {cores})")
        }
        _ => "must be at least 1".into(),
    })
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
/// (see [`dancer_core::memory::parse_size`], whose messages these are).
pub fn parse_size(s: &str) -> Result<u64, String> {
    dancer_core::memory::parse_size(s).map_err(|e| e.to_string())
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
