// lodex serve's viewer: coarse levels first, then the finer levels of what is in view.
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { getJSON, getFrame, column } from "./api.js";
import { drawLegend } from "./colormap.js";
import { Cloud } from "./particles.js";
import { FOV, startFirst } from "./firstpaint.js";
import { fieldOptions, framing, levelUrl, url } from "./view.js";
import { SliceView } from "./slice.js";
import { SeriesView } from "./series.js";

const $ = (id) => document.getElementById(id);
// A user's view change (a wheel tick, a drag) streams at once when the view was at rest (the
// leading edge: a lone wheel tick's request leaves with the tick); the changes that follow it,
// each within DEBOUNCE_MS of the last, are one more view change, streamed once they rest (the
// trailing edge). So a burst of ticks or a drag makes two streams (the second supersedes the
// first), not one per change.
const DEBOUNCE_MS = 120;
// Progressive frames (as Potree's point budget): a frame draws at most the particles the browser
// draws in FRAME_MS (at least MIN_FRAME_POINTS). A new picture (the camera moved, particles
// dropped, a resize) starts with the first particles held (coarse levels first: a coarser sample
// of the view) and those added since the picture was last whole (a zoom's new detail); each next
// animation frame draws the next part over it until every particle is drawn. Particles appended
// are drawn over the picture first. So no frame holds the browser for long: a wheel tick's frame
// does not wait behind a frame of every particle. What a frame costs is timed from its start to
// the second animation frame after it with no frame drawn between (render() returns once the
// draw is queued; the browser runs one more animation frame, then waits until the frame is on
// screen): software WebGL draws a few hundred thousand to a million points a second, a GPU some
// hundred times more.
const FRAME_MS = 50, MIN_FRAME_POINTS = 50000;
// While a zoom's first answer is on its way (at most HOLD_MS), the rest of the picture waits: the
// browser is then not drawing a part of it when the answer comes (the next animation frame waits
// for the frame before it), so the new particles are in the very next frame.
const HOLD_MS = 300;

// What the browser test reads: every request made, what is drawn, whether streaming is idle.
const state = { requests: [], drawn: 0, idle: false, level: -1, levels: 0, box: null, generation: 0,
                paints: 0, error: null, filter: null, range: null, legend: null, pick: null,
                filterCount: null, startLevel: 0, frames: 0, frameDrawn: 0, wholeFrames: 0,
                frameBudget: null, pointsPerMs: null, frameLog: [] };
window.lodexViewer = state;
// Where the first paint's time goes (ms since navigation): first.js running (first), the
// viewer's script running (script), /api/info in, level 0 requested, level 0 in (quickData) and
// drawn on the 2-D canvas (quick), the animation frame after it (quickShown), the scene (WebGL)
// ready, the particle view set up, level 0's particles added, WebGL's first frame with
// particles (webgl); frame: the first frame with particles on either canvas (the first paint).
state.marks = { script: performance.now() };
const mark = (name) => { if (!(name in state.marks)) state.marks[name] = performance.now(); };

let info, group, renderer, scene, camera, controls, cloud, origin, selection = null;
let decor, startDist = 1, viewTimer = null;
let viewLead = false;   // a user's gesture began (the controls' start): its first change leads
let viewMoved = false;  // the view changed since the leading edge: the trailing edge streams
let framed = true;      // the camera as frameDomain put it (no wheel or drag since)
let dirty = true;       // the picture is stale: the next frame starts a new one
let pending = [];       // ranges [start, count] of the particles the picture on screen lacks
let arrivals = [];      // those appended since, in order: drawn before the others
let timing = null;      // {t, drawn, calls} of a frame being timed
let loopT = 0;          // when the animation frame being drawn began (the frame log's `loop`)
const prefetched = new Map();   // url -> the promise of a request started before the scene (level 0)
const redraw = () => { dirty = true; };
const added = (start, n) => { arrivals.push([start, n]); };   // drawn over the picture, first
let frameWaiters = [];   // resolved by the next frame drawn
let holdFill = 0;        // until then (performance.now()) the picture's rest waits: HOLD_MS

// Resolves once the particles added so far are in a frame: at the next frame drawn when some
// wait (a hidden page draws no frame: after a second at most).
function drawnOver() {
  if (!arrivals.length && !dirty) return Promise.resolve();
  return new Promise((done) => {
    frameWaiters.push(done);
    setTimeout(done, 1000);
  });
}

