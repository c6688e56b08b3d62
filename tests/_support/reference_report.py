"""Literal definitions behind the report's numbers that are not library functions, for the
tests only (plain loops, no rankwise code). Labels are booleans (True = positive)."""

from __future__ import annotations

import math


def cut_at_fpr(y, s, fpr):
    """The lowest cut ``t`` among the observed scores (and ``+inf``) whose rule ``score >=
    t`` calls at most a share ``fpr`` of the negatives positive (within 1e-12)."""
    n_neg = sum(1 for v in y if not v)
    best = math.inf
    for t in sorted(set(s)):
        fp = sum(1 for v, x in zip(y, s) if not v and x >= t)
        if fp / n_neg <= fpr + 1e-12:
            best = min(best, t)
    return best
