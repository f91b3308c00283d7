// The Play tab's killer games (assets/sudoku/play.js, board.js): a killer
// pasted as a line and one from the generator; the cages drawn (one sum
// label a cage); a cage's combinations; a digit, a pencil mark, undo; a
// hint shown and applied; check finds a wrong digit; a reload restores the
// game; a share link opens the same killer; 375 px fits. Screenshots go
// to $PLAY_SCREENS when it is set (they are looked at, not compared).
const path = require('node:path');
const { test, expect, apiAnswer } = require('./helpers');

test.use({ colorScheme: 'light' });

/** Opens the Play tab with no saved game; waits for its grid. */
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

/** A killer made by the server's generator: its line, cages and solution. */
async function killer(page, seed) {
  const ask = async (game, action) => {
    const r = await page.request.post('/api/sudoku/game', { data: { game, action } });
    expect(r.status()).toBe(200);
    return r.json();
  };
  const made = await ask(null, { type: 'generate', kind: 'killer', level: 'easy', seed });
  const shown = await ask(made.game, { type: 'reveal' });
  return {
    line: made.view.killer,
    cages: made.view.cages,
    solution: shown.view.cells.map((c) => c.digit),
  };
}

async function screens(page, name) {
  if (!process.env.PLAY_SCREENS) return;
  await page.screenshot({ path: path.join(process.env.PLAY_SCREENS, `${name}.png`), fullPage: true });
}

