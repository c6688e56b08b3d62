"""AUCs over pairs of chosen cells (class x group or class x stratum): the bias AUCs of
Borkan et al. (2019), xAUC of Kallus & Zhou (2019) and the stratified AUC (pairs within
strata; the case-weighted covariate-adjusted AUC of Janes & Pepe 2009; GAUC of Zhou et
al. 2018). Point values; their intervals and tests are in :mod:`rankwise.stats`
(``by_group``, ``stratified_auc``)."""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from .._kernels import MAX_PLACEMENTS, CellAUCs, CellMoments, GroupCells
from .._labels import check_sample
from .._validation import UndefinedMetricWarning, check_choice, check_groups, warn_undefined

__all__ = ["bias_aucs", "xauc", "XAUC", "stratified_auc", "WEIGHTINGS", "StratumParts", "stratum_parts",
           "group_cells", "bias_definitions"]

#: The stratum weightings of :func:`stratified_auc`.
WEIGHTINGS = ("pairs", "positives", "size", "uniform")


def group_cells(y_true, y_score, groups, *, sample_weight=None, pos_label=None, clusters=None, func: str,
                name: str = "groups", unit: str = "group"):
    """``(sample, cells, names)``: the validated sample, its class x group cells and the
    group ids (sorted)."""
    sample = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, clusters=clusters,
                          func=func)
    if sample.n_rows == 0:
        raise ValueError(f"{func} got an empty sample (0 rows).")
    codes, names = check_groups(groups, sample.n_rows, func, name=name, unit=unit)
    return sample, GroupCells(sample.is_pos, codes, len(names), sample.weights), names


def bias_aucs(y_true, y_score, groups, *, sample_weight=None, pos_label=None) -> dict:
    r"""The bias AUCs of every group (Borkan et al. 2019).

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`rankwise.auc`.
    groups : array-like of shape (n,)
        The group (subgroup, identity) of each row; ids of any type, none missing.

    Returns
    -------
    dict
        ``{group: {"subgroup_auc", "bpsn_auc", "bnsp_auc", "aeg_positive", "aeg_negative": float}}``,
        the groups sorted. nan (with a warning) where a statistic's cells are empty.

    Notes
    -----
    With :math:`A(P, N)` the share of pairs of positives-side rows ``P`` over rows ``N``
    ordered ``P`` above ``N`` (ties 1/2, weights multiply) and :math:`D^\pm_g`,
    :math:`D^\pm_{\neg g}` the positives/negatives in and outside group g:
    subgroup AUC :math:`A(D^+_g, D^-_g)`; BPSN (background positive, subgroup negative)
    :math:`A(D^+_{\neg g}, D^-_g)`; BNSP :math:`A(D^+_g, D^-_{\neg g})`; the average
    equality gaps :math:`1/2 - A(D^+_g, D^+_{\neg g})` (positives) and
    :math:`1/2 - A(D^-_g, D^-_{\neg g})` (negatives): positive when the group's rows
    score below the others of their class. Borkan, Dixon, Sorensen, Thain & Vasserman
    (2019), "Nuanced metrics for measuring unintended bias with real data for text
    classification", WWW '19 Companion. One sort of the scores; intervals and tests:
    :func:`rankwise.stats.by_group`.

    Examples
    --------
    >>> import rankwise as rw
    >>> b = rw.bias_aucs([0, 1, 0, 1, 0, 1], [0.1, 0.9, 0.5, 0.6, 0.2, 0.4], ["a", "a", "a", "b", "b", "b"])
    >>> b["a"]["subgroup_auc"], b["a"]["bpsn_auc"], b["a"]["bnsp_auc"]
    (1.0, 0.75, 1.0)
    """
    sample, cells, names = group_cells(y_true, y_score, groups, sample_weight=sample_weight, pos_label=pos_label,
                                       func="bias_aucs")
    G = cells.G
    out = {}
    keys = ("subgroup_auc", "bpsn_auc", "bnsp_auc", "aeg_positive", "aeg_negative")
    if sample.n_rows * 2 * G <= MAX_PLACEMENTS:  # every value from the cells' moments, one sort
        moments = CellMoments(sample.scores, cells, same_class=True, scale=sample.weight_scale)
        for g, name in enumerate(names):
            values = moments.statistics(bias_definitions(G, g))[0]
            out[name] = {k: float(v) for k, v in zip(keys, values)}
    else:
        aucs = CellAUCs(cells, sample.scores)
        for g, name in enumerate(names):
            vals = []
            for P, N, sign in bias_definitions(G, g)[:5]:
                v = aucs.auc_cells(P, N)[0] if cells.mass.reshape(-1)[P].sum() > 0 and \
                    cells.mass.reshape(-1)[N].sum() > 0 else float("nan")
                vals.append(0.5 - v if sign < 0 else v)
            out[name] = dict(zip(keys, vals))
            aucs.forget(g)
    undefined = any(np.isnan(v) for row in out.values() for v in row.values())
    if undefined:
        warnings.warn("bias_aucs: some statistics are undefined (nan) because a group, or the rows outside it, "
                      "hold no positives or no negatives.", UndefinedMetricWarning, stacklevel=2)
    return out


