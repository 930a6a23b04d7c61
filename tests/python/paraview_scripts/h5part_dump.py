"""Run by pvpython (ParaView's Python): open each H5Part file given with ParaView's H5PartReader
and save, per time value, the points and every point array into <out>.npz.

Usage: pvpython h5part_dump.py OUT.npz FILE.h5part [FILE.h5part ...]
Keys: "<file index>/times" (the reader's time values), "<file index>/<time index>/points",
"<file index>/<time index>/array/<name>".
"""
import sys

import numpy as np
from paraview import servermanager
from paraview.simple import H5PartReader
from vtkmodules.util.numpy_support import vtk_to_numpy

out = {}
for i, path in enumerate(sys.argv[2:]):
    reader = H5PartReader(FileName=path)
    reader.UpdatePipelineInformation()
    times = reader.TimestepValues
    times = list(times) if hasattr(times, "__len__") else [times]
    out[f"{i}/times"] = np.asarray(times, dtype=np.float64)
    for k, t in enumerate(times):
        reader.UpdatePipeline(t)
        data = servermanager.Fetch(reader)
        points = data.GetPoints()
        out[f"{i}/{k}/points"] = vtk_to_numpy(points.GetData()) if points else np.zeros((0, 3))
        pd = data.GetPointData()
        for a in range(pd.GetNumberOfArrays()):
            out[f"{i}/{k}/array/{pd.GetArrayName(a)}"] = vtk_to_numpy(pd.GetArray(a))
np.savez(sys.argv[1], **out)
print("h5part_dump: done")
