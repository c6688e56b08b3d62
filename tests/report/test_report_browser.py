"""The written report in a real headless browser at a 1,400-pixel window: no horizontal
scrolling (sections collapsed and opened), every image loads, no console errors, and the
overview table shows exactly the library's numbers (read from the DOM, compared with
``rw.evaluate``, ``rw.stats.estimate`` and ``rw.stats.compare`` computed here). A
screenshot goes to $RANKWISE_ARTIFACTS (default ``out/ci-artifacts/``) for a human to
look at.

Needs Chromium (Debian: ``apt-get install -y chromium``); skipped without it. Driven
with the standard library only (DevTools protocol over a pipe, see browser_check.py).
"""

import os
import pathlib

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import rankwise as rw  # noqa: E402
from browser_check import find_chromium, inspect_page  # noqa: E402
from rankwise import criteria as rw_criteria  # noqa: E402
from rankwise.report import write_report  # noqa: E402
from rankwise.stats._results import fmt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
WIDTH = 1400

# One xdist worker for the module (`--dist loadgroup`): its module fixture writes the
# screenshot to one shared path after removing the old one, so two workers running it at
# once removed each other's file (a FileNotFoundError seen once in a clean-clone run).
pytestmark = [pytest.mark.skipif(find_chromium() is None,
                                 reason="chromium is not installed (Debian: apt-get install -y chromium)"),
              pytest.mark.xdist_group("browser")]

CRITERIA = ["auc", "gini", "ks_statistic", "partial_auc:max_fpr=0.1,standardize=mcclish", "local_auc:top=0.1",
            "pnorm_push:p=4", "ndcg:k=100"]
REFERENCE = "logistic regression (baseline)"


def _artifacts() -> pathlib.Path:
    folder = pathlib.Path(os.environ.get("RANKWISE_ARTIFACTS") or ROOT / "out" / "ci-artifacts")
    return folder if folder.is_absolute() else ROOT / folder


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    rng = np.random.default_rng(0)
    n = 300
    y = rng.integers(0, 2, n)
    # Nine scorers, long names among them, one with ties, a reference in the middle.
    scores = {
        "model": y + rng.normal(0, 1, n),
        "baseline <b>": 0.5 * y + rng.normal(0, 1, n),
        REFERENCE: 0.8 * y + rng.normal(0, 1, n),
        "noise": rng.normal(0, 1, n),
        "RankStatisticRanker (p-norm push, p=4) with a long name": 0.9 * y + rng.normal(0, 1.2, n),
        "rounded": np.round(0.7 * y + rng.normal(0, 1, n), 1),
        "$\\frac{a$": 0.3 * y + rng.normal(0, 1, n),
        "PairwiseRanker (squared hinge)": 0.6 * y + rng.normal(0, 1, n),
        "KernelRanker (rbf, Nystrom 500)": 1.1 * y + rng.normal(0, 1, n),
    }
    path = tmp_path_factory.mktemp("browser") / "report.html"
    out = write_report(path, title="rankwise report <browser check>", scores=scores, y_true=y, criteria=CRITERIA,
                       notes=["data: synthetic, seed 0"], n_resamples=60, reference=REFERENCE,
                       learners=[{"name": "model", "params": {"n_rounds": 50}, "fit_seconds": 0.5}])
    shot = _artifacts() / "report_screenshot.png"
    if shot.exists():
        shot.unlink()
    page = inspect_page(out["paths"]["html"], str(shot), width=WIDTH, height=1600)
    return y, scores, out, page, shot


def test_no_errors_no_script_every_image_loads(rendered):
    _, scores, out, page, shot = rendered
    assert page["errors"] == []
    assert page["scripts"] == 0
    assert page["title"] == "rankwise report <browser check>"
    # ROC, PR, gain, DET, the AUC forest, and one ROC with bands per scorer.
    assert len(page["images"]) == 5 + len(scores)
    for img in page["images"]:
        assert img["complete"] and img["naturalWidth"] > 0 and img["naturalHeight"] > 0, img
    assert shot.read_bytes()[:8] == PNG_MAGIC


def test_fits_a_1400_pixel_window(rendered):
    _, scores, _, page, _ = rendered
    assert page["closed"]["innerWidth"] == WIDTH
    for state in ("closed", "opened"):
        # no horizontal scrolling: the content is no wider than the viewport less its scrollbar
        assert page[state]["scrollWidth"] <= page[state]["clientWidth"] <= WIDTH, (state, page[state])
    assert page["details"] == len(scores) + 2  # each scorer, all pairs, learners


