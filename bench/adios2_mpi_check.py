"""Checks ADIOS2 built with MPI (`make bench-peers`) the way a benchmark worker uses it.

Usage:

    make bench-peers && .venv/bin/mpiexec -n 4 .venv/bin/python bench/adios2_mpi_check.py
    .venv/bin/mpiexec -n 3 .venv/bin/python bench/adios2_mpi_check.py --rows 5000 --keep --dir /tmp/a2

Imports the MPI-built adios2 from its own prefix (bench_common.import_adios2_mpi: the serial wheel
in the venv has the same module name), then, for each write configuration below, all ranks write
one BP5 dataset collectively on MPI.COMM_WORLD: a global array variable per field of the Uintah
particle schema (the particle benchmark's), each rank putting its block at its offset (shape =
total rows, start = the rank's first row, count = its rows; ranks hold different row counts), two
steps with different values, then close. Rank 0 then reads every step of every variable back
serially, first with the same MPI build (an ADIOS object without a communicator), then in a child
process with PyPI's serial adios2 wheel, and compares every value with numpy (exact equality).

Configurations: BP5 with no parameter set (ADIOS2's defaults), BP5 with AsyncWrite=On (the
asynchronous data write: "On" means "Guided" in BP5's parameter parser), both through
IO.define_variable + Engine.put (deferred), and the high-level adios2.Stream(path, "w", comm) with
Stream.write (defaults, sync puts). For each it prints the files BP5 wrote (data.* = subfiles, one
per aggregator) and the aggregation BP5 used (the InitAgg timer of its profiling.json: -tls =
TwoLevelShm, -ew = EveryoneWrites, -dsb = DataSizeBased; -async with AsyncWrite).

Exit status 0 when every value of every configuration matches; 1 on any mismatch or error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from lodex.workloads import UINTAH_SCHEMA   # importing lodex starts no MPI and no adios2

HERE = os.path.dirname(os.path.abspath(__file__))

# The fields of the particle benchmark: name -> dtype or (dtype, components).
SCHEMA = UINTAH_SCHEMA
STEPS = 2
CONFIGS = [
    ("default", {}, "engine"),
    ("AsyncWrite=On", {"AsyncWrite": "On"}, "engine"),
    ("Stream, default", None, "stream"),
]


def rows_of(rank: int, rows: int) -> int:
    """Rows of a rank: not all equal, so that wrong offsets cannot pass."""
    return rows + 37 * rank


def block(rank: int, step: int, rows: int) -> dict[str, np.ndarray]:
    """The particles a rank writes at a step (deterministic: any process can regenerate them)."""
    n = rows_of(rank, rows)
    first = sum(rows_of(r, rows) for r in range(rank))
    rng = np.random.default_rng([20261126, rank, step])
    out = {}
    for name, spec in SCHEMA.items():
        dtype, comps = (spec, None) if isinstance(spec, str) else spec
        shape = (n,) if comps is None else (n, comps)
        out[name] = rng.standard_normal(shape).astype(dtype)
    out["id"] = (np.arange(first, first + n) + 1_000_000 * step).astype("f8")
    return out


def expected(nranks: int, step: int, rows: int) -> dict[str, np.ndarray]:
    blocks = [block(r, step, rows) for r in range(nranks)]
    return {k: np.concatenate([b[k] for b in blocks]) for k in SCHEMA}


def selection(arr: np.ndarray, first: int, total: int) -> tuple[list[int], list[int], list[int]]:
    """shape, start, count of a rank's block of a global array (rows along the first dimension)."""
    rest = list(arr.shape[1:])
    return [total, *rest], [first, *[0] * len(rest)], list(arr.shape)


def write(adios2, comm, path: str, params: dict | None, api: str, rows: int) -> None:
    """All ranks write the two steps into one BP5 dataset, collectively on comm."""
    rank, size = comm.rank, comm.size
    total = sum(rows_of(r, rows) for r in range(size))
    first = sum(rows_of(r, rows) for r in range(rank))
    steps = [block(rank, s, rows) for s in range(STEPS)]
    if api == "engine":
        adios = adios2.Adios(comm=comm)
        io = adios.declare_io("particles")
        io.set_engine("BP5")
        io.set_parameters(params)          # before open: BP5 reads its parameters at open
        var = {k: io.define_variable(k, a, *selection(a, first, total)) for k, a in steps[0].items()}
        engine = io.open(path, adios2.Mode.Write)     # collective on the Adios object's comm
        for data in steps:
            engine.begin_step()
            for k, a in data.items():
                engine.put(var[k], a)      # deferred: `a` must stay alive until end_step
            engine.end_step()
        engine.close()
    else:
        with adios2.Stream(path, "w", comm) as s:
            for data in steps:
                s.begin_step()
                for k, a in data.items():
                    s.write(k, a, *selection(a, first, total))
                s.end_step()


