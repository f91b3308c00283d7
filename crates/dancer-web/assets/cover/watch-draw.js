// The Watch view's drawings (watch.js): the incidence matrix, the partial
// solution, the search tree and the links of the current step, each drawn
// from a state of watch-state.js.
import { h } from '../api.js';
import { itemOf, linkRows } from './watch-state.js';

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
const SVG = 'http://www.w3.org/2000/svg';

function svgEl(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null && v !== false) el.setAttribute(k, v);
  for (const c of children) if (c != null) el.append(c);
  return el;
}

// ---- the matrix ----

/**
 * The incidence matrix of `trace` (items as columns, primary then
 * secondary; options as rows, named by `label(k)`), built once; its
 * update(state) marks hidden rows, covered columns and the current step.
 * Returns { el, update(state) }.
 */
export function makeMatrix(trace, label) {
  const items = [...trace.items.filter((x) => x.primary), ...trace.items.filter((x) => !x.primary)];
  const firstSec = items.findIndex((x) => !x.primary);
  const col = new Map(items.map((x, j) => [x.name, j]));
  const tall = items.some((x) => x.name.length > 2);
  let html = '<thead><tr><th scope="col" class="corner">Option</th>';
  items.forEach((x, j) => {
    const cls = [x.primary ? 'prim' : 'sec', j === firstSec ? 'first-sec' : ''].join(' ').trim();
    html += `<th scope="col" class="${cls}" data-col="${esc(x.name)}" data-covered="false" title="${x.primary ? 'primary' : 'secondary'} item ${esc(x.name)}"><span>${esc(x.name)}</span></th>`;
  });
  html += '</tr></thead><tbody>';
  trace.options.forEach((o, k) => {
    const here = new Map(o.entries.map((e) => [itemOf(e), e.includes(':') ? e.slice(e.indexOf(':') + 1) : '']));
    const text = o.entries.join(' ');
    html += `<tr data-row="${k}" data-hidden="false"${o.active ? '' : ' class="inactive"'}><th scope="row" title="${esc(label(k))} = ${esc(text)}${o.active ? '' : ' (only secondary items: never tried)'}">${esc(label(k))}</th>`;
    items.forEach((x, j) => {
      const sep = j === firstSec ? ' class="first-sec"' : '';
      if (here.has(x.name)) {
        const c = here.get(x.name);
        html += `<td${sep} data-on="true">${c ? `<span class="colour">${esc(c)}</span>` : '1'}</td>`;
      } else {
        html += `<td${sep}></td>`;
      }
    });
    html += '</tr>';
  });
  html += '</tbody>';
  const big = items.length <= 16 && trace.options.length <= 24;
  const table = h('table', { class: 'matrix' + (tall ? ' tall' : '') + (big ? ' big' : '') });
  table.innerHTML = `<caption class="visually-hidden">Incidence matrix: options as rows, items as columns</caption>${html}`;
  const heads = [...table.tHead.rows[0].cells].slice(1);
  const rows = [...table.tBodies[0].rows];
  const cells = items.map((x, j) => rows.map((r) => r.cells[j + 1]));
  const last = { rows: [], cols: [] };

  function update(s) {
    const r = s.rec || {};
    const stackAt = new Map(s.stack.map((x) => [x.option, x.level]));
    const rowNow = ['hide', 'unhide', 'try'].includes(r.action) ? r.option : null;
    const sol = r.action === 'solution' ? new Set(r.options) : null;
    rows.forEach((tr, k) => {
      const hidden = s.hidden[k] > 0;
      const inStack = stackAt.has(k);
      const key = `${hidden}|${inStack}|${rowNow === k}|${sol ? sol.has(k) : ''}|${s.hidden[k]}`;
      if (last.rows[k] === key) return;
      last.rows[k] = key;
      tr.dataset.hidden = String(hidden);
      tr.dataset.stack = String(inStack);
      tr.classList.toggle('in-stack', inStack);
      tr.classList.toggle('now', rowNow === k);
      tr.classList.toggle('solved', !!(sol && sol.has(k)));
      if (hidden) tr.dataset.hides = String(s.hidden[k]);
      else delete tr.dataset.hides;
    });
    const colNow = ['choose', 'cover', 'uncover', 'purify', 'unpurify', 'backtrack'].includes(r.action) ? r.item : null;
    items.forEach((x, j) => {
      const c = s.covered.get(x.name);
      let role = c ? c.how : '';
      if (!role && r.action === 'choose' && r.item === x.name) role = 'chosen';
      const colour = s.purified.get(x.name) || '';
      const key = `${role}|${!!c}|${colNow === x.name}|${colour}`;
      if (last.cols[j] === key) return;
      last.cols[j] = key;
      const th = heads[j];
      th.dataset.covered = String(!!c);
      th.dataset.role = role;
      th.classList.toggle('now', colNow === x.name);
      if (colour) th.dataset.purified = colour;
      else delete th.dataset.purified;
      th.title = `${x.primary ? 'primary' : 'secondary'} item ${x.name}${c ? `: covered at level ${c.level}${c.how === 'chosen' ? ' (chosen)' : ' (through the option tried)'}` : ''}${colour ? `, purified to ${colour}` : ''}`;
      for (const td of cells[j]) {
        td.classList.toggle('cov-chosen', role === 'chosen');
        td.classList.toggle('cov-via', role === 'via');
        td.classList.toggle('cov', !!c);
      }
    });
    return { row: rowNow != null ? rows[rowNow] : null, col: colNow != null && col.has(colNow) ? heads[col.get(colNow)] : null };
  }

  return { el: table, update };
}

