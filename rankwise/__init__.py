"""rankwise: bipartite ranking, exact and fast.

Criteria of the family of conditional linear rank statistics (AUC, local AUC,
p-norm push, DCG, partial AUC, any ``phi``) computed from one rank table, and
the ranking risk of Clémençon, Lugosi & Vayatis (2008) for real-valued labels. Higher score = more likely
positive, always.
"""

# The submodules and the names they export load on first use (PEP 562), so that the
# command line's parser and ``rankwise --help`` / ``--version`` load neither NumPy nor
# scikit-learn and SciPy.
from ._version import __version__

_SUBMODULES = ("criteria", "display", "io", "learners", "losses", "metrics", "phi", "stats", "survival", "theory")
_IO_NAMES = ("ModelFileError", "inspect_model", "load_model", "save_model")
#: Names of :mod:`rankwise.stats` also offered at the top level.
_STATS_NAMES = ("RankAccumulator", "coords")


def _all() -> list:
    from . import learners, metrics

    return (list(metrics.__all__)
            + ["criteria", "metrics", "phi", "stats", "survival", "learners", "losses", "theory", "io", "display"]
            + list(learners.__all__)
            + ["save_model", "load_model", "inspect_model", "ModelFileError", "UndefinedMetricWarning",
               "__version__"] + list(_STATS_NAMES))


def __getattr__(name: str):
    import importlib

    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name == "__all__":
        value = _all()
    elif name == "UndefinedMetricWarning":
        from ._validation import UndefinedMetricWarning as value
    elif name in _IO_NAMES:
        from . import io

        value = getattr(io, name)
    elif name in _STATS_NAMES:
        from . import stats

        value = getattr(stats, name)
    else:
        from . import metrics

        # What ``from .metrics/.learners import *`` gave (the two share no name). The
        # metrics first: ``rw.auc`` must not import the learners, i.e. scikit-learn (seconds).
        if name in metrics.__all__ or name in metrics.BUILDING_BLOCKS:
            # (building blocks such as ``rw.compute`` stay reachable; ``rankwise.metrics.blocks`` is their home)
            value = getattr(metrics, name)
        else:
            from . import learners

            if name not in learners.__all__:
                raise AttributeError(f"module 'rankwise' has no attribute {name!r}")
            value = getattr(learners, name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_all()))
