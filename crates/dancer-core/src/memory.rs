//! # The memory this process may really use
//!
//! Caches and tables that grow with the work (the memos of
//! [`crate::memo`], the counts of a [`crate::zdd::Zdd`]) must be sized by
//! the memory the process can get, not by the machine's: a process under
//! `ulimit -v`, in a container or in a Slurm job whose cgroup has a
//! `memory.max` is killed or aborted long before the machine's memory is
//! used up. Every allocation failure in Rust aborts the process (exit 134),
//! so a table that would outgrow the limit must be refused or kept smaller
//! *before* it is allocated.
//!
//! [`Limits::read`] gathers, on Linux, from files only (no system calls
//! beyond reading them):
//!
//! * `MemTotal` and `MemAvailable` of `/proc/meminfo`: the machine's memory
//!   and what it can give without swapping;
//! * the address-space limit (`RLIMIT_AS`, what `ulimit -v` sets) from
//!   `/proc/self/limits`, less what the process has mapped already
//!   (`VmSize` of `/proc/self/status`);
//! * the memory controller of the process's cgroup, version 2
//!   (`memory.max` less `memory.current`) or version 1
//!   (`memory.limit_in_bytes` less `memory.usage_in_bytes`), at the
//!   cgroup and each of its ancestors (the tightest one counts).
//!
//! [`Limits::headroom`] is the least of what is left under each of them;
//! on other systems, or where nothing can be read, it is `None` and callers
//! fall back to a fixed default. The parsers are pure functions of the
//! files' text, tested on their own.
//!
//! A size a user gives (a cache's, `2GiB`) is read by [`parse_size`]: one
//! rule for every front end.

use crate::ValueError;
use std::path::{Path, PathBuf};

/// What the process may use, as far as it could be read (each `None` when
/// unknown or unlimited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The machine's memory (`MemTotal`).
    pub total: Option<u64>,
    /// What the machine can still give (`MemAvailable`).
    pub available: Option<u64>,
    /// Address space left under `RLIMIT_AS` (`ulimit -v`).
    pub address_space_left: Option<u64>,
    /// Memory left under the tightest cgroup limit.
    pub cgroup_left: Option<u64>,
}

impl Limits {
    /// The limits of this process now (see the module's prose).
    pub fn read() -> Limits {
        Limits::read_from(Path::new("/"))
    }

    /// [`Limits::read`] with the files under `root` (tests give a folder
    /// of their own).
    pub fn read_from(root: &Path) -> Limits {
        let read = |p: &str| std::fs::read_to_string(root.join(p)).ok();
        let meminfo = read("proc/meminfo");
        let total = meminfo
            .as_deref()
            .and_then(|t| meminfo_field(t, "MemTotal"));
        let available = meminfo
            .as_deref()
            .and_then(|t| meminfo_field(t, "MemAvailable"));
        let limit = read("proc/self/limits").and_then(|t| address_space_limit(&t));
        let used = read("proc/self/status").and_then(|t| status_field(&t, "VmSize"));
        let address_space_left = limit.map(|l| l.saturating_sub(used.unwrap_or(0)));
        let cgroup_left = read("proc/self/cgroup").and_then(|t| cgroup_left(root, &t));
        Limits {
            total,
            available,
            address_space_left,
            cgroup_left,
        }
    }

    /// The least of what is left under every limit known (`None` when none
    /// is known).
    pub fn headroom(&self) -> Option<u64> {
        [self.available, self.address_space_left, self.cgroup_left]
            .into_iter()
            .flatten()
            .min()
    }

    /// A cache's default size: `of_total` (0 to 1) of the machine's
    /// memory, but no more than `of_headroom` of the
    /// [`headroom`](Self::headroom) (the rest is for the work around the
    /// cache, and for the allocator: a cache of many counts of thousands
    /// of digits was measured at up to twice its own size in the
    /// process), and at least `floor`; `fallback` when nothing is known.
    pub fn cache_size(&self, of_total: f64, of_headroom: f64, floor: u64, fallback: u64) -> u64 {
        let of_total = self.total.map(|t| (t as f64 * of_total) as u64);
        let of_headroom = self.headroom().map(|h| (h as f64 * of_headroom) as u64);
        match (of_total, of_headroom) {
            (None, None) => fallback,
            (a, b) => a.into_iter().chain(b).min().unwrap_or(fallback).max(floor),
        }
    }
}

