"""Parallel IDX grid writes (``Dataset.define_grid(...).write``) against OpenVisus and numpy.

Every grid of mpi_scripts/grid_write_cases.py (2-D and 3-D, non-power-of-two dims, f4 f8 i4 i8 u1
u2 fields in one grid, 3-vectors, several steps, zip, custom bitmasks, both aggregations; z-slab,
row-major lattice, irregular and one-empty-box decompositions) is written serially (comm=None,
in this process) and by 2, 3, 4 and 8 ranks (one mpiexec each, mpi_scripts/grid_write_mpi.py),
then read back by OpenVisus and by lodex at full and coarse resolutions and in boxes, every
value compared with the numpy original. OpenVisus writing the same data with the same bitmask
and block parameters must produce the same files byte for byte. Collective reads (also by 3
ranks of data written by 2 and 4), refinement, append mode, bad input (serial and 3 ranks:
every rank raises) and damaged files (FormatError naming the file and block) are covered too.
"""

from __future__ import annotations

import os
import re
import shutil
import struct

import numpy as np
import pytest

import lodex
import grid_bad_cases as gb
import grid_write_cases as gc
from grid_checks import assert_same, ov_read, reshape_like, table_entries, tree
from conftest import LaunchCache, run_mpi

os.environ.setdefault("VISUS_DISABLE_WRITE_LOCK", "1")
import OpenVisus as ov  # noqa: E402  (the reference implementation, pinned in requirements-dev.txt)

RANKS = [1, 2, 3, 4, 8]
TIMEOUT = {2: 120, 3: 150, 4: 120, 8: 180}
OV_TYPE = {"f4": "float32", "f8": "float64", "i4": "int32", "i8": "int64", "u1": "uint8", "u2": "uint16",
           "i2": "int16"}
PHASES = ["check", "agree", "plan", "restructure", "hz_encode", "aggregate", "compress", "file_write", "commit"]

cached = LaunchCache()


# ------------------------------------------------------------------------------------ helpers

stride, oracle = gc.stride, gc.oracle   # the resolution lattice and the numpy answer of a read


