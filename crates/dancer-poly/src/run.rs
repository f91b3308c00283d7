//! What a front end's run of a puzzle decides besides the search: where
//! the puzzle comes from ([`PuzzleSource`]) and the inputs its outputs
//! must not overwrite ([`PuzzleSource::inputs`]), what it prints for each
//! solution ([`Model::shown`]), and the search itself with its pictures
//! ([`SolveRun`]: each solution handed to the front end as what it prints
//! and the pictures it writes, and how the search ended).
//!
//! These are decisions, in data: the front end reads the files, checks and
//! writes the outputs (`dancer_formats::out_file`, which refuses to
//! overwrite an input or another output), and says all of it in its own
//! words. Everything here is the same for every front end, so that a
//! puzzle named `pentomino-6x10` is the built-in one wherever it is named,
//! and a sheet named `.png` is a PNG picture wherever it is asked for.

use crate::burr::{TakeApart, Undecided};
use crate::catalog;
use crate::model::Options;
use crate::model::{Counts, Cover, Model};
use crate::pictures::{Drawing, Pictures};
use crate::puzzle::{PolyError, PolyPuzzle};
use dancer_core::memo::MemoOutcome;
use dancer_core::parallel::ending;
use dancer_core::parallel::Stop;
use dancer_core::words::plural;
use dancer_core::EngineKind;
use dancer_formats::ndjson::PolyRecord;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Where a puzzle named on a command line comes from: `-` is standard
/// input, a built-in puzzle's name is that puzzle (before any file of that
/// name), anything else a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleSource<'a> {
    Stdin,
    BuiltIn(Box<PolyPuzzle>),
    File(&'a Path),
}

impl<'a> PuzzleSource<'a> {
    pub fn of(spec: &'a str) -> PuzzleSource<'a> {
        if spec == "-" {
            PuzzleSource::Stdin
        } else if let Some(p) = catalog::puzzle(spec) {
            PuzzleSource::BuiltIn(Box::new(p))
        } else {
            PuzzleSource::File(Path::new(spec))
        }
    }

    /// The puzzle's file, when it is read from one: an input no output
    /// may overwrite.
    pub fn file(&self) -> Option<&'a Path> {
        match self {
            PuzzleSource::File(f) => Some(f),
            _ => None,
        }
    }

    /// The inputs an output must not be, each with what it is: the
    /// puzzle's file, if any.
    pub fn inputs(&self) -> Vec<(&'a Path, &'static str)> {
        self.file().map(|f| (f, "the puzzle")).into_iter().collect()
    }
}

/// What a run prints for each solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShowAs {
    /// Nothing: the run counts (its pictures are still drawn).
    Nothing,
    /// An NDJSON record ([`Model::solution_record`]).
    Record,
    /// The text of [`Model::ascii`], solutions a blank line apart.
    Text,
}

impl ShowAs {
    /// What a run prints: nothing when it counts (whatever else is
    /// asked), else records or text.
    pub fn of(count: bool, records: bool) -> ShowAs {
        match (count, records) {
            (true, _) => ShowAs::Nothing,
            (false, true) => ShowAs::Record,
            (false, false) => ShowAs::Text,
        }
    }
}

/// What is printed for one solution.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    Record(PolyRecord),
    /// Text to print as it is (it ends with a newline).
    Text(String),
}

impl Model {
    /// Solution `n` (1-based, in the order printed) as `how` shows it:
    /// after the first, text starts with the blank line that parts it from
    /// the one before.
    pub fn shown(&self, how: ShowAs, n: u64, sol: &[usize]) -> Option<Shown> {
        match how {
            ShowAs::Nothing => None,
            ShowAs::Record => Some(Shown::Record(self.solution_record(n, sol))),
            ShowAs::Text => {
                let gap = if n > 1 { "\n" } else { "" };
                Some(Shown::Text(format!("{gap}{}", self.ascii(sol))))
            }
        }
    }

    /// The summary record of a count with memos (of every solution, the
    /// symmetric ones included: no classes).
    pub fn memo_record(&self, r: &MemoOutcome) -> PolyRecord {
        PolyRecord::Summary {
            solutions: r.count.clone(),
            unique: None,
            nodes: r.stats.nodes,
            complete: r.complete,
            seconds: r.stats.elapsed.as_secs_f64(),
            symmetries: self.symmetries.len(),
            disassemblies: None,
            undecided: None,
        }
    }
}

