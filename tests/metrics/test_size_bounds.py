"""Size parameters that allocate are bounded (issue 27): beyond the documented bound they
are refused with a one-line ValueError naming the parameter, the bound and the value,
before anything is allocated. Run in a child process with an address-space limit, so that
a regression (allocating 10^9 bins) fails the test instead of exhausting the machine."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import rankwise as rw

Y, P = [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]

CALLS = {
    "calibration_curve": lambda n: rw.metrics.calibration_curve(Y, P, n_bins=n),
    "expected_calibration_error": lambda n: rw.metrics.expected_calibration_error(Y, P, n_bins=n),
    "calibration": lambda n: rw.stats.calibration(Y, P, n_bins=n),
    "brier_decomposition": lambda n: rw.stats.brier_decomposition(Y, P, n_bins=n),
}


@pytest.mark.parametrize("func", sorted(CALLS))
def test_n_bins_beyond_the_bound_is_refused(func):
    with pytest.raises(ValueError, match=rf"The 'n_bins' parameter of {func} must be at most 1000000 \(empty bins "
                                         r"cost memory whatever the sample\). Got 1000000000 instead."):
        CALLS[func](10 ** 9)


@pytest.mark.parametrize("func", sorted(CALLS))
def test_n_bins_at_the_bound_and_above_the_rows_still_works(func):
    CALLS[func](50)  # more bins than rows: empty bins, as scikit-learn
    CALLS[func](1_000_000)


def test_n_resamples_beyond_the_bound_is_refused():
    est = rw.stats.estimate([0, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.9, 0.2], "auc")
    op = rw.stats.operating_points([0, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.9, 0.2], fpr=0.5)
    with pytest.raises(ValueError, match=r"'n_resamples' parameter of confidence_interval must be an integer in "
                                         r"\[2, 1000000\]. Got 10000000000 instead"):
        op.confidence_interval(n_resamples=10 ** 10)
    assert est.value > 0


def test_huge_n_bins_does_not_allocate_in_a_limited_child():
    code = textwrap.dedent("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))
        import rankwise as rw
        for f in (rw.metrics.calibration_curve, rw.stats.calibration, rw.stats.brier_decomposition):
            try:
                f([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], n_bins=10 ** 9)
            except ValueError as exc:
                assert "n_bins" in str(exc)
            else:
                raise SystemExit("accepted")
        print("refused")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "refused" in out.stdout, out.stderr[-2000:]


def test_score_distributions_bins_beyond_the_bound_is_refused():
    with pytest.raises(ValueError, match=r"The 'bins' parameter of score_distributions must be an integer in "
                                         r"\[1, 1000000\]. Got 1000000000 instead."):
        rw.metrics.score_distributions(Y, P, bins=10 ** 9)
    rw.metrics.score_distributions(Y, P, bins=1000)


def test_resamples_times_points_is_bounded():
    y, s = [0, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.9, 0.2]
    with pytest.raises(ValueError, match=r"n_resamples x points = 2000 x 1000000 values, more than 5e\+07"):
        rw.stats.roc_band(y, s, fpr=np.linspace(0, 1, 10 ** 6))
    with pytest.raises(ValueError, match=r"n_resamples x points = 1000 x 100000 values"):
        rw.stats.operating_points(y, s, thresholds=np.linspace(0, 1, 10 ** 5)).confidence_interval(n_resamples=1000)
    with pytest.raises(ValueError, match=r"'n_resamples' parameter of roc_band must be an integer in \[2, 1000000\]"):
        rw.stats.roc_band(y, s, n_resamples=10 ** 10)
    with pytest.raises(ValueError, match=r"'n_resamples' parameter of bootstrap_distribution must be an integer in "
                                         r"\[2, 1000000\]"):
        rw.stats.estimate(y, s, "auc").confidence_interval(method="bootstrap", n_resamples=10 ** 10)
    assert rw.stats.roc_band(y, s, n_resamples=50, random_state=0).n_resamples == 50
