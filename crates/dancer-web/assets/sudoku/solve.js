// The Solve Sudoku tab: paste one puzzle or many (one per line), then
// solve, count or rate them all (POST /api/sudoku/batch: the command
// line's records, in input order), see any answer on the grid, and follow
// a puzzle's whole logical solution step by step (POST /api/sudoku/path),
// each step drawn on the grid as it was before the step: the candidates
// left, the step's cells, its placements and eliminations.
import { post, h, num, ApiError, css } from '../api.js';
import { makeBoard, symbol, cellName } from './board.js';

const STORE = 'dancer.solve.text';
const SHOW_MAX = 2000; // result rows drawn (the rest are counted)

const EXAMPLES = [
  '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......',
  '..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..',
  '.................................................................................',
  '12345678.........9...............................................................',
  '..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..',
].join('\n');

const st = { records: [], action: null, puzzles: [], chosen: null, path: null, step: 0 };
let ui = {};
let board = null;
let boardKey = '';

/** The puzzle lines of the text, by line number (1-based), as the server numbers them. */
function linesOf(text) {
  const m = new Map();
  text.split('\n').forEach((l, i) => m.set(i + 1, l.trim()));
  return m;
}

function rulesOf() {
  const v = ui.variant.value;
  return { diagonal: v === 'diagonal', windoku: v === 'windoku' };
}

export async function mount(section) {
  css('sudoku', new URL('./sudoku.css', import.meta.url));
  const id = (s) => `solve-${s}`;
  ui.text = h('textarea', { id: id('text'), rows: 8, spellcheck: 'false', autocomplete: 'off', autocapitalize: 'off', wrap: 'off',
    placeholder: 'One puzzle per line: 81 characters, 1-9 and . (or 0) for empty cells; 16, 36 or 256 for other sizes.' });
  ui.variant = h('select', { id: id('variant') },
    [['none', 'Plain'], ['diagonal', 'Diagonal (X)'], ['windoku', 'Windoku']].map(([v, t]) => h('option', { value: v }, t)));
  ui.limit = h('input', { type: 'number', id: id('limit'), min: 1, max: 10000000, step: 1, value: 1000, inputmode: 'numeric', class: 'limit' });
  const btn = (label, f, cls) => h('button', { type: 'button', class: cls, onclick: f }, label);
  ui.solve = btn('Solve', () => run('solve'), 'primary');
  ui.count = btn('Count', () => run('count'));
  ui.rate = btn('Rate', () => run('rate'));
  ui.pathBtn = btn('Solution path', () => path(firstPuzzle()), '');
  ui.state = h('p', { class: 'state', role: 'status', 'aria-live': 'polite', id: id('state') });
  ui.table = h('table', { class: 'results', id: id('results') });
  ui.more = h('p', { class: 'muted' });
  ui.boardWrap = h('div', { class: 'board-wrap' });
  ui.caption = h('p', { class: 'muted', id: id('caption') });
  ui.stepText = h('div', { class: 'step-text', role: 'status', 'aria-live': 'polite', id: id('step-text') });
  ui.prev = btn('Previous step', () => goStep(st.step - 1));
  ui.next = btn('Next step', () => goStep(st.step + 1));
  ui.counter = h('span', { class: 'counter', id: id('counter') });
  ui.steps = h('ol', { class: 'steps', 'aria-label': 'Steps of the solution path', tabindex: 0, id: id('steps') });
  ui.steps.addEventListener('keydown', (e) => {
    const to = { ArrowUp: st.step - 1, ArrowDown: st.step + 1, ArrowLeft: st.step - 1, ArrowRight: st.step + 1, Home: 0, End: st.path ? st.path.steps.length : 0 }[e.key];
    if (to == null) return;
    e.preventDefault();
    goStep(to);
  });
  ui.pathBox = h('section', { class: 'pathbox', 'aria-label': 'Solution path', hidden: true },
    h('h3', {}, 'Solution path'),
    h('div', { class: 'row', role: 'toolbar', 'aria-label': 'Steps' }, ui.prev, ui.counter, ui.next),
    ui.stepText, ui.steps);

  section.append(
    h('h2', {}, 'Solve Sudoku'),
    h('label', { for: id('text'), class: 'block' }, 'Puzzles, one per line'),
    ui.text,
    h('div', { class: 'row' },
      h('label', { for: id('variant') }, 'Rules', ui.variant),
      h('label', { for: id('limit') }, 'Count up to', ui.limit),
      ui.solve, ui.count, ui.rate, ui.pathBtn,
      btn('Load examples', () => { ui.text.value = EXAMPLES; save(); })),
    h('p', { class: 'muted small' }, 'Up to 10,000 puzzles at once. Ratings are on the Sudoku Explainer scale, for plain 9×9. The solution path takes the steps Sudoku Explainer would: the easiest of the first technique that applies.'),
    ui.state,
    h('div', { class: 'sudoku-layout' },
      h('div', { class: 'board-wrap-outer' }, ui.boardWrap, ui.caption),
      h('div', { class: 'sudoku-side' }, ui.pathBox)),
    h('section', { 'aria-label': 'Results' }, ui.table, ui.more),
  );
  ui.text.addEventListener('input', save);
  const saved = localStorage.getItem(STORE);
  ui.text.value = saved != null ? saved : EXAMPLES;
}

