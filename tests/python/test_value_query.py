"""Value queries over particles and their bitmap indexes (serial, no MPI).

Random datasets (f4 positions, f4 or f8 energies with NaN, +-inf, -0.0, subnormals, duplicates
and negatives, i2 charges with the type's extremes, u8 ids, also above 2^53) are queried with
random queries from a small grammar and compared with a numpy brute force built from an
independent struct parser of the data files (tests/python/mpi_scripts/lodex_testutil.py):
without an index, with precision and equal-weight indexes, with a box, a level, both, and
count_only. Then: indexes on some fields only, the no-candidate-check promise of precision
binning, re-indexing, build_index arguments, write(..., index=...), damaged index and data files,
and the errors of the query language.
"""

from __future__ import annotations

import json
import math
import operator
import os
import shutil
import struct
import subprocess
import sys

import numpy as np
import pytest

import lodex
import lodex_testutil as tu

GROUP = "e"
DOMAIN = ((0.0, 0.0, 0.0), (10.0, 10.0, 10.0))
FIELDS = ["position", "energy", "id", "q"]
OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
       "==": operator.eq, "!=": operator.ne}


def schema_of(edtype: str) -> dict:
    return {"position": ("f4", 3), "energy": edtype, "id": "u8", "q": "i2"}


# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------

