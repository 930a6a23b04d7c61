"""Multi-rank round trips: ranks write, one serial process (no MPI) reads back and checks every
value, the spatial metadata of every file, and the write profile."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

import lodex
import lodex_testutil as tu
from conftest import LaunchCache, run_mpi
from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah

RANKS = [1, 2, 3, 4, 8]
GROUP = "uintah"
ROW_BYTES = 124   # Uintah: 15 f8 + 1 f4

cached = LaunchCache()


@pytest.fixture(scope="module")
def roundtrip(tmp_path_factory):
    """roundtrip(n, exchange) -> the worker's result for n ranks writing with that exchange
    method (one mpiexec per (n, exchange), cached)."""
    def get(n: int, exchange: str = "node") -> dict:
        def launch():
            out = tmp_path_factory.mktemp(f"rt{n}{exchange}")
            return run_mpi(n, "write_roundtrip.py", str(out), timeout=150, env={"LODEX_EXCHANGE": exchange})
        return cached((n, exchange), launch)
    return get


def expected(case: str, n: int, step: int):
    per_rank = tu.case_step_data(case, n, step)
    return per_rank, tu.concat([d for d, _ in per_rank], UINTAH_SCHEMA)


PARAMS = list(itertools.product(RANKS, tu.ROUNDTRIP_CASES))
IDS = [f"n{n}-{c}" for n, c in PARAMS]
# The single-writer exchanges (shared memory, point to point), checked as thoroughly as the default
# node-cooperative one.
SHM_PARAMS = list(itertools.product([2, 3, 8], tu.ROUNDTRIP_CASES))
SHM_IDS = [f"n{n}-{c}" for n, c in SHM_PARAMS]


@pytest.mark.parametrize("n,case", SHM_PARAMS, ids=SHM_IDS)
def test_every_value_reads_back_shm(roundtrip, n, case):
    check_every_value(roundtrip(n, "shm"), n, case)


@pytest.mark.parametrize("n,case", SHM_PARAMS, ids=SHM_IDS)
def test_every_value_reads_back_p2p(roundtrip, n, case):
    check_every_value(roundtrip(n, "p2p"), n, case)


@pytest.mark.parametrize("n,case", PARAMS, ids=IDS)
def test_every_value_reads_back(roundtrip, n, case):
    check_every_value(roundtrip(n), n, case)


def check_every_value(run: dict, n: int, case: str) -> None:
    res = run["cases"][case]
    spec = tu.case_spec(case, n)
    ds = lodex.open(res["path"])
    assert list(ds.particles) == [GROUP]
    g = ds.particles[GROUP]
    assert g.steps == spec["steps"]
    assert res["steps_per_rank"] == [spec["steps"]] * n
    assert g.schema == {k: (v, 1) if isinstance(v, str) else tuple(v) for k, v in UINTAH_SCHEMA.items()}
    assert g.domain == tuple(tuple(float(x) for x in c) for c in spec["domain"])
    assert g.partition == (spec["mode"], tuple(spec["dims"]))
    for step in spec["steps"]:
        _, want = expected(case, n, step)
        got = g.read(step=step)
        tu.assert_same_particles(got, want, UINTAH_SCHEMA)
        total = len(want["id"])
        stats = g.last_read_stats
        nfiles = len(g.files(step))
        assert stats["particles"] == total
        assert stats["files_opened"] == nfiles
        assert stats["bytes_returned"] == total * ROW_BYTES
        assert stats["bytes_returned"] <= stats["bytes_read"] <= (
            sum(f["file_bytes"] for f in g.files(step)) + stats["metadata_bytes"])
        # A subset of fields returns only those fields, with the same rows.
        sub = g.read(step=step, fields=["id", "density"])
        assert set(sub) == {"id", "density"}
        s = tu.sort_by(sub)
        w = tu.sort_by(want)
        assert np.array_equal(s["id"], w["id"]) and np.array_equal(s["density"], w["density"])
        assert g.last_read_stats["bytes_returned"] == total * 16
    ds.close()


@pytest.mark.parametrize("n,case", PARAMS, ids=IDS)
def test_files_describe_partitions(roundtrip, n, case):
    res = roundtrip(n)["cases"][case]
    spec = tu.case_spec(case, n)
    grid = tu.plan_grid(spec, n)
    g = lodex.open(res["path"]).particles[GROUP]
    for step in spec["steps"]:
        per_rank, want = expected(case, n, step)
        parts = np.concatenate(tu.expected_partition_ids(spec, n, per_rank))
        files = g.files(step)
        nonempty = sorted(int(p) for p in np.unique(parts))
        # one file per non-empty partition, in partition order, named after it
        assert [f["partition"] for f in files] == nonempty
        assert len(files) == len(nonempty)
        assert sum(f["count"] for f in files) == len(want["id"])
        sdir = tu.step_dir(res["path"], GROUP, step)
        on_disk = sorted(x for x in os.listdir(sdir) if x.endswith(".lpd"))
        assert on_disk == sorted(f["file"] for f in files)
        pos = want["position"]
        ncomp = sum(1 if isinstance(v, str) else v[1] for v in UINTAH_SCHEMA.values())
        for f in files:
            p = f["partition"]
            assert f["file"] == f"p{p:06d}.lpd"
            assert os.path.getsize(os.path.join(sdir, f["file"])) == f["file_bytes"]
            sel = parts == p
            assert f["count"] == int(sel.sum())
            # partition box: the documented lattice of the domain
            bmin, bmax = patch_of(p, grid, spec["domain"])
            assert f["partition_box"]["min"] == bmin and f["partition_box"]["max"] == bmax
            # bounds: min/max of the file's positions, inside the partition box
            assert f["bounds"]["min"] == tuple(pos[sel].min(axis=0))
            assert f["bounds"]["max"] == tuple(pos[sel].max(axis=0))
            # inside the partition box (the docs allow rounding error; random data never needs it)
            tol = rounding_tol(spec["domain"])
            for a in range(3):
                assert bmin[a] - tol[a] <= f["bounds"]["min"][a] <= f["bounds"]["max"][a] < bmax[a] + tol[a], (p, a)
            # per-component min/max over all fields, schema order
            mins, maxs = [], []
            for k, spec_k in UINTAH_SCHEMA.items():
                col = want[k][sel].astype(np.float64)
                col = col.reshape(len(col), -1)
                mins += list(col.min(axis=0))
                maxs += list(col.max(axis=0))
            assert len(f["min"]) == ncomp and len(f["max"]) == ncomp
            assert f["min"] == mins and f["max"] == maxs
            assert 0 <= f["aggregator_rank"] < n
        # every particle lies in the bounds of the file of its partition
        by_part = {f["partition"]: f for f in files}
        for p in nonempty:
            f = by_part[p]
            q = pos[parts == p]
            assert np.all(q >= np.asarray(f["bounds"]["min"])) and np.all(q <= np.asarray(f["bounds"]["max"]))
        if spec["mode"] == "factor":
            # bounds of different files are disjoint (the partitions are)
            for f1, f2 in itertools.combinations(files, 2):
                sep = any(f1["bounds"]["max"][a] < f2["bounds"]["min"][a] or
                          f2["bounds"]["max"][a] < f1["bounds"]["min"][a] for a in range(3))
                assert sep, (f1["file"], f2["file"])
            assert len({f["aggregator_rank"] for f in files}) == len(files)
        # aggregators: the receiving partitions in index order get ranks floor(j * R / m)
        sends = tu.expected_sends(spec, n, per_rank)
        receiving = sorted(set().union(*sends)) if sends else []
        m = len(receiving)
        agg = {p: j * n // m for j, p in enumerate(receiving)}
        for f in files:
            assert f["aggregator_rank"] == agg[f["partition"]], f


def plan_input(d: dict, patch) -> tuple:
    """What the aggregation plan reads of a rank: its patch (given, or its particles' bounding
    box), whether it was given, and whether the rank holds particles."""
    holds = len(d["id"]) > 0
    if patch is not None:
        return ("given", tuple(map(tuple, patch)), holds)
    if not holds:
        return ("none", None, False)
    pos = np.asarray(d["position"], dtype=np.float64)
    return ("bounds", tuple(pos.min(axis=0)), tuple(pos.max(axis=0)), True)


@pytest.mark.parametrize("n,case", PARAMS, ids=IDS)
def test_profile(roundtrip, n, case):
    res = roundtrip(n)["cases"][case]
    spec = tu.case_spec(case, n)
    g = lodex.open(res["path"]).particles[GROUP]
    keys = {"step", "ranks", "aggregators", "files", "particles", "bytes", "aligned", "plan_reused",
            "fsync", "path", "total_s", "blocked_s", "phases", "threads"}
    previous = None   # what the plan reads of every rank at the previous step
    for step in spec["steps"]:
        prof = res["profiles"][str(step)]
        assert res["profile_same"][str(step)], "profile differs between ranks"
        text, js = prof.pop("_str"), prof.pop("_json")
        assert set(prof) == keys
        assert list(prof["phases"]) == list(lodex.WriteProfile.PHASES)
        for name, t in prof["phases"].items():
            assert set(t) == {"min_s", "mean_s", "max_s"}
            assert 0 <= t["min_s"] <= t["mean_s"] * (1 + 1e-12) + 1e-15, (name, t)
            assert t["mean_s"] <= t["max_s"] * (1 + 1e-12) + 1e-15, (name, t)
            assert t["max_s"] <= prof["total_s"] * (1 + 1e-9) + 1e-12, (name, t)
        assert prof["total_s"] <= sum(t["max_s"] for t in prof["phases"].values()) * (1 + 1e-9) + 1e-12
        assert prof["blocked_s"] == prof["total_s"]   # a blocking write holds the caller throughout
        # Helper threads: the write-behind thread of every rank that wrote a file.
        assert set(prof["threads"]) <= {"order", "writer"}
        assert ("writer" in prof["threads"]) == (prof["files"] > 0)
        for name, t in prof["threads"].items():
            assert 0 <= t["min_s"] <= t["mean_s"] * (1 + 1e-12) + 1e-15 <= t["max_s"] * (1 + 1e-9) + 1e-12, (name, t)
        per_rank, want = expected(case, n, step)
        files = g.files(step)
        assert prof["step"] == step
        assert prof["ranks"] == n
        assert prof["particles"] == len(want["id"])
        assert prof["files"] == len(files)
        lsm = os.path.getsize(os.path.join(tu.step_dir(res["path"], GROUP, step), "spatial.lsm"))
        assert prof["bytes"] == sum(f["file_bytes"] for f in files) + lsm
        assert prof["fsync"] is False
        # The plan is reused while every rank's patch and whether it holds particles stay.
        decomposition = [plan_input(d, patch) for d, patch in per_rank]
        assert prof["plan_reused"] is (decomposition == previous), (step, decomposition, previous)
        assert (", plan reused" in text) is prof["plan_reused"]
        previous = decomposition
        sends = tu.expected_sends(spec, n, per_rank)
        assert prof["aggregators"] == len(set().union(*sends))
        assert prof["aligned"] == all(len(s) <= 1 for s in sends)
        # Node-cooperative where some partition has two senders (all ranks share this machine).
        senders = {}
        for r, dests in enumerate(sends):
            for p in dests:
                senders.setdefault(p, set()).add(r)
        if any(len(s) >= 2 for s in senders.values()):
            assert prof["path"] == "node"
        elif not senders:
            assert prof["path"] == "p2p"
        assert f"path {prof['path']}" in text
        if spec["mode"] == "factor":
            assert prof["aligned"] is True
            assert prof["aggregators"] == len(files)
        assert f"step {step}:" in text
        for name in lodex.WriteProfile.PHASES:
            assert name in text
        assert lodex.WriteProfile(__import__("json").loads(js)) == prof


def test_zero_particle_step_reads_empty(roundtrip):
    """Step 2 of the zeros case: no rank holds a particle; the step exists with no files."""
    res = roundtrip(3)["cases"]["zeros_factor"]
    g = lodex.open(res["path"]).particles[GROUP]
    assert 2 in g.steps
    assert g.files(2) == []
    got = g.read(2)
    for k, v in UINTAH_SCHEMA.items():
        comps = 1 if isinstance(v, str) else v[1]
        assert got[k].shape == ((0,) if comps == 1 else (0, comps))
    assert g.last_read_stats["particles"] == 0
    assert res["profiles"]["2"]["particles"] == 0 and res["profiles"]["2"]["files"] == 0


# ---------------------------------------------------------------------------------------------
# Mixed dtypes: every supported type round-trips bit for bit
# ---------------------------------------------------------------------------------------------

def _mixed_check(path: str, n_ranks: int, counts, patches):
    g = lodex.open(path).particles["mixed"]
    assert g.schema == {k: (v, 1) if isinstance(v, str) else tuple(v) for k, v in tu.MIXED_SCHEMA.items()}
    want = tu.concat([tu.mixed(r, counts[r], patches[r]) for r in range(n_ranks)], tu.MIXED_SCHEMA)
    got = g.read(0)
    tu.assert_same_particles(got, want, tu.MIXED_SCHEMA)
    files = g.files(0)
    assert sum(f["count"] for f in files) == len(want["id"])
    # Metadata min/max: exact for small types, rounded outward (never inward) for 64-bit ints,
    # NaN ignored in float fields.
    lo = [min(f["min"][c] for f in files) for c in range(len(files[0]["min"]))]
    hi = [max(f["max"][c] for f in files) for c in range(len(files[0]["max"]))]
    c = 0
    for k, spec in tu.MIXED_SCHEMA.items():
        comps = 1 if isinstance(spec, str) else spec[1]
        col = want[k].reshape(len(want[k]), comps)
        for j in range(comps):
            v = col[:, j]
            if v.dtype.kind == "f":
                assert lo[c] == float(np.nanmin(v)) and hi[c] == float(np.nanmax(v)), (k, j)
            else:
                tmin, tmax = int(v.min()), int(v.max())
                assert lo[c] <= tmin and hi[c] >= tmax, (k, j, lo[c], tmin, hi[c], tmax)
                assert int(lo[c]) >= tmin - 4096 and int(hi[c]) <= tmax + 4096, (k, j)
                if v.dtype.itemsize < 8:
                    assert lo[c] == tmin and hi[c] == tmax, (k, j)
            c += 1


def test_mixed_dtypes_serial(tmp_path):
    path = str(tmp_path / "mixed.lodex")
    patch = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    data = tu.mixed(0, 3000, patch)
    with lodex.create(path) as ds:
        g = ds.define_particles("mixed", schema=tu.MIXED_SCHEMA, domain=patch)   # one partition
        g.write(step=0, data=data)
    _mixed_check(path, 1, [3000], [patch])


@pytest.mark.parametrize("grid", [(2, 1, 1), (3, 2, 2)])
def test_serial_writer_multi_partition_grid(tmp_path, grid):
    """A serial writer (no comm) with a partition grid of several partitions: every particle
    must land in exactly one file, the file of its partition."""
    path = str(tmp_path / "serial.lodex")
    domain = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    data = uintah(0, 3000, domain, seed=5)
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=UINTAH_SCHEMA, domain=domain, partition_grid=grid)
        g.write(step=0, data=data)
        assert g.profile["particles"] == 3000
    r = lodex.open(path).particles[GROUP]
    parts = tu.partition_of_positions(data["position"], domain, grid)
    files = r.files(0)
    assert [(f["partition"], f["count"]) for f in files] == \
        [(int(p), int((parts == p).sum())) for p in np.unique(parts)]
    tu.assert_same_particles(r.read(0), data, UINTAH_SCHEMA)


def test_mixed_dtypes_mpi(tmp_path):
    res = run_mpi(3, "write_mixed.py", str(tmp_path / "mixed.lodex"), timeout=120)
    _mixed_check(res["path"], 3, res["counts"], [tuple(map(tuple, p)) for p in res["patches"]])


# ---------------------------------------------------------------------------------------------
# Particles exactly on partition boundaries; large step numbers; fsync; field selection
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def boundary_dataset(tmp_path_factory):
    return run_mpi(2, "write_boundary.py", str(tmp_path_factory.mktemp("bd") / "b.lodex"), timeout=120)["path"]


def rounding_tol(domain) -> np.ndarray:
    """'Within rounding error' (docs/formats/particles.md) of a coordinate in ``domain``: a few
    ulps of the largest magnitude on each axis."""
    lo, hi = np.asarray(domain[0], float), np.asarray(domain[1], float)
    return 8 * np.finfo(float).eps * np.maximum(np.maximum(abs(lo), abs(hi)), hi - lo)


@pytest.mark.parametrize("name", ["grid", "factor"])
def test_particles_on_partition_boundaries(boundary_dataset, name):
    """Particles exactly on a partition box's minimum as lodex reports it (grid), or on the
    minimum of a patch from lodex.workloads.patch_of that starts a partition (factor): all read
    back; each lies inside its file's bounds, and (docs/formats/particles.md) at most within
    rounding error outside its file's partition box."""
    n = 2
    path = boundary_dataset
    if name == "grid":
        want = tu.concat([tu.boundary_grid_data(r, n) for r in range(n)], tu.BOUNDARY_SCHEMA)
    else:
        want = tu.concat([tu.boundary_factor_data(r, n)[0] for r in range(n)], tu.BOUNDARY_SCHEMA)
    g = lodex.open(path).particles[name]
    tu.assert_same_particles(g.read(0), want, tu.BOUNDARY_SCHEMA)
    tol = rounding_tol(tu.BOUNDARY_DOMAIN)
    files = g.files(0)
    assert sum(f["count"] for f in files) == len(want["id"])
    for f in files:
        h = tu.parse_particle_file(os.path.join(tu.step_dir(path, name, 0), f["file"]))
        pos = h["columns"]["position"]
        blo, bhi = np.asarray(f["bounds"]["min"]), np.asarray(f["bounds"]["max"])
        assert np.all((pos >= blo) & (pos <= bhi)), f["file"]
        assert np.array_equal(pos.min(axis=0), blo) and np.array_equal(pos.max(axis=0), bhi)
        lo, hi = np.asarray(f["partition_box"]["min"]), np.asarray(f["partition_box"]["max"])
        far = ~np.all((pos >= lo - tol) & (pos < hi + tol), axis=1)
        assert not far.any(), (f["file"], pos[far][:3].tolist(), lo.tolist(), hi.tolist())
    if name == "grid":
        # every partition holds particles (its minimum corner and its centre), one file each
        assert len(files) == int(np.prod(tu.BOUNDARY_GRID))


