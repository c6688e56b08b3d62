"""Input readers of the ``rankwise`` command line: one table per file, any format.

:func:`read_table` opens a file and returns a :class:`Table`. Only the columns asked
for (``columns=``) are read, each straight into one NumPy array (float64 or int64 for
numbers, 8 bytes a value; an object array of ``str`` only for a column holding text,
such as a text label). Columns that were not asked for are read later, on first use.

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

Missing values: empty fields (and ``NA``, ``null``, ``NaN``, ...) are read as NaN, and
:meth:`Table.numeric`, :meth:`Table.labels` and :meth:`Table.matrix` refuse NaN and
infinite values with the 1-based data row numbers of the first offenders (the row
after the header is row 1).

CSV parsing uses ``pyarrow.csv`` (multi-threaded) when pyarrow is installed, else
pandas ``read_csv`` in chunks of :data:`CHUNK_ROWS` rows; whitespace-separated text
always goes through pandas. Every error is a one-line ``ValueError`` (or
``FileNotFoundError``) that the command prints as is. The input file is only read.
"""

from __future__ import annotations

import csv
import gzip
import io
import os
import re
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy as np

__all__ = ["Table", "read_table", "FORMATS", "CHUNK_ROWS"]

CHUNK_ROWS = 1_000_000

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
        if name not in self._data:
            if self._sparse is not None and name != "label":
                j = self.columns.index(name) - 1
                self._data[name] = np.asarray(self._sparse[:, j].toarray()).ravel()
            else:
                if self._loader is None:  # pragma: no cover - every format sets a loader
                    raise ValueError(f"column {name!r} of {self.path} cannot be read")
                missing = [name]
                self._data.update(self._loader(missing))
        return self._data[name]

    def raw(self, col: Union[str, int]) -> np.ndarray:
        """The column as read, unchecked (float64, int64, bool, or object array of text)."""
        return self._get(self.resolve(col))

    # -- checked access
    def numeric(self, col: Union[str, int]) -> np.ndarray:
        """The column as a float64 1-D array; refuses text, NaN, empty and infinite values."""
        name = self.resolve(col)
        arr = self._get(name)
        if arr.dtype == object:
            arr = _parse_text_numbers(arr, name)
        elif arr.dtype.kind not in "fiub":
            raise ValueError(f"column '{name}' has non-numeric values (dtype {arr.dtype})")
        out = arr if arr.dtype == np.float64 else arr.astype(np.float64)
        _check_finite(out, name)
        return out

    def labels(self, col: Union[str, int]) -> np.ndarray:
        """The column's values as read (numbers as numbers, text as ``str``); refuses
        NaN, infinite and empty values."""
        name = self.resolve(col)
        arr = self._get(name)
        if arr.dtype == object:
            bad = np.fromiter((v is None or (isinstance(v, str) and v.strip() == "")
                               or (isinstance(v, float) and not np.isfinite(v)) for v in arr),
                              dtype=bool, count=len(arr))
            if bad.any():
                rows = np.flatnonzero(bad)[:_MAX_LISTED_ROWS] + 1
                raise ValueError(f"column '{name}' has empty values at rows {_fmt_rows(rows, int(bad.sum()))}")
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


def _resolve(columns: list[str], col: Union[str, int], path: str) -> str:
    if isinstance(col, (int, np.integer)) and not isinstance(col, bool):
        key = str(int(col))
    else:
        key = str(col)
    if key in columns:
        return key
    stripped = key.strip()
    if re.fullmatch(r"\d+", stripped):
        pos = int(stripped)
        if pos < len(columns):
            return columns[pos]
    listed = ", ".join(columns[:_MAX_LISTED_COLUMNS])
    if len(columns) > _MAX_LISTED_COLUMNS:
        listed += f", ... ({len(columns)} columns)"
    return _raise(ValueError(f"unknown column '{key}' in {path}; columns are: {listed}"))


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
        raise ValueError(f"column '{name}' has non-numeric values at rows "
                         f"{_fmt_rows(np.asarray(bad_rows), n_bad)}, e.g. {_one_line(repr(first))[:40]}")
    return out


