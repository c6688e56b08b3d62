"""Documentation stands alone: no docstring, comment or document points at a paper by an
internal number (the word paper and three digits) or at a notes file that is not shipped, and the package and
its user documents do not send readers to a folder outside the repository. Papers are cited
by author, year and title instead."""

from __future__ import annotations

import os
import re

import pytest

from _support.paths import ROOT

NUMBERED_PAPER = re.compile(r"\bpapers?\s+(?:no\.?\s*)?0\d\d\b", re.IGNORECASE)
NOTES_FILE = re.compile(re.escape("THEORY" + ".md"), re.IGNORECASE)
OUTSIDE = re.compile(re.escape(".." + "/shared"))

TEXT = (".py", ".md", ".txt", ".toml", ".cfg", ".in", ".html", ".rst")
EVERYWHERE = ("rankwise", "docs", "tests", "experiments", "bench", "README.md", "REPRODUCTION.md",
              "BENCHMARKS.md", "pyproject.toml", "Makefile")
# The package and what its users read: not even a data path outside the repository.
USER_FACING = ("rankwise", "docs", "README.md")


def _files(roots):
    for root in roots:
        path = os.path.join(ROOT, root)
        if os.path.isfile(path):
            yield path
        for folder, dirs, names in os.walk(path):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", ".hypothesis")]
            for name in names:
                if name.endswith(TEXT):
                    yield os.path.join(folder, name)


def _hits(roots, pattern):
    out = []
    for path in _files(roots):
        if os.path.samefile(path, __file__):  # its own test strings
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for i, line in enumerate(f, 1):
                if pattern.search(line):
                    out.append(f"{os.path.relpath(path, ROOT)}:{i}: {line.strip()}")
    return out


@pytest.mark.parametrize("pattern", [NUMBERED_PAPER, NOTES_FILE], ids=["numbered paper", "notes file"])
def test_no_pointer_to_unshipped_notes(pattern):
    assert _hits(EVERYWHERE, pattern) == []


def test_package_and_user_docs_stay_inside_the_repository():
    assert _hits(USER_FACING, OUTSIDE) == []


def test_the_patterns_find_what_they_are_for():
    # The check itself: each pattern matches the spellings it must catch, and not the
    # experiment scripts' file names (paper000_consistency.py), which stay.
    assert NUMBERED_PAPER.search("see Paper 003, Figure 1") and NUMBERED_PAPER.search("paper 000's")
    assert NUMBERED_PAPER.search("papers 001") and not NUMBERED_PAPER.search("paper000_consistency.py")
    assert NOTES_FILE.search("(THEORY" + ".md section 2)") and OUTSIDE.search("in " + ".." + "/shared/papers")
