"""ParaView readers for lodex datasets (docs/paraview.md): a ParaView Python plugin.

Load it in ParaView (Tools > Manage Plugins > Load New..., this file) or in pvpython with
``LoadPlugin(path, ns=globals())``; ``python -m lodex.paraview`` prints ``path``. Three readers:

- ``LodexParticles``: a particle group as points (vtkPolyData with a vertex per particle), every
  chosen field a point array, the group's steps as ParaView's time; ``Level`` (-1: every level),
  ``Fraction``, ``UseBox`` and ``Box`` choose what is read.
- ``LodexGrid``: a grid (or any IDX file) as image data at ``Resolution`` (-1: full) inside
  ``Box`` (sample coordinates), one point array per chosen field, steps as time.
- ``LodexSeries``: one variable of a series as image data, its steps as time.

The reads run with lodex in a child process of lodex's own Python (``python -m
lodex.paraview.worker``, started as the plugin loads and kept), never in ParaView's: that Python
may have another numpy, another version, and ParaView's MPI library loaded (docs/paraview.md says
why). The Python is $LODEX_PYTHON, else the Python of the installation this file belongs to
(<prefix>/lib/pythonX.Y/site-packages/lodex/paraview/ -> <prefix>/bin/pythonX.Y). This file imports
only ParaView, VTK, numpy and the standard library.
"""

import atexit
import json
import os
import subprocess
import tempfile

import numpy as np
from paraview.util.vtkAlgorithm import VTKPythonAlgorithmBase, smdomain, smhint, smproperty, smproxy
from vtkmodules.util.numpy_support import numpy_to_vtk
from vtkmodules.vtkCommonCore import vtkDataArraySelection, vtkOutputWindow, vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkImageData, vtkPolyData
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline

PATTERNS = "manifest.json"
DESCRIPTION = "lodex dataset (its manifest.json)"
# A dataset's folder opens as itself (ParaView's is_directory reader hint), so that the pipeline
# item is named after it ("run.lodex") rather than "manifest.json"; only folders named *.lodex.
FOLDER_HINT = ('<ReaderFactory extensions="lodex" is_directory="1" '
               'file_description="lodex dataset (its .lodex folder)"/>')


class LodexError(Exception):
    """A read failed: the message names the lodex error class and says why."""


# ---------------------------------------------------------------------------------------------
# The child process
# ---------------------------------------------------------------------------------------------

def lodex_python():
    """The Python to run lodex with: $LODEX_PYTHON, else the one of this file's installation."""
    given = os.environ.get("LODEX_PYTHON")
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))   # <site>/lodex/paraview
    lib = os.path.dirname(os.path.dirname(os.path.dirname(here)))   # <prefix>/lib/pythonX.Y
    prefix = os.path.dirname(os.path.dirname(lib))
    for name in (os.path.basename(lib), "python3", "python"):
        candidate = os.path.join(prefix, "bin", name)
        if name.startswith("python") and os.access(candidate, os.X_OK):
            return candidate
    raise LodexError(f"cannot find the Python lodex is installed in (looked in {prefix}/bin for this "
                     f"plugin at {__file__}); set LODEX_PYTHON to it, e.g. /path/to/venv/bin/python")


