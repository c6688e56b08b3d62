"""Bipartite ranking criteria: thin functions over the rank table.

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

from typing import Any, Callable, NamedTuple

import numpy as np

from .. import phi as _phi
from .._kernels import _passes
from .._kernels import build_rank_table
from .._validation import check_binary_inputs, check_choice, check_param, warn_undefined

__all__ = [
    "auc",
    "rank_statistic",
    "local_auc",
    "pnorm_push",
    "dcg",
    "ndcg",
    "partial_auc",
    "roc_curve",
    "ROCCurve",
    "evaluate",
    "CRITERIA",
    "DEFAULT_CRITERIA",
]


# --- parameter checks (one per criterion; shared by the functions and evaluate) ---------

def _params_auc() -> dict:
    return {}


def _params_rank_statistic(phi: Any = "auc", ties: str = "average", scale: str = "raw", **phi_params) -> dict:
    if phi_params:
        if not isinstance(phi, str):
            raise ValueError(
                f"rank_statistic got unexpected parameters {sorted(phi_params)}; phi parameters are only "
                f"accepted together with a phi name."
            )
        name, params = _phi.parse_spec(phi)
        params.update(phi_params)
        phi = name + ":" + ",".join(f"{k}={v}" for k, v in params.items())
    return {
        "phi": _phi.resolve(phi, "rank_statistic"),
        "ties": check_choice(ties, "ties", "rank_statistic", ("average", "max")),
        "scale": check_choice(scale, "scale", "rank_statistic", ("raw", "mean", "minmax")),
    }


def _params_local_auc(top: float) -> dict:
    return {"top": check_param(top, "top", "local_auc", low=0.0, high=1.0, low_inclusive=False)}


def _params_pnorm_push(p: float, ties: str = "average", normalize: bool = True) -> dict:
    if not isinstance(normalize, (bool, np.bool_)):
        raise TypeError(f"The 'normalize' parameter of pnorm_push must be a bool. Got {normalize!r} instead.")
    return {
        "p": check_param(p, "p", "pnorm_push", low=1.0),
        "ties": check_choice(ties, "ties", "pnorm_push", ("average", "max")),
        "normalize": bool(normalize),
    }


def _params_dcg(k: int | None = None, discount: Callable | None = None, _func: str = "dcg") -> dict:
    k = check_param(k, "k", _func, low=1, integer=True, allow_none=True)
    dphi = _phi.dcg(k, discount)  # validates a user discount
    return {"k": k, "discount": dphi.discount}


def _params_ndcg(k: int | None = None, discount: Callable | None = None) -> dict:
    return _params_dcg(k, discount, _func="ndcg")


def _params_partial_auc(max_fpr: float, standardize: str | None = None) -> dict:
    max_fpr = check_param(max_fpr, "max_fpr", "partial_auc", low=0.0, high=1.0, low_inclusive=False)
    if standardize is not None:
        standardize = check_choice(standardize, "standardize", "partial_auc", ("mcclish",))
    return {"max_fpr": max_fpr, "standardize": standardize}


# --- passes ------------------------------------------------------------------------------

def _run_auc(t) -> float:
    return _passes.auc(t)


def _run_rank_statistic(t, phi, ties, scale) -> float:
    w, wmin, wmax = _passes.rank_statistic(t, phi, ties, scale)
    if scale == "raw":
        return w
    if scale == "mean":
        return w / t.n_pos
    if not wmax > wmin:
        return warn_undefined("rank_statistic(scale='minmax')", "phi takes the same value at the best and the worst ordering")
    return (w - wmin) / (wmax - wmin)


def _run_local_auc(t, top) -> float:
    return _passes.local_auc(t, top)


def _run_pnorm_push(t, p, ties, normalize) -> float:
    return _passes.pnorm_push(t, p, ties, normalize)


def _run_dcg(t, k, discount) -> float:
    return _passes.dcg(t, k, discount)


def _run_ndcg(t, k, discount) -> float:
    return _passes.dcg(t, k, discount) / _passes.ideal_dcg(t, k, discount)


def _run_partial_auc(t, max_fpr, standardize) -> float:
    pauc = _passes.partial_auc(t, max_fpr)
    if standardize is None or max_fpr >= 1.0:
        return pauc
    lo, hi = 0.5 * max_fpr * max_fpr, max_fpr
    return 0.5 * (1.0 + (pauc - lo) / (hi - lo))


CRITERIA: dict[str, tuple[Callable[..., dict], Callable[..., float]]] = {
    "auc": (_params_auc, _run_auc),
    "rank_statistic": (_params_rank_statistic, _run_rank_statistic),
    "local_auc": (_params_local_auc, _run_local_auc),
    "pnorm_push": (_params_pnorm_push, _run_pnorm_push),
    "dcg": (_params_dcg, _run_dcg),
    "ndcg": (_params_ndcg, _run_ndcg),
    "partial_auc": (_params_partial_auc, _run_partial_auc),
}

#: The criteria computed by :func:`evaluate` when none are named.
DEFAULT_CRITERIA = (
    "auc",
    "partial_auc:max_fpr=0.1,standardize=mcclish",
    "local_auc:top=0.1",
    "pnorm_push:p=4",
    "ndcg:k=100",
    "rank_statistic:phi=pnorm_push,p=4,scale=minmax",
)


def _compute(name: str, y_true, y_score, sample_weight, pos_label, params: dict) -> float:
    checker, runner = CRITERIA[name]
    checked = checker(**params)
    is_pos, s, w, defined = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label)
    if not defined:
        return warn_undefined(name)
    return runner(build_rank_table(is_pos, s, w), **checked)


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
    return _compute("auc", y_true, y_score, sample_weight, pos_label, {})


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
    return _compute("rank_statistic", y_true, y_score, sample_weight, pos_label,
                    {"phi": phi, "ties": ties, "scale": scale, **phi_params})


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
    return _compute("local_auc", y_true, y_score, sample_weight, pos_label, {"top": top})


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
    return _compute("pnorm_push", y_true, y_score, sample_weight, pos_label,
                    {"p": p, "ties": ties, "normalize": normalize})


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
    return _compute("dcg", y_true, y_score, sample_weight, pos_label, {"k": k, "discount": discount})


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
    return _compute("ndcg", y_true, y_score, sample_weight, pos_label, {"k": k, "discount": discount})


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
    return _compute("partial_auc", y_true, y_score, sample_weight, pos_label,
                    {"max_fpr": max_fpr, "standardize": standardize})


class ROCCurve(NamedTuple):
    """The empirical ROC curve, by decreasing threshold, starting at (0, 0).

    ``thresholds[0]`` is ``+inf``; at ``thresholds[i]`` an observation is called positive
    when its score is ``>= thresholds[i]``.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


