"""The report on several classes and on ordered classes (``write_report(..., classes=)`` and
``write_report(..., order=)``).

Several classes (label kind ``"multiclass"``): each scorer is a matrix of class
probabilities, one column per class of ``classes``. The page shows the multiclass AUC asked
for (``multi_class`` and ``average``; one-vs-rest macro by default), the one-vs-rest macro
AUC and Hand & Till's M (one-vs-one macro), each with its interval; every class's
one-vs-rest AUC with its interval and its ROC curve (class ``k`` against the rest on column
``k``, one panel per scorer, ``<stem>_files/class_roc.png``); every pair's one-vs-one AUC
:math:`\\hat A(a, b)` with its interval in a table and as a heat map
(``<stem>_files/pair_auc.png``); for two scorers or more, their differences on the AUC asked
for with tests, Holm-adjusted, and the global test.

Ordered classes (label kind ``"ordinal"``): each scorer is one score column, higher = a
higher class. The page shows the volume under the ROC surface (three classes) or the
hypervolume (more) of each scorer with its interval, the AUC of every pair of consecutive
classes (the higher class over the lower one, on their rows only) with its interval, and
for two scorers or more their differences on the VUS.

The numbers are those of :func:`rankwise.stats.estimate` and :func:`rankwise.stats.compare`
(``criterion="multiclass_auc"`` and ``"vus"``: K-sample DeLong standard errors, the
bootstrap stratified by class with ``ci_method="bootstrap"``, clusters honoured); this
module only lays them out. Its sections serve the ``"multiclass"`` and ``"ordinal"`` kinds
only, so a page on binary labels or censored times is what it was without them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Callable, Mapping

import numpy as np

from .._version import __version__
from ._criteria import ComparisonNumbers, Row
from ._header import data_items
from ._html import ADJUST_NAMES, METHOD_NAMES, esc, figure, fmt, fmt_p, interval, level_text, p_eq, section, \
    table
from ._page import Section

#: The figure keys (and file names) of the multiclass section.
CLASS_ROC = "class_roc"
PAIR_AUC = "pair_auc"
#: ``multi_class`` and ``average`` as the page names them.
MULTI_CLASS_NAMES = {"ovr": "one-vs-rest", "ovo": "one-vs-one"}
AVERAGES = ("macro", "weighted", "micro")
#: The label kinds of this module.
KINDS = ("multiclass", "ordinal")


def report_kind(classes, order, multi_class, average) -> str | None:
    """The label kind a call of :func:`rankwise.report.write_report` asks for: ``"ordinal"``
    with ``order``, ``"multiclass"`` with ``classes``, ``multi_class`` or ``average``, else
    None (binary labels or censored times)."""
    if order is not None:
        return "ordinal"
    if classes is not None or multi_class is not None or average is not None:
        return "multiclass"
    return None


def criterion_name(kind: str, multi_class: str | None, average: str | None, K: int) -> str:
    """The criterion's name on the page and in the command line's outputs."""
    if kind == "ordinal":
        return "VUS" if K == 3 else ("AUC" if K == 2 else "HUM")
    if multi_class == "ovo" and average == "macro":
        return "M (Hand & Till, one-vs-one macro AUC)"
    return f"{MULTI_CLASS_NAMES[multi_class]} {average} AUC"


def _no_progress(what: str) -> None:
    return None


# --- the input -----------------------------------------------------------------------------

@dataclass(frozen=True)
class MulticlassData:
    """The checked input of a report on several classes or ordered classes.

    Attributes
    ----------
    kind : {"multiclass", "ordinal"}
    title : str
    codes : ndarray of intp (n,)
        Each row's class, ``0 .. K-1`` in the order of ``classes``.
    classes : tuple
        The classes as given (the score columns' order, or the order lowest first).
    names : tuple of str
        The classes as the page writes them.
    scores : mapping name -> ndarray
        (n, K) probability matrices (multiclass) or (n,) scores (ordinal).
    multi_class, average : str or None
        Multiclass only: the AUC asked for.
    level, ci_method, n_resamples, random_state, reference, clusters, n_clusters, notes,
    source, command, progress
        As in :class:`rankwise.report._data.ReportData`.
    """

    kind: str
    title: str
    codes: np.ndarray
    classes: tuple
    names: tuple
    scores: Mapping[str, np.ndarray]
    multi_class: str | None
    average: str | None
    level: float
    ci_method: str | None
    n_resamples: int
    random_state: Any
    reference: str | None
    clusters: np.ndarray | None = None
    n_clusters: int | None = None
    notes: tuple = ()
    source: dict | None = None
    command: str = ""
    progress: Callable[[str], None] = _no_progress

    @property
    def n(self) -> int:
        return int(self.codes.shape[0])

    @property
    def K(self) -> int:
        return len(self.classes)

    @property
    def class_sizes(self) -> tuple:
        return tuple(int(k) for k in np.bincount(self.codes, minlength=self.K))

    @property
    def cluster_args(self) -> dict:
        return {} if self.clusters is None else {"clusters": self.clusters}

    @property
    def criterion(self) -> str:
        return "vus" if self.kind == "ordinal" else "multiclass_auc"

    @property
    def params(self) -> dict:
        """The keywords of the criterion for :func:`rankwise.stats.estimate` and ``compare``
        (the classes as the codes ``0 .. K-1``)."""
        if self.kind == "ordinal":
            return {"labels": list(range(self.K))}
        return {"multi_class": self.multi_class, "average": self.average, "labels": list(range(self.K))}

    def footer(self, files_rel: str | None) -> str:
        """The page's footer (:meth:`rankwise.report._page.Page.render`)."""
        saved = f"Figures also saved as PNG files in <code>{esc(files_rel)}/</code>. " if files_rel else ""
        what = ("Higher score = a higher class, for every scorer." if self.kind == "ordinal" else
                "Each score column is the probability of its class, for every scorer.")
        return f"<footer>{saved}{what} Written by rankwise {esc(__version__)}.</footer>"


def read_multiclass(*, kind: str, title, scores, y_true, classes=None, order=None, multi_class=None, average=None,
                    ci_method=None, confidence_level=0.95, notes=(), n_resamples=1000, random_state=0,
                    progress=None, reference=None, data=None, command=None, clusters=None,
                    refused: Mapping[str, Any] | None = None) -> MulticlassData:
    """The arguments of :func:`rankwise.report.write_report` for several classes
    (``kind="multiclass"``) or ordered classes (``"ordinal"``), checked into a
    :class:`MulticlassData`; ``ValueError``/``TypeError`` naming the argument otherwise.
    ``refused``: the arguments of the other kinds that were given (``{name: value}``, None
    when not given), refused by name."""
    from .._validation import check_clusters
    from ..metrics.blocks import (check_probability_rows, multiclass_labels, multiclass_score_matrix, ordinal_inputs,
                                  ordered_labels)
    from ._data import _check_data, _check_choice_of_scorer

    func = "write_report"
    for name, value in (refused or {}).items():
        if value is not None:
            what = "ordered classes ('order')" if kind == "ordinal" else "several classes ('classes')"
            raise ValueError(f"{func}: {name!r} is not used with {what}.")
    if kind == "ordinal" and any(v is not None for v in (classes, multi_class, average)):
        given = next(k for k, v in (("classes", classes), ("multi_class", multi_class), ("average", average))
                     if v is not None)
        raise ValueError(f"{func}: {given!r} is for several unordered classes (score matrices); 'order' is for "
                         f"ordered classes with one score each. Give one of them.")
    if not isinstance(title, str):
        raise TypeError(f"{func}: 'title' must be a string. Got {type(title).__name__} instead.")
    notes = [notes] if isinstance(notes, str) else list(notes)
    _check_data(data)
    if command is not None and not isinstance(command, str):
        raise TypeError(f"{func}: 'command' must be a string. Got {type(command).__name__}.")
    if progress is not None and not callable(progress):
        raise TypeError(f"{func}: 'progress' must be None or a callable. Got {type(progress).__name__}.")
    if not (isinstance(confidence_level, (int, float)) and not isinstance(confidence_level, bool)
            and 0 < confidence_level < 1):
        raise ValueError(f"{func}: 'confidence_level' must be in (0, 1). Got {confidence_level!r}.")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"{func}: 'n_resamples' must be a positive integer. Got {n_resamples!r}.")
    if ci_method not in (None, "delong", "bootstrap"):
        raise ValueError(f"{func}: 'ci_method' must be None, 'delong' or 'bootstrap' for several classes (the "
                         f"K-sample DeLong interval, or the bootstrap stratified by class). Got {ci_method!r}.")
    if not isinstance(scores, dict) or not scores:
        raise ValueError(f"{func}: 'scores' must be a non-empty dict {{name: " + (
            "score}." if kind == "ordinal" else "(n, K) class probabilities}."))
    for name in scores:
        if not isinstance(name, str):
            raise TypeError(f"{func}: score names must be strings. Got {name!r}.")
    if y_true is None:
        raise TypeError(f"{func}: 'y_true' is required (each row's class).")
    cols: dict = {}
    if kind == "ordinal":
        labs = ordered_labels(order)
        for name, s in scores.items():
            try:
                codes, K, score = ordinal_inputs(y_true, s, labs)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"{func}: scores[{name!r}]: {exc}") from None
            cols[name] = score
        classes_t = tuple(labs)
        mc = av = None
    else:
        mc = "ovr" if multi_class is None else multi_class
        av = "macro" if average is None else average
        if mc not in MULTI_CLASS_NAMES:
            raise ValueError(f"{func}: 'multi_class' must be 'ovr' or 'ovo'. Got {multi_class!r}.")
        if av not in AVERAGES:
            raise ValueError(f"{func}: 'average' must be 'macro', 'weighted' or 'micro'. Got {average!r}.")
        if av == "micro" and mc == "ovo":
            raise ValueError(f"{func}: 'average' 'micro' is defined for multi_class='ovr' only.")
        try:
            y, found, codes = multiclass_labels(y_true, classes)
        except ValueError as exc:
            raise ValueError(f"{func}: " + str(exc).replace("The 'labels' argument", "'classes'")) from None
        if found.shape[0] < 2:
            raise ValueError(f"{func}: 'classes' must hold at least two classes. Got {found.tolist()!r}.")
        for name, S in scores.items():
            try:
                S = multiclass_score_matrix(S, found, classes is not None, y.shape[0])
                check_probability_rows(S)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"{func}: scores[{name!r}]: {exc}") from None
            cols[name] = S
        classes_t = tuple(v.item() if isinstance(v, np.generic) else v for v in found)
    codes = np.asarray(codes, dtype=np.intp)
    ref = _check_choice_of_scorer(reference, list(cols), "reference")
    checked = check_clusters(clusters, codes.shape[0], func)
    ccodes, n_clusters = checked if checked is not None else (None, None)
    names = tuple(str(c) for c in classes_t)
    if len(set(names)) != len(names):
        raise ValueError(f"{func}: the classes {list(classes_t)!r} do not all read differently as text; the page "
                         f"could not tell them apart.")
    what = "order" if kind == "ordinal" else "classes"
    shown = command or (f"rankwise.report.write_report(title={title!r}, scores={{" + ", ".join(
        f"{n!r}: ..." for n in cols) + f"}}, y_true=..., {what}={list(classes_t)!r}"
        + ("" if kind == "ordinal" else f", multi_class={mc!r}, average={av!r}")
        + (f", reference={reference!r}" if reference is not None else "")
        + (f", ci_method={ci_method!r}" if ci_method is not None else "")
        + (", clusters=..." if clusters is not None else "") + ")")
    return MulticlassData(kind=kind, title=title, codes=codes, classes=classes_t, names=names,
                          scores=MappingProxyType(cols), multi_class=mc, average=av, level=float(confidence_level),
                          ci_method=None if ci_method == "delong" else ci_method, n_resamples=int(n_resamples),
                          random_state=random_state, reference=ref, clusters=ccodes, n_clusters=n_clusters,
                          notes=tuple(notes), source=dict(data) if data else None, command=shown,
                          progress=progress if progress is not None else _no_progress)


