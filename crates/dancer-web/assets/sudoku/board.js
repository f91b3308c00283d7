// A Sudoku grid on the page, shared by the Play and Solve tabs.
//
// `makeBoard({ size, regions, extraUnits, cages, interactive })` builds the grid
// once (an ARIA grid: rows of gridcells, each labelled "r3c7, 5, given");
// `board.draw(state)` redraws it from a plain description:
//
//   state = {
//     cells: [{ digit, given, marks: [1, 5], conflict, wrong }, ...],  // n*n, row-major
//     selected: 40 or null,            // the cell with the focus ring (Play)
//     sameDigit: true,                 // shade the cells that hold the selected digit
//     peers: true,                     // shade the cells that see the selected cell
//     step: { cells, placements, eliminations } or null,   // a hint or path step
//   }
//
// Thick lines follow the regions (boxes or any other shape): a cell's right
// or bottom edge is thick where its neighbour is in another region. The
// variant's extra units (diagonals, windows) are shaded. A killer's cages
// ([{ sum, cells }]) are drawn as newspapers draw them: a dashed outline
// just inside each cage's cells, and the sum in the corner of its first
// cell (an SVG over the grid, in cell units). Nothing here talks to the
// server: the tabs do.
import { h } from '../api.js';

/** The symbol of digit d (1-9, then A, B, ... as the command line prints them). */
export function symbol(d) {
  if (!d) return '';
  return d <= 9 ? String(d) : String.fromCharCode(55 + d); // 10 -> 'A'
}

/** The digit of a key or character ('1'..'9', 'a'/'A'.. for sizes over 9), or 0. */
export function digitOf(ch, size) {
  if (!ch || ch.length !== 1) return 0;
  let d = 0;
  if (ch >= '1' && ch <= '9') d = ch.charCodeAt(0) - 48;
  else if (/[a-zA-Z]/.test(ch)) d = ch.toUpperCase().charCodeAt(0) - 55;
  return d >= 1 && d <= size ? d : 0;
}

/** Cell name r1c1 (1-based). */
export function cellName(size, c) {
  return `r${Math.floor(c / size) + 1}c${(c % size) + 1}`;
}

/** The mark layout of a size: columns of the little grid of pencil marks. */
function markCols(size) {
  if (size <= 4) return 2;
  if (size <= 6) return 3;
  if (size <= 9) return 3;
  return Math.ceil(Math.sqrt(size));
}

/**
 * The cells each cell sees (same row, column, region or extra unit), as a
 * list of Sets, for the peers' shading.
 */
