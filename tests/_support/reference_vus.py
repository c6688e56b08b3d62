"""Literal definition of the volume under the ROC surface (K = 3) and the hypervolume under
the ROC manifold (K > 3), for the tests only: chain by chain, O(prod n_k), sharing no code
with rankwise.

A chain is one observation of each class, in the order of ``labels`` (lowest first). It
weighs the product of its members' weights and counts the share of the tie-breakings that
put its scores in strictly increasing order: 0 if the scores ever decrease along the chain,
else the product over the runs of equal scores of 1/m! (m the run's length). The criterion
is the weighted count divided by the product of the class totals; undefined (nan) when a
class has zero total weight.
"""

from __future__ import annotations

import itertools
import math


def tie_share(chain_scores) -> float:
    """Share of the orderings of tied values that put the chain in strictly increasing order."""
    share = 1.0
    run = 1
    for a, b in zip(chain_scores[:-1], chain_scores[1:]):
        if b < a:
            return 0.0
        if b == a:
            run += 1
        else:
            share /= math.factorial(run)
            run = 1
    return share / math.factorial(run)


def vus_reference(y_true, y_score, labels, sample_weight=None) -> float:
    y = list(y_true)
    s = [float(v) for v in y_score]
    w = [1.0] * len(y) if sample_weight is None else [float(v) for v in sample_weight]
    members = [[i for i in range(len(y)) if y[i] == lab] for lab in labels]
    totals = [sum(w[i] for i in m) for m in members]
    if not all(t > 0 for t in totals):
        return float("nan")
    num = 0.0
    for chain in itertools.product(*members):
        weight = math.prod(w[i] for i in chain)
        if weight:
            num += weight * tie_share([s[i] for i in chain])
    return num / math.prod(totals)


def permutation_share(chain_scores) -> float:
    """The same share counted by brute force: over every ordering of the chain's members
    that sorts its scores (ties broken every possible way), the fraction that is the chain
    order. Checks :func:`tie_share` itself."""
    k = len(chain_scores)
    good = total = 0
    for perm in itertools.permutations(range(k)):
        vals = [chain_scores[p] for p in perm]
        if all(vals[i] <= vals[i + 1] for i in range(k - 1)):
            total += 1
            good += perm == tuple(range(k))
    return good / total if total else 0.0


__all__ = ["vus_reference", "tie_share", "permutation_share"]
