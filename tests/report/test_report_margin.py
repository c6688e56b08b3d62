"""The report's tests against the reference with another alternative: ``write_report(...,
alternative="noninferiority"|"equivalence", margin=d)`` (and ``report --alternative
--margin``): the overview's differences are rw.stats.compare's with the same alternative
and margin, the page states the margin and the hypotheses in words, bad arguments are
refused before any work, and a page without them is what it was."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import rankwise as rw  # noqa: E402
from _support.cli import run_cli  # noqa: E402
from rankwise.report import write_report  # noqa: E402


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(33)
    n = 240
    y = rng.integers(0, 2, n)
    scores = {"new": y + rng.normal(size=n), "old": y + 1.1 * rng.normal(size=n), "other": 0.5 * y + rng.normal(size=n)}
    return y, scores


def _text(path) -> str:
    with open(path, encoding="utf-8") as f:
        return html.unescape(re.sub(r"<[^>]+>", "", f.read()))


def _write(tmp_path, sample, name, **kw):
    y, scores = sample
    path = str(tmp_path / f"{name}.html")
    out = write_report(path, title="t", scores=scores, y_true=y, reference="old", n_resamples=20, auc_plot=False,
                       operating_fpr=(0.1,), **kw)
    return out, _text(path)


@pytest.mark.parametrize("alternative, margin", [("noninferiority", 0.05), ("equivalence", 0.04),
                                                 ("greater", None), ("less", None)])
def test_versus_is_compare_with_the_alternative(tmp_path, sample, alternative, margin):
    y, scores = sample
    out, text = _write(tmp_path, sample, alternative, alternative=alternative, margin=margin)
    v = out["versus_reference"]
    want = rw.stats.compare(y, scores, "auc", reference="old", adjust="holm", alternative=alternative, margin=margin)
    assert v["alternative"] == alternative
    assert v.get("margin") == margin
    assert [(p["a"], p["b"]) for p in v["pairs"]] == [(p.a, p.b) for p in want.pairs]
    for got, p in zip(v["pairs"], want.pairs):
        for key in ("difference", "std_error", "statistic", "p_value", "p_adjusted", "low", "high"):
            assert got[key] == pytest.approx(getattr(p, key), rel=1e-12, abs=0)
    # The table of all pairs stays two-sided.
    assert "alternative" not in out["comparison"]
    if margin is not None:
        d = f"{margin:g}"
        assert f"margin {d}" in text
        if alternative == "noninferiority":
            assert f"H0: the scorer is worse than old by {d} or more" in text
            assert "one-sided 95% interval" in text
        else:
            assert f"H0: |difference| >= {d}" in text and "two-sided 90% interval" in text
            assert "Schuirmann 1987" in text
    else:
        assert "one-sided, H1: a scorer's value is" in text


def test_default_page_says_nothing_of_margins(tmp_path, sample):
    out, text = _write(tmp_path, sample, "plain")
    assert "alternative" not in out["versus_reference"] and "margin" not in out["versus_reference"]
    assert "with margin" not in text and "margin 0" not in text
    assert "non-inferiority" not in text and "one-sided" not in text and "equivalence" not in text


def test_command_names_the_alternative(tmp_path, sample):
    out, _ = _write(tmp_path, sample, "cmd", alternative="noninferiority", margin=0.05)
    assert "alternative='noninferiority', margin=0.05" in out["metadata"]["command"]


@pytest.mark.parametrize("kw, word", [
    (dict(alternative="noninferiority"), "margin"),
    (dict(alternative="equivalence", margin=0.0), "margin"),
    (dict(alternative="equivalence", margin=float("nan")), "margin"),
    (dict(alternative="noninferiority", margin=-0.1), "margin"),
    (dict(margin=0.05), "margin"),
    (dict(alternative="better"), "alternative"),
])
def test_bad_arguments_refused_before_any_work(tmp_path, sample, kw, word):
    y, scores = sample
    path = tmp_path / "bad.html"
    with pytest.raises(ValueError, match=word):
        write_report(str(path), title="t", scores=scores, y_true=y, **kw)
    assert not path.exists()


def test_margin_type_refused(tmp_path, sample):
    y, scores = sample
    with pytest.raises(TypeError, match="margin"):
        write_report(str(tmp_path / "bad.html"), title="t", scores=scores, y_true=y, alternative="equivalence",
                     margin="0.05")


def test_not_with_censored_times(tmp_path):
    rng = np.random.default_rng(0)
    t = rng.exponential(size=50)
    with pytest.raises(ValueError, match="binary labels"):
        write_report(str(tmp_path / "s.html"), title="t", scores={"a": rng.normal(size=50)}, time=t,
                     event=np.ones(50, bool), alternative="noninferiority", margin=0.05)


@pytest.fixture
def csv_file(tmp_path, sample):
    y, scores = sample
    p = tmp_path / "s.csv"
    rows = ["id,outcome,new,old"] + [f"u{i},{'yes' if t else 'no'},{a!r},{b!r}"
                                     for i, (t, a, b) in enumerate(zip(y.tolist(), scores["new"].tolist(), scores["old"].tolist()))]
    p.write_text("\n".join(rows) + "\n")
    return str(p)


def test_cli_report_margin(tmp_path, csv_file, capsys):
    out = str(tmp_path / "r.html")
    base = ["report", csv_file, "--label", "outcome", "--pos-label", "yes", "--score", "new", "--score", "old",
            "--reference", "old", "--resamples", "20", "--out", out, "--quiet"]
    rc, _, err = run_cli(capsys, base + ["--alternative", "noninferiority", "--margin", "0.05"])
    assert rc == 0, err
    text = _text(out)
    assert "non-inferiority with margin 0.05" in text and "--margin 0.05" in text
    rc, _, err = run_cli(capsys, base + ["--alternative", "equivalence", "--force"])
    assert rc == 2 and "needs --margin" in err and err.count("\n") == 1
    rc, _, err = run_cli(capsys, base + ["--margin", "0.05", "--force"])
    assert rc == 2 and "--margin is only for" in err


def test_cli_report_alternative_refused_with_times(tmp_path, capsys):
    p = tmp_path / "t.csv"
    p.write_text("time,status,risk\n1,1,0.2\n2,0,0.5\n3,1,0.1\n4,1,0.9\n")
    rc, _, err = run_cli(capsys, ["report", str(p), "--time", "time", "--event", "status", "--score", "risk",
                                  "--alternative", "greater", "--out", str(tmp_path / "t.html")])
    assert rc == 2 and "binary labels" in err


# --- compare_method="bootstrap" and curve_test=True -----------------------------------------

def test_bootstrap_versus_is_compare_bootstrap(tmp_path, sample):
    y, scores = sample
    out, text = _write(tmp_path, sample, "boot", compare_method="bootstrap", random_state=5)
    v = out["versus_reference"]
    want = rw.stats.compare(y, scores, "auc", reference="old", adjust="holm", method="bootstrap", n_resamples=20,
                            random_state=5)
    assert v["method"] == "bootstrap"
    for got, p in zip(v["pairs"], want.pairs):
        for key in ("difference", "std_error", "statistic", "p_value", "low", "high"):
            assert got[key] == pytest.approx(getattr(p, key), rel=1e-12, abs=1e-15)
    assert "20 resamples, statistic = difference / bootstrap SD" in text
    assert "compare_method='bootstrap'" in out["metadata"]["command"]


def test_bootstrap_compares_the_ks_statistic(tmp_path, sample):
    y, scores = sample
    out, _ = _write(tmp_path, sample, "ks", criteria=["ks_statistic", "auc"], compare_method="bootstrap")
    v = out["versus_reference"]
    assert v["spec"] == "ks_statistic" and v["criterion"] == "ks_statistic"
    out, _ = _write(tmp_path, sample, "ks2", criteria=["ks_statistic", "auc"])
    assert out["versus_reference"]["spec"] == "auc"  # no analytic variance: the AUC, as before


def test_curve_tests_section(tmp_path, sample):
    y, scores = sample
    out, text = _write(tmp_path, sample, "curves", curve_test=True, random_state=3)
    rows = out["curve_tests"]
    assert [(r["scorer"], r["reference"]) for r in rows] == [("new", "old"), ("other", "old")]
    for r in rows:
        t = rw.stats.curve_test(y, scores[r["scorer"]], scores["old"], n_permutations=20, random_state=3)
        assert (r["statistic"], r["p_value"], r["n_permutations"]) == (t.statistic, t.p_value, 20)
    assert "Curve tests" in text and "It is not a test of the AUCs" in text
    plain, _ = _write(tmp_path, sample, "nocurves")
    assert "curve_tests" not in plain


@pytest.mark.parametrize("kw, exc", [(dict(compare_method="delong"), ValueError),
                                     (dict(curve_test="yes"), TypeError)])
def test_bad_test_options(tmp_path, sample, kw, exc):
    y, scores = sample
    with pytest.raises(exc, match=next(iter(kw))):
        write_report(str(tmp_path / "bad.html"), title="t", scores=scores, y_true=y, **kw)


def test_cli_report_bootstrap_and_curve_test(tmp_path, csv_file, capsys):
    out = str(tmp_path / "r.html")
    rc, _, err = run_cli(capsys, ["report", csv_file, "--label", "outcome", "--pos-label", "yes", "--score", "new",
                                  "--score", "old", "--compare-method", "bootstrap", "--curve-test",
                                  "--resamples", "20", "--out", out, "--quiet"])
    assert rc == 0, err
    text = _text(out)
    assert "Curve tests" in text and "bootstrap SD" in text
    p = tmp_path / "t.csv"
    p.write_text("time,status,risk\n1,1,0.2\n2,0,0.5\n3,1,0.1\n4,1,0.9\n")
    rc, _, err = run_cli(capsys, ["report", str(p), "--time", "time", "--event", "status", "--score", "risk",
                                  "--curve-test", "--out", str(tmp_path / "t.html")])
    assert rc == 2 and "binary labels" in err
