r"""Online AUC learners: OAM, AdaOAM, PGD and SPAM, the baselines that S. Gultekin and
J. Paisley compare BBR with ("Risk Bounds for Low Cost Bipartite Ranking", UAI 2020).

Each one streams the sample a row at a time and learns a linear score
:math:`s(x) = w^\top x` (higher = more likely ``classes_[1]``). They are scikit-learn
estimators with ``fit`` (reset, then ``n_epochs`` passes over the data, in a
``random_state``-controlled shuffled order unless ``shuffle=False``) and ``partial_fit``
(one pass over the rows given, in the order given, continuing from the current state).
The update rules are the papers' (references in each class; where we depart from the
printed text, the class says so):

=========  =====================================================  ==================
learner    rule                                                   cost per row
=========  =====================================================  ==================
``OAM``    pairwise hinge against a reservoir buffer of the       O(N d)
           other class (Zhao, Hoi, Jin & Yang, ICML 2011)
``AdaOAM`` OPAUC's pairwise squared loss from per-class running   O(d^2)
           mean and covariance, diagonal AdaGrad step (Ding,
           Zhao, Hoi & Ong, AAAI 2015)
``PGD``    pairwise least squares against all past points, from   O(d^2)
           running moments (Boissier, Lyu, Ying & Zhou, AISTATS
           2016)
``SPAM``   stochastic proximal step on the square-loss saddle     O(d)
           form, averaged iterates (Natole, Ying & Lyu, ICML 2018)
=========  =====================================================  ==================

Common conventions
------------------
* A row of weight 0 is skipped: no step, no buffer or moment update, no random draw
  (``fit`` drops such rows before it shuffles, so they are exactly as if absent).
* A row of weight ``v > 0`` makes one step whose loss term is multiplied by ``v`` (and
  whose partners in a pair carry their own weights): weights are *importance weights*,
  not repetitions. A row of weight 2 is one step, not two, so an integer weight is not
  the same as repeating the row (it cannot be, for any online method whose iterate
  depends on the number and order of steps).
* ``partial_fit`` sets ``intercept_`` (which no ranking depends on) from the rows of the
  call when both classes are among them, as ``fit`` does from its training data;
  otherwise the previous ``intercept_`` (0.0 at first) is kept.
* The whole streaming state (iterates, buffers, running moments, the reservoir's random
  generator) is part of the saved model, so a loaded model continues ``partial_fit``
  exactly where the saved one stopped.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from scipy import sparse
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, validate_data

from ..io import register_model
from .._validation import check_choice, check_param
from ._base import BinaryLinearRanker, check_scorer, fill_doc, state_param, store_params

__all__ = ["OAM", "AdaOAM", "PGD", "SPAM"]

# Rows densified at a time when X is sparse (the updates work on dense rows).
_BLOCK = 512
_PREFIX = "stream_"
# The parameters every online learner shares (checked by _check_common, not _check_params).
_COMMON_PARAMS = ("n_epochs", "shuffle", "random_state")


def _check_random_state(random_state, func: str) -> None:
    ok = random_state is None or isinstance(random_state, (np.random.RandomState, np.random.Generator)) or (
        isinstance(random_state, (numbers.Integral, np.integer)) and not isinstance(random_state, (bool, np.bool_))
        and int(random_state) >= 0)
    if not ok:
        raise ValueError(f"The 'random_state' parameter of {func} must be None, a non-negative int, "
                         f"a numpy RandomState or Generator. Got {random_state!r} instead.")


def _seed_sequence(random_state, func: str) -> np.random.SeedSequence:
    """A SeedSequence from ``random_state`` (None, a non-negative int, a numpy
    RandomState or Generator, from which one integer is drawn): the one root of every
    random draw of a fit."""
    _check_random_state(random_state, func)
    if random_state is None:
        return np.random.SeedSequence()
    if isinstance(random_state, np.random.RandomState):
        return np.random.SeedSequence(int(random_state.randint(np.iinfo(np.int32).max)))
    if isinstance(random_state, np.random.Generator):
        return np.random.SeedSequence(int(random_state.integers(2**63 - 1)))
    return np.random.SeedSequence(int(random_state))


def _weighted_rows(Xb, v):
    """``(i, x_i, v_i)`` for the rows of a block in order, skipping those of weight 0 (they
    make no step and change no state)."""
    for i in range(Xb.shape[0]):
        vt = float(v[i])
        if vt != 0.0:
            yield i, Xb[i], vt


class _OnlineRanker(BinaryLinearRanker):
    """What the four online learners share: fit / partial_fit, streaming, saving.

    A subclass defines ``_check_params`` (returns the validated hyper-parameters),
    ``_new_stream(d)`` (the initial state: a dict of float64 arrays and Python scalars),
    ``_scalar_kinds`` (name -> "count" | "weight" | "rng" for the scalar entries),
    ``_coef_key`` (the stream array that is ``coef_``) and ``_update_block``.
    """

    _coef_key = "w"
    _scalar_kinds: dict = {}

    # --- parameters ----------------------------------------------------------------------
    def _check_common(self):
        name = type(self).__name__
        n_epochs = check_param(self.n_epochs, "n_epochs", name, low=1, integer=True)
        if not isinstance(self.shuffle, (bool, np.bool_)):
            raise TypeError(f"The 'shuffle' parameter of {name} must be a bool. Got {self.shuffle!r} instead.")
        _check_random_state(self.random_state, name)
        return n_epochs

    # --- the two entry points ------------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        """Reset, then ``n_epochs`` passes over ``(X, y)`` (shuffled unless ``shuffle=False``).

        Parameters
        ----------
        X : array-like or sparse matrix (n, d)
        y : array-like (n,), two classes; the positive one is ``classes_[1]``
        sample_weight : array-like (n,) of weights >= 0, optional
            Each row's step is scaled by its weight (see the module notes); rows of
            weight 0 are dropped.
        """
        params = self._check_params()
        n_epochs = self._check_common()
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)
        X_all, is_pos_all, sw_all = X, is_pos, sw
        keep = sw > 0
        if not keep.all():
            idx = np.flatnonzero(keep)
            X, is_pos, sw = X[idx], is_pos[idx], sw[idx]
        shuffle_rng = self._reset(X.shape[1])
        self._prepare_fit(X, is_pos, sw, params)
        n = X.shape[0]
        for _ in range(n_epochs):
            order = shuffle_rng.permutation(n) if self.shuffle else np.arange(n)
            self._stream_rows(X, order, is_pos, sw, params, fitting=True)
        self._publish()
        self._set_threshold(X_all, is_pos_all, sw_all)
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One pass over the rows of ``(X, y)``, in order, continuing from the current state.

        Parameters
        ----------
        X : array-like or sparse matrix (n, d)
        y : array-like (n,); its labels must be among ``classes``
        classes : array-like of two labels, optional
            Needed on the first call unless ``y`` holds both classes; on later calls it
            must name the same two classes, if given.
        sample_weight : array-like (n,) of weights >= 0, optional
        """
        name = type(self).__name__
        params = self._check_params()
        self._check_common()
        first = not hasattr(self, "_stream")
        X, y = validate_data(self, X, y, accept_sparse=["csr", "csc"], dtype=np.float64, reset=first)
        check_classification_targets(y)
        if classes is not None:
            classes = np.unique(np.asarray(classes))
            if classes.shape[0] != 2:
                raise ValueError(f"Only binary classification is supported: {name}.partial_fit needs two classes, "
                                 f"got classes={classes.tolist()!r}.")
        if first:
            if classes is None:
                classes = np.unique(y)
                if classes.shape[0] != 2:
                    raise ValueError(
                        f"{name}.partial_fit: pass classes=[negative, positive] on the first call when y does not "
                        f"hold both classes (it holds {classes.tolist()!r})."
                    )
        elif classes is not None and not np.array_equal(classes, self.classes_):
            raise ValueError(f"{name}.partial_fit: classes={classes.tolist()!r} differ from the classes of the "
                             f"earlier calls, {self.classes_.tolist()!r}.")
        cls = classes if first else self.classes_
        unknown = ~np.isin(y, cls)
        if unknown.any():
            raise ValueError(f"{name}.partial_fit: y holds labels not among the classes {cls.tolist()!r}: "
                             f"{np.unique(y[unknown])[:5].tolist()!r}.")
        sw = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        if first:
            self.classes_ = cls
            self._reset(X.shape[1])
        is_pos = y == self.classes_[1]
        self._stream_rows(X, np.arange(X.shape[0]), is_pos, sw, params, fitting=False)
        self._publish()
        if not hasattr(self, "intercept_"):
            self.intercept_ = 0.0
        if sw[is_pos].sum() > 0 and sw[~is_pos].sum() > 0:
            self._set_threshold(X, is_pos, sw)
        return self

    # --- streaming -------------------------------------------------------------------------
    def _reset(self, d: int) -> np.random.Generator:
        """Fresh state; returns the generator of ``fit``'s shuffles. The reservoir's
        generator (OAM) is a separate child of the same seed, so ``fit(shuffle=False)``
        and ``partial_fit`` over the same rows make the same draws."""
        shuffle_ss, stream_ss = _seed_sequence(self.random_state, type(self).__name__).spawn(2)
        self._stream = self._new_stream(d)
        self._stream_rng = np.random.default_rng(stream_ss)
        return np.random.default_rng(shuffle_ss)

    def _prepare_fit(self, X, is_pos, sw, params) -> None:
        """Hook: state that ``fit`` computes from the whole training set (SPAM's moments)."""

    def _stream_rows(self, X, order, is_pos, sw, params, fitting: bool) -> None:
        for a in range(0, order.shape[0], _BLOCK):
            idx = order[a: a + _BLOCK]
            Xb = X[idx]
            Xb = Xb.toarray() if sparse.issparse(Xb) else np.ascontiguousarray(Xb)
            self._update_block(Xb, is_pos[idx], sw[idx], params, fitting)

    def _publish(self) -> None:
        self.coef_ = self._stream[self._coef_key].copy()
        self.t_ = int(self._stream["t"])

    # --- the safe model format ------------------------------------------------------------
    def _array_shapes(self, d: int) -> dict:
        """The shapes of the arrays of ``_new_stream(d)``, without allocating them (a loaded
        file's ``n_features_in_`` and parameters must not make loading allocate more than
        the file's own arrays take)."""
        return self._stream_shapes(d)

    def _stream_shapes(self, d: int) -> dict:
        """Name -> shape of each array of ``_new_stream(d)`` (a subclass defines it)."""
        raise NotImplementedError

    def _get_model_state(self):
        attrs, arrays = super()._get_model_state()
        for k, v in self._stream.items():
            if k == self._coef_key:
                continue  # it is coef_
            if isinstance(v, np.ndarray):
                arrays[_PREFIX + k] = np.array(v, dtype=np.float64)
            else:
                attrs[_PREFIX + k] = v
        if "rng" in self._scalar_kinds:
            attrs[_PREFIX + "rng"] = self._stream_rng.bit_generator.state
        return attrs, arrays

    def _set_model_state(self, attributes, arrays):
        name = type(self).__name__
        attributes, arrays = dict(attributes), dict(arrays)
        s_attrs = {k[len(_PREFIX):]: attributes.pop(k) for k in list(attributes) if k.startswith(_PREFIX)}
        s_arrays = {k[len(_PREFIX):]: arrays.pop(k) for k in list(arrays) if k.startswith(_PREFIX)}
        super()._set_model_state(attributes, arrays)  # strict about everything else
        # what partial_fit reads (OAM's buffer_size sizes the buffers), checked as fit checks it
        state_param(name, ", ".join(p for p in self._get_param_names() if p not in _COMMON_PARAMS),
                    self._check_params)
        d = self.n_features_in_
        shapes = self._array_shapes(d)
        shapes.pop(self._coef_key)
        want_attrs = set(self._scalar_kinds)
        if set(s_attrs) != want_attrs or set(s_arrays) != set(shapes):
            raise ValueError(
                f"{name} model state: the streaming state must hold exactly the attributes "
                f"{sorted(_PREFIX + k for k in want_attrs)} and arrays {sorted(_PREFIX + k for k in shapes)}; "
                f"got attributes {sorted(_PREFIX + k for k in s_attrs)} and arrays "
                f"{sorted(_PREFIX + k for k in s_arrays)}."
            )
        stream = {}
        for k, shape in shapes.items():
            a = np.asarray(s_arrays[k])
            if a.dtype != np.float64 or a.shape != shape or not np.all(np.isfinite(a)):
                raise ValueError(f"{name} model state: {_PREFIX}{k} must be a finite float64 array of shape {shape}; "
                                 f"got {a.dtype} {a.shape}.")
            stream[k] = a.copy()
        rng = None
        for k, kind in self._scalar_kinds.items():
            v = s_attrs[k]
            if kind == "count":
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    raise ValueError(f"{name} model state: {_PREFIX}{k} must be a non-negative int. Got {v!r}.")
            elif kind == "weight":
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                    raise ValueError(f"{name} model state: {_PREFIX}{k} must be a finite float >= 0. Got {v!r}.")
                v = float(v)
            else:  # the reservoir's PCG64 state
                rng = np.random.default_rng(0)
                try:
                    if not isinstance(v, dict) or v.get("bit_generator") != "PCG64":
                        raise ValueError("not a PCG64 state")
                    rng.bit_generator.state = v
                except (ValueError, TypeError, KeyError) as exc:
                    raise ValueError(f"{name} model state: {_PREFIX}{k} is not a valid PCG64 generator "
                                     f"state ({exc}).") from exc
                continue
            stream[k] = v
        self._check_stream(stream, d)
        stream[self._coef_key] = np.array(self.coef_, dtype=np.float64)
        self._stream = stream
        self._stream_rng = rng if rng is not None else np.random.default_rng(0)
        self.t_ = int(stream["t"])
        check_scorer(self)

    def _check_stream(self, stream: dict, d: int) -> None:
        """Hook: cross-checks of a loaded streaming state (raise ValueError)."""


