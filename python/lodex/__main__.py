"""`python -m lodex ...` runs the command line (the same as the `lodex` command)."""
import sys

from .cli import main

sys.exit(main())
