// The Polyforms tab on every grid (assets/poly/): the catalogue grouped by
// grid with its published counts and sources; the example puzzles on the
// triangle, stick, sphere and prism grids loaded with one click, checked, drawn (the
// board and pieces, then each solution: polygons and paths counted in the
// server's SVG), solved in the page; one colour per piece on Soma, the
// same in the pieces panel, the layers, the small isometric view and the
// page's large isometric view (shading changes the lightness only); the
// whole tab at 375 px.
const { test, expect, shot, startedJob, waitForJob, openFresh } = require('./helpers');

test.use({ colorScheme: 'light' });

/** Opens the tab afresh (no saved editor text) and waits for the catalogue. */
async function open(page) {
  const panel = await openFresh(page, 'poly', ['dancer.poly.toml', 'dancer.poly.name']);
  await expect(panel.getByLabel('Catalogue puzzle').locator('option')).not.toHaveCount(1);
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  return panel;
}

/** The SVG text of an <img> whose src is a data: URL. */
async function svgOf(img) {
  const src = await img.getAttribute('src');
  expect(src.startsWith('data:image/svg+xml')).toBe(true);
  return decodeURIComponent(src.slice(src.indexOf(',') + 1));
}

/** Counts elements of an SVG text by tag (in the page's own parser). */
async function countTags(page, svg, tags) {
  return page.evaluate(([text, names]) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    if (doc.querySelector('parsererror')) return { error: true };
    const out = {};
    for (const t of names) out[t] = doc.getElementsByTagName(t).length;
    // the colours it paints with (fills of faces, strokes of edges), not
    // counting white, black ink and none
    const paints = [...doc.querySelectorAll('[fill], [stroke]')]
      .flatMap((e) => [e.getAttribute('fill'), e.getAttribute('stroke')])
      .filter((c) => c && /^#[0-9a-f]{6}$/i.test(c))
      .map((c) => c.toLowerCase())
      .filter((c) => c !== '#ffffff' && c !== '#222222' && c !== '#000000');
    out.fills = new Set(paints).size;
    return out;
  }, [svg, tags]);
}

/**
 * Loads the example on `label` ('Triangles', 'Sticks') with its button,
 * checks that the board and pieces are drawn, solves it up to symmetry,
 * and returns the panel's first solution picture (an <img>).
 */
async function solveExample(page, label, grid, want) {
  const panel = await open(page);
  await panel.getByRole('group', { name: 'Examples' }).getByRole('button', { name: label }).click();
  const editor = panel.getByLabel('Puzzle (TOML)');
  await expect(editor).toHaveValue(new RegExp(`grid = "${grid}"`));
  await expect(panel.getByLabel('Catalogue puzzle')).toHaveValue('');
  const check = panel.locator('#poly-check');
  await expect(check).toContainText('No errors');
  await expect(check.locator('[data-grid]')).toHaveAttribute('data-grid', grid);
  await expect(check).toContainText(label.toLowerCase());
  // the board and the pieces, drawn by the server on the grid
  const preview = panel.getByRole('img', { name: /board and pieces/i });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img) => img.complete && img.naturalWidth)).toBeGreaterThan(50);
  const pieces = await panel.getByRole('list', { name: 'Pieces' }).locator('li').count();
  expect(pieces).toBe(want.pieces);
  const over = await countTags(page, await svgOf(preview), ['polygon', 'path', 'line', 'circle']);
  expect(over.error).toBeFalsy();
  // a shape per piece and the board at least, each piece in its colour
  expect(over.polygon + over.path + over.line).toBeGreaterThan(pieces);
  expect(over.fills).toBeGreaterThanOrEqual(pieces);
  // each piece in the list has a colour swatch: the colours differ
  const colours = await panel.getByRole('list', { name: 'Pieces' }).locator('li').evaluateAll(
    (lis) => lis.map((li) => li.dataset.colour));
  expect(new Set(colours).size).toBe(pieces);
  for (const c of colours) expect(c).toMatch(/^#[0-9a-f]{6}$/);

  // solved in the page, up to symmetry
  await expect(panel.getByRole('checkbox', { name: 'Unique up to symmetry' })).toBeChecked();
  const id = await startedJob(page, () => panel.getByRole('button', { name: 'Solve' }).click());
  await expect(panel.locator('#poly-state')).toHaveText(
    new RegExp(`Complete: ${want.unique} solutions? up to symmetry \\(${want.total} in all\\)`));
  const job = await waitForJob(page.request, id);
  expect(job.summary.unique).toBe(want.unique);
  await expect(panel.getByText(`Solution 1 of ${want.unique}`)).toBeVisible();
  const pic = panel.getByRole('img', { name: /^Solution 1/ });
  await expect(pic).toBeVisible();
  await expect.poll(() => pic.evaluate((img) => img.complete && img.naturalWidth)).toBeGreaterThan(50);
  // no turnable cube view on a flat grid
  await expect(panel.getByRole('region', { name: 'Isometric view' })).toBeHidden();
  return { panel, pic, id };
}

