// The page's shell (index.html, app.js, style.css): it loads, the five tabs
// switch by mouse and by keyboard, dark mode toggles and persists, every
// file is served with the right content type, and (checked after every
// test by helpers.js) nothing leaves the machine and nothing logs an error.
const { test, expect, shot } = require('./helpers');

const TABS = [
  ['play', 'Play Sudoku'],
  ['solve', 'Solve Sudoku'],
  ['poly', 'Polyforms'],
  ['cover', 'Exact cover'],
  ['watch', 'Watch'],
];

/** Only `name`'s panel is shown, and only its tab is marked current. */
async function expectTab(page, name) {
  for (const [tab] of TABS) {
    const panel = page.locator(`[data-panel="${tab}"]`);
    const link = page.locator(`[data-tab="${tab}"]`);
    if (tab === name) {
      await expect(panel).toBeVisible();
      await expect(link).toHaveAttribute('aria-current', 'page');
    } else {
      await expect(panel).toBeHidden();
      await expect(link).not.toHaveAttribute('aria-current', /.*/);
    }
  }
  // the tab's module mounted something into its section
  await expect(page.locator(`[data-panel="${name}"] > *`).first()).toBeVisible();
}

test.use({ colorScheme: 'light' });

test('the page loads, on the Play tab', async ({ page }) => {
  const res = await page.goto('/');
  expect(res.status()).toBe(200);
  await expect(page).toHaveTitle(/dancer/);
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible();
  for (const [, label] of TABS) {
    await expect(page.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await expectTab(page, 'play');
});

test('the tabs switch by click, and the URL follows', async ({ page }) => {
  await page.goto('/');
  for (const [tab, label] of [...TABS.slice(1), TABS[0]]) {
    await page.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`#${tab}$`));
    await expectTab(page, tab);
  }
  // back goes to the previous tab
  await page.goBack();
  await expectTab(page, TABS[TABS.length - 1][0]);
});

test('the tabs switch by keyboard alone', async ({ page }) => {
  await page.goto('/');
  await expectTab(page, 'play');
  for (const [tab] of [...TABS.slice(1), TABS[0]]) {
    // Tab from the top of the page to the tab's link, then Enter
    // (the skip link focused and left: Tab goes on from there, whatever
    // the last tab's panel holds)
    await page.evaluate(() => {
      const skip = document.querySelector('.skip');
      skip.focus();
      skip.blur();
    });
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate((t) => document.activeElement?.dataset?.tab === t, tab);
    }
    expect(reached, `Tab reaches the ${tab} tab's link within 12 presses`).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`#${tab}$`));
    await expectTab(page, tab);
  }
});

test('a link to a tab opens that tab; an unknown one opens Play', async ({ page }) => {
  for (const [tab] of TABS) {
    await page.goto(`/#${tab}`);
    await expectTab(page, tab);
  }
  await page.goto('/#nonsense');
  await expectTab(page, 'play');
});

test('dark mode toggles and persists on reload', async ({ page }) => {
  await page.goto('/');
  const html = page.locator('html');
  const button = page.locator('#theme');
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  const lightBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  await button.click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  const darkBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(darkBg, 'the background changes with the theme').not.toBe(lightBg);

  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(button).toHaveAttribute('aria-pressed', 'true');

  // by keyboard too: focus the button, Space
  await button.focus();
  await page.keyboard.press('Space');
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(button).toHaveAttribute('aria-pressed', 'false');
});

test('the system dark preference is followed until the user chooses', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ colorScheme: 'dark', baseURL });
  const page = await context.newPage();
  try {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  } finally {
    await context.close();
  }
});

test('no request leaves the machine, on any tab', async ({ page, baseURL }) => {
  const origin = new URL(baseURL).origin;
  const seen = [];
  page.on('request', (r) => seen.push(r.url()));
  await page.goto('/');
  for (const [tab] of TABS) {
    await page.goto(`/#${tab}`);
    await expectTab(page, tab);
  }
  await page.waitForLoadState('networkidle');
  expect(seen.length).toBeGreaterThan(3);
  for (const url of seen) {
    const ok = url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === origin;
    expect(ok, `request to ${url}`).toBe(true);
  }
  // and the page names no other host in its links, scripts, styles or images
  const foreign = await page.evaluate((o) => {
    const urls = [];
    for (const el of document.querySelectorAll('[src], [href]')) {
      const u = el.src || el.href;
      if (typeof u === 'string' && /^https?:/.test(u) && new URL(u).origin !== o) urls.push(u);
    }
    return urls;
  }, origin);
  expect(foreign).toEqual([]);
});

test('the page files are served with the right content types', async ({ page, request }) => {
  const expected = (pathname) => {
    if (pathname === '/' || pathname.endsWith('.html')) return /^text\/html/;
    if (pathname.endsWith('.js') || pathname.endsWith('.mjs')) return /^(text|application)\/javascript/;
    if (pathname.endsWith('.css')) return /^text\/css/;
    if (pathname.endsWith('.svg')) return /^image\/svg\+xml/;
    if (pathname.endsWith('.png')) return /^image\/png/;
    if (pathname.endsWith('.json') || pathname.startsWith('/api/')) return /^application\/json/;
    return null;
  };
  // every file the page itself loads, on every tab (ES modules are refused
  // by the browser without a JavaScript type, so this matters)
  const files = new Map();
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.protocol.startsWith('http') && !u.pathname.startsWith('/api/')) {
      files.set(u.pathname, [r.status(), r.headers()['content-type'] || '']);
    }
  });
  for (const [tab] of TABS) {
    await page.goto(`/#${tab}`);
    await expectTab(page, tab);
  }
  await page.waitForLoadState('networkidle');
  for (const p of ['/', '/assets/app.js', '/assets/api.js', '/assets/style.css']) {
    expect(files.has(p), `the page loaded ${p}`).toBe(true);
  }
  for (const [p, [status, type]] of files) {
    expect([200, 304], `status of ${p}`).toContain(status);
    const want = expected(p);
    if (want) expect(type, `content type of ${p}`).toMatch(want);
  }
  // and fetched directly
  for (const p of ['/', '/assets/app.js', '/assets/style.css', '/api/health']) {
    const res = await request.get(p);
    expect(res.status(), p).toBe(200);
    expect(res.headers()['content-type'], p).toMatch(expected(p));
  }
  const health = await (await request.get('/api/health')).json();
  expect(health.ok).toBe(true);
  const missing = await request.get('/assets/no-such-file.js');
  expect(missing.status()).toBe(404);
});

test('the shell fits a 375 px wide phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/');
  await expectTab(page, 'play');
  for (const [, label] of TABS) {
    await expect(page.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await expect(page.locator('#theme')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no horizontal scrolling at 375 px').toBeLessThanOrEqual(0);
  await shot(page, 'shell-375', { fullPage: true });
});
