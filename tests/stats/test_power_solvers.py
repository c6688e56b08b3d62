"""The solvers of ``auc_study`` (issue 27): each one returns a value inside its parameter's
range (a size in (0, inf), a level in [0, 1), a power in [0, 1], an AUC in (null, 1)) that
solves the design, or a ValueError saying that no value exists and why."""

import itertools
import math

import numpy as np
import pytest

import rankwise as rw

study = rw.stats.auc_study


def _power_of(st):
    """The power of a solved design, recomputed by solving the same design for the power."""
    return study(st.auc, n_positive=st.n_positive, kappa=st.kappa, alpha=st.alpha, power=None,
                 alternative=st.alternative, null_auc=st.null_auc).power


def test_alpha_of_a_sample_too_small_for_the_power_is_refused():
    # The example of the issue: pROC and rankwise gave a "level" of 1.68 here.
    with pytest.raises(ValueError, match="No significance level in \\(0, 1\\) gives power 0.9"):
        study(0.6, n_positive=5, alpha=None, power=0.9)
    with pytest.raises(ValueError, match="too small"):
        study(0.55, n_positive=1, alpha=None, power=0.999)


def test_alpha_of_a_large_sample_is_a_level():
    st = study(0.99, n_positive=1e6, alpha=None, power=0.8)
    assert 0.0 <= st.alpha < 1.0  # below the smallest double: reported as 0
    st = study(0.6, n_positive=100, alpha=None, power=0.8)
    assert 0.0 < st.alpha < 1.0
    assert _power_of(st) == pytest.approx(0.8, rel=1e-9)


def test_size_for_a_power_the_level_already_gives_is_refused():
    # One-sided at level 0.9 the test has power >= 0.9 with no data: no size gives 0.2.
    with pytest.raises(ValueError, match="No sample size gives power 0.2"):
        study(0.6, n_positive=None, alpha=0.9, power=0.2, alternative="one-sided")
    # Below the level: the square of the equation would give a positive size anyway.
    with pytest.raises(ValueError, match="No sample size"):
        study(0.7, n_positive=None, alpha=0.3, power=0.1, alternative="one-sided")


def test_detectable_auc_for_a_power_the_level_already_gives_is_refused():
    with pytest.raises(ValueError, match="at any AUC above the null"):
        study(None, n_positive=10, alpha=0.9, power=0.2, alternative="one-sided")
    with pytest.raises(ValueError, match="every AUC above 0.5"):
        study(None, n_positive=1e300, power=0.8)
    with pytest.raises(ValueError, match="more positives are needed"):
        study(None, n_positive=1e-300, power=0.8)


@pytest.mark.parametrize("auc", [0.5 + 1e-9, 0.51, 0.7, 0.95, 1 - 1e-12])
@pytest.mark.parametrize("alternative", ["two-sided", "one-sided"])
def test_every_solver_stays_in_range_or_refuses(auc, alternative):
    for n, alpha, power in itertools.product([1e-6, 1.0, 30.0, 1e8], [1e-8, 0.05, 0.6, 0.99],
                                             [1e-6, 0.2, 0.8, 1 - 1e-9]):
        for solve in ("alpha", "power", "n", "auc"):
            kw = dict(auc=auc, n_positive=n, alpha=alpha, power=power, alternative=alternative)
            kw["n_positive" if solve == "n" else solve] = None
            if solve == "auc" and n > 1e7:
                continue
            try:
                st = study(**kw)
            except ValueError as exc:
                assert str(exc).startswith("No "), str(exc)
                continue
            assert 0.0 < st.n_positive < math.inf
            assert 0.0 <= st.alpha < 1.0
            assert 0.0 <= st.power <= 1.0
            assert st.null_auc < st.auc < 1.0
            if solve != "power" and st.alpha > 1e-300 and 1e-6 < st.power < 1 - 1e-6:
                assert _power_of(st) == pytest.approx(power, rel=1e-4, abs=1e-9), kw


def test_pilot_alpha_too_small_for_the_power_is_refused():
    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 3)
    s = y + rng.normal(0, 2, 6)
    with pytest.raises(ValueError, match="No significance level"):
        rw.stats.auc_study_from_pilot(y, s, alpha=None, power=0.99)


def test_pilot_size_for_a_power_below_the_level_is_refused():
    y = np.array([0, 1] * 10)
    s = np.arange(20.0) * 0.01 + y * 0.05
    with pytest.raises(ValueError, match="No sample size"):
        rw.stats.auc_study_from_pilot(y, s, alpha=0.8, power=0.1, alternative="one-sided")


def test_negatives_beyond_float_range_are_refused():
    with pytest.raises(ValueError, match="No number of negatives in \\(0, inf\\): kappa \\* n_positive"):
        study(0.7, n_positive=1e300, kappa=1e300, alpha=0.05, power=None)
    with pytest.raises(ValueError, match="underflows"):
        study(0.7, n_positive=1e-300, kappa=1e-300, alpha=0.05, power=None)


def test_random_designs_stay_in_range_or_refuse():
    rng = np.random.default_rng(3)
    grid = dict(auc=[1e-9, 0.3, 0.500001, 0.7, 1 - 1e-15], null_auc=[1e-9, 0.5, 0.9, 1 - 1e-12],
                n_positive=[1e-300, 1.0, 1e6, 1e300], alpha=[1e-300, 0.05, 0.99, 1 - 1e-16],
                power=[1e-300, 0.01, 0.8, 1 - 1e-16], kappa=[1e-300, 1.0, 1e300], auc2=[None, None, 0.6, 0.99],
                rho=[-1.0, 0.0, 1.0], b=[1e-3, 1.0, 1e3])
    with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("ignore")
        for _ in range(600):
            kw = {k: v[rng.integers(len(v))] for k, v in grid.items()}
            kw["rho_positive"] = kw["rho_negative"] = kw.pop("rho")
            solve = ["auc", "n_positive", "alpha", "power"][rng.integers(4)]
            if solve == "auc":
                kw["auc2"] = None
            kw[solve] = None
            kw["alternative"] = ["two-sided", "one-sided"][rng.integers(2)]
            try:
                st = study(**kw)
            except ValueError:
                continue
            assert 0.0 <= st.alpha < 1.0 and 0.0 <= st.power <= 1.0, kw
            assert 0.0 < st.n_positive < math.inf and 0.0 < st.n_negative < math.inf, kw
            assert 0.0 < st.auc < 1.0, kw
