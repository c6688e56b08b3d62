"""The demo's comparison against the reference learner: the p-values are adjusted over the
comparisons it shows (each learner against the logistic regression), and it says so."""

import numpy as np
import pytest

import rankwise as rw
from rankwise.cli._demo import format_table

REF = "LogisticRegression (scikit-learn)"


@pytest.mark.slow
@pytest.mark.xdist_group("demo")
def test_demo_adjusts_over_the_comparisons_it_shows(demo_quick):
    pytest.importorskip("matplotlib")
    # run_demo(folder, quick=True), run once for the suite (tests/conftest.py)
    result, tmp_path = demo_quick.result, demo_quick.folder
    versus = result["versus_reference"]
    K = len(result["learners"])
    assert len(versus) == K - 1 and REF not in [v["learner"] for v in versus]
    assert result["versus_reference_family"] == f"each against {REF!r} ({K - 1})"
    # Holm over the K - 1 shown comparisons (not over the K(K-1)/2 pairs).
    raw = np.array([v["p_value"] for v in versus])
    np.testing.assert_allclose([v["p_holm"] for v in versus], rw.stats.adjust_p_values(raw, "holm"), rtol=1e-15)
    # Each difference is the learner's AUC minus the reference's.
    ref_auc = result["learners"][REF]["criteria"]["auc"]["value"]
    for v in versus:
        auc = result["learners"][v["learner"]]["criteria"]["auc"]["value"]
        assert v["auc_minus_reference"] == pytest.approx(auc - ref_auc, abs=1e-12)
    text = format_table(result)
    assert f"against the logistic regression (Holm-adjusted p over each against {REF!r} ({K - 1})):" in text
    assert (tmp_path / "demo.txt").read_text() == text
