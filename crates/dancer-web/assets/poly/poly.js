// The Polyforms tab: a catalogue puzzle (grouped by grid, with its
// published count and source) or one's own TOML on any grid (an example
// per grid a click away), checked as one types (errors at their line), the
// pieces and board drawn by the server on the puzzle's grid; solve or count
// as a job with live progress and cancel; the solutions as pictures (3D:
// layers and a turnable isometric view); downloads (SVG, PNG, NDJSON).
// A BurrTools file (.xmpuzzle) opens in place of the editor: its problems
// listed, one checked and solved as any puzzle, each solution taken apart
// when asked ("Take apart") and played move by move (apart.js).
// A piece has one colour everywhere: the server says it (`colour` of each
// piece, `colours` of each solution's placements) and the page's own
// isometric view shades that colour, keeping its hue.
// "Watch the search" plays the search step by step, pieces placed and taken
// back on the board (watch.js).
// Uses only what API.md says: /api/poly/catalog, /api/poly/check,
// /api/poly/burr, /api/poly/render, /api/poly/watch, /api/poly/frame and
// jobs of kind "poly".
import {
  get, post, render, startJob, toast, h, num, ApiError, css, fmtTime, progressStats, setProgress, showState, cancelJob, endWords,
  notStarted, checkSoon, selectLine,
} from '../api.js';
import { isoSvg } from './iso.js';
import { makePlayer } from './apart.js';
import { EXAMPLES } from './examples.js';
import { makeWatch } from './watch.js';

const STORE = 'dancer.poly.toml';
const STORE_NAME = 'dancer.poly.name';

/** The largest BurrTools file the page sends: in base64 it stays within
 * the server's body cap (1 MiB by default). */
const MAX_BURR = 760 * 1024;

/** BurrTools' grids as the page's grid names. */
const BURR_GRIDS = { cubes: 'cube', 'triangular prisms': 'prism', spheres: 'sphere' };

/** One place for the tab's state. */
const st = {
  catalog: [],
  grids: [], // the API's grids: { name, forms, dim, edges, puzzles }
  picked: null, // { name, toml }: the catalogue puzzle last loaded
  jobGrid: 'square',
  jobKnown: null, // the published count of the puzzle being solved, if unchanged
  checked: null, // the last good check answer
  checkedKey: null, // what it checked: the TOML, or burrKey()
  burr: null, // { file, data (base64), info (/api/poly/burr), problem } while a BurrTools file is open
  apartAuto: false, // "Take apart" was ticked by opening a file (and goes with it)
  error: null, // ApiError of the last check
  job: null, // { cancel } while running
  jobToml: null,
  jobSource: null, // the job's puzzle as /api/poly/render takes it: { toml } or { burr, problem }
  jobName: null, // the BurrTools file's name, for downloads
  jobDim: 2,
  solutions: [], // solution events
  index: 0,
  view: { yaw: 35, pitch: 30 },
  spread: 0,
  summary: null,
  seq: 0,
  edits: 0, // the user's edits of the editor, counted
};

let ui = {};

function svgImg(svg, alt) {
  return h('img', { src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg), alt, class: 'pic' });
}

/** How the page names a grid (the API's name as a fallback). */
const GRID_WORDS = {
  square: 'Squares',
  cube: 'Cubes',
  stick: 'Sticks (edges of squares)',
  triangle: 'Triangles',
  hexagon: 'Hexagons',
  twig: 'Twigs (edges of hexagons)',
  trig: 'Trigs (edges of triangles)',
  sphere: 'Spheres',
  prism: 'Prisms',
};

function gridWords(g) {
  const name = typeof g === 'string' ? g : g && g.name;
  const info = st.grids.find((x) => x.name === name) || (typeof g === 'object' ? g : null);
  const words = GRID_WORDS[name] || (name ? name[0].toUpperCase() + name.slice(1) : 'Squares');
  return info && info.forms ? `${words}: ${info.forms}` : words;
}

