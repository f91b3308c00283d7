// The Exact cover tab (assets/cover/): Knuth's toy problem checked, solved
// (its one solution's option lines listed, the statistics shown) and
// counted; a bad problem's error at its line and column; an upload; a long
// count's progress moving, then cancelled; keyboard-only use.
const { test, expect, startedJob, waitForJob, openFresh, fillAndCheck } = require('./helpers');

test.use({ colorScheme: 'light' });

async function open(page) {
  const panel = await openFresh(page, 'cover', ['dancer.cover.problem']);
  await expect(panel.getByRole('heading', { name: 'Exact cover' })).toBeVisible();
  return panel;
}

test("Knuth's toy problem: 1 solution, its option lines and statistics", async ({ page, request }) => {
  const panel = await open(page);
  const text = panel.getByLabel('Problem (DLX format)');
  await text.fill('');
  await panel.getByRole('button', { name: 'Load toy problem' }).click();
  await expect(text).toHaveValue(/A B C D E \| F G/);
  await expect(panel.locator('#cover-check')).toHaveText(/No errors: 5 primary items, 2 secondary, 6 options\./);

  const id = await startedJob(page, () => panel.getByRole('button', { name: 'List solutions' }).click());
  await expect(panel.locator('#cover-state')).toHaveText('Complete: 1 solution.');
  const sols = panel.getByRole('list', { name: 'Solutions' }).locator(':scope > li');
  await expect(sols).toHaveCount(1);
  const lines = (await sols.first().locator('code').allTextContents()).sort();
  expect(lines).toEqual(['A D', 'B G', 'C E F']);
  // the final statistics
  const table = panel.getByRole('table', { name: 'Statistics' });
  await expect(table.locator('[data-stat="status"]')).toHaveText('complete');
  await expect(table.locator('[data-stat="solutions"]')).toHaveText('1');
  expect(Number(await table.locator('[data-stat="nodes"]').textContent())).toBeGreaterThan(0);
  expect(Number((await table.locator('[data-stat="updates"]').textContent()).replace(/,/g, ''))).toBeGreaterThan(0);
  await expect(table.locator('[data-stat="engine"]')).toHaveText(/^(dlx|dlxm|bitset|bitmrv)$/);
  await expect(table.locator('[data-stat="time"]')).toHaveText(/\d/);
  const job = await waitForJob(request, id);
  expect(job.summary.solutions).toBe(1);

  // Count: the number, no list
  await panel.getByRole('button', { name: 'Count' }).click();
  await expect(panel.locator('#cover-state')).toHaveText('Complete: 1 solution.');
  await expect(sols).toHaveCount(0);
});

test("a bad problem's error is shown at its line and column", async ({ page }) => {
  const panel = await open(page);
  const text = panel.getByLabel('Problem (DLX format)');
  const check = panel.locator('#cover-check');
  await fillAndCheck(text, '| a comment\nA B | X\nA X:red\nB Q\n', check, ['line 4, column 3', 'unknown item "Q"']);
  await expect(text).toHaveAttribute('aria-invalid', 'true');
  await panel.getByRole('button', { name: 'Go to line 4' }).click();
  await expect(text).toBeFocused();
  await expect(panel.locator('#cover-pos')).toHaveText('Line 4, column 3');
  // solving it anyway: refused, with the same place
  await panel.getByRole('button', { name: 'List solutions' }).click();
  await expect(panel.locator('#cover-state')).toContainText('line 4, column 3');
  // fixed
  await text.fill('A B | X\nA X:red\nB\n');
  await expect(check).toHaveText(/No errors: 2 primary items, 1 secondary, 2 options\./);
  await expect(text).not.toHaveAttribute('aria-invalid', /.*/);
});

test('a problem is uploaded from a file', async ({ page }) => {
  const panel = await open(page);
  await panel.getByLabel('Upload a file').setInputFiles({
    name: 'pairs.dlx', mimeType: 'text/plain', buffer: Buffer.from('a b c d\na b\nc d\na c\nb d\na d\nb c\n'),
  });
  await expect(panel.getByLabel('Problem (DLX format)')).toHaveValue(/^a b c d\n/);
  await expect(panel.locator('#cover-check')).toHaveText(/No errors: 4 primary items, 0 secondary, 6 options\./);
  await panel.getByRole('button', { name: 'List solutions' }).click();
  await expect(panel.locator('#cover-state')).toHaveText('Complete: 3 solutions.');
  await expect(panel.getByRole('list', { name: 'Solutions' }).locator(':scope > li')).toHaveCount(3);
});

/** The perfect matchings of the complete graph on n vertices: (n-1)!! of them. */
function matchings(n) {
  const items = Array.from({ length: n }, (_, i) => `v${i}`);
  const lines = [items.join(' ')];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) lines.push(`v${i} v${j}`);
  return lines.join('\n') + '\n';
}

test('a long count shows its progress moving and is cancelled', async ({ page, request }) => {
  const panel = await open(page);
  await panel.getByLabel('Problem (DLX format)').fill(matchings(40));
  await expect(panel.locator('#cover-check')).toContainText('780 options');
  const id = await startedJob(page, () => panel.getByRole('button', { name: 'Count' }).click());
  const nodes = async () => Number(((await panel.locator('.stats [data-stat="nodes"]').textContent()) || '').replace(/[^0-9]/g, ''));
  await expect.poll(nodes, { timeout: 20_000 }).toBeGreaterThan(0);
  const first = await nodes();
  await expect.poll(nodes, { timeout: 20_000 }).toBeGreaterThan(first);
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.locator('#cover-state')).toHaveText(/cancelled/i);
  await expect(panel.getByRole('table', { name: 'Statistics' }).locator('[data-stat="status"]')).toHaveText('cancelled');
  const job = await waitForJob(request, id, { timeout: 5_000 });
  expect(job.summary.status).toBe('cancelled');
});

test('the toy problem is solved with the keyboard alone', async ({ page }) => {
  const panel = await open(page);
  await panel.getByRole('button', { name: 'Load toy problem' }).focus();
  await page.keyboard.press('Enter');
  await expect(panel.locator('#cover-check')).toContainText('No errors');
  // Tab on to "List solutions" and press Space
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.textContent === 'List solutions');
  }
  expect(reached, 'Tab reaches List solutions').toBe(true);
  await page.keyboard.press('Space');
  await expect(panel.locator('#cover-state')).toHaveText('Complete: 1 solution.');
});
