"""Paths of the repository the tests read (fixtures, experiments, benchmarks) and of the
shared reference data (``RANKWISE_DATA`` overrides ``../shared/data``)."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(ROOT, "tests", "golden")
EXPERIMENTS = os.path.join(ROOT, "experiments")
BENCH = os.path.join(ROOT, "bench")
SHARED_DATA = os.environ.get("RANKWISE_DATA", os.path.join(ROOT, "..", "shared", "data"))