# Docstring sections shared by AdaOAM, PGD and SPAM (filled in by fill_doc).
_DOCS = {
    "stream_parameters": """n_epochs, shuffle, random_state
    As in :class:`OAM` (the learner itself draws nothing at random).""",
    "stream_attributes": """Attributes
----------
coef_ : ndarray (d,)
intercept_ : float
t_ : int""",
}


# ======================================================================================
# OAM
# ======================================================================================

@register_model
class OAM(_OnlineRanker):
    r"""Online AUC Maximization with reservoir buffers (Zhao, Hoi, Jin & Yang, ICML 2011).

    The pairwise hinge loss of a linear scorer, learned online: each class keeps a
    reservoir sample of its past rows, and each new row is compared with the buffer of
    the other class.

    Parameters
    ----------
    C : float > 0, default 2**-16
        The weight of the hinge terms (the paper's ``C``, chosen there by
        cross-validation over 2^-12 .. 2^10 on features scaled to [-1, 1]). The default
        is our choice, for standardised features, and lies below that grid. Because
        :math:`C_t` grows with the rows seen, a large ``C`` soon makes every step a full
        passive-aggressive step and the last iterate chases noisy pairs: on standardised
        Gaussian data (n = 5000, d = 10, 24, 50; isotropic and correlated) the held-out
        AUC rose steadily as ``C`` fell from 1 to 2^-14 (d = 10: 0.892 at 1, 0.911 at
        2^-12, 0.913 at 2^-14, BBR 0.919), and from 2^-12 to 2^-16 the spread over
        shuffles shrank from about 0.02 to 0.003. As ``C -> 0`` the direction of ``w``
        tends to a weighted difference of the class means (every pair then takes the
        capped step). ``C`` is relative to :math:`\|x\|^2` and to the stream's length.
    buffer_size : int >= 1, default 100
        ``N+ = N-``, the size of each class's reservoir (the paper's default, 100).
    variant : {"seq", "gra"}, default "seq"
        OAM_seq (a passive-aggressive step per buffered row, in turn) or OAM_gra (one
        gradient step against all violated buffered rows, ``w`` frozen meanwhile).
    n_epochs : int >= 1, default 1
        Passes of ``fit`` over the data (the paper makes one).
    shuffle : bool, default True
        Whether ``fit`` streams each pass in a random order (else in the given order).
    random_state : None, int, numpy RandomState or Generator, default None
        Seeds ``fit``'s shuffles and the reservoir draws (two independent streams, so
        ``fit(shuffle=False)`` and ``partial_fit`` over the same rows draw alike).

    Attributes
    ----------
    coef_ : ndarray (d,)
        The current iterate ``w``.
    intercept_ : float
        Not learned (the hinge is on score differences); see the module notes.
    t_ : int
        Rows streamed with positive weight (over all passes and calls).

    Notes
    -----
    Labels are :math:`y \in \{-1, +1\}` internally, :math:`w_0 = 0`. Objective:
    :math:`\tfrac12\|w\|^2 + C \sum_{i \in +, j \in -} \max(0, 1 - w^\top (x_i - x_j))`.
    On a row :math:`x_t` of class :math:`y_t`:

    1. :math:`n_{y_t} \leftarrow n_{y_t} + 1`;
       :math:`C_t = C \max(1, n_{-y_t} / N_{-y_t})` (the other class's count over its
       buffer size).
    2. Reservoir update of :math:`B_{y_t}`: append while it holds fewer than ``N`` rows,
       else with probability :math:`N / n_{y_t}` overwrite a uniformly chosen slot.
    3. For each buffered :math:`x'` of :math:`B_{-y_t}`, :math:`d = y_t (x_t - x')`:

       * ``seq``, in buffer order: :math:`\ell = \max(0, 1 - w^\top d)`,
         :math:`\tau = \min(C_t / 2, \ell / \|d\|^2)`, :math:`w \leftarrow w + \tau d`
         (a pair with :math:`d = 0` is skipped);
       * ``gra``, with :math:`w` frozen: :math:`w \leftarrow w + \tfrac{C_t}{2}
         \sum_{x' : w^\top d \le 1} d`.

    Weights: a row of weight :math:`v_t` and a buffered row of weight :math:`v_j` make a
    pair of weight :math:`v_t v_j`, which multiplies :math:`C_t` in that pair's step
    (the passive-aggressive solution of the weighted hinge term). The reservoir itself
    samples rows, not weight. The ``seq`` pass tracks the margins :math:`w^\top d` of the
    whole buffer incrementally from Gram products instead of a Python step per buffered
    row (see ``_oam_seq``); it is the paper's loop up to rounding.

    Cost: the paper's O(N d) per row for ``gra``; for ``seq`` this implementation spends
    up to O(N^2 d) per row in vectorised Gram products (cheaper in practice than N
    interpreted steps at N = 100). Memory O(N d).

    References
    ----------
    P. Zhao, S. C. H. Hoi, R. Jin, T. Yang. Online AUC Maximization. ICML 2011.
    A baseline of S. Gultekin, J. Paisley. Risk Bounds for Low Cost Bipartite Ranking.
    UAI 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.learners._online import OAM
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 3.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> OAM(shuffle=False).fit(X, y).score(X, y)
    1.0
    """

    _scalar_kinds = {"t": "count", "n_pos": "count", "n_neg": "count", "fill_pos": "count",
                     "fill_neg": "count", "rng": "rng"}

    def __init__(self, C: float = 2**-16, buffer_size: int = 100, variant: str = "seq", n_epochs: int = 1,
                 shuffle: bool = True, random_state=None):
        store_params(self, locals())

    def _check_params(self):
        C = check_param(self.C, "C", "OAM", low=0.0, low_inclusive=False)
        N = check_param(self.buffer_size, "buffer_size", "OAM", low=1, integer=True)
        variant = check_choice(self.variant, "variant", "OAM", ("seq", "gra"))
        return C, N, variant

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        _, N, _ = self._check_params()
        if hasattr(self, "_stream") and self._stream["buf_pos"].shape[0] != N:
            raise ValueError(f"OAM.partial_fit: buffer_size={N} differs from the buffers of the "
                             f"current state ({self._stream['buf_pos'].shape[0]} rows); call fit to start again.")
        return super().partial_fit(X, y, classes=classes, sample_weight=sample_weight)

    partial_fit.__doc__ = _OnlineRanker.partial_fit.__doc__

    def _stream_shapes(self, d):
        N = int(self.buffer_size)
        return {"w": (d,), "buf_pos": (N, d), "buf_neg": (N, d), "bw_pos": (N,), "bw_neg": (N,)}

    def _new_stream(self, d):
        N = int(self.buffer_size)
        return {"w": np.zeros(d), "buf_pos": np.zeros((N, d)), "buf_neg": np.zeros((N, d)),
                "bw_pos": np.zeros(N), "bw_neg": np.zeros(N),
                "t": 0, "n_pos": 0, "n_neg": 0, "fill_pos": 0, "fill_neg": 0}

    def _check_stream(self, stream, d):
        N = stream["buf_pos"].shape[0]
        if N != int(self.buffer_size):
            raise ValueError(f"OAM model state: buffers of {N} rows, buffer_size is {self.buffer_size}.")
        for c in ("pos", "neg"):
            if stream[f"fill_{c}"] > min(N, stream[f"n_{c}"]):
                raise ValueError(f"OAM model state: fill_{c} exceeds the rows seen or the buffer size.")

    def _update_block(self, Xb, pos, v, params, fitting):
        C, N, variant = params
        st = self._stream
        rng = self._stream_rng
        w = st["w"]
        for i, x, vt in _weighted_rows(Xb, v):
            st["t"] += 1
            if pos[i]:
                own, other, sign = "pos", "neg", 1.0
            else:
                own, other, sign = "neg", "pos", -1.0
            st["n_" + own] += 1
            n_own = st["n_" + own]
            Ct = C * max(1.0, st["n_" + other] / N)
            # reservoir update of the own buffer
            fill = st["fill_" + own]
            if fill < N:
                st["buf_" + own][fill] = x
                st["bw_" + own][fill] = vt
                st["fill_" + own] = fill + 1
            elif rng.random() < N / n_own:
                k = int(rng.integers(N))
                st["buf_" + own][k] = x
                st["bw_" + own][k] = vt
            # update w against the other buffer
            m = st["fill_" + other]
            if m == 0:
                continue
            D = x - st["buf_" + other][:m]
            if sign < 0:
                D = -D
            caps = (0.5 * Ct * vt) * st["bw_" + other][:m]
            margins = D @ w
            if variant == "gra":
                viol = margins <= 1.0
                if viol.any():
                    w += caps[viol] @ D[viol]
                continue
            _oam_seq(w, D, caps, margins)