def bias_definitions(G: int, g: int) -> list:
    """Group g's bias statistics as unions of cells ``(P, N, sign)`` (cell ``2 h + 1``: group
    h's positives, ``2 h``: its negatives; sign -1 for ``1/2 - A``): the subgroup, BPSN and
    BNSP AUCs, the positive and negative equality gaps, then the overall AUC."""
    others = [h for h in range(G) if h != g]
    pos_rest = [2 * h + 1 for h in others]
    neg_rest = [2 * h for h in others]
    return [([2 * g + 1], [2 * g], 1.0),  # subgroup AUC
            (pos_rest, [2 * g], 1.0),  # BPSN
            ([2 * g + 1], neg_rest, 1.0),  # BNSP
            ([2 * g + 1], pos_rest, -1.0),  # positive AEG
            ([2 * g], neg_rest, -1.0),  # negative AEG
            ([2 * h + 1 for h in range(G)], [2 * h for h in range(G)], 1.0)]  # overall


class XAUC(NamedTuple):
    """xAUC between two groups (Kallus & Zhou 2019).

    ``xauc``: positives of ``a`` over negatives of ``b``; ``reverse``: positives of ``b``
    over negatives of ``a``; ``disparity = xauc - reverse``; ``balanced_positive_a/b``:
    the group's positives over all negatives; ``balanced_negative_a/b``: all positives
    over the group's negatives."""

    xauc: float
    reverse: float
    disparity: float
    balanced_positive_a: float
    balanced_positive_b: float
    balanced_negative_a: float
    balanced_negative_b: float


def _find(names: list, v: Any, arg: str, func: str) -> int:
    for k, name in enumerate(names):
        if name == v or str(name) == str(v):
            return k
    raise ValueError(f"The '{arg}' parameter of {func} must be one of the groups {names[:20]}. Got {v!r}.")


def xauc(y_true, y_score, groups, a, b, *, sample_weight=None, pos_label=None) -> XAUC:
    r"""Cross-group AUC: how often a positive of group ``a`` outranks a negative of group ``b``.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`rankwise.auc`.
    groups : array-like of shape (n,)
        The group of each row.
    a, b : group ids
        Two different groups.

    Returns
    -------
    XAUC
        ``xauc`` = xAUC(a, b), ``reverse`` = xAUC(b, a), their ``disparity`` and the
        balanced xAUCs of each group.

    Notes
    -----
    Kallus & Zhou (2019), "The fairness of risk scores beyond classification: bipartite
    ranking and the xAUC metric", NeurIPS:
    :math:`\mathrm{xAUC}(a, b) = P(s(X) > s(X') \mid Y = 1, A = a, Y' = 0, A' = b)`
    (ties 1/2), :math:`\Delta = \mathrm{xAUC}(a, b) - \mathrm{xAUC}(b, a)`; the balanced
    :math:`\mathrm{xAUC}_1(a)` takes the positives of ``a`` against all negatives,
    :math:`\mathrm{xAUC}_0(a)` all positives against the negatives of ``a``. One sort.

    Examples
    --------
    >>> import rankwise as rw
    >>> x = rw.xauc([0, 1, 0, 1, 0, 1], [0.1, 0.9, 0.5, 0.6, 0.2, 0.4], ["a", "a", "a", "b", "b", "b"], "a", "b")
    >>> x.xauc, x.reverse, round(x.disparity, 4)
    (1.0, 0.75, 0.25)
    """
    sample, cells, names = group_cells(y_true, y_score, groups, sample_weight=sample_weight, pos_label=pos_label,
                                       func="xauc")
    ia, ib = _find(names, a, "a", "xauc"), _find(names, b, "b", "xauc")
    if ia == ib:
        raise ValueError(f"xauc compares two different groups; got a = b = {a!r}.")
    aucs = CellAUCs(cells, sample.scores)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        v = [aucs.auc(("pos", ia), ("neg", ib))[0], aucs.auc(("pos", ib), ("neg", ia))[0],
             aucs.auc(("pos", ia), ("neg", None))[0], aucs.auc(("pos", ib), ("neg", None))[0],
             aucs.auc(("pos", None), ("neg", ia))[0], aucs.auc(("pos", None), ("neg", ib))[0]]
    if any(np.isnan(x) for x in v):
        warnings.warn("xauc: some values are undefined (nan) because a group holds no positives or no negatives.",
                      UndefinedMetricWarning, stacklevel=2)
    return XAUC(v[0], v[1], v[0] - v[1], v[2], v[3], v[4], v[5])


