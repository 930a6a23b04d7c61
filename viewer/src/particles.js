// The particle cloud: growable three.js buffers, appended to level by level; the positions as
// read (float64 or float32) are kept per appended piece, so a picked particle is found exactly.
// The buffers are in stream order, coarse levels first, so their first k particles are a coarser
// sample of what is held: a frame under a point budget (selectFrame) draws that prefix and the
// particles appended since the picture was last whole (a zoom's new detail); later frames draw
// the rest over it (drawRanges).
import * as THREE from "three";
import { LUT } from "./colormap.js";

export class Cloud {
  // changed(): what is held moved or went (the picture is redrawn); added(start, n): n particles
  // appended at start (drawn over the picture).
  constructor(scene, changed = () => {}, added = changed) {
    this.changed = changed;
    this.added = added;
    this.geometry = new THREE.BufferGeometry();
    this.material = new THREE.PointsMaterial({ size: 2, sizeAttenuation: false, vertexColors: true });
    // one material for every draw range of the geometry's groups (selectFrame)
    this.points = new THREE.Points(this.geometry, [this.material]);
    this.points.frustumCulled = false;
    scene.add(this.points);
    this.capacity = 0;
    this.clear();
  }

  clear() {
    this.count = 0;
    this.fresh = 0;     // the particles from here on were appended since the last whole frame
    this.pieces = [];   // {start, n, positions}: the positions exactly as the server sent them
    this.geometry.setDrawRange(0, 0);
    this.changed?.();
  }

  reserve(n) {
    if (n <= this.capacity) return;
    const cap = Math.max(n, this.capacity * 2, 4096);
    const pos = new Float32Array(cap * 3), col = new Float32Array(cap * 3);
    if (this.capacity) {
      pos.set(this.geometry.getAttribute("position").array.subarray(0, this.count * 3));
      col.set(this.geometry.getAttribute("color").array.subarray(0, this.count * 3));
    }
    for (const [name, a] of [["position", pos], ["color", col]]) {
      const attr = new THREE.BufferAttribute(a, 3);
      attr.onUpload(() => { this.full = false; });
      this.geometry.setAttribute(name, attr);
    }
    this.capacity = cap;
    this.full = true;   // a whole upload is pending: appends before it add no ranges
  }

  // Keeps only the particles of pieces whose tag is in `tags` with their position as read inside
  // `box` ([lo, hi), min inclusive, max exclusive), in order; returns how many were dropped.
  keepInside(box, tags) {
    const P = this.count ? this.geometry.getAttribute("position").array : null;
    const C = this.count ? this.geometry.getAttribute("color").array : null;
    const [[x0, y0, z0], [x1, y1, z1]] = box;
    let m = 0, fresh = -1;
    const pieces = [];
    for (const q of this.pieces) {
      if (fresh < 0 && q.start >= this.fresh) fresh = m;
      if (!tags.has(q.tag)) continue;
      const src = q.positions, kept = new src.constructor(q.n * 3);
      let k = 0;
      for (let i = 0, j = 3 * q.start; i < 3 * q.n; i += 3, j += 3) {
        const x = src[i], y = src[i + 1], z = src[i + 2];
        if (!(x >= x0 && x < x1 && y >= y0 && y < y1 && z >= z0 && z < z1)) continue;
        const d = 3 * m;
        P[d] = P[j]; P[d + 1] = P[j + 1]; P[d + 2] = P[j + 2];
        C[d] = C[j]; C[d + 1] = C[j + 1]; C[d + 2] = C[j + 2];
        kept[3 * k] = x; kept[3 * k + 1] = y; kept[3 * k + 2] = z;
        k++; m++;
      }
      if (k) pieces.push({ ...q, start: m - k, n: k, positions: kept.subarray(0, 3 * k) });
    }
    const dropped = this.count - m;
    this.pieces = pieces;
    this.count = m;
    this.fresh = fresh < 0 ? m : fresh;
    if (P) {
      for (const name of ["position", "color"]) {
        const a = this.geometry.getAttribute(name);
        a.clearUpdateRanges();   // everything moved: the whole buffer goes up
        a.needsUpdate = true;
      }
      this.full = true;
    }
    this.geometry.setDrawRange(0, m);
    this.changed();
    return dropped;
  }

  // The particles of pieces whose tag is in `tags` with their position as read inside `box`.
  countInside(box, tags) {
    const [[x0, y0, z0], [x1, y1, z1]] = box;
    let k = 0;
    for (const q of this.pieces) {
      if (!tags.has(q.tag)) continue;
      const src = q.positions;
      for (let i = 0; i < 3 * q.n; i += 3) {
        const x = src[i], y = src[i + 1], z = src[i + 2];
        if (x >= x0 && x < x1 && y >= y0 && y < y1 && z >= z0 && z < z1) k++;
      }
    }
    return k;
  }

