"""check_clusters numbers ids by first appearance on each of its paths (a table over the
range of integer ids, pyarrow's hash table for far-apart integers and strings, a sort or
a dict otherwise): the codes equal a literal numbering with a Python dict, for ids of every
kind; NaT is a missing id."""

import numpy as np
import pytest

from rankwise._validation import check_clusters


def literal(ids):
    """Codes by first appearance, literally: a dict from id to the number of ids seen before."""
    table = {}
    return np.array([table.setdefault(v, len(table)) for v in ids], dtype=np.int64), len(table)


def cases():
    rng = np.random.default_rng(7)
    base = rng.integers(0, 40, 300)
    scattered = rng.permutation(np.arange(3000) // 5)
    yield "small ints", base, base.tolist()
    yield "scattered ids of 5 rows", scattered, scattered.tolist()
    yield "ids already 0, 1, ... by first appearance", np.arange(3000) // 5, (np.arange(3000) // 5).tolist()
    yield "every row its own id", np.arange(500), list(range(500))
    far = base * 10**9 + 123  # range far wider than 2 n: the hash path
    yield "far-apart ints", far, far.tolist()
    shifted = base.astype(np.int64) + np.iinfo(np.int64).min  # near the bottom of int64
    yield "ints near int64 min", shifted, shifted.tolist()
    top = base.astype(np.uint64) + np.uint64(2**64 - 100)  # above the signed range
    yield "uint64 above 2^63", top, [int(v) for v in top]
    small = (base - 20).astype(np.int8)
    yield "int8 with negatives", small, small.tolist()
    yield "bool", base % 2 == 0, (base % 2 == 0).tolist()
    fl = np.where(base == 0, -0.0, base * 1.0)
    yield "integral floats with -0.0 and 0.0", np.concatenate([fl, [0.0]]), [v + 0.0 for v in fl] + [0.0]
    yield "non-integral floats", base * 0.5, (base * 0.5).tolist()
    dates = np.datetime64("2020-01-01") + base.astype("m8[D]")
    yield "dates", dates, dates.tolist()
    strs = [f"p{v}" for v in base]
    yield "unicode strings", np.array(strs), strs
    yield "byte strings", np.array([s.encode() for s in strs]), [s.encode() for s in strs]
    yield "object strings", np.array(strs, dtype=object), strs
    mixed = [v if v % 3 else f"{v}" for v in base.tolist()]
    yield "mixed ints and strings", np.array(mixed, dtype=object), mixed
    bs = [b"a", "a", b"a", "b"]  # bytes and str never equal
    yield "bytes and str objects", np.array(bs, dtype=object), bs


@pytest.mark.parametrize("name,ids,values", list(cases()), ids=[c[0] for c in cases()])
def test_codes_equal_literal_first_appearance(name, ids, values):
    codes, G = check_clusters(ids, len(values))
    want, G_want = literal(values)
    assert codes.dtype == np.int64
    assert G == G_want
    np.testing.assert_array_equal(codes, want)


def test_nat_is_a_missing_id():
    ids = np.array(["2020-01-01", "NaT", "2020-01-02"], dtype="M8[D]")
    with pytest.raises(ValueError, match=r"missing ids \(NaT\) at rows 1"):
        check_clusters(ids, 3)