class StratumParts(NamedTuple):
    """The strata of a stratified AUC: each stratum's AUC (nan with one class), weight
    (normalised over the strata used; 0 for a skipped stratum) and class masses."""

    values: np.ndarray
    weights: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray
    used: np.ndarray


def stratum_parts(aucs: CellAUCs | None, cells: GroupCells, weighting: str, with_terms: bool = False,
                  values: np.ndarray | None = None):
    """Each stratum's AUC and weight; with ``with_terms`` also each stratum's DeLong terms
    (full-length arrays, 0 off the stratum; None for a skipped stratum). ``values``: the
    strata's AUCs computed already (from :class:`rankwise._kernels.CellMoments`)."""
    G = cells.G
    vals = np.full(G, np.nan) if values is None else np.asarray(values, dtype=np.float64)
    terms: list = [None] * G
    for g in range(G):
        if values is None and cells.defined(g):
            vals[g], h = aucs.auc(("pos", g), ("neg", g))
            if with_terms:
                terms[g] = h
            aucs.forget(g)
    used = np.isfinite(vals)
    p, q = cells.mass[:, 1], cells.mass[:, 0]
    raw = {"pairs": p * q, "positives": p, "size": p + q, "uniform": np.ones(G)}[weighting]
    raw = np.where(used, raw, 0.0)
    total = raw.sum()
    wts = raw / total if total > 0 else raw
    parts = StratumParts(vals, wts, p.copy(), q.copy(), used)
    return (parts, terms) if with_terms else parts


def stratified_auc(y_true, y_score, strata, *, weighting: str = "pairs", sample_weight=None, pos_label=None) -> float:
    r"""The AUC over pairs within strata: a weighted mean of the strata's AUCs.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`rankwise.auc`.
    strata : array-like of shape (n,)
        The stratum of each row (site, user, a discrete covariate...).
    weighting : {"pairs", "positives", "size", "uniform"}, default "pairs"
        Each stratum's weight: its positive-negative pairs :math:`n^+_g n^-_g` (the AUC
        of the within-stratum pairs only), its positives :math:`n^+_g` (the covariate-
        adjusted AUC of Janes & Pepe 2009 for a discrete covariate), its rows
        :math:`n_g` (GAUC, Zhou et al. 2018: users weighted by impressions) or equal.

    Returns
    -------
    float
        nan (with a warning) when no stratum holds both classes. Strata with one class
        are skipped (:func:`rankwise.stats.stratified_auc` counts them).

    Notes
    -----
    .. math:: \mathrm{AUC}_S = \sum_g c_g \mathrm{AUC}_g, \qquad
              c_g = \frac{v_g}{\sum_{g'} v_{g'}}

    over the strata with both classes, :math:`\mathrm{AUC}_g` the AUC of stratum g's rows
    and :math:`v_g` the weighting above (masses with weights). With ``"pairs"`` it is
    the share of within-stratum pairs ordered right (ties 1/2). Janes & Pepe (2009),
    "Adjusting for covariate effects on classification accuracy using the covariate-
    adjusted receiver operating characteristic curve", Biometrika 96; Zhou et al. (2018),
    "Deep interest network for click-through rate prediction", KDD.

    Examples
    --------
    >>> import rankwise as rw
    >>> y = [0, 1, 0, 1, 0, 0, 1, 1]
    >>> s = [0.1, 0.9, 0.5, 0.3, 0.2, 0.6, 0.7, 0.8]
    >>> rw.stratified_auc(y, s, ["a", "a", "a", "a", "b", "b", "b", "b"])
    0.875
    """
    weighting = check_choice(weighting, "weighting", "stratified_auc", WEIGHTINGS)
    sample, cells, _ = group_cells(y_true, y_score, strata, sample_weight=sample_weight, pos_label=pos_label,
                                   func="stratified_auc", name="strata", unit="stratum")
    if sample.n_rows * 2 * cells.G <= MAX_PLACEMENTS:  # the strata's AUCs from the cells' moments: one sort
        moments = CellMoments(sample.scores, cells, same_class=False, scale=sample.weight_scale)
        values = moments.statistics([([2 * g + 1], [2 * g], 1.0) for g in range(cells.G)])[0]
        parts = stratum_parts(None, cells, weighting, values=values)
    else:
        parts = stratum_parts(CellAUCs(cells, sample.scores), cells, weighting)
    if not parts.used.any():
        return warn_undefined("stratified_auc", "no stratum holds both classes")
    return float(np.dot(parts.weights[parts.used], parts.values[parts.used]))
