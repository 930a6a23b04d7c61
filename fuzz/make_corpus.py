"""Writes the seed corpus of the fuzz targets (fuzz/corpus/<target>/): small valid files of every
kind, taken from a dataset the Python package writes; Roaring bitmaps of every container type and
the forged containers of issue 35 (fuzz/bitmap_rows.cpp); and the regression inputs of issue 21
(forged brick box, infinite bounds, a wrong component minimum — each with every checksum
recomputed —, an edited and a swapped `.idx` box, JSON numbers 1e400 and of 400 digits).

Run once from the repository root with the package importable:
    python fuzz/make_corpus.py
The result is committed; re-running rewrites the same files (the data are seeded)."""

from __future__ import annotations

import glob
import os
import shutil
import struct
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "python", "mpi_scripts"))
import lodex  # noqa: E402
import lodex_testutil as tu  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8"}
N = 300


def write_dataset(path: str) -> None:
    rng = np.random.default_rng(21)
    with lodex.create(path) as ds:
        g = ds.particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1),
                         lod={"brick_target": 64})
        g.write(step=0, data={"position": rng.random((N, 3)), "energy": rng.random(N).astype(np.float32),
                              "id": np.arange(N, dtype=np.int64)})
        g.build_index(fields=["energy"], precision=2)
        for name, dims in (("rho", (8, 8, 8)), ("flat", (16, 8, 1))):
            grid = rng.random(dims[::-1]).astype(np.float32)
            ds.grid(name, dims=dims, dtype="f4", bits_per_block=5, blocks_per_file=4).write(
                0, ((0, 0, 0), dims), grid)
        s = ds.series("s", dims=(8, 8, 2), variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=2)
        for t in range(2):
            s.write(t, ((0, 0, 0), (8, 8, 2)), {"T": np.full((2, 8, 8), t, np.float32),
                                                "PS": np.arange(64, dtype=np.float32).reshape(8, 8) + t})


def put(target: str, name: str, data: bytes) -> None:
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    with open(os.path.join(OUT, target, name), "wb") as fh:
        fh.write(data)


def read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def reseal_data_file(raw: bytearray, tables_end: int) -> bytes:
    """The header and table checksums of a data file recomputed after an edit."""
    struct.pack_into("<Q", raw, 120, tu.xxh3(raw[:120]))
    struct.pack_into("<Q", raw, tables_end - 8, tu.xxh3(raw[128:tables_end - 8]))
    return bytes(raw)


def particle_inputs(ds: str) -> None:
    sd = tu.step_dir(ds, "p", 0)
    files = sorted(glob.glob(os.path.join(sd, "*.lpd")))
    for f in files:
        put("particle_file", os.path.basename(f), read(f))
    # issue 21: the header's brick box minimum moved from 0.0 to -1.0, checksums recomputed.
    raw = bytearray(read(files[0]))
    struct.pack_into("<d", raw, 40, -1.0)
    put("particle_file", "regress-forged-brick-box.lpd",
        reseal_data_file(raw, tu.parse_particle_file(files[0])["tables_end"]))
    for f in sorted(glob.glob(os.path.join(sd, "*.lbx"))):
        put("bitmap_index", os.path.basename(f), read(f))
    meta = read(os.path.join(sd, "spatial.lsm"))
    put("spatial_metadata", "spatial.lsm", meta)
    ncomp = tu.parse_spatial_metadata(os.path.join(sd, "spatial.lsm"))["num_components"]
    rec = 40   # the first record

    def forged(offset: int, value: float) -> bytes:
        raw = bytearray(meta)
        struct.pack_into("<d", raw, offset, value)
        struct.pack_into("<Q", raw, len(raw) - 8, tu.xxh3(raw[:-8]))
        return bytes(raw)
    # issue 21: a record's bounds set to inf; a per-component min set wrong.
    put("spatial_metadata", "regress-bounds-inf.lsm", forged(rec + 72 + 48, float("inf")))
    put("spatial_metadata", "regress-component-min.lsm", forged(rec + 192, 0.75))
    assert ncomp == 5


