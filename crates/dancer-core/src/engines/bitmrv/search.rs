//! The search of `bitmrv`: a level's state pushed, kills applied, an item
//! chosen by Knuth's rule on the row of counts, branches tried and undone;
//! the estimate, and the invariant checker.

use super::kernels::*;
use super::*;

impl<'p> BitMrv<'p> {
    /// Level 0 back to the root's state.
    pub(super) fn load_root(&mut self) {
        let (w, np, npad) = (self.w, self.np, self.npad);
        self.live[..w].copy_from_slice(&self.root_live);
        self.lens[..npad].copy_from_slice(&self.root_lens);
        if self.mult {
            self.need[..npad].copy_from_slice(&self.root_need);
            self.cnt[..np].fill(0);
        }
        self.level = 0;
        self.phase = Phase::Fresh;
    }

    /// The item to branch on in level `l`'s state: (branches, item);
    /// `COVERED` branches when every item is covered (a solution).
    #[inline(always)]
    pub(super) fn choose(&mut self, l: usize) -> (u16, u32) {
        let npad = self.npad;
        let lens = &self.lens[l * npad..(l + 1) * npad];
        let (m, i) = if self.mult {
            let need = &self.need[l * npad..(l + 1) * npad];
            argmin_theta(lens, need, &mut self.theta)
        } else {
            argmin(lens)
        };
        (m, i as u32)
    }

    /// Copies level `l`'s state into level `l + 1`.
    #[inline(always)]
    pub(super) fn push_state(&mut self, l: usize) {
        let (w, np, npad) = (self.w, self.np, self.npad);
        if (l + 2) * w > self.live.len() {
            self.grow(l + 2);
        }
        self.live.copy_within(l * w..(l + 1) * w, (l + 1) * w);
        self.lens
            .copy_within(l * npad..(l + 1) * npad, (l + 1) * npad);
        if self.mult {
            self.need
                .copy_within(l * npad..(l + 1) * npad, (l + 1) * npad);
            self.cnt.copy_within(l * np..(l + 1) * np, (l + 1) * np);
        }
    }

    /// Makes room for the state of `levels` levels (at least). The first
    /// time, room for every level the search can reach is reserved (up to
    /// [`LEVEL_RESERVE`] bytes), untouched: its pages are only faulted in
    /// as levels are used, and no level is copied as the search goes
    /// deeper (doubling copied each level once more and touched twice its
    /// pages: a 16x16 Sudoku's 172 levels of 1.6 KB were a tenth of its
    /// run). Beyond the reserve, the state doubles.
    #[cold]
    pub(super) fn grow(&mut self, levels: usize) {
        let (w, np, npad) = (self.w, self.np, self.npad);
        let have = self.live.len() / w;
        let max = self.pend.len();
        let per_level = 16 * w + 2 * npad + if self.mult { 2 * npad + 4 * np } else { 0 };
        let reserve = max.min(LEVEL_RESERVE / per_level.max(1));
        if reserve > have && self.live.capacity() < reserve * w {
            self.live.reserve_exact(reserve * w - self.live.len());
            self.cand.reserve_exact(reserve * w - self.cand.len());
            self.lens.reserve_exact(reserve * npad - self.lens.len());
            if self.mult {
                self.need.reserve_exact(reserve * npad - self.need.len());
                self.cnt.reserve_exact(reserve * np - self.cnt.len());
            }
        }
        let want = if levels <= reserve {
            levels.max(have + 8).min(reserve)
        } else {
            levels.max(have * 2).min(max)
        };
        self.live.resize(want * w, 0);
        self.cand.resize(want * w, 0);
        self.lens.resize(want * npad, COVERED);
        if self.mult {
            self.need.resize(want * npad, 0);
            self.cnt.resize(want * np, 0);
        }
    }

