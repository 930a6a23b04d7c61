"""Run by pvpython: load the plugin and report its worker process before any reader exists and
after a read of particles, with pvpython's child processes running lodex.paraview.worker.
Prints one JSON line {"before": pid or null, "after": pid or null, "workers": [pid, ...],
"points": n}.

Usage: pvpython early_worker.py PLUGIN DATASET STEP
"""
import inspect
import json
import os
import sys

# Debian 12's ParaView 5.11 imports inspect.getargspec, which Python 3.11 removed.
if not hasattr(inspect, "getargspec"):
    inspect.getargspec = inspect.getfullargspec

from paraview import servermanager  # noqa: E402
from paraview.simple import LoadPlugin  # noqa: E402

LoadPlugin(sys.argv[1], ns=globals())
plugin = next(m for m in list(sys.modules.values()) if hasattr(m, "_Worker") and hasattr(m, "LodexParticlesReader"))


def worker_pid():
    w = plugin._Worker.current
    return w.proc.pid if w is not None and w.proc.poll() is None else None


def workers():
    """pvpython's children that run lodex.paraview.worker."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and b"lodex.paraview.worker" in cmd:
            found.append(int(entry))
    return found


before = worker_pid()
reader = LodexParticles(FileName=sys.argv[2])  # noqa: F821 (the plugin's)
reader.UpdatePipeline(float(sys.argv[3]))
print(json.dumps({"before": before, "after": worker_pid(), "workers": workers(),
                  "points": servermanager.Fetch(reader).GetNumberOfPoints()}), flush=True)
