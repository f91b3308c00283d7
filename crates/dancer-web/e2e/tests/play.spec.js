// The Play Sudoku tab (assets/sudoku/play.js): a generated easy puzzle
// played to the end with hints only; pencil marks, undo and redo; a reload
// restores the game; a share link opens the same puzzle; a pasted puzzle is
// checked at once (invalid: why; several solutions; none); keyboard-only
// play; variants and sizes; check, reveal, export and import; 375 px.
const fs = require('node:fs');
const { test, expect, shot, apiAnswer } = require('./helpers');

test.use({ colorScheme: 'light' });

const PUZZLE = '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......';

/** Opens the Play tab with no saved game; waits for the new puzzle's grid. */
async function open(page, hash = '#play') {
  // a tab that makes no game, to clear what an earlier test saved
  await page.goto('/#solve');
  await page.evaluate(() => localStorage.clear());
  await page.goto('/' + hash);
  const panel = page.locator('#tab-play');
  await expect(panel.getByRole('grid')).toBeVisible();
  await expect(panel.locator('[data-cell]')).not.toHaveCount(0);
  return panel;
}

const cell = (panel, i) => panel.locator(`[data-cell="${i}"]`);

/** The grid as the page shows it: one character per cell ('.' for empty). */
async function gridText(panel) {
  return panel.locator('[data-cell]').evaluateAll((cells) =>
    cells.map((c) => (c.querySelector('.digit') ? c.querySelector('.digit').textContent : '.')).join(''));
}

/** Starts `puzzle` through "Your own puzzle". */
async function playOwn(page, panel, puzzle, rules = 'none') {
  await panel.getByLabel('Rules').selectOption(rules);
  await panel.getByLabel('Puzzle', { exact: true }).fill(puzzle);
  await expect(panel.locator('#play-own-status')).toHaveText(/One solution/);
  await apiAnswer(page, 'POST', '/api/sudoku/game', () => panel.getByRole('button', { name: 'Play this puzzle' }).click());
  await expect.poll(() => gridText(panel)).toBe(puzzle);
}

test('a generated easy puzzle is played to the end with hints only', async ({ page }) => {
  const panel = await open(page);
  await panel.getByLabel('Level').selectOption('easy');
  const rec = await apiAnswer(page, 'POST', '/api/sudoku/new', () => panel.getByRole('button', { name: 'New puzzle' }).click());
  expect(rec.level).toBe('easy');
  await expect.poll(() => gridText(panel)).toBe(rec.puzzle);
  await expect(panel.locator('#play-rating')).toHaveText(new RegExp(`SE ${rec.rating.toFixed(1)} \\(easy\\)`));
  const hintBox = panel.getByRole('region', { name: 'Hint' });
  let steps = 0;
  while (!(await panel.locator('#play-solved').textContent())) {
    // first the nudge: the technique and where to look, nothing drawn yet
    await panel.getByRole('button', { name: 'Hint' }).click();
    await expect(hintBox).toHaveAttribute('data-status', 'nudge');
    await expect(hintBox).toContainText(/Look at/);
    await expect(panel.locator('.cell.place, .cell.elim')).toHaveCount(0);
    // then the step, drawn on the grid, and applied
    await hintBox.getByRole('button', { name: 'Show the step' }).click();
    await expect(hintBox).toHaveAttribute('data-status', 'step');
    expect(await panel.locator('.cell.place, .cell.elim').count()).toBeGreaterThan(0);
    await apiAnswer(page, 'POST', '/api/sudoku/game', () => hintBox.getByRole('button', { name: 'Apply this step' }).click());
    await expect(hintBox).toBeHidden();
    steps++;
    expect(steps, 'an easy puzzle takes fewer than 100 steps').toBeLessThan(100);
  }
  await expect(panel.locator('#play-solved')).toHaveText(/^Solved in \d+:\d\d!$/);
  expect(await gridText(panel)).toBe(rec.solution);
  // a solved game: no more hints, and it stays solved on reload
  await expect(panel.getByRole('button', { name: 'Hint' })).toBeDisabled();
  await page.reload();
  await expect(page.locator('#play-solved')).toHaveText(/^Solved in/);
});

