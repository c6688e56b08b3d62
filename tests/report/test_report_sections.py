"""The report's operating points and calibration: the numbers on the page are the
library's (rw.stats.operating_points, rw.optimal_threshold, rw.stats.calibration) and the
deployable cut at a false-positive rate is the literal one."""

import os

import numpy as np
import pytest
from hypothesis import given

pytest.importorskip("matplotlib")

import rankwise as rw  # noqa: E402
from _support.reference_report import cut_at_fpr as cut_literal  # noqa: E402
from _support.strategies import samples  # noqa: E402
from rankwise.report import cut_at_fpr, write_report  # noqa: E402
from rankwise.stats._results import fmt  # noqa: E402


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(11)
    n = 260
    y = rng.integers(0, 2, n)
    z = y + rng.normal(0, 1, n)
    scores = {"probability": 1.0 / (1.0 + np.exp(-z)), "raw": 0.6 * y + rng.normal(0, 1, n),
              "rounded probability": np.round(1.0 / (1.0 + np.exp(-0.5 * z)), 2)}
    return y, scores


@pytest.fixture(scope="module")
def written(data, tmp_path_factory):
    y, scores = data
    path = tmp_path_factory.mktemp("sections") / "report.html"
    out = write_report(path, title="sections", scores=scores, y_true=y, criteria=["auc", "average_precision"],
                       n_resamples=80, random_state=5, operating_fpr=(0.1, 0.02, 0.05))
    return out, path.read_text(encoding="utf-8")


RATES = (0.0, 0.1, 0.25, 1 / 3, 0.5, 0.99, 1.0)


@given(samples(max_n=20))
def test_cut_at_fpr_is_the_literal_cut(sample):
    y, s, _ = sample
    expected = [cut_literal(y, s, x) for x in RATES]
    assert cut_at_fpr(y, s, list(RATES)).tolist() == expected
    assert [cut_at_fpr(y, s, x) for x in RATES] == expected
    assert all(isinstance(cut_at_fpr(y, s, x), float) for x in RATES)


@pytest.mark.parametrize("bad", [-0.1, 1.5, [], [[0.1]], "a", float("nan")])
def test_cut_at_fpr_refuses_bad_rates(bad):
    with pytest.raises(ValueError, match="The 'fpr' parameter of cut_at_fpr must be a rate or rates in \\[0, 1\\]"):
        cut_at_fpr([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], bad)


def test_cut_at_fpr_checks_its_data():
    with pytest.raises(ValueError, match="pos_label"):
        cut_at_fpr(["a", "b"], [0.1, 0.2], 0.1)
    assert cut_at_fpr(["a", "b", "a"], [0.1, 0.2, 0.3], 0.5, pos_label="b") == 0.2


def test_operating_points_are_the_library_numbers(data, written):
    y, scores = data
    out, page = written
    for name, s in scores.items():
        o = out["operating_points"][name]
        fprs = [r["fpr"] for r in o["at_fpr"]]
        assert fprs == [0.02, 0.05, 0.1]  # sorted
        est = rw.stats.operating_points(y, s, fpr=fprs)
        ci = est.confidence_interval(0.95, n_resamples=80, random_state=5)
        for i, r in enumerate(o["at_fpr"]):
            assert (r["tpr"], r["precision"]) == (est.tpr[i], est.precision[i])
            # The intervals: stats.operating_points' own (pROC's ci.se), same seed and resamples.
            assert (r["tpr_low"], r["tpr_high"]) == (ci.tpr_low[i], ci.tpr_high[i])
            assert (r["precision_low"], r["precision_high"]) == (ci.precision_low[i], ci.precision_high[i])
            at = rw.operating_points(y, s, thresholds=r["cut"])
            assert r["cut"] == cut_literal(list(y == 1), list(s), r["fpr"])
            assert (r["cut_tpr"], r["cut_fpr"], r["cut_precision"]) == (at.tpr[0], at.fpr[0], at.precision[0])
            assert r["cut_fpr"] <= r["fpr"] + 1e-12
            assert f'data-value="{r["tpr"]!r}" data-low="{r["tpr_low"]!r}" data-high="{r["tpr_high"]!r}"' in page
        yd = rw.optimal_threshold(y, s)
        assert o["youden"] == {"threshold": yd.threshold, "tpr": yd.tpr, "fpr": yd.fpr, "precision": yd.precision,
                               "youden_index": yd.youden_index}
    assert "<th>TPR at FPR 2%<small>precision</small></th>" in page and "Youden&#x27;s cut" not in page
    assert "<th>Youden's cut<small>score &ge;</small></th>" in page


