"""The forge campaign (docs/reliability.md, "Stress campaigns"): randomized forgeries at scale, run
as a script by make stress (`python tests/python/forge_campaign.py --cases 2000`), a few dozen
cases in make test (test_forge_campaign.py).

test_forge.py forges every field of every format once, to a fixed list of extreme values. Here
each case, drawn from a seeded generator, forges one dataset at random, with every checksum the
forger can recompute recomputed (the helpers of test_forge.py):

- data_file / metadata / index / window: a random header or table field set to a random value
  (an extreme of its type, a random number, or the field's value plus or minus a little), or a
  random byte of the header and tables set to a random value;
- roaring: one of the invalid-container forgeries of test_forge.py on a random field, bin and
  container, or a random byte of a bitmap's container headers (cookie, keys, cardinalities,
  offsets) set to a random value;
- manifest: a random number or string of manifest.json replaced (an extreme or a nearby value);
- idx: a random line of a grid's .idx header replaced.

Then the read/query battery of its format (test_forge.py's BATTERY, SBATTERY, MIXED, and for
bitmaps the bin queries checked against numpy). Each read must raise a typed lodex error
(InternalError counts as a violation) or return exactly the unforged answer; the one documented
exceptions are `pruned_by_forged_range` (test_forge.py: a forged component range of a record that no
index holds, pruning a value query) and `level_sample_from_unread_counts` (a forged segment start
of a level a level read does not open, which the whole read of the step fails), counted apart. Any other answer is a
violation, and so is a
crash or a hang: the battery runs in a worker process with a timeout per case, and a worker that
dies or stalls is counted and replaced.

Prints a JSON summary (cases, errors by type, exact, documented differences, violations) and exits
1 on any violation.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "mpi_scripts")]

import numpy as np  # noqa: E402

import lodex  # noqa: E402
import lodex_testutil as tu  # noqa: E402
import test_forge as tf  # noqa: E402

KINDS = ("data_file", "metadata", "index", "roaring", "window", "manifest", "idx")
CASE_MARK = "FORGE_CASE "


# ------------------------------------------------------------------------------- pristine datasets

def build_pristine(root: str) -> None:
    """The unforged datasets of test_forge.py's fixtures, built once per campaign."""
    p = os.path.join(root, "f.lodex")
    with lodex.create(p) as ds:
        g = ds.define_particles("p", schema=tf.SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1),
                                lod={"brick_target": 64})
        for s in (0, 1):
            g.write(step=s, data=tf.data(s))
        g.build_index(fields=["energy"])
    s = os.path.join(root, "s.lodex")
    with lodex.create(s) as ds:
        ser = ds.define_series("s", dims=tf.SDIMS, variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=4, d_sar=0)
        for t in range(4):
            ser.write(t, ((0, 0, 0), tf.SDIMS), {"T": tf.svalues(t), "PS": tf.svalues(t)[0] * 2})
    m = os.path.join(root, "m.lodex")
    with lodex.create(m) as ds:
        g = ds.define_particles("p", schema=tf.SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1))
        for st in (0, 1):
            g.write(step=st, data=tf.data(st))
        ds.define_grid("g", dims=(9, 7, 5), dtype="f4", bits_per_block=4, blocks_per_file=2).write(
            0, ((0, 0, 0), (9, 7, 5)), np.arange(315, dtype=np.float32).reshape(5, 7, 9))
        ser = ds.define_series("s", dims=tf.SDIMS, variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=2, d_sar=0)
        for t in range(2):
            ser.write(t, ((0, 0, 0), tf.SDIMS), {"T": tf.svalues(t), "PS": tf.svalues(t)[0] * 2})
    b = os.path.join(root, "b.lodex")
    with lodex.create(b) as ds:
        g = ds.define_particles("p", schema=tf.BSCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(1, 1, 1))
        g.write(step=0, data=tf.bitmap_data())
        g.build_index(fields=list(tf.BFIELDS), precision=2)