def make_particles(n: int, seed: int, edtype: str, big_ids: bool = False) -> dict:
    rng = np.random.default_rng(seed)
    pos = (rng.random((n, 3)) * 10.0).astype(np.float32)
    if n >= 20:
        # particles exactly on partition faces and quarter planes, and repeated positions
        sel = rng.choice(n, n // 8, replace=False)
        axis = rng.integers(0, 3, len(sel))
        pos[sel, axis] = rng.choice(np.array([0.0, 2.5, 5.0, 7.5], dtype=np.float32), len(sel))
        k = n // 20
        pos[n - k:] = pos[:k]
    pos = np.minimum(pos, np.nextafter(np.float32(10.0), np.float32(0.0)))
    kind = rng.integers(0, 4, n)
    e = np.where(kind == 0, rng.standard_normal(n) * 3,
                 np.where(kind == 1, rng.lognormal(0.0, 3.0, n),
                          np.where(kind == 2, -rng.lognormal(0.0, 2.0, n),
                                   rng.integers(-6, 7, n) * 0.25)))   # many duplicates
    e = e.astype(edtype)
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.3, 2.5, -2e-5, 1e-40, 1e-5,
                         1.25, 1.3, 1.3, np.nan], dtype=edtype)
    if n:
        at = rng.choice(n, min(n, len(specials) + n // 50), replace=False)
        vals = np.concatenate([specials, np.full(max(0, len(at) - len(specials)), np.nan, dtype=edtype)])
        e[at] = vals[:len(at)]
    if big_ids:
        ids = np.uint64(2**60) + rng.permutation(n).astype(np.uint64) * np.uint64(3)
    else:
        ids = rng.permutation(n).astype(np.uint64) * np.uint64(7) + np.uint64(1)
    q = rng.integers(-300, 301, n).astype(np.int16)
    if n >= 4:
        q[:2] = [np.iinfo(np.int16).min, np.iinfo(np.int16).max]
    return {"position": pos, "energy": e, "id": ids, "q": q}


# name -> (energy dtype, big ids, partition kwargs, lod, {step: (count, seed)})
DATASETS = {
    "A": ("f4", False, {"partition_grid": (2, 2, 2)}, {"level0_max": 64, "brick_target": 32},
          {0: (4000, 1), 1: (0, 2), 2: (37, 3)}),
    "B": ("f8", True, {"partition": (1, 1, 1)}, {"level0_max": 100, "brick_target": 16},
          {0: (2500, 4), 3: (1, 5)}),
}


def write_dataset(path: str, name: str) -> None:
    edtype, big, part, lod, steps = DATASETS[name]
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=schema_of(edtype), domain=DOMAIN, lod=lod, **part)
        for s, (n, seed) in steps.items():
            g.write(s, data=make_particles(n, seed, edtype, big),
                    patch=DOMAIN if "partition" in part else None)   # factor mode needs the patch


class Truth:
    """What each data file of a dataset holds, decoded with struct (not with lodex)."""

    def __init__(self, path: str, schema: dict, steps):
        self.schema = schema
        self.files: dict[int, list] = {}
        self.group = g = lodex.open(path).particles[GROUP]
        for s in steps:
            lst = []
            for rec in g.files(s):
                h = tu.parse_particle_file(os.path.join(tu.step_dir(path, GROUP, s), rec["file"]))
                assert h["n"] == rec["count"]
                cols = {k: np.array(h["columns"][k]) for k in schema}
                lst.append((rec["file"], cols, list(h["level_ends"])))
            self.files[s] = lst
            # the parser agrees with lodex's own full read, file after file
            full = g.read(s)
            for k in schema:
                got = np.concatenate([c[k] for _, c, _ in lst]) if lst else full[k][:0]
                assert np.array_equal(tu.bits(got), tu.bits(full[k])), k

    def expect(self, step: int, node, box=None, level=None) -> list:
        """[(file, ascending row ids)] of every file of the step."""
        out = []
        for name, cols, ends in self.files[step]:
            m = eval_node(node, cols)
            if box is not None:
                p = cols["position"].astype(np.float64)
                lo, hi = np.asarray(box[0], dtype=np.float64), np.asarray(box[1], dtype=np.float64)
                m &= np.all((p >= lo) & (p < hi), axis=1)
            if level is not None:   # the particles a read at that level returns (ids are unique)
                m &= np.isin(cols["id"], self.sample_ids(step, box, level))
            out.append((name, np.nonzero(m)[0].astype(np.uint64)))
        return out

    def sample_ids(self, step: int, box, level: int) -> np.ndarray:
        """Ids of the particles lodex's read of the step (and box) at ``level`` returns: one
        meaning of level across reads and queries. Raises what the read raises."""
        return self.group.read(step, box=box, level=level, fields=["id"])["id"]

    def cols(self, step: int, file: str) -> dict:
        return next(c for name, c, _ in self.files[step] if name == file)


# ---------------------------------------------------------------------------------------------
# Queries: a tree, its text and its numpy evaluation
# ---------------------------------------------------------------------------------------------
# ("cmp", (field, comp), op, text, reversed)  field op c   (reversed: c op field)
# ("range", (field, comp), lo, op1, op2, hi)  lo op1 field op2 hi
# ("not", kid) ("and", [kids]) ("or", [kids])

def column(cols: dict, fk) -> np.ndarray:
    name, comp = fk
    a = cols[name]
    if a.ndim == 2:
        a = a[:, comp]
    return a.astype(np.float64)


def eval_node(node, cols: dict) -> np.ndarray:
    kind = node[0]
    if kind == "cmp":
        _, fk, op, text, rev = node
        v, c = column(cols, fk), float(text)
        return OPS[op](c, v) if rev else OPS[op](v, c)
    if kind == "range":
        _, fk, lo, op1, op2, hi = node
        v = column(cols, fk)
        return OPS[op1](float(lo), v) & OPS[op2](v, float(hi))
    if kind == "not":
        return ~eval_node(node[1], cols)
    masks = [eval_node(k, cols) for k in node[1]]
    out = masks[0].copy()
    for m in masks[1:]:
        out = (out & m) if kind == "and" else (out | m)
    return out


def fields_of(node) -> set:
    if node[0] in ("cmp", "range"):
        return {node[1][0]}
    if node[0] == "not":
        return fields_of(node[1])
    return set().union(*(fields_of(k) for k in node[1]))


PREC = {"or": 1, "and": 2, "not": 3, "cmp": 4, "range": 4}


def render(node, rng) -> str:
    def sp():
        return ["", " ", " ", " ", "  ", "\t", "\n"][rng.integers(0, 7)]

    def fname(fk):
        name, comp = fk
        if name != "position":
            return name
        return "xyz"[comp] if rng.random() < 0.6 else f"position[{comp}]"

    def r(n, parent: int) -> str:
        kind = n[0]
        if kind == "cmp":
            _, fk, op, text, rev = n
            s = f"{text}{sp()}{op}{sp()}{fname(fk)}" if rev else f"{fname(fk)}{sp()}{op}{sp()}{text}"
        elif kind == "range":
            _, fk, lo, op1, op2, hi = n
            s = f"{lo}{sp()}{op1}{sp()}{fname(fk)}{sp()}{op2}{sp()}{hi}"
        elif kind == "not":
            s = "!" + sp() + r(n[1], PREC["not"])
        else:
            joiner = sp() + ("&&" if kind == "and" else "||") + sp()
            s = joiner.join(r(k, PREC[kind]) for k in n[1])
        if PREC[kind] < parent or rng.random() < 0.12:
            s = "(" + sp() + s + sp() + ")"
        return s

    return r(node, 0)


class QueryGen:
    """Random queries over one step's values."""

    def __init__(self, rng, values: dict):
        self.rng = rng
        self.values = values   # (field, comp) -> float64 values without NaN (may hold +-inf)

    def field(self):
        u = self.rng.random()
        if u < 0.4:
            return ("energy", 0)
        if u < 0.7:
            return ("position", int(self.rng.integers(0, 3)))
        return ("q", 0) if u < 0.85 else ("id", 0)

    def const(self, fk, op: str) -> str:
        rng = self.rng
        vals = self.values[fk]
        integer = fk[0] in ("q", "id")
        u = rng.random()
        if integer and op in ("==", "!="):
            if u < 0.7 and len(vals):
                v = int(vals[rng.integers(0, len(vals))])
                return str(v + int(rng.choice([0, 0, 0, 1, -1])))
            return str(rng.choice(["0", "-40000", "70000", "1e30", "-2e3", "18446744073709551615", "-0"]))
        if u < 0.18 or not len(vals):
            return str(rng.choice(["1e30", "-1e30", "inf", "-inf", "-2e-5", ".5", "0", "-0", "1.3",
                                   "3.4e38", "1e-300", "42", "1.30000001", "7.25", "2.5", "5"]))
        v = float(vals[rng.integers(0, len(vals))])
        if not math.isfinite(v):
            return "inf" if v > 0 else "-inf"
        if u < 0.45:
            return repr(v)                                        # exact (an equality hits)
        if u < 0.8:
            return f"{v:.{int(rng.integers(1, 5))}g}"            # few digits
        if u < 0.9:
            return f"{v:.{int(rng.integers(9, 22))}g}"           # many digits
        return repr(float(np.nextafter(v, np.inf if rng.random() < 0.5 else -np.inf)))

    def leaf(self):
        rng = self.rng
        fk = self.field()
        if rng.random() < 0.3:
            up = rng.random() < 0.5
            ops = ["<", "<="] if up else [">", ">="]
            op1, op2 = ops[rng.integers(0, 2)], ops[rng.integers(0, 2)]
            a, b = self.const(fk, op1), self.const(fk, op2)
            if rng.random() < 0.8 and (float(a) > float(b)) == up:
                a, b = b, a                                           # mostly a non-empty range
            return ("range", fk, a, op1, op2, b)
        op = list(OPS)[rng.integers(0, 6)]
        return ("cmp", fk, op, self.const(fk, op), bool(rng.random() < 0.25))

    def tree(self, depth: int = 0):
        rng = self.rng
        if depth >= 3 or rng.random() < 0.35:
            return self.leaf()
        u = rng.random()
        if u < 0.25:
            return ("not", self.tree(depth + 1))
        kind = "and" if u < 0.65 else "or"
        return (kind, [self.tree(depth + 1) for _ in range(int(rng.integers(2, 4)))])


def step_values(truth: Truth, step: int) -> dict:
    out = {}
    for fk in [("energy", 0), ("position", 0), ("position", 1), ("position", 2), ("q", 0), ("id", 0)]:
        parts = [column(c, fk) for _, c, _ in truth.files[step]]
        v = np.concatenate(parts) if parts else np.empty(0)
        out[fk] = v[~np.isnan(v)]
    return out


def random_box(rng):
    u = rng.random()
    if u < 0.2:   # faces on partition / brick planes
        pts = np.array([0.0, 2.5, 5.0, 7.5, 10.0])
        a = rng.choice(pts, 3)
        b = rng.choice(pts, 3)
    elif u < 0.3:
        return ((-math.inf, 2.5, -math.inf), (math.inf, math.inf, 7.5))
    elif u < 0.35:
        return ((3.0, 3.0, 3.0), (3.0, 9.0, 9.0))   # empty
    else:
        a = rng.uniform(-1, 11, 3)
        b = rng.uniform(-1, 11, 3)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    return (tuple(float(x) for x in lo), tuple(float(x) for x in hi))


# ---------------------------------------------------------------------------------------------
# Checking one answer
# ---------------------------------------------------------------------------------------------

def check_answer(r, truth: Truth, step: int, node, *, box=None, level=None, fields=(),
                 count_only=False, what="") -> None:
    exp = truth.expect(step, node, box, level)
    want = {f: rows for f, rows in exp if len(rows)}
    total = sum(len(v) for v in want.values())
    assert r.count == total, f"{what}: count {r.count}, want {total}"
    assert r.local_count == total, f"{what}: local_count {r.local_count}, want {total}"
    if count_only:
        assert r.rows == {} and r.data == {}, f"{what}: count_only returned rows or data"
        return
    assert set(r.rows) == set(want), f"{what}: files {sorted(r.rows)}, want {sorted(want)}"
    for f, rows in r.rows.items():
        assert rows.dtype == np.uint64, f"{what}: {f} rows dtype {rows.dtype}"
        assert np.all(np.diff(rows.astype(np.int64)) > 0), f"{what}: {f} rows not strictly ascending"
        if not np.array_equal(rows, want[f]):
            extra = np.setdiff1d(rows, want[f])[:5]
            miss = np.setdiff1d(want[f], rows)[:5]
            raise AssertionError(f"{what}: file {f}: {len(rows)} rows, want {len(want[f])}; "
                                 f"extra {extra.tolist()} missing {miss.tolist()}")
    assert list(r.data) == list(fields), f"{what}: data fields {list(r.data)}, want {list(fields)}"
    for k in fields:
        parts = [truth.cols(step, f)[k][r.rows[f].astype(np.int64)] for f in r.rows]
        dt, comps = (truth.schema[k], 1) if isinstance(truth.schema[k], str) else truth.schema[k]
        want_k = np.concatenate(parts) if parts else np.empty((0,) if comps == 1 else (0, comps), dtype=dt)
        got = r.data[k]
        assert got.dtype == want_k.dtype and got.shape == want_k.shape, \
            f"{what}: {k} {got.dtype}{got.shape}, want {want_k.dtype}{want_k.shape}"
        assert np.array_equal(tu.bits(got), tu.bits(want_k)), f"{what}: {k} values differ"
    if "id" in fields:
        want_ids = np.concatenate([truth.cols(step, f)["id"][rows.astype(np.int64)] for f, rows in want.items()]) \
            if want else np.empty(0, np.uint64)
        assert np.array_equal(np.sort(r.data["id"]), np.sort(want_ids)), f"{what}: ids differ"


# ---------------------------------------------------------------------------------------------
# The property test
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pristine_sets(tmp_path_factory):
    """name -> (path, Truth) of each unindexed dataset."""
    base = tmp_path_factory.mktemp("vq")
    out = {}
    for name, (edtype, _b, _p, _l, steps) in DATASETS.items():
        path = str(base / f"{name}.lodex")
        write_dataset(path, name)
        out[name] = (path, Truth(path, schema_of(edtype), list(steps)))
    return out


# config -> (build_index kwargs or None, use_index)
CONFIGS = {
    "scan": (None, False),
    "unindexed": (None, True),
    "p1": ({"precision": 1}, True),
    "p2": ({"precision": 2}, True),
    "p3": ({"precision": 3}, True),
    "p4": ({"precision": 4}, True),
    "b1": ({"bins": 1}, True),
    "b7": ({"bins": 7}, True),
    "b64": ({"bins": 64}, True),
}
QUERIES_PER_RUN = 16
MODES = ["plain", "box", "level", "box_level", "count_only"]


@pytest.mark.parametrize("dsname", list(DATASETS))
@pytest.mark.parametrize("config", list(CONFIGS))
def test_random_queries_match_numpy(pristine_sets, tmp_path, dsname, config):
    src, truth = pristine_sets[dsname]
    path = str(tmp_path / "d.lodex")
    shutil.copytree(src, path)
    build, use_index = CONFIGS[config]
    steps = list(DATASETS[dsname][4])
    ds = lodex.open(path, mode="a")
    g = ds.particles[GROUP]
    if build is not None:
        st = g.build_index(**build)
        assert st["steps"] == len(steps), dict(st)
        nfiles = sum(len(truth.files[s]) for s in steps)
        assert st["files"] == nfiles, dict(st)
        assert st["indexes"] == nfiles * len(FIELDS), dict(st)
        nrows = sum(len(c["id"]) for s in steps for _, c, _ in truth.files[s])
        assert st["rows"] == nrows * 6, dict(st)   # 3 + 1 + 1 + 1 components
        assert st.bits_per_row > 0 and st.size_ratio > 0
    seed = [list(CONFIGS).index(config), list(DATASETS).index(dsname), 17]
    rng = np.random.default_rng(seed)
    gens = {s: QueryGen(rng, step_values(truth, s)) for s in steps}
    for i in range(QUERIES_PER_RUN):
        step = steps[0] if rng.random() < 0.7 else steps[int(rng.integers(0, len(steps)))]
        node = gens[step].tree()
        text = render(node, rng)
        for mode in MODES:
            box = random_box(rng) if "box" in mode else None
            level = int(rng.integers(0, 5)) if "level" in mode else None
            count_only = mode == "count_only"
            fields = [] if count_only else list(rng.permutation(FIELDS)[:int(rng.integers(1, 5))])
            if mode == "plain":
                fields = FIELDS
            what = f"[{dsname}/{config}] step {step} {mode} query {text!r} box={box} level={level}"
            try:
                r = g.query(step, text, box=box, level=level, fields=fields,
                            count_only=count_only, use_index=use_index)
            except lodex.Error as e:
                raise AssertionError(f"{what}: raised {type(e).__name__}: {e}") from e
            check_answer(r, truth, step, node, box=box, level=level, fields=fields,
                         count_only=count_only, what=what)
            if config == "scan":
                assert any("use_index is off" in n for n in r.notes), f"{what}: notes {r.notes}"
            elif config == "unindexed":
                for f in fields_of(node):
                    assert any(f"no bitmap index on '{f}'" in n for n in r.notes), f"{what}: notes {r.notes}"
            else:
                assert not any("no bitmap index" in n or "scanned instead" in n for n in r.notes), \
                    f"{what}: notes {r.notes}"
                assert r.stats["files_scanned"] == 0, f"{what}: an indexed query scanned: {r.stats}"
    ds.close()


# ---------------------------------------------------------------------------------------------
# A small indexed dataset for the targeted tests
# ---------------------------------------------------------------------------------------------

SCHEMA = schema_of("f4")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """(path, Truth) of dataset "A" step 0 only, unindexed."""
    path = str(tmp_path_factory.mktemp("vqs") / "s.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=SCHEMA, domain=DOMAIN, partition_grid=(2, 2, 2),
                                lod={"level0_max": 64, "brick_target": 32})
        g.write(0, data=make_particles(3000, 21, "f4"))
    return path, Truth(path, SCHEMA, [0])


@pytest.fixture
def small_copy(small, tmp_path):
    path = str(tmp_path / "s.lodex")
    shutil.copytree(small[0], path)
    return path, small[1]


def parse(text: str):
    """Tiny trees for hand-written queries: only 'field op number' joined by one kind of op."""
    for kind, sep in (("or", "||"), ("and", "&&")):
        if sep in text:
            return (kind, [parse(t) for t in text.split(sep)])
    f, op, c = text.split()
    fk = {"x": ("position", 0), "y": ("position", 1), "z": ("position", 2)}.get(f, (f, 0))
    return ("cmp", fk, op, c, False)


def test_partial_index_notes_and_use_index_off(small_copy):
    path, truth = small_copy
    ds = lodex.open(path, mode="a")
    g = ds.particles[GROUP]
    st = g.build_index(fields=["energy"], precision=2)
    assert st["indexes"] == len(truth.files[0])
    lbx = sorted(f for f in os.listdir(tu.step_dir(path, GROUP, 0)) if f.endswith(".lbx"))
    assert lbx == sorted(name[:-4] + ".energy.lbx" for name, _, _ in truth.files[0])
    text = "energy > 0.5 && q < 3 || x > 2.25"
    node = parse(text)
    r = g.query(0, text, fields=["id", "energy"])
    check_answer(r, truth, 0, node, fields=["id", "energy"], what=text)
    notes = "\n".join(r.notes)
    assert "no bitmap index on 'q'" in notes, r.notes
    assert "no bitmap index on 'position'" in notes, r.notes
    assert "no bitmap index on 'energy'" not in notes, r.notes
    # only the indexed field: answered from the index, nothing scanned
    r2 = g.query(0, "energy > 0.5", fields=["id"])
    check_answer(r2, truth, 0, parse("energy > 0.5"), fields=["id"], what="energy > 0.5")
    assert r2.notes == [], r2.notes
    assert r2.stats["files_indexed"] > 0 and r2.stats["files_scanned"] == 0, r2.stats
    # use_index=False: same answer, a note, no index bytes read
    r3 = g.query(0, text, fields=["id", "energy"], use_index=False)
    check_answer(r3, truth, 0, node, fields=["id", "energy"], what=text + " (use_index=False)")
    assert any("use_index is off" in n for n in r3.notes), r3.notes
    assert r3.stats["index_bytes"] == 0 and r3.stats["files_indexed"] == 0, r3.stats
    for f in r.rows:
        assert np.array_equal(r.rows[f], r3.rows[f])
    ds.close()


@pytest.mark.parametrize("text,fields,split", [
    ("energy > 1.3", ["energy"], True),
    ("energy <= 1.3", ["energy"], True),
    ("energy >= -2.5", ["energy"], True),
    ("energy < 250", ["energy"], False),
    ("energy > 1.3 && 2.25 < x < 7.25", ["energy", "position"], True),
    ("energy != 1.3 || y >= 9.99", ["energy", "position"], True),
])
def test_precision_index_needs_no_candidate_check(small_copy, text, fields, split):
    """Constants of at most 3 significant digits fall on bin edges of a precision-3 index: no row
    is left to a candidate check when no data value equals a constant (f4 cannot hold 1.3)."""
    path, truth = small_copy
    if " < x < " in text:
        node = ("and", [parse("energy > 1.3"), ("range", ("position", 0), "2.25", "<", "<", "7.25")])
    else:
        node = parse(text)
    consts = {("energy", 0): [1.3, -2.5, 250.0], ("position", 0): [2.25, 7.25], ("position", 1): [9.99]}
    for fk, cs in consts.items():
        vals = np.concatenate([column(c, fk) for _, c, _ in truth.files[0]])
        assert not np.any(np.isin(vals, cs)), f"the data holds one of {cs}"
    ds = lodex.open(path, mode="a")
    g = ds.particles[GROUP]
    g.build_index(fields=fields, precision=3)
    r = g.query(0, text, fields=["id"])
    check_answer(r, truth, 0, node, fields=["id"], what=text)
    assert r.notes == [], r.notes
    assert r.stats["rows_checked"] == 0, f"{text}: {r.stats}"
    # on a precision-1 index the bin [1, 2) holds values on both sides of 1.3 (and [-3, -2) of
    # -2.5): those rows need a check (the statistic is not always 0)
    e = np.concatenate([column(c, ("energy", 0)) for _, c, _ in truth.files[0]])
    assert np.any((e >= 1) & (e < 1.3)) and np.any((e > 1.3) & (e < 2))
    g.build_index(fields=fields, precision=1)
    r1 = g.query(0, text, fields=["id"])
    check_answer(r1, truth, 0, node, fields=["id"], what=text + " (precision 1)")
    if split:
        assert r1.stats["rows_checked"] > 0, r1.stats
    ds.close()


def manifest_indexes(path: str, step: int = 0) -> dict:
    with open(os.path.join(path, "manifest.json")) as fh:
        man = json.load(fh)
    rec = next(s for s in man["groups"][GROUP]["steps"] if s["step"] == step)
    return rec.get("indexes", {})


def lbx_binning(path: str) -> tuple[int, int]:
    with open(path, "rb") as fh:
        raw = fh.read(128)
    assert raw[:8] == b"LDXBIDX\0"
    return raw[29], struct.unpack_from("<I", raw, 32)[0]


def test_reindex_replaces(small_copy):
    path, truth = small_copy
    sdir = tu.step_dir(path, GROUP, 0)
    ds = lodex.open(path, mode="a")
    g = ds.particles[GROUP]
    g.build_index(fields=["energy", "position"], precision=1)
    idx = manifest_indexes(path)
    assert idx["energy"]["binning"] == "precision" and idx["energy"]["precision"] == 1, idx
    before = sorted(os.listdir(sdir))
    kind1, param1 = lbx_binning(os.path.join(sdir, "p000000.energy.lbx"))
    st = g.build_index(fields=["energy"], bins=7)
    assert st["indexes"] == len(truth.files[0]), dict(st)
    idx = manifest_indexes(path)
    assert idx["energy"]["binning"] == "equal_weight", idx
    assert idx["position"]["binning"] == "precision", idx
    assert sorted(os.listdir(sdir)) == before   # replaced in place, no leftovers
    kind2, param2 = lbx_binning(os.path.join(sdir, "p000000.energy.lbx"))
    assert (kind2, param2) != (kind1, param1) and param2 == 7
    text = "energy > 0.5 || energy <= -1.25"
    r = g.query(0, text, fields=["id", "energy"])
    check_answer(r, truth, 0, parse(text), fields=["id", "energy"], what=text)
    assert r.notes == [] and r.stats["files_scanned"] == 0, (r.notes, r.stats)
    ds.close()
    # reopening sees the replacement
    g = lodex.open(path).particles[GROUP]
    r = g.query(0, text, fields=["id"])
    check_answer(r, truth, 0, parse(text), fields=["id"], what=text + " (reopened)")


@pytest.mark.parametrize("kw,exc", [
    ({"fields": ["nope"]}, lodex.Error),
    ({"fields": ["energy", "nope"]}, lodex.Error),
    ({"precision": 0}, lodex.InvalidArgumentError),
    ({"precision": 10}, lodex.InvalidArgumentError),
    ({"precision": 3, "bins": 8}, lodex.InvalidArgumentError),
    ({"bins": 0}, lodex.InvalidArgumentError),
    ({"steps": [5]}, lodex.Error),
    ({"steps": []}, lodex.InvalidArgumentError),
])
def test_build_index_bad_arguments(small_copy, kw, exc):
    path, truth = small_copy
    ds = lodex.open(path, mode="a")
    g = ds.particles[GROUP]
    with pytest.raises(exc) as ei:
        g.build_index(**kw)
    if "fields" in kw:
        assert "nope" in str(ei.value)
    # nothing was written; the dataset still answers
    assert not [f for f in os.listdir(tu.step_dir(path, GROUP, 0)) if f.endswith(".lbx")]
    assert manifest_indexes(path) == {}
    r = g.query(0, "energy > 0.5", fields=["id"])
    check_answer(r, truth, 0, parse("energy > 0.5"), fields=["id"], what="after a refused build")
    ds.close()


def test_build_index_read_only_refused(small_copy):
    path, truth = small_copy
    ds = lodex.open(path)
    with pytest.raises(lodex.Error):
        ds.particles[GROUP].build_index(fields=["energy"])
    ds.close()
    assert not [f for f in os.listdir(tu.step_dir(path, GROUP, 0)) if f.endswith(".lbx")]
    with pytest.raises(lodex.Error):
        lodex.open(path).particles[GROUP].build_index()


def test_write_with_index(tmp_path):
    path = str(tmp_path / "w.lodex")
    d0 = make_particles(1500, 31, "f4")
    d1 = make_particles(800, 32, "f4")
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=SCHEMA, domain=DOMAIN, partition_grid=(2, 2, 1))
        g.write(0, data=d0, index=["energy", "position"])
        g.write(1, data=d1, index={"fields": ["energy"], "precision": 2})
        g.write(2, data=d1)
        with pytest.raises(lodex.InvalidArgumentError):
            g.write(3, data=d1, index={"fields": ["energy"], "digits": 2})
        assert g.steps == [0, 1, 2]
    truth = Truth(path, SCHEMA, [0, 1, 2])
    assert set(manifest_indexes(path, 0)) == {"energy", "position"}
    assert manifest_indexes(path, 1) == {"energy": manifest_indexes(path, 1)["energy"]}
    assert manifest_indexes(path, 1)["energy"]["precision"] == 2
    assert manifest_indexes(path, 2) == {}
    g = lodex.open(path).particles[GROUP]
    text = "energy > 0.5 && x < 5"
    node = ("and", [parse("energy > 0.5"), parse("x < 5")])
    r = g.query(0, text, fields=["id", "position"])
    check_answer(r, truth, 0, node, fields=["id", "position"], what=text)
    assert r.stats["files_indexed"] > 0 and r.stats["files_scanned"] == 0, r.stats
    assert not any("no bitmap index" in n for n in r.notes), r.notes
    r = g.query(1, text, fields=["id"])
    check_answer(r, truth, 1, node, fields=["id"], what=text + " step 1")
    assert any("no bitmap index on 'position'" in n for n in r.notes), r.notes
    assert not any("no bitmap index on 'energy'" in n for n in r.notes), r.notes
    r = g.query(2, text, fields=["id"])
    check_answer(r, truth, 2, node, fields=["id"], what=text + " step 2")
    assert r.stats["files_indexed"] == 0, r.stats
    assert any("no bitmap index on 'energy'" in n for n in r.notes), r.notes


