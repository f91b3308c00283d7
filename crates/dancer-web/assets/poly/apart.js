// The "Take apart" player of the Polyforms tab: a solution's disassembly,
// as the server found it (the solution event's `disassembly`, API.md:
// BurrTools' moves, each a set of pieces and a translation `by` in the
// grid's coordinates), played move by move. The page computes no move: it
// slides the pieces the server names by the `by` the server gives, on
// cubes `[x, y, z]` + `by`, on triangular prisms by the lattice's rule
// (`[x, y, w]` to `[x + dx, y + dy, w + 2 dz]`).
//
// What is drawn: the part being taken apart (at first the whole assembly),
// in a frame that stays put while that part comes apart (it is fitted
// again when the moves go on with another part), as a turnable isometric
// view (SVG, the
// projection of iso.js), each piece in its colour (the event's `colours`,
// shaded by lightness only). A move slides its pieces; a removal slides
// them out of the picture. The moves come in the server's order: a part's
// moves until it falls in two, then the part left behind, then the part
// taken away; so the part a move belongs to is the innermost part not yet
// taken apart that holds its pieces, and when the moves go on with a part
// taken away earlier, that part comes back into the picture where it was.
// At the end, the parts the puzzle came apart into (single pieces, or
// groups that stay together) are drawn side by side.

import { h, num } from '../api.js';
import { FACES, hexToHsl, placementColor } from './iso.js';

const NS = 'http://www.w3.org/2000/svg';
const ROOT3 = Math.sqrt(3) / 2;
const LIGHT = [0.35, 0.55, 0.75];

/** A translation in the grid's coordinates as a vector in space: on
 * prisms `dx e1 + dy e2 + dz`, e1 a step right, e2 down and to the left. */
export function worldShift(grid, by) {
  const [dx, dy, dz] = [by[0] || 0, by[1] || 0, by[2] || 0];
  return grid === 'prism' ? [dx - dy / 2, dy * ROOT3, dz] : [dx, dy, dz];
}


/**
 * The faces of a cell in space: [{ pts, n }], `pts` its corners in order,
 * `n` its outward normal. Cubes: `[x, y, z]` the unit cube at that corner.
 * Prisms: `[x, y, 2z + k]` the prism of height 1 in layer z over the
 * triangle [x, y, k] of the lattice P(x, y) = x e1 + y e2 (k = 0: apex at
 * P(x, y); 1: top side from P(x, y) to P(x + 1, y)).
 */
function cellFaces(grid, c) {
  if (grid !== 'prism') {
    const [x, y, z] = [c[0], c[1], c[2] || 0];
    return FACES.map((f) => ({ n: f.n, pts: f.c.map((d) => [x + d[0], y + d[1], z + d[2]]) }));
  }
  const [x, y, w] = c;
  const z = Math.floor(w / 2);
  const k = w - 2 * z;
  const P = (a, b) => [a - b / 2, b * ROOT3];
  const tri = k === 0 ? [P(x, y), P(x, y + 1), P(x + 1, y + 1)] : [P(x, y), P(x + 1, y), P(x + 1, y + 1)];
  const mid = [(tri[0][0] + tri[1][0] + tri[2][0]) / 3, (tri[0][1] + tri[1][1] + tri[2][1]) / 3];
  const faces = [
    { n: [0, 0, -1], pts: tri.map(([a, b]) => [a, b, z]) },
    { n: [0, 0, 1], pts: tri.map(([a, b]) => [a, b, z + 1]) },
  ];
  for (let i = 0; i < 3; i++) {
    const [p, q] = [tri[i], tri[(i + 1) % 3]];
    let n = [q[1] - p[1], p[0] - q[0]];
    const len = Math.hypot(n[0], n[1]);
    n = [n[0] / len, n[1] / len];
    if (n[0] * (p[0] - mid[0]) + n[1] * (p[1] - mid[1]) < 0) n = [-n[0], -n[1]];
    faces.push({ n: [n[0], n[1], 0], pts: [[p[0], p[1], z], [q[0], q[1], z], [q[0], q[1], z + 1], [p[0], p[1], z + 1]] });
  }
  return faces;
}

