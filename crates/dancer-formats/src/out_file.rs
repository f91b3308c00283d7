//! Writing files without losing anyone's data: checkpoints, shard results,
//! Sudoku part files, ZDDs, pictures, contact sheets, man pages.
//!
//! Every file `dancer` writes goes through [`OutFile`], which settles once,
//! before the run, what writing to the path will do, and refuses what would
//! lose data ([`FormatError::Refused`], saying why):
//!
//! * a path that is, or leads by links to, one of the run's inputs (the
//!   problem, the puzzle, a part being resumed from is its own output and
//!   is allowed) is refused;
//! * a folder is refused;
//! * a regular file, or nothing yet, is *replaced*: the data goes to a new
//!   temporary file beside the real file (a link is followed to it, so the
//!   link stays a link), created exclusively under a name no other file
//!   has (`.NAME.dancer-PID-N.tmp`), with the old file's permissions,
//!   flushed to disk, then renamed over it: a reader sees the old content
//!   or the new, never half of one, and a run stopped half way leaves the
//!   old file as it was;
//! * anything else (a FIFO, a terminal, `/dev/null`, `/dev/full`, ...) is
//!   *written through*, as the shell's `>` would, for
//!   [`OutKind::Product`]s; an [`OutKind::State`] file (a checkpoint, a
//!   result to merge, a part file) must be read back, so it is refused
//!   there, and so is an [`OutKind::Named`] file, one dancer names in a
//!   folder (where a FIFO would block the run for ever);
//! * every write error (`ENOSPC` included, from the write, the flush or the
//!   sync) is an error naming the path ([`FormatError::Io`]).

use crate::FormatError;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a file is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutKind {
    /// Read back by dancer (a checkpoint, a shard result, a part file):
    /// only a regular file will do.
    State,
    /// For the user (a ZDD, a picture, a page): written through to a FIFO
    /// or a device too.
    Product,
    /// For the user, but under a name dancer gives it in a folder the user
    /// named (`solution-00001.png` of a folder of pictures): only a
    /// regular file will do. The user named no FIFO or device there, and
    /// opening a FIFO to write waits for a reader, for ever if none comes.
    Named,
}

/// A path checked for writing ([`OutFile::new`]).
#[derive(Clone, Debug)]
pub struct OutFile {
    /// As the user gave it (for messages).
    path: PathBuf,
    /// Where the data goes: the path with its links followed.
    real: PathBuf,
    through: bool,
}

/// How many links are followed before giving up (as the kernel does).
const MAX_LINKS: usize = 40;