def _check_finite(arr: np.ndarray, name: str) -> None:
    if arr.dtype.kind != "f":
        return
    finite = np.isfinite(arr)
    if finite.all():
        return
    bad = ~finite
    rows = np.flatnonzero(bad)[:_MAX_LISTED_ROWS] + 1
    raise ValueError(f"column '{name}' has NaN or infinite values at rows {_fmt_rows(rows, int(bad.sum()))}")


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


def _wanted(all_columns: list[str], columns, path: str) -> list[str]:
    if columns is None:
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


def _open_text(path: str, gz: bool):
    if gz:
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig", errors="replace", newline="")
    return open(path, "r", encoding="utf-8-sig", errors="replace", newline="")


def _first_line(path: str, gz: bool) -> str:
    try:
        with _open_text(path, gz) as fh:
            for line in fh:
                if line.strip():
                    return line.rstrip("\r\n")
    except (OSError, EOFError) as exc:
        raise ValueError(f"cannot read {path}: {_one_line(exc)}") from None
    raise ValueError(f"{path} has no data (only blank lines)")


def _sniff_sep(line: str) -> str:
    for cand in ("\t", ",", ";", "|"):
        if cand in line:
            return cand
    return _WHITESPACE


def _split(line: str, sep: str) -> list[str]:
    if sep == _WHITESPACE:
        return line.split()
    return next(csv.reader([line], delimiter=sep))


def _read_text(path, kind, gz, columns, header, sep) -> Table:
    first = _first_line(path, gz)
    if sep is None:
        sep = {"csv": ",", "tsv": "\t"}.get(kind) or _sniff_sep(first)
    elif sep in (r"\s+", " ", "whitespace", "\\s+"):
        sep = _WHITESPACE
    fields = _split(first, sep)
    if header is None:
        header = not all(_is_number(f) for f in fields)
    header = bool(header)
    names = [f.strip() for f in fields] if header else [str(i) for i in range(len(fields))]
    for i, n in enumerate(names):
        if n == "":
            names[i] = str(i)
    use_arrow = sep != _WHITESPACE and _has_pyarrow()
    use_pandas = not use_arrow and _has_pandas()

    def loader(wanted: list[str]) -> tuple[dict, int]:
        idx = [names.index(w) for w in wanted]
        if use_arrow:
            arrays, n = _csv_arrow(path, sep, header, len(names), idx)
        elif use_pandas:
            arrays, n = _csv_pandas(path, sep, header, len(names), idx, gz)
        else:
            arrays, n = _csv_stdlib(path, sep, header, len(names), idx, gz)
        return {names[i]: a for i, a in zip(idx, arrays)}, n

    wanted = _wanted(names, columns, path)
    data, n_rows = loader(wanted if wanted else names[:1])
    if not wanted:
        data = {}
    if n_rows == 0:
        raise ValueError(f"{path} has no data rows" + (" (only a header)" if header else ""))
    table = Table(path, kind, names, n_rows, data, lambda w: loader(w)[0], header=header)
    table._kept = set(wanted)
    return table


def _arrow_to_numpy(chunked) -> np.ndarray:
    """A ChunkedArray (or Array) -> one NumPy array, releasing the Arrow chunks one by
    one as they are copied (peak: the NumPy array plus one chunk)."""
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
        dtype, target = np.int64, pa.int64()
    elif numeric or pa.types.is_boolean(t):
        dtype, target = np.float64, pa.float64()  # nulls become NaN
    else:
        out = np.empty(n, dtype=object)
        pos = 0
        for i in range(len(chunks)):
            ch = chunks[i]
            chunks[i] = None
            out[pos:pos + len(ch)] = ch.to_numpy(zero_copy_only=False)
            pos += len(ch)
        return out
    out = np.empty(n, dtype=dtype)
    pos = 0
    for i in range(len(chunks)):
        ch = chunks[i]
        chunks[i] = None
        if target is not None and ch.type != target:
            ch = pc.cast(ch, target)
        out[pos:pos + len(ch)] = ch.to_numpy(zero_copy_only=False)
        pos += len(ch)
        del ch
    return out