def query_boxes(name: str) -> list:
    """Query boxes of a case: an interior box off every lattice, a box hugging the far corner,
    and (3-D) one plane of the slowest axis."""
    dims = gc.CASES[name]["dims"]
    nd = len(dims)
    out = [(tuple(d // 5 + 1 for d in dims), tuple(d - d // 4 for d in dims)),
           (tuple(d // 2 for d in dims), tuple(dims))]
    if nd == 3:
        out.append(((0, 0, dims[2] // 2), (dims[0], dims[1], dims[2] // 2 + 1)))
    return out


def resolutions(g) -> list[int]:
    return list(range(g.max_resolution + 1))


# ----------------------------------------------------------------------------------- launches

@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("gridw")


def _launch(workdir, n: int) -> dict:
    out = workdir / f"w{n}"
    out.mkdir(exist_ok=True)
    path = str(out / "w.lodex")
    if n == 1:   # serial, in this process, no MPI
        profiles = gc.write_all(path, None, 0, 1)
        appended = gc.append_steps(path, None, 0, 1)
        gc.fuzz_write(str(out / "fuzz.lodex"), None, 0, 1, gc.FUZZ_SEEDS)
        return {"path": path, "dir": str(out), "write": [{"profiles": profiles, "append": appended}]}
    tasks = ["write", f"read:self:{path}", "fuzz"]
    if n == 3:   # read what 2 and 4 ranks wrote; append to a copy of the 2-rank dataset; bad input
        for m in (2, 4):
            tasks.append(f"read:w{m}:{written(workdir, m)['path']}")
        copy = str(out / "w2copy.lodex")
        shutil.copytree(written(workdir, 2)["path"], copy)
        tasks += [f"append:{copy}", "bad", "readerr"]
    res = run_mpi(n, "grid_write_mpi.py", str(out), *tasks, timeout=TIMEOUT[n])
    for task, per_rank in res.items():
        for r, x in enumerate(per_rank):
            assert "exception" not in x, f"{n} ranks, task {task}, rank {r}:\n{x['exception'][2]}"
    res["path"] = path
    res["dir"] = str(out)
    return res


def written(workdir, n: int) -> dict:
    return cached(("write", n), lambda: _launch(workdir, n))


def expected_steps(name: str) -> list[int]:
    return gc.all_steps(name)


# ------------------------------------------------------------------ 1. interop: every value

@pytest.mark.parametrize("n", RANKS)
@pytest.mark.parametrize("name", list(gc.CASES))
def test_openvisus_and_lodex_read_every_value(workdir, n, name):
    """OpenVisus reads the grid written by n ranks: every step, field, resolution and test box
    equals the numpy original; lodex's reads (Dataset.grid and open_idx) return the same."""
    res = written(workdir, n)
    g = lodex.open(res["path"]).grids[name]
    nd = gc.ndims(name)
    assert g.steps == expected_steps(name)
    db = ov.LoadDataset(g.idx_path)
    assert db.getMaxResolution() == g.max_resolution
    ovsteps = list(db.getTimesteps())
    assert all(s in ovsteps for s in g.steps), (ovsteps, g.steps)
    idx = lodex.open_idx(g.idx_path)
    for step in g.steps:
        for field, (_dtype, comps) in gc.field_specs(name).items():
            full = gc.full_field(name, field, step)
            what = f"{name} n={n} step={step} field={field}"
            o = db.read(time=step, field=db.getField(field))
            assert_same(reshape_like(o, full), full, f"{what} OpenVisus full")
            assert_same(g.read(step, field=field), full, f"{what} lodex full")
            assert_same(idx.read(step, field=field), full, f"{what} open_idx full")
            for r in resolutions(g):
                want = oracle(full, g.bitmask, r, None, nd)
                o = ov_read(db, step, field, r, None, nd)
                assert_same(reshape_like(o, want), want, f"{what} OpenVisus r={r}")
                assert_same(g.read(step, resolution=r, field=field), want, f"{what} lodex r={r}")
            for box in query_boxes(name):
                for r in [None] + resolutions(g)[::2]:
                    want = oracle(full, g.bitmask, r, box, nd)
                    got = g.read(step, box=box, resolution=r, field=field)
                    assert_same(got, want, f"{what} lodex box={box} r={r}")
                    o = ov_read(db, step, field, r, box, nd)
                    if o is None:
                        assert want.size == 0, f"{what}: OpenVisus found nothing in box={box} r={r}"
                    else:
                        assert_same(reshape_like(o, want), want, f"{what} OpenVisus box={box} r={r}")


@pytest.mark.parametrize("n", RANKS)
def test_grid_attributes_and_idx_header(workdir, n):
    """The grid's attributes (reopened read-only) and the .idx header OpenVisus reads say what
    was defined and written."""
    res = written(workdir, n)
    ds = lodex.open(res["path"])
    assert sorted(ds.grids) == sorted(gc.CASES)
    for name, c in gc.CASES.items():
        g = ds.grids[name]
        kw = c["kw"]
        nd = len(c["dims"])
        bits_total = sum(int(np.ceil(np.log2(d))) if d > 1 else 0 for d in c["dims"])
        assert g.dims == c["dims"], name
        assert g.fields == gc.field_specs(name), name
        assert g.max_resolution == bits_total == len(g.bitmask) - 1, (name, g.bitmask)
        for a in range(nd):
            assert g.bitmask[1:].count(str(a)) == int(np.ceil(np.log2(c["dims"][a]))), (name, g.bitmask)
        if "bitmask" in kw:
            assert g.bitmask == kw["bitmask"], name
        assert g.bits_per_block == kw.get("bits_per_block", min(15, bits_total)), name
        assert g.blocks_per_file == kw.get("blocks_per_file", 256), name
        assert g.aggregation == kw.get("aggregation", "localized"), name
        assert g.compression == kw.get("compression"), name
        idx = lodex.open_idx(g.idx_path)
        assert (idx.dims, idx.fields, idx.bitmask, idx.bits_per_block, idx.blocks_per_file, idx.max_resolution) == \
            (g.dims, g.fields, g.bitmask, g.bits_per_block, g.blocks_per_file, g.max_resolution), name
        assert os.path.dirname(os.path.abspath(g.idx_path)) == os.path.abspath(res["path"])
        text = open(g.idx_path).read()
        assert f"(time)\n{g.steps[0]} {g.steps[-1]} time_%06d/\n" in text, (name, text)
        assert f"(filename_template)\n./{name}/" in text, (name, text)
        db = ov.LoadDataset(g.idx_path)
        assert list(db.getFields()) == list(gc.field_specs(name)), name
        assert tuple(db.getLogicSize()) == tuple(c["dims"]), name


def test_rank_conforming_bitmask_of_a_lattice(workdir):
    """A 2 x 2 x 2 row-major lattice of 8 ranks indexes the cells first (z, y, x), then the
    inside of a cell; one rank gets OpenVisus's default bitmask."""
    g8 = lodex.open(written(workdir, 8)["path"]).grids["multi"]
    assert g8.bitmask.startswith("V210"), g8.bitmask
    p8 = written(workdir, 8)["write"][0]["profiles"]["multi"][0]
    assert p8["rank_order"] == "row-major"
    g1 = lodex.open(written(workdir, 1)["path"]).grids["multi"]
    db = ov.CreateIdx(url=os.path.join(str(workdir), "defaultbm", "x.idx"), dims=list(gc.CASES["multi"]["dims"]),
                      fields=[ov.Field("x", "float32", "hzorder")])
    assert g1.bitmask == str(db.getBitmask().toString()), (g1.bitmask, )


# ------------------------------------------------------------------ 2. byte identity

def ov_write(url: str, name: str, g, own_bitmask: bool) -> None:
    """OpenVisus writes case ``name`` (every step of ``g``) with g's block settings and g's bitmask
    (``own_bitmask``: OpenVisus's default instead)."""
    specs = gc.field_specs(name)
    fields = [ov.Field(f, OV_TYPE[d] + (f"[{k}]" if k > 1 else ""), "hzorder") for f, (d, k) in specs.items()]
    kw = {} if own_bitmask else {"bitmask": g.bitmask}
    db = ov.CreateIdx(url=url, dims=list(gc.CASES[name]["dims"]), fields=fields,
                      time=[g.steps[0], g.steps[-1], "time_%06d/"],
                      bitsperblock=g.bits_per_block, blocksperfile=g.blocks_per_file, **kw)
    for s in g.steps:
        for f in specs:
            db.write(gc.full_field(name, f, s), time=s, field=db.getField(f))
    if g.compression == "zip":
        db.compressDataset(["zip"], num_threads=1)


def ov_reference(workdir, n: int, name: str) -> tuple[dict, dict, str, str]:
    """(OpenVisus's files, lodex's files, OpenVisus's .idx text, lodex's .idx text)."""
    def make():
        g = lodex.open(written(workdir, n)["path"]).grids[name]
        root = os.path.join(str(workdir), f"ov{n}")
        os.makedirs(root, exist_ok=True)
        # one rank, no bitmask given: OpenVisus's own default must be what lodex chose
        own = n == 1 and "bitmask" not in gc.CASES[name]["kw"]
        ov_write(os.path.join(root, f"{name}.idx"), name, g, own_bitmask=own)
        return (tree(os.path.join(root, name)), tree(os.path.join(written(workdir, n)["path"], name)),
                open(os.path.join(root, f"{name}.idx")).read(), open(g.idx_path).read())
    return cached(("ov", n, name), make)


ZIP_WITH_ABSENT_BLOCKS = ["zip", "zipm"]   # non-power-of-two: some blocks hold no grid sample


@pytest.mark.parametrize("n", RANKS)
@pytest.mark.parametrize("name", list(gc.CASES))
def test_byte_identical_to_openvisus(workdir, n, name):
    """OpenVisus writing the same data with the same block settings produces the same .bin files
    and .idx: on one rank with the same parameters (OpenVisus picks its default bitmask), on n
    ranks with the rank-conforming bitmask lodex derived, whatever the decomposition. Zipped
    grids included, table entries of blocks outside the grid too."""
    a, b, ia, ib = ov_reference(workdir, n, name)
    assert sorted(a) == sorted(b), sorted(set(a) ^ set(b))
    differ = [k for k in a if a[k] != b[k]]
    assert not differ, differ[:10]
    assert ia == ib


@pytest.mark.parametrize("name", ZIP_WITH_ABSENT_BLOCKS)
def test_zip_serial_byte_identical_to_openvisus(workdir, name):
    a, b, _, _ = ov_reference(workdir, 1, name)
    g = lodex.open(written(workdir, 1)["path"]).grids[name]
    absent = [e for raw in b.values() for e in table_entries(raw, len(g.fields), g.blocks_per_file) if e[4] == 0]
    assert absent, "the case must have blocks outside the grid"
    differ = [k for k in a if a[k] != b.get(k)]
    assert not differ, differ[:10]


@pytest.mark.parametrize("name", list(gc.CASES))
def test_serial_grid_equals_write_idx(workdir, name, tmp_path):
    """One rank: the grid's files are byte-identical to lodex.write_idx's for the same data,
    bitmask and block settings (write_idx is verified against OpenVisus in test_idx_write.py)."""
    g = lodex.open(written(workdir, 1)["path"]).grids[name]
    for s in g.steps:
        data = gc.full_data(name, s)
        lodex.write_idx(str(tmp_path / f"{name}.idx"), data, ndims=gc.ndims(name), bitmask=g.bitmask,
                        bits_per_block=g.bits_per_block, blocks_per_file=g.blocks_per_file,
                        compression=g.compression, time=(g.steps[0], g.steps[-1], "time_%06d/"), step=s)
    a, b = tree(str(tmp_path / name)), tree(os.path.join(written(workdir, 1)["path"], name))
    assert sorted(a) == sorted(b)
    assert [k for k in a if a[k] != b[k]] == []


def test_user_bitmask_files_do_not_depend_on_rank_count(workdir):
    """With the bitmask given, 2, 3, 4 and 8 ranks write the same bytes as one rank."""
    for name in [k for k, c in gc.CASES.items() if "bitmask" in c["kw"]]:
        one = tree(os.path.join(written(workdir, 1)["path"], name))
        for n in RANKS[1:]:
            other = tree(os.path.join(written(workdir, n)["path"], name))
            assert sorted(one) == sorted(other), (name, n)
            assert [k for k in one if one[k] != other[k]] == [], (name, n)


# ------------------------------------------------------------------ random grids

@pytest.mark.parametrize("n", RANKS)
def test_random_grids(workdir, n):
    """Random dims (2-D/3-D), fields, dtypes, components, block settings, zip, shuffled bitmasks
    and random k-d tilings in random rank order (some ranks empty): lodex and OpenVisus read
    every value, and OpenVisus writing the same data with the same bitmask writes the same
    bytes (OpenVisus cannot create grids with an axis of extent 1: compared by reading only)."""
    res = written(workdir, n)
    path = os.path.join(res["dir"], "fuzz.lodex")
    ds = lodex.open(path)
    for seed in gc.FUZZ_SEEDS:
        spec = gc.fuzz_spec(seed, n)
        name = f"z{seed}"
        g = ds.grids[name]
        nd = len(spec["dims"])
        what = f"{name} n={n} dims={spec['dims']} fields={spec['fields']} kw={spec['kw']} boxes={spec['boxes']}"
        assert g.steps == spec["steps"], what
        if "bitmask" in spec["kw"]:
            assert g.bitmask == spec["kw"]["bitmask"], what
        db = ov.LoadDataset(g.idx_path)
        r = max(0, g.max_resolution - 2)
        for step in spec["steps"]:
            for f, s in spec["fields"].items():
                full = gc.fuzz_full(spec, f, step)
                assert_same(g.read(step, field=f), full, f"{what} step {step} {f}")
                assert_same(reshape_like(db.read(time=step, field=db.getField(f)), full), full,
                            f"{what} step {step} {f} OpenVisus")
                want = oracle(full, g.bitmask, r, None, nd)
                assert_same(g.read(step, field=f, resolution=r), want, f"{what} step {step} {f} r={r}")
                o = ov_read(db, step, f, r, None, nd)
                assert_same(reshape_like(o, want), want, f"{what} step {step} {f} OpenVisus r={r}")
        if 1 in spec["dims"]:
            continue
        url = os.path.join(str(workdir), f"fuzzov{n}", f"{name}.idx")
        specs = {f: ((s, 1) if isinstance(s, str) else s) for f, s in spec["fields"].items()}
        fields = [ov.Field(f, OV_TYPE[d] + (f"[{k}]" if k > 1 else ""), "hzorder") for f, (d, k) in specs.items()]
        # one rank without a bitmask given: OpenVisus picks its default, which lodex must match
        bm = {} if n == 1 and "bitmask" not in spec["kw"] else {"bitmask": g.bitmask}
        ovdb = ov.CreateIdx(url=url, dims=list(spec["dims"]), fields=fields,
                            time=[spec["steps"][0], spec["steps"][-1], "time_%06d/"],
                            bitsperblock=g.bits_per_block, blocksperfile=g.blocks_per_file, **bm)
        for step in spec["steps"]:
            for f in specs:
                ovdb.write(gc.fuzz_full(spec, f, step), time=step, field=ovdb.getField(f))
        if g.compression == "zip":
            ovdb.compressDataset(["zip"], num_threads=1)
        a, b = tree(os.path.join(os.path.dirname(url), name)), tree(os.path.join(path, name))
        assert sorted(a) == sorted(b), (what, sorted(set(a) ^ set(b))[:5])
        assert [k for k in a if a[k] != b[k]] == [], what
        assert open(url).read() == open(g.idx_path).read(), what


@pytest.mark.parametrize("n", RANKS[1:])
def test_random_collective_reads(workdir, n):
    """Random collective reads of the random grids by the ranks that wrote them: every slab
    equals numpy (checked by its rank), slabs are disjoint and in rank order along the slowest
    axis, and together they hold as many lattice planes as the whole answer."""
    per_rank = [x["reads"] for x in written(workdir, n)["fuzz"]]
    path = os.path.join(written(workdir, n)["dir"], "fuzz.lodex")
    ds = lodex.open(path)
    for j in range(len(per_rank[0])):
        seed, (step, field, box, r), *_ = per_rank[0][j]
        spec = gc.fuzz_spec(seed, n)
        nd = len(spec["dims"])
        g = ds.grids[f"z{seed}"]
        want = oracle(gc.fuzz_full(spec, field, step), g.bitmask, r, box, nd)
        what = f"z{seed} read {per_rank[0][j][1]} by {n} ranks"
        planes, last_hi = 0, None
        for rank in range(n):
            s2, req, lo, hi, shape, equal = per_rank[rank][j]
            assert (s2, req) == (seed, per_rank[0][j][1])
            assert equal, f"{what}: rank {rank}'s slab {lo, hi} differs from numpy"
            if not all(hi[k] > lo[k] for k in range(nd)) or 0 in shape:
                continue
            if last_hi is not None:
                assert lo[nd - 1] >= last_hi, f"{what}: rank {rank}'s slab {lo, hi} overlaps"
            last_hi = hi[nd - 1]
            planes += shape[0]
        if want.size == 0:
            assert planes == 0, f"{what}: the answer is empty {want.shape}, the slabs are not"
        else:
            assert planes == want.shape[0], f"{what}: the slabs hold {planes} planes, the answer {want.shape}"


# ------------------------------------------------------------------ profile

@pytest.mark.parametrize("n", RANKS)
def test_profile(workdir, n):
    """The profile of every write: the same on every rank (reduced), the bitmask written, the
    files and bytes on disk, per-level blocks and bytes matching the block tables, sane timings."""
    res = written(workdir, n)
    per_rank = [x["profiles"] for x in res["write"]]
    assert len(per_rank) == n
    for r in range(1, n):
        assert per_rank[r] == per_rank[0], f"rank {r}'s profile differs from rank 0's"
    ds = lodex.open(res["path"])
    for name, profs in per_rank[0].items():
        g = ds.grids[name]
        c = gc.CASES[name]
        assert [p["step"] for p in profs] == c["steps"], name
        for p in profs:
            what = f"{name} step {p['step']}"
            assert p["ranks"] == n
            assert p["bitmask"] == g.bitmask, what
            assert 1 <= p["aggregators"] <= n, what
            assert 1 <= p["brick_bits"] <= g.max_resolution, what
            if n == 1 and p["step"] == c["steps"][0]:   # one rank: the whole grid is one brick
                assert p["brick_bits"] == g.max_resolution, what
            if "bitmask" in c["kw"]:
                assert p["rank_order"] == "user", what
            tdir = os.path.join(res["path"], name, f"time_{p['step']:06d}")
            files = tree(tdir)
            assert p["files"] == len(files), what
            assert p["bytes"] == sum(len(v) for v in files.values()), what
            # per level (block 0 holds levels 0..bits_per_block, block b > 0 level bpb + bit_length(b)):
            # the blocks and bytes the block tables hold
            blocks, nbytes = [0] * (g.max_resolution + 1), [0] * (g.max_resolution + 1)
            for fname, raw in files.items():
                first = int(os.path.basename(fname)[:-4], 16)
                for i, e in enumerate(table_entries(raw, len(g.fields), g.blocks_per_file)):
                    if e[4] > 0:
                        b = first + i % g.blocks_per_file
                        level = g.bits_per_block + b.bit_length()
                        blocks[level] += 1
                        nbytes[level] += e[4]
            assert [lv["level"] for lv in p["levels"]] == list(range(g.max_resolution + 1)), what
            assert [lv["blocks"] for lv in p["levels"]] == blocks, what
            assert [lv["bytes"] for lv in p["levels"]] == nbytes, what
            assert all(lv["encode_s"] >= 0 and lv["write_s"] >= 0 for lv in p["levels"]), what
            units = p["files"] * len(g.fields)   # one aggregator per field of a file
            if g.aggregation == "uniform":
                assert p["aggregators"] == min(units, n), what
            else:
                assert p["aggregators"] <= min(units, n), what
            assert set(p["phases"]) == set(PHASES), what
            for ph, t in p["phases"].items():
                assert 0 <= t["min_s"] <= t["max_s"], (what, ph, t)
                assert t["min_s"] - 1e-9 <= t["mean_s"] <= t["max_s"] + 1e-9, (what, ph, t)
            if n == 1:
                assert p["restructured_bytes"] == 0, what


# ------------------------------------------------------------------ collective reads

def _check_parallel(res_dir: str, tag: str, boxes_per_rank: list, path: str) -> None:
    ds = lodex.open(path)
    nread = len(boxes_per_rank)
    arrays = [np.load(os.path.join(res_dir, f"read-{tag}-{r}.npz")) for r in range(nread)]
    for i, (name, field, step, box, res, _api) in enumerate(gc.PAR_READS):
        g = ds.grids[name]
        nd = gc.ndims(name)
        full = gc.full_field(name, field, step)
        want = oracle(full, g.bitmask, res, box, nd)
        what = f"{tag}: read {i} ({name}.{field} step {step} box {box} r {res})"
        req = box if box is not None else ((0,) * nd, gc.CASES[name]["dims"])
        parts, last_hi = [], None
        for r in range(nread):
            lo, hi = (tuple(v) for v in boxes_per_rank[r]["boxes"][i])
            a = arrays[r][str(i)]
            mine = oracle(full, g.bitmask, res, (lo, hi), nd) if all(hi[k] > lo[k] for k in range(nd)) else None
            for ax in range(nd - 1):   # whole extent of the request on the faster axes
                assert (lo[ax], hi[ax]) == (req[0][ax], req[1][ax]), f"{what}: rank {r} box {lo, hi}"
            slow = nd - 1
            assert req[0][slow] <= lo[slow] and hi[slow] <= req[1][slow], f"{what}: rank {r} box {lo, hi}"
            if mine is None or mine.size == 0:
                assert a.size == 0, f"{what}: rank {r} has an empty slab {lo, hi} but {a.shape} values"
                continue
            if last_hi is not None:   # disjoint, in rank order, nothing skipped
                assert lo[slow] >= last_hi, f"{what}: rank {r}'s slab {lo, hi} overlaps the previous one"
                st = stride(g.bitmask, g.max_resolution if res is None else res, slow)
                assert not any(p % st == 0 for p in range(last_hi, lo[slow])), \
                    f"{what}: lattice planes between {last_hi} and {lo[slow]} belong to no rank"
            last_hi = hi[slow]
            assert_same(a, mine, f"{what} rank {r} slab {lo, hi}")
            parts.append(a)
        assert parts, what
        assert_same(np.concatenate(parts, axis=0), want, f"{what}: the slabs together")


@pytest.mark.parametrize("writers,readers", [(2, 2), (3, 3), (4, 4), (8, 8), (2, 3), (4, 3)])
def test_collective_read(workdir, writers, readers):
    """read(comm=...) by `readers` ranks of data written by `writers`: each rank's slab equals
    numpy, the slabs are disjoint, in rank order, and together equal the whole answer."""
    if writers == readers:
        res = written(workdir, writers)
        _check_parallel(res["dir"], "self", res["read:self"], res["path"])
    else:
        res = written(workdir, readers)
        _check_parallel(res["dir"], f"w{writers}", res[f"read:w{writers}"], written(workdir, writers)["path"])


# ------------------------------------------------------------------ 3. refine

@pytest.mark.parametrize("n", [1, 4])
@pytest.mark.parametrize("name,field,step,box", [
    ("multi", "c", 2, None), ("multi", "e", 0, ((3, 2, 1), (30, 20, 10))), ("d2v", "u", 0, None),
    ("zip", "zip", 1, ((5, 5, 2), (33, 17, 7))), ("big", "big", 0, None), ("d2i", "d2i", 2, ((7, 3), (44, 20))),
])
def test_refine(workdir, n, name, field, step, box):
    """refine() yields resolutions from min(bits_per_block, max - 3) to max in order (at least four
    arrays: coarse first even when one block holds the grid), each equal to read(resolution=r),
    OpenVisus's read(max_resolution=r) and numpy; the last is the full read. open_idx too."""
    g = lodex.open(written(workdir, n)["path"]).grids[name]
    nd = gc.ndims(name)
    full = gc.full_field(name, field, step)
    db = ov.LoadDataset(g.idx_path)
    first = max(0, min(g.bits_per_block, g.max_resolution - 3))
    assert g.max_resolution + 1 - first >= min(4, g.max_resolution + 1)
    for src in (g, lodex.open_idx(g.idx_path)):
        it = src.refine(step, box=box, field=field)
        assert len(it) == g.max_resolution + 1 - first
        seen = []
        for arr in it:
            r = it.resolution
            seen.append(r)
            want = oracle(full, g.bitmask, r, box, nd)
            assert_same(arr, want, f"refine r={r}")
            assert_same(arr, src.read(step, box=box, resolution=r, field=field), f"refine vs read r={r}")
            o = ov_read(db, step, field, r, box, nd)
            if o is None:
                assert want.size == 0
            else:
                assert_same(reshape_like(o, want), want, f"OpenVisus r={r}")
        assert seen == list(range(first, g.max_resolution + 1))
        assert_same(arr, src.read(step, box=box, field=field), "last refinement vs full read")


# ------------------------------------------------------------------ 4. bad input

SERIAL_BAD = [c for c in gb.CASES if c not in gb.MULTI_ONLY]


def _check_bad(case: str, outs: list, n: int) -> None:
    stage, cls, needle = gb.CASES[case]
    for r, o in enumerate(outs):
        assert o["error"] is not None, f"{case}: rank {r} of {n} raised nothing"
        assert o["error"][0] == cls, f"{case}: rank {r} raised {o['error']}, want {cls}"
        assert needle in o["error"][1], f"{case}: rank {r}'s message {o['error'][1]!r} lacks {needle!r}"
        assert o["step0_ok"], f"{case}: rank {r}: step 0 no longer reads correctly"
        assert o["retry_ok"], f"{case}: rank {r}: a good write afterwards failed: {o.get('retry_error')}"
        assert o["reopened_ok"], f"{case}: rank {r}: a reader of the closed dataset sees wrong values"
        if case == "step_back":
            assert o["steps_g"] == [0, 2] and o["reopened_steps"] == [0, 2, 3], (case, r, o)
        else:
            assert o["steps_g"] == [0] and o["steps_m"] == [0], f"{case}: rank {r}: the failed step was committed"
            # the good retry adds step 1 (a grid "new" for definition cases)
            assert o["reopened_steps"] == ([0] if stage == "define" else [0, 1]), (case, r, o["reopened_steps"])
    if n > 1:   # the same error everywhere, up to the "rank r: " prefix
        strip = [re.sub(r"^rank \d+: ", "", o["error"][1]) for o in outs]
        assert len(set(strip)) == 1, f"{case}: ranks report different errors: {strip}"


@pytest.mark.parametrize("case", SERIAL_BAD)
def test_bad_input_serial(case, tmp_path):
    out = gb.run_case(case, str(tmp_path), None, 0, 1)
    _check_bad(case, [out], 1)


@pytest.mark.parametrize("case", list(gb.CASES))
def test_bad_input_3_ranks(workdir, case):
    """The bad input on rank 1 only (or everywhere where it cannot be otherwise): every rank
    raises the same lodex error, nothing is committed, and the dataset stays usable."""
    res = written(workdir, 3)
    outs = [x[case] for x in res["bad"]]
    _check_bad(case, outs, 3)
    if case == "overlap":
        for o in outs:
            assert "rank 1" in o["error"][1] and "rank 0" in o["error"][1], o["error"]


@pytest.mark.parametrize("what", ["damaged", "bad_resolution"])
def test_collective_read_error_on_every_rank(workdir, what):
    outs = [x[what] for x in written(workdir, 3)["readerr"]]
    want = "FormatError" if what == "damaged" else "InvalidArgumentError"
    assert any(o is not None for o in outs), f"{what}: no rank raised"
    for r, o in enumerate(outs):
        assert o is not None and o[0] == want, f"{what}: rank {r} got {o}, want {want} (ranks: {outs})"


def test_collective_read_error_leaves_reads_working(workdir):
    """After the failed collective reads, the ranks that raised got the right error and a good
    collective read of an undamaged step works on every rank."""
    outs = written(workdir, 3)["readerr"]
    for r, x in enumerate(outs):
        assert x["damaged"] is None or x["damaged"][0] == "FormatError", (r, x)
        assert x["bad_resolution"] is None or x["bad_resolution"][0] == "InvalidArgumentError", (r, x)
        assert x["after_ok"], r
    assert outs[1]["bad_resolution"] is not None


@pytest.mark.parametrize("what", ["write_box", "read_box", "read_resolution", "bits_per_block",
                                  "blocks_per_file", "dims"])
def test_huge_integers_are_invalid_arguments(tmp_path, what):
    ds = lodex.create(str(tmp_path / "h.lodex"))
    g = ds.define_grid("g", dims=(4, 4, 4), dtype="f4")
    g.write(0, box=((0, 0, 0), (4, 4, 4)), data=np.ones((4, 4, 4), np.float32))
    with pytest.raises(lodex.InvalidArgumentError):
        if what == "write_box":
            g.write(1, box=((2**64, 0, 0), (2**64, 4, 4)), data=np.zeros((4, 4, 0), np.float32))
        elif what == "read_box":
            g.read(0, box=((0, 0, 0), (2**70, 4, 4)))
        elif what == "read_resolution":
            g.read(0, resolution=2**40)
        elif what == "bits_per_block":
            ds.define_grid("h", dims=(4, 4, 4), dtype="f4", bits_per_block=2**40)
        elif what == "blocks_per_file":
            ds.define_grid("h", dims=(4, 4, 4), dtype="f4", blocks_per_file=2**70)
        else:
            ds.define_grid("h", dims=(4, 4, 2**70), dtype="f4")


def test_huge_box_on_one_rank_raises_everywhere(tmp_path):
    """2 ranks; rank 1 passes an empty box at x = 2^64: both must raise InvalidArgumentError
    (a TypeError outside the error agreement would leave rank 0 waiting: the launch times out)."""
    res = run_mpi(2, "grid_overflow_mpi.py", str(tmp_path / "o.lodex"), timeout=10)
    for r, o in enumerate(res["ranks"]):
        assert o is not None and o[0] == "InvalidArgumentError", (r, res["ranks"])


def test_empty_box_needs_empty_data(tmp_path):
    """A 2-D empty box with a non-empty array is refused; a 3-D grid's box may be 2-D only if
    the grid is 2-D."""
    ds = lodex.create(str(tmp_path / "e.lodex"))
    g = ds.define_grid("g", dims=(6, 5, 4), dtype="f4")
    with pytest.raises(lodex.InvalidArgumentError):
        g.write(0, box=((0, 0, 0), (0, 0, 0)), data=np.zeros((4, 5, 6), np.float32))
    with pytest.raises(lodex.InvalidArgumentError):
        g.write(0, box=((0, 0), (6, 5)), data=np.zeros((5, 6), np.float32))
    a = np.arange(120, dtype=np.float32).reshape(4, 5, 6)
    g.write(0, box=((0, 0, 0), (6, 5, 4)), data=a)
    assert_same(g.read(0), a, "after the refused writes")
    ds.close()


def test_read_arguments(workdir):
    g = lodex.open(written(workdir, 1)["path"]).grids["multi"]
    with pytest.raises(lodex.NotFoundError):
        g.read(1)
    with pytest.raises(lodex.InvalidArgumentError):
        g.read(0, resolution=g.max_resolution + 1)
    with pytest.raises(lodex.InvalidArgumentError):
        g.read(0, box=((0, 0, 0), (38, 23, 11)), field="a")
    with pytest.raises(lodex.NotFoundError):
        g.read(0, field="nope")
    with pytest.raises(lodex.NotFoundError):
        lodex.open(written(workdir, 1)["path"]).grids["nope"]


def test_redefine_in_append_mode(workdir):
    """In mode "a", the same definition (or none) reopens a grid; other parameters (blocks per
    file, dims) raise InvalidArgumentError on every rank."""
    for n in RANKS:
        for r, x in enumerate(written(workdir, n)["write"]):
            a = x["append"]
            assert a["redefine"] is not None and a["redefine"][0] == "InvalidArgumentError", (n, r, a)
            assert a["redefine_dims"] is not None and a["redefine_dims"][0] == "InvalidArgumentError", (n, r, a)
            assert a["p3"] == expected_steps("p3") and a["d2"] == expected_steps("d2"), (n, r, a)
            assert a["same_definition"] is None, (n, r, a)


def test_append_by_another_rank_count(workdir):
    """3 ranks reopen what 2 ranks wrote and add a step (new decomposition, the bitmask kept):
    OpenVisus reads the new and the old steps exactly."""
    res = written(workdir, 3)
    path = os.path.join(res["dir"], "w2copy.lodex")
    ds = lodex.open(path)
    for name, _ in gc.APPEND_MORE:
        g = ds.grids[name]
        want_steps = expected_steps(name) + [expected_steps(name)[-1] + 1]
        assert g.steps == want_steps
        for x in res["append"]:
            assert x[name] == want_steps
        assert g.bitmask == lodex.open(written(workdir, 2)["path"]).grids[name].bitmask
        db = ov.LoadDataset(g.idx_path)
        for step in g.steps:
            for field in gc.field_specs(name):
                full = gc.full_field(name, field, step)
                assert_same(reshape_like(db.read(time=step, field=db.getField(field)), full), full,
                            f"{name}.{field} step {step} OpenVisus")
                assert_same(g.read(step, field=field), full, f"{name}.{field} step {step}")
                r = g.max_resolution - 3
                assert_same(g.read(step, field=field, resolution=r), oracle(full, g.bitmask, r, None, gc.ndims(name)),
                            f"{name}.{field} step {step} r={r}")


def test_serial_append_and_partitions(tmp_path):
    """Serial append mode; partitions=3 is refused and leaves no grid; partitions=2 with one rank
    fails at the write (its box crosses the partitions) and leaves no step."""
    p = str(tmp_path / "a.lodex")
    ds = lodex.create(p, fsync=True)
    with pytest.raises(lodex.InvalidArgumentError, match="power of two"):
        ds.define_grid("g", dims=(8, 8), dtype="u1", partitions=3)
    g2 = ds.define_grid("g2", dims=(8, 8), dtype="u1", partitions=2)
    with pytest.raises(lodex.InvalidArgumentError, match="crosses the boundary of partition"):
        g2.write(0, box=((0, 0), (8, 8)), data=np.zeros((8, 8), np.uint8))
    assert g2.steps == []
    g = ds.define_grid("g", dims=(8, 8), dtype="u1", bits_per_block=3, blocks_per_file=2)
    a = (np.arange(64, dtype=np.uint8).reshape(8, 8) * 3)
    g.write(0, box=((0, 0), (8, 8)), data=a)
    assert g.profile["fsync"] is True and g.profile["files"] == 4   # 8 blocks, 2 per file
    assert sorted(ds.grids) == ["g", "g2"]   # the refused definition left nothing behind
    ds.close()
    with pytest.raises(lodex.Error):   # read-only
        lodex.open(p).grids["g"].write(1, box=((0, 0), (8, 8)), data=a)
    ds = lodex.open(p, mode="a")
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_grid("g", dims=(8, 8), dtype="u2", bits_per_block=3, blocks_per_file=2)
    g = ds.define_grid("g", dims=(8, 8), dtype="u1", bits_per_block=3, blocks_per_file=2)
    with pytest.raises(lodex.AlreadyExistsError):
        g.write(0, box=((0, 0), (8, 8)), data=a)
    g.write(2, box=((0, 0), (8, 8)), data=a + 1)
    ds.close()
    g = lodex.open(p).grids["g"]
    assert g.steps == [0, 2]
    db = ov.LoadDataset(g.idx_path)
    assert_same(db.read(time=0), a, "step 0")
    assert_same(db.read(time=2), a + 1, "step 2")
    assert_same(g.read(2), a + 1, "step 2 lodex")


# ------------------------------------------------------------------ damaged files

DAMAGE_GRIDS = {
    "raw": dict(dims=(21, 18, 9), dtype="f8", bits_per_block=6, blocks_per_file=4),
    "zz": dict(dims=(21, 18, 9), dtype="i4", bits_per_block=7, blocks_per_file=2, compression="zip"),
}


def damage_data(name: str, step: int) -> np.ndarray:
    rng = np.random.default_rng([808, len(name), step])
    d = DAMAGE_GRIDS[name]
    return (rng.standard_normal(d["dims"][::-1]) * 100).astype(d["dtype"])


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("dmg") / "d.lodex")
    ds = lodex.create(path)
    for name, kw in DAMAGE_GRIDS.items():
        g = ds.define_grid(name, **kw)
        for step in (0, 1):
            g.write(step, box=((0, 0, 0), kw["dims"]), data=damage_data(name, step))
    ds.close()
    return path


def _files(path: str, name: str, step: int) -> list[str]:
    d = os.path.join(path, name, f"time_{step:06d}")
    return sorted(os.path.join(d, f) for f in os.listdir(d))


def _present(fp: str, bpf: int) -> list[tuple[int, tuple]]:
    raw = open(fp, "rb").read()
    return [(i, e) for i, e in enumerate(table_entries(raw, 1, bpf)) if e[4] > 0]


def _patch_entry(fp: str, slot: int, word: int, value: int) -> None:
    with open(fp, "r+b") as fh:
        fh.seek(40 + 40 * slot + 4 * word)
        fh.write(struct.pack(">I", value))


def damage(path: str, kind: str) -> tuple[str, int, int]:
    """Damages step 1 of a grid; returns (grid, damaged file, global block number)."""
    name = "zz" if kind == "zip_garbage" else "raw"
    bpf = DAMAGE_GRIDS[name]["blocks_per_file"]
    files = _files(path, name, 1)
    fp = files[len(files) // 2]
    slot, e = _present(fp, bpf)[-1]
    block = int(os.path.basename(fp)[:-4], 16) + slot
    if kind == "truncate_tail":
        os.truncate(fp, e[2] + e[4] // 2)
    elif kind == "truncate_table":
        os.truncate(fp, 30)
    elif kind == "offset_past_eof":
        _patch_entry(fp, slot, 2, os.path.getsize(fp) + 64)
    elif kind == "raw_size":
        _patch_entry(fp, slot, 4, e[4] - 8)
    elif kind == "empty_entry":
        for w in range(10):
            _patch_entry(fp, slot, w, 0)
    elif kind == "zip_garbage":
        with open(fp, "r+b") as fh:
            fh.seek(e[2] + e[4] // 2)
            chunk = fh.read(8)
            fh.seek(e[2] + e[4] // 2)
            fh.write(bytes(b ^ 0x5A for b in chunk))
    elif kind == "missing_file":
        os.remove(fp)
    else:
        raise KeyError(kind)
    return name, fp, block


@pytest.mark.parametrize("kind", ["truncate_tail", "truncate_table", "offset_past_eof", "raw_size",
                                  "empty_entry", "zip_garbage", "missing_file"])
def test_damaged_bin_is_a_format_error(copy, kind):
    """A damaged .bin raises FormatError naming the file (and the block, where one is at fault)
    instead of returning zeros; step 0 still reads exactly."""
    name, fp, block = damage(copy, kind)
    bpf = DAMAGE_GRIDS[name]["blocks_per_file"]
    slot = block % bpf
    g = lodex.open(copy).grids[name]
    for src in (g, lodex.open_idx(g.idx_path)):
        with pytest.raises(lodex.FormatError) as ei:
            src.read(1)
        msg = str(ei.value)
        assert os.path.basename(fp) in msg and name in msg, msg
        if kind not in ("truncate_table", "missing_file"):
            assert f"block {block}" in msg or f"block slot {slot}" in msg, msg
        assert_same(src.read(0), damage_data(name, 0), f"{kind}: step 0")
    db = ov.LoadDataset(g.idx_path)   # OpenVisus still reads the undamaged step
    assert_same(db.read(time=0), damage_data(name, 0), "OpenVisus step 0")


@pytest.mark.parametrize("kind", [
    "garbage_text", "empty", "bad_bitmask", "truncated", "bad_bits_per_block", "bad_box", "no_time",
    "garbage_binary",
])
def test_damaged_idx_is_a_format_error(copy, kind):
    """A damaged .idx header raises FormatError (through open_idx and Dataset.grid); the other
    grid of the dataset still reads."""
    idx = os.path.join(copy, "raw.idx")
    text = open(idx).read()
    if kind == "garbage_binary":
        new = b"\xff\xfe" + bytes(np.random.default_rng(1).integers(0, 256, 300, dtype=np.uint8))
    elif kind == "garbage_text":
        new = b"this is not an IDX header\n" * 5
    elif kind == "no_time":
        new = text.replace("(time)\n0 1 time_%06d/\n", "").encode()
    elif kind == "empty":
        new = b""
    elif kind == "bad_bitmask":
        new = text.replace(lodex.open_idx(idx).bitmask, "V0123").encode()
    elif kind == "truncated":
        new = text[:len(text) // 3].encode()
    elif kind == "bad_bits_per_block":
        new = text.replace("(bitsperblock)\n6\n", "(bitsperblock)\nsix\n").encode()
    else:
        new = text.replace("(box)\n0 20 0 17 0 8\n", "(box)\n0 20 0\n").encode()
    assert new != text.encode()
    with open(idx, "wb") as fh:
        fh.write(new)
    with pytest.raises(lodex.FormatError):
        lodex.open_idx(idx).read(0)
    with pytest.raises(lodex.FormatError):
        lodex.open(copy).grids["raw"].read(0)
    assert_same(lodex.open(copy).grids["zz"].read(1), damage_data("zz", 1), "the other grid")


@pytest.mark.parametrize("kind", ["swapped", "box", "dtype", "template_absolute", "template_parent", "bits",
                                  "time_pattern"])
def test_idx_header_checked_against_the_manifest(copy, kind):
    """A .idx that parses but is not what the manifest says this grid is (another grid's header
    swapped in, an edited box, field type, bitmask or file template) is a FormatError naming the
    .idx and the line, never a read of other data or of files elsewhere; the other grid still
    reads. (Swapped headers used to return the other grid's shape and type silently.)"""
    raw, zz = os.path.join(copy, "raw.idx"), os.path.join(copy, "zz.idx")
    text = open(raw).read()
    if kind == "swapped":
        new = open(zz).read()
    elif kind == "box":
        new = text.replace("(box)\n0 20 0 17 0 8\n", "(box)\n0 20 0 17 0 4\n")
    elif kind == "dtype":
        dtype = DAMAGE_GRIDS["raw"]["dtype"]
        new = text.replace(f" {np.dtype(dtype).name} ",
                           " float64 " if np.dtype(dtype).name != "float64" else " int32 ", 1)
    elif kind == "template_absolute":
        new = text.replace("./raw/", "/tmp/elsewhere/raw/")
    elif kind == "template_parent":
        new = text.replace("./raw/", "./../../raw/")
    elif kind == "bits":
        bits = lodex.open_idx(raw).bitmask
        new = text.replace(bits, "V" + bits[1:][::-1])
    else:
        new = text.replace("time_%06d/", "t%d/")
    assert new != text, kind
    with open(raw, "w") as fh:
        fh.write(new)
    with pytest.raises(lodex.FormatError, match="raw.idx") as ei:
        lodex.open(copy).grids["raw"].read(1)
    assert "manifest says" in str(ei.value), str(ei.value)
    assert_same(lodex.open(copy).grids["zz"].read(1), damage_data("zz", 1), "the other grid")


def test_bare_array_goes_to_the_only_field(tmp_path):
    """A grid of one field named unlike the grid takes a bare array; a grid of several refuses one."""
    ds = lodex.create(str(tmp_path / "b.lodex"))
    g = ds.define_grid("g", dims=(5, 4, 3), fields={"v": "f4"})
    a = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    g.write(0, ((0, 0, 0), (5, 4, 3)), a)
    assert np.array_equal(g.read(0, field="v"), a)
    h = ds.define_grid("h", dims=(5, 4, 3), fields={"v": "f4", "w": "f4"})
    with pytest.raises(lodex.InvalidArgumentError, match="dict"):
        h.write(0, ((0, 0, 0), (5, 4, 3)), a)
    ds.close()