def roc_curve(y_true, y_score, *, sample_weight=None, pos_label=None, drop_intermediate: bool = False) -> ROCCurve:
    r"""The empirical ROC curve at every distinct score.

    Parameters
    ----------
    drop_intermediate : bool
        Drop points on straight segments (the area is unchanged), as scikit-learn does by
        default. Off by default here: every distinct threshold is returned.

    Notes
    -----
    At threshold ``t``: :math:`\mathrm{TPR}(t) = \sum_{i: y_i = 1} w_i \mathbf 1\{s_i \ge t\} / n_+`,
    :math:`\mathrm{FPR}(t) = \sum_{j: y_j = 0} w_j \mathbf 1\{s_j \ge t\} / n_-`. Joining the points
    by straight lines gives an area equal to :func:`auc` (ties count 1/2). Scores carried only
    by zero-weight observations are not thresholds. With one class only, the undefined
    coordinate is ``nan`` (with a warning).

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.roc_curve([0, 1], [0.2, 0.7]).tpr
    array([0., 1., 1.])
    """
    if not isinstance(drop_intermediate, (bool, np.bool_)):
        raise TypeError(f"The 'drop_intermediate' parameter of roc_curve must be a bool. Got {drop_intermediate!r} instead.")
    is_pos, s, w, defined = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label)
    t = build_rank_table(is_pos, s, w)
    if not defined:
        warn_undefined("roc_curve")
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr, tpr, thr = _passes.roc_points(t)
    if drop_intermediate and fpr.shape[0] > 2:
        keep = np.r_[True, np.logical_or(np.diff(fpr, 2) != 0, np.diff(tpr, 2) != 0), True]
        fpr, tpr, thr = fpr[keep], tpr[keep], thr[keep]
    return ROCCurve(fpr, tpr, thr)


