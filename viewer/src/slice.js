// The grid slice view: one axis-aligned slice of a field, coarse resolution first, then finer
// ones up to the chosen resolution; drawn with its aspect, y (or z) = 0 at the bottom.
import { getFrame, column } from "./api.js";
import { drawLegend } from "./colormap.js";
import { drawPlane, finiteRange } from "./plane.js";

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
    $("axis").onchange = () => this.resetAxis();
    $("gridfield").onchange = () => this.load();
    $("gridres").onchange = () => this.load();
    $("sliceidx").onchange = () => this.load();
    $("sliceidx").oninput = () => { $("sliceval").textContent = $("sliceidx").value; };
    $("step").addEventListener("change", () => this.load());   // the slice follows the step slider
    this.reset();
  }

  reset() {
    const g = this.info.grids[$("grid").value];
    const fields = Object.entries(g.fields).flatMap(([n, f]) =>
      f.components === 1 ? [[n, n, 0]] : Array.from({ length: f.components }, (_, c) => [`${n}[${c}]`, n, c]));
    $("gridfield").innerHTML = fields.map((f) => `<option value="${f[0]}">${f[0]}</option>`).join("");
    this.fields = fields;
    $("gridres").innerHTML = Array.from({ length: g.max_resolution + 1 }, (_, r) => g.max_resolution - r)
      .map((r) => `<option value="${r}">${r}${r === g.max_resolution ? " (full)" : ""}</option>`).join("");
    $("axis").innerHTML = "zyx".slice(3 - g.dims.length).split("").map((a) => `<option>${a}</option>`).join("");
    this.resetAxis();
  }

  resetAxis() {
    const g = this.info.grids[$("grid").value];
    const a = "xyz".indexOf($("axis").value);
    const n = g.dims[a];
    $("sliceidx").max = String(n - 1);
    $("sliceidx").value = String(Math.floor(n / 2));   // the middle plane, as lodex render
    $("sliceval").textContent = $("sliceidx").value;
    this.load();
  }

  // Resolutions from max(0, chosen - 8) to the chosen one; a slice off a coarse resolution's
  // lattice has no samples there and is skipped.
  async load() {
    const s = this.state.slice;
    const gen = ++s.generation;
    const name = $("grid").value, g = this.info.grids[name];
    const target = Number($("gridres").value);
    const fld = this.fields.find((f) => f[0] === $("gridfield").value);
    Object.assign(s, { idle: false, resolution: -1, requests: [], field: fld[0], axis: $("axis").value,
                       index: Number($("sliceidx").value) });
    try {
      for (let r = Math.max(0, target - 8); r <= target; r++) {
        const u = `/api/grid?name=${encodeURIComponent(name)}&step=${this.step(g)}&resolution=${r}` +
                  `&field=${encodeURIComponent(fld[1])}&slice=${$("axis").value}:${$("sliceidx").value}`;
        const f = await getFrame(u);
        if (gen !== s.generation) return;
        s.requests.push({ url: u, shape: f.header.arrays[0].shape, bytes: f.bytes });
        if (f.header.arrays[0].shape.some((d) => d === 0)) continue;
        this.draw(f, g, fld);
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

  // The slice's two remaining axes, in (z, y, x) order, as rows (vertical) and columns.
  draw(f, g, fld) {
    const shape = f.header.arrays[0].shape;   // (z, y, x[, c]) or (y, x[, c])
    const nd = g.dims.length;
    const comps = shape.length > nd ? shape[nd] : 1;
    const spatial = shape.slice(0, nd);
    const cut = nd - 1 - "xyz".indexOf($("axis").value);   // the sliced axis' place in (z, y, x)
    const keep = spatial.filter((_, i) => i !== cut);
    const [h, w] = keep.length === 2 ? keep : [1, keep[0]];
    const vals = column(f.arrays.data, comps, fld[2], h * w);
    const [lo, hi] = finiteRange(vals);
    const size = drawPlane($("slice"), vals, w, h, lo, hi);
    const axes = ["z", "y", "x"].slice(3 - nd).filter((_, i) => i !== cut);
    this.state.slice.legend = drawLegend($("slicelegend"), `${fld[0]} (${axes[1] || axes[0]} across, ` +
      `${keep.length === 2 ? axes[0] : "-"} up)`, lo, hi);
    Object.assign(this.state.slice, { canvas: size, plane: [h, w], range: [lo, hi], axes });
    this.state.slice.paints = (this.state.slice.paints || 0) + 1;
  }
}
