"""The report on censored times (issue 30, item 4): ``write_report(..., time=, event=)`` gives
the header and the section on the concordance, whose numbers are rw.survival.estimate's and
compare's on the same rows; the section serves censored data only, so a page on binary
labels is byte for byte what it was without it; the AUC(t) part sits between the table of Cs
and their differences (its numbers: test_report_survival_times.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import rankwise as rw  # noqa: E402
from rankwise.report import PAGE, write_report  # noqa: E402
from rankwise.report._criteria import ComparisonNumbers  # noqa: E402
from rankwise.report._data import read_inputs  # noqa: E402
from rankwise.report._page import Page  # noqa: E402


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(31)
    n = 150
    x = rng.normal(size=n)
    t = rng.exponential(np.exp(-x))
    c = rng.exponential(1.5, n)
    time = np.round(np.minimum(t, c), 1)  # tied times
    event = t <= c
    scores = {"sharp": np.round(x + rng.normal(0, 0.5, n), 1), "vague": np.round(x + rng.normal(0, 1.5, n), 0),
              "noise": rng.normal(size=n)}
    return time, event, scores


def _page(path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_numbers_are_the_librarys(sample, tmp_path):
    time, event, scores = sample
    out = write_report(tmp_path / "r.html", title="s", scores=scores, time=time, event=event, tau=2.0)
    s = out["survival"]
    assert s["concordance"] == ["harrell", "uno"] and s["tau"] == 2.0 and s["n_events"] == int(event.sum())
    for name, r in scores.items():
        for w in ("harrell", "uno"):
            est = rw.survival.estimate(time, event, r, weighting=w, tau=2.0)
            ci = est.confidence_interval(0.95)
            got = s["estimates"][name][w]
            assert (got["value"], got["std_error"], got["low"], got["high"], got["comparable"]) == (
                est.value, est.std_error, ci.low, ci.high, est.comparable)
    harrell = {n: s["estimates"][n]["harrell"]["value"] for n in scores}
    assert s["order"] == sorted(harrell, key=lambda n: -harrell[n])
    for w in ("harrell", "uno"):
        ref = rw.survival.compare(time, event, scores, weighting=w, tau=2.0, adjust="holm")
        assert s["comparisons"][w] == ComparisonNumbers.of(ref).as_dict()
    assert (out["n"], out["n_events"], out["n_censored"], out["n_clusters"]) == (150, int(event.sum()),
                                                                                 150 - int(event.sum()), None)
    assert out["metadata"]["risk_scores"] == "higher risk = earlier event"
    assert s["time_dependent_auc"]["how"] == "auto"  # shown by default (test_report_survival_times.py)
    for binary in ("auc", "criteria", "operating_points", "calibration", "n_pos", "ranking"):
        assert binary not in out


def test_the_page_shows_the_section_and_the_direction(sample, tmp_path):
    time, event, scores = sample
    write_report(tmp_path / "r.html", title="s", scores=scores, time=time, event=event,
                 data={"name": "trial.csv", "time": "futime", "event": "status", "event_value": "2"})
    page = _page(tmp_path / "r.html")
    assert '<section id="survival">' in page and '<nav class="toc"><a href="#survival">Concordance</a></nav>' in page
    assert "time <code>futime</code>, event <code>status</code> = 2" in page
    k = int(event.sum())
    assert f"n = 150: {k} events, {150 - k} censored" in page
    assert "<b>higher risk = earlier event</b>" in page and "Higher risk score = earlier event, for every scorer" in page
    assert "more likely positive" not in page
    assert page.count("<h3>Differences: Harrell&#x27;s C</h3>") == 1 and "Differences: Uno&#x27;s C" in page
    est = rw.survival.estimate(time, event, scores["vague"], weighting="uno")
    assert f'data-value="{est.value!r}" data-low="{est.confidence_interval().low!r}"' in page
    assert os.listdir(tmp_path / "r_files") == ["auc_t.png"]
    assert "Figures also saved as PNG files in <code>r_files/</code>" in page


def test_strata_clusters_reference_and_one_c(sample, tmp_path):
    time, event, scores = sample
    strata = np.arange(150) % 3
    clusters = np.arange(150) // 5
    out = write_report(tmp_path / "r.html", title="s", scores=scores, time=time, event=event, strata=strata,
                       clusters=clusters, concordance="uno", reference="noise", confidence_level=0.9)
    s = out["survival"]
    assert s["concordance"] == ["uno"] and s["n_strata"] == 3 and out["n_clusters"] == 30
    est = rw.survival.estimate(time, event, scores["sharp"], weighting="uno", strata=strata, clusters=clusters)
    assert s["estimates"]["sharp"]["uno"]["std_error"] == est.std_error
    assert s["estimates"]["sharp"]["uno"]["low"] == est.confidence_interval(0.9).low
    ref = rw.survival.compare(time, event, scores, weighting="uno", strata=strata, clusters=clusters,
                              reference="noise", confidence_level=0.9)
    assert s["comparisons"]["uno"] == ComparisonNumbers.of(ref).as_dict()
    assert [(p["a"], p["b"]) for p in s["comparisons"]["uno"]["pairs"]] == [("sharp", "noise"), ("vague", "noise")]
    page = _page(tmp_path / "r.html")
    assert "Harrell" not in page.split('<section id="survival">')[1].split("</table>")[0]
    assert "taken over the 30 clusters" in page and "Pairs within strata only (3 strata)" in page


def test_one_scorer_has_no_differences(sample, tmp_path):
    time, event, scores = sample
    out = write_report(tmp_path / "r.html", title="s", scores={"sharp": scores["sharp"]}, time=time, event=event)
    assert out["survival"]["comparisons"] is None and "Differences" not in _page(tmp_path / "r.html")


@pytest.mark.parametrize("kw, error, match", [
    ({"y_true": [0, 1] * 75}, ValueError, "'y_true' is for binary labels"),
    ({"criteria": ["auc"]}, ValueError, "'criteria' is for binary labels"),
    ({"groups": np.arange(150) % 2}, ValueError, "'groups' is for binary labels"),
    ({"event": None}, ValueError, "'time' and 'event' go together"),
    ({"concordance": "gonen"}, ValueError, "'concordance' must be 'harrell', 'uno' or both"),
    ({"concordance": ["uno", "uno"]}, ValueError, "'concordance' must be"),
    ({"tau": "1"}, TypeError, "'tau' must be None or a time"),
    ({"tau": 99.0}, ValueError, "'tau' parameter of estimate must not exceed"),
    ({"scores": {"short": np.zeros(10)}}, ValueError, "the risk scores 'short' have 10 values; 'time' has 150"),
    ({"scores": {"nan": np.full(150, np.nan)}}, ValueError, "scores\\['nan'\\]"),
    ({"reference": "other"}, ValueError, "'reference' must be one of the scorer names"),
])
def test_bad_input_is_refused_and_nothing_is_written(sample, tmp_path, kw, error, match):
    time, event, scores = sample
    args = {**dict(title="s", scores=scores, time=time, event=event), **kw}
    with pytest.raises(error, match=match):
        write_report(tmp_path / "sub" / "r.html", **args)
    assert not (tmp_path / "sub").exists() or os.listdir(tmp_path / "sub") == []


def test_binary_arguments_of_the_censored_kind_are_refused(sample):
    time, event, scores = sample
    with pytest.raises(ValueError, match="'tau' goes with 'time' and 'event'"):
        read_inputs(title="t", scores={"a": np.arange(4.0)}, y_true=[0, 1, 0, 1], tau=1.0)
    with pytest.raises(TypeError, match="'y_true' is required"):
        read_inputs(title="t", scores={"a": np.arange(4.0)})


def test_sections_serve_their_kind(sample):
    time, event, scores = sample
    censored = read_inputs(title="t", scores=scores, time=time, event=event)
    assert censored.kind == "censored" and censored.n == 150 and censored.y01 is None
    assert list(PAGE.compute(censored)) == ["header", "survival"]
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 60)
    binary = read_inputs(title="t", scores={"s": y + rng.normal(size=60)}, y_true=y, n_resamples=10)
    assert binary.kind == "binary" and "survival" not in PAGE.compute(binary)


def _without_time(path) -> str:
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "T", path.read_text(encoding="utf-8"))


def test_a_binary_page_is_unchanged_by_the_section(tmp_path, monkeypatch):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 120)
    scores = {"raw": y + rng.normal(size=120), "prob": 1 / (1 + np.exp(-(y + rng.normal(size=120))))}
    kw = dict(title="t", scores=scores, y_true=y, criteria=["auc", "average_precision"], n_resamples=10,
              clusters=np.arange(120) // 3)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    now = write_report(tmp_path / "a" / "r.html", **kw)
    monkeypatch.setattr("rankwise.report.PAGE", Page([s for s in PAGE.sections if s.key != "survival"]))
    before = write_report(tmp_path / "b" / "r.html", **kw)
    assert _without_time(tmp_path / "a" / "r.html") == _without_time(tmp_path / "b" / "r.html")
    assert sorted(os.listdir(tmp_path / "a" / "r_files")) == sorted(os.listdir(tmp_path / "b" / "r_files"))
    for f in os.listdir(tmp_path / "a" / "r_files"):
        assert (tmp_path / "a" / "r_files" / f).read_bytes() == (tmp_path / "b" / "r_files" / f).read_bytes()
    for out in (now, before):
        del out["metadata"]["generated"], out["paths"]
    assert repr(now) == repr(before) and "survival" not in now


def test_the_auc_curves_sit_between_the_cs_and_their_differences(sample, tmp_path):
    time, event, scores = sample
    write_report(tmp_path / "r.html", title="s", scores=scores, time=time, event=event)
    body = _page(tmp_path / "r.html").split('<section id="survival">')[1]
    assert body.index("</table>") < body.index("<h3>Time-dependent AUC(t)</h3>") < body.index(
        "<h3>Differences: AUC(t)</h3>") < body.index("<h3>Differences: Harrell")


def test_computing_the_section_draws_nothing():
    code = ("import sys; import numpy as np; from rankwise.report._survival import SurvivalSection; "
            "from rankwise.report._data import read_inputs; rng = np.random.default_rng(0); "
            "t = rng.exponential(size=60); e = rng.random(60) < 0.7; "
            "d = read_inputs(title='t', scores={'a': rng.normal(size=60), 'b': -t}, time=t, event=e); "
            "r = SurvivalSection().compute(d, {}); assert r.order == ('b', 'a'), r.order; "
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)
