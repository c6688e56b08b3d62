"""The command line on a Dask cluster: ``rankwise evaluate|compare|fit --dask`` (a local
cluster on this machine) or ``--scheduler ADDRESS`` (an existing cluster).

The data stays on the workers: FILE is a Parquet file or a directory of Parquet files (or
CSV, read in blocks by ``dask.dataframe.read_csv``), and every number comes from
:mod:`rankwise.distributed`, equal to the single-machine result.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator

from ._common import CLIError

_CSV = (".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz", ".txt.gz")
_PARQUET = (".parquet", ".pq", ".parq")


def add_arguments(p, what: str) -> None:
    """``--dask`` / ``--scheduler`` (mutually exclusive) and the local cluster's size."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--dask", action="store_true",
                   help=f"{what} on a local Dask cluster started for this command (127.0.0.1 only); "
                        "FILE may then be a directory of Parquet files")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help=f"{what} on an existing Dask cluster, e.g. tcp://10.0.0.5:8786 (the workers must "
                        "be able to read FILE and have rankwise installed)")
    p.add_argument("--workers", type=int, default=None,
                   help="with --dask: worker processes (default: the number of CPU cores)")
    p.add_argument("--worker-memory", default="auto",
                   help="with --dask: memory limit per worker, e.g. 2GiB (default: a share of this machine's)")


def wanted(args) -> bool:
    return bool(getattr(args, "dask", False) or getattr(args, "scheduler", None))