    /// Rules out, in level `l`, the live options of the classes ORed into
    /// `self.kill`: clears them and counts them off their items. Returns
    /// the updates (Knuth's: the other entries of each option).
    #[inline(always)]
    pub(super) fn apply_kill(&mut self, l: usize) -> u64 {
        let (w, npad, s) = (self.w, self.npad, self.stride);
        let live = &mut self.live[l * w..(l + 1) * w];
        let lens = &mut self.lens[l * npad..(l + 1) * npad];
        let prims = &self.prims[..self.ids.len() * s];
        let cost = &self.cost[..self.ids.len()];
        // the loop with the options' length known to the compiler, for
        // the usual lengths
        let updates = match s {
            1 => kill_loop::<1>(live, &self.kill, lens, prims, cost),
            2 => kill_loop::<2>(live, &self.kill, lens, prims, cost),
            3 => kill_loop::<3>(live, &self.kill, lens, prims, cost),
            4 => kill_loop::<4>(live, &self.kill, lens, prims, cost),
            5 => kill_loop::<5>(live, &self.kill, lens, prims, cost),
            6 => kill_loop::<6>(live, &self.kill, lens, prims, cost),
            7 => kill_loop::<7>(live, &self.kill, lens, prims, cost),
            8 => kill_loop::<8>(live, &self.kill, lens, prims, cost),
            _ => kill_loop_any(live, &self.kill, lens, prims, cost, s, &self.pn),
        };
        lens[npad - 1] = COVERED;
        updates
    }

    /// Takes option `x` out of level `l` (a branch already tried, or about
    /// to be, at a level of multiplicities).
    #[inline(always)]
    pub(super) fn remove_one(&mut self, l: usize, x: usize) -> u64 {
        let (w, npad) = (self.w, self.npad);
        self.live[l * w + x / 64] &= !(1u64 << (x % 64));
        let lens = &mut self.lens[l * npad..(l + 1) * npad];
        let a = x * self.stride;
        for &j in &self.prims[a..a + self.pn[x] as usize] {
            lens[j as usize] = lens[j as usize].wrapping_sub(1);
        }
        self.cost[x] as u64
    }

    /// Covers item `i` in level `l` as Knuth does on choosing it: its
    /// options move from `live` to `cand`, and are counted off their other
    /// items. Returns the updates.
    #[inline(always)]
    pub(super) fn close_item(&mut self, l: usize, i: usize) -> u64 {
        let w = self.w;
        let class = &self.classes[i * w..(i + 1) * w];
        let live = &self.live[l * w..(l + 1) * w];
        let cand = &mut self.cand[l * w..(l + 1) * w];
        for ((c, &lv), &cl) in cand.iter_mut().zip(live).zip(class) {
            *c = lv & cl;
        }
        self.kill.copy_from_slice(class);
        let u = 1 + self.apply_kill(l);
        self.lens[l * self.npad + i] = COVERED;
        u
    }

    /// Applies option `x` to level `l`'s state (already a copy of its
    /// parent's), the branch taken on item `item` (whose own class, if
    /// closed already, is skipped). Returns the updates.
    #[inline(always)]
    pub(super) fn commit(&mut self, l: usize, x: usize, item: usize) -> u64 {
        let (w, np, npad) = (self.w, self.np, self.npad);
        let (ka, kb) = (self.koff[x] as usize, self.koff[x + 1] as usize);
        let mut updates = self.cost[x] as u64;
        self.kill.fill(0);
        for &c in &self.kills[ka..kb] {
            if c as usize == item {
                continue;
            }
            let class = &self.classes[c as usize * w..(c as usize + 1) * w];
            for (k, &v) in self.kill.iter_mut().zip(class) {
                *k |= v;
            }
        }
        let (pa, pb) = (x * self.stride, x * self.stride + self.pn[x] as usize);
        if !self.mult {
            updates += self.apply_kill(l);
            let lens = &mut self.lens[l * npad..(l + 1) * npad];
            for &j in &self.prims[pa..pb] {
                lens[j as usize] = COVERED;
            }
            return updates;
        }
        // multiplicities: an item is closed when its count reaches its most
        let mut closed = false;
        for p in pa..pb {
            let j = self.prims[p] as usize;
            let c = &mut self.cnt[l * np + j];
            *c += 1;
            let nd = &mut self.need[l * npad + j];
            *nd = nd.saturating_sub(1);
            if *c == self.hi[j] && self.lens[l * npad + j] != COVERED {
                closed = true;
                let class = &self.classes[j * w..(j + 1) * w];
                for (k, &v) in self.kill.iter_mut().zip(class) {
                    *k |= v;
                }
            }
        }
        updates += self.apply_kill(l);
        if closed {
            for p in pa..pb {
                let j = self.prims[p] as usize;
                if self.cnt[l * np + j] == self.hi[j] {
                    self.lens[l * npad + j] = COVERED;
                }
            }
        }
        updates
    }

