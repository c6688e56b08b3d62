"""The command line's fast label paths (issue 16, item 4) against their literal
definitions: a text label read by the CSV reader is held as dictionary codes and the
positive class is decided on its distinct values (``binary_labels``), a numeric label's
values come from its minimum and maximum (``_distinct``); both must give exactly what the
object array, ``np.unique`` and ``y == pos`` give, errors included."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankwise.cli._common import CLIError, _distinct, binary_labels, pos_label
from rankwise.cli._readers import MAX_LINE_BYTES, read_table

pytest.importorskip("pyarrow")


def _literal(table, label, given_pos):
    """The definition: the label column as an object (or numeric) array, ``np.unique``-like
    distinct values, the positive label by the rule, ``y == pos``."""
    y = np.asarray(table.raw(label))
    if y.dtype == object:
        distinct = np.empty(len(set(y)), dtype=object)
        distinct[:] = sorted(set(y))
    else:
        distinct = np.unique(y)
    from rankwise.cli._common import _choose

    pos = _choose(distinct, given_pos)
    return np.array([v == pos for v in y.tolist()], dtype=bool), pos


def _write(path, labels, scores=None):
    scores = np.arange(len(labels), dtype=np.float64) if scores is None else scores
    with open(path, "w") as fh:
        fh.write("id,label,score\n")
        fh.writelines(f"{i},{lab},{s!r}\n" for i, (lab, s) in enumerate(zip(labels, scores)))


@pytest.mark.parametrize("given_pos", [None, "pos", "neg", "b"])
def test_text_labels_across_batches_equal_the_object_array(tmp_path, given_pos):
    # 200,000 rows (several 1 MiB blocks of the reader): the first block holds 'neg' only,
    # 'pos' and 'b' appear later, so each batch's dictionary differs from the others'
    n = 200_000
    rng = np.random.default_rng(3)
    labels = np.where(rng.random(n) < 0.3, "pos", "neg").astype(object)
    labels[:40_000] = "neg"
    labels[rng.integers(40_000, n, size=50)] = "b"
    path = tmp_path / "t.csv"
    _write(path, labels.tolist())
    assert path.stat().st_size > 3 * MAX_LINE_BYTES
    table = read_table(path, columns=["label", "score"])
    assert table.label_codes("label") is not None
    if given_pos is None:  # three values: --pos-label is needed, with the same message
        with pytest.raises(CLIError) as fast:
            binary_labels(table, "label", None)
        with pytest.raises(CLIError) as slow:
            pos_label(read_table(path, columns=["label"]).labels("label"), None)
        assert str(fast.value) == str(slow.value)
        return
    is_pos, pos = binary_labels(table, "label", given_pos)
    want, want_pos = _literal(read_table(path, columns=["label"]), "label", given_pos)
    assert pos == want_pos and isinstance(pos, str)
    assert is_pos.dtype == bool and np.array_equal(is_pos, want)
    # the object array, asked for afterwards, is the column as written
    assert table.raw("label").tolist() == labels.tolist()


def test_text_label_errors_are_the_object_arrays(tmp_path):
    path = tmp_path / "e.csv"
    _write(path, ["neg", "pos", "", "pos", "neg", ""])
    fast = read_table(path, columns=["label"])
    with pytest.raises(ValueError) as a:
        binary_labels(fast, "label", "pos")
    with pytest.raises(ValueError) as b:
        read_table(path, columns=["label"]).labels("label")
    assert str(a.value) == str(b.value) == "column 'label' has empty values at rows 3, 6"
    one = tmp_path / "one.csv"
    _write(one, ["neg"] * 5)
    with pytest.raises(CLIError, match="one class only"):
        binary_labels(read_table(one, columns=["label"]), "label", None)
    two = tmp_path / "two.csv"
    _write(two, ["neg", "yes", "neg"])
    with pytest.raises(CLIError, match=r"--pos-label 'pos' is not a value of the label column \(neg, yes\)"):
        binary_labels(read_table(two, columns=["label"]), "label", "pos")


def test_numeric_and_boolean_labels_take_the_array_path(tmp_path):
    for labels, given_pos in (([0, 1, 1, 0], None), ([-1, 1, 1], None), (["true", "false", "true"], None),
                              ([2, 5, 5, 2], "5"), ([0.5, 1.5, 0.5], "1.5")):
        path = tmp_path / "n.csv"
        _write(path, labels)
        table = read_table(path, columns=["label"])
        assert table.label_codes("label") is None
        is_pos, pos = binary_labels(table, "label", given_pos)
        want, want_pos = _literal(read_table(path, columns=["label"]), "label", given_pos)
        assert pos == want_pos and type(pos) is type(want_pos) and np.array_equal(is_pos, want)


_NUMERIC = st.sampled_from([np.int64, np.int8, np.uint64, np.float64, np.float32, np.bool_])


@given(values=st.lists(st.integers(-3, 3), min_size=1, max_size=4, unique=True),
       idx=st.lists(st.integers(0, 3), min_size=1, max_size=40), dtype=_NUMERIC, huge=st.booleans())
def test_distinct_equals_np_unique(values, idx, dtype, huge):
    vals = np.array(values)
    if dtype == np.uint64:
        vals = np.abs(vals).astype(np.uint64) + (np.uint64(2**63) if huge else np.uint64(0))
    elif dtype == np.bool_:
        vals = (vals > 0)
    elif huge and dtype in (np.int64, np.float64):
        vals = vals.astype(dtype) * dtype(2**60) + dtype(1)
    y = vals.astype(dtype)[[i % len(values) for i in idx]]
    got, want = _distinct(y), np.unique(y)
    assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("ties", [False, True])
def test_ci_none_values_are_the_estimates_values(tmp_path, capsys, ties):
    # `--ci none` computes the values alone (rw.evaluate: one rank table, no projections);
    # they are the values the default command prints with its intervals, bit for bit
    import json

    from rankwise.cli import main

    rng = np.random.default_rng(5 + ties)
    n = 3000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, 1)
    path = tmp_path / "s.csv"
    with open(path, "w") as fh:
        fh.write("label,a,b\n")
        fh.writelines(f"{'pos' if p else 'neg'},{x!r},{-x!r}\n" for p, x in zip(y.tolist(), s.tolist()))
    specs = "auc,partial_auc:max_fpr=0.1,local_auc:top=0.1,pnorm_push:p=4,dcg:k=100,auc,ranking_risk"
    out = {}
    for ci in ("none", "delong"):
        argv = ["evaluate", str(path), "--label", "label", "--pos-label", "pos", "--score", "a", "--score", "b",
                "--criteria", specs, "--ci", ci, "--format", "json"]
        assert main(argv) == 0
        out[ci] = json.loads(capsys.readouterr().out)
    assert [(r["score"], r["criterion"]) for r in out["none"]["rows"]] == \
        [(r["score"], r["criterion"]) for r in out["delong"]["rows"]]
    assert [r["value"] for r in out["none"]["rows"]] == [r["value"] for r in out["delong"]["rows"]]
    assert all(set(r) == {"score", "criterion", "value"} for r in out["none"]["rows"])
    assert {k: v for k, v in out["none"].items() if k != "rows"} == {k: v for k, v in out["delong"].items()
                                                                     if k != "rows"}