/** Scrolls `box` (not the page) so that `el` is in view. */
export function scrollInto(box, el, { x = true, y = true } = {}) {
  if (!el || !box) return;
  const b = box.getBoundingClientRect();
  const e = el.getBoundingClientRect();
  const stickyTop = box.querySelector('thead') ? box.querySelector('thead').getBoundingClientRect().height : 0;
  const stickyLeft = box.querySelector('tbody th') ? box.querySelector('tbody th').getBoundingClientRect().width : 0;
  if (y && el.tagName === 'TR') {
    if (e.top < b.top + stickyTop) box.scrollTop -= b.top + stickyTop - e.top + 4;
    else if (e.bottom > b.bottom) box.scrollTop += e.bottom - b.bottom + 4;
  }
  if (x && el.tagName === 'TH') {
    if (e.left < b.left + stickyLeft) box.scrollLeft -= b.left + stickyLeft - e.left + 4;
    else if (e.right > b.right) box.scrollLeft += e.right - b.right + 4;
  }
}

// ---- the partial solution ----

/** The options tried on the current path, level 0 first. */
export function drawStack(list, s, label, trace) {
  const r = s.rec || {};
  list.replaceChildren(...s.stack.map((x) => h('li', {
    'data-level': x.level, 'data-option': x.option, class: r.action === 'try' && r.level === x.level ? 'now' : null,
  },
  h('span', { class: 'lvl' }, `${x.level}`),
  h('strong', { class: 'lab' }, label(x.option)),
  h('span', { class: 'muted small' }, ` ${x.k} of ${x.n}: ${trace.options[x.option].entries.join(' ')}`))));
  list.classList.toggle('solved', r.action === 'solution');
  if (!s.stack.length) list.append(h('li', { class: 'muted empty' }, 'Nothing tried yet.'));
}

// ---- the search tree ----

const MAX_TREE = 1500;

/**
 * Draws the search tree of state `s` into `box`: a node per try under its
 * parent, the current path highlighted, solutions and dead ends marked.
 */
export function drawTree(box, s, label) {
  const n = s.tree.length;
  if (n > MAX_TREE) {
    box.replaceChildren(h('p', { class: 'muted small' },
      `The tree has ${n} nodes, too many to draw. The current path: root → ${s.path.slice(1).map((id) => label(s.tree[id].option)).join(' → ') || '(the root)'}.`));
    return;
  }
  const labels = s.tree.map((t) => (t.option == null ? '' : label(t.option)));
  const longest = labels.reduce((m, x) => Math.max(m, x.length), 1);
  const dx = Math.max(28, longest * 6.4 + 10);
  const dy = 44;
  const pad = 16;
  const xs = new Array(n);
  let next = 0;
  // leaves left to right in the order of the search; a parent above the
  // middle of its children
  const place = (id) => {
    const t = s.tree[id];
    if (!t.children.length) { xs[id] = next++; return; }
    for (const c of t.children) place(c);
    xs[id] = (xs[t.children[0]] + xs[t.children[t.children.length - 1]]) / 2;
  };
  place(0);
  const depth = s.tree.reduce((m, t) => Math.max(m, t.depth), 0);
  const W = Math.max(1, next) * dx + 2 * pad;
  const H = depth * dy + 2 * pad + 18;
  const X = (id) => pad + dx / 2 + xs[id] * dx;
  const Y = (id) => pad + s.tree[id].depth * dy;
  const onPath = new Set(s.path);
  const cur = s.path[s.path.length - 1];
  const edges = svgEl('g', { class: 'edges' });
  const nodes = svgEl('g', { class: 'nodes' });
  for (const t of s.tree) {
    if (t.parent >= 0) {
      edges.append(svgEl('line', {
        x1: X(t.parent), y1: Y(t.parent), x2: X(t.id), y2: Y(t.id), class: onPath.has(t.id) ? 'path' : null,
      }));
    }
    const cls = ['node', onPath.has(t.id) ? 'path' : '', t.id === cur ? 'current' : '', t.sol ? 'sol' : '', t.dead ? 'dead' : ''].join(' ').trim();
    const g = svgEl('g', {
      class: cls, 'data-tree-node': t.id, 'data-option': t.option == null ? '' : t.option,
      'data-current': String(t.id === cur), 'data-solution': t.sol ? String(t.sol) : null,
      transform: `translate(${X(t.id)},${Y(t.id)})`,
    });
    g.append(svgEl('circle', { r: t.id === cur ? 8 : 6 }));
    if (t.sol) g.append(svgEl('text', { class: 'mark', y: 3.5 }, '✓'));
    if (t.dead) g.append(svgEl('text', { class: 'mark', y: 3.5 }, '×'));
    if (t.id !== 0) g.append(svgEl('text', { class: 'lab', y: 21 }, labels[t.id]));
    const tip = t.id === 0 ? 'the root' : `option ${labels[t.id]} (${t.k} of ${t.n}) at level ${t.depth - 1}`;
    g.append(svgEl('title', {}, tip + (t.sol ? `: solution ${t.sol}` : '') + (t.dead ? ': dead end' : '')));
    nodes.append(g);
  }
  const path = s.path.slice(1).map((id) => labels[id]);
  const svg = svgEl('svg', {
    width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: 'img',
    'aria-label': `Search tree: ${n} node${n === 1 ? '' : 's'}; the current path: ${path.length ? path.join(', ') : 'the root'}`,
  }, edges, nodes);
  box.replaceChildren(svg);
  // the current node in view
  const cx = X(cur), cy = Y(cur);
  if (cx < box.scrollLeft + 20 || cx > box.scrollLeft + box.clientWidth - 20) box.scrollLeft = Math.max(0, cx - box.clientWidth / 2);
  if (cy < box.scrollTop + 10 || cy > box.scrollTop + box.clientHeight - 24) box.scrollTop = Math.max(0, cy - box.clientHeight / 2);
}

