// Shared fixtures and helpers for the browser tests. Every spec imports
// `test` and `expect` from here, not from '@playwright/test':
//
//   const { test, expect, shot, waitForJob } = require('./helpers');
//
// The `test` here checks, after every test, that the page
//   * sent no request off the machine: every request is to the server's
//     own origin, or a data: / blob: URL;
//   * logged no console error and threw no uncaught exception.
// A console error of the form "Failed to load resource: ... status of 4xx"
// for a URL under /api/ is allowed: the page shows the server's 4xx error
// records on purpose (an invalid puzzle is a 422). A test that expects other
// console errors says so with
//   test.use({ allowConsoleErrors: [/regex/, ...] });
const fs = require('node:fs');
const path = require('node:path');
const base = require('@playwright/test');

const SCREENSHOTS = path.resolve(__dirname, '..', 'screenshots');

const test = base.test.extend({
  allowConsoleErrors: [[], { option: true }],

  // Collected by the `guard` fixture; a test may read them.
  offsite: async ({}, use) => use([]),
  consoleErrors: async ({}, use) => use([]),

  guard: [
    async ({ context, baseURL, offsite, consoleErrors, allowConsoleErrors }, use) => {
      const origin = new URL(baseURL).origin;
      context.on('request', (req) => {
        const url = req.url();
        if (url.startsWith('data:') || url.startsWith('blob:')) return;
        let o;
        try {
          o = new URL(url).origin;
        } catch {
          o = null;
        }
        if (o !== origin) offsite.push(url);
      });
      const watch = (page) => {
        page.on('console', (msg) => {
          if (msg.type() !== 'error') return;
          const text = msg.text();
          const where = msg.location() && msg.location().url;
          const apiStatus = /Failed to load resource: the server responded with a status of 4\d\d/.test(text);
          const apiUrl = where && new URL(where, origin).pathname.startsWith('/api/');
          if (apiStatus && apiUrl) return;
          if (allowConsoleErrors.some((re) => re.test(text))) return;
          consoleErrors.push(`console.error: ${text}${where ? ` (${where})` : ''}`);
        });
        page.on('pageerror', (err) => {
          consoleErrors.push(`uncaught: ${err.stack || err.message || err}`);
        });
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      base.expect(offsite, 'requests that left the machine').toEqual([]);
      base.expect(consoleErrors, 'console errors and uncaught exceptions').toEqual([]);
    },
    { auto: true },
  ],
});

const { expect } = base;

/**
 * Saves a screenshot of the page to e2e/screenshots/NAME.png (kept after
 * the run; the folder is ignored by git). Options as page.screenshot's.
 */
async function shot(page, name, options = {}) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, name.endsWith('.png') ? name : `${name}.png`);
  await page.screenshot({ path: file, ...options });
  return file;
}

/**
 * Runs `action` (e.g. a click on Solve) and returns the id of the job it
 * started: the answer of its POST /api/jobs.
 */
async function startedJob(page, action) {
  const [res] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/jobs',
    ),
    action(),
  ]);
  expect(res.status(), 'POST /api/jobs').toBe(202);
  const { id } = await res.json();
  return id;
}

/** The job's record, GET /api/jobs/{id}, through the test's own request context. */
async function jobRecord(request, id) {
  const res = await request.get(`/api/jobs/${id}`);
  expect(res.ok(), `GET /api/jobs/${id}`).toBeTruthy();
  return res.json();
}

/**
 * Waits until the job is in `state` ('running' or 'done'; default 'done')
 * by polling GET /api/jobs/{id}, and returns its record.
 */
async function waitForJob(request, id, { state = 'done', timeout = 60_000 } = {}) {
  let record;
  await expect
    .poll(async () => (record = await jobRecord(request, id)).state, {
      message: `job ${id} to be ${state}`,
      timeout,
      intervals: [100, 250, 500],
    })
    .toBe(state);
  return record;
}

/**
 * Runs `action` and waits for the answer of `method path` that it causes
 * (path: the URL's pathname, e.g. '/api/sudoku/hint'); returns the parsed
 * JSON body (or null when it is not JSON).
 */
async function apiAnswer(page, method, pathname, action) {
  const [res] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === method && new URL(r.url()).pathname === pathname,
    ),
    action(),
  ]);
  const type = res.headers()['content-type'] || '';
  return type.includes('json') ? res.json() : null;
}

/**
 * Opens the tab `name` (`/#name`) afresh: what it saved in localStorage
 * under `keys` removed, the page reloaded. Returns the tab's panel
 * (`#tab-name`).
 */
async function openFresh(page, name, keys) {
  await page.goto(`/#${name}`);
  await page.evaluate((saved) => saved.forEach((k) => localStorage.removeItem(k)), keys);
  await page.reload();
  return page.locator(`#tab-${name}`);
}

/**
 * Fills `field` with `text`, then waits until the check line `check` says
 * each of `says`.
 */
async function fillAndCheck(field, text, check, says) {
  await field.fill(text);
  for (const s of says) await expect(check).toContainText(s);
}

module.exports = {
  test, expect, shot, startedJob, jobRecord, waitForJob, apiAnswer, openFresh, fillAndCheck, SCREENSHOTS,
};
