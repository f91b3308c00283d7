// The Watch tab (assets/cover/watch*.js) and the Polyforms tab's watch
// mode (assets/poly/watch.js): Algorithm X with dancing links drawn step
// by step from the server's trace (POST /api/cover/trace, /api/poly/watch,
// /api/poly/frame). Stepping forward then back gives the same drawing; each
// example reaches its solutions; the links view shows a covered head
// skipped by its neighbours, keeping its own links, and pointed at again
// after its uncover; keyboard control; 375 px; a too-big problem refused
// with the server's reason; the corner's polyform search watched to its
// solution and end. Screenshots: watch-desktop and watch-375.
const { test, expect, shot, openFresh, apiAnswer } = require('./helpers');

test.use({ colorScheme: 'light' });

const KEYS = ['dancer.watch.problem', 'dancer.watch.example', 'dancer.watch.speed'];

/** Opens the Watch tab afresh; the lecture's problem is loaded at step 0. */
async function open(page) {
  const panel = await openFresh(page, 'watch', KEYS);
  await expect(panel.getByRole('heading', { name: 'Watch the links dance' })).toBeVisible();
  await expect(panel.locator('#watch-view')).toHaveAttribute('data-example', 'lecture');
  await expect(panel.locator('#watch-view')).toHaveAttribute('data-step', '0');
  return panel;
}

/** Opens example `id` by its button and waits for its step 0. */
async function example(panel, title, id) {
  const page = panel.page();
  const trace = await apiAnswer(page, 'POST', '/api/cover/trace', () => panel.getByRole('group', { name: 'Examples' }).getByRole('button', { name: title, exact: true }).click());
  await expect(panel.locator('#watch-view')).toHaveAttribute('data-example', id);
  await expect(panel.locator('#watch-view')).toHaveAttribute('data-step', '0');
  return trace;
}

const step = (panel) => panel.locator('#watch-view').getAttribute('data-step').then(Number);

/** Everything the view draws for the current step, as plain data. */
function snapshot(panel) {
  return panel.locator('#watch-view').evaluate((v) => {
    const cls = (el) => [...el.classList].sort().join(' ');
    const rows = [...v.querySelectorAll('tr[data-row]')].map((tr) => `${tr.dataset.row}:${tr.dataset.hidden}:${tr.dataset.hides || 0}:${tr.dataset.stack}:${cls(tr)}`);
    const cols = [...v.querySelectorAll('th[data-col]')].map((th) => `${th.dataset.col}:${th.dataset.covered}:${th.dataset.role}:${th.dataset.purified || ''}:${cls(th)}`);
    const cells = [...v.querySelectorAll('tr[data-row] td')].map(cls).join('|');
    const stack = [...v.querySelectorAll('#watch-stack li')].map((li) => li.textContent);
    const links = [...v.querySelectorAll('#watch-links tbody tr')].map((tr) => [...tr.cells].map((c) => `${c.textContent}${c.dataset.mark ? '/' + c.dataset.mark : ''}`).join(' '));
    const tree = [...v.querySelectorAll('#watch-tree [data-tree-node]')].map((g) => `${g.getAttribute('data-tree-node')}:${g.getAttribute('class')}:${g.textContent}`);
    return {
      step: v.dataset.step, level: v.dataset.level, nodes: v.dataset.nodes, solutions: v.dataset.solutions,
      rows, cols, cells, stack, links, tree,
      caption: v.querySelector('#watch-caption').textContent,
      counter: v.querySelector('#watch-counter').textContent,
    };
  });
}

/** Presses the button `name` `times` times, the view following each press. */
async function press(panel, name, times) {
  const button = panel.getByRole('button', { name, exact: true });
  for (let k = 0; k < times; k++) {
    const before = await step(panel);
    await button.click();
    await expect.poll(() => step(panel)).not.toBe(before);
  }
}

/** The labels on the partial solution's stack. */
async function stackLabels(panel) {
  return panel.locator('#watch-stack li[data-option] .lab').allTextContents();
}

