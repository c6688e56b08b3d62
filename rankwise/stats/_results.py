"""Result objects of :mod:`rankwise.stats`: small, immutable, printable."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

__all__ = ["ConfidenceInterval", "format_rows", "html_table", "fmt", "fmt_count"]


def fmt(x: Any, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if np.isnan(x):
        return "nan"
    if x != 0 and (abs(x) >= 1e6 or abs(x) < 1e-4):
        return f"{x:.{digits}g}" if abs(x) >= 1e6 else f"{x:.3e}"
    return f"{x:.{digits}f}"


def fmt_count(x: Any) -> str:
    """A class size: an integer when it is one (unweighted), else 4 decimals (6
    significant digits for weight totals too small or large for that)."""
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.4f}" if 1e-3 <= abs(x) < 1e15 else f"{x:.6g}"


def format_rows(header: list[str], rows: list[list[str]]) -> str:
    """A plain text table: first column left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    out = []
    for r in [header] + rows:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        out.append("  ".join(cells).rstrip())
    out.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(out)


def html_table(title: str, header: list[str], rows: list[list[str]], notes: list[str] = ()) -> str:
    esc = html.escape
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows)
    foot = "".join(f"<p><small>{esc(n)}</small></p>" for n in notes)
    return f"<div><strong>{esc(title)}</strong><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{foot}</div>"


@dataclass(frozen=True)
class ConfidenceInterval:
    """A confidence interval ``(low, high)``; unpacks as a pair.

    Attributes
    ----------
    low, high : float
    confidence_level : float
    method : str
        ``"delong"``, ``"hajek"``, ``"hoeffding"`` or ``"bootstrap"``.
    kind : str or None
        For the bootstrap: ``"percentile"`` or ``"bca"``; ``"wald"`` for the normal
        approximation.
    transform : str or None
        ``"logit"`` when the normal interval was built on the logit scale.
    n_resamples : int or None
        Number of bootstrap resamples used.
    std_error : float
        The standard error behind the interval (for the bootstrap: the standard deviation
        of the resampled estimates).
    """

    low: float
    high: float
    confidence_level: float
    method: str
    kind: str | None = None
    transform: str | None = None
    n_resamples: int | None = None
    std_error: float | None = None
    notes: tuple = field(default=(), repr=False)

    def __iter__(self) -> Iterator[float]:
        yield self.low
        yield self.high

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: int) -> float:
        return (self.low, self.high)[i]

    def describe(self) -> str:
        parts = [self.method]
        if self.kind and self.kind != "wald":
            parts.append(self.kind)
        if self.transform:
            parts.append(self.transform)
        if self.n_resamples:
            parts.append(f"{self.n_resamples} resamples")
        return ", ".join(parts)
