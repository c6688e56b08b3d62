"""Learners of scoring functions: scikit-learn estimators for binary labels whose
``decision_function`` is the learned score (higher = more likely ``classes_[1]``) and
whose ``score`` is the AUC."""

from ._bbr import BBRRanker, LCBRRanker
from ._boost import RankBoost
from ._kernel import KernelRanker
from ._pnorm import PNormPush
from ._online import OAM, PGD, SPAM, AdaOAM
from ._pairwise import PairwiseRanker
from ._proper import ProperLossRanker
from ._rankstat import RankStatisticRanker

__all__ = ["BBRRanker", "LCBRRanker", "PairwiseRanker", "ProperLossRanker", "OAM", "AdaOAM", "PGD", "SPAM", "RankBoost", "PNormPush", "KernelRanker", "RankStatisticRanker"]
