// A perceptually ordered colour map (viridis' key colours, linearly interpolated) and its legend.
const STOPS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];

export function rgb(t) {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  return STOPS[i].map((v, k) => (v + f * (STOPS[i + 1][k] - v)) / 255);
}

// rgb() at 1024 evenly spaced values of [0, 1], for colouring many particles without allocating.
export const LUT = (() => {
  const out = new Float32Array(1024 * 3);
  for (let i = 0; i < 1024; i++) out.set(rgb(i / 1023), 3 * i);
  return out;
})();

export function drawBar(canvas) {
  const ctx = canvas.getContext("2d");
  for (let y = 0; y < canvas.height; y++) {
    const [r, g, b] = rgb(1 - y / (canvas.height - 1));
    ctx.fillStyle = `rgb(${r * 255},${g * 255},${b * 255})`;
    ctx.fillRect(0, y, canvas.width, 1);
  }
}

// About n round values (1, 2 or 5 times a power of ten apart) inside [lo, hi].
export function niceTicks(lo, hi, n = 5) {
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return [lo];
  const raw = (hi - lo) / n, p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => (hi - lo) / s <= n) || 10 * p;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

function fmt(v) {
  if (v === 0) return "0";
  const a = Math.abs(v);
  return a >= 1e5 || a < 1e-3 ? v.toExponential(2) : Number(v.toPrecision(4)).toString();
}

// A colour bar in `el`: the field's name, the bar, its minimum and maximum and round ticks
// between them, on an opaque background. Returns what it shows (for the browser test).
export function drawLegend(el, title, lo, hi) {
  const ticks = niceTicks(lo, hi);
  el.innerHTML = "";
  const head = document.createElement("div");
  head.className = "title";
  head.textContent = title;
  const bar = document.createElement("canvas");
  bar.width = 20; bar.height = 200;
  drawBar(bar);
  const labels = document.createElement("div");
  labels.className = "ticks";
  const span = hi > lo ? hi - lo : 1;
  const put = (v, text) => {
    const d = document.createElement("div");
    d.style.top = `${(1 - (v - lo) / span) * 100}%`;
    d.textContent = text;
    labels.appendChild(d);
  };
  put(hi, `${fmt(hi)} max`);
  for (const t of ticks) if (Math.abs(t - lo) > 0.08 * span && Math.abs(hi - t) > 0.08 * span) put(t, `– ${fmt(t)}`);
  put(lo, `${fmt(lo)} min`);
  el.append(head, bar, labels);
  return { title, min: lo, max: hi, ticks };
}
