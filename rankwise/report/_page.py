"""The report as a list of sections: what a section is (:class:`Section`) and the page
that asks each one in turn (:class:`Page`).

A section is a unit: ``kinds`` names the label kinds it serves (``"binary"``: 0/1 labels;
``"censored"``: times and events, :mod:`rankwise.report._survival`; ``"multiclass"`` and
``"ordinal"``: several classes and ordered classes, :mod:`rankwise.report._multiclass`),
``applies(data)`` says whether the data has what it shows, ``compute(data, prior)``
returns its numbers as a frozen result (nothing drawn), ``figures(data, result)`` draws
them (PNG bytes by key), ``render(data, result, figures)`` writes its HTML, and
``summary(data, result)`` gives its entries of :func:`rankwise.report.write_report`'s
returned dict. A section reads the results of earlier ones only through ``prior``, and
only those it names: ``needs`` (without them it does not apply) and ``wants`` (read with
``prior.get``, None when absent). A section may render nothing: its result is then for the
sections that need it (the criteria, the comparisons, the ROC bands).

The page computes the sections in its order (which is also the order of the progress
lines, and of the draws from a shared random generator), then draws every figure, then
renders, then writes the figure files and the page, each atomically
(:func:`rankwise.io.write_atomic`), the page last. Adding a section is adding it to the
page's list: no other section changes.
"""

from __future__ import annotations

import os
import warnings
from types import MappingProxyType
from typing import Any, Iterable

from .._version import __version__
from ..io import write_atomic
from ._html import CSS, esc


class Section:
    """One unit of the report (see the module's description). Subclasses set ``key``
    and override what they do; the defaults compute nothing, draw nothing and render
    nothing."""

    #: The name of the section's result in ``prior``.
    key: str = ""
    #: The label kinds of the data it serves (``ReportData.kind``): a section of another
    #: kind is neither computed nor asked for its ``absent`` entries.
    kinds: tuple = ("binary",)
    #: Results this section cannot do without: it does not apply when one is absent.
    needs: tuple = ()
    #: Results this section reads when present (``prior.get(key)``).
    wants: tuple = ()
    #: The page anchor and the table of contents' entry (None: not in the contents).
    anchor: str | None = None
    toc: str | None = None
    #: The keys of its figures that are also written as files (``<stem>_files/<key>.png``).
    files: tuple = ()

    def applies(self, data) -> bool:
        """Whether the data has what this section shows."""
        return True

    def compute(self, data, prior) -> Any:
        """The section's numbers: a frozen result (no figure is drawn)."""
        return None

    def figures(self, data, result) -> dict:
        """``{key: PNG bytes}`` of the section's figures."""
        return {}

    def render(self, data, result, figures: dict) -> str:
        """The section's HTML (already escaped); empty when it shows nothing itself."""
        return ""

    def summary(self, data, result) -> dict:
        """Its entries of the dict :func:`rankwise.report.write_report` returns."""
        return {}

    def absent(self, data) -> dict:
        """Its entries of the returned dict when it does not apply."""
        return {}