# ------------------------------------------------------------------------------- random values

def random_value(rng: random.Random, fmt: str, old, extremes):
    """An extreme of the field's type, a random number of its type, or its value nudged."""
    code = fmt[-1]
    pick = rng.random()
    if pick < 0.4:
        return rng.choice(extremes)
    if code == "d":
        if pick < 0.7:
            return rng.choice([rng.uniform(-2, 2), rng.uniform(-1e6, 1e6),
                               math.ldexp(rng.random(), rng.randint(-1074, 1023))])
        return float(old) * rng.choice([1 + 1e-9, 1 - 1e-9, 0.5, 2.0]) + rng.choice([0.0, 1e-12, -1e-12])
    bits = {"B": 8, "I": 32, "i": 32, "Q": 64, "q": 64}[code]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if code in "iq" else (0, (1 << bits) - 1)
    if pick < 0.7:
        return rng.randint(lo, hi)
    return min(hi, max(lo, int(old) + rng.choice([-2, -1, 1, 2, 8, -8, 64, 4096])))


def field_or_byte(rng: random.Random, fields: list, raw: bytes, region: int):
    """(name, offset, fmt, value): a random field to a random value, or a random byte of the
    first `region` bytes to a random value."""
    if rng.random() < 0.65:
        name, offset, fmt, extremes = rng.choice(fields)
        old = struct.unpack_from(fmt, raw, offset)[0]
        return name, offset, fmt, random_value(rng, fmt, old, extremes)
    offset = rng.randrange(region)
    return f"byte@{offset}", offset, "<B", rng.randrange(256)


# ------------------------------------------------------------------------------- the documented class

def narrowed(meta, forged_raw: bytes, item: str) -> bool:
    """Whether the forged metadata narrows a record's component range (test_forge.py's
    `pruned_by_forged_range`: a range no index holds, or the query not using the index)."""
    K = meta["num_components"]
    stride = 64 + 8 + 96 + 24 + 16 * K
    if len(forged_raw) < 40 + stride * len(meta["records"]):
        return False
    for r, rec in enumerate(meta["records"]):
        for c in range(K):
            if c in tf.INDEXED_COMPONENTS and item != "scan":
                continue
            lo, hi = struct.unpack_from("<2d", forged_raw, 40 + stride * r + 192 + 16 * c)
            if not (lo <= rec["min"][c]) or not (hi >= rec["max"][c]):
                return True
    return False


# ------------------------------------------------------------------------------- one case