# --- numbers --------------------------------------------------------------------------------------

def estimate_row(est, level: float, ci_method: str | None = None, n_resamples: int = 1000,
                 random_state: Any = 0) -> Row:
    """A :class:`rankwise.stats.MulticlassEstimate` (or a binary estimate) as a
    :class:`rankwise.report._criteria.Row`: value, standard error, interval and method."""
    import warnings

    from ..stats import DegenerateIntervalWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateIntervalWarning)  # the value says it (nan, or 0/1)
        ci = est.confidence_interval(level, method=ci_method, **(
            {"n_resamples": n_resamples, "random_state": random_state} if ci_method == "bootstrap" else {}))
    return Row(value=float(est.value), std_error=float(est.std_error), low=float(ci.low), high=float(ci.high),
               method=ci.method)


def component_rows(est, level: float) -> tuple:
    """The components of a :class:`rankwise.stats.MulticlassEstimate` (each class
    one-vs-rest, each pair one-vs-one) as rows with their DeLong intervals, in the
    estimate's order."""
    ci = est.component_intervals(level)
    return tuple(Row(value=float(v), std_error=float(s), low=float(lo), high=float(hi), method="delong")
                 for v, s, (lo, hi) in zip(est.component_values, est.component_std_errors, ci))


def consecutive_aucs(codes, score, K: int, level: float, clusters=None) -> tuple:
    """The AUC of every pair of consecutive ordered classes: class ``k + 1`` over class
    ``k`` on their rows only (:func:`rankwise.stats.estimate`, DeLong; over clusters with
    ``clusters``), ``K - 1`` rows; nan where a class is empty."""
    import warnings

    from .. import stats
    from ..stats import DegenerateIntervalWarning

    codes = np.asarray(codes)
    out = []
    for k in range(K - 1):
        sel = (codes == k) | (codes == k + 1)
        up = codes[sel] == k + 1
        if not up.any() or up.all():
            nan = float("nan")
            out.append(Row(value=nan, std_error=nan, low=nan, high=nan, method="delong"))
            continue
        kw = {} if clusters is None else {"clusters": np.asarray(clusters)[sel]}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateIntervalWarning)
            est = stats.estimate(up, np.asarray(score)[sel], "auc", **kw)
            ci = est.confidence_interval(level)
        out.append(Row(value=float(est.value), std_error=float(est.std_error), low=float(ci.low),
                       high=float(ci.high), method=ci.method))
    return tuple(out)


