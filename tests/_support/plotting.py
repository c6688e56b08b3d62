"""``new_axes()``: a fresh matplotlib Axes on its own Agg figure, outside pyplot (nothing to
close, no backend touched)."""

from __future__ import annotations

__all__ = ["new_axes"]


def new_axes():
    from matplotlib.figure import Figure

    return Figure().subplots()
