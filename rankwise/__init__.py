"""rankwise: bipartite ranking, exact and fast.

Criteria of the family of conditional linear rank statistics (AUC, local AUC,
p-norm push, DCG, partial AUC, any ``phi``) computed from one rank table, and
the ranking risk of Clémençon, Lugosi & Vayatis (2008) for real-valued labels. Higher score = more likely
positive, always.
"""

from . import criteria, io, learners, losses, metrics, phi, stats, theory
from ._validation import UndefinedMetricWarning
from ._version import __version__
from .io import ModelFileError, inspect_model, load_model, save_model
from .learners import *  # noqa: F403 - the estimators, learners.__all__
from .metrics import *  # noqa: F403 - the criteria and curves, metrics.__all__ (less its building blocks)

__all__ = (
    [name for name in metrics.__all__ if name not in metrics.BUILDING_BLOCKS]
    + ["criteria", "metrics", "phi", "stats", "learners", "losses", "theory", "io"]
    + list(learners.__all__)
    + ["save_model", "load_model", "inspect_model", "ModelFileError", "UndefinedMetricWarning", "__version__"]
)