impl Cover {
    /// A solution of this cover (its options) as the model's placements,
    /// for [`Model::ascii`], [`Model::tiling`] and the records.
    pub fn placements(&self, sol: &[usize]) -> Vec<usize> {
        (sol.iter().map(|&k| self.options[k].0))
            .filter(|&q| q != crate::model::HOLE)
            .map(|q| q as usize)
            .collect()
    }
}

/// A search as a front end runs it: how, what each solution prints as,
/// and the pictures drawn of them.
#[derive(Debug)]
pub struct SolveRun {
    pub options: Options,
    pub show: ShowAs,
    pub pictures: Pictures,
    /// Take each solution apart (`--disassemble`): what it prints says
    /// how, and the end counts those that come apart.
    pub take_apart: Option<TakeApart>,
}

/// How a [`SolveRun`] ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveEnd {
    pub counts: Counts,
    /// The wall-clock time of the search.
    pub seconds: f64,
    /// The solutions handed on (numbered 1 to this).
    pub reported: u64,
    /// What a count says: the classes with `unique`, else the solutions.
    pub count: u64,
    /// Why the search ended early, if it did ([`Counts::stopped`]).
    pub stopped: Option<Stop>,
    /// The cancel flag was set when the search returned.
    pub cancelled: bool,
    /// With [`SolveRun::take_apart`]: how many of the solutions handed on
    /// come apart.
    pub disassemblies: Option<u64>,
    /// With [`SolveRun::take_apart`]: the solutions handed on (their
    /// numbers) whose disassembly passed the states it may visit; each was
    /// handed on saying so, and the run went on. (A solution whose taking
    /// apart was interrupted is the last one handed on, and the run is
    /// [`SolveEnd::cancelled`].)
    pub past_cap: Vec<u64>,
    /// With [`SolveRun::take_apart`]: the last solution handed on was not
    /// taken apart, its taking apart interrupted.
    pub apart_interrupted: bool,
}

impl SolveRun {
    /// Searches `model`, handing `each` solution `n` (1, 2, ...) as what
    /// it prints ([`Model::shown`]) and its pictures to write
    /// ([`Pictures::add`]), in order; the first error `each` returns stops
    /// the search and is the run's.
    pub fn run<E: From<dancer_core::EngineError> + From<PolyError>>(
        &mut self,
        model: &Model,
        mut each: impl FnMut(Option<Shown>, Vec<Drawing>) -> Result<(), E>,
    ) -> Result<SolveEnd, E> {
        let (mut reported, mut error, mut apart) = (0u64, None, 0u64);
        let (mut past_cap, mut interrupted) = (Vec::new(), false);
        let start = Instant::now();
        let cancel = self.options.cancel.clone();
        let counts = model.solve(&self.options, |sol| {
            reported += 1;
            let mut shown = model.shown(self.show, reported, sol);
            if let Some(t) = &mut self.take_apart {
                match t.take_apart(model, sol, cancel.as_deref()) {
                    Ok(a) => {
                        apart += u64::from(a.disassembly.is_some());
                        match a.undecided {
                            // handed on as it is, and the last one
                            Some(Undecided::Interrupted) => interrupted = true,
                            Some(Undecided::States { .. }) => past_cap.push(reported),
                            None => {}
                        }
                        match &mut shown {
                            Some(Shown::Record(PolyRecord::Solution { disassembly, .. })) => {
                                *disassembly = Some(t.record(model, sol, &a));
                            }
                            Some(Shown::Text(text)) => text.push_str(&t.text(model, sol, &a)),
                            _ => {}
                        }
                    }
                    Err(e) => {
                        error = Some(E::from(e));
                        return false;
                    }
                }
            }
            error = each(shown, self.pictures.add(model, reported, sol)).err();
            error.is_none() && !interrupted
        })?;
        if let Some(e) = error {
            return Err(e);
        }
        let cancelled = (self.options.cancel.as_ref()).is_some_and(|c| c.load(Ordering::Relaxed));
        Ok(SolveEnd {
            seconds: start.elapsed().as_secs_f64(),
            reported,
            count: if self.options.unique {
                counts.unique
            } else {
                counts.total
            },
            stopped: counts.stopped(cancelled),
            cancelled,
            counts,
            disassemblies: self.take_apart.as_ref().map(|_| apart),
            past_cap,
            apart_interrupted: interrupted,
        })
    }
}

impl SolveEnd {
    /// With [`SolveRun::take_apart`]: how many of the solutions handed on
    /// were not taken apart (past the states a disassembly may visit, or
    /// interrupted), so that [`SolveEnd::disassemblies`] is a lower bound.
    pub fn undecided(&self) -> u64 {
        self.past_cap.len() as u64 + u64::from(self.apart_interrupted)
    }

