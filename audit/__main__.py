"""`python -m audit`: the same as `audit-cmd`."""

import sys

from .cli import main

sys.exit(main())
