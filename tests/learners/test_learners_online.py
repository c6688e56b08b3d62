"""Online AUC learners (OAM, AdaOAM, PGD, SPAM; papers cited in rankwise.learners._online): literal
transcriptions of the update rules, streaming = batch, determinism, saving, scikit-learn's
estimator checks, and accuracy against BBR."""

import os
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.utils.estimator_checks import parametrize_with_checks

import rankwise as rw
from rankwise.learners._online import OAM, PGD, SPAM, AdaOAM
from _support.paths import SHARED_DATA

LEARNERS = (OAM, AdaOAM, PGD, SPAM)


def gaussian(n, d=10, seed=0, shift=1.0, share=0.3):
    """Two isotropic Gaussians whose means differ by ``shift * linspace(1, 0.1, d)``."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    X = rng.normal(size=(n, d)) + shift * y[:, None] * np.linspace(1.0, 0.1, d)
    return X, y


# --- literal transcriptions of the papers' update rules (slow, obvious) --------------------------

def oam_literal(X, y, C, N, variant, rng=None, v=None):
    """The paper's loop: reservoir buffers, C_t, then the seq or gra update, pair by pair."""
    v = np.ones(len(y)) if v is None else v
    w = np.zeros(X.shape[1])
    buf = {1: [], -1: []}  # lists of (x, weight)
    seen = {1: 0, -1: 0}
    for x, label, vt in zip(X, y, v):
        if vt == 0:
            continue
        yt = 1 if label == 1 else -1
        seen[yt] += 1
        Ct = C * max(1.0, seen[-yt] / N)
        if len(buf[yt]) < N:
            buf[yt].append((x, vt))
        elif rng.random() < N / seen[yt]:
            buf[yt][int(rng.integers(N))] = (x, vt)
        w_frozen = w.copy()
        for xb, vb in buf[-yt]:
            d = yt * (x - xb)
            if variant == "seq":
                loss = max(0.0, 1.0 - w @ d)
                if d @ d > 0:
                    w = w + min(vt * vb * Ct / 2, loss / (d @ d)) * d
            elif w_frozen @ d <= 1:
                w = w + vt * vb * Ct / 2 * d
    return w


def adaoam_literal(X, y, eta, lam, delta, v=None):
    """OPAUC's gradient from its definition (a sum over the past rows of the other class,
    no running moments), then the diagonal AdaGrad step."""
    v = np.ones(len(y)) if v is None else v
    w = np.zeros(X.shape[1])
    G = np.zeros(X.shape[1])
    for t in range(len(y)):
        if v[t] == 0:
            continue
        yt = 1.0 if y[t] == 1 else -1.0
        other = [j for j in range(t) if y[j] != y[t] and v[j] > 0]
        if not other:
            continue
        D = X[t] - X[other]
        r = 1.0 - yt * (D @ w)
        g = lam * w - yt * (v[other] * r) @ D / v[other].sum()
        g = v[t] * g
        G = G + g * g
        w = w - eta * g / (delta + np.sqrt(G))
    return w


def pgd_literal(X, y, mu, theta, v=None):
    """w_{t+1} = w_t - gamma_t (1/(t-1)) sum_{j<t} (w^T(x_t - x_j) - y_t + y_j)(x_t - x_j)."""
    v = np.ones(len(y)) if v is None else v
    w = np.zeros(X.shape[1])
    t = 0
    past = []
    for i in range(len(y)):
        if v[i] == 0:
            continue
        t += 1
        if past:
            g = np.zeros_like(w)
            for j in past:
                d = X[i] - X[j]
                g += v[j] * (w @ d - y[i] + y[j]) * d
            w = w - t ** (-theta) / mu * v[i] * g / v[past].sum()
        past.append(i)
    return w


