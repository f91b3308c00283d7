//! The files given to a merge (`dancer merge FILE...`), read: which kind
//! of run they are the parts of, and each part read and checked whole
//! before anything is added up or printed.
//!
//! The first file says the kind: a Sudoku batch's part file (format
//! [`batch::FORMAT`]) makes them all parts of a batch, anything else a
//! search's shard results; a file of the other kind among them is refused
//! as such, not as a damaged file. A shard result is read with the limit
//! of a small file ([`MAX_SHARD_BYTES`]), a part file with that of a part
//! ([`batch::MAX_PART_BYTES`]: its output may be large). A part's output is
//! not kept: the parts are read twice, once to check them all and once,
//! in order, for their outputs ([`reread`]), so that one part's output at
//! a time is in memory; a file changed in between is refused.
//!
//! The files are read by the caller's function (`read(path, limit)`, its
//! errors its own), so that a file that cannot be read is said in the
//! caller's words for any file.

use crate::batch::{self, PartFile};
use crate::search::{self, Saved};
use std::path::{Path, PathBuf};

/// The most bytes of a shard result read (64 MiB).
const MAX_SHARD_BYTES: u64 = 64 << 20;

/// The parts given, read and checked, each with its file's name.
#[derive(Debug)]
pub enum GivenParts {
    /// A search's shard results (`dancer solve --shard K/N`).
    Search(Vec<(String, Saved)>),
    /// A Sudoku batch's parts (`dancer sudoku ... --shard K/N`), their
    /// outputs left out (see [`reread`]).
    Sudoku(Vec<(String, PartFile)>),
}

/// A file given that does not merge with the others.
#[derive(Debug, thiserror::Error)]
pub enum GivenError {
    #[error("{}: more than {} MiB: larger than dancer reads whole", file.display(), limit >> 20)]
    TooLarge { file: PathBuf, limit: u64 },
    /// A Sudoku part file among a search's shard results.
    #[error("{}: a Sudoku part file, and {} is a search's shard result: they do not merge", file.display(), first.display())]
    PartAmongShards { file: PathBuf, first: PathBuf },
    #[error("{}: not a shard result to add up", file.display())]
    NotAShard {
        file: PathBuf,
        source: search::ReadError,
    },
    /// A file of another format among a Sudoku batch's parts.
    #[error("{}: not a Sudoku part file (format {found:?}), and {} is one: only the parts of one run merge", file.display(), first.display())]
    NotAPart {
        file: PathBuf,
        found: String,
        first: PathBuf,
    },
    #[error("{}: cannot merge it", file.display())]
    Part {
        file: PathBuf,
        source: batch::PartReadError,
    },
    /// A part whose file is not what it was when it was checked.
    #[error("{}: the file changed while the parts were merged", file.display())]
    Changed { file: PathBuf },
}

/// Whether `text` (of the first file given) is a Sudoku part file.
pub fn is_part(text: &str) -> bool {
    batch::format_of(text).as_deref() == Some(batch::FORMAT)
}

/// Reads a Sudoku part file (`files[i]`), checked whole.
fn part<E: From<GivenError>>(
    files: &[PathBuf],
    i: usize,
    text: Option<String>,
    read: &mut impl FnMut(&Path, u64) -> Result<String, E>,
) -> Result<PartFile, E> {
    let file = files[i].to_path_buf();
    let text = match text {
        Some(t) => t,
        None => read(&file, batch::MAX_PART_BYTES)?,
    };
    PartFile::from_json(&text).map_err(|e| {
        E::from(match e {
            batch::PartReadError::Format(found) => GivenError::NotAPart {
                file,
                found,
                first: files[0].to_path_buf(),
            },
            source => GivenError::Part { file, source },
        })
    })
}

impl GivenParts {
    /// Reads the files given (at least one), the first of which the
    /// caller has read already (`first`, read with the limit of a part).
    pub fn read<E: From<GivenError>>(
        files: &[PathBuf],
        first: String,
        mut read: impl FnMut(&Path, u64) -> Result<String, E>,
    ) -> Result<GivenParts, E> {
        let mut first = Some(first);
        if first.as_deref().is_some_and(is_part) {
            let mut parts = Vec::with_capacity(files.len());
            for (i, f) in files.iter().enumerate() {
                let mut p = part(files, i, first.take(), &mut read)?;
                // checked whole; what is kept until it is printed is its
                // checksum
                p.output = String::new();
                parts.push((f.display().to_string(), p));
            }
            return Ok(GivenParts::Sudoku(parts));
        }
        if first
            .as_ref()
            .is_some_and(|t| t.len() as u64 > MAX_SHARD_BYTES)
        {
            return Err(E::from(GivenError::TooLarge {
                file: files[0].clone(),
                limit: MAX_SHARD_BYTES,
            }));
        }
        let mut saved = Vec::with_capacity(files.len());
        for f in files {
            let text = match first.take() {
                Some(t) => t,
                None => read(f, MAX_SHARD_BYTES)?,
            };
            let file = f.clone();
            if is_part(&text) {
                let first = files[0].clone();
                return Err(E::from(GivenError::PartAmongShards { file, first }));
            }
            let s =
                Saved::from_json(&text).map_err(|source| GivenError::NotAShard { file, source })?;
            saved.push((f.display().to_string(), s));
        }
        Ok(GivenParts::Search(saved))
    }
}

