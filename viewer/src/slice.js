// The grid slice view: one axis-aligned slice, coarse resolution first, then finer ones.
import { getFrame, column } from "./api.js";
import { rgb } from "./colormap.js";

const $ = (id) => document.getElementById(id);

export class SliceView {
  constructor(info, state) {
    this.info = info;
    this.state = state;
    this.state.slice = { generation: 0, resolution: -1, idle: true, shape: null };
    const names = Object.keys(info.grids);
    if (!names.length) { $("gridset").style.display = "none"; return; }
    $("grid").innerHTML = names.map((n) => `<option>${n}</option>`).join("");
    $("grid").onchange = () => this.reset();
    $("axis").onchange = () => this.reset();
    $("sliceidx").onchange = () => this.load();
    $("sliceidx").oninput = () => { $("sliceval").textContent = $("sliceidx").value; };
    $("step").addEventListener("change", () => this.load());   // the slice follows the step slider
    this.reset();
  }

  reset() {
    const g = this.info.grids[$("grid").value];
    const a = "xyz".indexOf($("axis").value);
    const n = a < g.dims.length ? g.dims[a] : 1;
    $("sliceidx").max = String(n - 1);
    $("sliceidx").value = String(Math.floor(n / 2));
    $("sliceval").textContent = $("sliceidx").value;
    this.load();
  }

  // Resolutions from coarse to full; a slice off a coarse resolution's lattice has no samples
  // there and is skipped.
  async load() {
    const s = this.state.slice;
    const gen = ++s.generation;
    const name = $("grid").value, g = this.info.grids[name];
    Object.assign(s, { idle: false, resolution: -1, requests: [] });
    const start = Math.max(0, g.max_resolution - 8);
    try {
      for (let r = start; r <= g.max_resolution; r++) {
        const u = `/api/grid?name=${encodeURIComponent(name)}&step=${this.step(g)}&resolution=${r}` +
                  `&slice=${$("axis").value}:${$("sliceidx").value}`;
        const f = await getFrame(u);
        if (gen !== s.generation) return;
        s.requests.push({ url: u, shape: f.header.arrays[0].shape, bytes: f.bytes });
        if (f.header.arrays[0].shape.some((d) => d === 0)) continue;
        this.draw(f);
        Object.assign(s, { resolution: r, shape: f.header.arrays[0].shape });
        $("sliceinfo").textContent = `resolution ${r} of ${g.max_resolution}: ${f.header.arrays[0].shape.join(" x ")}`;
      }
      s.idle = true;
    } catch (e) {
      if (gen === s.generation) { $("sliceinfo").textContent = String(e.message); s.idle = true; }
    }
  }

  // The particles' step when the grid has it, else the grid's first step.
  step(g) {
    const want = Number($("stepval").textContent);
    return g.steps.includes(want) ? want : g.steps[0];
  }

  draw(f) {
    const shape = f.header.arrays[0].shape;   // (z, y, x[, c]); one of the axes has length 1
    const comps = shape.length === 4 ? shape[3] : 1;
    const spatial = shape.slice(0, 3).filter((d) => d !== 1);
    const [h, w] = spatial.length === 2 ? spatial : spatial.length === 1 ? [1, spatial[0]] : [1, 1];
    const n = h * w;
    const vals = column(f.arrays.data, comps, 0, n);
    let lo = Infinity, hi = -Infinity;
    for (const v of vals) { if (v < lo) lo = v; if (v > hi) hi = v; }
    const canvas = $("slice"), ctx = canvas.getContext("2d");
    const img = ctx.createImageData(w, h);
    for (let i = 0; i < n; i++) {
      const [r, g, b] = rgb((vals[i] - lo) / (hi - lo || 1));
      img.data.set([r * 255, g * 255, b * 255, 255], i * 4);
    }
    const tmp = document.createElement("canvas");
    tmp.width = w; tmp.height = h;
    tmp.getContext("2d").putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(tmp, 0, 0, canvas.width, canvas.height);
    this.state.slice.paints = (this.state.slice.paints || 0) + 1;
  }
}
