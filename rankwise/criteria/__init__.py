"""The criteria of rankwise, one unit each, in one registry.

Every criterion is an object registered under its spec name (``"auc"``,
``"local_auc"``, ...): its parameters and their validation, its value as a pass over the
class masses of the rank table, its Hájek projection where one exists, its finish (e.g.
McClish's standardisation) and its range. :mod:`rankwise.metrics`, :mod:`rankwise.stats`,
:mod:`rankwise.distributed`, the command line and the report look criteria up here::

    >>> from rankwise import criteria
    >>> c = criteria.get("local_auc:top=0.5")
    >>> c.name, c.top
    ('local_auc', 0.5)
    >>> c.describe()  # its readable name, for tables and figures
    'local AUC, top 50%'

A criterion is a module of this package that defines a :class:`RankCriterion` (or
:class:`PairCriterion`) subclass decorated with :func:`register`: the package imports every
module it holds, so adding a criterion is adding its module (and its tests). See
``docs/architecture.md``; the definitions and conventions of every criterion are in
``docs/criteria.md``.
"""

import importlib as _importlib
import pkgutil as _pkgutil

from ._base import (
    Criterion,
    PairCriterion,
    RankCriterion,
    add_sums,
    get,
    names,
    parse,
    register,
    spec_label,
    table_weights,
    unit_class,
)

# The first criteria, in the order of names() and of error messages; then every other
# module of the package, alphabetically.
_FIRST = ("_auc", "_rank_statistic", "_local_auc", "_pnorm_push", "_dcg", "_partial_auc", "_ranking_risk")
_OTHERS = sorted(m.name for m in _pkgutil.iter_modules(__path__) if m.name not in _FIRST and m.name != "_base")
for _module in _FIRST + tuple(_OTHERS):
    _importlib.import_module(f"{__name__}.{_module}")
del _module, _OTHERS

__all__ = [
    "Criterion",
    "RankCriterion",
    "PairCriterion",
    "get",
    "names",
    "parse",
    "register",
    "spec_label",
    "unit_class",
    "add_sums",
    "table_weights",
]
