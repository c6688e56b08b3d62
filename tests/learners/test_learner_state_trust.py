"""rankwise's own learners refuse a saved state that does not make a finite scorer
(issue 27, "crafted states that cannot score load anyway").

The files here are saved from real fits, then edited with their checksums recomputed:
what a hostile or careless writer produces, not damaged files. Each loaded model must
either be refused with a one-line ``ModelFileError`` or give finite scores (and labels
among ``classes_``) from every scoring method. Crafted files that would make loading
allocate without bound are loaded in a child process with an address-space limit.
"""

import itertools
import subprocess
import sys
import textwrap
import time
import warnings

import numpy as np
import pytest

import rankwise as rw
from rankwise import learners
from rankwise.io import ModelFileError
from rankwise.io._model import registered_models
from _support.model_files import refused, rewrite

# (id, class, constructor arguments): every registered rankwise learner but the XGBoost /
# LightGBM one (its booster is checked by the engines' own tests), and the kernels and
# modes whose states differ.
# rankwise's own learners: other test modules register classes of their own in the same
# process (tests/io/test_io_model.py), which are not learners
LEARNERS = {name: cls for name, cls in registered_models().items()
            if cls.__module__.startswith("rankwise.") and name != "BoostedPairwiseRanker"}
VARIANTS = [(name, cls, {}) for name, cls in LEARNERS.items()]
VARIANTS += [(f"KernelRanker-{k}", learners.KernelRanker, {"kernel": k})
             for k in ("poly", "linear", "sigmoid", "laplacian")]
VARIANTS += [("KernelRanker-nystroem", learners.KernelRanker, {"n_components": 10}),
             ("ProperLossRanker-spherical", learners.ProperLossRanker, {"loss": "spherical"}),
             ("RankBoost-early", learners.RankBoost, {"early_stopping": True, "n_estimators": 20})]
IDS = [v[0] for v in VARIANTS]
BASE_IDS = list(LEARNERS)
KERNEL_IDS = [i for i in IDS if i.startswith("KernelRanker")]
STUMP_IDS = [i for i in IDS if i.startswith(("RankBoost", "PNormPush"))]
ONLINE_IDS = ["OAM", "AdaOAM", "PGD", "SPAM"]
LINEAR_IDS = [i for i in IDS if i not in KERNEL_IDS + STUMP_IDS]


def _fit(cls, kwargs):
    rng = np.random.default_rng(0)
    d = 2 if cls is learners.ExactLinearRankMaximizer else 3
    X = rng.normal(size=(60, d))
    y = (X[:, 0] + rng.normal(size=60) > 0).astype(int)
    kwargs = dict(kwargs)
    if "n_estimators" in cls().get_params():
        kwargs.setdefault("n_estimators", 5)
    if cls is learners.KernelRanker:
        kwargs.setdefault("max_iter", 30)  # a scorer is all these tests need, not an optimum
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence on so few rows
        return cls(**kwargs).fit(X, y)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """One saved model per variant (fitted once for the module), as bytes."""
    out = {}
    for ident, cls, kwargs in VARIANTS:
        path = tmp_path_factory.mktemp("trust") / f"{ident}.rwm"
        rw.save_model(_fit(cls, kwargs), path)
        out[ident] = path.read_bytes()
    return out


@pytest.fixture
def saved(files, tmp_path):
    def make(ident):
        path = tmp_path / f"{ident}.rwm"
        path.write_bytes(files[ident])
        return path
    return make


def _nonfinite(value: str):
    return {"__rankwise_type__": "float", "value": value}


def _refused(path, *fragments):
    msg = refused(path, *fragments, in_path=False)
    assert "MemoryError" not in msg and "Unable to allocate" not in msg, msg
    return msg


def _probe(d):
    rng = np.random.default_rng(7)
    return np.vstack([np.zeros(d), np.ones(d), -np.ones(d), rng.uniform(-1, 1, size=(4, d)), rng.normal(size=(4, d))])


