"""Literal definitions of Venkatraman's curve-test statistics, for the tests only.

Written from docs/curve_test.md with plain loops (O(n^2)), sharing no code with
rankwise. Labels are booleans (True = positive). Ranks are 1..n ascending, tied scores
ranked in row order. The permutation helpers take the random choices as arguments and
build the permuted columns the way the definition says (swapped ranks, jittered ranks),
so that a test can feed them the choices rankwise's permutations drew.
"""

from __future__ import annotations


def ranks_first(s):
    """Ascending ranks 1..n; equal scores ranked in row order."""
    idx = sorted(range(len(s)), key=lambda i: (s[i], i))
    r = [0] * len(s)
    for k, i in enumerate(idx):
        r[i] = k + 1
    return r


def errors_at(r, y, x):
    """Positives at or below rank ``x`` plus negatives above it."""
    return sum(1 for ri, yi in zip(r, y) if yi and ri <= x) + sum(1 for ri, yi in zip(r, y) if not yi and ri > x)


def paired_stat_from_ranks(ra, rb, y):
    """E = sum over x = 1..n of |errors_b(x) - errors_a(x)|."""
    return float(sum(abs(errors_at(rb, y, x) - errors_at(ra, y, x)) for x in range(1, len(y) + 1)))


def paired_stat(y, a, b):
    return paired_stat_from_ranks(ranks_first(a), ranks_first(b), y)


def paired_permuted_stat(y, a, b, swap, coin_a, coin_b):
    """E after swapping the two ranks of the rows with ``swap[i]``; an unswapped rank is
    moved by +-1/4 (``coin`` 1: up) so that it falls after or before a swapped rank equal
    to it."""
    ra, rb = ranks_first(a), ranks_first(b)
    va, vb = [], []
    for i in range(len(y)):
        if swap[i]:
            va.append(float(rb[i]))
            vb.append(float(ra[i]))
        else:
            va.append(ra[i] + (0.25 if coin_a[i] else -0.25))
            vb.append(rb[i] + (0.25 if coin_b[i] else -0.25))
    return paired_stat_from_ranks(ranks_first(va), ranks_first(vb), y)


def _curve(r, y, mp):
    """Knots (p, e) at x = 1..n: F, G the shares of positives and negatives with rank <= x."""
    n_pos = sum(1 for v in y if v)
    n_neg = len(y) - n_pos
    ps, es = [], []
    for x in range(1, len(y) + 1):
        fx = sum(1 for ri, yi in zip(r, y) if yi and ri <= x) / n_pos
        gx = sum(1 for ri, yi in zip(r, y) if not yi and ri <= x) / n_neg
        ps.append(mp * fx + (1 - mp) * gx)
        es.append(mp * fx + (1 - mp) * (1 - gx))
    return ps, es


def _approx(ps, es):
    """Linear interpolation through the knots sorted by p, equal p averaged; None outside."""
    groups = {}
    for p, e in zip(ps, es):
        groups.setdefault(p, []).append(e)
    xs = sorted(groups)
    ys = [sum(groups[x]) / len(groups[x]) for x in xs]

    def f(v):
        if v < xs[0] or v > xs[-1]:
            return None
        for k in range(len(xs)):
            if xs[k] == v:
                return ys[k]
        k = max(k for k in range(len(xs)) if xs[k] < v)
        return ys[k] + (ys[k + 1] - ys[k]) * ((v - xs[k]) / (xs[k + 1] - xs[k]))

    return f


def unpaired_stat_from_ranks(ra, ya, rb, yb, mp):
    """The trapezoid sum of |e_a - e_b| over the sorted knots of both curves, over the
    intervals where both curves are defined at both ends."""
    pa, ea = _curve(ra, ya, mp)
    pb, eb = _curve(rb, yb, mp)
    fa, fb = _approx(pa, ea), _approx(pb, eb)
    xs = sorted(pa + pb)
    total = 0.0
    for k in range(1, len(xs)):
        ends = []
        for v in (xs[k - 1], xs[k]):
            u, w = fa(v), fb(v)
            ends.append(None if u is None or w is None else abs(u - w))
        if None not in ends:
            total += (ends[0] + ends[1]) * (xs[k] - xs[k - 1]) / 2
    return total


def mixing(ya, yb, how="pooled"):
    pos = sum(1 for v in ya if v) + sum(1 for v in yb if v)
    return pos / (len(ya) + len(yb)) if how == "pooled" else pos / (2 * len(ya))


def unpaired_stat(ya, a, yb, b, how="pooled"):
    return unpaired_stat_from_ranks(ranks_first(a), ya, ranks_first(b), yb, mixing(ya, yb, how))


def mixture_levels(ya, a, yb, b):
    """Each row's position on the mixture axis with the pooled share of positives (its own
    sample's shares of positives and negatives at or below it), rounded to 12 decimals, as
    its 1-based index among the distinct positions of both samples (sample a first)."""
    share = (sum(1 for v in ya if v) + sum(1 for v in yb if v)) / (len(ya) + len(yb))
    us = []
    for y, s in ((ya, a), (yb, b)):
        r = ranks_first(s)
        n_pos = sum(1 for v in y if v)
        n_neg = len(y) - n_pos
        for i in range(len(y)):
            fx = sum(1 for rj, yj in zip(r, y) if yj and rj <= r[i]) / n_pos
            gx = sum(1 for rj, yj in zip(r, y) if not yj and rj <= r[i]) / n_neg
            us.append(round((share * fx + (1 - share) * gx) * 1e12) / 1e12)
    distinct = sorted(set(us))
    return [distinct.index(v) + 1 for v in us]


def unpaired_permuted_stat(ya, a, yb, b, coin, deal_neg, deal_pos, how="pooled", levels=None):
    """E after dealing the pooled ranks back: rows of both samples indexed 0..n_a+n_b-1
    (a first); ``deal_neg`` and ``deal_pos`` list the pooled negatives' and positives'
    indices, and the first (number of sample a's negatives / positives) go to sample a.
    A rank k from sample a is moved by +1/4 when ``coin[k]`` is 1, else -1/4; one from
    sample b the other way. ``levels`` (one a pooled row) replaces the ranks as the values
    pooled (:func:`mixture_levels`)."""
    ra, rb = ranks_first(a), ranks_first(b)
    rank = ra + rb if levels is None else list(levels)
    origin = [0] * len(ra) + [1] * len(rb)
    y = list(ya) + list(yb)
    na_neg = sum(1 for v in ya if not v)
    na_pos = sum(1 for v in ya if v)
    val = [rank[i] + (0.25 if coin[rank[i]] ^ origin[i] else -0.25) for i in range(len(rank))]
    to_a = list(deal_neg[:na_neg]) + list(deal_pos[:na_pos])
    to_b = list(deal_neg[na_neg:]) + list(deal_pos[na_pos:])
    va, ya2 = [val[i] for i in to_a], [y[i] for i in to_a]
    vb, yb2 = [val[i] for i in to_b], [y[i] for i in to_b]
    return unpaired_stat_from_ranks(ranks_first(va), ya2, ranks_first(vb), yb2, mixing(ya, yb, how))


def p_value(stat, null, rel=0.0):
    """pROC's permutation p-value: the share of permutation statistics >= the statistic."""
    return sum(1 for v in null if v >= stat - rel * abs(stat)) / len(null)


__all__ = ["ranks_first", "errors_at", "paired_stat", "paired_stat_from_ranks", "paired_permuted_stat",
           "unpaired_stat", "unpaired_stat_from_ranks", "unpaired_permuted_stat", "mixing", "mixture_levels",
           "p_value"]
