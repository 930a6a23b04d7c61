// The lodex serve API: JSON info and the binary framing of docs/serve.md.

const TYPES = {
  "<f8": Float64Array, "<f4": Float32Array, "<i8": BigInt64Array, "<u8": BigUint64Array,
  "<i4": Int32Array, "<u4": Uint32Array, "<i2": Int16Array, "<u2": Uint16Array,
  "|i1": Int8Array, "|u1": Uint8Array,
};

export async function getJSON(url) {
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

// {header, arrays: {name: typed array}, stats, bytes} of a binary endpoint.
export async function getFrame(url) {
  const t0 = performance.now();
  const r = await fetch(url);
  const headers = performance.now();
  if (!r.ok) {
    const body = await r.json().catch(() => ({}));
    throw new Error(body.error || `HTTP ${r.status}`);
  }
  const buf = await r.arrayBuffer();
  const body = performance.now();
  const n = new DataView(buf).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 4, n)));
  const arrays = {};
  for (const a of header.arrays) {
    const T = TYPES[a.dtype];
    if (!T) throw new Error(`unsupported dtype ${a.dtype}`);
    arrays[a.name] = new T(buf, 4 + n + a.offset, a.nbytes / T.BYTES_PER_ELEMENT);
  }
  const stats = JSON.parse(r.headers.get("X-Lodex-Read-Stats") || "{}");
  return { header, arrays, stats, bytes: buf.byteLength,
           times: { t0, headers, body, decoded: performance.now() } };
}

// Component c of a (count, comps) array as numbers.
export function column(arr, comps, c, count) {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = Number(arr[i * comps + c]);
  return out;
}
