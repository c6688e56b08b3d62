"""The ``rankwise`` command (entry point :func:`main`).

Subcommands ``evaluate``, ``compare``, ``fit``, ``score``, ``report`` and ``demo``; exit codes
0 success, 1 bad data (one line on stderr, no traceback), 2 bad usage. The modules:
``_main`` (parser and commands), ``_common`` (what the commands share), ``_dask`` (the
commands on a Dask cluster), ``_readers`` (CSV/TSV/Parquet/svmlight/npy readers) and
``_demo`` (the main job on the embedded credit data).
"""

from ._common import CLIError, Progress, Ticker, split_specs
from ._main import LEARNERS, build_parser, main, make_learner

__all__ = ["main", "build_parser", "make_learner", "LEARNERS", "CLIError", "Progress", "Ticker", "split_specs"]
