//! `dancer completions SHELL` and `dancer man`: what an installation needs
//! besides the binary, made from the command line's own definition (so
//! they always list the commands and flags there are).

use crate::output::{Found, Out, EXIT_CODES};
use anyhow::{Context, Result};
use clap::Args;
use clap_complete::Shell;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const COMPLETIONS_ABOUT: &str = "\
Print a shell completion script for dancer to standard output.

Install it where your shell looks for completions, e.g.:
  bash:       dancer completions bash > ~/.local/share/bash-completion/completions/dancer
  zsh:        dancer completions zsh > ~/.zfunc/_dancer   (with fpath+=~/.zfunc before compinit)
  fish:       dancer completions fish > ~/.config/fish/completions/dancer.fish
  elvish:     dancer completions elvish >> ~/.config/elvish/rc.elv
  powershell: dancer completions powershell >> $PROFILE";

pub const MAN_ABOUT: &str = "\
Print the man page of dancer (roff) to standard output, or, with --dir, write
one page per command into a folder: dancer.1, dancer-solve.1,
dancer-sudoku-solve.1, ...

Read it at once with `dancer man | man -l -`, or install the pages:
  dancer man --dir ~/.local/share/man/man1   (then `man dancer`, `man dancer-solve`)";

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Args)]
pub struct ManArgs {
    /// Write every page (dancer.1 and one per subcommand) into DIR, created
    /// if needed, instead of printing the main page
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn completions(args: CompletionsArgs, out: &mut Out) -> Result<Found> {
    let mut cmd = crate::command();
    clap_complete::generate(args.shell, &mut cmd, "dancer", out);
    Ok(Found::Some)
}

pub fn man(args: ManArgs, out: &mut Out) -> Result<Found> {
    let mut cmd = crate::command().disable_help_subcommand(true);
    cmd.build();
    match args.dir {
        None => render(&cmd, out)?,
        Some(dir) => {
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            let n = write_pages(&cmd, &dir)?;
            eprintln!(
                "{} in {}",
                crate::output::plural(n, "page", "pages"),
                dir.display()
            );
        }
    }
    Ok(Found::Some)
}

/// Writes the page of `cmd` and of each of its subcommands into `dir`;
/// returns how many.
fn write_pages(cmd: &clap::Command, dir: &Path) -> Result<usize> {
    let mut n = 0;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        n += write_pages(sub, dir)?;
    }
    let name = format!("{}.1", cmd.get_display_name().unwrap_or(cmd.get_name()));
    let path = dir.join(name);
    let mut page = Vec::new();
    render(cmd, &mut page)?;
    dancer_formats::out_file::OutFile::new(&path, dancer_formats::out_file::OutKind::Product, &[])?
        .write(&page)?;
    Ok(n + 1)
}

/// One page: clap_mangen's, with the `.TH` title line first (before its
/// definition of the apostrophe string), and an EXIT STATUS section (from
/// the one table of exit codes) in place of the EXTRA section it would
/// make of the exit codes after `--help`.
fn render(cmd: &clap::Command, w: &mut dyn Write) -> std::io::Result<()> {
    let cmd = cmd
        .clone()
        .after_help(None::<&str>)
        .after_long_help(None::<&str>);
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut page)?;
    let page = String::from_utf8(page).expect("clap_mangen writes UTF-8");
    let mut lines: Vec<&str> = page.lines().collect();
    if let Some(t) = lines.iter().position(|l| l.starts_with(".TH ")) {
        let title = lines.remove(t);
        lines.insert(0, title);
    }
    let mut exit = vec![".SH \"EXIT STATUS\"".to_string()];
    for (code, what) in EXIT_CODES {
        exit.push(format!(".TP\n{code}\n{}", roff_text(what)));
    }
    let at = lines
        .iter()
        .position(|l| l.starts_with(".SH VERSION"))
        .unwrap_or(lines.len());
    let exit = exit.join("\n");
    lines.insert(at, &exit);
    for l in lines {
        writeln!(w, "{l}")?;
    }
    Ok(())
}

/// Plain text for a roff paragraph: backslashes and hyphens escaped, no
/// line starting with a control character.
fn roff_text(s: &str) -> String {
    let s = s.replace('\\', "\\e").replace('-', "\\-");
    if s.starts_with('.') || s.starts_with('\'') {
        format!("\\&{s}")
    } else {
        s
    }
}
