// The first paint, before WebGL: /api/info, the first view's level 0 and its picture on the 2-D
// canvas over the view (Canvas 2D: the browser draws it without waiting for its GPU process to
// set up WebGL), with the camera, colour range and point size the WebGL frame will have. Run by
// first.js, a small script that runs while the viewer's script (three.js) still compiles, or by
// the viewer when it ran first. The viewer takes /api/info and level 0 from it.
import { getJSON, getFrame, column } from "./api.js";
import { drawQuick } from "./quick.js";
import { firstView, framing, viewProjection } from "./view.js";

export const FOV = 50;   // the viewer's camera: vertical field of view, degrees

// {info: promise of /api/info, done: promise that settles when the 2-D picture is on screen
// (or was not drawn: level 0 failed, which the viewer's first stream reports, or has no
// particle in view), level0: {url, frame: its promise} once requested, quick: what was drawn,
// marks: ms since navigation (quickDom: the page parsed, for the overlay; quickSetup: the
// camera and colours ready, the 2-D drawing next)}.

export function startFirst() {
  const first = { marks: { first: performance.now() }, quick: null, level0: null };
  first.info = getJSON("/api/info");   // preloaded by index.html
  first.done = paintFirst(first).catch(() => {});   // failures are the viewer's to report
  return first;
}

async function paintFirst(first) {
  const mark = (name) => { first.marks[name] = performance.now(); };
  const info = await first.info;
  mark("info");
  const view = firstView(info);
  if (!view) return;
  const frame = getFrame(view.url);
  frame.catch(() => {});
  first.level0 = { url: view.url, frame };
  mark("level0");
  const f = await frame;
  const n = f.header.count;
  if (!n) return;
  mark("quickData");
  if (!document.getElementById("quick")) {   // the page not parsed yet
    await new Promise((done) => document.addEventListener("DOMContentLoaded", done, { once: true }));
  }
  mark("quickDom");
  const { group: g, opt } = view;
  const vals = column(f.arrays[opt[1]], opt[3], opt[2], n);
  const r = g.steps[0].ranges?.[opt[1]];
  let lo = r ? r.min[opt[2]] : null, hi = r ? r.max[opt[2]] : null;
  if (lo === null || hi === null) {   // as the viewer's paint(): the range of the first particles
    [lo, hi] = [Infinity, -Infinity];
    for (const v of vals) { if (v < lo) lo = v; if (v > hi) hi = v; }
  }
  const el = document.getElementById("main"), w = el.clientWidth, h = el.clientHeight;
  const aspect = w / Math.max(1, h), aim = framing(g.domain, g.domain, FOV, aspect);   // as the viewer's
  const size = 2;   // the viewer's point size (PointsMaterial, no attenuation)
  mark("quickSetup");
  const drawn = drawQuick(document.getElementById("quick"), viewProjection(aim, FOV, aspect), f.arrays.position,
                          vals, n, aim.origin, lo, hi, w, h, size);
  if (!drawn) return;
  first.quick = { count: n, drawn, range: [lo, hi], size };
  first.marks.quick = first.marks.frame = performance.now();   // the first paint
  // one animation frame, so the browser shows it before the viewer's WebGL set-up holds the page
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  mark("quickShown");
}