function fail(e) {
  state.error = String(e.message || e);
  $("error").textContent = state.error;
  state.idle = true;
}

function currentStep() { return group.steps[Number($("step").value)]; }
function colourField() { return fieldOptions(group).find((o) => o[0] === $("field").value); }

// The box in view: the selection (or the domain) when the camera frames it, scaled around the
// orbit target by the camera's distance over the framing distance, so each wheel tick narrows
// it at once; clipped to the selection (or the domain).
function viewBox() {
  const bounds = selection || group.domain;
  if (framed) return [[...bounds[0]], [...bounds[1]]];   // as framed: exactly the bounds
  const scale = camera.position.distanceTo(controls.target) / startDist;
  const t = controls.target.toArray().map((v, a) => v + origin[a]);
  const lo = t.map((v, a) => Math.max(bounds[0][a], v - scale * (bounds[1][a] - bounds[0][a]) / 2));
  const hi = t.map((v, a) => Math.min(bounds[1][a], v + scale * (bounds[1][a] - bounds[0][a]) / 2));
  for (let a = 0; a < 3; a++) if (hi[a] < lo[a]) hi[a] = lo[a];
  return [lo, hi];
}

// Boxes within 1 % of the current box's extent are the same view (no new stream).
function sameBox(a, b) {
  if (!a || !b) return false;
  for (let i = 0; i < 3; i++) {
    const tol = 0.01 * Math.max(b[1][i] - b[0][i], 1e-300);
    if (Math.abs(a[0][i] - b[0][i]) > tol || Math.abs(a[1][i] - b[1][i]) > tol) return false;
  }
  return true;
}

function record(kind, u, gen, extra) {
  const r = { kind, url: u, gen, t0: performance.now(), ...extra };
  state.requests.push(r);
  return r;
}

async function fetchLevel(box, from, level, fields, gen) {
  const u = levelUrl(group.name, currentStep(), box, from, level, fields);
  const r = record("particles", u, gen, { level, from, box });
  const early = prefetched.get(u);
  prefetched.clear();
  const f = await (early || getFrame(u));
  Object.assign(r, { count: f.header.count, bytes: f.bytes, ms: performance.now() - r.t0, levels: f.header.levels,
                     take: f.header.take });
  f.request = r;
  return f;
}

// The colour range: the field's range over the step from the metadata (each file's minimum and
// maximum), so colours mean the same whatever is in view and the legend shows the whole data.
function setRange(opt) {
  const r = group.steps_info[currentStep()].ranges?.[opt[1]];
  const lo = r ? r.min[opt[2]] : null, hi = r ? r.max[opt[2]] : null;
  state.range = lo === null || hi === null ? null : [lo, hi];
  if (state.range) state.legend = drawLegend($("legend"), `${opt[0]} (step ${currentStep()})`, lo, hi);
}

function paint(frame, opt, tag = null) {
  const n = frame.header.count;
  const vals = column(frame.arrays[opt[1]], opt[3], opt[2], n);
  if (!state.range) {   // no range in the metadata: the first paint's
    let lo = Infinity, hi = -Infinity;
    for (const v of vals) { if (v < lo) lo = v; if (v > hi) hi = v; }
    state.range = n ? [lo, hi] : [0, 1];
    state.legend = drawLegend($("legend"), `${opt[0]} (of the drawn sample)`, ...state.range);
  }
  cloud.append(frame.arrays.position, vals, n, origin, state.range[0], state.range[1], tag);
  state.drawn = cloud.count;
  if (!state.paints) state.firstPaintMs = performance.now();   // since the page's navigation began
  mark("paint");
  state.paints++;
}

const meets = (a, b) => [0, 1, 2].every((i) => a[0][i] < b[1][i] && b[0][i] < a[1][i]);
const clip = (a, b) => [a[0].map((v, i) => Math.max(v, b[0][i])), a[1].map((v, i) => Math.min(v, b[1][i]))];
const within = (a, b) => [0, 1, 2].every((i) => b[0][i] <= a[0][i] && a[1][i] <= b[1][i]);

// The sample size of levels 0..l of a box (docs/reads.md: level l holds at most 32 x 2^l).
const levelTake = (l) => 32 * (2 ** (l + 1) - 1);
const MAX_HAVE = 16;   // the server's limit on the samples a request names as held

