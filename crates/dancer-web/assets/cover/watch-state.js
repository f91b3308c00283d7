// The Watch view's state after step i of a trace (watch.js), read off the
// server's step records alone: the page never runs Algorithm X itself.
// state(trace, i) replays records 1..i from the empty state; step forward
// applies one more record to the same state, so stepping back (a replay)
// draws exactly what was drawn before.

/** The state before the first step. */
export function initial(trace) {
  return {
    i: 0,
    rec: null,
    hidden: new Array(trace.options.length).fill(0), // hides minus unhides, per option
    covered: new Map(), // item -> { level, how: 'chosen' | 'via', option }
    purified: new Map(), // item -> colour
    stack: [], // per level: { level, option, item, k, n }
    chosen: [], // per level: the item chosen there
    tree: [{ id: 0, parent: -1, depth: 0, option: null, children: [], item: null, sol: 0, dead: false }],
    path: [0], // tree nodes from the root to the current one
    tries: 0,
    solutions: 0,
    treeVer: 0, // bumped by every change of the tree's nodes
  };
}

/** Applies step record `rec` to state `s` (in place). */
export function apply(s, rec) {
  const L = rec.level;
  s.rec = rec;
  s.i = rec.step;
  switch (rec.action) {
    case 'choose': {
      s.chosen = s.chosen.slice(0, L);
      s.chosen[L] = rec.item;
      const node = s.tree[s.path[L]];
      if (node) {
        node.item = rec.item;
        if (rec.len === 0) { node.dead = true; s.treeVer++; }
      }
      break;
    }
    case 'cover':
      // the item chosen at this level is covered before its first try;
      // the others through the option tried
      s.covered.set(rec.item, s.stack.length > L
        ? { level: L, how: 'via', option: s.stack[L].option }
        : { level: L, how: 'chosen', option: null });
      break;
    case 'uncover':
      s.covered.delete(rec.item);
      break;
    case 'hide':
      s.hidden[rec.option]++;
      break;
    case 'unhide':
      s.hidden[rec.option]--;
      break;
    case 'purify':
      s.purified.set(rec.item, rec.color);
      break;
    case 'unpurify':
      s.purified.delete(rec.item);
      break;
    case 'try': {
      s.stack = s.stack.slice(0, L);
      s.stack.push({ level: L, option: rec.option, item: rec.item, k: rec.k, n: rec.n });
      s.tries++;
      s.path = s.path.slice(0, L + 1);
      const parent = s.tree[s.path[L]] || s.tree[0];
      const node = { id: s.tree.length, parent: parent.id, depth: parent.depth + 1, option: rec.option, k: rec.k, n: rec.n, children: [], item: null, sol: 0, dead: false };
      s.tree.push(node);
      parent.children.push(node.id);
      s.path.push(node.id);
      s.treeVer++;
      break;
    }
    case 'solution': {
      s.solutions++;
      const node = s.tree[s.path[s.path.length - 1]];
      if (node) node.sol = rec.number || s.solutions;
      s.treeVer++;
      break;
    }
    case 'backtrack':
      s.stack = s.stack.slice(0, L);
      s.path = s.path.slice(0, L + 1);
      break;
    default:
      break;
  }
  return s;
}

/** The state after step `i` (0: before the first). */
export function stateAt(trace, i) {
  const s = initial(trace);
  const n = Math.min(i, trace.steps.length);
  for (let k = 0; k < n; k++) apply(s, trace.steps[k]);
  return s;
}

/** The key of what the tree drawing shows (nodes, marks and the path). */
export function treeKey(s) {
  return `${s.treeVer}:${s.path.join('.')}`;
}

// ---- words ----

