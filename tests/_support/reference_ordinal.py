"""Literal definitions behind rankwise.OrdinalRanker's aggregation, for the tests only:
loops over the training rows, sharing no code with rankwise.

Given the K - 1 bipartite scores of the training rows (weights ``w``) and of new rows:

* the mid-distribution function of scorer k at a training value ``v`` is
  ``(sum of w over rows scoring below v + half the sum over rows scoring v) / sum of w``
  (rows of zero weight ignored); at other points it is interpolated linearly between the
  nearest training values below and above, and held at the end values outside them;
* the aggregated score of a row is the mean or the median over k of those values (rounded
  to 12 decimals), or the sum of its raw scores;
* cut point j (j = 1..K-1) lies halfway between the lowest score of the smallest top of
  the training ranking (whole groups of equal scores) that holds at least the weighted
  share of rows of classes j and above, and the next lower training score (that lowest
  score minus 1 when there is none). Scores closer than 1e-12 times the largest |score|
  to a neighbour are one group (rounding: a mean of different ranks can equal another
  mathematically and differ in the last bit), placed at its lowest score.
"""

from __future__ import annotations

import statistics


def mid_cdf(train, w, t) -> float:
    rows = [(s, wi) for s, wi in zip(train, w) if wi > 0]
    total = sum(wi for _, wi in rows)
    values = sorted({s for s, _ in rows})

    def at(v):
        return (sum(wi for s, wi in rows if s < v) + 0.5 * sum(wi for s, wi in rows if s == v)) / total

    if t <= values[0]:
        return at(values[0])
    if t >= values[-1]:
        return at(values[-1])
    for lo, hi in zip(values[:-1], values[1:]):
        if lo <= t <= hi:
            return at(lo) + (t - lo) / (hi - lo) * (at(hi) - at(lo))
    raise AssertionError("unreachable")


def aggregate(train_scores, w, scores, aggregation):
    """``train_scores``: K - 1 lists (one per scorer) of the training rows' scores;
    ``scores``: one list of K - 1 scores per new row."""
    out = []
    for row in scores:
        if aggregation == "sum":
            out.append(sum(row))
            continue
        ranks = [mid_cdf(train_scores[k], w, row[k]) for k in range(len(row))]
        out.append(round(sum(ranks) / len(ranks) if aggregation == "mean_rank" else statistics.median(ranks), 12))
    return out


def cut_points(score, index, w, K):
    rows = sorted([(s, i, wi) for s, i, wi in zip(score, index, w) if wi > 0], reverse=True)
    total = sum(wi for _, _, wi in rows)
    tol = 1e-12 * max(abs(s) for s, _, _ in rows)
    groups = [[rows[0]]]  # descending, each a list of rows
    for r in rows[1:]:
        if groups[-1][-1][0] - r[0] <= tol:
            groups[-1].append(r)
        else:
            groups.append([r])
    values = [min(s for s, _, _ in g) for g in groups]
    cuts = []
    for j in range(1, K):
        share = sum(wi for _, i, wi in rows if i >= j) / total
        held, g = 0.0, 0
        for g, members in enumerate(groups):
            held += sum(wi for _, _, wi in members)
            if held / total >= share * (1 - 1e-12):
                break
        v = values[g]
        cuts.append(0.5 * (v + values[g + 1]) if g + 1 < len(values) else v - 1.0)
    return cuts
