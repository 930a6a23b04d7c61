// What the viewer and its first paint (first.js) share: the colour fields of a group, the
// request of a level, the first view and the camera that frames a box (no three.js: first.js
// stays small).
// [label, field, component, components] of each colour choice of group `g` (position last).
export function fieldOptions(g) {
  const out = [];
  for (const [name, f] of Object.entries(g.fields)) {
    if (name === "position") continue;
    if (f.components === 1) out.push([name, name, 0, 1]);
    else for (let c = 0; c < f.components; c++) out.push([`${name}[${c}]`, name, c, f.components]);
  }
  for (let c = 0; c < 3; c++) out.push([`position[${c}]`, "position", c, 3]);
  return out;
}

export function url(path, params) {
  const q = Object.entries(params).filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  return `${path}?${q}`;
}

export function levelUrl(name, step, box, from, level, fields) {
  return url("/api/particles", { group: name, step, level, from: from >= 0 ? from : null,
                                 box: box.flat().join(","), fields: fields.join(",") });
}

// The first view of `info` (/api/info): the first group's first step, its domain, its first
// colour field: {group, opt (fieldOptions), url of its level 0}; null without particles.
export function firstView(info) {
  const name = Object.keys(info.particles)[0];
  if (name === undefined) return null;
  const g = info.particles[name];
  if (!g.steps.length) return null;
  const opt = fieldOptions(g)[0];
  const fields = opt[1] === "position" ? ["position"] : ["position", opt[1]];
  return { group: g, opt, url: levelUrl(name, g.steps[0].step, g.domain, -1, 0, fields) };
}

// Where a camera of vertical field of view `fov` (degrees) and `aspect` frames `bounds` of
// `domain`: the bounds' bounding sphere fills the view, seen from a fixed direction. Positions
// are relative to the origin (the domain's centre). Returns {origin, target (what it looks at),
// eye (where it is), dist (between them), near, far}.
export function framing(domain, [lo, hi], fov, aspect) {
  const origin = domain[0].map((v, a) => (v + domain[1][a]) / 2);
  const target = lo.map((v, a) => (v + hi[a]) / 2 - origin[a]);
  const radius = Math.max(1e-300, 0.5 * Math.hypot(...hi.map((v, a) => v - lo[a])));
  const vfov = fov * Math.PI / 180;
  const hfov = 2 * Math.atan(Math.tan(vfov / 2) * aspect);
  const dist = radius / Math.sin(Math.min(vfov, hfov) / 2);
  const dir = [0.9, 0.7, 1.1], len = Math.hypot(...dir);
  const eye = target.map((v, a) => v + dir[a] / len * dist);
  return { origin, target, eye, dist, near: dist * 1e-4, far: dist * 100 };
}

// The 4 x 4 matrix (column-major, as three.js's elements) of a perspective camera at `eye`
// looking at `target` (y up, as three.js's lookAt) times its projection (three.js's
// PerspectiveCamera: vertical field of view `fov` degrees, `aspect`, `near`, `far`).
export function viewProjection({ eye, target, near, far }, fov, aspect) {
  const sub = (a, b) => a.map((v, i) => v - b[i]);
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const unit = (a) => { const l = Math.hypot(...a); return a.map((v) => v / l); };
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const z = unit(sub(eye, target)), x = unit(cross([0, 1, 0], z)), y = cross(z, x);
  const top = near * Math.tan(fov * Math.PI / 360), sx = near / (top * aspect), sy = near / top;
  const c = -(far + near) / (far - near), d = -2 * far * near / (far - near);
  // rows of the view matrix: x, y, z and their translations; the projection scales x and y,
  // maps z to c z + d and w to -z
  const rows = [x, y, z].map((r) => [...r, -dot(r, eye)]);
  const m = new Array(16).fill(0);
  for (let j = 0; j < 4; j++) {   // column j
    m[4 * j] = sx * rows[0][j];
    m[4 * j + 1] = sy * rows[1][j];
    m[4 * j + 2] = c * rows[2][j] + (j === 3 ? d : 0);
    m[4 * j + 3] = -rows[2][j];
  }
  return m;
}