class _Worker:
    """A running ``python -m lodex.paraview.worker``: one per ParaView process, shared by every
    reader, started as the plugin loads (_start_early) and again at a request when it has died or
    LODEX_PYTHON changed. It answers requests one JSON line at a time, so no read waits for Python
    to start and import lodex (but the first after a restart)."""

    current = None

    def __init__(self, python):
        env = dict(os.environ)
        env.pop("PYTHONHOME", None)   # ParaView's, not lodex's
        self.python = python
        self.err = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen([python, "-m", "lodex.paraview.worker"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=self.err, env=env)
        except OSError as e:
            self.err.close()
            raise LodexError(f"cannot run lodex's Python {python} ({e}); set LODEX_PYTHON to the Python "
                             "lodex is installed in") from None

    @classmethod
    def get(cls, python):
        w = cls.current
        if w is None or w.python != python or w.proc.poll() is not None:
            if w is not None:
                w.stop()
            cls.current = w = cls(python)
        return w

    def stop(self):
        if _Worker.current is self:
            _Worker.current = None
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.err.close()

    def failure(self, what):
        """LodexError for a worker that died or garbled its answer (then stopped)."""
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self.err.seek(0, os.SEEK_END)
        self.err.seek(max(0, self.err.tell() - 2000))
        tail = " ".join(self.err.read().decode(errors="replace").split())   # one line in ParaView's output
        code = self.proc.poll()
        self.stop()
        return LodexError(f"{self.python} -m lodex.paraview.worker {what} (exit code {code}): {tail or 'no output'}"
                          " -- is lodex installed in that Python? (LODEX_PYTHON)")

    def _read_exactly(self, n):
        buf = np.empty(n, dtype=np.uint8)
        view = memoryview(buf)
        got = 0
        while got < n:
            k = self.proc.stdout.readinto(view[got:])
            if not k:
                raise EOFError(f"the answer ended after {got} of {n} bytes")
            got += k
        return buf

    def ask(self, request):
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError("no answer")
            header = json.loads(line)
            arrays = {}
            for name, dtype, shape in header.get("arrays", []):
                dt = np.dtype(dtype)
                n = int(np.prod(shape, dtype=np.int64))
                arrays[name] = self._read_exactly(n * dt.itemsize).view(dt).reshape(shape)
        except (OSError, EOFError, ValueError) as e:
            raise self.failure(f"failed ({e})") from None
        return header, arrays


def call(request):
    """(meta, {name: array}) of one request to lodex.paraview.worker; LodexError on failure."""
    header, arrays = _Worker.get(lodex_python()).ask(request)
    if "error" in header:
        raise LodexError(f"{header['error']}: {header['message']}")
    return header["meta"], arrays


@atexit.register
def _stop_worker():
    if _Worker.current is not None:
        _Worker.current.stop()


def _start_early():
    """Start the worker as ParaView loads the plugin (at its start, with the plugin set to load
    automatically), so that opening a dataset later does not wait for Python to start and import
    lodex and numpy: about 0.3 s of the open here, the largest part of the reader's own. A Python
    that cannot be found or run is reported at the first read, as before."""
    try:
        _Worker.get(lodex_python())
    except LodexError:
        pass


_start_early()


def report(algorithm, error):
    """Show a failed read in ParaView's output (the Output Messages window; stderr in pvpython)."""
    vtkOutputWindow.GetInstance().DisplayErrorText(
        f"ERROR: lodex reader {type(algorithm).__name__}: {error}\n")


def _set_times(out_info, steps):
    key = vtkStreamingDemandDrivenPipeline
    out_info.Remove(key.TIME_STEPS())
    out_info.Remove(key.TIME_RANGE())
    if steps:
        out_info.Set(key.TIME_STEPS(), [float(s) for s in steps], len(steps))
        out_info.Set(key.TIME_RANGE(), [float(steps[0]), float(steps[-1])], 2)


def _step_at(out_info, steps):
    """The step ParaView asks for: the last step at or before the requested time."""
    key = vtkStreamingDemandDrivenPipeline.UPDATE_TIME_STEP()
    if not steps:
        raise LodexError("no committed steps to read")
    if not out_info.Has(key):
        return steps[0]
    t = out_info.Get(key)
    before = [s for s in steps if s <= t + 1e-9 * max(1.0, abs(t))]
    return before[-1] if before else steps[0]


def _vtk_array(name, a):
    """A VTK array (its own copy) of ``a``: one tuple per row, the rest of its axes components."""
    a = np.ascontiguousarray(a.reshape(a.shape[0], -1) if a.ndim > 1 else a)
    v = numpy_to_vtk(a, deep=1)
    v.SetName(name)
    return v


def _add_stats(data, stats):
    """The read's statistics (lodex's last_read_stats) as field data ``lodex_<name>``."""
    for k, v in stats.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            data.GetFieldData().AddArray(_vtk_array(f"lodex_{k}", np.array([v], dtype=np.float64)))


def _stamp(path):
    """The modification time of a dataset's manifest (or an .idx file), None if it is missing."""
    target = os.path.join(path, "manifest.json") if os.path.isdir(path) else path
    try:
        return os.stat(target).st_mtime_ns
    except OSError:
        return None


def registration_name(path, name):
    """``<dataset>: <name>`` for a dataset's folder or manifest.json, the file's name for an IDX
    file; just the dataset while nothing is named."""
    path = os.path.normpath(path) if path else ""
    if os.path.basename(path) == "manifest.json":
        path = os.path.dirname(path)
    dataset = os.path.basename(path)
    if not dataset.endswith(".idx") and name:
        return f"{dataset}: {name}"
    return dataset


def _shared(cls):
    """Copy the properties the base classes declare into ``cls``: ParaView's proxy decorator
    looks only at the class's own methods."""
    def original(f):   # what a chain of ParaView's decorators wraps
        return original(f._pv_original_func) if hasattr(f, "_pv_original_func") else f

    for base in cls.__mro__[1:]:
        for key, value in vars(base).items():
            if callable(value) and hasattr(original(value), "_pvsm_property_xmls") and key not in vars(cls):
                setattr(cls, key, value)
    return cls


class _LodexReader(VTKPythonAlgorithmBase):
    """What the three readers share: the file name, the object's name, the box, the steps."""

    OP = None

    def __init__(self, output_type):
        VTKPythonAlgorithmBase.__init__(self, nInputPorts=0, nOutputPorts=1, outputType=output_type)
        self._path = ""
        self._name = ""
        self._use_box = 0
        self._box = [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
        self._meta = None
        self._cached = {}   # kind of call -> (request, manifest time stamp, answer or error) of the last one
        self._statistics = 0
        self._selection = vtkDataArraySelection()
        self._selection.AddObserver("ModifiedEvent", lambda *_: self.Modified())

    def _request(self, **more):
        b = self._box   # ParaView's order: xmin, xmax, ymin, ymax, zmin, zmax
        req = {"op": self.OP, "path": self._path, "name": self._name,
               "box": [b[0], b[2], b[4], b[1], b[3], b[5]] if self._use_box else None}
        req.update(more)
        return req

    def _fields(self, all_names):
        return [n for n in all_names if self._selection.ArrayIsEnabled(n)]

    def _selectable(self, names):
        """Offer exactly ``names`` for selection (a newly seen one selected)."""
        for i in reversed(range(self._selection.GetNumberOfArrays())):
            old = self._selection.GetArrayName(i)
            if old not in names:   # another group's or grid's field
                self._selection.RemoveArrayByName(old)
        for n in names:
            if not self._selection.ArrayExists(n):
                self._selection.AddArray(n)

    def _info_call(self, request):
        """call(request) for an information request, its answer or error remembered while the
        request and the dataset's manifest (or .idx file) stay the same."""
        key = json.dumps(request, sort_keys=True)
        stamp = _stamp(self._path)
        kept = self._cached.get(request["op"])
        if kept is None or kept[:2] != (key, stamp):
            try:
                answer = call(request)[0]
            except LodexError as e:   # the same error again until something changes
                answer = e
            kept = self._cached[request["op"]] = (key, stamp, answer)
        if isinstance(kept[2], LodexError):
            raise kept[2]
        return kept[2]

    def _contents(self):
        """The dataset's groups, grids and series (with variables); empty lists when it cannot
        be opened (the information request reports why)."""
        if not self._path:
            return {"groups": [], "grids": [], "series": {}}
        try:
            return self._info_call({"op": "contents", "path": self._path})
        except LodexError:
            return {"groups": [], "grids": [], "series": {}}

    def CanReadFile(self, path):
        """Whether the dataset holds what this reader reads (ParaView's File > Open offers only
        those readers): asked of the worker, as every read."""
        try:
            return int(bool(self._kind_names(call({"op": "contents", "path": path})[0])))
        except LodexError:
            return 0

    def _kind_names(self, contents):
        """The names this reader can read in ``contents``."""
        return list(contents[self.KIND])

    def _finish(self, data, meta, first_field):
        """The read's statistics as field data (with ReadStatistics), and the first field as
        the active scalars, so that ParaView colours by it rather than in a solid colour."""
        if self._statistics:
            _add_stats(data, meta["stats"])
        if first_field is not None:
            data.GetPointData().SetActiveScalars(first_field)

    # A failed request is reported and ends with an empty output, but returns success to
    # ParaView: a source whose update failed keeps ParaView's "needs update" flag set, so the next
    # change of a property no longer reaches the views, which went on showing the points read
    # before the error until the time changed (every Apply must read again).

    def RequestInformation(self, request, inInfo, outInfo):
        self._meta = None
        info = outInfo.GetInformationObject(0)
        if not self._path:   # ParaView asks once before the properties are set
            _set_times(info, [])
            return 1
        try:
            self._meta = self._information()
        except LodexError as e:
            report(self, e)
            _set_times(info, [])
            return 1
        _set_times(info, self._meta["steps"])
        return 1

    def RequestData(self, request, inInfo, outInfo):
        if self._meta is None:   # the information request's error was reported
            if not self._path:
                report(self, "nothing to read: no FileName given")
            return 1
        info = outInfo.GetInformationObject(0)
        try:
            step = _step_at(info, self._meta["steps"])
            self._fill(info, step)
        except LodexError as e:
            report(self, e)
        return 1

    # Properties every reader has -----------------------------------------------------------

    @smproperty.stringvector(name="FileName")
    @smdomain.filelist()
    @smhint.filechooser(extensions="json", file_description=DESCRIPTION)
    def SetFileName(self, path):
        if path != self._path:
            self._path = path
            self.Modified()

    @smproperty.stringvector(name="Name", default_values="")
    @smdomain.xml('<StringListDomain name="list"><RequiredProperties>'
                  '<Property name="Names" function="StringInfo"/></RequiredProperties></StringListDomain>')
    def SetName(self, name):
        """The particle group, grid or series (a drop-down list of the dataset's; empty: the
        dataset's first)."""
        if name != self._name:
            self._name = name
            self.Modified()

    @smproperty.stringvector(name="RegistrationName", information_only="1")
    def GetRegistrationName(self):
        """The name ParaView 5.12 and later give the pipeline item of a file opened with this
        reader: the dataset and what is read, "run.lodex: electrons" (ParaView 5.11 names it
        after the file opened: open the dataset's folder to see "run.lodex")."""
        return registration_name(self._path, self._name or next(iter(self._kind_names(self._contents())), ""))

    @smproperty.stringvector(name="Names", information_only="1")
    def GetNames(self):
        """The names this reader can read in the dataset (the Name drop-down list)."""
        return self._kind_names(self._contents())

    @smproperty.intvector(name="ReadStatistics", default_values=0)
    @smdomain.xml('<BooleanDomain name="bool"/>')
    def SetReadStatistics(self, on):
        """Attach the read's statistics (lodex_bytes_read, lodex_seconds, ...) as field data."""
        if int(on) != self._statistics:
            self._statistics = int(on)
            self.Modified()

    @smproperty.intvector(name="UseBox", default_values=0)
    @smdomain.xml('<BooleanDomain name="bool"/>')
    def SetUseBox(self, on):
        if int(on) != self._use_box:
            self._use_box = int(on)
            self.Modified()

    @smproperty.doublevector(name="Box", default_values=[0, 1, 0, 1, 0, 1], number_of_elements=6)
    @smdomain.xml('<DoubleRangeDomain name="range" default_mode="min,max,min,max,min,max">'
                  '<RequiredProperties><Property name="BoxRange" function="RangeInfo"/></RequiredProperties>'
                  '</DoubleRangeDomain>')
    def SetBox(self, xmin, xmax, ymin, ymax, zmin, zmax):
        """xmin, xmax, ymin, ymax, zmin, zmax (ParaView's order, the rows of the panel): min
        inclusive, max exclusive (with UseBox); default the whole domain (or grid)."""
        box = [xmin, xmax, ymin, ymax, zmin, zmax]
        if box != self._box:
            self._box = box
            self.Modified()

    @smproperty.doublevector(name="BoxRange", information_only="1")
    def GetBoxRange(self):
        """The whole domain (particles) or grid (samples, max exclusive) in the Box's order."""
        lo, hi = self._meta["whole"] if self._meta is not None else ([0, 0, 0], [1, 1, 1])
        return [float(v) for a in range(3) for v in (lo[a], hi[a])]

    @smproperty.doublevector(name="TimestepValues", information_only="1", si_class="vtkSITimeStepsProperty")
    def GetTimestepValues(self):
        return None if self._meta is None else [float(s) for s in self._meta["steps"]]


# ---------------------------------------------------------------------------------------------
# Particles
# ---------------------------------------------------------------------------------------------

@smproxy.reader(name="LodexParticlesReader", label="Lodex Particles", filename_patterns=PATTERNS,
                file_description=DESCRIPTION)
@smhint.xml(FOLDER_HINT)
@_shared
class LodexParticlesReader(_LodexReader):
    """A lodex particle group as points, its fields as point arrays, its steps as time."""

    OP = "particles"
    KIND = "groups"

    def __init__(self):
        _LodexReader.__init__(self, "vtkPolyData")
        self._level = -1
        self._fraction = 1.0
        self._read = None   # the last read's meta: particles, the step's particles and levels

    def _information(self):
        meta = self._info_call(self._request(op="particles_info"))
        self._selectable([n for n in meta["fields"] if n != "position"])
        return meta

    def _fill(self, info, step):
        fields = self._fields([n for n in self._meta["fields"] if n != "position"])
        self._read = None
        level = -1 if self._fraction < 1 else self._level   # a Fraction below 1 wins over the (default) Level
        meta, arrays = call(self._request(step=step, fields=fields, level=level, fraction=self._fraction))
        self._read = meta
        out = vtkPolyData.GetData(info)
        points = vtkPoints()
        points.SetData(_vtk_array("Points", arrays.pop("position")))
        out.SetPoints(points)
        cells = vtkCellArray()   # a vertex per particle, so that the points are drawn
        cells.SetData(1, _vtk_array("connectivity", np.arange(points.GetNumberOfPoints(), dtype=np.int64)))
        out.SetVerts(cells)
        for name in fields:
            out.GetPointData().AddArray(_vtk_array(name, arrays[name]))
        self._finish(out, meta, fields[0] if fields else None)

    # The default Level comes from the dataset: ParaView sets a range domain's "mid" default to
    # the middle of LevelRange, which is -1 .. 2 d + 1 for the level d to open at (the worker's
    # default_level: about 10^5 particles, at most 2 * 10^5, or every particle of a smaller
    # dataset). The same range bounds the panel's slider.
    @smproperty.intvector(name="Level", default_values=-1)
    @smdomain.xml('<IntRangeDomain name="range" default_mode="mid">'
                  '<RequiredProperties><Property name="LevelRange" function="RangeInfo"/></RequiredProperties>'
                  '</IntRangeDomain>')
    def SetLevel(self, level):
        """Levels 0..Level of detail (a read by one reader); -1: every particle. Default: a
        coarse level of about 10^5 particles (every particle of a smaller dataset)."""
        if int(level) != self._level:
            self._level = int(level)
            self.Modified()

    @smproperty.intvector(name="LevelRange", information_only="1")
    def GetLevelRange(self):
        d = self._meta["default_level"] if self._meta is not None else 0
        return [-1, 2 * d + 1]

    @smproperty.intvector(name="Levels", information_only="1")
    def GetLevels(self):
        """The levels of the step shown: 0..Levels-1 (the last and any larger one: every particle)."""
        return [int(self._read["levels"]) if self._read else 0]

    @smproperty.intvector(name="ParticlesShown", information_only="1")
    def GetParticlesShown(self):
        """The particles read (at the chosen level, fraction and box) for the step shown."""
        return [int(self._read["count"]) if self._read else 0]

    @smproperty.intvector(name="ParticlesInStep", information_only="1")
    def GetParticlesInStep(self):
        """Every particle of the step shown (the spatial metadata's count)."""
        return [int(self._read["step_particles"]) if self._read else 0]

    @smproperty.doublevector(name="Fraction", default_values=1.0)
    @smdomain.doublerange(min=0.0, max=1.0)
    def SetFraction(self, fraction):
        """About this share of the particles, a fair sample (1: none; below 1 it wins over Level)."""
        if float(fraction) != self._fraction:
            self._fraction = float(fraction)
            self.Modified()

    @smproperty.dataarrayselection(name="Fields")
    def GetFields(self):
        return self._selection


# ---------------------------------------------------------------------------------------------
# Image data: grids and series
# ---------------------------------------------------------------------------------------------

class _ImageReader(_LodexReader):

    def __init__(self):
        _LodexReader.__init__(self, "vtkImageData")

    def RequestInformation(self, request, inInfo, outInfo):
        _LodexReader.RequestInformation(self, request, inInfo, outInfo)
        if self._meta is None:   # reported: an empty output
            outInfo.GetInformationObject(0).Remove(vtkStreamingDemandDrivenPipeline.WHOLE_EXTENT())
            return 1
        image = self._meta["image"]
        info = outInfo.GetInformationObject(0)
        info.Set(vtkStreamingDemandDrivenPipeline.WHOLE_EXTENT(), image["extent"], 6)
        info.Set(vtkImageData.ORIGIN(), image["origin"], 3)
        info.Set(vtkImageData.SPACING(), image["spacing"], 3)
        return 1

    def _image(self, info, image, arrays):
        out = vtkImageData.GetData(info)
        out.SetExtent(image["extent"])
        out.SetOrigin(image["origin"])
        out.SetSpacing(image["spacing"])
        cells = int(np.prod(image["shape"]))
        for name, a in arrays:
            out.GetPointData().AddArray(_vtk_array(name, a.reshape(cells, -1) if a.size else a.reshape(0)))
        return out


@smproxy.reader(name="LodexGridReader", label="Lodex Grid", filename_patterns=PATTERNS + " *.idx",
                file_description="lodex dataset (its manifest.json) or IDX file")
@smhint.xml(FOLDER_HINT)
@_shared
class LodexGridReader(_ImageReader):
    """A lodex grid or an IDX file as image data at a resolution, inside a box."""

    OP = "grid"
    KIND = "grids"

    def __init__(self):
        _ImageReader.__init__(self)
        self._resolution = -1

    def _information(self):
        meta = self._info_call(self._request(op="grid_info", resolution=self._resolution))
        self._selectable(list(meta["fields"]))
        return meta

    def _fill(self, info, step):
        fields = self._fields(list(self._meta["fields"]))
        meta, arrays = call(self._request(step=step, fields=fields, resolution=self._resolution))
        out = self._image(info, meta["image"], [(f, arrays[f]) for f in fields])
        self._finish(out, meta, fields[0] if fields else None)

    @smproperty.intvector(name="Resolution", default_values=-1)
    def SetResolution(self, r):
        """IDX levels 0..Resolution (-1: full)."""
        if int(r) != self._resolution:
            self._resolution = int(r)
            self.Modified()

    @smproperty.dataarrayselection(name="Fields")
    def GetFields(self):
        return self._selection


@smproxy.reader(name="LodexSeriesReader", label="Lodex Series", filename_patterns=PATTERNS,
                file_description=DESCRIPTION)
@smhint.xml(FOLDER_HINT)
@_shared
class LodexSeriesReader(_ImageReader):
    """One variable of a lodex series as image data, the series' steps as time."""

    OP = "series"
    KIND = "series"

    def __init__(self):
        _ImageReader.__init__(self)
        self._variable = ""

    def _information(self):
        return self._info_call(self._request(op="series_info", variable=self._variable))

    def _fill(self, info, step):
        meta, arrays = call(self._request(step=step, variable=self._variable))
        out = self._image(info, meta["image"], [(meta["variable"], arrays[meta["variable"]])])
        self._finish(out, meta, meta["variable"])

    @smproperty.stringvector(name="Variable", default_values="")
    @smdomain.xml('<StringListDomain name="list"><RequiredProperties>'
                  '<Property name="Variables" function="StringInfo"/></RequiredProperties></StringListDomain>')
    def SetVariable(self, var):
        """The variable to read (a drop-down list of the series'; empty: the series' first)."""
        if var != self._variable:
            self._variable = var
            self.Modified()

    @smproperty.stringvector(name="Variables", information_only="1")
    def GetVariables(self):
        """The variables of the series named (else the dataset's first): the Variable list."""
        series = self._contents()["series"]
        name = self._name or next(iter(series), "")
        return list(series.get(name, []))
