// The page's one way to the server (API.md beside this folder's crate).
// Every call returns the parsed JSON answer or throws an ApiError that
// carries the server's error record (kind, message, line, column, cell).

export class ApiError extends Error {
  constructor(status, record) {
    super(record && record.message ? record.message : `HTTP ${status}`);
    this.status = status;
    this.kind = record && record.kind;
    this.line = record && record.line;
    this.column = record && record.column;
    this.cell = record && record.cell;
  }
  /** "line 3, column 7: message" when the server said where. */
  where() {
    const at = [];
    if (this.line) at.push(`line ${this.line}`);
    if (this.column) at.push(`column ${this.column}`);
    if (this.cell) at.push(`cell ${this.cell}`);
    return at.length ? `${at.join(', ')}: ${this.message}` : this.message;
  }
}

async function answer(res) {
  const type = res.headers.get('content-type') || '';
  const body = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) throw new ApiError(res.status, body && body.error);
  return body;
}

export async function get(path) {
  return answer(await fetch(path, { headers: { Accept: 'application/json' } }));
}

export async function post(path, body) {
  return answer(await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  }));
}

export async function del(path) {
  return answer(await fetch(path, { method: 'DELETE' }));
}

/** A picture (SVG text or PNG blob) from POST /api/poly/render. */
export async function render(body) {
  const res = await fetch('/api/poly/render', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) return answer(res);
  return body.format === 'png' ? res.blob() : res.text();
}

/**
 * Starts a job (POST /api/jobs) and follows its events.
 * handlers: { progress(p), solution(s), done(summary), error(e) }.
 * Returns { id, cancel() }; closing the page closes the stream, and the
 * server cancels a job whose last listener went away.
 */
export async function startJob(spec, handlers) {
  const { id } = await post('/api/jobs', spec);
  const es = new EventSource(`/api/jobs/${id}/events`);
  let finished = false;
  const on = (name, f) => es.addEventListener(name, (ev) => f && f(JSON.parse(ev.data)));
  on('progress', handlers.progress);
  on('solution', handlers.solution);
  es.addEventListener('done', (ev) => {
    finished = true;
    es.close();
    if (handlers.done) handlers.done(JSON.parse(ev.data));
  });
  es.onerror = () => {
    if (!finished && es.readyState === EventSource.CLOSED && handlers.error) {
      handlers.error(new Error('lost the connection to the server'));
    }
  };
  return {
    id,
    async cancel() {
      if (finished) return;
      try { await del(`/api/jobs/${id}`); } catch (e) { /* already done */ }
    },
  };
}

/** A short message at the bottom of the page, read out by screen readers. */
export function toast(message, kind = 'info') {
  const t = document.getElementById('toast');
  if (!t) return;
  t.textContent = message;
  t.dataset.kind = kind;
  t.classList.add('shown');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove('shown'), 4000);
}

/** Builds an element: h('button', {class: 'x', onclick: f}, 'Label'). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Formats a count with thin separators: 1234567 -> "1,234,567". */
export function num(n) {
  return n == null ? '' : Number(n).toLocaleString('en-US');
}

/** Loads a tab's stylesheet once: css('poly', new URL('./poly.css', import.meta.url)). */
export function css(name, href) {
  if (document.querySelector(`link[data-css="${name}"]`)) return;
  document.head.append(h('link', { rel: 'stylesheet', href: String(href), 'data-css': name }));
}

/** A duration for people: "12 ms", "3.42 s", "4 min 5 s", "2 h 3 min". */
export function fmtTime(s) {
  if (s == null || !isFinite(s)) return '—';
  if (s < 1) return `${(s * 1000).toFixed(s < 0.01 ? 2 : 0)} ms`;
  if (s < 60) return `${s.toFixed(2)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - 60 * m)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** A rate for people: "2.15 M", "830 k". */
export function fmtRate(r) {
  if (r == null || !isFinite(r)) return '—';
  if (r >= 1e9) return `${(r / 1e9).toFixed(2)} G`;
  if (r >= 1e6) return `${(r / 1e6).toFixed(2)} M`;
  if (r >= 1e3) return `${(r / 1e3).toFixed(1)} k`;
  return r.toFixed(0);
}

/**
 * A job's PROGRESS (API.md) as a list of statistics: solutions, nodes,
 * nodes/s, elapsed, and the fraction done and ETA when known. Each value
 * carries data-stat = its name in lower case ("nodes", "elapsed", ...).
 */
export function progressStats(p) {
  const items = [
    ['Solutions', num(p.solutions)],
    ['Nodes', num(p.nodes)],
    ['Nodes/s', fmtRate(p.nodes_per_s)],
    ['Elapsed', fmtTime(p.elapsed_s)],
  ];
  if (p.fraction != null) items.push(['Done', `${(p.fraction * 100).toFixed(1)} %`]);
  if (p.eta_s != null) items.push(['ETA', fmtTime(p.eta_s)]);
  return h('dl', {}, items.map(([k, v]) => [h('dt', {}, k), h('dd', { 'data-stat': k.toLowerCase() }, v)]));
}

/** Shows PROGRESS's fraction on a <progress> bar (moving when unknown). */
export function setProgress(bar, p) {
  if (p.fraction != null) bar.value = Math.max(0, Math.min(1, p.fraction));
  else bar.removeAttribute('value');
  bar.setAttribute('aria-valuetext', p.fraction != null ? `${(p.fraction * 100).toFixed(1)} %` : 'unknown');
}

/** Shows `text` on a state line, styled by `kind` ('', 'good', 'warn', 'error'). */
export function showState(el, text, kind = '') {
  el.textContent = text;
  el.className = 'state ' + kind;
}

/**
 * Cancels a tab's running job (`st.job`, if any): its Cancel `button`
 * disabled and `say` told, until the server has it.
 */
export async function cancelJob(st, button, say) {
  if (!st.job) return;
  button.disabled = true;
  say('Cancelling…');
  await st.job.cancel();
}

/**
 * How a job's SUMMARY `s` ended, in words ending with `what` (its
 * solutions), and the state line's kind for it: [text, kind].
 */
export function endWords(s, what) {
  const words = {
    complete: `Complete: ${what}.`,
    limit: `Stopped at the limit: ${what}.`,
    cancelled: `Search cancelled after ${what}.`,
    timeout: `Stopped at the time limit: ${what}.`,
    error: `Error: ${s.message || 'the search failed'}.`,
  };
  const kind = s.status === 'error' ? 'error' : s.status === 'cancelled' ? 'warn' : 'good';
  return [words[s.status] || `${s.status}: ${what}.`, kind];
}

/** "Could not start: …", of a job the server refused (or a failed request). */
export function notStarted(e) {
  return `Could not start: ${e instanceof ApiError ? e.where() : e.message}`;
}

/**
 * Says "Checking…" on the check line `line` and runs `check` 350 ms from
 * now, in place of the one `timer` would have run: the new timer.
 */
export function checkSoon(timer, line, check) {
  clearTimeout(timer);
  line.replaceChildren(h('span', { class: 'muted' }, 'Checking…'));
  return setTimeout(check, 350);
}

/**
 * Focuses the textarea `area` with line `line` selected from column `col`
 * to its end (lines and columns from 1). Scrolling is the caller's.
 */
export function selectLine(area, line, col = 1) {
  const lines = area.value.split('\n');
  let at = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) at += lines[i].length + 1;
  const len = (lines[line - 1] || '').length;
  area.focus();
  area.setSelectionRange(at + Math.min(col - 1, len), at + len);
}