    /// The summary record of the run of `model` (with the disassemblies
    /// and those not taken apart when they were asked for).
    pub fn record(&self, model: &Model) -> PolyRecord {
        let mut r = model.summary_record(&self.counts, self.seconds);
        if let PolyRecord::Summary {
            disassemblies,
            undecided,
            ..
        } = &mut r
        {
            *disassemblies = self.disassemblies;
            *undecided = Some(self.undecided()).filter(|&k| k > 0);
        }
        r
    }

    /// What the taking apart came to, in words, when it was asked for:
    /// `3 of the 5 solutions come apart` (`classes` with `unique`), and
    /// how many were not taken apart and why.
    pub fn apart_summary(&self, unique: bool) -> Option<String> {
        let k = self.disassemblies?;
        let of = if unique { "classes" } else { "solutions" };
        let mut s = format!("{k} of the {} {of} come apart", self.reported);
        let mut why = Vec::new();
        if !self.past_cap.is_empty() {
            why.push(format!(
                "{} past the states a disassembly may visit",
                self.past_cap.len()
            ));
        }
        if self.apart_interrupted {
            why.push("1 interrupted".to_string());
        }
        if !why.is_empty() {
            s += &format!(
                "; {} not taken apart ({})",
                self.undecided(),
                why.join(", ")
            );
        }
        Some(s)
    }

    /// What the search of `model` did, in words: `pentomino-6x10: 9356
    /// solutions, 2339 unique up to the 4 symmetries (2 rotations, 2
    /// reflections); 1,234 nodes (dlx, 2 threads), 0.512 s (complete)`; `engine` is the one asked for, said
    /// when the counts do not name the one that ran.
    pub fn summary(&self, model: &Model, threads: usize, engine: EngineKind) -> String {
        let c = &self.counts;
        format!(
            "{}: {}, {} unique up to {}; {} ({}, {}), {:.3} s ({})",
            crate::puzzle::printable(&model.puzzle.name),
            plural(c.total, "solution", "solutions"),
            c.unique,
            model.symmetry_words(),
            plural(c.nodes, "node", "nodes"),
            c.engine.unwrap_or(engine),
            plural(threads, "thread", "threads"),
            self.seconds,
            ending(self.stopped)
        )
    }
}

impl Pictures {
    /// What was written, in words, after `n` solutions: a line for each
    /// folder of pictures (`wrote 3 SVG pictures to out (solution-00001.svg
    /// to solution-00003.svg)`), and one for the contact sheet written to
    /// `sheet`.
    pub fn notes(&self, sheet: Option<&Path>, n: u64) -> Vec<String> {
        let mut notes: Vec<String> = (self.folders())
            .map(|w| {
                let files = match w.names() {
                    None => String::new(),
                    Some((first, _)) if w.files() == 1 => format!(" ({first})"),
                    Some((first, last)) => format!(" ({first} to {last})"),
                };
                let kind = w.format().extension().to_uppercase();
                let (one, many) = (format!("{kind} picture"), format!("{kind} pictures"));
                let what = plural(w.files(), &one, &many);
                format!("wrote {what} to {}{files}", w.dir().display())
            })
            .collect();
        if let (Some(f), Some(kept)) = (sheet, self.on_sheet()) {
            let of = if n > kept as u64 {
                format!("the first {kept} of {n} solutions")
            } else {
                plural(n, "solution", "solutions")
            };
            notes.push(format!("wrote a contact sheet of {of} to {}", f.display()));
        }
        notes
    }
}

