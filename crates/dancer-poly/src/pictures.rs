//! The pictures of a run's solutions, as a front end writes them: one file
//! a solution in a folder of SVG and one of PNG pictures, and a contact
//! sheet of the first [`SHEET_MAX`] solutions.
//!
//! [`Pictures`] decides what is drawn for each solution and under which
//! name, and keeps the tilings of the sheet; it hands back [`Drawing`]s,
//! each a file's path and its picture, for the front end to write (the
//! libraries do no I/O: `dancer_formats::out_file` writes them, called by
//! the front end). The files of a folder are numbered by the solution they
//! show, `solution-00001.svg` for the first solution printed, so that the
//! pictures and the printed solutions (and `--json`'s `number`) agree.
//! Drawing is deterministic: the same solutions give the same bytes.

use crate::model::Model;
use crate::render::{contact_sheet, png, svg, RenderError, Style, Tiling};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// At most this many solutions go on a contact sheet: the first ones.
pub const SHEET_MAX: usize = 100;

/// The cell sizes a front end may ask for, in pixels (the side of a
/// square, the edge of a cube): from 4, still legible, to 256, where a
/// 6x10 board is already past 2,000 pixels wide.
pub const CELL_SIZES: std::ops::RangeInclusive<u32> = 4..=256;

/// Pictures on a contact sheet's row.
const SHEET_COLUMNS: usize = 5;

/// The kind of a picture file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PictureFormat {
    /// The drawing itself ([`svg`]).
    Svg,
    /// The drawing rasterised ([`png`]).
    Png,
}

impl PictureFormat {
    /// A file's format by its extension, in any case (`.svg`, `.PNG`);
    /// `None` for any other name.
    pub fn of_path(path: &Path) -> Option<PictureFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "svg" => Some(PictureFormat::Svg),
            "png" => Some(PictureFormat::Png),
            _ => None,
        }
    }

    /// The files' extension: `svg`, `png`.
    pub fn extension(self) -> &'static str {
        match self {
            PictureFormat::Svg => "svg",
            PictureFormat::Png => "png",
        }
    }
}

/// One picture to write: where, and what.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    /// The file it goes to.
    pub file: PathBuf,
    pub format: PictureFormat,
    /// The SVG document (rasterised for a PNG by [`Drawing::bytes`]).
    pub svg: String,
}

impl Drawing {
    /// The file's bytes: the SVG as it is, or rasterised
    /// ([`RenderError::Size`] for a picture too large).
    pub fn bytes(&self) -> Result<Cow<'_, [u8]>, RenderError> {
        match self.format {
            PictureFormat::Svg => Ok(Cow::Borrowed(self.svg.as_bytes())),
            PictureFormat::Png => png(&self.svg).map(Cow::Owned),
        }
    }
}

/// A folder of pictures, one a solution, numbered by the solution:
/// `solution-00007.png` shows solution 7.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureFolder {
    format: PictureFormat,
    dir: PathBuf,
    files: u64,
}

impl PictureFolder {
    /// A folder where nothing is written yet.
    pub fn new(format: PictureFormat, dir: &Path) -> PictureFolder {
        PictureFolder {
            format,
            dir: dir.to_path_buf(),
            files: 0,
        }
    }

    /// The name of solution `n`'s file: `solution-00001.svg` (five digits
    /// at least, more past 99999).
    pub fn file_name(&self, n: u64) -> String {
        format!("solution-{n:05}.{}", self.format.extension())
    }

    /// The path of solution `n`'s file, counted as written.
    pub fn file(&mut self, n: u64) -> PathBuf {
        self.files += 1;
        self.dir.join(self.file_name(n))
    }

    pub fn format(&self) -> PictureFormat {
        self.format
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many files were handed out.
    pub fn files(&self) -> u64 {
        self.files
    }

    /// The first and the last file's names, when there are any (the same
    /// name twice for one file).
    pub fn names(&self) -> Option<(String, String)> {
        (self.files > 0).then(|| (self.file_name(1), self.file_name(self.files)))
    }
}

/// What a run draws: a folder of SVG pictures, a folder of PNG pictures, a
/// contact sheet, any of them or none.
#[derive(Clone, Debug)]
pub struct Pictures {
    svgs: Option<PictureFolder>,
    pngs: Option<PictureFolder>,
    sheet: Option<Vec<Tiling>>,
    style: Style,
}

impl Pictures {
    /// Pictures into the folders given (they must exist before the first
    /// [`Pictures::add`]), for a sheet when `sheet`, `cell` pixels a cell
    /// (the default [`Style`]'s without).
    pub fn new(svg: Option<&Path>, png: Option<&Path>, sheet: bool, cell: Option<u32>) -> Self {
        let mut style = Style::default();
        if let Some(c) = cell {
            style.cell = f64::from(c);
        }
        Pictures {
            svgs: svg.map(|d| PictureFolder::new(PictureFormat::Svg, d)),
            pngs: png.map(|d| PictureFolder::new(PictureFormat::Png, d)),
            sheet: sheet.then(Vec::new),
            style,
        }
    }

