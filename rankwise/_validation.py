"""The one place where user input becomes clean arrays, or a clear error.

Every public function of rankwise validates its arguments here, once, at the
door; the numeric kernels in :mod:`rankwise._kernels` assume clean input and
never validate again.

Error messages follow one shape: they name the argument, say what was received
and what is expected, e.g. ``The 'max_fpr' parameter of partial_auc must be a
float in (0, 1]. Got 1.5 instead.``
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

import numpy as np

from ._kernels import float_holds

__all__ = [
    "UndefinedMetricWarning",
    "check_scores",
    "check_real_labels",
    "check_sample_weight",
    "scale_weights",
    "weight_scale",
    "check_clusters",
    "check_groups",
    "check_param",
    "check_choice",
    "check_same_length",
    "warn_undefined",
    "parse_spec",
    "convert_value",
    "to_numpy",
    "as_float64",
    "labels_equal",
    "format_values",
    "ranked_score_values",
]


class UndefinedMetricWarning(UserWarning):
    """Warning emitted when a criterion is undefined (e.g. only one class present);
    the criterion then returns ``nan``, as scikit-learn does."""


def to_numpy(x: Any, name: str) -> np.ndarray:
    """Turn lists, numpy, pandas, polars and pyarrow inputs into a numpy array
    without copying where possible."""
    if x is None:
        raise TypeError(f"The '{name}' argument must be an array-like. Got None instead.")
    if isinstance(x, (str, bytes)):
        raise TypeError(
            f"The '{name}' argument must be an array-like of values. Got a {type(x).__name__} instead."
        )
    mod = type(x).__module__ or ""
    if mod.startswith("pyarrow"):
        # pyarrow Array / ChunkedArray: nulls become NaN (floats) or None (objects).
        x = x.to_numpy(zero_copy_only=False) if hasattr(x, "to_numpy") else np.asarray(x)
    elif mod.startswith("polars"):
        x = x.to_numpy()
    elif hasattr(x, "to_numpy") and mod.startswith("pandas"):
        dtype = getattr(x, "dtype", None)
        # Nullable pandas dtypes: turn missing values into NaN so they are caught below.
        if dtype is not None and getattr(dtype, "kind", None) in "iufb" and getattr(x, "hasnans", False):
            x = x.to_numpy(dtype=np.float64, na_value=np.nan)
        else:
            x = x.to_numpy()
    try:
        arr = np.asarray(x)
    except Exception as exc:  # noqa: BLE001 - re-raised with context
        raise TypeError(f"The '{name}' argument could not be read as an array: {exc}") from exc
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(
            f"The '{name}' argument must be one-dimensional. Got an array of shape {arr.shape} instead."
        )
    if not arr.dtype.isnative:
        # Big-endian data (HDF5, FITS, network order): the same values in the machine's own
        # byte order, once, here, so that every engine sees the same native arrays.
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return arr


def check_scores(y_score: Any, *, name: str = "y_score") -> np.ndarray:
    """Return ``y_score`` as a 1-D array of finite reals.

    float32 and float64 are kept as they are (no rounding), integers are kept
    as integers (their order is exact), booleans become ``float64`` 0/1.
    """
    arr = to_numpy(y_score, name)
    if arr.size == 0:
        raise ValueError(f"The '{name}' argument is empty; at least one score is needed.")
    if (isinstance(y_score, (list, tuple)) and arr.dtype.kind == "f" and arr.size
            and float(np.abs(arr).max()) >= 2.0 ** 53 and any(
                isinstance(v, numbers.Integral) and not isinstance(v, bool) and abs(v) > 2 ** 53 for v in y_score)):
        # numpy turned ints that float64 cannot hold into floats next to a float: keep the objects.
        arr = np.array(y_score, dtype=object)
    kind = arr.dtype.kind
    if kind == "b":
        arr = arr.astype(np.float64)
    elif kind == "O":
        try:
            as_float = arr.astype(np.float64)
        except (TypeError, ValueError, OverflowError) as exc:
            bad = _first_bad_object(arr)
            if not isinstance(bad, numbers.Integral):
                raise TypeError(
                    f"The '{name}' argument must contain real numbers. Got non-numeric values "
                    f"(e.g. {bad!r}) instead."
                ) from exc
            as_float = None  # an integer beyond float64's range: ranked exactly below
        arr = _exact_scores(arr, as_float)
    elif kind == "f":
        if arr.dtype.itemsize > 8:
            arr = arr.astype(np.float64)
        elif arr.dtype.itemsize < 4:
            arr = arr.astype(np.float32)
    elif kind in "iu":
        pass
    elif kind in "US":
        raise TypeError(
            f"The '{name}' argument must contain real numbers. Got strings "
            f"(e.g. {_first_bad_object(arr).item()!r}) instead."
        )
    else:
        raise TypeError(
            f"The '{name}' argument must contain real numbers. Got an array of dtype {arr.dtype} instead."
        )
    # min and max are nan when any value is and +-inf when any value is infinite: two
    # passes without a temporary (the mask is made only to name the bad values).
    if arr.dtype.kind == "f" and not (np.isfinite(arr.min()) and np.isfinite(arr.max())):
        finite = np.isfinite(arr)
        if not finite.all():
            bad = np.flatnonzero(~finite)
            kinds = "NaN" if np.isnan(arr[bad]).all() else ("infinite" if not np.isnan(arr[bad]).any() else "NaN or infinite")
            raise ValueError(
                f"The '{name}' argument contains {bad.size} {kinds} value(s) (first at index "
                f"{_fmt_indices(bad)}); scores must be finite real numbers."
            )
    return arr


def _exact_scores(arr: np.ndarray, as_float: np.ndarray | None) -> np.ndarray:
    """Scores given as Python objects, in a numeric array with the same order.

    float64 when every value converts exactly (the common case: floats, small ints);
    int64 or uint64 for integers that fit them; otherwise (integers beyond 64 bits, or
    next to floats that cannot hold them exactly) the dense ranks of the values, found by
    sorting the objects themselves (Python compares ints, floats and fractions exactly).
    Every criterion depends on the scores through their order only, so ranks give the
    exact result where float64 would merge 2^64 and 2^64 + 1."""
    values = arr.tolist()
    if as_float is not None and all(
            isinstance(v, numbers.Real) and (v != v or float(v) == v) for v in values):
        return as_float
    if all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in values):
        for dtype in (np.int64, np.uint64):
            try:
                return np.array(values, dtype=dtype)
            except OverflowError:
                pass
    bad = [i for i, v in enumerate(values) if not isinstance(v, numbers.Real) or v != v
           or (isinstance(v, float) and not math.isfinite(v))]
    if bad:
        out = np.zeros(len(values))
        out[bad] = np.nan  # reported below as non-finite, at these indices
        return out
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = np.empty(len(values), dtype=np.int64)
    r = -1
    prev = None
    for j, i in enumerate(order):
        if j == 0 or values[i] != prev:
            r += 1
            prev = values[i]
        ranks[i] = r
    return ranks


def ranked_score_values(y_score: Any) -> list | None:
    """The distinct score values, increasing, as exact Python numbers, when
    :func:`check_scores` gives their dense ranks in place of ``y_score`` (integers that no
    64-bit dtype holds, or that float64 would round next to floats); ``None`` when it keeps
    the scores as numbers. Rank ``r`` is the value ``values[r]``: what a threshold reported
    on such scores must show. Call it on input that :func:`check_scores` accepted."""
    if isinstance(y_score, (list, tuple)):
        fast = np.asarray(y_score)
        if fast.dtype.kind in "iub" or (fast.dtype.kind == "f" and not (
                fast.size and float(np.abs(fast).max()) >= 2.0 ** 53)):
            return None  # kept as numbers by check_scores: no pass over the objects
        arr = np.array(y_score, dtype=object)
    else:
        arr = to_numpy(y_score, "y_score")
        if arr.dtype.kind != "O":
            return None
    values = [v.item() if isinstance(v, np.generic) else v for v in np.ravel(arr)]
    if all(isinstance(v, numbers.Real) and float_holds(v) for v in values):
        return None
    if all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in values):
        if all(-2 ** 63 <= v < 2 ** 63 for v in values) or all(0 <= v < 2 ** 64 for v in values):
            return None
    return sorted(set(values))



def _first_bad_object(arr: np.ndarray) -> Any:
    for v in arr:
        try:
            float(v)
        except (TypeError, ValueError):
            return v
    return arr[0]


def _fmt_indices(idx: np.ndarray, limit: int = 5) -> str:
    shown = ", ".join(str(int(i)) for i in idx[:limit])
    return shown + (", ..." if idx.size > limit else "")


def check_sample_weight(sample_weight: Any, n: int) -> np.ndarray | None:
    """Return ``None`` or a float64 array of ``n`` finite, non-negative weights."""
    if sample_weight is None:
        return None
    w = as_float64(to_numpy(sample_weight, "sample_weight"), "sample_weight")
    if w.shape[0] != n:
        raise ValueError(
            f"The 'sample_weight' argument has {w.shape[0]} values but y_true has {n}; they must have the same length."
        )
    _require_finite(w, "sample_weight", "weights must be finite and non-negative")
    if (w < 0).any():
        bad = np.flatnonzero(w < 0)
        raise ValueError(
            f"The 'sample_weight' argument contains {bad.size} negative value(s) (first at index "
            f"{_fmt_indices(bad)}); weights must be finite and non-negative."
        )
    return w


def scale_weights(w: np.ndarray | None) -> tuple[np.ndarray | None, float]:
    """``(w / c, c)``: the weights divided by a power of two ``c`` when their scale would
    make a criterion's sums overflow or underflow, else ``(w, 1.0)``.

    Products of two weights overflow from about 1e154 and underflow below 1e-162, and a
    class total times the other's overflows sooner with many rows. Weights are left as
    they are while the largest one lies in [2^-200, 2^200 / n]; outside, they are divided
    by the power of two that puts the largest in [0.5, 1). That division is exact (no
    rounding): a criterion that is invariant under a common scale of the weights (AUC,
    p-norm push, partial AUC, ...) is then the same number at any scale from 1e-300 to
    1e300, within rounding of the input. ``c`` is what frequency-weight inference needs
    (a class's size is ``c`` times its scaled mass), and criteria that depend on the
    absolute mass (DCG's positions, ``rank / (N + 1)``) are computed on ``c * (w / c)``,
    which is ``w`` exactly. Weights below ``2^-1074`` of the largest become 0 (their share
    of any sum is below double precision). The caller's array is never modified."""
    if w is None or w.shape[0] == 0:
        return w, 1.0
    c = weight_scale(float(w.max()), w.shape[0])
    if c == 1.0:
        return w, 1.0
    return np.ldexp(w, -math.frexp(c)[1] + 1), c


def weight_scale(top: float, n: int) -> float:
    """The power of two :func:`scale_weights` divides ``n`` weights by, the largest being
    ``top`` (1.0 when no scaling is needed); shared with the distributed passes, which know
    ``top`` and ``n`` from their first pass."""
    if not top > 0 or 2.0 ** -200 <= top <= 2.0 ** 200 / max(n, 1):
        return 1.0
    return math.ldexp(1.0, math.frexp(top)[1])




def labels_equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return False


def format_values(values: np.ndarray, limit: int = 6) -> str:
    vals = values.tolist()
    shown = ", ".join(repr(v) for v in vals[:limit])
    return shown + (", ..." if len(vals) > limit else "")


def check_real_labels(y_true: Any) -> np.ndarray:
    """Return real-valued labels (graded relevance) as a finite float64 array."""
    arr = to_numpy(y_true, "y_true")
    if arr.size == 0:
        raise ValueError("The 'y_true' argument is empty; at least one label is needed.")
    arr = as_float64(arr, "y_true")
    _require_finite(arr, "y_true", "labels must be finite real numbers")
    return arr


def as_float64(arr: np.ndarray, name: str) -> np.ndarray:
    if arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"The '{name}' argument must contain real numbers. Got dtype {arr.dtype} instead."
            ) from exc
    return arr.astype(np.float64, copy=False)


def _require_finite(arr: np.ndarray, name: str, expected: str) -> None:
    finite = np.isfinite(arr)
    if not finite.all():
        bad = np.flatnonzero(~finite)
        raise ValueError(
            f"The '{name}' argument contains {bad.size} NaN or infinite value(s) (first at index "
            f"{_fmt_indices(bad)}); {expected}."
        )


def check_same_length(n_true: int, n_score: int, score_name: str = "y_score") -> None:
    if n_true != n_score:
        raise ValueError(
            f"y_true has {n_true} values but {score_name} has {n_score}; they must have the same length."
        )


def check_clusters(clusters: Any, n: int, func: str = "estimate", *, name: str = "clusters",
                   unit: str = "cluster") -> tuple[np.ndarray, int] | None:
    """The sampling units of ``n`` rows: ``(codes, n_clusters)``, ``codes`` int64 in
    ``0 .. n_clusters - 1`` numbered in order of first appearance; None when ``clusters``
    is None (every row its own unit).

    Ids may be of any type that compares for equality (integers, strings, tuples...);
    a missing id (None, NaN, NaT, pandas NA) is an error, as is a length other than ``n``:
    nothing is computed on rows that may be misaligned.

    Integer ids (also integral floats and dates) within a range of about ``2 n`` values
    are numbered through a table indexed by the id, in linear time; other integers and
    strings by pyarrow's hash table (``dictionary_encode``, which numbers by first
    appearance); anything else by sorting, or by a dict when the ids do not sort.

    ``name`` and ``unit`` word the messages for other ids of the same form (``"groups"``,
    ``"group"``: :func:`check_groups`).
    """
    if clusters is None:
        return None
    if isinstance(clusters, (str, bytes)) or np.isscalar(clusters):
        raise TypeError(f"The '{name}' parameter of {func} must be an array-like of {n} {unit} ids, one per "
                        f"row. Got a {type(clusters).__name__} instead.")
    mod = type(clusters).__module__ or ""
    if mod.startswith("pandas") and hasattr(clusters, "isna"):
        missing = np.asarray(clusters.isna())
        if missing.ndim == 1 and missing.any():
            raise ValueError(f"The '{name}' parameter of {func} has missing ids (None/NaN) at rows "
                             f"{_fmt_indices(np.flatnonzero(missing))}; every row needs the id of its {unit}.")
    if isinstance(clusters, (list, tuple)):
        # NumPy would read [nan, "a"] as the strings "nan" and "a": missing ids first
        gone = [i for i, v in enumerate(clusters)
                if v is None or (isinstance(v, float) and v != v) or type(v).__name__ in ("NAType", "NaTType")]
        if gone:
            raise ValueError(f"The '{name}' parameter of {func} has missing ids (None/NaN) at rows "
                             f"{_fmt_indices(np.asarray(gone))}; every row needs the id of its {unit}.")
    try:
        arr = to_numpy(clusters, name)
    except ValueError as exc:
        raise ValueError(f"The '{name}' parameter of {func} must be one-dimensional (one id per row). "
                         f"{exc}") from None
    if arr.shape[0] != n:
        raise ValueError(f"The '{name}' parameter of {func} must have one id per row: {n} rows. "
                         f"Got {arr.shape[0]} ids instead.")
    kind = arr.dtype.kind
    values = None  # the ids as Python objects (object arrays only)
    if kind == "f" or kind == "c":
        bad = ~np.isfinite(arr)
        if bad.any():
            raise ValueError(f"The '{name}' parameter of {func} has missing or infinite ids at rows "
                             f"{_fmt_indices(np.flatnonzero(bad))}; every row needs the id of its {unit}.")
    elif kind == "M":
        bad = np.isnat(arr)
        if bad.any():
            raise ValueError(f"The '{name}' parameter of {func} has missing ids (NaT) at rows "
                             f"{_fmt_indices(np.flatnonzero(bad))}; every row needs the id of its {unit}.")
    elif kind == "O":
        values = arr.tolist()
        bad = np.fromiter((v is None or (isinstance(v, float) and v != v) or type(v).__name__ in ("NAType", "NaTType")
                           for v in values), dtype=bool, count=n)
        if bad.any():
            raise ValueError(f"The '{name}' parameter of {func} has missing ids (None/NaN) at rows "
                             f"{_fmt_indices(np.flatnonzero(bad))}; every row needs the id of its {unit}.")
    elif kind not in "iubUS":
        raise TypeError(f"The '{name}' parameter of {func} must hold ids (integers, strings, ...). "
                        f"Got an array of dtype {arr.dtype} instead.")
    if n == 0:
        return np.zeros(0, dtype=np.int64), 0
    ints = _integer_ids(arr)
    if ints is not None:
        coded = _table_codes(ints, n)
        if coded is not None:
            return coded
    if ints is not None or kind in "US" or (values is not None and all(type(v) is str for v in values)):
        # Integers far apart, strings: a hash table (no sort, no Python object per id).
        coded = _hashed_codes(arr if ints is None else ints)
        if coded is not None:
            return coded
    try:
        uniq, first, inv = np.unique(arr, return_index=True, return_inverse=True)
    except TypeError:
        # Ids of mixed types that do not sort: number them by first appearance.
        table: dict = {}
        try:
            codes = np.fromiter((table.setdefault(v, len(table)) for v in (arr.tolist() if values is None else values)),
                                dtype=np.int64, count=n)
        except TypeError as exc:
            raise TypeError(f"The '{name}' parameter of {func} must hold hashable ids. Got: {exc}") from None
        return codes, len(table)
    # Renumber by first appearance (stable, readable: cluster 0 is the first row's).
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    return rank[inv.reshape(-1)].astype(np.int64, copy=False), int(uniq.shape[0])


#: :func:`check_clusters` numbers integer ids through a table indexed by the id when their
#: range holds at most this many values per row (plus :data:`_TABLE_SLACK`): two int64
#: arrays of the range's length, instead of sorting the ids.
_TABLE_SPAN_PER_ROW = 2
_TABLE_SLACK = 1 << 16


def _integer_ids(arr: np.ndarray) -> np.ndarray | None:
    """Cluster ids that are integers as an integer array (dates as their int64 count,
    integral floats below 2^53 as int64: 0.0 and -0.0 one id, as ``np.unique`` has
    them), or None."""
    kind = arr.dtype.kind
    if kind in "iub":
        return arr
    if kind == "M":
        return arr.view(np.int64)
    if kind == "f" and arr.shape[0]:
        top = max(float(arr.max()), -float(arr.min()))
        if top <= 2.0 ** 53 and np.array_equal(arr, np.trunc(arr)):
            return arr.astype(np.int64)
    return None


def _table_codes(ids: np.ndarray, n: int) -> tuple[np.ndarray, int] | None:
    """:func:`check_clusters`' codes of ``n`` integer ids through a table over their range
    (None when the range is wider than :data:`_TABLE_SPAN_PER_ROW` values a row): each
    id's first row (``np.minimum.at``), the ids in the order of their first rows, and
    each row's code read off the table. Linear in ``n`` and the range; ids already
    numbered ``0, 1, ...`` by first appearance are returned as they are."""
    lo, hi = int(ids.min()), int(ids.max())
    span = hi - lo
    if span >= _TABLE_SPAN_PER_ROW * n + _TABLE_SLACK:
        return None
    if ids.dtype.kind == "u" and hi > np.iinfo(np.intp).max:
        x = (ids - ids.dtype.type(lo)).astype(np.intp)  # unsigned ids above the signed range
    else:
        x = ids.astype(np.intp)  # a copy: shifted in place below
        if lo:
            x -= lo  # in [0, span]: exact even where an intermediate wraps
    rows = np.arange(n, dtype=np.intp)
    first = np.full(span + 1, n, dtype=np.intp)
    np.minimum.at(first, x, rows)
    order = x[first[x] == rows]  # each id once, in the order of its first row
    G = int(order.shape[0])
    if G == span + 1 and np.array_equal(order, rows[:G]):
        return x.astype(np.int64, copy=False), G  # already numbered by first appearance
    code = np.empty(span + 1, dtype=np.int64)
    code[order] = np.arange(G, dtype=np.int64)
    return code[x], G


def _hashed_codes(ids: np.ndarray) -> tuple[np.ndarray, int] | None:
    """:func:`check_clusters`' codes from pyarrow's ``dictionary_encode`` (a hash table
    that numbers the values in order of first appearance), for integer or string ids;
    None when pyarrow cannot read them (then the caller sorts)."""
    try:
        import pyarrow as pa

        enc = pa.array(ids, type=pa.string() if ids.dtype.kind == "O" else None).dictionary_encode()
        codes = np.asarray(enc.indices.to_numpy(zero_copy_only=False), dtype=np.int64)
    except (ImportError, TypeError, ValueError, NotImplementedError, OverflowError):
        return None  # (pyarrow's ArrowInvalid / ArrowTypeError are ValueError / TypeError)
    return codes, len(enc.dictionary)


def warn_undefined(func: str, reason: str = "only one class is present in y_true") -> float:
    warnings.warn(
        f"{func} is undefined because {reason}; returning nan.",
        UndefinedMetricWarning,
        stacklevel=3,
    )
    return float("nan")


def check_param(
    value: Any,
    name: str,
    func: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
    integer: bool = False,
    allow_none: bool = False,
) -> Any:
    """Check a scalar parameter against a range; return it as float (or int)."""
    if value is None and allow_none:
        return None
    lo_b = "[" if low_inclusive else "("
    hi_b = "]" if high_inclusive and high is not None else ")"
    rng = f"{lo_b}{'-inf' if low is None else _num(low)}, {'inf' if high is None else _num(high)}{hi_b}"
    what = "an integer" if integer else "a float"
    msg = f"The '{name}' parameter of {func} must be {what} in {rng}{' or None' if allow_none else ''}. Got {value!r} instead."
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(msg)
    if integer:
        if not float(value).is_integer():
            raise ValueError(msg)
        value = int(value)
    else:
        value = float(value)
    if not np.isfinite(value):
        raise ValueError(msg)
    if low is not None and (value < low or (value == low and not low_inclusive)):
        raise ValueError(msg)
    if high is not None and (value > high or (value == high and not high_inclusive)):
        raise ValueError(msg)
    return value


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def check_choice(value: Any, name: str, func: str, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        opts = ", ".join(repr(c) for c in choices)
        raise ValueError(f"The '{name}' parameter of {func} must be one of {opts}. Got {value!r} instead.")
    return value


# --- specs: "name:key=value,key=value" --------------------------------------------------

def convert_value(value: str) -> Any:
    """A spec value as Python: ``none``/``null``, ``true``/``false``, an int, a float, else the string."""
    v = value.strip()
    if v.lower() in ("none", "null"):
        return None
    if v.lower() in ("true", "false"):
        return v.lower() == "true"
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Parse ``"name"`` or ``"name:key=value,key=value"`` into ``(name, params)``.

    Used for criteria (``"pnorm_push:p=4"``), ``phi`` and learner specs.

    >>> parse_spec("pnorm_push:p=4")
    ('pnorm_push', {'p': 4})
    """
    if not isinstance(spec, str):
        raise TypeError(f"A criterion specification must be a string. Got {type(spec).__name__} instead.")
    name, _, rest = spec.partition(":")
    name = name.strip()
    params: dict[str, Any] = {}
    if rest.strip():
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise ValueError(f"Malformed parameter {item!r} in {spec!r}; expected 'name:key=value,key=value'.")
            params[key.strip()] = convert_value(value)
    return name, params


def check_groups(groups: Any, n: int, func: str = "by_group", *, name: str = "groups",
                 unit: str = "group") -> tuple[np.ndarray, list]:
    """The group of each of ``n`` rows: ``(codes, names)``, ``codes`` int64 in
    ``0 .. len(names) - 1`` and ``names`` the distinct ids, sorted when they sort (else
    in order of first appearance). The same checks as :func:`check_clusters`: one id a
    row, none missing (nothing is computed on rows that may be misaligned)."""
    if groups is None:
        raise TypeError(f"The '{name}' parameter of {func} is required: one {unit} id per row.")
    codes, G = check_clusters(groups, n, func, name=name, unit=unit)
    arr = to_numpy(groups, name)
    # each code's first row: check_clusters numbers the ids by first appearance, so the
    # running maximum of the codes steps up exactly there
    first = np.flatnonzero(np.diff(np.maximum.accumulate(codes), prepend=-1))
    ids = arr[first]
    names = [v.item() if hasattr(v, "item") else v for v in ids]
    try:
        order = sorted(range(G), key=lambda k: names[k])
    except TypeError:
        order = list(range(G))
    rank = np.empty(G, dtype=np.int64)
    rank[np.asarray(order, dtype=np.int64)] = np.arange(G, dtype=np.int64)
    return rank[codes], [names[k] for k in order]
