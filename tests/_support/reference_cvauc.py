"""Literal definitions behind ``rankwise.stats.cross_validated``, for the tests only.

Written from LeDell, Petersen & van der Laan (2015), "Computationally efficient confidence
intervals for cross-validated area under the ROC curve estimates", Electronic Journal of
Statistics 9, with plain loops over rows and pairs and no shared code:

* each fold's AUC over its pairs (a tied pair 1/2, frequency weights as copies);
* each row's projection term: for the AUC its placement (a positive's share of the fold's
  negative mass below it, a negative's share of the fold's positive mass above it, ties
  1/2), for the p-norm push and the partial AUC their Hájek terms (other criteria: any
  ``terms(y, s, w) -> (value, h)``);
* the influence value of a row, ``n/n+ (h - mean of h over the fold's positives)`` for a
  positive and ``n/n- (h - mean over the fold's negatives)`` for a negative (``n``, ``n+``,
  ``n-`` over all folds);
* ``sigma^2 = (1/V) sum_v (1/n_v) sum_{i in v} IC_i^2``, ``se = sqrt(sigma^2 / n)``;
  pooled: ``IC_g = sum_{i in g} IC_i / (n / I)``, ``sigma^2 = (1/V) sum_v (1/I_v) sum_{g in
  v} IC_g^2``, ``se = sqrt(sigma^2 / I)``.

``variance="unbiased"`` (``cross_validated_unbiased``, ``cross_validated_pooled_unbiased``):
within each fold and class the weighted sum of squared influence values is divided by
``n_vc - 1`` instead of ``n_vc`` (DeLong 1988's class variances); for units nested in folds,
the units' positive parts, negative parts and cross products are multiplied by
``I_v+ / (I_v+ - 1)``, ``I_v- / (I_v- - 1)`` and ``I_v / (I_v - 1)`` (Obuchowski 1997).

``cvauc_convention_se`` is R cvAUC 1.1.4's variant (a tied pair counts 0 in the
placements, which are then not centred on the AUC), for its golden values with ties.
"""

from __future__ import annotations

import math


def _psi(a, b, tie=0.5):
    return 1.0 if a > b else tie if a == b else 0.0


def _w(w, n):
    return [1.0] * n if w is None else [float(v) for v in w]


def auc_terms(y, s, w=None, tie=0.5):
    """``(AUC, h)`` of one fold: ``h[i]`` the row's placement."""
    n = len(y)
    w = _w(w, n)
    pos = [i for i in range(n) if y[i]]
    neg = [i for i in range(n) if not y[i]]
    wp = sum(w[i] for i in pos)
    wn = sum(w[j] for j in neg)
    value = sum(w[i] * w[j] * _psi(s[i], s[j]) for i in pos for j in neg) / (wp * wn)
    h = [0.0] * n
    for i in pos:
        h[i] = sum(w[j] * _psi(s[i], s[j], tie) for j in neg) / wn
    for j in neg:
        h[j] = sum(w[i] * _psi(s[i], s[j], tie) for i in pos) / wp
    return value, h


def pnorm_push_terms(y, s, w=None, p=4.0):
    """``(value, h)`` of Rudin's normalised p-norm push ``m^(1/p)``, ``m`` the mean over the
    negatives of ``v_k^p`` (``v_k`` the share of positive mass at or below negative ``k``,
    ties 1/2): ``h`` of a negative ``v_k^p``, of a positive ``(1/n-) sum_k w_k p v_k^(p-1)
    psi(s_k, s_i)``, both times the delta method's ``m^(1/p - 1) / p`` (0 at ``m = 0``, where
    the power has no derivative: rankwise's convention, a degenerate fold)."""
    n = len(y)
    w = _w(w, n)
    pos = [i for i in range(n) if y[i]]
    neg = [i for i in range(n) if not y[i]]
    wp = sum(w[i] for i in pos)
    wn = sum(w[k] for k in neg)
    v = {k: sum(w[i] * _psi(s[k], s[i]) for i in pos) / wp for k in neg}
    m = sum(w[k] * v[k] ** p for k in neg) / wn
    f = m ** (1.0 / p - 1.0) / p if m > 0 else 0.0
    h = [0.0] * n
    for k in neg:
        h[k] = f * v[k] ** p
    for i in pos:
        h[i] = f * sum(w[k] * p * v[k] ** (p - 1) * _psi(s[k], s[i]) for k in neg) / wn
    return m ** (1.0 / p), h


