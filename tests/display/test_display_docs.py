"""docs/plots.md: its examples run and print what the page says."""

import doctest

from _support.paths import ROOT


def test_plots_page_examples():
    result = doctest.testfile(f"{ROOT}/docs/plots.md", module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 20 and result.failed == 0
