"""``python -m rankwise.cli``: the same as the ``rankwise`` command."""

import sys

from ._main import main

sys.exit(main())
