"""``lodex calibrate``: BW_io, Ts and CC (series' OptSize) measured on a directory's file system."""

from __future__ import annotations

import argparse

from .. import errors
from ..calibrate import calibrate
from ._common import _progress, _reporter, _world_if_mpi


def _calibrate(args: argparse.Namespace) -> int:
    comm = _world_if_mpi()   # under mpiexec: CC between rank 0 and the last rank; rank 0 prints
    if not 0 < args.size < float("inf"):
        raise errors.InvalidArgumentError(f"--size is in MiB and must be positive, got {args.size}")
    with _progress(args, comm, None, f"calibrating {args.directory}", unit="pass") as bar:
        cal = calibrate(args.directory, comm, size=int(args.size * (1 << 20)), repeats=args.repeats,
                        progress=_reporter(bar))
    if comm is not None and comm.rank != 0:
        return 0
    if args.out:
        cal.save(args.out)
    if args.json:
        print(cal.to_json())
        return 0
    print(f"calibration of {cal.directory}: a {cal.size / (1 << 20):g} MiB scratch file read "
          f"{cal.repeats} times, {'cold' if cal.cold else 'WARM'} ({cal.cold_method})")
    print(f"  BW_io    {cal.bw_io / 1e6:12.1f} MB/s")
    print(f"  Ts       {cal.ts * 1e3:12.4f} ms")
    print(f"  CC       {cal.cc * 1e6:12.2f} \u00b5s   ({cal.cc_method})")
    print(f"  OptSize  {cal.opt_size:12,} bytes = BW_io x (CC + Ts)")
    print(f"  fit: {cal.fit}")
    print(f"  {'request':>10}  {'median ms':>10}  {'fit ms':>10}  {'MB/s':>8}")
    for nbytes, t in cal.table:
        size = f"{nbytes >> 20} MiB" if nbytes >= 1 << 20 else f"{nbytes >> 10} KiB"
        print(f"  {size:>10}  {t * 1e3:10.4f}  {cal.predicted(nbytes) * 1e3:10.4f}  {nbytes / t / 1e6:8.1f}")
    if args.out:
        print(f"wrote {args.out} (use it as ds.define_series(..., calibration={args.out!r}))")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("calibrate", help="measure BW_io, Ts and CC (series' OptSize) on a directory's "
                                          "file system (under mpiexec: CC between ranks)")
    p.add_argument("directory", help="where the series will be written (a scratch file goes there)")
    p.add_argument("--size", type=float, default=64, help="scratch file size in MiB (default 64, at least 1)")
    p.add_argument("--repeats", type=int, default=5, help="passes over the request sizes (default 5)")
    p.add_argument("--out", help="save the calibration as JSON (for ds.define_series(..., calibration=PATH))")
    p.add_argument("--json", action="store_true", help="print the calibration as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    p.set_defaults(func=_calibrate)