# ---------------------------------------------------------------------------------------------
# Damaged index files and data files
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def indexed(small, tmp_path_factory):
    """The small dataset with precision-3 indexes on energy and position."""
    path = str(tmp_path_factory.mktemp("vqi") / "i.lodex")
    shutil.copytree(small[0], path)
    with lodex.open(path, mode="a") as ds:
        ds.particles[GROUP].build_index(fields=["energy", "position"], precision=3)
    return path


@pytest.fixture
def icopy(indexed, small, tmp_path):
    path = str(tmp_path / "i.lodex")
    shutil.copytree(indexed, path)
    return path, small[1]


def parse_lbx(path: str) -> dict:
    """The bitmap index layout of src/format/bitmap_index.cpp (header, components, bin tables)."""
    with open(path, "rb") as fh:
        raw = fh.read()
    ncomp = struct.unpack_from("<I", raw, 24)[0]
    value = "f" if raw[28] == 1 else "d"   # f4 fields keep their bin ranges as f4
    entry = struct.calcsize("<" + 2 * value + "III")
    comps = []
    for c in range(ncomp):
        bins, nan_rows, mn, mx, toff, tsum, boff, bbytes = struct.unpack_from("<QQddQQQQ", raw, 128 + 64 * c)
        table, at = [], boff
        for b in range(bins + 1):
            vmin, vmax, count, stored, _ = struct.unpack_from("<" + 2 * value + "III", raw, toff + entry * b)
            nbytes = stored & 0x7FFFFFFF
            table.append(dict(vmin=vmin, vmax=vmax, count=count, offset=at, bytes=nbytes, raw=bool(stored >> 31)))
            at += nbytes
        assert at == boff + bbytes
        comps.append(dict(bins=bins, nan_rows=nan_rows, table_offset=toff, table_bytes=entry * (bins + 1),
                          table=table))
    return dict(size=len(raw), components=comps)