test('stepping forward then back returns to exactly the same drawing', async ({ page }) => {
  const panel = await open(page);
  const fwd = 'Step forward';
  const back = 'Step back';
  // several places: a cover with hidden rows (8), the level-1 dead end
  // (12), the solution (35), the unhides after it (40); k steps on, k back
  for (const [i, k] of [[8, 5], [12, 12], [35, 6], [40, 11]]) {
    const at = await step(panel);
    await press(panel, at < i ? fwd : back, Math.abs(i - at));
    await expect(panel.locator('#watch-view')).toHaveAttribute('data-step', String(i));
    const before = await snapshot(panel);
    expect(before.rows.some((r) => r.includes(':true:'))).toBe(true); // some row is hidden
    await press(panel, fwd, k);
    const later = await snapshot(panel);
    expect(later.step).toBe(String(i + k));
    expect(later).not.toEqual(before);
    await press(panel, back, k);
    expect(await snapshot(panel)).toEqual(before);
  }
  // the same state reached by a link straight to a step (replayed from
  // the start) as by stepping one at a time
  const atStep = await snapshot(panel);
  await page.goto('/#watch?example=lecture&step=40');
  await page.reload();
  await expect(panel.locator('#watch-view')).toHaveAttribute('data-step', '40');
  expect(await snapshot(panel)).toEqual(atStep);
});

test('the lecture\'s examples and the others reach their solutions', async ({ page }) => {
  const panel = await open(page);
  const view = panel.locator('#watch-view');
  const next = panel.getByRole('button', { name: 'Next solution', exact: true });

  // 1. the lecture's problem: B, D, F
  await next.click();
  await expect(view).toHaveAttribute('data-solutions', '1');
  await expect(view).toHaveAttribute('data-action', 'solution');
  expect((await stackLabels(panel)).sort()).toEqual(['B', 'D', 'F']);
  await expect(panel.locator('#watch-caption')).toContainText('Solution 1:');
  await expect(panel.locator('#watch-counter [data-stat="solutions"]')).toHaveText('solutions 1');
  await expect(panel.locator('tr[data-row].solved')).toHaveCount(3);
  // no more: the end of the search, the summary's node count
  await next.click();
  await expect(view).toHaveAttribute('data-step', '51');
  await expect(view).toHaveAttribute('data-nodes', '5');
  await expect(view).toHaveAttribute('data-solutions', '1');

  // 2. ten items: A1, A3, A6, A8
  await example(panel, 'Ten items', 'ten');
  await next.click();
  await expect(view).toHaveAttribute('data-solutions', '1');
  expect((await stackLabels(panel)).sort()).toEqual(['A1', 'A3', 'A6', 'A8']);

  // 3. the corner: four L-trominoes, lettered A..U
  const corner = await example(panel, 'The corner', 'corner');
  expect(corner.items).toHaveLength(12);
  expect(corner.options).toHaveLength(21);
  await next.click();
  await expect(view).toHaveAttribute('data-solutions', '1');
  const sol = corner.steps.find((r) => r.action === 'solution');
  expect((await stackLabels(panel)).sort()).toEqual(sol.options.map((k) => String.fromCharCode(65 + k)).sort());
  // every cell covered by exactly one of them
  const cells = sol.options.flatMap((k) => corner.options[k].entries);
  expect(new Set(cells).size).toBe(12);

  // 4. 4 queens: two solutions, four squares each, one per row
  const queens = await example(panel, '4 queens', 'queens');
  expect(queens.items.filter((x) => !x.primary)).toHaveLength(10);
  for (const n of [1, 2]) {
    await next.click();
    await expect(view).toHaveAttribute('data-solutions', String(n));
    const squares = await stackLabels(panel);
    expect(squares).toHaveLength(4);
    expect(new Set(squares.map((s) => s.slice(0, 2))).size).toBe(4);
  }
  await expect(panel.locator('th[data-col="a1"].sec')).toHaveCount(1);

  // 5. the 4x4 Sudoku: 64 items, one solution of 16 options
  const sudoku = await example(panel, '4×4 Sudoku', 'sudoku');
  expect(sudoku.items).toHaveLength(64);
  expect(sudoku.items.map((x) => x.name).slice(0, 2)).toEqual(['p11', 'p12']);
  await next.click();
  await expect(view).toHaveAttribute('data-solutions', '1');
  const digits = await stackLabels(panel);
  expect(digits).toHaveLength(16);
  expect(digits).toContain('r1c1=1');
  expect(digits).toContain('r2c3=3');
  expect(digits).toContain('r3c2=4');
  expect(digits).toContain('r4c4=2');
  // a row, a column and a box each have the four digits
  const grid = {};
  for (const d of digits) { const m = /^r(\d)c(\d)=(\d)$/.exec(d); grid[`${m[1]}${m[2]}`] = m[3]; }
  for (let r = 1; r <= 4; r++) expect(new Set([1, 2, 3, 4].map((c) => grid[`${r}${c}`])).size).toBe(4);
  for (let c = 1; c <= 4; c++) expect(new Set([1, 2, 3, 4].map((r) => grid[`${r}${c}`])).size).toBe(4);
});

