// The Solve Sudoku tab (assets/sudoku/solve.js): many puzzles pasted and
// solved, counted and rated in input order (an invalid line says why); an
// answer drawn on the grid; the full logical solution path, step by step,
// each step drawn (candidates, the step's cells, eliminations struck out).
const { test, expect, apiAnswer, openFresh } = require('./helpers');

test.use({ colorScheme: 'light' });

const ONE = '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......';
const ONE_SOLUTION = '417369825632158947958724316825437169791586432346912758289643571573291684164875293';
const TEXT = [ONE, '.'.repeat(81), '11', '12345678.........9' + '.'.repeat(63), '.'.repeat(16)].join('\n');

async function open(page) {
  const panel = await openFresh(page, 'solve', ['dancer.solve.text']);
  await expect(panel.getByRole('heading', { name: 'Solve Sudoku' })).toBeVisible();
  return panel;
}

async function results(panel) {
  return panel.locator('#solve-results tbody tr').evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent.trim())));
}

test('many puzzles: solved in input order, the invalid one says why', async ({ page }) => {
  const panel = await open(page);
  await panel.getByLabel('Puzzles, one per line').fill(TEXT);
  const ans = await apiAnswer(page, 'POST', '/api/sudoku/batch', () => panel.getByRole('button', { name: 'Solve', exact: true }).click());
  expect(ans.records.map((r) => r.line)).toEqual([1, 2, 3, 4, 5]);
  await expect(panel.locator('#solve-state')).toHaveText(/5 puzzles: 1 unique, 2 multiple, 1 invalid, 1 none/);
  const rows = await results(panel);
  expect(rows.map((r) => r[0])).toEqual(['1', '2', '3', '4', '5']);
  expect(rows[0][2]).toBe(`unique ${ONE_SOLUTION}`);
  expect(rows[1][2]).toMatch(/^multiple /);
  expect(rows[2][2]).toMatch(/^invalid: wrong length: 2 cells/);
  expect(rows[3][2]).toBe('none');
  // the first answer is on the grid: the solution, givens in bold
  const grid = panel.getByRole('grid');
  await expect(grid).toHaveAttribute('aria-label', /Line 1, solved/);
  const shown = await grid.locator('[data-cell]').evaluateAll((cells) => cells.map((c) => c.textContent).join(''));
  expect(shown).toBe(ONE_SOLUTION);
  await expect(grid.locator('.cell.given')).toHaveCount(17);
  // another line's answer, by its button: the 4x4 puzzle
  await panel.getByRole('button', { name: 'Show line 5 on the grid' }).click();
  await expect(grid.locator('[data-cell]')).toHaveCount(16);
});

test('count with a limit, and rate', async ({ page }) => {
  const panel = await open(page);
  await panel.getByLabel('Puzzles, one per line').fill([ONE, '.'.repeat(81)].join('\n'));
  await panel.getByLabel('Count up to').fill('25');
  await panel.getByRole('button', { name: 'Count' }).click();
  await expect(panel.locator('#solve-results tbody tr')).toHaveCount(2);
  let rows = await results(panel);
  expect(rows[0][2]).toBe('1 solution');
  expect(rows[1][2]).toBe('at least 25 (the limit)');
  await panel.getByLabel('Count up to').fill('0');
  await panel.getByRole('button', { name: 'Count' }).click();
  await expect(panel.locator('#solve-state')).toHaveText(/whole number from 1/);

  await panel.getByRole('button', { name: 'Rate' }).click();
  await expect(panel.locator('#solve-state')).toHaveText(/2 puzzles: 1 rated, 1 not unique/);
  rows = await results(panel);
  expect(rows[0][2]).toMatch(/^SE 2\.6 \(medium\), hardest: Pointing, 69 steps$/);
  expect(rows[1][2]).toBe('not unique');
});

test('the logical solution path, step by step on the grid', async ({ page }) => {
  const panel = await open(page);
  await panel.getByLabel('Puzzles, one per line').fill(ONE);
  const path = await apiAnswer(page, 'POST', '/api/sudoku/path', () => panel.getByRole('button', { name: 'Solution path' }).click());
  expect(path.status).toBe('rated');
  const n = path.steps.length;
  await expect(panel.locator('#solve-state')).toHaveText(new RegExp(`Solution path: ${n} steps, rating SE 2\\.6 \\(medium\\)`));
  const box = panel.getByRole('region', { name: 'Solution path' });
  await expect(box.locator('#solve-counter')).toHaveText(`Step 1 of ${n + 1}`);
  await expect(box.locator('#solve-step-text')).toContainText(path.steps[0].text);
  // step 1 places a digit: its cell is outlined and its candidate shown in green
  const grid = panel.getByRole('grid');
  const [c0, d0] = path.steps[0].placements[0];
  await expect(grid.locator(`[data-cell="${c0}"]`)).toHaveClass(/place/);
  await expect(grid.locator(`[data-cell="${c0}"] .mark.mplace`)).toHaveText(String(d0));
  // the candidates before the step are drawn: empty cells show marks
  expect(await grid.locator('.cell .marks').count()).toBeGreaterThan(40);
  // forward to the first step that eliminates, by keyboard on the list
  const k = path.steps.findIndex((s) => s.eliminations.length > 0);
  expect(k).toBeGreaterThan(0);
  await box.getByRole('list', { name: 'Steps of the solution path' }).focus();
  for (let i = 0; i < k; i++) await page.keyboard.press('ArrowDown');
  await expect(box.locator('#solve-counter')).toHaveText(`Step ${k + 1} of ${n + 1}`);
  await expect(box.locator('#solve-step-text')).toContainText(path.steps[k].technique);
  const [ce, de] = path.steps[k].eliminations[0];
  await expect(grid.locator(`[data-cell="${ce}"] .mark.melim`)).toHaveText(String(de));
  // the last entry: the solved grid
  await page.keyboard.press('End');
  await expect(box.locator('#solve-counter')).toHaveText(`Step ${n + 1} of ${n + 1}`);
  await expect(box.locator('#solve-step-text')).toHaveText('Solved.');
  const shown = await grid.locator('[data-cell]').evaluateAll((cells) => cells.map((c) => c.querySelector('.digit')?.textContent || '.').join(''));
  expect(shown).toBe(ONE_SOLUTION);
  await expect(box.getByRole('button', { name: 'Next step' })).toBeDisabled();
  await box.getByRole('button', { name: 'Previous step' }).click();
  await expect(box.locator('#solve-counter')).toHaveText(`Step ${n} of ${n + 1}`);
  // a puzzle without one solution has no path: the page says why
  await panel.getByLabel('Puzzles, one per line').fill('.'.repeat(81));
  await panel.getByRole('button', { name: 'Solution path' }).click();
  await expect(panel.locator('#solve-state')).toHaveText(/no unique solution/);
});
