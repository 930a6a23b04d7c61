"""Domain partitioning of parallel IDX grid writes (``Dataset.define_grid(..., partitions=P,
index_space="global"|"local")``) against numpy, OpenVisus and the unpartitioned write.

Every grid of mpi_scripts/grid_partition_cases.py (3-D and 2-D non-power-of-two grids, templates
splitting z first or x and y first, a derived template on a power-of-two lattice; partitions 2,
4 and 8; both index spaces, both aggregations, zip, f4 f8 i2 i4 i8 u1 u2 fields and vectors, two
steps) is written by 2, 3, 4 and 8 ranks (one mpiexec each, mpi_scripts/grid_partition_mpi.py)
with every rank's box inside one partition (ranks split partitions unevenly, some ranks empty,
random rank order). Checked here: lodex reads at every resolution (whole grid and two boxes,
one crossing partitions) and refinement equal the numpy original; OpenVisus reads the global
dataset and every part dataset of the local index space; the global index space writes the same
bytes as partitions=1; the part boxes; the profile; collective reads (also by 3 ranks of what 4
wrote); a step added by 3 ranks to what 4 wrote; a box crossing a partition boundary fails on
every rank and commits nothing; bad definitions; `lodex read` of a local-space grid.

"""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

import lodex
import grid_partition_cases as pc
import grid_write_cases as gc
from grid_checks import assert_same, ov_read, reshape_like, table_entries, tree
from conftest import LaunchCache, run_mpi

os.environ.setdefault("VISUS_DISABLE_WRITE_LOCK", "1")
import OpenVisus as ov  # noqa: E402  (the reference implementation)

RANKS = [2, 3, 4, 8]
TIMEOUT = {2: 120, 3: 150, 4: 150, 8: 240}
PHASES = ["check", "agree", "plan", "restructure", "hz_encode", "aggregate", "compress", "file_write", "commit"]
PROFILE_KEYS = ["partitions", "index_space", "aggregators", "phases", "levels", "files", "bytes"]

stride, oracle = gc.stride, gc.oracle   # the resolution lattice and the numpy answer of a read
cached = LaunchCache()


# ------------------------------------------------------------------------------------ helpers

def sub(full: np.ndarray, lo, hi, nd: int) -> np.ndarray:
    return full[tuple(slice(lo[a], hi[a]) for a in reversed(range(nd)))]