test('the catalogue is grouped by grid, with published counts and sources', async ({ page, request }) => {
  const panel = await open(page);
  const cat = await (await request.get('/api/poly/catalog')).json();
  const grids = cat.grids.filter((g) => g.puzzles > 0);
  const select = panel.getByLabel('Catalogue puzzle');
  // an option group per grid that has puzzles, in the API's order, each
  // with that grid's puzzles
  const groups = await select.locator('optgroup').evaluateAll((gs) => gs.map((g) => ({
    grid: g.dataset.grid, label: g.label, names: [...g.querySelectorAll('option')].map((o) => o.value),
  })));
  expect(groups.map((g) => g.grid)).toEqual(grids.map((g) => g.name));
  for (const g of groups) {
    expect(g.names).toEqual(cat.puzzles.filter((p) => p.grid === g.grid).map((p) => p.name));
    const info = grids.find((x) => x.name === g.grid);
    expect(g.label).toContain(info.forms);
  }
  expect(groups.find((g) => g.grid === 'cube').label).toMatch(/^Cubes/);

  // a picked puzzle's published count and source, under the select
  await select.selectOption('soma');
  await expect(panel.locator('#poly-check [data-grid]')).toHaveAttribute('data-grid', 'cube');
  const soma = cat.puzzles.find((p) => p.name === 'soma');
  const known = panel.locator('#poly-known');
  await expect(known).toContainText('240 solutions up to rotations and reflections');
  await expect(known).toContainText(`Source: ${soma.known.source}`);
  await expect(known).toContainText('Cubes');

  // the list of the whole catalogue: a heading per grid, a line per puzzle
  await panel.locator('#poly-catalogue summary').click();
  const list = panel.locator('#poly-catalogue');
  await expect(list.getByRole('heading', { level: 4 })).toHaveCount(grids.length);
  for (const g of grids) {
    const section = list.getByRole('region', { name: new RegExp(g.forms) });
    await expect(section.getByRole('heading')).toContainText(`(${g.puzzles})`);
    await expect(section.locator('li')).toHaveCount(g.puzzles);
  }
  const line = list.locator('li[data-name="pentomino-3x20"]');
  await expect(line).toContainText('2 solutions up to rotations and reflections (8 in all)');
  await expect(line).toContainText('Source:');
  // a puzzle of the list loads as the select would, and its count is
  // compared with the published one
  await line.getByRole('button', { name: 'pentomino-3x20' }).click();
  await expect(select).toHaveValue('pentomino-3x20');
  await expect(panel.getByLabel('Puzzle (TOML)')).toHaveValue(/3x20|\[20, 3\]|\[3, 20\]/);
  await expect(known).toContainText('2 solutions up to rotations and reflections (8 in all)');
  await panel.getByRole('button', { name: 'Count' }).click();
  await expect(panel.locator('#poly-state')).toHaveText(/Complete: 2 solutions up to symmetry \(8 in all\)\..*The published count is 2: it agrees\./);
});