DAMAGED = "p000000"
GENERAL = ["energy > 0.5", "energy <= -1.25 || energy > 3", "energy != 0"]


def damage(path: str, how: str):
    """Damages p000000.energy.lbx; returns a query that must read the damaged part, or None."""
    sdir = tu.step_dir(path, GROUP, 0)
    f = os.path.join(sdir, f"{DAMAGED}.energy.lbx")
    info = parse_lbx(f)
    comp = info["components"][0]
    size = info["size"]

    def bin_query(b):
        e = comp["table"][b]
        return f"energy >= {e['vmin']!r} && energy <= {e['vmax']!r}"

    if how in ("flip_middle", "flip_bitmap", "flip_raw_rows"):
        if how == "flip_middle":
            off = size // 2
        elif how == "flip_raw_rows":   # a sparse bin stored as raw row ids: flip a row id's high byte
            raw = [b for b in range(comp["bins"]) if comp["table"][b]["raw"] and comp["table"][b]["count"] > 1]
            assert raw, "the test data has no bin stored as raw row ids"
            off = comp["table"][raw[0]]["offset"] + 4 * (comp["table"][raw[0]]["count"] // 2) + 2
        else:
            big = max(range(comp["bins"]), key=lambda b: comp["table"][b]["bytes"])
            off = comp["table"][big]["offset"] + comp["table"][big]["bytes"] // 2
        tu.flip_byte(f, off, 0x20)
        for b in range(comp["bins"]):
            e = comp["table"][b]
            if e["count"] and e["offset"] <= off < e["offset"] + e["bytes"]:
                return bin_query(b)
        assert off < comp["table_offset"] + comp["table_bytes"], "offset in no region"
        return GENERAL[0]
    if how == "flip_header":
        tu.flip_byte(f, 20, 0x01)
    elif how == "flip_component_table":
        tu.flip_byte(f, 128 + 8, 0x01)
    elif how == "flip_bin_table":
        tu.flip_byte(f, comp["table_offset"] + comp["table_bytes"] // 2, 0x04)
    elif how.startswith("truncate"):
        cut = {"truncate_1": size - 1, "truncate_half": size // 2, "truncate_10": 10, "truncate_0": 0}[how]
        with open(f, "r+b") as fh:
            fh.truncate(cut)
    elif how == "extend":
        with open(f, "ab") as fh:
            fh.write(b"\0" * 100)
    elif how == "delete":
        os.remove(f)
    elif how == "other_file":
        shutil.copyfile(os.path.join(sdir, "p000001.energy.lbx"), f)
    elif how == "other_field":
        shutil.copyfile(os.path.join(sdir, f"{DAMAGED}.position.lbx"), f)
    else:
        raise KeyError(how)
    return GENERAL[0]


DAMAGES = ["flip_middle", "flip_bitmap", "flip_raw_rows", "flip_header", "flip_component_table", "flip_bin_table",
           "truncate_1", "truncate_half", "truncate_10", "truncate_0", "extend", "delete",
           "other_file", "other_field"]


def query_node(text: str):
    if " >= " in text and " <= " in text and "&&" in text:
        a, b = text.split(" && ")
        return ("and", [parse(a), parse(b)])
    return parse(text)


@pytest.mark.parametrize("how", DAMAGES)
def test_damaged_index_file_is_scanned(icopy, how):
    path, truth = icopy
    target = damage(path, how)
    g = lodex.open(path).particles[GROUP]
    for text in [target] + GENERAL:
        for fields in (["id", "energy"], []):
            r = g.query(0, text, fields=fields)
            check_answer(r, truth, 0, query_node(text), fields=fields, what=f"{how}: {text}")
            for n in r.notes:   # no other file is blamed
                assert DAMAGED in n, f"{how}: {text}: note blames another file: {n}"
            if text == target:
                hit = [n for n in r.notes if DAMAGED in n]
                assert hit, f"{how}: {text}: no note names the damaged index: {r.notes}"
                assert any("scan" in n for n in hit), f"{how}: {text}: note does not say it scanned: {hit}"
                assert r.stats["files_scanned"] >= 1, r.stats
                assert r.stats["files_indexed"] >= 1, r.stats   # the other files keep their index
    # a query that also uses the undamaged position index
    text = "energy > 0.5 && x < 5"
    r = g.query(0, text, fields=["id"])
    check_answer(r, truth, 0, ("and", [parse("energy > 0.5"), parse("x < 5")]), fields=["id"],
                 what=f"{how}: {text}")


def column_offset(path: str, field: str) -> tuple[int, int]:
    """(offset, bytes) of a field's column in a data file."""
    h = tu.parse_particle_file(path)
    f = next(x for x in h["fields"] if x["name"] == field)
    return f["offset"], f["bytes"]


@pytest.mark.parametrize("use_index", [True, False])
@pytest.mark.parametrize("field,text", [("energy", "energy > -inf"), ("position", "x < 5")])
def test_damaged_data_file_raises(icopy, use_index, field, text):
    path, truth = icopy
    f = os.path.join(tu.step_dir(path, GROUP, 0), f"{DAMAGED}.lpd")
    # damage a row the query returns: a middle row with a finite energy (every x of p000000 < 5)
    cols = truth.cols(0, f"{DAMAGED}.lpd")
    row = next(i for i in range(len(cols["id"]) // 2, len(cols["id"])) if np.isfinite(cols["energy"][i]))
    off, _ = column_offset(f, field)
    tu.flip_byte(f, off + row * (4 if field == "energy" else 12) + 1, 0x40)
    g = lodex.open(path).particles[GROUP]
    with pytest.raises(lodex.FormatError) as ei:
        g.query(0, text, fields=["id", field], use_index=use_index)
    assert f"{DAMAGED}.lpd" in str(ei.value), str(ei.value)
    if not use_index:
        with pytest.raises(lodex.FormatError):
            g.query(0, text, count_only=True, use_index=False)
    # a query that never touches the damaged file still answers
    other = truth.files[0][1][0]
    assert other != f"{DAMAGED}.lpd"
    box = ((5.0, 0.0, 0.0), (10.0, 5.0, 5.0))   # partition 1 only
    node = parse("energy > 0.5")
    r = g.query(0, "energy > 0.5", box=box, fields=["id", field], use_index=use_index)
    check_answer(r, truth, 0, node, box=box, fields=["id", field], what="box away from the damage")
    assert set(r.rows) <= {other}


# ---------------------------------------------------------------------------------------------
# Errors of the query language and of the arguments
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,where", [
    ("energy >", "1:9"),
    ("energy = 1", "1:8"),
    ("(x < 1", "1:7"),
    ("x < 1 &&", "1:9"),
    ('"a" < x', "1:1"),
    ("energy > 1 energy > 2", "1:12"),
    ("energy > 1 & x < 1", "1:12"),
    ("x < y", "1:"),
    ("1 < 2", "1:"),
    ("energy > 1.3.4", "1:10"),
    ("energy > 1e400", "1:10"),
    ("position[3] > 1", "1:"),
    ("x <= 1 < 2", "1:"),
    ("", "1:1"),
    ("energy > 1 &&\n(x < ", "2:"),
])
def test_syntax_errors(small, text, where):
    g = lodex.open(small[0]).particles[GROUP]
    with pytest.raises(lodex.InvalidArgumentError) as ei:
        g.query(0, text)
    msg = str(ei.value)
    assert f"query {where}" in msg, msg


@pytest.mark.parametrize("text,word", [
    ("foo > 1", "foo"),
    ("energy > 1 && foo < 2", "foo"),
    ("position > 1", "position"),
    ("q == 1.5", "q"),
    ("q != -2.5", "q"),
    ("id == 0.5", "id"),
    ("energy[1] > 0", "energy"),
])
def test_bind_errors(small, text, word):
    g = lodex.open(small[0]).particles[GROUP]
    with pytest.raises(lodex.Error) as ei:
        g.query(0, text)
    assert f"'{word}'" in str(ei.value), str(ei.value)


def test_integer_fields_compare_with_fractions_by_order(small):
    path, truth = small
    g = lodex.open(path).particles[GROUP]
    for text in ("q < 1.5", "q >= -2.5", "q == 3", "q != 3.0", "id <= 70.5", "q == -32768"):
        r = g.query(0, text, fields=["q", "id"])
        check_answer(r, truth, 0, parse(text), fields=["q", "id"], what=text)


def test_missing_step_and_bad_arguments(small):
    g = lodex.open(small[0]).particles[GROUP]
    with pytest.raises(lodex.NotFoundError):
        g.query(7, "energy > 0")
    with pytest.raises(lodex.Error):
        g.query(0, "energy > 0", fields=["nope"])
    with pytest.raises(lodex.InvalidArgumentError):
        g.query(0, "energy > 0", box=((2, 2, 2), (1, 1, 1)))
    with pytest.raises(lodex.InvalidArgumentError):
        g.query(0, "energy > 0", level=-1)
    with pytest.raises(lodex.InvalidArgumentError):
        g.query(0, "energy > 0", fields=["id"], count_only=True)
    with pytest.raises(lodex.InvalidArgumentError):
        g.query(0, 42)


DEEP_CHILD = """
import sys, lodex
kind, depth = sys.argv[2], int(sys.argv[3])
text = ("(" * depth + "energy > 0.5" + ")" * depth) if kind == "parens" else ("!" * depth + "energy > 0.5")
g = lodex.open(sys.argv[1]).particles["e"]
try:
    print("COUNT", g.query(text, step=0, count_only=True).count, flush=True)
except lodex.Error as e:
    print("ERROR", type(e).__name__, str(e)[:200], flush=True)
"""


@pytest.mark.parametrize("kind,depth", [("parens", 5000), ("nots", 20000)])
def test_deeply_nested_query_answers_or_refuses(small, kind, depth):
    """A query nested thousands of levels deep (a 10-20 kB string) is answered or refused with
    InvalidArgumentError; it must not crash the process. Run in a child process."""
    path, truth = small
    want = sum(len(r) for _, r in truth.expect(0, parse("energy > 0.5")))
    proc = subprocess.run([sys.executable, "-c", DEEP_CHILD, path, kind, str(depth)],
                          capture_output=True, text=True, timeout=120)
    died = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit code {proc.returncode}"
    assert proc.returncode == 0, f"{kind} x{depth}: the query process died ({died})\n{proc.stderr[-2000:]}"
    out = proc.stdout.split()
    assert out and out[0] in ("COUNT", "ERROR"), proc.stdout
    if out[0] == "COUNT":
        assert int(out[1]) == want, proc.stdout
    else:
        assert out[1] == "InvalidArgumentError", proc.stdout


def test_query_level_is_the_read_level(pristine_sets):
    """One meaning of ``level``: a query that every particle passes counts exactly what the read at
    that level returns (32, 96, 224, ... for one reader), with a box, with other readers, P and S;
    and a query at a level returns the read's particles that pass it."""
    path, _truth = pristine_sets["A"]
    g = lodex.open(path).particles[GROUP]
    box = ((1.0, 0.5, 2.0), (8.0, 9.0, 7.5))
    for kw in ({}, {"box": box}, {"readers": 3}, {"P": 10, "S": 3.0}, {"box": box, "readers": 2, "P": 7}):
        for level in range(4):
            read = g.read(0, level=level, **kw)
            everything = g.query(0, "q >= -32768", level=level, fields=["id"], **kw)
            assert everything.count == len(read["id"]), (kw, level)
            assert np.array_equal(np.sort(everything.data["id"]), np.sort(read["id"])), (kw, level)
            some = g.query(0, "energy > 0.5", level=level, fields=["id"], **kw)
            assert np.array_equal(np.sort(some.data["id"]), np.sort(read["id"][read["energy"] > 0.5])), (kw, level)
    assert g.read(0, level=0)["id"].size == 32
    with pytest.raises(lodex.InvalidArgumentError, match="give a level"):
        g.query(0, "q > 0", readers=2)