class Page:
    """The sections of a report, in page order; see the module's description."""

    def __init__(self, sections: Iterable[Section]):
        self.sections = tuple(sections)
        seen: set[str] = set()
        for s in self.sections:
            if not s.key or s.key in seen:
                raise ValueError(f"Page: every section needs its own key; {type(s).__name__} has {s.key!r}.")
            late = [k for k in (*s.needs, *s.wants) if k not in seen]
            if late:
                raise ValueError(f"Page: section {s.key!r} reads {late}, which no earlier section computes.")
            seen.add(s.key)

    @property
    def files(self) -> tuple:
        """The keys of every figure file the page may write, in page order."""
        return tuple(k for s in self.sections for k in s.files)

    def compute(self, data) -> dict:
        """``{key: result}`` of every section of the data's kind that applies, in page order."""
        results: dict = {}
        for s in self.sections:
            if serves(s, data) and all(k in results for k in s.needs) and s.applies(data):
                results[s.key] = s.compute(data, MappingProxyType(results))
        return results

    def draw(self, data, results: dict) -> dict:
        """``{key: {figure key: PNG bytes}}`` of every section computed."""
        return {s.key: s.figures(data, results[s.key]) for s in self.sections if s.key in results}

    def render(self, data, results: dict, drawn: dict, caught: list, files_rel: str) -> str:
        """The whole page: head, each section (the contents before the first section
        listed in them), the warnings met, the footer."""
        title = esc(data.title)
        parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                 '<meta name="viewport" content="width=device-width, initial-scale=1">',
                 f"<title>{title}</title><style>{CSS}</style></head><body>"]
        shown = [s for s in self.sections if s.key in results]
        toc = [(s.anchor, s.toc) for s in shown if s.toc]
        for s in shown:
            if toc and s.toc:
                parts.append('<nav class="toc">' + "".join(f'<a href="#{a}">{t}</a>' for a, t in toc) + "</nav>")
                toc = []
            html = s.render(data, results[s.key], drawn.get(s.key, {}))
            if html:
                parts.append(html)
        if caught:
            parts.append('<section id="warnings"><h2>Warnings</h2>')
            parts.append("<ul>" + "".join(f'<li class="warn">{esc(w)}</li>' for w in caught) + "</ul></section>")
        if _kind(data) == "censored":
            files = any(k in s.files for s in shown for k in drawn.get(s.key, {}))
            saved = f"Figures also saved as PNG files in <code>{esc(files_rel)}/</code>. " if files else ""
            parts.append(f"<footer>{saved}Higher risk score = earlier event, for every scorer. Written by rankwise "
                         f"{esc(__version__)}.</footer>")
        elif hasattr(data, "footer"):  # a kind that words its own footer (several classes, ordered classes)
            files = any(k in s.files for s in shown for k in drawn.get(s.key, {}))
            parts.append(data.footer(files_rel if files else None))
        else:
            parts.append(f"<footer>Figures also saved as PNG files in <code>{esc(files_rel)}/</code>. Higher score = "
                         f"more likely positive, for every scorer. Written by rankwise {esc(__version__)}.</footer>")
        parts.append("</body></html>\n")
        return "\n".join(parts)

    def write(self, path: str, data, outputs: list[str], *, force: bool) -> dict:
        """Compute, draw, render; write the figure files of ``outputs`` (the page's
        :func:`rankwise.report.output_paths`) that were drawn, then the page; remove those
        of ``outputs`` not drawn (a forced run's folder then matches its page). On any
        failure the files this call created are removed. Returns the sections'
        summaries with ``warnings`` and ``paths``."""
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            results = self.compute(data)
            data.progress("figures and page")
            drawn = self.draw(data, results)
        caught = list(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in record))
        stem = os.path.splitext(os.path.basename(path))[0]
        page = self.render(data, results, drawn, caught, f"{stem}_files")
        pngs = {k: v for s in self.sections if s.key in results for k, v in drawn[s.key].items() if k in s.files}
        files_dir = os.path.join(os.path.dirname(path), f"{stem}_files")
        to_write = {f: pngs[os.path.splitext(os.path.basename(f))[0]] for f in outputs[1:]
                    if os.path.splitext(os.path.basename(f))[0] in pngs}
        _write_all(path, page, to_write, [f for f in outputs[1:] if f not in to_write], files_dir, force)
        out: dict = {}
        for s in self.sections:
            if s.key in results:
                out.update(s.summary(data, results[s.key]))
            elif serves(s, data):
                out.update(s.absent(data))
        paths = {"html": path, "files_dir": files_dir}
        paths.update({os.path.splitext(os.path.basename(f))[0]: f for f in to_write})
        out.update(warnings=caught, paths=paths)
        return out


def _kind(data) -> str:
    """The data's label kind (``"binary"`` for data that does not say)."""
    return getattr(data, "kind", "binary")


def serves(section: Section, data) -> bool:
    """Whether ``section`` serves the label kind of ``data``."""
    return _kind(data) in section.kinds


def _write_all(path: str, page: str, files: dict, stale: list, files_dir: str, force: bool) -> None:
    """The figure ``files`` ({path: bytes}), then the page, each atomically; then the
    ``stale`` files of an earlier run removed. A failure removes what this call created
    (and the folder, when it made it) and raises."""
    created_dir = not os.path.isdir(files_dir)
    written: list[str] = []
    try:
        for fpath, png in files.items():
            existed = os.path.exists(fpath)
            write_atomic(fpath, png, binary=True, force=force)
            if not existed:
                written.append(fpath)
        write_atomic(path, page, force=force)
        for fpath in stale:  # force: a figure of an earlier run that this page does not show
            if os.path.lexists(fpath):
                os.unlink(fpath)
    except BaseException:
        for fpath in written:  # leave no half report behind
            try:
                os.unlink(fpath)
            except OSError:
                pass
        if created_dir:
            try:
                os.rmdir(files_dir)
            except OSError:
                pass
        raise
