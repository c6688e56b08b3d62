"""Label kinds and the one validated sample.

A *label kind* says how ``y_true`` is read: which values it accepts, how a sample of
them is summarised, which label is the positive one, and which *cell* each row falls in.
A criterion reads pairs of cells: binary labels have two cells (1 = positive,
0 = negative) and every criterion of them reads the pairs (positive, negative); real
(graded) labels have one cell, whose pairs are ordered by their labels. Kinds are
registered by name (:func:`get_kind`); censored times (:class:`CensoredKind`: pairs of
rows ordered by time) are the third; class labels (:class:`MulticlassKind`: one cell per
class, pairs of classes) and ordered classes (:class:`OrdinalKind`: cells in their order,
chains of one row per class) the fourth and fifth.

The distinct values of a label column are kept in a :class:`LabelSummary` that merges:
a Dask chunk or a piece of a file read in parts is summarised on its own, the summaries
are merged in row order (:meth:`LabelSummary.merge`, associative), and
:meth:`LabelSummary.resolve` gives the positive label, or the error, exactly as for the
whole column at once. Single-machine validation of binary labels takes the same route
with one piece.

The rule that names the positive class lives here once (:meth:`BinaryKind.positive_label`):
``pos_label`` when given; else 1 for labels in {0, 1}, {-1, 1} or booleans; else an
error asking for ``pos_label``. The command line applies the same rule with its own
wording (:class:`Wording`).

:func:`check_sample` is the one door from user input to a :class:`Sample`: labels,
scores, weights and cluster ids, validated in that order with the messages of
:mod:`rankwise._validation`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

import numpy as np

from ._validation import (
    as_float64,
    check_clusters,
    check_real_labels,
    check_same_length,
    check_sample_weight,
    check_scores,
    format_values,
    labels_equal,
    scale_weights,
    to_numpy,
)

__all__ = [
    "LabelKind",
    "BinaryKind",
    "RealKind",
    "CensoredKind",
    "MulticlassKind",
    "OrdinalKind",
    "BINARY",
    "REAL",
    "CENSORED",
    "MULTICLASS",
    "ORDINAL",
    "register_kind",
    "get_kind",
    "kind_names",
    "kind_of",
    "LabelSummary",
    "Resolution",
    "Wording",
    "LIBRARY_WORDING",
    "MAX_VALUES",
    "Sample",
    "check_sample",
    "check_binary_inputs",
]

#: Distinct label values a summary keeps (the smallest ones); a column with more is
#: still counted (:attr:`LabelSummary.n_distinct`), and every kind of today refuses it or
#: needs no list of its values.
MAX_VALUES = 64
#: Rows with a non-finite label a summary keeps the indices of (as many as an error names).
_BAD_SHOWN = 5


# --- summaries --------------------------------------------------------------------------------

def _key(v: Any) -> tuple:
    """Values that compare equal as numbers (1, 1.0, True) are one label; others are
    kept apart by type (the string '1' is not the number 1)."""
    return ("num", v) if isinstance(v, (int, float, bool, np.generic)) else (type(v).__name__, v)


def _py(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


@dataclass(frozen=True)
class LabelSummary:
    """What a kind needs to know about a sample of labels, in a form that merges.

    Build one with :meth:`LabelKind.summarize`; merge the summaries of consecutive
    pieces of a column with :meth:`merge` (in row order: row indices of the second piece
    follow the first's); :meth:`resolve` gives the positive label (or raises the error)
    exactly as for the whole column.

    Attributes
    ----------
    kind : str
        Name of the label kind.
    n : int
        Rows summarised.
    dtype : str
        The numpy dtype kind of the labels (``"O"`` when pieces disagree).
    values : tuple of (value, count, mass)
        The distinct valid labels, increasing, with their number of rows and total
        weight (the count when no weights were given); the :data:`MAX_VALUES` smallest.
    n_distinct : int
        Number of distinct valid labels; a lower bound when ``exact`` is False.
    exact : bool
        False when values beyond :data:`MAX_VALUES` were dropped before a merge.
    n_bad : int
        Rows whose label is NaN or infinite (numeric labels).
    bad_rows : tuple of int
        The first of those rows (at most five), counted from the first row summarised.
    error : str or None
        A label-type problem found while summarising (values that do not compare, not
        numbers where numbers are needed); :meth:`resolve` raises it as a ``TypeError``.
    """

    kind: str
    n: int = 0
    dtype: str = ""
    values: tuple = ()
    n_distinct: int = 0
    exact: bool = True
    n_bad: int = 0
    bad_rows: tuple = ()
    error: str | None = None

    @property
    def has_content(self) -> bool:
        """Whether a label was seen (valid or not): what sets the merged dtype."""
        return bool(self.values) or self.n_bad > 0

    def merge(self, other: "LabelSummary") -> "LabelSummary":
        """The summary of this piece followed by ``other`` (associative; row indices of
        ``other`` are shifted by this piece's rows)."""
        if not isinstance(other, LabelSummary):
            raise TypeError(f"The 'other' argument must be a LabelSummary. Got {type(other).__name__} instead.")
        if other.kind != self.kind:
            raise ValueError(f"Summaries of different label kinds do not merge: {self.kind!r} and {other.kind!r}.")
        if self.has_content and other.has_content:
            dtype = self.dtype if self.dtype == other.dtype else "O"
        else:
            dtype = other.dtype if other.has_content else self.dtype
        table: dict = {}
        for v, c, m in self.values + other.values:
            k = _key(v)
            if k in table:
                table[k][1] += c
                table[k][2] += m
            else:
                table[k] = [v, c, m]
        merged = list(table.values())
        error = self.error or other.error
        try:
            merged.sort(key=lambda e: e[0])
        except TypeError as exc:
            error = error or str(exc)
        exact = self.exact and other.exact and len(self.values) == self.n_distinct \
            and len(other.values) == other.n_distinct
        n_distinct = len(merged) if exact else max(self.n_distinct, other.n_distinct, len(merged))
        bad_rows = (self.bad_rows + tuple(self.n + i for i in other.bad_rows))[:_BAD_SHOWN]
        return LabelSummary(self.kind, self.n + other.n, dtype,
                            tuple((v, c, m) for v, c, m in merged[:MAX_VALUES]), n_distinct, exact,
                            self.n_bad + other.n_bad, bad_rows, error)

    def resolve(self, pos_label: Any = None, *, func: str = "") -> "Resolution":
        """The positive label and class presence of the summarised column, or the error
        that validating the whole column raises (:meth:`LabelKind.resolve`)."""
        return get_kind(self.kind).resolve(self, pos_label, func=func)


@dataclass(frozen=True)
class Resolution:
    """What a summary resolves to.

    Attributes
    ----------
    kind : LabelKind
        The label kind.
    pos_label : object
        The positive label (binary), None for kinds without one.
    values : tuple
        The distinct labels, increasing (binary: one or two).
    both : bool
        Binary: both classes have a row. Real: two distinct labels are present.
    defined : bool
        ``both``, and each class has positive total weight (real: two distinct labels
        have positive weight).
    """

    kind: "LabelKind"
    pos_label: Any
    values: tuple
    both: bool
    defined: bool


# --- the positive-label rule's words -------------------------------------------------------------

def _shown_repr(values: list) -> str:
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return format_values(arr)


@dataclass(frozen=True)
class Wording:
    """The messages of the positive-label rule: the library's, or the command line's.

    Each template may use ``{shown}`` (the labels as ``show`` writes them), ``{count}``
    (how many) and ``{given!r}`` (the ``pos_label`` passed)."""

    not_binary: str
    not_present: str
    too_many: str
    show: Callable[[list], str] = _shown_repr


#: The library's words (the messages of ``rw.auc`` and every criterion function).
LIBRARY_WORDING = Wording(
    not_binary="The 'y_true' argument has labels {shown}; they are not {{0, 1}}, {{-1, 1}} or booleans, so pass "
               "pos_label= to say which value is the positive class.",
    not_present="The 'pos_label' parameter must be one of the labels present in y_true ({shown}). "
                "Got {given!r} instead.",
    too_many="The 'y_true' argument has {count} labels ({shown}); pass pos_label= to say which value is the "
             "positive class.",
)


# --- kinds ---------------------------------------------------------------------------------------

_KINDS: dict[str, "LabelKind"] = {}


def register_kind(kind: "LabelKind") -> "LabelKind":
    """Make a kind known under ``kind.name`` (one instance per name)."""
    if kind.name in _KINDS and _KINDS[kind.name] is not kind:
        raise ValueError(f"A label kind named {kind.name!r} is already registered.")
    _KINDS[kind.name] = kind
    return kind


def kind_names() -> tuple[str, ...]:
    """The registered label kinds, in registration order."""
    return tuple(_KINDS)


def get_kind(kind: Any, func: str = "check_sample") -> "LabelKind":
    """The kind registered under ``kind`` (a name, or a kind returned as is)."""
    if isinstance(kind, LabelKind):
        return kind
    try:
        return _KINDS[kind]
    except (KeyError, TypeError):
        raise ValueError(f"The 'kind' parameter of {func} must be one of "
                         f"{', '.join(repr(k) for k in _KINDS)}. Got {kind!r} instead.") from None


#: The kind of labels each criterion family reads, for criteria without ``label_kind``.
_FAMILY_KIND = {"rank": "binary", "pairs": "real"}


def kind_of(unit: Any) -> "LabelKind":
    """The label kind a criterion unit reads: its ``label_kind`` attribute, else the kind
    of its family (rank criteria: binary labels; pair criteria: real labels)."""
    name = getattr(unit, "label_kind", None) or _FAMILY_KIND.get(getattr(unit, "family", None))
    if name is None:
        raise TypeError(f"{unit!r} does not say which labels it reads (no 'label_kind').")
    return get_kind(name)


class LabelKind:
    """A kind of labels: how they are read, summarised, resolved and coded into cells.

    Subclasses set :attr:`name`, :attr:`n_cells` and :attr:`cell_pairs` and implement
    :meth:`summarize`, :meth:`resolve`, :meth:`read`, :meth:`cells` and :meth:`defined`.
    """

    name: ClassVar[str] = ""
    #: Number of cells; cell codes are ``0 .. n_cells - 1``.
    n_cells: ClassVar[int] = 1
    #: The ordered cell pairs ``(higher, lower)`` a criterion of this kind reads.
    cell_pairs: ClassVar[tuple] = ()

    def summarize(self, y: Any, sample_weight: Any = None) -> LabelSummary:
        """The mergeable summary of a piece of a label column (``sample_weight``, when
        given, is assumed to be validated and aligned; only its sums are kept)."""
        raise NotImplementedError

    def resolve(self, summary: LabelSummary, pos_label: Any = None, *, func: str = "") -> Resolution:
        """The positive label and class presence from a (merged) summary, or the error."""
        raise NotImplementedError

    def read(self, y_true: Any, *, pos_label: Any = None, func: str = "") -> tuple[np.ndarray, Resolution]:
        """``(labels, resolution)``: the validated labels in this kind's form."""
        raise NotImplementedError

    def cells(self, labels: np.ndarray) -> np.ndarray:
        """The cell of each row, as int8 codes."""
        raise NotImplementedError

    def defined(self, labels: np.ndarray, weights: np.ndarray | None, resolution: Resolution) -> bool:
        """Whether a criterion of this kind has a pair of cells to read on this sample."""
        raise NotImplementedError

    def as_real(self, labels: np.ndarray) -> np.ndarray:
        """The labels as float64 numbers, for a criterion of real labels."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<label kind {self.name}>"

    def __reduce__(self):
        return (get_kind, (self.name,))


def _unique_counted(vals: np.ndarray, w: np.ndarray | None):
    """``(values, counts, masses, error)`` of a 1-D array, values increasing."""
    try:
        uniq, inv = np.unique(vals, return_inverse=True)
    except TypeError as exc:
        return None, None, None, str(exc)
    inv = inv.ravel()
    counts = np.bincount(inv, minlength=uniq.shape[0])
    masses = counts.astype(np.float64) if w is None else np.bincount(inv, weights=w, minlength=uniq.shape[0])
    return uniq, counts, masses, None


def _summary(kind: str, n: int, dtype: str, uniq, counts, masses, n_bad: int, bad: np.ndarray | None,
             error: str | None) -> LabelSummary:
    if uniq is None:
        values, n_distinct = (), 0
    else:
        k = min(uniq.shape[0], MAX_VALUES)
        values = tuple(zip(uniq[:k].tolist(), counts[:k].tolist(), masses[:k].tolist()))
        n_distinct = int(uniq.shape[0])
    bad_rows = () if bad is None else tuple(int(i) for i in bad[:_BAD_SHOWN])
    return LabelSummary(kind, n, dtype, values, n_distinct, True, n_bad, bad_rows, error)


def _fmt_rows(rows: tuple, n_bad: int) -> str:
    shown = ", ".join(str(i) for i in rows)
    return shown + (", ..." if n_bad > len(rows) else "")


class BinaryKind(LabelKind):
    """Two classes: labels in {0, 1}, {-1, 1}, booleans (positive = 1 / True), or any two
    values with ``pos_label`` naming the positive one. Cells: 1 = positive, 0 = negative;
    a criterion reads the pairs (positive, negative)."""

    name = "binary"
    n_cells = 2
    cell_pairs = ((1, 0),)

    # -- summaries --------------------------------------------------------------------------
    def _summarize(self, arr: np.ndarray, w: np.ndarray | None) -> tuple[LabelSummary, np.ndarray | None]:
        """The summary, and for numeric labels of one or two values the mask of the larger
        one (what :meth:`read` reuses as the positives when the larger is positive)."""
        n = int(arr.shape[0])
        kind = arr.dtype.kind
        if n == 0:
            return LabelSummary(self.name, 0, kind), None
        n_bad, bad, vals, wv = 0, None, arr, w
        if kind in "biuf":
            lo, hi = arr.min(), arr.max()
            if kind == "f" and not (np.isfinite(lo) and np.isfinite(hi)):
                fin = np.isfinite(arr)
                bad = np.flatnonzero(~fin)
                n_bad = int(bad.shape[0])
                vals = arr[fin]
                wv = None if w is None else w[fin]
                if vals.shape[0] == 0:
                    return _summary(self.name, n, kind, None, None, None, n_bad, bad, None), None
                lo, hi = vals.min(), vals.max()
            is_hi = vals == hi
            if lo == hi or (is_hi | (vals == lo)).all():
                # One or two values: no sort.
                n_hi = int(np.count_nonzero(is_hi))
                if lo == hi:
                    uniq, counts = vals[:1], np.array([n_hi])
                    masses = counts.astype(np.float64) if wv is None else np.array([wv.sum()])
                else:
                    uniq, counts = np.array([lo, hi], dtype=vals.dtype), np.array([vals.shape[0] - n_hi, n_hi])
                    masses = (counts.astype(np.float64) if wv is None else
                              np.bincount(is_hi.view(np.uint8), weights=wv, minlength=2))
                summary = _summary(self.name, n, kind, uniq, counts, masses, n_bad, bad, None)
                return summary, (is_hi if n_bad == 0 else None)
        uniq, counts, masses, error = _unique_counted(vals, wv)
        return _summary(self.name, n, kind, uniq, counts, masses, n_bad, bad, error), None

    def summarize(self, y: Any, sample_weight: Any = None) -> LabelSummary:
        arr = to_numpy(y, "y_true")
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        return self._summarize(arr, w)[0]

    def resolve(self, summary: LabelSummary, pos_label: Any = None, *, func: str = "") -> Resolution:
        if summary.n == 0:
            raise ValueError("The 'y_true' argument is empty; at least one label is needed.")
        if summary.error is not None:
            raise TypeError(f"The 'y_true' argument must hold comparable label values. Got mixed types: "
                            f"{summary.error}")
        if summary.n_bad:
            raise ValueError(
                f"The 'y_true' argument contains {summary.n_bad} NaN or infinite value(s) (first at index "
                f"{_fmt_rows(summary.bad_rows, summary.n_bad)}); labels must be two distinct values.")
        values = [v for v, _, _ in summary.values]
        if summary.n_distinct > 2:
            count = str(summary.n_distinct) if summary.exact else f"at least {summary.n_distinct}"
            extra = "; for graded labels use ranking_risk" if summary.dtype in ("i", "u", "f") else ""
            raise ValueError(
                f"The 'y_true' argument must hold two distinct label values for a bipartite criterion. "
                f"Got {count} distinct values ({_shown_repr(values)}) instead{extra}.")
        if summary.dtype == "O" and any(v is None or (isinstance(v, float) and math.isnan(v)) for v in values):
            raise ValueError("The 'y_true' argument contains missing values (None/NaN); labels must be two "
                             "distinct values.")
        pos = self.positive_label(values, pos_label)
        both = len(values) == 2
        pos_mass = sum(m for v, _, m in summary.values if labels_equal(v, pos))
        neg_mass = sum(m for v, _, m in summary.values if not labels_equal(v, pos))
        return Resolution(self, pos, tuple(values), both, bool(both and pos_mass > 0 and neg_mass > 0))

    # -- the positive-label rule ----------------------------------------------------------
    def positive_label(self, values: list, pos_label: Any = None, *,
                       match: Callable[[Any, Any], bool] = labels_equal, as_read: bool = False,
                       wording: Wording = LIBRARY_WORDING) -> Any:
        """The positive label among the distinct labels ``values`` (increasing).

        ``pos_label`` when it matches one of them (or when only one value is present);
        else, without ``pos_label``, 1 for labels in {0, 1}, {-1, 1} or booleans; else a
        ``ValueError`` in ``wording``. More than two values need ``pos_label`` (the others
        together are then the negative class).

        Parameters
        ----------
        values : list
            The distinct labels present, increasing.
        pos_label : object, optional
            The positive label asked for.
        match : callable, default labels_equal
            ``match(value, pos_label)``: whether a value is the one asked for (the
            command line matches its text against the values as read).
        as_read : bool, default False
            Return the matching element of ``values`` (the label as read) rather than
            ``pos_label`` (or 1).
        wording : Wording, default LIBRARY_WORDING
            The messages.

        Returns
        -------
        object
            The positive label.
        """
        if pos_label is None:
            if len(values) > 2:
                raise ValueError(wording.too_many.format(count=len(values), shown=wording.show(values), given=None))
            plain = {_py(v) for v in values}
            if not (plain <= {0, 1} or plain <= {-1, 1} or plain <= {False, True}):
                raise ValueError(wording.not_binary.format(shown=wording.show(values), count=len(values),
                                                           given=None))
            one = [v for v in values if labels_equal(_py(v), 1)]
            return one[0] if as_read and one else 1
        found = [v for v in values if match(v, pos_label)]
        if found:
            return found[0] if as_read else pos_label
        if len(values) >= 2:
            raise ValueError(wording.not_present.format(shown=wording.show(values), given=pos_label,
                                                        count=len(values)))
        return pos_label

    # -- rows -----------------------------------------------------------------------------
    def positives(self, y: np.ndarray, pos_label: Any) -> np.ndarray:
        """``y == pos_label`` as a bool array (element by element where numpy cannot
        compare the whole array)."""
        is_pos = y == pos_label
        if not isinstance(is_pos, np.ndarray) or is_pos.shape != y.shape:
            is_pos = np.array([labels_equal(v, pos_label) for v in y.tolist()], dtype=bool)
        return np.asarray(is_pos, dtype=bool)

    def read(self, y_true: Any, *, pos_label: Any = None, func: str = "") -> tuple[np.ndarray, Resolution]:
        """``(is_pos, resolution)``: one bool a row, True for the positive class."""
        arr = to_numpy(y_true, "y_true")
        summary, is_hi = self._summarize(arr, None)
        res = self.resolve(summary, pos_label, func=func)
        if is_hi is not None and labels_equal(res.pos_label, summary.values[-1][0]):
            return is_hi, res  # the larger of the (numeric) values is the positive one
        return self.positives(arr, res.pos_label), res

    def cells(self, labels: np.ndarray) -> np.ndarray:
        return labels.view(np.int8) if labels.dtype == np.bool_ else labels.astype(np.int8)

    def defined(self, labels: np.ndarray, weights: np.ndarray | None, resolution: Resolution) -> bool:
        if weights is None or not resolution.both:
            return resolution.both
        return bool(weights[labels].any()) and bool(weights[~labels].any())

    def as_real(self, labels: np.ndarray) -> np.ndarray:
        return labels.astype(np.float64)


class RealKind(LabelKind):
    """Real-valued (graded) labels: finite numbers, larger = should rank higher. One cell;
    a criterion reads the pairs of rows with different labels."""

    name = "real"
    n_cells = 1
    cell_pairs = ((0, 0),)

    def summarize(self, y: Any, sample_weight: Any = None) -> LabelSummary:
        arr = to_numpy(y, "y_true")
        n = int(arr.shape[0])
        if n == 0:
            return LabelSummary(self.name, 0, arr.dtype.kind)
        try:
            f = as_float64(arr, "y_true")
        except TypeError as exc:
            return LabelSummary(self.name, n, arr.dtype.kind, error=str(exc))
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        fin = np.isfinite(f)
        bad = np.flatnonzero(~fin)
        if bad.shape[0]:
            f = f[fin]
            w = None if w is None else w[fin]
        uniq, counts, masses, _ = _unique_counted(f, w)
        return _summary(self.name, n, arr.dtype.kind, uniq, counts, masses, int(bad.shape[0]), bad, None)

    def _no_pos_label(self, pos_label: Any, func: str) -> None:
        if pos_label is not None:
            raise TypeError(f"{func or 'This criterion'} takes real-valued labels; 'pos_label' does not apply.")

    def resolve(self, summary: LabelSummary, pos_label: Any = None, *, func: str = "") -> Resolution:
        self._no_pos_label(pos_label, func)
        if summary.n == 0:
            raise ValueError("The 'y_true' argument is empty; at least one label is needed.")
        if summary.error is not None:
            raise TypeError(summary.error)
        if summary.n_bad:
            raise ValueError(
                f"The 'y_true' argument contains {summary.n_bad} NaN or infinite value(s) (first at index "
                f"{_fmt_rows(summary.bad_rows, summary.n_bad)}); labels must be finite real numbers.")
        weighted = [v for v, _, m in summary.values if m > 0]
        return Resolution(self, None, tuple(v for v, _, _ in summary.values), summary.n_distinct > 1,
                          len(weighted) > 1)

    def read(self, y_true: Any, *, pos_label: Any = None, func: str = "") -> tuple[np.ndarray, Resolution]:
        """``(y, resolution)``: the labels as finite float64 (the resolution lists no values:
        reading them needs no sort)."""
        self._no_pos_label(pos_label, func)
        y = check_real_labels(y_true)
        both = bool(y.min() < y.max())
        return y, Resolution(self, None, (), both, both)

    def cells(self, labels: np.ndarray) -> np.ndarray:
        return np.zeros(labels.shape[0], dtype=np.int8)

    def defined(self, labels: np.ndarray, weights: np.ndarray | None, resolution: Resolution) -> bool:
        if weights is None:
            return resolution.both
        held = labels[weights > 0]
        return bool(held.shape[0]) and bool(held.min() < held.max())

    def as_real(self, labels: np.ndarray) -> np.ndarray:
        return labels


def _fmt_bad(rows: np.ndarray) -> str:
    return ", ".join(str(int(i)) for i in rows[:_BAD_SHOWN]) + (", ..." if rows.shape[0] > _BAD_SHOWN else "")


class CensoredKind(LabelKind):
    """Censored times: each row's label is a pair ``(time, event)``, the follow-up time
    (finite, non-negative) and whether it ended in the event (True/1) or was censored then
    (False/0). The scores are risks: **higher risk = earlier event**.

    Cells: 1 = an event, 0 = censored. A criterion reads the pairs ``(i, j)`` ordered by
    time whose order of events is known, the *comparable* pairs: ``i`` had the event and
    ``t_i < t_j``, or ``t_i == t_j`` with ``j`` censored (the event is taken to come first;
    :meth:`comparable` with ``tied_event_censored=False`` drops those). Two events at one
    time are not comparable. So the cell pairs are (event, event) and (event, censored),
    the first row of each being the earlier one.

    ``y_true`` is ``(time, event)`` (a tuple or list of two arrays), a numpy structured
    array with fields ``time`` and ``event``, or a 2-column array ``[time, event]``.
    """

    name = "censored"
    n_cells = 2
    cell_pairs = ((1, 1), (1, 0))
    #: The labels as read: one record a row.
    dtype = np.dtype([("time", np.float64), ("event", np.bool_)])

    # -- the two columns --------------------------------------------------------------------
    def split(self, y_true: Any, func: str = "") -> tuple[Any, Any]:
        """``(time, event)`` as given, from any of the accepted forms of ``y_true``."""
        if isinstance(y_true, (tuple, list)) and len(y_true) == 2:
            return y_true[0], y_true[1]
        arr = np.asarray(y_true) if isinstance(y_true, np.ndarray) else None
        if arr is not None and arr.dtype.names is not None and {"time", "event"} <= set(arr.dtype.names):
            return arr["time"], arr["event"]
        if arr is not None and arr.ndim == 2 and arr.shape[1] == 2 and arr.dtype.names is None:
            return arr[:, 0], arr[:, 1]
        raise TypeError(f"The 'y_true' argument of {func or 'this criterion'} must be censored times: a pair "
                        f"(time, event), a structured array with fields 'time' and 'event', or a 2-column "
                        f"array. Got {type(y_true).__name__} instead.")

    def check_time(self, time: Any, func: str = "", name: str = "time") -> np.ndarray:
        """``time`` as finite, non-negative float64 values, or the error naming ``name``."""
        where = f" of {func}" if func else ""
        arr = to_numpy(time, name)
        if arr.shape[0] == 0:
            raise ValueError(f"{func or 'The function'} got an empty sample: '{name}' has no values.")
        if arr.dtype.kind == "b":
            raise TypeError(f"The '{name}' parameter{where} must hold times (real numbers). Got booleans instead.")
        try:
            t = as_float64(arr, name)
        except TypeError:
            raise TypeError(f"The '{name}' parameter{where} must hold times (real numbers). Got values of dtype "
                            f"{arr.dtype} instead.") from None
        if not (np.isfinite(t.min()) and np.isfinite(t.max())):
            bad = np.flatnonzero(~np.isfinite(t))
            raise ValueError(f"The '{name}' parameter{where} must hold finite times. Got {bad.shape[0]} NaN or "
                             f"infinite value(s), first at row {_fmt_bad(bad)}.")
        if t.min() < 0:
            bad = np.flatnonzero(t < 0)
            raise ValueError(f"The '{name}' parameter{where} must hold non-negative times. Got {bad.shape[0]} "
                             f"negative value(s), the first at row {int(bad[0])}.")
        return t

    def check_event(self, event: Any, n: int, func: str = "", name: str = "event",
                    time_name: str = "time") -> np.ndarray:
        """``event`` as bool (True: the event happened), or the error naming ``name``."""
        where = f" of {func}" if func else ""
        e = to_numpy(event, name)
        if e.shape[0] != n:
            raise ValueError(f"'{time_name}' has {n} values but '{name}' has {e.shape[0]}; they must have the "
                             f"same length.")
        if e.dtype.kind == "b":
            return e.astype(bool, copy=False)
        try:
            ef = e.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"The '{name}' parameter{where} must hold booleans or 0/1 (1: the event happened, "
                             f"0: censored). Got values of dtype {e.dtype}.") from None
        bad = ~((ef == 0.0) | (ef == 1.0))
        if bad.any():
            rows = np.flatnonzero(bad)
            raise ValueError(f"The '{name}' parameter{where} must hold booleans or 0/1 (1: the event happened, "
                             f"0: censored). Got {ef[rows][:3].tolist()} at rows {rows[:3].tolist()}.")
        return ef == 1.0

    def check_parts(self, time: Any, event: Any, func: str = "", *, time_name: str = "time",
                    event_name: str = "event") -> tuple[np.ndarray, np.ndarray]:
        """``(time, event)`` validated: float64 times and bool events, one of each a row."""
        t = self.check_time(time, func, time_name)
        return t, self.check_event(event, t.shape[0], func, event_name, time_name)

    # -- LabelKind ----------------------------------------------------------------------------
    def summarize(self, y: Any, sample_weight: Any = None) -> LabelSummary:
        """The summary of the event column (values False/True with their counts and
        masses); rows with an invalid time or event are counted in ``n_bad``."""
        t_raw, e_raw = self.split(y)
        t, e = to_numpy(t_raw, "time"), to_numpy(e_raw, "event")
        n = int(t.shape[0])
        if e.shape[0] != n:
            return LabelSummary(self.name, n, e.dtype.kind,
                                error=f"'time' has {n} values but 'event' has {e.shape[0]}")
        if n == 0:
            return LabelSummary(self.name, 0, e.dtype.kind)
        try:
            tf, ef = as_float64(t, "time"), e.astype(np.float64)
        except (TypeError, ValueError) as exc:
            return LabelSummary(self.name, n, e.dtype.kind, error=str(exc))
        ok = np.isfinite(tf) & (tf >= 0) & ((ef == 0.0) | (ef == 1.0))
        bad = np.flatnonzero(~ok)
        ev = ef[ok] == 1.0
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)[ok]
        uniq, counts, masses, _ = _unique_counted(ev, w)
        return _summary(self.name, n, e.dtype.kind, uniq, counts, masses, int(bad.shape[0]), bad, None)

    def _no_pos_label(self, pos_label: Any, func: str) -> None:
        if pos_label is not None:
            raise TypeError(f"{func or 'This criterion'} takes censored times; 'pos_label' does not apply.")

    def resolve(self, summary: LabelSummary, pos_label: Any = None, *, func: str = "") -> Resolution:
        """``both``: an event is present (a pair can be comparable); ``defined``: an event
        carries positive weight (the rows decide the rest: :meth:`defined`)."""
        self._no_pos_label(pos_label, func)
        if summary.n == 0:
            raise ValueError("The 'time' argument is empty; at least one follow-up time is needed.")
        if summary.error is not None:
            raise TypeError(summary.error)
        if summary.n_bad:
            raise ValueError(
                f"The censored times contain {summary.n_bad} invalid row(s) (first at index "
                f"{_fmt_rows(summary.bad_rows, summary.n_bad)}): times must be finite and non-negative, events "
                f"booleans or 0/1.")
        has_event = any(bool(v) and c > 0 for v, c, _ in summary.values)
        event_mass = sum(m for v, _, m in summary.values if bool(v))
        return Resolution(self, None, tuple(bool(v) for v, _, _ in summary.values), has_event, event_mass > 0)

    def read(self, y_true: Any, *, pos_label: Any = None, func: str = "") -> tuple[np.ndarray, Resolution]:
        """``(labels, resolution)``: one record ``(time, event)`` a row (:attr:`dtype`)."""
        self._no_pos_label(pos_label, func)
        t, e = self.check_parts(*self.split(y_true, func), func)
        labels = np.empty(t.shape[0], dtype=self.dtype)
        labels["time"], labels["event"] = t, e
        has = bool(e.any())
        return labels, Resolution(self, None, tuple(np.unique(e).tolist()), has, has)

    def cells(self, labels: np.ndarray) -> np.ndarray:
        return labels["event"].astype(np.int8)

    def defined(self, labels: np.ndarray, weights: np.ndarray | None, resolution: Resolution) -> bool:
        """Whether a comparable pair has positive weight."""
        return self.comparable_weight(labels["time"], labels["event"], weights) > 0

    def as_real(self, labels: np.ndarray) -> np.ndarray:
        raise TypeError("Censored times are not real-valued labels: a censored time is only a lower bound "
                        "on the event time. Use rankwise.survival.")

    # -- the pairs ------------------------------------------------------------------------------
    @staticmethod
    def comparable(time_i: Any, event_i: Any, time_j: Any, event_j: Any, *,
                   tied_event_censored: bool = True) -> np.ndarray:
        """Whether the pair ``(i, j)`` is comparable with ``i`` the earlier row
        (vectorised): ``i`` had the event and ``t_i < t_j``, or ``t_i == t_j``, ``j``
        censored and ``tied_event_censored``."""
        ti, tj = np.asarray(time_i, dtype=np.float64), np.asarray(time_j, dtype=np.float64)
        ei, ej = np.asarray(event_i, dtype=bool), np.asarray(event_j, dtype=bool)
        return ei & ((ti < tj) | (bool(tied_event_censored) & (ti == tj) & ~ej))

    @staticmethod
    def comparable_weight(time: np.ndarray, event: np.ndarray, weights: np.ndarray | None = None,
                          strata: np.ndarray | None = None, *, tied_event_censored: bool = True) -> float:
        """The total weight ``sum w_i w_j`` of the comparable pairs (their number without
        weights), within strata when given: one sort, O(n log n), no pair formed."""
        n = time.shape[0]
        if n == 0:
            return 0.0
        w = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
        s = np.zeros(n, dtype=np.int64) if strata is None else np.asarray(strata).astype(np.int64)
        order = np.lexsort((time, s))
        ts, ss, ws, es = time[order], s[order], w[order], event[order]
        # rows sorted by (stratum, time): a row's later partners are those after its block of
        # equal (stratum, time), up to the end of its stratum
        tr = np.unique(ts, return_inverse=True)[1].reshape(-1)
        block = ss * (int(tr.max()) + 2) + tr  # non-decreasing in this order
        cum = np.concatenate(([0.0], np.cumsum(ws)))
        last = np.searchsorted(ss, ss, side="right")
        after = np.searchsorted(block, block, side="right")
        later = cum[last] - cum[after]
        total = float(np.dot(ws[es], later[es]))
        if tied_event_censored:
            first = np.searchsorted(block, block, side="left")
            wc = np.concatenate(([0.0], np.cumsum(ws * ~es)))
            total += float(np.dot(ws[es], (wc[after] - wc[first])[es]))
        return total


class MulticlassKind(LabelKind):
    """Class labels: K >= 2 unordered classes of any hashable values (ints, strings, ...).

    Cells: the classes, coded ``0 .. K-1`` in the order of ``labels`` (the score columns'
    order) or, without it, of the sorted distinct values. A criterion reads pairs of class
    cells: one class against the rest (one-vs-rest) or against another class (one-vs-one),
    each on the score column of the first. NaN, None and pandas' missing values are not a
    class: they are refused, never dropped.
    """

    name = "multiclass"
    n_cells = 0  # the sample's number of classes: cells are the classes of ``labels``
    cell_pairs = ()  # every ordered pair of distinct classes

    # -- reading ------------------------------------------------------------------------------
    def _values(self, y_true: Any, func: str = "") -> np.ndarray:
        y = to_numpy(y_true, "y_true")
        if y.ndim != 1:
            raise ValueError(f"The 'y_true' argument{' of ' + func if func else ''} must be 1-dimensional (one label "
                             f"per row). Got shape {y.shape} instead.")
        if y.size == 0:
            raise ValueError("The 'y_true' argument is empty; at least one label is needed.")
        if y.dtype.kind == "f" and np.isnan(y).any():
            raise ValueError("The 'y_true' argument contains NaN; every label must be a class.")
        if y.dtype.kind == "O" and any(_missing(v) for v in y):
            raise ValueError("The 'y_true' argument contains a missing value; every label must be a class.")
        return y

    def classes(self, y_true: Any, labels: Any = None, *, func: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(y, classes, codes)``: the validated labels, the classes (``labels`` when
        given, else the sorted distinct values of ``y``) and each row's class code
        (its index in ``classes``)."""
        y = self._values(y_true, func)
        try:
            uniq, inv = _unique_inverse(y)
        except TypeError as exc:
            raise TypeError(f"The 'y_true' argument holds labels that cannot be compared: {exc}") from exc
        if labels is None:
            return y, uniq, inv.astype(np.intp)
        lab = np.asarray(to_numpy(labels, "labels"))
        if lab.size == 0:
            raise ValueError("The 'labels' argument is empty; it must list the classes of the score columns.")
        index: dict[Any, int] = {}
        for k, v in enumerate(lab.tolist()):
            if v in index:
                raise ValueError(f"The 'labels' argument must hold distinct classes; {v!r} is repeated.")
            index[v] = k
        missing = [v for v in uniq.tolist() if v not in index]
        if missing:
            raise ValueError(
                f"The 'labels' argument must contain every class of y_true; missing: "
                f"{format_values(np.asarray(missing, dtype=object))}.")
        to_code = np.array([index[v] for v in uniq.tolist()], dtype=np.intp)
        return y, lab, to_code[inv]

    # -- LabelKind ------------------------------------------------------------------------------
    def summarize(self, y: Any, sample_weight: Any = None) -> LabelSummary:
        """The distinct classes with their counts and masses; missing labels are counted in
        ``n_bad``."""
        arr = to_numpy(y, "y_true")
        n = int(arr.shape[0])
        if n == 0:
            return LabelSummary(self.name, 0, arr.dtype.kind)
        if arr.dtype.kind == "f":
            bad_mask = np.isnan(arr)
        elif arr.dtype.kind == "O":
            bad_mask = np.fromiter((_missing(v) for v in arr), dtype=bool, count=n)
        else:
            bad_mask = np.zeros(n, dtype=bool)
        bad = np.flatnonzero(bad_mask)
        ok = ~bad_mask
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)[ok]
        uniq, counts, masses, error = _unique_counted(arr[ok], w)
        return _summary(self.name, n, arr.dtype.kind, uniq, counts, masses, int(bad.shape[0]), bad, error)

    def resolve(self, summary: LabelSummary, pos_label: Any = None, *, func: str = "") -> Resolution:
        """``both``: two classes have a row; ``defined``: two classes have positive mass."""
        if pos_label is not None:
            raise TypeError(f"{func or 'This criterion'} takes {self.name} labels; 'pos_label' does not apply.")
        if summary.n == 0:
            raise ValueError("The 'y_true' argument is empty; at least one label is needed.")
        if summary.error is not None:
            raise TypeError(f"The 'y_true' argument holds labels that cannot be compared: {summary.error}")
        if summary.n_bad:
            raise ValueError(f"The 'y_true' argument contains {summary.n_bad} missing value(s) (first at index "
                             f"{_fmt_rows(summary.bad_rows, summary.n_bad)}); every label must be a class.")
        present = sum(1 for _, c, _ in summary.values if c > 0)
        weighted = sum(1 for _, _, m in summary.values if m > 0)
        return Resolution(self, None, tuple(v for v, _, _ in summary.values), present >= 2, weighted >= 2)

    def read(self, y_true: Any, *, pos_label: Any = None, func: str = "") -> tuple[np.ndarray, Resolution]:
        """``(codes, resolution)``: each row's class code among the sorted distinct values."""
        y, classes, codes = self.classes(y_true, func=func)
        summary = self.summarize(y)
        return codes, self.resolve(summary, pos_label, func=func)

    def cells(self, labels: np.ndarray) -> np.ndarray:
        return np.asarray(labels, dtype=np.intp)

    def defined(self, labels: np.ndarray, weights: np.ndarray | None, resolution: Resolution) -> bool:
        """Two classes with positive mass."""
        mass = np.bincount(np.asarray(labels, dtype=np.intp), weights=weights)
        return int(np.count_nonzero(mass > 0)) >= 2

    def as_real(self, labels: np.ndarray) -> np.ndarray:
        raise TypeError("Class labels without an order are not real-valued labels. For ordered classes use the "
                        "'ordinal' kind (rankwise.vus, labels in their order).")


class OrdinalKind(MulticlassKind):
    """Ordered classes: K >= 2 classes given in their order, lowest first (``labels``).

    Cells: each class's position in the order, ``0 .. K-1``. A criterion reads the chains
    of one row per class in the order (the VUS and HUM), or pairs of consecutive classes;
    as real labels (:meth:`as_real`) the positions order the rows, so a pairwise criterion
    of real labels (the ranking risk) counts the pairs in different classes.
    """

    name = "ordinal"

    def order(self, labels: Any, func: str = "vus") -> list:
        """The classes in their order, as a list of plain Python values, or the error."""
        if labels is None:
            raise TypeError(f"The 'labels' argument of {func} must be a sequence of the classes in their order. "
                            f"Got None instead.")
        if isinstance(labels, (str, bytes)):
            raise TypeError(f"The 'labels' argument of {func} must be a sequence of the classes in their order. Got "
                            f"a {type(labels).__name__} ({labels!r}) instead.")
        arr = to_numpy(labels, "labels")
        if arr.ndim != 1:
            raise ValueError(f"The 'labels' argument of {func} must be 1-dimensional. Got shape {arr.shape} instead.")
        return [v.item() if isinstance(v, np.generic) else v for v in arr]

    def index(self, labels: Any, func: str = "vus") -> dict:
        """``{class: position}`` of the order ``labels`` (at least 2 distinct, hashable,
        not NaN), or the error."""
        labs = self.order(labels, func)
        if len(labs) < 2:
            raise ValueError(f"The 'labels' argument of {func} must hold at least 2 classes (in their order). Got "
                             f"{len(labs)} instead.")
        index: dict = {}
        for pos, lab in enumerate(labs):
            try:
                if lab in index:
                    raise ValueError(f"The 'labels' argument of {func} must hold distinct classes. Got {lab!r} twice "
                                     f"(positions {index[lab]} and {pos}).")
            except TypeError as exc:
                raise TypeError(f"The 'labels' argument of {func} must hold hashable labels. Got {lab!r} "
                                f"instead.") from exc
            if isinstance(lab, float) and math.isnan(lab):
                raise ValueError(f"The 'labels' argument of {func} must not contain NaN.")
            index[lab] = pos
        return index

    def codes(self, y: np.ndarray, index: dict) -> np.ndarray:
        """Each value's position in ``index`` (:meth:`index`); a value outside it is an error."""
        try:
            uniq, inv = np.unique(y, return_inverse=True)
        except TypeError:  # mixed Python objects numpy cannot sort
            uniq = None
        if uniq is None:
            codes = np.empty(y.shape[0], dtype=np.intp)
            for i, v in enumerate(y):
                codes[i] = _position(index, v)
            return codes
        table = np.array([_position(index, v) for v in uniq], dtype=np.intp)
        return table[inv.reshape(-1)]

    def check_values(self, y_true: Any, func: str = "vus") -> np.ndarray:
        """The labels as a 1-D non-empty array, or the error."""
        y = to_numpy(y_true, "y_true")
        if y.ndim != 1:
            raise ValueError(f"The 'y_true' argument of {func} must be 1-dimensional. Got shape {y.shape} instead.")
        if y.size == 0:
            raise ValueError("The 'y_true' argument is empty; at least one label is needed.")
        return y

    def positions(self, y_true: Any, labels: Any, *, func: str = "vus") -> tuple[np.ndarray, int]:
        """``(codes, K)``: each row's position in the order ``labels``."""
        index = self.index(labels, func)
        return self.codes(self.check_values(y_true, func), index), len(index)

    def as_real(self, labels: np.ndarray) -> np.ndarray:
        """The positions as float64: a higher class, a higher label."""
        return np.asarray(labels, dtype=np.float64)


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v) or type(v).__name__ in ("NAType", "NaTType")