def _oam_seq(w, D, caps, margins) -> None:
    """OAM_seq's pass over the buffer, in place on ``w``: for k = 1..m in turn,
    ``tau_k = min(caps_k, max(0, 1 - w.d_k) / |d_k|^2)``, ``w += tau_k d_k``.

    The margins ``w.d_k`` of the rows still to come are kept up to date from the Gram
    products, so that the pass is a few vector operations rather than m Python steps:

    * most pairs violated by more than the cap (small ``C``: each takes the capped step
      ``caps_k``): speculate that every remaining pair takes the step its margin at the
      start of the round suggests (capped, or none), check the speculation against the
      margins it implies (one triangular product), accept the longest correct prefix and
      the first pair after it (computed exactly), repeat;
    * otherwise (few violated pairs, or passive-aggressive steps ``(1 - w.d)/|d|^2``):
      jump from one violated pair to the next, updating all margins after each step.

    Both give the sequential loop's result up to rounding (the step is continuous in the
    margin at the speculation's decision points)."""
    m = D.shape[0]
    sq = np.einsum("ij,ij->i", D, D)
    thr = 1.0 - caps * sq  # the step is capped iff margin <= thr
    live = sq > 0.0  # d = 0: no step
    n_cap = int(np.count_nonzero(live & (margins <= thr)))
    n_pa = int(np.count_nonzero(live & (margins > thr) & (margins < 1.0)))
    if n_cap > 4 * n_pa + 5:
        G = D @ D.T
        taus = np.zeros(m)
        k0 = 0
        while k0 < m:
            r = slice(k0, m)
            spec = np.where(live[r] & (margins[r] <= thr[r]), caps[r], 0.0)
            M = margins[r] + np.triu(G[r, r], 1).T @ spec  # margins if the speculation holds
            good = np.where(spec > 0.0, M <= thr[r], (M >= 1.0) | ~live[r])
            bad = np.flatnonzero(~good)
            if bad.size == 0:
                taus[r] = spec
                break
            k = k0 + int(bad[0])
            taus[k0:k] = spec[: k - k0]
            taus[k] = min(caps[k], (1.0 - M[k - k0]) / sq[k]) if live[k] and M[k - k0] < 1.0 else 0.0
            margins[k + 1:] += G[k + 1:, k0:k + 1] @ taus[k0:k + 1]
            k0 = k + 1
        w += taus @ D
        return
    k = 0
    while k < m:
        cand = np.flatnonzero(margins[k:] < 1.0)
        if cand.size == 0:
            break
        k += int(cand[0])
        if live[k]:
            tau = min(caps[k], (1.0 - margins[k]) / sq[k])
            w += tau * D[k]
            margins += tau * (D @ D[k])
        k += 1