class Worker:
    """Runs cases in this process (the campaign's worker subprocess)."""

    def __init__(self, root: str):
        self.root = root
        self.want_p = {k: f(lodex.open(os.path.join(root, "f.lodex")).particles["p"]) for k, f in tf.BATTERY.items()}
        self.want_s = {k: f(lodex.open(os.path.join(root, "s.lodex")).series["s"]) for k, f in tf.SBATTERY.items()}
        mp = os.path.join(root, "m.lodex")
        self.want_m = {k: f(mp) for k, f in tf.MIXED.items()}
        self.bdata = tf.bitmap_data()
        sd = tu.step_dir(os.path.join(root, "f.lodex"), "p", 1)
        self.meta = tu.parse_spatial_metadata(os.path.join(sd, "spatial.lsm"))
        self.parsed = tu.parse_particle_file(os.path.join(sd, self.meta["records"][0]["file"]))

    @contextmanager
    def copy(self, name: str):
        work = tempfile.mkdtemp(prefix="lodex-forge-")
        path = os.path.join(work, name)
        shutil.copytree(os.path.join(self.root, name), path)
        try:
            yield path
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def case(self, seed: int, i: int) -> dict:
        rng = random.Random(f"{seed}:{i}")
        kind = KINDS[i % len(KINDS)] if i < len(KINDS) else rng.choice(KINDS)
        return {"case": i, "kind": kind, **getattr(self, "case_" + kind)(rng)}

    @staticmethod
    def outcome(battery: dict, opener, path: str, want: dict, documented=lambda item: False) -> dict:
        out = {}
        for item, f in battery.items():
            try:
                got = f(opener(path))
            except lodex.InternalError as e:
                out[item] = f"violation:InternalError: {str(e)[:300]}"
                continue
            except lodex.Error as e:
                out[item] = "error:" + type(e).__name__
                continue
            except Exception as e:   # noqa: BLE001 - a foreign exception is a violation
                out[item] = f"violation:{type(e).__name__}: {str(e)[:300]}"
                continue
            if tf.equal(got, want[item]):
                out[item] = "exact"
            elif item in tf.QUERIES and documented(item):
                out[item] = "pruned_by_forged_range"
            else:
                out[item] = "violation:silent difference"
        return out

    @staticmethod
    def level_sample_class(name: str, res: dict) -> dict:
        """The second documented class (docs/reliability.md, "Not kept"): a level read's sample
        of each brick is sized by the brick's count over every level, read from segment starts
        of levels it does not open. A forged segment start that changes only the level read, while
        the whole read of the step fails the moved segments' checksums, is that class."""
        if (name.startswith("segment_start[") and res.get("level") == "violation:silent difference"
                and str(res.get("read", "")).startswith("error:")):
            res = dict(res, level="level_sample_from_unread_counts")
        return res

    def particles_case(self, rng, forge, fields, raw, region) -> dict:
        name, offset, fmt, value = field_or_byte(rng, fields, raw, region)
        with self.copy("f.lodex") as path:
            forge(path, offset, fmt, value)
            sd = tu.step_dir(path, "p", 1)
            forged_meta = open(os.path.join(sd, "spatial.lsm"), "rb").read()
            res = self.outcome(tf.BATTERY, lambda p: lodex.open(p).particles["p"], path, self.want_p,
                               lambda item: narrowed(self.meta, forged_meta, item))
        return {"field": name, "value": repr(value), "results": self.level_sample_class(name, res)}

    def case_data_file(self, rng) -> dict:
        return self.particles_case(rng, tf.forge_data_file, tf.fields_data_file(self.parsed), self.parsed["raw"],
                                   self.parsed["tables_end"] - 8)

    def case_metadata(self, rng) -> dict:
        raw = self.meta["raw"]
        return self.particles_case(rng, tf.forge_metadata, tf.fields_metadata(self.meta), raw, len(raw) - 8)

    def case_index(self, rng) -> dict:
        sd = tu.step_dir(os.path.join(self.root, "f.lodex"), "p", 1)
        stem = self.meta["records"][0]["file"].rsplit(".", 1)[0]
        raw = open(os.path.join(sd, f"{stem}.energy.lbx"), "rb").read()
        comps = struct.unpack_from("<I", raw, 24)[0]
        return self.particles_case(rng, tf.forge_index, tf.fields_index(), raw, 128 + 64 * comps)

    def case_window(self, rng) -> dict:
        pristine = open(tf.window_file(os.path.join(self.root, "s.lodex")), "rb").read()
        V, C = struct.unpack_from("<II", pristine, 60)
        name, offset, fmt, value = field_or_byte(rng, tf.fields_window(pristine), pristine, 128 + 24 * V * C)
        with self.copy("s.lodex") as path:
            tf.forge_window(path, offset, fmt, value)
            res = self.outcome(tf.SBATTERY, lambda p: lodex.open(p).series["s"], path, self.want_s)
        return {"field": name, "value": repr(value), "results": res}

    def case_manifest(self, rng) -> dict:
        manifest = json.load(open(os.path.join(self.root, "m.lodex", "manifest.json")))
        where, old = rng.choice(list(tf.leaves(manifest)))
        if isinstance(old, (int, float)):
            value = (rng.choice(tf.EXTREME_NUMBERS) if rng.random() < 0.5
                     else old + rng.choice([-2, -1, 1, 2, 1000, 0.5]))
        else:
            value = rng.choice(tf.EXTREME_STRINGS) if rng.random() < 0.5 else \
                old[:-1] + chr(rng.randrange(32, 127)) if old else chr(rng.randrange(32, 127))
        with self.copy("m.lodex") as path:
            m = json.loads(json.dumps(manifest))
            tf.set_leaf(m, where, value)
            with open(os.path.join(path, "manifest.json"), "w") as fh:
                json.dump(m, fh)
            res = self.outcome(tf.MIXED, lambda p: p, path, self.want_m)
        return {"field": "/".join(map(str, where)), "value": repr(value), "results": res}

    def case_idx(self, rng) -> dict:
        lines = open(os.path.join(self.root, "m.lodex", "g.idx")).read().split("\n")
        i = rng.choice([k for k, ln in enumerate(lines) if ln and not ln.startswith("(")])
        old = lines[i]
        choices = ["0", "-1", "99999999999", old + " 1", "1 2 3 4 5 6", "V012", "./x/%04x.bin", "../g/%04x.bin",
                   "float64", "0 8 0 6 0 4", "time_%02d/", old[:-1] + str(rng.randrange(10)), old + "0",
                   " ".join(str(rng.randrange(-2, 40)) for _ in range(rng.randint(1, 7)))]
        value = rng.choice([c for c in choices if c != old])
        with self.copy("m.lodex") as path:
            with open(os.path.join(path, "g.idx"), "w") as fh:
                fh.write("\n".join(lines[:i] + [value] + lines[i + 1:]))
            res = self.outcome(tf.MIXED, lambda p: p, path, self.want_m)
        return {"field": f"line {i}", "value": repr(value), "results": res}

    def case_roaring(self, rng) -> dict:
        field = rng.choice(tf.BFIELDS)
        with self.copy("b.lodex") as path:
            ip = tf.index_path(path, field)
            pristine = open(ip, "rb").read()
            bins = [b for b in tf.index_bins(pristine) if b["count"] and not b["raw"]]
            for _ in range(50):
                b = rng.choice(bins)
                bm = bytearray(pristine[b["start"]:b["start"] + b["size"]])
                cs = tf.containers(bytes(bm))
                if rng.random() < 0.6:
                    what = rng.choice(sorted(tf.FORGERIES))
                    if tf.FORGERIES[what](bm, cs, rng.randrange(2)) is not None:
                        break
                else:
                    head = cs[0]["data"]   # the cookie, keys, cardinalities and offsets
                    at = rng.randrange(head)
                    old = bm[at]
                    bm[at] = rng.randrange(256)
                    what = f"byte@{at}"
                    if bm[at] != old:
                        break
            else:
                return {"field": field, "value": "no forgery found", "results": {}}
            raw = bytearray(pristine)
            raw[b["start"]:b["start"] + b["size"]] = bm
            tf.reseal_index(raw, b)
            with open(ip, "wb") as fh:
                fh.write(raw)
            res = {}
            for q in tf.bin_queries(field, b):
                try:
                    r = lodex.open(path).particles["p"].query(0, q, fields=["id"])
                except lodex.InternalError as e:
                    res[q] = f"violation:InternalError: {str(e)[:300]}"
                    continue
                except lodex.Error as e:
                    res[q] = "error:" + type(e).__name__
                    continue
                except Exception as e:   # noqa: BLE001
                    res[q] = f"violation:{type(e).__name__}: {str(e)[:300]}"
                    continue
                exact = np.array_equal(np.sort(r.data["id"]), tf.numpy_ids(self.bdata, q))
                res[q] = "exact" if exact else "violation:silent difference"
        return {"field": f"{field} bin {b['vmin']}", "value": what, "results": res}


