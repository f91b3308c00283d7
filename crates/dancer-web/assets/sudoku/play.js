// The Play Sudoku tab: a game on the library's dancer_sudoku::play::Game,
// through POST /api/sudoku/game (API.md). The server keeps nothing: the
// page holds the saved game (an opaque string), sends it with each move and
// keeps the new one, in localStorage too, so that a reload restores it.
//
// What the page adds is presentation: the grid (board.js), the selection,
// the pencil-mark mode, the timer, the two-step hint (a nudge first, then
// the step drawn on the grid with a button to apply it), the share link,
// export/import of a game as a file, and printing. Moves go to the server
// one at a time, in order (a queue), so fast typing never loses one.
//
// Killer games (the variant "Killer" of a new game, or a killer line
// pasted as your own puzzle) are the same game with cages: the board
// draws them, the "Cage combinations" button (key C) lists the digit
// combinations of the selected cell's cage, and the hints are the killer
// techniques. A killer's share link carries its line (`#play?k=...`).
//
// Gattai games (the variant "Samurai / gattai" with a shape: twodoku,
// flower, samurai, ...; or a pasted line under those rules) are played on
// the shape's canvas (VIEW's height x width cells, `live` false for the
// cells in no grid): the board draws the dead cells blank and each
// grid's box lines, and scrolls in its own box when it is wider than the
// page. The share link carries the shape and the line (`#play?g=SHAPE&p=`).
import { post, toast, h, ApiError, css } from '../api.js';
import { makeBoard, digitOf, symbol, cellNameW } from './board.js';

