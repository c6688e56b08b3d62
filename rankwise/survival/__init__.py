"""Ranking criteria for censored times: the concordance index and its standard error.

Data are ``(time, event, risk)``: the follow-up time, whether it ended in the event (else
the row is censored at that time), and the score. **Higher risk = earlier event**, always
(the convention of R survival's ``concordance(..., reverse = TRUE)`` and of
scikit-survival; lifelines' ``concordance_index`` takes a score where higher means later,
i.e. minus the risk). Definitions and conventions: ``docs/survival.md``.
"""

from ._concordance import ConcordanceEstimate, compare, concordance_index, estimate

__all__ = ["concordance_index", "estimate", "compare", "ConcordanceEstimate"]