export async function mount(section) {
  css('poly', new URL('./poly.css', import.meta.url));
  const id = (s) => `poly-${s}`;
  ui.select = h('select', { id: id('catalog'), 'aria-describedby': id('known') },
    h('option', { value: '' }, 'Your own (write it below)'));
  ui.known = h('p', { id: id('known'), class: 'muted small known', 'aria-live': 'polite' });
  ui.examples = h('div', { class: 'row examples', role: 'group', 'aria-label': 'Examples' },
    h('span', { class: 'muted small' }, 'Start from an example:'),
    EXAMPLES.map((e) => h('button', {
      type: 'button', class: 'small', 'data-grid': e.grid, title: `A small puzzle on ${e.label.toLowerCase()}`,
      onclick: () => example(e),
    }, e.label)));
  ui.burrFile = h('input', { type: 'file', id: id('burr-file'), accept: '.xmpuzzle,.xml,application/gzip,application/xml,text/xml' });
  ui.burrFile.addEventListener('change', () => {
    const f = ui.burrFile.files && ui.burrFile.files[0];
    if (f) openBurr(f);
  });
  ui.problem = h('select', { id: id('problem') });
  ui.problem.addEventListener('change', () => {
    if (!st.burr) return;
    st.burr.problem = Number(ui.problem.value) || 1;
    burrDetails();
    check();
  });
  ui.burrTitle = h('p', { class: 'burr-title', id: id('burr-title') });
  ui.burrAbout = h('p', { class: 'muted small burr-about', id: id('burr-about') });
  ui.burrComment = h('p', { class: 'muted small burr-comment' });
  ui.burrBox = h('div', { class: 'panel burrbox', role: 'group', 'aria-label': 'BurrTools file', hidden: true },
    ui.burrTitle,
    ui.burrComment,
    h('div', { class: 'row' }, h('label', { for: id('problem') }, 'Problem'), ui.problem),
    ui.burrAbout,
    h('button', { type: 'button', onclick: () => closeBurr(true) }, 'Back to the TOML editor'));
  ui.browse = h('div', { class: 'browse' });
  ui.catalogue = h('details', { id: id('catalogue'), class: 'catalogue' },
    h('summary', {}, 'The catalogue, by grid'), ui.browse);
  ui.editor = h('textarea', {
    id: id('toml'), rows: 16, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off',
    wrap: 'off', 'aria-describedby': id('pos') + ' ' + id('check'),
  });
  ui.gutter = h('div', { class: 'gutter' });
  ui.bar = h('div', { class: 'errbar', hidden: true, 'aria-hidden': 'true' });
  ui.pos = h('span', { id: id('pos'), class: 'muted pos' }, 'Line 1, column 1');
  ui.check = h('div', { id: id('check'), class: 'check', role: 'status', 'aria-live': 'polite' });
  ui.preview = h('div', { class: 'preview', 'aria-label': 'Board and pieces' });
  // the editor, hidden while a BurrTools file is open
  ui.tomlBox = h('div', { class: 'toml-box' },
    h('label', { for: id('toml'), class: 'block' }, 'Puzzle (TOML)'),
    h('div', { class: 'editor' }, h('div', { class: 'gutter-wrap', 'aria-hidden': 'true' }, ui.gutter), h('div', { class: 'area' }, ui.bar, ui.editor)),
    h('div', { class: 'row small' }, ui.pos,
      h('a', { href: '#poly-help', class: 'muted', onclick: (e) => { e.preventDefault(); help.open = !help.open; } }, 'Format')));
  ui.unique = h('input', { type: 'checkbox', id: id('unique'), checked: true });
  ui.apart = h('input', { type: 'checkbox', id: id('take-apart'), 'aria-describedby': id('take-apart-note') });
  ui.apart.addEventListener('change', () => { st.apartAuto = false; });
  ui.limit = h('input', { type: 'number', id: id('limit'), min: 1, step: 1, inputmode: 'numeric', placeholder: 'all', class: 'limit' });
  ui.solve = h('button', { type: 'button', class: 'primary', onclick: () => run('solve') }, 'Solve');
  ui.count = h('button', { type: 'button', onclick: () => run('count') }, 'Count');
  ui.cancel = h('button', { type: 'button', disabled: true, onclick: cancel }, 'Cancel');
  ui.bar2 = h('progress', { id: id('progress'), 'aria-label': 'Search progress', max: 1 });
  ui.stats = h('div', { class: 'stats', id: id('stats') });
  ui.state = h('p', { class: 'state', role: 'status', 'aria-live': 'polite', id: id('state') });
  ui.gallery = h('div', { class: 'gallery', hidden: true });
  ui.watch = makeWatch({ source: () => (st.burr ? { burr: st.burr.data, problem: st.burr.problem } : { toml: ui.editor.value }) });

  section.append(
    h('h2', {}, 'Polyforms'),
    h('div', { class: 'poly-grid' },
      h('div', { class: 'poly-edit' },
        h('div', { class: 'row' },
          h('label', { for: id('catalog') }, 'Catalogue puzzle'), ui.select),
        ui.known,
        ui.catalogue,
        ui.examples,
        h('div', { class: 'row burr-open small' },
          h('label', { for: id('burr-file') }, 'Open a BurrTools file (.xmpuzzle)'), ui.burrFile),
        ui.burrBox,
        ui.tomlBox,
        ui.check),
      h('div', { class: 'poly-side' },
        h('h3', {}, 'Board and pieces'), ui.preview)),
    h('div', { class: 'panel runbox' },
      h('div', { class: 'row' },
        h('label', { for: id('unique') }, ui.unique, 'Unique up to symmetry'),
        h('label', { for: id('take-apart') }, ui.apart, 'Take apart'),
        h('label', { for: id('limit') }, 'Limit', ui.limit),
        ui.solve, ui.count, ui.cancel, ui.watch.button),
      h('p', { class: 'muted small', id: id('take-apart-note') },
        'Take apart: each solution taken apart by BurrTools\' rules (cubes and prisms), its moves played under it.'),
      ui.bar2, ui.stats, ui.state),
    ui.watch.el,
    ui.gallery,
  );
  const help = h('details', { id: 'poly-help', class: 'help' },
    h('summary', {}, 'The puzzle format'),
    h('pre', {}, HELP));
  section.append(help);
  ui.bar2.value = 0;

  ui.select.addEventListener('change', () => pick(ui.select.value));
  ui.editor.addEventListener('input', () => { st.edits++; localStorage.setItem(STORE, ui.editor.value); gutter(); scheduleCheck(); caret(); });
  for (const ev of ['keyup', 'click', 'select', 'focus']) ui.editor.addEventListener(ev, caret);
  ui.editor.addEventListener('scroll', syncScroll);

  try {
    const cat = await get('/api/poly/catalog');
    st.catalog = cat.puzzles || [];
    st.grids = cat.grids || [];
    listCatalogue();
  } catch (e) {
    ui.check.replaceChildren(h('span', { class: 'error' }, `Could not load the catalogue: ${e.message}`));
  }
  const saved = localStorage.getItem(STORE);
  const savedName = localStorage.getItem(STORE_NAME) || '';
  if (saved != null && saved.trim()) {
    ui.editor.value = saved;
    if (st.catalog.some((p) => p.name === savedName)) ui.select.value = savedName;
    showKnown();
    gutter();
    check();
  } else if (st.catalog.length) {
    const first = st.catalog.find((p) => p.name === 'scott') || st.catalog[0];
    ui.select.value = first.name;
    // the first puzzle shown, unless the user started typing meanwhile
    await pick(first.name, st.edits);
  }
}

