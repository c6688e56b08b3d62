"""docs/survival.md: its examples run and print what the page says, and its hand count (4 of
5 comparable pairs) is the literal definition's."""

import doctest
import os

import pytest

from _support import reference_survival as ref

PAGE = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "docs", "survival.md")


def test_examples_of_the_page_run():
    res = doctest.testfile(os.path.abspath(PAGE), module_relative=False,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted >= 4 and res.failed == 0


def test_hand_example_is_the_definition():
    C, num, den, _, _ = ref.harrell([2, 4, 5, 7], [1, 1, 0, 1], [0.9, 0.3, 0.5, 0.1])
    assert (num, den) == (4.0, 5.0) and C == pytest.approx(0.8)
    se = ref.ij_variance([2, 4, 5, 7], [1, 1, 0, 1], [0.9, 0.3, 0.5, 0.1]) ** 0.5
    assert se == pytest.approx(0.2039608, abs=1e-7)  # R survival's sqrt(var)
