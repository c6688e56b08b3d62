"""Preprocessing of ``rankwise fit``: categorical and incomplete feature columns.

When the feature columns hold text (or are named with ``--categorical``) or missing
values, ``fit`` builds a scikit-learn pipeline and the model file holds all of it::

    ColumnTransformer([
        ("num", Pipeline([SimpleImputer(strategy=IMPUTE), StandardScaler()]), numeric columns),
        ("cat", OneHotEncoder(handle_unknown="ignore"), categorical columns),
    ]) -> the learner

Numeric columns: missing values replaced by the training column's median (or mean,
``--impute``), then standardised (mean 0, variance 1 on the training rows). Categorical
columns: one indicator per value seen in training, a missing value counting as a value of
its own; a value first met when scoring gets no indicator (all zeros). With
``--impute none`` a missing numeric value is an error, as without preprocessing. Files
whose features are all numeric and complete are fitted as before, without a pipeline.

``score`` and ``report`` give a pipeline the same columns, read the same way
(:func:`model_input`).
"""

from __future__ import annotations

import math
from typing import Any, Optional

from ._common import CLIError

IMPUTE = ("median", "mean", "none")
#: What ``rankwise fit --help`` says about the preprocessing.
HELP = ("Feature columns holding text (or named with --categorical) are one-hot encoded (a missing value is a "
        "category; a value first met when scoring gets no indicator); numeric columns with missing values are "
        "imputed (--impute, the training median by default); then every numeric column is standardised. The "
        "model file then holds the whole pipeline (ColumnTransformer, then the learner) and `rankwise score` "
        "applies it. Files whose features are all numeric and complete are fitted directly, as before.")

_NUM, _CAT = "num", "cat"


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, str) and v.strip() == "") or (isinstance(v, float) and math.isnan(v))


def _as_number(v: Any) -> Optional[float]:
    """``v`` as a float, or None when it is not a number (text)."""
    import numpy as np

    if isinstance(v, (bool, np.bool_)):
        return float(v)
    if isinstance(v, (int, float, np.integer, np.floating)):
        return float(v)
    try:
        return float(str(v).strip())
    except ValueError:
        return None


def kinds(table, names: list[str], categorical: list[str]) -> list[str]:
    """``"num"`` or ``"cat"`` per feature column: categorical when named, or when a
    non-missing value is not a number."""
    out = []
    for name in names:
        if name in categorical:
            out.append(_CAT)
            continue
        arr = table.raw(name)
        if arr.dtype.kind in "biuf":
            out.append(_NUM)
        elif arr.dtype == object:
            values = {v for v in arr if not _missing(v)} if arr.size else set()
            out.append(_CAT if any(_as_number(v) is None for v in values) else _NUM)
        else:
            out.append(_CAT)
    return out


def frame(table, names: list[str], kinds_: list[str]) -> np.ndarray:
    """The object array ``(n_rows, k)`` a pipeline takes: numeric columns as floats (nan
    where missing; infinite values refused), categorical ones as ``str`` (nan where
    missing, as pandas reads them: scikit-learn's imputers and encoders take it as missing)."""
    import numpy as np

    X = np.empty((table.n_rows, len(names)), dtype=object)
    for j, (name, kind) in enumerate(zip(names, kinds_)):
        arr = table.raw(name)
        if kind == _CAT:
            col = [math.nan if _missing(v) else (v if isinstance(v, str) else _text(v)) for v in arr]
        else:
            col = arr.astype(np.float64) if arr.dtype.kind in "biuf" else np.array(
                [math.nan if _missing(v) else _as_number(v) for v in arr], dtype=np.float64)
            if np.isinf(col).any():
                row = int(np.flatnonzero(np.isinf(col))[0]) + 1
                raise CLIError(f"column '{name}' has an infinite value at row {row}")
            col = col.tolist()
        X[:, j] = col
    return X