def _unique_inverse(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(y, return_inverse=True)``; by a count, not a sort, for small
    non-negative integers."""
    if y.dtype.kind in "iu" and y.size and 0 <= y.min() and y.max() < 1 << 16:
        present = np.bincount(y) > 0
        code = np.cumsum(present) - 1
        return np.flatnonzero(present).astype(y.dtype), code[y]
    return np.unique(y, return_inverse=True)


def _position(index: dict, v: Any) -> int:
    key = v.item() if isinstance(v, np.generic) else v
    try:
        return index[key]
    except (KeyError, TypeError):
        raise ValueError(
            f"The 'labels' argument of vus must cover every class of y_true. Got y_true value {key!r}, "
            f"which is not among labels={list(index)!r}."
        ) from None


BINARY = register_kind(BinaryKind())
REAL = register_kind(RealKind())
CENSORED = register_kind(CensoredKind())
MULTICLASS = register_kind(MulticlassKind())
ORDINAL = register_kind(OrdinalKind())


# --- the sample ----------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Sample:
    """One validated sample: what every criterion, curve and interval is computed from.

    Built by :func:`check_sample`; immutable (its arrays are the validated inputs, not
    copies, and are not to be modified either).

    Attributes
    ----------
    kind : LabelKind
        How the labels were read.
    labels : numpy.ndarray
        Binary: ``is_pos`` (bool, True for the positive class). Real: ``y`` (float64).
    cells : numpy.ndarray
        int8 cell code a row (binary: 1 = positive, 0 = negative; real: 0).
    scores : numpy.ndarray
        The scores, as :func:`rankwise._validation.check_scores` returns them.
    weights : numpy.ndarray or None
        The weights divided by ``weight_scale`` (:func:`rankwise._validation.scale_weights`).
    weight_scale : float
        The power of two the weights were divided by (1.0 when not scaled).
    clusters : numpy.ndarray or None
        int64 cluster code a row, ``0 .. n_clusters - 1`` by first appearance.
    n_clusters : int or None
        Number of clusters (None without ``clusters``).
    defined : bool
        Whether a criterion of this kind has pairs to read: binary, both classes carry
        positive weight; real, two distinct labels do.
    n_rows : int
        Number of rows.
    pos_label : object
        The positive label (binary), None otherwise.
    """

    kind: LabelKind
    labels: np.ndarray
    cells: np.ndarray
    scores: np.ndarray
    weights: np.ndarray | None
    weight_scale: float
    clusters: np.ndarray | None
    n_clusters: int | None
    defined: bool
    n_rows: int
    pos_label: Any = field(default=None)

    @property
    def is_pos(self) -> np.ndarray:
        """Binary labels: True for the positive class (a ``TypeError`` for other kinds)."""
        if self.kind.name != "binary":
            raise TypeError(f"A sample of {self.kind.name} labels has no positive class.")
        return self.labels

    def unscaled_weights(self) -> np.ndarray | None:
        """The weights as given (``weight_scale * weights``; exact, a power of two)."""
        if self.weights is None or self.weight_scale == 1.0:
            return self.weights
        return self.weights * self.weight_scale


def check_sample(y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None,
                 clusters: Any = None, kind: Any = "binary", func: str = "check_sample",
                 score_name: str = "y_score") -> Sample:
    """Validate a criterion's inputs into one :class:`Sample`.

    Checks, in this order: the labels (as ``kind`` reads them, with ``pos_label``), the
    scores, their lengths, the weights (non-negative, finite; scaled by a power of two
    where their sums would overflow or underflow), the cluster ids.

    Parameters
    ----------
    y_true : array-like
        Labels.
    y_score : array-like
        Scores (finite reals).
    sample_weight : array-like, optional
        Non-negative weights.
    pos_label : object, optional
        The positive label (binary labels only).
    clusters : array-like, optional
        Cluster ids of any type, one a row (:func:`rankwise._validation.check_clusters`).
    kind : str or LabelKind, default "binary"
        The label kind (:func:`kind_names`).
    func : str
        The public function, named in messages.
    score_name : str, default "y_score"
        The name of the scores' argument in messages (``"y_prob"``, ...).

    Returns
    -------
    Sample
    """
    k = get_kind(kind, func)
    labels, res = k.read(y_true, pos_label=pos_label, func=func)
    s = check_scores(y_score, name=score_name)
    n = int(labels.shape[0])
    check_same_length(n, s.shape[0], score_name)
    w, scale = scale_weights(check_sample_weight(sample_weight, n))
    checked = check_clusters(clusters, n, func)
    codes, n_clusters = (None, None) if checked is None else checked
    return Sample(k, labels, k.cells(labels), s, w, scale, codes, n_clusters, k.defined(labels, w, res), n,
                  res.pos_label)


def check_binary_inputs(y_true: Any, y_score: Any, sample_weight: Any = None, *, pos_label: Any = None,
                        return_scale: bool = False) -> tuple:
    """``(is_pos, scores, weights, defined[, scale])`` of :func:`check_sample` (binary).

    .. deprecated:: to be removed once no caller needs the tuple; use :func:`check_sample`.
    """
    sample = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    out = (sample.labels, sample.scores, sample.weights, sample.defined)
    return out + (sample.weight_scale,) if return_scale else out