def worker_main(root: str, seed: int, start: int, end: int) -> None:
    w = Worker(root)
    for i in range(start, end):
        print(f"{CASE_MARK}start {i}", flush=True)
        print(CASE_MARK + json.dumps(w.case(seed, i)), flush=True)


# ------------------------------------------------------------------------------- the campaign

class Runner:
    """Runs the cases in worker subprocesses; a worker that crashes or stalls is counted."""

    def __init__(self, root: str, seed: int, timeout: float):
        self.root, self.seed, self.timeout = root, seed, timeout

    def run(self, start: int, end: int, record) -> None:
        i = start
        while i < end:
            i = self.run_worker(i, end, record)

    def run_worker(self, start: int, end: int, record) -> int:
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", self.root, str(self.seed), str(start), str(end)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        lines: list[str] = []
        done = threading.Event()

        def read():
            for ln in proc.stdout:
                lines.append(ln)
            done.set()
        threading.Thread(target=read, daemon=True).start()
        err: list[str] = []
        threading.Thread(target=lambda: err.extend(proc.stderr), daemon=True).start()
        current, seen, last = None, 0, time.monotonic()
        while True:
            while seen < len(lines):
                ln = lines[seen]
                seen += 1
                if not ln.startswith(CASE_MARK):
                    continue
                body = ln[len(CASE_MARK):].strip()
                if body.startswith("start "):
                    current, last = int(body.split()[1]), time.monotonic()
                else:
                    record(json.loads(body))
                    current = None
            if done.is_set() and seen == len(lines):
                proc.wait()
                if current is None and proc.returncode == 0:
                    return end
                what = (f"crash (exit code {proc.returncode})" if current is not None
                        else f"worker exit {proc.returncode}")
                record({"case": current, "kind": "?",
                        "results": {"worker": f"violation:{what}: {''.join(err)[-600:]}"}})
                return (current if current is not None else start) + 1
            if current is not None and time.monotonic() - last > self.timeout:
                os.killpg(proc.pid, 9)
                proc.wait()
                record({"case": current, "kind": "?", "results": {"worker": f"violation:hang (> {self.timeout} s)"}})
                return current + 1
            time.sleep(0.01)