def test_overview_shows_the_library_numbers(rendered):
    y, scores, out, page, _ = rendered
    table = next(t for t in page["tables"] if t["cls"] == "overview")
    header, rows, data, classes = table["rows"][0], table["rows"][1:], table["data"][1:], table["classes"][1:]
    labels = [rw_criteria.get(spec).describe() for spec in CRITERIA]
    assert [h.split("\n")[0] for h in header] == ["#", "scorer", *labels, "\u0394 AUC", "p"]
    assert header[2] == "AUC\nranked by" and header[7] == "p-norm push, p = 4\nlower is better"
    assert header[-2] == f"\u0394 AUC\nvs {REFERENCE}" and header[-1] == "p\nHolm"

    aucs = {name: rw.auc(y, s) for name, s in scores.items()}
    order = sorted(scores, key=lambda name: -aucs[name])
    assert [r[1] for r in rows] == order and [r[0] for r in rows] == [str(i) for i in range(1, len(order) + 1)]

    comp = rw.stats.compare(y, scores, "auc", reference=REFERENCE, adjust="holm")
    by_name = {p.a: p for p in comp.pairs}
    for row, cells, cls in zip(rows, data, classes):
        name = row[1]
        values = rw.evaluate(y, scores[name], CRITERIA)
        for j, spec in enumerate(CRITERIA, start=2):
            est = rw.stats.estimate(y, scores[name], spec)
            ci = est.confidence_interval(0.95, n_resamples=60, random_state=0)
            assert float(cells[j]["value"]) == est.value == values[spec]
            assert (float(cells[j]["low"]), float(cells[j]["high"])) == (ci.low, ci.high)
            assert row[j] == f"{fmt(est.value)}\n[{fmt(ci.low)}, {fmt(ci.high)}]"
            column = [rw.evaluate(y, s, [spec])[spec] for s in scores.values()]
            best = max(column) if rw_criteria.get(spec).greater_is_better else min(column)
            assert ("best" in cls[j].split()) == (est.value == best), (name, spec)
        if name == REFERENCE:
            assert row[-2:] == ["reference", "\u2013"]
        else:
            p = by_name[name]
            assert float(cells[-2]["value"]) == p.difference and float(cells[-1]["value"]) == p.p_adjusted
            assert (float(cells[-2]["low"]), float(cells[-2]["high"])) == (p.low, p.high)
            assert row[-2] == f"{p.difference:+.4f}\n[{p.low:+.4f}, {p.high:+.4f}]"
    assert comp.family == f"each against {REFERENCE!r} ({len(scores) - 1})"
    assert out["ranking"] == order


def test_every_scorer_has_its_details(rendered):
    _, scores, out, page, _ = rendered
    tables = [t for t in page["tables"] if t["cls"] == "scorer-criteria"]
    assert len(tables) == len(scores)
    for name, t in zip(out["ranking"], tables):
        assert [r[1] for r in t["rows"][1:]] == [fmt(out["criteria"][name][spec]["value"]) for spec in CRITERIA]


def test_operating_points_show_the_library_numbers(rendered):
    y, scores, out, page, _ = rendered
    table = next(t for t in page["tables"] if t["cls"] == "operating")
    rows, data = table["rows"][1:], table["data"][1:]
    assert [r[1] for r in rows] == out["ranking"]
    for row, cells in zip(rows, data):
        s = scores[row[1]]
        op = rw.operating_points(y, s, fpr=[0.01, 0.05, 0.1])
        for j in range(3):
            assert float(cells[2 + j]["value"]) == op.tpr[j] and float(cells[2 + j]["precision"]) == op.precision[j]
            assert row[2 + j].split("\n")[0] == fmt(op.tpr[j])
        yd = rw.optimal_threshold(y, s)
        assert [float(c["value"]) for c in cells[5:9]] == [yd.threshold, yd.tpr, yd.fpr, yd.precision]


def test_the_demo_report_passes_at_1400_pixels(tmp_path):
    """`make demo`'s page (on the quick subsample): the overview compares every learner with
    the logistic regression, fits the window, loads every image, and shows demo.json's
    numbers."""
    import json

    pytest.importorskip("sklearn")
    from rankwise.cli._demo import run_demo

    result = run_demo(str(tmp_path), quick=True)
    page = inspect_page(tmp_path / "report.html", width=WIDTH, height=1600)
    assert page["errors"] == [] and page["scripts"] == 0
    for state in ("closed", "opened"):
        assert page[state]["scrollWidth"] <= page[state]["clientWidth"] <= WIDTH, (state, page[state])
    assert page["images"] and all(i["complete"] and i["naturalWidth"] > 0 for i in page["images"])
    saved = json.loads((tmp_path / "demo.json").read_text())
    table = next(t for t in page["tables"] if t["cls"] == "overview")
    rows, data = table["rows"][1:], table["data"][1:]
    assert len(rows) == len(saved["learners"]) == 15
    ref = "LogisticRegression (scikit-learn)"
    assert table["rows"][0][-2] == f"\u0394 AUC\nvs {ref}"
    versus = {v["learner"]: v for v in saved["versus_reference"]}
    for row, cells in zip(rows, data):
        assert float(cells[2]["value"]) == saved["learners"][row[1]]["criteria"]["auc"]["value"]
        if row[1] == ref:
            assert row[-2] == "reference"
        else:
            assert float(cells[-2]["value"]) == versus[row[1]]["auc_minus_reference"]
            assert float(cells[-1]["value"]) == versus[row[1]]["p_holm"]
    # The probabilistic models (the logistic regression, the proper-loss rankers) are
    # checked for calibration.
    cal = next(t for t in page["tables"] if t["cls"] == "calibration")
    assert sorted(r[0] for r in cal["rows"][1:]) == sorted(
        [ref, "ProperLossRanker (logistic)", "ProperLossRanker (exponential)"])
    assert result["report"] == str(tmp_path / "report.html")