def spam_literal(X, y, C, beta, beta2=None, v=None, n_epochs=1):
    """SPAM's step (Natole, Ying & Lyu 2018) with p, m+, m- from the whole (weighted) data; averaged iterates."""
    v = np.ones(len(y)) if v is None else v
    pos, neg = (y == 1) & (v > 0), (y == 0) & (v > 0)
    p = v[pos].sum() / v[pos | neg].sum()
    m_pos = v[pos] @ X[pos] / v[pos].sum()
    m_neg = v[neg] @ X[neg] / v[neg].sum()
    w = np.zeros(X.shape[1])
    iterates = []
    t = 0
    for _ in range(n_epochs):
        for x, label, vt in zip(X, y, v):
            if vt == 0:
                continue
            t += 1
            eta = C / np.sqrt(t)
            a, b = w @ m_pos, w @ m_neg
            alpha = b - a
            s = w @ x
            if label == 1:
                G = 2 * (1 - p) * ((s - a) - (1 + alpha)) * x
            else:
                G = 2 * p * ((s - b) + (1 + alpha)) * x
            u = w - eta * vt * G
            if beta2 is not None:
                u = np.sign(u) * np.maximum(np.abs(u) - eta * beta2, 0.0)
            w = u / (1 + eta * beta)
            iterates.append(w)
    return np.mean(iterates, axis=0)


# --- hand computations -----------------------------------------------------------------------

def test_oam_seq_two_steps_by_hand():
    # neg (0,0): nothing to compare with. pos (1,0): d = (1,0), loss 1, tau = min(C/2, 1) = 1/2,
    # w = (1/2, 0). neg (0,1): d = (1,0) - (0,1) = (1,-1), w.d = 1/2, loss 1/2, |d|^2 = 2,
    # tau = min(1/2, 1/4) = 1/4, w = (3/4, -1/4).
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    y = np.array([0, 1, 0])
    m = OAM(C=1.0, shuffle=False).fit(X[:2], y[:2])
    assert np.array_equal(m.coef_, [0.5, 0.0])
    m = OAM(C=1.0, shuffle=False).fit(X, y)
    assert np.array_equal(m.coef_, [0.75, -0.25])
    # gra: the same first step; then (1,-1) with w.d = 1/2 <= 1 is violated: w += C/2 (1,-1).
    assert np.array_equal(OAM(C=1.0, variant="gra", shuffle=False).fit(X, y).coef_, [1.0, -0.5])


def test_pgd_one_step_by_hand():
    # t = 2: g = (w.(x2 - x1) - y2 + y1)(x2 - x1) = (0 - 0 + 1)(-1, 1); gamma_2 = 2^-0.75 / mu.
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    m = PGD(mu=2.0, theta=0.75, shuffle=False).fit(X, [1, 0])
    gamma = 2 ** -0.75 / 2.0
    assert np.allclose(m.coef_, [gamma, -gamma], rtol=1e-15, atol=0)


def test_spam_one_step_by_hand():
    # p = 1/2, m+ = (1,0), m- = (0,1). Step 1 (positive (1,0), w = 0): a = b = alpha = 0, s = 0,
    # G = 2 (1/2) (0 - 1)(1,0) = (-1,0); eta_1 = C; u = (C, 0); w_1 = u / (1 + C beta).
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    C, beta = 0.5, 0.1
    m = SPAM(C=C, beta=beta, n_epochs=1, shuffle=False).fit(X, [1, 0])
    w1 = np.array([C, 0.0]) / (1 + C * beta)
    # Step 2 (negative (0,1)): a = w1.m+ = w1[0], b = 0, alpha = -a, s = 0,
    # G = 2 (1/2) ((0 - 0) + (1 - a)) (0,1); eta_2 = C / sqrt 2.
    a = w1[0]
    eta2 = C / np.sqrt(2)
    w2 = (w1 - eta2 * (1 - a) * np.array([0.0, 1.0])) / (1 + eta2 * beta)
    assert np.allclose(m.coef_, (w1 + w2) / 2, rtol=1e-15, atol=1e-16)