/// A `/proc/meminfo` field in bytes (`MemTotal:  24683792 kB`).
fn meminfo_field(text: &str, name: &str) -> Option<u64> {
    status_field(text, name)
}

/// A `NAME:  123 kB` field (of `/proc/meminfo` or `/proc/self/status`) in
/// bytes.
fn status_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.split(':').next() == Some(name))?;
    let mut words = line.split(':').nth(1)?.split_whitespace();
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => n.checked_mul(1024),
        None => Some(n),
        Some(_) => None,
    }
}

/// The soft address-space limit of `/proc/self/limits` (`Max address
/// space  4096000000  unlimited  bytes`), `None` when unlimited.
fn address_space_limit(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

/// A cgroup memory file's value: a number of bytes, `max` (v2) or a value
/// near 2^63 (v1's "no limit") as `None`.
fn cgroup_value(text: &str) -> Option<u64> {
    let t = text.trim();
    if t == "max" {
        return None;
    }
    t.parse::<u64>().ok().filter(|&v| v < 1 << 62)
}

/// What is left under the tightest memory limit of the cgroups named in
/// `/proc/self/cgroup` (`text`), version 2 (`0::/path`) or 1
/// (`N:memory:/path`), at the cgroup and every ancestor; the namespace's
/// own root files (a container sees its cgroup at the mount's root) too.
fn cgroup_left(root: &Path, text: &str) -> Option<u64> {
    let mut best: Option<u64> = None;
    let mut take = |limit: Option<u64>, usage: Option<u64>| {
        if let Some(l) = limit {
            let left = l.saturating_sub(usage.unwrap_or(0));
            best = Some(best.map_or(left, |b| b.min(left)));
        }
    };
    let read = |p: PathBuf| std::fs::read_to_string(p).ok();
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (base, max, current) = if controllers.is_empty() {
            (root.join("sys/fs/cgroup"), "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                root.join("sys/fs/cgroup/memory"),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )
        } else {
            continue;
        };
        for dir in ancestors(&base, path) {
            take(
                read(dir.join(max)).as_deref().and_then(cgroup_value),
                read(dir.join(current)).and_then(|t| t.trim().parse().ok()),
            );
        }
    }
    best
}

/// `base/a/b/c`, `base/a/b`, `base/a` and `base` for the cgroup path
/// `/a/b/c` (a `..` or other odd part stops the walk at `base`).
fn ancestors(base: &Path, path: &str) -> Vec<PathBuf> {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let mut dirs = vec![base.to_path_buf()];
    if parts.iter().all(|p| *p != ".." && *p != ".") {
        let mut d = base.to_path_buf();
        for p in parts {
            d = d.join(p);
            dirs.push(d.clone());
        }
    }
    dirs.reverse();
    dirs
}

/// A size in bytes: a whole number, optionally followed by K, M, G or T
/// (with or without `iB` or `B`: binary multiples all, 1K = 1024 bytes),
/// else [`ValueError::NotASize`], [`ValueError::UnknownUnit`] or
/// [`ValueError::SizeTooLarge`].
pub fn parse_size(s: &str) -> Result<u64, ValueError> {
    let t = s.trim();
    let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(ValueError::NotASize);
    }
    let n: u64 = t[..digits].parse().map_err(|_| ValueError::SizeTooLarge)?;
    let shift = match t[digits..].trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        unit => {
            let unit = unit.to_string();
            return Err(ValueError::UnknownUnit { unit });
        }
    };
    n.checked_mul(1 << shift).ok_or(ValueError::SizeTooLarge)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_proc_files() {
        let m = "MemTotal:       24683792 kB\nMemFree: 1 kB\nMemAvailable:   23879448 kB\n";
        assert_eq!(meminfo_field(m, "MemTotal"), Some(24683792 * 1024));
        assert_eq!(meminfo_field(m, "MemAvailable"), Some(23879448 * 1024));
        assert_eq!(meminfo_field(m, "Mem"), None);
        let l = "Limit                     Soft Limit           Hard Limit           Units     \n\
                 Max address space         4096000000           unlimited            bytes     \n";
        assert_eq!(address_space_limit(l), Some(4_096_000_000));
        let l = "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(l), None);
        assert_eq!(
            status_field("VmSize:\t    3892 kB\n", "VmSize"),
            Some(3892 * 1024)
        );
        assert_eq!(cgroup_value("max\n"), None);
        assert_eq!(cgroup_value("9223372036854771712\n"), None);
        assert_eq!(cgroup_value("536870912\n"), Some(512 << 20));
    }

    #[test]
    fn the_tightest_limit_counts() {
        let dir = std::env::temp_dir().join(format!("dancer-memory-{}", std::process::id()));
        let w = |p: &str, t: &str| {
            let p = dir.join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, t).unwrap();
        };
        w(
            "proc/meminfo",
            "MemTotal: 16777216 kB\nMemAvailable: 8388608 kB\n",
        );
        w(
            "proc/self/limits",
            "Max address space         4294967296           unlimited            bytes\n",
        );
        w("proc/self/status", "VmSize:\t 1048576 kB\n");
        w("proc/self/cgroup", "0::/job/step\n");
        w("sys/fs/cgroup/job/memory.max", "2147483648\n");
        w("sys/fs/cgroup/job/memory.current", "1073741824\n");
        w("sys/fs/cgroup/job/step/memory.max", "max\n");
        let l = Limits::read_from(&dir);
        assert_eq!(l.total, Some(16 << 30));
        assert_eq!(l.available, Some(8 << 30));
        assert_eq!(l.address_space_left, Some(3 << 30));
        assert_eq!(l.cgroup_left, Some(1 << 30));
        assert_eq!(l.headroom(), Some(1 << 30));
        // a quarter of 16 GiB, but a quarter of the headroom: 256 MiB
        assert_eq!(l.cache_size(0.25, 0.25, 1 << 20, 1 << 30), 256 << 20);
        assert_eq!(l.cache_size(0.25, 0.5, 1 << 20, 1 << 30), 512 << 20);
        assert_eq!(l.cache_size(0.01, 0.5, 1 << 20, 1 << 30), 171_798_691);
        // version 1
        w("proc/self/cgroup", "4:memory:/lxc/a\n3:cpu:/\n");
        w(
            "sys/fs/cgroup/memory/lxc/a/memory.limit_in_bytes",
            "805306368\n",
        );
        w(
            "sys/fs/cgroup/memory/lxc/a/memory.usage_in_bytes",
            "268435456\n",
        );
        w(
            "sys/fs/cgroup/memory/memory.limit_in_bytes",
            "9223372036854771712\n",
        );
        assert_eq!(Limits::read_from(&dir).cgroup_left, Some(512 << 20));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(Limits::read_from(&dir), Limits::default());
        assert_eq!(Limits::default().cache_size(0.25, 0.25, 1, 77), 77);
    }

    #[test]
    fn sizes_in_binary_multiples() {
        assert_eq!(parse_size("512"), Ok(512));
        assert_eq!(parse_size(" 2GiB "), Ok(2 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("3 kb"), Ok(3 << 10));
        assert_eq!(parse_size("1t"), Ok(1 << 40));
        assert_eq!(parse_size("G"), Err(ValueError::NotASize));
        let unit = "PB".to_string();
        assert_eq!(parse_size("1pb"), Err(ValueError::UnknownUnit { unit }));
        assert_eq!(parse_size("16777216T"), Err(ValueError::SizeTooLarge));
        assert_eq!(
            parse_size("99999999999999999999"),
            Err(ValueError::SizeTooLarge)
        );
    }
}