const STORE = 'dancer.play.v1';
const DEFAULT_BOX = { 4: '2x2', 6: '2x3', 9: '3x3', 16: '4x4' };
/** A killer line (MAP SUMS [GIVENS]) or its JSON form, as pasted. */
const KILLER_TEXT = /^\s*(\{|[0-9A-Za-z.]{16,}\s+\d+(,\s*\d+)*(\s+\S+)?\s*$)/;

const st = {
  saved: null, // the game, as the server saved it
  view: null, // the server's VIEW of it
  meta: {}, // { rating, level, variant, seed, source }
  elapsed: 0, // seconds played before the clock's current run
  since: null, // when the clock's current run began (ms), null: stopped
  sel: null,
  pencil: false,
  wrong: new Set(), // cells found wrong by Check, until the next move
  hint: null, // { stage: 'nudge' | 'step', step } or { message }
  queue: Promise.resolve(),
  busy: 0,
};
let ui = {};
let board = null;
let boardKey = '';

// ---- the clock ----

function seconds() {
  return st.elapsed + (st.since != null ? (performance.now() - st.since) / 1000 : 0);
}

function clock(run) {
  if (run && st.since == null) st.since = performance.now();
  if (!run && st.since != null) { st.elapsed = seconds(); st.since = null; }
}

function fmtClock(s) {
  s = Math.floor(s);
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (x) => String(x).padStart(2, '0');
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

function tick() {
  if (!ui.timer) return;
  const running = st.view && !st.view.solved && document.visibilityState === 'visible' && !ui.section.hidden;
  clock(running);
  ui.timer.textContent = fmtClock(seconds());
}

// ---- saving in the browser ----

function persist() {
  if (!st.saved) return;
  try {
    localStorage.setItem(STORE, JSON.stringify({ game: st.saved, elapsed: seconds(), meta: st.meta }));
  } catch (e) {
    toast('The game could not be saved in this browser (storage full?).', 'error');
  }
}

function restoreDoc() {
  try {
    const doc = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (doc && typeof doc.game === 'string') return doc;
  } catch (e) { /* a damaged entry: start afresh */ }
  return null;
}

// ---- the server ----

/**
 * Sends one move; moves run one after another, each on the game the one
 * before left (read when it runs, not when it was asked for). `game`: a
 * game to load instead (a restore, an import). Returns the RESULT.
 */
function act(action, game = null) {
  const run = async () => {
    st.busy++;
    try {
      const g = action.type === 'start' ? null : game || st.saved;
      const r = await post('/api/sudoku/game', { game: g, action });
      // a grid filled by "Reveal all" is not solved by the player
      if (action.type === 'reveal' && action.cell == null) st.meta.revealed = true;
      else if (!r.view.solved) st.meta.revealed = false;
      adopt(r.game, r.view);
      return r.result;
    } finally {
      st.busy--;
    }
  };
  const p = st.queue.then(run);
  st.queue = p.catch(() => {});
  return p;
}

function adopt(game, view) {
  const was = st.view;
  st.saved = game;
  st.view = view;
  if (!was || was.puzzle !== view.puzzle) st.sel = firstEmpty(view);
  persist();
  draw();
  if (view.solved && !(was && was.solved && was.puzzle === view.puzzle)) solved();
}

/** The board's width (a gattai's canvas is no square). */
function widthOf(v) {
  return v.width || v.size;
}

function isLive(v, i) {
  return i >= 0 && i < v.cells.length && (!v.live || v.live[i]);
}

function cellName(v, c) {
  return cellNameW(widthOf(v), c);
}

function firstEmpty(v) {
  const i = v.cells.findIndex((c, j) => !c.digit && isLive(v, j));
  return i < 0 ? 0 : i;
}

function say(text, kind = '') {
  ui.msg.textContent = text;
  ui.msg.className = 'msg ' + kind;
}

function failed(e) {
  const text = e instanceof ApiError ? e.where() : String(e.message || e);
  say(text, 'error');
  toast(text, 'error');
}

// ---- the page ----

export async function mount(section) {
  css('sudoku', new URL('./sudoku.css', import.meta.url));
  ui.section = section;
  const id = (s) => `play-${s}`;
  const sel = (name, label, opts, value) => {
    const s = h('select', { id: id(name) }, opts.map(([v, t]) => h('option', { value: v }, t)));
    s.value = value;
    return [h('label', { for: id(name) }, label, s), s];
  };
  const [lLevel, level] = sel('level', 'Level', [['easy', 'Easy'], ['medium', 'Medium'], ['hard', 'Hard'], ['expert', 'Expert'], ['extreme', 'Extreme']], 'easy');
  const [lSize, size] = sel('size', 'Size', [['4', '4×4'], ['6', '6×6'], ['9', '9×9'], ['16', '16×16']], '9');
  const [lSym, symmetry] = sel('symmetry', 'Symmetry', [['none', 'None'], ['rotate180', 'Rotate 180°'], ['rotate90', 'Rotate 90°'], ['mirror', 'Mirror'], ['diagonal', 'Diagonal']], 'none');
  const [lVar, variant] = sel('variant', 'Variant', [['none', 'Plain'], ['diagonal', 'Diagonal (X)'], ['windoku', 'Windoku'], ['killer', 'Killer'], ['gattai', 'Samurai / gattai']], 'none');
  const SHAPES = [['twodoku', 'Twodoku'], ['flower', 'Flower'], ['samurai', 'Samurai'], ['sohei', 'Sohei'], ['butterfly', 'Butterfly'], ['windmill', 'Windmill']];
  const [lShape, shape] = sel('shape', 'Shape', SHAPES, 'samurai');
  Object.assign(ui, { level, size, symmetry, variant, shape });
  ui.newBtn = h('button', { type: 'button', class: 'primary', onclick: () => newGame() }, 'New puzzle');
  ui.levelNote = h('span', { class: 'muted small', id: id('level-note') });
  const levelRule = () => {
    shape.disabled = variant.value !== 'gattai';
    ui.ownShape.disabled = ui.ownVariant.value !== 'gattai';
    if (variant.value === 'gattai') {
      size.value = '9';
      size.disabled = true;
      symmetry.disabled = true;
      level.disabled = true;
      ui.levelNote.textContent = 'Gattai puzzles are made on the shape chosen (a samurai takes a few seconds).';
      return;
    }
    const killer = variant.value === 'killer';
    const plain = size.value === '9' && (variant.value === 'none' || killer);
    if (killer) size.value = '9';
    size.disabled = killer;
    symmetry.disabled = killer;
    level.querySelector('option[value=extreme]').disabled = killer;
    if (killer && level.value === 'extreme') level.value = 'expert';
    level.disabled = !plain;
    ui.levelNote.textContent = killer ? 'Killer levels are dancer\'s killer ratings (9×9).'
      : plain ? '' : 'Levels are SE ratings, for plain 9×9 puzzles.';
    if (variant.value === 'windoku' && size.value !== '9') size.value = '9';
  };
  size.addEventListener('change', levelRule);
  variant.addEventListener('change', levelRule);
  ui.levelRule = levelRule;

  ui.own = h('textarea', { id: id('own'), rows: 3, spellcheck: 'false', autocomplete: 'off', autocapitalize: 'off',
    placeholder: '81 characters, 1-9 and . for an empty cell (or 16, 36, 256 for other sizes; a grid of lines works too); or a killer line MAP SUMS [GIVENS]',
    'aria-describedby': id('own-status') });
  const [lOwnVar, ownVariant] = sel('own-variant', 'Rules', [['none', 'Plain'], ['diagonal', 'Diagonal (X)'], ['windoku', 'Windoku'], ['killer', 'Killer'], ['gattai', 'Samurai / gattai']], 'none');
  ui.ownVariant = ownVariant;
  // a pasted gattai has a shape of its own, apart from New puzzle's
  const [lOwnShape, ownShape] = sel('own-shape', 'Its shape', SHAPES, 'samurai');
  ui.ownShape = ownShape;
  ui.ownStatus = h('p', { id: id('own-status'), class: 'muted', role: 'status', 'aria-live': 'polite' }, 'Type or paste a puzzle: it is checked as you type.');
  ui.ownBtn = h('button', { type: 'button', disabled: true, onclick: playOwn }, 'Play this puzzle');
  ui.own.addEventListener('input', () => {
    // a killer line chooses the killer rules; a plain one leaves them
    const killer = KILLER_TEXT.test(ui.own.value);
    if (killer) ui.ownVariant.value = 'killer';
    else if (ui.ownVariant.value === 'killer') ui.ownVariant.value = 'none';
    scheduleOwn();
  });
  ownVariant.addEventListener('change', () => { ui.levelRule(); scheduleOwn(); });
  ownShape.addEventListener('change', () => { if (ownVariant.value === 'gattai') scheduleOwn(); });
  levelRule();

  ui.timer = h('span', { class: 'timer', role: 'timer', 'aria-label': 'Time played' }, '0:00');
  ui.rating = h('span', { class: 'rating', id: id('rating') });
  ui.kind = h('span', { class: 'muted' });
  ui.banner = h('p', { class: 'solved-banner', role: 'status', 'aria-live': 'polite', id: id('solved') });
  ui.boardWrap = h('div', { class: 'board-wrap' });
  ui.pad = h('div', { class: 'pad', role: 'group', 'aria-label': 'Digits' });
  const tool = (label, f, extra = {}) => h('button', { type: 'button', onclick: f, ...extra }, label);
  ui.pencilBtn = tool('Pencil marks', () => setPencil(!st.pencil), { 'aria-pressed': 'false', title: 'Enter pencil marks instead of digits (key: P; or Shift with a digit)' });
  ui.undo = tool('Undo', () => move({ type: 'undo' }), { title: 'Undo (Ctrl+Z)' });
  ui.redo = tool('Redo', () => move({ type: 'redo' }), { title: 'Redo (Ctrl+Y)' });
  ui.fill = tool('Fill in candidates', () => move({ type: 'fill_marks' }), { title: 'Every empty cell gets its candidates as pencil marks' });
  ui.clearMarks = tool('Clear marks', () => move({ type: 'clear_marks' }));
  ui.hintBtn = tool('Hint', hint, { title: 'A nudge first; ask again to see the step' });
  ui.check = tool('Check', check, { title: 'Mark the digits that are not the solution\'s' });
  ui.combos = tool('Cage combinations', combinations, { title: 'The digit combinations of the selected cell\'s cage (key: C)', hidden: true, id: id('combos') });
  ui.revealCell = tool('Reveal cell', () => {
    if (st.sel == null) return;
    move({ type: 'reveal', cell: st.sel });
  });
  ui.revealAll = tool('Reveal all', () => move({ type: 'reveal' }), { title: 'Show the whole solution (undo takes it back)' });
  ui.restart = tool('Restart', restart, { title: 'Clear your digits and marks and start the clock again' });
  ui.share = tool('Share link', share);
  ui.exportBtn = tool('Export game', exportGame);
  ui.importFile = h('input', { type: 'file', id: id('import'), accept: '.json,application/json', class: 'visually-hidden' });
  ui.importFile.addEventListener('change', importGame);
  ui.importBtn = tool('Import game', () => ui.importFile.click());
  ui.print = tool('Print', () => window.print());
  ui.shareOut = h('input', { type: 'text', readonly: true, class: 'share-link', id: id('share'), 'aria-label': 'Link to this puzzle', hidden: true });
  ui.hintBox = h('div', { class: 'hintbox panel', role: 'region', 'aria-label': 'Hint', hidden: true, id: id('hint') });
  ui.msg = h('p', { class: 'msg', role: 'status', 'aria-live': 'polite', id: id('msg') });

  section.append(
    h('h2', {}, 'Play Sudoku'),
    h('div', { class: 'sudoku-layout' },
      h('div', { class: 'board-wrap-outer' },
        h('div', { class: 'status-line' }, h('span', {}, 'Time ', ui.timer), ui.rating, ui.kind),
        ui.boardWrap,
        ui.banner),
      h('div', { class: 'sudoku-side' },
        ui.pad,
        h('div', { class: 'tools', role: 'toolbar', 'aria-label': 'Game' },
          ui.pencilBtn, ui.undo, ui.redo, ui.fill, ui.clearMarks, ui.hintBtn, ui.combos, ui.check, ui.revealCell, ui.revealAll),
        ui.hintBox,
        ui.msg,
        h('fieldset', { class: 'newgame' }, h('legend', {}, 'New game'),
          h('div', { class: 'row' }, lLevel, lSize, lSym, lVar, lShape, ui.newBtn), ui.levelNote),
        h('fieldset', { class: 'own' }, h('legend', {}, 'Your own puzzle'),
          h('label', { for: id('own'), class: 'block' }, 'Puzzle'), ui.own,
          h('div', { class: 'row' }, lOwnVar, lOwnShape, ui.ownBtn), ui.ownStatus),
        h('div', { class: 'tools no-print', role: 'toolbar', 'aria-label': 'This game' },
          ui.restart, ui.share, ui.exportBtn, ui.importBtn, ui.print),
        ui.importFile, ui.shareOut)),
  );

  section.addEventListener('keydown', onKey);
  document.addEventListener('visibilitychange', () => { tick(); persist(); });
  addEventListener('pagehide', persist);
  setInterval(() => { tick(); if (st.since != null && Math.floor(seconds()) % 5 === 0) persist(); }, 1000);

  const doc = restoreDoc();
  if (doc) {
    try {
      st.meta = doc.meta || {};
      st.elapsed = Number(doc.elapsed) || 0;
      await act({ type: 'view' }, doc.game);
      return;
    } catch (e) {
      localStorage.removeItem(STORE);
      st.meta = {};
      st.elapsed = 0;
      toast('The saved game could not be restored; here is a new one.', 'error');
    }
  }
  // mount() is followed by show(): a shared link starts its own puzzle there
  if (!/[?&][pk]=/.test(location.hash)) await newGame(false);
}

export async function show(section, rest) {
  tick();
  const q = new URLSearchParams((rest || '').replace(/^[?/]/, ''));
  const k = q.get('k');
  if (k) {
    if (st.view && st.view.killer === k) return;
    await startPuzzle(k, null, { source: 'link' }, 'killer');
    return;
  }
  const p = q.get('p');
  if (!p) return;
  const g = q.get('g');
  if (g) {
    if (st.view && st.view.shape === g && st.view.gattai === p) return;
    await startPuzzle(p, g, { source: 'link' }, 'gattai');
    return;
  }
  const v = q.get('v') || 'none';
  const box = q.get('box');
  const same = st.view && st.view.puzzle === p.replace(/0/g, '.') && st.view.variant === v;
  if (same) return;
  await startPuzzle(p, rulesOf(v, box), { source: 'link' });
}

function rulesOf(variant, box) {
  const r = { diagonal: variant === 'diagonal', windoku: variant === 'windoku' };
  if (box) r.box = box;
  return r;
}

/** Starts a game: of `puzzle` (a line; `kind`: 'plain', 'killer' or
 * 'gattai', whose `rules` is then the shape's name), or
 * the game an action makes (`{ type: 'generate', ... }`); returns its
 * RESULT, or null when it failed. */
async function startPuzzle(puzzle, rules, meta, kind = 'plain', action = null) {
  hideHint();
  st.wrong.clear();
  let result;
  try {
    result = await act(action || startAction(puzzle, rules, kind));
  } catch (e) {
    failed(e);
    return null;
  }
  st.meta = { ...meta, variant: st.view.variant };
  // killer and gattai starts come with their rating (killer scale)
  if (result && typeof result.rating === 'number' && st.view.kind !== 'plain') {
    st.meta = { ...st.meta, rating: result.rating, level: result.level, atLeast: !!result.stopped };
  }
  st.elapsed = 0;
  st.since = null;
  ui.banner.textContent = '';
  say('');
  persist();
  draw();
  tick();
  if (st.meta.rating === undefined) rate();
  return result || {};
}

function startAction(puzzle, rules, kind) {
  if (kind === 'killer') return { type: 'start', puzzle, kind };
  if (kind === 'gattai') return { type: 'start', puzzle, kind, shape: rules };
  return { type: 'start', puzzle, rules };
}

async function rate() {
  const v = st.view;
  if (!v) return;
  if (!v.hints || v.kind !== 'plain') { st.meta.rating = null; draw(); return; }
  const puzzle = v.puzzle;
  try {
    const r = await post('/api/sudoku/rate', { puzzle, timeout: 20 });
    if (!st.view || st.view.puzzle !== puzzle) return;
    st.meta.rating = r.rating;
    st.meta.level = r.level;
    st.meta.atLeast = !!r.stopped;
    persist();
    draw();
  } catch (e) { /* the rating is a nicety */ }
}

/** A new puzzle of the settings chosen; `focus`: move the focus to the
 * grid (not when the page opens: the focus stays at the top). */
async function newGame(focus = true) {
  if (ui.variant.value === 'killer') { await newKiller(focus); return; }
  if (ui.variant.value === 'gattai') { await newGattai(focus); return; }
  const body = { size: Number(ui.size.value), symmetry: ui.symmetry.value, variant: ui.variant.value };
  // levels are SE ratings of plain 9x9 puzzles: the server refuses one for anything else
  if (!ui.level.disabled) body.level = ui.level.value;
  ui.newBtn.disabled = true;
  say('Looking for a puzzle…');
  try {
    const r = await post('/api/sudoku/new', body);
    const ok = await startPuzzle(r.puzzle, r.rules, { rating: r.rating, level: r.level, seed: r.seed, symmetry: r.symmetry, source: 'generated' });
    if (ok) {
      say(`A new ${r.level ? r.level + ' ' : ''}puzzle: ${r.givens} givens.`);
      if (focus) focusBoard();
    }
  } catch (e) {
    failed(e);
  } finally {
    ui.newBtn.disabled = false;
  }
}

/** A new killer of the level chosen, from the library's generator. */
async function newKiller(focus) {
  ui.newBtn.disabled = true;
  say('Making a killer puzzle…');
  try {
    const action = { type: 'generate', kind: 'killer', level: ui.level.value };
    const r = await startPuzzle(null, null, { source: 'generated', rating: null }, 'killer', action);
    if (r) {
      st.meta = { ...st.meta, rating: r.rating, level: r.level, seed: r.seed };
      persist();
      draw();
      say(`A new ${r.level} killer: ${st.view.cages.length} cages.`);
      if (focus) focusBoard();
    }
  } finally {
    ui.newBtn.disabled = false;
  }
}

/** A new gattai on the shape chosen, from the library's generator. */
async function newGattai(focus) {
  ui.newBtn.disabled = true;
  const shape = ui.shape.value;
  say(`Making a ${shape}…`);
  try {
    const action = { type: 'generate', kind: 'gattai', shape };
    const r = await startPuzzle(null, null, { source: 'generated', rating: null }, 'gattai', action);
    if (r) {
      st.meta = { ...st.meta, seed: r.seed };
      persist();
      say(`A new ${shape}: ${st.view.cells.filter((c) => c.given).length} givens.`);
      if (focus) focusBoard();
    }
  } finally {
    ui.newBtn.disabled = false;
  }
}

// ---- your own puzzle ----

let ownTimer = null;
let ownSeq = 0;
function scheduleOwn() {
  clearTimeout(ownTimer);
  ui.ownBtn.disabled = true;
  if (!ui.own.value.trim()) { ui.ownStatus.textContent = 'Type or paste a puzzle: it is checked as you type.'; ui.ownStatus.className = 'muted'; return; }
  ui.ownStatus.textContent = 'Checking…';
  ui.ownStatus.className = 'muted';
  ownTimer = setTimeout(checkOwn, 250);
}

async function checkOwn() {
  const seq = ++ownSeq;
  const puzzle = ui.own.value;
  const rules = rulesOf(ui.ownVariant.value);
  let text, kind = 'error', ok = false;
  if (ui.ownVariant.value === 'killer') { await checkOwnKiller(seq, { type: 'start', kind: 'killer', puzzle }, 'A killer'); return; }
  if (ui.ownVariant.value === 'gattai') {
    await checkOwnKiller(seq, { type: 'start', kind: 'gattai', shape: ui.ownShape.value, puzzle }, `A ${ui.ownShape.value}`);
    return;
  }
  try {
    const r = await post('/api/sudoku/check', { puzzle, rules });
    if (seq !== ownSeq) return;
    if (r.status === 'unique') { text = 'One solution: ready to play.'; kind = 'good'; ok = true; }
    else if (r.status === 'multiple') text = 'Several solutions: not a proper puzzle. Add givens until one solution is left.';
    else if (r.status === 'none') text = 'No solution: some givens contradict each other.';
    else text = `Invalid: ${r.error}${r.cell ? ` (cell ${r.cell})` : ''}.`;
  } catch (e) {
    if (seq !== ownSeq) return;
    text = `Invalid: ${e instanceof ApiError ? e.where() : e.message}`;
  }
  ui.ownStatus.textContent = text;
  ui.ownStatus.className = kind;
  ui.ownStatus.dataset.status = ok ? 'unique' : kind;
  ui.ownBtn.disabled = !ok;
}

/** A killer or gattai line is checked by starting its game (`action`;
 * the server keeps nothing, so a game started and dropped costs nothing
 * but the solve). */
async function checkOwnKiller(seq, action, what) {
  let text, kind = 'error', ok = false;
  try {
    await post('/api/sudoku/game', { game: null, action });
    text = `${what} with one solution: ready to play.`; kind = 'good'; ok = true;
  } catch (e) {
    text = `Invalid: ${e instanceof ApiError ? e.where() : e.message}`;
  }
  if (seq !== ownSeq) return;
  ui.ownStatus.textContent = text;
  ui.ownStatus.className = kind;
  ui.ownStatus.dataset.status = ok ? 'unique' : kind;
  ui.ownBtn.disabled = !ok;
}

async function playOwn() {
  const v = ui.ownVariant.value;
  const kind = v === 'killer' || v === 'gattai' ? v : 'plain';
  const rules = v === 'gattai' ? ui.ownShape.value : rulesOf(v);
  if (await startPuzzle(ui.own.value, rules, { source: 'own' }, kind)) focusBoard();
}

async function restart() {
  const v = st.view;
  if (!v) return;
  const meta = { ...st.meta };
  if (v.kind === 'killer') await startPuzzle(v.killer, null, meta, 'killer');
  else if (v.kind === 'gattai') await startPuzzle(v.gattai, v.shape, meta, 'gattai');
  else await startPuzzle(v.puzzle, v.rules, meta);
}

// ---- drawing ----

function draw() {
  const v = st.view;
  if (!v) return;
  const key = JSON.stringify([v.size, v.regions, v.extra_units, v.cages || [], v.shape || '']);
  if (key !== boardKey) {
    boardKey = key;
    const killer = v.kind === 'killer';
    const canvas = v.kind === 'gattai' ? { height: v.height, width: v.width, grids: v.grids, live: v.live } : null;
    const what = canvas ? `Gattai Sudoku, ${v.shape} (${v.height}×${v.width})`
      : `${killer ? 'Killer ' : ''}Sudoku ${v.size}×${v.size}${v.variant !== 'none' ? ', ' + v.variant : ''}`;
    board = makeBoard({ size: v.size, regions: v.regions, extraUnits: v.extra_units, cages: v.cages || [], interactive: true, canvas,
      label: `${what}: arrow keys move, digits enter, P toggles pencil marks${killer ? ', C lists the cage\'s combinations' : ''}` });
    ui.boardWrap.classList.toggle('scrolls', !!canvas);
    board.root.addEventListener('click', (e) => {
      const cell = e.target.closest('[data-cell]');
      if (!cell) return;
      select(Number(cell.dataset.cell));
    });
    board.root.addEventListener('focusin', (e) => {
      const cell = e.target.closest('[data-cell]');
      if (cell && Number(cell.dataset.cell) !== st.sel) { st.sel = Number(cell.dataset.cell); draw(); }
    });
    ui.boardWrap.replaceChildren(board.root);
    buildPad(v.size);
  }
  if (st.sel == null || !isLive(v, st.sel)) st.sel = firstEmpty(v);
  const cells = v.cells.map((c, i) => ({ ...c, wrong: st.wrong.has(i) }));
  const step = st.hint && st.hint.stage === 'step' ? st.hint.step : null;
  board.draw({ cells, selected: st.sel, step });
  ui.undo.disabled = !v.can_undo;
  ui.redo.disabled = !v.can_redo;
  ui.hintBtn.disabled = v.solved;
  ui.check.disabled = v.solved;
  const m = st.meta || {};
  const variant = { none: '', diagonal: 'Diagonal', windoku: 'Windoku' }[v.variant] ?? v.variant;
  const killer = v.kind === 'killer';
  ui.combos.hidden = !killer;
  ui.kind.textContent = v.kind === 'gattai' ? `Gattai: ${v.shape}, ${v.height}×${v.width}`
    : [`${v.size}×${v.size}`, killer ? 'Killer' : '', variant].filter(Boolean).join(', ');
  // killer and gattai ratings are dancer's steps on the killer scale
  const scale = killer ? 'killer ' : '';
  if (v.kind !== 'plain') ui.rating.textContent = m.rating != null ? `Rating: ${scale}${m.atLeast ? '≥ ' : ''}${Number(m.rating).toFixed(1)}${m.level ? ` (${m.level})` : ''}` : `Rating: ${scale || '…'}`;
  else if (!v.hints) ui.rating.textContent = 'Rating: none (SE ratings are for plain 9×9)';
  else if (m.rating != null) ui.rating.textContent = `Rating: SE ${m.atLeast ? '≥ ' : ''}${Number(m.rating).toFixed(1)}${m.level ? ` (${m.level})` : ''}`;
  else ui.rating.textContent = 'Rating: …';
  ui.rating.dataset.rating = m.rating != null ? String(m.rating) : '';
  if (v.solved && !ui.banner.textContent) ui.banner.textContent = bannerText();
  if (!v.solved) ui.banner.textContent = '';
}

function buildPad(n) {
  const buttons = [];
  for (let d = 1; d <= n; d++) {
    buttons.push(h('button', { type: 'button', class: 'd', 'data-digit': d, 'aria-label': `Digit ${symbol(d)}`, onclick: () => enter(d) }, symbol(d)));
  }
  buttons.push(h('button', { type: 'button', 'aria-label': 'Erase', title: 'Erase (Backspace)', onclick: () => enter(0) }, '⌫'));
  ui.pad.style.setProperty('--pc', String(n <= 4 ? 5 : n <= 6 ? 7 : n <= 9 ? 5 : 9));
  ui.pad.replaceChildren(...buttons);
}

function focusBoard() {
  if (!board || st.sel == null) return;
  const el = board.cells[st.sel];
  if (el) el.focus();
}

function select(i) {
  if (!st.view) return;
  if (!isLive(st.view, i)) return;
  st.sel = i;
  draw();
  focusBoard();
}

function setPencil(on) {
  st.pencil = on;
  ui.pencilBtn.setAttribute('aria-pressed', String(on));
  ui.pad.classList.toggle('marking', on);
  say(on ? 'Pencil marks: digits now toggle marks.' : '');
}

// ---- moves ----

async function move(action) {
  hideHint();
  st.wrong.clear();
  try {
    const r = await act(action);
    if ((action.type === 'undo' || action.type === 'redo') && r && r.done === false) say(`Nothing to ${action.type}.`);
    return r;
  } catch (e) {
    failed(e);
    return null;
  }
}

function enter(d, mark = st.pencil) {
  const v = st.view;
  if (!v || st.sel == null) return;
  const c = v.cells[st.sel];
  if (!c || c.given) { say(`${cellName(v, st.sel)} is a given.`); return; }
  if (d === 0) {
    if (c.digit) move({ type: 'clear', cell: st.sel });
    else if (c.marks.length) move({ type: 'clear', cell: st.sel });
    return;
  }
  if (mark) {
    if (c.digit) { say('Clear the digit first to write pencil marks.'); return; }
    move({ type: 'mark', cell: st.sel, digit: d });
  } else {
    move({ type: 'set', cell: st.sel, digit: d });
  }
}

function onKey(e) {
  const t = e.target;
  if (t && (t.tagName === 'TEXTAREA' || t.tagName === 'INPUT' || t.tagName === 'SELECT')) return;
  const v = st.view;
  if (!v) return;
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && !e.altKey) {
    const k = e.key.toLowerCase();
    if (k === 'z' && !e.shiftKey) { e.preventDefault(); move({ type: 'undo' }); return; }
    if (k === 'y' || (k === 'z' && e.shiftKey)) { e.preventDefault(); move({ type: 'redo' }); return; }
    return;
  }
  // the grid's keys work from the grid and from the digit pad
  const inBoard = board && (board.root.contains(t) || ui.pad.contains(t));
  if (!inBoard) return;
  const n = v.size;
  const sel = st.sel ?? 0;
  const to = arrowTo(v, sel, e);
  if (to != null) { e.preventDefault(); select(to); return; }
  if (e.key === 'Backspace' || e.key === 'Delete' || e.key === '0' || e.key === '.') { e.preventDefault(); enter(0); return; }
  if ((e.key === 'p' || e.key === 'P') && n < 25) { e.preventDefault(); setPencil(!st.pencil); return; }
  if ((e.key === 'c' || e.key === 'C') && v.kind === 'killer' && n < 12) { e.preventDefault(); combinations(); return; }
  // Shift with a digit key toggles a mark (e.code: the key, whatever Shift makes of it)
  const code = /^(?:Digit|Numpad)([1-9])$/.exec(e.code || '');
  let d = digitOf(e.key, n);
  if (!d && code) d = Number(code[1]) <= n ? Number(code[1]) : 0;
  if (d) { e.preventDefault(); enter(d, st.pencil !== e.shiftKey); }
}

/** The cell an arrow, Home or End key moves to from `sel` (on a gattai's
 * canvas, over the dead cells to the next live one that way). */
function arrowTo(v, sel, e) {
  const W = widthOf(v), H = v.cells.length / W;
  const r = Math.floor(sel / W), c = sel % W;
  const dir = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
  if (dir) {
    for (let k = 1; ; k++) {
      const rr = r + dir[0] * k, cc = c + dir[1] * k;
      if (rr < 0 || rr >= H || cc < 0 || cc >= W) return sel;
      if (isLive(v, rr * W + cc)) return rr * W + cc;
    }
  }
  const live = (i) => isLive(v, i);
  const rowCells = [...Array(W).keys()].map((x) => r * W + x).filter(live);
  if (e.key === 'Home') return e.ctrlKey ? v.cells.findIndex((_, i) => live(i)) : rowCells[0];
  if (e.key === 'End') return e.ctrlKey ? v.cells.length - 1 - [...v.cells].reverse().findIndex((_, i) => live(v.cells.length - 1 - i)) : rowCells[rowCells.length - 1];
  return null;
}

// ---- hint, check ----

function hideHint() {
  if (!st.hint) return;
  st.hint = null;
  ui.hintBox.hidden = true;
  ui.hintBox.replaceChildren();
  draw();
}

async function hint() {
  if (st.hint && st.hint.stage === 'nudge') { showStep(); return; }
  let r;
  try { r = await act({ type: 'hint' }); } catch (e) { failed(e); return; }
  if (r.status !== 'hint') {
    st.hint = { message: r.message || r.status };
    ui.hintBox.replaceChildren(h('p', {}, r.message || r.status),
      h('div', { class: 'row' }, h('button', { type: 'button', onclick: hideHint }, 'Close')));
    ui.hintBox.hidden = false;
    ui.hintBox.dataset.status = r.status;
    return;
  }
  st.hint = { stage: 'nudge', step: r.step };
  ui.hintBox.dataset.status = 'nudge';
  ui.hintBox.replaceChildren(
    h('p', {}, r.step.nudge),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary', onclick: showStep }, 'Show the step'),
      h('button', { type: 'button', onclick: hideHint }, 'Close')));
  ui.hintBox.hidden = false;
  draw();
}

