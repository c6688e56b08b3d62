"""The core dependencies pinned at their declared minimums (``name>=v`` -> ``name==v``), one
per line, for ``make test-min``: ``python tests/_support/minimums.py [pyproject.toml]``.

Read with a regular expression (not tomllib) so that it runs on Python 3.10 too."""

from __future__ import annotations

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def minimum_pins(path: str = os.path.join(ROOT, "pyproject.toml")) -> list[str]:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"^dependencies\s*=\s*\[(.*?)^\]", text, re.MULTILINE | re.DOTALL)
    if block is None:
        raise ValueError(f"{path}: no [project] dependencies list")
    pins = []
    for spec in re.findall(r'"([^"]+)"', block.group(1)):
        m = re.fullmatch(r"\s*([A-Za-z0-9_.\-\[\]]+)\s*>=\s*([0-9][0-9A-Za-z.]*)\s*", spec)
        if m is None:
            raise ValueError(f"{path}: dependency {spec!r} has no plain '>=' minimum to test")
        pins.append(f"{m.group(1)}=={m.group(2)}")
    return pins


if __name__ == "__main__":
    print("\n".join(minimum_pins(*sys.argv[1:])))
