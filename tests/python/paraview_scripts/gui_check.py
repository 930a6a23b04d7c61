"""Run by the ParaView GUI (paraview --script=THIS, under Xvfb): load lodex's plugin with the loader
script `lodex paraview-plugin --loader` wrote, read a step of particles, write the number of points
to a file and quit. Paths come from the environment (--script takes no arguments):
LODEX_TEST_LOADER, LODEX_TEST_DATASET, LODEX_TEST_STEP, LODEX_TEST_OUT."""
import os

exec(open(os.environ["LODEX_TEST_LOADER"]).read())

from paraview import servermanager  # noqa: E402

reader = LodexParticles(FileName=os.environ["LODEX_TEST_DATASET"])  # noqa: F821 (the plugin's)
reader.UpdatePipeline(float(os.environ["LODEX_TEST_STEP"]))
points = servermanager.Fetch(reader).GetNumberOfPoints()
with open(os.environ["LODEX_TEST_OUT"], "w") as f:
    f.write(f"{points}\n")
os._exit(0)   # the GUI would wait for its user