/** The catalogue's grids in the API's order, each with its puzzles. */
function byGrid() {
  const order = st.grids.map((g) => g.name);
  for (const p of st.catalog) if (!order.includes(p.grid || 'square')) order.push(p.grid || 'square');
  return order
    .map((g) => ({ grid: st.grids.find((x) => x.name === g) || { name: g }, puzzles: st.catalog.filter((p) => (p.grid || 'square') === g) }))
    .filter((x) => x.puzzles.length);
}

/** "156 solutions up to rotations and reflections (624 in all)". */
function knownWords(k) {
  if (!k || k.unique == null) return '';
  const under = k.unique_under === 'rotations' ? 'up to rotations' : 'up to rotations and reflections';
  const u = k.unique;
  return `${num(u)} solution${u === 1 ? '' : 's'} ${under}` + (k.solutions != null ? ` (${num(k.solutions)} in all)` : '');
}

/** The select's options grouped by grid, and the catalogue's list under headings. */
function listCatalogue() {
  const groups = byGrid();
  for (const { grid, puzzles } of groups) {
    ui.select.append(h('optgroup', { label: gridWords(grid), 'data-grid': grid.name },
      puzzles.map((p) => h('option', { value: p.name }, `${p.name} — ${p.title || ''}`))));
  }
  const n = st.catalog.length;
  ui.catalogue.querySelector('summary').textContent =
    `The catalogue: ${num(n)} puzzle${n === 1 ? '' : 's'} on ${groups.length} grid${groups.length === 1 ? '' : 's'}, with their published counts`;
  ui.browse.replaceChildren(...groups.map(({ grid, puzzles }) => {
    const hid = `poly-cat-${grid.name}`;
    return h('section', { class: 'cat-grid', 'aria-labelledby': hid, 'data-grid': grid.name },
      h('h4', { id: hid }, `${gridWords(grid)} (${num(puzzles.length)})`),
      h('ul', {}, puzzles.map((p) => h('li', { 'data-name': p.name },
        h('button', { type: 'button', class: 'link', onclick: () => choose(p.name) }, p.name),
        ` ${p.title || ''} `,
        h('span', { class: 'count' }, knownWords(p.known)),
        p.known && p.known.source ? h('span', { class: 'muted source' }, ` Source: ${p.known.source}.`) : null))));
  }));
}

/** Picks catalogue puzzle `name` as the select would. */
async function choose(name) {
  ui.select.value = name;
  await pick(name);
  ui.editor.focus();
}

/** Under the select: the catalogue puzzle's published count and source. */
function showKnown() {
  const p = st.catalog.find((x) => x.name === ui.select.value);
  if (!p) { ui.known.replaceChildren(); ui.known.hidden = true; return; }
  ui.known.hidden = false;
  ui.known.replaceChildren(
    `${gridWords(p.grid || 'square')}. Published: ${knownWords(p.known) || 'no count'}.`,
    p.known && p.known.source ? ` Source: ${p.known.source}.` : '');
}

/** Loads an example into the editor (the user's text is replaced). */
function example(e) {
  closeBurr(false);
  ui.select.value = '';
  localStorage.setItem(STORE_NAME, '');
  st.picked = null;
  showKnown();
  ui.editor.value = e.toml;
  localStorage.setItem(STORE, e.toml);
  st.edits++;
  ui.editor.scrollTop = 0;
  gutter();
  caret();
  check();
}

export async function show(section, rest) {
  const m = /[?&](?:p|name)=([^&]+)/.exec(rest || '');
  if (m && st.catalog.some((p) => p.name === m[1]) && ui.select.value !== m[1]) {
    ui.select.value = m[1];
    await pick(m[1]);
  }
}

/** Loads catalogue puzzle `name` into the editor; `unless`: the edit
 * count at which it was asked for (it is dropped if the user typed since). */
async function pick(name, unless = null) {
  closeBurr(false);
  localStorage.setItem(STORE_NAME, name);
  showKnown();
  if (!name) { st.picked = null; ui.editor.focus(); return; }
  // the last puzzle's check line goes until this one is checked
  ui.check.replaceChildren(h('span', { class: 'muted' }, `Loading ${name}…`));
  try {
    const r = await get(`/api/poly/catalog/${encodeURIComponent(name)}`);
    if (unless != null && st.edits !== unless) return;
    st.picked = { name, toml: r.toml };
    ui.editor.value = r.toml;
    localStorage.setItem(STORE, r.toml);
    ui.editor.scrollTop = 0;
    gutter();
    caret();
    await check();
  } catch (e) {
    toast(`Could not load ${name}: ${e.message}`, 'error');
    check();
  }
}

// ---- the editor: line numbers, caret position, the error line ----

function gutter() {
  const n = ui.editor.value.split('\n').length;
  if (ui.gutter.childElementCount !== n) {
    const frag = [];
    for (let i = 1; i <= n; i++) frag.push(h('div', {}, String(i)));
    ui.gutter.replaceChildren(...frag);
  }
  markLine();
}

