"""Collective value queries (comm=MPI.COMM_WORLD) over bitmap indexes built collectively.

Two datasets: one written by 3 ranks and indexed afterwards by a collective build_index (step 0:
precision 3 on energy and position; step 1, where one writer had no particles: 16 equal-weight
bins on every field), one written by 4 ranks with write(..., index=...). Both are queried by 1, 2,
3 and 4 ranks (mpi_scripts/value_query_mpi.py; one mpiexec per writer and per reader count):
every rank's count is the total, the ranks' rows are disjoint and together exactly the serial
answer and the numpy brute force, and every rank's data are the values of its rows. Collective
errors raise on every rank.
"""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

import lodex
import lodex_testutil as tu
import value_query_mpi as vq
from conftest import LaunchCache, run_mpi

READERS = [1, 2, 3, 4]
WRITERS = {"w3": (3, "write"), "w4": (4, "write_indexed")}
TIMEOUT = 120
# the indexed fields of each dataset and step
INDEXED = {"w3": {0: {"energy", "position"}, 1: {"energy", "position", "id", "q"}},
           "w4": {0: {"energy", "position"}, 1: {"energy", "q"}}}
ERROR_CLASSES = {"missing_step": "NotFoundError", "syntax": "InvalidArgumentError",
                 "unknown_field": "InvalidArgumentError", "bad_return_field": "NotFoundError",
                 "bad_level_rank0": "InvalidArgumentError", "bad_box_last_rank": "InvalidArgumentError"}

cached = LaunchCache()


# numpy brute force of vq.QUERIES (same order); d: float64 columns energy, x, y, z, q, id
def _oracles():
    return [
        lambda d: d["energy"] > 1.3,
        lambda d: (d["energy"] > 1.3) & (2.5 < d["x"]) & (d["x"] < 7.25),
        lambda d: ~(d["energy"] <= 0.5) | (d["q"] == 7),
        lambda d: (d["energy"] != 0.25) & ((d["y"] < 3) | (d["z"] >= 8.125)),
        lambda d: (-2e-5 < d["energy"]) & (d["energy"] < 1e30),
        lambda d: d["energy"] >= -np.inf,
        lambda d: (d["id"] > 0) & (d["q"] < 0),
        lambda d: d["energy"] > 1e30,
        lambda d: (d["energy"] > 0.5) | (d["x"] < 1),
        lambda d: (d["q"] >= -100) & (d["q"] <= 100) & ~(d["z"] > 5),
        lambda d: d["energy"] != 1e30,
    ]


ORACLES = _oracles()
assert len(ORACLES) == len(vq.QUERIES)


def query_fields(text: str) -> set:
    names = set(re.findall(r"(?<![0-9.A-Za-z_])[A-Za-z_][A-Za-z0-9_]*", text)) - {"inf"}   # not 1e30
    return {"position" if n in ("x", "y", "z") else n for n in names}


class Files:
    """Each data file of one step, decoded with struct: name -> (float64 columns, level ends)."""

    def __init__(self, path: str, step: int):
        self.group = g = lodex.open(path).particles[vq.GROUP]
        self.step = step
        self.files = {}
        for rec in g.files(step):
            h = tu.parse_particle_file(os.path.join(tu.step_dir(path, vq.GROUP, step), rec["file"]))
            c = h["columns"]
            pos = np.asarray(c["position"], dtype=np.float64)
            d = {"energy": np.asarray(c["energy"], dtype=np.float64), "x": pos[:, 0], "y": pos[:, 1],
                 "z": pos[:, 2], "q": np.asarray(c["q"], dtype=np.float64),
                 "id": np.asarray(c["id"], dtype=np.float64)}
            self.files[rec["file"]] = (d, list(h["level_ends"]), np.array(c["id"]),
                                       np.array(c["energy"]).view(np.uint32), pos)

    def expect(self, qi: int) -> dict:
        """file -> ascending rows matching query qi (with its box and level)."""
        _step, _text, box, level = vq.QUERIES[qi]
        out = {}
        for name, (d, ends, _ids, _e, pos) in self.files.items():
            m = ORACLES[qi](d)
            if box is not None:
                m &= np.all((pos >= np.asarray(box[0])) & (pos < np.asarray(box[1])), axis=1)
            if level is not None:   # the particles of a read at that level by one reader, as the queries ask
                m &= np.isin(_ids, self.group.read(self.step, box=box, level=level, readers=1, fields=["id"])["id"])
            rows = np.nonzero(m)[0]
            if len(rows):
                out[name] = rows
        return out


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("vqmpi")


