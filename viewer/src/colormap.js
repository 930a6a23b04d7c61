// A perceptually ordered colour map (viridis' key colours, linearly interpolated).
const STOPS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];

export function rgb(t) {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  return STOPS[i].map((v, k) => (v + f * (STOPS[i + 1][k] - v)) / 255);
}

export function drawBar(canvas) {
  const ctx = canvas.getContext("2d");
  for (let y = 0; y < canvas.height; y++) {
    const [r, g, b] = rgb(1 - y / (canvas.height - 1));
    ctx.fillStyle = `rgb(${r * 255},${g * 255},${b * 255})`;
    ctx.fillRect(0, y, canvas.width, 1);
  }
}
