// The Watch tab: Algorithm X with dancing links, step by step, as the
// server's DLX engine runs it (POST /api/cover/trace). The page draws the
// server's step records and nothing else: the incidence matrix with its
// hidden rows and covered columns, the partial solution, the search tree
// and the links each step changes, with a caption in words. Controls:
// step forward and back, play and pause at a speed, the next solution,
// restart; all by keyboard too. Examples a click away (#watch?example=ID
// opens one), or one's own small problem in Knuth's DLX format.
// Stepping back replays the records from the start (watch-state.js), so a
// step's drawing is always the same.
import { post, h, num, css, ApiError, toast } from '../api.js';
import { EXAMPLES, numbered } from './watch-examples.js';
import { stateAt, apply, caption, treeKey } from './watch-state.js';
import { makeMatrix, scrollInto, drawStack, drawTree, drawLinks, drawLinkPicture } from './watch-draw.js';

const STORE = 'dancer.watch.problem';
const STORE_EX = 'dancer.watch.example';
const STORE_SPEED = 'dancer.watch.speed';
const SPEEDS = [1, 2, 5, 10, 30, 100, 500];
const LIMITS = { items: 100, options: 400, entries: 2000, steps: 20000 };

const st = {
  spec: null, // what is watched: an example, or { id: 'paste', text }
  trace: null, // the server's answer
  labels: [], // per option
  s: null, // the state drawn
  matrix: null,
  treeKey: null,
  playing: false,
  timer: 0,
  seq: 0,
  section: null,
};
let ui = {};

