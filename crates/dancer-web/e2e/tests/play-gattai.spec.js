// The Play tab's gattai games (assets/sudoku/play.js, board.js): a
// twodoku from the generator (the canvas drawn with its dead cells blank
// and not selectable; a digit, undo; a hint applied; a reload restores
// it; the share link opens the same game), a pasted line under the rules
// "Samurai / gattai", and a twodoku at 375 px scrolling in its own box,
// never the page. Screenshots go to $PLAY_SCREENS when it is set.
const path = require('node:path');
const { test, expect, apiAnswer } = require('./helpers');

test.use({ colorScheme: 'light' });

async function open(page, hash = '#play') {
  await page.goto('/#solve');
  await page.evaluate(() => localStorage.clear());
  await page.goto('/' + hash);
  const panel = page.locator('#tab-play');
  await expect(panel.getByRole('grid')).toBeVisible();
  await expect(panel.locator('[data-cell]')).not.toHaveCount(0);
  return panel;
}

const cell = (panel, i) => panel.locator(`[data-cell="${i}"]`);

async function screens(page, name) {
  if (!process.env.PLAY_SCREENS) return;
  await page.screenshot({ path: path.join(process.env.PLAY_SCREENS, `${name}.png`), fullPage: true });
}

test('a twodoku from the generator: canvas, moves, hint, reload, share', async ({ page, browser, baseURL }) => {
  const panel = await open(page);
  await panel.getByLabel('Variant').selectOption('gattai');
  await expect(panel.locator('#play-shape')).toBeEnabled();
  await expect(panel.getByLabel('Size')).toBeDisabled();
  await panel.locator('#play-shape').selectOption('twodoku');
  const rec = await apiAnswer(page, 'POST', '/api/sudoku/game', () => panel.getByRole('button', { name: 'New puzzle' }).click());
  expect(rec.view.kind).toBe('gattai');
  expect(rec.view.shape).toBe('twodoku');
  await expect(panel.locator('[data-cell]')).toHaveCount(15 * 15);
  const dead = rec.view.live.filter((l) => !l).length;
  await expect(panel.locator('.cell.dead')).toHaveCount(dead);
  await expect(panel.locator('.status-line')).toContainText('twodoku');
  await expect(panel.locator('#play-msg')).toHaveText(/A new twodoku/);
  // the generator's rating of the steps across the grids is shown
  expect(typeof rec.result.rating).toBe('number');
  await expect(panel.locator('#play-rating')).toHaveText(`Rating: ${rec.result.rating.toFixed(1)} (${rec.result.level})`);
  await screens(page, 'twodoku-1280');
  // a dead cell is never selected; a live one takes a digit
  const d = rec.view.live.indexOf(false);
  await cell(panel, d).click({ force: true });
  await expect(cell(panel, d)).not.toHaveClass(/sel/);
  const e = rec.view.cells.findIndex((c, i) => rec.view.live[i] && !c.given);
  await cell(panel, e).click();
  await page.keyboard.press('5');
  await expect(cell(panel, e)).toHaveAttribute('aria-label', /, 5, entered/);
  await panel.getByRole('button', { name: 'Undo' }).click();
  await expect(cell(panel, e)).toHaveAttribute('aria-label', /empty/);
  // a hint: nudge, step, applied
  await panel.getByRole('button', { name: 'Hint' }).click();
  const box = panel.getByRole('region', { name: 'Hint' });
  await expect(box).toHaveAttribute('data-status', 'nudge');
  await box.getByRole('button', { name: 'Show the step' }).click();
  await expect(box).toHaveAttribute('data-status', 'step');
  await apiAnswer(page, 'POST', '/api/sudoku/game', () => box.getByRole('button', { name: 'Apply this step' }).click());
  await expect(box).toBeHidden();
  // a reload restores the canvas
  await page.reload();
  const again = page.locator('#tab-play');
  await expect(again.locator('.cell.dead')).toHaveCount(dead);
  // the share link opens the same game elsewhere
  await again.getByRole('button', { name: 'Share link' }).click();
  const url = await again.getByLabel('Link to this puzzle').inputValue();
  expect(url).toContain('#play?g=twodoku');
  const other = await browser.newContext({ baseURL });
  const p2 = await other.newPage();
  await p2.goto(url);
  const panel2 = p2.locator('#tab-play');
  await expect(panel2.locator('.cell.dead')).toHaveCount(dead);
  await expect(panel2.locator('.status-line')).toContainText('twodoku');
  await other.close();
});

test('a pasted gattai line, and a twodoku at 375 px', async ({ page }) => {
  const panel = await open(page);
  const made = await page.request.post('/api/sudoku/game', {
    data: { game: null, action: { type: 'generate', kind: 'gattai', shape: 'flower', seed: 5 } },
  });
  const gen = await made.json();
  const line = gen.view.gattai;
  await panel.getByLabel('Rules').selectOption('gattai');
  await panel.locator('#play-own-shape').selectOption('flower');
  await panel.getByLabel('Puzzle', { exact: true }).fill(line);
  await expect(panel.locator('#play-own-status')).toHaveText(/one solution: ready to play/);
  // New puzzle's shape is its own: changing it leaves the pasted flower be
  await panel.getByLabel('Variant').selectOption('gattai');
  await panel.locator('#play-shape').selectOption('twodoku');
  await expect(panel.locator('#play-own-shape')).toHaveValue('flower');
  await page.waitForTimeout(400);
  await expect(panel.locator('#play-own-status')).toHaveText(/one solution: ready to play/);
  // and the pasted line checked as another shape is refused, saying why
  await panel.locator('#play-own-shape').selectOption('twodoku');
  await expect(panel.locator('#play-own-status')).toHaveText(/cells/);
  await expect(panel.getByRole('button', { name: 'Play this puzzle' })).toBeDisabled();
  await panel.locator('#play-own-shape').selectOption('flower');
  await expect(panel.locator('#play-own-status')).toHaveText(/one solution: ready to play/);
  const own = await apiAnswer(page, 'POST', '/api/sudoku/game', () => panel.getByRole('button', { name: 'Play this puzzle' }).click());
  await expect(panel.locator('.status-line')).toContainText('flower');
  // a pasted line is rated when it starts, as the generator rated it
  expect(own.result.rating).toBe(gen.result.rating);
  await expect(panel.locator('#play-rating')).toHaveText(`Rating: ${gen.result.rating.toFixed(1)} (${gen.result.level})`);
  // a twodoku on a phone: the board scrolls in its box, the page does not
  await page.setViewportSize({ width: 375, height: 812 });
  await panel.getByLabel('Variant').selectOption('gattai');
  await panel.locator('#play-shape').selectOption('twodoku');
  await apiAnswer(page, 'POST', '/api/sudoku/game', () => panel.getByRole('button', { name: 'New puzzle' }).click());
  await expect(panel.locator('.status-line')).toContainText('twodoku');
  await expect(panel.locator('[data-cell]')).toHaveCount(15 * 15);
  const wrap = await panel.locator('.board-wrap').evaluate((w) => [w.scrollWidth, w.clientWidth]);
  expect(wrap[0], 'the canvas scrolls in its own box').toBeGreaterThan(wrap[1]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no horizontal scrolling of the page at 375 px').toBeLessThanOrEqual(0);
  await screens(page, 'twodoku-375');
});
