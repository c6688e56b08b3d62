"""Input readers of the ``rankwise`` command line: one table per file, any format.

:func:`read_table` opens a file and returns a :class:`Table`. Only the columns asked
for (``columns=``) are read, each straight into one NumPy array (float64 or int64 for
numbers, 8 bytes a value; an object array of ``str`` only for a column holding text,
such as a text label, which the CSV reader holds as int32 codes into its distinct values
until the object array is asked for: :meth:`Table.label_codes`). Columns that were not
asked for are read later, on first use.

Formats, chosen by the file's extension or by ``fmt=``:

=====================  =========  ===========================================================
extension              ``fmt``    columns
=====================  =========  ===========================================================
``.csv``               csv        comma separated; header or not (see below)
``.tsv``, ``.tab``     tsv        tab separated
``.txt``, ``.dat``     txt        separator sniffed from the first line: tab, comma,
                                  semicolon, else runs of whitespace
``.parquet``, ``.pq``  parquet    the file's columns (needs ``pyarrow``)
``.svm``, ``.svmlight``,         ``"label"``, then ``"f1"`` .. ``"fd"``: the d columns of the
``.libsvm``            svmlight   CSR feature matrix, in order (``matrix()`` returns the CSR)
``.npy``               npy        2-D: ``"0"`` .. ``"k-1"``; 1-D: one column ``"0"``
``.npz``               npz        a 1-D array is a column named by its key; a 2-D array
                                  under key ``K`` gives columns ``"K0"`` .. ``"K<k-1>"``
``<any above>.gz``                a gzip-compressed CSV / TSV / TXT file
=====================  =========  ===========================================================

Header detection (CSV, TSV, TXT) when ``header=None``: the first line is a header if
any of its fields is not parseable as a number (empty fields and ``nan``/``inf`` count
as numbers). A headerless file whose first row holds a text label is therefore taken
as having a header: pass ``header=False``. Headerless columns are named ``"0"``,
``"1"``, ... (0-based positions). Everywhere, a column may be named by its name or by
its 0-based position written as a string (``"3"``); a name wins over a position.

Blank lines before the header (or before the first row) are skipped, as are blank lines
between rows; line numbers in messages count every line of the file, blank ones included.

Missing values: empty fields (and ``NA``, ``null``, ``NaN``, ...) are read as NaN, and
:meth:`Table.numeric`, :meth:`Table.scores`, :meth:`Table.labels` and :meth:`Table.matrix`
refuse NaN and infinite values with the 1-based data row numbers of the first offenders
(the row after the header is row 1).

Integers: a column whose values are all integers is read as int64, or uint64 when some
exceed int64's range and none is negative, by every format; :meth:`Table.scores` keeps
them so (float64 would round those above 2**53 and tie scores that differ, nanosecond
timestamps for one) and refuses integers that fit neither type.

Limits on hostile input (memory stays proportional to the columns asked for):

* a line of a text file is at most :data:`MAX_LINE_BYTES` (1 MiB), and so is a field;
  a longer one is refused with its line number before it is held in memory (the pyarrow
  engine reads blocks of that size and accepts some lines of up to twice it). Gzip
  files are decompressed as a stream, never whole; a corrupt or truncated one is
  refused with the last line read.
* ``.npz``: only the arrays holding asked-for columns are decompressed (the others'
  headers only are read), a 2-D array one block of rows at a time, and an array's
  declared shape must match the archive's sizes before anything is allocated.

CSV parsing uses ``pyarrow.csv`` (multi-threaded) when pyarrow is installed, else
pandas ``read_csv`` in chunks of :data:`CHUNK_ROWS` rows, else the standard library's
``csv`` module; whitespace-separated text goes through pandas when pyarrow is there.
Every column is filled chunk by chunk into one typed NumPy array (a text column holds
one ``str`` object per distinct value of a chunk, not one per row). Every error is a
one-line ``ValueError`` (or ``FileNotFoundError``) that the command prints as is. The
input file is only read.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import io
import os
import re
import zipfile
import zlib
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy as np

from .._text import quoted, shown

__all__ = ["Table", "read_table", "FORMATS", "CHUNK_ROWS", "MAX_LINE_BYTES"]

CHUNK_ROWS = 1_000_000

#: The longest line of a text file that is read, in bytes (1 MiB); also the longest
#: field. A parser holds a whole row, so a longer line (a file without newlines, a
#: decompression bomb) is refused, with its number, before it is in memory.
MAX_LINE_BYTES = 1 << 20

# extension -> format
_EXTENSIONS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".txt": "txt",
    ".dat": "txt",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".svm": "svmlight",
    ".svmlight": "svmlight",
    ".libsvm": "svmlight",
    ".npy": "npy",
    ".npz": "npz",
}
FORMATS = ("csv", "tsv", "txt", "parquet", "svmlight", "npy", "npz")
_TEXT_FORMATS = ("csv", "tsv", "txt")
_WHITESPACE = "whitespace"
_MAX_LISTED_COLUMNS = 20
_MAX_LISTED_ROWS = 5


def _text_of(v: Any) -> Optional[str]:
    """A value read from a binary format as text: integers as integers, floats exactly
    (``repr``), NaN and None as None."""
    if v is None or (isinstance(v, (float, np.floating)) and np.isnan(v)):
        return None
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    return str(v)


def _one_line(msg: Any) -> str:
    text = " ".join(str(msg).split())
    return text if len(text) <= 300 else text[:297] + "..."


def _fmt_rows(rows: np.ndarray, total: int) -> str:
    shown = ", ".join(str(int(r)) for r in rows[:_MAX_LISTED_ROWS])
    return shown + (f" ({total} rows in all)" if total > min(len(rows), _MAX_LISTED_ROWS) else "")


def _is_number(field: str) -> bool:
    field = field.strip()
    if field == "":
        return True
    try:
        float(field)
    except ValueError:
        return False
    return True


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.csv  # noqa: F401
    except ImportError:
        return False
    return True


def _has_pandas() -> bool:
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- Table


class Table:
    """A table read from one file. Columns are loaded on first use and kept.

    Attributes
    ----------
    columns : list of str
        Every column of the file, in order (``"0"``, ``"1"``, ... when it has no header).
    n_rows : int
        Number of data rows.
    path : str
        The file.
    fmt : str
        Its format (one of :data:`FORMATS`).
    header : bool or None
        Whether the first line was a header (text formats; None otherwise).
    """

    def __init__(self, path: str, fmt: str, columns: list[str], n_rows: int,
                 data: dict[str, np.ndarray], loader: Optional[Callable[[list[str]], dict]],
                 header: Optional[bool] = None, sparse: Any = None):
        self.path = path
        self.fmt = fmt
        self.columns = list(columns)
        self.n_rows = int(n_rows)
        self.header = header
        self._data = dict(data)
        self._loader = loader
        self._sparse = sparse  # svmlight: CSR of the features (columns[1:])

    def __repr__(self) -> str:
        return f"Table({self.path!r}, fmt={self.fmt!r}, {self.n_rows} rows, {len(self.columns)} columns)"

    # -- names
    def resolve(self, col: Union[str, int]) -> str:
        """The column name of ``col``: a name, or a 0-based position (``"3"`` or ``3``)."""
        return _resolve(self.columns, col, self.path)

    # -- raw access
    def _get(self, name: str) -> np.ndarray:
        arr = self._stored(name)
        if isinstance(arr, _Coded):  # a text column as codes: its object array from now on
            arr = self._data[name] = arr.materialize()
        return arr

    def _stored(self, name: str):
        """The column as held: an array, or a text column's :class:`_Coded` form."""
        if name not in self._data:
            if self._sparse is not None and name != "label":
                j = self.columns.index(name) - 1
                self._data[name] = np.asarray(self._sparse[:, j].toarray()).ravel()
            else:
                if self._loader is None:  # pragma: no cover - every format sets a loader
                    raise ValueError(f"column {quoted(name)} of {self.path} cannot be read")
                missing = [name]
                self._data.update(self._loader(missing))
        return self._data[name]

    def label_codes(self, col: Union[str, int]) -> Optional[tuple[np.ndarray, np.ndarray]]:
        """``(codes, values)`` of a text column that the CSV reader dictionary-encoded:
        ``values[codes]`` is the column (one int32 a row, each distinct ``str`` once, in
        the order first seen), checked as by :meth:`labels`; None for any other column
        (numbers, or text from another reader), which :meth:`labels` gives."""
        name = self.resolve(col)
        stored = self._stored(name)
        if not isinstance(stored, _Coded):
            return None
        bad = [k for k, v in enumerate(stored.values) if _empty_label(v)]
        if bad:
            rows = np.flatnonzero(np.isin(stored.codes, bad))
            raise ValueError(f"column {quoted(name)} has empty values at rows "
                             f"{_fmt_rows(rows[:_MAX_LISTED_ROWS] + 1, rows.shape[0])}")
        return stored.codes, stored.values

    def raw(self, col: Union[str, int]) -> np.ndarray:
        """The column as read, unchecked (float64, int64, bool, or object array of text)."""
        return self._get(self.resolve(col))

    def text(self, col: Union[str, int]) -> np.ndarray:
        """The column's values as text, for copying out (``score --keep``): a text file's
        fields as written (``007`` stays ``007``), read again as text and not kept; other
        formats' values as read, numbers written exactly. Missing values are None."""
        name = self.resolve(col)
        loader = getattr(self, "_text_loader", None)
        if loader is not None:
            arr = loader([name])[name]
            return arr.materialize() if isinstance(arr, _Coded) else arr
        out = np.empty(self.n_rows, dtype=object)
        out[:] = [_text_of(v) for v in self._get(name)]
        return out

    def ids(self, col: Union[str, int]) -> tuple[np.ndarray, int]:
        """The column as sampling-unit ids (``--cluster``): ``(codes, n_ids)``, one int64
        code a row in ``0 .. n_ids - 1``, numbered in order of first appearance.

        A text file's ids are its fields as written (as by :meth:`text`: ``007`` and ``7``
        are two ids, so are ``1`` and ``1.0``), held as codes into the distinct values
        when the pyarrow engine reads them; other formats' ids are the values as read
        (numbers or text). A missing id (an empty field; NaN or null in a binary format)
        is refused with the column's name and the 1-based rows: a row of no known cluster
        cannot be placed.

        Raises
        ------
        ValueError
            One line naming the column and the first rows with a missing id.
        """
        from .._validation import check_clusters

        name = self.resolve(col)
        loader = getattr(self, "_text_loader", None)
        arr = loader([name])[name] if loader is not None else self._get(name)
        if isinstance(arr, _Coded):
            bad_values = [k for k, v in enumerate(arr.values) if _empty_label(v)]
            bad = np.isin(arr.codes, bad_values) if bad_values else None
            values = arr.codes
        else:
            values = arr
            if arr.dtype.kind == "f":
                bad = ~np.isfinite(arr)
            elif arr.dtype == object:
                bad = np.fromiter(map(_empty_label, arr), dtype=bool, count=arr.shape[0])
            else:
                bad = None
        if bad is not None and bad.any():
            rows = np.flatnonzero(bad)
            raise ValueError(f"column {quoted(name)} has missing cluster ids at rows "
                             f"{_fmt_rows(rows[:_MAX_LISTED_ROWS] + 1, rows.shape[0])}; every row needs the id "
                             "of its cluster")
        return check_clusters(values, values.shape[0], "--cluster")

    # -- checked access
    def numeric(self, col: Union[str, int]) -> np.ndarray:
        """The column as a float64 1-D array; refuses text, NaN, empty and infinite values."""
        name = self.resolve(col)
        arr = self._get(name)
        if arr.dtype == object:
            arr = _parse_text_numbers(arr, name)
        elif arr.dtype.kind not in "fiub":
            raise ValueError(f"column {quoted(name)} has non-numeric values (dtype {arr.dtype})")
        out = arr if arr.dtype == np.float64 else arr.astype(np.float64)
        _check_finite(out, name)
        return out

    def scores(self, col: Union[str, int]) -> np.ndarray:
        """The column as scores to rank: integers stay int64 or uint64, exact (float64
        would round those above 2**53 and tie scores that differ), anything else is
        float64 as by :meth:`numeric`. Integers that fit neither type are refused:
        rankwise ranks 64-bit numbers."""
        name = self.resolve(col)
        arr = self._get(name)
        if arr.dtype.kind in "iu":
            return arr if arr.dtype.isnative else arr.astype(arr.dtype.newbyteorder("="))
        if arr.dtype == object:
            ints = _object_integers(arr, name)
            if ints is not None:
                return ints
        return self.numeric(name)

    def labels(self, col: Union[str, int]) -> np.ndarray:
        """The column's values as read (numbers as numbers, text as ``str``); refuses
        NaN, infinite and empty values."""
        name = self.resolve(col)
        arr = self._get(name)
        if arr.dtype == object:
            # the distinct values first (few: the readers share one str per value), the
            # rows only when one of them is bad
            try:
                distinct = set(arr)
            except TypeError:  # unhashable values (a Parquet list column): every row
                distinct = arr
            if not any(map(_empty_label, distinct)):
                return arr
            bad = np.fromiter(map(_empty_label, arr), dtype=bool, count=len(arr))
            if bad.any():
                rows = np.flatnonzero(bad)[:_MAX_LISTED_ROWS] + 1
                raise ValueError(f"column {quoted(name)} has empty values at rows {_fmt_rows(rows, int(bad.sum()))}")
            return arr
        if arr.dtype.kind == "f":
            _check_finite(arr, name)
        return arr

    def matrix(self, cols: Optional[Sequence[Union[str, int]]] = None,
               exclude: Iterable[Union[str, int]] = ()):
        """The float64 feature matrix (n_rows, k) of ``cols`` (default: every column but
        ``exclude``), each column checked as by :meth:`numeric`. A svmlight table gives
        a ``scipy.sparse.csr_matrix``."""
        excluded = {self.resolve(c) for c in exclude}
        if cols is None:
            names = [c for c in self.columns if c not in excluded]
            if self._sparse is not None:
                names = [c for c in names if c != "label"]
        else:
            names = [self.resolve(c) for c in cols]
            names = [c for c in names if c not in excluded]
        if not names:
            raise ValueError(f"no feature columns left in {self.path}")
        if self._sparse is not None:
            return self._sparse_matrix(names)
        out = np.empty((self.n_rows, len(names)), dtype=np.float64)
        for j, name in enumerate(names):
            out[:, j] = self.numeric(name)
            if name not in self._wanted_kept():
                self._data.pop(name, None)  # matrix() copies; do not hold both
        return out

    def _wanted_kept(self) -> set:
        return getattr(self, "_kept", set())

    def _sparse_matrix(self, names: list[str]):
        import scipy.sparse as sp

        X = self._sparse
        if "label" in names:
            raise ValueError(f"'label' is the target of the svmlight file {self.path}, not a feature column")
        idx = [self.columns.index(n) - 1 for n in names]
        if idx != list(range(X.shape[1])):
            X = X[:, idx]
        X = sp.csr_matrix(X, dtype=np.float64)
        if X.nnz and not np.isfinite(X.data).all():
            rows = np.unique(np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))[~np.isfinite(X.data)])
            raise ValueError(f"the features of {self.path} have NaN or infinite values at rows "
                             f"{_fmt_rows(rows + 1, len(rows))}")
        return X