/** The links table's rows: { node, role, left, right, up, down, marks }. */
function linkTable(panel) {
  return panel.locator('#watch-links tbody tr[data-node]').evaluateAll((trs) => trs.map((tr) => {
    const ptr = (p) => tr.querySelector(`[data-ptr="${p}"]`);
    const o = { node: Number(tr.dataset.node), role: tr.dataset.role, note: tr.querySelector('.note').textContent, marks: {} };
    for (const p of ['left', 'right', 'up', 'down']) { o[p] = Number(ptr(p).textContent); if (ptr(p).dataset.mark) o.marks[p] = ptr(p).dataset.mark; }
    return o;
  }));
}

test('the links view: a covered head keeps its links, its neighbours skip it, and point back after the uncover', async ({ page }) => {
  const panel = await open(page);
  const view = panel.locator('#watch-view');
  await press(panel, 'Step forward', 2);
  await expect(view).toHaveAttribute('data-action', 'cover');
  await expect(panel.locator('#watch-caption')).toContainText('Cover item 1');
  const cover = await linkTable(panel);
  const head = cover.find((r) => r.role === 'out');
  expect(head.note).toContain('out: its own links kept');
  expect(head.marks).toEqual({ left: 'kept', right: 'kept' });
  const left = cover.find((r) => r.node === head.left);
  const right = cover.find((r) => r.node === head.right);
  // the neighbours skip it: left's right and right's left go past it
  expect(left.right).not.toBe(head.node);
  expect(left.right).toBe(head.right);
  expect(right.left).toBe(head.left);
  expect(left.marks.right).toBe('skips');
  expect(right.marks.left).toBe('skips');
  // the item's column is marked covered, as the chosen item
  await expect(panel.locator('th[data-col="1"]')).toHaveAttribute('data-covered', 'true');
  await expect(panel.locator('th[data-col="1"]')).toHaveAttribute('data-role', 'chosen');

  // a hide: each unlinked node keeps its up and down; its neighbours skip it
  await press(panel, 'Step forward', 1);
  await expect(view).toHaveAttribute('data-action', 'hide');
  await expect(panel.locator('#watch-caption')).toContainText('Hide A: unlinked from 4 and 7');
  await expect(panel.locator('tr[data-row="0"]')).toHaveAttribute('data-hidden', 'true');
  const hide = await linkTable(panel);
  const outs = hide.filter((r) => r.role === 'out');
  expect(outs).toHaveLength(2);
  for (const o of outs) {
    expect(o.note).toContain('out: its own links kept');
    const up = hide.find((r) => r.node === o.up);
    const down = hide.find((r) => r.node === o.down);
    expect(up.down).toBe(o.down);
    expect(down.up).toBe(o.up);
  }

  // the uncover of item 1 is the search's last step
  await page.keyboard.press('End');
  await expect(view).toHaveAttribute('data-step', '51');
  await expect(view).toHaveAttribute('data-action', 'uncover');
  await expect(panel.locator('#watch-caption')).toContainText('Uncover item 1');
  const uncover = await linkTable(panel);
  const back = uncover.find((r) => r.role === 'in');
  expect(back.node).toBe(head.node);
  expect([back.left, back.right]).toEqual([head.left, head.right]);
  expect(uncover.find((r) => r.node === back.left).right).toBe(head.node);
  expect(uncover.find((r) => r.node === back.right).left).toBe(head.node);
  expect(uncover.find((r) => r.node === back.left).marks.right).toBe('back');
  await expect(panel.locator('th[data-col="1"]')).toHaveAttribute('data-covered', 'false');
  await expect(panel.locator('tr[data-row][data-hidden="true"]')).toHaveCount(0);
});