function syncScroll() {
  ui.gutter.style.transform = `translateY(${-ui.editor.scrollTop}px)`;
  markLine();
}

function caret() {
  const v = ui.editor.value;
  const at = ui.editor.selectionStart || 0;
  const before = v.slice(0, at);
  const line = before.split('\n').length;
  const col = at - before.lastIndexOf('\n');
  ui.pos.textContent = `Line ${line}, column ${col}`;
}

function lineHeight() {
  const cs = getComputedStyle(ui.editor);
  const lh = parseFloat(cs.lineHeight);
  return isFinite(lh) ? lh : parseFloat(cs.fontSize) * 1.4;
}

function markLine() {
  for (const d of ui.gutter.querySelectorAll('.bad')) d.classList.remove('bad');
  const line = st.error && st.error.line;
  if (!line) { ui.bar.hidden = true; return; }
  const g = ui.gutter.children[line - 1];
  if (g) g.classList.add('bad');
  const cs = getComputedStyle(ui.editor);
  const top = parseFloat(cs.paddingTop) + parseFloat(cs.borderTopWidth) + (line - 1) * lineHeight() - ui.editor.scrollTop;
  ui.bar.style.top = `${top}px`;
  ui.bar.style.height = `${lineHeight()}px`;
  ui.bar.hidden = top < 0 || top > ui.editor.clientHeight;
}

/** Puts the caret on line `line` (column `col`) and scrolls it into view. */
function goTo(line, col = 1) {
  selectLine(ui.editor, line, col);
  ui.editor.scrollTop = Math.max(0, (line - 3) * lineHeight());
  syncScroll();
  caret();
}

// ---- checking ----

let timer = null;
function scheduleCheck() {
  timer = checkSoon(timer, ui.check, check);
}

async function check() {
  const burr = st.burr;
  const toml = ui.editor.value;
  const key = burr ? burrKey() : toml;
  const seq = ++st.seq;
  try {
    const r = await post('/api/poly/check', burr ? { burr: burr.data, problem: burr.problem } : { toml });
    if (seq !== st.seq) return;
    st.checked = r;
    st.checkedKey = key;
    st.error = null;
    showChecked(r);
  } catch (e) {
    if (seq !== st.seq) return;
    st.checked = null;
    // the editor's line is marked for the editor's text only
    st.error = e instanceof ApiError && !burr ? e : null;
    showError(e);
  }
  markLine();
}

// ---- a BurrTools file ----

/** What a check of the open BurrTools file's problem is of. */
function burrKey() {
  return st.burr ? `burr:${st.burr.file}:${st.burr.data.length}:${st.burr.problem}` : null;
}