/// Part `files[i]` of a Sudoku batch read again, whole, for its output:
/// refused unless it is the file `checked` was read from (its checksum).
pub fn reread<E: From<GivenError>>(
    files: &[PathBuf],
    i: usize,
    checked: &PartFile,
    mut read: impl FnMut(&Path, u64) -> Result<String, E>,
) -> Result<PartFile, E> {
    let p = part(files, i, None, &mut read)?;
    if p.checksum != checked.checksum {
        let file = files[i].clone();
        return Err(E::from(GivenError::Changed { file }));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::folder::tests::{part, shard};
    use std::collections::HashMap;

    /// What the caller's reading says: the file's text, or that it has none
    /// within the limit.
    #[derive(Debug)]
    enum Read {
        Given(GivenError),
        Missing(PathBuf, u64),
    }

    impl From<GivenError> for Read {
        fn from(e: GivenError) -> Read {
            Read::Given(e)
        }
    }

    /// Reads `files` (named `a`, `b`, ...) given with these texts.
    fn given(texts: &[String]) -> Result<GivenParts, Read> {
        let names: Vec<PathBuf> = (0..texts.len())
            .map(|i| PathBuf::from(((b'a' + i as u8) as char).to_string()))
            .collect();
        let files: HashMap<PathBuf, String> = names.iter().cloned().zip(texts.to_vec()).collect();
        let read = |f: &Path, limit: u64| match files.get(f) {
            Some(t) if t.len() as u64 <= limit => Ok(t.clone()),
            _ => Err(Read::Missing(f.to_path_buf(), limit)),
        };
        GivenParts::read(&names, texts[0].clone(), read)
    }

    #[test]
    fn the_first_file_says_the_kind() {
        let Ok(GivenParts::Search(s)) = given(&[shard(2, 2, true), shard(1, 2, false)]) else {
            panic!("shards")
        };
        assert_eq!(
            s.iter()
                .map(|(f, s)| (f.as_str(), s.complete))
                .collect::<Vec<_>>(),
            [("a", true), ("b", false)]
        );
        let Ok(GivenParts::Sudoku(p)) = given(&[part(2, 2, true), part(1, 2, true)]) else {
            panic!("parts")
        };
        assert_eq!(p[0].0, "a");
        assert_eq!((p[0].1.shard, p[1].1.shard), (2, 1));
        assert!(
            p.iter().all(|(_, p)| p.output.is_empty()),
            "outputs are not kept"
        );
        assert!(is_part(&part(1, 2, false)) && !is_part(&shard(1, 2, true)) && !is_part("[]"));
    }

    #[test]
    fn a_file_of_the_other_kind_is_refused_as_such() {
        let e = given(&[shard(1, 2, true), part(2, 2, true)]).unwrap_err();
        assert!(
            matches!(e, Read::Given(GivenError::PartAmongShards { ref file, ref first }) if file == Path::new("b") && first == Path::new("a")),
            "{e:?}"
        );
        let e = given(&[part(1, 2, true), shard(2, 2, true)]).unwrap_err();
        assert!(
            matches!(e, Read::Given(GivenError::NotAPart { ref found, .. }) if found == crate::search::SHARD),
            "{e:?}"
        );
        let Err(Read::Given(e)) = given(&[part(1, 2, true), "{".into()]) else {
            panic!("damaged")
        };
        assert!(
            e.to_string() == "b: cannot merge it" && std::error::Error::source(&e).is_some(),
            "{e}"
        );
        let Err(Read::Given(e)) = given(&[shard(1, 2, true), "1 2 3".into()]) else {
            panic!("not a shard")
        };
        assert_eq!(e.to_string(), "b: not a shard result to add up");
    }

    #[test]
    fn shard_results_are_read_as_small_files() {
        let big = " ".repeat(MAX_SHARD_BYTES as usize + 1);
        let e = given(&[big, shard(1, 1, true)]).unwrap_err();
        let Read::Given(e) = e else { panic!("{e:?}") };
        assert_eq!(
            e.to_string(),
            "a: more than 64 MiB: larger than dancer reads whole"
        );
        // the others with that limit, parts with a part's
        let e = given(&[shard(1, 2, true), " ".repeat(MAX_SHARD_BYTES as usize + 1)]).unwrap_err();
        assert!(
            matches!(e, Read::Missing(ref f, MAX_SHARD_BYTES) if f == Path::new("b")),
            "{e:?}"
        );
    }

    #[test]
    fn a_part_read_again_must_be_the_one_checked() {
        let files = [PathBuf::from("a"), PathBuf::from("b")];
        let mut texts = HashMap::from([
            (files[0].clone(), part(1, 2, true)),
            (files[1].clone(), part(2, 2, true)),
        ]);
        let Ok(GivenParts::Sudoku(p)) =
            GivenParts::read(&files, texts[&files[0]].clone(), |f: &Path, _| {
                Ok::<_, GivenError>(texts[f].clone())
            })
        else {
            panic!("parts")
        };
        let again = |texts: &HashMap<PathBuf, String>| {
            reread(&files, 1, &p[1].1, |f: &Path, _| {
                Ok::<_, GivenError>(texts[f].clone())
            })
        };
        assert_eq!(again(&texts).unwrap().output, "2\n2\n2\n");
        texts.insert(files[1].clone(), part(2, 2, false));
        let e = again(&texts).unwrap_err();
        assert!(
            matches!(e, GivenError::Changed { ref file } if *file == files[1]),
            "{e}"
        );
    }
}