def test_adaoam_one_step_by_hand():
    # neg (0,1) then pos (1,0): c- = (0,1), S- = 0, d = (1,-1), w = 0:
    # g = lam w - x + c- + d d^T w + S- w = (-1, 1); G = (1, 1); w = -eta g / (delta + 1).
    X = np.array([[0.0, 1.0], [1.0, 0.0]])
    m = AdaOAM(eta=0.3, lam=0.5, delta=0.25, shuffle=False).fit(X, [0, 1])
    assert np.allclose(m.coef_, np.array([1.0, -1.0]) * 0.3 / 1.25, rtol=1e-15, atol=0)


# --- the fast updates equal the literal rules ------------------------------------------------

@pytest.mark.parametrize("C", [2**-16, 0.01, 0.5])
@pytest.mark.parametrize("variant", ["seq", "gra"])
@pytest.mark.parametrize("weighted", [False, True])
def test_oam_equals_literal_loop(variant, weighted, C):
    # 300 rows, buffers of 10: the reservoir replaces rows and C_t grows past C. The reference
    # draws from the same generator the estimator uses for its reservoir (the second child of
    # the seed), so the buffers hold the same rows.
    X, y = gaussian(300, d=4, seed=1)
    v = np.random.default_rng(2).choice([0.0, 0.5, 1.0, 2.0], size=300) if weighted else None
    N = 10
    m = OAM(C=C, buffer_size=N, variant=variant, shuffle=False, random_state=7).fit(X, y, sample_weight=v)
    rng = np.random.default_rng(np.random.SeedSequence(7).spawn(2)[1])
    want = oam_literal(X, y, C, N, variant, rng=rng, v=v)
    assert np.allclose(m.coef_, want, rtol=1e-10, atol=1e-12 * np.abs(want).max())
    assert m.t_ == (300 if v is None else np.count_nonzero(v))


def test_oam_seq_pass_equals_the_sequential_loop_in_every_regime():
    # The vectorised pass (speculative rounds when most steps are capped, jumps between
    # violated pairs otherwise) against the plain loop, from all-capped to all-passive-
    # aggressive, with duplicate rows (d = 0) in the buffer.
    from rankwise.learners._online import _oam_seq

    rng = np.random.default_rng(40)
    for trial in range(300):
        m, d = int(rng.integers(1, 60)), int(rng.integers(1, 6))
        D = rng.normal(size=(m, d))
        D[rng.random(m) < 0.1] = 0.0
        caps = 10.0 ** rng.uniform(-5, 1) * rng.uniform(0.5, 2.0, m)
        w0 = rng.normal(size=d) * 10.0 ** rng.uniform(-3, 0.5)
        want = w0.copy()
        for k in range(m):
            if D[k] @ D[k] > 0:
                want += min(caps[k], max(0.0, 1.0 - want @ D[k]) / (D[k] @ D[k])) * D[k]
        got = w0.copy()
        _oam_seq(got, D, caps, D @ got)
        assert np.allclose(got, want, rtol=1e-10, atol=1e-13), trial