def _scores_finite(model):
    """Every scoring method of ``model`` on ordinary rows: finite, and labels among classes_."""
    X = _probe(model.n_features_in_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outs = [model.decision_function(X)]
        labels = model.predict(X)
        if hasattr(model, "predict_proba"):
            outs.append(model.predict_proba(X))
        if hasattr(model, "staged_decision_function"):
            outs.extend(model.staged_decision_function(X))
    for out in outs:
        assert np.asarray(out).dtype.kind == "f" and np.all(np.isfinite(out))
    assert np.all(np.isin(labels, model.classes_))


def _refused_or_finite(path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = rw.load_model(path)
    except ModelFileError as exc:
        assert "\n" not in str(exc)
        return "refused"
    _scores_finite(model)
    return "ok"


_CHILD = textwrap.dedent("""
    import resource, sys, warnings
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    import numpy as np, rankwise as rw
    for path in sys.argv[1:]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = rw.load_model(path)
        except rw.ModelFileError as exc:
            print("refused", " ".join(str(exc).split()), flush=True)
        except MemoryError as exc:
            print("MemoryError", exc, flush=True)
        else:
            s = m.decision_function(np.ones((3, m.n_features_in_)))
            print("ok" if np.all(np.isfinite(s)) else "nonfinite", flush=True)
""")


def _load_in_child(*paths):
    """Load each of ``paths`` in one child process limited to 2 GiB of address space
    and 120 s: one line of outcome per path (the child's return code must be 0)."""
    proc = subprocess.run([sys.executable, "-c", _CHILD, *map(str, paths)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(paths), proc.stdout + proc.stderr
    return lines


# --- the untouched files -----------------------------------------------------------------

@pytest.mark.parametrize("ident", IDS)
def test_untouched_files_load_and_score(saved, ident):
    path = saved(ident)
    assert _refused_or_finite(path) == "ok"


# --- parameters that scoring reads, checked as fit checks them ---------------------------

_KERNEL_PARAMS = [
    ({"kernel": "bogus"}, "kernel"), ({"kernel": None}, "kernel"), ({"kernel": 3}, "kernel"),
    ({"kernel": "precomputed"}, "kernel"), ({"kernel": "chi2"}, "kernel"),
    ({"gamma": _nonfinite("nan")}, "gamma"), ({"gamma": _nonfinite("inf")}, "gamma"), ({"gamma": -1.0}, "gamma"),
    ({"gamma": 0.0}, "gamma"), ({"gamma": "0.5"}, "gamma"), ({"gamma": [1.0]}, "gamma"),
    ({"degree": 0}, "degree"), ({"degree": 2.5}, "degree"), ({"degree": _nonfinite("nan")}, "degree"),
    ({"degree": "3"}, "degree"), ({"coef0": _nonfinite("nan")}, "coef0"), ({"coef0": _nonfinite("-inf")}, "coef0"),
    ({"coef0": None}, "coef0"),
]


@pytest.mark.parametrize("ident", KERNEL_IDS)
def test_kernel_parameters_are_checked_as_fit_checks_them(saved, ident):
    path = saved(ident)
    original = path.read_bytes()
    for params, field in _KERNEL_PARAMS:
        path.write_bytes(original)
        _refused(rewrite(path, params=params), field)


@pytest.mark.parametrize("ident", ["ProperLossRanker", "ProperLossRanker-spherical"])
def test_proper_loss_name_is_checked(saved, ident):
    # decision_function and predict_proba read the loss's link
    path = saved(ident)
    for loss in ["bogus", None, 1.0, ["logistic"], "hinge"]:
        _refused(rewrite(path, params={"loss": loss}), "loss")


# --- classes_ ----------------------------------------------------------------------------

@pytest.mark.parametrize("ident", BASE_IDS)
def test_classes_must_be_two_distinct_plain_labels(saved, ident):
    path = saved(ident)
    for classes in [[None, 1], ["a", 1], [_nonfinite("nan"), 1.0], [_nonfinite("nan"), _nonfinite("nan")],
                    [0, 0], [[0], [1]], [0, 1, 2], [True, True], "01", [{"a": 1}, 2]]:
        _refused(rewrite(path, attributes={"classes_": classes}), "classes_")


@pytest.mark.parametrize("ident", ["PairwiseRanker", "RankBoost", "KernelRanker", "OAM"])
def test_classes_of_any_plain_kind_still_load(saved, ident):
    path = saved(ident)
    # [negative, positive] in either order: `rankwise fit --pos-label bad` saves ["good", "bad"]
    for classes in [[False, True], [-1.5, 2.0], ["neg", "pos"], [0, 2**40], ["good", "bad"], [1, 0]]:
        rewrite(path, attributes={"classes_": classes})
        assert _refused_or_finite(path) == "ok"
        assert rw.load_model(path).classes_.tolist() == classes


# --- weights that overflow on ordinary rows ----------------------------------------------

_WEIGHTS = {"coef_", "dual_coef_", "alphas_"}


@pytest.mark.parametrize("ident", [i for i in IDS if i != "KernelRanker-nystroem"])  # it has its own test
def test_weights_that_overflow_on_unit_rows_are_refused(saved, ident):
    """Finite weights whose sum overflows: some row with features in [-1, 1] scores inf or
    NaN (every learner was loading these, then scoring NaN on a row of ones)."""
    path = saved(ident)
    model = rw.load_model(path)
    names = sorted(_WEIGHTS & set(rw.inspect_model(path)["arrays"]))
    assert names
    for name in names:
        original = np.asarray(getattr(model, name), dtype=np.float64)
        # one weight of 1e308 alone cannot overflow a stump's score: then the intercept helps
        extra = {"intercept_": 1e308} if original.size == 1 else {}
        rewrite(path, attributes=extra, arrays={name: np.full_like(original, 1e308)})
        _refused(path, "float64's range")
        rewrite(path, attributes={"intercept_": model.intercept_}, arrays={name: original})


def test_nystroem_weights_that_overflow_are_refused(saved):
    path = saved("KernelRanker-nystroem")
    model = rw.load_model(path)
    c = 1e308 / np.abs(model.dual_coef_).max()
    coef = model.coef_ * c
    beta = model.projection_ @ coef  # consistent, finite, but sum |beta| overflows
    with np.errstate(over="ignore"):
        assert np.all(np.isfinite(beta)) and not np.isfinite(np.abs(beta).sum())
    _refused(rewrite(path, arrays={"coef_": coef, "dual_coef_": beta}), "float64's range")


@pytest.mark.parametrize("ident", IDS)
def test_large_but_safe_weights_still_load(saved, ident):
    """Weights adding up to 1e250 (a fit on features of size 1e-250 makes such) are no
    reason to refuse a model (1e250 here, so that the poly kernel's values of up to 1e18
    on ordinary rows do not overflow): scores on ordinary rows stay within float64's range."""
    path = saved(ident)
    model = rw.load_model(path)
    names = sorted(_WEIGHTS & set(rw.inspect_model(path)["arrays"]) - {"coef_"} if ident.startswith("KernelRanker")
                   else _WEIGHTS & set(rw.inspect_model(path)["arrays"]))
    for name in names:
        if ident == "KernelRanker-nystroem":
            continue
        original = np.asarray(getattr(model, name), dtype=np.float64)
        big = np.sign(original) * 1e250 / original.size
        big[big == 0] = 1e250 / original.size
        rewrite(path, arrays={name: big})
        assert _refused_or_finite(path) == "ok"
        rewrite(path, arrays={name: original})


def test_linear_model_for_tiny_features_round_trips(tmp_path):
    """The scorer of features of size 1e-295 has weights of size 1e295: it loads, and
    scores as before."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3))
    y = (X[:, 0] + rng.normal(size=80) > 0).astype(int)
    model = learners.PairwiseRanker().fit(X, y)
    model.coef_ = model.coef_ * 1e295
    rw.save_model(model, tmp_path / "tiny.rwm")
    loaded = rw.load_model(tmp_path / "tiny.rwm")
    np.testing.assert_array_equal(loaded.decision_function(X * 1e-295), model.decision_function(X * 1e-295))


@pytest.mark.parametrize("intercept", [1.7e308, -1.7e308])
@pytest.mark.parametrize("ident", ["PairwiseRanker", "RankBoost", "KernelRanker", "SPAM", "OAM"])
def test_intercept_at_the_edge_of_float64_with_weights_is_refused(saved, ident, intercept):
    """|intercept_| near float64's largest value plus weights of ordinary size overflow."""
    path = saved(ident)
    weights = sorted(_WEIGHTS & set(rw.inspect_model(path)["arrays"]))
    arr = {w: np.full_like(np.asarray(getattr(rw.load_model(path), w), dtype=np.float64), 1e307) for w in weights}
    _refused(rewrite(path, attributes={"intercept_": intercept}, arrays=arr), "float64's range")


@pytest.mark.parametrize("ident,params,fragment", [
    ("KernelRanker-poly", {"degree": 10**4, "gamma": 1.0}, "float64's range"),
    ("KernelRanker-poly", {"degree": 400, "coef0": 10.0}, "float64's range"),
    ("KernelRanker-poly", {"degree": 10**400, "gamma": 1.0}, "degree"),
    ("KernelRanker-poly", {"gamma": 1e308}, "float64's range"),
    ("KernelRanker-linear", {}, "overflows float64")])
def test_kernel_values_that_overflow_are_refused(saved, ident, params, fragment):
    path = saved(ident)
    arrays = {}
    if ident.endswith("linear"):
        Xf = rw.load_model(path).X_fit_
        arrays["X_fit_"] = np.full_like(Xf, 1e308)  # each row's sum of |z_j| overflows
    _refused(rewrite(path, params=params, arrays=arrays), fragment)


@pytest.mark.parametrize("ident,params", [("KernelRanker-poly", {"degree": 10**4, "gamma": 1e-9, "coef0": 0.0}),
                                          ("KernelRanker", {"gamma": 1e308}),
                                          ("KernelRanker-laplacian", {"gamma": 1e308}),
                                          ("KernelRanker-sigmoid", {"gamma": 1e308, "coef0": -1e308})])
def test_extreme_but_bounded_kernels_still_load(saved, ident, params):
    assert _refused_or_finite(rewrite(saved(ident), params=params)) == "ok"


@pytest.mark.parametrize("value", [1e200, -1e200, 1e160])
def test_rbf_landmarks_whose_squared_norm_overflows_are_refused(saved, value):
    path = saved("KernelRanker")
    Xf = rw.load_model(path).X_fit_.copy()
    Xf[0, :] = value  # finite, but ||z||^2 = inf makes the rbf kernel NaN for some rows
    _refused(rewrite(path, arrays={"X_fit_": Xf}), "X_fit_")


def test_laplacian_landmarks_far_away_still_load(saved):
    path = saved("KernelRanker-laplacian")
    Xf = rw.load_model(path).X_fit_.copy()
    Xf[0, :] = 1e200  # its kernel value is 0 for every ordinary row: finite
    assert _refused_or_finite(rewrite(path, arrays={"X_fit_": Xf})) == "ok"


# --- shapes, dtypes and consistency of the fitted arrays ---------------------------------

@pytest.mark.parametrize("ident", IDS)
def test_every_float_array_mutation_is_refused_or_scores_finite(saved, ident):
    path = saved(ident)
    model = rw.load_model(path)
    for mutation, name_entry in itertools.product(
            ["complex", "string", "2d", "empty", "extra", "nan", "inf", "huge"],
            rw.inspect_model(path)["arrays"].items()):
        name, entry = name_entry
        if name.startswith("stream_"):
            original = np.asarray(model._stream[name[len("stream_"):]])
        else:
            original = np.asarray(getattr(model, name))
        if original.dtype.kind != "f" or original.size == 0:
            continue
        bad = {"complex": lambda a: a.astype(np.complex128), "string": lambda a: a.astype("U12"),
               "2d": lambda a: a.reshape((1,) + a.shape), "empty": lambda a: a[:0],
               "extra": lambda a: np.concatenate([a, a[:1]]),
               "nan": lambda a: np.where(np.arange(a.size).reshape(a.shape) == 0, np.nan, a),
               "inf": lambda a: np.where(np.arange(a.size).reshape(a.shape) == 0, np.inf, a),
               "huge": lambda a: np.where(np.arange(a.size).reshape(a.shape) == 0, 1e308, a)}[mutation](original)
        rewrite(path, arrays={name: bad})
        _refused_or_finite(path)
        rewrite(path, arrays={name: np.asarray(original, dtype=np.dtype(entry["dtype"]))})


@pytest.mark.parametrize("ident", IDS)
def test_big_endian_and_narrow_float_arrays_load_with_the_same_scores(saved, ident):
    path = saved(ident)
    model = rw.load_model(path)
    X = _probe(model.n_features_in_)
    arrays = {}
    for name, entry in rw.inspect_model(path)["arrays"].items():
        if entry["dtype"] == "<f8" and hasattr(model, name):
            arrays[name] = np.asarray(getattr(model, name)).astype(">f8")
    loaded = rw.load_model(rewrite(path, arrays=arrays))
    np.testing.assert_array_equal(loaded.decision_function(X), model.decision_function(X))


def test_nystroem_weights_must_agree(saved):
    path = saved("KernelRanker-nystroem")
    model = rw.load_model(path)
    beta = model.dual_coef_.copy()
    beta[0] += 1.0
    _refused(rewrite(path, arrays={"dual_coef_": beta}), "projection_ @ coef_")
    rewrite(path, arrays={"dual_coef_": model.dual_coef_})
    _refused(rewrite(path, attributes={"n_components_": model.n_components_ + 1}), "n_components_")


def test_exact_kernel_needs_a_landmark_and_a_matching_rank(saved):
    path = saved("KernelRanker")
    model = rw.load_model(path)
    _refused(rewrite(path, attributes={"n_components_": 5}), "n_components_")
    rewrite(path, attributes={"n_components_": model.n_components_})
    d = model.n_features_in_
    _refused(rewrite(path, arrays={"X_fit_": np.zeros((0, d)), "dual_coef_": np.zeros(0)}), "X_fit_")


@pytest.mark.parametrize("ident", STUMP_IDS)
def test_stump_round_count_must_be_an_int(saved, ident):
    path = saved(ident)
    for value in ["5", 5.0, True, None, -1, _nonfinite("nan")]:
        _refused(rewrite(path, attributes={"n_estimators_": value}), "n_estimators_")


def test_stump_validation_curve_must_be_one_entry_per_round(saved):
    path = saved("RankBoost-early")
    model = rw.load_model(path)
    assert hasattr(model, "validation_score_")
    _refused(rewrite(path, arrays={"validation_score_": model.validation_score_.reshape(1, -1)}), "validation_score_")
    _refused(rewrite(path, arrays={"validation_score_": model.validation_score_[:0]}), "validation_score_")


def test_sizes_a_file_declares_are_bounded_before_allocating(files, tmp_path):
    """No stump array has one entry per feature, yet loading allocated
    feature_importances_ of n_features_in_ entries (8 GB for 10^9, from a small file);
    AdaOAM and PGD keep d x d matrices, and checking a file's shapes built them for its
    n_features_in_ first (80 GB for d = 10^5, from an 800 KB coef_); OAM's buffers have
    buffer_size rows, and were built at the file's buffer_size (np.zeros((10**12, d)))
    before being compared with the saved ones. One child process loads them all."""
    oam = []
    for i, size in enumerate([0, -3, 2.5, "100", 10**12, 10**18]):
        path = tmp_path / f"oam{i}.rwm"
        path.write_bytes(files["OAM"])
        oam.append(rewrite(path, params={"buffer_size": size}))
    paths = []
    for ident in ("RankBoost", "PNormPush"):
        for d in (10**9, 10**15, 2**62):
            path = tmp_path / f"{ident}{d}.rwm"
            path.write_bytes(files[ident])
            paths.append(rewrite(path, attributes={"n_features_in_": d}))
    for ident in ("AdaOAM", "PGD"):
        path = tmp_path / f"{ident}.rwm"
        path.write_bytes(files[ident])
        paths.append(rewrite(path, attributes={"n_features_in_": 100_000}, arrays={"coef_": np.zeros(100_000)}))
    outs = _load_in_child(*paths, *oam)
    for out in outs[len(paths):]:
        assert out.startswith("refused") and ("buffer_size" in out or "stream_buf_pos" in out), out
        assert "MemoryError" not in out, out
    for out in outs[:6]:
        assert out.startswith("refused") and "n_features_in_" in out and "MemoryError" not in out, out
    for out in outs[6:len(paths)]:
        assert out.startswith("refused") and "stream" in out and "MemoryError" not in out, out


@pytest.mark.parametrize("ident", ONLINE_IDS)
def test_online_stream_shapes_match_a_new_stream(ident):
    cls = registered_models()[ident]
    est = cls()
    for d in (1, 4):
        expected = {k: v.shape for k, v in est._new_stream(d).items() if isinstance(v, np.ndarray)}
        assert est._array_shapes(d) == expected


# --- the saved scalars -------------------------------------------------------------------

_SCALARS = [("PairwiseRanker", "n_iter_", -1), ("PairwiseRanker", "n_iter_", "3"), ("PairwiseRanker", "mode_", 3),
            ("ProperLossRanker", "n_iter_", 2.5), ("BBRRanker", "multiplier_", "x"),
            ("RankStatisticRanker", "criterion_path_", "x"), ("RankStatisticRanker", "criterion_path_", [1, None]),
            ("RankStatisticRanker", "best_round_", True), ("RankStatisticRanker", "bandwidth_", None),
            ("ExactLinearRankMaximizer", "is_tie_", 1), ("ExactLinearRankMaximizer", "n_orderings_", -2),
            ("KernelRanker", "n_iter_", [1]), ("KernelRanker", "objective_", "0.1"),
            ("KernelRanker", "n_components_", "60")]


def test_saved_scalars_have_their_kind(files, tmp_path):
    for ident, field, value in _SCALARS:
        path = tmp_path / "m.rwm"
        path.write_bytes(files[ident])
        _refused(rewrite(path, attributes={field: value}), field)


# --- the last line of defence: a probe scored at load --------------------------------------

def test_check_scorer_refuses_a_scorer_that_is_not_finite_or_raises():
    from rankwise.learners._base import check_scorer

    model = _fit(learners.PairwiseRanker, {})
    check_scorer(model)  # a real fit passes
    model.decision_function = lambda X: np.full(X.shape[0], np.nan)
    with pytest.raises(ValueError, match="not finite"):
        check_scorer(model)

    def boom(X):
        raise KeyError("nope")

    model.decision_function = boom
    with pytest.raises(ValueError, match="KeyError"):
        check_scorer(model)
    del model.decision_function
    model.predict_proba = lambda X: np.full((X.shape[0], 2), np.inf)
    with pytest.raises(ValueError, match="predict_proba"):
        check_scorer(model)


def test_a_large_kernel_model_loads_fast(tmp_path):
    """The checks and the probe cost about what scoring a few rows costs: a kernel ranker
    with 10^5 landmarks loads in well under a second of checking."""
    model = _fit(learners.KernelRanker, {})
    rng = np.random.default_rng(0)
    m, d = 100_000, model.n_features_in_
    model.X_fit_ = rng.normal(size=(m, d))
    model.dual_coef_ = rng.normal(size=m) / m
    model.n_components_ = m
    rw.save_model(model, tmp_path / "big.rwm")
    start = time.perf_counter()
    loaded = rw.load_model(tmp_path / "big.rwm")
    assert time.perf_counter() - start < 5.0
    assert np.all(np.isfinite(loaded.decision_function(_probe(d))))


# --- a small random fuzz over every learner ----------------------------------------------

_NUMBERS = [0, -1, 1, 2**31, -(2**63), 10**20, 1e-320, 1e308, -1e308, _nonfinite("nan"), _nonfinite("inf"),
            None, True, "1", [], [0.5], {"a": 1}]


@pytest.mark.parametrize("ident", IDS)
def test_random_mutations_are_refused_or_score_finite(saved, ident):
    """Thirty random edits per learner (a parameter, an attribute or one entry of an
    array replaced by an odd value): every outcome is a one-line refusal or a model
    whose every scoring method is finite."""
    path = saved(ident)
    original = path.read_bytes()
    doc = rw.inspect_model(path)
    model = rw.load_model(path)
    rng = np.random.default_rng(sum(map(ord, ident)))
    fields = [("params", k) for k in doc["params"]] + [("attributes", k) for k in doc["attributes"]
                                                       if k != "n_features_in_"]
    array_names = [k for k in doc["arrays"] if hasattr(model, k)]
    for _ in range(30):
        path.write_bytes(original)
        where = rng.integers(3)
        if where < 2 and fields:
            section, key = fields[rng.integers(len(fields))]
            value = _NUMBERS[rng.integers(len(_NUMBERS))]
            rewrite(path, **{section: {key: value}})
        elif array_names:
            name = array_names[rng.integers(len(array_names))]
            arr = np.array(getattr(model, name))
            if arr.size == 0:
                continue
            v = [np.nan, np.inf, -np.inf, 1e308, -1e308, 1e200, 5e-324, -1.0, 2.0 ** 62, 0.0][rng.integers(10)]
            flat = arr.astype(np.float64).ravel()
            flat[rng.integers(flat.size)] = v
            kind = arr.dtype.kind
            if kind in "iu" and np.isfinite(v) and abs(v) < 2 ** 63:
                arr = flat.astype(np.int64).reshape(arr.shape)
            elif kind in "iu":
                arr = flat.reshape(arr.shape)  # a float array where ints are expected
            else:
                arr = flat.reshape(arr.shape)
            rewrite(path, arrays={name: arr})
        _refused_or_finite(path)
