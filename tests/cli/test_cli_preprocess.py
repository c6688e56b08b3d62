"""``rankwise fit`` on files with text columns and missing values (issue 15, item 8): a
preprocessing pipeline is fitted and saved whole, and ``score``/``report`` apply it."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest

import rankwise as rw
from rankwise.cli import main
from rankwise.io._datasets import CREDIT_CATEGORICAL, CREDIT_NUMERIC, load_credit_data

from _support.engines import engine  # noqa: F401  (the fixture)


def _one_line_error(capsys, command):
    err = capsys.readouterr().err
    assert err.startswith(f"rankwise {command}: error: ") and err.count("\n") == 1, err
    return err


@pytest.fixture(scope="module")
def credit_frame():
    X, y = load_credit_data()
    df = X.copy()
    df["Status"] = np.where(np.asarray(y) == 1, "bad", "good")
    return df


@pytest.fixture
def credit_csv(tmp_path, monkeypatch, credit_frame):
    """``credit.csv``: the credit data as a user has it (text columns, empty fields for
    missing values, label ``Status`` good/bad), in the current directory."""
    credit_frame.to_csv(tmp_path / "credit.csv", index=False)
    monkeypatch.chdir(tmp_path)
    return credit_frame


def _scores(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return rows, np.array([float(r["score"]) for r in rows])


def test_credit_fit_and_score_end_to_end(credit_csv, engine, capsys):
    assert main(["fit", "credit.csv", "--label", "Status", "--pos-label", "bad", "--learner", "bbr",
                 "--model", "m.rwm"]) == 0
    out = capsys.readouterr().out
    assert "BBRRanker with preprocessing (4 categorical columns one-hot encoded" in out and "on 13 features" in out
    doc = rw.inspect_model("m.rwm")
    assert doc["format_version"] == 2
    assert [s[:2] for s in doc["steps"]] == [
        ("", "sklearn.pipeline.Pipeline"), ("preprocess", "sklearn.compose.ColumnTransformer"),
        ("preprocess/num", "sklearn.pipeline.Pipeline"), ("preprocess/num/impute", "sklearn.impute.SimpleImputer"),
        ("preprocess/num/scale", "sklearn.preprocessing.StandardScaler"),
        ("preprocess/cat", "sklearn.preprocessing.OneHotEncoder"), ("learner", "BBRRanker")]
    assert doc["metadata"]["categorical"] == CREDIT_CATEGORICAL and doc["metadata"]["impute"] == "median"
    assert main(["score", "m.rwm", "credit.csv", "--keep", "Status", "--out", "s.csv"]) == 0
    rows, s = _scores("s.csv")
    assert len(rows) == len(credit_csv) and [r["Status"] for r in rows] == credit_csv["Status"].tolist()
    assert np.isfinite(s).all()
    # the same pipeline built by hand on the data frame gives the same scores
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    X = credit_csv[CREDIT_NUMERIC + CREDIT_CATEGORICAL]
    by_hand = make_pipeline(ColumnTransformer([
        ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), CREDIT_NUMERIC),
        ("cat", OneHotEncoder(handle_unknown="ignore"), CREDIT_CATEGORICAL)]), rw.BBRRanker())
    by_hand.fit(X, (credit_csv["Status"] == "bad").astype(int))
    np.testing.assert_allclose(s, by_hand.decision_function(X), rtol=1e-9, atol=1e-9)
    assert rw.auc(credit_csv["Status"] == "bad", s) > 0.8


@pytest.mark.parametrize("by_name", [True, False])
def test_score_applies_a_users_pipeline(credit_csv, capsys, by_name):
    """A pipeline fitted in Python (on the data frame: columns chosen by name; or on an
    object array: by position) and saved with rw.save_model scores from the CSV exactly as
    in Python."""
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder, StandardScaler

    names = CREDIT_NUMERIC + CREDIT_CATEGORICAL
    X = credit_csv[names]
    num = CREDIT_NUMERIC if by_name else list(range(len(CREDIT_NUMERIC)))
    cat = CREDIT_CATEGORICAL if by_name else list(range(len(CREDIT_NUMERIC), len(names)))
    model = make_pipeline(ColumnTransformer([
        ("n", make_pipeline(SimpleImputer(), StandardScaler()), num),
        ("c", make_pipeline(SimpleImputer(strategy="most_frequent"), OrdinalEncoder()), cat[:2]),
        ("h", OneHotEncoder(handle_unknown="ignore"), cat[2:])]), LogisticRegression(max_iter=3000))
    data = X if by_name else X.to_numpy(dtype=object)
    model.fit(data, credit_csv["Status"] == "bad")
    if not by_name:
        model.steps[0][1].feature_names_in_ = np.asarray(names, dtype=object)
    rw.save_model(model, "user.rwm")
    assert main(["score", "user.rwm", "credit.csv", "--out", "s.csv"]) == 0
    _, s = _scores("s.csv")
    np.testing.assert_allclose(s, model.decision_function(data), rtol=1e-12, atol=1e-12)


def test_categorical_option_and_unknown_category(tmp_path, monkeypatch, capsys):
    """--categorical one-hot encodes a numeric column; a category first met when scoring
    gets no indicator: the row scores as if the column's indicators were all zero."""
    rng = np.random.default_rng(5)
    n = 120
    region = rng.integers(1, 4, size=n)
    x = rng.normal(size=n)
    y = (x + (region == 2) + rng.normal(size=n) > 0.5).astype(int)
    (tmp_path / "d.csv").write_text("y,region,x\n" + "".join(f"{a},{b},{c!r}\n" for a, b, c in zip(y, region, x.tolist())))
    (tmp_path / "new.csv").write_text("region,x\n2,0.5\n9,0.5\n,0.5\n")
    monkeypatch.chdir(tmp_path)
    assert main(["fit", "d.csv", "--label", "y", "--categorical", "region", "--learner", "proper",
                 "--model", "m.rwm"]) == 0
    capsys.readouterr()
    model = rw.load_model("m.rwm")
    enc = model.steps[0][1].named_transformers_["cat"]
    assert [c.tolist() for c in enc.categories_] == [["1", "2", "3"]]
    assert main(["score", "m.rwm", "new.csv", "--out", "s.csv"]) == 0
    _, s = _scores("s.csv")
    lin = model.steps[-1][1]
    scaled = model.steps[0][1].named_transformers_["num"].transform(np.array([[0.5]]))[0, 0]
    numeric_part = lin.coef_[0] * scaled + lin.intercept_  # columns: x first, then region's indicators
    assert s[1] == pytest.approx(numeric_part, rel=1e-12) and s[2] == pytest.approx(numeric_part, rel=1e-12)
    assert s[0] == pytest.approx(numeric_part + lin.coef_[2], rel=1e-12)