@pytest.fixture(scope="module")
def written(workdir):
    """kind -> (path, result of the writer launch)."""
    def write(kind):
        n, mode = WRITERS[kind]
        path = str(workdir / f"{kind}.lodex")
        res = run_mpi(n, "value_query_mpi.py", mode, path, timeout=TIMEOUT)
        assert res["path"] == path
        return path, res
    return {k: cached(("write", k), lambda k=k: write(k)) for k in WRITERS}


@pytest.fixture(scope="module")
def truth(written):
    return {(k, s): Files(written[k][0], s) for k in WRITERS for s in vq.STEPS}


@pytest.fixture(scope="module")
def serial(written):
    """(kind, query index) -> the serial answer (rows per file, ids)."""
    out = {}
    for k in WRITERS:
        g = lodex.open(written[k][0]).particles[vq.GROUP]
        for qi, (step, text, box, level) in enumerate(vq.QUERIES):
            r = g.query(step, text, box=box, level=level, fields=["id", "energy"],
                        **({} if level is None else {"readers": 1}))
            out[(k, qi)] = r
    return out


def reads(written, n):
    def launch():
        paths = [written[k][0] for k in WRITERS]
        return run_mpi(n, "value_query_mpi.py", "query", *paths, timeout=TIMEOUT)
    return cached(("query", n), launch)


def manifest(path: str) -> dict:
    with open(os.path.join(path, "manifest.json")) as fh:
        return json.load(fh)


@pytest.mark.parametrize("kind", list(WRITERS))
def test_written_particles_and_indexes(written, kind):
    path, res = written[kind]
    n = WRITERS[kind][0]
    g = lodex.open(path).particles[vq.GROUP]
    assert g.steps == vq.STEPS
    for s in vq.STEPS:
        want = tu.concat([vq.rank_data(r, n, s) for r in range(n)], vq.SCHEMA)
        tu.assert_same_particles(g.read(s), want, vq.SCHEMA)
    man = manifest(path)
    steps = {rec["step"]: rec for rec in man["groups"][vq.GROUP]["steps"]}
    for s in vq.STEPS:
        idx = steps[s].get("indexes", {})
        assert set(idx) == INDEXED[kind][s], idx
        sdir = tu.step_dir(path, vq.GROUP, s)
        lbx = sorted(f for f in os.listdir(sdir) if f.endswith(".lbx"))
        files = [rec["file"] for rec in g.files(s)]
        assert lbx == sorted(f[:-4] + f".{fld}.lbx" for f in files for fld in INDEXED[kind][s])
    if kind == "w3":
        assert {steps[0]["indexes"][f]["binning"] for f in INDEXED[kind][0]} == {"precision"}
        assert {steps[0]["indexes"][f]["precision"] for f in INDEXED[kind][0]} == {3}
        assert {steps[1]["indexes"][f]["binning"] for f in INDEXED[kind][1]} == {"equal_weight"}
        # the build statistics are the same on every rank and count every file and value
        stats = res["stats"]
        assert len(stats) == n
        for s, comps in ((0, 4), (1, 6)):
            nfiles = len(g.files(s))
            total = sum(vq.rank_count(r, n, s) for r in range(n))
            for st in stats:
                st = st[str(s)]
                assert st["files"] == nfiles and st["steps"] == 1, st
                assert st["indexes"] == nfiles * len(INDEXED[kind][s]), st
                assert st["rows"] == total * comps, st
                assert st["index_bytes"] > 0 and st["column_bytes"] > 0, st
            keys = ("files", "indexes", "rows", "index_bytes", "column_bytes")
            assert len({tuple(st[str(s)][k] for k in keys) for st in stats}) == 1, stats
    else:
        assert steps[1]["indexes"]["energy"]["binning"] == "equal_weight"