impl OutFile {
    /// Checks `path` for writing a file of `kind` (see the module's prose);
    /// `inputs` are the files the run reads, each with what it is (`the
    /// problem`), which it must not be.
    pub fn new(
        path: &Path,
        kind: OutKind,
        inputs: &[(&Path, &str)],
    ) -> Result<OutFile, FormatError> {
        let refused = |message: String| FormatError::Refused {
            file: path.display().to_string(),
            message,
        };
        if path.as_os_str().is_empty() {
            return Err(refused("an empty file name".into()));
        }
        let real = follow_links(path).map_err(|e| io_error(path, e))?;
        for (input, what) in inputs {
            if same_file(input, &real) {
                return Err(refused(format!(
                    "that is {what}'s own file: it would be overwritten"
                )));
            }
        }
        let through = match std::fs::metadata(&real) {
            Ok(m) if m.is_dir() => return Err(refused("is a folder, not a file".into())),
            Ok(m) if m.is_file() => false,
            Ok(m) => {
                let what = file_type_name(&m);
                match kind {
                    OutKind::State => return Err(refused(format!(
                        "is {what}, not a regular file: this file is read back later (to resume or merge), so it must be a file"
                    ))),
                    OutKind::Named => return Err(refused(format!(
                        "is {what}, not a regular file: dancer names the files of this folder itself, and writes only regular files there"
                    ))),
                    OutKind::Product if what == "a socket" => {
                        return Err(refused(
                            "is a socket: dancer writes files, FIFOs and devices".into(),
                        ))
                    }
                    OutKind::Product => true,
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let parent = parent_of(&real);
                if !parent.is_dir() {
                    return Err(refused(format!("there is no folder {}", parent.display())));
                }
                false
            }
            Err(e) => return Err(io_error(path, e)),
        };
        Ok(OutFile {
            path: path.to_path_buf(),
            real,
            through,
        })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `data` as the whole file (see the module's prose).
    pub fn write(&self, data: &[u8]) -> Result<(), FormatError> {
        let mut w = self.create()?;
        w.write_all(data).map_err(|e| io_error(&self.path, e))?;
        w.commit()
    }

    /// A writer for the file: nothing is in place until
    /// [`Writing::commit`]; dropped before, it leaves the old file (a
    /// regular one) as it was.
    pub fn create(&self) -> Result<Writing, FormatError> {
        let shown = |e| io_error(&self.path, e);
        if self.through {
            let f = OpenOptions::new()
                .write(true)
                .open(&self.real)
                .map_err(shown)?;
            return Ok(Writing {
                file: Some(std::io::BufWriter::with_capacity(1 << 16, f)),
                tmp: None,
                out: self.clone(),
            });
        }
        let (tmp, f) = temporary(&self.real).map_err(shown)?;
        // the new file keeps the permissions of the one it replaces
        if let Ok(m) = std::fs::metadata(&self.real) {
            let _ = f.set_permissions(m.permissions());
        }
        Ok(Writing {
            file: Some(std::io::BufWriter::with_capacity(1 << 16, f)),
            tmp: Some(tmp),
            out: self.clone(),
        })
    }
}

/// A file being written ([`OutFile::create`]).
#[derive(Debug)]
pub struct Writing {
    file: Option<std::io::BufWriter<File>>,
    /// The temporary file, renamed over the real one on commit.
    tmp: Option<PathBuf>,
    out: OutFile,
}

impl Writing {
    /// Flushes and puts the file in place: every error (a full disk, at the
    /// write, flush or sync) is an error naming the path.
    pub fn commit(mut self) -> Result<(), FormatError> {
        let path = self.out.path.clone();
        let shown = |e| io_error(&path, e);
        let w = self.file.take().expect("committed once");
        let f = w.into_inner().map_err(|e| shown(e.into_error()))?;
        match self.tmp.take() {
            Some(tmp) => {
                let r = f
                    .sync_all()
                    .and_then(|()| std::fs::rename(&tmp, &self.out.real));
                if r.is_err() {
                    let _ = std::fs::remove_file(&tmp);
                }
                r.map_err(shown)
            }
            // a FIFO or a device: what it takes is taken (no sync: most
            // cannot)
            None => Ok(()),
        }
    }
}

impl Write for Writing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("not committed").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("not committed").flush()
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            self.file = None;
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// A new file beside `real`, created exclusively.
fn temporary(real: &Path) -> std::io::Result<(PathBuf, File)> {
    static N: AtomicU64 = AtomicU64::new(0);
    let name = real
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let dir = parent_of(real);
    loop {
        let k = N.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.dancer-{}-{k}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The folder a path is in (`.` for a bare name).
fn parent_of(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A write error of `path`.
fn io_error(path: &Path, source: std::io::Error) -> FormatError {
    FormatError::Io {
        file: path.display().to_string(),
        source,
    }
}

/// `path` with its links followed, the last one too when it leads nowhere
/// yet (writing creates its target, as the shell's `>` does).
fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                p = parent_of(&p).join(std::fs::read_link(&p)?);
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of links"))
}

/// Whether `a` and `b` are one file (both exist).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => same_meta(&x, &y),
        _ => false,
    }
}

#[cfg(unix)]
fn same_meta(x: &std::fs::Metadata, y: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    x.dev() == y.dev() && x.ino() == y.ino()
}

#[cfg(not(unix))]
fn same_meta(x: &std::fs::Metadata, y: &std::fs::Metadata) -> bool {
    x.len() == y.len() && x.modified().ok() == y.modified().ok() && x.is_file() == y.is_file()
}

#[cfg(unix)]
fn file_type_name(m: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn file_type_name(_: &std::fs::Metadata) -> &'static str {
    "not a regular file"
}

/// The files one run writes, checked in turn: each as [`OutFile::new`]
/// checks it, against the run's inputs and every file added before it,
/// also before it exists (two outputs of one run never share a path).
#[derive(Debug, Default)]
pub struct OutSet {
    inputs: Vec<(PathBuf, String)>,
    outputs: Vec<(OutFile, String)>,
}

impl OutSet {
    /// A set for a run that reads `inputs` (each with what it is).
    pub fn new<'a>(inputs: impl IntoIterator<Item = (&'a Path, &'a str)>) -> OutSet {
        let inputs = inputs
            .into_iter()
            .map(|(p, what)| (p.to_path_buf(), what.to_string()))
            .collect();
        OutSet {
            inputs,
            outputs: Vec::new(),
        }
    }

    /// Checks `path` for a file of `kind`; it is then taken, as `what`.
    pub fn add(&mut self, path: &Path, kind: OutKind, what: &str) -> Result<OutFile, FormatError> {
        let taken: Vec<(&Path, &str)> = (self.inputs.iter())
            .map(|(p, w)| (p.as_path(), w.as_str()))
            .chain(self.outputs.iter().map(|(f, w)| (f.path(), w.as_str())))
            .collect();
        let file = OutFile::new(path, kind, &taken)?;
        if let Some((_, other)) = self.outputs.iter().find(|(f, _)| f.real == file.real) {
            return Err(FormatError::Refused {
                file: path.display().to_string(),
                message: format!("that is {other}'s own file: it would be overwritten"),
            });
        }
        self.outputs.push((file.clone(), what.to_string()));
        Ok(file)
    }
}

/// Writes `files`, each a name and its bytes, into the folder `dir`,
/// created first with its parents when missing ([`FormatError::Create`]
/// when it cannot be): each an [`OutKind::Product`], checked as an
/// [`OutSet`] checks the files of one run (a set of man pages). Returns
/// how many were written.
pub fn write_into(
    dir: &Path,
    files: impl IntoIterator<Item = (String, Vec<u8>)>,
) -> Result<usize, FormatError> {
    std::fs::create_dir_all(dir).map_err(|source| FormatError::Create {
        dir: dir.display().to_string(),
        source,
    })?;
    let mut set = OutSet::new([]);
    let mut n = 0;
    for (name, data) in files {
        set.add(&dir.join(&name), OutKind::Product, &name)?
            .write(&data)?;
        n += 1;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_set_refuses_an_input_and_an_output_given_twice() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.dlx");
        std::fs::write(&input, "A\nA\n").unwrap();
        let mut set = super::OutSet::new([(input.as_path(), "the problem")]);
        let e = set
            .add(&input, OutKind::State, "the checkpoint")
            .unwrap_err();
        assert!(e.to_string().contains("the problem"), "{e}");
        let out = dir.path().join("cp.json");
        set.add(&out, OutKind::State, "the checkpoint").unwrap();
        let e = set.add(&out, OutKind::Product, "the ZDD").unwrap_err();
        assert!(e.to_string().contains("the checkpoint"), "{e}");
        set.add(&dir.path().join("z.zdd"), OutKind::Product, "the ZDD")
            .unwrap();
    }

    use super::*;

    fn dir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    #[test]
    fn a_regular_file_is_replaced_whole() {
        let d = dir();
        let f = d.path().join("out.txt");
        std::fs::write(&f, "old").unwrap();
        let o = OutFile::new(&f, OutKind::State, &[]).unwrap();
        o.write(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        // a writer dropped before its commit leaves the old file, and no
        // temporary file
        let mut w = o.create().unwrap();
        w.write_all(b"half").unwrap();
        drop(w);
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
        // a file named as the old scheme's temporary file is not touched
        let other = d.path().join("out.tmp");
        std::fs::write(&other, "mine").unwrap();
        o.write(b"again").unwrap();
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "mine");
    }

    #[cfg(unix)]
    #[test]
    fn links_stay_links_and_inputs_are_refused() {
        let d = dir();
        let target = d.path().join("real.json");
        std::fs::write(&target, "old").unwrap();
        let link = d.path().join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        OutFile::new(&link, OutKind::State, &[])
            .unwrap()
            .write(b"new")
            .unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        // the input, by its own name or through the link
        let e = OutFile::new(&link, OutKind::Product, &[(&target, "the puzzle")]).unwrap_err();
        assert!(e.to_string().contains("the puzzle's own file"), "{e}");
        let e = OutFile::new(&target, OutKind::Product, &[(&target, "the problem")]).unwrap_err();
        assert!(e.to_string().contains("overwritten"), "{e}");
        // a link to nothing yet: its target is made
        let dangling = d.path().join("new-link");
        std::os::unix::fs::symlink("made.txt", &dangling).unwrap();
        OutFile::new(&dangling, OutKind::Product, &[])
            .unwrap()
            .write(b"x")
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(d.path().join("made.txt")).unwrap(),
            "x"
        );
        // a folder, and a file in a folder that does not exist
        assert!(OutFile::new(d.path(), OutKind::Product, &[]).is_err());
        let e = OutFile::new(&d.path().join("no/such.txt"), OutKind::Product, &[]).unwrap_err();
        assert!(e.to_string().contains("no folder"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_written_through_or_refused() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        let o = OutFile::new(null, OutKind::Product, &[]).unwrap();
        o.write(b"into nothing").unwrap();
        assert!(std::fs::metadata(null)
            .unwrap()
            .file_type()
            .is_char_device());
        let e = OutFile::new(null, OutKind::State, &[]).unwrap_err();
        assert!(e.to_string().contains("a character device"), "{e}");
        if Path::new("/dev/full").exists() {
            let e = OutFile::new(Path::new("/dev/full"), OutKind::Product, &[])
                .unwrap()
                .write(&[0u8; 100_000])
                .unwrap_err();
            assert!(format!("{e:#}").contains("No space left"), "{e:#}");
        }
    }

    /// A file dancer names in a folder is a regular file or nothing yet:
    /// a FIFO there (which would block the run for ever) or a device is
    /// refused, saying which.
    #[cfg(unix)]
    #[test]
    fn a_named_file_of_a_folder_is_never_a_fifo_or_a_device() {
        let d = dir();
        let fifo = d.path().join("solution-00001.png");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let e = OutFile::new(&fifo, OutKind::Named, &[]).unwrap_err();
        assert!(e.to_string().contains("is a FIFO"), "{e}");
        assert!(e.to_string().contains("solution-00001.png"), "{e}");
        let e = OutFile::new(Path::new("/dev/null"), OutKind::Named, &[]).unwrap_err();
        assert!(e.to_string().contains("a character device"), "{e}");
        let f = d.path().join("solution-00002.png");
        OutFile::new(&f, OutKind::Named, &[])
            .unwrap()
            .write(b"png")
            .unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"png");
    }

    #[test]
    fn a_folder_of_files_is_created_and_written() {
        let dir = tempfile::tempdir().unwrap();
        let man = dir.path().join("share/man1");
        let pages = [("a.1", "A"), ("b.1", "B")].map(|(n, t)| (n.to_string(), t.into()));
        assert_eq!(super::write_into(&man, pages).unwrap(), 2);
        assert_eq!(std::fs::read_to_string(man.join("b.1")).unwrap(), "B");
        let twice = [("a.1", "A"), ("a.1", "B")].map(|(n, t)| (n.to_string(), t.into()));
        assert!(super::write_into(&man, twice).is_err());
        let file = man.join("a.1");
        let e = super::write_into(&file.join("x"), []).unwrap_err();
        assert!(e.to_string().starts_with("cannot create "), "{e}");
    }
}