def pair_names(names, K: int) -> tuple:
    """The one-vs-one pairs ``(a, b)``, ``a < b`` in the classes' order (the order of the
    estimate's components)."""
    iu, ju = np.triu_indices(K, 1)
    return tuple((int(a), int(b)) for a, b in zip(iu, ju))


# --- the header --------------------------------------------------------------------------------

@dataclass(frozen=True)
class MulticlassHeader:
    version: str
    generated: str
    fingerprint: str


class MulticlassHeaderSection(Section):
    """The page's header for several classes or ordered classes: the data and its
    fingerprint, n and each class's rows, the classes (in their order), the command."""

    key = "multiclass_header"
    kinds = KINDS

    def compute(self, data, prior) -> MulticlassHeader:
        import datetime as _dt

        from ..io import array_fingerprint

        arrays = [("classes " + repr(list(data.names)), data.codes)] + list(data.scores.items())
        if data.clusters is not None:
            arrays.append(("clusters", data.clusters))
        return MulticlassHeader(version=__version__,
                                generated=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
                                fingerprint=array_fingerprint(arrays))

    def render(self, data, result: MulticlassHeader, figures: dict) -> str:
        d = data.source or {}
        items, n = data_items(data, result.version, result.generated, result.fingerprint)
        sizes = ", ".join(f"{esc(c)}: {k:,}" for c, k in zip(data.names, data.class_sizes))
        items.append(("observations", f"{n} in {data.K} classes ({sizes})"))
        label = f"<code>{esc(str(d['label']))}</code>: " if d.get("label") else ""
        if data.kind == "ordinal":
            items.append(("ordered classes", label + " &lt; ".join(esc(c) for c in data.names)
                          + " (higher score = a higher class)"))
        else:
            items.append(("classes", label + ", ".join(esc(c) for c in data.names)
                          + " (one probability column each, in this order)"))
        items.append(("produced by", f"<code>{esc(data.command)}</code>"))
        meta = '<dl class="meta">' + "".join(
            f'<div{" class=" + chr(34) + "wide" + chr(34) if k == "produced by" else ""}><dt>{k}</dt><dd>{v}</dd>'
            f'</div>' for k, v in items) + "</dl>"
        out = [f"<header><h1>{esc(data.title)}</h1>", meta]
        if data.notes:
            out.append('<ul class="notes">' + "".join(f"<li>{esc(str(x))}</li>" for x in data.notes) + "</ul>")
        out.append("</header>")
        return "\n".join(out)

    def summary(self, data, result: MulticlassHeader) -> dict:
        return {"n": data.n, "classes": list(data.classes), "class_sizes": list(data.class_sizes),
                "n_clusters": data.n_clusters,
                "metadata": {"version": result.version, "generated": result.generated, "data": data.source,
                             "fingerprint": result.fingerprint, "command": data.command}}