// What is drawn, as samples: [{box, take, kept}], each the first `take` particles of its box's
// sample order (levels 0..l are such a prefix: levelTake(l)) inside `kept` (its box clipped by
// the boxes of the views since, outside which the particles were dropped), its particles tagged
// with the entry. A zoom names in `have` those that meet the new box, each with `kept` where the
// new box reaches outside it, and the server sends only what they lack.
let held = [];

function haveEntry(h, box) {
  const e = [...h.box.flat(), h.take];
  return (within(clip(h.box, box), h.kept) ? e : [...e, ...h.kept.flat()]).join(",");
}

async function fetchSample(box, level, take, have, most, fields, gen) {
  const u = url("/api/particles", { group: group.name, step: currentStep(), take,
                                    box: box.flat().join(","), fields: fields.join(","), most,
                                    have: have.length ? have.map((h) => haveEntry(h, box)).join(";") : null });
  const r = record("particles", u, gen, { level, from: null, box, have: have.length, most });
  const f = await getFrame(u);
  Object.assign(r, { count: f.header.count, bytes: f.bytes, ms: performance.now() - r.t0, levels: f.header.levels,
                     take: f.header.take });
  f.request = r;
  return f;
}

// Streams the view. A new view (keep false): level 0, then each next level's new particles
// (`from`) while that level's sample slots fit the budget (a level adds at most 32 x 2^l
// particles), then the part of the next level that fills it (`most`). A zoom or pan (keep
// true): the particles drawn stay until its first answer, then those outside the new box go;
// every request names the samples drawn in the box (`have`) and gets only the particles they
// lack: first the level after the coarsest that the particles drawn there already hold, then
// each next level, the last cut to the budget. A newer stream (generation) stops this one.
async function stream(keep = false) {
  const gen = ++state.generation;
  const box = viewBox(), opt = colourField();
  const fields = opt[1] === "position" ? ["position"] : ["position", opt[1]];
  const budget = Number($("budget").value) || 2e6;
  // A view inside the last one (a zoom in) keeps its particles: they are a fair sample of it. Any
  // other view change (a zoom out, a pan) starts afresh from level 0, the particles drawn kept
  // until its first answer (those would crowd one part of the new box).
  const meeting = held.filter((h) => h.take > 0 && meets(h.kept, box));
  const soft = keep;
  keep = keep && !state.filter && state.box && within(box, state.box) && meeting.length > 0 &&
    meeting.length < MAX_HAVE;
  const have = keep ? meeting : [];
  const inside = keep ? cloud.countInside(box, new Set(have)) : 0;
  let first = 0;
  while (keep && levelTake(first) <= inside) first++;
  Object.assign(state, { idle: false, box, level: -1, take: 0, error: null, startLevel: first, filterCount: null,
                         kept: inside, fetched: 0 });
  $("error").textContent = "";
  setRange(opt);
  if (!keep) held = [];
  if (!keep && !soft) cloud.clear();
  holdFill = keep ? performance.now() + HOLD_MS : 0;
  try {
    if (state.filter) return await streamFilter(gen, box, fields, opt, budget);
    const mine = { box, take: 0, kept: box };
    let drawn = inside;   // in the box: the held particles there and those added
    for (let level = first, levels = Infinity; level < levels;) {
      const slots = levelTake(level) - (level ? levelTake(level - 1) : 0);
      // the whole level, cut by the server to the room left (`most`): a take of about the budget
      // (a box's sample of T holds a little less than T) can be all held when the room is small,
      // an empty answer the new particles would wait behind
      const want = levelTake(level);
      const f = !keep && drawn + slots <= budget ? await fetchLevel(box, level - 1, level, fields, gen)
        : await fetchSample(box, level, want, mine.take ? [...have, mine] : have, budget - drawn, fields, gen);
      if (gen !== state.generation) return;
      f.request.painted = true;   // (a stream superseded drops its answers: the test reads which it drew)
      if (!keep && !mine.take) cloud.clear();   // the previous view's particles, kept until now
      if (!mine.take) held = held.filter((h) => h !== mine).concat([mine]);
      mine.take = f.header.take;
      paint(f, opt, mine);
      holdFill = 0;
      Object.assign(f.request, f.times, { paintedAt: performance.now() });
      drawn += f.header.count;
      state.fetched += f.header.count;
      levels = f.header.levels;
      Object.assign(state, { level, levels, take: mine.take });
      progress(`level ${level + 1} of ${levels}: ${cloud.count.toLocaleString()} particles`);
      if (f.header.take < want || drawn >= budget) break;   // cut to the budget: full
      level++;
    }
    if (keep) {   // the particles outside the box go once the frame with the new ones is drawn (a
      await drawnOver();   // whole upload: not in that frame), and every sample is clipped to the box
      if (gen !== state.generation) return;   // a newer stream took the particles as they are
      const t = performance.now();
      held = held.filter((h) => h.take > 0 && meets(h.kept, box));
      for (const h of held) h.kept = clip(h.kept, box);
      cloud.keepInside(box, new Set(held));
      state.compactMs = performance.now() - t;
      state.drawn = cloud.count;
    }
    progress(`${cloud.count.toLocaleString()} particles, level ${state.level + 1} of ${state.levels}` +
             (state.level + 1 < state.levels ? " (zoom in for more)" : " (all)"));
    state.idle = true;
    state.idleMs = performance.now();
  } catch (e) { if (gen === state.generation) fail(e); } finally { if (gen === state.generation) holdFill = 0; }
}

