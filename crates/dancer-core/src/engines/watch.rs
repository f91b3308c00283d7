//! # Watching a search: the one event loop
//!
//! Every front end that runs an engine by hand wants the same three things
//! of it: each solution as it is found, where the search is every so often
//! (its nodes and the fraction of the tree behind it, for a progress bar or
//! a web page), and a way to stop it from outside. [`watch`] is that loop,
//! written once: the caller hands in a [`Watcher`], and gets back how the
//! search ended ([`Watched`]). The units of a split search
//! ([`crate::parallel`]), the web app's exact cover jobs and the polyform
//! solver all run their engines through it.
//!
//! The engine pauses every `every` nodes ([`Engine::set_pause`]): a pause
//! costs one comparison in the engine's step, so it is cheap enough to keep
//! on always (the callers use 2^14 nodes). A cancellation flag set on the
//! engine ([`Engine::set_cancel`]) stops it at its next check; a watcher
//! stops it by returning `false`, from a solution or from a pause.
//!
//! Invariants: the watcher sees the solutions in the engine's order, each
//! once; after the last call the engine is left where it stopped (its
//! statistics and position still readable); a frontier is never asked for
//! here (a search cut at a frontier is `parallel`'s planning, not a
//! watched run).

use super::api::{Engine, Event};
use crate::problem::OptionId;

/// What a watched search reports to.
pub trait Watcher {
    /// A solution, as the engine's option numbers; `false` stops the
    /// search.
    fn solution(&mut self, options: &[OptionId]) -> bool;

    /// A pause, every `every` nodes: the nodes visited so far and the
    /// fraction of the tree behind the search ([`Engine::position`]);
    /// `false` stops the search. By default it goes on.
    fn progress(&mut self, nodes: u64, fraction: f64) -> bool {
        let _ = (nodes, fraction);
        true
    }
}

/// How a watched search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watched {
    /// The whole tree was searched.
    pub complete: bool,
    /// The watcher stopped it (a solution or a pause answered `false`).
    pub stopped: bool,
}

/// Runs `engine` from where it is until its end, a cancellation, or the
/// watcher's `false`, pausing every `every` nodes (`None`: never; the
/// watcher then hears of solutions only). The engine's own pause setting
/// is replaced.
pub fn watch<E, W>(engine: &mut E, every: Option<u64>, watcher: &mut W) -> Watched
where
    E: Engine + ?Sized,
    W: Watcher + ?Sized,
{
    engine.set_pause(every);
    let mut stopped = false;
    while let Some(event) = engine.next_event() {
        let go = match event {
            Event::Solution(options) => watcher.solution(options),
            Event::Pause => {
                let nodes = engine.stats().nodes;
                watcher.progress(nodes, engine.position())
            }
            // no frontier is set here (see the invariants above)
            Event::Frontier(..) => true,
        };
        if !go {
            stopped = true;
            break;
        }
    }
    Watched {
        complete: !stopped && engine.is_complete(),
        stopped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::EngineKind;

    /// The n queens problem as exact cover (rows and columns primary,
    /// diagonals secondary).
    fn queens(n: usize) -> crate::Problem {
        crate::classic::queens(n)
    }

    struct Collect {
        solutions: Vec<Vec<OptionId>>,
        pauses: u64,
        last_nodes: u64,
        last_fraction: f64,
        stop_after: Option<usize>,
        stop_at_pause: Option<u64>,
    }

    impl Collect {
        fn new() -> Collect {
            Collect {
                solutions: Vec::new(),
                pauses: 0,
                last_nodes: 0,
                last_fraction: 0.0,
                stop_after: None,
                stop_at_pause: None,
            }
        }
    }

    impl Watcher for Collect {
        fn solution(&mut self, options: &[OptionId]) -> bool {
            self.solutions.push(options.to_vec());
            self.stop_after != Some(self.solutions.len())
        }
        fn progress(&mut self, nodes: u64, fraction: f64) -> bool {
            assert!(nodes >= self.last_nodes, "nodes only grow");
            assert!(
                (0.0..=1.0).contains(&fraction) && fraction >= self.last_fraction,
                "the fraction only grows, within 0 to 1"
            );
            self.last_nodes = nodes;
            self.last_fraction = fraction;
            self.pauses += 1;
            self.stop_at_pause != Some(self.pauses)
        }
    }

    /// Watching gives the solutions of the engine's own loop, in its order,
    /// on every engine, with pauses on the way; each solution verifies.
    #[test]
    fn a_watched_search_is_the_search() {
        let p = queens(8);
        for kind in EngineKind::ALL {
            let Ok(mut plain) = kind.build(&p) else {
                continue;
            };
            let mut expected = Vec::new();
            while let Some(s) = plain.next_solution() {
                expected.push(s.to_vec());
            }
            let mut e = kind.build(&p).unwrap();
            let mut w = Collect::new();
            let r = watch(&mut *e, Some(64), &mut w);
            assert_eq!(
                r,
                Watched {
                    complete: true,
                    stopped: false
                },
                "{kind}"
            );
            assert_eq!(w.solutions, expected, "{kind}");
            assert_eq!(w.solutions.len(), 92, "{kind}");
            assert!(w.pauses > 0, "{kind}: pauses every 64 nodes");
            assert_eq!(e.stats().nodes, plain.stats().nodes, "{kind}");
            for s in &w.solutions {
                crate::verify(&p, s).unwrap();
            }
        }
    }

    /// A watcher's `false` stops the search at once, from a solution or a
    /// pause, and the search is then incomplete.
    #[test]
    fn a_watcher_stops_the_search() {
        let p = queens(8);
        let mut e = EngineKind::Dlx.build(&p).unwrap();
        let mut w = Collect::new();
        w.stop_after = Some(5);
        let r = watch(&mut *e, None, &mut w);
        assert_eq!(
            r,
            Watched {
                complete: false,
                stopped: true
            }
        );
        assert_eq!((w.solutions.len(), w.pauses), (5, 0));

        let mut e = EngineKind::Dlx.build(&p).unwrap();
        let mut w = Collect::new();
        w.stop_at_pause = Some(3);
        let r = watch(&mut *e, Some(10), &mut w);
        assert_eq!(
            r,
            Watched {
                complete: false,
                stopped: true
            }
        );
        assert_eq!(w.pauses, 3);
        assert!(w.solutions.len() < 92);
    }

    /// A cancelled engine ends incomplete (at its next check), and the
    /// watcher did not stop it.
    #[test]
    fn a_cancelled_search_is_incomplete() {
        let p = queens(12);
        let mut e = EngineKind::Dlx.build(&p).unwrap();
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        e.set_cancel(flag);
        let mut w = Collect::new();
        let r = watch(&mut *e, Some(1 << 10), &mut w);
        assert_eq!(
            r,
            Watched {
                complete: false,
                stopped: false
            }
        );
        assert!(e.is_cancelled());
        assert!(
            w.solutions.len() < 14_200,
            "12 queens have 14,200 solutions"
        );
    }
}
