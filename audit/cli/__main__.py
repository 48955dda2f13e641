"""`python -m audit.cli`: the same as `audit-cmd`."""

import sys

from . import run

sys.exit(run())