def _empty_label(v: Any) -> bool:
    return v is None or (isinstance(v, str) and v.strip() == "") or (isinstance(v, float) and not np.isfinite(v))


def _resolve(columns: list[str], col: Union[str, int], path: str) -> str:
    if isinstance(col, (int, np.integer)) and not isinstance(col, bool):
        key = str(int(col))
    else:
        key = str(col)
    if key in columns:
        return _unique(columns, key, path)
    stripped = key.strip()
    if re.fullmatch(r"\d+", stripped):
        pos = int(stripped)
        if pos < len(columns):
            return _unique(columns, columns[pos], path)
    listed = ", ".join(shown(c if len(c) <= 40 else c[:37] + "...") for c in columns[:_MAX_LISTED_COLUMNS])
    if len(columns) > _MAX_LISTED_COLUMNS:
        listed += f", ... ({len(columns)} columns)"
    return _raise(ValueError(f"unknown column {quoted(key)} in {path}; columns are: {listed}"))


def _unique(columns: list[str], name: str, path: str) -> str:
    """``name``, when exactly one column of the file has it. A column selected by a name
    (or a position) that two columns share is refused: which one was meant cannot be
    told, and taking the first would give a silently wrong number."""
    if columns.count(name) > 1:
        where = [i for i, c in enumerate(columns) if c == name]
        at = ", ".join(map(str, where[:_MAX_LISTED_ROWS])) + (", ..." if len(where) > _MAX_LISTED_ROWS else "")
        shown_name = name if len(name) <= 80 else name[:77] + "..."
        raise ValueError(f"{len(where)} columns of {path} are named {quoted(shown_name)} (0-based positions {at}); "
                         "a column rankwise reads must have a name of its own: rename the others")
    return name


