//! Where solutions go: the [`Sink`] trait and a few ready-made sinks.

use crate::problem::OptionId;

/// What a sink wants after seeing a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep searching.
    Continue,
    /// Stop the search now; the run is reported as incomplete.
    Stop,
}

/// Receives each solution as the list of its options (in the order the
/// engine chose them). The slice is only valid during the call.
pub trait Sink {
    fn solution(&mut self, options: &[OptionId]) -> Flow;
}

impl<F: FnMut(&[OptionId]) -> Flow> Sink for F {
    fn solution(&mut self, options: &[OptionId]) -> Flow {
        self(options)
    }
}

/// Counts solutions and keeps nothing.
#[derive(Default, Debug)]
pub struct CountSink {
    pub count: u64,
}

impl Sink for CountSink {
    fn solution(&mut self, _: &[OptionId]) -> Flow {
        self.count += 1;
        Flow::Continue
    }
}

/// Keeps the first solution and stops.
#[derive(Default, Debug)]
pub struct FirstSink {
    pub solution: Option<Vec<OptionId>>,
}

impl Sink for FirstSink {
    fn solution(&mut self, options: &[OptionId]) -> Flow {
        self.solution = Some(options.to_vec());
        Flow::Stop
    }
}

/// Keeps every solution, or the first `limit` of them.
#[derive(Default, Debug)]
pub struct CollectSink {
    pub solutions: Vec<Vec<OptionId>>,
    pub limit: Option<usize>,
}

impl CollectSink {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn with_limit(limit: usize) -> Self {
        CollectSink {
            solutions: Vec::new(),
            limit: Some(limit),
        }
    }
}

impl Sink for CollectSink {
    fn solution(&mut self, options: &[OptionId]) -> Flow {
        self.solutions.push(options.to_vec());
        match self.limit {
            Some(l) if self.solutions.len() >= l => Flow::Stop,
            _ => Flow::Continue,
        }
    }
}