    /// The next option of `cand[l]`, taken out of it.
    #[inline(always)]
    pub(super) fn next_cand(&mut self, l: usize) -> Option<usize> {
        let w = self.w;
        let f = &mut self.frames[l];
        let cand = &mut self.cand[l * w..(l + 1) * w];
        let mut k = f.word as usize;
        while k < w {
            let c = cand[k];
            if c != 0 {
                cand[k] = c & (c - 1);
                f.word = k as u32;
                return Some(k * 64 + c.trailing_zeros() as usize);
            }
            k += 1;
        }
        f.word = w as u32;
        None
    }

    /// Sets up the frame of level `l` for item `i` with `theta` branches.
    /// Returns the updates.
    #[inline(always)]
    pub(super) fn enter(&mut self, l: usize, i: usize, theta: u16) -> u64 {
        let w = self.w;
        let mut mode = Mode::Close;
        let mut stop_ok = false;
        if self.mult {
            let c = self.cnt[l * self.np + i];
            stop_ok = self.need[l * self.npad + i] == 0;
            if c + 1 < self.hi[i] {
                mode = Mode::Tweak;
            }
        }
        self.frames[l] = Frame {
            item: i as u32,
            mode,
            degree: theta as u32,
            tried: 0,
            word: 0,
            x: NONE,
            stop_ok,
        };
        match mode {
            Mode::Close => self.close_item(l, i),
            Mode::Tweak => {
                let class = &self.classes[i * w..(i + 1) * w];
                let live = &self.live[l * w..(l + 1) * w];
                let cand = &mut self.cand[l * w..(l + 1) * w];
                for ((c, &lv), &cl) in cand.iter_mut().zip(live).zip(class) {
                    *c = lv & cl;
                }
                0
            }
        }
    }