def _raise(exc: BaseException):
    raise exc


def _parse_text_numbers(arr: np.ndarray, name: str) -> np.ndarray:
    """Object array of text -> float64; non-numeric entries reported by row."""
    out = np.empty(len(arr), dtype=np.float64)
    bad_rows: list[int] = []
    n_bad = 0
    for i, v in enumerate(arr):
        if v is None:
            out[i] = np.nan
            continue
        if isinstance(v, str):
            s = v.strip()
            if s == "":
                out[i] = np.nan
                continue
        else:
            s = v
        try:
            out[i] = float(s)
        except (TypeError, ValueError):
            n_bad += 1
            if len(bad_rows) < _MAX_LISTED_ROWS:
                bad_rows.append(i + 1)
    if n_bad:
        first = arr[bad_rows[0] - 1]
        raise ValueError(f"column {quoted(name)} has non-numeric values at rows "
                         f"{_fmt_rows(np.asarray(bad_rows), n_bad)}, e.g. {_one_line(repr(first))[:40]}")
    return out


def _object_integers(arr: np.ndarray, name: str) -> Optional[np.ndarray]:
    """An object column whose values are all integers (Python ints, or their text: what
    the readers keep of integers beyond 64 bits) as int64 or uint64; None when some value
    is not an integer (then it is read as float64); a ValueError when they fit neither."""
    for v in arr:
        if isinstance(v, str):
            if not _is_int(v.strip()):
                return None
        elif isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            return None
    ints = [int(v) for v in arr]
    for dtype in (np.int64, np.uint64):
        try:
            return np.array(ints, dtype=dtype)
        except OverflowError:
            pass
    lo, hi = -(1 << 63), 1 << 64
    beyond = [i for i, v in enumerate(ints) if not lo <= v < hi]
    if beyond:
        raise ValueError(f"column {quoted(name)} has integers beyond 64 bits at rows "
                         f"{_fmt_rows(np.asarray(beyond[:_MAX_LISTED_ROWS]) + 1, len(beyond))}, "
                         f"e.g. {_one_line(str(ints[beyond[0]]))[:40]}; scores are ranked as int64, "
                         f"uint64 or float64 numbers")
    raise ValueError(f"column {quoted(name)} has integers from {min(ints)} to {max(ints)}, which fit neither int64 nor "
                     f"uint64; scores are ranked as 64-bit numbers")


def _check_finite(arr: np.ndarray, name: str) -> None:
    if arr.dtype.kind != "f":
        return
    finite = np.isfinite(arr)
    if finite.all():
        return
    bad = ~finite
    rows = np.flatnonzero(bad)[:_MAX_LISTED_ROWS] + 1
    raise ValueError(f"column {quoted(name)} has NaN or infinite values at rows {_fmt_rows(rows, int(bad.sum()))}")


# --------------------------------------------------------------------------- read_table


def _format_of(path: str, fmt: Optional[str]) -> tuple[str, bool]:
    """(format, gzipped)."""
    low = path.lower()
    gz = low.endswith(".gz")
    if gz:
        low = low[:-3]
    if fmt is not None:
        f = str(fmt).lower().lstrip(".")
        f = {"libsvm": "svmlight", "svm": "svmlight", "pq": "parquet", "tab": "tsv", "dat": "txt"}.get(f, f)
        if f not in FORMATS:
            raise ValueError(f"unknown format '{fmt}'; supported formats are: {', '.join(FORMATS)}")
        return f, gz
    ext = os.path.splitext(low)[1]
    if ext not in _EXTENSIONS:
        supported = ", ".join(list(_EXTENSIONS) + ["and .csv.gz / .tsv.gz / .txt.gz"])
        raise ValueError(f"cannot tell the format of {path} from its extension '{ext or '(none)'}'; "
                         f"supported: {supported} (or pass fmt=)")
    f = _EXTENSIONS[ext]
    if gz and f not in _TEXT_FORMATS:
        raise ValueError(f"{path}: only CSV, TSV and TXT files may be gzip-compressed")
    return f, gz