# ======================================================================================
# AdaOAM
# ======================================================================================

@register_model
@fill_doc(**_DOCS)
class AdaOAM(_OnlineRanker):
    r"""Adaptive online AUC maximization (Ding, Zhao, Hoi & Ong, AAAI 2015).

    OPAUC's pairwise squared loss against every past row of the other class, summarised
    by that class's running mean and covariance, with a diagonal AdaGrad step.

    Parameters
    ----------
    eta : float > 0, default 0.01
        AdaGrad's step size. Our choice (the paper tunes it): on standardised Gaussian
        data with d = 10 .. 50, 0.01 and 0.1 were within 0.007 of BBR's held-out AUC and
        0.01 the steadier as d grew; 1 lost up to 0.03.
    lam : float >= 0, default 2**-10
        OPAUC's ridge penalty :math:`\lambda` (our choice: the smallest value of OPAUC's
        grid 2^-10 .. 2^2; it made no difference to the AUC on those data).
    delta : float > 0, default 1e-8
        AdaGrad's constant added to :math:`\sqrt{G}` (our choice: AdaGrad's usual small
        value; the paper's is not known to us).
    %(stream_parameters)s

    %(stream_attributes)s

    Notes
    -----
    Labels :math:`\pm1`, :math:`w_0 = 0`, :math:`G_0 = 0`. Per class the running weight
    :math:`W`, mean :math:`c` and covariance :math:`S` (divided by :math:`W`). On a row
    :math:`x_t` of weight :math:`v`:

    1. Own class: :math:`W \leftarrow W + v`, :math:`r = v / W`,
       :math:`c \leftarrow c_{old} + r (x_t - c_{old})`,
       :math:`S \leftarrow S + r (x_t x_t^\top - S) + (1 - r) c_{old} c_{old}^\top - c c^\top`
       (a corrected recursion: the one printed in the OPAUC paper misses a term; with
       :math:`v = 1` it is :math:`r = 1/n`).
    2. If the other class has been seen (its :math:`c, S`): on a positive
       :math:`g = \lambda w - x_t + c_- + (x_t - c_-)(x_t - c_-)^\top w + S_- w`; on a
       negative :math:`g = \lambda w + x_t - c_+ + (x_t - c_+)(x_t - c_+)^\top w + S_+ w`
       (the gradient of :math:`\tfrac\lambda2\|w\|^2 + \frac{1}{2 n_{\bar y}}\sum_{\bar y}
       (1 - y_t w^\top (x_t - x_i))^2`); then :math:`g \leftarrow v g`,
       :math:`G \leftarrow G + g \odot g`, :math:`w \leftarrow w - \eta\, g / (\delta + \sqrt G)`.

    Cost O(d^2) per row, memory O(d^2).

    The AdaOAM paper itself was not available to us: this rule is our reading of it from
    its sources, not checked against the paper: OPAUC's gradient (Gao et al. 2013) and the
    plain diagonal AdaGrad step (Duchi et al. 2011).

    References
    ----------
    Y. Ding, P. Zhao, S. C. H. Hoi, Y.-S. Ong. An Adaptive Gradient Method for Online AUC
    Maximization. AAAI 2015. W. Gao, R. Jin, S. Zhu, Z.-H. Zhou. One-Pass AUC
    Optimization. ICML 2013 (OPAUC). J. Duchi, E. Hazan, Y. Singer. Adaptive Subgradient
    Methods. JMLR 12, 2011 (AdaGrad).

    Examples
    --------
    A negative (0, 1), then a positive (1, 0): :math:`c_- = (0, 1)`, :math:`S_- = 0`,
    :math:`g = -x_t + c_- = (-1, 1)`, :math:`G = (1, 1)`, :math:`w = -g / (1 + 1)`.

    >>> from rankwise.learners._online import AdaOAM
    >>> AdaOAM(eta=1.0, lam=0.0, delta=1.0, shuffle=False).fit([[0.0, 1.0], [1.0, 0.0]], [0, 1]).coef_
    array([ 0.5, -0.5])
    """

    _scalar_kinds = {"t": "count", "W_pos": "weight", "W_neg": "weight"}

    def __init__(self, eta: float = 0.01, lam: float = 2**-10, delta: float = 1e-8, n_epochs: int = 1,
                 shuffle: bool = True, random_state=None):
        store_params(self, locals())

    def _check_params(self):
        eta = check_param(self.eta, "eta", "AdaOAM", low=0.0, low_inclusive=False)
        lam = check_param(self.lam, "lam", "AdaOAM", low=0.0)
        delta = check_param(self.delta, "delta", "AdaOAM", low=0.0, low_inclusive=False)
        return eta, lam, delta

    def _stream_shapes(self, d):
        return {"w": (d,), "G": (d,), "c_pos": (d,), "c_neg": (d,), "S_pos": (d, d), "S_neg": (d, d)}

    def _new_stream(self, d):
        return {"w": np.zeros(d), "G": np.zeros(d), "c_pos": np.zeros(d), "c_neg": np.zeros(d),
                "S_pos": np.zeros((d, d)), "S_neg": np.zeros((d, d)), "t": 0, "W_pos": 0.0, "W_neg": 0.0}

    def _update_block(self, Xb, pos, v, params, fitting):
        eta, lam, delta = params
        st = self._stream
        w, G = st["w"], st["G"]
        for i, x, vt in _weighted_rows(Xb, v):
            st["t"] += 1
            own, other, sign = ("pos", "neg", 1.0) if pos[i] else ("neg", "pos", -1.0)
            W = st["W_" + own] + vt
            st["W_" + own] = W
            r = vt / W
            c = st["c_" + own]
            S = st["S_" + own]
            c_old = c.copy()
            c += r * (x - c)
            S += r * (np.outer(x, x) - S) + (1.0 - r) * np.outer(c_old, c_old) - np.outer(c, c)
            if st["W_" + other] == 0.0:
                continue
            co = st["c_" + other]
            dx = x - co
            g = lam * w - sign * dx + dx * (dx @ w) + st["S_" + other] @ w
            g *= vt
            G += g * g
            w -= eta * g / (delta + np.sqrt(G))