test('a triangle puzzle is solved in the page and drawn', async ({ page }) => {
  const { panel, pic } = await solveExample(page, 'Triangles', 'triangle', { pieces: 3, unique: 26, total: 218 });
  // 24 triangles in 6 tetriamonds: the picture draws them, a fill per
  // placement (a type placed several times: each placement its colour)
  const sol = await countTags(page, await svgOf(pic), ['polygon', 'path']);
  expect(sol.polygon + sol.path).toBeGreaterThanOrEqual(6);
  expect(sol.fills).toBeGreaterThanOrEqual(6);
  const legend = panel.locator('.legend .piece');
  await expect(legend).toHaveCount(6);
  // the downloads: the records keep each triangle's kind (up or down)
  const [nd] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download NDJSON' }).click()]);
  const lines = require('node:fs').readFileSync(await nd.path(), 'utf8').trim().split('\n');
  expect(lines).toHaveLength(26);
  const rec = JSON.parse(lines[0]);
  expect(rec.colours).toBeUndefined();
  const cells = rec.placements.flatMap((p) => p.cells);
  expect(cells).toHaveLength(24);
  expect(cells.every((c) => c.length === 3)).toBe(true);
  expect(new Set(cells.map((c) => c.join(','))).size).toBe(24);
  expect(new Set(cells.map((c) => c[2]))).toEqual(new Set([0, 1]));
  const [png] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download PNG' }).click()]);
  expect(png.suggestedFilename()).toMatch(/tetriamonds-hexagon-solution-00001\.png$/);
  const bytes = require('node:fs').readFileSync(await png.path());
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
});

test('a stick puzzle, no two pieces crossing, is solved in the page and drawn', async ({ page }) => {
  const { panel, pic } = await solveExample(page, 'Sticks', 'stick', { pieces: 5, unique: 10, total: 51 });
  // 12 edges in 4 tristicks
  const sol = await countTags(page, await svgOf(pic), ['polygon', 'path', 'line']);
  expect(sol.polygon + sol.path + sol.line).toBeGreaterThanOrEqual(4);
  await expect(panel.locator('.legend .piece')).toHaveCount(4);
  // pieces may cross: more solutions
  const editor = panel.getByLabel('Puzzle (TOML)');
  await editor.fill((await editor.inputValue()).replace('crossings = false', 'crossings = true'));
  await expect(panel.locator('#poly-check')).toContainText('No errors');
  await panel.getByRole('button', { name: 'Count' }).click();
  await expect(panel.locator('#poly-state')).toHaveText(/Complete: 11 solutions up to symmetry \(55 in all\)/);
});

test('a sphere puzzle and a prism puzzle are solved in the page and drawn layer by layer', async ({ page }) => {
  const { panel, pic } = await solveExample(page, 'Spheres', 'sphere', { pieces: 4, unique: 2, total: 16 });
  // the 14 spheres of the pyramid as shaded balls, in its 3 layers
  const svg = await svgOf(pic);
  expect((svg.match(/<circle class="ball"/g) || []).length).toBe(14);
  for (const z of [0, 1, 2]) expect(svg).toContain(`z = ${z}`);
  await expect(panel.locator('.legend .piece')).toHaveCount(4);
  const [nd] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download NDJSON' }).click()]);
  const lines = require('node:fs').readFileSync(await nd.path(), 'utf8').trim().split('\n');
  expect(lines).toHaveLength(2);
  const cells = JSON.parse(lines[0]).placements.flatMap((p) => p.cells);
  expect(cells).toHaveLength(14);
  expect(cells.every((c) => c.length === 3 && (c[0] + c[1] + c[2]) % 2 === 0)).toBe(true);

  const prism = await solveExample(page, 'Prisms', 'prism', { pieces: 3, unique: 1, total: 24 });
  // 12 prisms in 2 layers: each layer's triangles, a fill per placement
  const psvg = await svgOf(prism.pic);
  for (const z of [0, 1]) expect(psvg).toContain(`z = ${z}`);
  const sol = await countTags(page, psvg, ['path']);
  expect(sol.fills).toBeGreaterThanOrEqual(3);
});

