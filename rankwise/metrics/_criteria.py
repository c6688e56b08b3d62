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

__all__ = ["auc", "rank_statistic", "local_auc", "pnorm_push", "dcg", "ndcg", "partial_auc"]


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
    Reference: paper 000 (Clémençon & Vayatis 2008), ``THEORY.md`` section 1; equals
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
    r"""Conditional linear rank statistic ``W_n`` of paper 000 for any score-generating ``phi``.

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
    Vayatis, NIPS 2008 (paper 000), ``THEORY.md`` section 1.

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
    statistic with ``phi(u) = u 1{u >= u0}`` is the related criterion of paper 000
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
    of paper 000 (``THEORY.md`` section 1).

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
    ``dcg_score`` convention). As a linear rank statistic (paper 000) this is
    ``phi(u) = d(n + 1 - (n+1)u) 1{(n+1)u >= n - k + 1}``; ``rank_statistic`` with
    ``rw.phi.dcg(k)`` evaluates it at the mid-rank instead, which agrees when there are no ties.
    Reference: Järvelin & Kekäläinen, ACM TOIS 20(4), 2002; paper 000, ``THEORY.md`` section 1.

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


def partial_auc(y_true, y_score, *, max_fpr: float, standardize: str | None = None,
                sample_weight=None, pos_label=None) -> float:
    r"""Area under the ROC curve over false-positive rates in ``[0, max_fpr]``.

    Parameters
    ----------
    max_fpr : float in (0, 1]
    standardize : {None, "mcclish"}
        ``"mcclish"``: McClish's (1989) correction ``(1 + (A - m)/(M - m)) / 2`` with
        ``m = max_fpr^2 / 2`` (the diagonal) and ``M = max_fpr`` (perfect), so that 0.5 is
        chance and 1 perfect, as in scikit-learn's ``roc_auc_score(max_fpr=...)`` and pROC's
        ``partial.auc.correct=TRUE``.

    Notes
    -----
    .. math:: \mathrm{pAUC} = \int_0^{\mathrm{max\_fpr}} \mathrm{ROC}(a)\, da

    on the empirical ROC curve with tied scores as diagonal segments (ties count 1/2), the
    curve linearly interpolated at ``max_fpr``. ``max_fpr = 1`` gives the AUC.

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.partial_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], max_fpr=0.5)
    0.25
    """
    return compute(("partial_auc", {"max_fpr": max_fpr, "standardize": standardize}), y_true, y_score, sample_weight, pos_label)
