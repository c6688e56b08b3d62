"""Calibration of the scorers whose scores all lie in [0, 1] (read as probabilities): the
Brier score and the expected calibration error with intervals, the Brier decomposition,
the reliability curves and each class's score distribution."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from ._criteria import Row
from ._draw import curve_styles, new_figure, png
from ._html import esc, figure, fmt, level_text, num_attrs, section, table, value_cell
from ._page import Section

#: Equal-width bins of the calibration error, the decomposition and the reliability curve.
N_BINS = 10
#: Bins of [0, 1] of the per-class score histograms.
HIST_EDGES = np.linspace(0.0, 1.0, 21)


def probability_scorers(data) -> list[str]:
    """The scorers whose every score lies in [0, 1], in the caller's order."""
    return [name for name, s in data.scores.items() if s.size and float(s.min()) >= 0.0 and float(s.max()) <= 1.0]


@dataclass(frozen=True)
class ScorerCalibration:
    """One probability scorer: ``brier`` (normal interval), ``ece`` (bootstrap interval),
    the decomposition over ``n_bins``, and what its figures show: ``summary`` (a
    :class:`rankwise.stats.CalibrationSummary`, for the reliability curve) and
    ``distributions`` (:func:`rankwise.score_distributions` on 20 bins of [0, 1])."""

    brier: Row
    ece: Row
    reliability: float
    resolution: float
    uncertainty: float
    n_bins: int
    summary: Any
    distributions: Any

    def as_dict(self) -> dict:
        return {"brier": self.brier.as_dict(), "ece": self.ece.as_dict(), "reliability": self.reliability,
                "resolution": self.resolution, "uncertainty": self.uncertainty, "n_bins": self.n_bins}


def scorer_calibration(data, s) -> ScorerCalibration:
    """The calibration numbers of the probability column ``s``."""
    from .. import metrics, stats

    c = stats.calibration(data.y01, s, n_bins=N_BINS, confidence_level=data.level, **data.cluster_args)
    rows = {}
    for key, est in (("brier", c.brier_score), ("ece", c.calibration_error)):
        ci = est.confidence_interval(data.level, n_resamples=data.n_resamples, random_state=data.random_state)
        rows[key] = Row(value=float(est.value), std_error=float(est.std_error), low=float(ci.low),
                        high=float(ci.high), method=ci.method)
    d = c.decomposition
    return ScorerCalibration(brier=rows["brier"], ece=rows["ece"], reliability=float(d.reliability),
                             resolution=float(d.resolution), uncertainty=float(d.uncertainty), n_bins=int(d.n_bins),
                             summary=c, distributions=metrics.score_distributions(data.y01, s, bins=HIST_EDGES))


@dataclass(frozen=True)
class Calibration:
    """``by_scorer``: the probability scorers, best first (``order`` is every scorer's)."""

    by_scorer: Mapping[str, ScorerCalibration]
    order: tuple


class CalibrationSection(Section):
    key = "calibration"
    needs = ("criteria",)
    anchor, toc = "calibration", "Calibration"
    files = ("calibration", "distributions")

    def applies(self, data) -> bool:
        return bool(probability_scorers(data))

    def compute(self, data, prior) -> Calibration:
        order = prior["criteria"].order
        probs = set(probability_scorers(data))
        names = [n for n in order if n in probs]
        out = {}
        for k, name in enumerate(names, 1):
            data.progress(f"calibration {k}/{len(names)}: {name}")
            out[name] = scorer_calibration(data, data.scores[name])
        return Calibration(by_scorer=MappingProxyType(out), order=order)

    def figures(self, data, result: Calibration) -> dict:
        from matplotlib.figure import Figure

        from ..display import CalibrationDisplay, ScoreDistributionDisplay

        styles = curve_styles(list(result.order))
        names = list(result.by_scorer)
        fig, ax = new_figure(8.0 if len(names) > 6 else 5.8, 5.6)
        for i, name in enumerate(names):
            c = result.by_scorer[name]
            CalibrationDisplay(curve=c.summary.curve, brier_score=c.brier.value, calibration_error=c.ece.value,
                               name=name).plot(ax=ax, intervals=len(names) <= 3, legend=i == len(names) - 1,
                                               **styles[name])
        out = {"calibration": png(fig)}
        k = len(names)
        ncols = min(k, 3)
        nrows = -(-k // ncols)
        fig = Figure(figsize=(4.3 * ncols, 3.3 * nrows), layout="constrained")
        axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False)).ravel()
        for ax, name in zip(axes, names):
            ScoreDistributionDisplay(distributions=result.by_scorer[name].distributions, name=name).plot(
                ax=ax, legend=True)
        for ax in axes[k:]:
            ax.set_visible(False)
        out["distributions"] = png(fig)
        return out

    def render(self, data, result: Calibration, figures: dict) -> str:
        return section("calibration", "Calibration of the probability scores", _body(data, result, figures))

    def summary(self, data, result: Calibration) -> dict:
        return {"calibration": {name: c.as_dict() for name, c in result.by_scorer.items()}}

    def absent(self, data) -> dict:
        return {"calibration": {}}


def _body(data, result: Calibration, figures: dict) -> str:
    lvl = level_text(data.level)
    cal, names = result.by_scorer, list(result.by_scorer)
    header = ["scorer", "Brier score<small>lower is better</small>", "expected calibration error<small>lower is "
              "better</small>", "reliability", "resolution", "uncertainty"]
    best = {key: min(getattr(cal[n], key).value for n in names) for key in ("brier", "ece")}
    rows, classes, attrs = [], [], []
    for name in names:
        c = cal[name]
        rows.append([esc(name), value_cell(c.brier), value_cell(c.ece), esc(fmt(c.reliability)),
                     esc(fmt(c.resolution)), esc(fmt(c.uncertainty))])
        classes.append(["name"] + ["num best" if getattr(c, k).value == best[k] else "num" for k in ("brier", "ece")]
                       + ["num"] * 3)
        attrs.append(["", num_attrs(c.brier), num_attrs(c.ece)]
                     + [f' data-value="{getattr(c, k)!r}"' for k in ("reliability", "resolution", "uncertainty")])
    n_scorers = len(result.order)
    some = "" if len(names) == n_scorers else (f" Only {len(names)} of the {n_scorers} scorers give scores in "
                                                f"[0, 1]; the others are not read as probabilities.")
    how = "stratified" if data.n_clusters is None else "cluster"
    first = cal[names[0]]
    out = [table(header, rows, "calibration", classes, attrs, ["name"] + [""] * 5),
           f'<p class="caption">Scores in [0, 1] read as predicted probabilities of the positive class. Brier score: '
           f"the mean squared difference between probability and outcome, with its {lvl} normal interval; expected "
           f"calibration error: the mean absolute gap between predicted and observed share of positives over "
           f"{first.n_bins} equal-width bins, with its {lvl} {how} {esc(first.ece.method)} interval (the error is "
           f"biased upward); reliability &minus; resolution + uncertainty is the Brier score's decomposition over the "
           f"same bins (Murphy 1973).{some} Ranking criteria are unchanged by any increasing map of a score; "
           f"calibration is not.</p>",
           '<div class="figs">',
           figure(figures["calibration"], "Reliability curves of the probability scores",
                  "Observed share of positives against mean predicted probability per bin; a calibrated score lies on "
                  "the diagonal."),
           figure(figures["distributions"], "Score distributions per class",
                  "Each class's score histogram (density) on 20 bins of [0, 1], with the Kolmogorov-Smirnov cut where "
                  "the classes are farthest apart."),
           "</div>"]
    return "\n".join(out)