def campaign(cases: int, seed: int, timeout: float = 60) -> dict:
    t0 = time.monotonic()
    summary = {"cases": 0, "reads": 0, "by_kind": {k: 0 for k in KINDS}, "errors_by_type": {}, "exact": 0,
               "documented_differences": {"pruned_by_forged_range": 0, "level_sample_from_unread_counts": 0},
               "cases_all_exact": 0,
               "violations": 0, "violation_details": []}

    def record(r: dict) -> None:
        summary["cases"] += 1
        if r["kind"] in summary["by_kind"]:
            summary["by_kind"][r["kind"]] += 1
        bad = False
        for item, res in r["results"].items():
            summary["reads"] += 1
            if res == "exact":
                summary["exact"] += 1
            elif res.startswith("error:"):
                t = res[len("error:"):]
                summary["errors_by_type"][t] = summary["errors_by_type"].get(t, 0) + 1
            elif res in summary["documented_differences"]:
                summary["documented_differences"][res] += 1
            else:
                summary["violations"] += 1
                bad = True
                summary["violation_details"].append({k: r.get(k) for k in ("case", "kind", "field", "value")}
                                                    | {"item": item, "what": res})
        summary["cases_all_exact"] += bool(r["results"]) and all(v == "exact" for v in r["results"].values())
        if bad:
            print(f"violation: {json.dumps(r)[:800]}", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="lodex-forgec-") as root:
        build_pristine(root)
        Runner(root, seed, timeout).run(0, cases, record)
    summary["seconds"] = round(time.monotonic() - t0, 1)
    summary["seed"] = seed
    return summary


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker_main(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--timeout", type=float, default=60, help="seconds per case (a hang)")
    a = ap.parse_args()
    s = campaign(a.cases, a.seed, a.timeout)
    print(json.dumps(s, indent=1))
    return 1 if s["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