def _roc_points(y, s, w):
    """The ROC points (fpr, tpr) at every threshold, from (0, 0) to (1, 1)."""
    n = len(y)
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[i] for i in range(n) if not y[i])
    pts = [(0.0, 0.0)]
    for t in sorted(set(s), reverse=True):
        pts.append((sum(w[i] for i in range(n) if not y[i] and s[i] >= t) / wn,
                    sum(w[i] for i in range(n) if y[i] and s[i] >= t) / wp))
    return pts


def roc_at(y, s, x, w=None):
    """The ROC polyline at fpr ``x``: the largest tpr among the points with fpr ``x``,
    else linear between the last point with fpr below ``x`` and the next."""
    pts = _roc_points(y, s, _w(w, len(y)))
    at = [t for f, t in pts if abs(f - x) <= 1e-12]
    if at:
        return max(at)
    below = max(k for k in range(len(pts)) if pts[k][0] < x)
    (x0, y0), (x1, y1) = pts[below], pts[below + 1]
    return y0 + (x - x0) * (y1 - y0) / (x1 - x0)


def partial_auc_terms(y, s, w=None, max_fpr=0.3):
    """``(value, h)`` of the unstandardised partial AUC over fpr in [0, max_fpr], each row's
    projection term: the literal definition of ``reference_variance.partial_auc_row_terms``
    (a negative's placement clipped to the curve's mean height over a window one negative
    wide at the band's edge)."""
    from .reference_variance import partial_auc_row_terms

    return partial_auc_row_terms(y, s, w, max_fpr=max_fpr)


def influence_values(y, s, folds, w=None, terms=auc_terms):
    """``(fold ids sorted, fold values, IC per row)``."""
    n = len(y)
    w = _w(w, n)
    fold_ids = sorted(set(folds))
    N = sum(w)
    Np = sum(w[i] for i in range(n) if y[i])
    Nn = N - Np
    ic = [0.0] * n
    values = []
    for f in fold_ids:
        rows = [i for i in range(n) if folds[i] == f]
        value, h = terms([y[i] for i in rows], [s[i] for i in rows], [w[i] for i in rows])
        values.append(value)
        for cls, scale in ((True, N / Np), (False, N / Nn)):
            members = [k for k, i in enumerate(rows) if bool(y[i]) == cls]
            mean = sum(w[rows[k]] * h[k] for k in members) / sum(w[rows[k]] for k in members)
            for k in members:
                ic[rows[k]] = scale * (h[k] - mean)
    return fold_ids, values, ic


def cross_validated(y, s, folds, w=None, terms=auc_terms):
    """``(value, se, fold values)``, every row an independent observation."""
    n = len(y)
    w = _w(w, n)
    fold_ids, values, ic = influence_values(y, s, folds, w, terms)
    sig2 = 0.0
    for f in fold_ids:
        rows = [i for i in range(n) if folds[i] == f]
        sig2 += sum(w[i] * ic[i] ** 2 for i in rows) / sum(w[i] for i in rows)
    sig2 /= len(fold_ids)
    return sum(values) / len(values), math.sqrt(sig2 / sum(w)), values


def cross_validated_pooled(y, s, folds, ids, w=None, terms=auc_terms):
    """``(value, se)`` with the units ``ids``: a unit's influence value is the sum over all
    its rows (every fold) divided by the mean rows per unit."""
    n = len(y)
    w = _w(w, n)
    fold_ids, values, ic = influence_values(y, s, folds, w, terms)
    units = sorted(set(ids), key=repr)
    taubar = sum(w) / len(units)
    ic_unit = {g: sum(w[i] * ic[i] for i in range(n) if ids[i] == g) / taubar for g in units}
    sig2 = 0.0
    for f in fold_ids:
        inside = set(ids[i] for i in range(n) if folds[i] == f)
        sig2 += sum(ic_unit[g] ** 2 for g in inside) / len(inside)
    sig2 /= len(fold_ids)
    return sum(values) / len(values), math.sqrt(sig2 / len(units))


