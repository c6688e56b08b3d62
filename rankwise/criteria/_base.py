"""The criterion unit and its registry.

A criterion is one object holding everything specific to it; every entry point
(:mod:`rankwise.metrics`, :mod:`rankwise.stats`, :mod:`rankwise.distributed`, the command
line, the report) looks it up here and calls the same methods. Two families:

:class:`RankCriterion`
    Binary labels; the value is a pass over the rank table (the distinct score levels with
    their positive and negative mass). The pass returns a few **sums** that add up over
    score ranges, and :meth:`~RankCriterion.finish` turns the totals into the value. The
    same pass runs on one table, on a batch of resampled tables (the stratified
    bootstrap: :class:`rankwise._kernels.MassRows`) and on one bucket of a
    range-partitioned sample seen through the masses below it
    (:class:`rankwise._kernels.ShiftedTable`: the Dask algorithm adds the buckets' sums).
    Its Hájek projection (the per-observation terms behind the variance) is computed in
    two rounds that serve one table and a partitioned sample alike: each bucket reports a
    small :meth:`~RankCriterion.summary`, :meth:`~RankCriterion.combine` turns the
    summaries into the few global numbers each bucket needs, then
    :meth:`~RankCriterion.projection` gives the terms at the bucket's levels. On one
    table there is one bucket.

:class:`PairCriterion`
    Real-valued (graded) labels; the value is a U-statistic over pairs of observations,
    with its own projection (the Hoeffding decomposition).

Adding a criterion is one subclass decorated with :func:`register`, in its own module
imported by :mod:`rankwise.criteria`; nothing else changes.
"""

from __future__ import annotations

import functools
import inspect
import math
from typing import Any, ClassVar, Iterable

import numpy as np

from .._kernels import window_bandwidth
from .._validation import parse_spec

__all__ = [
    "Criterion",
    "RankCriterion",
    "PairCriterion",
    "register",
    "get",
    "names",
    "unit_class",
    "parse",
    "spec_label",
    "num",
    "percent",
    "add_sums",
    "table_weights",
]

_REGISTRY: dict[str, type] = {}


def register(cls: type) -> type:
    """Class decorator: make a :class:`Criterion` subclass known under ``cls.name``."""
    name = cls.name
    if name in _REGISTRY and _REGISTRY[name] is not cls:
        raise ValueError(f"A criterion named {name!r} is already registered.")
    _REGISTRY[name] = cls
    return cls


def names() -> tuple[str, ...]:
    """Every registered criterion name, in registration order."""
    return tuple(_REGISTRY)


