//! Rebuild when a file of the page changes (the whole folder is embedded).
fn main() {
    println!("cargo:rerun-if-changed=assets");
}
