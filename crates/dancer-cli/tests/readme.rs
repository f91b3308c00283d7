//! Every `dancer` command the README, the guide (`docs/`, its chapters in
//! the order of the README's table) and CONTRIBUTING.md show runs as
//! written, read as one text in that order: each line of their
//! `sh` blocks that starts with `dancer` and names no placeholder (`FILE`,
//! `PUZZLE`, `N`, ...: words in capitals, or a `[...]` choice) is run by
//! `sh` with the built binary first on `PATH`, in a scratch folder where
//! `../shared` is the shared data (when there is one) and `scott.toml` is
//! the README's own puzzle file. It must end 0 or 1 (found or none), say no
//! error and not panic. (`mkdir` and `printf` lines run too: the folders
//! and files later commands use; and a `for` loop over `dancer` commands. A block with commands continued over lines, a
//! recipe for a batch system, is shown, not run.) A `dancer serve` line
//! runs until it says where it serves, then gets SIGINT (Ctrl-C) and must
//! stop cleanly, with exit 0. (`dancer slurm` lines need a Slurm:
//! tests/slurm.rs runs the README's Slurm recipe as written, on one.)

use std::path::{Path, PathBuf};
use std::process::Command;

/// The README, then the guide's chapters in the order of the README's
/// table of them (`](docs/NAME.md)`), then CONTRIBUTING.md, as one text.
fn readme() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let read = |name: &str| {
        std::fs::read_to_string(root.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let mut text = read("README.md");
    let chapters: Vec<String> = text
        .split("](docs/")
        .skip(1)
        .filter_map(|s| s.split_once(')').map(|(name, _)| name.to_string()))
        .filter(|name| name.ends_with(".md"))
        .collect();
    assert!(chapters.len() >= 9, "the README lists the guide's chapters");
    let on_disk = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".md") && n != "README.md")
        .count();
    assert_eq!(
        chapters.len(),
        on_disk,
        "every chapter of docs/ is in the README's table"
    );
    for c in &chapters {
        text += "\n";
        text += &read(&format!("docs/{c}"));
    }
    text + "\n" + &read("CONTRIBUTING.md")
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
    // the further puzzle files, each named on its first line (# NAME.toml)
    for block in &toml[1..] {
        let name = block.first().and_then(|l| l.strip_prefix("# "));
        let name = name.filter(|n| n.ends_with(".toml") && !n.contains('/'));
        let name = name.unwrap_or_else(|| panic!("a puzzle file without its name: {block:?}"));
        std::fs::write(work.join(name), block.join("\n")).unwrap();
    }
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
            if cmd.starts_with("mkdir ") || cmd.starts_with("printf ") {
                // the folders a later command writes into, the files it reads
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
            let looped = cmd.starts_with("for ") && cmd.contains("; do dancer ");
            if !cmd.starts_with("dancer ") && !looped {
                continue;
            }
            // the Slurm recipe needs a Slurm: tests/slurm.rs runs it as
            // written, on one
            if has_placeholder(cmd) || cmd.contains("man -l") || cmd.starts_with("dancer slurm") {
                skipped.push(cmd.to_string());
                continue;
            }
            if cmd.contains("../shared") && !have_shared {
                skipped.push(cmd.to_string());
                continue;
            }
            if cmd.starts_with("dancer serve") {
                serve(cmd, &work, &path, dir.path());
                ran += 1;
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

/// Runs a `dancer serve` line until it serves, then stops it as Ctrl-C
/// does: it must say where it serves, answer there, and end with 0.
fn serve(cmd: &str, work: &Path, path: &str, home: &Path) {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::time::{Duration, Instant};
    // exec: the signal goes to dancer itself, not to a shell around it
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec {cmd}"))
        .current_dir(work)
        .env("PATH", path)
        .env("HOME", home)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !said.contains("serving on") && Instant::now() < deadline {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        said.push_str(&line);
    }
    let url = said
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| {
            let _ = child.kill();
            panic!("{cmd}: it does not say where it serves:\n{said}")
        })
        .to_string();
    // the page is there
    let hostport = url.trim_start_matches("http://").trim_end_matches('/');
    let mut conn = std::net::TcpStream::connect(hostport).unwrap();
    write!(
        conn,
        "GET /api/health HTTP/1.1\r\nHost: {hostport}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    conn.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{cmd}: {answer}");
    // SAFETY: kill(2) on our child's pid with a valid signal number.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0, "SIGINT sent");
    let stop = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > stop {
            let _ = child.kill();
            panic!("{cmd}: still running 10 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut rest = String::new();
    let _ = err.read_to_string(&mut rest);
    said.push_str(&rest);
    assert_eq!(status.code(), Some(0), "{cmd}: after Ctrl-C:\n{said}");
    assert!(
        !said.contains("panicked") && !said.contains("error:"),
        "{cmd}: {said}"
    );
}
