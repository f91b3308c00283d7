//! `dancer completions SHELL` and `dancer man`: what an installation needs
//! besides the binary, made from the command line's own definition (so
//! they always list the commands and flags there are).

use crate::output::{Found, Out, EXIT_CODES};
use anyhow::Result;
use clap::Args;
use clap_complete::Shell;
use std::io::Write;
use std::path::PathBuf;

pub const COMPLETIONS_ABOUT: &str = include_str!("../help/completions.txt").trim_ascii_end();

pub const MAN_ABOUT: &str = include_str!("../help/man.txt").trim_ascii_end();

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
            let mut pages = Vec::new();
            collect_pages(&cmd, &mut pages)?;
            let n = dancer_formats::out_file::write_into(&dir, pages)?;
            eprintln!(
                "{} in {}",
                dancer_core::plural(n, "page", "pages"),
                dir.display()
            );
        }
    }
    Ok(Found::Some)
}

/// The page of `cmd` and of each of its subcommands (theirs first), each
/// with its file's name (`dancer-solve.1`).
fn collect_pages(cmd: &clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect_pages(sub, pages)?;
    }
    let name = format!("{}.1", cmd.get_display_name().unwrap_or(cmd.get_name()));
    let mut page = Vec::new();
    render(cmd, &mut page)?;
    pages.push((name, page));
    Ok(())
}

/// One page: clap_mangen's, with the `.TH` title line first and an EXIT
/// STATUS section (from the one table of exit codes) in place of the EXTRA
/// section it would make of the exit codes after `--help`
/// ([`dancer_formats::roff::man_page`]).
fn render(cmd: &clap::Command, w: &mut dyn Write) -> std::io::Result<()> {
    let cmd = cmd
        .clone()
        .after_help(None::<&str>)
        .after_long_help(None::<&str>);
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut page)?;
    let page = String::from_utf8(page).expect("clap_mangen writes UTF-8");
    w.write_all(dancer_formats::roff::man_page(&page, EXIT_CODES).as_bytes())
}
