"""The partial AUC over a band of false-positive rates (pROC's specificity focus) or of
true-positive rates (its sensitivity focus), McClish-standardised on request."""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_choice, check_param
from .._kernels import REL
from ._auc import AUC
from ._base import RankCriterion, num, register

__all__ = ["PartialAUC"]


@register
class PartialAUC(RankCriterion):
    r"""Area under the empirical ROC curve (ties as diagonal segments, the curve linearly
    interpolated at the ends of the band) over false-positive rates in
    ``[min_fpr, max_fpr]``, or, with ``min_tpr``/``max_tpr``, the area between the curve and
    the right edge (``FPR = 1``) over true-positive rates in ``[min_tpr, max_tpr]``.

    Pass (false-positive band ``[a, b]``), on the negative side: going down from the top,
    a negative level of mass ``N`` moves the curve right by ``N / n-`` while the TPR rises
    from ``T0 = (n+ - Pb - Pt) / n+`` by ``Pt / n+`` (``Pt`` tied positives: a diagonal).
    The part of that segment inside the band, fractions ``u0 <= u <= u1`` of it, adds
    ``(N / n-) [(u1 - u0) T0 + (u1^2 - u0^2) Pt / (2 n+)]``; levels with positives only add
    no width. The true-positive band ``[a, b]`` of a sample is the false-positive band
    ``[1 - b, 1 - a]`` of its mirror (classes swapped, scores negated), so one pass serves
    both.

    Projection (false-positive band; derivation in ``docs/inference.md``): a positive at
    false-positive rate ``f`` lifts the curve over ``[f, 1]``: its term is ``-clip(f, a, b)``
    up to a constant (``f`` read at the middle of a tied level). A negative at rate ``u``
    moves the quantile of every rate above ``u``; integrating ``ROC'`` over the band gives
    ``ROC(clip(u, a, b)) = clip(ROC(u), ROC(a), ROC(b))``: its placement (the share of
    positive mass above it, ties 1/2) clipped to the curve's heights at the band's edges.
    Those heights are read as the curve's mean height over a window one negative wide,
    negative mass ``[x (n- - 1), x (n- - 1) + 1]`` from the top for the edge ``x`` (no
    clip at an edge at 0 or 1): continuous in ``x``, so the standard error does not jump
    when the edge crosses a step of the curve. Untied and unweighted, these terms make the
    variance exactly the stratified delete-one jackknife's (Efron & Stein 1981): deleting
    negative ``i`` of ``n-`` leaves ``(n- - 1)`` times the area at a constant minus the mean
    placement over such a window at ``clip(i - 1, a (n- - 1), b (n- - 1))``, as Tukey &
    McLaughlin's (1963) jackknife of a
    trimmed mean winsorizes at the first observation outside. Example: positives 1.0, 0.7,
    0.3, negatives 0.9, 0.5, 0.1, ``max_fpr = 1/3``: placements 1/3, 2/3, 1; the read at
    1/3 is the mean height over negative mass [2/3, 5/3], ``1/3 * 1/3 + 2/3 * 2/3 = 5/9``;
    the negatives' terms 1/3, 5/9, 5/9, the positives' 0, -1/3, -1/3; standard error
    ``sqrt((4/243) / 3 + (1/27) / 3) = sqrt(13) / 27 = 0.1335``. On a partitioned sample
    each bucket reports its part of each window's integral.

    McClish's (1989) standardisation ``(1 + (A - m) / (M - m)) / 2``, ``m`` the area under
    the diagonal and ``M`` that of a perfect curve over the band (``b - a``), maps chance
    to 1/2 and perfection to 1. For a false-positive band ``m = (b^2 - a^2) / 2``; for a
    true-positive band ``m = (b - a) - (b^2 - a^2) / 2`` (the same formula on the mirror).
    Below the diagonal it is below 1/2 (pROC returns NA there unless
    ``allow.invalid.partial.auc.correct = TRUE``, which gives these values).
    """

    name = "partial_auc"
    examples = ("partial_auc:max_fpr=0.3", "partial_auc:max_fpr=0.3,standardize=mcclish",
                "partial_auc:min_fpr=0.2,max_fpr=0.6", "partial_auc:min_tpr=0.5,standardize=mcclish")

    def __init__(self, max_fpr=None, standardize=None, min_fpr=None, min_tpr=None, max_tpr=None):
        by_fpr = max_fpr is not None or min_fpr is not None
        by_tpr = max_tpr is not None or min_tpr is not None
        if by_fpr and by_tpr:
            raise ValueError("partial_auc takes a band of false-positive rates (min_fpr, max_fpr) or of "
                             "true-positive rates (min_tpr, max_tpr), not both.")
        if not (by_fpr or by_tpr):
            raise TypeError("partial_auc needs a band: max_fpr= (and min_fpr=) for false-positive rates, "
                            "or min_tpr= (and max_tpr=) for true-positive rates, e.g. 'partial_auc:max_fpr=0.1'.")
        kind = "tpr" if by_tpr else "fpr"
        lo = min_tpr if by_tpr else min_fpr
        hi = max_tpr if by_tpr else max_fpr
        lo = check_param(0.0 if lo is None else lo, f"min_{kind}", "partial_auc", low=0.0, high=1.0,
                         high_inclusive=False)
        hi = check_param(1.0 if hi is None else hi, f"max_{kind}", "partial_auc", low=0.0, high=1.0,
                         low_inclusive=False)
        if not lo < hi:
            raise ValueError(f"The 'min_{kind}' parameter of partial_auc must be below 'max_{kind}'. "
                             f"Got {lo!r} and {hi!r} instead.")
        if standardize is not None:
            standardize = check_choice(standardize, "standardize", "partial_auc", ("mcclish",))
        self.standardize = standardize
        self.mirror = by_tpr
        # The band of false-positive rates the pass integrates (on the mirror for TPR).
        self.a, self.b = (1.0 - hi, 1.0 - lo) if self.mirror else (lo, hi)
        self._full = lo == 0.0 and hi >= 1.0
        self._auc = AUC()

    def describe(self) -> str:
        # The band as given: FPR <= b, FPR a-b; TPR >= a, TPR a-b (on the mirror for TPR).
        kind, (lo, hi) = ("TPR", (1.0 - self.b, 1.0 - self.a)) if self.mirror else ("FPR", (self.a, self.b))
        if self._full:
            band = "the whole curve"
        elif kind == "FPR" and lo == 0.0:
            band = f"FPR \u2264 {num(hi)}"
        elif kind == "TPR" and hi == 1.0:
            band = f"TPR \u2265 {num(lo)}"
        else:
            band = f"{kind} {num(lo)}\u2013{num(hi)}"
        return f"partial AUC, {band}" + (" (McClish)" if self._standardized else "")

    # --- McClish ---
    def _diag_and_perfect(self):
        a, b = self.a, self.b
        return 0.5 * (b * b - a * a), b - a

    def _mcclish(self, area):
        lo, hi = self._diag_and_perfect()
        return 0.5 * (1.0 + (area - lo) / (hi - lo))

    @property
    def _standardized(self) -> bool:
        return self.standardize is not None and not self._full

    # --- value ---
    def sums(self, t):
        if self._full:
            return self._auc.sums(t)
        t = t.mirrored() if self.mirror else t
        a, b = self.a, self.b
        n_neg, n_pos = t.n_neg, t.n_pos
        # Only negative levels whose segment starts left of b contribute.
        side = t.neg_side.tail((1.0 - b) * n_neg * (1.0 + REL))
        mass = np.asarray(side.mass, dtype=np.float64)
        fpr_before = (n_neg - side.own_below - mass) / n_neg
        u1 = np.clip(side.ratio((b - fpr_before) * n_neg, mass), 0.0, 1.0)
        # Untied, the tied terms are 0 and are not computed (other_tied is a constant there).
        t0 = n_pos - side.other_below
        if not side.unit:
            t0 -= side.other_tied
        t0 /= n_pos
        u0 = None if a == 0.0 else np.clip(side.ratio((a - fpr_before) * n_neg, mass), 0.0, 1.0)
        x = u1 * t0 if u0 is None else (u1 - u0) * t0
        if not side.unit:  # a level tied with positives: half of its area
            dt = side.other_tied / n_pos
            x = u1 * (t0 + 0.5 * u1 * dt) if u0 is None else x + 0.5 * (u1 * u1 - u0 * u0) * dt
        return (side.total(x) / n_neg,)

    def finish(self, sums, n_pos, n_neg):
        area = self._auc.finish(sums, n_pos, n_neg) if self._full else sums[0]
        return self._mcclish(area) if self._standardized else area

    # --- projection (on the mirror for a band of true-positive rates) ---
    def _cuts(self):
        """The band's ends at which the negatives' terms are clipped: ``a`` when above 0,
        ``b`` when below 1 (an end at 0 or 1 clips nothing)."""
        return tuple(x for x, inner in ((self.a, self.a > 0.0), (self.b, self.b < 1.0)) if inner)

    @staticmethod
    def _windows(x, M):
        """The start ``s`` of the unit window ``[s, s + 1]`` of negative mass (counted
        from the top) over which the edge ``x`` reads the curve: ``s = x (M - 1)``, so
        that the window starts at the first negative for ``x = 0`` and ends at the last
        for ``x = 1``."""
        return x * max(M - 1.0, 0.0)

    def _window_sum(self, Na, mass, Pa, pmass, P, M):
        """For each cut, the integral of the curve's height over the part of its window
        that these levels cover: a level spans ``[Na, Na + mass]`` of negative mass, where
        the curve rises from ``Pa / P`` by ``pmass / P`` (a diagonal when tied)."""
        out = []
        for x in self._cuts():
            s = self._windows(x, M)
            t0 = np.clip(s - Na, 0.0, mass)  # the window's part of each level, from its start
            t1 = np.clip(s + 1.0 - Na, 0.0, mass)
            with np.errstate(invalid="ignore", divide="ignore"):
                rise = np.where(mass > 0, pmass / mass, 0.0)
            out.append(float(np.sum(Pa * (t1 - t0) + 0.5 * rise * (t1 * t1 - t0 * t0))) / P)
        return out

    def summary(self, d, bw):
        d = d.mirrored() if self.mirror else d
        # Global masses: a bucket holds its share of each window's integral.
        return {"win": self._window_sum(d.Na, d.b, d.Pa, d.a, d.P, d.M)}

    def _oriented(self, st):
        """``(P, M, positives below, negatives below, positive mass, negative mass, (a, b)
        at the lowest level, at the highest)`` of a score range as the pass reads it (on
        the mirror for a band of true-positive rates: its positives are our negatives,
        its levels ours from the top down)."""
        cp, cn, A, B = st.range_masses()
        lo, hi = st.end_masses()
        P, M = st.n_pos, st.n_neg
        if not self.mirror:
            return P, M, cp, cn, A, B, lo, hi
        return M, P, M - cn - B, P - cp - A, B, A, (hi[1], hi[0]), (lo[1], lo[0])

    # A range whose negative mass (from the top, [M - cn - B, M - cn]) meets no window
    # holds no part of the edges' reads; one that meets a window is read densely.
    def range_summary(self, st, bw):
        P, M, cp, cn, A, B, _, _ = self._oriented(st)
        top, bottom = M - cn - B, M - cn
        for x in self._cuts():
            s = self._windows(x, M)
            if B > 0 and bottom > s and top < s + 1.0:
                return None
        return {"win": [0.0 for _ in self._cuts()]}

    def _flat_terms(self, P, M, cp, cn, A, B, g):
        """Each class's term on a range where it is one value (None where it is not): a
        positive past the band is ``-b``, before it ``-a``; a negative whose placement is
        at least the read at ``b`` takes that read, one at most the read at ``a`` takes that."""
        a, b = self.a, self.b
        hp = hn = None
        if (M - cn - B) / M > b:  # every positive's false-positive rate is past b
            hp = -b
        elif a > 0.0 and (M - cn) / M < a:
            hp = -a
        if b < 1.0 and (P - cp - A) / P >= g["at_b"]:  # every placement is at least (P - cp - A) / P
            hn = g["at_b"]
        elif a > 0.0 and (P - cp) / P <= g["at_a"]:  # ... and at most (P - cp) / P
            hn = g["at_a"]
        return hp, hn

    def range_terms(self, st, bw, g):
        P, M, cp, cn, A, B, _, _ = self._oriented(st)
        hp, hn = self._flat_terms(P, M, cp, cn, A, B, g)
        if hp is None or hn is None:  # projection()'s operations at each class's levels
            md = st.mirrored() if self.mirror else st
            sp, sn = self._side_terms(md, g)
            if self.mirror:
                sp, sn = sp[::-1], sn[::-1]
            hp = sp if hp is None else hp
            hn = sn if hn is None else hn
        return (hn, hp) if self.mirror else (hp, hn)

    def _clip_placements(self, plc, g):
        """The negatives' terms: their placements clipped to the reads at the band's ends."""
        if self.b < 1.0:
            plc = np.minimum(plc, g["at_b"])
        if self.a > 0.0:
            plc = np.maximum(plc, g["at_a"])
        return plc

    def _side_terms(self, t, g):
        """projection() at the levels of each class side of ``t`` (the table as the pass
        reads it): a level's negatives below and tied are, for a positive, the side's
        other class below and tied, for a negative its own below and its mass."""
        P, M = t.n_pos, t.n_neg
        ps, ns = t.pos_side, t.neg_side
        x = M - ps.other_below  # (Na + b / 2) at each positive level: ((M - Nb) - b) + b / 2
        if not ps.unit:
            x -= ps.other_tied
            x += 0.5 * ps.other_tied
        x /= M
        h_pos = -np.clip(x, self.a, self.b)
        pa = P - ns.other_below  # (Pa + a / 2) at each negative level: ((P - Pb) - a) + a / 2
        if not ns.unit:
            pa -= ns.other_tied
            pa += 0.5 * ns.other_tied
        pa /= P
        return h_pos, self._clip_placements(pa, g)

    def combine(self, summaries, n_pos, n_neg):
        M = n_pos if self.mirror else n_neg  # the negatives of the pass
        parts = [s["win"] for s in summaries if s]
        # Each window lies in [0, M] when M >= 1 (its integral is its mean); a class of
        # less than one unit (no variance) is read over all of it.
        reads = [math.fsum(p[i] for p in parts) / min(1.0, M) for i in range(len(self._cuts()))]
        at = dict(zip([k for k, inner in (("at_a", self.a > 0.0), ("at_b", self.b < 1.0)) if inner], reads))
        if len(at) == 2:  # the reads increase with the edge; a rounding may not reverse them
            at["at_a"] = min(at["at_a"], at["at_b"])
        return [dict(at) for _ in summaries]

    def projection(self, d, bw, g):
        md = d.mirrored() if self.mirror else d
        h_neg = self._clip_placements((md.Pa + 0.5 * md.a) / md.P, g)
        h_pos = -np.clip((md.Na + 0.5 * md.b) / md.M, self.a, self.b)
        if self.mirror:  # the mirror's positives are our negatives, its levels ours reversed
            return h_neg[::-1], h_pos[::-1]
        return h_pos, h_neg

    def scale(self, value, bsums, g, n_pos, n_neg):
        if not self._standardized:
            return 1.0, (0.0, self.b - self.a)
        lo, hi = self._diag_and_perfect()
        return 0.5 / (hi - lo), (self._mcclish(0.0), 1.0)
