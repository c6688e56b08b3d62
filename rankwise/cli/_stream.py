"""``rankwise evaluate`` on a file read in chunks, through one rank accumulator per score.

A binary evaluation (``--label`` and ``--score`` columns, no ``--group``, ``--strata``,
``--cluster``, ``--fold``, censored times, several classes or Dask) needs of each score
column only its rank table: the distinct scores with each class's mass. So instead of
reading the label and score columns whole, this reader takes the file a chunk of rows at
a time (:data:`CHUNK_ROWS`) and adds each chunk to one
:class:`rankwise.stats.RankAccumulator` per score column; memory grows with the distinct
scores, not with the rows, and the columns are never held whole. The output is the one
the whole-column path prints (:func:`rankwise.cli._main.evaluate_rows`): the accumulator
gives the same criteria, standard errors, intervals and bootstrap resamples as
:func:`rankwise.stats.estimate` on the concatenated rows (see ``docs/accumulator.md``).

Covered: CSV, TSV and TXT files (gzipped too, and standard input) read by the pyarrow
engine (a separator other than runs of blanks, pyarrow installed), and Parquet files
(``iter_batches``). Anything else (other formats or engines), and any chunk that the
whole-column path would treat differently (a missing or non-finite label or score, text
or integer scores beyond 2^53, a column whose type changes down the file, a positive
label that the first chunks could not tell), makes :func:`evaluate` return None: the
command then reads the file as before, which prints the same result or the same error.

The positive label is decided as for the whole column (:func:`rankwise.cli._common.pos_label`)
on every distinct label of the file. A chunk's rows are classed before the last chunk is
read, by the label that the chunks so far make positive (the ``--pos-label`` value, or 1 /
true); at the end the decision on the whole column is checked against each chunk's
(``None`` is returned when one differs, which takes a file whose first chunks hold
neither class's label only).
"""

from __future__ import annotations

import os
from typing import Any, Iterator

from ._common import STDIN, CLIError, Progress, _choose, _distinct, ci_method, stdin_file

__all__ = ["CHUNK_ROWS", "wanted", "evaluate"]

#: Rows added to the accumulators at a time (at most: a chunk never spans two blocks of
#: the file's reader).
CHUNK_ROWS = 1 << 20

#: Integers beyond this magnitude are not exact in float64, the accumulator's scores.
_EXACT_INT = 2 ** 53

#: Options of ``evaluate`` that need more than one rank table per score column.
_OTHER_PATHS = ("group", "strata", "cluster", "fold", "time", "event", "classes", "order", "multi_class",
                "average", "dask", "scheduler")


class _Fallback(Exception):
    """The whole-column path must read this file (it gives the result or the error)."""


def wanted(args, specs: list[str]) -> bool:
    """Whether ``evaluate``'s options and criteria are those one rank table per score column
    gives: binary labels (``--label``), ``--score`` columns, criteria of binary labels."""
    from .. import criteria
    from .._labels import BINARY, kind_of

    if getattr(args, "label", None) is None or not getattr(args, "score", None) or getattr(args, "scores", None):
        return False
    if any(getattr(args, a, None) not in (None, False) for a in _OTHER_PATHS):
        return False
    try:
        return all(kind_of(criteria.get(spec)) is BINARY for spec in specs)
    except (ValueError, TypeError):
        return False


def evaluate(args, specs: list[str]) -> tuple[list[dict], dict] | None:
    """``(rows, info)`` of ``evaluate`` (the rows of :func:`rankwise.cli._main.evaluate_rows`,
    the counts of :func:`rankwise.cli._common.class_counts`) from the file read in chunks,
    or None when the whole-column path must read it (see the module docstring)."""
    import numpy as np

    try:
        accs, pos, n, n_pos = _accumulate(args)
    except (_Fallback, ValueError, TypeError):
        # also what a chunk's reader or an accumulator refuses: the whole-column path
        # reads the file and says what it says of it
        return None
    info = {"positive_label": pos.item() if isinstance(pos, np.generic) else pos, "n": n, "n_positive": n_pos}
    return _rows(accs, specs, args), info


# --- the rows ---------------------------------------------------------------------------------