function showStep() {
  const step = st.hint && st.hint.step;
  if (!step) return;
  st.hint = { stage: 'step', step };
  ui.hintBox.dataset.status = 'step';
  const what = [];
  if (step.placements.length) what.push(`place ${step.placements.map(([c, d]) => `${symbol(d)} in ${cellName(st.view, c)}`).join(', ')}`);
  if (step.eliminations.length) what.push(`remove ${step.eliminations.map(([c, d]) => `${symbol(d)} from ${cellName(st.view, c)}`).join(', ')}`);
  ui.hintBox.replaceChildren(
    h('p', {}, h('span', { class: 'technique' }, step.technique), ` (${st.view.kind === 'plain' ? 'SE' : 'killer'} ${step.rating.toFixed(1)})`),
    h('p', { class: 'step-text' }, step.text),
    h('p', { class: 'muted small' }, what.length ? `In short: ${what.join('; ')}.` : ''),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary', onclick: applyHint }, 'Apply this step'),
      h('button', { type: 'button', onclick: hideHint }, 'Close')));
  draw();
}

async function applyHint() {
  const r = await move({ type: 'apply_hint' });
  if (r && r.status !== 'hint' && r.message) say(r.message);
  focusBoard();
}

/** The digit combinations of the selected cell's cage, in the hint box:
 * all that make the sum, and those that still fit the grid. */