/** A face's key: its corners, rounded, in a fixed order (two cells that
 * touch have a face of one key). */
function faceKey(pts, off) {
  return pts.map((p) => `${(p[0] + off[0]).toFixed(3)},${(p[1] + off[1]).toFixed(3)},${(p[2] + off[2]).toFixed(3)}`).sort().join(' ');
}

/**
 * A piece in space: its outer faces (those not between two of its own
 * cells), each with its cell's centre, and its bounding box.
 */
function pieceSolid(grid, cells) {
  const all = [];
  for (const c of cells) {
    const faces = cellFaces(grid, c);
    const centre = [0, 1, 2].map((a) => faces.reduce((s, f) => s + f.pts.reduce((t, p) => t + p[a], 0) / f.pts.length, 0) / faces.length);
    for (const f of faces) all.push({ ...f, centre, key: faceKey(f.pts, [0, 0, 0]) });
  }
  const count = new Map();
  for (const f of all) count.set(f.key, (count.get(f.key) || 0) + 1);
  const faces = all.filter((f) => count.get(f.key) === 1);
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const f of faces) {
    for (const p of f.pts) for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], p[a]); hi[a] = Math.max(hi[a], p[a]); }
  }
  return { faces, lo, hi };
}

/** The projection of iso.js: yaw turns about the vertical, pitch tilts. */
function projector(view) {
  const t = (view.yaw * Math.PI) / 180;
  const p = (view.pitch * Math.PI) / 180;
  const ct = Math.cos(t), st = Math.sin(t), cp = Math.cos(p), sp = Math.sin(p);
  // (x, y, z) -> [screen x, screen y (down), depth toward the viewer]
  return (x, y, z) => {
    const a = x * ct - y * st;
    const b = x * st + y * ct;
    return [a, -(-b * sp + z * cp), b * cp + z * sp];
  };
}

/** The corners of a box. */
function corners(lo, hi) {
  const out = [];
  for (const x of [lo[0], hi[0]]) for (const y of [lo[1], hi[1]]) for (const z of [lo[2], hi[2]]) out.push([x, y, z]);
  return out;
}

/** A screen rectangle around points projected: [minX, minY, maxX, maxY]. */
function screenBox(project, pts) {
  const r = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of pts) {
    const q = project(p[0], p[1], p[2]);
    r[0] = Math.min(r[0], q[0]); r[1] = Math.min(r[1], q[1]);
    r[2] = Math.max(r[2], q[0]); r[3] = Math.max(r[3], q[1]);
  }
  return r;
}

function shade([hue, sat, light], k) {
  return `hsl(${hue.toFixed(2)} ${sat.toFixed(2)}% ${Math.max(8, Math.min(95, light * k)).toFixed(2)}%)`;
}

/**
 * Draws pieces in space into a new <svg>: `items` [{ piece, offset (a
 * vector in space), opacity }], `solids` the pieces' [pieceSolid], `hsl`
 * their colours, `frame` { lo, hi } the box the picture shows (the same
 * from frame to frame, so that the pieces move and the picture does not).
 */