// A value filter: the exact count of matches in the view first (the bitmap index where the
// step has one; no position is read), with the finest level whose matches fit the budget; then
// the matches at that level.
async function streamFilter(gen, box, fields, opt, budget) {
  const u = url("/api/count", { group: group.name, step: currentStep(), q: state.filter,
                                box: box.flat().join(","), budget });
  const r = record("count", u, gen, { box });
  const c = await getJSON(u);
  r.ms = performance.now() - r.t0;
  if (gen !== state.generation) return;
  const how = c.used_index ? "bitmap index" : `scanned: ${c.notes.join("; ")}`;
  state.filterCount = c.count;
  $("qinfo").textContent = `${c.count.toLocaleString()} matches (${how}); drawing...`;
  const qu = url("/api/query", { group: group.name, step: currentStep(), q: state.filter, level: c.level,
                                 box: box.flat().join(","), fields: fields.join(",") });
  const rq = record("query", qu, gen, { level: c.level, from: null, box });
  const f = await getFrame(qu);
  Object.assign(rq, { count: f.header.count, bytes: f.bytes, ms: performance.now() - rq.t0 });
  if (gen !== state.generation) return;
  cloud.clear();
  paint(f, opt);
  Object.assign(state, { level: c.level, levels: c.levels });
  const all = f.header.count === c.count;
  $("qinfo").textContent = `${c.count.toLocaleString()} matches (${how}); ` +
    (all ? "all drawn" : `${f.header.count.toLocaleString()} drawn at level ${c.level} of ${c.levels - 1}`);
  progress(`${state.filter}: ${cloud.count.toLocaleString()} of ${c.count.toLocaleString()} matches drawn`);
  state.idle = true;
}

function progress(text) { $("progress").textContent = text; }

function restart(keep = false) {
  clearTimeout(viewTimer);
  viewTimer = null;
  viewMoved = false;
  stream(keep);
}

// The controls' change: at rest, a user's change streams now (leading edge); else it waits
// until the view has rested DEBOUNCE_MS (trailing edge). A change not from the user (the camera
// framed by the viewer) only waits.
function viewChanged() {
  redraw();
  const lead = viewLead && viewTimer === null;
  viewLead = false;
  clearTimeout(viewTimer);
  if (lead) onViewChange();
  else viewMoved = true;
  viewTimer = setTimeout(() => {
    viewTimer = null;
    if (viewMoved) onViewChange();
    viewMoved = false;
  }, DEBOUNCE_MS);
}

function onViewChange() {
  if (!sameBox(viewBox(), state.box)) restart(true);
}