async function combinations() {
  const v = st.view;
  if (!v || v.kind !== 'killer' || st.sel == null) return;
  let r;
  try { r = await act({ type: 'cage', cell: st.sel }); } catch (e) { failed(e); return; }
  const list = (sets) => sets.map((s) => s.map(symbol).join('+')).join(', ') || 'none';
  st.hint = { message: 'combinations' };
  ui.hintBox.dataset.status = 'combinations';
  ui.hintBox.replaceChildren(
    h('p', {}, h('span', { class: 'technique' }, `${r.sum} in ${r.cells.length}`), `: ${list(r.all)}`),
    h('p', { class: 'fitting' }, `Fitting the grid now: ${list(r.fitting)}`),
    h('div', { class: 'row' }, h('button', { type: 'button', onclick: hideHint }, 'Close')));
  ui.hintBox.hidden = false;
}

async function check() {
  hideHint();
  let r;
  try { r = await act({ type: 'check' }); } catch (e) { failed(e); return; }
  st.wrong = new Set(r.wrong || []);
  draw();
  const k = st.wrong.size;
  say(k ? `${k} digit${k === 1 ? ' is' : 's are'} not the solution's (marked).` : 'Every digit so far is right.', k ? 'error' : 'good');
}

/** What the banner says of a full grid: solved, or the solution shown. */
function bannerText() {
  return st.meta.revealed ? 'The solution, revealed.' : `Solved in ${fmtClock(seconds())}!`;
}