test('pencil marks, undo and redo', async ({ page }) => {
  const panel = await open(page);
  await playOwn(page, panel, PUZZLE);
  const c = cell(panel, 1);
  await c.click();
  await panel.getByRole('button', { name: 'Pencil marks' }).click();
  await expect(panel.getByRole('button', { name: 'Pencil marks' })).toHaveAttribute('aria-pressed', 'true');
  await panel.getByRole('button', { name: 'Digit 2', exact: true }).click();
  await panel.getByRole('button', { name: 'Digit 6', exact: true }).click();
  await expect(c).toHaveAttribute('aria-label', /marks 2 6/);
  await panel.getByRole('button', { name: 'Undo' }).click();
  await expect(c).toHaveAttribute('aria-label', /marks 2(,|$)/);
  await panel.getByRole('button', { name: 'Redo' }).click();
  await expect(c).toHaveAttribute('aria-label', /marks 2 6/);
  await expect(panel.getByRole('button', { name: 'Redo' })).toBeDisabled();
  // a digit over the marks, then Ctrl+Z and Ctrl+Y from the keyboard
  await panel.getByRole('button', { name: 'Pencil marks' }).click();
  await c.click();
  await page.keyboard.press('7');
  await expect(c).toHaveAttribute('aria-label', /^r1c2, 7, entered/);
  await page.keyboard.press('Control+z');
  await expect(c).toHaveAttribute('aria-label', /^r1c2, empty, marks 2 6/);
  await page.keyboard.press('Control+y');
  await expect(c).toHaveAttribute('aria-label', /^r1c2, 7, entered/);
  // fill in every candidate (one undo), clear them all
  await page.keyboard.press('Backspace');
  await panel.getByRole('button', { name: 'Fill in candidates' }).click();
  const marked = () => panel.locator('.cell .marks').count();
  await expect.poll(marked).toBeGreaterThan(50);
  await panel.getByRole('button', { name: 'Clear marks' }).click();
  await expect.poll(marked).toBe(0);
  await panel.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(marked).toBeGreaterThan(50);
  // conflicts are marked: 4 again in row 1 (r1c1 holds a given 4)
  await cell(panel, 2).click();
  await page.keyboard.press('4');
  await expect(cell(panel, 2)).toHaveClass(/conflict/);
  await expect(cell(panel, 0)).toHaveClass(/conflict/);
  // the selected digit and the cells that see the selected cell are shaded
  await cell(panel, 0).click();
  await expect(cell(panel, 2)).toHaveClass(/same/);
  await expect(cell(panel, 9)).toHaveClass(/peer/);
  await expect(cell(panel, 80)).not.toHaveClass(/peer/);
});

test('a reload restores the game, its marks, history and clock', async ({ page }) => {
  const panel = await open(page);
  await playOwn(page, panel, PUZZLE);
  await cell(panel, 1).click();
  await page.keyboard.press('6');
  await cell(panel, 2).click();
  await page.keyboard.press('Shift+3');
  await expect(cell(panel, 2)).toHaveAttribute('aria-label', /marks 3/);
  await page.waitForTimeout(1200);
  await page.reload();
  const again = page.locator('#tab-play');
  await expect(cell(again, 1)).toHaveAttribute('aria-label', /^r1c2, 6, entered/);
  await expect(cell(again, 2)).toHaveAttribute('aria-label', /marks 3/);
  await expect(again.getByRole('timer')).not.toHaveText('0:00');
  // the history came back too
  await again.getByRole('button', { name: 'Undo' }).click();
  await expect(cell(again, 2)).toHaveAttribute('aria-label', /^r1c3, empty$/);
});

test('a share link opens the same puzzle', async ({ page, browser, baseURL }) => {
  const panel = await open(page);
  const rec = await apiAnswer(page, 'POST', '/api/sudoku/new', async () => {
    await panel.getByLabel('Variant').selectOption('diagonal');
    await panel.getByRole('button', { name: 'New puzzle' }).click();
  });
  await expect.poll(() => gridText(panel)).toBe(rec.puzzle);
  await panel.getByRole('button', { name: 'Share link' }).click();
  const url = await panel.getByLabel('Link to this puzzle').inputValue();
  expect(url).toContain('#play?');
  expect(url).toContain('v=diagonal');
  // a new browser, nothing saved: the link opens that puzzle, diagonal
  const other = await browser.newContext({ baseURL });
  try {
    const p2 = await other.newPage();
    await p2.goto(url);
    const panel2 = p2.locator('#tab-play');
    await expect.poll(() => gridText(panel2)).toBe(rec.puzzle);
    await expect(panel2.locator('.cell.diag')).toHaveCount(17);
  } finally {
    await other.close();
  }
});

