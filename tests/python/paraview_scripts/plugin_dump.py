"""Run by pvpython: load lodex's reader plugin, run the reads a JSON file lists and save what
ParaView got into an .npz; then draw the first case's output and save a screenshot.

Usage: pvpython plugin_dump.py PLUGIN CASES.json OUT.npz SCREENSHOT.png
CASES.json: [{"key": ..., "reader": "LodexParticles" | "LodexGrid" | "LodexSeries",
              "props": {property: value}, "time": t}, ...]
Keys written per case: "<key>/times", "<key>/points" (particles) or "<key>/image" (extent,
origin, spacing: 12 numbers), "<key>/array/<name>", "<key>/stat/<name>" (field data), and
"<key>/points_count". A case whose read fails (a bad-input case) writes only "<key>/failed".
After the cases: "screenshot/pixels" (the PNG read back).
"""
import inspect
import json
import sys

import numpy as np

# Debian 12's ParaView 5.11 imports inspect.getargspec, which Python 3.11 removed.
if not hasattr(inspect, "getargspec"):
    inspect.getargspec = inspect.getfullargspec

from paraview import servermanager  # noqa: E402
from paraview.simple import (ColorBy, GetActiveViewOrCreate, LoadPlugin, Render, ResetCamera,  # noqa: E402
                             SaveScreenshot, Show)
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402
from vtkmodules.vtkIOImage import vtkPNGReader  # noqa: E402

plugin, cases_path, out_path, png = sys.argv[1:5]
LoadPlugin(plugin, ns=globals())
out = {}
first = None
for case in json.load(open(cases_path)):
    key = case["key"]
    reader = globals()[case["reader"]](**case["props"])
    reader.UpdatePipelineInformation()
    times = reader.TimestepValues
    out[f"{key}/times"] = np.asarray(list(times) if hasattr(times, "__len__") else [times], dtype=np.float64)
    reader.UpdatePipeline(case["time"])
    data = servermanager.Fetch(reader)
    if data is None or data.GetPointData().GetNumberOfArrays() == 0 and data.GetNumberOfPoints() == 0:
        out[f"{key}/failed"] = np.array([1])
        print(f"plugin_dump: case {key} gave no data", flush=True)
        continue
    if data.IsA("vtkPolyData"):
        out[f"{key}/points"] = vtk_to_numpy(data.GetPoints().GetData())
        out[f"{key}/verts"] = np.array([data.GetNumberOfVerts()])
    else:
        out[f"{key}/image"] = np.array(list(data.GetExtent()) + list(data.GetOrigin()) + list(data.GetSpacing()))
    pd = data.GetPointData()
    for i in range(pd.GetNumberOfArrays()):
        out[f"{key}/array/{pd.GetArrayName(i)}"] = vtk_to_numpy(pd.GetArray(i))
    fd = data.GetFieldData()
    for i in range(fd.GetNumberOfArrays()):
        out[f"{key}/stat/{fd.GetArrayName(i)}"] = vtk_to_numpy(fd.GetArray(i))
    if first is None:
        first = reader

view = GetActiveViewOrCreate("RenderView")
view.OrientationAxesVisibility = 0   # nothing on the picture but the data
display = Show(first, view)
ColorBy(display, ("POINTS", "energy"))
ResetCamera()
Render()
SaveScreenshot(png, ImageResolution=[320, 240])
r = vtkPNGReader()
r.SetFileName(png)
r.Update()
image = r.GetOutput()
dims = image.GetDimensions()
out["screenshot/pixels"] = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(dims[1], dims[0], -1)
np.savez(out_path, **out)
print("plugin_dump: done", flush=True)