function solved() {
  clock(false);
  tick();
  ui.banner.textContent = bannerText();
  say(st.meta.revealed ? 'Undo takes the solution back; or start a new puzzle.' : 'Solved! Start a new puzzle whenever you like.', 'good');
  persist();
}

// ---- share, export, import ----

function shareUrl() {
  const v = st.view;
  if (v.kind === 'killer') return `${location.origin}${location.pathname}#play?${new URLSearchParams({ k: v.killer })}`;
  if (v.kind === 'gattai') return `${location.origin}${location.pathname}#play?${new URLSearchParams({ g: v.shape, p: v.gattai })}`;
  const q = new URLSearchParams({ p: v.puzzle });
  if (v.variant !== 'none') q.set('v', v.variant);
  const box = v.rules && v.rules.box;
  if (box && DEFAULT_BOX[v.size] !== box) q.set('box', box);
  return `${location.origin}${location.pathname}#play?${q.toString()}`;
}

async function share() {
  if (!st.view) return;
  const url = shareUrl();
  ui.shareOut.hidden = false;
  ui.shareOut.value = url;
  ui.shareOut.select();
  try {
    await navigator.clipboard.writeText(url);
    say('Link copied: it opens this puzzle.', 'good');
  } catch (e) {
    say('Copy the link above: it opens this puzzle.');
  }
}

