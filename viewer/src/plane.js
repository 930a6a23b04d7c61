// A 2-D array drawn as an image with its aspect kept and its first row (y = 0, or z = 0) at the
// bottom, as lodex render and ParaView draw it.
import { rgb } from "./colormap.js";

export const SIDE = 300;   // the longer side of the picture, in pixels

// vals: h rows of w values (row 0 first); lo..hi onto the colour map. Returns the canvas size.
export function drawPlane(canvas, vals, w, h, lo, hi) {
  const scale = SIDE / Math.max(w, h);
  canvas.width = Math.max(1, Math.round(w * scale));
  canvas.height = Math.max(1, Math.round(h * scale));
  const img = new ImageData(w, h);
  const span = hi - lo || 1;
  for (let row = 0; row < h; row++) {
    const out = (h - 1 - row) * w;   // row 0 at the bottom
    for (let c = 0; c < w; c++) {
      const [r, g, b] = rgb((vals[row * w + c] - lo) / span);
      img.data.set([r * 255, g * 255, b * 255, 255], (out + c) * 4);
    }
  }
  const tmp = document.createElement("canvas");
  tmp.width = w; tmp.height = h;
  tmp.getContext("2d").putImageData(img, 0, 0);
  const ctx = canvas.getContext("2d");
  ctx.imageSmoothingEnabled = false;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(tmp, 0, 0, canvas.width, canvas.height);
  return [canvas.width, canvas.height];
}

export function finiteRange(vals) {
  let lo = Infinity, hi = -Infinity;
  for (const v of vals) if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
  return lo <= hi ? [lo, hi] : [0, 1];
}
