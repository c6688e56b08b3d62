"""Bipartite ranking criteria: thin functions that look a criterion up and run it.

Conventions, for every function of this module:

* Higher score = more likely positive, always; no direction is ever inferred.
* ``*_auc``, ``rank_statistic``, ``dcg`` and ``ndcg`` are *scores* (higher is
  better); ``pnorm_push`` and ``ranking_risk`` are *losses* (lower is better).
* Ties in score: a positive-negative pair tied in score counts 1/2 (the
  expected value under uniformly random tie-breaking) unless a ``ties``
  parameter says otherwise.
* ``sample_weight`` are frequency weights: an integer weight is the same as
  repeating the observation.
* If only one class is present (or carries weight), the criterion is undefined:
  an :class:`~rankwise.UndefinedMetricWarning` is issued and ``nan`` returned.
"""

from __future__ import annotations

from ._run import compute

__all__ = [
    "auc",
    "rank_statistic",
    "local_auc",
    "pnorm_push",
    "dcg",
    "ndcg",
    "partial_auc",
    "average_precision",
    "ks_statistic",
    "gini",
]


# --- public criteria ---------------------------------------------------------------------

def auc(y_true, y_score, *, sample_weight=None, pos_label=None) -> float:
    r"""Area under the ROC curve, the Wilcoxon-Mann-Whitney statistic.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels: {0, 1}, {-1, +1}, booleans, or any two values with ``pos_label``.
    y_score : array-like of shape (n,)
        Real scores; higher means more likely positive.
    sample_weight : array-like of shape (n,), optional
        Non-negative frequency weights.
    pos_label : optional
        The label of the positive class (needed for labels other than {0,1}, {-1,1}, bools).

    Returns
    -------
    float
        In [0, 1]; ``nan`` (with a warning) if only one class is present.

    Notes
    -----
    .. math:: \mathrm{AUC} = \frac{1}{n_+ n_-} \sum_{i: y_i = 1} \sum_{j: y_j = 0}
              w_i w_j \left(\mathbf 1\{s_i > s_j\} + \tfrac12 \mathbf 1\{s_i = s_j\}\right)

    with :math:`n_\pm` the class masses. Ties count 1/2. Computed as one pass over the
    rank table: :math:`\sum_l P_l (N^{<}_l + N_l/2) / (n_+ n_-)`, O(n log n) for the sort.
    Reference: Clémençon & Vayatis (2008), "Empirical performance maximization for linear
    rank statistics", NIPS; equals
    scikit-learn's ``roc_auc_score`` and R pROC's ``auc``.

    Examples
    --------
    Three positive-negative pairs in order, one reversed, none tied: 3/4.

    >>> import rankwise as rw
    >>> rw.auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    return compute("auc", y_true, y_score, sample_weight, pos_label)


def rank_statistic(
    y_true, y_score, phi="auc", *, ties: str = "average", scale: str = "raw", sample_weight=None, pos_label=None,
    **phi_params,
) -> float:
    r"""Conditional linear rank statistic ``W_n`` of Clémençon & Vayatis (2008) for any ``phi``.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`auc`.
    phi : str, rankwise.phi.Phi or callable
        ``"auc"``, ``"local_auc:u0=0.9"``, ``"pnorm_push:p=4"``, ``"dcg:k=10"``, an object
        from :mod:`rankwise.phi` (``rw.phi.local_auc(0.9)``...), or a vectorised nondecreasing
        callable from [0, 1] into [0, 1] (checked on a grid).
    ties : {"average", "max"}
        ``"average"``: a tied block gets its mid-rank. ``"max"``: the paper's
        ``Rank(s_i) = #{j : s_j <= s_i}``.
    scale : {"raw", "mean", "minmax"}
        ``"raw"``: the sum, as in the paper. ``"mean"``: divided by ``n+``. ``"minmax"``:
        0 when every positive is ranked below every negative, 1 when above (positives
        keeping their order among themselves); equals the AUC for ``phi(u) = u``.
    **phi_params
        Parameters of a ``phi`` given by name: ``rank_statistic(y, s, "pnorm_push", p=4)``.

    Notes
    -----
    .. math:: W_n = \sum_{i: y_i = 1} w_i\, \phi\!\left(\frac{\mathrm{Rank}(s_i)}{n + 1}\right)

    ranks in mass units. Without ties and with ``phi(u) = u``,
    :math:`W_n = [n_+ n_- \mathrm{AUC} + n_+(n_+ + 1)/2]/(n + 1)`. Reference: Clémençon &
    Vayatis, "Empirical performance maximization for linear rank statistics", NIPS 2008.

    Examples
    --------
    Ranks of the positives are 3 and 4 of n = 4, so ``W = 3/5 + 4/5``.

    >>> import rankwise as rw
    >>> rw.rank_statistic([0, 0, 1, 1], [1, 2, 3, 4], "auc")
    1.4
    """
    return compute(("rank_statistic", {"phi": phi, "ties": ties, "scale": scale, **phi_params}), y_true, y_score, sample_weight, pos_label)


def local_auc(y_true, y_score, *, top: float, sample_weight=None, pos_label=None) -> float:
    r"""Local AUC of Clémençon & Vayatis (JMLR 2007): the AUC restricted to positives in the top.

    Parameters
    ----------
    top : float in (0, 1]
        Fraction of the pooled sample kept at the top of the list. ``top=1`` is the AUC.

    Notes
    -----
    .. math:: \mathrm{LocAUC} = \frac{1}{n_+ n_-}\sum_{i: y_i=1}\sum_{j: y_j=0} w_i w_j
              \left(\mathbf 1\{s_i > s_j\} + \tfrac12\mathbf 1\{s_i = s_j\}\right)\mathbf 1\{s_i \ge Q\}

    the empirical version of :math:`P\{s(X) > s(X'), s(X) \ge Q(s, 1 - u_0) \mid Y = 1, Y' = -1\}`.
    ``Q`` is the largest score level with at least a fraction ``top`` of the sample mass at
    or above it (so exactly ``top`` is kept when no ties straddle the cut). The linear rank
    statistic with ``phi(u) = u 1{u >= u0}`` is the related criterion of Clémençon & Vayatis (2008)
    (``rank_statistic(..., rw.phi.local_auc(u0))``), with ``u0 = 1 - top``.

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.local_auc([0, 1, 0, 1], [1, 2, 3, 4], top=0.5)   # positive at 4 beats both negatives
    0.5
    """
    return compute(("local_auc", {"top": top}), y_true, y_score, sample_weight, pos_label)


def pnorm_push(y_true, y_score, *, p: float, ties: str = "average", normalize: bool = True,
               sample_weight=None, pos_label=None) -> float:
    r"""Rudin's p-norm push (JMLR 2009), height form: a loss, lower is better.

    Parameters
    ----------
    p : float >= 1
        ``p = 1`` is ``1 - AUC``; larger ``p`` concentrates on the negatives ranked highest.
    ties : {"average", "max"}
        ``"average"`` counts a positive tied with a negative as half below it; ``"max"``
        counts it fully (Rudin's ``<=``).
    normalize : bool
        If True (default), return ``(R_p / (n- n+^p))^(1/p)``, in [0, 1]; otherwise Rudin's
        raw ``R_p``.

    Notes
    -----
    .. math:: \mathrm{Height}(k) = \sum_{i: y_i=1} w_i \left(\mathbf 1\{s_i < \tilde s_k\}
              + \tfrac12 \mathbf 1\{s_i = \tilde s_k\}\right), \qquad
              R_p = \sum_{k: y_k = 0} w_k \,\mathrm{Height}(k)^p

    This differs from the pooled-rank statistic ``rank_statistic(..., "pnorm_push:p=...")``
    of Clémençon & Vayatis (2008).

    Examples
    --------
    The negative at 3 is above one of the two positives: height 1, normalised ``(1/2^2)^(1/2)``.

    >>> import rankwise as rw
    >>> rw.pnorm_push([1, 0, 1], [1, 3, 4], p=2)
    0.5
    """
    return compute(("pnorm_push", {"p": p, "ties": ties, "normalize": normalize}), y_true, y_score, sample_weight, pos_label)


def dcg(y_true, y_score, *, k: int | None = None, discount=None, sample_weight=None, pos_label=None) -> float:
    r"""Discounted cumulative gain with binary relevance, top ``k`` positions.

    Parameters
    ----------
    k : int >= 1, optional
        Positions kept (all if None).
    discount : callable, optional
        Vectorised, nonincreasing ``position -> [0, 1]``; default ``1 / log2(1 + position)``.

    Notes
    -----
    .. math:: \mathrm{DCG@k} = \sum_{q=1}^{k} \mathrm{rel}_q\, d(q), \qquad d(q) = 1/\log_2(1+q)

    position 1 = highest score. A block of tied scores shares the mean discount of the
    positions it occupies (the expected DCG under random tie-breaking; scikit-learn's
    ``dcg_score`` convention). As a linear rank statistic (Clémençon & Vayatis 2008) this is
    ``phi(u) = d(n + 1 - (n+1)u) 1{(n+1)u >= n - k + 1}``; ``rank_statistic`` with
    ``rw.phi.dcg(k)`` evaluates it at the mid-rank instead, which agrees when there are no ties.
    Reference: Järvelin & Kekäläinen, ACM TOIS 20(4), 2002; Clémençon & Vayatis, NIPS 2008.

    Examples
    --------
    Positives at positions 1 and 3: ``1 + 1/log2(4) = 1.5``.

    >>> import rankwise as rw
    >>> rw.dcg([1, 0, 1], [0.9, 0.5, 0.1])
    1.5
    """
    return compute(("dcg", {"k": k, "discount": discount}), y_true, y_score, sample_weight, pos_label)


def ndcg(y_true, y_score, *, k: int | None = None, discount=None, sample_weight=None, pos_label=None) -> float:
    r"""Normalised DCG: :func:`dcg` divided by the DCG of the ideal ordering (positives first).

    Notes
    -----
    .. math:: \mathrm{NDCG@k} = \mathrm{DCG@k} / \sum_{q=1}^{\min(k, n_+)} d(q)

    Ties as in :func:`dcg`; with weights, positions are counted in mass units (integer
    weights are repetitions). Reference: Järvelin & Kekäläinen 2002.

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.ndcg([1, 0, 1], [0.9, 0.5, 0.1])   # 1.5 / (1 + 1/log2(3))
    0.919720...
    """
    return compute(("ndcg", {"k": k, "discount": discount}), y_true, y_score, sample_weight, pos_label)


def partial_auc(y_true, y_score, *, max_fpr: float | None = None, standardize: str | None = None,
                min_fpr: float | None = None, min_tpr: float | None = None, max_tpr: float | None = None,
                sample_weight=None, pos_label=None) -> float:
    r"""Area under the ROC curve over a band of false-positive rates, or beside it over a
    band of true-positive rates.

    Parameters
    ----------
    max_fpr, min_fpr : float in [0, 1], optional
        The band ``[min_fpr, max_fpr]`` of false-positive rates (``min_fpr`` defaults to 0,
        ``max_fpr`` to 1): the area under the curve there (pROC's ``partial.auc.focus =
        "specificity"`` with ``partial.auc = c(1 - min_fpr, 1 - max_fpr)``).
    min_tpr, max_tpr : float in [0, 1], optional
        Instead, the band ``[min_tpr, max_tpr]`` of true-positive rates (defaults 0 and 1):
        the area between the curve and the right edge ``FPR = 1`` there, i.e. the integral
        of the specificity over the sensitivity (pROC's ``partial.auc.focus =
        "sensitivity"``, ``partial.auc = c(min_tpr, max_tpr)``). Screening tests read it:
        how specific is the score where it catches at least 90% of the cases?
    standardize : {None, "mcclish"}
        ``"mcclish"``: McClish's (1989) correction ``(1 + (A - m)/(M - m)) / 2`` with ``m``
        the area of the diagonal over the band and ``M`` the band's width (a perfect
        curve), so that 0.5 is chance and 1 perfect, as in scikit-learn's
        ``roc_auc_score(max_fpr=...)`` and pROC's ``partial.auc.correct=TRUE``. A curve
        below the diagonal gets a value below 0.5 (pROC returns NA there).

    Notes
    -----
    .. math:: \mathrm{pAUC} = \int_{a}^{b} \mathrm{ROC}(x)\, dx, \qquad
              \mathrm{pAUC}_{\mathrm{TPR}} = \int_{a}^{b} \bigl(1 - \mathrm{ROC}^{-1}(t)\bigr)\, dt

    on the empirical ROC curve with tied scores as diagonal segments (ties count 1/2), the
    curve linearly interpolated at the ends of the band. The whole band gives the AUC.
    With ``m = (b^2 - a^2)/2`` (FPR band) or ``m = (b - a) - (b^2 - a^2)/2`` (TPR band).
    Agrees with pROC 1.18 to 1e-13 in both foci.

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.partial_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], max_fpr=0.5)
    0.25

    Above true-positive rate 0.5 the curve runs at false-positive rate 0.5 (the second
    positive comes after one negative): the area to its right over [0.5, 1] is 0.5 * 0.5.

    >>> rw.partial_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_tpr=0.5)
    0.25
    """
    params = {"max_fpr": max_fpr, "min_fpr": min_fpr, "min_tpr": min_tpr, "max_tpr": max_tpr}
    params = {k: v for k, v in params.items() if v is not None}
    return compute(("partial_auc", {**params, "standardize": standardize}), y_true, y_score, sample_weight,
                   pos_label)


def average_precision(y_true, y_score, *, sample_weight=None, pos_label=None) -> float:
    r"""Average precision: the area under the precision-recall curve, in its step form.

    Notes
    -----
    .. math:: \mathrm{AP} = \sum_k (R_k - R_{k-1}) P_k
              = \frac{1}{n_+} \sum_{i: y_i = 1} w_i \,
              \frac{\sum_{j: y_j = 1} w_j \mathbf 1\{s_j \ge s_i\}}{\sum_j w_j \mathbf 1\{s_j \ge s_i\}}

    over the distinct score thresholds from the top (``R`` recall, ``P`` precision at the
    threshold, tied scores one threshold), with no interpolation between points:
    scikit-learn's ``average_precision_score`` (they agree to 1e-12, weights included).
    It depends on the share of positives, unlike the AUC: a random score has AP ``n+ / n``.
    Its Hájek standard error is in :func:`rankwise.stats.estimate`.

    Examples
    --------
    The positives are at ranks 1 and 3 from the top: precisions 1 and 2/3.

    >>> import rankwise as rw
    >>> round(rw.average_precision([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]), 4)
    0.8333
    """
    return compute("average_precision", y_true, y_score, sample_weight, pos_label)


def ks_statistic(y_true, y_score, *, sample_weight=None, pos_label=None) -> float:
    r"""The Kolmogorov-Smirnov statistic: the largest gap between the class score distributions.

    Notes
    -----
    .. math:: \mathrm{KS} = \max_t \,\lvert \mathrm{TPR}(t) - \mathrm{FPR}(t) \rvert

    over every threshold ``t`` (called positive when the score is ``>= t``): the largest
    vertical distance between the ROC curve and the diagonal, the credit-scoring standard,
    and scipy's ``ks_2samp(pos, neg).statistic`` without weights. In [0, 1]. Its intervals
    come from the stratified bootstrap (:func:`rankwise.stats.estimate`): a maximum over
    thresholds has no smooth projection.

    Examples
    --------
    At threshold 0.5, all positives and none of the negatives are called positive.

    >>> import rankwise as rw
    >>> rw.ks_statistic([0, 0, 1, 1], [0.1, 0.2, 0.6, 0.9])
    1.0
    """
    return compute("ks_statistic", y_true, y_score, sample_weight, pos_label)


def gini(y_true, y_score, *, sample_weight=None, pos_label=None) -> float:
    r"""The Gini coefficient (accuracy ratio) of credit scoring: ``2 AUC - 1``.

    Notes
    -----
    In [-1, 1]: 0 for a random score, 1 for a perfect one. Ties count 1/2 (through the
    AUC). :func:`rankwise.stats.estimate` gives its DeLong interval (the AUC's, mapped by
    ``2x - 1``).

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.gini([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])   # AUC 0.75
    0.5
    """
    return compute("gini", y_true, y_score, sample_weight, pos_label)