def _head(path, ropts_kw, popts, include):
    """Column types inferred from the first block (~1 MiB) of the file (int64, float64,
    bool or string) and the rows-per-byte of that block. Explicit types make pyarrow's
    read faster and lighter than its own inference."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    head_bytes = 1 << 20
    ropts = pcsv.ReadOptions(**dict(ropts_kw, block_size=head_bytes))
    copts = pcsv.ConvertOptions(include_columns=include, strings_can_be_null=True)
    reader = pcsv.open_csv(path, read_options=ropts, parse_options=popts, convert_options=copts)
    try:
        batch = reader.read_next_batch()
    except StopIteration:
        return None, 0.0
    finally:
        reader.close()
    types = {}
    for name in include:
        t = batch.schema.field(name).type
        if pa.types.is_integer(t):
            types[name] = pa.int64()
        elif pa.types.is_floating(t) or pa.types.is_null(t):
            types[name] = pa.float64()
        elif pa.types.is_boolean(t):
            types[name] = pa.bool_()
        else:
            types[name] = pa.string()
    return types, batch.num_rows / head_bytes


class _Column:
    """A NumPy array filled batch by batch, preallocated from an estimate of the row
    count and grown in place (``ndarray.resize``) when the estimate is short."""

    def __init__(self, dtype, capacity: int):
        self.arr = np.empty(capacity, dtype=dtype)
        self.n = 0

    def append(self, values: np.ndarray) -> None:
        m = len(values)
        if values.dtype != self.arr.dtype:
            kinds = self.arr.dtype.kind + values.dtype.kind
            if "O" in kinds:
                target = object
            elif "f" in kinds:
                target = np.float64
            else:
                target = None  # bool/int into int: plain cast
            if target is not None and self.arr.dtype != target:
                self.arr = self.arr.astype(target)
        if self.n + m > len(self.arr):
            self.arr.resize(max(2 * len(self.arr), self.n + m), refcheck=False)
        self.arr[self.n:self.n + m] = values
        self.n += m

    def finish(self) -> np.ndarray:
        if len(self.arr) != self.n:
            self.arr.resize(self.n, refcheck=False)
        return self.arr


def _batch_to_numpy(col) -> np.ndarray:
    import pyarrow as pa

    t = col.type
    if pa.types.is_null(t):
        return np.full(len(col), np.nan)
    if pa.types.is_dictionary(t):
        col = col.cast(t.value_type)
    out = col.to_numpy(zero_copy_only=False)
    if out.dtype.kind in "iu":
        out = out.astype(np.int64, copy=False)
    return out


def _csv_arrow(path: str, sep: str, header: bool, n_fields: int, idx: list[int]):
    """Stream the file with pyarrow's CSV reader (explicit column types from the head),
    copying each batch's wanted columns into preallocated NumPy arrays: the peak is the
    arrays plus a few blocks of the file, never an Arrow table of the whole file."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    internal = [f"c{i}" for i in range(n_fields)]
    include = [internal[i] for i in idx]
    ropts_kw = dict(column_names=internal, skip_rows=1 if header else 0)
    popts = pcsv.ParseOptions(delimiter=sep)
    try:
        size = os.path.getsize(path)
        types, rows_per_byte = _head(path, ropts_kw, popts, include)
        if types is None:
            return [np.empty(0) for _ in idx], 0
        if path.lower().endswith(".gz"):
            size *= 4  # a guess; the arrays grow if short
        capacity = int(size * rows_per_byte * 1.02) + 1024
        np_types = {pa.int64(): np.int64, pa.float64(): np.float64, pa.bool_(): np.bool_}
        for _attempt in range(2 * len(include) + 1):
            copts = pcsv.ConvertOptions(include_columns=include, column_types=types, strings_can_be_null=True)
            reader = pcsv.open_csv(path, read_options=pcsv.ReadOptions(**ropts_kw, block_size=1 << 20),
                                   parse_options=popts, convert_options=copts)
            cols = [_Column(np_types.get(types[c], object), capacity) for c in include]
            try:
                for batch in reader:
                    for j, c in enumerate(cols):
                        c.append(_batch_to_numpy(batch.column(j)))
                    del batch
                break
            except pa.ArrowInvalid as exc:
                # a column whose head looked numeric holds floats or text further down:
                # widen it (int -> float -> text; Table.numeric reports the bad rows)
                m = re.search(r"CSV column #(\d+)", str(exc))
                name = internal[int(m.group(1))] if m else None
                if "conversion error" not in str(exc).lower() or name not in types or types[name] == pa.string():
                    raise
                types = dict(types)
                types[name] = pa.float64() if types[name] == pa.int64() else pa.string()
                del cols
            finally:
                reader.close()
    except pa.ArrowInvalid as exc:
        _raise_parse_error(path, sep, n_fields, exc, gz=path.lower().endswith(".gz"))
    except (OSError, EOFError) as exc:
        raise ValueError(f"cannot read {path}: {_one_line(exc)}") from None
    out = [c.finish() for c in cols]
    return out, cols[0].n if cols else 0


