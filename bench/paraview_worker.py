"""Run by pvpython on an Xvfb display (bench/paraview.py): open one particle step in ParaView and
time it to the first rendered frame. Prints one JSON line.

Usage: pvpython paraview_worker.py METHOD PATH STEP [VALUE] LOADER
METHOD: "default" (lodex plugin, nothing set: the level it opens at), "level" (lodex plugin,
Level=VALUE), "fraction" (lodex plugin, Fraction=VALUE), "full" (lodex plugin, every particle:
Level=-1), "h5part" (ParaView's H5PartReader on an H5Part export).
LOADER: the script `lodex paraview-plugin --loader` wrote (not timed).
"""
import json
import os
import sys
import time

# This directory holds bench/paraview.py, which would shadow ParaView's own `paraview` package.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]

method, path, step, value, loader = sys.argv[1:6]
exec(open(loader).read())   # loads the plugin (and the alias Debian's ParaView 5.11 needs)

from paraview import servermanager  # noqa: E402
from paraview.simple import (ColorBy, GetActiveViewOrCreate, H5PartReader, Render, ResetCamera,  # noqa: E402
                             Show)

view = GetActiveViewOrCreate("RenderView")
view.ViewSize = [800, 600]
view.OrientationAxesVisibility = 0
Render()   # the window and GL context exist before the clock starts

t0 = time.perf_counter()
if method == "h5part":
    reader = H5PartReader(FileName=path)
else:
    props = {"default": {}, "level": {"Level": int(value)}, "fraction": {"Level": -1, "Fraction": float(value)},
             "full": {"Level": -1}}[method]
    reader = LodexParticles(FileName=path, ReadStatistics=1, **props)  # noqa: F821 (the plugin's)
reader.UpdatePipeline(float(step))
t_read = time.perf_counter()
display = Show(reader, view)
display.SetRepresentationType("Points")
ColorBy(display, ("POINTS", "energy"))
ResetCamera()
Render()
t1 = time.perf_counter()
info = reader.GetDataInformation()
stats = {}
if method != "h5part":
    fd = servermanager.Fetch(reader).GetFieldData() if info.GetNumberOfPoints() < 2_000_000 else None
    if fd is not None:
        for i in range(fd.GetNumberOfArrays()):
            stats[fd.GetArrayName(i)] = fd.GetArray(i).GetValue(0)
level = reader.Level[0] if hasattr(reader.Level, "__len__") else reader.Level if method != "h5part" else None
print(json.dumps({"method": method, "value": value, "points": info.GetNumberOfPoints(), "level": level,
                  "open_to_render_s": t1 - t0, "open_to_data_s": t_read - t0, "stats": stats}), flush=True)