def roaring(containers: list, runs: bool) -> bytes:
    """A Roaring bitmap's portable serialization (the Roaring format specification) of containers
    (key, kind, payload): kind "array" (ascending u16 values), "bitset" (a set of u16 values) or
    "run" ((start, length - 1) pairs, only with runs=True)."""
    n = len(containers)
    cards = [len(v) if k == "array" else len(v) if k == "bitset" else sum(l + 1 for _, l in v)
             for _, k, v in containers]
    if runs:
        head = struct.pack("<I", 12347 | (n - 1) << 16)
        flags = bytearray((n + 7) // 8)
        for i, (_, k, _) in enumerate(containers):
            flags[i // 8] |= (k == "run") << (i % 8)
        head += bytes(flags)
    else:
        head = struct.pack("<II", 12346, n)
    head += b"".join(struct.pack("<HH", key, c - 1) for (key, _, _), c in zip(containers, cards))
    bodies = []
    for _, k, v in containers:
        if k == "array":
            bodies.append(struct.pack(f"<{len(v)}H", *v))
        elif k == "run":
            bodies.append(struct.pack("<H", len(v)) + b"".join(struct.pack("<HH", a, l) for a, l in v))
        else:
            bits = np.zeros(65536, dtype=bool)
            bits[list(v)] = True
            bodies.append(np.packbits(bits, bitorder="little").tobytes())
    if not runs or n >= 4:
        at = len(head) + 4 * n
        for b in bodies:
            head += struct.pack("<I", at)
            at += len(b)
    return head + b"".join(bodies)


def bitmap_rows_inputs() -> None:
    """The bins of fuzz/bitmap_rows.cpp: u32 count, u16 extra rows, a flags byte, the bin's bytes.
    Bitmaps of every container type, with and without runs and offsets; and the four kinds of forged container of
    issue 35 (extra bits in a bitset, keys
    swapped, an array value repeated, a run past 65535)."""
    seeds = {}
    evens = set(range(0, 12000, 2))
    seeds["array"] = (3, roaring([(0, "array", [1, 5, 9])], False))
    seeds["bitset"] = (6000, roaring([(0, "bitset", evens)], False))
    seeds["run"] = (1000, roaring([(0, "run", [(100, 999)])], True))
    mixed = [(0, "array", [3, 10, 4000]), (1, "bitset", evens), (3, "run", [(0, 9), (20, 29999)]),
             (9, "run", [(65000, 535)])]
    seeds["mixed-offsets"] = (3 + 6000 + 30010 + 536, roaring(mixed, True))
    seeds["arrays-no-runs"] = (3, roaring([(0, "array", [7]), (1, "array", [7]), (5, "array", [65535])], False))
    # Valid, but not how CRoaring writes it (the run cookie, no run container): found by the fuzzer
    # when the target still compared CRoaring's size; a query refuses it (bin_bitmap), nothing aborts.
    seeds["regress-run-cookie-without-runs"] = (1, roaring([(0x1201, "array", [0])], True))
    extra_bit = bytearray(seeds["bitset"][1])
    extra_bit[16] |= 0x02   # value 1: 6001 bits, cardinality 6000
    # (count, extra rows: enough to hold the values, so that only the containers are wrong)
    forged = {
        "regress-bitset-extra-bit": (6000, 6000, bytes(extra_bit)),
        "regress-keys-swapped": (2, 65535, roaring([(1, "array", [0]), (0, "array", [7])], False)),
        "regress-array-repeated": (3, 7, roaring([(0, "array", [1, 1, 9])], False)),
        "regress-run-past-65535": (1000, 65000, roaring([(0, "run", [(65000, 999)])], True)),
    }
    for i, (name, (count, bm)) in enumerate(sorted(seeds.items())):
        put("bitmap_rows", name + ".bin", struct.pack("<IHB", count, 3 * i, 0) + bm)
    for name, (count, extra, bm) in forged.items():
        put("bitmap_rows", name + ".bin", struct.pack("<IHB", count, extra, 0) + bm)
    # A bin stored as raw row ids.
    put("bitmap_rows", "raw.bin", struct.pack("<IHB", 4, 97, 1) + struct.pack("<4I", 2, 3, 8, 100))


def manifest_inputs(ds: str) -> None:
    text = read(os.path.join(ds, "manifest.json")).decode()
    put("manifest", "manifest.json", text.encode())
    key = '"particles":'
    at = text.index(key, text.index('"steps"')) + len(key)
    stop = at
    while text[stop] not in ",}":
        stop += 1
    for name, literal in (("1e400", "1e400"), ("minus-1e400", "-1e400"), ("400-digits", "1" * 400)):
        put("manifest", f"regress-number-{name}.json", (text[:at] + " " + literal + text[stop:]).encode())


def grid_inputs(ds: str) -> None:
    idx = {name: read(os.path.join(ds, f"{name}.idx")) for name in ("rho", "flat")}
    for name, text in idx.items():
        put("idx_header", f"{name}.idx", text)
    # issue 21: the (box) line edited; and a grid's header in place of another's (swapped files
    # are, to the decoder, another grid's valid header: both are kept).
    t = idx["rho"].decode()
    start = t.index("(box)")
    end = t.index("\n", start + 6)
    put("idx_header", "regress-box-edited.idx", (t[:start] + "(box)\n0 15 0 7 0 7" + t[end:]).encode())
    for f in sorted(glob.glob(os.path.join(ds, "rho", "**", "*.bin"), recursive=True))[:2]:
        # The first two bytes: blocks_per_file - 1 and fields - 1 (fuzz/idx_table.cpp).
        put("idx_table", "rho-" + os.path.basename(f), bytes([4 - 1, 1 - 1]) + read(f))
    # The block-checksum files beside the steps (fuzz/idx_sums.cpp).
    for f in sorted(glob.glob(os.path.join(ds, "*.checksums", "**", "blocks.xxh3"), recursive=True))[:2]:
        put("idx_sums", os.path.basename(os.path.dirname(os.path.dirname(f))) + "-" +
            os.path.basename(os.path.dirname(f)) + ".xxh3", read(f))


def series_inputs(ds: str) -> None:
    for f in sorted(glob.glob(os.path.join(ds, "**", "*.lsw"), recursive=True))[:1]:
        put("series_window", os.path.basename(f), read(f))


QUERIES = {
    "compare": "energy > 0.5",
    "component": "position[2] <= 1e-3",
    "and-or-not": "(x < 0.5 and energy >= 2) or not (id == 7)",
    "nested": "not not (velocity[0] != -1.5e+10 and (y > 0 or z < 1) and id < 9223372036854775807)",
    "lines": "energy > 1\n  and\n  id <= 3",
}


def main() -> None:
    shutil.rmtree(OUT, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        ds = os.path.join(tmp, "seed.lodex")
        write_dataset(ds)
        particle_inputs(ds)
        manifest_inputs(ds)
        grid_inputs(ds)
        series_inputs(ds)
    bitmap_rows_inputs()
    for name, q in QUERIES.items():
        put("query", f"{name}.txt", q.encode())
    for target in sorted(os.listdir(OUT)):
        files = os.listdir(os.path.join(OUT, target))
        size = sum(os.path.getsize(os.path.join(OUT, target, f)) for f in files)
        print(f"{target}: {len(files)} files, {size} bytes")


if __name__ == "__main__":
    main()
