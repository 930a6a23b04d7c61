"""Run by pvpython without LODEX_PYTHON: load the plugin copied into an installation-like tree
(<prefix>/lib/pythonX.Y/site-packages/lodex/paraview/) and read a step of particles: the plugin
finds <prefix>/bin/pythonX.Y by itself. Prints "points <n>".

Usage: pvpython autodetect.py PLUGIN DATASET STEP
"""
import inspect
import sys

# Debian 12's ParaView 5.11 imports inspect.getargspec, which Python 3.11 removed.
if not hasattr(inspect, "getargspec"):
    inspect.getargspec = inspect.getfullargspec

from paraview import servermanager  # noqa: E402
from paraview.simple import LoadPlugin  # noqa: E402

LoadPlugin(sys.argv[1], ns=globals())
reader = LodexParticles(FileName=sys.argv[2])  # noqa: F821 (the plugin's)
reader.UpdatePipeline(float(sys.argv[3]))
print("points", servermanager.Fetch(reader).GetNumberOfPoints(), flush=True)