function setupScene() {
  renderer = new THREE.WebGLRenderer({ canvas: $("view"), antialias: false, preserveDrawingBuffer: true });
  scene = new THREE.Scene();
  camera = new THREE.PerspectiveCamera(FOV, 1, 1e-6, 1e9);   // first.js's; its aspect set by resize()
  controls = new OrbitControls(camera, renderer.domElement);
  controls.addEventListener("start", () => { framed = false; viewLead = true; });   // the user's wheel or drag
  controls.addEventListener("end", () => { viewLead = false; });   // a click that moved nothing leads nothing
  controls.addEventListener("change", viewChanged);
  cloud = new Cloud(scene, redraw, added);
  // the points' shaders: compiled by the browser (its GPU process) while the views are set up and
  // the data is on its way; the first frame waits only for what is left
  renderer.compile(cloud.points, camera, scene);
  renderer.getContext().flush();   // sent to the GPU process now, not with the first frame
  decor = new THREE.Group();   // outline, axes, selection: shown from the frame after the first
  decor.visible = false;       // with particles (their shaders are not the first frame's work)
  scene.add(decor);
  const resize = () => {
    const el = $("main");
    renderer.setSize(el.clientWidth, el.clientHeight, false);
    camera.aspect = el.clientWidth / Math.max(1, el.clientHeight);
    camera.updateProjectionMatrix();
    redraw();
  };
  window.addEventListener("resize", resize);
  resize();
  renderer.setAnimationLoop(() => {   // a frame only when something changed (software GL: a frame of a
    loopT = performance.now();
    if (timing && ++timing.calls === 2) {   // million points takes the browser a while)
      state.pointsPerMs = timing.drawn / Math.max(performance.now() - timing.t, 1);
      timing = null;
    }
    controls.update();
    if (dirty) drawFrame(cloud.selectFrame(frameBudget()), true);
    else if (arrivals.length || (pending.length && performance.now() >= holdFill)) {
      const first = takeRanges(arrivals, frameBudget());
      const more = takeRanges(pending, frameBudget() - first.reduce((n, r) => n + r[1], 0));
      drawFrame(cloud.drawRanges(first.concat(more)), false);
    }
  });
  setupPicking();
}

// The points a frame may draw (Infinity until a frame of at least MIN_FRAME_POINTS was timed).
function frameBudget() {
  if (state.frameBudget) return state.frameBudget;   // set by a test
  return state.pointsPerMs ? Math.max(MIN_FRAME_POINTS, Math.round(state.pointsPerMs * FRAME_MS)) : Infinity;
}

// The first `budget` particles of `ranges`, taken off them.
function takeRanges(ranges, budget) {
  const out = [];
  while (ranges.length && budget > 0) {
    const [start, n] = ranges[0], k = Math.min(n, budget);
    out.push([start, k]);
    budget -= k;
    if (k === n) ranges.shift();
    else ranges[0] = [start + k, n - k];
  }
  return out;
}

// Draws the ranges of `f` (Cloud.selectFrame or drawRanges): a new picture (`fresh`: cleared
// first, the rest of the particles pending) or over the picture on screen.
function drawFrame(f, fresh) {
  if (fresh) {
    dirty = false;
    pending = [];
    arrivals = [];
    let at = 0;
    for (const [start, n] of f.groups) { if (start > at) pending.push([at, start - at]); at = start + n; }
    if (at < cloud.count) pending.push([at, cloud.count - at]);
  }
  renderer.autoClear = fresh;
  const t = performance.now();
  renderer.render(scene, camera);
  const ms = performance.now() - t;
  renderer.autoClear = true;
  const whole = !pending.length && !arrivals.length;
  if (whole) cloud.drewWhole();
  timing = f.drawn >= MIN_FRAME_POINTS ? { t, drawn: f.drawn, calls: 0 } : null;
  state.frames++;
  if (whole) state.wholeFrames++;
  Object.assign(state, { frameMs: ms, frameDrawn: f.drawn });
  state.frameLog.push({ count: cloud.count, drawn: f.drawn, groups: f.groups, fresh: f.fresh, paints: state.paints,
                        decor: decor.visible, programs: renderer.info.programs.length, clear: fresh,
                        whole, frame: state.frames, loop: loopT, t, end: t + ms });
  if (state.frameLog.length > 100) state.frameLog.shift();
  if (state.paints) {
    mark("webgl");
    mark("frame");
    $("quick").style.display = "none";   // the WebGL picture replaces it in this frame
  }
  if (state.paints && !decor.visible) { decor.visible = true; dirty = true; }
  const waiting = frameWaiters;
  frameWaiters = [];
  for (const done of waiting) done();
}

// The domain's outline, axes from its minimum corner (x red, y green, z blue) and the box
// selection (orange), in the scene's coordinates (relative to the domain's centre).
function drawDecor() {
  decor.clear();
  const [lo, hi] = group.domain;
  const rel = (p) => new THREE.Vector3(...p.map((v, a) => v - origin[a]));
  const axes = new THREE.AxesHelper(0.25 * Math.max(...hi.map((v, a) => v - lo[a])));
  axes.position.copy(rel(lo));
  decor.add(new THREE.Box3Helper(new THREE.Box3(rel(lo), rel(hi)), 0x888888), axes);
  if (selection) decor.add(new THREE.Box3Helper(new THREE.Box3(rel(selection[0]), rel(selection[1])), 0xff9900));
  state.frame = { domain: group.domain, selection };
}