def read_table(path: Union[str, os.PathLike], *, columns: Optional[Sequence[Union[str, int]]] = None,
               header: Optional[bool] = None, fmt: Optional[str] = None,
               sep: Optional[str] = None) -> Table:
    """Open ``path`` and read the ``columns`` asked for (names or 0-based positions;
    default: all). Other columns are read on first use.

    ``header``: None detects it (text formats), True/False forces it. ``fmt`` overrides
    the extension (one of :data:`FORMATS`). ``sep`` overrides the separator of a text
    file (``"whitespace"`` or ``r"\\s+"`` for runs of blanks).
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path}")
    if os.path.isdir(path):
        raise ValueError(f"{path} is a directory, not a file")
    _refuse_special_input(path)
    kind, gz = _format_of(path, fmt)
    if os.path.getsize(path) == 0:
        raise ValueError(f"{path} is empty")
    if kind in _TEXT_FORMATS:
        return _read_text(path, kind, gz, columns, header, sep)
    if kind == "parquet":
        return _read_parquet(path, columns)
    if kind == "svmlight":
        return _read_svmlight(path)
    if kind == "npy":
        return _read_npy(path, columns)
    return _read_npz(path, columns)


def _refuse_special_input(path: str) -> None:
    """A named pipe, socket or device is refused as input, without opening it (a pipe
    with no writer would block): the readers read a file more than once (its header,
    then the columns asked for), which a stream cannot give; standard input (``-``) is
    copied to a file first and is the way to pipe data in."""
    import stat

    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return
    what = ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
    raise ValueError(f"{path} is {what}, not a file: the readers read a file more than once; pipe the data to "
                     "standard input instead (FILE -)")


def _wanted(all_columns: list[str], columns, path: str) -> list[str]:
    if columns is None:  # every column is read: none may share its name
        if len(set(all_columns)) != len(all_columns):
            seen: set = set()
            first = next(c for c in all_columns if c in seen or seen.add(c))
            _unique(all_columns, first, path)
        return list(all_columns)
    if isinstance(columns, (str, int)):
        columns = [columns]
    out: list[str] = []
    for c in columns:
        name = _resolve(all_columns, c, path)
        if name not in out:
            out.append(name)
    return out


def _lazy_table(path: str, kind: str, names: list[str], n_rows: int, columns, loader) -> "Table":
    """A table holding the asked columns now and reading the others on demand."""
    wanted = _wanted(names, columns, path)
    table = Table(path, kind, names, n_rows, loader(wanted), loader)
    table._kept = set(wanted)
    return table


# ---- text (CSV / TSV / TXT)


class _LineLimited(io.RawIOBase):
    """The bytes of a text file, gunzipped on the fly when ``gz``, for the parsers that run
    in Python (csv, pandas, the header sniffer): a line longer than :data:`MAX_LINE_BYTES`
    and a corrupt or truncated gzip stream raise a one-line ValueError naming the line,
    so a parser never buffers more than one line of a hostile file, and a bad file is a
    message, not a ``zlib.error`` traceback."""

    _READ = 1 << 16  # bytes a read, below MAX_LINE_BYTES: a line within one read is short

    def __init__(self, path: str, gz: bool):
        super().__init__()
        self.path = path
        self.gz = gz
        self.lines = 0  # newlines passed
        self._open = 0  # bytes since the last one
        self._fh = gzip.open(path, "rb") if gz else open(path, "rb")

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        try:
            data = self._fh.read(min(len(buf), self._READ))
        except (OSError, EOFError, zlib.error) as exc:
            what = "is corrupt or truncated (gzip)" if self.gz else "cannot be read"
            raise ValueError(f"{self.path} {what} after line {self.lines}: {_one_line(exc)}") from None
        n = len(data)
        first = data.find(b"\n")
        if first < 0:
            self._open += n
        else:
            if self._open + first > MAX_LINE_BYTES:
                self._too_long()
            self.lines += data.count(b"\n")
            self._open = n - data.rfind(b"\n") - 1
        if self._open > MAX_LINE_BYTES:
            self._too_long()
        buf[:n] = data
        return n

    def _too_long(self):
        raise ValueError(f"line {self.lines + 1} of {self.path} is longer than {MAX_LINE_BYTES:,} bytes, the "
                         f"longest line read (is it a text table, one row a line?)")

    def close(self) -> None:
        if not self.closed:
            self._fh.close()
        super().close()


def _open_text(path: str, gz: bool):
    return io.TextIOWrapper(io.BufferedReader(_LineLimited(path, gz)), encoding="utf-8-sig", errors="replace",
                            newline="")


@contextlib.contextmanager
def _csv_field_limit():
    """The csv module's field limit (131,072 characters by default, process-wide) set to
    MAX_LINE_BYTES while a file is parsed, then restored: a field as long as the longest
    line is read, a longer one (a quoted field spanning lines) is a csv.Error."""
    old = csv.field_size_limit(MAX_LINE_BYTES)
    try:
        yield
    finally:
        csv.field_size_limit(old)


def _csv_error(path: str, line: int, exc: BaseException) -> ValueError:
    if "field limit" in str(exc):
        return ValueError(f"line {line} of {path} has a field longer than {MAX_LINE_BYTES:,} characters, the "
                          f"longest field read (an unclosed quote?)")
    return ValueError(f"cannot read line {line} of {path}: {_one_line(exc)}")


def _first_line(path: str, gz: bool) -> tuple[str, int]:
    """The first non-blank line and the number of blank lines before it (skipped, as
    the engines skip them, so that a blank line is never taken for the header)."""
    with _open_text(path, gz) as fh:
        for blank, line in enumerate(fh):
            if line.strip():
                return line.rstrip("\r\n"), blank
    raise ValueError(f"{path} has no data (only blank lines)")


def _sniff_sep(line: str) -> str:
    for cand in ("\t", ",", ";", "|"):
        if cand in line:
            return cand
    return _WHITESPACE


def _split(line: str, sep: str, path: str, line_no: int) -> list[str]:
    if sep == _WHITESPACE:
        return line.split()
    with _csv_field_limit():
        try:
            return next(csv.reader([line], delimiter=sep))
        except csv.Error as exc:
            raise _csv_error(path, line_no, exc) from None


def text_layout(path: str, kind: str, gz: bool, header: Optional[bool], sep: Optional[str]) -> tuple:
    """``(names, sep, skip, header)`` of a text table: its column names, its separator
    (:data:`_WHITESPACE` for runs of blanks), the lines before the first data row and
    whether the first line is a header (the rules of the module docstring). Shared by
    :func:`read_table` and the streaming reader of :mod:`rankwise.cli._stream`."""
    first, blank = _first_line(path, gz)
    if sep is None:
        sep = {"csv": ",", "tsv": "\t"}.get(kind) or _sniff_sep(first)
    elif sep in (r"\s+", " ", "whitespace", "\\s+"):
        sep = _WHITESPACE
    fields = _split(first, sep, path, blank + 1)
    if header is None:
        header = not all(_is_number(f) for f in fields)
    header = bool(header)
    names = [f.strip() for f in fields] if header else [str(i) for i in range(len(fields))]
    for i, n in enumerate(names):
        if n == "":
            names[i] = str(i)
    return names, sep, blank + header, header  # skip: lines before the first data row


def _read_text(path, kind, gz, columns, header, sep) -> Table:
    names, sep, skip, header = text_layout(path, kind, gz, header, sep)
    use_arrow = sep != _WHITESPACE and _has_pyarrow()
    use_pandas = not use_arrow and _has_pandas()

    def loader(wanted: list[str], text: bool = False) -> tuple[dict, int]:
        idx = [names.index(w) for w in wanted]
        if use_arrow:
            arrays, n = _csv_arrow(path, sep, skip, len(names), idx, text)
        elif use_pandas:
            arrays, n = _csv_pandas(path, sep, skip, len(names), idx, gz, text)
        else:
            arrays, n = _csv_stdlib(path, sep, skip, len(names), idx, gz, text)
        return {names[i]: a for i, a in zip(idx, arrays)}, n

    wanted = _wanted(names, columns, path)
    data, n_rows = loader(wanted if wanted else names[:1])
    if not wanted:
        data = {}
    if n_rows == 0:
        raise ValueError(f"{path} has no data rows" + (" (only a header)" if header else ""))
    table = Table(path, kind, names, n_rows, data, lambda w: loader(w)[0], header=header)
    table._kept = set(wanted)
    table._text_loader = lambda w: loader(w, text=True)[0]
    return table


def _arrow_numpy(arr) -> np.ndarray:
    """An Arrow array as NumPy, read off its buffers for the plain types a table of scores
    holds (fixed-width integers and floats, booleans without nulls): pyarrow's own
    ``to_numpy`` imports pandas when it is installed, 0.2-0.5 s of every command. Nulls
    of a number become NaN in float64 (as ``to_numpy`` gives); any other type goes
    through ``to_numpy``. Without nulls a number array is a read-only view of the Arrow
    buffer, as ``to_numpy`` returns it."""
    import pyarrow as pa

    t = arr.type
    n, off = len(arr), arr.offset
    bufs = arr.buffers()
    number = pa.types.is_integer(t) or pa.types.is_floating(t) and t != pa.float16()
    if len(bufs) != 2 or not (number or pa.types.is_boolean(t) and arr.null_count == 0):
        return arr.to_numpy(zero_copy_only=False)
    if n == 0:
        return np.empty(0, dtype=np.bool_ if pa.types.is_boolean(t) else np.dtype(t.to_pandas_dtype()))
    if pa.types.is_boolean(t):
        bits = np.unpackbits(np.frombuffer(bufs[1], dtype=np.uint8), bitorder="little", count=off + n)
        return bits[off:].astype(np.bool_)
    dt = np.dtype(t.to_pandas_dtype())
    out = np.frombuffer(bufs[1], dtype=dt, count=n, offset=off * dt.itemsize)
    if arr.null_count:
        valid = np.unpackbits(np.frombuffer(bufs[0], dtype=np.uint8), bitorder="little", count=off + n)[off:]
        out = out.astype(np.float64)
        out[valid == 0] = np.nan
    return out


def _arrow_to_numpy(chunked) -> np.ndarray:
    """A ChunkedArray (or Array) -> one NumPy array, releasing the Arrow chunks one by
    one as they are copied (peak: the NumPy array plus one chunk). Integers without
    nulls stay integers: uint64 as uint64 (its values may exceed int64's), others int64."""
    import pyarrow as pa
    import pyarrow.compute as pc

    t = chunked.type
    n = len(chunked)
    chunks = list(chunked.chunks) if isinstance(chunked, pa.ChunkedArray) else [chunked]
    null_count = chunked.null_count
    del chunked
    if pa.types.is_null(t):
        return np.full(n, np.nan)
    if pa.types.is_dictionary(t):
        chunks = [c.cast(t.value_type) for c in chunks]
        t = t.value_type
    numeric = pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)
    if pa.types.is_boolean(t) and null_count == 0:
        dtype, target = np.bool_, None
    elif pa.types.is_integer(t) and null_count == 0:
        dtype, target = (np.uint64, pa.uint64()) if t == pa.uint64() else (np.int64, pa.int64())
    elif numeric or pa.types.is_boolean(t):
        dtype, target = np.float64, pa.float64()  # nulls become NaN
    else:
        out = np.empty(n, dtype=object)
        pos = 0
        for i in range(len(chunks)):
            ch = chunks[i]
            chunks[i] = None
            text = pa.types.is_string(ch.type) or pa.types.is_large_string(ch.type)
            out[pos:pos + len(ch)] = _arrow_text(ch) if text else _arrow_numpy(ch)
            pos += len(ch)
        return out
    out = np.empty(n, dtype=dtype)
    pos = 0
    for i in range(len(chunks)):
        ch = chunks[i]
        chunks[i] = None
        if target is not None and ch.type != target:
            ch = pc.cast(ch, target)
        out[pos:pos + len(ch)] = _arrow_numpy(ch)
        pos += len(ch)
        del ch
    return out


