"""``rankwise compare --reference/--alternative/--adjust bh``: the library's many-to-one
comparisons, one-sided tests and Benjamini-Hochberg adjustment from the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

import rankwise as rw
from rankwise.cli import main


@pytest.fixture
def three_scores(tmp_path):
    rng = np.random.default_rng(5)
    n = 300
    y = rng.random(n) < 0.4
    a, b, c = (rng.normal(size=n) + k * y for k in (1.0, 0.7, 0.4))
    p = tmp_path / "s.csv"
    rows = ["y,a,b,c"] + [f"{int(t)},{float(u)!r},{float(v)!r},{float(w)!r}" for t, u, v, w in zip(y, a, b, c)]
    p.write_text("\n".join(rows) + "\n")
    return p, y, {"a": a, "b": b, "c": c}


@pytest.mark.parametrize("extra, kw", [
    (["--reference", "a"], dict(reference="a")),
    (["--reference", "c", "--alternative", "greater", "--adjust", "bh"],
     dict(reference="c", alternative="greater", adjust="bh")),
    (["--adjust", "bh", "--alternative", "less"], dict(adjust="bh", alternative="less")),
])
def test_compare_options_equal_the_library(three_scores, capsys, extra, kw):
    path, y, scores = three_scores
    args = ["compare", str(path), "--label", "y", "--score", "a", "--score", "b", "--score", "c", "--format", "json"]
    assert main(args + extra) == 0
    doc = json.loads(capsys.readouterr().out)
    want = rw.stats.compare(y, scores, "auc", **kw)
    assert doc["family"] == want.family and doc["reference"] == want.reference
    assert doc["alternative"] == want.alternative and doc["adjust"] == want.adjust
    assert [(p["a"], p["b"]) for p in doc["pairs"]] == [(p.a, p.b) for p in want.pairs]
    for got, p in zip(doc["pairs"], want.pairs):
        assert got["p_value"] == pytest.approx(p.p_value, rel=1e-12)
        assert got["p_adjusted"] == pytest.approx(p.p_adjusted, rel=1e-12)


def test_unknown_reference_is_one_line(three_scores, capsys):
    path, _, _ = three_scores
    assert main(["compare", str(path), "--label", "y", "--score", "a", "--score", "b", "--reference", "z"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--reference 'z'" in err
