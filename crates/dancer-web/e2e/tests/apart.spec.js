// BurrTools files in the Polyforms tab (assets/poly/poly.js, apart.js):
// a file opened from disk, its problems listed, one solved with "Take
// apart", and the take-apart player: moves stepped forward and back (the
// step counter, the pieces moved and back where they were), played and
// paused, by keyboard, to the end (every part apart); a prism puzzle
// played too; a file the server refuses, at its line; taking apart a flat
// puzzle refused with the library's words; the player at 375 px and on a
// desktop, with screenshots (the guide's: docs/web.md).
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const { test, expect, shot, startedJob, waitForJob, openFresh } = require('./helpers');

test.use({ colorScheme: 'light' });

const BURR = path.resolve(__dirname, '../../../dancer-poly/tests/burr');

/** Opens the tab afresh and waits for its first puzzle to be checked. */
async function open(page) {
  const panel = await openFresh(page, 'poly', ['dancer.poly.toml', 'dancer.poly.name']);
  await expect(panel.getByLabel('Catalogue puzzle').locator('option')).not.toHaveCount(1);
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  return panel;
}

/** Opens a BurrTools file of the examples and waits for its problem to check. */
async function openBurr(panel, file) {
  await panel.getByLabel('Open a BurrTools file (.xmpuzzle)').setInputFiles(path.join(BURR, file));
  await expect(panel.getByRole('group', { name: 'BurrTools file' })).toBeVisible();
  await expect(panel.locator('#poly-check')).toContainText('No errors');
}

/** Solves the open puzzle up to symmetry, taken apart; the job's record. */
async function solveApart(page, panel) {
  await expect(panel.getByRole('checkbox', { name: 'Take apart' })).toBeChecked();
  await expect(panel.getByRole('checkbox', { name: 'Unique up to symmetry' })).toBeChecked();
  const id = await startedJob(page, () => panel.getByRole('button', { name: 'Solve' }).click());
  await expect(panel.locator('#poly-state')).toHaveText(/^Complete: /, { timeout: 60_000 });
  return waitForJob(page.request, id);
}

/** The player's picture as text, once it stands still at step `k`. */
async function still(player, k) {
  await expect(player).toHaveAttribute('data-state', 'still');
  await expect(player).toHaveAttribute('data-step', String(k));
  return player.locator('#poly-apart-pic').evaluate((el) => el.innerHTML);
}

/** Each piece's polygons' points in the player's picture, by piece. */
function facesOf(player) {
  return player.locator('#poly-apart-pic').evaluate((el) => {
    const out = {};
    for (const p of el.querySelectorAll('polygon')) (out[p.dataset.piece] ||= []).push(p.getAttribute('points'));
    return out;
  });
}

/** Where each piece drawn is (its offset in the grid's coordinates), by piece. */
function atOf(player) {
  return player.locator('#poly-apart-pic svg').getAttribute('data-at').then((at) => Object.fromEntries(
    at.split(' ').map((x) => { const [p, v] = x.split(':'); return [p, v.split(',').map(Number)]; })));
}