function exportGame() {
  if (!st.saved) return;
  const doc = { format: 'dancer-sudoku-game', version: 1, game: st.saved, elapsed: Math.floor(seconds()), meta: st.meta };
  const blob = new Blob([JSON.stringify(doc, null, 1) + '\n'], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: 'sudoku-game.json', hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  say('Game exported to sudoku-game.json.');
}

async function importGame() {
  const f = ui.importFile.files && ui.importFile.files[0];
  ui.importFile.value = '';
  if (!f) return;
  let doc;
  try {
    if (f.size > 1024 * 1024) throw new Error('the file is over 1 MiB');
    doc = JSON.parse(await f.text());
    if (!doc || doc.format !== 'dancer-sudoku-game' || typeof doc.game !== 'string') throw new Error('not a game exported by this page');
  } catch (e) {
    failed(new Error(`${f.name}: ${e.message}`));
    return;
  }
  hideHint();
  try {
    await act({ type: 'view' }, doc.game);
  } catch (e) {
    failed(e);
    return;
  }
  st.meta = doc.meta && typeof doc.meta === 'object' ? doc.meta : {};
  st.elapsed = Number(doc.elapsed) || 0;
  st.since = null;
  persist();
  draw();
  say(`Game imported from ${f.name}.`, 'good');
}