// A camera that frames the selection (or the domain): its bounding sphere fills the view.
function frameDomain() {
  const f = framing(group.domain, selection || group.domain, camera.fov, camera.aspect);
  [origin, startDist] = [f.origin, f.dist];
  camera.position.set(...f.eye);
  camera.near = f.near;
  camera.far = f.far;
  camera.updateProjectionMatrix();
  controls.target.set(...f.target);
  controls.update();   // looks at the target
  framed = true;
  drawDecor();
  redraw();
}

// Picking: a click (not a drag) on a drawn particle shows every field of that particle, read
// from the server for the particle's exact position.
function setupPicking() {
  const canvas = $("view");
  let down = null;
  canvas.addEventListener("pointerdown", (e) => { down = [e.offsetX, e.offsetY]; });
  canvas.addEventListener("pointerup", (e) => {
    if (down && Math.hypot(e.offsetX - down[0], e.offsetY - down[1]) < 4) pick(e.offsetX, e.offsetY).catch(fail);
    down = null;
  });
  state.screenOf = (i) => cloud.screenOf(camera, i, canvas.clientWidth, canvas.clientHeight);
  state.project = (p) => new THREE.Vector3(...p.map((v, a) => v - origin[a])).project(camera).toArray();
}

function tinyBox(p) {
  const up = p.map((v) => v + Math.max(Math.abs(v) * 2 ** -40, 1e-300));
  return [...p, ...up].join(",");
}

async function pick(x, y) {
  const canvas = $("view");
  const i = cloud.nearest(camera, x, y, canvas.clientWidth, canvas.clientHeight);
  const el = $("pick");
  el.style.display = "block";
  if (i < 0) { state.pick = { index: -1 }; el.textContent = "no particle here"; return; }
  const p = cloud.positionOf(i);
  const u = url("/api/particles", { group: group.name, step: currentStep(), box: tinyBox(p) });
  record("pick", u, state.generation, {});
  const f = await getFrame(u);
  const comps = (name) => group.fields[name].components;
  let row = 0;
  for (let k = 0; k < f.header.count; k++) {
    if ([0, 1, 2].every((a) => Number(f.arrays.position[3 * k + a]) === p[a])) { row = k; break; }
  }
  const fields = {};
  for (const name of Object.keys(group.fields)) {
    const c = comps(name), a = f.arrays[name];
    fields[name] = Array.from({ length: c }, (_, j) => (typeof a[row * c + j] === "bigint" ? String(a[row * c + j]) : a[row * c + j]));
  }
  state.pick = { index: i, position: p, step: currentStep(), fields, matches: f.header.count };
  const fmt = (v) => (typeof v === "string" ? v : Number(v.toPrecision(7)).toString());
  el.innerHTML = `<b>particle at step ${currentStep()}</b><table>` +
    Object.entries(fields).map(([k, v]) => `<tr><td>${k}</td><td>${v.map(fmt).join(", ")}</td></tr>`).join("") + "</table>";
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
  $("field").onchange = () => restart();
  $("budget").onchange = () => restart();
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
  // /api/info, level 0 and the 2-D first paint: first.js's (a smaller script, usually run
  // first), else started now
  const first = window.lodexFirst || (window.lodexFirst = startFirst());
  info = await first.info;
  await first.done;   // the 2-D picture on screen before the WebGL set-up holds the page
  if (first.level0) prefetched.set(first.level0.url, first.level0.frame);
  for (const [k, v] of Object.entries(first.marks)) state.marks[k] ??= v;
  state.quick = first.quick;
  state.info = info;
  setupScene();
  mark("scene");
  bindControls();
  const names = Object.keys(info.particles);
  $("group").innerHTML = names.map((n) => `<option>${n}</option>`).join("");
  if (names.length) selectGroup(names[0]);   // its first request before the other views'
  mark("views");
  new SliceView(info, state);
  new SeriesView(info, state);
  if (!names.length) {
    for (const id of ["partset", "boxset", "filterset", "legend", "axeskey"]) $(id).style.display = "none";
    progress("no particle groups: see the grid and series views");
    state.idle = true;
  }
}

main().catch(fail);