  // Appends n particles: positions (n x 3, any typed array) relative to `origin`, values coloured
  // on [lo, hi]; `tag` marks their piece (the view they belong to).
  // Nothing for n = 0: an update range of 0 would upload the buffer's whole unused tail (WebGL 2's
  // bufferSubData reads to the end of the array when its length is 0).
  append(positions, values, n, origin, lo, hi, tag = null) {
    if (!n) return;
    this.reserve(this.count + n);
    const pos = this.geometry.getAttribute("position"), col = this.geometry.getAttribute("color");
    const scale = 1023 / (hi > lo ? hi - lo : 1);
    const P = pos.array, C = col.array, [o0, o1, o2] = origin;
    for (let i = 0; i < n; i++) {
      const j = (this.count + i) * 3, k = i * 3;
      P[j] = Number(positions[k]) - o0; P[j + 1] = Number(positions[k + 1]) - o1; P[j + 2] = Number(positions[k + 2]) - o2;
      const t = (values[i] - lo) * scale;
      const c = 3 * (t > 0 ? (t < 1023 ? Math.round(t) : 1023) : 0);   // NaN: the low end
      C[j] = LUT[c]; C[j + 1] = LUT[c + 1]; C[j + 2] = LUT[c + 2];
    }
    this.pieces.push({ start: this.count, n, positions, tag });
    if (!this.full) {   // only the appended part goes to the GPU (a whole upload of millions of
      pos.addUpdateRange(3 * this.count, 3 * n);   // points is slow with software WebGL)
      col.addUpdateRange(3 * this.count, 3 * n);
    }
    this.count += n;
    pos.needsUpdate = true;
    col.needsUpdate = true;
    this.geometry.setDrawRange(0, this.count);
    this.added(this.count - n, n);
  }

  // What a new picture's first frame draws: every particle when they fit `budget`; else the
  // first particles (a coarser sample of what is held) and those appended since the picture was
  // last whole (the newest detail; the first of them when they are more than half the budget).
  // Returns {drawn, groups: [[start, count]...], fresh: where the newest begin}.
  selectFrame(budget) {
    if (this.count <= budget) return this.drawRanges([[0, this.count]]);
    const fresh = Math.min(this.count - this.fresh, Math.ceil(budget / 2));
    const head = Math.min(budget - fresh, this.fresh);
    const from = Math.max(head, this.fresh);
    return this.drawRanges([[0, head], [from, Math.min(this.count - from, budget - head)]]);
  }

  // The next frame draws these ranges ([start, count]) of the buffers (the geometry's groups).
  drawRanges(ranges) {
    const g = this.geometry;
    g.clearGroups();
    const groups = ranges.filter((r) => r[1] > 0);
    for (const [start, n] of groups) g.addGroup(start, n, 0);
    return { drawn: groups.reduce((n, r) => n + r[1], 0), groups, fresh: this.fresh };
  }

  // The picture holds every particle: nothing appended is newer than what was drawn.
  drewWhole() { this.fresh = this.count; }

  // Particle i's position as read (numbers, not the float32 drawn copy).
  positionOf(i) {
    const p = this.pieces.find((q) => i >= q.start && i < q.start + q.n);
    const k = (i - p.start) * 3;
    return [0, 1, 2].map((a) => Number(p.positions[k + a]));
  }

  // The drawn particle nearest to the pixel (px, py) of a canvas w x h under `camera`, within
  // `radius` pixels (the nearest to the camera among equally close ones); -1 if none.
  nearest(camera, px, py, w, h, radius = 6) {
    const m = new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).elements;
    const a = this.geometry.getAttribute("position");
    if (!a) return -1;
    const p = a.array;
    let best = -1, bestD = Infinity, bestZ = Infinity;
    for (let i = 0; i < this.count; i++) {
      const x = p[3 * i], y = p[3 * i + 1], z = p[3 * i + 2];
      const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
      if (cw <= 0) continue;
      const sx = ((m[0] * x + m[4] * y + m[8] * z + m[12]) / cw + 1) * w / 2;
      const sy = (1 - (m[1] * x + m[5] * y + m[9] * z + m[13]) / cw) * h / 2;
      const d = (sx - px) ** 2 + (sy - py) ** 2;
      const depth = (m[2] * x + m[6] * y + m[10] * z + m[14]) / cw;
      if (d > radius * radius) continue;
      if (d < bestD - 1 || (d <= bestD + 1 && depth < bestZ)) {
        best = i; bestD = d; bestZ = depth;
      }
    }
    return best;
  }

  // Pixel coordinates of drawn particle i (what the browser test clicks).
  screenOf(camera, i, w, h) {
    const p = this.geometry.getAttribute("position").array;
    const v = new THREE.Vector3(p[3 * i], p[3 * i + 1], p[3 * i + 2]).project(camera);
    return [(v.x + 1) * w / 2, (1 - v.y) * h / 2];
  }
}