function drawSvg(items, solids, hsl, view, frame, size) {
  const project = projector(view);
  const centre = [0, 1, 2].map((a) => (frame.lo[a] + frame.hi[a]) / 2);
  const faces = [];
  const seen = new Map();
  for (const it of items) {
    const off = it.offset;
    const home = off[0] === 0 && off[1] === 0 && off[2] === 0;
    for (const f of solids[it.piece].faces) {
      const key = home ? f.key : faceKey(f.pts, off);
      seen.set(key, (seen.get(key) || 0) + 1);
      faces.push({ f, it, key });
    }
  }
  const polys = [];
  for (const { f, it, key } of faces) {
    // a face against another piece's is hidden by it
    if (seen.get(key) > 1) continue;
    const n = project(f.n[0], f.n[1], f.n[2]);
    if (n[2] <= 1e-9) continue;
    const o = [it.offset[0] - centre[0], it.offset[1] - centre[1], it.offset[2] - centre[2]];
    const depth = project(f.centre[0] + o[0], f.centre[1] + o[1], f.centre[2] + o[2])[2];
    const pts = f.pts.map((p) => {
      const q = project(p[0] + o[0], p[1] + o[1], p[2] + o[2]);
      return `${(q[0] * size).toFixed(2)},${(q[1] * size).toFixed(2)}`;
    }).join(' ');
    const lum = 0.72 + 0.38 * Math.max(0, f.n[0] * LIGHT[0] + f.n[1] * LIGHT[1] + f.n[2] * LIGHT[2]);
    polys.push({ pts, depth, fill: shade(hsl[it.piece], lum), piece: it.piece, opacity: it.opacity });
  }
  polys.sort((a, b) => a.depth - b.depth);
  const box = screenBox(project, corners(
    frame.lo.map((v, a) => v - centre[a]), frame.hi.map((v, a) => v - centre[a])));
  const pad = 6;
  const [x0, y0] = [box[0] * size - pad, box[1] * size - pad];
  const [w, hgt] = [(box[2] - box[0]) * size + 2 * pad, (box[3] - box[1]) * size + 2 * pad];
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('xmlns', NS);
  svg.setAttribute('viewBox', `${x0.toFixed(1)} ${y0.toFixed(1)} ${w.toFixed(1)} ${hgt.toFixed(1)}`);
  svg.setAttribute('width', Math.ceil(w));
  svg.setAttribute('height', Math.ceil(hgt));
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  for (const q of polys) {
    const el = document.createElementNS(NS, 'polygon');
    el.setAttribute('points', q.pts);
    el.setAttribute('fill', q.fill);
    el.setAttribute('stroke', '#222');
    el.setAttribute('stroke-width', '0.8');
    el.setAttribute('stroke-linejoin', 'round');
    if (q.opacity < 1) el.setAttribute('opacity', q.opacity.toFixed(3));
    el.dataset.piece = String(q.piece);
    svg.append(el);
  }
  return svg;
}

/** Pictures (<svg> with width and height) in rows at most `most` wide,
 * as one <svg>. */
function sideBySide(pics, most) {
  const gap = 14;
  const outer = document.createElementNS(NS, 'svg');
  outer.setAttribute('xmlns', NS);
  let [x, y, row, wide] = [0, 0, 0, 0];
  for (const s of pics) {
    const [w, hgt] = [Number(s.getAttribute('width')), Number(s.getAttribute('height'))];
    if (x > 0 && x + w > most) { x = 0; y += row + gap; row = 0; }
    s.setAttribute('x', String(x));
    s.setAttribute('y', String(y));
    outer.append(s);
    x += w + gap;
    row = Math.max(row, hgt);
    wide = Math.max(wide, x - gap);
  }
  outer.setAttribute('viewBox', `0 0 ${wide} ${y + row}`);
  outer.setAttribute('width', String(wide));
  outer.setAttribute('height', String(y + row));
  outer.setAttribute('aria-hidden', 'true');
  outer.setAttribute('focusable', 'false');
  return outer;
}

/** The pieces of a solution by name, copies numbered (`Frame2#1`), as the
 * command line names them. */
function pieceNames(placements) {
  const total = new Map();
  for (const p of placements) total.set(p.piece, (total.get(p.piece) || 0) + 1);
  const seen = new Map();
  return placements.map((p) => {
    const k = (seen.get(p.piece) || 0) + 1;
    seen.set(p.piece, k);
    return total.get(p.piece) > 1 ? `${p.piece}#${k}` : p.piece;
  });
}