# --- several classes --------------------------------------------------------------------------------

@dataclass(frozen=True)
class ModelNumbers:
    """One scorer: ``headline`` (the AUC asked for, with its interval), ``ovr_macro`` and
    ``m`` (Hand & Till's M) with theirs, ``per_class`` (each class one-vs-rest, DeLong) and
    ``per_pair`` (each pair one-vs-one, DeLong, in the order of :func:`pair_names`), and
    ``std_error_prevalence`` (``average="weighted"``: the prevalence term, as a standard
    error)."""

    headline: Row
    ovr_macro: Row
    m: Row
    per_class: tuple
    per_pair: tuple
    std_error_prevalence: float = 0.0


@dataclass(frozen=True)
class MulticlassNumbers:
    """What the section shows: ``models`` (``{scorer: ModelNumbers}``, page order),
    ``order`` (best first on the AUC asked for), ``pairs`` (:func:`pair_names`) and
    ``comparison`` (:class:`rankwise.report._criteria.ComparisonNumbers` on the AUC asked
    for; None with one scorer)."""

    models: Mapping[str, ModelNumbers]
    order: tuple
    pairs: tuple
    comparison: ComparisonNumbers | None


def _best_first(values: Mapping[str, float]) -> tuple:
    names = list(values)
    return tuple(sorted(names, key=lambda n: (not np.isfinite(values[n]),
                                              -values[n] if np.isfinite(values[n]) else 0.0, names.index(n))))