export function show() {}

function save() {
  try { localStorage.setItem(STORE, ui.text.value); } catch (e) { /* too large to keep: fine */ }
}

function firstPuzzle() {
  const l = ui.text.value.split('\n').map((x) => x.trim()).find((x) => x && !x.startsWith('#'));
  return l || '';
}

function setState(text, kind = '') {
  ui.state.textContent = text;
  ui.state.className = 'state ' + kind;
}

function busy(b) {
  for (const x of [ui.solve, ui.count, ui.rate, ui.pathBtn]) x.disabled = b;
}

async function run(action) {
  const text = ui.text.value;
  if (!text.trim()) { setState('Paste a puzzle first.', 'error'); ui.text.focus(); return; }
  const body = { text, action, rules: rulesOf() };
  if (action === 'count') {
    const l = Number(ui.limit.value);
    if (!Number.isInteger(l) || l < 1 || l > 10000000) { setState('Count up to: a whole number from 1 to 10,000,000.', 'error'); ui.limit.focus(); return; }
    body.limit = l;
  }
  if (action === 'rate') body.timeout = 20;
  busy(true);
  setState({ solve: 'Solving…', count: 'Counting…', rate: 'Rating…' }[action]);
  const t0 = performance.now();
  try {
    const r = await post('/api/sudoku/batch', body);
    st.records = r.records || [];
    st.action = action;
    st.puzzles = linesOf(text);
    const s = ((performance.now() - t0) / 1000).toFixed(2);
    setState(`${num(st.records.length)} puzzle${st.records.length === 1 ? '' : 's'}: ${summary()} (${s} s).`, 'good');
    table();
    const first = st.records.findIndex((x) => x.status !== 'invalid');
    if (first >= 0) choose(first);
  } catch (e) {
    setState(e instanceof ApiError ? e.where() : e.message, 'error');
  } finally {
    busy(false);
  }
}

function summary() {
  const by = new Map();
  for (const x of st.records) {
    let k;
    if (st.action === 'count') k = x.status === 'invalid' ? 'invalid' : x.complete ? `${x.count === 1 ? 'one solution' : 'counted'}` : 'at the limit';
    else if (st.action === 'rate') k = x.status || (x.solved ? 'rated' : 'rated in part');
    else k = x.status;
    by.set(k, (by.get(k) || 0) + 1);
  }
  return [...by].map(([k, n]) => `${num(n)} ${k}`).join(', ');
}

function resultCells(x) {
  const a = st.action;
  if (x.status === 'invalid') return [h('td', { class: 'error' }, `invalid: ${x.error}${x.cell ? ` (cell ${x.cell})` : ''}`)];
  if (a === 'solve') {
    if (x.status === 'unique') return [h('td', { class: 'mono' }, h('span', { class: 'good' }, 'unique '), x.solution)];
    if (x.status === 'multiple') return [h('td', { class: 'mono' }, h('span', { class: 'warn' }, 'multiple '), (x.solutions || [])[0] || '', ' …')];
    return [h('td', {}, h('span', { class: 'error' }, x.status))];
  }
  if (a === 'count') return [h('td', {}, x.complete ? `${num(x.count)} solution${x.count === 1 ? '' : 's'}` : `at least ${num(x.count)} (the limit)`)];
  if (a === 'rate') {
    if (x.status) return [h('td', {}, x.status)];
    return [h('td', {}, `SE ${x.at_least ? '≥ ' : ''}${Number(x.rating).toFixed(1)} (${x.level}), hardest: ${x.hardest || '—'}, ${num(x.steps)} steps${x.solved ? '' : ', not solved by logic'}`)];
  }
  return [h('td', {}, x.status || '')];
}