def _rows(accs: dict, specs: list[str], args) -> list[dict]:
    """:func:`rankwise.cli._main.evaluate_rows` on accumulators (no clusters)."""
    methods = {spec: ci_method(spec, args.ci) for spec in specs}
    progress = Progress("evaluate", len(accs) * len(specs), args.quiet)
    rows = []
    if all(m is None for m in methods.values()):
        for col, acc in accs.items():
            values = acc.evaluate({str(j): spec for j, spec in enumerate(specs)})
            for j, spec in enumerate(specs):
                rows.append({"score": col, "criterion": spec, "value": values[str(j)]})
                progress.step(f"{col} {spec}")
        progress.close()
        return rows
    for col, acc in accs.items():
        for spec in specs:
            est = acc.estimate(spec)
            row = {"score": col, "criterion": spec, "value": est.value}
            method = methods[spec]
            if method is not None:
                kw: dict[str, Any] = {"method": method}
                if method == "bootstrap":
                    kw.update(n_resamples=args.resamples, random_state=args.seed)
                iv = est.confidence_interval(args.level, **kw)
                row.update(low=iv.low, high=iv.high, method=iv.method, std_error=iv.std_error)
            rows.append(row)
            del est
            progress.step(f"{col} {spec}")
    progress.close()
    return rows


# --- reading ------------------------------------------------------------------------------------

def _accumulate(args) -> tuple[dict, Any, int, int]:
    """``(accumulators by score column, positive label, rows, positives)``; _Fallback when
    the whole-column path must read the file."""
    import numpy as np

    from ..stats import RankAccumulator

    label_name, score_names, chunks = _open(args)
    accs = {name: RankAccumulator() for name in score_names}
    seen: dict = {}  # every distinct label so far (first occurrence kept, as a set keeps it)
    distinct_parts: list = []  # each chunk's distinct labels (numeric labels)
    decided: list = []  # (label taken as positive for the chunk, its distinct labels)
    label_dtype = None
    n = n_pos = 0
    for cols in chunks:
        y = cols[label_name]
        if label_dtype is None:
            label_dtype = y.dtype
        elif y.dtype != label_dtype:
            raise _Fallback  # the whole column would be typed otherwise
        values, distinct = _chunk_labels(y)
        for v in values:
            seen.setdefault(v, v)
        if distinct is not None:
            distinct_parts.append(distinct)
        t = _tentative(seen, args.pos_label)
        is_pos = np.zeros(y.shape[0], dtype=bool) if t is None else np.asarray(y == t, dtype=bool)
        decided.append((t, values))
        for name in score_names:
            accs[name].update(is_pos, _chunk_scores(cols[name]))
        n += int(y.shape[0])
        n_pos += int(np.count_nonzero(is_pos))
    if n == 0:
        raise _Fallback
    if label_dtype == object:
        try:
            ordered = sorted(seen)
        except TypeError:
            raise _Fallback from None
        distinct = np.empty(len(ordered), dtype=object)
        distinct[:] = ordered
    else:
        distinct = np.unique(np.concatenate(distinct_parts))
    try:
        pos = _choose(distinct, args.pos_label)
    except CLIError:
        raise _Fallback from None  # the whole-column path raises the same error
    for t, values in decided:
        if any(bool(t is not None and v == t) != bool(v == pos) for v in values):
            raise _Fallback
    return accs, pos, n, n_pos


def _chunk_labels(y) -> tuple[list, Any]:
    """The distinct labels of a chunk, as a list and (numbers) as the array
    :func:`rankwise.cli._common.pos_label` reads; _Fallback for a value the whole column
    refuses (:meth:`rankwise.cli._readers.Table.labels`: missing, NaN, infinite, empty
    text)."""
    import numpy as np

    from ._readers import _empty_label

    if y.dtype == object:
        try:
            values = list(dict.fromkeys(y))
        except TypeError:  # unhashable values (a Parquet list column)
            raise _Fallback from None
        if any(_empty_label(v) for v in values):
            raise _Fallback
        return values, None
    if y.dtype.kind not in "biuf" or (y.dtype.kind == "f" and not np.isfinite(y).all()):
        raise _Fallback
    distinct = _distinct(y)
    return list(distinct), distinct


def _tentative(seen: dict, given: str | None):
    """The label the chunks so far make positive: the first one ``--pos-label`` names, or
    without it 1 (true); None while there is none."""
    from ._common import _same_label

    for v in seen:
        if given is not None:
            if _same_label(v, given):
                return v
        elif not isinstance(v, str) and v == 1:
            return v
    return None


def _chunk_scores(s):
    """A chunk's scores as the accumulator takes them: finite floats, integers within
    2^53; _Fallback for anything the whole-column path reads otherwise (text, booleans,
    missing or non-finite values, larger integers)."""
    import numpy as np

    kind = s.dtype.kind
    if kind == "f":
        if not np.isfinite(s).all():
            raise _Fallback
        return s
    if kind == "i":
        if s.shape[0] and (int(s.max()) > _EXACT_INT or int(s.min()) < -_EXACT_INT):
            raise _Fallback
        return s
    raise _Fallback