def unit_class(name: str, func: str | None = None) -> type:
    """The class registered under ``name``; a ``ValueError`` listing the valid names if none."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown criterion {name!r}; valid criteria are {', '.join(_REGISTRY)}.") from None


def get(spec: Any, func: str | None = None, **params: Any) -> "Criterion":
    """The criterion unit for a spec, validated.

    ``spec``: a name (``"auc"``), a spec string (``"local_auc:top=0.1"``), a
    ``(name, params)`` pair, or a unit (returned as is when no ``params`` are given).
    ``params`` are added to those of the spec. Parameter errors are ``ValueError`` or
    ``TypeError`` with the message of the criterion's public function.
    """
    if isinstance(spec, Criterion):
        if params:
            return type(spec)(**{**spec.params, **params})
        return spec
    if isinstance(spec, str):
        name, spec_params = parse_spec(spec)
    elif isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str) and isinstance(spec[1], dict):
        name, spec_params = spec[0], dict(spec[1])
    else:
        raise TypeError(f"A criterion must be a string like 'pnorm_push:p=4' or a (name, params) pair. "
                        f"Got {spec!r} instead.")
    cls = unit_class(name, func)
    spec_params.update(params)
    return cls(**spec_params)


def spec_label(name: str, params: dict) -> str:
    """``"name:key=value,..."`` (just ``"name"`` without parameters)."""
    if not params:
        return name
    return name + ":" + ",".join(f"{k}={_show(v)}" for k, v in params.items())


def num(x: Any) -> str:
    """A parameter in a readable name: ``0.1``, ``4``, ``0.125`` (no trailing zeros)."""
    return f"{x:g}" if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) else str(x)


def percent(x: float) -> str:
    """A fraction as a percentage: ``0.1`` -> ``10%``, ``0.125`` -> ``12.5%``."""
    return f"{100.0 * float(x):.10g}%"


def _show(v: Any) -> str:
    if callable(v) and hasattr(v, "__name__"):
        return v.__name__
    return str(v)


def parse(criteria: Any, func: str = "evaluate", default: Iterable | None = None) -> list[tuple[str, "Criterion"]]:
    """``(label, unit)`` for each criterion of an ``evaluate``-style argument: a spec, a
    list of specs or ``(name, params)`` pairs, or a dict label -> spec (None: ``default``).
    Errors: empty, a label twice, an unknown criterion, bad parameters."""
    if criteria is None:
        criteria = default
    if isinstance(criteria, (str, Criterion)) or (
            isinstance(criteria, tuple) and len(criteria) == 2 and isinstance(criteria[1], dict)):
        criteria = [criteria]
    if isinstance(criteria, dict):
        items = [(str(label), spec) for label, spec in criteria.items()]
    else:
        items = []
        for spec in criteria:
            if isinstance(spec, str):
                label = spec
            elif isinstance(spec, Criterion):
                label = spec.label
            elif isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str) and isinstance(spec[1], dict):
                label = spec_label(spec[0], spec[1])
            else:
                raise TypeError(f"Each criterion must be a string like 'pnorm_push:p=4' or a (name, params) pair. "
                                f"Got {spec!r} instead.")
            items.append((label, spec))
    if not items:
        raise ValueError(f"The 'criteria' argument of {func} is empty; name at least one criterion.")
    labels = [label for label, _ in items]
    if len(set(labels)) != len(labels):
        raise ValueError(f"The 'criteria' argument of {func} names a criterion twice: {labels}.")
    out = []
    for label, spec in items:
        try:
            out.append((label, get(spec, func)))
        except TypeError as exc:
            raise ValueError(f"Bad parameters for criterion {label!r}: {exc}") from exc
    return out


class Criterion:
    """Base of the registry's units. Subclasses set the class attributes below and
    validate their parameters in ``__init__`` (keyword arguments, the public function's
    message shape), storing what the passes need as attributes and the parameters as
    given in ``self.params``."""

    #: The spec name, also the name of the public function.
    name: ClassVar[str]
    #: "rank": binary labels, a pass over the rank table; "pairs": real labels, pairs.
    family: ClassVar[str]
    #: True for scores (higher is better), False for losses (scorers negate them).
    greater_is_better: ClassVar[bool] = True
    #: Analytic standard errors, the default first; empty: the bootstrap only.
    methods: ClassVar[tuple[str, ...]] = ("hajek",)
    #: A few spec strings (documentation, command-line help; the tests run every one).
    examples: ClassVar[tuple[str, ...]] = ()

    params: dict

    def __init_subclass__(cls, **kwargs):
        # Every unit records the parameters it was given (for its label, equality and
        # re-creation with more parameters) and reports an unknown one in one message.
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return
        sig = inspect.signature(init)
        takes_any = any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())
        accepted = [p for p in sig.parameters if p != "self" and not p.startswith("_")
                    and sig.parameters[p].kind is not inspect.Parameter.VAR_KEYWORD]

        @functools.wraps(init)
        def __init__(self, **params):
            unknown = [k for k in params if k not in sig.parameters or k.startswith("_")] if not takes_any else []
            if unknown:
                raise TypeError(f"{cls.name} got unexpected parameter(s) {unknown}; its parameters are "
                                f"{accepted or 'none'}.")
            missing = [p for p in accepted if sig.parameters[p].default is inspect.Parameter.empty
                       and p not in params]
            if missing:
                raise TypeError(f"{cls.name} needs the parameter(s) {missing}, e.g. '{cls.name}:{missing[0]}=...'.")
            init(self, **params)
            self.params = dict(params)

        cls.__init__ = __init__

    @property
    def label(self) -> str:
        """The spec string of this unit, e.g. ``"local_auc:top=0.1"`` (machine-readable)."""
        return spec_label(self.name, self.params)

    def describe(self) -> str:
        """A readable name for tables and figures, e.g. ``"local AUC, top 10%"`` for
        ``local_auc:top=0.1``: each unit words its own parameters, so that the report and
        the command line never switch on a criterion's name. The default is the spec."""
        return self.label

    def __repr__(self) -> str:
        return f"<criterion {self.label}>"

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and other.params == self.params

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))