@pytest.mark.parametrize("weighted", [False, True])
def test_adaoam_equals_literal_gradient(weighted):
    X, y = gaussian(150, d=3, seed=3)
    v = np.random.default_rng(4).choice([0.0, 0.5, 1.0, 3.0], size=150) if weighted else None
    m = AdaOAM(eta=0.05, lam=0.01, delta=1e-3, shuffle=False).fit(X, y, sample_weight=v)
    assert np.allclose(m.coef_, adaoam_literal(X, y, 0.05, 0.01, 1e-3, v=v), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_pgd_moments_equal_the_sum_over_past_points(weighted):
    X, y = gaussian(150, d=3, seed=5)
    v = np.random.default_rng(6).choice([0.0, 0.5, 1.0, 3.0], size=150) if weighted else None
    m = PGD(mu=5.0, theta=0.6, shuffle=False).fit(X, y, sample_weight=v)
    assert np.allclose(m.coef_, pgd_literal(X, y, 5.0, 0.6, v=v), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("penalty", ["l2", "elasticnet"])
@pytest.mark.parametrize("weighted", [False, True])
def test_spam_equals_literal_steps(penalty, weighted):
    X, y = gaussian(200, d=3, seed=8)
    v = np.random.default_rng(9).choice([0.0, 0.5, 1.0, 3.0], size=200) if weighted else None
    m = SPAM(C=0.1, beta=0.05, penalty=penalty, beta2=0.02, n_epochs=2, shuffle=False).fit(X, y, sample_weight=v)
    want = spam_literal(X, y, 0.1, 0.05, 0.02 if penalty == "elasticnet" else None, v=v, n_epochs=2)
    assert np.allclose(m.coef_, want, rtol=1e-10, atol=1e-12)
    assert m.t_ == 2 * (200 if v is None else np.count_nonzero(v))


# --- streaming: partial_fit over chunks = one in-order pass -------------------------------------

STREAMING_EXACT = [OAM(buffer_size=15, C=0.1, random_state=3), OAM(variant="gra", buffer_size=15, random_state=3),
                   AdaOAM(random_state=3), PGD(random_state=3)]


@pytest.mark.parametrize("est", STREAMING_EXACT, ids=repr)
def test_partial_fit_chunks_equal_one_pass(est):
    X, y = gaussian(400, d=5, seed=11)
    v = np.random.default_rng(12).choice([0.0, 0.5, 1.0, 2.0], size=400)
    for sw in (None, v):
        batch = est.set_params(shuffle=False, n_epochs=1).fit(X, y, sample_weight=sw).coef_.copy()
        stream = type(est)(**est.get_params())
        for a, b in ((0, 7), (7, 150), (150, 151), (151, 400)):  # a chunk of one class, a single row
            stream.partial_fit(X[a:b], y[a:b], classes=[0, 1], sample_weight=None if sw is None else sw[a:b])
        assert np.array_equal(stream.coef_, batch)
        assert stream.t_ == (400 if sw is None else np.count_nonzero(sw))


def test_spam_partial_fit_uses_running_moments():
    X, y = gaussian(300, d=4, seed=13)
    one = SPAM(shuffle=False).partial_fit(X, y)
    chunks = SPAM(shuffle=False)
    for a in range(0, 300, 37):
        chunks.partial_fit(X[a: a + 37], y[a: a + 37], classes=[0, 1])
    assert np.array_equal(one.coef_, chunks.coef_)
    # The running estimates after the pass are the data's moments.
    st = chunks._stream
    assert np.allclose(st["m_pos"], X[y == 1].mean(0)) and np.allclose(st["m_neg"], X[y == 0].mean(0))
    # fit uses the data's moments from the first step on: a different (documented) path.
    assert not np.allclose(SPAM(shuffle=False).fit(X, y).coef_, one.coef_)


def test_fit_after_partial_fit_resets_and_partial_fit_after_fit_continues():
    X, y = gaussian(300, d=4, seed=14)
    for cls in LEARNERS:
        a = cls(random_state=0).fit(X, y)
        b = cls(random_state=0).partial_fit(X[:50], y[:50]).fit(X, y)
        assert np.array_equal(a.coef_, b.coef_) and a.t_ == b.t_ == 300
        a.partial_fit(X[:20], y[:20])
        assert a.t_ == 320


def test_zero_weight_rows_are_absent():
    X, y = gaussian(300, d=4, seed=15)
    v = np.ones(300)
    v[::4] = 0.0
    keep = v > 0
    for cls in LEARNERS:
        a = cls(random_state=1).fit(X, y, sample_weight=v)
        b = cls(random_state=1).fit(X[keep], y[keep])
        assert np.array_equal(a.coef_, b.coef_), cls.__name__
        c = cls(random_state=1).partial_fit(X, y, sample_weight=v)
        d = cls(random_state=1).partial_fit(X[keep], y[keep])
        assert np.array_equal(c.coef_, d.coef_), cls.__name__


def test_sparse_input_equals_dense():
    X, y = gaussian(300, d=6, seed=16)
    X[np.abs(X) < 0.7] = 0.0
    for cls in LEARNERS:
        a = cls(random_state=2, n_epochs=2).fit(X, y)
        b = cls(random_state=2, n_epochs=2).fit(sparse.csr_matrix(X), y)
        assert np.allclose(a.coef_, b.coef_, rtol=1e-12, atol=1e-14), cls.__name__
        c = cls(random_state=2).partial_fit(sparse.csc_matrix(X), y)
        assert np.allclose(c.coef_, cls(random_state=2).partial_fit(X, y).coef_, rtol=1e-12, atol=1e-14)


def test_deterministic_given_random_state():
    X, y = gaussian(400, d=4, seed=17)
    for cls in LEARNERS:
        a = cls(random_state=5, n_epochs=2).fit(X, y).coef_
        b = cls(random_state=5, n_epochs=2).fit(X, y).coef_
        c = cls(random_state=6, n_epochs=2).fit(X, y).coef_
        assert np.array_equal(a, b) and not np.array_equal(a, c), cls.__name__
        rs = np.random.RandomState(3)
        assert np.array_equal(cls(random_state=np.random.RandomState(3)).fit(X, y).coef_,
                              cls(random_state=rs).fit(X, y).coef_)


def test_oam_reservoir_is_uniform():
    # Each of n streamed rows of a class is in its buffer of N with probability N / n.
    n, N, reps = 200, 10, 300
    X = np.arange(n, dtype=float)[:, None]
    y = np.ones(n, int)
    held = np.zeros(n)
    for r in range(reps):
        m = OAM(buffer_size=N, random_state=r).partial_fit(X, y, classes=[0, 1])
        buf = m._stream["buf_pos"][:, 0].astype(int)
        assert len(set(buf)) == N
        held[buf] += 1
    freq = held / reps
    assert abs(freq[:100].mean() - N / n) < 0.01 and abs(freq[100:].mean() - N / n) < 0.01
    assert abs(freq[:10].mean() - N / n) < 0.03  # the first rows are not kept for good


# --- accuracy ------------------------------------------------------------------------------------

@pytest.mark.parametrize("est,n_epochs", [(OAM(), 1), (OAM(variant="gra"), 1), (AdaOAM(), 1), (PGD(), 1),
                                          (SPAM(), 1), (SPAM(penalty="elasticnet"), 3)], ids=repr)
def test_auc_close_to_bbr_on_an_easy_problem(est, n_epochs):
    X, y = gaussian(5000, d=10, seed=20)
    Xt, yt = gaussian(20000, d=10, seed=21)
    bbr = rw.BBRRanker().fit(X, y).score(Xt, yt)
    got = est.set_params(n_epochs=n_epochs, random_state=0).fit(X, y).score(Xt, yt)
    assert got > bbr - 0.02, (got, bbr)
    # predict marks the top share of the ranking (intercept_ from the training scores)
    assert abs(est.predict(X).mean() - y.mean()) < 0.01


# --- saving and loading --------------------------------------------------------------------------

@pytest.mark.parametrize("cls", LEARNERS)
def test_save_load_round_trip_continues_partial_fit(tmp_path, cls):
    X, y = gaussian(400, d=5, seed=30)
    est = cls(random_state=4).fit(X[:250], y[:250])
    path = tmp_path / "m.rwm"
    rw.save_model(est, path)
    back = rw.load_model(path)
    assert type(back) is cls and back.get_params() == est.get_params()
    assert np.array_equal(back.decision_function(X), est.decision_function(X)) and back.t_ == est.t_
    # The streaming state travels: both continue identically (OAM: the reservoir's draws too).
    est.partial_fit(X[250:], y[250:])
    back.partial_fit(X[250:], y[250:])
    assert np.array_equal(back.coef_, est.coef_) and back.intercept_ == est.intercept_
    assert rw.inspect_model(path)["estimator"] == cls.__name__


def test_load_refuses_foreign_or_broken_state():
    X, y = gaussian(200, d=3, seed=31)
    for cls in LEARNERS:
        attrs, arrays = cls(random_state=0).fit(X, y)._get_model_state()
        cls()._set_model_state(dict(attrs), dict(arrays))  # the genuine state loads
        extra = dict(attrs, stream_foo=1)
        with pytest.raises(ValueError, match="streaming state"):
            cls()._set_model_state(extra, dict(arrays))
        missing = {k: v for k, v in attrs.items() if k != "stream_t"}
        with pytest.raises(ValueError, match="streaming state"):
            cls()._set_model_state(missing, dict(arrays))
        with pytest.raises(ValueError, match="unexpected"):
            cls()._set_model_state(dict(attrs, bogus_=1), dict(arrays))
        name = next(k for k in arrays if k.startswith("stream_"))
        with pytest.raises(ValueError, match="shape"):
            cls()._set_model_state(dict(attrs), dict(arrays, **{name: np.zeros(7)}))
        with pytest.raises(ValueError, match="stream_t"):
            cls()._set_model_state(dict(attrs, stream_t=-1), dict(arrays))
    attrs, arrays = OAM().fit(X, y)._get_model_state()
    with pytest.raises(ValueError, match="PCG64"):
        OAM()._set_model_state(dict(attrs, stream_rng={"bit_generator": "MT19937"}), arrays)
    with pytest.raises(ValueError, match="stream_buf_pos"):
        OAM(buffer_size=5)._set_model_state(attrs, arrays)


# --- parameters and errors -----------------------------------------------------------------------

@pytest.mark.parametrize("est,param", [
    (OAM(C=0), "C"), (OAM(buffer_size=0), "buffer_size"), (OAM(buffer_size=2.5), "buffer_size"),
    (OAM(variant="pa"), "variant"), (AdaOAM(eta=-1), "eta"), (AdaOAM(lam=-1e-3), "lam"),
    (AdaOAM(delta=0), "delta"), (PGD(mu=0), "mu"), (PGD(theta=0.5), "theta"), (PGD(theta=1.0), "theta"),
    (SPAM(C=-1), "C"), (SPAM(beta=-1), "beta"), (SPAM(penalty="l1"), "penalty"), (SPAM(beta2=np.inf), "beta2"),
    (PGD(n_epochs=0), "n_epochs"), (SPAM(random_state=-3), "random_state"), (AdaOAM(random_state="x"), "random_state"),
], ids=repr)
def test_bad_parameters(est, param):
    X, y = gaussian(50, d=2)
    with pytest.raises((ValueError, TypeError), match=param):
        est.fit(X, y)
    with pytest.raises((ValueError, TypeError), match=param):
        est.partial_fit(X, y)


def test_partial_fit_errors():
    X, y = gaussian(60, d=3)
    with pytest.raises(TypeError, match="shuffle"):
        PGD(shuffle="yes").fit(X, y)
    with pytest.raises(ValueError, match="classes"):
        PGD().partial_fit(X[y == 1], y[y == 1])  # one class, no classes=
    with pytest.raises(ValueError, match="two classes"):
        PGD().partial_fit(X, y, classes=[0, 1, 2])
    with pytest.raises(ValueError, match="not among the classes"):
        PGD().partial_fit(X, np.where(y == 1, 2, 0), classes=[0, 1])
    m = PGD().partial_fit(X, y)
    with pytest.raises(ValueError, match="differ"):
        m.partial_fit(X, y, classes=[0, 5])
    with pytest.raises(ValueError, match="features"):
        m.partial_fit(X[:, :2], y)
    with pytest.raises(ValueError, match="two"):
        SPAM().fit(X, np.arange(60) % 3)
    o = OAM(buffer_size=10).partial_fit(X, y)
    with pytest.raises(ValueError, match="buffer_size"):
        o.set_params(buffer_size=20).partial_fit(X, y)
    o.fit(X, y)  # a fresh fit may change it
    assert o._stream["buf_pos"].shape == (20, 3)
    # A chunk holding one class keeps the previous intercept; the first one starts at 0.
    a = PGD().partial_fit(X[y == 1], y[y == 1], classes=[0, 1])
    assert a.intercept_ == 0.0 and a.predict(X).shape == (60,)


# --- scikit-learn contract -------------------------------------------------------------------------

# OAM with the default (tiny) C passes the weight-equivalence check: on the check's ~15-row
# data the buffers never fill and every pair takes the capped step (C/2) v_i v_j d, so w is
# an order-free sum over pairs. OAM(C=1) leaves that regime and is in the list for the
# general case.
ESTIMATORS = [OAM(), OAM(variant="gra"), OAM(C=1.0), AdaOAM(), PGD(), SPAM(), SPAM(penalty="elasticnet")]

_ONLINE_WEIGHTS = ("an online learner's iterate depends on the number and the order of its steps: a row of "
                   "weight k is one step scaled by k (an importance weight), not k steps, and the repeated "
                   "rows are also shuffled differently, so weighting is not repetition (scikit-learn's "
                   "SGDClassifier fails this check for the same reason). Zero weights are exact: those rows "
                   "are dropped before the shuffle")


def expected_failures(estimator):
    if isinstance(estimator, OAM) and estimator.C < 2**-8:
        return {}
    return {"check_sample_weight_equivalence_on_dense_data": _ONLINE_WEIGHTS,
            "check_sample_weight_equivalence_on_sparse_data": _ONLINE_WEIGHTS}


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failures)
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.UndefinedMetricWarning)
        check(estimator)