@pytest.mark.parametrize("kind", list(WRITERS))
def test_serial_answers_match_numpy(written, truth, serial, kind):
    for qi, (step, text, _box, _level) in enumerate(vq.QUERIES):
        want = truth[(kind, step)].expect(qi)
        r = serial[(kind, qi)]
        assert r.count == sum(len(v) for v in want.values()), text
        assert set(r.rows) == set(want), text
        for f, rows in r.rows.items():
            assert np.array_equal(rows, want[f].astype(np.uint64)), (text, f)


def check_collective(res: dict, d: int, kind: str, truth, serial, n: int, damaged: dict | None = None) -> None:
    """Checks every query result of dataset d (of kind) read by n ranks. ``damaged``: data file ->
    field whose index was damaged (notes must name it where the query reads it; no other note
    may mention a scan instead of an index)."""
    for qi, (step, text, box, level) in enumerate(vq.QUERIES):
        files = truth[(kind, step)]
        want = files.expect(qi)
        total = sum(len(v) for v in want.values())
        ser = serial[(kind, qi)]
        what = f"{kind} read by {n}: {text!r} step {step} box {box} level {level}"
        for variant in ("q", "c", "s"):
            per_rank = res[f"{d}:{variant}:{qi}"]
            assert len(per_rank) == n
            for rk, o in enumerate(per_rank):
                assert "exception" not in o, f"{what} [{variant}] rank {rk}: {o.get('exception')}"
                assert o["count"] == total, f"{what} [{variant}] rank {rk}: count {o['count']}, want {total}"
            assert sum(o["local_count"] for o in per_rank) == total, what
            notes = [o["notes"] for o in per_rank]
            assert all(nt == notes[0] for nt in notes), f"{what}: ranks report different notes {notes}"
            if variant == "c":
                assert all(o["rows"] == {} for o in per_rank), what
                continue
            if variant == "s":
                assert any("use_index is off" in x for x in notes[0]), notes[0]
            else:
                missing = query_fields(text) - INDEXED[kind][step]
                for f in query_fields(text):
                    has = any(f"no bitmap index on '{f}'" in x for x in notes[0])
                    assert has == (f in missing), f"{what}: notes {notes[0]}"
                bad = [x for x in notes[0] if "scanned instead" in x]
                if not damaged:
                    assert not bad, notes[0]
                    if not missing:
                        assert sum(o["stats"]["files_scanned"] for o in per_rank) == 0, what
                else:
                    for x in bad:
                        assert any(f[:-4] in x for f in damaged), f"{what}: note blames an intact file: {x}"
                    if step == 0 and qi in (0, 1):   # these read the energy index of every file they answer from
                        for f, fld in damaged.items():
                            if f in want and fld in query_fields(text):
                                assert any(f[:-4] in x and "scan" in x for x in bad), \
                                    f"{what}: no note names the damaged index of {f}: {notes[0]}"
            seen = {}
            all_ids = []
            for rk, o in enumerate(per_rank):
                assert o["data_fields"] == ["id", "energy"], o["data_fields"]
                assert o["local_count"] == sum(len(v) for v in o["rows"].values()) == len(o["ids"]), what
                at = 0
                for f, rows in o["rows"].items():
                    assert f not in seen, f"{what}: file {f} answered by ranks {seen[f]} and {rk}"
                    seen[f] = rk
                    rows = np.asarray(rows, dtype=np.int64)
                    assert f in want and np.array_equal(rows, want[f]), \
                        f"{what} [{variant}] rank {rk}: rows of {f} differ from the brute force"
                    _d, _ends, ids, ebits, _pos = files.files[f]
                    assert np.array_equal(np.asarray(o["ids"][at:at + len(rows)], dtype=np.uint64), ids[rows]), \
                        f"{what} rank {rk}: ids of {f} are not its rows' ids"
                    assert np.array_equal(np.asarray(o["energy_bits"][at:at + len(rows)], dtype=np.uint32),
                                          ebits[rows]), f"{what} rank {rk}: energies of {f} differ"
                    at += len(rows)
                all_ids += o["ids"]
            assert set(seen) == set(want), f"{what}: files {sorted(seen)}, want {sorted(want)}"
            assert len(all_ids) == len(set(all_ids)) == total, f"{what}: duplicate or missing ids"
            assert np.array_equal(np.sort(np.asarray(all_ids, dtype=np.uint64)), np.sort(ser.data["id"])), \
                f"{what}: ids differ from the serial answer"
            assert set(seen) == set(ser.rows)
            for f in seen:
                assert np.array_equal(np.asarray(per_rank[seen[f]]["rows"][f], dtype=np.uint64), ser.rows[f])