test('a pasted killer: cages, combinations, moves, hint, check, reload, share', async ({ page, browser, baseURL }) => {
  const panel = await open(page);
  const k = await killer(page, 11);
  await panel.getByLabel('Puzzle', { exact: true }).fill(k.line);
  await expect(panel.getByLabel('Rules')).toHaveValue('killer');
  await expect(panel.locator('#play-own-status')).toHaveText(/one solution: ready to play/);
  const own = await apiAnswer(page, 'POST', '/api/sudoku/game', () => panel.getByRole('button', { name: 'Play this puzzle' }).click());
  // a pasted killer is rated as it starts, on the killer scale
  expect(typeof own.result.rating).toBe('number');
  await expect(panel.locator('#play-rating')).toHaveText(new RegExp(`^Rating: killer ${own.result.rating.toFixed(1)}`));
  // the cages: one outline layer, one sum a cage, each in its first cell's corner
  await expect(panel.locator('.cage-sum')).toHaveCount(k.cages.length);
  await expect(panel.locator('svg.cages path.cage-line')).toHaveCount(1);
  await expect(panel.locator('.status-line')).toContainText('Killer');
  const first = k.cages.find((g) => g.cells.includes(0));
  await expect(cell(panel, 0)).toHaveAttribute('aria-label', new RegExp(`cage of ${first.sum} in ${first.cells.length}`));
  // the combinations of the selected cell's cage
  await cell(panel, 0).click();
  await panel.getByRole('button', { name: 'Cage combinations' }).click();
  const box = panel.getByRole('region', { name: 'Hint' });
  await expect(box).toContainText(`${first.sum} in ${first.cells.length}: `);
  const answer = first.cells.map((c) => k.solution[c]).sort((a, b) => a - b).join('+');
  await expect(box.locator('.fitting')).toContainText(answer);
  await screens(page, 'killer-1280');
  // the key C asks for them too
  await box.getByRole('button', { name: 'Close' }).click();
  await cell(panel, 0).press('c');
  await expect(box).toBeVisible();
  // a digit, a pencil mark, undo
  await cell(panel, 0).click();
  await page.keyboard.press(String(k.solution[0]));
  await expect(cell(panel, 0)).toHaveAttribute('aria-label', new RegExp(`^r1c1, cage of \\d+ in \\d+, ${k.solution[0]}, entered`));
  await cell(panel, 1).click();
  await page.keyboard.press('p');
  await page.keyboard.press('4');
  await expect(cell(panel, 1)).toHaveAttribute('aria-label', /marks 4/);
  await panel.getByRole('button', { name: 'Undo' }).click();
  await expect(cell(panel, 1)).not.toHaveAttribute('aria-label', /marks/);
  await panel.getByRole('button', { name: 'Pencil marks' }).click();
  await expect(panel.getByRole('button', { name: 'Pencil marks' })).toHaveAttribute('aria-pressed', 'false');
  // a hint: the nudge, then the step drawn, then applied
  await panel.getByRole('button', { name: 'Hint' }).click();
  await expect(box).toHaveAttribute('data-status', 'nudge');
  await expect(box).toContainText(/Try .*Look at/);
  await box.getByRole('button', { name: 'Show the step' }).click();
  await expect(box).toHaveAttribute('data-status', 'step');
  await expect(box).toContainText(/killer \d\.\d/);
  expect(await panel.locator('.cell.place, .cell.elim').count()).toBeGreaterThan(0);
  await apiAnswer(page, 'POST', '/api/sudoku/game', () => box.getByRole('button', { name: 'Apply this step' }).click());
  await expect(box).toBeHidden();
  // check finds a wrong digit
  const empty = await panel.locator('[data-cell]').evaluateAll((cs) =>
    cs.findIndex((c) => /empty/.test(c.getAttribute('aria-label'))));
  const wrong = k.solution[empty] === 9 ? 1 : k.solution[empty] + 1;
  await cell(panel, empty).click();
  await page.keyboard.press(String(wrong));
  await panel.getByRole('button', { name: 'Check' }).click();
  await expect(panel.locator('#play-msg')).toHaveText(/1 digit is not the solution's/);
  await expect(cell(panel, empty)).toHaveClass(/wrong/);
  // a reload restores the game: cages, digits
  await page.reload();
  const again = page.locator('#tab-play');
  await expect(again.locator('.cage-sum')).toHaveCount(k.cages.length);
  await expect(cell(again, empty)).toHaveAttribute('aria-label', new RegExp(`, ${wrong}, entered`));
  await expect(cell(again, 0)).toHaveAttribute('aria-label', new RegExp(`, ${k.solution[0]}, entered`));
  // the share link opens the same killer in a browser with nothing saved
  await again.getByRole('button', { name: 'Share link' }).click();
  const url = await again.getByLabel('Link to this puzzle').inputValue();
  expect(url).toContain('#play?k=');
  const other = await browser.newContext({ baseURL });
  const p2 = await other.newPage();
  await p2.goto(url);
  const panel2 = p2.locator('#tab-play');
  await expect(panel2.locator('.cage-sum')).toHaveCount(k.cages.length);
  const sums = (pl) => pl.locator('.cage-sum').allTextContents();
  expect(await sums(panel2)).toEqual(await sums(again));
  await expect(cell(panel2, empty)).toHaveAttribute('aria-label', /empty/);
  await other.close();
});

test('a killer from the generator, by level', async ({ page }) => {
  const panel = await open(page);
  await panel.getByLabel('Variant').selectOption('killer');
  await expect(panel.getByLabel('Size')).toBeDisabled();
  await panel.getByLabel('Level').selectOption('medium');
  const rec = await apiAnswer(page, 'POST', '/api/sudoku/game', () => panel.getByRole('button', { name: 'New puzzle' }).click());
  expect(rec.view.kind).toBe('killer');
  expect(rec.result.level).toBe('medium');
  await expect(panel.locator('.cage-sum')).toHaveCount(rec.view.cages.length);
  await expect(panel.locator('#play-rating')).toHaveText(new RegExp(`killer ${rec.result.rating.toFixed(1)} \\(medium\\)`));
  await expect(panel.locator('#play-msg')).toHaveText(/A new medium killer/);
  // the sums drawn are the cages' sums
  const drawn = (await panel.locator('.cage-sum').allTextContents()).map(Number).sort((a, b) => a - b);
  expect(drawn).toEqual(rec.view.cages.map((g) => g.sum).sort((a, b) => a - b));
  // a plain game hides the killer's tools again
  await panel.getByLabel('Variant').selectOption('none');
  await apiAnswer(page, 'POST', '/api/sudoku/new', () => panel.getByRole('button', { name: 'New puzzle' }).click());
  await expect(panel.locator('.cage-sum')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Cage combinations' })).toBeHidden();
});

test('a killer at 375 px fits the page', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const panel = await open(page);
  const k = await killer(page, 12);
  await page.goto(`/#play?k=${encodeURIComponent(k.line)}`);
  await expect(panel.locator('.cage-sum')).toHaveCount(k.cages.length);
  await panel.getByRole('button', { name: 'Fill in candidates' }).click();
  await cell(panel, 40).click();
  const grid = await panel.getByRole('grid').boundingBox();
  expect(grid.width).toBeLessThanOrEqual(375);
  expect(grid.width, 'the grid uses most of the width').toBeGreaterThan(300);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no horizontal scrolling at 375 px').toBeLessThanOrEqual(0);
  await screens(page, 'killer-375');
});
