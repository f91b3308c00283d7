// The Exact cover tab: paste or upload a problem in Knuth's DLX format,
// checked as one types (item and option counts, or the error at its line
// and column); count or list its solutions as a job with live progress,
// cancel, the solutions' option lines and the final statistics.
// Uses only what API.md says: /api/cover/check and jobs of kind "cover".
import {
  post, startJob, toast, h, num, ApiError, css, fmtTime, progressStats, setProgress, showState, cancelJob, endWords, notStarted,
  checkSoon, selectLine,
} from '../api.js';

const STORE = 'dancer.cover.problem';

// Knuth's toy problem (as ../shared/data/dlx/toy.dlx and dancer example).
const TOY = `| A simple example
A B C D E | F G
C E F
A D G
B C F
A D
B G
D E G
`;

const st = { job: null, seq: 0, error: null, solutions: 0, shown: 0, mode: 'solve' };
let ui = {};
const SHOW_MAX = 1000; // solutions listed on the page (the server keeps its own cap)

export async function mount(section) {
  css('cover', new URL('./cover.css', import.meta.url));
  const id = (s) => `cover-${s}`;
  ui.text = h('textarea', {
    id: id('problem'), rows: 14, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', wrap: 'off',
    'aria-describedby': id('pos') + ' ' + id('check'),
    placeholder: '| a comment\nA B C D E | F G\nC E F\nA D G\n...',
  });
  ui.file = h('input', { type: 'file', id: id('file'), accept: '.dlx,.txt,text/plain' });
  ui.pos = h('span', { id: id('pos'), class: 'muted' }, 'Line 1, column 1');
  ui.check = h('div', { id: id('check'), class: 'check', role: 'status', 'aria-live': 'polite' });
  ui.engine = h('select', { id: id('engine') },
    ['auto', 'dlx', 'dlxm', 'bitset', 'bitmrv'].map((e) => h('option', { value: e }, e)));
  ui.limit = h('input', { type: 'number', id: id('limit'), min: 1, step: 1, inputmode: 'numeric', placeholder: 'all', class: 'limit' });
  ui.count = h('button', { type: 'button', onclick: () => run('count') }, 'Count');
  ui.list = h('button', { type: 'button', class: 'primary', onclick: () => run('solve') }, 'List solutions');
  ui.cancel = h('button', { type: 'button', disabled: true, onclick: cancel }, 'Cancel');
  ui.progress = h('progress', { id: id('progress'), 'aria-label': 'Search progress', max: 1 });
  ui.progress.value = 0;
  ui.stats = h('div', { class: 'stats' });
  ui.state = h('p', { class: 'state', role: 'status', 'aria-live': 'polite', id: id('state') });
  ui.final = h('div', { class: 'final' });
  ui.sols = h('ol', { class: 'solutions', 'aria-label': 'Solutions' });
  ui.more = h('p', { class: 'muted' });

  section.append(
    h('h2', {}, 'Exact cover'),
    h('p', { class: 'muted intro' },
      'Knuth\'s DLX format: the first line names the items (primary, then "|" and the secondary ones), ',
      'then one option per line; lines starting with "|" are comments.'),
    h('div', { class: 'row' },
      h('button', { type: 'button', onclick: toy }, 'Load toy problem'),
      h('label', { for: id('file') }, 'Upload a file', ui.file)),
    h('label', { for: id('problem'), class: 'block' }, 'Problem (DLX format)'),
    ui.text,
    h('div', { class: 'row small' }, ui.pos),
    ui.check,
    h('div', { class: 'panel runbox' },
      h('div', { class: 'row' },
        h('label', { for: id('engine') }, 'Engine', ui.engine),
        h('label', { for: id('limit') }, 'Limit', ui.limit),
        ui.count, ui.list, ui.cancel),
      ui.progress, ui.stats, ui.state, ui.final),
    h('section', { class: 'sols', 'aria-label': 'Solutions' },
      h('h3', {}, 'Solutions'), ui.sols, ui.more),
  );

  ui.text.addEventListener('input', () => { localStorage.setItem(STORE, ui.text.value); schedule(); caret(); });
  for (const ev of ['keyup', 'click', 'select', 'focus']) ui.text.addEventListener(ev, caret);
  ui.file.addEventListener('change', async () => {
    const f = ui.file.files && ui.file.files[0];
    if (!f) return;
    if (f.size > 1024 * 1024) { toast(`${f.name} is over 1 MiB, more than the server takes.`, 'error'); return; }
    ui.text.value = await f.text();
    localStorage.setItem(STORE, ui.text.value);
    caret();
    await check();
  });
  const saved = localStorage.getItem(STORE);
  ui.text.value = saved && saved.trim() ? saved : TOY;
  await check();
}

export function show() {}

async function toy() {
  ui.text.value = TOY;
  localStorage.setItem(STORE, TOY);
  caret();
  await check();
}

function caret() {
  const v = ui.text.value;
  const at = ui.text.selectionStart || 0;
  const before = v.slice(0, at);
  ui.pos.textContent = `Line ${before.split('\n').length}, column ${at - before.lastIndexOf('\n')}`;
}