class MulticlassSection(Section):
    """The multiclass AUCs of every scorer (see the module's description)."""

    key = "multiclass"
    kinds = ("multiclass",)
    anchor, toc = "multiclass", "Several classes"
    files = (CLASS_ROC, PAIR_AUC)

    def compute(self, data, prior) -> MulticlassNumbers:
        from .. import stats

        K, lab = data.K, list(range(data.K))
        kw = data.cluster_args
        comparison, heads = None, {}
        if len(data.scores) > 1:
            # first: the comparison's own estimates of each scorer serve as the AUC asked for
            data.progress("multiclass comparison")
            comp = stats.compare(data.codes, dict(data.scores), criterion="multiclass_auc", reference=data.reference,
                                 adjust="holm", confidence_level=data.level, **data.params, **kw)
            comparison = ComparisonNumbers.of(comp)
            heads = dict(zip(data.scores, comp.estimates))
        models = {}
        for i, (name, S) in enumerate(data.scores.items(), 1):
            data.progress(f"multiclass AUC {i}/{len(data.scores)}: {name}")
            ests = {(data.multi_class, data.average): heads[name]} if name in heads else {}
            for mc, av in ((data.multi_class, data.average), ("ovr", "macro"), ("ovo", "macro")):
                if (mc, av) not in ests:
                    ests[(mc, av)] = stats.estimate(data.codes, S, criterion="multiclass_auc", multi_class=mc,
                                                    average=av, labels=lab, **kw)
            head = ests[(data.multi_class, data.average)]
            models[name] = ModelNumbers(
                headline=estimate_row(head, data.level, data.ci_method, data.n_resamples, data.random_state),
                ovr_macro=estimate_row(ests[("ovr", "macro")], data.level),
                m=estimate_row(ests[("ovo", "macro")], data.level),
                per_class=component_rows(ests[("ovr", "macro")], data.level),
                per_pair=component_rows(ests[("ovo", "macro")], data.level),
                std_error_prevalence=float(head.std_error_prevalence))
        order = _best_first({n: m.headline.value for n, m in models.items()})
        return MulticlassNumbers(models=MappingProxyType(models), order=order, pairs=pair_names(data.names, K),
                                 comparison=comparison)

    def figures(self, data, result: MulticlassNumbers) -> dict:
        return {CLASS_ROC: _class_roc_figure(data, result), PAIR_AUC: _pair_heat_map(data, result)}

    def render(self, data, result: MulticlassNumbers, figures: dict) -> str:
        lvl = level_text(data.level)
        head = criterion_name("multiclass", data.multi_class, data.average, data.K)
        parts = [_multiclass_table(data, result), _multiclass_caption(data, result)]
        parts.append('<div class="figs">')
        if CLASS_ROC in figures:
            parts.append(figure(figures[CLASS_ROC], "One-vs-rest ROC curves of every class",
                                "Each class against the rest, on its own probability column: one panel per scorer, "
                                f"one curve per class (legend: its one-vs-rest AUC with the {lvl} DeLong interval); "
                                "the dashed diagonal is a random score."))
        if PAIR_AUC in figures:
            parts.append(figure(figures[PAIR_AUC], "One-vs-one AUC of every pair of classes",
                                "Hand &amp; Till's pairwise AUC A(a, b) of every pair of classes (one panel per "
                                "scorer; the matrix is symmetric): the mean of the AUC of a over b on column a and of "
                                "b over a on column b. 0.5: the pair is not told apart."))
        parts.append("</div>")
        parts.append("<h3>Each class against the rest</h3>" + _component_table(
            data, result, [esc(c) for c in data.names], "per_class", "class"))
        parts.append('<p class="caption">' + (
            f"One-vs-rest AUC of each class: how often a row of the class has a higher probability of it than a row "
            f"of another class (ties 1/2), with its {lvl} DeLong interval (not adjusted for the number of classes). "
            "Their plain mean is the one-vs-rest macro AUC.") + "</p>")
        pair_labels = [f"{esc(data.names[a])} vs {esc(data.names[b])}" for a, b in result.pairs]
        parts.append("<h3>Each pair of classes</h3>" + _component_table(data, result, pair_labels, "per_pair",
                                                                      "pair"))
        parts.append('<p class="caption">' + (
            f"One-vs-one AUC of each pair A(a, b) (Hand &amp; Till 2001): the mean of how often a row of a has a "
            f"higher probability of a than a row of b, and a row of b a higher probability of b than a row of a, "
            f"with its {lvl} DeLong interval (not adjusted for the number of pairs). Their plain mean is M.") + "</p>")
        if result.comparison is not None:
            parts.append(differences_html(data, result.comparison, head))
        return section("multiclass", f"Several classes: {esc(head)}", "\n".join(parts))

    def summary(self, data, result: MulticlassNumbers) -> dict:
        pairs = [f"{data.names[a]} vs {data.names[b]}" for a, b in result.pairs]
        return {"multiclass": {
            "criterion": criterion_name("multiclass", data.multi_class, data.average, data.K),
            "multi_class": data.multi_class, "average": data.average, "confidence_level": data.level,
            "ci_method": data.ci_method, "classes": list(data.classes), "pairs": pairs, "order": list(result.order),
            "estimates": {n: {"value": m.headline.as_dict(), "ovr_macro": m.ovr_macro.as_dict(), "m": m.m.as_dict(),
                              "per_class": {c: r.as_dict() for c, r in zip(data.names, m.per_class)},
                              "per_pair": {p: r.as_dict() for p, r in zip(pairs, m.per_pair)},
                              "std_error_prevalence": m.std_error_prevalence}
                          for n, m in result.models.items()},
            "comparison": None if result.comparison is None else result.comparison.as_dict()}}


def _cell(r: Row) -> str:
    if not np.isfinite(r.value):
        return "nan"
    return f'{esc(fmt(r.value))}<span class="ci">{esc(interval(r.low, r.high))}</span>'


def _attrs(r: Row) -> str:
    return (f' data-value="{r.value!r}" data-low="{r.low!r}" data-high="{r.high!r}" '
            f'data-se="{r.std_error!r}"')


def _multiclass_table(data, result: MulticlassNumbers) -> str:
    lvl = level_text(data.level)
    head = criterion_name("multiclass", data.multi_class, data.average, data.K)
    cols = [("headline", head)]
    if (data.multi_class, data.average) != ("ovr", "macro"):
        cols.append(("ovr_macro", "one-vs-rest macro AUC"))
    if (data.multi_class, data.average) != ("ovo", "macro"):
        cols.append(("m", "M (Hand &amp; Till)"))
    header = ["#", "scorer"] + [f"{esc(t) if k == 'headline' else t}<small>{lvl} CI</small>" for k, t in cols]
    header.append("std. error<small>" + esc(head.split(" (")[0]) + "</small>")
    best = max((m.headline.value for m in result.models.values() if np.isfinite(m.headline.value)), default=None)
    rows, classes, attrs = [], [], []
    for i, name in enumerate(result.order, 1):
        m = result.models[name]
        row, cl, at = [str(i), esc(name)], ["rank", "name"], ["", ""]
        for k, _ in cols:
            r = getattr(m, k)
            row.append(_cell(r))
            cl.append("num best" if k == "headline" and best is not None and r.value == best and len(result.order) > 1
                      else "num")
            at.append(_attrs(r))
        row.append(esc(fmt(m.headline.std_error)))
        cl.append("num")
        at.append(f' data-value="{m.headline.std_error!r}"')
        rows.append(row)
        classes.append(cl)
        attrs.append(at)
    return table(header, rows, "multiclass", classes, attrs, ["", "name"] + [""] * (len(header) - 2))