/** Bytes as base64, a chunk at a time. */
function base64(buffer) {
  const bytes = new Uint8Array(buffer);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Reads file `f`, asks the server for its problems and opens it in
 * place of the editor; a file it refuses is said at its line. */
async function openBurr(f) {
  if (f.size > MAX_BURR) {
    ui.check.replaceChildren(h('span', { class: 'error' }, `${f.name} is over ${Math.floor(MAX_BURR / 1024)} KiB, more than the server takes.`));
    ui.burrFile.value = '';
    return;
  }
  const seq = ++st.seq;
  ui.check.replaceChildren(h('span', { class: 'muted' }, `Reading ${f.name}…`));
  try {
    const data = base64(await f.arrayBuffer());
    const info = await post('/api/poly/burr', { burr: data });
    if (seq !== st.seq) return;
    if (!(info.problems || []).length) {
      ui.check.replaceChildren(h('span', { class: 'error' }, `${f.name} has no problem to solve.`));
      return;
    }
    st.burr = { file: f.name, data, info, problem: info.problems[0].number };
    ui.select.value = '';
    localStorage.setItem(STORE_NAME, '');
    st.picked = null;
    showKnown();
    ui.problem.replaceChildren(...info.problems.map((r) => h('option', { value: r.number }, `${r.number}. ${r.name}`)));
    ui.problem.value = String(st.burr.problem);
    ui.burrTitle.replaceChildren(h('strong', {}, f.name), `: ${info.grid}, ${num(info.problems.length)} problem${info.problems.length === 1 ? '' : 's'}.`);
    const comment = (info.comment || '').trim();
    ui.burrComment.textContent = comment.length > 400 ? `${comment.slice(0, 400)}…` : comment;
    ui.burrComment.hidden = !comment;
    // taken apart by default where the grid can be
    if (info.disassembles && !ui.apart.checked) {
      ui.apart.checked = true;
      st.apartAuto = true;
    }
    burrDetails();
    ui.tomlBox.hidden = true;
    ui.burrBox.hidden = false;
    st.error = null;
    markLine();
    await check();
  } catch (e) {
    if (seq !== st.seq) return;
    const where = e instanceof ApiError ? e.where() : e.message;
    ui.check.replaceChildren(h('span', { class: 'error', 'data-line': (e && e.line) || '' }, `Could not open ${f.name}: ${where}`));
  } finally {
    ui.burrFile.value = '';
  }
}

/** The open file's problem in words: its pieces, result, what BurrTools found. */
function burrDetails() {
  const r = st.burr && st.burr.info.problems.find((x) => x.number === st.burr.problem);
  if (!r) { ui.burrAbout.textContent = ''; return; }
  const copies = r.copies_min === r.copies_max ? num(r.copies_max) : `${num(r.copies_min)} to ${num(r.copies_max)}`;
  const found = r.assemblies != null
    ? ` BurrTools found ${num(r.assemblies)} assembl${r.assemblies === 1 ? 'y' : 'ies'}${r.solutions != null ? `, ${num(r.solutions)} solution${r.solutions === 1 ? '' : 's'}` : ''}.`
    : '';
  ui.burrAbout.textContent = `${num(r.pieces)} piece${r.pieces === 1 ? '' : 's'} (${copies} in all) into ${r.result}: ${num(r.cells)} cells`
    + (r.optional ? `, ${num(r.optional)} of them may stay empty` : '') + `.${found}`;
}

/** Back to the editor (`recheck`: and its puzzle checked). */
function closeBurr(recheck) {
  if (!st.burr) return;
  st.burr = null;
  if (st.apartAuto) ui.apart.checked = false;
  st.apartAuto = false;
  ui.burrBox.hidden = true;
  ui.tomlBox.hidden = false;
  if (recheck) {
    ui.editor.focus();
    check();
  }
}

/** A small square of a piece's colour (decoration: the name is beside it). */
function swatch(colour) {
  return colour ? h('span', { class: 'swatch', style: `background:${colour}`, 'aria-hidden': 'true' }) : null;
}

function showChecked(r) {
  const pieces = (r.pieces || []).reduce((a, p) => a + (typeof p.count === 'number' ? p.count : 0), 0);
  const grid = (r.grid && r.grid.name) || (r.dim === 3 ? 'cube' : 'square');
  const ext = grid === 'square' || grid === 'cube' ? ` ${(r.extent || []).slice(0, r.dim).join(' × ')}` : '';
  const cells = r.grid && r.grid.edges ? 'edges' : 'cells';
  ui.check.replaceChildren(h('span', { class: 'good', 'data-grid': grid },
    `No errors: ${r.name ? r.name + ', ' : ''}${gridWords(r.grid || grid).toLowerCase()}, board${ext} of ${num((r.board || []).length)} ${cells}, ${num((r.pieces || []).length)} piece types`
    + (pieces ? ` (${num(pieces)} pieces)` : '') + '.'));
  const list = h('ul', { class: 'pieces', 'aria-label': 'Pieces' },
    (r.pieces || []).map((p) => h('li', { 'data-name': p.name, 'data-colour': p.colour || '' }, swatch(p.colour), `${p.name}`,
      h('span', { class: 'muted' }, ` ×${countText(p.count)}, ${p.cells.length} ${cells}`))));
  ui.preview.replaceChildren(
    r.svg ? svgImg(r.svg, `The board and pieces of ${r.name || 'the puzzle'}`) : h('p', { class: 'muted' }, 'No picture.'),
    list);
}

function countText(c) {
  if (Array.isArray(c)) return `${c[0]}–${c[1]}`;
  if (c === 'any' || c == null) return 'any';
  if (typeof c === 'object') return JSON.stringify(c);
  return String(c);
}

function showError(e) {
  const line = e.line;
  const parts = [h('span', { class: 'error', 'data-line': line || '' },
    e instanceof ApiError ? (line ? `Error at ${e.where()}` : `Error: ${e.where()}`) : `Error: ${e.message}`)];
  if (line && !st.burr) {
    parts.push(' ', h('button', { type: 'button', class: 'small', onclick: () => goTo(line, e.column || 1) }, `Go to line ${line}`));
  }
  ui.check.replaceChildren(...parts);
  ui.preview.replaceChildren(h('p', { class: 'muted' }, 'Fix the error to see the board and pieces.'));
}

// ---- solving ----

async function run(mode) {
  if (st.job) return;
  const toml = ui.editor.value;
  const burr = st.burr;
  const source = burr ? { burr: burr.data, problem: burr.problem } : { toml };
  const spec = { kind: 'poly', ...source, mode, unique: ui.unique.checked };
  if (ui.apart.checked) spec.disassemble = true;
  const lim = parseInt(ui.limit.value, 10);
  if (ui.limit.value !== '') {
    if (!(lim >= 1)) { setState('The limit must be a whole number, at least 1.', 'error'); ui.limit.focus(); return; }
    spec.limit = lim;
  }
  st.solutions = [];
  st.index = 0;
  st.summary = null;
  st.mode = mode;
  st.uniqueRun = spec.unique;
  st.jobToml = burr ? null : toml;
  st.jobSource = source;
  st.jobName = burr ? burr.file.replace(/\.[^.]*$/, '') : null;
  const checked = st.checked && st.checkedKey === (burr ? burrKey() : toml) ? st.checked : null;
  const burrGrid = burr ? BURR_GRIDS[burr.info.grid] || 'cube' : null;
  st.jobDim = checked ? checked.dim : burr ? 3 : guessDim(toml);
  st.jobGrid = checked && checked.grid ? checked.grid.name : burrGrid || guessGrid(toml);
  const entry = !burr && st.picked && st.picked.toml === toml ? st.catalog.find((p) => p.name === st.picked.name) : null;
  st.jobKnown = entry ? entry.known : null;
  drawGallery();
  ui.bar2.removeAttribute('value');
  ui.stats.replaceChildren();
  setBusy(true);
  setState(mode === 'count' ? 'Counting…' : 'Solving…');
  let pending = 0;
  try {
    st.job = await startJob(spec, {
      progress: (p) => progress(p),
      solution: (s) => {
        st.solutions.push(s);
        // redraw the pager at most a few times a second
        if (!pending) pending = setTimeout(() => { pending = 0; drawGallery(); }, 150);
      },
      done: (s) => { clearTimeout(pending); pending = 0; finish(s); },
      error: (e) => { clearTimeout(pending); pending = 0; finish({ status: 'error', message: e.message }); },
    });
  } catch (e) {
    setBusy(false);
    st.job = null;
    ui.bar2.value = 0;
    // a puzzle the job found wrong where the check did not (the editor
    // changed meanwhile): its line is shown; a puzzle that checked is
    // left as it was (the error is the job's: taking apart on a grid
    // that cannot be)
    if (e instanceof ApiError && e.line && !checked && !burr) {
      st.error = e;
      showError(e);
      markLine();
    }
    setState(notStarted(e), 'error');
  }
}

function guessDim(toml) {
  return /^\s*(box|layers)\s*=/m.test(toml) || guessGrid(toml) === 'cube' ? 3 : 2;
}

/** The grid a puzzle file names (before the server has checked it). */
function guessGrid(toml) {
  const m = /^\s*grid\s*=\s*["']([a-z]+)["']/m.exec(toml);
  if (m) return m[1];
  return /^\s*(box|layers)\s*=/m.test(toml) ? 'cube' : 'square';
}

function setBusy(b) {
  ui.solve.disabled = b;
  ui.count.disabled = b;
  ui.cancel.disabled = !b;
  ui.editor.setAttribute('aria-busy', String(b));
}

function setState(text, kind = '') {
  showState(ui.state, text, kind);
}

function progress(p) {
  setProgress(ui.bar2, p);
  statLine(p);
}

function statLine(p) {
  ui.stats.replaceChildren(progressStats(p));
}

async function cancel() {
  await cancelJob(st, ui.cancel, setState);
}

function finish(s) {
  st.summary = s;
  st.job = null;
  setBusy(false);
  ui.bar2.value = s.status === 'complete' ? 1 : ui.bar2.value || 0;
  const n = s.solutions;
  statLine({ solutions: n, nodes: s.nodes, nodes_per_s: s.elapsed_s ? s.nodes / s.elapsed_s : null, elapsed_s: s.elapsed_s });
  // unique runs count classes of solutions (the summary's `unique`) and
  // say how many solutions they stand for (`solutions`, the total)
  const u = s.unique;
  const what = st.uniqueRun && u != null
    ? `${num(u)} solution${u === 1 ? '' : 's'} up to symmetry (${num(n)} in all)`
    : `${num(n)} solution${n === 1 ? '' : 's'}`;
  const [words, kind] = endWords(s, what);
  const k = s.disassemblies;
  const apart = k != null ? ` ${num(k)} of them come${k === 1 ? 's' : ''} apart.` : '';
  setState(words + apart + (s.engine ? ` Engine ${s.engine}, ${fmtTime(s.elapsed_s)}.` : '') + published(s), kind);
  ui.state.dataset.status = s.status;
  drawGallery();
}

/** A finished run of an unchanged catalogue puzzle against its published count. */
function published(s) {
  const k = st.jobKnown;
  if (!k || s.status !== 'complete') return '';
  const [ours, theirs] = st.uniqueRun ? [s.unique, k.unique] : [s.solutions, k.solutions];
  if (theirs == null || ours == null) return '';
  return ours === theirs ? ` The published count is ${num(theirs)}: it agrees.` : ` The published count is ${num(theirs)}.`;
}

// ---- the solutions: pager, layers, isometric view, downloads ----

function drawGallery() {
  const sols = st.solutions;
  if (!sols.length) {
    // the pager and pictures are built again for the next solutions
    if (ui.player) ui.player.stop();
    ui.pager = null;
    ui.shown = null;
    ui.gallery.hidden = !(st.summary && st.mode === 'solve');
    ui.gallery.replaceChildren(h('p', { class: 'muted' }, st.summary ? 'No solutions to show.' : ''));
    return;
  }
  ui.gallery.hidden = false;
  st.index = Math.max(0, Math.min(st.index, sols.length - 1));
  const s = sols[st.index];
  const n = s.number || st.index + 1;
  if (!ui.pager) buildGallery();
  ui.counter.textContent = `Solution ${num(st.index + 1)} of ${num(sols.length)}${st.job ? '…' : ''}`;
  ui.prev.disabled = st.index === 0;
  ui.next.disabled = st.index >= sols.length - 1;
  ui.first.disabled = st.index === 0;
  ui.last.disabled = st.index >= sols.length - 1;
  ui.goto.max = sols.length;
  if (ui.shown !== s) {
    ui.shown = s;
    ui.pic.replaceChildren(s.svg ? svgImg(s.svg, `Solution ${n}${st.jobDim === 3 ? ', its layers side by side' : ''}`)
      : h('p', { class: 'muted' }, 'No picture for this solution.'));
    // the page's own turnable view draws cubes: for the cube grid only
    ui.iso.hidden = st.jobGrid !== 'cube';
    if (!ui.iso.hidden) drawIso();
    const colours = s.colours || [];
    ui.legend.replaceChildren(...(s.placements || []).map((p, i) =>
      h('span', { class: 'piece', 'data-colour': colours[i] || '' }, swatch(colours[i]), p.piece)));
    // the take-apart player: cubes and prisms, solutions with a disassembly
    ui.player.show(['cube', 'prism'].includes(st.jobGrid) ? s : null, st.jobGrid, comingApart());
  } else {
    ui.player.others(comingApart());
  }
}

/** The solutions kept that come apart: [{ index, number }]. */
function comingApart() {
  return st.solutions.map((x, i) => ({ index: i, number: x.number || i + 1, apart: x.disassembly && x.disassembly.apart }))
    .filter((x) => x.apart);
}

function buildGallery() {
  const btn = (label, text, f) => h('button', { type: 'button', 'aria-label': label, title: label, onclick: f }, text);
  ui.first = btn('First solution', '|◀', () => go(0));
  ui.prev = btn('Previous solution', '◀', () => go(st.index - 1));
  ui.next = btn('Next solution', '▶', () => go(st.index + 1));
  ui.last = btn('Last solution', '▶|', () => go(st.solutions.length - 1));
  ui.counter = h('span', { class: 'counter', 'aria-live': 'polite' });
  ui.goto = h('input', { type: 'number', min: 1, id: 'poly-goto', class: 'limit', inputmode: 'numeric' });
  ui.goto.addEventListener('change', () => { const k = parseInt(ui.goto.value, 10); if (k >= 1) go(k - 1); });
  ui.pic = h('div', { class: 'pic-wrap' });
  ui.legend = h('p', { class: 'muted small legend' });
  ui.figure = h('figure', {
    class: 'solution', tabindex: 0, role: 'group', 'aria-roledescription': 'gallery',
    'aria-label': 'Solutions (arrow keys: previous, next; Home, End)',
  }, ui.pic, ui.legend);
  ui.figure.addEventListener('keydown', (e) => {
    const to = { ArrowLeft: st.index - 1, ArrowRight: st.index + 1, PageUp: st.index - 10, PageDown: st.index + 10, Home: 0, End: st.solutions.length - 1 }[e.key];
    if (to == null) return;
    e.preventDefault();
    go(to);
  });
  // the isometric view
  ui.isoPic = h('div', {
    class: 'iso-pic', tabindex: 0, role: 'img', 'aria-label': 'Isometric view',
  });
  ui.isoPic.addEventListener('keydown', (e) => {
    const d = { ArrowLeft: [-15, 0], ArrowRight: [15, 0], ArrowUp: [0, 10], ArrowDown: [0, -10] }[e.key];
    if (!d) return;
    e.preventDefault();
    turn(d[0], d[1]);
  });
  drag(ui.isoPic);
  const tb = (label, text, f) => h('button', { type: 'button', onclick: f, 'aria-label': label, title: label }, text);
  ui.spread = h('input', { type: 'range', id: 'poly-spread', min: 0, max: 2, step: 0.25, value: 0 });
  ui.spread.addEventListener('input', () => { st.spread = parseFloat(ui.spread.value); drawIso(); });
  ui.iso = h('section', { class: 'iso', 'aria-label': 'Isometric view' },
    h('h3', {}, 'Isometric view'),
    h('div', { class: 'row' },
      tb('Turn left', '↺ Turn left', () => turn(-15, 0)),
      tb('Turn right', '↻ Turn right', () => turn(15, 0)),
      tb('Tilt up', '▲ Tilt up', () => turn(0, 10)),
      tb('Tilt down', '▼ Tilt down', () => turn(0, -10)),
      tb('Reset view', 'Reset', () => { st.view = { yaw: 35, pitch: 30 }; drawIso(); }),
      h('label', { for: 'poly-spread' }, 'Spread layers', ui.spread)),
    ui.isoPic,
    h('p', { class: 'muted small' }, 'Focus the picture and use the arrow keys, or drag it, to turn the view.'));
  ui.pager = h('div', { class: 'row pager', role: 'toolbar', 'aria-label': 'Solutions' },
    ui.first, ui.prev, ui.counter, ui.next, ui.last,
    h('label', { for: 'poly-goto' }, 'Go to', ui.goto));
  ui.downloads = h('div', { class: 'row', role: 'group', 'aria-label': 'Downloads' },
    h('button', { type: 'button', onclick: downloadSvg }, 'Download SVG'),
    h('button', { type: 'button', onclick: downloadPng }, 'Download PNG'),
    h('button', { type: 'button', onclick: downloadNdjson }, 'Download NDJSON'));
  ui.player = makePlayer({ go });
  ui.gallery.replaceChildren(h('h3', {}, 'Solutions'), ui.pager, ui.figure, ui.player.el, ui.iso, ui.downloads);
}

function go(i) {
  const n = st.solutions.length;
  if (!n) return;
  st.index = Math.max(0, Math.min(n - 1, i));
  drawGallery();
}

function turn(dy, dp) {
  st.view.yaw = (st.view.yaw + dy + 360) % 360;
  st.view.pitch = Math.max(-80, Math.min(80, st.view.pitch + dp));
  drawIso();
}

function drag(el) {
  let from = null;
  el.addEventListener('pointerdown', (e) => { from = [e.clientX, e.clientY, st.view.yaw, st.view.pitch]; el.setPointerCapture(e.pointerId); });
  el.addEventListener('pointermove', (e) => {
    if (!from) return;
    st.view.yaw = (from[2] + (e.clientX - from[0]) * 0.6 + 720) % 360;
    st.view.pitch = Math.max(-80, Math.min(80, from[3] + (e.clientY - from[1]) * 0.4));
    drawIso();
  });
  const end = () => { from = null; };
  el.addEventListener('pointerup', end);
  el.addEventListener('pointercancel', end);
}

function drawIso() {
  const s = st.solutions[st.index];
  if (!s || !ui.isoPic) return;
  const svg = isoSvg(s.placements || [], st.view, { spread: st.spread, colours: s.colours });
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  ui.isoPic.replaceChildren(svg);
  const yaw = Math.round(st.view.yaw), pitch = Math.round(st.view.pitch);
  ui.isoPic.setAttribute('aria-label', `Isometric view of solution ${st.index + 1}, turned ${yaw}°, tilted ${pitch}°`);
  ui.isoPic.dataset.yaw = String(yaw);
  ui.isoPic.dataset.pitch = String(pitch);
}

function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function baseName() {
  if (st.jobName) return st.jobName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'puzzle';
  const m = /^\s*name\s*=\s*"([^"]*)"/m.exec(st.jobToml || '');
  const n = (ui.select.value || (m && m[1]) || 'puzzle').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return n || 'puzzle';
}