def test_calibration_only_for_scores_in_the_unit_interval(data, written):
    y, scores = data
    out, page = written
    cal = out["calibration"]
    assert list(cal) == [n for n in out["ranking"] if n != "raw"]
    for name, c in cal.items():
        s = rw.stats.calibration(y, scores[name], n_bins=10)
        b = s.brier_score.confidence_interval(0.95)
        e = s.calibration_error.confidence_interval(0.95, n_resamples=80, random_state=5)
        # The report shows rw.stats.calibration's numbers; rw.brier_score sums in another
        # order (1 ulp apart).
        assert c["brier"]["value"] == s.brier_score.value
        assert c["brier"]["value"] == pytest.approx(rw.brier_score(y, scores[name]), rel=1e-14)
        assert (c["brier"]["low"], c["brier"]["high"]) == (b.low, b.high)
        assert c["ece"]["value"] == s.calibration_error.value
        assert c["ece"]["value"] == pytest.approx(rw.expected_calibration_error(y, scores[name]), rel=1e-14)
        assert (c["ece"]["low"], c["ece"]["high"]) == (e.low, e.high)
        d = s.decomposition
        assert (c["reliability"], c["resolution"], c["uncertainty"]) == (d.reliability, d.resolution, d.uncertainty)
        assert f'{fmt(c["brier"]["value"])}<span class="ci">' in page
    assert "Only 2 of the 3 scorers give scores in [0, 1]" in page
    for key in ("calibration", "distributions"):
        assert open(out["paths"][key], "rb").read(8) == b"\x89PNG\r\n\x1a\n"


def test_no_probability_scores_no_calibration_and_stale_figures_go(data, tmp_path):
    y, scores = data
    path = tmp_path / "r.html"
    first = write_report(path, title="t", scores={"p": scores["probability"]}, y_true=y, n_resamples=20)
    assert sorted(os.listdir(tmp_path / "r_files")) == ["auc.png", "calibration.png", "det.png",
                                                      "distributions.png", "gain.png", "pr.png", "roc.png"]
    assert first["calibration"]["p"]["brier"]["value"] == pytest.approx(rw.brier_score(y, scores["probability"]),
                                                                        rel=1e-14)
    out = write_report(path, title="t", scores={"raw": scores["raw"]}, y_true=y, n_resamples=20, force=True)
    assert out["calibration"] == {} and "calibration" not in out["paths"]
    page = path.read_text(encoding="utf-8")
    assert 'id="calibration"' not in page and "Calibration" not in page
    # The forced run removed the figures of the earlier page that this one does not show.
    assert sorted(os.listdir(tmp_path / "r_files")) == ["auc.png", "det.png", "gain.png", "pr.png", "roc.png"]


@pytest.mark.parametrize("bad", [(), (0.0,), (0.1, 1.0), ("a",), "0.1", (float("nan"),)])
def test_operating_fpr_must_be_rates(data, tmp_path, bad):
    y, scores = data
    with pytest.raises(ValueError, match="'operating_fpr' must be false-positive rates in \\(0, 1\\)"):
        write_report(tmp_path / "r.html", title="t", scores=scores, y_true=y, operating_fpr=bad, n_resamples=20)
    assert os.listdir(tmp_path) == []
