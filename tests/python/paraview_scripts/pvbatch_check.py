"""Run by every rank of `mpirun -np 2 pvbatch --symmetric` (ParaView's own Open MPI): load the plugin
through the loader script, read particles at a level and a grid, and print, on rank 0, the
totals ParaView gathers over the ranks as one JSON line.

Usage: pvbatch --symmetric pvbatch_check.py LOADER DATASET
"""
import json
import sys

exec(open(sys.argv[1]).read())

from paraview import servermanager  # noqa: E402

particles = LodexParticles(FileName=sys.argv[2], Level=1)  # noqa: F821 (the plugin's)
particles.UpdatePipeline(5.0)
grid = LodexGrid(FileName=sys.argv[2], Name="pg")  # noqa: F821
grid.UpdatePipeline(1.0)
if servermanager.vtkProcessModule.GetProcessModule().GetPartitionId() == 0:
    print(json.dumps({"ranks": servermanager.vtkProcessModule.GetProcessModule().GetNumberOfLocalPartitions(),
                      "particles": particles.GetDataInformation().GetNumberOfPoints(),
                      "grid_points": grid.GetDataInformation().GetNumberOfPoints()}), flush=True)
