"""``rankwise points``: operating points of score columns (TPR, FPR, precision, threshold)
with bootstrap intervals, equal to ``rw.stats.operating_points`` and ``rw.optimal_threshold``."""

from __future__ import annotations

import json

import numpy as np
import pytest

import rankwise as rw
from rankwise.cli import main


@pytest.fixture
def scores_csv(tmp_path, monkeypatch):
    rng = np.random.default_rng(7)
    bad = rng.random(300) < 0.3
    m1 = np.round(bad + rng.normal(size=300), 2)  # rounded: ties
    m2 = np.round(rng.normal(size=300), 1)
    lines = ["id,outcome,m1,m2"] + [f"r{i},{'bad' if b else 'good'},{a!r},{c!r}"
                                    for i, (b, a, c) in enumerate(zip(bad, m1.tolist(), m2.tolist()))]
    (tmp_path / "s.csv").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    return bad, {"m1": m1, "m2": m2}


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_points_equal_the_library(scores_csv, capsys):
    bad, scores = scores_csv
    out = _json(capsys, ["points", "s.csv", "--label", "outcome", "--score", "m1", "--score", "m2",
                         "--pos-label", "bad", "--fpr", "0.05,0.2", "--youden", "--resamples", "50",
                         "--format", "json", "--seed", "3"])
    assert (out["positive_label"], out["n"], out["n_positive"]) == ("bad", 300, int(bad.sum()))
    rows = out["rows"]
    assert [r["at"] for r in rows] == ["fpr=0.05", "fpr=0.2", "youden"] * 2
    for k, name in enumerate(("m1", "m2")):
        est = rw.stats.operating_points(bad, scores[name], fpr=[0.05, 0.2])
        ci = est.confidence_interval(0.95, n_resamples=50, random_state=3).to_rows()
        for j in range(2):
            r = rows[3 * k + j]
            assert r["score"] == name
            for key in ("tpr", "fpr", "precision"):
                assert r[key] == pytest.approx(getattr(est, key)[j], abs=1e-15)
                assert r[f"{key}_low"] == pytest.approx(ci[j][f"{key}_low"], abs=1e-15)
                assert r[f"{key}_high"] == pytest.approx(ci[j][f"{key}_high"], abs=1e-15)
        y = rw.optimal_threshold(bad, scores[name])
        r = rows[3 * k + 2]
        assert (r["threshold"], r["tpr"], r["fpr"]) == (y.threshold, y.tpr, y.fpr)


def test_points_at_thresholds_and_tpr(scores_csv, capsys):
    bad, scores = scores_csv
    out = _json(capsys, ["points", "s.csv", "--label", "outcome", "--score", "m1", "--pos-label", "bad",
                         "--thresholds", "0.5,1", "--ci", "none", "--format", "json"])
    s = scores["m1"]
    for r, t in zip(out["rows"], (0.5, 1.0)):
        cut = s >= t
        assert r["tpr"] == np.sum(cut & bad) / bad.sum() and r["fpr"] == np.sum(cut & ~bad) / (~bad).sum()
        assert "tpr_low" not in r
    assert main(["points", "s.csv", "--label", "outcome", "--score", "m1", "--pos-label", "bad",
                 "--tpr", "0.9", "--ci", "none"]) == 0
    text = capsys.readouterr().out
    assert "tpr=0.9" in text and "positive label: 'bad' (n = 300, positives =" in text


@pytest.mark.parametrize("argv, fragment", [
    (["--fpr", "0.1", "--tpr", "0.5"], "give one of --fpr, --tpr, --thresholds"),
    (["--fpr", "x"], "--fpr takes comma-separated numbers"),
    (["--fpr", "1.5"], "fpr"),
    (["--resamples", "1"], "--resamples must be between 2"),
])
def test_points_bad_options_are_one_line(scores_csv, capsys, argv, fragment):
    code = main(["points", "s.csv", "--label", "outcome", "--score", "m1", "--pos-label", "bad", *argv])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("rankwise points: error:") and err.count("\n") == 1, err
    assert fragment in err


def test_points_text_labels_need_pos_label(scores_csv, capsys):
    assert main(["points", "s.csv", "--label", "outcome", "--score", "m1"]) == 1
    assert "--pos-label" in capsys.readouterr().err