def _open(args) -> tuple[str, list[str], Iterator[dict]]:
    """``(label column, score columns, chunks)``: the columns' names as the whole-column
    reader resolves them, and an iterator of ``{name: array}`` a chunk."""
    from . import _readers

    path = stdin_file() if args.file == STDIN else args.file
    fmt = "txt" if args.file == STDIN else None
    try:
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            raise _Fallback
        kind, gz = _readers._format_of(path, fmt)
        if kind in _readers._TEXT_FORMATS:
            if not _readers._has_pyarrow():
                raise _Fallback
            names, sep, skip, _ = _readers.text_layout(path, kind, gz, None, None)
            if sep == _readers._WHITESPACE:
                raise _Fallback
            label, scores, wanted = _columns(names, args, path)
            return label, scores, _csv_chunks(path, sep, skip, names, wanted)
        if kind == "parquet":
            return _parquet(path, args)
    except (ValueError, OSError, ImportError):
        raise _Fallback from None
    raise _Fallback


def _columns(names: list[str], args, path: str) -> tuple[str, list[str], list[str]]:
    from ._readers import _resolve

    label = _resolve(names, args.label, path)
    scores = [_resolve(names, s, path) for s in args.score]
    if len(set(scores)) != len(scores):
        raise _Fallback  # the whole-column path names the column given twice
    wanted = list(dict.fromkeys([label, *scores]))
    if any(names.count(w) != 1 for w in wanted):
        raise _Fallback  # a column name the file holds twice
    return label, scores, wanted


def _pieces(cols: dict) -> Iterator[dict]:
    """A block of rows cut into chunks of at most :data:`CHUNK_ROWS` rows."""
    m = len(next(iter(cols.values())))
    step = max(1, int(CHUNK_ROWS))
    if m <= step:
        yield cols
        return
    for a in range(0, m, step):
        yield {k: v[a:a + step] for k, v in cols.items()}


def _csv_chunks(path: str, sep: str, skip: int, names: list[str], wanted: list[str]) -> Iterator[dict]:
    """The wanted columns of a text file, a block of the pyarrow CSV reader at a time, typed
    as :func:`rankwise.cli._readers._csv_arrow` types them (from the file's head)."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    from ._readers import MAX_LINE_BYTES, _batch_to_numpy, _head

    internal = [f"c{i}" for i in range(len(names))]
    include = [internal[names.index(w)] for w in wanted]
    ropts_kw = dict(column_names=internal, skip_rows=skip)
    popts = pcsv.ParseOptions(delimiter=sep)
    try:
        types, _ = _head(path, ropts_kw, popts, include)
        if types is None:
            raise _Fallback
        copts = pcsv.ConvertOptions(include_columns=include, column_types=types, strings_can_be_null=True)
        reader = pcsv.open_csv(path, read_options=pcsv.ReadOptions(**ropts_kw, block_size=MAX_LINE_BYTES),
                               parse_options=popts, convert_options=copts)
    except (pa.ArrowInvalid, OSError, EOFError):
        raise _Fallback from None
    try:
        while True:
            try:
                batch = reader.read_next_batch()
            except StopIteration:
                break
            except (pa.ArrowInvalid, OSError, EOFError):
                # a value the head's types do not take (the whole-column reader widens the
                # type and reads again), a line too long, a corrupt stream
                raise _Fallback from None
            cols = {w: _batch_to_numpy(batch.column(j)) for j, w in enumerate(wanted)}
            del batch
            yield from _pieces(cols)
    finally:
        reader.close()
        pa.default_memory_pool().release_unused()


def _parquet(path: str, args) -> tuple[str, list[str], Iterator[dict]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path)
    except (pa.ArrowException, OSError):
        raise _Fallback from None
    real = list(pf.schema_arrow.names)
    names = [str(c) for c in real]
    label, scores, wanted = _columns(names, args, path)
    return label, scores, _parquet_chunks(pf, [real[names.index(w)] for w in wanted], wanted)


def _parquet_chunks(pf, real: list, wanted: list[str]) -> Iterator[dict]:
    """The wanted columns of a Parquet file, :data:`CHUNK_ROWS` rows at a time, converted as
    :func:`rankwise.cli._readers._arrow_to_numpy` converts a whole column (a chunk with a
    null: _Fallback, since the whole column's type would then change)."""
    import pyarrow as pa

    from ._readers import _arrow_to_numpy

    try:
        for batch in pf.iter_batches(batch_size=max(1, int(CHUNK_ROWS)), columns=real):
            cols = {}
            for j, w in enumerate(wanted):
                col = batch.column(j)
                if col.null_count:
                    raise _Fallback
                cols[w] = _arrow_to_numpy(col)
            del batch
            yield cols
    except (pa.ArrowException, OSError):
        raise _Fallback from None