# ======================================================================================
# PGD
# ======================================================================================

@register_model
@fill_doc(**_DOCS)
class PGD(_OnlineRanker):
    r"""Online pairwise least squares against all past points (Boissier, Lyu, Ying & Zhou,
    AISTATS 2016).

    Each new row takes a gradient step on the mean squared pairwise loss against every
    earlier row (same-label pairs included), computed in O(d^2) from running moments.

    Parameters
    ----------
    mu : float > 0, default 10.0
        Step-size scale: :math:`\gamma_t = t^{-\theta} / \mu`. Our choice (the paper
        leaves it to its theory and to tuning): a step is stable when
        :math:`\gamma_t \|x_t - \bar X\|^2 \lesssim 2`, about
        :math:`\gamma_t d \lesssim 2` for d standardised features. On Gaussian data
        (n = 2000 - 5000) ``mu = 10`` was within 0.003 of BBR's held-out AUC at
        d = 10, 24 and 50, with independent or correlated features, while ``mu = 1``
        diverged at d = 24 and 50.
    theta : float in (1/2, 1), default 0.75
        Decay exponent of the step (the paper's range is (1/2, 1); 0.75 is our choice,
        the middle).
    %(stream_parameters)s

    %(stream_attributes)s

    Notes
    -----
    Labels :math:`y \in \{0, 1\}`, :math:`w_1 = 0`. At row :math:`t` (the first row makes
    no step, having no past):

    .. math:: w_{t+1} = w_t - \gamma_t \frac{1}{t-1}\sum_{j<t}
              \bigl(w_t^\top (x_t - x_j) - y_t + y_j\bigr)(x_t - x_j),

    computed with the running means over past rows :math:`\bar X`, :math:`\bar Y`,
    :math:`\overline{XX}` (of :math:`x x^\top`) and :math:`\overline{YX}` (of :math:`y x`):

    .. math:: g = [w^\top (x_t - \bar X)]\, x_t - (w^\top x_t) \bar X + \overline{XX} w
              - (y_t - \bar Y) x_t - \overline{YX} + y_t \bar X

    (the algorithm as printed in the paper has the wrong sign on the
    :math:`(y_t - \bar Y) x_t` term). Weights: past rows enter the means with their
    weights (:math:`\frac{1}{\sum_{j<t} v_j}\sum_{j<t} v_j \cdots`) and the step is
    multiplied by the row's own weight; :math:`t` counts rows. With several passes, each
    pass streams the rows again as new points (the means and :math:`t` keep growing).
    With labels :math:`\pm1` the iterates would double and the ranking be unchanged.

    Cost O(d^2) per row, memory O(d^2).

    References
    ----------
    M. Boissier, S. Lyu, Y. Ying, D.-X. Zhou. Fast Convergence of Online Pairwise Learning
    Algorithms. AISTATS 2016. A baseline of S. Gultekin, J. Paisley. Risk Bounds for Low
    Cost Bipartite Ranking. UAI 2020.

    Examples
    --------
    A positive (1, 0), then a negative (0, 1): the second row makes the one step,
    :math:`g = (0 - 0 + 1)(x_2 - x_1) = (-1, 1)`, :math:`\gamma_2 = 2^{-3/4} / \mu`.

    >>> from rankwise.learners._online import PGD
    >>> m = PGD(mu=2.0, shuffle=False).fit([[1.0, 0.0], [0.0, 1.0]], [1, 0])
    >>> m.coef_ * 2.0 / 2 ** -0.75
    array([ 1., -1.])
    """

    _scalar_kinds = {"t": "count", "W": "weight", "Ybar": "weight"}

    def __init__(self, mu: float = 10.0, theta: float = 0.75, n_epochs: int = 1, shuffle: bool = True,
                 random_state=None):
        store_params(self, locals())

    def _check_params(self):
        mu = check_param(self.mu, "mu", "PGD", low=0.0, low_inclusive=False)
        theta = check_param(self.theta, "theta", "PGD", low=0.5, high=1.0, low_inclusive=False,
                            high_inclusive=False)
        return mu, theta

    def _stream_shapes(self, d):
        return {"w": (d,), "Xbar": (d,), "YX": (d,), "XX": (d, d)}

    def _new_stream(self, d):
        return {"w": np.zeros(d), "Xbar": np.zeros(d), "YX": np.zeros(d), "XX": np.zeros((d, d)),
                "t": 0, "W": 0.0, "Ybar": 0.0}

    def _update_block(self, Xb, pos, v, params, fitting):
        mu, theta = params
        st = self._stream
        w, Xbar, YX, XX = st["w"], st["Xbar"], st["YX"], st["XX"]
        for i, x, vt in _weighted_rows(Xb, v):
            yt = 1.0 if pos[i] else 0.0
            st["t"] += 1
            t = st["t"]
            Ybar = st["Ybar"]
            if st["W"] > 0.0:
                gamma = t ** (-theta) / mu
                wx = float(w @ x)
                g = (wx - float(w @ Xbar) - yt + Ybar) * x - (wx - yt) * Xbar + XX @ w - YX
                w -= (gamma * vt) * g
            W = st["W"] + vt
            st["W"] = W
            r = vt / W
            Xbar += r * (x - Xbar)
            st["Ybar"] = Ybar + r * (yt - Ybar)
            YX += r * (yt * x - YX)
            XX += r * (np.outer(x, x) - XX)


