"""Run by pvpython: what a reader gives a user who sets nothing but the file: create each reader
of a JSON list of cases with only the properties given, read at the given time, show it in a
render view, and record its properties (values after ParaView applied the defaults), its
information properties, the choices of its Name and Variable drop-down lists, the points read,
the output's field data arrays and what the view colours by, into a JSON file. Then, for each
file of a list, the lodex readers ParaView's reader factory offers for it (File > Open), and for
each path of a third list what OpenDataFile makes of it: the reader, its RegistrationName and the
points of its first time step.

Usage: pvpython defaults.py PLUGIN CASES.json OUT.json
CASES.json: {"cases": [{"key": ..., "reader": "LodexParticles" | "LodexGrid" | "LodexSeries",
                        "props": {property: value}, "time": t}, ...], "files": [path, ...],
             "open": [path, ...]}
Written: {"<key>": {"props": {name: [values]}, "lists": {name: [choices]}, "points": n,
"field_data": [names], "color": [association, array]}, "offered": {path: [reader labels]},
"opened": {path: {"reader": label, "registration": name, "points": n}}}.
"""
import inspect
import json
import sys

# Debian 12's ParaView 5.11 imports inspect.getargspec, which Python 3.11 removed.
if not hasattr(inspect, "getargspec"):
    inspect.getargspec = inspect.getfullargspec

from paraview import servermanager  # noqa: E402
from paraview.simple import Delete, GetActiveViewOrCreate, LoadPlugin, OpenDataFile, Show  # noqa: E402

plugin, cases_path, out_path = sys.argv[1:4]
LoadPlugin(plugin, ns=globals())


def values(proxy, name):
    p = proxy.GetProperty(name)
    return [p.GetElement(i) for i in range(p.GetNumberOfElements())]


def choices(proxy, name):
    p = proxy.GetProperty(name)
    domain = p.FindDomain("vtkSMStringListDomain") if p is not None else None
    return None if domain is None else [domain.GetString(i) for i in range(domain.GetNumberOfStrings())]


todo = json.load(open(cases_path))
view = GetActiveViewOrCreate("RenderView")
out = {}
for case in todo["cases"]:
    reader = globals()[case["reader"]](**case["props"])
    reader.UpdatePipeline(case["time"])
    reader.UpdatePropertyInformation()
    names = [n for n in reader.ListProperties() if n not in ("Fields", "FieldsInfo", "ReloadPythonModule")]
    data = servermanager.Fetch(reader)
    fd = data.GetFieldData()
    view.ViewTime = case["time"]
    display = Show(reader, view)
    out[case["key"]] = {"props": {n: values(reader, n) for n in names},
                        "lists": {n: choices(reader, n) for n in ("Name", "Variable")},
                        "points": data.GetNumberOfPoints(),
                        "field_data": [fd.GetArrayName(i) for i in range(fd.GetNumberOfArrays())],
                        "color": list(display.ColorArrayName)}
factory = servermanager.vtkSMProxyManager.GetProxyManager().GetReaderFactory()
out["offered"] = {}
for path in todo["files"]:
    found = factory.GetPossibleReaders(path, servermanager.ActiveConnection.Session)
    triples = [found.GetString(i) for i in range(found.GetLength())] if found is not None else []
    out["offered"][path] = sorted(triples[i + 2] for i in range(0, len(triples) - 2, 3)
                                  if triples[i + 1].startswith("Lodex"))
out["opened"] = {}
for path in todo.get("open", []):
    reader = OpenDataFile(path)
    reader.UpdatePipeline(values(reader, "TimestepValues")[0])
    reader.UpdatePropertyInformation()
    out["opened"][path] = {"reader": reader.GetXMLLabel(), "registration": values(reader, "RegistrationName")[0],
                           "points": servermanager.Fetch(reader).GetNumberOfPoints()}
    Delete(reader)
with open(out_path, "w") as f:
    json.dump(out, f)
print("defaults: done", flush=True)