# --- many criteria, one sort --------------------------------------------------------------

def _normalise_spec(spec) -> tuple[str, str, dict]:
    """Return ``(label, name, params)`` for a string spec or a ``(name, params)`` pair."""
    if isinstance(spec, str):
        name, params = _phi.parse_spec(spec)
        label = spec
    elif isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str) and isinstance(spec[1], dict):
        name, params = spec[0], dict(spec[1])
        label = name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")
    else:
        raise TypeError(
            f"Each criterion must be a string like 'pnorm_push:p=4' or a (name, params) pair. Got {spec!r} instead."
        )
    if name not in CRITERIA:
        raise ValueError(f"Unknown criterion {name!r}; valid criteria are {', '.join(CRITERIA)}.")
    return label, name, params


def parse_criteria(criteria) -> list[tuple[str, str, dict]]:
    """``(label, name, checked_params)`` per criterion of an :func:`evaluate` ``criteria``
    argument (None: :data:`DEFAULT_CRITERIA`), with its errors: empty, a label twice, an
    unknown criterion, bad parameters. Shared with :func:`rankwise.distributed.evaluate`."""
    if criteria is None:
        criteria = DEFAULT_CRITERIA
    if isinstance(criteria, str) or (
        isinstance(criteria, tuple) and len(criteria) == 2 and isinstance(criteria[1], dict)
    ):
        criteria = [criteria]
    if isinstance(criteria, dict):
        items = []
        for label, spec in criteria.items():
            _, name, params = _normalise_spec(spec)
            items.append((str(label), name, params))
    else:
        items = [_normalise_spec(spec) for spec in criteria]
    if not items:
        raise ValueError("The 'criteria' argument of evaluate is empty; name at least one criterion.")
    labels = [label for label, _, _ in items]
    if len(set(labels)) != len(labels):
        raise ValueError(f"The 'criteria' argument of evaluate names a criterion twice: {labels}.")
    checked = []
    for label, name, params in items:
        try:
            checked.append((label, name, CRITERIA[name][0](**params)))
        except TypeError as exc:
            raise ValueError(f"Bad parameters for criterion {label!r}: {exc}") from exc
    return checked


def evaluate(y_true, y_score, criteria=None, *, sample_weight=None, pos_label=None) -> dict[str, float]:
    """Several criteria from one rank table (one sort).

    Parameters
    ----------
    criteria : iterable of str or (name, params), or dict of label -> spec, optional
        Specs like ``"auc"``, ``"local_auc:top=0.1"``, ``"pnorm_push:p=4"``, ``"dcg:k=100"``,
        ``"partial_auc:max_fpr=0.1,standardize=mcclish"``,
        ``"rank_statistic:phi=local_auc,u0=0.9,scale=minmax"``, or ``("dcg", {"k": 10})``.
        Default: :data:`DEFAULT_CRITERIA`.

    Returns
    -------
    dict
        Criterion label -> value, in the order asked. Every value equals the one the
        single criterion function returns.

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.evaluate([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], ["auc", "partial_auc:max_fpr=0.5"])
    {'auc': 0.75, 'partial_auc:max_fpr=0.5': 0.25}
    """
    checked = parse_criteria(criteria)
    is_pos, s, w, defined = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label)
    if not defined:
        warn_undefined("evaluate")
        return {label: float("nan") for label, _, _ in checked}
    t = build_rank_table(is_pos, s, w)
    return {label: CRITERIA[name][1](t, **params) for label, name, params in checked}