test('a BurrTools file is solved, taken apart and played move by move', async ({ page }) => {
  const panel = await open(page);
  await openBurr(panel, 'CubeInCage.xmpuzzle');
  const box = panel.getByRole('group', { name: 'BurrTools file' });
  await expect(box).toContainText('CubeInCage.xmpuzzle: cubes, 1 problem');
  await expect(panel.getByLabel('Problem')).toHaveValue('1');
  await expect(box).toContainText('5 pieces (6 in all) into Result: 99 cells, 39 of them may stay empty');
  await expect(panel.getByLabel('Puzzle (TOML)')).toBeHidden();
  await expect(panel.locator('#poly-check [data-grid]')).toHaveAttribute('data-grid', 'cube');
  await expect(panel.getByRole('list', { name: 'Pieces' }).locator('li')).toHaveCount(5);

  const job = await solveApart(page, panel);
  expect(job.summary.unique).toBe(96);
  expect(job.summary.disassemblies).toBe(1);
  await expect(panel.locator('#poly-state')).toContainText('96 solutions up to symmetry (1,152 in all). 1 of them comes apart.');

  // solution 1 does not come apart: the player says so, and goes to the one that does
  const player = panel.getByRole('region', { name: 'Take apart' });
  await expect(player).toContainText('Solution 1 does not come apart');
  await player.getByRole('button', { name: 'Solution 76' }).click();
  await expect(panel.getByText('Solution 76 of 96')).toBeVisible();
  await expect(player.locator('#poly-apart-level')).toHaveText('Level 4.9.3, 16 moves');
  await expect(player.locator('#poly-apart-step')).toHaveText('Step 0 of 16');
  const start = await still(player, 0);
  const faces0 = await facesOf(player);
  // six pieces drawn, each in its colour (the legend's)
  expect(Object.keys(faces0).sort()).toEqual(['0', '1', '2', '3', '4', '5']);
  const colours = await panel.locator('.legend .piece').evaluateAll((els) => els.map((e) => e.dataset.colour));
  const fills = await player.locator('#poly-apart-pic polygon[data-piece="3"]').evaluateAll((ps) => ps.map((p) => p.getAttribute('fill')));
  expect(fills.length).toBeGreaterThan(0);
  expect(colours[3]).toMatch(/^#[0-9a-f]{6}$/);

  // three moves forward: the counter, and the pieces moved
  await expect(player.getByRole('button', { name: 'Step back' })).toBeDisabled();
  for (let k = 1; k <= 3; k++) {
    await player.getByRole('button', { name: 'Step forward' }).click();
    await expect(player.locator('#poly-apart-step')).toHaveText(`Step ${k} of 16`);
    await still(player, k);
  }
  await expect(player.locator('#poly-apart-move')).toContainText('Done: S4 +x 1. Next: S4 out +y.');
  const faces3 = await facesOf(player);
  // moves 1 to 3: Frame2#2 -x, Frame1 +z, S4 +x: those pieces moved (and
  // are drawn elsewhere), the others did not
  expect(await atOf(player)).toEqual({
    0: [0, 0, 1], 1: [0, 0, 0], 2: [-1, 0, 0], 3: [1, 0, 0], 4: [0, 0, 0], 5: [0, 0, 0],
  });
  for (const moved of ['0', '2', '3']) expect(faces3[moved], `piece ${moved} moved`).not.toEqual(faces0[moved]);
  // the fourth takes S4 out: it leaves the picture
  await player.getByRole('button', { name: 'Step forward' }).click();
  await still(player, 4);
  expect(Object.keys(await facesOf(player)).sort()).toEqual(['0', '1', '2', '4', '5']);
  // and back, by keyboard: S4 comes back in, then every piece where it was
  const pic = player.locator('#poly-apart-pic');
  await pic.focus();
  for (let k = 3; k >= 0; k--) {
    await page.keyboard.press('ArrowLeft');
    await still(player, k);
  }
  await expect(player.locator('#poly-apart-step')).toHaveText('Step 0 of 16');
  expect(await still(player, 0)).toBe(start);
  expect(Object.values(await atOf(player)).every((v) => v.every((x) => x === 0))).toBe(true);
  await page.keyboard.press('ArrowRight');
  await still(player, 1);

  // play, pause, play on to the end: the parts it came apart into
  await player.getByLabel('Speed').selectOption('fast');
  await player.getByRole('button', { name: 'Play' }).click();
  await expect(player.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(async () => Number(await player.getAttribute('data-step'))).toBeGreaterThan(2);
  await player.getByRole('button', { name: 'Pause' }).click();
  // the move under way ends, and no other starts
  await expect(player).toHaveAttribute('data-state', 'still');
  const paused = Number(await player.getAttribute('data-step'));
  await page.waitForTimeout(600);
  await still(player, paused);
  await player.getByRole('button', { name: 'Play' }).click();
  await expect(player.locator('#poly-apart-step')).toHaveText('Step 16 of 16', { timeout: 30_000 });
  await still(player, 16);
  await expect(player.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect(player.locator('#poly-apart-move')).toHaveText('All apart: 4 parts (the pieces of a group stay together).');
  const parts = player.getByRole('list', { name: 'The parts' }).locator('li');
  await expect(parts).toHaveCount(4);
  await expect(parts.first()).toHaveText('Frame1 with Frame2#1 with Frame2#2');
  await expect(pic.locator('svg svg')).toHaveCount(4);
  await expect(player.getByRole('button', { name: 'Step forward' })).toBeDisabled();
  // Home: the assembly again
  await pic.focus();
  await page.keyboard.press('Home');
  expect(await still(player, 0)).toBe(start);
  // End, then a step back slides the last piece in again
  await page.keyboard.press('End');
  await still(player, 16);
  await page.keyboard.press('ArrowLeft');
  await still(player, 15);
  expect(Object.keys(await facesOf(player)).length).toBeGreaterThan(0);
});

test('a prism puzzle of a BurrTools file is taken apart too', async ({ page }) => {
  const panel = await open(page);
  await openBurr(panel, 'Prisgon.xmpuzzle');
  await expect(panel.getByRole('group', { name: 'BurrTools file' })).toContainText('triangular prisms, 2 problems');
  await panel.getByLabel('Problem').selectOption('2');
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  await expect(panel.locator('#poly-check [data-grid]')).toHaveAttribute('data-grid', 'prism');
  const job = await solveApart(page, panel);
  expect(job.summary.disassemblies).toBe(1);
  const player = panel.getByRole('region', { name: 'Take apart' });
  await expect(player.locator('#poly-apart-step')).toHaveText(/^Step 0 of \d+$/);
  await still(player, 0);
  const faces0 = await facesOf(player);
  expect(Object.keys(faces0)).toHaveLength(9);
  // a prism has triangles and rectangles among its faces
  const sides = Object.values(faces0).flat().map((p) => p.split(' ').length);
  expect(sides).toContain(3);
  expect(sides).toContain(4);
  await player.getByRole('button', { name: 'Step forward' }).click();
  await still(player, 1);
  expect(await facesOf(player)).not.toEqual(faces0);
  await player.getByRole('button', { name: 'Restart' }).click();
  await still(player, 0);
  expect(await facesOf(player)).toEqual(faces0);
  await player.getByRole('button', { name: 'To the end' }).click();
  await still(player, Number((await player.locator('#poly-apart-step').textContent()).split(' ').pop()));
  await expect(player.getByRole('list', { name: 'The parts' }).locator('li')).toHaveCount(9);
  await expect(player.locator('#poly-apart-move')).toHaveText('All apart: the 9 pieces.');
  // back to the editor
  await panel.getByRole('button', { name: 'Back to the TOML editor' }).click();
  await expect(panel.getByLabel('Puzzle (TOML)')).toBeVisible();
  await expect(panel.getByRole('group', { name: 'BurrTools file' })).toBeHidden();
  // "Take apart", ticked by the file, goes with it
  await expect(panel.getByRole('checkbox', { name: 'Take apart' })).not.toBeChecked();
});

test('a bad file is refused at its line, and a flat puzzle is not taken apart', async ({ page }) => {
  const panel = await open(page);
  const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dancer-burr-')), 'bad.xmpuzzle');
  fs.writeFileSync(bad, '<?xml version="1.0"?>\n<puzzle version="2">\n  <gridType type="9"/>\n</puzzle>\n');
  await panel.getByLabel('Open a BurrTools file (.xmpuzzle)').setInputFiles(bad);
  await expect(panel.locator('#poly-check')).toContainText('Could not open bad.xmpuzzle: line 3, column');
  await expect(panel.getByRole('group', { name: 'BurrTools file' })).toBeHidden();
  await expect(panel.getByLabel('Puzzle (TOML)')).toBeVisible();
  // the library's words for a grid that cannot be taken apart
  await panel.getByLabel('Catalogue puzzle').selectOption('pentomino-3x20');
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  await panel.getByRole('checkbox', { name: 'Take apart' }).check();
  await panel.getByRole('button', { name: 'Solve' }).click();
  await expect(panel.locator('#poly-state')).toContainText('BurrTools takes puzzles apart on cubes and triangular prisms, not on the square grid');
  await expect(panel.locator('#poly-state')).toHaveClass(/error/);
  // the puzzle itself is fine: its check and picture stay
  await expect(panel.locator('#poly-check')).toContainText('No errors');
});

/** Opens Pelikan, solves it taken apart, and shows its solution that
 * comes apart at move `k` (moves made at once: reduced motion). */
async function pelikan(page, k) {
  const panel = await open(page);
  await openBurr(panel, 'PelikanBurr.xmpuzzle');
  await solveApart(page, panel);
  await expect(panel.locator('#poly-state')).toContainText('12 solutions up to symmetry (288 in all). 1 of them comes apart.');
  const player = panel.getByRole('region', { name: 'Take apart' });
  await player.getByRole('button', { name: 'Solution 2' }).click();
  await expect(player.locator('#poly-apart-level')).toHaveText('Level 98.2.4.2, 108 moves');
  await still(player, 0);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await player.locator('#poly-apart-pic').focus();
  if (k === 108) await page.keyboard.press('End');
  else for (let i = 0; i < k; i++) await page.keyboard.press('ArrowRight');
  await still(player, k);
  await page.evaluate(() => document.getElementById('poly-apart').scrollIntoView({ block: 'start' }));
  return { panel, player };
}

test('the player at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const { player } = await pelikan(page, 108);
  await expect(player.locator('#poly-apart-move')).toHaveText('All apart: the 7 pieces.');
  await expect(player.getByRole('list', { name: 'The parts' }).locator('li')).toHaveCount(7);
  for (const name of ['Restart', 'Step back', 'Play', 'Step forward', 'To the end']) {
    await expect(player.getByRole('button', { name, exact: true })).toBeVisible();
  }
  const svg = await player.locator('#poly-apart-pic svg').first().boundingBox();
  expect(svg.x + svg.width).toBeLessThanOrEqual(375);
  expect(svg.width, 'the picture uses most of the width').toBeGreaterThan(250);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no horizontal scrolling at 375 px').toBeLessThanOrEqual(0);
  await shot(page, 'apart-375');
});

test('the player on a desktop', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  // the move before the first separation: pieces out of the cage
  const { player } = await pelikan(page, 97);
  await expect(player.locator('#poly-apart-move')).toHaveText('Done: S6 -z 1. Next: S5, S6 out -y.');
  await shot(page, 'apart-desktop');
});
