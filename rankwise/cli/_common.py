"""What the commands of ``rankwise`` share: errors, progress output, criteria specs, the
positive label, reading and writing files."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

#: The criteria of ``evaluate`` when ``--criteria`` is not given.
DEFAULT_CRITERIA = ["auc", "partial_auc:max_fpr=0.1", "local_auc:top=0.1", "pnorm_push:p=4", "dcg:k=100"]



class CLIError(ValueError):
    """A problem with the user's data or files: printed as one line, exit status 1."""


def json_text(obj) -> str:
    """Strict JSON (RFC 8259) for the commands' ``--format json``: a value that is not a
    finite number (an undefined criterion, a standard error that cannot be estimated)
    is written as ``null``, never as the ``NaN``/``Infinity`` that strict parsers reject."""
    return json.dumps(_finite_or_null(obj), indent=2, allow_nan=False) + "\n"


def _finite_or_null(obj):
    import numpy as np

    if isinstance(obj, dict):
        return {str(k): _finite_or_null(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite_or_null(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return _finite_or_null(obj.tolist())
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if np.isfinite(obj) else None
    return obj


# --- small helpers ----------------------------------------------------------------------------

class Progress:
    """A one-line progress counter on stderr, shown only when stderr is a terminal, not with
    ``--quiet``, and only once a task has run for more than a second."""

    def __init__(self, label: str, total: int, quiet: bool = False):
        import time

        self.label, self.total, self.done = label, total, 0
        self.enabled = not quiet and sys.stderr.isatty()
        self.t0 = time.perf_counter()
        self._time = time.perf_counter
        self.shown = False

    def step(self, what: str = "") -> None:
        self.done += 1
        if self.enabled and self._time() - self.t0 > 1.0:
            from .._text import shown

            sys.stderr.write(f"\r{self.label}: {self.done}/{self.total} {shown(what)}"[:100].ljust(100))
            sys.stderr.flush()
            self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 100 + "\r")
            sys.stderr.flush()


def split_specs(text: str) -> list[str]:
    """Split ``"auc,local_auc:top=0.1,partial_auc:max_fpr=0.1,standardize=mcclish"`` into specs:
    a comma starts a new criterion unless the next item is a bare ``key=value`` (a further
    parameter of the criterion before it)."""
    specs: list[str] = []
    for item in (t.strip() for t in text.split(",")):
        if not item:
            continue
        if specs and "=" in item and ":" not in item and not item.split("=")[0].strip().startswith(
                tuple("0123456789")):
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def _check_criteria(specs: list[str]) -> list[str]:
    """Every spec names a registered criterion with valid parameters (the library's
    message), checked before any data is read."""
    from .. import criteria
    from .._validation import parse_spec

    valid = criteria.names()
    for spec in specs:
        name, _ = parse_spec(spec)
        if name not in valid:
            raise CLIError(f"unknown criterion {name!r}; valid criteria: {', '.join(valid)}")
        criteria.get(spec)
    return specs


def ci_method(spec, requested: str | None) -> str | None:
    """The interval method of ``--ci`` for a criterion: None for ``none``; the criterion's
    default (its first analytic method, or the bootstrap where it has none) when not
    given; ``delong``/``hajek`` as the criterion's analytic method of that name, else its
    default one (``delong`` is the AUC's, ``hoeffding`` ranking_risk's, ``hajek`` the
    others'); ``bootstrap``."""
    from .. import criteria

    if requested == "none":
        return None
    methods = criteria.get(spec).methods
    if requested in (None, "delong", "hajek"):
        if requested in methods:
            return requested
        return methods[0] if methods else "bootstrap"
    return "bootstrap"


def output_path(path: str | None, force: bool, inputs=()) -> str | None:
    """Check an output before anything is read or computed, under the rule of
    :mod:`rankwise.io` (never one of ``inputs``, never an existing file or link without
    ``--force``); None (standard output) passes."""
    from ..io import check_output

    if path is None:
        return None
    return check_output(path, force=force, inputs=_files(inputs), option="--force")


def _emit(text: str, out: str | None, force: bool, inputs=(), data: bool = False) -> None:
    """Print ``text``, or write it to ``out``: checked again and created exclusively
    without ``--force``, so a file that appeared meanwhile is kept.

    Text for people (``data=False``: the tables) has every control character that came
    from a file escaped (:func:`rankwise.cli._text.terminal_text`) wherever it goes; data
    (``data=True``: CSV and JSON, the scores of ``score``) is written as it is to a file or
    a pipe, and escaped only when standard output is a terminal."""
    from ..io import write_atomic
    from .._text import terminal_text

    if out is None:
        sys.stdout.write(terminal_text(text) if not data or _isatty(sys.stdout) else text)
    else:
        write_atomic(out, text if data else terminal_text(text), force=force, inputs=_files(inputs),
                     option="--force")


def say(text: str) -> None:
    """Write a message for people to standard output, control characters from files
    escaped."""
    from .._text import terminal_text

    sys.stdout.write(terminal_text(text))


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


#: FILE ``-``: the table comes on standard input (CSV or TSV, gzipped or not).
STDIN = "-"
_stdin_copy: list[str] = []  # the file standard input was copied to, once per process


def _read(path: str, columns: list[str] | None):
    from ._readers import read_table

    if path == STDIN:
        return read_table(stdin_file(), columns=columns, fmt="txt")
    return read_table(path, columns=columns)


def stdin_file() -> str:
    """Standard input copied to a temporary file (removed at exit), so the readers see a
    file they can read twice (the header first, then the columns asked for); its name in
    messages is replaced by ``standard input`` (:func:`stdin_message`)."""
    if _stdin_copy:
        return _stdin_copy[0]
    import atexit
    import shutil
    import tempfile

    if sys.stdin is None or sys.stdin.isatty():
        raise CLIError("FILE is - but nothing is piped to standard input (e.g. `cat scores.csv | rankwise ... -`)")
    folder = tempfile.mkdtemp(prefix="rankwise-stdin-")
    atexit.register(shutil.rmtree, folder, True)
    src = sys.stdin.buffer
    head = src.read(2)
    path = os.path.join(folder, "stdin.txt.gz" if head == b"\x1f\x8b" else "stdin.txt")
    with open(path, "wb") as fh:
        fh.write(head)
        shutil.copyfileobj(src, fh, 1 << 20)
    _stdin_copy.append(path)
    return path


def stdin_message(msg: str) -> str:
    """An error message with the temporary copy of standard input named as such."""
    for path in _stdin_copy:
        msg = msg.replace(path, "standard input")
    return msg


def _files(inputs) -> list:
    return [p for p in inputs if p != STDIN]


def _labels_and_scores(args):
    """``(table, label, is_pos, pos, scores)``: only the label and score columns (names or
    positions) are read, never the whole file; ``is_pos`` is one bool a row (the positive
    label under the rule of :func:`pos_label`), the scores keep integers exact."""
    table = _read(args.file, [args.label, *args.score])
    label = table.resolve(args.label)
    names = [table.resolve(s) for s in args.score]
    if len(set(names)) != len(names):
        raise CLIError(f"a score column is given twice: {', '.join(args.score)}")
    is_pos, pos = binary_labels(table, label, args.pos_label)
    scores = {n: table.scores(n) for n in names}  # integers kept exact
    return table, label, is_pos, pos, scores


def binary_labels(table, label: str, given: str | None) -> tuple:
    """``(is_pos, pos)`` of a table's label column: the positive label chosen as by
    :func:`pos_label` and one bool a row. A text label that the reader holds as codes
    (:meth:`rankwise.cli._readers.Table.label_codes`) is decided on its few distinct values
    and compared as integers, never as one Python object a row."""
    import numpy as np

    coded = table.label_codes(label)
    if coded is None:
        y = table.labels(label)
        pos = pos_label(y, given)
        return np.asarray(y) == pos, pos
    codes, values = coded
    order = sorted(range(values.shape[0]), key=values.__getitem__)
    ordered = values[order]
    pos = _choose(ordered, given)
    return codes == order[list(ordered).index(pos)], pos


def _distinct(y: np.ndarray) -> np.ndarray:
    """np.unique(y): for numbers holding one or two values (a label) from their minimum and
    maximum, without sorting every row; for text labels through a set of the few distinct
    objects (the readers share one str per value), not a sort of every row (10 s at 10**7
    rows)."""
    import numpy as np

    if y.dtype != object:
        if y.dtype.kind in "biuf" and y.shape[0]:
            lo, hi = y.min(), y.max()
            if lo == hi:
                return y[:1].copy()
            if np.all((y == lo) | (y == hi)):
                return np.array([lo, hi], dtype=y.dtype)
        return np.unique(y)
    values = sorted(set(y))
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def pos_label(y: np.ndarray, given: str | None):
    """The positive label of the label column ``y`` under the library's rule
    (:meth:`rankwise._labels.BinaryKind.positive_label`): ``--pos-label`` (``given``) when it
    is one of the values; else 1 (True) for {0, 1}, {-1, 1} and booleans; else an error that
    names the values seen and asks for ``--pos-label``. With more than two values,
    ``--pos-label`` is needed and the others together are the negative class."""
    return _choose(_distinct(y), given)


def _show(values) -> str:
    return ", ".join(map(str, values[:6])) + (", ..." if len(values) > 6 else "")


def _choose(values: np.ndarray, given: str | None):
    """The label rule on the distinct values of a column (increasing), in the command
    line's words; the label returned is the value as read."""
    import numpy as np

    from .._labels import BINARY, Wording

    if values.shape[0] < 2:
        only = values[0].item() if isinstance(values[0], np.generic) else values[0]
        raise CLIError(f"the label column holds one class only ({only!r}); both classes are needed")
    words = Wording(
        not_binary="the label column holds {shown}; they are not {{0, 1}}, {{-1, 1}} or booleans, "
                   "so pass --pos-label to say which value is the positive class",
        not_present="--pos-label {given!r} is not a value of the label column ({shown})",
        too_many="the label column holds {count} values ({shown}); binary labels are needed, "
                 "or pass --pos-label to say which value is the positive class",
        show=_show)
    try:
        return BINARY.positive_label(list(values), given, match=_same_label, as_read=True, wording=words)
    except ValueError as exc:
        raise CLIError(str(exc)) from None


def _same_label(value, given: str) -> bool:
    """``--pos-label`` text against a label as read: the same text, or for numbers the
    same number (``1`` names the label read as 1.0), for booleans true/false in any case."""
    import numpy as np

    if str(value) == given:
        return True
    v = value.item() if isinstance(value, np.generic) else value
    if isinstance(v, bool):
        return given.strip().lower() == str(v).lower()
    if isinstance(v, (int, float)):
        try:
            return float(given) == v
        except ValueError:
            return False
    return False


def class_counts(is_pos: np.ndarray, pos) -> dict:
    """What every output states: the positive label, the number of rows and of positives."""
    import numpy as np

    return {"positive_label": pos.item() if isinstance(pos, np.generic) else pos,
            "n": int(is_pos.shape[0]), "n_positive": int(np.count_nonzero(is_pos))}


def counts_line(info: dict) -> str:
    """The footer of the text outputs: ``positive label: 'good' (n = 400, positives = 120)``,
    with ``, clusters = 37`` when the rows are clustered (:func:`with_clusters`)."""
    clusters = f", clusters = {info['n_clusters']:,}" if info.get("n_clusters") is not None else ""
    return (f"positive label: {info['positive_label']!r} (n = {info['n']:,}, "
            f"positives = {info['n_positive']:,}{clusters})\n")


def cluster_ids(table, column, used: dict) -> tuple | None:
    """``(codes, n_clusters)`` of ``--cluster`` (``column``; None: every row its own unit),
    one int64 code a row in order of first appearance (:meth:`rankwise.cli._readers.Table.ids`:
    ids of any type, as written in a text file; a missing id refused with its rows).

    Parameters
    ----------
    table : rankwise.cli._readers.Table
        The table the labels and scores were read from: the ids are its rows, so they
        stay aligned with them.
    column : str or None
        The ``--cluster`` column (name, or 0-based position).
    used : dict
        ``{column name: what it is}`` for the columns the command already uses (the label,
        the scores): the cluster column may not be one of them.

    Returns
    -------
    tuple of (ndarray of int64, int) or None

    Raises
    ------
    CLIError
        The column is the label or a score column.
    ValueError
        The column is unknown, or a row has no id.
    """
    from .._text import quoted

    if column is None:
        return None
    name = table.resolve(column)
    if name in used:
        raise CLIError(f"--cluster names {used[name]} {quoted(name)}; the cluster ids need a column of their own")
    return table.ids(name)


def with_clusters(info: dict, clusters: tuple | None) -> dict:
    """``info`` (:func:`class_counts`) with ``n_clusters`` added when the rows are
    clustered; unchanged (no such field) when they are not."""
    return info if clusters is None else {**info, "n_clusters": int(clusters[1])}


def clusters_note(info: dict, what: str = "standard errors") -> str:
    """The text outputs' line on the sampling unit: ``standard errors over 37 clusters
    (cluster-robust, Obuchowski 1997)``; empty when the rows are not clustered."""
    n = info.get("n_clusters")
    if n is None:
        return ""
    return f"{what} over {n:,} clusters (cluster-robust, Obuchowski 1997)\n"


def stage_lines(label: str, quiet: bool, ticker: "Ticker"):
    """A progress callback for long work with named stages: off a terminal (a log, a CI
    job) one line per stage on stderr, ``report: ROC bands 2/5 ...``; on a terminal the
    ticker's elapsed time already shows; nothing with ``--quiet``."""
    if quiet or ticker.enabled:
        return None

    def show(what: str) -> None:
        from .._text import shown

        sys.stderr.write(f"{label}: {shown(what)}\n")
        sys.stderr.flush()
    return show


class Ticker:
    """``with Ticker("fit", quiet):`` shows ``fit: 3 s`` on stderr, updated every second, for
    work without countable steps (fitting, reports, the main job); terminal only, silent with
    ``--quiet`` and for tasks under a second."""

    def __init__(self, label: str, quiet: bool = False):
        import threading
        import time

        self.label = label
        self.enabled = not quiet and sys.stderr.isatty()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._time = time.perf_counter
        self.shown = False

    def _run(self):
        t0 = self._time()
        while not self._stop.wait(1.0):
            sys.stderr.write(f"\r{self.label}: {self._time() - t0:.0f} s")
            sys.stderr.flush()
            self.shown = True

    def __enter__(self):
        if self.enabled:
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self._stop.set()
            self._thread.join()
            if self.shown:
                sys.stderr.write("\r" + " " * 40 + "\r")
                sys.stderr.flush()
        return False


# --- --group and --strata ---------------------------------------------------------------------

class GroupColumn:
    """The rows' groups of ``--group`` or ``--strata`` (:func:`group_column`).

    Attributes
    ----------
    option : str
        ``"--group"`` or ``"--strata"``.
    unit : str
        ``"group"`` or ``"stratum"`` (for messages).
    name : str
        The column's name.
    values : ndarray
        One group id a row, typed (:func:`group_column`): int64, float64 or object (text).
    names : list
        The distinct ids, sorted (the order of :func:`rankwise.stats.by_group`'s tables).
    codes : ndarray of int64
        Each row's index into ``names``.
    """

    def __init__(self, option: str, unit: str, name: str, values, names: list, codes):
        self.option, self.unit, self.name = option, unit, name
        self.values, self.names, self.codes = values, names, codes

    def find(self, given: str, option: str):
        """The group id written ``given`` on the command line (``--reference-group``):
        the id whose text is ``given``; else a one-line error listing the groups."""
        from .._text import quoted

        for v in self.names:
            if str(v) == given:
                return v
        raise CLIError(f"{option} {given!r} is not a {self.unit} of column {quoted(self.name)} "
                       f"({_show(self.names)})")

    def sizes(self, is_pos) -> list[dict]:
        """``[{"group": id, "n": rows, "n_positive": positives}, ...]`` in the order of ``names``."""
        import numpy as np

        G = len(self.names)
        n = np.bincount(self.codes, minlength=G)
        p = np.bincount(self.codes, weights=np.asarray(is_pos, dtype=np.float64), minlength=G)
        return [{self.unit: g, "n": int(a), "n_positive": int(b)} for g, a, b in zip(self.names, n, p)]

    def note(self, is_pos, limit: int = 20) -> str:
        """The text outputs' line on the groups: ``groups: column 'site', 3 groups (A: n = 40,
        positives = 11; B: ...)``, the first ``limit`` groups listed."""
        from .._text import quoted

        sizes = self.sizes(is_pos)
        plural = {"group": "groups", "stratum": "strata"}[self.unit]
        each = "; ".join(f"{d[self.unit]}: n = {d['n']:,}, positives = {d['n_positive']:,}" for d in sizes[:limit])
        more = f"; ... ({len(sizes) - limit} more)" if len(sizes) > limit else ""
        one = self.unit if len(sizes) == 1 else plural
        return f"{plural}: column {quoted(self.name)}, {len(sizes):,} {one} ({each}{more})\n"


def group_column(table, column, used: dict, option: str = "--group") -> GroupColumn | None:
    """The ``--group`` (or ``--strata``) column of ``table``: its ids as written in a text
    file (``007`` and ``7`` are two groups), typed when that loses nothing: every id an
    integer written as Python writes it (``-3``, ``12``, not ``007`` or ``+3``) gives int64
    ids, every id a finite float written as ``repr`` writes it (``0.5``, ``2.0``) float64
    ids, else the text; so ``--reference-group`` finds an id by its text, and numbers sort
    as numbers. Binary formats' values are written exactly first (integers as integers,
    floats by ``repr``), so they come back as they were.

    Parameters
    ----------
    table : rankwise.cli._readers.Table
        The table the labels and scores were read from (the ids are its rows).
    column : str or None
        The column (name, or 0-based position); None: no such option given.
    used : dict
        ``{column name: what it is}`` of the columns the command already uses (the label,
        the scores): the group column may not be one of them.
    option : str
        ``"--group"`` or ``"--strata"``, for messages.

    Returns
    -------
    GroupColumn or None

    Raises
    ------
    CLIError
        The column is the label or a score column, or a row has no group (an empty field;
        NaN or null in a binary format): one line naming the column and the first rows.
    ValueError
        The column is unknown.
    """
    import numpy as np

    if column is None:
        return None
    unit = "stratum" if option == "--strata" else "group"
    name, names, codes, dtype = id_column(table, column, used, option, f"{unit} ids", f"{unit} values",
                                          f"every row needs its {unit}")
    table_of_ids = np.empty(len(names), dtype=dtype)
    table_of_ids[:] = names
    return GroupColumn(option, unit, name, table_of_ids[codes], names, codes)


def id_column(table, column, used: dict, option: str, ids: str, missing: str, need: str) -> tuple:
    """A column of ids (groups, strata, folds) read as written, typed as
    :func:`group_column` describes: ``(name, names, codes, dtype)``, ``names`` the distinct
    ids sorted, ``codes`` each row's index into them (int64). One-line :class:`CLIError`
    when the column is one the command already uses (``used``; ``ids``: what the column
    holds, for the message) or a row has no id (``missing``: what is missing, ``need``:
    the rule, for the message)."""
    import numpy as np

    from .._text import quoted
    from ._readers import _MAX_LISTED_ROWS, _fmt_rows

    name = table.resolve(column)
    if name in used:
        raise CLIError(f"{option} names {used[name]} {quoted(name)}; the {ids} need a column of their own")
    text = table.text(name)  # as written; None where missing
    index: dict = {}
    codes = np.fromiter((index.setdefault(v, len(index)) for v in text), dtype=np.int64, count=text.shape[0])
    distinct = list(index)
    bad = [k for k, v in enumerate(distinct) if v is None or (isinstance(v, str) and v.strip() == "")]
    if bad:
        rows = np.flatnonzero(np.isin(codes, bad))
        raise CLIError(f"column {quoted(name)} has missing {missing} at rows "
                       f"{_fmt_rows(rows[:_MAX_LISTED_ROWS] + 1, rows.shape[0])}; {need}")
    typed, dtype = _typed_ids(distinct)
    order = sorted(range(len(typed)), key=typed.__getitem__)
    rank = np.empty(len(typed), dtype=np.int64)
    rank[np.asarray(order, dtype=np.int64)] = np.arange(len(typed), dtype=np.int64)
    return name, [typed[k] for k in order], rank[codes], dtype


def _typed_ids(distinct: list) -> tuple[list, object]:
    """The distinct ids as written, as ints (every one an integer in Python's own writing),
    floats (every one a finite float in ``repr``'s writing) or text: ``(ids, dtype)``."""
    import math

    def as_int(v: str):
        try:
            i = int(v)
        except ValueError:
            return None
        return i if str(i) == v else None

    def as_float(v: str):
        try:
            f = float(v)
        except ValueError:
            return None
        return f if math.isfinite(f) and repr(f) == v else None

    ints = [as_int(v) for v in distinct]
    if all(i is not None for i in ints):
        return ints, "int64"
    floats = [as_float(v) for v in distinct]
    if all(f is not None for f in floats):
        return floats, "float64"
    return [str(v) for v in distinct], object


def stratified_comparison(is_pos, scores: dict, strata: GroupColumn, weighting: str, *, clusters=None,
                          adjust: str = "holm", confidence_level: float = 0.95, reference=None,
                          alternative: str = "two-sided", margin: float | None = None):
    """Several score columns' stratified AUCs compared on the same rows (``compare --strata``):
    :func:`rankwise.stats.compare` with ``"stratified_auc"``; no stratum with both classes
    is a one-line error."""
    import warnings

    import numpy as np

    from .._validation import UndefinedMetricWarning
    from ..stats import compare

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # said below, in one line
        res = compare(is_pos, scores, "stratified_auc", strata=strata.codes, weighting=weighting,
                      clusters=None if clusters is None else clusters[0], reference=reference, adjust=adjust,
                      alternative=alternative, confidence_level=confidence_level, margin=margin)
    if not np.isfinite(res.values).any():
        raise CLIError(f"no stratum of column {strata.name!r} holds both classes: there is no stratified AUC")
    return res


# --- what evaluate, compare and report write (binary labels and censored times) ----------------

#: The most bootstrap resamples ``--resamples`` takes: each resample's value is kept (8
#: bytes) for the percentile interval, so 10**12 would ask for 8 TB; a million already
#: puts a 95% interval's Monte Carlo error far below its sampling error.
MAX_RESAMPLES = 1_000_000


def _text_table(table: list[list[str]], left: int = 2) -> str:
    """Rows of cells as aligned text: the first ``left`` columns left, the others right, a
    rule under the header."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    out = []
    for j, row in enumerate(table):
        out.append("  ".join(c.ljust(w) if i < left else c.rjust(w)
                             for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if j == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def _csv_cell(v: Any) -> str:
    if isinstance(v, float):
        return repr(v)
    s = str(v)
    return '"' + s.replace('"', '""') + '"' if any(ch in s for ch in ',"\n\r') else s


def _check_resamples(n: int) -> int:
    """``--resamples`` within [2, MAX_RESAMPLES], checked before any data is read."""
    if not 2 <= n <= MAX_RESAMPLES:
        raise CLIError(f"--resamples must be between 2 and {MAX_RESAMPLES:,}; got {n:,}")
    return n


def _comparison_dict(cmp_, criterion: str) -> dict:
    """A :class:`rankwise.stats.Comparison` as compare's JSON has it."""
    return {"criterion": criterion, "reference": cmp_.reference, "alternative": cmp_.alternative,
            "adjust": cmp_.adjust, "family": cmp_.family, "scores": list(cmp_.names), "values": cmp_.values.tolist(),
            "std_errors": cmp_.std_errors.tolist(), "intervals": cmp_.confidence_intervals().tolist(),
            "cov": cmp_.cov.tolist(), "pairs": [p._asdict() for p in cmp_.pairs],
            "global": {"statistic": cmp_.global_statistic, "df": cmp_.global_df, "p_value": cmp_.global_p_value},
            **({} if cmp_.margin is None else {"margin": cmp_.margin})}


def command_line(args) -> str:
    """The command as typed (for a report's header): ``rankwise`` and its arguments."""
    import shlex

    return shlex.join(["rankwise", *getattr(args, "argv", [])])
