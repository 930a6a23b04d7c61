"""Collective reads (comm=MPI.COMM_WORLD): datasets written by 4 and by 8 ranks, read by 1, 2,
3 and 5 ranks with split="spatial" and split="bytes", with and without a box, at full
resolution, at a level, as a fraction and as a refinement. Every rank gets a disjoint part; the
union over ranks is exactly the serial answer (for levels: the serial read with readers = the
number of ranks). The worker is mpi_scripts/read_parallel.py: one mpiexec per writer count and
one per reader count."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

import lodex
import lodex_testutil as tu
import read_testutil as rt
from conftest import LaunchCache, run_mpi

KINDS = ["w4", "w8"]
READERS = [1, 2, 3, 5]
VARIANTS = rt.parallel_variants()
TIMEOUT = 120

cached = LaunchCache()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("readmpi")


@pytest.fixture(scope="module")
def written(workdir):
    """kind -> path of the dataset its writer ranks wrote."""
    def write(kind):
        path = str(workdir / f"{kind}.lodex")
        res = run_mpi(rt.PARALLEL[kind]["ranks"], "read_parallel.py", "write", kind, path, timeout=TIMEOUT)
        assert res["path"] == path
        return path
    return {k: cached(("write", k), lambda k=k: write(k)) for k in KINDS}


@pytest.fixture(scope="module")
def reads(written, workdir):
    """reads(n) -> (result, ids) of the read worker on n ranks over both datasets."""
    def get(n):
        def launch():
            args = ["read", str(workdir)]
            for k in KINDS:
                args += [k, written[k]]
            res = run_mpi(n, "read_parallel.py", *args, timeout=TIMEOUT)
            with np.load(res["npz"]) as z:
                ids = {key: z[key] for key in z.files}
            return res, ids
        return cached(("read", n), launch)
    return get


def group(path):
    return lodex.open(path).particles["p"]


def serial_ref(path: str, kind: str, variant: str, n: int) -> list[np.ndarray]:
    """The serial answer as sorted ids: one array (a read) or one per level (a refinement)."""
    def compute():
        box_name, mode, _split = variant.split("|")
        box = rt.parallel_box(kind) if box_name == "box" else None
        g = group(path)
        if mode == "full":
            return [np.sort(g.read(0, box=box, fields=["id"])["id"])]
        if mode == "level":
            return [np.sort(g.read(0, box=box, fields=["id"], level=rt.PARALLEL_LEVEL, readers=n)["id"])]
        if mode == "level_r1":
            return [np.sort(g.read(0, box=box, fields=["id"], level=rt.PARALLEL_LEVEL, readers=1)["id"])]
        if mode == "fraction":
            return [np.sort(g.read(0, box=box, fields=["id"], fraction=rt.PARALLEL_FRACTION)["id"])]
        return [np.sort(p["id"]) for p in g.refine(0, box=box, fields=["id"], readers=n)]
    return cached(("serial", path, kind, variant, n), compute)


def test_written_datasets(written):
    """What the writers wrote reads back serially, value for value, in the expected files."""
    for kind, path in written.items():
        spec = rt.PARALLEL[kind]
        g = group(path)
        tu.assert_same_particles(g.read(0), rt.parallel_data(kind), rt.parallel_schema(kind))
        files = g.files(0)
        assert len(files) == (spec["ranks"] if spec["mode"] == "factor" else int(np.prod(spec["dims"])))
        assert len({f["count"] for f in files}) > 1   # clustered: uneven files


PARAMS = list(itertools.product(READERS, KINDS, VARIANTS))


@pytest.mark.parametrize("n,kind,variant", PARAMS, ids=[f"n{n}-{k}-{v.replace('|', '-')}" for n, k, v in PARAMS])
def test_parallel_read(reads, written, n, kind, variant):
    res, ids = reads(n)
    assert res["size"] == n
    outs = res["datasets"][kind][variant]
    assert len(outs) == n
    errors = [(r, o["error"]) for r, o in enumerate(outs) if o["error"]]
    assert not errors, f"ranks raised: {errors}"
    bad = [(r, o["values"]) for r, o in enumerate(outs) if o["values"]]
    assert not bad, f"rows with wrong values: {bad}"

    box_name, mode, split = variant.split("|")
    box = rt.parallel_box(kind) if box_name == "box" else None
    path = written[kind]
    ref = serial_ref(path, kind, variant, n)
    nparts = len(ref)

    if mode == "refine":
        assert all(o["levels"] == nparts for o in outs), ([o["levels"] for o in outs], nparts)
    per_rank = []
    for r, o in enumerate(outs):
        assert len(o["counts"]) == nparts
        parts = [ids[f"{kind}|{variant}|{r}|{k}"] for k in range(nparts)]
        assert [len(p) for p in parts] == o["counts"]
        per_rank.append(parts)

    # Disjoint over ranks (and over levels), and the union is the serial answer, part by part.
    everything = np.concatenate([p for parts in per_rank for p in parts])
    assert len(np.unique(everything)) == len(everything), "a particle was returned twice"
    for k in range(nparts):
        union = np.sort(np.concatenate([parts[k] for parts in per_rank]))
        assert np.array_equal(union, ref[k]), (
            f"part {k}: union over {n} ranks has {len(union)} particles, the serial read {len(ref[k])}; "
            f"{len(np.setdiff1d(union, ref[k]))} extra, {len(np.setdiff1d(ref[k], union))} missing")
        if mode == "refine":
            assert len(union) <= rt.level_size(n, 32, 2, k)

    # Counts the documentation promises for box=None.
    total_n = rt.PARALLEL[kind]["n"]
    if box is None:
        want = {"full": total_n, "level": min(total_n, rt.level_sum(n, 32, 2, rt.PARALLEL_LEVEL)),
                "level_r1": min(total_n, rt.level_sum(1, 32, 2, rt.PARALLEL_LEVEL)),
                "fraction": rt.fraction_count(rt.PARALLEL_FRACTION, total_n), "refine": total_n}[mode]
        assert sum(len(p) for p in ref) == want

    # Stats and files.
    files = group(path).files(0)
    meeting = [f for f in files if box is None or rt.bounds_meet(f["bounds"], box)]
    for r, o in enumerate(outs):
        assert 0 <= o["files_opened"] <= len(files)
        assert o["files_opened"] <= len(meeting), (r, o["files_opened"], len(meeting))
        if o["count"] and mode != "refine":
            assert o["files_opened"] >= 1
        assert sum(s["particles"] for s in o["stats"]) == o["count"]

    # Spatial split: every rank's particles inside the query box, in its own region.
    if split == "spatial":
        if box is not None:
            assert [o["outside"] for o in outs] == [0] * n
        boxes = [(np.asarray(o["pos_min"]), np.asarray(o["pos_max"])) for o in outs if o["count"]]
        for (a0, a1), (b0, b1) in itertools.combinations(boxes, 2):
            assert np.any((a1 < b0) | (b1 < a0)), "two ranks' particles overlap in space"


@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("kind", KINDS)
def test_bytes_split_balanced(reads, written, n, kind):
    """split="bytes" of a whole step: every rank within one brick of an equal share."""
    res, _ = reads(n)
    outs = res["datasets"][kind]["all|full|bytes"]
    total = rt.PARALLEL[kind]["n"]
    path = written[kind]
    sdir = tu.step_dir(path, "p", 0)
    biggest = 0
    for f in group(path).files(0):
        h = tu.parse_particle_file(os.path.join(sdir, f["file"]))
        nb, nl, st = h["num_bricks"], h["num_levels"], h["segment_starts"]
        for m in range(nb):
            biggest = max(biggest, sum(st[k * nb + m + 1] - st[k * nb + m] for k in range(nl)))
    counts = [o["count"] for o in outs]
    assert sum(counts) == total
    for c in counts:
        assert abs(c - total / n) <= biggest + 1, (counts, total / n, biggest)


@pytest.mark.parametrize("n", [3, 5])
def test_reads_agree_across_reader_counts(reads, written, n):
    """Full reads and fraction reads do not depend on the number of readers."""
    _, ids1 = reads(1)
    _, idsn = reads(n)
    for kind in KINDS:
        for variant in ("all|full|spatial", "box|fraction|bytes", "box|level_r1|spatial"):
            one = np.sort(ids1[f"{kind}|{variant}|0|0"])
            many = np.sort(np.concatenate([idsn[f"{kind}|{variant}|{r}|0"] for r in range(n)]))
            assert np.array_equal(one, many), (kind, variant)