function table() {
  const rows = st.records.slice(0, SHOW_MAX).map((x, i) => {
    const p = st.puzzles.get(x.line) || x.puzzle || '';
    const actions = [];
    if (x.status !== 'invalid') actions.push(h('button', { type: 'button', onclick: () => choose(i), 'aria-label': `Show line ${x.line} on the grid` }, 'Show'));
    const unsolvable = ['invalid', 'multiple', 'none', 'not unique'].includes(x.status) || (st.action === 'count' && x.count !== 1);
    if (!unsolvable && p.replace(/\s/g, '').length === 81) actions.push(' ', h('button', { type: 'button', onclick: () => path(p), 'aria-label': `Solution path of line ${x.line}` }, 'Path'));
    return h('tr', { 'data-line': x.line }, h('td', {}, String(x.line)), h('td', { class: 'mono' }, p), ...resultCells(x), h('td', {}, actions));
  });
  ui.table.replaceChildren(
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Line'), h('th', { scope: 'col' }, 'Puzzle'), h('th', { scope: 'col' }, 'Result'), h('th', { scope: 'col' }, ''))),
    h('tbody', {}, rows));
  ui.more.textContent = st.records.length > SHOW_MAX ? `${num(st.records.length - SHOW_MAX)} more not shown.` : '';
}

/** The grid's regions and extra units for a size and the rules chosen. */
function layout(n) {
  const boxes = { 4: [2, 2], 6: [2, 3], 8: [2, 4], 9: [3, 3], 12: [3, 4], 16: [4, 4], 25: [5, 5] }[n] || [1, n];
  const [br, bc] = boxes;
  const regions = Array.from({ length: n * n }, (_, i) => Math.floor(Math.floor(i / n) / br) * (n / bc) + Math.floor((i % n) / bc));
  const extra = [];
  const v = ui.variant.value;
  if (v === 'diagonal') {
    extra.push(Array.from({ length: n }, (_, i) => i * n + i), Array.from({ length: n }, (_, i) => i * n + n - 1 - i));
  }
  if (v === 'windoku' && n === 9) {
    for (const [r0, c0] of [[1, 1], [1, 5], [5, 1], [5, 5]]) {
      const u = [];
      for (let r = r0; r < r0 + 3; r++) for (let c = c0; c < c0 + 3; c++) u.push(r * 9 + c);
      extra.push(u);
    }
  }
  return { regions, extra };
}

function ensureBoard(n, label) {
  const { regions, extra } = layout(n);
  const key = JSON.stringify([n, extra]);
  if (key !== boardKey) {
    boardKey = key;
    board = makeBoard({ size: n, regions, extraUnits: extra, label });
    ui.boardWrap.replaceChildren(board.root);
  }
  board.root.setAttribute('aria-label', label);
  return board;
}

function digitsOf(line) {
  return [...line.replace(/\s/g, '')].map((ch) => {
    if (ch === '.' || ch === '0') return 0;
    if (ch >= '1' && ch <= '9') return ch.charCodeAt(0) - 48;
    return ch.toUpperCase().charCodeAt(0) - 55;
  });
}

function choose(i) {
  const x = st.records[i];
  if (!x) return;
  for (const tr of ui.table.querySelectorAll('tr.chosen')) tr.classList.remove('chosen');
  const tr = ui.table.querySelector(`tr[data-line="${x.line}"]`);
  if (tr) tr.classList.add('chosen');
  const p = (st.puzzles.get(x.line) || x.puzzle || '').replace(/\s/g, '');
  const givens = digitsOf(p);
  const n = Math.round(Math.sqrt(givens.length));
  if (n * n !== givens.length || n < 4) { ui.caption.textContent = 'This line is not drawn (not one puzzle on one line).'; return; }
  const sol = x.solution ? digitsOf(x.solution) : x.solutions ? digitsOf(x.solutions[0]) : null;
  const cells = givens.map((g, c) => ({ digit: g || (sol ? sol[c] : 0), given: !!g, marks: [] }));
  ensureBoard(n, `Line ${x.line}${sol ? ', solved' : ''}`).draw({ cells, selected: null });
  ui.caption.textContent = `Line ${x.line}: ${sol ? (x.status === 'multiple' ? 'the first of several solutions' : 'the solution') + ' (givens in bold)' : 'the givens'}.`;
}