def _multiclass_caption(data, result: MulticlassNumbers) -> str:
    lvl = level_text(data.level)
    first = next(iter(result.models.values())).headline
    how = METHOD_NAMES.get(first.method, first.method)
    sizes = ", ".join(f"{esc(c)}: {k:,}" for c, k in zip(data.names, data.class_sizes))
    head = esc(criterion_name("multiclass", data.multi_class, data.average, data.K))
    text = (f"{data.n:,} rows in {data.K} classes ({sizes}). Each scorer gives one probability column per class, in "
            "the order of the classes. ")
    if data.average == "micro":
        text += ("Micro average: every (row, class) entry pooled as one binary problem, the row's own class "
                 "positive and the others negative. ")
    elif data.average == "weighted":
        text += ("Weighted average: " + ("the one-vs-rest AUCs weighted by the class prevalences"
                                         if data.multi_class == "ovr" else
                                         "each pair's AUC weighted by the rows of its two classes together")
                 + "; its standard error includes the term of the prevalences being estimated. ")
    resamples = f" ({data.n_resamples:,} resamples within each class)" if first.method == "bootstrap" else ""
    text += (f"Each cell: the value and its {lvl} interval; the AUC asked for ({head}) by {esc(how)}{resamples}"
             ", the others by DeLong. Standard errors: the K-sample DeLong variance, each row's placements summed "
             "over the class pairs it enters, conditional on the class sizes")
    if data.n_clusters is not None:
        text += f", taken over the {data.n_clusters:,} clusters (cluster-robust)"
    text += (". The one-vs-rest macro AUC and M (Hand &amp; Till 2001, &ldquo;A simple generalisation of the area "
             "under the ROC curve for multiple class classification problems&rdquo;) equal scikit-learn's "
             "<code>roc_auc_score(multi_class='ovr'|'ovo')</code>. The scorers are listed best first.")
    return f'<p class="caption">{text}</p>'


def _component_table(data, result, labels: list, field: str, what: str) -> str:
    lvl = level_text(data.level)
    names = list(result.order)
    header = [what] + [f"{esc(n)}<small>AUC, {lvl} CI</small>" for n in names]
    rows, classes, attrs = [], [], []
    for j, label in enumerate(labels):
        row, cl, at = [label], ["name"], [""]
        for n in names:
            r = getattr(result.models[n], field)[j]
            row.append(_cell(r))
            cl.append("num")
            at.append(_attrs(r))
        rows.append(row)
        classes.append(cl)
        attrs.append(at)
    return table(header, rows, f"multiclass-{what}", classes, attrs, ["name"] + [""] * len(names))


def differences_html(data, comp: ComparisonNumbers, head: str) -> str:
    """The table of the scorers' differences on the criterion ``head`` with their tests."""
    lvl = level_text(data.level)
    how = ADJUST_NAMES.get(comp.adjust, comp.adjust)
    header = ["difference", f"estimate<small>{lvl} CI</small>", "std. error", "z", "p-value",
              f"p<small>{esc(how)}</small>"]
    rows, classes, attrs = [], [], []
    for p in comp.pairs:
        est = ("nan" if not np.isfinite(p.difference) else
               f'{esc(f"{p.difference:+.4f}")}<span class="ci">{esc(f"[{p.low:+.4f}, {p.high:+.4f}]")}</span>')
        rows.append([esc(f"{p.a} - {p.b}"), est, esc(fmt(p.std_error)), esc(fmt(p.statistic, 3)),
                     esc(fmt_p(p.p_value)), esc(fmt_p(p.p_adjusted))])
        classes.append(["name", "num", "num", "num", "num",
                        "num sig" if np.isfinite(p.p_adjusted) and p.p_adjusted < 1 - data.level else "num"])
        attrs.append(["", f' data-value="{p.difference!r}" data-low="{p.low!r}" data-high="{p.high!r}"', "", "", "",
                      f' data-value="{p.p_adjusted!r}"'])
    m = len(comp.pairs)
    family = (f"the {m} comparison{'s' if m != 1 else ''} with {comp.reference}" if comp.reference is not None
              else f"all {m} pairs of scorers" if m != 1 else "the one pair of scorers")
    text = (f"Differences of the {esc(head)} on the same rows: the joint covariance of the scorers' K-sample DeLong "
            f"terms, paired by row{' and taken over the clusters' if data.n_clusters is not None else ''}; a z test "
            f"for each difference with its {lvl} interval (not adjusted), p-values {esc(how)}-adjusted over "
            f"{esc(family)} (shaded: below {1 - data.level:.2g}).")
    if np.isfinite(comp.global_statistic):
        text += (f" All {len(comp.names)} equal: chi2 = {esc(fmt(comp.global_statistic, 3))}, df = "
                 f"{esc(f'{comp.global_df:g}')}, p {esc(p_eq(comp.global_p_value))}.")
    return (f"<h3>Differences: {esc(head)}</h3>" + table(header, rows, "pairs", classes, attrs)
            + f'<p class="caption">{text}</p>')