/** A move's direction in words: `+x`, `-z` along an axis, else the vector. */
function direction(by) {
  const axes = [0, 1, 2].filter((a) => by[a]);
  if (axes.length === 1) return `${by[axes[0]] > 0 ? '+' : '-'}${'xyz'[axes[0]]}`;
  return `(${by.join(', ')})`;
}

function length(by) {
  const gcd = (a, b) => (b ? gcd(b, a % b) : a);
  return by.reduce((g, v) => gcd(g, Math.abs(v)), 0);
}

/**
 * The play of a disassembly: for each state k (after k moves) the pieces
 * drawn and their offsets (sums of the moves that are not removals, in
 * the grid's coordinates); for each move the part it moves in, and its
 * scene: a number that changes where the moves go on with a part taken
 * away earlier (one frame a scene); the parts it ends in. Throws on moves
 * that do not fit (a bug, not an input).
 */
export function plan(steps, count) {
  const all = [...Array(count).keys()];
  const stack = [all];
  const shown = [];
  const parts = [];
  const offsets = [all.map(() => [0, 0, 0])];
  const ended = [];
  const scenes = [];
  steps.forEach((s, k) => {
    shown.push(stack[stack.length - 1] || []);
    const moving = new Set(s.pieces);
    while (stack.length && !s.pieces.every((p) => stack[stack.length - 1].includes(p))) ended.push(stack.pop());
    if (!stack.length) throw new Error(`move ${k + 1} moves pieces of no part`);
    const part = stack.pop();
    parts.push(part);
    scenes.push(k === 0 ? 0 : scenes[k - 1] + (part === shown[k] ? 0 : 1));
    const next = offsets[k].map((o, p) => (!s.removes && moving.has(p) ? o.map((v, a) => v + (s.by[a] || 0)) : o));
    offsets.push(next);
    if (s.removes) {
      const left = part.filter((p) => !moving.has(p));
      stack.push(part.filter((p) => moving.has(p)), left);
    } else {
      stack.push(part);
    }
  });
  shown.push(stack[stack.length - 1] || []);
  const final = ended.concat(stack).filter((p) => p.length).sort((a, b) => Math.min(...a) - Math.min(...b));
  return { shown, parts, offsets, final, scenes };
}

const SPEEDS = { slow: 1.8, normal: 1, fast: 0.45 };

/**
 * The player's element and its controls. `go(index)`: shows another kept
 * solution (the gallery's pager). Call show(solution, grid, comesApart)
 * for each solution shown (comesApart: [{ index, number }] of the kept
 * solutions that come apart).
 */