    /// Starts the next branch of level `l` into level `l + 1`: true when
    /// there was one. Adds the updates to `updates`.
    #[inline(always)]
    pub(super) fn next_branch(&mut self, l: usize, updates: &mut u64) -> bool {
        let f = self.frames[l];
        let i = f.item as usize;
        if f.x == STOP_X {
            return false;
        }
        match f.mode {
            Mode::Close => {
                if let Some(x) = self.next_cand(l) {
                    self.frames[l].x = x as u32;
                    self.frames[l].tried += 1;
                    self.push_state(l);
                    *updates += self.commit(l + 1, x, i);
                    return true;
                }
            }
            Mode::Tweak => {
                let left = self.lens[l * self.npad + i];
                let need = self.need[l * self.npad + i];
                if left >= need.max(1) {
                    if let Some(x) = self.next_cand(l) {
                        *updates += self.remove_one(l, x);
                        self.frames[l].x = x as u32;
                        self.frames[l].tried += 1;
                        self.push_state(l);
                        *updates += self.commit(l + 1, x, usize::MAX);
                        return true;
                    }
                }
            }
        }
        if f.stop_ok {
            // no more options for i: close it as it stands
            self.frames[l].x = STOP_X;
            self.frames[l].tried += 1;
            self.push_state(l);
            self.lens[(l + 1) * self.npad + i] = COVERED;
            return true;
        }
        false
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn step_avx2(&mut self) -> Step {
        self.step_portable()
    }

    #[inline(always)]
    pub(super) fn step_portable(&mut self) -> Step {
        let floor = self.ctl.floor;
        let mut nodes = self.ctl.stats.nodes;
        let mut updates = self.ctl.stats.updates;
        let frontier = self.ctl.frontier;
        let pause_at = self.ctl.pause_at;
        let cancel = self.ctl.cancel.clone();
        let mut level = self.level;
        let mut forward = match self.phase {
            Phase::Fresh => {
                level = floor;
                let (t, i) = self.choose(level);
                if t == COVERED {
                    // nothing left to cover: the empty (or prefix) solution
                    nodes += 1;
                    self.ctl.stats.profile[level] += 1;
                    self.ctl.stats.nodes = nodes;
                    self.level = level;
                    self.record(level);
                    self.ctl.solution.retain(|&o| o != STOP);
                    return Step::LastSolution;
                }
                self.pend[level] = (t, i);
                self.phase = Phase::Forward;
                let (w, npad) = (self.w, self.npad);
                self.floor_live
                    .copy_from_slice(&self.live[level * w..(level + 1) * w]);
                self.floor_lens
                    .copy_from_slice(&self.lens[level * npad..(level + 1) * npad]);
                true
            }
            Phase::Forward => true,
            Phase::Back => false,
        };
        let step = 'outer: loop {
            if forward {
                if level == frontier {
                    level -= 1;
                    self.phase = Phase::Back;
                    break Step::Frontier;
                }
                if nodes >= pause_at {
                    self.phase = Phase::Forward;
                    break Step::Pause;
                }
                nodes += 1;
                self.ctl.stats.profile[level] += 1;
                if Control::cancelled(&cancel, nodes) {
                    nodes -= 1;
                    self.ctl.stats.profile[level] -= 1;
                    self.phase = Phase::Forward;
                    break Step::Cancelled;
                }
                let (t, i) = self.pend[level];
                if t == 0 && !self.mult {
                    // Knuth covers the item even so
                    updates += 1;
                }
                if t == 0 {
                    self.frames[level].x = STOP_X;
                    self.frames[level].degree = 0;
                    self.frames[level].tried = 0;
                } else {
                    updates += self.enter(level, i as usize, t);
                }
            }
            // the next branch of `level`, or back up
            loop {
                if self.next_branch(level, &mut updates) {
                    break;
                }
                if level == floor {
                    // the floor's state as it was before it was entered
                    let (w, npad) = (self.w, self.npad);
                    self.live[level * w..(level + 1) * w].copy_from_slice(&self.floor_live);
                    self.lens[level * npad..(level + 1) * npad].copy_from_slice(&self.floor_lens);
                    self.phase = Phase::Fresh;
                    break 'outer Step::Done;
                }
                level -= 1;
            }
            let (t, i) = self.choose(level + 1);
            if t == COVERED {
                // a solution, counted as a node one level down
                nodes += 1;
                self.ctl.stats.profile[level + 1] += 1;
                self.phase = Phase::Back;
                break Step::Solution;
            }
            self.pend[level + 1] = (t, i);
            level += 1;
            forward = true;
        };
        self.level = level;
        self.ctl.stats.nodes = nodes;
        self.ctl.stats.updates = updates;
        if matches!(step, Step::Solution | Step::Frontier) {
            self.record(level + 1);
            if step == Step::Solution {
                self.ctl.solution.retain(|&o| o != STOP);
            }
        }
        step
    }

    /// Puts the options chosen at levels `0..top` into `solution`
    /// ([`STOP`] for "no more" branches; left out of solutions) with their
    /// levels' degrees.
    pub(super) fn record(&mut self, top: usize) {
        let (ids, frames) = (&self.ids, &self.frames);
        let path = frames[..top].iter().map(|f| {
            let o = if f.x == STOP_X || f.x == NONE {
                STOP
            } else {
                ids[f.x as usize] as OptionId
            };
            (o, f.degree)
        });
        self.ctl.record(path);
    }

