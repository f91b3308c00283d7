// The Polyforms tab (assets/poly/): a catalogue puzzle solved and its
// pictures shown and paged; a long solve's progress moving, then cancelled
// (and the server's job really cancelled); a TOML error shown at its line;
// a 3D puzzle's isometric view turned by button and by key; the tab at
// 375 px, with a screenshot.
const { test, expect, shot, startedJob, waitForJob, openFresh, fillAndCheck } = require('./helpers');

test.use({ colorScheme: 'light' });

/** Opens the tab afresh (no saved editor text) and waits for the catalogue. */
async function open(page) {
  const panel = await openFresh(page, 'poly', ['dancer.poly.toml', 'dancer.poly.name']);
  await expect(panel.getByLabel('Catalogue puzzle').locator('option')).not.toHaveCount(1);
  // the first puzzle is loaded into the editor and checked: a fill before
  // that could land between its select-all and its typing, and be appended
  // to the puzzle instead of replacing it
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  return panel;
}

/** Picks a catalogue puzzle and waits until its TOML is checked. */
async function pick(panel, name) {
  await panel.getByLabel('Catalogue puzzle').selectOption(name);
  await expect(panel.locator('#poly-check')).toContainText('No errors');
}

/**
 * Puts into the editor a puzzle whose search runs for minutes, so that a
 * job cannot end before a test cancels it (ypent-5x5x5's took a second and
 * a half, and a cancel sometimes came after it): the 35 hexominoes cannot
 * tile a rectangle, but the search takes long to find that out.
 */
async function loadLong(panel) {
  const toml = 'name = "long"\n[board]\nrect = [15, 14]\n[[piece]]\nset = "hexominoes"\n';
  await fillAndCheck(panel.getByLabel('Puzzle (TOML)'), toml, panel.locator('#poly-check'), ['No errors']);
}

/** A number shown in the live statistics (data-stat = name). */
async function stat(panel, name) {
  const t = await panel.locator(`#poly-stats [data-stat="${name}"]`).textContent();
  return Number((t || '').replace(/[^0-9]/g, ''));
}

