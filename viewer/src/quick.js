// The first paint without WebGL: the first particles drawn on a Canvas 2D overlay (which the
// browser draws without waiting for its GPU process to set up a WebGL context) with the WebGL
// frame's camera, colour map and point size, hidden in the frame where WebGL first draws them.
import { LUT } from "./colormap.js";

// three.js writes the colours of the drawn points as linear values out through the sRGB
// transfer (its renderer's output colour space): the same here, so both pictures match.
const srgb = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

// Draws n particles (positions n x 3 as read, relative to `origin` as the WebGL buffers; values
// coloured on [lo, hi] as Cloud.append) seen through `m` (the camera's projection times view
// matrix, column-major: view.js's viewProjection) on `canvas`, sized to `w` x `h` pixels, as
// squares of `size` pixels centred on each particle's pixel (as WebGL points), the nearest drawn
// last (WebGL's depth test). Returns the particles drawn (those inside the view, between the near
// and far planes).
export function drawQuick(canvas, m, positions, values, n, origin, lo, hi, w, h, size = 2) {
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext("2d", { alpha: false });
  ctx.fillStyle = "#000";   // the WebGL frame's clear colour (three.js's default)
  ctx.fillRect(0, 0, w, h);
  const pts = [];
  for (let i = 0; i < n; i++) {
    const x = Number(positions[3 * i]) - origin[0], y = Number(positions[3 * i + 1]) - origin[1];
    const z = Number(positions[3 * i + 2]) - origin[2];
    const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    if (!(cw > 0)) continue;
    const nx = (m[0] * x + m[4] * y + m[8] * z + m[12]) / cw, ny = (m[1] * x + m[5] * y + m[9] * z + m[13]) / cw;
    const nz = (m[2] * x + m[6] * y + m[10] * z + m[14]) / cw;
    // outside the view or the near and far planes: WebGL clips it (a point by its centre)
    if (nz < -1 || nz > 1 || nx < -1 || nx > 1 || ny < -1 || ny > 1) continue;
    pts.push([(nx + 1) * w / 2, (1 - ny) * h / 2, nz, values[i]]);
  }
  pts.sort((a, b) => b[2] - a[2]);   // far first
  const scale = 1023 / (hi > lo ? hi - lo : 1), half = size / 2;
  for (const [sx, sy, , v] of pts) {
    const t = (v - lo) * scale;
    const c = 3 * (t > 0 ? (t < 1023 ? Math.round(t) : 1023) : 0);   // NaN: the low end
    const [r, g, b] = [LUT[c], LUT[c + 1], LUT[c + 2]].map((u) => Math.round(255 * srgb(u)));
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.fillRect(Math.round(sx - half), Math.round(sy - half), size, size);
  }
  return pts.length;
}
