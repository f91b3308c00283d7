//! What an installation needs besides the binary: shell completions
//! (`dancer completions SHELL`) and the man page (`dancer man`).

use assert_cmd::Command;

fn dancer() -> Command {
    Command::cargo_bin("dancer").unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = dancer().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "dancer {args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The commands every completion script and the man page must know.
const COMMANDS: &[&str] = &[
    "solve",
    "merge",
    "gen",
    "example",
    "sudoku",
    "poly",
    "completions",
    "man",
];

#[test]
fn completions_for_every_shell_know_the_commands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&["completions", shell]);
        assert!(script.len() > 1000, "{shell}: {} bytes", script.len());
        for cmd in COMMANDS {
            assert!(script.contains(cmd), "{shell}: no {cmd}");
        }
        // flags of subcommands too
        assert!(script.contains("checkpoint"), "{shell}: no --checkpoint");
    }
    // the bash script is valid bash, when there is a bash to ask
    if let Ok(bash) = which("bash") {
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), stdout(&["completions", "bash"])).unwrap();
        let ok = std::process::Command::new(bash)
            .arg("-n")
            .arg(f.path())
            .status()
            .unwrap();
        assert!(ok.success(), "bash -n refuses the completion script");
    }
    dancer().args(["completions", "tcsh"]).assert().code(2);
    dancer().args(["completions"]).assert().code(2);
}

#[test]
fn the_man_page_is_roff() {
    let page = stdout(&["man"]);
    assert!(
        page.starts_with(".TH dancer 1"),
        "{}",
        &page[..80.min(page.len())]
    );
    for section in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH DESCRIPTION",
        ".SH SUBCOMMANDS",
    ] {
        assert!(page.contains(section), "no {section}");
    }
    for cmd in COMMANDS {
        assert!(page.contains(&format!("dancer\\-{cmd}(1)")), "no {cmd}");
    }
    // the exit codes, from the one table
    let exit = &page[page
        .find(".SH \"EXIT STATUS\"")
        .expect("an EXIT STATUS section")..];
    for code in ["0", "1", "2", "130"] {
        assert!(
            exit.contains(&format!(".TP\n{code}\n")),
            "no exit code {code}"
        );
    }
    // groff reads it without a warning, when it is there
    if let Ok(groff) = which("groff") {
        let mut child = std::process::Command::new(groff)
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(page.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        let warnings = String::from_utf8_lossy(&out.stderr);
        assert!(warnings.is_empty(), "groff: {warnings}");
    }
}

#[test]
fn man_dir_writes_a_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = dancer()
        .args(["man", "--dir"])
        .arg(dir.path().join("man1"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    for page in [
        "dancer.1",
        "dancer-solve.1",
        "dancer-merge.1",
        "dancer-sudoku-solve.1",
        "dancer-poly-solve.1",
        "dancer-man.1",
    ] {
        let text = std::fs::read_to_string(dir.path().join("man1").join(page))
            .unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(text.starts_with(".TH "), "{page}");
    }
    let solve = std::fs::read_to_string(dir.path().join("man1/dancer-solve.1")).unwrap();
    assert!(solve.contains("checkpoint"));
    let n = std::fs::read_dir(dir.path().join("man1")).unwrap().count();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with(&format!("{n} pages in ")), "{err}");
}

/// A program on the PATH.
fn which(name: &str) -> Result<std::path::PathBuf, ()> {
    let path = std::env::var_os("PATH").ok_or(())?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or(())
}