export async function mount(section) {
  css('watch', new URL('./watch.css', import.meta.url));
  st.section = section;
  const btn = (name, shape, f, attrs = {}, after = false) => h('button', { type: 'button', onclick: f, title: name, ...attrs },
    after ? [`${name} `, icon(shape)] : [icon(shape), ` ${name}`]);
  ui.examples = h('div', { class: 'row examples', role: 'group', 'aria-label': 'Examples' },
    EXAMPLES.map((e) => h('button', {
      type: 'button', 'data-example': e.id, 'aria-pressed': 'false', title: e.about, onclick: () => openExample(e.id, true),
    }, e.title)));
  ui.text = h('textarea', {
    id: 'watch-problem', rows: 8, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', wrap: 'off',
    placeholder: '| a comment\na b c | x\na b\nc x:red\n...', 'aria-describedby': 'watch-error',
  });
  ui.text.addEventListener('input', () => localStorage.setItem(STORE, ui.text.value));
  ui.watchIt = h('button', { type: 'button', class: 'primary', onclick: watchPasted }, 'Watch it');
  ui.error = h('p', { id: 'watch-error', class: 'error', role: 'alert' });
  ui.paste = h('details', { class: 'paste' },
    h('summary', {}, 'Your own problem'),
    h('label', { for: 'watch-problem', class: 'block' }, 'Problem (DLX format)'),
    ui.text,
    h('div', { class: 'row' }, ui.watchIt,
      h('span', { class: 'muted small' }, 'Options are labelled by their numbers: #0 for the first option line.')));
  ui.about = h('p', { class: 'muted about', id: 'watch-about' });

  ui.restart = btn('Restart', 'restart', () => { pause(); go(0); });
  ui.back = btn('Step back', 'back', () => { pause(); go(st.s.i - 1); });
  ui.play = btn('Play', 'play', togglePlay, { class: 'primary play' });
  ui.fwd = btn('Step forward', 'forward', () => { pause(); go(st.s.i + 1); }, {}, true);
  ui.next = btn('Next solution', 'next', nextSolution, {}, true);
  ui.speed = h('select', { id: 'watch-speed' }, SPEEDS.map((v) => h('option', { value: v }, `${v} step${v === 1 ? '' : 's'}/s`)));
  ui.speed.value = localStorage.getItem(STORE_SPEED) || '5';
  if (!ui.speed.value) ui.speed.value = '5';
  ui.speed.addEventListener('change', () => {
    localStorage.setItem(STORE_SPEED, ui.speed.value);
    if (st.playing) { clearTimeout(st.timer); schedule(); }
  });
  ui.stopAtSol = h('input', { type: 'checkbox', id: 'watch-pause-sol', checked: true });
  ui.counter = h('p', { id: 'watch-counter', class: 'counter', 'aria-live': 'off' });
  ui.capHead = h('strong', { class: 'head' });
  ui.capDetail = h('span', { class: 'detail muted' });
  ui.caption = h('div', { id: 'watch-caption', class: 'caption', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' },
    ui.capHead, ui.capDetail);
  ui.limitNote = h('p', { class: 'state warn limit-note', hidden: true });
  ui.matbox = h('div', { class: 'matbox', tabindex: 0, role: 'region', 'aria-label': 'Incidence matrix (scrolls)' });
  ui.stack = h('ol', { id: 'watch-stack', class: 'stack', 'aria-label': 'Partial solution' });
  ui.tree = h('div', { id: 'watch-tree', class: 'treebox', tabindex: 0, role: 'region', 'aria-label': 'Search tree (scrolls)' });
  ui.links = h('tbody');
  ui.linksNote = h('p', { class: 'muted small links-note' });
  ui.linkPic = h('div', { class: 'linkpic', id: 'watch-linkpic' });
  ui.view = h('div', { id: 'watch-view', class: 'panel view', hidden: true },
    h('div', { class: 'row controls', role: 'toolbar', 'aria-label': 'Search controls' },
      ui.restart, ui.back, ui.play, ui.fwd, ui.next,
      h('label', { for: 'watch-speed' }, 'Speed', ui.speed),
      h('label', { for: 'watch-pause-sol' }, ui.stopAtSol, 'Pause at solutions')),
    ui.counter,
    ui.caption,
    ui.limitNote,
    h('div', { class: 'watch-grid' },
      h('section', { class: 'mat', 'aria-labelledby': 'watch-h-matrix' },
        h('h3', { id: 'watch-h-matrix' }, 'The matrix'),
        legend(),
        ui.matbox),
      h('section', { class: 'links', 'aria-labelledby': 'watch-h-links' },
        h('h3', { id: 'watch-h-links' }, 'The links of this step'),
        ui.linkPic,
        h('div', { class: 'linkbox' },
          h('table', { id: 'watch-links', class: 'links-table' },
            h('caption', { class: 'visually-hidden' }, 'Links changed by this step: each node\'s four links after it'),
            h('thead', {}, h('tr', {},
              h('th', { scope: 'col' }, 'Node'), h('th', { scope: 'col' }, 'What'),
              h('th', { scope: 'col', title: 'left' }, 'L'), h('th', { scope: 'col', title: 'right' }, 'R'),
              h('th', { scope: 'col', title: 'up' }, 'U'), h('th', { scope: 'col', title: 'down' }, 'D'),
              h('th', { scope: 'col' }, 'Note'))),
            ui.links)),
        ui.linksNote),
      h('div', { class: 'side' },
        h('section', { 'aria-labelledby': 'watch-h-stack' },
          h('h3', { id: 'watch-h-stack' }, 'Partial solution'),
          ui.stack),
        h('section', { 'aria-labelledby': 'watch-h-tree' },
          h('h3', { id: 'watch-h-tree' }, 'Search tree'),
          ui.tree))));
  ui.busy = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });

  section.append(
    h('h2', {}, 'Watch the links dance'),
    h('p', { class: 'muted intro' },
      'Algorithm X with dancing links, one step at a time, exactly as the server\'s DLX engine runs it: ',
      'it chooses the item with the fewest options, covers it (its options hidden from the other items), ',
      'tries each of its options in turn and backs up when an item cannot be covered.'),
    h('p', { class: 'muted small limits' },
      `For small problems: at most ${LIMITS.items} items, ${LIMITS.options} options and ${num(LIMITS.entries)} entries; `,
      `the first ${num(LIMITS.steps)} steps of the search are shown.`),
    ui.examples,
    ui.paste,
    ui.error,
    ui.about,
    ui.busy,
    ui.view,
    h('p', { class: 'muted small keys', id: 'watch-keys' },
      'Keys: → step forward, ← step back, Space play or pause, n next solution, Home restart, End the last step ',
      '(when the focus is not in a text field; Space on a button presses the button).'));

  document.addEventListener('keydown', onKey);
  const saved = localStorage.getItem(STORE);
  if (saved) ui.text.value = saved;
}

export async function show(section, rest) {
  const q = new URLSearchParams((rest || '').replace(/^[?/]/, ''));
  const want = q.get('example');
  const step = q.has('step') ? parseInt(q.get('step'), 10) : null;
  if (want && EXAMPLES.some((e) => e.id === want)) {
    if (!st.spec || st.spec.id !== want) await openExample(want);
  } else if (!st.spec) {
    const last = localStorage.getItem(STORE_EX);
    if (last === 'paste' && ui.text.value.trim()) {
      ui.paste.open = true;
      await watchPasted();
    }
    if (!st.trace) await openExample(EXAMPLES.some((e) => e.id === last) ? last : 'lecture');
  }
  if (step != null && st.trace && step >= 0) go(step);
}

/** A button's picture (the button's text names it). */
const ICONS = {
  restart: 'M3 3h2.5v14H3zM17 3v14L6.5 10z',
  back: 'M15 3v14L4 10z',
  play: 'M5 3v14l11-7z',
  pause: 'M4.5 3h4v14h-4zM11.5 3h4v14h-4z',
  forward: 'M5 3v14l11-7z',
  next: 'M2 3v14l7.5-7zM9.5 3v14l7.5-7zM16 3h2.5v14H16z',
};
function icon(name) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 20 20');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

