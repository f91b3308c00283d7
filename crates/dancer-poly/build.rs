//! Embeds the catalogue: every `catalogue/<grid>/<name>.toml` file, as a
//! list of (path, text) that `src/catalog.rs` includes.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // read when the script runs, not baked in when it is built: worktrees
    // sharing a target folder share this script's binary
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("catalogue");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    for grid in std::fs::read_dir(&root).expect("the catalogue folder") {
        let grid = grid.expect("a catalogue entry").path();
        println!("cargo:rerun-if-changed={}", grid.display());
        if !grid.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&grid).expect("a grid folder") {
            let f = f.expect("a catalogue file").path();
            if f.extension().is_some_and(|e| e == "toml") {
                files.push(f);
            }
        }
    }
    files.sort();
    let mut out =
        String::from("/// Every catalogue file: its path under `catalogue/`, and its text.\n");
    out.push_str("pub(crate) static FILES: &[(&str, &str)] = &[\n");
    for f in &files {
        let rel = f.strip_prefix(&root).expect("under the catalogue");
        writeln!(
            out,
            "    ({:?}, include_str!({:?})),",
            rel.to_string_lossy(),
            f.to_string_lossy()
        )
        .expect("a string");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("catalogue.rs");
    std::fs::write(dest, out).expect("write the catalogue list");
}