def test_large_step_numbers_and_fsync(tmp_path):
    path = str(tmp_path / "big.lodex")
    dom = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    steps = [0, 999_999_999, 1_000_000_000, 2**40]
    with lodex.create(path, fsync=True) as ds:
        g = ds.define_particles(GROUP, schema=UINTAH_SCHEMA, domain=dom)
        for s in steps:
            g.write(step=s, data=uintah(0, 200, dom, step=s % 1000))
            assert g.profile["fsync"] is True and g.profile["step"] == s
    g = lodex.open(path).particles[GROUP]
    assert g.steps == steps
    for s in steps:
        tu.assert_same_particles(g.read(s), uintah(0, 200, dom, step=s % 1000), UINTAH_SCHEMA)
    assert sorted(os.listdir(os.path.join(path, GROUP))) == sorted(f"step-{s:09d}" for s in steps)


def test_read_field_selection(tmp_path):
    path = str(tmp_path / "sel.lodex")
    dom = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    data = uintah(0, 500, dom)
    with lodex.create(path) as ds:
        ds.define_particles(GROUP, schema=UINTAH_SCHEMA, domain=dom).write(0, data=data)
    g = lodex.open(path).particles[GROUP]
    one = g.read(0, fields="stress")
    assert list(one) == ["stress"] and one["stress"].shape == (500, 9)
    two = g.read(0, fields=["type", "position"])
    assert set(two) == {"type", "position"}
    assert g.last_read_stats["bytes_returned"] == 500 * (4 + 24)
    assert g.last_read_stats["bytes_read"] < sum(f["file_bytes"] for f in g.files(0))
    full = g.read(0)
    assert np.array_equal(two["position"], full["position"]) and np.array_equal(two["type"], full["type"])
    with pytest.raises(lodex.InvalidArgumentError):
        g.read(0, fields=["id", "id"])
    with pytest.raises(lodex.NotFoundError):
        g.read(0, fields=["ID"])


def test_serial_use_needs_no_mpi(tmp_path):
    """Writing serially and reading back never imports mpi4py (one process, no MPI at all)."""
    import subprocess
    import sys
    code = (
        "import sys, numpy as np, lodex\n"
        f"p = {str(tmp_path / 'n.lodex')!r}\n"
        "ds = lodex.create(p)\n"
        "g = ds.define_particles('p', schema={'position': ('f8', 3), 'm': 'f4'}, domain=((0,0,0),(1,1,1)))\n"
        "assert dict(g.profile) == {} and str(g.profile) == 'no write yet' and g.profile.throughput == 0\n"
        "pos = np.random.default_rng(0).random((50, 3))\n"
        "g.write(0, data={'position': pos, 'm': np.arange(50, dtype='f4')})\n"
        "ds.close()\n"
        "r = lodex.open(p).particles['p'].read(0)\n"
        "o = np.argsort(r['m'])\n"
        "assert np.array_equal(r['position'][o], pos) and 'mpi4py' not in sys.modules\n"
        "print('OK')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "OK", r.stderr
