"""The report's input, validated once: :func:`read_inputs` checks every argument of
:func:`rankwise.report.write_report` (raising before any work) and returns a frozen
:class:`ReportData` that every section reads."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Mapping

import numpy as np

from .._labels import kind_of

#: The keys of ``write_report(data=...)``: where the labels and scores come from.
DATA_KEYS = ("name", "size", "sha256", "label", "positive_label", "clusters", "time", "event", "event_value",
             "strata")


def _no_progress(what: str) -> None:
    return None


@dataclass(frozen=True)
class ReportData:
    """Everything a section may read, validated.

    Attributes
    ----------
    title : str
    y01 : ndarray of int8 or None
        The labels as 0/1 (1 = positive); None for censored times (``time`` and ``event``).
    scores : mapping name -> ndarray of float
        One validated score column per scorer, in the caller's order.
    criteria : tuple of str
        The criterion specs shown, as given.
    units : mapping spec -> rankwise.criteria.Criterion
    labels : mapping spec -> str
        The readable name of each criterion shown (and of ``versus_spec``).
    rank_by : str
        The criterion the overview is ranked by.
    versus_spec : str
        The criterion of the differences to the reference: ``rank_by`` when it has an
        analytic variance, else ``"auc"``.
    reference : str
        The scorer the others are compared with.
    ci_method : str or None
    level : float
        The confidence level.
    n_resamples : int
    random_state : int, Generator or None
    fprs : tuple of float
        The operating points' false-positive rates, sorted, distinct.
    notes : tuple of str
    learners : tuple of dict
    source : dict or None
        The caller's ``data`` (file name, size, SHA-256, label column, ...).
    command : str
        The command line or call shown in the header.
    positive_label : str, int, float or bool
        The positive class as the header names it.
    auc_plot : bool
    clusters : ndarray of int64 or None
        Each row's cluster, numbered ``0 .. n_clusters - 1``
        (:func:`rankwise._validation.check_clusters`); None: every row its own unit.
    n_clusters : int or None
    groups : ndarray or None
        Each row's group id (the caller's ids as a numpy array, checked: one id a row,
        none missing); None: no section by group.
    group_codes : ndarray of int64 or None
        Each row's group numbered ``0 .. G - 1`` in the order of ``group_names``
        (:func:`rankwise._validation.check_groups`).
    group_names : tuple
        The distinct group ids, sorted when they sort (the order of every table by group).
    group_name : str or None
        The group column's name, shown in the header and the section by group.
    progress : callable
        Called with a short text at the start of each stage.
    time, event : ndarray or None
        Censored times instead of labels (:attr:`kind` ``"censored"``): each row's follow-up
        time (float64, non-negative) and whether it ended in the event (bool); the scores are
        then risk scores, higher = earlier event.
    strata : ndarray of int64 or None
        With censored times: each row's stratum (pairs within strata only).
    tau : float or None
        With censored times: the truncation time of the pairs.
    concordance : tuple of str
        With censored times: the concordance indexes shown, ``"harrell"`` and/or ``"uno"``.
    auc_times : str, tuple of float or None
        With censored times: where the time-dependent AUC(t) is evaluated: ``"auto"`` (the
        rule of :func:`rankwise.report.auto_times`), the times given (finite, sorted, without
        repeats), or None (no AUC(t)).
    alternative : str
        The alternative of each scorer's test against the reference (binary labels):
        ``"two-sided"``, ``"greater"``, ``"less"``, ``"noninferiority"`` or
        ``"equivalence"`` (:func:`rankwise.stats.compare`).
    margin : float or None
        The non-inferiority or equivalence margin (with those alternatives only).
    compare_method : str or None
        How the differences to the reference are tested: None (the criterion's analytic
        variance) or ``"bootstrap"`` (``n_resamples``, ``random_state``; BCa intervals).
    curve_test : bool
        Whether the page has Venkatraman's test that each scorer's ROC curve equals the
        reference's (``n_resamples`` permutations, ``random_state``).

    The arrays are the caller's data (not copied when already valid): read them, never
    write to them.
    """

    title: str
    y01: np.ndarray
    scores: Mapping[str, np.ndarray]
    criteria: tuple
    units: Mapping[str, Any]
    labels: Mapping[str, str]
    rank_by: str
    versus_spec: str
    reference: str
    ci_method: str | None
    level: float
    n_resamples: int
    random_state: Any
    fprs: tuple
    notes: tuple = ()
    learners: tuple = ()
    source: dict | None = None
    command: str = ""
    positive_label: Any = 1
    auc_plot: bool = True
    clusters: np.ndarray | None = None
    n_clusters: int | None = None
    groups: np.ndarray | None = None
    group_codes: np.ndarray | None = None
    group_names: tuple = ()
    group_name: str | None = None
    progress: Callable[[str], None] = _no_progress
    time: np.ndarray | None = None
    event: np.ndarray | None = None
    strata: np.ndarray | None = None
    tau: float | None = None
    concordance: tuple = ()
    auc_times: Any = None
    alternative: str = "two-sided"
    margin: float | None = None
    compare_method: str | None = None
    curve_test: bool = False

    @property
    def kind(self) -> str:
        """The label kind: ``"censored"`` (times and events) or ``"binary"`` (0/1 labels);
        each section serves some kinds (:attr:`rankwise.report._page.Section.kinds`)."""
        return "binary" if self.time is None else "censored"

    @property
    def n(self) -> int:
        return int((self.y01 if self.time is None else self.time).shape[0])

    @property
    def n_events(self) -> int:
        """The events (censored times only)."""
        return int(np.count_nonzero(self.event))

    @property
    def n_pos(self) -> int:
        return int(self.y01.sum())

    @property
    def n_neg(self) -> int:
        return self.n - self.n_pos

    @property
    def cluster_args(self) -> dict:
        """``{"clusters": codes}`` when the rows are clustered, else ``{}``: the keyword
        every interval of the report is computed with."""
        return {} if self.clusters is None else {"clusters": self.clusters}

    @property
    def n_groups(self) -> int | None:
        """The number of groups (None without ``groups``)."""
        return None if self.groups is None else len(self.group_names)


def read_inputs(*, title, scores, y_true=None, criteria=None, ci_method=None, confidence_level=0.95, notes=(),
                learners=None, n_resamples=1000, random_state=0, auc_plot=True, progress=None, pos_label=None,
                reference=None, rank_by=None, data=None, command=None, operating_fpr=(0.01, 0.05, 0.1),
                clusters=None, groups=None, group_name=None, time=None, event=None, tau=None, concordance=None,
                strata=None, times="auto") -> ReportData:
    """Check the arguments of :func:`rankwise.report.write_report` (its parameters, less
    the output's) and return them as a :class:`ReportData`; ``ValueError`` or
    ``TypeError`` naming the argument otherwise."""
    from .._validation import check_clusters, check_groups, to_numpy

    if time is not None or event is not None:
        binary_only = {"y_true": y_true, "criteria": criteria, "ci_method": ci_method, "pos_label": pos_label,
                       "rank_by": rank_by, "groups": groups, "group_name": group_name}
        given = [k for k, v in binary_only.items() if v is not None]
        if given:
            raise ValueError(f"write_report: {given[0]!r} is for binary labels; with 'time' and 'event' (censored "
                             f"times) the report shows the concordance index of each risk score.")
        return read_censored(title=title, scores=scores, time=time, event=event, tau=tau, concordance=concordance,
                             strata=strata, times=times, clusters=clusters, confidence_level=confidence_level,
                             notes=notes,
                             learners=learners, n_resamples=n_resamples, random_state=random_state,
                             auc_plot=auc_plot, progress=progress, reference=reference, data=data, command=command)
    censored_only = {"tau": tau, "concordance": concordance, "strata": strata,
                     "times": None if isinstance(times, str) and times == "auto" else times}
    given = [k for k, v in censored_only.items() if v is not None]
    if given:
        raise ValueError(f"write_report: {given[0]!r} goes with 'time' and 'event' (censored times).")
    if y_true is None:
        raise TypeError("write_report: 'y_true' is required (binary labels), or 'time' and 'event' for censored "
                        "times.")
    if criteria is None:
        criteria = ("auc",)
    notes = [notes] if isinstance(notes, str) else list(notes)
    learners = list(learners) if learners else []
    for d in learners:
        if not isinstance(d, dict):
            raise TypeError(f"write_report: each learner summary must be a dict. Got {type(d).__name__}.")
    _check_data(data)
    if command is not None and not isinstance(command, str):
        raise TypeError(f"write_report: 'command' must be a string. Got {type(command).__name__}.")
    if progress is not None and not callable(progress):
        raise TypeError(f"write_report: 'progress' must be None or a callable. Got {type(progress).__name__}.")
    level = float(confidence_level) if isinstance(confidence_level, (int, float)) else confidence_level
    is_pos, cols, specs = _check_inputs(title, scores, y_true, criteria, ci_method, level, n_resamples, pos_label)
    units, primary = _units(specs, rank_by)
    fprs = _check_fprs(operating_fpr)
    ref = _check_choice_of_scorer(reference, list(cols), "reference")
    if ref is None:
        ref = next(iter(cols))
    checked = check_clusters(clusters, int(is_pos.shape[0]), "write_report")
    codes, n_clusters = checked if checked is not None else (None, None)
    if group_name is not None and not isinstance(group_name, str):
        raise TypeError(f"write_report: 'group_name' must be None or a string. Got {type(group_name).__name__}.")
    if groups is None:
        if group_name is not None:
            raise ValueError("write_report: 'group_name' names the group column, but no 'groups' were given.")
        group_ids, group_codes, group_names = None, None, ()
    else:
        group_codes, names = check_groups(groups, int(is_pos.shape[0]), "write_report")
        group_ids, group_names = to_numpy(groups, "groups"), tuple(names)
    labels = {spec: units[spec].describe() for spec in specs}
    # The differences to the reference: on the ranking criterion when it has an analytic
    # variance (a projection), else on the AUC.
    versus_spec = primary if units[primary].has_projection and kind_of(units[primary]).name == "binary" else "auc"
    if versus_spec not in labels:
        from .. import criteria as _criteria

        labels[versus_spec] = _criteria.get(versus_spec).describe()
    source = dict(data) if data else None
    shown_pos = (source or {}).get("positive_label", pos_label if pos_label is not None else _implied_positive(y_true))
    return ReportData(
        title=title, y01=is_pos.astype(np.int8), scores=MappingProxyType(cols), criteria=tuple(specs),
        units=MappingProxyType(units), labels=MappingProxyType(labels), rank_by=primary, versus_spec=versus_spec,
        reference=ref, ci_method=ci_method, level=level, n_resamples=int(n_resamples), random_state=random_state,
        fprs=tuple(fprs), notes=tuple(notes), learners=tuple(learners), source=source,
        command=command or _default_command(title, cols, specs, reference, rank_by, n_resamples, random_state,
                                            clusters is not None, groups is not None),
        positive_label=shown_pos if isinstance(shown_pos, (str, int, float, bool)) else str(shown_pos),
        auc_plot=auc_plot, clusters=codes, n_clusters=n_clusters, groups=group_ids, group_codes=group_codes,
        group_names=group_names, group_name=group_name,
        progress=progress if progress is not None else _no_progress)


#: The alternatives of the tests against the reference (``write_report(alternative=)``);
#: the last two need a ``margin``.
ALTERNATIVES = ("two-sided", "greater", "less", "noninferiority", "equivalence")


def with_tests(data: ReportData, alternative: Any, margin: Any, compare_method: Any = None, curve_test: Any = False,
               *, default_command: bool = False) -> ReportData:
    """``data`` with the tests against the reference, checked (``ValueError``/``TypeError``
    naming the argument): ``alternative`` one of :data:`ALTERNATIVES`; ``margin`` a
    positive finite number with ``"noninferiority"`` and ``"equivalence"``, None with the
    others; ``compare_method`` None or ``"bootstrap"``; ``curve_test`` a bool. With
    ``default_command`` (the caller gave no ``command``) the call shown in the header
    names them."""
    import dataclasses
    import math
    import numbers

    if not isinstance(alternative, str) or alternative not in ALTERNATIVES:
        raise ValueError(f"write_report: 'alternative' must be one of {', '.join(map(repr, ALTERNATIVES))}. "
                         f"Got {alternative!r}.")
    if alternative in ("noninferiority", "equivalence"):
        if margin is None:
            raise ValueError(f"write_report: alternative={alternative!r} needs 'margin': a positive number, the "
                             f"largest {'shortfall' if alternative == 'noninferiority' else 'difference'} that "
                             f"still counts as acceptable.")
        if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
            raise TypeError(f"write_report: 'margin' must be a positive number. Got {type(margin).__name__}.")
        if not (math.isfinite(margin) and margin > 0):
            raise ValueError(f"write_report: 'margin' must be a positive finite number. Got {margin!r}.")
        margin = float(margin)
    elif margin is not None:
        raise ValueError(f"write_report: 'margin' is only for alternative='noninferiority' or 'equivalence'; got "
                         f"alternative={alternative!r}.")
    if compare_method is not None and compare_method != "bootstrap":
        raise ValueError(f"write_report: 'compare_method' must be None (the analytic variance) or 'bootstrap'. "
                         f"Got {compare_method!r}.")
    if not isinstance(curve_test, bool):
        raise TypeError(f"write_report: 'curve_test' must be True or False. Got {type(curve_test).__name__}.")
    command = data.command
    extra = ""
    if alternative != "two-sided":
        extra += f", alternative={alternative!r}" + ("" if margin is None else f", margin={margin!r}")
    if compare_method is not None:
        extra += f", compare_method={compare_method!r}"
    if curve_test:
        extra += ", curve_test=True"
    if default_command and command.endswith(")") and extra:
        command = command[:-1] + extra + ")"
    versus_spec = data.versus_spec
    if compare_method == "bootstrap" and kind_of(data.units[data.rank_by]).name == "binary":
        versus_spec = data.rank_by  # the bootstrap compares criteria without a projection too (the KS statistic)
    return dataclasses.replace(data, alternative=alternative, margin=margin, compare_method=compare_method,
                               curve_test=curve_test, command=command, versus_spec=versus_spec)


#: The concordance indexes a report on censored times may show (``concordance=``).
CONCORDANCES = ("harrell", "uno")


def read_censored(*, title, scores, time, event, tau=None, concordance=None, strata=None, times="auto",
                  clusters=None, confidence_level=0.95, notes=(), learners=None, n_resamples=1000, random_state=0,
                  auc_plot=True, progress=None, reference=None, data=None, command=None):
    """:func:`read_inputs` for censored times: the arguments of
    :func:`rankwise.report.write_report` checked (``ValueError``/``TypeError`` naming the
    argument) into a :class:`ReportData` of kind ``"censored"``."""
    import numbers

    from .._labels import CENSORED
    from .._validation import check_clusters, check_groups, check_scores, to_numpy
    if not isinstance(title, str):
        raise TypeError(f"write_report: 'title' must be a string. Got {type(title).__name__} instead.")
    notes = [notes] if isinstance(notes, str) else list(notes)
    learners = list(learners) if learners else []
    for d in learners:
        if not isinstance(d, dict):
            raise TypeError(f"write_report: each learner summary must be a dict. Got {type(d).__name__}.")
    _check_data(data)
    if command is not None and not isinstance(command, str):
        raise TypeError(f"write_report: 'command' must be a string. Got {type(command).__name__}.")
    if progress is not None and not callable(progress):
        raise TypeError(f"write_report: 'progress' must be None or a callable. Got {type(progress).__name__}.")
    if not (isinstance(confidence_level, (int, float)) and not isinstance(confidence_level, bool)
            and 0 < confidence_level < 1):
        raise ValueError(f"write_report: 'confidence_level' must be in (0, 1). Got {confidence_level!r}.")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"write_report: 'n_resamples' must be a positive integer. Got {n_resamples!r}.")
    if time is None or event is None:
        raise ValueError("write_report: 'time' and 'event' go together: the follow-up times and whether each "
                         "ended in the event.")
    if not isinstance(scores, dict) or not scores:
        raise ValueError("write_report: 'scores' must be a non-empty dict {name: risk scores}.")
    for name in scores:
        if not isinstance(name, str):
            raise TypeError(f"write_report: score names must be strings. Got {name!r}.")
    weightings = _check_concordance(concordance)
    auc_times = _check_times(times)
    if tau is not None and (isinstance(tau, bool) or not isinstance(tau, numbers.Real)):
        raise TypeError(f"write_report: 'tau' must be None or a time (a real number). Got {tau!r}.")
    given_time = to_numpy(time, "time")
    n = given_time.shape[0] if given_time.ndim else 0
    cols = {}
    for name, s in scores.items():
        r = check_scores(s, name=f"scores[{name!r}]")
        if r.shape[0] != n:
            raise ValueError(f"write_report: the risk scores {name!r} have {r.shape[0]} values; 'time' has {n}.")
        cols[name] = r
    t, ev = CENSORED.check_parts(time, event, "write_report")
    codes = None if strata is None else check_groups(strata, n, "write_report", name="strata", unit="stratum")[0]
    clus = check_clusters(clusters, n, "write_report")
    ref = _check_choice_of_scorer(reference, list(cols), "reference")
    level = float(confidence_level)
    shown = command or ("rankwise.report.write_report(" + ", ".join(
        [f"title={title!r}", "scores={" + ", ".join(f"{n!r}: ..." for n in cols) + "}", "time=...", "event=...",
         *([f"tau={tau!r}"] if tau is not None else []), f"concordance={list(weightings)!r}",
         *([f"times={list(auc_times) if isinstance(auc_times, tuple) else auc_times!r}"] if auc_times != "auto"
           else []),
         *([f"reference={reference!r}"] if reference is not None else []),
         *(["strata=..."] if strata is not None else []), *(["clusters=..."] if clusters is not None else [])])
        + ")")
    return ReportData(
        title=title, y01=None, scores=MappingProxyType(cols), criteria=(), units=MappingProxyType({}),
        labels=MappingProxyType({}), rank_by="", versus_spec="", reference=ref, ci_method=None, level=level,
        n_resamples=int(n_resamples), random_state=random_state, fprs=(), notes=tuple(notes),
        learners=tuple(learners), source=dict(data) if data else None, command=shown, positive_label="",
        auc_plot=auc_plot, clusters=None if clus is None else clus[0], n_clusters=None if clus is None else clus[1],
        progress=progress if progress is not None else _no_progress, time=t, event=ev, strata=codes,
        tau=None if tau is None else float(tau), concordance=weightings, auc_times=auc_times)


def _check_times(times):
    """``times``: "auto", None, or finite real numbers (at least one): sorted, without
    repeats. Whether they lie within the follow-up is checked by
    :func:`rankwise.survival.cumulative_dynamic_auc`."""
    import numbers

    if times is None or (isinstance(times, str) and times == "auto"):
        return times
    values = [times] if isinstance(times, numbers.Real) else times
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"write_report: 'times' must be 'auto', None or times (real numbers). Got {times!r}.")
    values = list(values)
    if not values or not all(isinstance(x, numbers.Real) and not isinstance(x, bool) and np.isfinite(x)
                             for x in values):
        raise ValueError(f"write_report: 'times' must be 'auto', None or finite times (at least one). Got "
                         f"{times!r}.")
    return tuple(sorted({float(x) for x in values}))


def _check_concordance(concordance) -> tuple:
    """``("harrell", "uno")`` by default; one name, or several without repeats."""
    if concordance is None:
        return CONCORDANCES
    given = [concordance] if isinstance(concordance, str) else list(concordance)
    bad = [c for c in given if c not in CONCORDANCES]
    if not given or bad or len(set(given)) != len(given):
        raise ValueError(f"write_report: 'concordance' must be 'harrell', 'uno' or both, each once. Got "
                         f"{concordance!r}.")
    return tuple(given)


def _check_inputs(title, scores, y_true, criteria, ci_method, confidence_level, n_resamples, pos_label):
    from .._labels import BINARY, check_binary_inputs

    if not isinstance(title, str):
        raise TypeError(f"write_report: 'title' must be a string. Got {type(title).__name__} instead.")
    if not isinstance(scores, dict) or not scores:
        raise ValueError("write_report: 'scores' must be a non-empty dict {name: scores}.")
    for name in scores:
        if not isinstance(name, str):
            raise TypeError(f"write_report: score names must be strings. Got {name!r}.")
    if isinstance(criteria, str):
        criteria = [criteria]
    criteria = list(criteria)
    if not criteria:
        raise ValueError("write_report: 'criteria' is empty; give at least one, e.g. ['auc'].")
    if len(set(criteria)) != len(criteria):
        raise ValueError(f"write_report: 'criteria' lists a criterion twice: {criteria}.")
    if ci_method is not None and not isinstance(ci_method, str):
        raise TypeError(f"write_report: 'ci_method' must be None or a string. Got {ci_method!r}.")
    if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
        raise ValueError(f"write_report: 'confidence_level' must be in (0, 1). Got {confidence_level!r}.")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"write_report: 'n_resamples' must be a positive integer. Got {n_resamples!r}.")
    is_pos, labels = BINARY.read(y_true, pos_label=pos_label)
    both = labels.both
    if not both:
        raise ValueError("write_report: y_true holds only one class; the report needs positives and negatives.")
    cols = {}
    for name, s in scores.items():
        _, col, _, _ = check_binary_inputs(is_pos, s)
        cols[name] = col
    return is_pos, cols, criteria


def _check_data(data) -> None:
    """``data``: None or a dict of the keys :func:`write_report` documents."""
    if data is None:
        return
    if not isinstance(data, dict):
        raise TypeError(f"write_report: 'data' must be a dict (name, size, sha256, ...). Got {type(data).__name__}.")
    unknown = [k for k in data if k not in DATA_KEYS]
    if unknown:
        raise ValueError(f"write_report: 'data' has unknown key(s) {unknown}; its keys are {list(DATA_KEYS)}.")
    size = data.get("size")
    if size is not None and (isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 0):
        raise ValueError(f"write_report: data['size'] must be a number of bytes (an int >= 0). Got {size!r}.")
    digest = data.get("sha256")
    if digest is not None and not (isinstance(digest, str) and len(digest) == 64
                                   and all(c in "0123456789abcdef" for c in digest.lower())):
        raise ValueError(f"write_report: data['sha256'] must be 64 hexadecimal digits. Got {digest!r}.")


def _check_fprs(fprs) -> list[float]:
    try:
        values = [float(x) for x in ([fprs] if isinstance(fprs, (int, float)) else fprs)]
    except (TypeError, ValueError):
        values = []
    if not values or not all(0.0 < x < 1.0 for x in values) or isinstance(fprs, (str, bytes)):
        raise ValueError(f"write_report: 'operating_fpr' must be false-positive rates in (0, 1), e.g. "
                         f"(0.01, 0.05, 0.1). Got {fprs!r}.")
    return sorted(set(values))


def _check_choice_of_scorer(value, names, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in names:
        raise ValueError(f"write_report: {what!r} must be one of the scorer names {list(names)}. Got {value!r}.")
    return value


def _units(criteria: list[str], rank_by: str | None) -> tuple[dict, str]:
    """The unit of every criterion (an unknown one raises here, before any work) and the
    ranking criterion (the first by default; one of ``criteria``)."""
    from .. import criteria as _criteria

    units = {spec: _criteria.get(spec) for spec in criteria}
    if rank_by is None:
        rank_by = criteria[0]
    elif rank_by not in units:
        raise ValueError(f"write_report: 'rank_by' must be one of the criteria {criteria}. Got {rank_by!r}.")
    return units, rank_by


def _default_command(title, scores, criteria, reference, rank_by, n_resamples, random_state, clustered,
                     grouped=False) -> str:
    """The call that produced the report, written out with the scorer names."""
    args = [f"title={title!r}", "scores={" + ", ".join(f"{n!r}: ..." for n in scores) + "}",
            f"criteria={list(criteria)!r}"]
    if reference is not None:
        args.append(f"reference={reference!r}")
    if rank_by is not None:
        args.append(f"rank_by={rank_by!r}")
    args += [f"n_resamples={n_resamples}", f"random_state={random_state!r}"]
    if clustered:
        args.append("clusters=...")
    if grouped:
        args.append("groups=...")
    return "rankwise.report.write_report(" + ", ".join(args) + ")"


def _implied_positive(y_true) -> Any:
    """The label taken as positive without ``pos_label``: 1, or True for booleans."""
    arr = np.asarray(y_true)
    return True if arr.dtype.kind == "b" else 1