test('a pasted puzzle is checked at once: invalid says why', async ({ page }) => {
  const panel = await open(page);
  const box = panel.getByLabel('Puzzle', { exact: true });
  const status = panel.locator('#play-own-status');
  const play = panel.getByRole('button', { name: 'Play this puzzle' });
  await box.fill('88' + '.'.repeat(79));
  await expect(status).toHaveText(/Invalid: .*8.*r1c2/);
  await expect(play).toBeDisabled();
  await box.fill('123');
  await expect(status).toHaveText(/Invalid: wrong length: 3 cells/);
  await box.fill('.'.repeat(81));
  await expect(status).toHaveText(/Several solutions/);
  await expect(play).toBeDisabled();
  await box.fill('12345678.........9' + '.'.repeat(63));
  await expect(status).toHaveText(/No solution/);
  await box.fill(PUZZLE);
  await expect(status).toHaveText(/One solution/);
  await expect(play).toBeEnabled();
  await play.click();
  await expect.poll(() => gridText(panel)).toBe(PUZZLE);
  // its rating comes from the server
  await expect(panel.locator('#play-rating')).toHaveText(/SE 2\.6 \(medium\)/);
});

test('keyboard-only play', async ({ page }) => {
  const panel = await open(page);
  await playOwn(page, panel, PUZZLE);
  // from the top of the page (the skip link), Tab reaches the grid
  await page.locator('.skip').focus();
  let inGrid = false;
  for (let i = 0; i < 20 && !inGrid; i++) {
    await page.keyboard.press('Tab');
    inGrid = await page.evaluate(() => !!document.activeElement?.closest('[role=grid]'));
  }
  expect(inGrid, 'Tab reaches the grid').toBe(true);
  const focused = () => page.evaluate(() => Number(document.activeElement.dataset.cell));
  // the first empty cell has the focus; arrows move it
  expect(await focused()).toBe(1);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  expect(await focused()).toBe(11);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  expect(await focused()).toBe(1);
  await page.keyboard.press('5');
  await expect(cell(panel, 1)).toHaveAttribute('aria-label', /^r1c2, 5, entered/);
  await page.keyboard.press('Backspace');
  await expect(cell(panel, 1)).toHaveAttribute('aria-label', /^r1c2, empty/);
  // P switches to pencil marks
  await page.keyboard.press('p');
  await page.keyboard.press('2');
  await page.keyboard.press('9');
  await expect(cell(panel, 1)).toHaveAttribute('aria-label', /marks 2 9/);
  await page.keyboard.press('p');
  await page.keyboard.press('Control+z');
  await expect(cell(panel, 1)).toHaveAttribute('aria-label', /marks 2(,|$)/);
  // a given cannot be changed; the page says so
  await page.keyboard.press('ArrowLeft');
  expect(await focused()).toBe(0);
  await page.keyboard.press('7');
  await expect(panel.locator('#play-msg')).toHaveText(/r1c1 is a given/);
  await expect(cell(panel, 0)).toHaveAttribute('aria-label', /^r1c1, 4, given/);
  // Check from the keyboard: Tab to the button, Enter
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('2');
  const check = panel.getByRole('button', { name: 'Check' });
  await check.focus();
  await page.keyboard.press('Enter');
  await expect(panel.locator('#play-msg')).toHaveText(/1 digit is not the solution's/);
  await expect(cell(panel, 1)).toHaveClass(/wrong/);
});

test('variants and sizes: diagonal, windoku, 4x4, 6x6 and 16x16', async ({ page }) => {
  const panel = await open(page);
  const start = async (size, variant) => {
    await panel.getByLabel('Size').selectOption(String(size));
    await panel.getByLabel('Variant').selectOption(variant);
    const rec = await apiAnswer(page, 'POST', '/api/sudoku/new', () => panel.getByRole('button', { name: 'New puzzle' }).click());
    await expect.poll(() => gridText(panel)).toBe(rec.puzzle);
    return rec;
  };
  await start(9, 'windoku');
  await expect(panel.locator('.cell.win')).toHaveCount(36);
  await expect(panel.locator('#play-rating')).toHaveText(/none/);
  await start(9, 'diagonal');
  await expect(panel.locator('.cell.diag')).toHaveCount(17);
  // a digit twice on a diagonal is a conflict: find two empty diagonal cells
  const line = await gridText(panel);
  const diag = [0, 10, 20, 30, 40, 50, 60, 70, 80].filter((c) => line[c] === '.');
  const a = diag.find((x) => diag.some((y) => Math.floor(x / 27) !== Math.floor(y / 27)));
  const b = diag.find((y) => Math.floor(a / 27) !== Math.floor(y / 27));
  await cell(panel, a).click();
  await page.keyboard.press('9');
  await cell(panel, b).click();
  await page.keyboard.press('9');
  await expect(cell(panel, b)).toHaveClass(/conflict/);
  // hints are for plain 9x9: the page says so
  await panel.getByRole('button', { name: 'Hint' }).click();
  await expect(panel.getByRole('region', { name: 'Hint' })).toContainText('plain 9x9');
  for (const n of [4, 6, 16]) {
    const rec = await start(n, 'none');
    expect(rec.puzzle).toHaveLength(n * n);
    await expect(panel.locator('[data-cell]')).toHaveCount(n * n);
    await expect(panel.locator('.pad button[data-digit]')).toHaveCount(n);
  }
  // a 16x16 digit by letter: G is 16
  const line16 = await gridText(panel);
  const empty = [...line16].findIndex((ch) => ch === '.');
  await cell(panel, empty).click();
  await page.keyboard.press('g');
  await expect(cell(panel, empty)).toHaveAttribute('aria-label', /, G, entered/);
});

test('check, reveal, export and import', async ({ page }) => {
  const panel = await open(page);
  await playOwn(page, panel, PUZZLE);
  await cell(panel, 1).click();
  await page.keyboard.press('9');
  await panel.getByRole('button', { name: 'Reveal cell' }).click();
  await expect(cell(panel, 1)).toHaveAttribute('aria-label', /^r1c2, 1, entered/);
  await cell(panel, 2).click();
  await page.keyboard.press('8');
  // the entry is in the game before it is exported (else the export can
  // race it, and the import then brings back a game without it)
  await expect(cell(panel, 2)).toHaveAttribute('aria-label', /^r1c3, 8, entered/);
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Export game' }).click()]);
  expect(download.suggestedFilename()).toBe('sudoku-game.json');
  const file = await download.path();
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(doc.format).toBe('dancer-sudoku-game');
  // another game replaces it, then the import brings it back
  await panel.getByRole('button', { name: 'Reveal all' }).click();
  await expect(panel.locator('#play-solved')).toHaveText('The solution, revealed.');
  await panel.locator('#play-import').setInputFiles(file);
  await expect(panel.locator('#play-msg')).toHaveText(/Game imported/);
  await expect(cell(panel, 2)).toHaveAttribute('aria-label', /^r1c3, 8, entered/);
  await expect(panel.locator('#play-solved')).toHaveText('');
  // a damaged file is refused with a reason
  fs.writeFileSync(file, JSON.stringify({ ...doc, game: doc.game.replace('"size":9', '"size":5') }));
  await panel.locator('#play-import').setInputFiles(file);
  await expect(panel.locator('#play-msg')).toHaveText(/not a saved game/);
  await expect(cell(panel, 2)).toHaveAttribute('aria-label', /^r1c3, 8, entered/);
});

test('the Play tab at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const panel = await open(page);
  await playOwn(page, panel, PUZZLE);
  await panel.getByRole('button', { name: 'Fill in candidates' }).click();
  await cell(panel, 1).click();
  const grid = await panel.getByRole('grid').boundingBox();
  expect(grid.width).toBeLessThanOrEqual(375);
  expect(grid.width, 'the grid uses most of the width').toBeGreaterThan(300);
  for (const name of ['Digit 1', 'Digit 9', 'Erase', 'Undo', 'Hint']) {
    await expect(panel.getByRole('button', { name, exact: true })).toBeVisible();
  }
  // a tap enters a digit
  await cell(panel, 2).tap().catch(() => cell(panel, 2).click());
  await panel.getByRole('button', { name: 'Digit 2', exact: true }).click();
  await expect(cell(panel, 2)).toHaveAttribute('aria-label', /^r1c3, 2, entered/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no horizontal scrolling at 375 px').toBeLessThanOrEqual(0);
  await shot(page, 'play-375', { fullPage: false });
});

test('the Play tab on a desktop, with a hint shown', async ({ page }) => {
  await page.setViewportSize({ width: 1200, height: 860 });
  const panel = await open(page);
  await playOwn(page, panel, PUZZLE);
  await panel.getByRole('button', { name: 'Fill in candidates' }).click();
  await panel.getByRole('button', { name: 'Hint' }).click();
  await panel.getByRole('button', { name: 'Show the step' }).click();
  await expect(panel.getByRole('region', { name: 'Hint' })).toHaveAttribute('data-status', 'step');
  await shot(page, 'play-desktop');
});
