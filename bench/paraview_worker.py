"""Run by pvpython on an Xvfb display (bench/paraview.py): open one particle step in ParaView and
time it to the first rendered frame. Prints one JSON line.

Usage: pvpython paraview_worker.py METHOD PATH STEP [VALUE] LOADER
METHOD: "default" (lodex plugin, nothing set: the level it opens at), "level" (lodex plugin,
Level=VALUE), "fraction" (lodex plugin, Fraction=VALUE), "full" (lodex plugin, every particle:
Level=-1), "h5part" (ParaView's H5PartReader on an H5Part export), "vtp" (ParaView's own
XMLPolyDataReader on a .vtp file: ParaView's floor for the same points and fields), "firstread"
(as "default", but the plugin's lodex worker stopped before the clock starts, so that the first
request starts it again: the plugin before it started the worker as it loads).
LOADER: the script `lodex paraview-plugin --loader` wrote (not timed; loaded for every method, so
that every run's ParaView is the same).

Also the CPU time of the same span: ParaView's process (every thread, Mesa's included) and the
plugin's lodex worker, a figure the machine's load changes far less than the clock's.

The path timed is what ParaView's Apply does for a new reader: the reader's update, Show, the
Points representation coloured by energy, a camera reset without a render (paraview.simple's
ResetCamera() would render once more) and one Render().

    pvpython paraview_worker.py write-vtp NPZ OUT.vtp N
writes the arrays of NPZ (one of "position", the rest point fields) as a .vtp file of its first N
points (-1: all), vertices as the plugin makes them, uncompressed (nothing to inflate).
"""
import json
import os
import sys
import time

# This directory holds bench/paraview.py, which would shadow ParaView's own `paraview` package.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]


def write_vtp(npz, out, n):
    import numpy as np
    from vtkmodules.util.numpy_support import numpy_to_vtk
    from vtkmodules.vtkCommonCore import vtkPoints
    from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
    from vtkmodules.vtkIOXML import vtkXMLPolyDataWriter
    arrays = dict(np.load(npz))
    n = len(arrays["position"]) if n < 0 else n
    data = vtkPolyData()
    points = vtkPoints()
    points.SetData(numpy_to_vtk(np.ascontiguousarray(arrays.pop("position")[:n]), deep=1))
    data.SetPoints(points)
    cells = vtkCellArray()
    cells.SetData(1, numpy_to_vtk(np.arange(n, dtype=np.int64), deep=1))
    data.SetVerts(cells)
    for name, a in arrays.items():
        v = numpy_to_vtk(np.ascontiguousarray(a[:n]), deep=1)
        v.SetName(name)
        data.GetPointData().AddArray(v)
    w = vtkXMLPolyDataWriter()
    w.SetFileName(out)
    w.SetInputData(data)
    w.SetDataModeToAppended()
    w.EncodeAppendedDataOff()
    w.SetCompressorTypeToNone()
    if not w.Write():
        raise SystemExit(f"could not write {out}")


def plugin_module():
    return next((m for m in list(sys.modules.values()) if hasattr(m, "_Worker") and hasattr(m, "LodexParticlesReader")),
                None)


def worker_cpu():
    """CPU seconds the plugin's lodex worker process has used (0 without one)."""
    plugin = plugin_module()
    w = plugin._Worker.current if plugin is not None else None
    if w is None:
        return 0.0
    with open(f"/proc/{w.proc.pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime + stime


if sys.argv[1] == "write-vtp":
    write_vtp(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    sys.exit(0)

method, path, step, value, loader = sys.argv[1:6]
t_load = time.perf_counter()
exec(open(loader).read())   # loads the plugin (and the alias Debian's ParaView 5.11 needs)
t_load = time.perf_counter() - t_load

from paraview import servermanager  # noqa: E402
from paraview.simple import (ColorBy, GetActiveViewOrCreate, H5PartReader, Render, Show,  # noqa: E402
                             XMLPolyDataReader)

view = GetActiveViewOrCreate("RenderView")
view.ViewSize = [800, 600]
view.OrientationAxesVisibility = 0
Render()   # the window and GL context exist before the clock starts

if method == "firstread" and plugin_module()._Worker.current is not None:
    plugin_module()._Worker.current.stop()
w0 = worker_cpu()
c0 = time.process_time()
t0 = time.perf_counter()
if method == "h5part":
    reader = H5PartReader(FileName=path)
elif method == "vtp":
    reader = XMLPolyDataReader(FileName=[path])
else:
    props = {"default": {}, "firstread": {}, "level": {"Level": int(value)},
             "fraction": {"Level": -1, "Fraction": float(value)}, "full": {"Level": -1}}[method]
    reader = LodexParticles(FileName=path, ReadStatistics=1, **props)  # noqa: F821 (the plugin's)
t_created = time.perf_counter()
reader.UpdatePipeline(float(step))
t_read = time.perf_counter()
display = Show(reader, view)
display.SetRepresentationType("Points")
ColorBy(display, ("POINTS", "energy"))
t_shown = time.perf_counter()
view.ResetCamera(False)
t_reset = time.perf_counter()
Render()
t1 = time.perf_counter()
cpu = {"paraview": time.process_time() - c0, "lodex_worker": worker_cpu() - w0}
info = reader.GetDataInformation()
stats = {}
if method not in ("h5part", "vtp"):
    fd = servermanager.Fetch(reader).GetFieldData() if info.GetNumberOfPoints() < 2_000_000 else None
    if fd is not None:
        for i in range(fd.GetNumberOfArrays()):
            stats[fd.GetArrayName(i)] = fd.GetArray(i).GetValue(0)
level = None
if method not in ("h5part", "vtp"):
    level = reader.Level[0] if hasattr(reader.Level, "__len__") else reader.Level
print(json.dumps({"method": method, "value": value, "points": info.GetNumberOfPoints(), "level": level,
                  "open_to_render_s": t1 - t0, "open_to_data_s": t_read - t0, "load_plugin_s": t_load,
                  "phases_s": {"create": t_created - t0, "update": t_read - t_created, "show": t_shown - t_read,
                               "reset_camera": t_reset - t_shown, "render": t1 - t_reset},
                  "cpu_s": cpu, "stats": stats}), flush=True)