@contextlib.contextmanager
def cluster(args) -> Iterator[Any]:
    """The client the command runs on; the local cluster is closed afterwards."""
    try:
        from ..distributed import local_cluster
    except ImportError as exc:  # pragma: no cover - the package itself imports lazily
        raise ImportError("--dask and --scheduler need dask: pip install 'rankwise[dask]'") from exc
    if args.dask:
        workers = args.workers if args.workers else (os.cpu_count() or 1)
        if workers < 1:
            raise ValueError(f"--workers must be at least 1; got {workers}")
        with contextlib.ExitStack() as stack:
            try:
                client = stack.enter_context(local_cluster(n_workers=workers, threads_per_worker=1,
                                                           memory_limit=args.worker_memory, silence_logs=50))
            except (RuntimeError, TimeoutError, OSError) as exc:
                # a worker dying at start-up ("Nanny failed to start"): a message, not a
                # traceback; only the start is caught, errors of the work itself pass
                why = " ".join(str(exc).split()) or type(exc).__name__
                raise CLIError(f"cannot start the local Dask cluster ({workers} workers, memory "
                               f"{args.worker_memory} each): {why}") from exc
            yield client
        return
    try:
        import distributed

        client = distributed.Client(args.scheduler, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise OSError(f"cannot reach the Dask scheduler at {args.scheduler}: {exc}") from exc
    try:
        yield client
    finally:
        client.close()


def frame(path: str, columns: list[str] | None, scores: list[str] = ()):
    """A dask DataFrame of ``columns`` (all when None) of a Parquet file / directory or CSV;
    a missing column is named (KeyError) before anything is read. The ``scores`` columns
    must be numbers, integers kept exact (:func:`_exact_scores`)."""
    if path == "-":
        raise ValueError("with --dask or --scheduler, FILE is read by the workers: standard input (-) cannot be")
    _refuse_duplicates(path, columns)
    df = _frame(path, scores)
    if columns is not None:
        for c in columns:
            if c not in df.columns:
                raise ValueError(f"unknown column {c!r} (columns: {', '.join(map(str, df.columns))}); with --dask, "
                                 "columns are named, not numbered")
        df = df[list(dict.fromkeys(columns))]
    for c in scores:
        if c in df.columns and df[c].dtype.kind not in "iufb":
            raise ValueError(f"score column {c!r} of {path} is not numeric (dtype {df[c].dtype}): text, or integers "
                             "beyond 64 bits, which would be ranked as rounded floats")
    return df


def _refuse_duplicates(path: str, columns: list[str] | None) -> None:
    """Refuse a column asked for (every column when ``columns`` is None) that two columns
    of the file share, as the single-machine readers do: Dask's CSV reader renames the
    second ``s`` to ``s.1`` and ``--score s`` would silently take the first; its Parquet
    reader fails with a message that does not say why. The header is read from the file
    itself (the first file of a directory or pattern); a remote path is left to Dask."""
    from .._text import quoted

    names = _header(path)
    if names is None:
        return
    for c in (names if columns is None else columns):
        if names.count(c) > 1:
            where = ", ".join(str(i) for i, n in enumerate(names) if n == c)
            raise ValueError(f"{names.count(c)} columns of {path} are named {quoted(c)} (0-based positions {where}); "
                             "a column rankwise reads must have a name of its own: rename the others")


def _header(path: str) -> list[str] | None:
    """The column names as written in the file (duplicates kept), or None where they
    cannot be read here (a remote path, no file matching)."""
    import csv
    import glob
    import gzip

    if "://" in path:
        return None
    if os.path.isdir(path):
        files = sorted(os.path.join(path, n) for n in os.listdir(path)
                       if n.lower().endswith(_CSV + _PARQUET) and not n.startswith((".", "_")))
    else:
        files = sorted(glob.glob(path)) if any(ch in path for ch in "*?[") else [path]
    files = [f for f in files if os.path.isfile(f)]
    if not files:
        return None
    first, low = files[0], files[0].lower()
    if low.endswith(_PARQUET):
        try:
            import pyarrow.parquet as pq

            return [str(n) for n in pq.read_schema(first).names]
        except Exception:  # noqa: BLE001 - an unreadable file is Dask's error to report
            return None
    if not low.endswith(_CSV):
        return None
    try:
        opener = gzip.open if low.endswith(".gz") else open
        with opener(first, "rt", encoding="utf-8-sig", errors="replace", newline="") as fh:
            line = fh.readline(1 << 20)
        return next(csv.reader([line], delimiter="\t" if ".tsv" in low else ","), [])
    except (OSError, EOFError, csv.Error):
        return None


def _frame(path: str, scores=()):
    import dask.dataframe as dd

    columns = None

    low = path.lower()
    is_dir = os.path.isdir(path)
    if not is_dir and not any(ch in path for ch in "*?[") and not os.path.exists(path) and "://" not in path:
        raise FileNotFoundError(f"no such file or directory: {path}")
    if is_dir:
        names = sorted(os.listdir(path))
        if any(n.lower().endswith(_CSV) for n in names) and not any(n.lower().endswith(_PARQUET) for n in names):
            return _csv(dd, os.path.join(path, "*"), columns, names[0].lower(), scores)
        return dd.read_parquet(path, columns=columns)
    if low.endswith(_PARQUET):
        return dd.read_parquet(path, columns=columns)
    if low.endswith(_CSV):
        return _csv(dd, path, columns, low, scores)
    raise ValueError(f"with --dask or --scheduler, FILE must be Parquet (a file or a directory of files) or CSV; "
                     f"got {path}")


def _csv(dd, path: str, columns, low: str, scores=()):
    """``dask.dataframe.read_csv``, whose column types come from the first rows: a later
    block that disagrees is cast to them, and a uint64 block in an int64 column wraps to
    negative numbers. The score columns are therefore read as text and each block is
    converted by :func:`_exact_scores` to the first rows' type, exactly or with an error."""
    sep = "\t" if ".tsv" in low else ","
    gz = low.endswith(".gz")
    kw = dict(usecols=columns, sep=sep, compression="gzip" if gz else None, blocksize=None if gz else "64MB")
    df = dd.read_csv(path, **kw)
    typed = {c: df[c].dtype for c in scores if c in df.columns and df[c].dtype.kind in "iuf"}
    if not typed:
        return df
    df = dd.read_csv(path, **kw, dtype={c: object for c in typed})
    for c, dtype in typed.items():
        df[c] = df[c].map_partitions(_exact_scores, dtype, c, path, meta=(c, dtype))
    return df


def _exact_scores(part, dtype, name: str, path: str):
    """One block of a score column, read as text, as ``dtype`` (the column's type in the
    file's first rows) without rounding or wrapping: integers keep their exact values,
    integers in a float column become floats; anything else is an error."""
    import numpy as np
    import pandas as pd

    values = pd.to_numeric(part)
    if values.dtype == dtype or len(values) == 0:
        return values.astype(dtype, copy=False)
    kind = values.dtype.kind
    if dtype.kind == "f" and kind in "iuf":
        return values.astype(dtype)
    if dtype.kind in "iu" and kind in "iu":
        info = np.iinfo(dtype)
        if values.min() >= info.min and values.max() <= info.max:
            return values.astype(dtype)
    raise ValueError(f"score column {name!r} of {path} holds values that are not {dtype} further down (larger "
                     "integers, decimals or empty fields), while its first rows are; with --dask a column has one "
                     "type: write the file as Parquet, or read it without --dask")


def _column(df, name: str, what: str) -> str:
    if name not in df.columns:
        raise ValueError(f"unknown {what} column {name!r} (columns: {', '.join(map(str, df.columns))}); "
                         "with --dask, columns are named, not numbered")
    return name


def _pos(df, label: str, given: str | None, client, choose=None):
    """``(positive label, counts)`` as the single-machine command finds them (the rule of
    :func:`rankwise.cli._common.pos_label`, or ``choose(values, given)`` returning the
    positive label first), with :func:`rankwise.cli._common.class_counts`'s fields: one
    pass over the label column only."""
    import numpy as np

    from ._common import pos_label

    counts = client.compute(df[label].value_counts()).result()
    values = counts.index.to_numpy()
    if values.dtype == object:
        values = np.asarray([str(v) for v in values])
    chosen = (choose or pos_label)(values, given)
    pos = chosen[0] if isinstance(chosen, tuple) else chosen
    n_pos = int(sum(int(c) for v, c in zip(values, counts.to_numpy()) if v == pos))
    info = {"positive_label": pos.item() if isinstance(pos, np.generic) else pos,
            "n": int(counts.sum()), "n_positive": n_pos}
    return chosen, info


def evaluate(args, specs: list[str], ci_method) -> list[dict]:
    """One row per (score column, criterion), as the single-machine ``evaluate``."""
    from .. import distributed as rwd
    from .._validation import parse_spec

    df = frame(args.file, [args.label, *args.score], args.score)
    label = _column(df, args.label, "label")
    cols = [_column(df, s, "score") for s in args.score]
    if len(set(cols)) != len(cols):
        raise ValueError(f"a score column is given twice: {', '.join(args.score)}")
    rows = []
    with cluster(args) as client:
        pos, info = _pos(df, label, args.pos_label, client)
        for col in cols:
            if args.ci == "none":
                values = rwd.evaluate(df, criteria=specs, label=label, score=col, pos_label=pos, client=client)
                rows += [{"score": col, "criterion": sp, "value": values[sp]} for sp in specs]
                continue
            for sp in specs:
                name, params = parse_spec(sp)
                method = ci_method(sp, args.ci)
                kw = {"method": method}
                est = rwd.estimate(df, criterion=name, label=label, score=col, pos_label=pos, client=client,
                                   **params)
                if method == "bootstrap":  # resampled on the workers (rankwise.distributed._bootstrap)
                    kw.update(n_resamples=args.resamples, random_state=args.seed)
                iv = est.confidence_interval(args.level, **kw)
                rows.append({"score": col, "criterion": sp, "value": est.value, "low": iv.low, "high": iv.high,
                             "method": iv.method, "std_error": iv.std_error})
    return rows, info


def compare(args, name: str, params: dict):
    from .. import distributed as rwd

    df = frame(args.file, [args.label, *args.score], args.score)
    label = _column(df, args.label, "label")
    cols = [_column(df, s, "score") for s in args.score]
    with cluster(args) as client:
        pos, info = _pos(df, label, args.pos_label, client)
        return rwd.compare(df, cols, name, label=label, pos_label=pos, adjust=args.adjust,
                           confidence_level=args.level, reference=args.reference, alternative=args.alternative,
                           margin=getattr(args, "margin", None), client=client, **params), info


def fit(args, model, classes) -> tuple:
    """Fit ``model`` on the cluster; returns ``(model, features, label, held-out (n, rows,
    counts) or None, (positive, negative), counts)``. ``classes(values, given)`` gives the
    positive and negative labels; the model learns 0/1 with 1 for the positive."""
    import numpy as np

    from .. import distributed as rwd

    supported = rwd.SUPPORTED_ESTIMATORS
    if type(model).__name__ not in supported:
        raise ValueError(f"learner {type(model).__name__} does not run on Dask; with --dask/--scheduler use "
                         f"{', '.join(supported)} (learners bbr, proper, pairwise)")
    df = frame(args.file, None)
    label = _column(df, args.label, "label")
    feats = [_column(df, c, "feature") for c in args.features.split(",")] if args.features else \
        [c for c in df.columns if c != label]
    text = [c for c in feats if df[c].dtype.kind not in "biuf"]
    if text:
        raise ValueError(f"the feature column{'s' if len(text) > 1 else ''} {', '.join(map(str, text[:5]))} "
                         f"{'hold' if len(text) > 1 else 'holds'} text; the Dask fit takes numeric features only "
                         "(drop --dask to fit with one-hot encoding)")
    held = None
    with cluster(args) as client:
        df = df[[*feats, label]]
        (pos, neg), info = _pos(df, label, args.pos_label, client, classes)
        col = df[label].astype(str) if df[label].dtype == object else df[label]
        df = df.assign(**{label: (col == pos).astype("int64")})
        if args.holdout:
            train, test = df.random_split([1.0 - args.holdout, args.holdout], random_state=args.seed)
        else:
            train, test = df, None
        rwd.fit(model, train, feature_columns=feats, label=label, client=client)
        if test is not None:
            coef, b = np.asarray(model.coef_, dtype=np.float64), float(model.intercept_)

            def score_part(part):
                return part.assign(__score__=part[feats].to_numpy(dtype=np.float64) @ coef + b)

            scored = test.map_partitions(score_part)
            from ._common import DEFAULT_CRITERIA

            values = rwd.evaluate(scored, criteria=DEFAULT_CRITERIA, label=label, score="__score__",
                                  pos_label=1, client=client)
            n_test, n_pos = (int(v) for v in client.compute([scored.shape[0], scored[label].sum()], sync=True))
            held = (n_test, [{"score": "held-out", "criterion": sp, "value": values[sp]} for sp in DEFAULT_CRITERIA],
                    {**info, "n": n_test, "n_positive": n_pos})
    return model, feats, label, held, (pos, neg), info