class RankCriterion(Criterion):
    """A criterion of binary labels computed as a pass over the rank table."""

    family = "rank"
    #: How the sums of two score ranges combine: "sum" (added) or "max".
    reduce: ClassVar[str] = "sum"
    #: True when the criterion is unchanged by a common scale of the weights (AUC and
    #: every ratio of masses); False when it reads absolute masses (DCG's positions,
    #: ``rank / (N + 1)``, raw sums). Callers give a scale-free criterion the weights
    #: divided by a power of two where their scale would overflow the sums, the others
    #: the weights as given (:func:`rankwise._validation.scale_weights`).
    scale_free: ClassVar[bool] = True

    # --- value -----------------------------------------------------------------------
    def sums(self, t) -> tuple:
        """The pass: sums over the levels of ``t`` (a table, a bucket with offsets, or a
        batch of rows) that add up (or take their maximum, ``reduce = "max"``) over score
        ranges."""
        raise NotImplementedError

    def finish(self, sums: tuple, n_pos, n_neg):
        """The criterion from the totals of :meth:`sums` and the class masses. Works on
        scalars and on ``(k, 1)`` columns of a batch alike."""
        return sums[0]

    def merge(self, parts: list) -> tuple:
        """Combine the sums of several score ranges (buckets), float by float or array by
        array; exact (``math.fsum``) for floats."""
        if self.reduce != "max":
            return add_sums(parts)
        parts = [p for p in parts if p is not None]
        if not parts:
            return ()
        return tuple(np.maximum.reduce([p[j] for p in parts]) if np.ndim(parts[0][j]) else
                     max(float(p[j]) for p in parts) for j in range(len(parts[0])))

    def value(self, t) -> float:
        """The criterion on one rank table (both classes present)."""
        return self.total(self.sums(t), t.n_pos, t.n_neg)

    def total(self, sums: tuple, n_pos: float, n_neg: float) -> float:
        """The criterion from the total sums of a whole sample (one table, or its score
        ranges merged), as a float; a unit may warn here about the value."""
        return float(self.finish(sums, n_pos, n_neg))

    def values(self, rows) -> np.ndarray:
        """The criterion on each row of a batch (:class:`rankwise._kernels.MassRows`)."""
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            out = self.finish(self.sums(rows), rows.n_pos, rows.n_neg)
        return np.broadcast_to(np.asarray(out, dtype=np.float64), (rows.A.shape[0], 1)).ravel().copy()

    # --- projection (Hájek) --------------------------------------------------------------
    def bandwidth(self, n: float, given: float | None) -> float:
        """The window of the projection's numerical derivatives (fraction of the sample)."""
        return window_bandwidth(n) if given is None else given

    def summary(self, d, bw: float) -> dict:
        """Round 1, per bucket (``d`` its dense view with offsets): what the bucket
        contributes to the global numbers of the projection."""
        return {}

    def combine(self, summaries: list, n_pos: float, n_neg: float) -> list:
        """Client side: the buckets' summaries (lowest scores first; None for an empty
        bucket) -> one dict of globals per bucket."""
        return [{} for _ in summaries]

    def projection(self, d, bw: float, g: dict) -> tuple[np.ndarray, np.ndarray]:
        """``(h_pos, h_neg)`` at every level of ``d``, before :meth:`scale`'s factor."""
        raise NotImplementedError(f"{self.name} has no projection; its intervals come from the bootstrap.")

    # A score range of a large unweighted sample read without its dense view. On a range
    # that lies wholly on one side of what a criterion reads closely (below a local AUC's
    # cut, past a partial AUC's band, under DCG@k's top positions) its summary and terms
    # follow from the range's class masses alone (the range is flat); a criterion whose
    # terms live on one class at a time (the p-norm push's heights) reads them off the
    # class sides. Either way no array over every level of the range is made.
    def range_summary(self, st, bw: float) -> dict | None:
        """:meth:`summary` of a score range ``st`` of an unweighted sample (a
        :class:`rankwise._kernels.ShiftedTable`) without its dense view: from
        ``st.range_masses()``, ``st.end_masses()`` or the class sides. Equal to
        ``summary(dense(st), bw)`` (up to the order of a floating-point sum). None: read
        the dense view."""
        return None

    def range_terms(self, st, bw: float, g: dict) -> tuple | None:
        """``(h_pos, h_neg)`` of :meth:`projection` on the range ``st`` (unweighted, with its
        globals ``g``) without the dense view. Each is a float when the projection is that
        value at every level where the class has mass (a flat range), or an array over
        the levels of ``st.pos_side`` (``st.neg_side``) equal to the projection there.
        None: read the dense view."""
        return None

    #: True when :meth:`side_projection` gives the projection from the table's class
    #: sides with no round-1 summary (e.g. AUC's placements): inference then never makes
    #: the dense view, and on ranges needs one walk (two with a chain-rule factor).
    side_projected = False

    def side_projection(self, t) -> tuple[np.ndarray, np.ndarray]:
        """``(h_pos, h_neg)`` at the levels of ``t.pos_side`` and ``t.neg_side``: the values
        :meth:`projection` gives at those levels (only where :attr:`side_projected`)."""
        raise NotImplementedError

    def bound_sums(self, t) -> tuple:
        """Further sums (additive over buckets) that :meth:`scale` needs."""
        return ()

    def scale(self, value: float, bsums: tuple, g: dict, n_pos: float, n_neg: float) -> tuple[float, tuple]:
        """``(factor, (low, high))``: the chain-rule factor from the projected statistic
        to the criterion, and the criterion's range at these class sizes."""
        return 1.0, (0.0, 1.0)

    @property
    def has_projection(self) -> bool:
        return bool(self.methods)


