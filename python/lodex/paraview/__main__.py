"""``python -m lodex.paraview [--loader FILE]``: the path of lodex's ParaView plugin (docs/paraview.md)."""

import sys

from . import main

sys.exit(main())
