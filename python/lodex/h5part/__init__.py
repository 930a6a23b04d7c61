"""H5Part export and import (docs/h5part.md), with h5py.

H5Part is the layout VisIt's and ParaView's H5Part readers expect: one HDF5 group per step named
``Step#<i>`` at the root, i = 0 .. N-1 with no gaps, in each one 1-D dataset per field component,
all of the step's particle count, the coordinates named ``x``, ``y``, ``z``. The i-th exported
step's lodex step is its group's float64 ``TimeValue`` (ParaView's time) and int64 ``lodex_step``
(what an import reads back; groups without it are step i).

lodex fields map to datasets so: ``position`` -> ``x``, ``y``, ``z``; a field with one component
-> a dataset of its name; a field of k > 1 components -> ``<field>_0`` ... ``<field>_<k-1>``.
The dtypes are kept exactly. The file records the mapping, so an import gives back the same
schema: root attributes ``lodex_schema`` (JSON list of [field, dtype, components]) and
``lodex_domain`` (float64, shape (2, 3): min and max corner), on each dataset ``lodex_field``
and ``lodex_component``, on each step group ``Step`` (the lodex step, as an int64) beside
``TimeValue`` and ``lodex_step``.

h5py is imported only here, when used: ``pip install h5py`` (or ``pip install 'lodex[h5part]'``).
"""

from .export import export_h5part
from .import_ import import_h5part

__all__ = ["export_h5part", "import_h5part"]