impl Counts {
    /// Why the search stopped before the end, if it did: interrupted when
    /// the run was `cancelled`, else at its limit.
    pub fn stopped(&self, cancelled: bool) -> Option<Stop> {
        match (self.complete, cancelled) {
            (true, _) => None,
            (false, true) => Some(Stop::Interrupted),
            (false, false) => Some(Stop::Limit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Options;

    #[test]
    fn a_spec_is_stdin_a_built_in_name_or_a_file() {
        assert_eq!(PuzzleSource::of("-"), PuzzleSource::Stdin);
        assert!(matches!(
            PuzzleSource::of("pentomino-3x20"),
            PuzzleSource::BuiltIn(p) if p.name == "pentomino-3x20"
        ));
        let f = PuzzleSource::of("dir/pentomino-3x20");
        assert_eq!(f.file(), Some(Path::new("dir/pentomino-3x20")));
        assert_eq!(
            f.inputs(),
            vec![(Path::new("dir/pentomino-3x20"), "the puzzle")]
        );
        assert!(PuzzleSource::of("-").inputs().is_empty());
        assert!(PuzzleSource::of("pentomino-3x20").file().is_none());
    }

    #[test]
    fn a_sheet_is_named_svg_or_png() {
        use crate::pictures::PictureFormat;
        assert_eq!(
            PictureFormat::of_path(Path::new("s.PNG")),
            Some(PictureFormat::Png)
        );
        assert_eq!(PictureFormat::of_path(Path::new("s.jpg")), None);
        let e = crate::PolyError::SheetName {
            path: "s.jpg".into(),
        };
        assert_eq!(e.location(), None);
        assert!(e.to_string().contains(".svg or .png"), "{e}");
    }

    #[test]
    fn solutions_are_shown_as_asked() {
        let m = Model::new(catalog::puzzle("pentomino-3x20").unwrap()).unwrap();
        let mut sol = Vec::new();
        m.solve(&Options::default(), |s| {
            sol = s.to_vec();
            false
        })
        .unwrap();
        assert_eq!(m.shown(ShowAs::Nothing, 1, &sol), None);
        assert_eq!(
            m.shown(ShowAs::Record, 3, &sol),
            Some(Shown::Record(m.solution_record(3, &sol)))
        );
        assert_eq!(
            m.shown(ShowAs::Text, 1, &sol),
            Some(Shown::Text(m.ascii(&sol)))
        );
        assert_eq!(
            m.shown(ShowAs::Text, 2, &sol),
            Some(Shown::Text(format!("\n{}", m.ascii(&sol))))
        );
    }

    /// A front end's error in the tests.
    #[derive(Debug, PartialEq)]
    enum Failed {
        Engine,
        Printing,
    }

    impl From<dancer_core::EngineError> for Failed {
        fn from(_: dancer_core::EngineError) -> Self {
            Failed::Engine
        }
    }

    impl From<crate::PolyError> for Failed {
        fn from(_: crate::PolyError) -> Self {
            Failed::Engine
        }
    }

    #[test]
    fn a_run_hands_on_each_solution_and_its_pictures() {
        let m = Model::new(catalog::puzzle("pentomino-3x20").unwrap()).unwrap();
        let mut run = SolveRun {
            options: Options {
                limit: Some(3),
                ..Options::default()
            },
            show: ShowAs::of(false, false),
            pictures: Pictures::new(None, Some(Path::new("p")), false, None),
            take_apart: None,
        };
        let mut seen = Vec::new();
        let end = run
            .run(&m, |shown, drawings| {
                seen.push((shown, drawings));
                Ok::<_, Failed>(())
            })
            .unwrap();
        assert_eq!((end.reported, end.count, end.counts.total), (3, 3, 3));
        assert_eq!(end.stopped, Some(Stop::Limit));
        assert!(!end.cancelled);
        assert_eq!(seen.len(), 3);
        assert!(matches!(&seen[1].0, Some(Shown::Text(t)) if t.starts_with('\n')));
        assert_eq!(seen[2].1[0].file, Path::new("p/solution-00003.png"));
        // the first error stops the search, and is the run's
        let mut calls = 0;
        let e = run.run(&m, |_, _| {
            calls += 1;
            Err(Failed::Printing)
        });
        assert_eq!(e.unwrap_err(), Failed::Printing);
        assert_eq!(calls, 1);
        assert_eq!(ShowAs::of(true, true), ShowAs::Nothing);
        assert_eq!(ShowAs::of(false, true), ShowAs::Record);
    }

    #[test]
    fn a_complete_unique_run_counts_classes() {
        let m = Model::new(catalog::puzzle("pentomino-3x20").unwrap()).unwrap();
        let mut run = SolveRun {
            options: Options {
                unique: true,
                ..Options::default()
            },
            show: ShowAs::Nothing,
            pictures: Pictures::new(None, None, false, None),
            take_apart: None,
        };
        let end = run.run(&m, |_, _| Ok::<_, Failed>(())).unwrap();
        assert_eq!((end.count, end.counts.total, end.reported), (2, 8, 2));
        assert_eq!(end.stopped, None);
    }

    #[test]
    fn a_search_stopped_at_its_limit_or_interrupted() {
        let mut c = Counts {
            complete: true,
            ..Counts::default()
        };
        assert_eq!(c.stopped(true), None);
        c.complete = false;
        assert_eq!(c.stopped(true), Some(Stop::Interrupted));
        assert_eq!(c.stopped(false), Some(Stop::Limit));
    }
}