# --- german.numer: real data against BBR -----------------------------------------------------

GERMAN = os.path.join(SHARED_DATA, "german.data-numeric")


def test_german_numer_auc_against_bbr():
    """Held-out AUC on UCI german (numeric), 70/30 stratified split (seed 0), standardised on
    the training part, default parameters: each online learner ranks the 300 test rows as
    well as BBR (the exact all-pairs least-squares ranker), up to what 300 rows can tell.
    (Gultekin & Paisley 2020, "Risk bounds for low cost bipartite ranking", Figure 2 at 100% and REPRODUCTION.md: on german every learner lands at
    0.78-0.80 over 20 splits.)"""
    if not os.path.exists(GERMAN):
        pytest.skip(f"german.data-numeric not found at {GERMAN}")
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

    D = np.loadtxt(GERMAN)
    X, y = D[:, :-1], (D[:, -1] == 2).astype(int)  # 2 = bad = positive
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    sc = StandardScaler().fit(Xtr)
    Xtr, Xte = sc.transform(Xtr), sc.transform(Xte)
    scores = {repr(est): est.fit(Xtr, ytr).decision_function(Xte)
              for est in [rw.BBRRanker(), OAM(random_state=0), OAM(variant="gra", random_state=0),
                          AdaOAM(random_state=0), PGD(random_state=0), SPAM(random_state=0)]}
    cmp_ = rw.stats.compare(yte, scores, criterion="auc")
    assert cmp_.values[0] == pytest.approx(rw.auc(yte, scores["BBRRanker()"]), abs=1e-12)
    # BBR itself: the figure BENCHMARKS.md records for the same split and standardisation
    # (bench_learners.py --real), to its 4 printed decimals (BBR is closed form: no other slack).
    assert cmp_.values[0] == pytest.approx(0.8089, abs=5e-5 + 1e-9)
    pairs = [p for p in cmp_.pairs if p.a == "BBRRanker()"]
    assert len(pairs) == 5
    for p in pairs:
        # Paired DeLong difference BBR - learner on the same 300 rows (SE 0.010-0.016): within
        # 3.09 SEs, two-sided 1% over the 5 learners (Bonferroni). Measured: -0.002 to +0.011,
        # all within 0.7 SE. A learner ranking worse by more than 0.05 (a broken update) fails.
        assert abs(p.difference) <= 3.09 * p.std_error, (p.b, p.difference, p.std_error)
