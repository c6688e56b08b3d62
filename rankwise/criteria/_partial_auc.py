"""The partial AUC over a band of false-positive rates (pROC's specificity focus) or of
true-positive rates (its sensitivity focus), McClish-standardised on request."""

from __future__ import annotations

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

    Projection (false-positive band): a positive at false-positive rate ``x`` lifts the
    curve over ``[x, 1]``: its influence is ``-clip(x, a, b)`` up to a constant. A negative
    at ``x`` shifts the curve right beyond ``x``; integrating ``ROC'`` gives
    ``ROC(clip(x, a, b))``. Ties are read at the middle of their segment. ``ROC(a)`` and
    ``ROC(b)`` come from the points on either side of them (on a partitioned sample, from
    the buckets holding those points).

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
        return (self.a, self.b) if self.a > 0.0 else (self.b,)

    def summary(self, d, bw):
        d = d.mirrored() if self.mirror else d
        # ROC points of the bucket, by increasing fpr (levels from the top), global rates.
        fpr = (d.Na + d.b)[::-1] / d.M
        tpr = (d.Pa + d.a)[::-1] / d.P
        out = []
        for x in self._cuts():
            j = int(np.searchsorted(fpr, x, side="right")) - 1
            out.append({"left": (float(fpr[j]), float(tpr[j])) if j >= 0 else None,
                        "right": (float(fpr[j + 1]), float(tpr[j + 1])) if j + 1 < fpr.shape[0] else None})
        return {"cuts": out}

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

    # A range whose false-positive rates all lie on one side of the band's ends: every
    # level's ROC point after it, (M - Nb) / M, and its mid-rate (M - Nb - b / 2) / M lie
    # between (M - negatives up to the range's top) / M and (M - negatives below it) / M.
    def range_summary(self, st, bw):
        P, M, cp, cn, A, B, _, hi = self._oriented(st)
        first = ((M - (cn + B - hi[1])) / M, (P - (cp + A - hi[0])) / P)  # after the top level
        last = ((M - cn) / M, (P - cp) / P)  # after the bottom level
        out = []
        for x in self._cuts():
            if first[0] > x:
                out.append({"left": None, "right": first})
            elif last[0] <= x:
                out.append({"left": last, "right": None})
            else:
                return None
        return {"cuts": out}

    def range_terms(self, st, bw, g):
        P, M, cp, cn, A, B, _, _ = self._oriented(st)
        a, b = self.a, self.b
        if (M - cn - B) / M > b:  # past the band: the curve's value at b, the clip at b
            hp, hn = -b, g["at_b"]
        elif a > 0.0 and (M - cn) / M < a:  # before it
            hp, hn = -a, g["at_a"]
        else:  # in the band: projection()'s operations at each class's levels
            md = st.mirrored() if self.mirror else st
            hp, hn = self._side_terms(md, g)
            return (hn[::-1], hp[::-1]) if self.mirror else (hp, hn)
        return (hn, hp) if self.mirror else (hp, hn)

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
        x = M - ns.own_below
        if ns.unit:
            x -= 1.0
            x += 0.5
        else:
            x -= ns.mass
            x += 0.5 * ns.mass
        x /= M
        pa = P - ns.other_below  # (Pa + a / 2) at each negative level: ((P - Pb) - a) + a / 2
        if not ns.unit:
            pa -= ns.other_tied
            pa += 0.5 * ns.other_tied
        pa /= P
        h_neg = np.where(x <= self.b, pa, g["at_b"])
        if self.a > 0.0:
            h_neg = np.where(x < self.a, g["at_a"], h_neg)
        return h_pos, h_neg

    def combine(self, summaries, n_pos, n_neg):
        # On the mirror the buckets run the other way (its lowest scores are our highest).
        order = summaries[::-1] if self.mirror else summaries
        at = []
        for i, x in enumerate(self._cuts()):
            # ROC(x): the last point at or left of x (lowest bucket holding one; the origin if
            # none), then linearly towards the first point right of it (highest bucket holding one).
            left = next((s["cuts"][i]["left"] for s in order if s and s["cuts"][i]["left"]), (0.0, 0.0))
            right = next((s["cuts"][i]["right"] for s in reversed(order) if s and s["cuts"][i]["right"]), None)
            if right is None or right[0] == left[0]:
                at.append(left[1])
            else:
                at.append(left[1] + (x - left[0]) * (right[1] - left[1]) / (right[0] - left[0]))
        roc_a, roc_b = (at[0], at[1]) if len(at) == 2 else (0.0, at[0])
        return [{"at_a": roc_a, "at_b": roc_b} for _ in summaries]

    def projection(self, d, bw, g):
        md = d.mirrored() if self.mirror else d
        a, b = self.a, self.b
        fpr_mid = (md.Na + 0.5 * md.b) / md.M
        h_neg = np.where(fpr_mid <= b, (md.Pa + 0.5 * md.a) / md.P, g["at_b"])
        if a > 0.0:
            h_neg = np.where(fpr_mid < a, g["at_a"], h_neg)
        h_pos = -np.clip(fpr_mid, a, b)
        if self.mirror:  # the mirror's positives are our negatives, its levels ours reversed
            return h_neg[::-1], h_pos[::-1]
        return h_pos, h_neg

    def scale(self, value, bsums, g, n_pos, n_neg):
        if not self._standardized:
            return 1.0, (0.0, self.b - self.a)
        lo, hi = self._diag_and_perfect()
        return 0.5 / (hi - lo), (self._mcclish(0.0), 1.0)
