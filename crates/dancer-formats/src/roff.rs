//! Man pages in roff: the last touches to a page that a generator made
//! (clap_mangen's, in the command line). Its `.TH` title line goes first,
//! before anything else (clap_mangen puts its definition of the
//! apostrophe string before it), and an EXIT STATUS section, made of a
//! table of exit codes, goes before the VERSION section. The words are
//! the caller's; this module only writes them as roff.

/// `page` (roff) with its `.TH` line first and an `EXIT STATUS` section
/// of `exit_codes` (each code and what it means, as plain text) before its
/// `VERSION` section, or at its end when it has none; every line ends in
/// a newline.
pub fn man_page(page: &str, exit_codes: &[(u8, &str)]) -> String {
    let mut lines: Vec<&str> = page.lines().collect();
    if let Some(t) = lines.iter().position(|l| l.starts_with(".TH ")) {
        let title = lines.remove(t);
        lines.insert(0, title);
    }
    let mut exit = vec![".SH \"EXIT STATUS\"".to_string()];
    for (code, what) in exit_codes {
        exit.push(format!(".TP\n{code}\n{}", text(what)));
    }
    let at = lines
        .iter()
        .position(|l| l.starts_with(".SH VERSION"))
        .unwrap_or(lines.len());
    let exit = exit.join("\n");
    lines.insert(at, &exit);
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// Plain text for a roff paragraph: backslashes and hyphens escaped, no
/// line starting with a control character.
fn text(s: &str) -> String {
    let s = s.replace('\\', "\\e").replace('-', "\\-");
    if s.starts_with('.') || s.starts_with('\'') {
        format!("\\&{s}")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_first_and_the_exit_status_before_the_version() {
        let page = ".ie \\n(.g .ds Aq \\(aq\n.TH dancer 1\n.SH NAME\ndancer\n.SH VERSION\nv1\n";
        let codes = [(0, "found -- all"), (2, ".dot \\ slash")];
        let made = man_page(page, &codes);
        let want = ".TH dancer 1\n.ie \\n(.g .ds Aq \\(aq\n.SH NAME\ndancer\n\
                    .SH \"EXIT STATUS\"\n.TP\n0\nfound \\-\\- all\n.TP\n2\n\\&.dot \\e slash\n\
                    .SH VERSION\nv1\n";
        assert_eq!(made, want);
        let none = man_page(".TH x 1\n", &[(1, "none")]);
        assert_eq!(none, ".TH x 1\n.SH \"EXIT STATUS\"\n.TP\n1\nnone\n");
    }
}
