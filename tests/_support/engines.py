"""The ``engine`` fixture of the reader tests (tests/cli): import it into a test module."""

import pytest

from rankwise.cli import _readers


@pytest.fixture(params=["arrow", "pandas", "stdlib"])
def engine(request, monkeypatch):
    """Run text-format tests through the pyarrow fast path, the pandas one and the
    standard library's csv module (a plain ``pip install rankwise`` has neither)."""
    if request.param == "arrow":
        pytest.importorskip("pyarrow")
    else:
        monkeypatch.setattr(_readers, "_has_pyarrow", lambda: False)
        monkeypatch.setattr(_readers, "CHUNK_ROWS", 7)  # many chunks even in small files
    if request.param == "pandas":
        pytest.importorskip("pandas")
    if request.param == "stdlib":
        monkeypatch.setattr(_readers, "_has_pandas", lambda: False)
    return request.param
