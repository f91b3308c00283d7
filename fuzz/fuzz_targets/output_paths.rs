//! Output paths, as every file `dancer` writes goes through
//! `dancer_formats::out_file::OutFile`: a small folder made from the input
//! (regular files, folders, links to other entries, links to nothing,
//! links in a circle, FIFOs, a link to `/dev/null`), a path to write (one
//! of them, a new name, or a name in a folder that does not exist), a kind
//! (a state file read back later, or a product), some entries as the run's
//! inputs, and the bytes to write.
//!
//! * A path whose links lead to an input, to a folder, round a circle, or
//!   (for a state file) to anything but a regular file or nothing, is
//!   refused, and nothing in the folder changes.
//! * Otherwise the bytes land in the file the links lead to (created when
//!   there was none), a link stays a link with the same target, every other
//!   entry keeps its type, content and target, and no temporary file is
//!   left. (A FIFO is only checked, not written: nobody reads it.)
#![no_main]

use dancer_formats::out_file::{OutFile, OutKind};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

const ENTRIES: usize = 6;

/// What an entry of the folder is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Entry {
    File(Vec<u8>),
    Folder,
    Link(String),
    Fifo,
}

/// Every entry of `dir`, as it is now.
fn snapshot(dir: &Path) -> BTreeMap<String, Entry> {
    let mut m = BTreeMap::new();
    for e in std::fs::read_dir(dir).expect("the folder reads") {
        let e = e.expect("an entry");
        let name = e.file_name().to_string_lossy().into_owned();
        let p = e.path();
        let t = std::fs::symlink_metadata(&p).expect("metadata").file_type();
        let entry = if t.is_symlink() {
            Entry::Link(
                std::fs::read_link(&p)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            )
        } else if t.is_dir() {
            Entry::Folder
        } else if t.is_file() {
            Entry::File(std::fs::read(&p).expect("a file reads"))
        } else {
            Entry::Fifo
        };
        m.insert(name, entry);
    }
    m
}

/// Where writing `name` lands, following links the way the kernel does:
/// `Ok(name)` of the final entry (in the folder, or `/dev/null`), `Err` for
/// a circle.
fn follow(world: &BTreeMap<String, Entry>, name: &str) -> Result<String, ()> {
    let mut n = name.to_string();
    for _ in 0..40 {
        match world.get(&n) {
            Some(Entry::Link(t)) if t == "/dev/null" => return Ok(t.clone()),
            Some(Entry::Link(t)) => n = t.clone(),
            _ => return Ok(n),
        }
    }
    Err(())
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).expect("no NUL");
    // SAFETY: `c` is a NUL-terminated path that lives across the call.
    let r = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(r, 0, "mkfifo {}", p.display());
}

fuzz_target!(|data: &[u8]| {
    if data.len() < ENTRIES + 3 || data.len() > 512 {
        return;
    }
    static N: AtomicU64 = AtomicU64::new(0);
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "dancer-fuzz-out-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let name = |i: usize| format!("e{i}");
    for (i, &b) in data[..ENTRIES].iter().enumerate() {
        let p = dir.join(name(i));
        let other = usize::from(b >> 3) % ENTRIES;
        match b % 7 {
            0 | 1 => std::fs::write(&p, format!("old {i}")).unwrap(),
            2 => std::fs::create_dir(&p).unwrap(),
            3 => std::os::unix::fs::symlink(name(other), &p).unwrap(),
            4 => std::os::unix::fs::symlink(format!("none{other}"), &p).unwrap(),
            5 => mkfifo(&p),
            _ => std::os::unix::fs::symlink("/dev/null", &p).unwrap(),
        }
    }
    let pick = data[ENTRIES];
    let target = match pick % 8 {
        6 => "new".to_string(),
        7 => "no/such".to_string(),
        k => name(usize::from(k) % ENTRIES),
    };
    let kind = if pick & 0x80 != 0 {
        OutKind::State
    } else {
        OutKind::Product
    };
    let input_bits = data[ENTRIES + 1];
    let inputs: Vec<PathBuf> = (0..ENTRIES)
        .filter(|i| input_bits >> i & 1 == 1)
        .map(|i| dir.join(name(i)))
        .collect();
    let inputs: Vec<(&Path, &str)> = inputs.iter().map(|p| (p.as_path(), "an input")).collect();
    let bytes = &data[ENTRIES + 2..];

    let before = snapshot(&dir);
    let landing = follow(&before, &target);
    // what the path leads to, and whether it must be refused
    let final_entry = landing.as_ref().ok().and_then(|n| before.get(n));
    let to_device = landing.as_deref() == Ok("/dev/null");
    let input_landings: Vec<String> = (0..ENTRIES)
        .filter(|i| input_bits >> i & 1 == 1)
        .filter_map(|i| follow(&before, &name(i)).ok())
        .filter(|n| n == "/dev/null" || before.contains_key(n))
        .collect();
    let must_refuse = landing.is_err()
        || target == "no/such"
        || matches!(&landing, Ok(n) if input_landings.contains(n))
        || matches!(final_entry, Some(Entry::Folder))
        || (kind == OutKind::State && (to_device || matches!(final_entry, Some(Entry::Fifo))))
        // a link to a name in a folder that is not there
        || matches!(&landing, Ok(n) if n.contains('/') && n != "/dev/null");
    let out = OutFile::new(&dir.join(&target), kind, &inputs);
    match (&out, must_refuse) {
        (Err(_), true) => {
            assert_eq!(snapshot(&dir), before, "a refusal changed the folder");
        }
        (Ok(_), true) => panic!("{target} ({kind:?}) accepted, leading to {landing:?}; world {before:?}, inputs {input_bits:b}"),
        (Err(e), false) => panic!("{target} ({kind:?}) refused: {e}; world {before:?}"),
        (Ok(o), false) => {
            if matches!(final_entry, Some(Entry::Fifo)) {
                // written through, when someone reads: not here
            } else {
                o.write(bytes).unwrap_or_else(|e| panic!("{target}: {e}"));
                let after = snapshot(&dir);
                let landed = landing.clone().unwrap();
                for (n, e) in &before {
                    if *n != landed {
                        assert_eq!(after.get(n), Some(e), "{n} changed writing {target}");
                    }
                }
                if !to_device {
                    assert_eq!(
                        after.get(&landed),
                        Some(&Entry::File(bytes.to_vec())),
                        "{target}: the data did not land in {landed}"
                    );
                }
                let extra: Vec<&String> = after
                    .keys()
                    .filter(|n| !before.contains_key(*n) && **n != landed)
                    .collect();
                assert!(extra.is_empty(), "left behind: {extra:?}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
});