/** A solution event as the command line's record (no picture, no colours). */
function record(s) {
  const { svg, colours, ...rest } = s;
  void svg;
  void colours;
  return rest;
}

function current() {
  const s = st.solutions[st.index];
  if (!s) toast('No solution to download yet.', 'error');
  return s;
}

function fileNo(s) {
  return String(s.number || st.index + 1).padStart(5, '0');
}

function downloadSvg() {
  const s = current();
  if (!s) return;
  save(new Blob([s.svg || ''], { type: 'image/svg+xml' }), `${baseName()}-solution-${fileNo(s)}.svg`);
}

async function downloadPng() {
  const s = current();
  if (!s) return;
  try {
    const blob = await render({ ...(st.jobSource || { toml: st.jobToml }), solution: record(s), format: 'png', size: 24 });
    save(blob, `${baseName()}-solution-${fileNo(s)}.png`);
  } catch (e) {
    // the page can rasterise the SVG itself
    try {
      save(await rasterise(s.svg), `${baseName()}-solution-${fileNo(s)}.png`);
    } catch (e2) {
      toast(`Could not make the PNG: ${e.message}`, 'error');
    }
  }
}

function rasterise(svg) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      const c = document.createElement('canvas');
      c.width = img.naturalWidth || 600;
      c.height = img.naturalHeight || 400;
      const g = c.getContext('2d');
      g.fillStyle = '#fff';
      g.fillRect(0, 0, c.width, c.height);
      g.drawImage(img, 0, 0);
      c.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png');
    };
    img.onerror = () => reject(new Error('bad SVG'));
    img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
  });
}