function legend() {
  const key = (cls, words) => h('span', { class: 'key' }, h('span', { class: `sw ${cls}`, 'aria-hidden': 'true' }), words);
  return h('p', { class: 'legend small' },
    key('chosen', 'item chosen'), key('via', 'covered through the option tried'),
    key('hidden', 'row hidden (unlinked)'), key('stack', 'option tried'));
}

// ---- loading ----

/** Opens example `id` (`byUser`: from its button, and the address says so). */
async function openExample(id, byUser = false) {
  const e = EXAMPLES.find((x) => x.id === id);
  if (!e) return;
  localStorage.setItem(STORE_EX, id);
  if (byUser) link(`#watch?example=${id}`);
  await load(e);
}

/** The address for what is shown (no new history entry, no hashchange). */
function link(hash) {
  if (location.hash !== hash && location.hash.startsWith('#watch')) history.replaceState(null, '', hash);
}

async function watchPasted() {
  const text = ui.text.value;
  if (!text.trim()) { ui.error.textContent = 'Write or paste a problem first.'; ui.text.focus(); return; }
  localStorage.setItem(STORE, text);
  localStorage.setItem(STORE_EX, 'paste');
  if (location.hash.includes('example=')) link('#watch');
  await load({ id: 'paste', title: 'Your problem', text, label: numbered, about: 'its options labelled by their numbers (#0: the first option line).' });
}

async function load(spec) {
  pause();
  const seq = ++st.seq;
  ui.error.textContent = '';
  ui.busy.textContent = `Tracing ${spec.title.toLowerCase()}…`;
  for (const b of ui.examples.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.example === spec.id));
  try {
    const trace = await post('/api/cover/trace', { problem: spec.text });
    if (seq !== st.seq) return;
    st.spec = spec;
    st.trace = trace;
    st.labels = trace.options.map((o, k) => spec.label(o, k));
    st.matrix = makeMatrix(trace, label);
    st.treeKey = null;
    st.s = null;
    ui.matbox.replaceChildren(st.matrix.el);
    const sm = trace.summary;
    const sols = `${num(sm.solutions)} solution${sm.solutions === 1 ? '' : 's'}`;
    ui.about.replaceChildren(h('strong', {}, spec.title), `: ${spec.about} `,
      h('span', { class: 'small' }, `${trace.items.length} items, ${trace.options.length} options; `, sm.at_limit
        ? `the first ${num(trace.steps.length)} steps of the search: ${num(sm.nodes)} nodes, ${sols} so far.`
        : `the search takes ${num(trace.steps.length)} steps: ${num(sm.nodes)} nodes, ${sols}.`));
    ui.limitNote.hidden = !sm.at_limit;
    ui.limitNote.textContent = sm.at_limit
      ? `The trace stops at its limit of ${num(trace.limits ? trace.limits.steps : trace.steps.length)} steps (at node ${num(sm.node)}, level ${sm.level}): the search goes on beyond it.`
      : '';
    ui.busy.textContent = '';
    ui.view.hidden = false;
    ui.view.dataset.example = spec.id;
    go(0);
  } catch (e) {
    if (seq !== st.seq) return;
    ui.busy.textContent = '';
    const where = e instanceof ApiError ? e.where() : e.message;
    const kind = e instanceof ApiError && e.kind ? e.kind : '';
    ui.error.dataset.kind = kind;
    const why = { too_big: 'Too big to watch', unsupported: 'Not for this view' }[kind];
    ui.error.textContent = why ? `${why}: ${where}.` : `Could not trace it: ${where}`;
    // nothing stale stays on the page
    st.spec = spec;
    st.trace = null;
    st.s = null;
    ui.view.hidden = true;
    ui.about.textContent = '';
  }
}

function label(k) {
  return st.labels[k] != null ? st.labels[k] : `#${k}`;
}

// ---- moving ----

/** Shows the state after step i (0 to the trace's length). */
function go(i) {
  const tr = st.trace;
  if (!tr) return;
  const n = tr.steps.length;
  i = Math.max(0, Math.min(n, i | 0));
  if (st.s && i === st.s.i + 1) apply(st.s, tr.steps[i - 1]);
  else if (!st.s || i !== st.s.i) st.s = stateAt(tr, i);
  draw();
}

