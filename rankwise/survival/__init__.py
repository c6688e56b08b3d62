"""Ranking criteria for censored times: Harrell's and Uno's concordance index with their
standard errors, and the time-dependent AUC.

Data are ``(time, event, risk)``: the follow-up time, whether it ended in the event (else
the row is censored at that time), and the score. **Higher risk = earlier event**, always
(the convention of R survival's ``concordance(..., reverse = TRUE)`` and of
scikit-survival; lifelines' ``concordance_index`` takes a score where higher means later,
i.e. minus the risk). Definitions and conventions: ``docs/survival.md``.
"""

from ._concordance import ConcordanceEstimate, compare, concordance_index, estimate
from ._scorer import concordance_scorer
from ._timeauc import TimeAUCComparison, TimeDependentAUC, compare_cumulative_dynamic_auc, cumulative_dynamic_auc

__all__ = ["concordance_index", "estimate", "compare", "ConcordanceEstimate",
           "cumulative_dynamic_auc", "compare_cumulative_dynamic_auc", "TimeDependentAUC", "TimeAUCComparison",
           "concordance_scorer"]