def query_boxes(case: dict, bitmask: str) -> list:
    """Two read boxes: one crossing partition boundaries (checked), one off-lattice inside the
    last partition holding samples."""
    dims = case["dims"]
    nd = len(dims)
    cross = (tuple(d // 5 + 1 for d in dims), tuple(d - d // 4 for d in dims))
    parts = pc.partition_boxes(bitmask, dims, case["kw"]["partitions"])
    touched = [q for q, lo, hi in parts if all(max(lo[a], cross[0][a]) < min(hi[a], cross[1][a]) for a in range(nd))]
    assert len(touched) >= 2, (cross, parts)
    _, plo, phi = parts[-1]
    inner = (tuple(plo[a] + (1 if phi[a] - plo[a] >= 3 else 0) for a in range(nd)),
             tuple(phi[a] - (1 if phi[a] - plo[a] >= 3 else 0) for a in range(nd)))
    return [cross, inner]


# ----------------------------------------------------------------------------------- launches

@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("gridp")


def _launch(workdir, n: int) -> dict:
    out = workdir / f"w{n}"
    out.mkdir(exist_ok=True)
    path = str(out / "p.lodex")
    tasks = ["write", f"read:self:{n}:{path}"]
    if n == 3:   # read what 4 ranks wrote; add a step to a copy of it; boxes crossing partitions
        src = written(workdir, 4)["path"]
        copy = str(out / "p4copy.lodex")
        shutil.copytree(src, copy)
        tasks += [f"read:w4:4:{src}", f"append:{copy}", "cross"]
    if n == 2:
        tasks.append("cross")
    if n == 4:
        tasks.append("dflt")
    res = run_mpi(n, "grid_partition_mpi.py", str(out), *tasks, timeout=TIMEOUT[n])
    for task, per_rank in res.items():
        for r, x in enumerate(per_rank):
            assert "exception" not in x, f"{n} ranks, task {task}, rank {r}:\n{x['exception'][2]}"
    res["path"] = path
    res["ref"] = str(out / "ref.lodex")
    res["dir"] = str(out)
    return res


def written(workdir, n: int) -> dict:
    return cached(("write", n), lambda: _launch(workdir, n))


def case_info(workdir, n: int, name: str) -> dict:
    """What the writers of case ``name`` saw (the write succeeded on every rank, all agree)."""
    per_rank = [x[name] for x in written(workdir, n)["write"]]
    for r, x in enumerate(per_rank):
        assert "exception" not in x, f"{name} by {n} ranks: rank {r} raised:\n{x['exception'][2]}"
    def agreed(x):   # brick_bits is the rank's own plan's (a local-space partition plans alone)
        return {**x, "profiles": [{k: v for k, v in p.items() if k != "brick_bits"} for p in x["profiles"]]}
    for r, x in enumerate(per_rank[1:], 1):
        assert agreed(x) == agreed(per_rank[0]), f"{name} by {n} ranks: rank {r} reports differently from rank 0"
    return per_rank[0]


def all_cases():
    return [(n, name) for n in RANKS for name in pc.cases(n)]


def case_ids():
    return [f"{n}-{name}" for n, name in all_cases()]


def global_cases():
    return [(n, name) for n, name in all_cases() if pc.cases(n)[name]["kw"]["index_space"] == "global"]


def local_cases():
    return [(n, name) for n, name in all_cases() if pc.cases(n)[name]["kw"]["index_space"] == "local"]


# ------------------------------------------------------------------ the grids and their datasets

@pytest.mark.parametrize("n,name", all_cases(), ids=case_ids())
def test_grid_attributes_and_datasets(workdir, n, name):
    """Attributes (as the writer saw them and reopened read-only): steps, the template, the
    partitions and index space; global: one .idx; local: one .idx per partition holding
    samples, with the partition's box clipped to the grid (computed here from the template),
    and idx_path refused."""
    res = written(workdir, n)
    info = case_info(workdir, n, name)
    case = pc.cases(n)[name]
    kw = case["kw"]
    P = kw["partitions"]
    g = lodex.open(res["path"]).grids[name]
    assert g.steps == case["steps"] == info["steps"]
    assert g.partitions == P == info["partitions"] and g.index_space == kw["index_space"] == info["index_space"]
    assert g.dims == case["dims"]
    assert g.fields == pc.field_specs(case)
    assert g.bitmask == info["bitmask"]
    assert g.max_resolution == len(g.bitmask) - 1
    if "bitmask" in kw:
        assert g.bitmask == kw["bitmask"]
    else:   # derived from the lattice: the first characters cut the lattice's axes
        pc._check_bitmask(g.bitmask, case["dims"])
        lat = pc.LATTICE[n]
        k = P.bit_length() - 1
        assert all(lat[int(c)] > 1 for c in g.bitmask[1:1 + k]), (g.bitmask, lat)
    bpb = kw["bits_per_block"] if kw["bits_per_block"] is not None else min(15, g.max_resolution)
    assert (g.bits_per_block, g.blocks_per_file, g.aggregation, g.compression) == \
        (bpb, kw["blocks_per_file"], kw["aggregation"], kw.get("compression"))
    if kw["index_space"] == "global":
        want = os.path.join(res["path"], f"{name}.idx")
        assert os.path.abspath(g.idx_path) == os.path.abspath(want)
        assert g.idx_paths == [g.idx_path]
        assert os.path.abspath(info["idx_path"]) == os.path.abspath(want) and info["idx_paths"] == [info["idx_path"]]
        assert os.path.isfile(want)
        return
    with pytest.raises(lodex.UnsupportedError):
        g.idx_path
    want = [(lo, hi, os.path.join(res["path"], name, f"p{q:04d}.idx"))
            for q, lo, hi in pc.partition_boxes(g.bitmask, case["dims"], P)]
    got = [(tuple(lo), tuple(hi), os.path.abspath(p)) for lo, hi, p in g.part_boxes]
    assert got == [(lo, hi, os.path.abspath(p)) for lo, hi, p in want]
    assert [(tuple(lo), tuple(hi), os.path.abspath(p)) for lo, hi, p in info["part_boxes"]] == got
    assert [os.path.abspath(p) for p in g.idx_paths] == [p for _, _, p in got]
    assert info["idx_paths"] == [p for _, _, p in info["part_boxes"]]
    for _, _, p in got:
        assert os.path.isfile(p), p
    # the partitions holding samples tile the grid
    cover = np.zeros(case["dims"][::-1], dtype=np.int32)
    for lo, hi, _ in got:
        sub(cover, lo, hi, len(case["dims"]))[...] += 1
    assert (cover == 1).all()
    assert not os.path.exists(os.path.join(res["path"], f"{name}.idx"))


@pytest.mark.parametrize("n,name", all_cases(), ids=case_ids())
def test_lodex_reads_every_resolution(workdir, n, name):
    """lodex reads (Dataset.grid) of every step and field, at every resolution 0..max, of the
    whole grid and of two boxes (one crossing partitions) equal the numpy original on the
    resolution's lattice; the global dataset read through open_idx too."""
    res = written(workdir, n)
    case_info(workdir, n, name)
    case = pc.cases(n)[name]
    nd = len(case["dims"])
    g = lodex.open(res["path"]).grids[name]
    boxes = [None] + query_boxes(case, g.bitmask)
    idx = lodex.open_idx(g.idx_path) if case["kw"]["index_space"] == "global" else None
    for step in case["steps"]:
        for field in case["fields"]:
            full = pc.full_field(name, case, field, step)
            what = f"{name} n={n} step={step} field={field}"
            assert_same(g.read(step, field=field), full, f"{what} full")
            if idx is not None:
                assert_same(idx.read(step, field=field), full, f"{what} open_idx full")
            for box in boxes:
                for r in range(g.max_resolution + 1):
                    want = oracle(full, g.bitmask, r, box, nd)
                    assert_same(g.read(step, box=box, resolution=r, field=field), want, f"{what} box={box} r={r}")
            r = g.max_resolution - 2
            if idx is not None:
                assert_same(idx.read(step, box=boxes[1], resolution=r, field=field),
                            oracle(full, g.bitmask, r, boxes[1], nd), f"{what} open_idx box r={r}")


def test_strides_match_lodex():
    """The oracle's lattice is lodex's own (grids._lattice_stride) for every template here."""
    for bm in (pc.BM3Z, pc.BM3XY, pc.BM2):
        for r in range(len(bm)):
            for a in range(3):
                assert stride(bm, r, a) == lodex.grids._lattice_stride(bm, r, a), (bm, r, a)


@pytest.mark.parametrize("n,name", all_cases(), ids=case_ids())
def test_refine(workdir, n, name):
    """refine() over the box crossing partitions yields min(bits_per_block, max - 3)..max, each equal
    to numpy and to read(resolution=r); the last is the full read."""
    res = written(workdir, n)
    case_info(workdir, n, name)
    case = pc.cases(n)[name]
    nd = len(case["dims"])
    g = lodex.open(res["path"]).grids[name]
    box = query_boxes(case, g.bitmask)[0]
    field = list(case["fields"])[-1]
    step = case["steps"][-1]
    full = pc.full_field(name, case, field, step)
    it = g.refine(step, box=box, field=field)
    first = max(0, min(g.bits_per_block, g.max_resolution - 3))
    assert len(it) == g.max_resolution + 1 - first
    seen = []
    for arr in it:
        r = it.resolution
        seen.append(r)
        assert_same(arr, oracle(full, g.bitmask, r, box, nd), f"{name} refine r={r}")
        assert_same(arr, g.read(step, box=box, resolution=r, field=field), f"{name} refine vs read r={r}")
    assert seen == list(range(first, g.max_resolution + 1))
    it = g.refine(step, field=field, start=0)
    arrs = list(it)
    assert len(arrs) == g.max_resolution + 1
    for r, arr in enumerate(arrs):
        assert_same(arr, oracle(full, g.bitmask, r, None, nd), f"{name} refine from 0, r={r}")


@pytest.mark.parametrize("n,name", global_cases(), ids=[f"{n}-{x}" for n, x in global_cases()])
def test_openvisus_reads_global(workdir, n, name):
    """OpenVisus reads the one dataset of the global index space: every step and field, whole
    grid and the box crossing partitions, at full and coarse resolutions."""
    res = written(workdir, n)
    case_info(workdir, n, name)
    case = pc.cases(n)[name]
    nd = len(case["dims"])
    g = lodex.open(res["path"]).grids[name]
    db = ov.LoadDataset(g.idx_path)
    assert db.getMaxResolution() == g.max_resolution
    assert tuple(db.getLogicSize()) == tuple(case["dims"])
    assert list(db.getFields()) == list(case["fields"])
    assert all(s in list(db.getTimesteps()) for s in g.steps)
    box = query_boxes(case, g.bitmask)[0]
    for step in case["steps"]:
        for field in case["fields"]:
            full = pc.full_field(name, case, field, step)
            what = f"{name} n={n} step={step} field={field}"
            assert_same(reshape_like(db.read(time=step, field=db.getField(field)), full), full, f"{what} OpenVisus")
            for r in (g.max_resolution, g.max_resolution - 1, g.max_resolution - 3, g.max_resolution // 2):
                for b in (None, box):
                    want = oracle(full, g.bitmask, r, b, nd)
                    o = ov_read(db, step, field, r, b, nd)
                    if o is None:
                        assert want.size == 0, f"{what}: OpenVisus found nothing in box={b} r={r}"
                    else:
                        assert_same(reshape_like(o, want), want, f"{what} OpenVisus box={b} r={r}")


@pytest.mark.parametrize("n,name", local_cases(), ids=[f"{n}-{x}" for n, x in local_cases()])
def test_openvisus_reads_every_part(workdir, n, name):
    """Local index space: every part dataset is an ordinary IDX dataset of its box (origin 0):
    OpenVisus and lodex.open_idx read exactly the grid's samples of the box, at full resolution
    and (OpenVisus) at a coarser one, whose lattice is the grid's."""
    res = written(workdir, n)
    case_info(workdir, n, name)
    case = pc.cases(n)[name]
    nd = len(case["dims"])
    g = lodex.open(res["path"]).grids[name]
    k = g.partitions.bit_length() - 1
    parts = g.part_boxes
    assert len(parts) >= 2
    for lo, hi, p in parts:
        db = ov.LoadDataset(p)
        pidx = lodex.open_idx(p)
        assert tuple(db.getLogicSize()) == tuple(hi[a] - lo[a] for a in range(nd)), (p, lo, hi)
        assert list(db.getFields()) == list(case["fields"]), p
        assert pidx.dims == tuple(hi[a] - lo[a] for a in range(nd)), p
        assert pidx.bitmask == "V" + g.bitmask[1 + k:], (p, pidx.bitmask, g.bitmask)
        assert db.getMaxResolution() == g.max_resolution - k
        assert all(s in list(db.getTimesteps()) for s in g.steps), (p, list(db.getTimesteps()))
        for step in case["steps"]:
            for field in case["fields"]:
                full = pc.full_field(name, case, field, step)
                want = np.ascontiguousarray(sub(full, lo, hi, nd))
                what = f"{name} n={n} part {lo}-{hi} step={step} field={field}"
                assert_same(reshape_like(db.read(time=step, field=db.getField(field)), want), want,
                            f"{what} OpenVisus")
                assert_same(pidx.read(step, field=field), want, f"{what} open_idx")
                rl = db.getMaxResolution() - 2
                # the part's resolution rl is the grid's resolution rl + k
                wc = oracle(full, g.bitmask, rl + k, (lo, hi), nd)
                assert_same(oracle(want, pidx.bitmask, rl, None, nd), wc, f"{what} lattices")
                o = ov_read(db, step, field, rl, None, nd)
                assert o is not None, what
                assert_same(reshape_like(o, wc), wc, f"{what} OpenVisus r={rl}")


# ------------------------------------------------------------------ byte identity

@pytest.mark.parametrize("n,name", global_cases(), ids=[f"{n}-{x}" for n, x in global_cases()])
def test_global_index_space_byte_identical_to_unpartitioned(workdir, n, name):
    """The global index space writes the same .bin files and .idx, byte for byte, as the same
    write (same template, block settings, boxes) with partitions=1."""
    res = written(workdir, n)
    info = case_info(workdir, n, name)
    assert info["ref_bitmask"] == info["bitmask"]
    a, b = tree(os.path.join(res["path"], name)), tree(os.path.join(res["ref"], name))
    assert a, "no files written"
    assert sorted(a) == sorted(b), sorted(set(a) ^ set(b))[:10]
    differ = [k for k in a if a[k] != b[k]]
    assert not differ, differ[:10]
    with open(os.path.join(res["path"], f"{name}.idx"), "rb") as fa:
        with open(os.path.join(res["ref"], f"{name}.idx"), "rb") as fb:
            assert fa.read() == fb.read()
    assert lodex.open(res["ref"]).grids[name].partitions == 1


# ------------------------------------------------------------------ profile

@pytest.mark.parametrize("n,name", all_cases(), ids=case_ids())
def test_profile(workdir, n, name):
    """The profile of every write: the same on every rank; partitions and index space; files
    and bytes on disk; blocks and bytes per level matching the block tables (local index space:
    a part's level + log2(partitions) is the grid's level)."""
    res = written(workdir, n)
    info = case_info(workdir, n, name)   # every rank reported the same profiles
    case = pc.cases(n)[name]
    g = lodex.open(res["path"]).grids[name]
    local = case["kw"]["index_space"] == "local"
    k = g.partitions.bit_length() - 1 if local else 0
    for step, p in zip(case["steps"], info["profiles"]):
        what = f"{name} n={n} step {step}"
        for key in PROFILE_KEYS:
            assert key in p, (what, key, sorted(p))
        assert p["partitions"] == g.partitions and p["index_space"] == g.index_space, what
        assert 1 <= p["aggregators"] <= n, what
        assert set(p["phases"]) == set(PHASES), what
        for ph, t in p["phases"].items():
            assert 0 <= t["min_s"] <= t["max_s"], (what, ph, t)
        tdir = f"time_{step:06d}"
        files = {f: raw for f, raw in tree(os.path.join(res["path"], name)).items()
                 if os.path.basename(os.path.dirname(f)) == tdir and ".checksums/" not in f}
        assert files, what
        assert p["files"] == len(files), what
        assert p["bytes"] == sum(len(v) for v in files.values()), what
        blocks, nbytes = [0] * (g.max_resolution + 1), [0] * (g.max_resolution + 1)
        for fname, raw in files.items():
            first = int(os.path.basename(fname)[:-4], 16)
            for i, e in enumerate(table_entries(raw, len(g.fields), g.blocks_per_file)):
                if e[4] > 0:
                    level = g.bits_per_block + (first + i % g.blocks_per_file).bit_length() + k
                    blocks[level] += 1
                    nbytes[level] += e[4]
        assert [lv["level"] for lv in p["levels"]] == list(range(g.max_resolution + 1)), what
        assert [lv["blocks"] for lv in p["levels"]] == blocks, what
        assert [lv["bytes"] for lv in p["levels"]] == nbytes, what


# ------------------------------------------------------------------ collective reads

@pytest.mark.parametrize("writers,readers", [(2, 2), (3, 3), (4, 4), (8, 8), (4, 3)])
def test_collective_read_local_space(workdir, writers, readers):
    """read(comm=...) of local-space grids by ``readers`` ranks of data ``writers`` wrote: each
    rank's slab (last_read_box) equals numpy, the slabs are disjoint, in rank order along the
    slowest axis and together equal the whole read."""
    if writers == readers:
        res = written(workdir, writers)
        tag, per_rank = "self", res["read:self"]
    else:
        res = written(workdir, readers)
        tag, per_rank = f"w{writers}", res[f"read:w{writers}"]
    wpath = written(workdir, writers)["path"]
    ds = lodex.open(wpath)
    cs = pc.cases(writers)
    arrays = [np.load(os.path.join(res["dir"], f"read-{tag}-{r}.npz")) for r in range(readers)]
    reads = per_rank[0]["reads"]
    assert {m[1] for m in reads} == {nm for nm, c in cs.items() if c["kw"]["index_space"] == "local"}
    for j, (key, name, field, step, box, r, _) in enumerate(reads):
        case = cs[name]
        nd = len(case["dims"])
        g = ds.grids[name]
        full = pc.full_field(name, case, field, step)
        want = oracle(full, g.bitmask, r, box, nd)
        req = box if box is not None else ((0,) * nd, case["dims"])
        what = f"{tag}: {key} ({name}.{field} step {step} box {box} r {r})"
        parts, last_hi = [], None
        slow = nd - 1
        for rank in range(readers):
            m = per_rank[rank]["reads"][j]
            assert m[:6] == reads[j][:6], (what, rank)
            lo, hi = (tuple(v) for v in m[6])
            a = arrays[rank][key]
            for ax in range(nd - 1):
                assert (lo[ax], hi[ax]) == (tuple(req[0])[ax], tuple(req[1])[ax]), f"{what}: rank {rank} box {lo, hi}"
            assert req[0][slow] <= lo[slow] and hi[slow] <= req[1][slow], f"{what}: rank {rank} box {lo, hi}"
            if any(hi[a] <= lo[a] for a in range(nd)):
                assert a.size == 0, f"{what}: rank {rank} has an empty box but {a.shape} values"
                continue
            mine = oracle(full, g.bitmask, r, (lo, hi), nd)
            assert_same(a, mine, f"{what} rank {rank} slab {lo, hi}")
            if mine.size == 0:
                continue
            if last_hi is not None:
                assert lo[slow] >= last_hi, f"{what}: rank {rank}'s slab {lo, hi} overlaps the previous one"
            last_hi = hi[slow]
            parts.append(a)
        assert parts, what
        assert_same(np.concatenate(parts, axis=0), want, f"{what}: the slabs together")


# ------------------------------------------------------------------ append, CLI

@pytest.mark.parametrize("name", pc.APPEND_MORE)
def test_append_by_another_rank_count(workdir, name):
    """3 ranks reopen what 4 ranks wrote (mode "a") and add a step with their own boxes: every
    step, old and new, reads exactly through lodex (also coarse) and OpenVisus (the global
    dataset, or every part dataset, whose headers now list the new step)."""
    res = written(workdir, 3)
    case = pc.cases(4)[name]
    nd = len(case["dims"])
    want_steps = case["steps"] + [case["steps"][-1] + 1]
    for r, x in enumerate(res["append"]):
        assert x[name] == want_steps, (r, x)
    g = lodex.open(os.path.join(res["dir"], "p4copy.lodex")).grids[name]
    assert g.steps == want_steps
    assert g.bitmask == case["kw"]["bitmask"]
    if case["kw"]["index_space"] == "global":
        datasets = [(tuple([0] * nd), tuple(case["dims"]), g.idx_path)]
    else:
        datasets = g.part_boxes
        assert [(lo, hi) for lo, hi, _ in datasets] == \
            [(lo, hi) for _, lo, hi in pc.partition_boxes(g.bitmask, case["dims"], g.partitions)]
    dbs = [(lo, hi, ov.LoadDataset(p)) for lo, hi, p in datasets]
    for lo, hi, db in dbs:
        assert all(s in list(db.getTimesteps()) for s in want_steps), (lo, hi, list(db.getTimesteps()))
    for step in want_steps:
        for field in case["fields"]:
            full = pc.full_field(name, case, field, step)
            what = f"{name}.{field} step {step}"
            assert_same(g.read(step, field=field), full, what)
            r = g.max_resolution - 4
            assert_same(g.read(step, field=field, resolution=r), oracle(full, g.bitmask, r, None, nd),
                        f"{what} r={r}")
            for lo, hi, db in dbs:
                want = np.ascontiguousarray(sub(full, lo, hi, nd))
                assert_same(reshape_like(db.read(time=step, field=db.getField(field)), want), want,
                            f"{what} OpenVisus {lo}-{hi}")


def _cli(*args):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "lodex.cli", *args], capture_output=True, text=True, timeout=60)


def test_cli_reads_a_local_space_grid(workdir, tmp_path):
    """`lodex read` of a local-space grid (a box at a resolution, --out .npy) equals numpy."""
    res = written(workdir, 4)
    name = "y3l4"
    case = pc.cases(4)[name]
    g = lodex.open(res["path"]).grids[name]
    out = str(tmp_path / "a.npy")
    r = g.max_resolution - 2
    p = _cli("read", res["path"], name, "--step", "1", "--resolution", str(r), "--field", "v",
             "--box", "3,5,2:37,30,20", "--out", out)
    assert p.returncode == 0, p.stderr
    want = oracle(pc.full_field(name, case, "v", 1), g.bitmask, r, ((3, 5, 2), (37, 30, 20)), 3)
    assert_same(np.load(out), want, "lodex read --out")


# ------------------------------------------------------------------ errors

CROSS = [(2, "zc"), (3, "zc"), (3, "zl"), (3, "xc")]


@pytest.mark.parametrize("n,name", CROSS, ids=[f"{n}-{x}" for n, x in CROSS])
def test_box_crossing_a_partition_fails_everywhere(workdir, n, name):
    """One rank's box crosses a partition boundary (the others are fine or empty): every rank
    raises InvalidArgumentError naming the crossing, the step is not committed (the steps
    before are unchanged and still read exactly, also after reopening), and the same step
    written with boxes inside the partitions then succeeds."""
    outs = [x[name] for x in written(workdir, n)["cross"]]
    _case, _good, _bad, culprit, first = pc.cross_cases(n)[name]
    before = [] if first else [0]
    bad_step = 0 if first else 1
    for r, o in enumerate(outs):
        assert o["error"] is not None, f"{name}: rank {r} of {n} raised nothing"
        assert o["error"][0] == "InvalidArgumentError", f"{name}: rank {r}: {o['error']}"
        assert "crosses the boundary of partition" in o["error"][1], o["error"]
        assert f"rank {culprit}'s box" in o["error"][1], o["error"]
        assert o["steps_before"] == before and o["steps_after"] == before, f"{name}: rank {r}: {o}"
        assert all(o["earlier_ok"]) and len(o["earlier_ok"]) == len(before) * len(_case["fields"]), (name, r, o)
        assert o["retry"] is None, f"{name}: rank {r}: the good write afterwards failed: {o['retry']}"
        assert o["reopened_steps"] == sorted(set(before + [bad_step])), (name, r, o)
    strip = {o["error"][1].split(": ", 1)[1] if o["error"][1].startswith("rank ") else o["error"][1] for o in outs}
    assert len(strip) == 1, f"{name}: ranks report different errors: {strip}"
    path = os.path.join(written(workdir, n)["dir"], f"cross-{name}.lodex")
    case = _case
    g = lodex.open(path).grids[name]
    for s in g.steps:
        for f in case["fields"]:
            assert_same(g.read(s, field=f), pc.full_field(name, case, f, s), f"{name} step {s} {f} after reopening")


def test_definition_errors(tmp_path):
    """partitions not a power of two, an unknown index space, more partitions than the template
    can split, and redefinitions with other partitions or index space are InvalidArgumentError;
    nothing is left behind."""
    ds = lodex.create(str(tmp_path / "d.lodex"))
    for parts in (3, 6, 0, 12):
        with pytest.raises(lodex.InvalidArgumentError, match="power of two"):
            ds.define_grid(f"p{parts}", dims=(16, 16), dtype="f4", partitions=parts)
    with pytest.raises(lodex.InvalidArgumentError, match="index_space"):
        ds.define_grid("s", dims=(16, 16), dtype="f4", partitions=2, index_space="other")
    with pytest.raises(lodex.InvalidArgumentError, match="too finely"):   # 3 characters: at most 4 partitions
        ds.define_grid("f", dims=(2, 2, 2), dtype="f4", bitmask="V012", partitions=8)
    with pytest.raises(lodex.InvalidArgumentError, match="too finely"):   # the derived template: 3 characters
        ds.define_grid("f2", dims=(2, 2, 2), dtype="f4", partitions=8)
    with pytest.raises(lodex.InvalidArgumentError, match="too finely"):
        ds.define_grid("f3", dims=(45, 30), dtype="f4", bitmask=pc.BM2, partitions=2048)
    assert list(ds.grids) == []
    ok = ds.define_grid("ok", dims=(2, 2, 2), dtype="f4", bitmask="V012", partitions=4, index_space="local")
    assert (ok.partitions, ok.index_space) == (4, "local")
    g = ds.define_grid("g", dims=(45, 30), dtype="f4", bitmask=pc.BM2, partitions=4, index_space="local")
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_grid("g", dims=(45, 30), dtype="f4", bitmask=pc.BM2, partitions=2, index_space="local")
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_grid("g", dims=(45, 30), dtype="f4", bitmask=pc.BM2, partitions=4, index_space="global")
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_grid("g", dims=(45, 30), dtype="f4", bitmask=pc.BM2, index_space="local")
    same = ds.define_grid("g", dims=(45, 30), dtype="f4", bitmask=pc.BM2, partitions=4, index_space="local")
    assert (same.partitions, same.index_space) == (4, "local") == (g.partitions, g.index_space)
    assert sorted(ds.grids) == ["g", "ok"]
    # one rank: its box is the whole grid, which crosses the partitions; nothing is committed
    with pytest.raises(lodex.InvalidArgumentError, match="crosses the boundary of partition"):
        g.write(0, box=((0, 0), (45, 30)), data=np.zeros((30, 45), np.float32))
    assert g.steps == []
    ds.close()
    assert lodex.open(str(tmp_path / "d.lodex")).grids["g"].steps == []


def test_one_partition_local_space_serial(tmp_path):
    """partitions=1 in the local index space (serial): one dataset for the whole grid, which
    OpenVisus and lodex read exactly, at full and coarse resolution."""
    path = str(tmp_path / "one.lodex")
    ds = lodex.create(path)
    g = ds.define_grid("o", dims=(45, 30), fields={"a": "f4", "b": ("i4", 3)}, bitmask=pc.BM2, bits_per_block=5,
                       blocks_per_file=4, index_space="local")
    rng = np.random.default_rng(5)
    data = {"a": rng.standard_normal((30, 45)).astype(np.float32),
            "b": rng.integers(-2**31, 2**31, size=(30, 45, 3), dtype=np.int32)}
    g.write(0, box=((0, 0), (45, 30)), data=data)
    ds.close()
    g = lodex.open(path).grids["o"]
    assert (g.partitions, g.index_space) == (1, "local")
    assert len(g.idx_paths) == 1
    db = ov.LoadDataset(g.idx_paths[0])
    for f, full in data.items():
        assert_same(g.read(0, field=f), full, f)
        assert_same(reshape_like(db.read(time=0, field=db.getField(f)), full), full, f"{f} OpenVisus")
        for r in range(g.max_resolution + 1):
            assert_same(g.read(0, field=f, resolution=r), oracle(full, g.bitmask, r, None, 2), f"{f} r={r}")


def test_redefine_in_append_mode(workdir, tmp_path):
    """Reopened in mode "a" (serially): the grids keep partitions and index space; the same
    definition is accepted, another partitions or index space refused; the data still reads."""
    src = written(workdir, 2)["path"]
    path = str(tmp_path / "a.lodex")
    shutil.copytree(src, path)
    cs = pc.cases(2)
    ds = lodex.open(path, mode="a")
    for name in ("z3l2", "x2g2"):
        case = cs[name]
        g = ds.grids[name]
        assert (g.partitions, g.index_space) == (2, case["kw"]["index_space"])
        pc.define(ds, name, case)
        with pytest.raises(lodex.InvalidArgumentError):
            pc.define(ds, name, case, partitions=4)
        with pytest.raises(lodex.InvalidArgumentError):
            pc.define(ds, name, case, index_space="global" if case["kw"]["index_space"] == "local" else "local")
        f = list(case["fields"])[0]
        s = case["steps"][-1]
        assert_same(g.read(s, field=f), pc.full_field(name, case, f, s), f"{name} in mode a")
    ds.close()


# ------------------------------------------------------------------ bugs found

def test_local_space_default_bits_per_block(workdir):
    """4 ranks, dims (32, 32, 32), partitions=2, index_space="local", everything else default:
    bits_per_block 15 is the whole grid's index; each partition's dataset (14 characters) gets
    14 (found by this suite: the write used to fail)."""
    outs = written(workdir, 4)["dflt"]
    for r, o in enumerate(outs):
        assert o["error"] is None, f"rank {r}: {o['error']} (bits_per_block {o['bits_per_block']})"
        assert o["equal"], f"rank {r}: the data read back differs"


def test_cli_info_lists_local_space_grids(workdir):
    """`lodex info <path> [--json]` lists grids written in the local index space (their
    idx_paths; found by this suite: it used to stop at Grid.idx_path)."""
    import json
    res = written(workdir, 2)
    p = _cli("info", res["path"], "--json")
    assert p.returncode == 0, f"exit {p.returncode}: {p.stderr.strip()}"
    listed = json.loads(p.stdout)["groups"]
    for name, case in pc.cases(2).items():
        assert name in listed, name
        assert listed[name]["kind"] == "grid" and tuple(listed[name]["dims"]) == case["dims"], listed[name]
