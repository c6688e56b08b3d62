"""Documentation stands alone: no docstring, comment or document points at a paper by an
internal number (the word paper and three digits) or at a notes file that is not shipped, and the package and
its user documents do not send readers to a folder outside the repository. Papers are cited
by author, year and title instead."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from _support.paths import ROOT

NUMBERED_PAPER = re.compile(r"\bpapers?\s+(?:no\.?\s*)?0\d\d\b", re.IGNORECASE)
NOTES_FILE = re.compile(re.escape("THEORY" + ".md"), re.IGNORECASE)
OUTSIDE = re.compile("|".join(re.escape(x) for x in (".." + "/shared", "/work" + "/", "shared" + "/papers")))

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
    assert OUTSIDE.search("see /work" + "/shared/x.md") and OUTSIDE.search("the text in shared" + "/papers/")
    assert not OUTSIDE.search("docs/inference.md") and not OUTSIDE.search("a shared covariance")


# --- links of the user documents ------------------------------------------------------------

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, markup and punctuation dropped (letters of
    any script, digits, spaces, hyphens and underscores kept), spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def _anchors(path: str) -> set[str]:
    out, fence = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            m = None if fence else HEADING.match(line)
            if m:
                out.add(_slug(m.group(1)))
    return out


def _user_documents() -> list[str]:
    docs = os.path.join(ROOT, "docs")
    return [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(docs, n) for n in os.listdir(docs) if n.endswith(".md"))


def _links(path: str) -> list[tuple[int, str]]:
    out = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            out += [(i, m.group(1)) for m in LINK.finditer(line)]
    return out


def test_every_relative_link_of_the_user_documents_resolves():
    # README.md and docs/*.md: a link to a file of the repository names a file that exists,
    # and a link to a heading (file.md#anchor) names a heading of that file.
    bad = []
    for doc in _user_documents():
        for line, target in _links(doc):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            where = f"{os.path.relpath(doc, ROOT)}:{line}: {target}"
            if not full.startswith(ROOT + os.sep) or not os.path.exists(full):
                bad.append(where + " (no such file in the repository)")
            elif anchor and full.endswith(".md") and anchor not in _anchors(full):
                bad.append(where + " (no such heading)")
    assert bad == []


def test_the_readme_links_every_page_of_docs():
    linked = {os.path.normpath(os.path.join(ROOT, t.partition("#")[0]))
              for _, t in _links(os.path.join(ROOT, "README.md"))}
    pages = [p for p in _user_documents()[1:] if p not in linked]
    assert [os.path.relpath(p, ROOT) for p in pages] == []


def test_the_link_checks_find_what_they_are_for():
    assert _slug("Variances: the Hájek projection") == "variances-the-hájek-projection"
    assert _slug("The ranking risk: Hoeffding's decomposition") == "the-ranking-risk-hoeffdings-decomposition"
    assert _slug("`compare` and `estimate`") == "compare-and-estimate"
    assert LINK.findall("see [a](docs/x.md#y) and [b](https://e.org)") == ["docs/x.md#y", "https://e.org"]


def test_docstrings_name_pages_that_exist():
    # ``docs/name.md`` in the package's docstrings and comments names a page of docs/.
    pattern = re.compile(r"docs/[\w.-]+\.md")
    bad = [f"{os.path.relpath(path, ROOT)}: {m.group(0)}"
           for path in _files(["rankwise"])
           for m in pattern.finditer(Path(path).read_text(encoding="utf-8"))
           if not os.path.isfile(os.path.join(ROOT, m.group(0)))]
    assert bad == []
