"""``quiet(f, *args, **kwargs)``: call ``f`` with every warning silenced (tests that check
values on inputs where rankwise rightly warns, e.g. one class or a degenerate interval)."""

from __future__ import annotations

import warnings

__all__ = ["quiet"]


def quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*a, **k)
