// lodex serve's viewer: coarse levels first, then the finer levels of what is in view.
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { getJSON, getFrame, column } from "./api.js";
import { drawBar } from "./colormap.js";
import { Cloud } from "./particles.js";
import { SliceView } from "./slice.js";

const $ = (id) => document.getElementById(id);

// What the browser test reads: every request made, what is drawn, whether streaming is idle.
const state = { requests: [], drawn: 0, idle: false, level: -1, levels: 0, box: null, generation: 0,
                paints: 0, error: null, filter: null, range: null };
window.lodexViewer = state;

let info, group, renderer, scene, camera, controls, cloud, origin, selection = null;

function fail(e) {
  state.error = String(e.message || e);
  $("error").textContent = state.error;
  state.idle = true;
}

function fieldOptions(g) {
  const out = [];
  for (const [name, f] of Object.entries(g.fields)) {
    if (name === "position") continue;
    if (f.components === 1) out.push([name, name, 0, 1]);
    else for (let c = 0; c < f.components; c++) out.push([`${name}[${c}]`, name, c, f.components]);
  }
  for (let c = 0; c < 3; c++) out.push([`position[${c}]`, "position", c, 3]);
  return out;
}

function currentStep() { return group.steps[Number($("step").value)]; }
function colourField() { return fieldOptions(group).find((o) => o[0] === $("field").value); }

// The box in view: a cube around the orbit target as wide as the view at that distance,
// inside the selection (or the domain).
function viewBox() {
  const bounds = selection || group.domain;
  const dist = camera.position.distanceTo(controls.target);
  const half = dist * Math.tan(THREE.MathUtils.degToRad(camera.fov / 2)) * Math.max(1, camera.aspect);
  const t = controls.target.toArray().map((v, a) => v + origin[a]);
  const lo = t.map((v, a) => Math.max(bounds[0][a], v - half));
  const hi = t.map((v, a) => Math.min(bounds[1][a], v + half));
  for (let a = 0; a < 3; a++) if (hi[a] < lo[a]) hi[a] = lo[a];
  return [lo, hi];
}

function sameBox(a, b) {
  if (!a || !b) return false;
  const size = group.domain[1].map((v, i) => v - group.domain[0][i]);
  for (let s = 0; s < 2; s++) for (let i = 0; i < 3; i++)
    if (Math.abs(a[s][i] - b[s][i]) > 0.02 * size[i]) return false;
  return true;
}

function url(path, params) {
  const q = Object.entries(params).filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  return `${path}?${q}`;
}

async function fetchLevel(box, from, level, fields) {
  const params = { group: group.name, step: currentStep(), level, from: from >= 0 ? from : null,
                   box: box.flat().join(","), fields: fields.join(",") };
  const u = url("/api/particles", params);
  const t0 = performance.now();
  const f = await getFrame(u);
  state.requests.push({ url: u, level, from, box, count: f.header.count, bytes: f.bytes,
                        ms: performance.now() - t0, levels: f.header.levels });
  return f;
}

async function fetchFilter(box, level, fields) {
  const u = url("/api/query", { group: group.name, step: currentStep(), q: state.filter,
                                level, box: box.flat().join(","), fields: fields.join(",") });
  const f = await getFrame(u);
  state.requests.push({ url: u, level, from: null, box, count: f.header.count, bytes: f.bytes, query: true });
  $("qinfo").textContent = `${f.header.count.toLocaleString()} matches, ` +
    (f.header.used_index ? "bitmap index" : `scanned: ${f.header.notes.join("; ")}`);
  return f;
}

function paint(frame, opt) {
  const n = frame.header.count;
  const vals = column(frame.arrays[opt[1]], opt[3], opt[2], n);
  if (!state.range) {
    let lo = Infinity, hi = -Infinity;
    for (const v of vals) { if (v < lo) lo = v; if (v > hi) hi = v; }
    state.range = n ? [lo, hi] : [0, 1];
    $("barmin").textContent = state.range[0].toPrecision(4);
    $("barmax").textContent = state.range[1].toPrecision(4);
  }
  cloud.append(frame.arrays.position, vals, n, origin, state.range[0], state.range[1]);
  state.drawn = cloud.count;
  if (!state.paints) state.firstPaintMs = performance.now();   // since the page's navigation began
  state.paints++;
}