function downloadNdjson() {
  if (!st.solutions.length) { toast('No solutions to download yet.', 'error'); return; }
  const lines = st.solutions.map((s) => JSON.stringify(record(s)));
  save(new Blob([lines.join('\n') + '\n'], { type: 'application/x-ndjson' }), `${baseName()}-solutions.ndjson`);
}

const HELP = `name = "Scott's pentomino problem"
about = "a line about it"     # optional
grid = "square"               # square (default), cube, triangle, hexagon,
                              # stick, twig, trig, sphere or prism (below)
reflections = true            # may pieces be turned over? (default true)
unique = "all"                # Unique up to symmetry counts up to rotations
                              # and reflections ("all") or "rotations"
crossings = false             # stick, trig: may two pieces cross at a point?

[board]                       # exactly one of:
rect = [8, 8]                 # width, height (squares; sticks: their edges)
# box = [3, 3, 3]             # width, height, depth (cubes)
# parallelogram = [6, 6]      # triangles, hexagons, twigs, trigs
# hexagon = 3                 # side 3: triangles, hexagons, twigs, trigs
# triangle = 4                # side 4: triangles, hexagons, twigs, trigs
# cells = [[0, 0, 1], ...]    # a list of the grid's cells (or edges)
# faces = [[0, 0], ...]       # sticks, twigs, trigs: the edges of these faces
# shape = """                 # a picture (not on twigs and trigs)
# ########
# ###..###
# """
# layers = ["###\n###", "###\n###"]   # in space: a picture a layer, z = 0 first
holes = [[3, 3], [4, 3], [3, 4], [4, 4]]   # cells to leave out

[[piece]]
set = "pentominoes"           # every piece of a named set
count = 1                     # each (default 1)

[[piece]]
name = "O"                    # a piece by name, or your own:
cells = [[0, 0], [1, 0], [0, 1], [1, 1]]   # or shape = "##\n##"
                              # (in space: layers = ["##", "#."])
count = 2                     # or [0, 2] (between), or "any"
one_sided = false             # rotations only for this piece

Coordinates: y grows downwards everywhere; [0, 0] is the top left.
  square   [x, y]; a picture has a character a square
  cube     [x, y, z], z the layer from the first
  triangle [x, y, k]: k = 0 an up triangle, 1 the down one to its right;
           a picture has a character a triangle, up where column + line
           is even
  hexagon  [x, y]; each row half a hexagon left of the one above; a
           picture has a blank between hexagons ("# # #")
  stick    [x, y, 0] the edge from point (x, y) right, [x, y, 1] down;
           a picture draws points '+', edges '-' and '|'
  twig     [x, y, k]: the side between hexagon [x, y] and its neighbour
           right (k = 0), below left (1), below right (2)
  trig     [x, y, k]: the edge from point [x, y] right (0), down left (1),
           down right (2)
  sphere   [x, y, z] with x + y + z even; a layer's picture has a sphere
           every other column, a line shifted by one from the last, and
           a sphere of layer z + 1 rests on four of layer z
  prism    [x, y, 2z + k]: the prism over triangle [x, y, k] in layer z;
           a layer's picture is a picture of triangles
The buttons above the editor load a small example on each grid.
Piece sets: monominoes, dominoes, trominoes, tetrominoes, pentominoes,
hexominoes, soma, pentacubes, and on the other grids as the server
knows them (an unknown set's error lists them).`;
