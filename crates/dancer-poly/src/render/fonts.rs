//! Fonts for the text of PNG pictures: resvg is built without its
//! `system-fonts` feature, so the usual system font folders are read here,
//! once per process, and a regular and a bold face of the first preferred
//! sans-serif family found are loaded (any sans-serif, or any font, when
//! none of them is there; none at all on a machine without fonts, and the
//! pictures come out without text).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use resvg::usvg::fontdb;

/// The fonts used for text in PNGs, found once per process.
pub(super) fn font_database() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS.get_or_init(|| Arc::new(load_fonts())).clone()
}

/// Sans-serif families to look for, as file names without separators.
const PREFERRED_FONTS: [&str; 12] = [
    "dejavusans",
    "liberationsans",
    "arial",
    "helvetica",
    "helveticaneue",
    "notosans",
    "roboto",
    "opensans",
    "freesans",
    "verdana",
    "ubuntu",
    "cantarell",
];

/// Loads a regular and a bold face of the first preferred family found in
/// the system font folders (or, failing that, a few other fonts). resvg is
/// built without its `system-fonts` feature, so the folders are read here.
fn load_fonts() -> fontdb::Database {
    let mut db = fontdb::Database::new();
    let mut files = Vec::new();
    for dir in font_dirs() {
        collect_font_files(&dir, 0, &mut files);
    }
    files.sort();
    files.dedup();
    let stem = |p: &PathBuf| -> String {
        p.file_stem()
            .map(|s| s.to_string_lossy().to_lowercase())
            .unwrap_or_default()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect()
    };
    let mut chosen: Vec<&PathBuf> = Vec::new();
    for family in PREFERRED_FONTS {
        let names = [
            family.to_string(),
            format!("{family}regular"),
            format!("{family}bold"),
            format!("{family}bd"),
        ];
        chosen = files.iter().filter(|p| names.contains(&stem(p))).collect();
        if !chosen.is_empty() {
            break;
        }
    }
    if chosen.is_empty() {
        let sans: Vec<&PathBuf> = files
            .iter()
            .filter(|p| {
                let s = stem(p);
                s.contains("sans") && !s.contains("mono")
            })
            .collect();
        chosen = if sans.is_empty() {
            files.iter().collect()
        } else {
            sans
        };
        chosen.truncate(4);
    }
    for path in chosen {
        let small = std::fs::metadata(path)
            .map(|md| md.len() <= 64 << 20)
            .unwrap_or(false);
        if let (true, Ok(data)) = (small, std::fs::read(path)) {
            db.load_font_data(data);
        }
    }
    let family = db
        .faces()
        .next()
        .and_then(|f| f.families.first())
        .map(|(name, _)| name.clone());
    if let Some(family) = family {
        db.set_sans_serif_family(family.clone());
        db.set_serif_family(family);
    }
    db
}

fn font_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = [
        "/usr/share/fonts",
        "/usr/local/share/fonts",
        "/usr/X11R6/lib/X11/fonts",
        "/System/Library/Fonts",
        "/Library/Fonts",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    if let Some(home) = std::env::var_os("HOME") {
        let home = PathBuf::from(home);
        dirs.push(home.join(".fonts"));
        dirs.push(home.join(".local/share/fonts"));
        dirs.push(home.join("Library/Fonts"));
    }
    if let Some(data) = std::env::var_os("XDG_DATA_HOME") {
        dirs.push(PathBuf::from(data).join("fonts"));
    }
    if let Some(windir) = std::env::var_os("WINDIR") {
        dirs.push(PathBuf::from(windir).join("Fonts"));
    }
    dirs
}

fn collect_font_files(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if depth < 5 {
                collect_font_files(&path, depth + 1, out);
            }
            continue;
        }
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if matches!(ext.as_str(), "ttf" | "otf" | "ttc" | "otc") {
            out.push(path);
        }
    }
}