@pytest.mark.parametrize("n", READERS)
@pytest.mark.parametrize("kind", list(WRITERS))
def test_collective_queries(written, truth, serial, n, kind):
    res = reads(written, n)
    d = list(WRITERS).index(kind)
    check_collective(res, d, kind, truth, serial, n)
    # the one-file query: with more ranks than live files, some ranks get nothing and still agree
    qi = next(i for i, q in enumerate(vq.QUERIES) if q[1] == "energy >= -inf")
    per_rank = res[f"{d}:q:{qi}"]
    assert sum(1 for o in per_rank if o["rows"]) <= len(truth[(kind, 0)].expect(qi))
    if n > 1:
        assert any(o["rows"] == {} and o["local_count"] == 0 and o["ids"] == [] for o in per_rank)
        # and a query matching in every file shares the files among the ranks
        answered = [o for o in res[f"{d}:q:0"] if o["rows"]]
        assert len(answered) == min(n, len(truth[(kind, 0)].expect(0))), [list(o["rows"]) for o in res[f"{d}:q:0"]]


@pytest.mark.parametrize("n", READERS)
@pytest.mark.parametrize("kind", list(WRITERS))
def test_collective_query_errors(written, truth, n, kind):
    res = reads(written, n)
    d = list(WRITERS).index(kind)
    for name, cls in ERROR_CLASSES.items():
        got = res[f"{d}:err:{name}"]
        assert got == [cls] * n, f"{kind} read by {n}: {name}: {got}"
    # the communicator still works after the errors
    again = res[f"{d}:again:0"]
    total = sum(len(v) for v in truth[(kind, vq.QUERIES[0][0])].expect(0).values())
    assert [o.get("count") for o in again] == [total] * n, again


def test_collective_queries_with_damaged_indexes(written, truth, serial, workdir):
    """The 3-writer dataset with the energy index of one file damaged and the position index of
    another deleted, queried by 3 ranks: the answers stay right and every rank reports the notes of
    the files other ranks scanned instead."""
    import shutil
    path = str(workdir / "damaged.lodex")
    shutil.copytree(written["w3"][0], path)
    sdir = tu.step_dir(path, vq.GROUP, 0)
    files = [rec["file"] for rec in lodex.open(path).particles[vq.GROUP].files(0)]
    assert len(files) == 4
    a, b = files[1], files[2]
    tu.flip_byte(os.path.join(sdir, a[:-4] + ".energy.lbx"), 20, 0x01)   # header checksum
    os.remove(os.path.join(sdir, b[:-4] + ".position.lbx"))
    res = cached(("damaged", 3), lambda: run_mpi(3, "value_query_mpi.py", "query", path, timeout=TIMEOUT))
    check_collective(res, 0, "w3", truth, serial, 3, damaged={a: "energy", b: "position"})
