// The particle cloud: growable three.js buffers, appended to level by level.
import * as THREE from "three";
import { rgb } from "./colormap.js";

export class Cloud {
  constructor(scene) {
    this.geometry = new THREE.BufferGeometry();
    this.material = new THREE.PointsMaterial({ size: 2, sizeAttenuation: false, vertexColors: true });
    this.points = new THREE.Points(this.geometry, this.material);
    this.points.frustumCulled = false;
    scene.add(this.points);
    this.capacity = 0;
    this.clear();
  }

  clear() {
    this.count = 0;
    this.geometry.setDrawRange(0, 0);
  }

  reserve(n) {
    if (n <= this.capacity) return;
    const cap = Math.max(n, this.capacity * 2, 4096);
    const pos = new Float32Array(cap * 3), col = new Float32Array(cap * 3);
    if (this.capacity) {
      pos.set(this.geometry.getAttribute("position").array.subarray(0, this.count * 3));
      col.set(this.geometry.getAttribute("color").array.subarray(0, this.count * 3));
    }
    this.geometry.setAttribute("position", new THREE.BufferAttribute(pos, 3));
    this.geometry.setAttribute("color", new THREE.BufferAttribute(col, 3));
    this.capacity = cap;
  }

  // Appends n particles: positions (n x 3, any typed array) relative to `origin`, values coloured on [lo, hi].
  append(positions, values, n, origin, lo, hi) {
    this.reserve(this.count + n);
    const pos = this.geometry.getAttribute("position"), col = this.geometry.getAttribute("color");
    const span = hi > lo ? hi - lo : 1;
    for (let i = 0; i < n; i++) {
      const j = (this.count + i) * 3;
      for (let a = 0; a < 3; a++) pos.array[j + a] = Number(positions[i * 3 + a]) - origin[a];
      const [r, g, b] = rgb((values[i] - lo) / span);
      col.array[j] = r; col.array[j + 1] = g; col.array[j + 2] = b;
    }
    this.count += n;
    pos.needsUpdate = true;
    col.needsUpdate = true;
    this.geometry.setDrawRange(0, this.count);
  }
}