def _panels(k: int, width: float, height: float, per_row: int = 3):
    """``(figure, [axes])``: ``k`` panels side by side (``per_row`` a row at most)."""
    from matplotlib.figure import Figure

    ncol = min(k, per_row)
    nrow = -(-k // ncol)
    fig = Figure(figsize=(width * ncol, height * nrow), layout="constrained")
    axes = fig.subplots(nrow, ncol, squeeze=False).ravel().tolist()
    for ax in axes[k:]:
        ax.set_visible(False)
    return fig, axes[:k]


def _class_roc_figure(data, result: MulticlassNumbers) -> bytes:
    """One panel per scorer: each class against the rest on its own column."""
    from .. import metrics
    from ..display import RocCurveDisplay
    from ..stats import ConfidenceInterval
    from ._draw import MANY, png

    names = list(result.order)
    # beyond six classes the legend sits right of the axes: one panel a row, wider
    fig, axes = _panels(len(names), *((9.6, 6.0, 1) if data.K > MANY else (5.4, 5.2, 3)))
    for ax, name in zip(axes, names):
        S, m = data.scores[name], result.models[name]
        drawn = [k for k in range(data.K) if 0 < data.class_sizes[k] < data.n]
        for j, k in enumerate(drawn):
            c = metrics.roc_curve(data.codes == k, S[:, k], drop_intermediate=True)
            r = m.per_class[k]
            RocCurveDisplay(fpr=c.fpr, tpr=c.tpr, thresholds=c.thresholds, roc_auc=r.value,
                            roc_auc_ci=ConfidenceInterval(r.low, r.high, data.level, "delong", "wald", None, None,
                                                          r.std_error) if np.isfinite(r.low) else None,
                            name=data.names[k]).plot(ax=ax, legend=j == len(drawn) - 1)
        title = ax.set_title(name, fontsize=11)
        title.set_parse_math(False)
        ax.set_xlabel("false positive rate (the other classes)")
        ax.set_ylabel("true positive rate (the class)")
    return png(fig)


def _pair_heat_map(data, result: MulticlassNumbers) -> bytes:
    """One panel per scorer: the symmetric matrix of the pairwise AUCs A(a, b)."""
    from ._draw import png

    names = list(result.order)
    K = data.K
    side = max(4.2, 0.75 * K + 2.2)
    fig, axes = _panels(len(names), side + 0.9, side)
    size = 9 if K <= 5 else (7 if K <= 8 else 5)
    image = None
    for ax, name in zip(axes, names):
        mat = np.full((K, K), np.nan)
        cis = {}
        for (a, b), r in zip(result.pairs, result.models[name].per_pair):
            mat[a, b] = mat[b, a] = r.value
            cis[(a, b)] = cis[(b, a)] = r
        image = ax.imshow(np.ma.masked_invalid(mat), cmap="RdYlBu", vmin=0.0, vmax=1.0)
        for a in range(K):
            for b in range(K):
                if a == b:
                    continue
                r = cis[(a, b)]
                text = "nan" if not np.isfinite(r.value) else (
                    f"{r.value:.3f}" + (f"\n[{r.low:.2f}, {r.high:.2f}]" if K <= 8 else ""))
                dark = np.isfinite(r.value) and (r.value < 0.15 or r.value > 0.85)
                ax.text(b, a, text, ha="center", va="center", fontsize=size, color="white" if dark else "black")
        ax.set_xticks(range(K))
        ax.set_yticks(range(K))
        for labels in (ax.set_xticklabels(data.names, rotation=45 if K > 4 else 0, ha="right" if K > 4 else "center"),
                       ax.set_yticklabels(data.names)):
            for t in labels:
                t.set_parse_math(False)
        title = ax.set_title(f"{name}: M = {result.models[name].m.value:.3f}", fontsize=11)
        title.set_parse_math(False)
    if image is not None:
        fig.colorbar(image, ax=axes, shrink=0.8, label="one-vs-one AUC A(a, b)")
    return png(fig)


# --- ordered classes ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class OrdinalModel:
    """One scorer: ``vus`` (the VUS or HUM with its interval) and ``consecutive`` (the AUC
    of each pair of consecutive classes, DeLong)."""

    vus: Row
    consecutive: tuple


@dataclass(frozen=True)
class OrdinalNumbers:
    models: Mapping[str, OrdinalModel]
    order: tuple
    comparison: ComparisonNumbers | None


class OrdinalSection(Section):
    """The VUS (HUM) of every scorer on ordered classes (see the module's description)."""

    key = "ordinal"
    kinds = ("ordinal",)
    anchor, toc = "ordinal", "Ordered classes"

    def compute(self, data, prior) -> OrdinalNumbers:
        from .. import stats

        comparison, heads = None, {}
        if len(data.scores) > 1:
            data.progress("VUS comparison")
            comp = stats.compare(data.codes, dict(data.scores), criterion="vus", reference=data.reference,
                                 adjust="holm", confidence_level=data.level, **data.params, **data.cluster_args)
            # the classes under their own names, not the codes 0 .. K-1 the rows were given as
            comparison = ComparisonNumbers.of(replace(comp, params={"labels": list(data.classes)}))
            heads = dict(zip(data.scores, comp.estimates))
        models = {}
        for i, (name, s) in enumerate(data.scores.items(), 1):
            data.progress(f"VUS {i}/{len(data.scores)}: {name}")
            est = heads.get(name)
            if est is None:
                est = stats.estimate(data.codes, s, criterion="vus", **data.params, **data.cluster_args)
            models[name] = OrdinalModel(
                vus=estimate_row(est, data.level, data.ci_method, data.n_resamples, data.random_state),
                consecutive=consecutive_aucs(data.codes, s, data.K, data.level, data.clusters))
        order = _best_first({n: m.vus.value for n, m in models.items()})
        return OrdinalNumbers(models=MappingProxyType(models), order=order, comparison=comparison)

    def render(self, data, result: OrdinalNumbers, figures: dict) -> str:
        lvl = level_text(data.level)
        name = criterion_name("ordinal", None, None, data.K)
        chain = " &lt; ".join(esc(c) for c in data.names)
        header = ["#", "scorer", f"{name}<small>{lvl} CI</small>", "std. error"]
        best = max((m.vus.value for m in result.models.values() if np.isfinite(m.vus.value)), default=None)
        rows, classes, attrs = [], [], []
        for i, n in enumerate(result.order, 1):
            r = result.models[n].vus
            rows.append([str(i), esc(n), _cell(r), esc(fmt(r.std_error))])
            classes.append(["rank", "name", "num best" if best is not None and r.value == best and len(result.order) > 1
                            else "num", "num"])
            attrs.append(["", "", _attrs(r), f' data-value="{r.std_error!r}"'])
        parts = [table(header, rows, "ordinal", classes, attrs, ["", "name", "", ""])]
        first = next(iter(result.models.values())).vus
        how = METHOD_NAMES.get(first.method, first.method)
        chance = 1.0 / np.prod(np.arange(1, data.K + 1))
        sizes = ", ".join(f"{esc(c)}: {k:,}" for c, k in zip(data.names, data.class_sizes))
        text = (f"{data.n:,} rows in {data.K} ordered classes {chain} ({sizes}); higher score = a higher class. "
                f"The {name} is the share of chains of one row per class, taken in the classes' order, whose "
                f"scores rise strictly along the chain; tied scores count by the share of tie-breakings that put "
                f"the chain in order (1/2 for a tied pair, 1/6 for three). A random score gives "
                f"1/{data.K}! = {chance:.4g}, a perfect one 1 (Mossman 1999, &ldquo;Three-way ROCs&rdquo;; Nakas "
                f"&amp; Yiannoutsos 2004; Li &amp; Fine 2008 for more classes). Each cell: the value and its {lvl} "
                f"interval by {esc(how)}"
                + (f" ({data.n_resamples:,} resamples within each class)" if first.method == "bootstrap" else "")
                + "; standard errors: the K-sample DeLong variance of the chain placements")
        if data.n_clusters is not None:
            text += f", taken over the {data.n_clusters:,} clusters (cluster-robust)"
        text += ". The scorers are listed best first."
        parts.append(f'<p class="caption">{text}</p>')
        names = list(result.order)
        header = ["classes"] + [f"{esc(n)}<small>AUC, {lvl} CI</small>" for n in names]
        rows, classes, attrs = [], [], []
        for k in range(data.K - 1):
            row, cl, at = [f"{esc(data.names[k + 1])} over {esc(data.names[k])}"], ["name"], [""]
            for n in names:
                r = result.models[n].consecutive[k]
                row.append(_cell(r))
                cl.append("num")
                at.append(_attrs(r))
            rows.append(row)
            classes.append(cl)
            attrs.append(at)
        parts.append("<h3>Consecutive classes</h3>" + table(header, rows, "consecutive", classes, attrs,
                                                            ["name"] + [""] * len(names)))
        parts.append(f'<p class="caption">The AUC of each pair of consecutive classes on their rows only: how often '
                     f'a row of the higher class scores above a row of the lower one (ties 1/2), with its {lvl} '
                     f'DeLong interval (not adjusted for the number of pairs); a pair near 0.5 is one the score does '
                     f'not tell apart.</p>')
        if result.comparison is not None:
            parts.append(differences_html(data, result.comparison, name))
        return section("ordinal", f"Ordered classes: {name} ({chain})", "\n".join(parts))

    def summary(self, data, result: OrdinalNumbers) -> dict:
        pairs = [f"{data.names[k + 1]} over {data.names[k]}" for k in range(data.K - 1)]
        return {"ordinal": {
            "criterion": criterion_name("ordinal", None, None, data.K), "order": list(data.classes),
            "confidence_level": data.level, "ci_method": data.ci_method, "ranking": list(result.order),
            "estimates": {n: {"value": m.vus.as_dict(),
                              "consecutive": {p: r.as_dict() for p, r in zip(pairs, m.consecutive)}}
                          for n, m in result.models.items()},
            "comparison": None if result.comparison is None else result.comparison.as_dict()}}
