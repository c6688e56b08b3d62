"""The positive label on the command line (issue 15, item 2): labels other than {0, 1},
{-1, 1} or booleans need --pos-label in every command that reads labels, and every output
states the positive label, n and the number of positives."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

import rankwise as rw
from rankwise.cli import main


@pytest.fixture
def good_bad(tmp_path, monkeypatch):
    """``gb.csv``: label ``y`` in {good, bad} (30 good of 80), score ``a`` high for good,
    ``b`` noise, feature ``x1`` high for good; as the current directory."""
    rng = np.random.default_rng(3)
    n = 80
    good = np.r_[np.ones(30, bool), np.zeros(n - 30, bool)]
    a = good + rng.normal(size=n)
    b = rng.normal(size=n)
    x1 = 2.0 * good + rng.normal(size=n)
    lines = ["y,a,b,x1"] + [f"{'good' if g else 'bad'},{u!r},{v!r},{w!r}" for g, u, v, w in
                            zip(good, a.tolist(), b.tolist(), x1.tolist())]
    (tmp_path / "gb.csv").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    return good, a, b, x1


def _one_line_error(capsys, command):
    out, err = capsys.readouterr()
    assert err.startswith(f"rankwise {command}: error:") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


LABEL_COMMANDS = {
    "evaluate": ["evaluate", "gb.csv", "--label", "y", "--score", "a"],
    "compare": ["compare", "gb.csv", "--label", "y", "--score", "a", "--score", "b"],
    "fit": ["fit", "gb.csv", "--label", "y", "--features", "x1", "--learner", "bbr", "--model", "m.rwm"],
    "report": ["report", "gb.csv", "--label", "y", "--score", "a", "--out", "r.html"],
}


@pytest.mark.parametrize("command", list(LABEL_COMMANDS))
def test_text_labels_without_pos_label_are_refused(good_bad, capsys, command):
    # evaluate took the larger string ('good') as positive without a word; fit took classes_[1]
    if command == "report":
        pytest.importorskip("matplotlib")
    assert main(LABEL_COMMANDS[command]) == 1
    err = _one_line_error(capsys, command)
    assert "bad, good" in err and "--pos-label" in err and "{0, 1}" in err
    assert not any(p.exists() for p in map(__import__("pathlib").Path, ("m.rwm", "r.html")))


@pytest.mark.parametrize("pos", ["good", "bad"])
def test_pos_label_names_the_positive_class_as_scikit_learn(good_bad, capsys, pos):
    from sklearn.metrics import roc_auc_score

    good, a, _, _ = good_bad
    y = good if pos == "good" else ~good
    assert main(LABEL_COMMANDS["evaluate"] + ["--pos-label", pos, "--criteria", "auc", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["positive_label"] == pos and got["n"] == 80 and got["n_positive"] == int(y.sum())
    # golden: sklearn.metrics.roc_auc_score(y_true == pos, a)
    assert got["rows"][0]["value"] == pytest.approx(roc_auc_score(y, a), abs=1e-12)


def test_pos_label_not_a_value_is_one_line(good_bad, capsys):
    assert main(LABEL_COMMANDS["evaluate"] + ["--pos-label", "Good"]) == 1
    err = _one_line_error(capsys, "evaluate")
    assert "'Good'" in err and "bad, good" in err


@pytest.mark.parametrize("labels, positive", [(("0", "1"), 1), (("-1", "1"), 1), (("False", "True"), True),
                                              (("0.0", "1.0"), 1.0)])
def test_zero_one_minus_one_one_and_booleans_need_no_pos_label(tmp_path, capsys, labels, positive):
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(0)
    is_pos = np.r_[np.ones(20, bool), np.zeros(30, bool)]
    s = is_pos + rng.normal(size=50)
    path = tmp_path / "d.csv"
    path.write_text("y,s\n" + "".join(f"{labels[int(p)]},{v!r}\n" for p, v in zip(is_pos, s.tolist())))
    assert main(["evaluate", str(path), "--label", "y", "--score", "s", "--criteria", "auc", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["positive_label"] == positive and type(got["positive_label"]) is type(positive)
    assert (got["n"], got["n_positive"]) == (50, 20)
    assert got["rows"][0]["value"] == pytest.approx(roc_auc_score(is_pos, s), abs=1e-12)


def test_numeric_pos_label_matches_the_number(tmp_path, capsys):
    # labels 1.0 and 2.0 (not {0, 1}): --pos-label 1 names the label read as 1.0
    path = tmp_path / "d.csv"
    path.write_text("y,s\n1.0,0.9\n2.0,0.1\n1.0,0.8\n2.0,0.85\n")
    assert main(["evaluate", str(path), "--label", "y", "--score", "s", "--criteria", "auc", "--ci", "none"]) == 1
    assert "--pos-label" in _one_line_error(capsys, "evaluate")
    assert main(["evaluate", str(path), "--label", "y", "--score", "s", "--criteria", "auc", "--ci", "none",
                 "--pos-label", "1", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["positive_label"] == 1.0 and got["n_positive"] == 2 and got["rows"][0]["value"] == 0.75


def test_evaluate_outputs_state_positive_label_and_counts(good_bad, capsys):
    argv = LABEL_COMMANDS["evaluate"] + ["--pos-label", "bad", "--criteria", "auc,pnorm_push:p=4"]
    assert main(argv + ["--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))  # a plain CSV: header, then rows
    assert len(rows) == 2 and [r["criterion"] for r in rows] == ["auc", "pnorm_push:p=4"]
    assert all((r["positive_label"], r["n"], r["n_positive"]) == ("bad", "80", "50") for r in rows)
    assert main(argv) == 0
    table = capsys.readouterr().out.rstrip("\n").splitlines()
    assert table[-1] == "positive label: 'bad' (n = 80, positives = 50)"


def test_compare_outputs_state_positive_label_and_counts(good_bad, capsys):
    argv = LABEL_COMMANDS["compare"] + ["--pos-label", "good"]
    assert main(argv + ["--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["positive_label"], got["n"], got["n_positive"]) == ("good", 80, 30)
    good, a, b, _ = good_bad
    assert got["values"][0] == pytest.approx(rw.auc(good, a), abs=1e-12)
    assert main(argv + ["--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 1 and (rows[0]["a"], rows[0]["b"]) == ("a", "b")
    assert (rows[0]["positive_label"], rows[0]["n"], rows[0]["n_positive"]) == ("good", "80", "30")
    assert float(rows[0]["p_value"]) == pytest.approx(got["pairs"][0]["p_value"], rel=1e-12)
    assert main(argv) == 0
    assert capsys.readouterr().out.rstrip("\n").splitlines()[-1] == "positive label: 'good' (n = 80, positives = 30)"


@pytest.mark.parametrize("pos", ["good", "bad"])
def test_fit_ranks_the_named_positive_high(good_bad, capsys, pos):
    good, _, _, x1 = good_bad
    is_pos = good if pos == "good" else ~good
    assert main(LABEL_COMMANDS["fit"] + ["--pos-label", pos, "--holdout", "0.25"]) == 0
    out = capsys.readouterr().out
    # the whole file, then the held-out part: scikit-learn's stratified split, --seed 0
    from sklearn.model_selection import train_test_split

    n_pos = int(is_pos.sum())
    assert f"positive label: '{pos}' (n = 80, positives = {n_pos})" in out
    _, test = train_test_split(np.arange(80), test_size=0.25, stratify=is_pos.astype(int), random_state=0)
    held_pos = int(is_pos[test].sum())
    assert out.rstrip("\n").splitlines()[-1] == f"positive label: '{pos}' (n = 20, positives = {held_pos})"
    m = rw.load_model("m.rwm")
    assert m.classes_[1] == pos and set(m.classes_) == {"good", "bad"}
    s = m.decision_function(x1.reshape(-1, 1))
    assert rw.auc(is_pos, s) > 0.8  # x1 is high for 'good': the model must follow the named class
    assert np.mean(m.predict(x1.reshape(-1, 1)) == np.where(good, "good", "bad")) > 0.7


def test_fit_without_pos_label_on_zero_one_keeps_one_positive(tmp_path, capsys):
    rng = np.random.default_rng(1)
    y = np.r_[np.ones(30, int), np.zeros(50, int)]
    x = y + rng.normal(size=80)
    (tmp_path / "d.csv").write_text("y,x\n" + "".join(f"{a},{b!r}\n" for a, b in zip(y, x.tolist())))
    m = tmp_path / "m.rwm"
    assert main(["fit", str(tmp_path / "d.csv"), "--label", "y", "--learner", "bbr", "--model", str(m)]) == 0
    assert "positive label: 1 (n = 80, positives = 30)" in capsys.readouterr().out
    model = rw.load_model(m)
    assert model.classes_.tolist() == [0, 1] and rw.auc(y, model.decision_function(x.reshape(-1, 1))) > 0.7


def test_fit_with_more_than_two_labels_is_refused(tmp_path, capsys):
    (tmp_path / "d.csv").write_text("y,x\na,1\nb,2\nc,3\na,4\n")
    assert main(["fit", str(tmp_path / "d.csv"), "--label", "y", "--learner", "bbr", "--pos-label", "a",
                 "--model", str(tmp_path / "m.rwm")]) == 1
    assert "3 values (a, b, c)" in _one_line_error(capsys, "fit")


def test_report_states_positive_label_and_counts(good_bad, capsys):
    pytest.importorskip("matplotlib")
    assert main(LABEL_COMMANDS["report"] + ["--pos-label", "bad", "--criteria", "auc"]) == 0
    html = open("r.html", encoding="utf-8").read()
    assert "<dt>positive class</dt><dd><code>y</code> = bad</dd>" in html
    assert "n = 80: 50 positives, 30 negatives" in html