def compare(adios2, path: str, nranks: int, rows: int) -> list[str]:
    """Reads every step of every variable of the dataset serially; returns the mismatches."""
    problems = []
    with adios2.FileReader(path) as f:
        have = f.available_variables()
        if sorted(have) != sorted(SCHEMA):
            return [f"variables {sorted(have)} != {sorted(SCHEMA)}"]
        if f.num_steps() != STEPS:
            problems.append(f"{f.num_steps()} steps, not {STEPS}")
        for step in range(STEPS):
            want = expected(nranks, step, rows)
            for k, a in want.items():
                shape = [int(x) for x in have[k]["Shape"].split(",")]
                if shape != list(a.shape):
                    problems.append(f"{k}: shape {shape} != {list(a.shape)}")
                    continue
                got = f.read(k, [0] * a.ndim, list(a.shape), step_selection=[step, 1])
                if got.dtype != a.dtype or got.shape != a.shape or not np.array_equal(got, a):
                    bad = int((got != a).sum()) if got.shape == a.shape else "shape"
                    problems.append(f"step {step} {k}: {got.dtype}{got.shape} vs {a.dtype}{a.shape}, "
                                    f"{bad} values differ")
    return problems


def describe(path: str) -> dict:
    """The files of a BP5 dataset and the aggregation its profiling.json names."""
    files = sorted(os.listdir(path))
    agg = None
    prof = os.path.join(path, "profiling.json")
    if os.path.exists(prof):
        with open(prof) as fh:
            found = sorted(set(re.findall(r"InitAgg[-a-z]*", fh.read())))
        agg = found or None
    return {"files": {f: os.path.getsize(os.path.join(path, f)) for f in files},
            "subfiles": sum(1 for f in files if re.fullmatch(r"data\.\d+", f)),
            "aggregation_timer": agg}


def verify_with_wheel(path: str, nranks: int, rows: int) -> list[str]:
    """compare() in a child process that imports the venv's serial adios2 wheel."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--verify-serial-wheel", path,
                        "--ranks", str(nranks), "--rows", str(rows)],
                       capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != 0:
        return [f"serial wheel reader failed ({p.returncode}): {p.stdout[-2000:]}{p.stderr[-2000:]}"]
    return json.loads(p.stdout.strip().splitlines()[-1])["problems"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=32768, help="rows of rank 0 (rank r has rows + 37 r)")
    ap.add_argument("--dir", help="where the datasets go (default: a new folder in /tmp)")
    ap.add_argument("--keep", action="store_true", help="keep the datasets")
    ap.add_argument("--verify-serial-wheel", metavar="PATH", help=argparse.SUPPRESS)
    ap.add_argument("--ranks", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.verify_serial_wheel:   # the child: the serial wheel, no MPI
        import adios2
        assert not adios2.is_built_with_mpi, adios2.__file__
        problems = compare(adios2, args.verify_serial_wheel, args.ranks, args.rows)
        print(json.dumps({"adios2": adios2.__file__, "version": adios2.__version__, "problems": problems}))
        return 0

    sys.path.insert(0, HERE)
    from bench_common import import_adios2_mpi
    adios2 = import_adios2_mpi()       # before anything else imports adios2
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size

    base = None
    if rank == 0:
        base = os.path.join(args.dir, f"np{size}") if args.dir else tempfile.mkdtemp(prefix="adios2-mpi-check-")
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(base)
        total = sum(rows_of(r, args.rows) for r in range(size))
        print(f"adios2 {adios2.__version__} with MPI from {os.path.dirname(adios2.__file__)}")
        print(f"MPI: {MPI.Get_library_version().splitlines()[0].strip()}; {size} ranks, "
              f"{total} rows in all, {len(SCHEMA)} variables, {STEPS} steps")
    base = comm.bcast(base)

    ok = True
    for label, params, api in CONFIGS:
        path = os.path.join(base, re.sub(r"\W+", "_", label).strip("_") + ".bp")
        error = None
        try:
            write(adios2, comm, path, params, api, args.rows)
        except Exception as e:   # noqa: BLE001 - reported, and the exit status says it
            error = f"{type(e).__name__}: {e}"
        errors = [e for e in comm.gather(error) or [] if e]
        if rank == 0:
            if errors:
                problems = [f"write failed: {errors[0]}"]
            else:
                try:
                    problems = [f"MPI build: {p}" for p in compare(adios2, path, size, args.rows)]
                except Exception as e:   # noqa: BLE001
                    problems = [f"MPI build: read failed: {type(e).__name__}: {e}"]
                problems += [f"serial wheel: {p}" for p in verify_with_wheel(path, size, args.rows)]
            info = describe(path) if os.path.isdir(path) else {"files": {}, "subfiles": 0, "aggregation_timer": None}
            verdict = "OK: every value equal (MPI build and serial wheel)" if not problems else "MISMATCH"
            print(f"\n[{label}] {verdict}")
            print(f"  subfiles (data.*): {info['subfiles']}; aggregation: {info['aggregation_timer']}")
            print("  files: " + ", ".join(f"{f} ({n} B)" for f, n in info["files"].items()))
            for p in problems:
                print(f"  - {p}")
            ok = ok and not problems
        comm.Barrier()

    ok = comm.bcast(ok)
    if rank == 0:
        print(f"\n{'PASS' if ok else 'FAIL'}: {size} ranks" + (f"; datasets kept in {base}" if args.keep else ""))
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
