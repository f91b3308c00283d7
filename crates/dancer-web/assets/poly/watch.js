// The Polyforms tab's watch mode: the search for a puzzle's tilings, step
// by step (POST /api/poly/watch), its pieces placed and taken back on the
// board (POST /api/poly/frame draws the board for the pieces placed) at a
// chosen speed, pausing at each solution; step back and forward, the next
// solution, restart. The node count is 1 + the placements tried so far,
// as the server counts nodes. Everything drawn comes from the server's
// step records (choose, try, solution, backtrack).
import { post, h, num, ApiError } from '../api.js';

const SPEEDS = [1, 2, 5, 10, 30, 100, 500];
const STORE_SPEED = 'dancer.poly.watch.speed';
const CACHE = 400; // board pictures kept

/**
 * The watch panel. `source()`: the puzzle as the API takes it ({ toml },
 * { name } or { burr, problem }), or null. Returns { el, button, start() }.
 */
export function makeWatch({ source }) {
  const w = { data: null, src: null, i: 0, stack: [], tries: 0, sols: 0, rec: null, playing: false, timer: 0, seq: 0,
    frames: new Map(), inFlight: false, want: '', shown: '' };
  const ui = {};
  // each button's name is its text; the arrows beside it are decoration
  const sym = (t) => h('span', { 'aria-hidden': 'true' }, t);
  const btn = (name, before, after, f, extra = {}) => h('button', { type: 'button', onclick: f, ...extra },
    before ? [sym(before), ` ${name}`] : [`${name} `, sym(after)]);
  ui.restart = btn('Restart', '|◀', '', () => { pause(); go(0); });
  ui.back = btn('Step back', '◀', '', () => { pause(); go(w.i - 1); });
  ui.play = btn('Play', '▶', '', () => (w.playing ? pause() : play()), { class: 'primary play' });
  ui.fwd = btn('Step forward', '', '▶', () => { pause(); go(w.i + 1); });
  ui.next = btn('Next solution', '', '▶▶', nextSolution);
  ui.speed = h('select', { id: 'poly-watch-speed' }, SPEEDS.map((v) => h('option', { value: v }, `${v} step${v === 1 ? '' : 's'}/s`)));
  ui.speed.value = localStorage.getItem(STORE_SPEED) || '5';
  if (!ui.speed.value) ui.speed.value = '5';
  ui.speed.addEventListener('change', () => {
    localStorage.setItem(STORE_SPEED, ui.speed.value);
    if (w.playing) { clearTimeout(w.timer); schedule(); }
  });
  ui.close = h('button', { type: 'button', class: 'ghost', onclick: close }, 'Close');
  ui.counter = h('p', { id: 'poly-watch-counter', class: 'counter' });
  ui.caption = h('p', { id: 'poly-watch-caption', class: 'caption', role: 'status', 'aria-live': 'polite' });
  ui.img = h('img', { id: 'poly-watch-board', class: 'pic', alt: 'The board', 'data-placements': '' });
  ui.pieces = h('p', { id: 'poly-watch-pieces', class: 'muted small pieces-on' });
  ui.state = h('p', { id: 'poly-watch-state', class: 'state', role: 'status', 'aria-live': 'polite' });
  ui.summary = h('p', { id: 'poly-watch-summary', class: 'muted small' });
  ui.body = h('div', { class: 'watch-body', hidden: true },
    h('div', { class: 'row', role: 'toolbar', 'aria-label': 'Watch controls' },
      ui.restart, ui.back, ui.play, ui.fwd, ui.next,
      h('label', { for: 'poly-watch-speed' }, 'Speed', ui.speed)),
    ui.counter, ui.caption,
    h('div', { class: 'watch-board' }, ui.img),
    ui.pieces, ui.summary);
  ui.el = h('section', { class: 'panel watchbox', id: 'poly-watch', 'aria-labelledby': 'poly-watch-h', hidden: true },
    h('div', { class: 'row watch-head' }, h('h3', { id: 'poly-watch-h' }, 'Watch the search'), ui.close),
    h('p', { class: 'muted small' },
      'Algorithm X placing pieces and taking them back, step by step, pausing at each solution. ',
      'For boards of at most 200 cells and 5,000 placements; the first 50,000 steps. ',
      'Keys, with the focus in this panel: ← → a step, n the next solution, Home, End.'),
    ui.state, ui.body);
  ui.el.addEventListener('keydown', onKey);
  const button = h('button', { type: 'button', id: 'poly-watch-start', onclick: () => start() }, 'Watch the search');

  async function start() {
    const src = source();
    if (!src) return;
    pause();
    const seq = ++w.seq;
    ui.el.hidden = false;
    showState('Tracing the search…');
    button.disabled = true;
    try {
      const data = await post('/api/poly/watch', src);
      if (seq !== w.seq) return;
      w.data = data;
      w.src = src;
      w.frames = new Map([['', data.frame]]);
      w.shown = null;
      w.i = -1;
      ui.body.hidden = false;
      showState('');
      const s = data.summary;
      const what = s.at_limit ? `The search's first ${num(data.steps.length)} steps (cut at the limit)` : `The whole search: ${num(data.steps.length)} steps`;
      ui.summary.textContent = `${what}, `
        + `${num(s.nodes)} nodes, ${num(s.solutions)} solution${s.solutions === 1 ? '' : 's'}, ${num(data.options.length)} placements to choose from.`;
      ui.summary.dataset.nodes = String(s.nodes);
      go(0);
      play();
      ui.play.focus();
    } catch (e) {
      if (seq !== w.seq) return;
      w.data = null;
      ui.body.hidden = true;
      const where = e instanceof ApiError ? e.where() : e.message;
      showState(`Cannot watch this puzzle: ${where}`, 'error');
      ui.state.dataset.kind = (e && e.kind) || '';
    } finally {
      if (seq === w.seq) button.disabled = false;
    }
  }

  function close() {
    pause();
    w.seq++;
    w.data = null;
    ui.el.hidden = true;
    button.focus();
  }

  function showState(text, kind = '') {
    ui.state.textContent = text;
    ui.state.className = 'state ' + kind;
    ui.state.hidden = !text;
  }

  /** Replays the records up to step i (or applies one more). */
  function go(i) {
    const d = w.data;
    if (!d) return;
    i = Math.max(0, Math.min(d.steps.length, i | 0));
    if (i === w.i + 1 && w.i >= 0) step(d.steps[w.i]);
    else if (i !== w.i) {
      w.stack = [];
      w.tries = 0;
      w.sols = 0;
      w.rec = null;
      w.i = 0;
      while (w.i < i) step(d.steps[w.i]);
    }
    draw();
  }

  function step(r) {
    const L = r.level;
    if (r.action === 'try') {
      w.stack = w.stack.slice(0, L);
      w.stack.push(r.option);
      w.tries++;
    } else if (r.action === 'backtrack') {
      w.stack = w.stack.slice(0, L);
    } else if (r.action === 'solution') {
      w.sols++;
    }
    w.rec = r;
    w.i = r.step;
  }

  function piece(k) {
    const o = w.data.options[k];
    return o ? o.piece : `#${k}`;
  }

  function words(r) {
    if (!r) return 'The empty board. Press Play or Step forward.';
    const lv = `Level ${r.level}`;
    switch (r.action) {
      case 'choose':
        return r.len === 0
          ? `${lv}: ${r.item} can no longer be covered: a dead end.`
          : `${lv}: choose ${r.item}, the item with the fewest placements left (${r.len}).`;
      case 'try': {
        const o = w.data.options[r.option] || {};
        return `${lv}: place ${o.piece || '?'} (placement ${o.placement}) to cover ${r.item}, ${r.k} of ${r.n}.`;
      }
      case 'solution':
        return `Solution ${r.number}: every cell covered, ${w.stack.length} piece${w.stack.length === 1 ? '' : 's'} placed.`;
      case 'backtrack':
        return `${lv}: no more placements for ${r.item}: take back${r.level > 0 ? ' the last piece' : ''}.`;
      default:
        return `${lv}: ${r.action}`;
    }
  }

  function draw() {
    const d = w.data;
    const n = d.steps.length;
    const end = w.i >= n;
    ui.counter.replaceChildren(
      h('span', { 'data-stat': 'step' }, `Step ${num(w.i)} of ${num(n)}`),
      h('span', { 'data-stat': 'level' }, `level ${w.rec ? w.rec.level : 0}`),
      h('span', { 'data-stat': 'nodes' }, `nodes ${num(1 + w.tries)}`),
      h('span', { 'data-stat': 'solutions' }, `solutions ${num(w.sols)}`),
      h('span', { 'data-stat': 'pieces' }, `pieces ${w.stack.length}`),
      end ? h('span', { class: 'end' }, d.summary.at_limit ? 'the trace ends here' : 'the search is over') : '');
    Object.assign(ui.el.dataset, { step: String(w.i), nodes: String(1 + w.tries), solutions: String(w.sols), action: w.rec ? w.rec.action : '' });
    ui.caption.textContent = words(w.rec);
    ui.pieces.textContent = w.stack.length
      ? `On the board: ${w.stack.map((k) => `${piece(k)} (placement ${d.options[k].placement})`).join(', ')}`
      : 'On the board: nothing yet.';
    ui.back.disabled = w.i === 0;
    ui.restart.disabled = w.i === 0;
    ui.fwd.disabled = end;
    ui.next.disabled = end;
    picture();
  }

  /** The board for the pieces placed: from the cache, or asked for
   * (one request at a time; the latest wanted when it comes back). */
  function picture() {
    const placements = w.stack.map((k) => w.data.options[k].placement);
    const key = placements.join(',');
    w.want = key;
    ui.img.dataset.want = key;
    if (w.frames.has(key)) { showFrame(key, w.frames.get(key)); return; }
    if (w.inFlight) return;
    w.inFlight = true;
    const seq = w.seq;
    post('/api/poly/frame', { ...w.src, placements })
      .then((r) => {
        if (seq !== w.seq) return;
        if (w.frames.size > CACHE) w.frames.delete(w.frames.keys().next().value);
        w.frames.set(key, r.svg);
        showFrame(key, r.svg);
      })
      .catch((e) => { if (seq === w.seq) showState(`No picture: ${e.message}`, 'error'); })
      .finally(() => {
        w.inFlight = false;
        if (seq === w.seq && w.data && w.want !== w.shown) picture();
      });
  }

  function showFrame(key, svg) {
    if (w.shown === key) return;
    w.shown = key;
    ui.img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
    ui.img.dataset.placements = key;
    const k = key ? key.split(',').length : 0;
    ui.img.alt = k ? `The board with ${k} piece${k === 1 ? '' : 's'} placed` : 'The empty board';
  }

  function play() {
    if (!w.data) return;
    if (w.i >= w.data.steps.length) go(0);
    w.playing = true;
    ui.caption.setAttribute('aria-live', 'off');
    ui.play.replaceChildren(sym('❚❚'), ' Pause');
    schedule();
  }

  function pause() {
    clearTimeout(w.timer);
    if (!w.playing) return;
    w.playing = false;
    ui.caption.setAttribute('aria-live', 'polite');
    ui.play.replaceChildren(sym('▶'), ' Play');
  }

  /** The next tick of play: as many steps as the speed asks for the
   * time gone by. */
  function schedule() {
    const speed = Number(ui.speed.value) || 5;
    const every = Math.max(16, 1000 / speed);
    let last = performance.now();
    let due = 0;
    const tick = () => {
      if (!w.playing || !w.data) return;
      const now = performance.now();
      due += ((now - last) * speed) / 1000;
      last = now;
      const k = Math.floor(due);
      due -= k;
      const n = w.data.steps.length;
      let sol = false;
      for (let j = 0; j < k && w.i < n && !sol; j++) {
        step(w.data.steps[w.i]);
        sol = w.rec.action === 'solution';
      }
      if (k > 0) draw();
      if (sol || w.i >= n) pause();
      else w.timer = setTimeout(tick, every);
    };
    w.timer = setTimeout(tick, every);
  }

  function nextSolution() {
    pause();
    const d = w.data;
    if (!d) return;
    const j = d.steps.findIndex((r, idx) => idx >= w.i && r.action === 'solution');
    go(j < 0 ? d.steps.length : j + 1);
    if (j < 0) showState(d.summary.at_limit ? 'No more solutions within the steps traced.' : 'No more solutions: the search is over.', 'good');
    else showState('');
  }

  function onKey(e) {
    if (!w.data || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === 'SELECT' || tag === 'INPUT') return;
    switch (e.key) {
      case 'ArrowRight': pause(); go(w.i + 1); break;
      case 'ArrowLeft': pause(); go(w.i - 1); break;
      case 'Home': pause(); go(0); break;
      case 'End': pause(); go(w.data.steps.length); break;
      case 'n': case 'N': nextSolution(); break;
      default: return;
    }
    e.preventDefault();
  }

  return { el: ui.el, button, start };
}