test('the view is driven by the keyboard', async ({ page }) => {
  const panel = await open(page);
  const view = panel.locator('#watch-view');
  await page.locator('body').focus();
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
  await expect(view).toHaveAttribute('data-step', '3');
  await page.keyboard.press('ArrowLeft');
  await expect(view).toHaveAttribute('data-step', '2');
  await page.keyboard.press('n');
  await expect(view).toHaveAttribute('data-action', 'solution');
  await expect(view).toHaveAttribute('data-solutions', '1');
  await page.keyboard.press('Home');
  await expect(view).toHaveAttribute('data-step', '0');
  await page.keyboard.press('End');
  await expect(view).toHaveAttribute('data-step', '51');
  await page.keyboard.press('Home');
  await expect(view).toHaveAttribute('data-step', '0');
  // Space plays and pauses
  await panel.getByLabel('Speed').selectOption('30');
  await panel.getByLabel('Pause at solutions').uncheck();
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press(' ');
  await expect(panel.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect.poll(() => step(panel)).toBeGreaterThan(2);
  await page.keyboard.press(' ');
  await expect(panel.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  const paused = await step(panel);
  expect(paused).toBeLessThan(51);
  await page.waitForTimeout(300);
  expect(await step(panel)).toBe(paused);
  await page.keyboard.press(' ');
  await expect(view).toHaveAttribute('data-step', '51'); // played to the end, then stopped
  await expect(panel.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  // the buttons by Tab and Enter
  await panel.getByRole('button', { name: 'Restart', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(view).toHaveAttribute('data-step', '0');
  await panel.getByRole('button', { name: 'Play', exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('button', { name: 'Step forward', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(view).toHaveAttribute('data-step', '2');
  // Space on a focused button presses it (and does not also play)
  await page.keyboard.press(' ');
  await expect(view).toHaveAttribute('data-step', '3');
  await expect(panel.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  // the keys are said on the page
  await expect(panel.locator('#watch-keys')).toContainText('Space');
  // typing in the problem's text field does not move the view
  await panel.getByText('Your own problem').click();
  await panel.getByLabel('Problem (DLX format)').focus();
  await page.keyboard.press('n');
  await page.keyboard.press('ArrowRight');
  await expect(view).toHaveAttribute('data-step', '3');
});

test('at 375 px the view fits; the matrix scrolls inside its box', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const panel = await open(page);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await press(panel, 'Step forward', 8);
  expect(await overflow(), 'no horizontal scrolling at 375 px').toBeLessThanOrEqual(0);
  // the Sudoku's 64 columns scroll inside the matrix's own box
  await example(panel, '4×4 Sudoku', 'sudoku');
  await panel.getByRole('button', { name: 'Next solution', exact: true }).click();
  await expect(panel.locator('#watch-view')).toHaveAttribute('data-solutions', '1');
  expect(await overflow(), 'the Sudoku at 375 px').toBeLessThanOrEqual(0);
  const box = panel.locator('.matbox');
  const [sw, cw] = await box.evaluate((b) => [b.scrollWidth, b.clientWidth]);
  expect(sw).toBeGreaterThan(cw);
  const rect = await box.boundingBox();
  expect(rect.x + rect.width).toBeLessThanOrEqual(375);
  await shot(page, 'watch-375-sudoku', { fullPage: true });
  for (const sel of ['#watch-links', '#watch-tree', '.controls']) {
    const r = await panel.locator(sel).first().boundingBox();
    expect(r.x, sel).toBeGreaterThanOrEqual(0);
  }
});

test('a pasted problem is watched; a too-big or bad one is refused with the reason', async ({ page }) => {
  const panel = await open(page);
  await panel.getByText('Your own problem').click();
  const text = panel.getByLabel('Problem (DLX format)');
  await text.fill('a b c\na b\nc\nb c\na\n');
  await panel.getByRole('button', { name: 'Watch it' }).click();
  await expect(panel.locator('#watch-view')).toHaveAttribute('data-example', 'paste');
  await panel.getByRole('button', { name: 'Next solution', exact: true }).click();
  expect((await stackLabels(panel)).sort()).toEqual(['#0', '#1']);
  await panel.getByRole('button', { name: 'Next solution', exact: true }).click();
  expect((await stackLabels(panel)).sort()).toEqual(['#2', '#3']);

  // colours: a purify fixes the colour of x, and hides the option that gives x another
  await text.fill('a b | x y\na x:red\nb x:blue\na b x:red\nx y\nb y\n');
  await panel.getByRole('button', { name: 'Watch it' }).click();
  await expect(panel.locator('#watch-view')).toHaveAttribute('data-step', '0');
  await expect(panel.locator('tr[data-row="3"]')).toHaveClass(/inactive/); // only secondary items
  const view = panel.locator('#watch-view');
  for (let k = 0; k < 6; k++) await panel.getByRole('button', { name: 'Step forward', exact: true }).click();
  await expect(view).toHaveAttribute('data-action', 'purify');
  await expect(panel.locator('#watch-caption')).toContainText('Purify x: keep its colour red');
  await expect(panel.locator('th[data-col="x"]')).toHaveAttribute('data-purified', 'red');
  await panel.getByRole('button', { name: 'Step forward', exact: true }).click();
  await expect(panel.locator('#watch-caption')).toContainText('Hide #1: unlinked from b');
  await expect(panel.locator('tr[data-row="1"]')).toHaveAttribute('data-hidden', 'true');
  await page.keyboard.press('End');
  await expect(view).toHaveAttribute('data-solutions', '2');
  await expect(panel.locator('th[data-col="x"]')).not.toHaveAttribute('data-purified', /.*/);

  // 101 items: over the limit of 100
  const items = Array.from({ length: 101 }, (_, i) => `i${i}`);
  await text.fill(`${items.join(' ')}\n${items.join(' ')}\n`);
  const [res] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/cover/trace'),
    panel.getByRole('button', { name: 'Watch it' }).click(),
  ]);
  expect(res.status()).toBe(422);
  await expect(panel.locator('#watch-error')).toContainText('101 items');
  await expect(panel.locator('#watch-error')).toContainText('at most 100');
  await expect(panel.locator('#watch-error')).toHaveAttribute('data-kind', 'too_big');
  await expect(panel.locator('#watch-view')).toBeHidden();
  // 401 options
  await text.fill(`a\n${'a\n'.repeat(401)}`);
  await panel.getByRole('button', { name: 'Watch it' }).click();
  await expect(panel.locator('#watch-error')).toContainText('401 options');
  // multiplicities: not for dancing links, and said so
  await text.fill('2:2|a b\na\na b\nb\n');
  await panel.getByRole('button', { name: 'Watch it' }).click();
  await expect(panel.locator('#watch-error')).toHaveAttribute('data-kind', 'unsupported');
  await expect(panel.locator('#watch-error')).toContainText('Not for this view');
  await expect(panel.locator('#watch-error')).toContainText('multiplicities');
  // a bad problem: the line and column
  await text.fill('a b\na\nc\n');
  await panel.getByRole('button', { name: 'Watch it' }).click();
  await expect(panel.locator('#watch-error')).toContainText('line 3, column 1');
  await expect(panel.locator('#watch-error')).toContainText('unknown item');
  // an example again
  await example(panel, 'The lecture\'s problem', 'lecture');
  await expect(panel.locator('#watch-error')).toBeEmpty();
});

test('screenshots: the lecture\'s problem mid-search, desktop and 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const panel = await open(page);
  // step 8: item 7 covered through option A, rows B and C greyed out
  await page.goto('/#watch?example=lecture&step=8');
  await expect(panel.locator('#watch-view')).toHaveAttribute('data-step', '8');
  await expect(panel.locator('#watch-view')).toHaveAttribute('data-action', 'cover');
  await expect(panel.locator('tr[data-row][data-hidden="true"]')).toHaveCount(3);
  await expect(panel.locator('#watch-links tbody tr[data-role="out"]')).toHaveCount(1);
  await panel.locator('#watch-view').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.querySelector('#watch-view').getBoundingClientRect().top + window.scrollY - 8));
  await shot(page, 'watch-desktop');
  await page.setViewportSize({ width: 375, height: 812 });
  await page.evaluate(() => window.scrollTo(0, document.querySelector('#watch-counter').getBoundingClientRect().top + window.scrollY - 6));
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await shot(page, 'watch-375');
});

test('the polyform watch: the corner reaches its solution, then the end, with the summary\'s node count', async ({ page }) => {
  const panel = await openFresh(page, 'poly', ['dancer.poly.toml', 'dancer.poly.name', 'dancer.poly.watch.speed']);
  await expect(panel.getByLabel('Catalogue puzzle').locator('option')).not.toHaveCount(1);
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  await panel.getByLabel('Catalogue puzzle').selectOption('corner');
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  const watch = panel.getByRole('region', { name: 'Watch the search' });
  await expect(watch).toBeHidden();
  const data = await apiAnswer(page, 'POST', '/api/poly/watch', () => panel.getByRole('button', { name: 'Watch the search' }).click());
  expect(data.summary.nodes).toBe(9);
  expect(data.summary.solutions).toBe(1);
  await expect(watch).toBeVisible();
  const board = watch.getByRole('img');
  await expect(board).toHaveAttribute('alt', /board/);
  // it plays by itself up to the first solution, and pauses there
  await expect(watch).toHaveAttribute('data-solutions', '1', { timeout: 20_000 });
  await expect(watch).toHaveAttribute('data-action', 'solution');
  await expect(watch.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  const sol = data.steps.find((r) => r.action === 'solution');
  const placements = sol.options.map((k) => data.options[k].placement).join(',');
  await expect(board).toHaveAttribute('data-placements', placements);
  await expect(watch.locator('#poly-watch-caption')).toContainText('Solution 1');
  const full = await board.getAttribute('src');
  // the nodes so far: 1 + the tries up to the solution
  const tries = data.steps.slice(0, sol.step).filter((r) => r.action === 'try').length;
  await expect(watch.locator('[data-stat="nodes"]')).toHaveText(`nodes ${1 + tries}`);

  // back to the start: the empty board; one step on, one piece: the picture changes
  await watch.getByRole('button', { name: 'Restart', exact: true }).click();
  await expect(board).toHaveAttribute('data-placements', '');
  const empty = await board.getAttribute('src');
  expect(empty).not.toBe(full);
  await watch.getByRole('button', { name: 'Step forward', exact: true }).click();
  await watch.getByRole('button', { name: 'Step forward', exact: true }).click();
  await expect(watch).toHaveAttribute('data-action', 'try');
  const first = String(data.options[data.steps[1].option].placement);
  await expect(board).toHaveAttribute('data-placements', first);
  const one = await board.getAttribute('src');
  expect(one).not.toBe(empty);
  expect(one).not.toBe(full);
  await watch.getByRole('button', { name: 'Step back', exact: true }).click();
  await expect(board).toHaveAttribute('data-placements', '');

  // the next solution: there is none, so the end of the search, with the summary's 9 nodes
  await watch.getByRole('button', { name: 'Next solution', exact: true }).click();
  await watch.getByRole('button', { name: 'Next solution', exact: true }).click();
  await expect(watch).toHaveAttribute('data-step', String(data.steps.length));
  await expect(watch.locator('[data-stat="nodes"]')).toHaveText('nodes 9');
  await expect(watch).toHaveAttribute('data-nodes', String(data.summary.nodes));
  await expect(watch.locator('#poly-watch-summary')).toContainText('9 nodes');
  await expect(board).toHaveAttribute('data-placements', '');

  // a puzzle too big to watch: its reason
  await panel.getByLabel('Puzzle (TOML)').fill('name = "big"\n[board]\nrect = [20, 11]\n[[piece]]\nset = "monominoes"\ncount = "any"\n');
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  await panel.getByRole('button', { name: 'Watch the search' }).click();
  await expect(watch.locator('#poly-watch-state')).toContainText('220 cells');
});

test('the polyform watch on polyomino-123-square: solution after solution, by button and by key', async ({ page }) => {
  const panel = await openFresh(page, 'poly', ['dancer.poly.toml', 'dancer.poly.name', 'dancer.poly.watch.speed']);
  await expect(panel.getByLabel('Catalogue puzzle').locator('option')).not.toHaveCount(1);
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  await panel.getByLabel('Catalogue puzzle').selectOption('polyomino-123-square');
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  const watch = panel.getByRole('region', { name: 'Watch the search' });
  const data = await apiAnswer(page, 'POST', '/api/poly/watch', () => panel.getByRole('button', { name: 'Watch the search' }).click());
  expect(data.summary.complete).toBe(true);
  // the watch plays as it opens: back to the start, paused, by key (on a
  // slow machine it may already be at the first solution)
  await page.keyboard.press('Home');
  await expect(watch).toHaveAttribute('data-step', '0');
  // faster, then on to the first solution by button
  await watch.getByLabel('Speed').selectOption('100');
  await watch.getByRole('button', { name: 'Next solution', exact: true }).click();
  await expect(watch).toHaveAttribute('data-solutions', '1');
  const sols = data.steps.filter((r) => r.action === 'solution');
  const key = (r) => r.options.map((k) => data.options[k].placement).join(',');
  await expect(watch.getByRole('img')).toHaveAttribute('data-placements', key(sols[0]));
  // the next one by key (the focus in the panel)
  await page.keyboard.press('n');
  await expect(watch).toHaveAttribute('data-solutions', '2');
  await expect(watch).toHaveAttribute('data-step', String(sols[1].step));
  await expect(watch.getByRole('img')).toHaveAttribute('data-placements', key(sols[1]));
  // a step back and forward
  await page.keyboard.press('ArrowLeft');
  await expect(watch).toHaveAttribute('data-step', String(sols[1].step - 1));
  await page.keyboard.press('ArrowRight');
  await expect(watch).toHaveAttribute('data-step', String(sols[1].step));
  // play on at speed, pausing at the third solution
  await watch.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(watch).toHaveAttribute('data-solutions', '3');
  await expect(watch).toHaveAttribute('data-action', 'solution');
  await expect(watch).toHaveAttribute('data-step', String(sols[2].step));
  // the end: all the solutions and the summary's nodes
  await page.keyboard.press('End');
  await expect(watch).toHaveAttribute('data-solutions', String(data.summary.solutions));
  await expect(watch).toHaveAttribute('data-nodes', String(data.summary.nodes));
  await expect(watch.locator('#poly-watch-counter')).toContainText('the search is over');
});
