// The page's shell: one section per tab, chosen by the URL's hash
// (#play, #solve, #poly, #cover, #watch; anything after a '?' or '/' in the hash
// belongs to the tab, e.g. #play?p=... for a shared puzzle). Each tab is an
// ES module with `mount(section)` (called once, the first time the tab is
// shown) and optional `show(section, hashRest)` (called every time).
import { toast } from './api.js';

const TABS = {
  play: () => import('./sudoku/play.js'),
  solve: () => import('./sudoku/solve.js'),
  poly: () => import('./poly/poly.js'),
  cover: () => import('./cover/cover.js'),
  watch: () => import('./cover/watch.js'),
};
const mounted = new Map();

function parseHash() {
  const h = decodeURIComponent(location.hash.slice(1));
  const m = /^([a-z]+)(.*)$/.exec(h);
  if (m && TABS[m[1]]) return [m[1], m[2]];
  return ['play', h.startsWith('?') ? h : ''];
}

async function route() {
  const [tab, rest] = parseHash();
  for (const s of document.querySelectorAll('[data-panel]')) s.hidden = s.dataset.panel !== tab;
  for (const a of document.querySelectorAll('[data-tab]')) {
    if (a.dataset.tab === tab) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const section = document.getElementById('tab-' + tab);
  try {
    let mod = mounted.get(tab);
    if (!mod) {
      mod = await TABS[tab]();
      mounted.set(tab, mod);
      await mod.mount(section);
    }
    if (mod.show) await mod.show(section, rest);
  } catch (e) {
    toast(String(e.message || e), 'error');
  }
}

function theme() {
  const btn = document.getElementById('theme');
  const saved = localStorage.getItem('dancer.theme');
  const dark = saved ? saved === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  const set = (d) => {
    document.documentElement.dataset.theme = d ? 'dark' : 'light';
    btn.setAttribute('aria-pressed', String(d));
    btn.textContent = d ? 'Light mode' : 'Dark mode';
  };
  set(dark);
  btn.addEventListener('click', () => {
    const d = document.documentElement.dataset.theme !== 'dark';
    localStorage.setItem('dancer.theme', d ? 'dark' : 'light');
    set(d);
  });
}

theme();
addEventListener('hashchange', route);
route();
