"""Running criteria on data: validate once, build one rank table, ask each unit."""

from __future__ import annotations

from typing import Any

from .. import criteria as _criteria
from .._kernels import build_rank_table, class_sorted, range_tables, use_ranges
from .._labels import check_sample, kind_of
from .._validation import warn_undefined

__all__ = ["compute", "evaluate", "DEFAULT_CRITERIA"]


def _values(units: list, is_pos, s, w, scale: float) -> list[float]:
    """Every rank criterion of ``units`` on one sample (both classes present, ``w`` already
    scaled for the scale-free ones): one table, or one pass of ranges on a large
    unweighted sample."""
    if not units:
        return []
    if use_ranges(s.shape[0], w):
        parts = [[] for _ in units]
        n_pos = n_neg = None
        for st in range_tables(*class_sorted(is_pos, s)):
            n_pos, n_neg = st.n_pos, st.n_neg
            for k, unit in enumerate(units):
                parts[k].append(unit.sums(st))
        return [unit.total(unit.merge(p), n_pos, n_neg) for unit, p in zip(units, parts)]
    tables = {}  # one table per weight scale in use (one, unless the weights had to be scaled)
    out = []
    for unit in units:
        wu, su = _criteria.table_weights(unit, w, scale)
        if su not in tables:
            tables[su] = build_rank_table(is_pos, s, wu)
        out.append(unit.value(tables[su]))
    return out


#: The criteria computed by :func:`evaluate` when none are named.
DEFAULT_CRITERIA = (
    "auc",
    "partial_auc:max_fpr=0.1,standardize=mcclish",
    "local_auc:top=0.1",
    "pnorm_push:p=4",
    "ndcg:k=100",
    "rank_statistic:phi=pnorm_push,p=4,scale=minmax",
)


def compute(spec: Any, y_true, y_score, sample_weight=None, pos_label=None) -> float:
    """One criterion (a spec, a ``(name, params)`` pair or a unit) on data, as a float.

    Binary criteria validate binary labels (``pos_label`` as in :func:`rankwise.auc`);
    criteria of real-valued labels (``ranking_risk``) take the labels as numbers. An
    undefined criterion warns and returns ``nan``."""
    unit = _criteria.get(spec)
    kind = kind_of(unit)
    x = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, kind=kind, func=unit.name)
    if kind.name == "real":
        value = unit.value_of(x.labels, x.scores, x.weights)
        return warn_undefined(unit.name, unit.undefined_reason) if value is None else value
    if not x.defined:
        return warn_undefined(unit.name)
    return _values([unit], x.labels, x.scores, x.weights, x.weight_scale)[0]


def evaluate(y_true, y_score, criteria=None, *, sample_weight=None, pos_label=None) -> dict[str, float]:
    """Several criteria from one rank table (one sort).

    Parameters
    ----------
    criteria : iterable of str or (name, params), or dict of label -> spec, optional
        Specs like ``"auc"``, ``"local_auc:top=0.1"``, ``"pnorm_push:p=4"``, ``"dcg:k=100"``,
        ``"partial_auc:max_fpr=0.1,standardize=mcclish"``,
        ``"rank_statistic:phi=local_auc,u0=0.9,scale=minmax"``, or ``("dcg", {"k": 10})``;
        any name of :func:`rankwise.criteria.names`. Default: :data:`DEFAULT_CRITERIA`.

    Returns
    -------
    dict
        Criterion label -> value, in the order asked. Every value equals the one the
        single criterion function returns. ``ranking_risk`` is computed on the binary
        labels (for ``pairs="comparable"`` it is ``1 - AUC``).

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.evaluate([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], ["auc", "partial_auc:max_fpr=0.5"])
    {'auc': 0.75, 'partial_auc:max_fpr=0.5': 0.25}
    """
    units = _criteria.parse(criteria, "evaluate", DEFAULT_CRITERIA)
    x = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, func="evaluate")
    if not x.defined:
        warn_undefined("evaluate")
        return {label: float("nan") for label, _ in units}
    # Criteria of binary labels share one rank table; those of real labels read the
    # binary labels as the numbers 1 and 0.
    real = {label for label, unit in units if kind_of(unit).name == "real"}
    ranked = [(label, unit) for label, unit in units if label not in real]
    values = dict(zip((label for label, _ in ranked),
                      _values([u for _, u in ranked], x.labels, x.scores, x.weights, x.weight_scale)))
    out = {}
    for label, unit in units:
        if label in real:
            value = unit.value_of(x.kind.as_real(x.labels), x.scores, x.weights)
            out[label] = warn_undefined(unit.name, unit.undefined_reason) if value is None else value
        else:
            out[label] = values[label]
    return out