/** "5", "5 and 7", "2, 3 and 6". */
export function andList(xs) {
  if (xs.length <= 1) return xs.join('');
  return `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

/** An entry's item, without its colour ("x:red" -> "x"). */
export function itemOf(entry) {
  const at = entry.indexOf(':');
  return at < 0 ? entry : entry.slice(0, at);
}

/**
 * The caption of the state's step: [headline, detail]. `label(k)` names
 * option k as the drawing does.
 */
export function caption(trace, s, label) {
  const r = s.rec;
  if (!r) {
    const prim = trace.items.filter((x) => x.primary).length;
    return [`Ready: ${trace.items.length} items (${prim} primary), ${trace.options.length} options, ${trace.steps.length} steps to watch.`,
      'Press Step forward (→) or Play (Space).'];
  }
  const lv = `Level ${r.level}`;
  const others = (rec) => (rec.entries || []).map(itemOf).filter((x) => x !== rec.item);
  switch (r.action) {
    case 'choose': {
      const lens = (r.items || []).map((x) => `${x.item}:${x.len}`).join('  ');
      if (r.len === 0) {
        return [`${lv}: choose item ${r.item}, the leftmost with the fewest options (0): nothing can cover it`,
          `Options left per item: ${lens}`];
      }
      return [`${lv}: choose item ${r.item}, the leftmost with the fewest options (${r.len})`, `Options left per item: ${lens}`];
    }
    case 'cover': {
      const c = s.covered.get(r.item);
      const why = c && c.how === 'via' ? ` (an item of option ${label(c.option)})` : '';
      return [`Cover item ${r.item}${why}: its head leaves the list of items`, 'Then each option in its list is hidden from the other items.'];
    }
    case 'uncover':
      return [`Uncover item ${r.item}: its head goes back into the list of items`, 'Its neighbours point at it again; its own links were kept.'];
    case 'hide': {
      const o = others(r);
      return [o.length ? `Hide ${label(r.option)}: unlinked from ${andList(o)}` : `Hide ${label(r.option)}: it has no other items to unlink from`,
        `Option ${label(r.option)} (${r.entries.join(' ')}) is in the list of ${r.item}.`];
    }
    case 'unhide': {
      const o = others(r);
      return [o.length ? `Unhide ${label(r.option)}: linked back into ${andList(o)}` : `Unhide ${label(r.option)}: it has no other items`,
        `Option ${label(r.option)} (${r.entries.join(' ')}).`];
    }
    case 'purify':
      return [`Purify ${r.item}: keep its colour ${r.color}`, `The options that give ${r.item} another colour are hidden.`];
    case 'unpurify':
      return [`Unpurify ${r.item}: colour ${r.color} no longer fixed`, 'The options hidden by the purify are back.'];
    case 'try':
      return [`${lv}: try option ${label(r.option)} (${r.k} of ${r.n})`,
        `${label(r.option)} = ${r.entries.join(' ')}; its other items are covered next.`];
    case 'solution':
      return [`Solution ${r.number}: ${(r.options || []).map(label).join(', ')}`,
        'Every primary item is covered exactly once.'];
    case 'backtrack':
      return [`${lv}: item ${r.item} has no more options: back up`,
        r.level > 0 ? `Undo, then try the next option at level ${r.level - 1}.` : 'Undo the first choice: the search is over.'];
    default:
      return [`${lv}: ${r.action}`, ''];
  }
}

// ---- the links of a step ----

/**
 * The rows of the links view for record `r` (a cover, uncover, hide or
 * unhide), one per node (each node once): { node, kind, item, option,
 * left, right, up, down, role: 'out' | 'in' | 'neighbour', note, marks:
 * { left|right|up|down: 'kept' | 'skips' | 'back' } }.
 */
export function linkRows(r) {
  if (!r || !r.links) return [];
  const byNode = new Map();
  for (const l of r.links) byNode.set(l.node, l);
  const vertical = r.action === 'hide' || r.action === 'unhide';
  const removing = r.action === 'hide' || r.action === 'cover';
  const subject = (l) => (vertical ? l.kind === 'node' && l.option === r.option : l.kind === 'head' && l.item === r.item);
  const [back, fwd] = vertical ? ['up', 'down'] : ['left', 'right'];
  const subjects = [...byNode.values()].filter(subject);
  const rows = [];
  for (const l of byNode.values()) {
    const row = { ...l, marks: {}, note: '' };
    if (subject(l)) {
      row.role = removing ? 'out' : 'in';
      row.marks[back] = row.marks[fwd] = removing ? 'kept' : 'back';
      row.note = removing
        ? 'out: its own links kept'
        : `back in: its neighbours point at it again`;
    } else {
      row.role = 'neighbour';
      const notes = [];
      for (const sj of subjects) {
        // l before sj: its forward link skipped sj (or points at it again)
        const dirs = [];
        if (sj[back] === l.node) dirs.push(fwd);
        if (sj[fwd] === l.node) dirs.push(back);
        for (const d of dirs) {
          row.marks[d] = removing ? 'skips' : 'back';
          notes.push(removing ? `${d[0].toUpperCase()} skips ${sj.node}, now ${l[d]}` : `${d[0].toUpperCase()} points back at ${sj.node}`);
        }
      }
      row.note = notes.join('; ');
    }
    rows.push(row);
  }
  // the subjects first, each followed by its neighbours as listed
  return rows.sort((a, b) => (a.role === 'neighbour') - (b.role === 'neighbour'));
}