// ---- the links ----

const PTRS = ['left', 'right', 'up', 'down'];

/** What node `l` is: "head of 4", "4 in C", "root (primary items)". */
function what(l, trace, label) {
  if (l.kind === 'head') return `head of ${l.item}`;
  if (l.kind === 'root') return l.node === trace.heads + trace.items.length ? 'root (primary items)' : 'root (secondary items)';
  return `${l.item} in ${label(l.option)}`;
}

/**
 * The links view: the nodes the state's step touched, with their four
 * links after it; returns nothing (fills `tbody` and `note`).
 */
export function drawLinks(tbody, note, s, trace, label) {
  const r = s.rec;
  const rows = linkRows(r);
  if (!rows.length) {
    tbody.replaceChildren(h('tr', { class: 'none' }, h('td', { colspan: 7, class: 'muted' },
      r ? `A ${r.action} changes no links.` : 'No step yet.')));
    note.textContent = '';
    return;
  }
  tbody.replaceChildren(...rows.map((l) => h('tr', { 'data-node': l.node, 'data-role': l.role, class: l.role },
    h('th', { scope: 'row' }, String(l.node)),
    h('td', { class: 'what' }, what(l, trace, label)),
    PTRS.map((p) => h('td', {
      'data-ptr': p, 'data-mark': l.marks[p] || null, class: l.marks[p] ? `ptr ${l.marks[p]}` : 'ptr',
    }, String(l[p]))),
    h('td', { class: 'note' }, l.note))));
  const words = {
    hide: 'Each node of the option outside the covered item\'s list is unlinked from its column: its up and down neighbours now skip it, while it keeps its own up and down links, so it can come back.',
    unhide: 'Each node goes back between the neighbours its own up and down links remember: they point at it again.',
    cover: 'The item\'s head leaves the ring of items still to cover: its left and right neighbours skip it, while it keeps its own left and right links.',
    uncover: 'The head goes back between the neighbours its own left and right links remember: they point at it again.',
  };
  note.textContent = words[r.action] || '';
}

// ---- the links as a picture ----

const BW = 88; // a node's box
const BH = 32;

/** A short name for a node in the picture: "head 4", "root", "4 in C". */
function short(l, label) {
  if (!l) return '';
  if (l.kind === 'head') return `head ${l.item}`;
  if (l.kind === 'root') return 'root';
  return `${l.item} in ${label(l.option)}`;
}

/**
 * The step's links drawn as Knuth draws them: for each node taken out
 * (or put back), it and its two neighbours in their list (a row of heads
 * for a cover, a column for a hide); the neighbours' links skip a node
 * taken out (red) while its own links (dashed) still point at them; after
 * an uncover or unhide the neighbours point at it again (green).
 */