test('a catalogue puzzle is solved and its solutions shown as pictures', async ({ page, request }) => {
  const panel = await open(page);
  await pick(panel, 'pentomino-3x20');
  // the editor holds the puzzle's TOML and the board and pieces are drawn
  await expect(panel.getByLabel('Puzzle (TOML)')).toHaveValue(/\[board\]/);
  const preview = panel.getByRole('img', { name: /board and pieces/i });
  await expect(preview).toBeVisible();
  await expect(panel.getByRole('checkbox', { name: 'Unique up to symmetry' })).toBeChecked();

  const id = await startedJob(page, () => panel.getByRole('button', { name: 'Solve' }).click());
  // 2 solutions up to symmetry (8 in all)
  await expect(panel.locator('#poly-state')).toHaveText(/Complete: 2 solutions up to symmetry \(8 in all\)/);
  const job = await waitForJob(request, id);
  expect(job.summary.status).toBe('complete');
  expect(job.summary.unique).toBe(2);
  expect(job.summary.solutions).toBe(8);

  const pic = panel.getByRole('img', { name: /^Solution 1/ });
  await expect(pic).toBeVisible();
  const src = await pic.getAttribute('src');
  expect(src.startsWith('data:image/svg+xml')).toBe(true);
  expect(decodeURIComponent(src)).toContain('<svg');
  // the picture really drew (an image that failed to load has no size)
  await expect.poll(() => pic.evaluate((img) => img.complete && img.naturalWidth)).toBeGreaterThan(50);
  await expect(panel.getByText('Solution 1 of 2')).toBeVisible();

  // page by button, and by the arrow keys on the picture
  await panel.getByRole('button', { name: 'Next solution' }).click();
  await expect(panel.getByText('Solution 2 of 2')).toBeVisible();
  const second = await panel.getByRole('img', { name: /^Solution 2/ }).getAttribute('src');
  expect(second).not.toBe(src);
  await expect(panel.getByRole('button', { name: 'Next solution' })).toBeDisabled();
  await panel.getByRole('group', { name: /Solutions \(arrow keys/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(panel.getByText('Solution 1 of 2')).toBeVisible();
  // no isometric view for a flat puzzle
  await expect(panel.getByRole('region', { name: 'Isometric view' })).toBeHidden();

  // downloads: the current solution as SVG, all as NDJSON
  const [svgFile] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download SVG' }).click()]);
  expect(svgFile.suggestedFilename()).toMatch(/solution-00001\.svg$/);
  const [nd] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download NDJSON' }).click()]);
  const text = require('node:fs').readFileSync(await nd.path(), 'utf8').trim().split('\n');
  expect(text).toHaveLength(2);
  const rec = JSON.parse(text[0]);
  expect(rec.placements).toHaveLength(12);
  expect(rec.svg).toBeUndefined();
});

test('Count counts without pictures', async ({ page }) => {
  const panel = await open(page);
  await pick(panel, 'pentomino-3x20');
  await panel.getByRole('checkbox', { name: 'Unique up to symmetry' }).uncheck();
  await panel.getByRole('button', { name: 'Count' }).click();
  await expect(panel.locator('#poly-state')).toHaveText(/Complete: 8 solutions\./);
  await expect(panel.getByRole('img', { name: /^Solution/ })).toHaveCount(0);
});

test('a long solve shows its progress moving and is cancelled', async ({ page, request }) => {
  const panel = await open(page);
  await loadLong(panel);
  const id = await startedJob(page, () => panel.getByRole('button', { name: 'Solve' }).click());
  await expect(panel.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  await expect(panel.getByRole('button', { name: 'Solve' })).toBeDisabled();
  // the nodes move, twice
  await expect.poll(() => stat(panel, 'nodes'), { timeout: 20_000 }).toBeGreaterThan(0);
  const first = await stat(panel, 'nodes');
  await expect.poll(() => stat(panel, 'nodes'), { timeout: 20_000 }).toBeGreaterThan(first);
  await expect(panel.locator('#poly-stats [data-stat="elapsed"]')).toHaveText(/\d/);
  const running = await waitForJob(request, id, { state: 'running', timeout: 5_000 });
  expect(running.state).toBe('running');

  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.locator('#poly-state')).toHaveText(/cancelled/i);
  await expect(panel.locator('#poly-state')).toHaveAttribute('data-status', 'cancelled');
  await expect(panel.getByRole('button', { name: 'Solve' })).toBeEnabled();
  const job = await waitForJob(request, id, { timeout: 5_000 });
  expect(job.summary.status).toBe('cancelled');
});

test('closing the tab cancels its running job', async ({ page, request }) => {
  const panel = await open(page);
  await loadLong(panel);
  const id = await startedJob(page, () => panel.getByRole('button', { name: 'Count' }).click());
  await waitForJob(request, id, { state: 'running', timeout: 5_000 });
  // the page follows it: its progress arrives (the stream is open)
  await expect.poll(() => stat(panel, 'nodes'), { timeout: 20_000 }).toBeGreaterThan(0);
  await page.close();
  // the last listener of its events went away: the server cancels the job
  const job = await waitForJob(request, id, { timeout: 5_000 });
  expect(job.summary.status).toBe('cancelled');
});

test('a TOML error is shown at its line', async ({ page }) => {
  const panel = await open(page);
  const editor = panel.getByLabel('Puzzle (TOML)');
  const check = panel.locator('#poly-check');
  const toml = 'name = "bad"\n[board]\nrect = [4, 4]\n\n[[piece]]\nname = "NoSuchPiece"\n';
  await fillAndCheck(editor, toml, check, ['line 5', 'NoSuchPiece']);
  // the line is marked in the gutter, and a button goes there
  await expect(panel.locator('.gutter .bad')).toHaveText('5');
  await panel.getByRole('button', { name: 'Go to line 5' }).click();
  await expect(editor).toBeFocused();
  await expect(panel.locator('#poly-pos')).toHaveText(/^Line 5, column 1$/);
  const selected = await editor.evaluate((t) => t.value.slice(t.selectionStart, t.selectionEnd));
  expect(selected).toBe('[[piece]]');

  // a syntax error, at its line and column
  await editor.fill('name = "bad"\n[board]\nrect = [4, 4\n');
  await expect(check).toContainText('line 3, column 13');
  await expect(panel.locator('.gutter .bad')).toHaveText('3');
  // fixed: the error goes, the board is drawn
  await editor.fill('name = "ok"\n[board]\nrect = [4, 5]\n[[piece]]\nset = "tetrominoes"\n');
  await expect(check).toContainText('No errors');
  await expect(panel.locator('.gutter .bad')).toHaveCount(0);
  await expect(panel.getByRole('img', { name: /board and pieces/i })).toBeVisible();
});

test("a 3D puzzle's isometric view turns", async ({ page }) => {
  const panel = await open(page);
  await pick(panel, 'soma');
  await panel.getByLabel('Limit').fill('2');
  await panel.getByRole('button', { name: 'Solve' }).click();
  await expect(panel.locator('#poly-state')).toHaveText(/Stopped at the limit|Complete/);
  // the layers (the server's picture) and the isometric view
  await expect(panel.getByRole('img', { name: /^Solution 1, its layers/ })).toBeVisible();
  const view = panel.getByRole('img', { name: /^Isometric view of solution 1/ });
  await expect(view).toBeVisible();
  const faces = view.locator('svg polygon');
  expect(await faces.count()).toBeGreaterThan(20);
  const picture = () => view.locator('svg').evaluate((s) => s.innerHTML);
  const before = await picture();
  await panel.getByRole('button', { name: 'Turn right' }).click();
  await expect.poll(picture).not.toBe(before);
  const turned = await picture();
  await expect(view).toHaveAttribute('aria-label', /turned 50°/);
  // by keyboard: arrows on the focused picture
  await view.focus();
  await page.keyboard.press('ArrowUp');
  await expect.poll(picture).not.toBe(turned);
  await expect(view).toHaveAttribute('aria-label', /tilted 40°/);
  await page.keyboard.press('ArrowLeft');
  await expect(view).toHaveAttribute('aria-label', /turned 35°/);
  // the next solution is drawn too, with a different picture
  const now = await picture();
  await panel.getByRole('button', { name: 'Next solution' }).click();
  const view2 = panel.getByRole('img', { name: /^Isometric view of solution 2/ });
  await expect(view2).toBeVisible();
  expect(await view2.locator('svg').evaluate((s) => s.innerHTML)).not.toBe(now);
});

test('the Polyforms tab at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const panel = await open(page);
  await pick(panel, 'scott');
  await panel.getByLabel('Limit').fill('1');
  await panel.getByRole('button', { name: 'Solve' }).click();
  await expect(panel.locator('#poly-state')).toHaveText(/Stopped at the limit: 1 solution up to symmetry/);
  await expect(panel.getByRole('img', { name: /^Solution 1/ })).toBeVisible();
  for (const name of ['Solve', 'Count', 'Cancel', 'Next solution', 'Download PNG']) {
    await expect(panel.getByRole('button', { name })).toBeVisible();
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no horizontal scrolling at 375 px').toBeLessThanOrEqual(0);
  await shot(page, 'poly-375', { fullPage: true });
});