def _arrow_text(arr) -> np.ndarray:
    """An Arrow string array as an object array holding one ``str`` per distinct value
    (nulls: None): a text label of 10**7 rows costs 80 MB of pointers, not 10**7
    strings."""
    import pyarrow as pa

    if pa.types.is_dictionary(arr.type):
        enc = arr
    else:
        enc = arr.dictionary_encode()
    values = np.empty(len(enc.dictionary) + 1, dtype=object)
    values[:-1] = enc.dictionary.to_pylist()  # the distinct values only
    values[-1] = None
    codes = _arrow_numpy(enc.indices)  # nulls: NaN, i.e. the None at the end
    if codes.dtype.kind == "f":
        codes = np.where(np.isnan(codes), len(values) - 1, codes).astype(np.int64)
    return values[codes]


def _shared_text(values: np.ndarray) -> np.ndarray:
    """An object array with equal strings made one object (what :func:`_arrow_text`
    gives for the other engines)."""
    seen: dict = {}
    return np.fromiter((seen.setdefault(v, v) if isinstance(v, str) else v for v in values), dtype=object,
                       count=len(values))


_INT_TEXT = re.compile(r"[-+]?[0-9]+")


def _head(path, ropts_kw, popts, include):
    """Column types from the first block (~1 MiB) of the file (int64, uint64, float64,
    bool or string) and the rows-per-byte of that block. Explicit types make pyarrow's
    read faster and lighter than its own inference, and the text of a column pyarrow
    takes for floats is checked for integers beyond int64 (uint64, or text beyond 64
    bits: float64 would round them)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv

    ropts = pcsv.ReadOptions(**dict(ropts_kw, block_size=MAX_LINE_BYTES))

    def first_block(types=None):
        copts = pcsv.ConvertOptions(include_columns=include, strings_can_be_null=True, column_types=types)
        reader = pcsv.open_csv(path, read_options=ropts, parse_options=popts, convert_options=copts)
        try:
            return reader.read_next_batch()
        except StopIteration:
            return None
        finally:
            reader.close()

    batch = first_block()
    if batch is None:
        return None, 0.0
    types = {}
    floats = []
    for name in include:
        t = batch.schema.field(name).type
        if pa.types.is_integer(t):
            types[name] = pa.int64()
        elif pa.types.is_floating(t):
            types[name] = pa.float64()
            floats.append(name)
        elif pa.types.is_null(t):
            types[name] = pa.float64()
        elif pa.types.is_boolean(t):
            types[name] = pa.bool_()
        else:
            types[name] = pa.string()
    if floats:
        text = first_block({name: pa.string() for name in floats})
        for name in floats:
            values = text.column(name).drop_null()
            if len(values) and pc.all(pc.match_substring_regex(values, f"^{_INT_TEXT.pattern}$")).as_py():
                try:
                    pc.cast(values, pa.uint64())
                    types[name] = pa.uint64()
                except pa.ArrowInvalid:
                    types[name] = pa.string()
    return types, batch.num_rows / MAX_LINE_BYTES


def _widened(t, value: str):
    """The type to read a column with after type ``t`` failed on ``value`` (the type of
    the first block held until then): integers go to uint64 when positive, floats to
    float64, and integers that fit no 64-bit type, or text, to string."""
    import pyarrow as pa

    if _INT_TEXT.fullmatch(value):
        return pa.uint64() if t == pa.int64() and not value.startswith("-") else pa.string()
    return pa.float64() if t in (pa.int64(), pa.uint64()) else pa.string()


class _Coded:
    """A text column as ``codes`` (int32, one a row) into ``values`` (an object array of
    its distinct ``str``, None for a missing value): what Arrow's dictionary encoding
    gives, kept so that a text label is compared as integers, never as 10**7 objects."""

    __slots__ = ("codes", "values")

    def __init__(self, codes: np.ndarray, values: np.ndarray):
        self.codes, self.values = codes, values

    def __len__(self) -> int:
        return self.codes.shape[0]

    def materialize(self) -> np.ndarray:
        """The object array (one pointer a row to the shared ``str``)."""
        return self.values[self.codes]


class _TextColumn:
    """A text column filled batch by batch as codes: each Arrow batch is dictionary-encoded
    and its local codes are mapped to the codes of the values seen so far."""

    def __init__(self, capacity: int):
        self.codes = _Column(capacity, np.int32)
        self.index: dict = {}

    @property
    def n(self) -> int:
        return self.codes.n

    def add(self, col) -> None:
        import pyarrow as pa

        enc = col if pa.types.is_dictionary(col.type) else col.dictionary_encode()
        local = enc.dictionary.to_pylist()
        remap = np.fromiter((self.index.setdefault(v, len(self.index)) for v in local), dtype=np.int32,
                            count=len(local))
        idx = _arrow_numpy(enc.indices)  # nulls: NaN
        if idx.dtype.kind == "f":
            remap = np.append(remap, np.int32(self.index.setdefault(None, len(self.index))))
            idx = np.where(np.isnan(idx), len(local), idx).astype(np.int64)
        self.codes.append(remap[idx])

    def finish(self) -> _Coded:
        values = np.empty(len(self.index), dtype=object)
        values[:] = list(self.index)
        return _Coded(self.codes.finish(), values)


class _Column:
    """A NumPy array filled chunk by chunk, preallocated from an estimate of the row count
    and grown in place (``ndarray.resize``) when the estimate is short. Chunks typed
    apart are merged as the whole column would be typed (:func:`_merged_dtype`)."""

    def __init__(self, capacity: int, dtype=None):
        self.capacity = capacity
        self.arr = None if dtype is None else np.empty(capacity, dtype=dtype)
        self.n = 0

    def append(self, values: np.ndarray) -> None:
        m = len(values)
        if self.arr is None:
            self.arr = np.empty(max(self.capacity, m), dtype=values.dtype)
        if values.dtype != self.arr.dtype:
            target = _merged_dtype(self.arr[:self.n], values)
            if self.arr.dtype != target:
                grown = np.empty(len(self.arr), dtype=target)
                grown[:self.n] = self.arr[:self.n]
                self.arr = grown
            values = values.astype(target, copy=False)
        if self.n + m > len(self.arr):
            self.arr.resize(max(2 * len(self.arr), self.n + m), refcheck=False)
        self.arr[self.n:self.n + m] = values
        self.n += m

    def finish(self) -> np.ndarray:
        if self.arr is None:
            return np.empty(0)
        if len(self.arr) != self.n:
            self.arr.resize(self.n, refcheck=False)
        return self.arr


def _merged_dtype(a: np.ndarray, b: np.ndarray):
    """The dtype of two parts of one column: text anywhere -> object; a float -> float64;
    int64 with uint64 -> uint64 when no value is negative, else object (exact Python
    ints, which :meth:`Table.scores` refuses and :meth:`Table.numeric` reads as floats);
    bools with integers -> integers."""
    kinds = {a.dtype.kind, b.dtype.kind}
    if not kinds <= set("fiub"):
        return object
    if "f" in kinds:
        return np.float64
    if kinds >= {"i", "u"}:
        signed = a if a.dtype.kind == "i" else b
        return object if (signed < 0).any() else np.uint64
    return np.uint64 if "u" in kinds else np.int64


def _batch_to_numpy(col) -> np.ndarray:
    import pyarrow as pa

    t = col.type
    if pa.types.is_null(t):
        return np.full(len(col), np.nan)
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_dictionary(t):
        return _arrow_text(col)
    out = _arrow_numpy(col)
    if out.dtype.kind == "i" or (out.dtype.kind == "u" and out.dtype.itemsize < 8):
        out = out.astype(np.int64, copy=False)
    return out


def _csv_arrow(path: str, sep: str, skip: int, n_fields: int, idx: list[int], text: bool = False):
    """Stream the file with pyarrow's CSV reader (explicit column types from the head),
    copying each batch's wanted columns into preallocated NumPy arrays: the peak is the
    arrays plus a few blocks of the file, never an Arrow table of the whole file. A
    line longer than a block (MAX_LINE_BYTES) stops pyarrow; the error is then found
    and named by :func:`_raise_parse_error`."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    internal = [f"c{i}" for i in range(n_fields)]
    include = [internal[i] for i in idx]
    ropts_kw = dict(column_names=internal, skip_rows=skip)
    popts = pcsv.ParseOptions(delimiter=sep)
    gz = path.lower().endswith(".gz")
    try:
        size = os.path.getsize(path)
        types, rows_per_byte = _head(path, ropts_kw, popts, include)
        if types is None:
            return [np.empty(0) for _ in idx], 0
        if text:  # the fields as written (ids: "007" stays "007")
            types = {c: pa.string() for c in types}
        if gz:
            size *= 4  # a guess; the arrays grow if short
        capacity = int(size * rows_per_byte * 1.02) + 1024
        np_types = {pa.int64(): np.int64, pa.uint64(): np.uint64, pa.float64(): np.float64, pa.bool_(): np.bool_}
        for _attempt in range(3 * len(include) + 1):
            # as written, only an empty field is missing (as the other engines read text)
            nulls = dict(null_values=[""]) if text else {}
            copts = pcsv.ConvertOptions(include_columns=include, column_types=types, strings_can_be_null=True,
                                        **nulls)
            reader = pcsv.open_csv(path, read_options=pcsv.ReadOptions(**ropts_kw, block_size=MAX_LINE_BYTES),
                                   parse_options=popts, convert_options=copts)
            # text (a label; every field asked for as written) as codes into its distinct values
            cols = [_TextColumn(capacity) if types[c] == pa.string()
                    else _Column(capacity, np_types.get(types[c], object)) for c in include]
            try:
                for batch in reader:
                    for j, c in enumerate(cols):
                        if isinstance(c, _TextColumn):
                            c.add(batch.column(j))
                        else:
                            c.append(_batch_to_numpy(batch.column(j)))
                    del batch
                break
            except pa.ArrowInvalid as exc:
                # a column whose head looked like integers holds larger ones, floats or
                # text further down: widen it (int64 -> uint64 -> float64 -> text) and
                # read again (Table.numeric / Table.scores report the bad rows)
                # (pyarrow names the row too once its error context is on: "CSV column #1:
                # Row #200002: CSV conversion error ...", e.g. after dask has been imported)
                m = re.search(r"CSV column #(\d+): (?:Row #\d+: )?CSV conversion error to \w+: invalid value '(.*)'$",
                              str(exc), re.S)
                name = internal[int(m.group(1))] if m else None
                if name not in types or types[name] == pa.string():
                    raise
                types = dict(types)
                types[name] = _widened(types[name], m.group(2))
                del cols
            finally:
                reader.close()
    except (pa.ArrowInvalid, OSError, EOFError) as exc:
        _raise_parse_error(path, sep, skip, n_fields, exc, gz)
    out = [c.finish() for c in cols]
    # pyarrow's allocator keeps the freed blocks (about 50 MB here) for reuse; the rest of
    # the command needs them more
    pa.default_memory_pool().release_unused()
    return out, cols[0].n if cols else 0


