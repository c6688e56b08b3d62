"""``rankwise score --keep COL[,COL]`` (issue 15, item 2): id columns carried into the
scores file, in the order asked for, before the score."""

from __future__ import annotations

import csv
import os

import numpy as np
import pytest

import rankwise as rw
from rankwise.cli import main
from rankwise.cli._readers import read_table

from _support.engines import engine  # noqa: F401  (the fixture)

FIT = ["fit", "gb.csv", "--label", "y", "--features", "x1", "--learner", "bbr", "--model", "m.rwm"]


@pytest.fixture
def good_bad(tmp_path, monkeypatch):
    """``gb.csv``: label ``y`` in {good, bad}, feature ``x1`` high for good; as the
    current directory."""
    rng = np.random.default_rng(3)
    good = np.r_[np.ones(30, bool), np.zeros(50, bool)]
    x1 = 2.0 * good + rng.normal(size=80)
    (tmp_path / "gb.csv").write_text("y,x1\n" + "".join(f"{'good' if g else 'bad'},{v!r}\n"
                                                       for g, v in zip(good, x1.tolist())))
    monkeypatch.chdir(tmp_path)
    return good, x1


def _one_line_error(capsys, command):
    err = capsys.readouterr().err
    assert err.startswith(f"rankwise {command}: error:") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


# --- score --keep ------------------------------------------------------------------------------

def test_score_keep_carries_id_columns_in_input_order(good_bad, capsys):
    good, x1 = good_bad
    assert main(FIT + ["--pos-label", "good"]) == 0
    ids = [f"c{i}, ltd" if i % 7 == 0 else f"c{i}" for i in range(80)]  # commas are quoted
    text = "id,branch,x1\n" + "".join(f'"{k}",{i % 3},{v!r}\n' for i, (k, v) in enumerate(zip(ids, x1.tolist())))
    open("new.csv", "w").write(text)
    assert main(["score", "m.rwm", "new.csv", "--keep", "branch,id", "--out", "s.csv"]) == 0
    rows = list(csv.reader(open("s.csv", newline="")))
    assert rows[0] == ["branch", "id", "score"]  # the order asked for, before the score
    assert [r[1] for r in rows[1:]] == ids and [r[0] for r in rows[1:]] == [str(i % 3) for i in range(80)]
    m = rw.load_model("m.rwm")
    np.testing.assert_allclose([float(r[2]) for r in rows[1:]], m.decision_function(x1.reshape(-1, 1)), rtol=1e-15)
    # a position names a column too; without --keep only the score is written
    assert main(["score", "m.rwm", "new.csv", "--keep", "0", "--out", "t.csv"]) == 0
    assert open("t.csv").readline() == "id,score\n"
    assert main(["score", "m.rwm", "new.csv", "--out", "u.csv"]) == 0
    assert open("u.csv").readline() == "score\n"


@pytest.mark.parametrize("keep, message", [("nope", "unknown column"), ("id,id", "twice"), ("id,", "comma-separated"),
                                           ("score", "named 'score'")])
def test_score_keep_errors_are_one_line(good_bad, capsys, keep, message):
    assert main(FIT + ["--pos-label", "good"]) == 0
    open("new.csv", "w").write("id,score,x1\na,1,0.5\nb,2,0.1\n")
    capsys.readouterr()
    assert main(["score", "m.rwm", "new.csv", "--keep", keep, "--out", "s.csv"]) == 1
    assert message in _one_line_error(capsys, "score")
    assert not os.path.exists("s.csv")


def test_score_keep_without_feature_names_leaves_kept_columns_out_of_the_features(tmp_path, capsys):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    m = rw.BBRRanker().fit(X, (X[:, 0] > 0).astype(int))  # fitted on an array: no feature names
    rw.save_model(m, tmp_path / "m.rwm")
    rows = "".join(f"{1000 + i},{a!r},{b!r}\n" for i, (a, b) in enumerate(X.tolist()))
    (tmp_path / "d.csv").write_text("id,x1,x2\n" + rows)
    out = tmp_path / "s.csv"
    assert main(["score", str(tmp_path / "m.rwm"), str(tmp_path / "d.csv"), "--keep", "id", "--out", str(out)]) == 0
    got = list(csv.reader(open(out, newline="")))[1:]
    assert [r[0] for r in got] == [str(1000 + i) for i in range(40)]
    np.testing.assert_allclose([float(r[1]) for r in got], m.decision_function(X), rtol=1e-15)


def test_kept_ids_are_written_as_in_the_file(tmp_path, capsys, engine):
    # ids read as numbers lost their form: "007" came back as 7, "1.50" as 1.5
    (tmp_path / "d.csv").write_text('id,code,x1\n' + '007,1.50,0.3\n2,,-1\n"a, b",1e3,2\n010,x,0.5\n' * 3)
    t = read_table(tmp_path / "d.csv")
    assert t.text("id").tolist() == ["007", "2", "a, b", "010"] * 3
    assert t.text("code").tolist() == ["1.50", None, "1e3", "x"] * 3
    assert t.numeric("x1").tolist() == [0.3, -1.0, 2.0, 0.5] * 3  # the typed columns are unchanged
    m = rw.BBRRanker().fit(np.array([[0.0], [1.0], [2.0], [3.0]]), [0, 0, 1, 1])
    m.feature_names_in_ = np.asarray(["x1"], dtype=object)
    rw.save_model(m, tmp_path / "m.rwm")
    out = tmp_path / "s.csv"
    assert main(["score", str(tmp_path / "m.rwm"), str(tmp_path / "d.csv"), "--keep", "id,code", "--out",
                 str(out)]) == 0
    rows = list(csv.reader(open(out, newline="")))
    assert [r[:2] for r in rows[1:5]] == [["007", "1.50"], ["2", ""], ["a, b", "1e3"], ["010", "x"]]


def test_kept_columns_of_parquet_are_exact(tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    big = 2**63 + 5
    pd.DataFrame({"id": np.array([big, 7], dtype=np.uint64), "f": [0.1, np.nan], "s": ["a", None],
                  "x1": [1.0, 2.0]}).to_parquet(tmp_path / "d.parquet")
    t = read_table(tmp_path / "d.parquet")
    assert t.text("id").tolist() == [str(big), "7"] and t.text("f").tolist() == ["0.1", None]
    assert t.text("s").tolist() == ["a", None]
