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

See ``docs/architecture.md`` for how to add one.
"""

from ._base import Criterion, PairCriterion, RankCriterion, get, names, parse, register, spec_label, unit_class

# Registration order is the order of names() and of error messages.
from ._auc import AUC  # noqa: E402
from ._rank_statistic import RankStatistic  # noqa: E402
from ._local_auc import LocalAUC  # noqa: E402
from ._pnorm_push import PNormPush  # noqa: E402
from ._dcg import DCG, NDCG  # noqa: E402
from ._partial_auc import PartialAUC  # noqa: E402
from ._ranking_risk import RankingRisk  # noqa: E402

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
    "AUC",
    "RankStatistic",
    "LocalAUC",
    "PNormPush",
    "DCG",
    "NDCG",
    "PartialAUC",
    "RankingRisk",
]