    /// Solution `n` (placements of `model`): its pictures to write, SVG
    /// first, and its tiling kept for the sheet while the sheet has room.
    /// Nothing is drawn when nothing is asked for.
    pub fn add(&mut self, model: &Model, n: u64, sol: &[usize]) -> Vec<Drawing> {
        let on_sheet = self.sheet.as_ref().is_some_and(|s| s.len() < SHEET_MAX);
        if self.svgs.is_none() && self.pngs.is_none() && !on_sheet {
            return Vec::new();
        }
        let t = model.tiling(sol, Some(format!("{} #{n}", model.puzzle.name)));
        let picture = svg(&t, &self.style);
        let drawings = [&mut self.svgs, &mut self.pngs]
            .into_iter()
            .flatten()
            .map(|folder| Drawing {
                file: folder.file(n),
                format: folder.format(),
                svg: picture.clone(),
            })
            .collect();
        if let Some(sheet) = self.sheet.as_mut().filter(|_| on_sheet) {
            sheet.push(t);
        }
        drawings
    }

    /// The contact sheet of the solutions kept, to write to `file`: a PNG
    /// picture when its name says `.png`, else an SVG one.
    pub fn sheet(&self, file: &Path) -> Drawing {
        let tilings = self.sheet.as_deref().unwrap_or_default();
        Drawing {
            file: file.to_path_buf(),
            format: PictureFormat::of_path(file).unwrap_or(PictureFormat::Svg),
            svg: contact_sheet(tilings, SHEET_COLUMNS, &self.style),
        }
    }

    /// How many solutions are on the sheet, when there is one.
    pub fn on_sheet(&self) -> Option<usize> {
        self.sheet.as_ref().map(Vec::len)
    }

    /// The folders written to, SVG first.
    pub fn folders(&self) -> impl Iterator<Item = &PictureFolder> {
        [&self.svgs, &self.pngs].into_iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Options;

    fn solutions(name: &str, k: usize) -> (Model, Vec<Vec<usize>>) {
        let m = Model::new(crate::catalog::puzzle(name).unwrap()).unwrap();
        let mut sols = Vec::new();
        m.solve(&Options::default(), |s| {
            sols.push(s.to_vec());
            sols.len() < k
        })
        .unwrap();
        (m, sols)
    }

    #[test]
    fn formats_by_extension() {
        assert_eq!(
            PictureFormat::of_path(Path::new("a/b.PNG")),
            Some(PictureFormat::Png)
        );
        assert_eq!(
            PictureFormat::of_path(Path::new("s.svg")),
            Some(PictureFormat::Svg)
        );
        assert_eq!(PictureFormat::of_path(Path::new("s.jpg")), None);
        assert_eq!(PictureFormat::of_path(Path::new("svg")), None);
    }

    #[test]
    fn folders_number_files_by_solution() {
        let mut f = PictureFolder::new(PictureFormat::Png, Path::new("pics"));
        assert_eq!(f.names(), None);
        assert_eq!(f.file(1), Path::new("pics/solution-00001.png"));
        assert_eq!(
            f.names(),
            Some(("solution-00001.png".into(), "solution-00001.png".into()))
        );
        assert_eq!(f.file(2), Path::new("pics/solution-00002.png"));
        assert_eq!(f.files(), 2);
        assert_eq!(f.names().unwrap().1, "solution-00002.png");
        assert_eq!(f.file_name(123_456), "solution-123456.png");
    }

    #[test]
    fn each_solution_is_drawn_in_each_folder_and_on_the_sheet() {
        let (m, sols) = solutions("pentomino-3x20", 2);
        let mut p = Pictures::new(Some(Path::new("s")), Some(Path::new("p")), true, Some(10));
        for (k, s) in sols.iter().enumerate() {
            let d = p.add(&m, k as u64 + 1, s);
            assert_eq!(d.len(), 2);
            assert_eq!(
                d[0].file,
                Path::new(&format!("s/solution-0000{}.svg", k + 1))
            );
            assert_eq!(d[1].format, PictureFormat::Png);
            assert_eq!(d[0].svg, d[1].svg);
            assert!(d[0].svg.contains(&format!("pentomino-3x20 #{}", k + 1)));
            assert_eq!(&*d[0].bytes().unwrap(), d[0].svg.as_bytes());
            assert!(d[1].bytes().unwrap().starts_with(b"\x89PNG"));
        }
        assert_eq!(p.on_sheet(), Some(2));
        let counts: Vec<u64> = p.folders().map(PictureFolder::files).collect();
        assert_eq!(counts, vec![2, 2]);
        let sheet = p.sheet(Path::new("sheet.PNG"));
        assert_eq!(sheet.format, PictureFormat::Png);
        assert!(sheet.svg.contains("pentomino-3x20 #2"));
    }

    #[test]
    fn the_sheet_keeps_the_first_hundred_and_nothing_is_drawn_unasked() {
        let (m, sols) = solutions("pentomino-3x20", 1);
        let mut p = Pictures::new(None, None, true, None);
        for n in 1..=SHEET_MAX as u64 + 5 {
            assert!(p.add(&m, n, &sols[0]).is_empty());
        }
        assert_eq!(p.on_sheet(), Some(SHEET_MAX));
        assert_eq!(p.sheet(Path::new("x.svg")).format, PictureFormat::Svg);
        let mut none = Pictures::new(None, None, false, None);
        assert!(none.add(&m, 1, &sols[0]).is_empty());
        assert_eq!(none.on_sheet(), None);
        assert_eq!(none.folders().count(), 0);
    }
}
