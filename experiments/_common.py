"""What every experiment script shares: matplotlib set up off-screen, and writing results."""

from __future__ import annotations

import json
import os

from rankwise.io import write_atomic


def pyplot():
    """matplotlib's pyplot on the Agg backend (no display needed); imported only when a
    full run draws its figures (the quick modes do not need matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def write_results(out: str, res: dict, md: str, figure=None, quick: bool = False, **json_kw) -> None:
    """``out/results.json`` and ``out/results.md`` (atomically), the figures in full mode
    (``figure(res, out)``), and the Markdown on standard output."""
    os.makedirs(out, exist_ok=True)
    write_atomic(os.path.join(out, "results.json"), json.dumps(res, indent=1, **json_kw) + "\n")
    write_atomic(os.path.join(out, "results.md"), md)
    if figure is not None and not quick:
        figure(res, out)
    print(md)
