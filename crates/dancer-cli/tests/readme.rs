//! Every `dancer` command README.md shows runs as written: each line of its
//! `sh` blocks that starts with `dancer` and names no placeholder (`FILE`,
//! `PUZZLE`, `N`, ...: words in capitals, or a `[...]` choice) is run by
//! `sh` with the built binary first on `PATH`, in a scratch folder where
//! `../shared` is the shared data (when there is one) and `scott.toml` is
//! the README's own puzzle file. It must end 0 or 1 (found or none), say no
//! error and not panic. (`mkdir` lines run too: the folders later
//! commands write into. A block with commands continued over lines, a
//! recipe for a batch system, is shown, not run.)

use std::path::{Path, PathBuf};
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap()
}

/// The lines of the README's blocks of `lang`.
fn blocks(text: &str, lang: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut cur: Option<Vec<String>> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(c) = cur.as_mut() {
            if t.starts_with("```") {
                out.push(cur.take().unwrap());
            } else {
                c.push(line.to_string());
            }
        } else if t.strip_prefix("```") == Some(lang) {
            cur = Some(Vec::new());
        }
    }
    out
}

/// The command of a line, without its comment (`  # ...` after it).
fn command(line: &str) -> &str {
    match line.find("  #") {
        Some(i) => line[..i].trim(),
        None => line.trim(),
    }
}

/// A placeholder: a word of two or more capitals (`FILE`, `PUZZLES.txt`),
/// a lone `N`, or a `[...]` choice.
fn has_placeholder(cmd: &str) -> bool {
    cmd.contains('[')
        || cmd.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
            w == "N" || (w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
        })
}

#[test]
fn every_dancer_command_in_the_readme_runs() {
    let text = readme();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_dancer"));
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    let have_shared = shared.join("data").is_dir();
    if have_shared {
        std::os::unix::fs::symlink(shared.canonicalize().unwrap(), dir.path().join("shared"))
            .unwrap();
    }
    let toml = blocks(&text, "toml");
    assert!(!toml.is_empty(), "the README shows a puzzle file");
    std::fs::write(work.join("scott.toml"), toml[0].join("\n")).unwrap();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    let mut skipped = Vec::new();
    for block in blocks(&text, "sh") {
        // a recipe for a batch system, its commands over several lines and
        // its variables set by the system: shown, not run here
        if block.iter().any(|l| l.trim_end().ends_with('\\')) {
            skipped.extend(block.iter().map(|l| command(l).to_string()));
            continue;
        }
        for line in &block {
            let cmd = command(line);
            if cmd.starts_with("mkdir ") {
                // the folders a later command writes into
                let ok = Command::new("sh")
                    .arg("-c")
                    .arg(cmd)
                    .current_dir(&work)
                    .env("HOME", dir.path())
                    .status()
                    .unwrap();
                assert!(ok.success(), "{cmd}");
                continue;
            }
            if !cmd.starts_with("dancer ") {
                continue;
            }
            if has_placeholder(cmd) || cmd.contains("man -l") {
                skipped.push(cmd.to_string());
                continue;
            }
            if cmd.contains("../shared") && !have_shared {
                skipped.push(cmd.to_string());
                continue;
            }
            let out = Command::new("sh")
                .arg("-c")
                .arg(cmd)
                .current_dir(&work)
                .env("PATH", &path)
                .env("HOME", dir.path())
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{cmd}: exit {:?}\n{err}",
                out.status.code()
            );
            assert!(
                !err.contains("panicked") && !err.contains("error:"),
                "{cmd}: {err}"
            );
            ran += 1;
        }
    }
    dancer_testdata::say(&format!(
        "README: {ran} commands ran; {} with placeholders or needing what is not here: {skipped:#?}",
        skipped.len()
    ));
    assert!(ran >= 20, "only {ran} commands ran");
}
