"""``python -m rankwise``: the same as the ``rankwise`` command."""

import sys

from .cli import main

sys.exit(main())
