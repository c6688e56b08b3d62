"""A self-contained HTML report comparing scorers, for a practitioner to send to a colleague:
the overview first (one ranked table with intervals, the differences to a reference
scorer, the ROC, precision-recall, gain and DET curves of every scorer on one figure each), then the
details of each scorer in collapsible sections.

The command line (``rankwise report``, ``rankwise demo``) calls :func:`write_report`; it
is usable from Python as well::

    import rankwise.report
    out = rankwise.report.write_report(
        "report.html", title="Validation", y_true=y,
        scores={"model": s1, "baseline": s2},
        criteria=["auc", "local_auc:top=0.1", "dcg:k=100"], reference="baseline")
    out["criteria"]["model"]["auc"]["value"]

What the page holds
-------------------
* a header: the rankwise version, the date and time (UTC), the data (file name, size and
  SHA-256 when the caller names a file, else the SHA-256 of the labels and scores), n,
  the positives and the positive label, the groups with their sizes (with ``groups``),
  and the command or call that produced it;
* **Overview**: the scorers ranked by ``rank_by`` (the first criterion by default), each
  criterion under its readable name (:meth:`rankwise.criteria.Criterion.describe`) with
  its confidence interval, the best value of each column highlighted; the difference of
  each scorer to the ``reference`` scorer on the ranking criterion (the AUC when that
  criterion has no analytic variance) with its paired test, the p-values Holm-adjusted
  over the comparisons with the reference, the family said in words;
* the ROC curves of every scorer on one figure, the precision-recall curves and the
  cumulative gain curves on others;
* operating points: the TPR and precision at fixed false positive rates with intervals,
  the cut to deploy for each, Youden's cut;
* for scores in [0, 1] (probabilities): the Brier score, the expected calibration error,
  reliability curves and per-class score distributions;
* **By group**, with ``groups`` (one group id per row): for each scorer, the AUC and
  every other criterion with an analytic variance in each group with its interval,
  each group against the rest of the rows (Holm-adjusted over the groups), the Wald
  test that all groups are equal, the bias AUCs (subgroup, BPSN, BNSP, the average
  equality gaps and the xAUC disparity, with intervals and adjusted p-values) and a
  forest plot of the AUC by group (:func:`rankwise.stats.by_group`,
  :class:`rankwise.display.GroupForestDisplay`); a group with one class only shows as
  nan, with a note;
* **Cross-validation**, with ``folds`` (each row's cross-validation fold, the scores
  out-of-fold): for each scorer, the AUC and every other criterion with a projection
  averaged over the folds with its influence-curve interval (LeDell, Petersen &
  van der Laan 2015, :func:`rankwise.stats.cross_validated`), the naive interval from the
  spread of the fold values for contrast, each fold's class sizes and values, and a figure
  of the folds' ROC curves with their vertical average and its pointwise band
  (:class:`rankwise.display.CrossValidatedRocDisplay`); pooled over ``clusters`` when
  given;
* **Details per scorer** (``<details>``, collapsed): every criterion with its standard
  error, interval and method, the ROC curve with its pointwise and simultaneous
  bootstrap bands, the learner's parameters when given;
* **All pairwise comparisons** (collapsed): every pair, p-values adjusted over all pairs;
* the warnings met while computing, if any.

Censored times
--------------
With ``time`` and ``event`` instead of ``y_true`` (follow-up times and whether each ended in
the event), the scores are **risk scores: higher risk = earlier event**, and the page is the
header (with the events and censorings) and the section **Concordance**: each scorer's
Harrell's C and Uno's C (``concordance``) with its infinitesimal-jackknife interval
(:func:`rankwise.survival.estimate`), the scorers listed best first, and for two scorers or
more the differences of each C with their tests, Holm-adjusted
(:func:`rankwise.survival.compare`); ``tau`` truncates the pairs, ``strata`` keeps the pairs
within strata, ``clusters`` takes the standard errors over clusters. The section also shows
the time-dependent AUC(t) of every scorer at ``times`` (by default the 10%, 25%, 50% and
75% quantiles of the observed event times, rounded: :func:`auto_times`): the curves on one
figure with their pointwise bands (``<stem>_files/auc_t.png``), a table of AUC(t) with its
interval per time and scorer, the mean AUC over the times, and for two scorers or more the
difference of each pair at each time and of the mean AUC with its test
(:func:`rankwise.survival.cumulative_dynamic_auc`,
:func:`rankwise.survival.compare_cumulative_dynamic_auc`). ``tau`` does not apply to
AUC(t); with ``strata`` the page shows no AUC(t) (it is not computed within strata).

Several classes and ordered classes
----------------------------------
With ``classes`` (or ``multi_class``/``average``), ``y_true`` holds K classes and each scorer
is an (n, K) matrix of class probabilities, one column per class of ``classes``: the page is
the header (each class's rows) and the section **Several classes**: the multiclass AUC asked
for (``multi_class`` "ovr" or "ovo", ``average`` "macro", "weighted" or "micro"; one-vs-rest
macro by default), the one-vs-rest macro AUC and Hand & Till's M, each with its interval;
each class's one-vs-rest AUC with its interval and ROC curve (``<stem>_files/class_roc.png``,
one panel per scorer); each pair's one-vs-one AUC with its interval, as a table and a heat
map (``<stem>_files/pair_auc.png``); for two scorers or more, their differences with tests,
Holm-adjusted (:func:`rankwise.stats.estimate` and :func:`rankwise.stats.compare` with
``criterion="multiclass_auc"``). With ``order`` (the classes lowest first), each scorer is
one score (higher = a higher class): the section **Ordered classes** shows the VUS (three
classes) or HUM (more) with its interval, the AUC of each pair of consecutive classes, and
the differences (``criterion="vus"``). ``ci_method="bootstrap"`` resamples rows within each
class; ``clusters`` is honoured as below (:mod:`rankwise.report._multiclass`).

With ``clusters`` (one cluster id per row: patients with several rows, hospitals,
repeated measures), the header states the number of clusters and every interval, test
and band on the page treats the clusters as the sampling units (Obuchowski 1997,
"Nonparametric analysis of clustered ROC curve data", for the analytic variances; whole
clusters resampled for the bootstrap).

How it is built
---------------
The page is a list of sections (:mod:`rankwise.report._page`): the arguments are
validated once into a frozen ``ReportData``; each section says whether it applies,
computes its numbers into a frozen result (nothing drawn), draws its figures and renders
its HTML; the page asks each in turn, then writes. Adding a section is adding it to
``PAGE``: no other section changes.

What is written
---------------
* ``PATH``: one HTML page that works alone (inline CSS, figures embedded as base64
  ``data:image/png`` URIs, no JavaScript) and fits a 1,400-pixel window without
  horizontal scrolling;
* ``<stem>_files/roc.png``, ``pr.png``, ``gain.png``, ``det.png`` (and ``auc.png``, the interval of
  every scorer's AUC; ``calibration.png`` and ``distributions.png`` when some scores are
  probabilities) beside it: the same figures as files, for slides and papers; on censored
  times, ``<stem>_files/auc_t.png`` (the AUC(t) curves); on several classes,
  ``<stem>_files/class_roc.png`` and ``pair_auc.png``.

Everything is computed in memory first; only then are the files written, each one
atomically (:func:`rankwise.io.write_atomic`), the page last. Bad input (one class
only, scores of the wrong length, an unknown criterion or reference) raises before
anything is written. The page and its figure files are all outputs (:func:`output_paths`):
if any of them exists (a dangling link included), nothing is computed or written unless
``force=True``; without it each is created exclusively.

Score names and titles are user text: they are drawn literally, never read as
matplotlib mathtext (a column named ``$\\frac{a$`` is a name, not a formula), and
escaped in the page.

matplotlib is imported only when the figures are drawn (Agg canvas, no pyplot state touched).
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterable

from ..io import check_output
from ..metrics import cut_at_fpr  # the deployable cut of the operating-point table
from ._calibration import CalibrationSection
from ._criteria import ComparisonsUnit, CriteriaUnit
from ._crossval import CrossValSection, with_folds
from ._curves import FOREST, CurvesSection
from ._curvetests import CurveTestSection
from ._data import read_inputs, with_tests
from ._details import BandsUnit, DetailsSection, LearnersSection
from ._groups import GroupsSection
from ._header import HeaderSection
from ._multiclass import MulticlassHeaderSection, MulticlassSection, OrdinalSection, read_multiclass, report_kind
from ._operating import OperatingSection
from ._overview import OverviewSection, PairsSection
from ._page import Page
from ._page import serves
from ._survival import SurvivalSection, auto_times, time_auc_dict, versus_reference

__all__ = ["write_report", "output_paths", "cut_at_fpr", "auto_times", "versus_reference", "time_auc_dict"]

#: The report's sections, in page order (also the order of computing, of the progress
#: lines and of the draws from a shared random generator).
PAGE = Page([HeaderSection(), MulticlassHeaderSection(), CriteriaUnit(), ComparisonsUnit(), OverviewSection(), CurveTestSection(), CurvesSection(), BandsUnit(),
             OperatingSection(), CalibrationSection(), GroupsSection(), CrossValSection(), SurvivalSection(), DetailsSection(),
             MulticlassSection(), OrdinalSection(), PairsSection(), LearnersSection()])

#: The keys of :func:`write_report`'s returned dict, in order.
_RETURNED = ("title", "n", "n_pos", "n_neg", "n_clusters", "confidence_level", "ci_method", "labels", "rank_by",
             "ranking", "reference", "criteria", "auc", "comparison", "versus_reference", "operating_points",
             "calibration", "metadata", "warnings", "paths")


class _Kind:
    """Stands for data of one label kind, for :func:`rankwise.report._page.serves`."""

    def __init__(self, kind: str):
        self.kind = kind


def output_paths(path, auc_plot: bool = True, *, kind: str = "binary") -> list[str]:
    """Every file :func:`write_report` may write for the page ``path``: the page, then
    ``<stem>_files/roc.png``, ``pr.png``, ``gain.png``, ``det.png`` (``auc.png`` with ``auc_plot``), and
    ``calibration.png`` and ``distributions.png`` (written when some scores are
    probabilities); with ``kind="censored"`` (``time`` and ``event``), the page and
    ``<stem>_files/auc_t.png`` (the AUC(t) curves); with ``kind="multiclass"``, the page,
    ``<stem>_files/class_roc.png`` and ``pair_auc.png``; with ``kind="ordinal"``, the page
    alone. The command line checks them all before reading any data; a forced run removes those of them it does not write, so the folder
    matches the page."""
    if kind not in ("binary", "censored", "multiclass", "ordinal"):
        raise ValueError(f"output_paths: 'kind' must be 'binary', 'censored', 'multiclass' or 'ordinal'. Got "
                         f"{kind!r}.")
    path = os.fspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    files_dir = os.path.join(os.path.dirname(path), f"{stem}_files")
    keys = [k for s in PAGE.sections if serves(s, _Kind(kind)) for k in s.files]
    return [path] + [os.path.join(files_dir, f"{k}.png") for k in keys if auc_plot or k != FOREST]


def write_report(path, *, title: str, scores: dict, y_true=None, criteria: Iterable[str] | None = None,
                 ci_method: str | None = None, confidence_level: float = 0.95, notes: Iterable[str] = (),
                 learners: list | None = None, n_resamples: int = 1000, random_state: Any = 0,
                 force: bool = False, auc_plot: bool = True,
                 progress: Callable[[str], None] | None = None, pos_label: Any = None,
                 reference: str | None = None, rank_by: str | None = None, data: dict | None = None,
                 command: str | None = None, operating_fpr: Iterable[float] = (0.01, 0.05, 0.1),
                 clusters: Any = None, groups: Any = None, group_name: str | None = None, time: Any = None,
                 event: Any = None, tau: float | None = None, concordance: Any = None, strata: Any = None,
                 times: Any = "auto", classes: Any = None, order: Any = None, multi_class: str | None = None,
                 average: str | None = None, folds: Any = None, fold_name: str | None = None,
                 alternative: str = "two-sided", margin: float | None = None, compare_method: str | None = None,
                 curve_test: bool = False) -> dict:
    """Compute the report's numbers and write the HTML page and its figures.

    Parameters
    ----------
    path : str or path-like
        The HTML page, e.g. ``out/report.html``; figures go to ``out/report_files/``.
    title : str
    scores : dict name -> array-like
        One score column per scorer, on the same observations as ``y_true`` (higher =
        more likely positive); with ``time`` and ``event``, risk scores (higher risk =
        earlier event).
    y_true : array-like
        Binary labels (as in :func:`rankwise.auc`); both classes must be present.
        Required unless ``time`` and ``event`` are given.
    criteria : list of str, default ["auc"]
        Spec strings understood by :func:`rankwise.stats.estimate`: ``"auc"``,
        ``"local_auc:top=0.1"``, ``"pnorm_push:p=4"``, ``"dcg:k=100"``,
        ``"partial_auc:max_fpr=0.1"``, ... Shown under their readable names
        (:meth:`rankwise.criteria.Criterion.describe`).
    ci_method : str or None
        ``None``: each criterion's default analytic interval (DeLong for the AUC, Hájek
        otherwise); ``"bootstrap"``: BCa bootstrap with ``n_resamples`` and
        ``random_state``; or an analytic method name valid for every criterion.
    confidence_level : float in (0, 1)
    notes : list of str
        Lines shown under the header (the split, the features, ...); escaped.
    learners : list of dict, optional
        One summary per learner (``{"name": ..., "params": {...}, "fit_seconds": ...}``),
        shown as a table with the union of the keys as columns, and in the details of
        the scorer of the same name.
    n_resamples, random_state
        For the ROC bands (and the bootstrap intervals).
    force : bool
        Replace an existing page or figure file. Without it, an existing one (or a
        dangling link there) is refused before any computation.
    auc_plot : bool
        Also draw the AUC of every scorer with its interval (``<stem>_files/auc.png``).
    progress : callable, optional
        Called with a short text at the start of each stage (criteria, comparisons, each
        scorer's ROC bands, figures): the command line prints it.
    pos_label : optional
        The positive label of ``y_true`` when it is not 0/1, -1/1 or boolean.
    reference : str, optional
        The scorer the others are compared with in the overview (default: the first of
        ``scores``); the p-values are Holm-adjusted over those K - 1 comparisons.
    rank_by : str, optional
        The criterion (one of ``criteria``) the overview is ranked by and the differences
        to the reference are computed on (default: the first criterion; the AUC when it
        has no analytic variance, e.g. the KS statistic).
    data : dict, optional
        Where the labels and scores come from, for the header: ``name`` (shown),
        ``size`` (bytes), ``sha256`` (hex; see :func:`rankwise.io.file_fingerprint`),
        ``label`` (the label column), ``positive_label`` (shown as the positive class,
        when the caller turned the labels into 0/1 itself) and ``clusters`` (the name of
        the cluster column, shown beside the number of clusters). Without it the header shows
        the SHA-256 of the labels and scores (:func:`rankwise.io.array_fingerprint`).
    command : str, optional
        The command line or call that produced the report (default: this call, written
        out with the scorer names).
    operating_fpr : sequence of float in (0, 1)
        The false-positive rates of the operating-point table: the true-positive rate and
        precision there with bootstrap intervals (``n_resamples``), and the cut to deploy
        for each (:func:`cut_at_fpr`).
    clusters : array-like, optional
        One cluster id per row of ``y_true`` (any type that compares for equality; no
        missing ids): rows of a cluster are not independent. Every interval, test and
        band is then computed with ``clusters=`` (the variance of Obuchowski 1997 for the
        analytic ones, whole clusters resampled for the bootstrap), and the header says
        ``n = ... rows in G clusters``. None: every row is its own unit.
    groups : array-like, optional
        One group id per row of ``y_true`` (any type that compares for equality; no
        missing ids): a region, a product, a protected attribute. Adds the section **By
        group** (see the module's description; numbers of
        :func:`rankwise.stats.by_group`, cluster-robust with ``clusters``) and a line on
        the groups to the header. None: no such section, and the page is what it is
        without this argument.
    group_name : str, optional
        The name of the group column, shown in the header and the section's title
        (only with ``groups``).
    time, event : array-like, optional
        Censored times instead of ``y_true``: each row's follow-up time (non-negative) and
        whether it ended in the event (booleans or 0/1). The page is then the header and
        the section on the concordance (see "Censored times" in the module's description);
        ``y_true``, ``criteria``, ``ci_method``, ``pos_label``, ``rank_by`` and ``groups``
        are refused with them, ``operating_fpr`` is not used, and ``reference`` (None: all
        pairs of scorers) names the scorer the others are compared with.
    tau : float, optional
        With ``time``: the truncation time of the pairs (:func:`rankwise.survival.estimate`).
    concordance : str or list of str, optional
        With ``time``: ``"harrell"``, ``"uno"`` or both (the default).
    strata : array-like, optional
        With ``time``: each row's stratum; only pairs within a stratum count (and no AUC(t)
        is shown: it is not computed within strata).
    times : "auto", sequence of float or None, default "auto"
        With ``time``: the times at which the time-dependent AUC(t) is shown (each in
        ``[first event time, last follow-up time)``, else a ValueError naming ``times``);
        ``"auto"``: the rounded 10%, 25%, 50% and 75% quantiles of the observed event times
        (:func:`auto_times`); None: no AUC(t).
    classes : sequence, optional
        Several classes: the classes of the score matrices' columns, in their order (each
        scorer in ``scores`` is then an (n, K) matrix of class probabilities, rows summing to
        1); ``y_true`` holds the class of each row. The page is then the header and the
        section on several classes (see "Several classes and ordered classes" in the
        module's description); ``criteria``, ``pos_label``, ``rank_by``, ``groups`` and the
        censored-times arguments are refused, ``operating_fpr`` and ``auc_plot`` are not
        used, and ``reference`` (None: all pairs of scorers) names the scorer the others are
        compared with.
    multi_class : {"ovr", "ovo"}, optional
        With several classes: one-vs-rest (default) or one-vs-one (Hand & Till).
    average : {"macro", "weighted", "micro"}, optional
        With several classes: the average over the classes or pairs (default macro; micro
        for one-vs-rest only). ``classes`` may be left out when one of these two is given
        (the sorted classes of ``y_true``).
    order : sequence, optional
        Ordered classes, lowest first: each scorer is one score (higher = a higher class),
        and the page shows the VUS (three classes) or HUM of each, with the AUC of every
        pair of consecutive classes. Not with ``classes``, ``multi_class`` or ``average``.
    folds : array-like, optional
        One cross-validation fold id per row of ``y_true`` (any type that compares for
        equality; no missing ids; at least two folds, each with both classes), the scores
        being out-of-fold (each row scored by the model fitted without its fold). Adds the
        section **Cross-validation** (see the module's description; numbers of
        :func:`rankwise.stats.cross_validated`, pooled over ``clusters`` when given). The
        other sections still pool every row. Binary labels only. None: no such section,
        and the page is what it is without this argument.
    fold_name : str, optional
        The name of the fold column, shown in the section's title (only with ``folds``).
    alternative : {"two-sided", "greater", "less", "noninferiority", "equivalence"}
        Binary labels: the alternative of each scorer's test against ``reference`` (the
        overview's differences), as in :func:`rankwise.stats.compare`; the table of all
        pairs stays two-sided. ``"noninferiority"``: is each scorer worse than the
        reference by less than ``margin``? ``"equivalence"``: within ``margin`` of it (two
        one-sided tests)? The page states the margin and the hypotheses in words.
    margin : float, optional
        Required with ``"noninferiority"`` and ``"equivalence"`` (a positive number in
        the ranking criterion's units, e.g. 0.02 of AUC), refused otherwise.
    compare_method : {None, "bootstrap"}
        Binary labels: how each scorer's difference to the reference is tested: None, the
        criterion's analytic variance (DeLong for the AUC); ``"bootstrap"``, pROC's
        bootstrap test (rows resampled within each class, or whole clusters;
        ``n_resamples``, ``random_state``; BCa intervals), which also compares criteria
        without an analytic variance (the KS statistic as ``rank_by``).
    curve_test : bool, default False
        Binary labels, two scorers or more: adds the section **Curve tests**, Venkatraman's
        permutation test that each scorer's ROC curve equals the reference's at every
        operating point (:func:`rankwise.stats.curve_test`, ``n_resamples`` permutations,
        ``random_state``); it is not a test of the AUCs. Returned as ``curve_tests``.

    Returns
    -------
    dict
        ``title``, ``n``, ``n_pos``, ``n_neg``, ``n_clusters`` (None without
        ``clusters``), ``confidence_level``, ``ci_method``,
        ``labels`` (``{criterion: readable name}``), ``rank_by``, ``ranking`` (the scorer
        names, best first), ``reference``, ``criteria`` (``{scorer: {criterion:
        {"value", "std_error", "low", "high", "method"}}}``), ``auc`` (the same for the
        AUC of every scorer), ``comparison`` (every pair on the AUC; ``None`` with one
        scorer, else ``names``, ``values``, ``std_errors``, ``pairs`` [dicts with the
        fields of :class:`rankwise.stats.PairwiseDifference`], ``p_adjusted_matrix``
        [K x K, ``None`` on the diagonal], ``global_statistic``, ``global_df``,
        ``global_p_value``, ``method``, ``adjust``, ``family``, ``reference``, ``criterion``),
        ``versus_reference`` (the same for each scorer against ``reference`` on the
        ranking criterion, with ``spec``; ``None`` with one scorer), ``operating_points``
        (``{scorer: {"at_fpr": [{"fpr", "tpr", "tpr_low", "tpr_high", "precision",
        "precision_low", "precision_high", "cut", "cut_tpr", "cut_fpr", "cut_precision"}],
        "youden": {"threshold", "tpr", "fpr", "precision", "youden_index"}}}``),
        ``calibration`` (for the scorers whose scores all lie in [0, 1]: ``{scorer:
        {"brier": {...}, "ece": {...}, "reliability", "resolution", "uncertainty",
        "n_bins"}}``, empty when none does), ``metadata``
        (``version``, ``generated``, ``data``, ``fingerprint``, ``positive_label``,
        ``command``), ``warnings`` (messages caught while computing, also listed on the
        page) and ``paths`` (``html``, ``files_dir``, ``roc``, ``pr``, ``gain``, and ``auc``,
        ``calibration``, ``distributions`` when drawn); with ``groups``, also ``groups``
        (``column``, ``names``, ``sizes`` [rows per group], ``criteria`` [the specs shown by
        group], ``one_class``, ``n_clusters``, ``by_scorer`` [``{scorer:
        GroupEstimates.to_dict()}``]); with ``folds``, also ``crossval`` (``column``,
        ``folds`` [the fold ids], ``n_folds``, ``criteria``, ``pooled``, ``n_units``,
        ``by_scorer`` [``{scorer: {criterion: {"value", "std_error", "low", "high",
        "naive_std_error", "naive_low", "naive_high", "fold_values", "fold_n_pos",
        "fold_n_neg"}}}``], ``mean_roc`` [``{scorer: {"fpr", "tpr", "lower", "upper"}}``]).

        With ``time`` and ``event``: ``title``, ``n``, ``n_events``, ``n_censored``,
        ``n_clusters``, ``confidence_level``, ``ci_method`` (None), ``metadata`` (as above,
        ``risk_scores`` in place of ``positive_label``), ``survival`` (``concordance`` [the
        Cs shown], ``tau``, ``n_events``, ``n_strata``, ``order`` [best first on the first
        C], ``estimates`` [``{scorer: {"harrell"|"uno": {"value", "std_error", "low", "high",
        "method", "comparable"}}}``], ``comparisons`` [``{"harrell"|"uno": ...}`` as
        ``comparison`` above; None with one scorer], ``time_dependent_auc`` [None with
        ``times=None``, else ``times``, ``how`` ("auto" or "given"), ``confidence_level``,
        ``estimates`` (``{scorer: TimeDependentAUC.to_dict()}`` with ``ci_low``/``ci_high``
        at ``confidence_level`` and ``mean_low``/``mean_high``), ``differences`` (rows of
        ``TimeAUCComparison.differences``, each scorer minus ``reference`` when given; None
        with one scorer) and ``skipped`` (why no curve is shown, else None)]),
        ``warnings`` and ``paths`` (``html``, ``files_dir``, ``auc_t``).

        With ``classes`` or ``order``: ``title``, ``n``, ``classes`` (or the order),
        ``class_sizes``, ``n_clusters``, ``confidence_level``, ``ci_method``, ``metadata``,
        ``multiclass`` (``criterion``, ``multi_class``, ``average``, ``classes``, ``pairs``,
        ``order`` [best first], ``estimates`` [``{scorer: {"value", "ovr_macro", "m",
        "per_class", "per_pair", "std_error_prevalence"}}``, each a dict ``value``,
        ``std_error``, ``low``, ``high``, ``method``], ``comparison`` [as above; None with one
        scorer]) or ``ordinal`` (``criterion``, ``order``, ``ranking``, ``estimates``
        [``{scorer: {"value", "consecutive"}}``], ``comparison``), ``warnings`` and ``paths``
        (``html``, ``files_dir``, ``class_roc``, ``pair_auc``).

    Raises
    ------
    FileExistsError
        ``path`` or one of its figure files exists and ``force`` is false (checked before
        any computation, and again when writing).
    ValueError, TypeError
        Invalid input, e.g. only one class in ``y_true``; nothing is written.
    """
    path = os.fspath(path)
    several = report_kind(classes, order, multi_class, average)
    kind = several or ("binary" if time is None and event is None else "censored")
    outputs = output_paths(path, auc_plot, kind=kind)
    for out in outputs:
        check_output(out, force=force)
    if (alternative != "two-sided" or margin is not None or compare_method is not None or curve_test) \
            and kind != "binary":
        raise ValueError("write_report: 'alternative', 'margin', 'compare_method' and 'curve_test' are for binary "
                         "labels (the tests of each scorer against the reference); they do not combine with "
                         "censored times or several classes.")
    if (folds is not None or fold_name is not None) and kind != "binary":
        raise ValueError("write_report: 'folds' is for binary labels (out-of-fold scores of 0/1 labels); it does not "
                         "combine with censored times or several classes.")
    if several is not None:
        refused = {"criteria": criteria, "pos_label": pos_label, "rank_by": rank_by, "groups": groups,
                   "group_name": group_name, "learners": learners or None, "time": time, "event": event, "tau": tau,
                   "concordance": concordance, "strata": strata,
                   "times": None if isinstance(times, str) and times == "auto" else times}
        data = read_multiclass(kind=several, title=title, scores=scores, y_true=y_true, classes=classes, order=order,
                               multi_class=multi_class, average=average, ci_method=ci_method,
                               confidence_level=confidence_level, notes=notes, n_resamples=n_resamples,
                               random_state=random_state, progress=progress, reference=reference, data=data,
                               command=command, clusters=clusters, refused=refused)
    else:
        data = read_inputs(title=title, scores=scores, y_true=y_true, criteria=criteria, ci_method=ci_method,
                           confidence_level=confidence_level, notes=notes, learners=learners,
                           n_resamples=n_resamples, random_state=random_state, auc_plot=auc_plot, progress=progress,
                           pos_label=pos_label, reference=reference, rank_by=rank_by, data=data, command=command,
                           operating_fpr=operating_fpr, clusters=clusters, groups=groups, group_name=group_name,
                           time=time, event=event, tau=tau, concordance=concordance, strata=strata, times=times)
        data = with_tests(data, alternative, margin, compare_method, curve_test, default_command=command is None)
        if folds is not None or fold_name is not None:
            data = with_folds(data, folds, fold_name, default_command=command is None)
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:  # pragma: no cover - matplotlib is a core dependency
        raise ImportError("write_report needs matplotlib (pip install matplotlib).") from exc
    out = PAGE.write(path, data, outputs, force=force)
    out.update(title=data.title, confidence_level=data.level, ci_method=data.ci_method)
    return {k: out[k] for k in (*(k for k in _RETURNED if k in out), *(k for k in out if k not in _RETURNED))}
