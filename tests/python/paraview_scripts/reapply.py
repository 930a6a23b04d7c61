"""Run by pvpython: what a ParaView user sees after an error. One particle reader is shown in a
render view and its properties changed between renders (Show + Render, as Apply does): a valid
box, an inverted box (an error), another valid box with a level; then a group that does not
exist (an error of the information request) and the right one with another level (the stages
come from a JSON file: [[key, {property: value}], ...]). The view shows time 0. After each render
it records what the view's representation holds (its points and bounds), and at the end the
points and ids of the reader's output, into a JSON file.

Usage: pvpython reapply.py PLUGIN DATASET STAGES.json OUT.json
"""
import inspect
import json
import sys

# Debian 12's ParaView 5.11 imports inspect.getargspec, which Python 3.11 removed.
if not hasattr(inspect, "getargspec"):
    inspect.getargspec = inspect.getfullargspec

from paraview import servermanager  # noqa: E402
from paraview.simple import GetActiveViewOrCreate, LoadPlugin, Render, Show  # noqa: E402
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402

plugin, dataset, stages_path, out_path = sys.argv[1:5]
LoadPlugin(plugin, ns=globals())
reader = LodexParticles(FileName=dataset, UseBox=1)  # noqa: F821 (the plugin's)
view = GetActiveViewOrCreate("RenderView")
view.ViewTime = 0.0
seen = {}
for key, props in json.load(open(stages_path)):
    for name, value in props.items():
        setattr(reader, name, value)
    display = Show(reader, view)
    Render(view)
    info = display.GetRepresentedDataInformation()
    seen[key] = {"points": info.GetNumberOfPoints(), "bounds": list(info.GetBounds())}
data = servermanager.Fetch(reader)
seen["output"] = {"points": vtk_to_numpy(data.GetPoints().GetData()).tolist(),
                  "id": vtk_to_numpy(data.GetPointData().GetArray("id")).tolist()}
with open(out_path, "w") as f:
    json.dump(seen, f)
print("reapply: done", flush=True)