// ---- the logical solution path ----

async function path(puzzle) {
  if (!puzzle) { setState('Paste a puzzle first.', 'error'); return; }
  busy(true);
  setState('Finding the solution path…');
  try {
    const r = await post('/api/sudoku/path', { puzzle, rules: rulesOf(), timeout: 30 });
    if (r.status !== 'rated') {
      setState(r.message || 'No logical solution path: the puzzle has no unique solution.', 'error');
      ui.pathBox.hidden = true;
      return;
    }
    st.path = { ...r, puzzle: puzzle.replace(/\s/g, '') };
    st.step = 0;
    ui.pathBox.hidden = false;
    ui.steps.replaceChildren(...r.steps.map((s, i) =>
      h('li', { 'data-step': i, onclick: () => goStep(i) }, h('span', { class: 'r' }, `${s.rating.toFixed(1)} `), s.technique)),
    h('li', { 'data-step': r.steps.length, onclick: () => goStep(r.steps.length) }, r.solved ? 'Solved' : 'Stopped: logic goes no further'));
    const stopped = r.stopped ? ` (stopped: ${r.stopped})` : '';
    setState(`Solution path: ${r.steps.length} steps, rating SE ${r.rating.toFixed(1)} (${r.level})${r.solved ? '' : ', not solved by logic alone'}${stopped}.`, 'good');
    goStep(0);
  } catch (e) {
    setState(e instanceof ApiError ? e.where() : e.message, 'error');
  } finally {
    busy(false);
  }
}

/** The grid after every step (the state before step k is k's own `before`). */
function finalCells(p) {
  const last = p.steps[p.steps.length - 1];
  const givens = digitsOf(p.puzzle);
  if (!last) return givens.map((g) => ({ digit: g, given: !!g, marks: [] }));
  const values = digitsOf(last.before.values);
  const cands = last.before.candidates.map((s) => [...s].map(Number));
  for (const [c, d] of last.placements) { values[c] = d; cands[c] = []; }
  for (const [c, d] of last.eliminations) cands[c] = cands[c].filter((x) => x !== d);
  return values.map((v, c) => ({ digit: v, given: !!givens[c], marks: v ? [] : cands[c] }));
}

function goStep(k) {
  const p = st.path;
  if (!p) return;
  const n = p.steps.length;
  st.step = Math.max(0, Math.min(n, k));
  const givens = digitsOf(p.puzzle);
  const b = ensureBoard(9, `Solution path, step ${st.step + 1} of ${n + 1}`);
  if (st.step < n) {
    const s = p.steps[st.step];
    const values = digitsOf(s.before.values);
    const cells = values.map((v, c) => ({ digit: v, given: !!givens[c], marks: v ? [] : [...s.before.candidates[c]].map(Number) }));
    b.draw({ cells, selected: null, step: s });
    const what = [];
    if (s.placements.length) what.push(`place ${s.placements.map(([c, d]) => `${symbol(d)} in ${cellName(9, c)}`).join(', ')}`);
    if (s.eliminations.length) what.push(`remove ${s.eliminations.map(([c, d]) => `${symbol(d)} from ${cellName(9, c)}`).join(', ')}`);
    ui.stepText.replaceChildren(
      h('p', {}, h('strong', {}, `Step ${st.step + 1}: ${s.technique}`), ` (SE ${s.rating.toFixed(1)})`),
      h('p', {}, s.text),
      h('p', { class: 'muted small' }, what.length ? `${what.join('; ')}.` : ''));
  } else {
    b.draw({ cells: finalCells(p), selected: null });
    ui.stepText.replaceChildren(h('p', {}, h('strong', {}, p.solved ? 'Solved.' : 'Logic goes no further from here.')));
  }
  ui.counter.textContent = `Step ${st.step + 1} of ${n + 1}`;
  ui.prev.disabled = st.step === 0;
  ui.next.disabled = st.step >= n;
  ui.caption.textContent = 'Before each step: the candidates left; the step\'s cells shaded, placements in green, eliminations struck out in red.';
  for (const li of ui.steps.children) {
    if (Number(li.dataset.step) === st.step) { li.setAttribute('aria-current', 'step'); li.scrollIntoView({ block: 'nearest' }); }
    else li.removeAttribute('aria-current');
  }
}