function goTo(line, col = 1) {
  selectLine(ui.text, line, col);
  const lh = parseFloat(getComputedStyle(ui.text).lineHeight) || 20;
  ui.text.scrollTop = Math.max(0, (line - 3) * lh);
  caret();
}

let timer = null;
function schedule() {
  timer = checkSoon(timer, ui.check, check);
}

async function check() {
  const seq = ++st.seq;
  try {
    const r = await post('/api/cover/check', { problem: ui.text.value });
    if (seq !== st.seq) return;
    st.error = null;
    ui.text.removeAttribute('aria-invalid');
    ui.check.replaceChildren(h('span', { class: 'good' },
      `No errors: ${num(r.items)} primary item${r.items === 1 ? '' : 's'}, ${num(r.secondary)} secondary, ${num(r.options)} option${r.options === 1 ? '' : 's'}.`));
  } catch (e) {
    if (seq !== st.seq) return;
    showError(e);
  }
}

function showError(e) {
  st.error = e;
  ui.text.setAttribute('aria-invalid', 'true');
  const where = e instanceof ApiError ? e.where() : e.message;
  const parts = [h('span', { class: 'error', 'data-line': e.line || '' }, `Error${e.line ? ' at ' : ': '}${where}`)];
  if (e.line) parts.push(' ', h('button', { type: 'button', class: 'small', onclick: () => goTo(e.line, e.column || 1) }, `Go to line ${e.line}`));
  ui.check.replaceChildren(...parts);
}

async function run(mode) {
  if (st.job) return;
  const spec = { kind: 'cover', problem: ui.text.value, mode, engine: ui.engine.value };
  if (ui.limit.value !== '') {
    const lim = parseInt(ui.limit.value, 10);
    if (!(lim >= 1)) { setState('The limit must be a whole number, at least 1.', 'error'); ui.limit.focus(); return; }
    spec.limit = lim;
  }
  st.mode = mode;
  st.shown = 0;
  ui.sols.replaceChildren();
  ui.more.textContent = mode === 'count' ? 'Counting only: no solutions listed.' : '';
  ui.final.replaceChildren();
  ui.stats.replaceChildren();
  ui.progress.removeAttribute('value');
  setBusy(true);
  setState(mode === 'count' ? 'Counting…' : 'Solving…');
  const buffer = [];
  let pending = 0;
  const flush = () => {
    pending = 0;
    const items = buffer.splice(0).map((s) => solutionItem(s));
    ui.sols.append(...items);
  };
  try {
    st.job = await startJob(spec, {
      progress: (p) => progress(p),
      solution: (s) => {
        if (st.shown >= SHOW_MAX) return;
        st.shown++;
        buffer.push(s);
        if (!pending) pending = setTimeout(flush, 100);
      },
      done: (s) => { clearTimeout(pending); flush(); finish(s); },
      error: (e) => { clearTimeout(pending); flush(); finish({ status: 'error', message: e.message }); },
    });
  } catch (e) {
    st.job = null;
    setBusy(false);
    ui.progress.value = 0;
    if (e instanceof ApiError && e.line) showError(e);
    setState(notStarted(e), 'error');
  }
}

function solutionItem(s) {
  const lines = s.lines || [];
  const opts = s.options || [];
  return h('li', { class: 'sol' },
    h('span', { class: 'muted small' }, `options ${opts.join(', ')}`),
    h('ul', { class: 'lines' }, lines.map((l) => h('li', {}, h('code', {}, l)))));
}

function setBusy(b) {
  ui.count.disabled = b;
  ui.list.disabled = b;
  ui.cancel.disabled = !b;
}

function setState(text, kind = '') {
  showState(ui.state, text, kind);
}

function progress(p) {
  setProgress(ui.progress, p);
  ui.stats.replaceChildren(progressStats(p));
}

async function cancel() {
  await cancelJob(st, ui.cancel, setState);
}

function finish(s) {
  st.job = null;
  setBusy(false);
  ui.progress.value = s.status === 'complete' ? 1 : ui.progress.value || 0;
  const n = s.solutions || 0;
  const what = `${num(n)} solution${n === 1 ? '' : 's'}`;
  setState(...endWords(s, what));
  ui.state.dataset.status = s.status;
  if (s.status !== 'error' || s.nodes != null) {
    const rows = [
      ['Status', s.status],
      ['Solutions', num(s.solutions)],
      ['Nodes', num(s.nodes)],
      ['Updates', num(s.updates)],
      ['Engine', s.engine || '—'],
      ['Time', fmtTime(s.elapsed_s)],
    ];
    if (s.message) rows.push(['Message', s.message]);
    ui.final.replaceChildren(h('table', { class: 'summary' },
      h('caption', {}, 'Statistics'),
      h('tbody', {}, rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', { 'data-stat': k.toLowerCase() }, v))))));
  }
  if (st.mode === 'solve') {
    if (!n) ui.more.textContent = 'No solutions.';
    else if (n > st.shown) ui.more.textContent = `Listed ${num(st.shown)} of ${num(n)} solutions (the server keeps at most a set number).`;
    else ui.more.textContent = '';
  }
}
