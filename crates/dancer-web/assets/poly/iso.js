// An isometric (orthographic) picture of a 3D polycube solution, drawn as
// SVG from the solution record's cells, turnable: yaw turns the solid about
// its vertical axis, pitch tilts the view. Coordinates as in the records:
// x to the right, y rows (y = 0 at the back), z layers (z = 0 at the bottom).
//
// Each placement is drawn in the colour the server gives it (the solution
// event's `colours`, the colours of the server's own pictures), its faces
// shaded by changing the lightness only: hue and saturation stay the
// piece's, so that a piece is recognisably the same in every view.

const NS = 'http://www.w3.org/2000/svg';

/** A fallback colour per placement, for records without colours:
 * distinct hues (golden angle), three lightnesses. [h, s, l] in degrees and
 * percent. */
export function placementColor(i) {
  const hue = (i * 137.507764 + 10) % 360;
  const light = [62, 52, 72][i % 3];
  const sat = [60, 52, 66][Math.floor(i / 3) % 3];
  return [hue, sat, light];
}

/** '#rrggbb' as [h, s, l] (degrees, percent, percent); null if not a colour. */
export function hexToHsl(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(String(hex || '').trim());
  if (!m) return null;
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => parseInt(x, 16) / 255);
  const max = Math.max(r, g, b), min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, l * 100];
  const s = d / (1 - Math.abs(2 * l - 1));
  let h;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return [(h * 60 + 360) % 360, s * 100, l * 100];
}

/** A face's fill: the colour with its lightness times `shade`, hue and
 * saturation kept. */
function hsl([h, s, l], shade) {
  return `hsl(${h.toFixed(2)} ${s.toFixed(2)}% ${Math.max(8, Math.min(95, l * shade)).toFixed(2)}%)`;
}

// The six faces of a unit cube: normal, and its four corners (offsets);
// the take-apart player draws with them too.
export const FACES = [
  { n: [1, 0, 0], c: [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]] },
  { n: [-1, 0, 0], c: [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]] },
  { n: [0, 1, 0], c: [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]] },
  { n: [0, -1, 0], c: [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]] },
  { n: [0, 0, 1], c: [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]] },
  { n: [0, 0, -1], c: [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]] },
];

/**
 * Draws the record's placements into a new <svg>.
 * view: { yaw, pitch } in degrees; opts: { spread: gap between layers
 * (0 = solid), size: a cube's edge in pixels, colours: '#rrggbb' per
 * placement (the solution event's) }.
 * Returns the svg element.
 */
export function isoSvg(placements, view, opts = {}) {
  const spread = opts.spread || 0;
  const size = opts.size || 22;
  const given = opts.colours || [];
  const colour = placements.map((_, i) => hexToHsl(given[i]) || placementColor(i));
  const owner = new Map(); // "x,y,z" -> placement index
  let lo = [Infinity, Infinity, Infinity];
  let hi = [-Infinity, -Infinity, -Infinity];
  placements.forEach((p, i) => {
    for (const c of p.cells) {
      const v = [c[0], c[1], c[2] || 0];
      owner.set(v.join(','), i);
      for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], v[k]); hi[k] = Math.max(hi[k], v[k] + 1); }
    }
  });
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('xmlns', NS);
  if (!owner.size) { svg.setAttribute('viewBox', '0 0 10 10'); return svg; }
  const centre = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2 + spread * (hi[2] - lo[2] - 1) / 2];
  const t = (view.yaw * Math.PI) / 180;
  const p = (view.pitch * Math.PI) / 180;
  const ct = Math.cos(t), st = Math.sin(t), cp = Math.cos(p), sp = Math.sin(p);
  // world (x, y, z) -> [screen x, screen y (down), depth toward the viewer]
  const project = (x, y, z) => {
    const a = x * ct - y * st;
    const b = x * st + y * ct;
    return [a, -(-b * sp + z * cp), b * cp + z * sp];
  };
  const light = [0.35, 0.55, 0.75];
  const cubes = [];
  for (const [key, i] of owner) {
    const [x, y, z] = key.split(',').map(Number);
    const zz = z + spread * (z - lo[2]);
    const o = [x - centre[0], y - centre[1], zz - centre[2]];
    const depth = project(o[0] + 0.5, o[1] + 0.5, o[2] + 0.5)[2];
    cubes.push({ x, y, z, o, i, depth });
  }
  cubes.sort((a, b) => a.depth - b.depth);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const polys = [];
  for (const cube of cubes) {
    for (const f of FACES) {
      // normal toward the viewer?
      const n = project(f.n[0], f.n[1], f.n[2]);
      if (n[2] <= 1e-9) continue;
      // hidden behind a neighbour of the same solid (no gaps in a solid)
      const nb = [cube.x + f.n[0], cube.y + f.n[1], cube.z + f.n[2]];
      const neighbour = owner.get(nb.join(','));
      if (neighbour !== undefined && !(spread && f.n[2] !== 0)) {
        // a face between two cubes of one piece is never drawn; between two
        // pieces it is hidden too (it touches the other cube)
        continue;
      }
      const pts = f.c.map((d) => {
        const q = project(cube.o[0] + d[0], cube.o[1] + d[1], cube.o[2] + d[2]);
        const X = q[0] * size, Y = q[1] * size;
        minX = Math.min(minX, X); maxX = Math.max(maxX, X);
        minY = Math.min(minY, Y); maxY = Math.max(maxY, Y);
        return `${X.toFixed(2)},${Y.toFixed(2)}`;
      });
      // world normal dotted with a fixed light (faces keep their shade as they turn)
      const lum = 0.72 + 0.38 * Math.max(0, f.n[0] * light[0] + f.n[1] * light[1] + f.n[2] * light[2]);
      polys.push({ pts: pts.join(' '), fill: hsl(colour[cube.i], lum), i: cube.i });
    }
  }
  const pad = 4;
  svg.setAttribute('viewBox', `${(minX - pad).toFixed(1)} ${(minY - pad).toFixed(1)} ${(maxX - minX + 2 * pad).toFixed(1)} ${(maxY - minY + 2 * pad).toFixed(1)}`);
  svg.setAttribute('width', Math.ceil(maxX - minX + 2 * pad));
  svg.setAttribute('height', Math.ceil(maxY - minY + 2 * pad));
  for (const q of polys) {
    const el = document.createElementNS(NS, 'polygon');
    el.setAttribute('points', q.pts);
    el.setAttribute('fill', q.fill);
    el.setAttribute('stroke', '#222');
    el.setAttribute('stroke-width', '0.8');
    el.setAttribute('stroke-linejoin', 'round');
    el.dataset.piece = String(q.i);
    svg.append(el);
  }
  return svg;
}