def _text(v: Any) -> str:
    """A non-text value of a categorical column as text: integers without a decimal point."""
    import numpy as np

    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


def any_missing(table, names: list[str]) -> bool:
    """Whether a feature column has a missing value (nan, or an empty or absent field)."""
    import numpy as np

    for name in names:
        arr = table.raw(name)
        if arr.dtype.kind == "f" and np.isnan(arr).any():
            return True
        if arr.dtype == object and any(map(_missing, arr)):
            return True
    return False


def pipeline(learner, kinds_: list[str], impute: str):
    """The unfitted pipeline: column preprocessing, then ``learner``."""
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    num = [j for j, k in enumerate(kinds_) if k == _NUM]
    cat = [j for j, k in enumerate(kinds_) if k == _CAT]
    steps = ([("impute", SimpleImputer(strategy=impute))] if impute != "none" else []) + [("scale", StandardScaler())]
    parts = ([(_NUM, Pipeline(steps), num)] if num else []) + (
        [(_CAT, OneHotEncoder(handle_unknown="ignore"), cat)] if cat else [])
    return Pipeline([("preprocess", ColumnTransformer(parts)), ("learner", learner)])


def is_pipeline(model) -> bool:
    return type(model).__name__ == "Pipeline" and hasattr(model, "steps")


def model_input(table, model, names: list[str]):
    """The rows of ``table`` as ``model`` takes them. A rankwise estimator: the float
    matrix. A pipeline: every column read as :func:`frame` reads it, those that a fitted
    column transformer sends to an encoder (``OneHotEncoder``, ``OrdinalEncoder``, alone
    or in a pipeline, e.g. after an imputer) as text, the others as numbers with nan where missing; a pipeline
    whose column transformer selects columns by name (fitted on a data frame) gets a
    pandas data frame."""
    import numpy as np

    if not is_pipeline(model):
        return table.matrix(names)
    pre = model.steps[0][1]
    cat, by_name = set(), False
    for _, transformer, cols in getattr(pre, "transformers_", []):
        idx = _column_indices(cols, names)
        if isinstance(cols, str):
            by_name = True
        elif not isinstance(cols, slice):
            by_name = by_name or any(isinstance(c, str) for c in np.atleast_1d(np.asarray(cols, dtype=object)).tolist())
        if _encodes(transformer):
            cat.update(idx)
    kinds_ = [_CAT if j in cat else _NUM for j in range(len(names))]
    X = frame(table, names, kinds_)
    if not by_name:
        return X if cat else X.astype(np.float64)
    try:
        import pandas as pd
    except ImportError as exc:
        raise CLIError("this model's column transformer selects columns by name: scoring it needs pandas "
                       "(pip install pandas)") from exc
    df = pd.DataFrame(X, columns=names)
    for j, name in enumerate(names):
        if kinds_[j] == _NUM:
            df[name] = df[name].astype(np.float64)
    return df


def _column_indices(cols, names: list[str]) -> list[int]:
    """The positions in ``names`` of a column transformer's column selection (positions,
    names, a boolean mask or a slice)."""
    import numpy as np

    if isinstance(cols, slice):
        return list(range(len(names)))[cols]
    if isinstance(cols, str):
        cols = [cols]
    sel = np.atleast_1d(np.asarray(cols, dtype=object)).tolist()
    if sel and all(isinstance(c, (bool, np.bool_)) for c in sel):
        return [j for j, keep in enumerate(sel) if keep]
    return [names.index(c) if isinstance(c, str) else int(c) for c in sel if not isinstance(c, str) or c in names]


def _encodes(transformer) -> bool:
    """Whether a fitted transformer is, or is a pipeline holding, a categorical encoder."""
    if is_pipeline(transformer):
        return any(_encodes(step) for _, step in transformer.steps)
    return type(transformer).__name__ in ("OneHotEncoder", "OrdinalEncoder")


def final_estimator(model):
    return model.steps[-1][1] if is_pipeline(model) else model