    /// Knuth's estimate of the size of this engine's search tree: `probes`
    /// random paths from the root, each node weighted by the product of
    /// the degrees above it. Call on a fresh or reset engine; it is left
    /// at the root.
    pub fn estimate(&mut self, probes: usize, seed: u64) -> Estimate {
        let mut next_rand = crate::stats::xorshift(seed);
        let mut tally = Tally::default();
        for _ in 0..probes.max(1) {
            self.load_root();
            let mut weight = 1.0f64;
            let mut l = 0;
            loop {
                tally.node(weight);
                let (t, i) = self.choose(l);
                if t == COVERED {
                    break;
                }
                if t == 0 {
                    tally.updates(weight * (!self.mult) as u8 as f64);
                    break;
                }
                let u = self.enter(l, i as usize, t);
                tally.updates(weight * u as f64);
                // the r-th branch: skip the r before it as the search
                // would (a level of multiplicities removes them)
                let d = t as u64;
                let r = next_rand() % d;
                let mut u = 0u64;
                for _ in 0..r {
                    if let Some(x) = self.next_cand(l) {
                        self.frames[l].tried += 1;
                        if self.frames[l].mode == Mode::Tweak {
                            u += self.remove_one(l, x);
                        }
                    }
                }
                if !self.next_branch(l, &mut u) {
                    break;
                }
                // every branch of this node costs about as much as this one
                tally.updates(weight * d as f64 * u as f64);
                weight *= d as f64;
                l += 1;
            }
            tally.end_probe();
            if tally.small_tree() {
                break;
            }
        }
        self.load_root();
        tally.finish()
    }

    /// The options chosen (not "no more" branches) at the levels whose
    /// state is applied below `top`, as the engine numbers them.
    pub(super) fn chosen_below(&self, top: usize) -> Vec<usize> {
        self.frames[..top]
            .iter()
            .filter(|f| f.x != STOP_X && f.x != NONE)
            .map(|f| f.x as usize)
            .collect()
    }

    /// The deepest level whose state stands for the choices made.
    pub(super) fn top(&self) -> usize {
        match self.phase {
            Phase::Fresh => self.ctl.floor,
            Phase::Forward => self.level,
            Phase::Back => self.level + 1,
        }
    }

