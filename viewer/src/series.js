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
    $("splot").addEventListener("click", (e) => this.timeline(e.offsetX, e.offsetY).catch((err) => {
      $("sinfo").textContent = String(err.message);
    }));
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
      Object.assign(st, { shape, canvas: size, range: [lo, hi], plane: [h, w], idle: true });
      $("sinfo").textContent = `${w} x ${h} (x across, y up); click a point for its time line`;
    } catch (e) {
      if (gen === st.generation) { $("sinfo").textContent = String(e.message); st.idle = true; }
    }
  }

  // The clicked sample's value at every flushed step, drawn as a line over the steps.
  async timeline(px, py) {
    const st = this.state.series;
    if (!st.plane) return;
    const [h, w] = st.plane, [cw, ch] = st.canvas;
    const x = Math.min(w - 1, Math.floor(px * w / cw)), y = Math.min(h - 1, Math.floor((ch - 1 - py) * h / ch));
    const s = this.current(), name = $("series").value, vname = st.var, z = st.z ?? 0;
    const u = `/api/series?name=${encodeURIComponent(name)}&var=${encodeURIComponent(vname)}` +
              `&box=${x},${y},${z},${x + 1},${y + 1},${z + 1}`;
    const f = await getFrame(u);
    const values = Array.from(f.arrays.data, Number);
    st.timeline = { x, y, z: st.z, steps: f.header.steps, values };
    const c = $("stime"), ctx = c.getContext("2d");
    ctx.fillStyle = "#000"; ctx.fillRect(0, 0, c.width, c.height);
    const [lo, hi] = finiteRange(values);
    const n = values.length, pad = 14;
    ctx.strokeStyle = "#5ec962"; ctx.beginPath();
    values.forEach((v, i) => {
      const X = pad + (n > 1 ? i / (n - 1) : 0.5) * (c.width - 2 * pad);
      const Y = c.height - pad - ((v - lo) / (hi - lo || 1)) * (c.height - 2 * pad);
      if (i) ctx.lineTo(X, Y); else ctx.moveTo(X, Y);
    });
    ctx.stroke();
    ctx.fillStyle = "#ddd"; ctx.font = "11px sans-serif";
    ctx.fillText(`${vname} at x=${x} y=${y}${st.z === null ? "" : ` z=${z}`}: ${lo.toPrecision(4)}..${hi.toPrecision(4)}`, 4, 11);
    ctx.fillText(`steps ${f.header.steps[0]}..${f.header.steps[n - 1]}`, 4, c.height - 2);
  }
}