// Streams the view: level 0 of the box, then each next level's new particles, until the
// budget or the last level; a newer stream (generation) stops this one.
async function stream() {
  const gen = ++state.generation;
  const box = viewBox(), opt = colourField();
  const fields = opt[1] === "position" ? ["position"] : ["position", opt[1]];
  const budget = Number($("budget").value) || 2e6;
  Object.assign(state, { idle: false, box, level: -1, range: null, error: null });
  $("error").textContent = "";
  cloud.clear();
  try {
    if (state.filter) return await streamFilter(gen, box, fields, opt, budget);
    let last = 0, level = 0;
    for (;;) {
      const f = await fetchLevel(box, level - 1, level, fields);
      if (gen !== state.generation) return;
      paint(f, opt);
      Object.assign(state, { level, levels: f.header.levels });
      progress(`level ${level + 1} of ${f.header.levels}: ${cloud.count.toLocaleString()} particles`);
      last = f.header.count;
      if (level + 1 >= f.header.levels || cloud.count + 2 * last > budget) break;
      level++;
    }
    progress(`${cloud.count.toLocaleString()} particles, level ${state.level + 1} of ${state.levels}` +
             (state.level + 1 < state.levels ? " (zoom in for more)" : " (all)"));
    state.idle = true;
  } catch (e) { if (gen === state.generation) fail(e); }
}

async function streamFilter(gen, box, fields, opt, budget) {
  const levels = group.steps_info[currentStep()].levels;
  let level = 0;
  for (; level + 1 < levels; level++) {   // the finest level whose read fits the budget
    const f = await fetchLevel(box, -1, level + 1, ["position"]);
    if (gen !== state.generation) return;
    if (f.header.count > budget) break;
  }
  const f = await fetchFilter(box, level, fields);
  if (gen !== state.generation) return;
  paint(f, opt);
  Object.assign(state, { level, levels });
  progress(`${cloud.count.toLocaleString()} matches of ${state.filter} (levels 0..${level})`);
  state.idle = true;
}

function progress(text) { $("progress").textContent = text; }

function restart() {
  stream();
}

function onViewChange() {
  if (!sameBox(viewBox(), state.box)) restart();
}

function setupScene() {
  renderer = new THREE.WebGLRenderer({ canvas: $("view"), antialias: false, preserveDrawingBuffer: true });
  scene = new THREE.Scene();
  camera = new THREE.PerspectiveCamera(50, 1, 1e-6, 1e9);
  controls = new OrbitControls(camera, renderer.domElement);
  controls.addEventListener("end", onViewChange);
  cloud = new Cloud(scene);
  const resize = () => {
    const el = $("main");
    renderer.setSize(el.clientWidth, el.clientHeight, false);
    camera.aspect = el.clientWidth / Math.max(1, el.clientHeight);
    camera.updateProjectionMatrix();
  };
  window.addEventListener("resize", resize);
  resize();
  renderer.setAnimationLoop(() => { controls.update(); renderer.render(scene, camera); });
}

function frameDomain() {
  const [lo, hi] = selection || group.domain;
  origin = group.domain[0].map((v, a) => (v + group.domain[1][a]) / 2);
  const size = Math.max(...hi.map((v, a) => v - lo[a]));
  const c = lo.map((v, a) => (v + hi[a]) / 2 - origin[a]);
  controls.target.set(...c);
  camera.position.set(c[0] + size * 0.9, c[1] + size * 0.7, c[2] + size * 1.1);
  camera.near = size * 1e-4;
  camera.far = size * 100;
  camera.updateProjectionMatrix();
  controls.update();
}

function selectGroup(name) {
  group = { name, ...info.particles[name] };
  group.steps_info = Object.fromEntries(group.steps.map((s) => [s.step, s]));
  group.steps = group.steps.map((s) => s.step);
  $("step").max = String(group.steps.length - 1);
  $("step").value = "0";
  $("stepval").textContent = group.steps[0];
  $("field").innerHTML = fieldOptions(group).map((o) => `<option>${o[0]}</option>`).join("");
  selection = null;
  showSelection();
  frameDomain();
  restart();
}

function showSelection() {
  const b = selection || group.domain;
  for (let i = 0; i < 6; i++) $(`b${i}`).value = b[i < 3 ? 0 : 1][i % 3];
}

function bindControls() {
  $("group").onchange = () => selectGroup($("group").value);
  $("step").oninput = () => { $("stepval").textContent = currentStep(); };
  $("step").onchange = () => { $("stepval").textContent = currentStep(); restart(); };   // before the slice's listener
  $("field").onchange = restart;
  $("applybox").onclick = () => {
    const v = [0, 1, 2, 3, 4, 5].map((i) => Number($(`b${i}`).value));
    selection = [v.slice(0, 3), v.slice(3)];
    frameDomain();
    restart();
  };
  $("resetbox").onclick = () => { selection = null; showSelection(); frameDomain(); restart(); };
  $("applyq").onclick = () => { state.filter = $("query").value.trim() || null; restart(); };
  $("clearq").onclick = () => { state.filter = null; $("query").value = ""; $("qinfo").textContent = ""; restart(); };
}

async function main() {
  drawBar($("bar"));
  info = await getJSON("/api/info");
  state.info = info;
  setupScene();
  bindControls();
  const names = Object.keys(info.particles);
  $("group").innerHTML = names.map((n) => `<option>${n}</option>`).join("");
  new SliceView(info, state);
  if (names.length) selectGroup(names[0]);
  else { progress("no particle groups"); state.idle = true; }
}

main().catch(fail);
