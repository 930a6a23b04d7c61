// The series view: one variable at one flushed step, a z plane of a 3-D variable or the whole
// 2-D variable, drawn with its aspect and y = 0 at the bottom, with a colour bar.
import { getFrame, column } from "./api.js";
import { drawLegend } from "./colormap.js";
import { drawPlane, finiteRange } from "./plane.js";

const $ = (id) => document.getElementById(id);

export class SeriesView {
  constructor(info, state) {
    this.info = info;
    this.state = state;
    this.state.series = { generation: 0, idle: true };
    const names = Object.keys(info.series).filter((n) => info.series[n].steps.length);
    if (!names.length) { $("seriesset").style.display = "none"; return; }
    $("series").innerHTML = names.map((n) => `<option>${n}</option>`).join("");
    $("series").onchange = () => this.reset();
    $("svar").onchange = () => this.resetVar();
    $("sstep").oninput = () => { $("sstepval").textContent = this.steps()[Number($("sstep").value)]; };
    $("sstep").onchange = () => this.load();
    $("splane").oninput = () => { $("splaneval").textContent = $("splane").value; };
    $("splane").onchange = () => this.load();
    this.reset();
  }

  current() { return this.info.series[$("series").value]; }
  steps() { return this.current().steps; }

  reset() {
    const s = this.current();
    $("svar").innerHTML = Object.keys(s.variables).map((v) => `<option>${v}</option>`).join("");
    $("sstep").max = String(s.steps.length - 1);
    $("sstep").value = "0";
    $("sstepval").textContent = s.steps[0];
    this.resetVar();
  }

  resetVar() {
    const s = this.current(), v = s.variables[$("svar").value];
    const nz = v.ndim === 3 ? s.dims[2] : 1;
    $("splane").max = String(nz - 1);
    $("splane").value = String(Math.floor(nz / 2));
    $("splane").disabled = v.ndim !== 3;
    $("splaneval").textContent = v.ndim === 3 ? $("splane").value : "(2-D)";
    this.load();
  }

  async load() {
    const st = this.state.series;
    const gen = ++st.generation;
    const s = this.current(), name = $("series").value, vname = $("svar").value, v = s.variables[vname];
    const step = s.steps[Number($("sstep").value)], z = Number($("splane").value);
    const box = v.ndim === 3 ? `&box=0,0,${z},${s.dims[0]},${s.dims[1]},${z + 1}` : "";
    const u = `/api/series?name=${encodeURIComponent(name)}&var=${encodeURIComponent(vname)}&steps=${step}${box}`;
    Object.assign(st, { idle: false, url: u, step, var: vname, z: v.ndim === 3 ? z : null });
    try {
      const f = await getFrame(u);
      if (gen !== st.generation) return;
      const shape = f.header.arrays[0].shape;   // (1, [1,] y, x)
      const [h, w] = shape.slice(-2);
      const vals = column(f.arrays.data, 1, 0, h * w);
      const [lo, hi] = finiteRange(vals);
      const size = drawPlane($("splot"), vals, w, h, lo, hi);
      st.legend = drawLegend($("slegend"), `${vname} (step ${step}${v.ndim === 3 ? `, z = ${z}` : ""})`, lo, hi);
      Object.assign(st, { shape, canvas: size, range: [lo, hi], idle: true });
      $("sinfo").textContent = `${w} x ${h} (x across, y up)`;
    } catch (e) {
      if (gen === st.generation) { $("sinfo").textContent = String(e.message); st.idle = true; }
    }
  }
}