/** '#rrggbb' or 'rgb(r, g, b)' or 'hsl(h s% l%)' as [h, s, l] (degrees, percent). */
function toHsl(colour) {
  const c = colour.trim().toLowerCase();
  let m = /^hsl\(\s*([\d.]+)(?:deg)?[\s,]+([\d.]+)%[\s,]+([\d.]+)%\s*\)$/.exec(c);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  let rgb;
  if ((m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(c))) rgb = [m[1], m[2], m[3]].map((x) => parseInt(x, 16));
  else if ((m = /^rgb\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)\s*\)$/.exec(c))) rgb = [m[1], m[2], m[3]].map(Number);
  else throw new Error(`not a colour: ${colour}`);
  const [r, g, b] = rgb.map((x) => x / 255);
  const max = Math.max(r, g, b), min = Math.min(r, g, b), l = (max + min) / 2, d = max - min;
  if (d === 0) return [0, 0, l * 100];
  const s = d / (1 - Math.abs(2 * l - 1));
  let h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [(h * 60 + 360) % 360, s * 100, l * 100];
}

const hueGap = (a, b) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

test('on Soma a piece has one colour in every view', async ({ page }) => {
  const panel = await open(page);
  await panel.getByLabel('Catalogue puzzle').selectOption('soma');
  await expect(panel.locator('#poly-check [data-grid]')).toHaveAttribute('data-grid', 'cube');
  // the pieces panel: a colour per piece
  const panelColours = Object.fromEntries(await panel.getByRole('list', { name: 'Pieces' }).locator('li').evaluateAll(
    (lis) => lis.map((li) => [li.dataset.name, li.dataset.colour])));
  expect(Object.keys(panelColours)).toHaveLength(7);
  await panel.getByLabel('Limit').fill('1');
  const id = await startedJob(page, () => panel.getByRole('button', { name: 'Solve' }).click());
  await expect(panel.locator('#poly-state')).toHaveText(/Stopped at the limit|Complete/);
  const sols = await (await page.request.get(`/api/jobs/${id}/solutions`)).json();
  const rec = sols.solutions[0];
  const layers = panel.getByRole('img', { name: /^Solution 1, its layers/ });
  await expect(layers).toBeVisible();
  const svg = await svgOf(layers);
  const view = panel.getByRole('img', { name: /^Isometric view of solution 1/ });
  await expect(view).toBeVisible();

  // For each placement: the fill of its first cell in the server's layer
  // picture (the layer's fill path that contains the cell's centre), and
  // the fills of its faces in the page's large isometric view.
  const seen = await page.evaluate(([text, placements]) => {
    const host = document.createElement('div');
    host.style.cssText = 'position:absolute;left:-10000px;top:0';
    host.innerHTML = text.replace(/^<\?xml[^>]*>\s*/, '');
    document.body.append(host);
    const svgEl = host.querySelector('svg');
    const texts = [...svgEl.querySelectorAll('text')];
    const out = [];
    for (const [i, pl] of placements.entries()) {
      const [x, y, z] = pl.cells[0];
      const caption = texts.find((t) => t.textContent.trim() === `z = ${z}`);
      const layer = caption.parentNode;
      // the cell size: the layer's width over the board's
      const fills = [...layer.querySelectorAll('path[fill]')].filter((p) => p.getAttribute('fill') !== 'none');
      let found = null;
      for (const cell of [24]) {
        const pt = svgEl.createSVGPoint();
        pt.x = (x + 0.5) * cell;
        pt.y = (y + 0.5) * cell;
        const hit = fills.find((p) => p.isPointInFill(pt));
        if (hit) { found = hit.getAttribute('fill'); break; }
      }
      const iso = [...document.querySelectorAll(`#tab-poly .iso-pic polygon[data-piece="${i}"]`)].map((p) => p.getAttribute('fill'));
      out.push({ piece: pl.piece, layer: found, iso });
    }
    // the faces of the server's small isometric view: stroked paths
    const small = [...svgEl.querySelectorAll('path[stroke][fill]')].map((p) => p.getAttribute('fill')).filter((f) => f !== 'none');
    host.remove();
    return { out, small };
  }, [svg, rec.placements]);

  expect(seen.out).toHaveLength(7);
  const layerHues = [];
  for (const [i, p] of seen.out.entries()) {
    expect(p.layer, `${p.piece}: its cell in the layers`).toMatch(/^#[0-9a-f]{6}$/);
    // the colour the server says, the pieces panel's, the layers': one
    expect(p.layer).toBe(rec.colours[i]);
    expect(p.layer).toBe(panelColours[p.piece]);
    const base = toHsl(p.layer);
    layerHues.push(base[0]);
    // the large isometric view: the same hue and saturation, lightness
    // changed by the shading only
    expect(p.iso.length, `${p.piece}: faces in the isometric view`).toBeGreaterThan(0);
    for (const f of p.iso) {
      const [hh, ss] = toHsl(f);
      expect(hueGap(hh, base[0]), `${p.piece}: hue of ${f} against ${p.layer}`).toBeLessThanOrEqual(1);
      expect(Math.abs(ss - base[1]), `${p.piece}: saturation of ${f} against ${p.layer}`).toBeLessThanOrEqual(1.5);
    }
  }
  // seven pieces, seven hues
  expect(new Set(layerHues.map((x) => Math.round(x))).size).toBe(7);
  // the small isometric view shades the same colours: each face's hue is
  // one of the pieces'
  expect(seen.small.length).toBeGreaterThan(20);
  for (const f of seen.small) {
    const hh = toHsl(f)[0];
    expect(Math.min(...layerHues.map((x) => hueGap(x, hh))), `small view face ${f}`).toBeLessThanOrEqual(3);
  }
  // the legend and the SVG download show the same colours
  const legend = await panel.locator('.legend .piece').evaluateAll((els) => els.map((e) => e.dataset.colour));
  expect(legend).toEqual(rec.colours);
  const [file] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download SVG' }).click()]);
  expect(require('node:fs').readFileSync(await file.path(), 'utf8')).toBe(svg);
});

test('the Polyforms tab on other grids at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { panel } = await solveExample(page, 'Triangles', 'triangle', { pieces: 3, unique: 26, total: 218 });
  for (const name of ['Solve', 'Count', 'Next solution', 'Download PNG', 'Sticks', 'Trigs']) {
    await expect(panel.getByRole('button', { name, exact: true })).toBeVisible();
  }
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow(), 'no horizontal scrolling at 375 px').toBeLessThanOrEqual(0);
  await shot(page, 'poly-triangle-375', { fullPage: true });
  // the catalogue's list, open, fits too
  await panel.locator('#poly-catalogue summary').click();
  await expect(panel.locator('#poly-catalogue h4').first()).toBeVisible();
  expect(await overflow(), 'the catalogue list at 375 px').toBeLessThanOrEqual(0);
  // every example loads and checks at 375 px, its pictures within the width
  for (const label of ['Squares', 'Cubes', 'Hexagons', 'Sticks', 'Twigs', 'Trigs', 'Spheres', 'Prisms']) {
    await panel.getByRole('group', { name: 'Examples' }).getByRole('button', { name: label }).click();
    await expect(panel.locator('#poly-check')).toContainText('No errors');
    await expect(panel.locator('#poly-check')).toContainText(label.toLowerCase());
    const img = panel.getByRole('img', { name: /board and pieces/i });
    await expect.poll(() => img.evaluate((i) => i.complete && i.naturalWidth)).toBeGreaterThan(20);
    const box = await img.boundingBox();
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(await overflow(), `${label} at 375 px`).toBeLessThanOrEqual(0);
  }
  await shot(page, 'poly-trig-375', { fullPage: true });
});