@pytest.mark.parametrize("impute", ["median", "mean"])
def test_impute_statistic(tmp_path, monkeypatch, capsys, impute):
    x = [1.0, 2.0, float("nan"), 10.0, 4.0, float("nan"), 3.0, 7.0]
    y = [0, 1, 0, 1, 0, 1, 0, 1]
    (tmp_path / "d.csv").write_text("y,x,z\n" + "".join(
        f"{b},{'' if math.isnan(a) else a},{i % 3}\n" for i, (a, b) in enumerate(zip(x, y))))
    monkeypatch.chdir(tmp_path)
    assert main(["fit", "d.csv", "--label", "y", "--impute", impute, "--learner", "bbr", "--model", "m.rwm"]) == 0
    out = capsys.readouterr().out
    assert f"imputed ({impute})" in out and "0 categorical columns" in out
    imputer = rw.load_model("m.rwm").steps[0][1].named_transformers_["num"].steps[0][1]
    known = [v for v in x if not math.isnan(v)]
    z = [i % 3 for i in range(len(x))]
    stat = (lambda v: float(np.median(v))) if impute == "median" else (lambda v: sum(v) / len(v))
    assert imputer.statistics_.tolist() == [pytest.approx(stat(known), rel=1e-15), pytest.approx(stat(z), rel=1e-15)]


def test_impute_none_refuses_missing_values(tmp_path, monkeypatch, capsys):
    (tmp_path / "d.csv").write_text("y,x\n0,1\n1,\n0,3\n1,4\n")
    monkeypatch.chdir(tmp_path)
    assert main(["fit", "d.csv", "--label", "y", "--impute", "none", "--learner", "bbr", "--model", "m.rwm"]) == 1
    assert "column 'x'" in _one_line_error(capsys, "fit")


def test_complete_numeric_file_is_fitted_without_pipeline(tmp_path, monkeypatch, capsys):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 2))
    y = (X[:, 0] > 0).astype(int)
    (tmp_path / "d.csv").write_text("y,a,b\n" + "".join(f"{t},{a!r},{b!r}\n" for t, (a, b) in zip(y, X.tolist())))
    monkeypatch.chdir(tmp_path)
    assert main(["fit", "d.csv", "--label", "y", "--learner", "bbr", "--model", "m.rwm"]) == 0
    assert "saved BBRRanker on 2 features" in capsys.readouterr().out
    assert rw.inspect_model("m.rwm")["format_version"] == 1


def test_categorical_must_be_a_feature(credit_csv, capsys):
    assert main(["fit", "credit.csv", "--label", "Status", "--pos-label", "bad", "--features", "Age,Home",
                 "--categorical", "Job", "--learner", "bbr", "--model", "m.rwm"]) == 1
    assert "--categorical names Job" in _one_line_error(capsys, "fit")


def test_report_applies_the_pipeline(credit_csv, capsys):
    assert main(["fit", "credit.csv", "--label", "Status", "--pos-label", "bad", "--learner", "bbr",
                 "--model", "m.rwm"]) == 0
    assert main(["report", "credit.csv", "--label", "Status", "--pos-label", "bad", "--model", "m.rwm",
                 "--out", "r.html", "--quiet"]) == 0
    assert "Pipeline (m.rwm)" in open("r.html").read()


@pytest.mark.parametrize("option", [["--categorical", "Home"], ["--impute", "mean"]])
def test_dask_refuses_preprocessing_options(credit_csv, capsys, option):
    assert main(["fit", "credit.csv", "--label", "Status", "--pos-label", "bad", "--learner", "bbr",
                 "--model", "m.rwm", "--dask", *option]) == 1
    assert "not supported with --dask" in _one_line_error(capsys, "fit")


def test_help_says_what_preprocessing_is_applied(capsys):
    with pytest.raises(SystemExit):
        main(["fit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for phrase in ("one-hot encoded", "--impute", "standardised", "whole pipeline", "--categorical"):
        assert phrase in text