/** Moves on up to `k` steps (stopping after a solution when asked); false at the end. */
function forward(k) {
  const tr = st.trace;
  const n = tr.steps.length;
  let moved = false;
  for (let j = 0; j < k && st.s.i < n; j++) {
    apply(st.s, tr.steps[st.s.i]);
    moved = true;
    if (st.s.rec.action === 'solution' && ui.stopAtSol.checked) { draw(); return 'solution'; }
  }
  if (moved) draw();
  return st.s.i < n;
}

function nextSolution() {
  pause();
  const tr = st.trace;
  if (!tr) return;
  const from = st.s.i;
  const j = tr.steps.findIndex((r, idx) => idx >= from && r.action === 'solution');
  if (j < 0) {
    go(tr.steps.length);
    toast(tr.summary.at_limit ? 'No more solutions within the steps traced.' : 'No more solutions: the search is over.');
    return;
  }
  go(j + 1);
}

function togglePlay() {
  if (st.playing) pause();
  else play();
}

function play() {
  if (!st.trace) return;
  if (st.s.i >= st.trace.steps.length) go(0);
  st.playing = true;
  ui.caption.setAttribute('aria-live', 'off');
  playButton();
  schedule();
}

function pause() {
  if (!st.playing) return;
  st.playing = false;
  clearTimeout(st.timer);
  ui.caption.setAttribute('aria-live', 'polite');
  playButton();
}

function playButton() {
  ui.play.replaceChildren(icon(st.playing ? 'pause' : 'play'), st.playing ? ' Pause' : ' Play');
  ui.play.title = st.playing ? 'Pause' : 'Play';
}

/** The next tick of play: as many steps as the speed asks for the time
 * gone by (a slow drawing does not slow the search down). */
function schedule() {
  const speed = Number(ui.speed.value) || 5;
  const every = Math.max(16, 1000 / speed);
  st.last = performance.now();
  st.due = 0;
  const tick = () => {
    if (!st.playing) return;
    const now = performance.now();
    st.due += ((now - st.last) * speed) / 1000;
    st.last = now;
    const k = Math.floor(st.due);
    st.due -= k;
    const more = k > 0 ? forward(k) : true;
    if (more === true) st.timer = setTimeout(tick, every);
    else pause();
  };
  st.timer = setTimeout(tick, every);
}

function onKey(e) {
  if (!st.section || st.section.hidden || !st.trace || e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  const tag = t && t.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (t && t.isContentEditable)) return;
  // the matrix and the tree scroll with the arrow keys when focused
  if (t && t.closest && t.closest('.matbox, .treebox') && e.key.startsWith('Arrow')) return;
  const onButton = tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY';
  switch (e.key) {
    case 'ArrowRight': pause(); go(st.s.i + 1); break;
    case 'ArrowLeft': pause(); go(st.s.i - 1); break;
    case ' ': if (onButton) return; togglePlay(); break;
    case 'n': case 'N': nextSolution(); break;
    case 'Home': pause(); go(0); break;
    case 'End': pause(); go(st.trace.steps.length); break;
    default: return;
  }
  e.preventDefault();
}

// ---- drawing ----

function draw() {
  const tr = st.trace;
  const s = st.s;
  const r = s.rec;
  const n = tr.steps.length;
  const now = st.matrix.update(s);
  if (!st.playing || Number(ui.speed.value) <= 30) {
    scrollInto(ui.matbox, now.row, { x: false });
    scrollInto(ui.matbox, now.col, { y: false });
  }
  drawStack(ui.stack, s, label, tr);
  const key = treeKey(s);
  if (key !== st.treeKey) {
    st.treeKey = key;
    drawTree(ui.tree, s, label);
  }
  drawLinks(ui.links, ui.linksNote, s, tr, label);
  drawLinkPicture(ui.linkPic, s, tr, label);
  const [head, detail] = caption(tr, s, label);
  ui.capHead.textContent = head;
  ui.capDetail.textContent = detail ? ` ${detail}` : '';
  const end = s.i >= n;
  const level = r ? r.level : 0;
  const nodes = 1 + s.tries;
  ui.counter.replaceChildren(
    h('span', { 'data-stat': 'step' }, `Step ${num(s.i)} of ${num(n)}`),
    h('span', { 'data-stat': 'level' }, `level ${level}`),
    h('span', { 'data-stat': 'nodes' }, `nodes ${num(nodes)}`),
    h('span', { 'data-stat': 'solutions' }, `solutions ${num(s.solutions)}`),
    end ? h('span', { class: 'end' }, tr.summary.at_limit ? 'the trace ends here' : 'the search is over') : '');
  const v = ui.view.dataset;
  v.step = String(s.i);
  v.steps = String(n);
  v.level = String(level);
  v.nodes = String(nodes);
  v.solutions = String(s.solutions);
  v.action = r ? r.action : '';
  ui.back.disabled = s.i === 0;
  ui.fwd.disabled = end;
  ui.next.disabled = end;
}
