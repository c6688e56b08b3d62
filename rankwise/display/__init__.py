"""Plots as scikit-learn makes them: display objects that hold the computed data and
draw it with matplotlib.

Each class follows scikit-learn's ``Display`` design: ``from_predictions(y_true,
y_score, ...)`` and ``from_estimator(estimator, X, y, ...)`` compute and plot;
``plot(ax=None, ...)`` draws the held data and returns the display, with ``ax_``,
``figure_`` and the drawn artists (``line_``, ...) as attributes. The numbers held are
exactly those of the library's functions (:func:`rankwise.roc_curve`,
:func:`rankwise.stats.estimate`, ...). Higher score = more likely positive, always.

Names and titles given by users are drawn literally, never as matplotlib mathtext.
matplotlib is imported only when something is drawn.
"""

from ._calibration import CalibrationDisplay
from ._crossval import CrossValidatedRocDisplay
from ._det import DetCurveDisplay
from ._distributions import ScoreDistributionDisplay
from ._forest import ForestDisplay
from ._gain import GainDisplay
from ._groups import GroupForestDisplay, GroupRocDisplay
from ._multiclass import MulticlassROCDisplay, PairwiseAUCDisplay
from ._pr import PrecisionRecallDisplay
from ._roc import RocCurveDisplay
from ._smooth import SmoothROCDisplay
from ._survival import TimeAUCDisplay

__all__ = ["RocCurveDisplay", "PrecisionRecallDisplay", "ForestDisplay", "CalibrationDisplay", "GainDisplay",
           "ScoreDistributionDisplay", "GroupForestDisplay", "GroupRocDisplay", "TimeAUCDisplay",
           "MulticlassROCDisplay", "PairwiseAUCDisplay",
           "CrossValidatedRocDisplay",
           "DetCurveDisplay", "SmoothROCDisplay"]