    /// Checks the state of the deepest level against the problem and the
    /// choices above it, as the invariants of the module documentation say
    /// (Knuth's `sanity()`): which options are live, every count, every
    /// covered item. Looks at every option: for small problems, in tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        let p = self.problem;
        let (w, np, npad) = (self.w, self.np, self.npad);
        let top = self.top();
        let chosen = self.chosen_below(top);
        // in the engine's numbering of primary items
        let mut rank = vec![0usize; np];
        for (r, &i) in self.unrank.iter().enumerate() {
            rank[i as usize] = r;
        }
        let eng = |i: usize| if i < np { rank[i] } else { i };
        let mut cnt = vec![0u32; np];
        let mut used: Vec<Option<u32>> = vec![None; p.n_items()];
        let mut bare = vec![false; p.n_items()];
        for &x in &chosen {
            for e in p.option(self.ids[x] as usize).entries() {
                if e.item < np {
                    cnt[rank[e.item]] += 1;
                } else if e.color == 0 {
                    bare[e.item] = true;
                } else {
                    used[e.item] = Some(e.color);
                }
            }
        }
        // items closed by a frame: covered (Close), or "no more" branches
        let mut closed = vec![false; np];
        for i in 0..np {
            closed[i] = cnt[i] >= self.hi[i];
        }
        for f in &self.frames[..top] {
            if f.x == STOP_X || f.mode == Mode::Close {
                closed[f.item as usize] = true;
            }
        }
        let live = &self.live[top * w..(top + 1) * w];
        let lens = &self.lens[top * npad..(top + 1) * npad];
        let mut want = vec![0u32; np];
        for x in 0..self.ids.len() {
            let o = self.ids[x] as usize;
            let ok = !chosen.contains(&x)
                && p.option(o).entries().all(|e| {
                    if e.item < np {
                        !closed[rank[e.item]]
                    } else if e.color == 0 {
                        !bare[e.item] && used[e.item].is_none()
                    } else {
                        !bare[e.item] && used[e.item].is_none_or(|c| c == e.color)
                    }
                })
                && self.frames[..top].iter().all(|f| {
                    // an earlier branch of a level of multiplicities on
                    // one of x's items removed x
                    f.mode != Mode::Tweak
                        || f.x == NONE
                        || !p.option(o).items().any(|i| eng(i) == f.item as usize)
                        || (f.x != STOP_X && x > f.x as usize)
                });
            let is = live[x / 64] >> (x % 64) & 1 == 1;
            if ok != is {
                return Err(format!(
                    "option {o} is {}live at level {top}, and should {}be",
                    if is { "" } else { "not " },
                    if ok { "" } else { "not " }
                ));
            }
            if ok {
                for i in p.option(o).items().filter(|&i| i < np) {
                    want[rank[i]] += 1;
                }
            }
        }
        for x in self.ids.len()..w * 64 {
            if live[x / 64] >> (x % 64) & 1 == 1 {
                return Err(format!("bit {x} past the last option is set"));
            }
        }
        for i in 0..np {
            let expect = if closed[i] { COVERED } else { want[i] as u16 };
            if lens[i] != expect {
                return Err(format!(
                    "item {} counts {} options at level {top}, not {expect}",
                    p.item_name(self.unrank[i] as usize),
                    lens[i]
                ));
            }
        }
        if lens[np..].iter().any(|&l| l != COVERED) {
            return Err("the padding of the counts is not COVERED".into());
        }
        if self.mult {
            if self.cnt[top * np..(top + 1) * np] != cnt[..] {
                return Err(format!("counts of chosen options {cnt:?} differ"));
            }
            for (i, (&lo, &c)) in self.lo.iter().zip(&cnt).enumerate() {
                let need = lo.saturating_sub(c).min(COVERED as u32) as u16;
                if self.need[top * npad + i] != need {
                    return Err(format!(
                        "item {} needs {need}",
                        p.item_name(self.unrank[i] as usize)
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Search for BitMrv<'_> {
    crate::engines::control::control_in_ctl!();

    fn step(&mut self) -> Step {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: AVX2 was detected when the engine was built.
            return unsafe { self.step_avx2() };
        }
        self.step_portable()
    }

    fn rewind(&mut self) {
        self.load_root();
    }

    fn follow(&mut self, prefix: &[OptionId]) -> Result<bool, DescendError> {
        self.load_root();
        let mut scratch = 0u64;
        for (l, &o) in prefix.iter().enumerate() {
            let bad = DescendError::NotChosenHere {
                level: l,
                option: o,
            };
            let (t, i) = self.choose(l);
            if t == COVERED || t == 0 {
                self.load_root();
                return Err(bad);
            }
            self.enter(l, i as usize, t);
            let mut ok = false;
            while self.next_branch(l, &mut scratch) {
                let x = self.frames[l].x;
                let here = if x == STOP_X {
                    STOP
                } else {
                    self.ids[x as usize] as OptionId
                };
                if here == o {
                    ok = true;
                    break;
                }
            }
            if !ok {
                self.load_root();
                return Err(bad);
            }
        }
        let l = prefix.len();
        self.level = l;
        let (t, i) = self.choose(l);
        self.pend[l] = (t, i);
        // the floor's node is entered by the first step
        self.phase = Phase::Fresh;
        Ok(t == COVERED)
    }

    fn position(&self) -> f64 {
        let lim = match self.phase {
            Phase::Fresh => return 0.0,
            Phase::Back => self.level + 1,
            Phase::Forward => self.level,
        };
        let mut f = 0.0;
        let mut w = 1.0;
        for fr in &self.frames[self.ctl.floor..lim] {
            w /= fr.degree.max(1) as f64;
            f += fr.tried.saturating_sub(1) as f64 * w;
        }
        f
    }
}