class PairCriterion(Criterion):
    """A criterion of real-valued labels: a U-statistic over pairs of observations."""

    family = "pairs"

    def value_of(self, y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> float:
        raise NotImplementedError

    def projection_of(self, y, s, w):
        """``(value, projection, zeta1, zeta2, n)`` (the Hoeffding decomposition's pieces)
        or None when the criterion is undefined on this sample."""
        raise NotImplementedError


def table_weights(unit, w, scale: float) -> tuple:
    """``(weights, scale)`` to build ``unit``'s rank table from: the weights as scaled by
    :func:`rankwise._validation.scale_weights` for a scale-free criterion, the weights as
    given (``scale * w``, exact: a power of two) for one that reads absolute masses."""
    if w is None or scale == 1.0 or unit.scale_free:
        return w, scale
    return w * scale, 1.0


def add_sums(parts: list) -> tuple:
    """The element-wise total of tuples of sums (floats by ``math.fsum``, exact; arrays
    added); None parts (empty buckets) are skipped."""
    parts = [p for p in parts if p is not None]
    if not parts:
        return ()
    return tuple(np.sum([p[j] for p in parts], axis=0) if np.ndim(parts[0][j]) else
                 math.fsum(p[j] for p in parts) for j in range(len(parts[0])))


def buckets_above(summaries: list, key: str) -> np.ndarray:
    """For each bucket, the sum of ``key`` over the buckets above it (higher scores)."""
    tot = np.array([s[key] if s else 0.0 for s in summaries])
    return np.concatenate((np.cumsum(tot[::-1])[::-1][1:], [0.0]))


def buckets_below(summaries: list, key: str) -> np.ndarray:
    """For each bucket, the sum of ``key`` over the buckets below it (lower scores)."""
    tot = np.array([s[key] if s else 0.0 for s in summaries])
    return np.concatenate(([0.0], np.cumsum(tot)[:-1]))