export function drawLinkPicture(box, s, trace, label) {
  const r = s.rec;
  const rows = linkRows(r);
  if (!rows.length) { box.replaceChildren(); box.hidden = true; return; }
  box.hidden = false;
  const by = new Map(rows.map((x) => [x.node, x]));
  const across = r.action === 'cover' || r.action === 'uncover'; // a row of heads
  const out = r.action === 'hide' || r.action === 'cover';
  const [back, fwd] = across ? ['left', 'right'] : ['up', 'down'];
  const subjects = rows.filter((x) => x.role !== 'neighbour');
  const shown = subjects.slice(0, 8);
  const SPA = across ? (out ? 112 : 150) : (out ? 64 : 84); // between boxes along the list
  const OFF = across ? 52 : 92; // how far a node taken out moves aside
  const pad = 14;
  const trioW = across ? 2 * SPA + BW : BW + (out ? OFF : 16);
  const trioH = across ? BH + (out ? OFF : 10) : 2 * SPA + BH;
  const gap = 26;
  const W = pad * 2 + shown.length * trioW + (shown.length - 1) * gap;
  const H = pad * 2 + trioH + 8;
  const svg = svgEl('svg', {
    width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: 'linkpic-svg', role: 'img',
    'aria-label': `The links of the step as a picture: ${subjects.length} node${subjects.length === 1 ? '' : 's'} ${out ? 'taken out' : 'put back'}`,
  });
  const defs = svgEl('defs');
  for (const kind of ['plain', 'skips', 'kept', 'back']) {
    defs.append(svgEl('marker', {
      id: `wl-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse',
    }, svgEl('path', { d: 'M0,0 L10,5 L0,10 z', class: `m-${kind}` })));
  }
  svg.append(defs);
  shown.forEach((sj, t) => {
    const x0 = pad + t * (trioW + gap);
    // centres, from the "along" and "across" coordinates
    const at = (a, c) => (across
      ? { x: x0 + BW / 2 + a * SPA, y: pad + BH / 2 + c }
      : { x: x0 + BW / 2 + c, y: pad + BH / 2 + a * SPA });
    const P = by.get(sj[back]);
    const N = by.get(sj[fwd]);
    const cp = at(0, 0);
    const cn = at(2, 0);
    const cs = at(1, out ? OFF : 0);
    const g = svgEl('g', { class: 'trio', 'data-node': sj.node });
    const arrow = (c1, c2, off, kind, letter) => {
      const dx = c2.x - c1.x, dy = c2.y - c1.y;
      const len = Math.hypot(dx, dy) || 1;
      const ux = dx / len, uy = dy / len;
      const exit = Math.min(Math.abs(ux) > 1e-6 ? BW / 2 / Math.abs(ux) : Infinity, Math.abs(uy) > 1e-6 ? BH / 2 / Math.abs(uy) : Infinity);
      const px = -uy * off, py = ux * off;
      const a = { x: c1.x + ux * exit + px, y: c1.y + uy * exit + py };
      const b = { x: c2.x - ux * (exit + 1) + px, y: c2.y - uy * (exit + 1) + py };
      g.append(svgEl('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `a-${kind}`, 'marker-end': `url(#wl-${kind})` }));
      const lx = a.x + (b.x - a.x) * 0.22 + px * 1.3, ly = a.y + (b.y - a.y) * 0.22 + py * 1.3;
      g.append(svgEl('text', { x: lx, y: ly + 3.5, class: `l-${kind}` }, letter));
    };
    const B = back[0].toUpperCase();
    const F = fwd[0].toUpperCase();
    // offsets: a forward link on one side of the axis, a backward one on the other
    const side = across ? -7 : 7;
    if (out) {
      arrow(cp, cn, side, 'skips', F);
      arrow(cn, cp, side, 'skips', B);
      arrow(cs, cp, 0, 'kept', B);
      arrow(cs, cn, 0, 'kept', F);
    } else {
      arrow(cp, cs, side, 'back', F);
      arrow(cs, cp, side, 'plain', B);
      arrow(cs, cn, side, 'plain', F);
      arrow(cn, cs, side, 'back', B);
    }
    const node = (c, l, cls) => {
      g.append(svgEl('rect', { x: c.x - BW / 2, y: c.y - BH / 2, width: BW, height: BH, rx: 5, class: cls }));
      g.append(svgEl('text', { x: c.x, y: c.y - 2, class: 'n' }, l ? String(l.node) : '?'));
      g.append(svgEl('text', { x: c.x, y: c.y + 11, class: 'w' }, short(l, label)));
    };
    node(cp, P, 'nb');
    node(cn, N, 'nb');
    node(cs, sj, out ? 'sj out' : 'sj in');
    svg.append(g);
  });
  const more = subjects.length - shown.length;
  box.replaceChildren(svg, more > 0 ? h('p', { class: 'muted small' }, `… and ${more} more in the table.`) : '');
}
