"""A real dataset inside the package, so that the main job runs offline after a plain
``pip install rankwise``.

``credit_data`` is the credit-scoring table of the R package modeldata (Kuhn, modeldata:
"Data sets useful for modeling examples", MIT licence; the data come from Lluís A.
Belanche Muñoz's credit-scoring collection by way of Gaston Sanchez's CreditScoring
repository, with the one loan whose outcome is missing removed): 4,454 loans, 13 features,
28% defaults. It is shipped as ``rankwise/io/data/credit_data.csv.gz`` (55 kB), written
once from modeldata's table with missing values as empty fields; the copyright notice
of modeldata is in ``rankwise/io/data/LICENSE-credit_data``.
"""

from __future__ import annotations

import csv
import gzip
import io
from importlib import resources

import numpy as np

__all__ = ["load_credit_data", "CREDIT_NUMERIC", "CREDIT_CATEGORICAL"]

CREDIT_NUMERIC = ["Seniority", "Time", "Age", "Expenses", "Income", "Assets", "Debt", "Amount", "Price"]
CREDIT_CATEGORICAL = ["Home", "Marital", "Records", "Job"]
_FILE = "credit_data.csv.gz"


def _read_columns() -> dict:
    raw = resources.files(__package__).joinpath("data", _FILE).read_bytes()
    text = gzip.decompress(raw).decode("utf-8")
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    rows = list(reader)
    cols = {}
    for j, name in enumerate(header):
        values = [r[j] for r in rows]
        if name in CREDIT_NUMERIC:
            cols[name] = np.array([float(v) if v != "" else np.nan for v in values], dtype=np.float64)
        else:
            cols[name] = np.array([v if v != "" else np.nan for v in values], dtype=object)
    return cols


def load_credit_data(*, as_frame: bool = True):
    """The modeldata ``credit_data`` table as ``(X, y)``, read from inside the package.

    Parameters
    ----------
    as_frame : bool, default True
        True: ``X`` is a pandas DataFrame (needs pandas). False: ``X`` is a NumPy object
        array with the columns in the order ``CREDIT_NUMERIC + CREDIT_CATEGORICAL``
        (numeric values as floats with ``nan`` for missing, categories as strings with
        ``nan`` for missing, which scikit-learn's imputers read as missing), usable by scikit-learn's ``ColumnTransformer`` with
        integer column indices and no pandas.

    Returns
    -------
    X : pandas.DataFrame or numpy.ndarray of shape (4454, 13)
        Nine numeric and four categorical columns, with missing values as in the source
        (Income 381, Assets 47, Debt 18, Home 6, Job 2, Marital 1).
    y : numpy.ndarray of shape (4454,), int
        1 if the loan defaulted (``Status == "bad"``, 1,254 loans), else 0. Ranking
        defaulters above repaid loans is the credit-risk question.

    Examples
    --------
    >>> from rankwise.io import load_credit_data
    >>> X, y = load_credit_data(as_frame=False)
    >>> X.shape, int(y.sum())
    ((4454, 13), 1254)
    """
    cols = _read_columns()
    y = (cols["Status"] == "bad").astype(int)
    names = CREDIT_NUMERIC + CREDIT_CATEGORICAL
    if not as_frame:
        X = np.empty((len(y), len(names)), dtype=object)
        for j, name in enumerate(names):
            X[:, j] = cols[name]
        return X, y
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("load_credit_data(as_frame=True) needs pandas: pip install pandas, "
                          "or call load_credit_data(as_frame=False) for NumPy arrays.") from exc
    # Categories as object columns (as modeldata's table reads in pandas), not pandas 3's str.
    X = pd.DataFrame({name: pd.Series(cols[name], dtype=object if name in CREDIT_CATEGORICAL else None)
                      for name in names})
    return X, y