def _csv_pandas(path: str, sep: str, skip: int, n_fields: int, idx: list[int], gz: bool, text: bool = False):
    import pandas as pd

    # No usecols: with it pandas silently drops surplus fields of a malformed row. Every
    # column is parsed, chunk by chunk (about CHUNK_ROWS * 8 values a chunk at most),
    # and only the wanted ones are kept. pandas reads through _LineLimited (bounded
    # lines, gunzipped as a stream).
    rows = max(1, min(CHUNK_ROWS, CHUNK_ROWS * 8 // max(n_fields, 1)))
    kwargs = dict(header=None, skiprows=skip, chunksize=rows, skip_blank_lines=True, encoding="utf-8-sig")
    if int(pd.__version__.split(".")[0]) < 3:
        # Before pandas 3 the C parser's default float conversion may be 1 ulp off the number
        # written (0.09401229776087457 read as 0.0940122977608745); pandas 3 reads it exactly
        # and deprecates the option.
        kwargs["float_precision"] = "round_trip"
    if text:  # the fields as written; an empty field is None
        kwargs.update(dtype={i: str for i in idx}, keep_default_na=False, na_values=[""])
    if sep == _WHITESPACE:
        kwargs["sep"] = r"\s+"
    else:
        kwargs.update(sep=sep, engine="c")
    cols = {i: _Column(rows) for i in idx}
    n = 0
    try:
        with io.BufferedReader(_LineLimited(path, gz)) as fh, pd.read_csv(fh, **kwargs) as reader:
            for chunk in reader:
                if chunk.shape[1] != n_fields:
                    raise pd.errors.ParserError(f"expected {n_fields} fields, saw {chunk.shape[1]}")
                n += len(chunk)
                for i in idx:
                    values = chunk[i].to_numpy()
                    if text:
                        values = values.astype(object)
                        values[chunk[i].isna().to_numpy()] = None
                    cols[i].append(_shared_text(values) if values.dtype == object else values)
                del chunk
    except pd.errors.EmptyDataError:
        return [np.empty(0) for _ in idx], 0
    except (pd.errors.ParserError, ValueError, OSError, EOFError) as exc:
        _raise_parse_error(path, sep, skip, n_fields, exc, gz)
    out = []
    for i in idx:
        arr = cols.pop(i).finish()
        if arr.dtype.kind == "i" or (arr.dtype.kind == "u" and arr.dtype.itemsize < 8):
            arr = arr.astype(np.int64, copy=False)
        out.append(arr)
    return out, n


def _csv_stdlib(path: str, sep: str, skip: int, n_fields: int, idx: list[int], gz: bool, text: bool = False):
    """The reader of a plain ``pip install rankwise`` (neither pyarrow nor pandas): the
    standard library's csv module, one pass, the wanted fields of a chunk of rows kept
    as text and then typed as pandas would (:func:`_typed`) into growing arrays."""
    rows_per_chunk = max(1, CHUNK_ROWS // 10)
    cols = {i: _Column(rows_per_chunk) for i in idx}
    texts: dict[int, list[str]] = {i: [] for i in idx}

    def flush():
        for i in idx:
            if texts[i]:
                cols[i].append(_as_text(texts[i]) if text else _typed(texts[i]))
                texts[i] = []

    n = 0
    line = 0
    try:
        with _csv_field_limit(), _open_text(path, gz) as fh:
            if sep == _WHITESPACE:
                rows = (line.split() for line in fh)
                where = None
            else:
                reader = csv.reader(fh, delimiter=sep)
                rows, where = reader, reader
            for row in rows:
                line = where.line_num if where is not None else line + 1
                if line <= skip or not row or (len(row) == 1 and row[0].strip() == ""):
                    continue
                if len(row) != n_fields:
                    raise ValueError(f"malformed row in {path}: line {line} has {len(row)} fields, "
                                     f"expected {n_fields}")
                for i in idx:
                    texts[i].append(row[i].strip())
                n += 1
                if len(texts[idx[0]]) >= rows_per_chunk:
                    flush()
    except csv.Error as exc:
        raise _csv_error(path, line + 1, exc) from None
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {_one_line(exc)}") from None
    flush()
    return [cols.pop(i).finish() for i in idx], n


def _as_text(values: list[str]) -> np.ndarray:
    """Fields as written, an empty one None (what the other engines give in text mode)."""
    return _shared_text(np.array([v if v != "" else None for v in values], dtype=object))


def _typed(values: list[str]) -> np.ndarray:
    """Text fields as the most specific of int64, uint64, float64 (empty -> NaN) and
    object (text; also integers beyond 64 bits, which float64 would round)."""
    if values and all(_is_int(v) for v in values):
        ints = [int(v) for v in values]
        for dtype in (np.int64, np.uint64):
            try:
                return np.array(ints, dtype=dtype)
            except OverflowError:
                pass
        return _shared_text(np.array(values, dtype=object))
    try:
        return np.array([float(v) if v != "" else np.nan for v in values], dtype=np.float64)
    except ValueError:
        return _shared_text(np.array([v if v != "" else np.nan for v in values], dtype=object))


def _is_int(v: str) -> bool:
    t = v[1:] if v[:1] in "+-" else v
    return t.isdigit() and t.isascii()


def _raise_parse_error(path: str, sep: str, skip: int, n_fields: int, exc: BaseException, gz: bool):
    """Find what stopped a parser and name its line: a line or field over the limits, a
    corrupt gzip stream, a wrong number of fields; else re-raise as one line. The scan
    holds one line at a time. After a read error (``OSError``: pyarrow's for a corrupt
    gzip stream) only the stream is checked: its garbage may not be rows."""
    line = 0
    with _csv_field_limit(), _open_text(path, gz) as fh:
        if isinstance(exc, (OSError, EOFError)):
            for _ in fh:
                pass
            raise ValueError(f"cannot read {path}: {_one_line(exc)}") from None
        if sep == _WHITESPACE:
            for line, text in enumerate(fh, start=1):
                k = len(text.split())
                if line > skip and k and k != n_fields:
                    raise ValueError(f"malformed row in {path}: line {line} has {k} fields, expected {n_fields}") \
                        from None
        else:
            reader = csv.reader(fh, delimiter=sep)
            try:
                for row in reader:
                    line = reader.line_num
                    if line <= skip or not row or (len(row) == 1 and row[0].strip() == ""):
                        continue
                    if len(row) != n_fields:
                        raise ValueError(f"malformed row in {path}: line {line} has {len(row)} fields, "
                                         f"expected {n_fields}") from None
            except csv.Error as err:
                raise _csv_error(path, line + 1, err) from None
    raise ValueError(f"cannot parse {path}: {_one_line(exc)}") from None


# ---- parquet


def _read_parquet(path: str, columns) -> Table:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ValueError(f"reading the Parquet file {path} needs pyarrow: pip install pyarrow") from None
    import pyarrow as pa

    try:
        pf = pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as exc:
        raise ValueError(f"cannot read {path} as Parquet: {_one_line(exc)}") from None
    names = [str(n) for n in pf.schema_arrow.names]
    n_rows = pf.metadata.num_rows
    if n_rows == 0:
        raise ValueError(f"{path} has no data rows")

    def loader(wanted: list[str]) -> dict:
        real = [pf.schema_arrow.names[names.index(w)] for w in wanted]
        out = {}
        for w, r in zip(wanted, real):  # one column at a time
            col = pf.read(columns=[r]).column(0)
            out[w] = _arrow_to_numpy(col)
            del col
        return out

    return _lazy_table(path, "parquet", names, n_rows, columns, loader)


# ---- svmlight


def _read_svmlight(path: str) -> Table:
    from sklearn.datasets import load_svmlight_file

    try:
        X, y = load_svmlight_file(path, dtype=np.float64)
    except (ValueError, OSError, EOFError) as exc:
        raise ValueError(f"cannot read {path} as svmlight: {_one_line(exc)}") from None
    if X.shape[0] == 0:
        raise ValueError(f"{path} has no data rows")
    names = ["label"] + [f"f{j + 1}" for j in range(X.shape[1])]
    y = np.asarray(y, dtype=np.float64)
    if np.all(y == np.round(y)) and np.all(np.abs(y) < 2**53):
        y = y.astype(np.int64)
    return Table(path, "svmlight", names, X.shape[0], {"label": y}, None, sparse=X.tocsr())


# ---- npy / npz


def _check_array(arr: np.ndarray, path: str, what: str) -> None:
    if arr.dtype.kind not in "fiub":
        raise ValueError(f"{path}: {what} has dtype {arr.dtype}; a numeric array is needed")


def _read_npy(path: str, columns) -> Table:
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise ValueError(f"cannot read {path} as .npy: {_one_line(exc)}") from None
    if arr.ndim not in (1, 2):
        raise ValueError(f"{path}: a 1-D or 2-D array is needed, got shape {arr.shape}")
    _check_array(arr, path, "the array")
    if arr.shape[0] == 0:
        raise ValueError(f"{path} has no data rows")
    names = [str(j) for j in range(arr.shape[1])] if arr.ndim == 2 else ["0"]

    def loader(wanted: list[str]) -> dict:
        # memory-mapped: only the columns asked for are copied into memory
        return {w: np.array(arr[:, int(w)] if arr.ndim == 2 else arr) for w in wanted}

    return _lazy_table(path, "npy", names, arr.shape[0], columns, loader)


#: Bytes of an ``.npz`` member decompressed at a time.
_NPZ_BLOCK = 1 << 20
#: Deflate cannot expand data by more than about 1032 to 1 (RFC 1951: a 258-byte match
#: per 2 bits at best): a member declaring more is a bomb or a lie.
_DEFLATE_MAX_RATIO = 1032


def _open_npz(path: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
        raise ValueError(f"cannot read {path} as .npz: {_one_line(exc)}") from None


class _NpzMember:
    """One array of an ``.npz`` archive, known from its zip entry and its .npy header only
    (a few hundred bytes decompressed): key, shape, dtype, order and where its data start."""

    def __init__(self, zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: str):
        self.info = info
        self.key = info.filename[:-4]
        self.path = path
        with self._errors("read"), zf.open(info) as fh:
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                self.shape, self.fortran, self.dtype = np.lib.format.read_array_header_1_0(fh)
            elif version == (2, 0):
                self.shape, self.fortran, self.dtype = np.lib.format.read_array_header_2_0(fh)
            else:
                raise ValueError(f".npy format version {version[0]}.{version[1]} is not read")
            self.offset = fh.tell()

    @contextlib.contextmanager
    def _errors(self, what: str):
        try:
            yield
        except (ValueError, OSError, EOFError, zlib.error, zipfile.BadZipFile) as exc:
            raise ValueError(f"cannot {what} array '{self.key}' of {self.path}: {_one_line(exc)}") from None

    def check_sizes(self, archive_bytes: int) -> int:
        """The data's size in bytes, once the header's shape agrees with the zip entry's
        size and that size with what the compressed bytes can hold: checked before any
        array is allocated, so a lying header or a zip bomb costs nothing."""
        info = self.info
        where = f"array '{self.key}' of {self.path}"
        if self.dtype.hasobject:
            raise ValueError(f"{where} holds Python objects (pickled), which are never loaded")
        nbytes = int(np.prod(self.shape, dtype=object)) * self.dtype.itemsize
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise ValueError(f"{where} is compressed with zip method {info.compress_type}; .npz files are stored "
                             "or deflated")
        limit = info.compress_size if info.compress_type == zipfile.ZIP_STORED else \
            info.compress_size * _DEFLATE_MAX_RATIO + 1024
        if info.compress_size > archive_bytes or info.file_size > limit:
            raise ValueError(f"{where} declares {info.file_size:,} bytes from {info.compress_size:,} compressed "
                             "ones, more than the archive can hold: the file is corrupt or a zip bomb")
        if self.offset + nbytes != info.file_size:
            raise ValueError(f"{where} declares shape {self.shape} of {self.dtype} ({nbytes:,} bytes) but holds "
                             f"{max(info.file_size - self.offset, 0):,} bytes: the file is corrupt")
        return nbytes

    def columns(self, zf: zipfile.ZipFile, cols: list[Optional[int]], archive_bytes: int) -> list[np.ndarray]:
        """The arrays of columns ``cols`` (None: the 1-D array itself), decompressed a
        block of rows at a time into their own arrays: the peak is the columns read plus
        one block, whatever the member's other columns hold."""
        self.check_sizes(archive_bytes)
        dtype, shape = self.dtype, self.shape
        text = len(shape) == 1 and dtype.kind in "US"
        if dtype.kind not in "fiub" and not text:
            raise ValueError(f"{self.path}: array '{self.key}' has dtype {dtype}; a numeric array is needed")
        n = shape[0]
        k = shape[1] if len(shape) == 2 else 1
        item = dtype.itemsize
        outs = [np.empty(n, dtype=dtype) for _ in cols]
        wanted = [0 if j is None else j for j in cols]
        with self._errors("read"), zf.open(self.info) as fh:
            self._read(fh, self.offset)
            if self.fortran and k > 1:
                # column-major: each column is one contiguous run; skip the others
                per_block = max(1, _NPZ_BLOCK // item)
                for c in range(max(wanted) + 1):
                    for r0 in range(0, n, per_block):
                        r1 = min(n, r0 + per_block)
                        data = self._read(fh, (r1 - r0) * item)
                        for out, j in zip(outs, wanted):
                            if j == c:
                                out[r0:r1] = np.frombuffer(data, dtype=dtype)
            else:
                per_block = max(1, _NPZ_BLOCK // max(k * item, 1))
                for r0 in range(0, n, per_block):
                    r1 = min(n, r0 + per_block)
                    block = np.frombuffer(self._read(fh, (r1 - r0) * k * item), dtype=dtype).reshape(r1 - r0, k)
                    for out, j in zip(outs, wanted):
                        out[r0:r1] = block[:, j]
        if text:
            return [_shared_text(out.astype(object)) for out in outs]
        return [out if out.dtype.isnative else out.astype(dtype.newbyteorder("=")) for out in outs]

    def _read(self, fh, nbytes: int) -> bytes:
        data = fh.read(nbytes)
        if len(data) != nbytes:
            raise ValueError("the member is truncated")
        return data


def _read_npz(path: str, columns) -> Table:
    archive_bytes = os.path.getsize(path)
    names: list[str] = []
    where: dict[str, tuple[str, Optional[int]]] = {}
    members: dict[str, _NpzMember] = {}
    n_rows = None
    with _open_npz(path) as zf:
        for info in zf.infolist():
            if not info.filename.endswith(".npy"):
                continue  # not an array (np.load would give its bytes)
            m = _NpzMember(zf, info, path)
            m.check_sizes(archive_bytes)  # before its shape names any column
            key, shape = m.key, m.shape
            if len(shape) == 0:
                continue
            if len(shape) > 2:
                raise ValueError(f"{path}: array {quoted(key)} has shape {shape}; only 1-D and 2-D arrays are columns")
            if n_rows is None:
                n_rows = shape[0]
            elif shape[0] != n_rows:
                raise ValueError(f"{path}: array {quoted(key)} has {shape[0]} rows, the others {n_rows}")
            members[key] = m
            if len(shape) == 1:
                names.append(key)
                where[key] = (key, None)
            else:
                for j in range(shape[1]):
                    names.append(f"{key}{j}")
                    where[f"{key}{j}"] = (key, j)
    if not names:
        raise ValueError(f"{path} holds no 1-D or 2-D arrays")
    if n_rows == 0:
        raise ValueError(f"{path} has no data rows")

    def loader(wanted: list[str]) -> dict:
        # Only the members holding wanted columns are decompressed, one at a time.
        by_key: dict[str, list[str]] = {}
        for w in wanted:
            by_key.setdefault(where[w][0], []).append(w)
        out = {}
        with _open_npz(path) as zf:
            for key, ws in by_key.items():
                arrays = members[key].columns(zf, [where[w][1] for w in ws], archive_bytes)
                out.update(zip(ws, arrays))
        return out

    return _lazy_table(path, "npz", names, n_rows, columns, loader)
