"""`python -m audit`: the same as `audit-cmd`."""

import sys

from .cli import run

sys.exit(run())