def _csv_pandas(path: str, sep: str, header: bool, n_fields: int, idx: list[int], gz: bool):
    import pandas as pd

    # No usecols: with it pandas silently drops surplus fields of a malformed row. Every
    # column is parsed, chunk by chunk (about CHUNK_ROWS * 8 values a chunk at most),
    # and only the wanted ones are kept.
    rows = max(1, min(CHUNK_ROWS, CHUNK_ROWS * 8 // max(n_fields, 1)))
    kwargs = dict(header=None, skiprows=1 if header else 0,
                  chunksize=rows, compression="gzip" if gz else None, skip_blank_lines=True,
                  encoding="utf-8-sig")
    if sep == _WHITESPACE:
        kwargs["sep"] = r"\s+"
    else:
        kwargs.update(sep=sep, engine="c")
    parts: dict[int, list[np.ndarray]] = {i: [] for i in idx}
    n = 0
    try:
        with pd.read_csv(path, **kwargs) as reader:
            for chunk in reader:
                if chunk.shape[1] != n_fields:
                    raise pd.errors.ParserError(f"expected {n_fields} fields, saw {chunk.shape[1]}")
                n += len(chunk)
                for i in idx:
                    parts[i].append(chunk[i].to_numpy())
                del chunk
    except pd.errors.EmptyDataError:
        return [np.empty(0) for _ in idx], 0
    except (pd.errors.ParserError, ValueError) as exc:
        _raise_parse_error(path, sep, n_fields, exc, gz)
    except (OSError, EOFError) as exc:
        raise ValueError(f"cannot read {path}: {_one_line(exc)}") from None
    out = []
    for i in idx:
        chunks = parts.pop(i)
        if not chunks:
            out.append(np.empty(0))
            continue
        kinds = {c.dtype.kind for c in chunks}
        if "O" in kinds or not kinds <= set("fiub"):
            arr = np.concatenate([c.astype(object) for c in chunks])
        elif "f" in kinds or len({c.dtype for c in chunks}) > 1:
            arr = np.concatenate([c.astype(np.float64, copy=False) for c in chunks])
        else:
            arr = np.concatenate(chunks)
        if arr.dtype.kind in "iu":
            arr = arr.astype(np.int64, copy=False)
        out.append(arr)
        del chunks
    return out, n


def _csv_stdlib(path: str, sep: str, header: bool, n_fields: int, idx: list[int], gz: bool):
    """The reader of a plain ``pip install rankwise`` (neither pyarrow nor pandas): the
    standard library's csv module, one pass, only the wanted columns kept as text, then
    typed as pandas would: all integers -> int64, all numbers (empty fields -> NaN) ->
    float64, else strings (empty fields -> NaN) in an object array."""
    cols: dict[int, list[str]] = {i: [] for i in idx}
    n = 0
    try:
        with _open_text(path, gz) as fh:
            if sep == _WHITESPACE:
                rows = (line.split() for line in fh)
                where = None
            else:
                reader = csv.reader(fh, delimiter=sep)
                rows, where = reader, reader
            line = 0
            skip_header = header
            for row in rows:
                line = where.line_num if where is not None else line + 1
                if not row or (len(row) == 1 and row[0].strip() == ""):
                    continue
                if skip_header:
                    skip_header = False
                    continue
                if len(row) != n_fields:
                    raise ValueError(f"malformed row in {path}: line {line} has {len(row)} fields, "
                                     f"expected {n_fields}")
                for i in idx:
                    cols[i].append(row[i].strip())
                n += 1
    except (OSError, EOFError, csv.Error, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {_one_line(exc)}") from None
    return [_typed(cols.pop(i)) for i in idx], n


def _typed(values: list[str]) -> np.ndarray:
    """Text fields as the most specific of int64, float64 (empty -> NaN) and object."""
    if values and all(_is_int(v) for v in values):
        return np.array([int(v) for v in values], dtype=np.int64)
    try:
        return np.array([float(v) if v != "" else np.nan for v in values], dtype=np.float64)
    except ValueError:
        return np.array([v if v != "" else np.nan for v in values], dtype=object)


def _is_int(v: str) -> bool:
    t = v[1:] if v[:1] in "+-" else v
    return t.isdigit() and t.isascii()


def _raise_parse_error(path: str, sep: str, n_fields: int, exc: BaseException, gz: bool):
    """Find the first line with a wrong number of fields and name it; else re-raise."""
    with _open_text(path, gz) as fh:
        if sep == _WHITESPACE:
            for ln, line in enumerate(fh, start=1):
                k = len(line.split())
                if k and k != n_fields:
                    raise ValueError(f"malformed row in {path}: line {ln} has {k} fields, expected {n_fields}") \
                        from None
        else:
            reader = csv.reader(fh, delimiter=sep)
            for row in reader:
                if not row or (len(row) == 1 and row[0].strip() == ""):
                    continue
                if len(row) != n_fields:
                    raise ValueError(f"malformed row in {path}: line {reader.line_num} has {len(row)} fields, "
                                     f"expected {n_fields}") from None
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


def _read_npz(path: str, columns) -> Table:
    try:
        archive = np.load(path, allow_pickle=False)
        keys = list(archive.files)
    except (ValueError, OSError, EOFError) as exc:
        raise ValueError(f"cannot read {path} as .npz: {_one_line(exc)}") from None
    if not hasattr(archive, "files"):
        raise ValueError(f"cannot read {path} as .npz: not an archive of arrays")
    names: list[str] = []
    where: dict[str, tuple[str, Optional[int]]] = {}
    n_rows = None
    for key in keys:
        try:
            a = archive[key]
        except (ValueError, OSError) as exc:
            raise ValueError(f"cannot read array '{key}' of {path}: {_one_line(exc)}") from None
        if a.ndim == 0:
            continue
        if a.ndim > 2:
            raise ValueError(f"{path}: array '{key}' has shape {a.shape}; only 1-D and 2-D arrays are columns")
        if n_rows is None:
            n_rows = a.shape[0]
        elif a.shape[0] != n_rows:
            raise ValueError(f"{path}: array '{key}' has {a.shape[0]} rows, the others {n_rows}")
        if a.ndim == 1:
            names.append(key)
            where[key] = (key, None)
        else:
            for j in range(a.shape[1]):
                names.append(f"{key}{j}")
                where[f"{key}{j}"] = (key, j)
        del a
    if not names:
        raise ValueError(f"{path} holds no 1-D or 2-D arrays")
    if n_rows == 0:
        raise ValueError(f"{path} has no data rows")

    def loader(wanted: list[str]) -> dict:
        out = {}
        by_key: dict[str, list[str]] = {}
        for w in wanted:
            by_key.setdefault(where[w][0], []).append(w)
        with np.load(path, allow_pickle=False) as arch:
            for key, ws in by_key.items():
                a = arch[key]
                if a.dtype.kind not in "fiub":
                    if a.ndim == 1 and a.dtype.kind in "US":
                        out[key] = a.astype(object)
                        continue
                    raise ValueError(f"{path}: array '{key}' has dtype {a.dtype}; a numeric array is needed")
                for w in ws:
                    j = where[w][1]
                    out[w] = np.array(a if j is None else a[:, j])
                del a
        return out

    return _lazy_table(path, "npz", names, n_rows, columns, loader)