def cross_validated_unbiased(y, s, folds, w=None, terms=auc_terms):
    """``(value, se, fold values)`` of ``variance="unbiased"``, every row independent:
    ``sigma^2 = (1/V) sum_v (1/n_v) sum_c n_vc/(n_vc - 1) sum_{i in v, c} w_i IC_i^2``."""
    n = len(y)
    w = _w(w, n)
    fold_ids, values, ic = influence_values(y, s, folds, w, terms)
    sig2 = 0.0
    for f in fold_ids:
        rows = [i for i in range(n) if folds[i] == f]
        total = 0.0
        for cls in (True, False):
            members = [i for i in rows if bool(y[i]) == cls]
            m = sum(w[i] for i in members)
            total += sum(w[i] * ic[i] ** 2 for i in members) / (m - 1.0) * m
        sig2 += total / sum(w[i] for i in rows)
    sig2 /= len(fold_ids)
    return sum(values) / len(values), math.sqrt(sig2 / sum(w)), values


def cross_validated_pooled_unbiased(y, s, folds, ids, w=None, terms=auc_terms):
    """``(value, se)`` of ``variance="unbiased"`` with units ``ids`` nested in folds: per
    fold, a unit's positive part ``a_g`` (its positive rows' weighted influence values over
    ``n / I``) and negative part ``b_g``; ``sigma^2 = (1/V) sum_v (1/I_v) [I_v+/(I_v+ - 1)
    sum a_g^2 + I_v-/(I_v- - 1) sum b_g^2 + 2 I_v/(I_v - 1) sum a_g b_g]``."""
    n = len(y)
    w = _w(w, n)
    fold_ids, values, ic = influence_values(y, s, folds, w, terms)
    units = sorted(set(ids), key=repr)
    taubar = sum(w) / len(units)
    sig2 = 0.0
    for f in fold_ids:
        inside = sorted(set(ids[i] for i in range(n) if folds[i] == f), key=repr)
        a = {g: sum(w[i] * ic[i] for i in range(n) if ids[i] == g and y[i]) / taubar for g in inside}
        b = {g: sum(w[i] * ic[i] for i in range(n) if ids[i] == g and not y[i]) / taubar for g in inside}
        i_pos = sum(1 for g in inside if any(ids[i] == g and y[i] for i in range(n)))
        i_neg = sum(1 for g in inside if any(ids[i] == g and not y[i] for i in range(n)))
        i_all = len(inside)
        total = (i_pos / (i_pos - 1.0) * sum(a[g] ** 2 for g in inside)
                 + i_neg / (i_neg - 1.0) * sum(b[g] ** 2 for g in inside)
                 + 2.0 * i_all / (i_all - 1.0) * sum(a[g] * b[g] for g in inside))
        sig2 += total / i_all
    sig2 /= len(fold_ids)
    return sum(values) / len(values), math.sqrt(sig2 / len(units))


def cvauc_convention_se(y, s, folds, ids=None):
    """R cvAUC 1.1.4's standard error (``ci.cvAUC``; ``ci.pooled.cvAUC`` with ``ids``),
    unweighted: placements counting a tied pair 0, minus the fold's AUC (ties 1/2), times
    n/n+ or n/n-; pooled sums within each fold."""
    n = len(y)
    fold_ids = sorted(set(folds))
    Np = sum(1 for v in y if v)
    w1, w0 = n / Np, n / (n - Np)
    n_units = len(set(ids)) if ids is not None else n
    taubar = n / n_units
    sig2 = 0.0
    for f in fold_ids:
        rows = [i for i in range(n) if folds[i] == f]
        auc, _ = auc_terms([y[i] for i in rows], [s[i] for i in rows])
        _, strict = auc_terms([y[i] for i in rows], [s[i] for i in rows], tie=0.0)
        ic = [(w1 if y[i] else w0) * (strict[k] - auc) for k, i in enumerate(rows)]
        if ids is None:
            sig2 += sum(v * v for v in ic) / len(rows)
        else:
            groups = {}
            for k, i in enumerate(rows):
                groups[ids[i]] = groups.get(ids[i], 0.0) + ic[k]
            sig2 += sum((v / taubar) ** 2 for v in groups.values()) / len(groups)
    sig2 /= len(fold_ids)
    return math.sqrt(sig2 / n_units)