export function peersOf(size, regions, extraUnits = []) {
  const n = size;
  const peers = Array.from({ length: n * n }, () => new Set());
  const units = [];
  for (let r = 0; r < n; r++) units.push(Array.from({ length: n }, (_, c) => r * n + c));
  for (let c = 0; c < n; c++) units.push(Array.from({ length: n }, (_, r) => r * n + c));
  const byRegion = new Map();
  regions.forEach((g, c) => { if (!byRegion.has(g)) byRegion.set(g, []); byRegion.get(g).push(c); });
  units.push(...byRegion.values(), ...extraUnits);
  for (const u of units) for (const a of u) for (const b of u) if (a !== b) peers[a].add(b);
  return peers;
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The inset from a cell's edge of a cage's dashed outline, in cells. */
const INSET = 0.1;

/**
 * The dashed outlines of the cages and their sums, as an SVG over the
 * grid (viewBox in cells). Each cell draws the sides of its cage that end
 * there, INSET inside; a side runs on to the cell's edge where the cage
 * goes on, and the inner corner of an L is closed by two short pieces.
 */
export function cageLayer(n, cages) {
  const owner = new Array(n * n).fill(-1);
  cages.forEach((g, k) => g.cells.forEach((c) => { if (c >= 0 && c < n * n) owner[c] = k; }));
  const same = (c, dr, dc) => {
    const r = Math.floor(c / n) + dr, col = (c % n) + dc;
    return r >= 0 && r < n && col >= 0 && col < n && owner[r * n + col] === owner[c];
  };
  const layer = svg('svg', { class: 'cages', viewBox: `0 0 ${n} ${n}`, preserveAspectRatio: 'none', 'aria-hidden': 'true' });
  const segs = [];
  const d = INSET;
  for (let c = 0; c < n * n; c++) {
    if (owner[c] < 0) continue;
    const x = c % n, y = Math.floor(c / n);
    const up = same(c, -1, 0), down = same(c, 1, 0), left = same(c, 0, -1), right = same(c, 0, 1);
    const x0 = left ? x : x + d, x1 = right ? x + 1 : x + 1 - d;
    const y0 = up ? y : y + d, y1 = down ? y + 1 : y + 1 - d;
    if (!up) segs.push([x0, y + d, x1, y + d]);
    if (!down) segs.push([x0, y + 1 - d, x1, y + 1 - d]);
    if (!left) segs.push([x + d, y0, x + d, y1]);
    if (!right) segs.push([x + 1 - d, y0, x + 1 - d, y1]);
    // inner corners: both sides go on, the diagonal cell is not the cage's
    for (const [dy, dx] of [[-1, -1], [-1, 1], [1, -1], [1, 1]]) {
      if (!same(c, dy, 0) || !same(c, 0, dx) || same(c, dy, dx)) continue;
      const cx = dx < 0 ? x + d : x + 1 - d, cy = dy < 0 ? y + d : y + 1 - d;
      const ex = dx < 0 ? x : x + 1, ey = dy < 0 ? y : y + 1;
      segs.push([ex, cy, cx, cy], [cx, ey, cx, cy]);
    }
  }
  const path = segs.map(([a, b, e, f]) => `M${a} ${b}L${e} ${f}`).join('');
  layer.append(svg('path', { class: 'cage-line', d: path }));
  for (const g of cages) {
    if (!g.cells.length) continue;
    const first = Math.min(...g.cells);
    const t = svg('text', { class: 'cage-sum', x: (first % n) + 0.05, y: Math.floor(first / n) + 0.27 });
    t.textContent = String(g.sum);
    layer.append(t);
  }
  return layer;
}

/**
 * The cells each cell of a gattai canvas sees: the rows and columns of
 * every grid (at its `[row, col]` offset) and the canvas boxes (regions,
 * -1 for dead cells).
 */
export function canvasPeers(size, canvas, regions) {
  const { height, width, grids } = canvas;
  const peers = Array.from({ length: height * width }, () => new Set());
  const units = [];
  for (const [r0, c0] of grids) {
    for (let k = 0; k < size; k++) {
      units.push(Array.from({ length: size }, (_, j) => (r0 + k) * width + c0 + j));
      units.push(Array.from({ length: size }, (_, j) => (r0 + j) * width + c0 + k));
    }
  }
  const byRegion = new Map();
  regions.forEach((g, c) => { if (g < 0) return; if (!byRegion.has(g)) byRegion.set(g, []); byRegion.get(g).push(c); });
  units.push(...byRegion.values());
  for (const u of units) for (const a of u) for (const b of u) if (a !== b) peers[a].add(b);
  return peers;
}

/** A cell's name on a board `width` cells wide: `r13c7` (from 1). */
export function cellNameW(width, c) {
  return `r${Math.floor(c / width) + 1}c${(c % width) + 1}`;
}

// `canvas` ({ height, width, grids, live }): a gattai's canvas, the cells
// in no grid dead (blank, never selected); box lines follow `regions`
// (-1 for the dead cells), and the outline of the live cells is drawn.
export function makeBoard({ size, regions, extraUnits = [], cages = [], interactive = false, label = 'Sudoku grid', canvas = null }) {
  const n = size;
  const H = canvas ? canvas.height : n;
  const W = canvas ? canvas.width : n;
  const live = canvas ? canvas.live : null;
  const isLive = (i) => !live || live[i];
  const peers = canvas ? canvasPeers(n, canvas, regions) : peersOf(n, regions, [...extraUnits, ...cages.map((g) => g.cells)]);
  const cageSum = new Map();
  cages.forEach((g) => { if (g.cells.length) cageSum.set(Math.min(...g.cells), g); });
  const diag = new Set();
  const win = new Set();
  for (const u of extraUnits) {
    // windows are 3x3 blocks; diagonals have n cells in n rows
    const rows = new Set(u.map((c) => Math.floor(c / n)));
    const target = rows.size === n ? diag : win;
    u.forEach((c) => target.add(c));
  }
  const root = h('div', {
    class: `board size-${n}${interactive ? ' interactive' : ''}${cages.length ? ' caged' : ''}${canvas ? ' canvas' : ''}`,
    role: 'grid',
    'aria-label': label,
    'aria-rowcount': H,
    'aria-colcount': W,
    style: canvas ? `--n: ${Math.max(H, W)}; --rows: ${H}; --cols: ${W}; --mc: ${markCols(n)}`
      : `--n: ${n}; --mc: ${markCols(n)}`,
  });
  const cells = [];
  for (let r = 0; r < H; r++) {
    const row = h('div', { class: 'brow', role: 'row', 'aria-rowindex': r + 1 });
    for (let c = 0; c < W; c++) {
      const i = r * W + c;
      const cls = ['cell'];
      if (!isLive(i)) cls.push('dead');
      if (canvas) {
        if (isLive(i) && (c === W - 1 || regions[i] !== regions[i + 1])) cls.push('rb');
        if (isLive(i) && (r === H - 1 || regions[i] !== regions[i + W])) cls.push('bb');
        if (isLive(i) && (c === 0 || !isLive(i - 1))) cls.push('lb');
        if (isLive(i) && (r === 0 || !isLive(i - W))) cls.push('tb');
      } else {
        if (c < n - 1 && regions[i] !== regions[i + 1]) cls.push('rb');
        if (r < n - 1 && regions[i] !== regions[i + n]) cls.push('bb');
      }
      if (c === 0) cls.push('first-col');
      if (r === 0) cls.push('first-row');
      if (diag.has(i)) cls.push('diag');
      if (win.has(i)) cls.push('win');
      const el = h('div', {
        class: cls.join(' '),
        role: 'gridcell',
        'aria-colindex': c + 1,
        'data-cell': i,
        tabindex: interactive && isLive(i) ? -1 : null,
        'aria-hidden': isLive(i) ? null : 'true',
      });
      cells.push(el);
      row.append(el);
    }
    root.append(row);
  }
  if (cages.length) root.append(cageLayer(n, cages));
  const base = cells.map((el) => el.className);
  let last = [];

  function draw(state) {
    const cs = state.cells;
    const sel = state.selected;
    const selDigit = sel != null && cs[sel] ? cs[sel].digit : 0;
    const step = state.step;
    const stepCells = new Set(step ? step.cells || [] : []);
    const elim = new Map();
    const place = new Map();
    if (step) {
      for (const [c, d] of step.eliminations || []) { if (!elim.has(c)) elim.set(c, new Set()); elim.get(c).add(d); }
      for (const [c, d] of step.placements || []) place.set(c, d);
    }
    for (let i = 0; i < H * W; i++) {
      if (!isLive(i)) continue;
      const x = cs[i] || { digit: 0, marks: [] };
      const cls = [base[i]];
      if (x.given) cls.push('given');
      else if (x.digit) cls.push('entry');
      if (x.conflict) cls.push('conflict');
      if (x.wrong) cls.push('wrong');
      if (i === sel) cls.push('sel');
      else if (sel != null && state.peers !== false && peers[sel].has(i)) cls.push('peer');
      if (selDigit && x.digit === selDigit && i !== sel && state.sameDigit !== false) cls.push('same');
      if (stepCells.has(i)) cls.push('step');
      if (place.has(i)) cls.push('place');
      if (elim.has(i)) cls.push('elim');
      const className = cls.join(' ');
      const key = JSON.stringify([x.digit, x.marks, className, place.get(i), elim.has(i) ? [...elim.get(i)] : null]);
      if (last[i] === key) continue;
      last[i] = key;
      const el = cells[i];
      el.className = className;
      if (interactive) el.tabIndex = i === sel ? 0 : -1;
      if (x.digit) {
        el.replaceChildren(h('span', { class: 'digit' }, symbol(x.digit)));
      } else if ((x.marks && x.marks.length) || place.has(i) || elim.has(i)) {
        const marks = new Set(x.marks || []);
        if (place.has(i)) marks.add(place.get(i));
        if (elim.has(i)) for (const d of elim.get(i)) marks.add(d);
        const grid = h('span', { class: 'marks', 'aria-hidden': 'true' });
        for (let d = 1; d <= n; d++) {
          const m = h('span', { class: 'mark' }, marks.has(d) ? symbol(d) : '');
          if (place.has(i) && place.get(i) === d) m.classList.add('mplace');
          if (elim.has(i) && elim.get(i).has(d)) m.classList.add('melim');
          grid.append(m);
        }
        el.replaceChildren(grid);
      } else {
        el.replaceChildren();
      }
      const words = [cellNameW(W, i)];
      if (cageSum.has(i)) words.push(`cage of ${cageSum.get(i).sum} in ${cageSum.get(i).cells.length}`);
      if (x.digit) words.push(symbol(x.digit), x.given ? 'given' : 'entered');
      else words.push('empty');
      if (!x.digit && x.marks && x.marks.length) words.push(`marks ${x.marks.map(symbol).join(' ')}`);
      if (x.conflict) words.push('conflict');
      if (x.wrong) words.push('wrong');
      if (place.has(i)) words.push(`hint: place ${symbol(place.get(i))}`);
      if (elim.has(i)) words.push(`hint: remove ${[...elim.get(i)].map(symbol).join(' ')}`);
      el.setAttribute('aria-label', words.join(', '));
      if (interactive) el.setAttribute('aria-selected', String(i === sel));
    }
  }

  return { root, cells, draw, size: n, peers, height: H, width: W };
}