# ======================================================================================
# SPAM
# ======================================================================================

@register_model
@fill_doc(**_DOCS)
class SPAM(_OnlineRanker):
    r"""Stochastic proximal AUC maximization (Natole, Ying & Lyu, ICML 2018).

    Stochastic proximal gradient on the saddle form of the square-loss AUC objective, its
    inner variables in closed form from the class means; the output is the average of the
    iterates.

    Parameters
    ----------
    C : float > 0, default 0.05
        Step-size scale, :math:`\eta_t = C/\sqrt t` (the paper's form). The value is our
        choice for standardised features: the first step is stable when
        :math:`2 (1-p) C \|x\|^2 \lesssim 2`, i.e. :math:`C \lesssim 1/d` there; on
        Gaussian data with d = 10 .. 50 it was within 0.01 of BBR's held-out AUC. (A
        public copy of the SPAM MATLAB code, ``baselines/icml18_spam`` in the GitHub
        repository baojianzhou/sparse-auc, runs ``C = 100`` on rows scaled to unit norm.)
    beta : float >= 0, default 1e-4
        The ridge penalty :math:`\tfrac\beta2\|w\|^2` of :math:`\Omega` (the L2 part of the
        elastic net). Our choice; the paper cross-validates it.
    penalty : {"l2", "elasticnet"}, default "l2"
        :math:`\Omega(w) = \tfrac\beta2\|w\|^2`, or that plus :math:`\beta_2 \|w\|_1`.
    beta2 : float >= 0, default 1e-4
        The L1 coefficient of the elastic net (ignored with ``penalty="l2"``).
    %(stream_parameters)s

    Attributes
    ----------
    coef_ : ndarray (d,)
        The average :math:`\bar w_T = \frac1T \sum_{t=1}^T w_t` of the iterates.
    intercept_ : float
    t_ : int

    Notes
    -----
    Objective :math:`p(1-p) E[(1 - w^\top (x - x'))^2 \mid y = 1, y' = -1] + \Omega(w)`,
    through the paper's saddle function :math:`F(w, a, b, \alpha)` with its closed-form
    inner variables :math:`a = w^\top m_+`, :math:`b = w^\top m_-`, :math:`\alpha = b - a`.
    At step :math:`t` (:math:`w_0 = 0`, :math:`s = w_{t-1}^\top x_t`,
    :math:`\eta_t = C/\sqrt t`):

    * positive: :math:`G = 2(1-p)[(s - a) - (1 + \alpha)]\, x_t`;
      negative: :math:`G = 2p[(s - b) + (1 + \alpha)]\, x_t`;
    * :math:`u = w_{t-1} - \eta_t v_t G` (:math:`v_t` the row's weight);
    * ``l2``: :math:`w_t = u / (1 + \eta_t \beta)`; ``elasticnet``: soft-threshold
      :math:`u` by :math:`\eta_t \beta_2`, then divide by :math:`(1 + \eta_t \beta)`;
    * :math:`\bar w_t = \bar w_{t-1} + (w_t - \bar w_{t-1}) / t`.

    Where :math:`p, m_+, m_-` come from (the paper takes them from the training set):

    * ``fit``: from the (weighted) training data given to it, computed once before the
      first pass and held fixed, as in the paper;
    * ``partial_fit``: running estimates, each row entering them just before its own step
      (:math:`p` the share of positive weight so far, :math:`m_\pm` the weighted class
      means so far; a class not seen yet contributes :math:`p \in \{0, 1\}`, which zeroes
      the gradient). After ``fit``, ``partial_fit`` continues from the training data's
      moments as if those rows had been streamed once. So ``partial_fit`` over chunks
      does *not* reproduce ``fit`` (the other three learners do, exactly).

    The order of operations (gradient at :math:`w_{t-1}`, prox, average of the prox-ed
    iterates, :math:`t` counting steps across passes) agrees with the public MATLAB
    code cited under ``C``, which also takes :math:`p, m_\pm` from the training set.

    Cost O(d) per row.

    References
    ----------
    M. Natole Jr., Y. Ying, S. Lyu. Stochastic Proximal Algorithms for AUC Maximization.
    ICML 2018. A baseline of S. Gultekin, J. Paisley. Risk Bounds for Low Cost Bipartite
    Ranking. UAI 2020.

    Examples
    --------
    :math:`p = 1/2`, :math:`m_+ = (1, 0)`, :math:`m_- = (0, 1)`, ``C = 1``, no penalty.
    Step 1 (the positive, :math:`w = 0`): :math:`G = 2 \cdot \tfrac12 (0 - 0 - 1) x_1`, so
    :math:`w_1 = (1, 0)`. Step 2 (the negative): :math:`a = 1`, :math:`b = 0`,
    :math:`\alpha = -1`, :math:`s = 0`, :math:`G = (0 - 0 + 0) x_2 = 0`, so
    :math:`w_2 = w_1` and the average is :math:`(1, 0)`.

    >>> from rankwise.learners._online import SPAM
    >>> SPAM(C=1.0, beta=0.0, shuffle=False).fit([[1.0, 0.0], [0.0, 1.0]], [1, 0]).coef_
    array([1., 0.])
    """

    _coef_key = "wbar"
    _scalar_kinds = {"t": "count", "W_pos": "weight", "W_neg": "weight"}

    def __init__(self, C: float = 0.05, beta: float = 1e-4, penalty: str = "l2", beta2: float = 1e-4,
                 n_epochs: int = 1, shuffle: bool = True, random_state=None):
        store_params(self, locals())

    def _check_params(self):
        C = check_param(self.C, "C", "SPAM", low=0.0, low_inclusive=False)
        beta = check_param(self.beta, "beta", "SPAM", low=0.0)
        penalty = check_choice(self.penalty, "penalty", "SPAM", ("l2", "elasticnet"))
        beta2 = check_param(self.beta2, "beta2", "SPAM", low=0.0)
        return C, beta, (beta2 if penalty == "elasticnet" else None)

    def _stream_shapes(self, d):
        return {"w": (d,), "wbar": (d,), "m_pos": (d,), "m_neg": (d,)}

    def _new_stream(self, d):
        return {"w": np.zeros(d), "wbar": np.zeros(d), "m_pos": np.zeros(d), "m_neg": np.zeros(d),
                "t": 0, "W_pos": 0.0, "W_neg": 0.0}

    def _prepare_fit(self, X, is_pos, sw, params):
        st = self._stream
        for c, mask in (("pos", is_pos), ("neg", ~is_pos)):
            idx = np.flatnonzero(mask)
            wc = sw[idx]
            st["W_" + c] = float(wc.sum())
            st["m_" + c] = np.asarray(X[idx].T @ wc, dtype=np.float64).ravel() / st["W_" + c]

    def _update_block(self, Xb, pos, v, params, fitting):
        C, beta, beta2 = params
        st = self._stream
        w, wbar, m_pos, m_neg = st["w"], st["wbar"], st["m_pos"], st["m_neg"]
        for i, x, vt in _weighted_rows(Xb, v):
            if not fitting:  # running estimates of p, m+, m-
                c = "pos" if pos[i] else "neg"
                W = st["W_" + c] + vt
                st["W_" + c] = W
                m = m_pos if pos[i] else m_neg
                m += (vt / W) * (x - m)
            p = st["W_pos"] / (st["W_pos"] + st["W_neg"])
            st["t"] += 1
            t = st["t"]
            eta = C / math.sqrt(t)
            s = float(w @ x)
            a = float(w @ m_pos)
            b = float(w @ m_neg)
            alpha = b - a
            if pos[i]:
                coef = 2.0 * (1.0 - p) * ((s - a) - (1.0 + alpha))
            else:
                coef = 2.0 * p * ((s - b) + (1.0 + alpha))
            w -= (eta * vt * coef) * x
            if beta2 is not None:
                np.copyto(w, np.sign(w) * np.maximum(np.abs(w) - eta * beta2, 0.0))
            w /= 1.0 + eta * beta
            wbar += (w - wbar) / t
