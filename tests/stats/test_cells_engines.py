"""The compiled and the numpy routes of rankwise._kernels.placement_moments give the same
cell moments (the compiled one writes each row's placements cell by cell in one pass; the
numpy one gathers them from a 2G x n cumulative sum), with ties, weights, offsets and both
column sets; and by_group is the same on both engines."""

import numpy as np
import pytest

import rankwise as rw
from rankwise._kernels import GroupCells, placement_moments
from rankwise._kernels._merge import use_engine

pytest.importorskip("numba")


@pytest.mark.parametrize("same_class", [False, True])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_engines_agree(same_class, ties, weighted):
    rng = np.random.default_rng(11 + 4 * same_class + 2 * ties + weighted)
    n, G = 1500, 4
    codes = rng.integers(0, G, n)
    codes[codes == 3] = 2  # an empty group: its cells have no rows
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(size=n), 1) if ties else rng.normal(size=n)
    w = rng.integers(0, 4, n) * 0.75 if weighted else None
    cells = GroupCells(y, codes, G, w)
    colmass = np.concatenate((cells.mass[:, 0], cells.mass[:, 1]))
    offsets = rng.random(2 * G) * 3
    with use_engine("numpy"):
        a = placement_moments(s, cells, same_class, colmass, offsets)
    with use_engine("numba"):
        b = placement_moments(s, cells, same_class, colmass, offsets)
    np.testing.assert_allclose(a[0], b[0], rtol=0, atol=1e-12)
    for x, z in zip(a[1] + a[2], b[1] + b[2]):
        np.testing.assert_allclose(x, z, rtol=1e-12, atol=1e-10)


def test_by_group_same_on_both_engines():
    rng = np.random.default_rng(3)
    n = 2000
    g = rng.choice(["a", "b", "c"], n)
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + y, 2)
    with use_engine("numpy"):
        a = rw.stats.by_group(y, s, g)
    with use_engine("numba"):
        b = rw.stats.by_group(y, s, g)
    fa = [v for r in a.overall + a.rows + a.differences + a.bias for v in r if isinstance(v, float)]
    fb = [v for r in b.overall + b.rows + b.differences + b.bias for v in r if isinstance(v, float)]
    np.testing.assert_allclose(fa, fb, rtol=1e-10, atol=1e-13)