export function makePlayer({ go }) {
  const p = {
    sol: null, grid: 'cube', steps: [], names: [], k: 0, plan: null, solids: [], hsl: [], frames: [],
    anim: null, playing: false, wait: null, view: { yaw: 35, pitch: 30 }, speed: 'normal',
  };
  const btn = (label, text, f, extra = {}) => h('button', { type: 'button', 'aria-label': label, title: label, onclick: f, ...extra }, text);
  const ui = {};
  ui.restart = btn('Restart', '|◀', () => act(() => jump(0)));
  ui.back = btn('Step back', '◀', () => act(() => step(-1)));
  ui.play = btn('Play', '▶ Play', () => (p.playing ? pause() : play()), { class: 'primary' });
  ui.fwd = btn('Step forward', '▶', () => act(() => step(1)));
  ui.end = btn('To the end', '▶|', () => act(() => jump(p.steps.length)));
  ui.counter = h('span', { class: 'counter', 'aria-live': 'polite', id: 'poly-apart-step' });
  ui.level = h('span', { class: 'muted level', id: 'poly-apart-level' });
  ui.move = h('p', { class: 'move', id: 'poly-apart-move' });
  ui.speed = h('select', { id: 'poly-apart-speed' },
    Object.keys(SPEEDS).map((s) => h('option', { value: s, selected: s === 'normal' }, s[0].toUpperCase() + s.slice(1))));
  ui.speed.addEventListener('change', () => { p.speed = ui.speed.value; });
  ui.pic = h('div', {
    class: 'apart-pic', tabindex: 0, role: 'img', id: 'poly-apart-pic',
    'aria-label': 'The pieces taken apart',
  });
  ui.pic.addEventListener('keydown', (e) => {
    const k = {
      ArrowRight: () => act(() => step(1)), ArrowLeft: () => act(() => step(-1)),
      Home: () => act(() => jump(0)), End: () => act(() => jump(p.steps.length)),
      ' ': () => (p.playing ? pause() : play()),
      ArrowUp: () => turn(0, 10), ArrowDown: () => turn(0, -10),
    }[e.key];
    if (!k) return;
    e.preventDefault();
    k();
  });
  drag(ui.pic);
  ui.parts = h('ul', { class: 'apart-parts', 'aria-label': 'The parts', hidden: true });
  ui.none = h('div', { class: 'apart-none', hidden: true });
  ui.stage = h('div', { class: 'apart-stage' },
    h('div', { class: 'row apart-head' }, ui.counter, ui.level),
    h('div', { class: 'row apart-controls', role: 'group', 'aria-label': 'Moves' },
      ui.restart, ui.back, ui.play, ui.fwd, ui.end,
      h('label', { for: 'poly-apart-speed' }, 'Speed', ui.speed)),
    ui.move,
    ui.pic,
    ui.parts,
    h('div', { class: 'row apart-turn' },
      btn('Turn the pieces left', '↺', () => turn(-15, 0)),
      btn('Turn the pieces right', '↻', () => turn(15, 0)),
      h('span', { class: 'muted small' }, 'Keys on the picture: ← → a move, Space play or pause, Home, End; ↑ ↓ tilt. Drag to turn.')));
  const el = h('section', { class: 'apart', 'aria-label': 'Take apart', hidden: true, id: 'poly-apart' },
    h('h3', {}, 'Take apart'), ui.none, ui.stage);

  const reduced = () => window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  function show(sol, grid, comesApart = []) {
    stop();
    p.plan = null;
    const d = sol && sol.disassembly;
    if (!d) { el.hidden = true; p.sol = null; return; }
    el.hidden = false;
    p.sol = sol;
    p.grid = grid;
    const placements = sol.placements || [];
    p.names = pieceNames(placements);
    if (!d.apart || !(d.steps || []).length) {
      ui.stage.hidden = true;
      ui.none.hidden = false;
      others(comesApart);
      return;
    }
    ui.none.hidden = true;
    ui.stage.hidden = false;
    p.steps = d.steps;
    try {
      p.plan = plan(d.steps, placements.length);
    } catch (e) {
      ui.stage.hidden = true;
      ui.none.hidden = false;
      ui.none.replaceChildren(h('p', { class: 'error' }, `Cannot play these moves: ${e.message}.`));
      return;
    }
    const given = sol.colours || [];
    p.hsl = placements.map((_, i) => hexToHsl(given[i]) || placementColor(i));
    p.solids = placements.map((pl) => pieceSolid(grid, pl.cells));
    const last = p.plan.scenes.length ? p.plan.scenes[p.plan.scenes.length - 1] : 0;
    p.frames = [...Array(last + 1).keys()].map(frameOf);
    ui.level.textContent = `Level ${d.level}, ${num(d.moves)} move${d.moves === 1 ? '' : 's'}`;
    p.k = 0;
    still();
  }

  /** For a solution that does not come apart: says so, with buttons to
   * those that do (`comesApart`, as for show; called again as more come). */
  function others(comesApart) {
    const sol = p.sol;
    if (!sol || p.plan || !sol.disassembly) return;
    const list = comesApart.filter((x) => x.number !== sol.number);
    const key = `${sol.number}:${list.map((x) => x.number).join(' ')}`;
    if (ui.none.dataset.others === key && ui.none.childElementCount) return;
    ui.none.dataset.others = key;
    ui.none.replaceChildren(
      h('p', {}, `Solution ${num(sol.number)} does not come apart (BurrTools' rules: pieces slide, none turns).`),
      list.length
        ? h('p', { class: 'row' }, `Solutions that come apart${list.length > 12 ? ' (the first 12)' : ''}:`, list.slice(0, 12).map((x) =>
          h('button', { type: 'button', class: 'small', onclick: () => go(x.index) }, `Solution ${num(x.number)}`)))
        : h('p', { class: 'muted' }, 'None of the solutions so far comes apart.'));
  }

  /** The box scene `scene`'s parts fit in, their pieces where they are. */
  function frameOf(scene) {
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    const add = (piece, off) => {
      const s = p.solids[piece];
      const w = worldShift(p.grid, off);
      for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], s.lo[a] + w[a]); hi[a] = Math.max(hi[a], s.hi[a] + w[a]); }
    };
    const { shown, parts, offsets, scenes } = p.plan;
    if (scene === 0) shown[0].forEach((q) => add(q, offsets[0][q]));
    parts.forEach((part, k) => {
      if (scenes[k] === scene) part.forEach((q) => { add(q, offsets[k][q]); add(q, offsets[k + 1][q]); });
    });
    return { lo, hi };
  }

  /** The frame of state `k` (after k moves): the last move's scene's. */
  function frameOfState(k) {
    return p.frames[k === 0 ? 0 : p.plan.scenes[k - 1]];
  }

  function render(items, frame) {
    ui.parts.hidden = true;
    const svg = drawSvg(items, p.solids, p.hsl, p.view, frame, 22);
    // where each piece drawn is, in moves' units (for tests and tools)
    svg.dataset.at = items.map((it) => `${it.piece}:${(it.at || []).join(',')}`).join(' ');
    ui.pic.replaceChildren(svg);
  }

  /** The state after `p.k` moves, still. */
  function still() {
    const n = p.steps.length;
    const { shown, offsets, final } = p.plan;
    el.dataset.step = String(p.k);
    el.dataset.state = 'still';
    ui.counter.textContent = `Step ${num(p.k)} of ${num(n)}`;
    ui.back.disabled = ui.restart.disabled = p.k === 0;
    ui.fwd.disabled = ui.end.disabled = p.k === n;
    if (p.k === n) {
      ui.move.textContent = final.length === p.names.length
        ? `All apart: the ${num(final.length)} pieces.`
        : `All apart: ${num(final.length)} parts (the pieces of a group stay together).`;
      // each part drawn by itself, side by side
      const pics = final.map((part) => {
        const items = part.map((q) => ({ piece: q, offset: worldShift(p.grid, offsets[n][q]), opacity: 1 }));
        const lo = [Infinity, Infinity, Infinity];
        const hi = [-Infinity, -Infinity, -Infinity];
        for (const it of items) {
          const s = p.solids[it.piece];
          for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], s.lo[a] + it.offset[a]); hi[a] = Math.max(hi[a], s.hi[a] + it.offset[a]); }
        }
        const svg = drawSvg(items, p.solids, p.hsl, p.view, { lo, hi }, 16);
        svg.dataset.pieces = part.join(' ');
        return svg;
      });
      ui.pic.replaceChildren(sideBySide(pics, 460));
      const said = final.map((part) => part.map((q) => p.names[q]).join(' with '));
      ui.pic.setAttribute('aria-label', `All apart: ${said.join('; ')}`);
      ui.parts.hidden = false;
      ui.parts.replaceChildren(...final.map((part, i) => h('li', { 'data-pieces': part.join(' ') },
        part.map((q) => h('span', { class: 'swatch', style: `background:${(p.sol.colours || [])[q] || ''}`, 'aria-hidden': 'true' })),
        said[i])));
      return;
    }
    ui.parts.hidden = true;
    const part = shown[p.k];
    render(part.map((q) => ({ piece: q, offset: worldShift(p.grid, offsets[p.k][q]), at: offsets[p.k][q], opacity: 1 })), frameOfState(p.k));
    ui.move.textContent = p.k === 0 ? `The assembly: ${num(p.names.length)} pieces. Next: ${words(0)}.` : `Done: ${words(p.k - 1)}. Next: ${words(p.k)}.`;
    ui.pic.setAttribute('aria-label', `Step ${p.k} of ${n}: ${part.length} piece${part.length === 1 ? '' : 's'} in the picture (${part.map((q) => p.names[q]).join(', ')})`);
  }

  /** Move `k` in words: `S4 +x 1`, `S4 out +y`. */
  function words(k) {
    const s = p.steps[k];
    if (!s) return 'nothing';
    const who = s.pieces.map((q) => p.names[q]).join(', ');
    return s.removes ? `${who} out ${direction(s.by)}` : `${who} ${direction(s.by)} ${length(s.by)}`;
  }

  /** The picture of move `k` under way, `t` from 0 to 1. */
  function frameAt(k, t, out) {
    const { parts, offsets } = p.plan;
    const s = p.steps[k];
    const moving = new Set(s.pieces);
    const by = worldShift(p.grid, s.by);
    const scale = s.removes ? out : 1;
    const fade = s.removes ? Math.max(0, Math.min(1, (1 - t) / 0.35)) : 1;
    render(parts[k].map((q) => {
      const base = worldShift(p.grid, offsets[k][q]);
      if (!moving.has(q)) return { piece: q, offset: base, opacity: 1 };
      return { piece: q, offset: base.map((v, a) => v + t * scale * by[a]), opacity: fade };
    }), p.frames[p.plan.scenes[k]]);
  }

  /** How far a removal's pieces slide to leave the picture: a multiple of
   * its `by`, at least 1, from the picture's box on the screen. */
  function outScale(k) {
    const s = p.steps[k];
    const project = projector(p.view);
    const frame = p.frames[p.plan.scenes[k]];
    const centre = [0, 1, 2].map((a) => (frame.lo[a] + frame.hi[a]) / 2);
    const rel = (v) => v.map((x, a) => x - centre[a]);
    let F = screenBox(project, corners(rel(frame.lo), rel(frame.hi)));
    // the picture is clipped by its box, which may be wider than the frame
    const svg = ui.pic.querySelector('svg');
    if (svg) {
      const [a, b] = [ui.pic.getBoundingClientRect(), svg.getBoundingClientRect()];
      if (b.width > 0 && b.height > 0) {
        const [ex, ey] = [Math.max(1, a.width / b.width), Math.max(1, a.height / b.height)];
        const [cx, cy, hw, hh] = [(F[0] + F[2]) / 2, (F[1] + F[3]) / 2, ((F[2] - F[0]) / 2) * ex, ((F[3] - F[1]) / 2) * ey];
        F = [cx - hw, cy - hh, cx + hw, cy + hh];
      }
    }
    const pts = [];
    for (const q of s.pieces) {
      const w = worldShift(p.grid, p.plan.offsets[k][q]);
      const sol = p.solids[q];
      pts.push(...corners(rel(sol.lo.map((v, a) => v + w[a])), rel(sol.hi.map((v, a) => v + w[a]))));
    }
    const B = screenBox(project, pts);
    const d = project(...worldShift(p.grid, s.by));
    let t = Infinity;
    if (d[0] > 1e-6) t = Math.min(t, (F[2] - B[0]) / d[0]);
    if (d[0] < -1e-6) t = Math.min(t, (F[0] - B[2]) / d[0]);
    if (d[1] > 1e-6) t = Math.min(t, (F[3] - B[1]) / d[1]);
    if (d[1] < -1e-6) t = Math.min(t, (F[1] - B[3]) / d[1]);
    return isFinite(t) ? Math.max(1, t + 0.5) : 1;
  }

  /** Plays move `k` forward (dir 1, from state k) or back (dir -1, from
   * state k + 1); `done` when it is over. */
  function animate(k, dir, done) {
    const s = p.steps[k];
    const out = s.removes ? outScale(k) : 1;
    const ms = (s.removes ? 900 : Math.min(900, 320 + 160 * length(s.by))) * SPEEDS[p.speed];
    el.dataset.state = 'moving';
    ui.counter.textContent = `Step ${num(dir > 0 ? k + 1 : k)} of ${num(p.steps.length)}`;
    ui.move.textContent = dir > 0 ? `Move ${k + 1}: ${words(k)}` : `Back: ${words(k)}`;
    if (reduced()) { done(); return; }
    const start = performance.now();
    const tick = (now) => {
      const x = Math.min(1, (now - start) / ms);
      const e = x < 0.5 ? 2 * x * x : 1 - 2 * (1 - x) * (1 - x);
      frameAt(k, dir > 0 ? e : 1 - e, out);
      if (x < 1) p.anim = { id: requestAnimationFrame(tick), done };
      else { p.anim = null; done(); }
    };
    p.anim = { id: requestAnimationFrame(tick), done };
  }

  /** Ends a move under way at once (its end state shown). */
  function settle() {
    if (!p.anim) return;
    const { id, done } = p.anim;
    cancelAnimationFrame(id);
    p.anim = null;
    done();
  }

  function act(f) {
    pause();
    settle();
    f();
  }

  function step(dir, then) {
    const n = p.steps.length;
    if (dir > 0 && p.k < n) {
      const k = p.k;
      animate(k, 1, () => { p.k = k + 1; still(); if (then) then(); });
    } else if (dir < 0 && p.k > 0) {
      const k = p.k - 1;
      animate(k, -1, () => { p.k = k; still(); if (then) then(); });
    } else if (then) {
      then();
    }
  }

  function jump(k) {
    p.k = Math.max(0, Math.min(p.steps.length, k));
    still();
  }

  function play() {
    if (!p.sol || !p.plan) return;
    settle();
    if (p.k >= p.steps.length) jump(0);
    p.playing = true;
    ui.play.textContent = '⏸ Pause';
    ui.play.setAttribute('aria-label', 'Pause');
    ui.play.title = 'Pause';
    const next = () => {
      if (!p.playing) return;
      if (p.k >= p.steps.length) { pause(); return; }
      step(1, () => { if (p.playing) p.wait = setTimeout(next, 180 * SPEEDS[p.speed]); });
    };
    next();
  }

  function pause() {
    clearTimeout(p.wait);
    p.playing = false;
    ui.play.textContent = '▶ Play';
    ui.play.setAttribute('aria-label', 'Play');
    ui.play.title = 'Play';
  }

  function stop() {
    pause();
    if (p.anim) { cancelAnimationFrame(p.anim.id); p.anim = null; }
  }

  function turn(dy, dp) {
    p.view.yaw = (p.view.yaw + dy + 360) % 360;
    p.view.pitch = Math.max(-80, Math.min(80, p.view.pitch + dp));
    if (!p.plan || p.anim) return;
    still();
  }

  function drag(node) {
    let from = null;
    node.addEventListener('pointerdown', (e) => { from = [e.clientX, e.clientY, p.view.yaw, p.view.pitch]; node.setPointerCapture(e.pointerId); });
    node.addEventListener('pointermove', (e) => {
      if (!from) return;
      p.view.yaw = (from[2] + (e.clientX - from[0]) * 0.6 + 720) % 360;
      p.view.pitch = Math.max(-80, Math.min(80, from[3] + (e.clientY - from[1]) * 0.4));
      if (p.plan && !p.anim) still();
    });
    const end = () => { from = null; };
    node.addEventListener('pointerup', end);
    node.addEventListener('pointercancel', end);
  }

  return { el, show, others, stop };
}
