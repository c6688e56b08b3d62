"""Multiclass AUCs and the VUS/HUM against R (issue 31): pROC 1.18 ``multiclass.roc``,
VUROCS 1.0 ``VUS``/``VUSvar``/``VUScov`` and trinROC 0.7 ``emp.vus``, stored in
tests/golden/multiclass_golden.json by tests/golden/make_multiclass_golden.R (the calls and
versions are in the JSON; CI has no R); and scikit-learn's ``roc_auc_score`` live on the
same datasets and on the three multiclass datasets scikit-learn ships.

Conventions found (see the R script's header and tests/_support/reference_vurocs.py):

* pROC's matrix form computes, for the pair (i, j), two rocs on the rows of the two classes:
  column i with class i as controls and direction ">" (Hand & Till's A(i|j), rankwise's
  ``directed[i, j]``), and column j with class j as controls; their mean is
  ``pairs[i, j]`` and M is OvO ``average="macro"``. Ties count 1/2, as in rankwise.
* pROC's univariate form picks each pair's direction from the data (median rule), which
  rankwise does not offer (docs/multiclass.md); it is checked here against that rule.
* trinROC's ``emp.vus`` counts a tied pair 1/2 and three tied 1/6: rankwise's convention,
  equal on every dataset. VUROCS counts a chain only when its scores increase strictly
  (ties across classes count 0): equal to rankwise where no score is shared by two classes,
  else equal to the strict chain count.
* VUROCS's ``VUSvar``/``VUScov`` are the plug-in form of the exact variance of a K-sample
  U-statistic (a sum over the 2^K sets of classes two chains share); rankwise's K-sample
  DeLong variance is its single-class part times ``prod n_k / prod (n_k - 1)``, without
  the higher-order terms: the exact difference is tested below.
"""

from __future__ import annotations

import json
import math
import os
import warnings

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import rankwise as rw
from _support.paths import GOLDEN
from _support.reference_multiclass import set_auc_reference
from _support.reference_vurocs import chain_scores, delong_from_terms, vurocs_cov, vurocs_cov_pairs, vurocs_terms
from _support.reference_vus import vus_reference

TOL = 1e-10

with open(os.path.join(GOLDEN, "multiclass_golden.json")) as _fh:
    DOC = json.load(_fh)
DATASETS = DOC["datasets"]
NAMES = sorted(DATASETS)
SCORES = [(name, sn) for name in NAMES for sn in ("s1", "s2") if sn in DATASETS[name]]
COV_NAMES = [name for name in NAMES if "cov" in DATASETS[name]["vurocs"]]
K3_SCORES = [(name, sn) for name, sn in SCORES if len(DATASETS[name]["labels"]) == 3]

# Every inference test calls the API of rankwise/stats/_multiclass.py.
needs_stats = pytest.mark.skipif(not hasattr(rw.stats, "MulticlassEstimate"),
                                 reason="rw.stats multiclass inference (MulticlassEstimate) not available")


def _data(name):
    d = DATASETS[name]
    return np.array(d["y"]), np.array(d["P"], dtype=float), list(d["labels"])


def _cross_class_ties(y, s) -> bool:
    """Whether some score value is held by rows of two different classes."""
    seen = {}
    for lab, v in zip(y.tolist(), s.tolist()):
        seen.setdefault(v, set()).add(lab)
    return any(len(c) > 1 for c in seen.values())


def _terms(name, sa, sb, ties):
    d = DATASETS[name]
    s1 = np.array(d[sa], dtype=float)
    s2 = s1 if sb == sa else np.array(d[sb], dtype=float)
    return vurocs_terms(d["y"], s1, s2, d["labels"], ties)


# --- the file itself ---------------------------------------------------------------------

def test_golden_file_records_its_origin():
    assert DOC["script"] == "tests/golden/make_multiclass_golden.R"
    assert os.path.exists(os.path.join(GOLDEN, "make_multiclass_golden.R"))
    assert DOC["pROC_version"] == "1.18.0" and DOC["VUROCS_version"] == "1.0" and DOC["trinROC_version"] == "0.7"
    for key in ("proc_matrix", "proc_univariate", "vus", "vusvar", "vuscov", "emp_vus"):
        assert DOC["calls"][key]
    # 3, 4 and 5 classes; ties and none; unequal sizes; real datasets among them.
    ks = {len(DATASETS[n]["labels"]) for n in NAMES}
    assert {3, 4, 5} <= ks
    assert len(NAMES) >= 6
    tied = [_cross_class_ties(np.array(DATASETS[n]["y"]), np.array(DATASETS[n]["s1"])) for n in NAMES]
    assert any(tied) and not all(tied)
    assert any(len(set(DATASETS[n]["sizes"])) > 1 for n in NAMES)
    for name in NAMES:
        d = DATASETS[name]
        y = np.array(d["y"])
        assert [int(np.sum(y == lab)) for lab in d["labels"]] == d["sizes"], name
        assert np.allclose(np.array(d["P"]).sum(axis=1), 1.0), name


# --- pROC, matrix form: Hand & Till --------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_proc_M_is_ovo_macro(name):
    y, P, labels = _data(name)
    M = DATASETS[name]["proc_matrix"]["M"]
    ours = rw.multiclass_auc(y, P, multi_class="ovo", average="macro", labels=labels)
    assert abs(ours - M) <= TOL, (ours, M)
    # scikit-learn's OvO macro is the same quantity (live anchor against the R anchor).
    perm = np.argsort(labels)  # scikit-learn wants its labels sorted; M does not depend on the order
    sk = roc_auc_score(y, P[:, perm], multi_class="ovo", average="macro", labels=[labels[k] for k in perm])
    assert abs(sk - M) <= TOL


@pytest.mark.parametrize("name", NAMES)
def test_proc_pairs_are_directed_and_pairs(name):
    """Each pair i/j of combn(labels, 2): pROC's first roc is rankwise's directed[i, j]
    (column i, class i above class j), its second directed[j, i], their mean pairs[i, j]."""
    y, P, labels = _data(name)
    res = rw.multiclass_auc(y, P, multi_class="ovo", average=None, labels=labels)
    pairs = DATASETS[name]["proc_matrix"]["pairs"]
    K = len(labels)
    assert len(pairs) == K * (K - 1) // 2
    seen = set()
    for p in pairs:
        i, j = labels.index(p["i"]), labels.index(p["j"])
        assert i < j
        seen.add((i, j))
        # pROC's roles: controls are the class of the column, direction ">".
        assert (p["controls_1"], p["cases_1"], p["direction_1"]) == (p["i"], p["j"], ">")
        assert (p["controls_2"], p["cases_2"], p["direction_2"]) == (p["j"], p["i"], ">")
        assert abs(res.directed[i, j] - p["auc_1"]) <= TOL
        assert abs(res.directed[j, i] - p["auc_2"]) <= TOL
        assert abs(res.pairs[i, j] - (p["auc_1"] + p["auc_2"]) / 2) <= TOL
        # ... and the anchor itself is the pair loop.
        lit = set_auc_reference(P[:, i], y == p["i"], y == p["j"], np.ones(y.size))
        assert abs(lit - p["auc_1"]) <= TOL
    assert len(seen) == len(pairs)


# --- pROC, univariate form (not offered by rankwise) --------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_proc_univariate_is_the_median_rule(name):
    """docs/multiclass.md's description of pROC's univariate multiclass.roc: per pair, the AUC
    of the one score with the direction chosen from the data (the class with the higher
    median taken as the higher one; "<" when median(controls) <= median(cases)), averaged."""
    d = DATASETS[name]
    y, s, labels = np.array(d["y"]), np.array(d["s1"], dtype=float), d["labels"]
    up = d["proc_univariate"]
    K = len(labels)
    assert len(up["pairs"]) == K * (K - 1) // 2
    total = 0.0
    for p in up["pairs"]:
        lo, hi = p["controls"], p["cases"]
        assert labels.index(lo) < labels.index(hi)
        sel = (y == lo) | (y == hi)
        up_auc = rw.auc(y[sel] == hi, s[sel])  # cases above controls, ties 1/2
        direction = "<" if np.median(s[y == lo]) <= np.median(s[y == hi]) else ">"
        assert p["direction"] == direction
        expected = up_auc if direction == "<" else 1.0 - up_auc
        assert abs(p["auc"] - expected) <= TOL
        total += expected
    assert abs(up["M"] - total / len(up["pairs"])) <= TOL


# --- VUS: trinROC and VUROCS -------------------------------------------------------------

@pytest.mark.parametrize("name,sn", K3_SCORES)
def test_vus_equals_trinroc(name, sn):
    """trinROC's ties (1/2 for a tied pair, 1/6 for three) are rankwise's: equal everywhere,
    ties across classes included."""
    d = DATASETS[name]
    ours = rw.vus(d["y"], d[sn], labels=d["labels"])
    assert abs(ours - d["trinroc"][sn]["emp_vus"]) <= TOL
    assert abs(ours - d["trinroc"][sn]["emp_vus_new"]) <= TOL


@pytest.mark.parametrize("name,sn", SCORES)
def test_vus_against_vurocs(name, sn):
    """VUROCS counts strictly increasing chains only: equal to rankwise without ties across
    classes; with them, VUROCS is the strict chain count and rankwise the share count."""
    d = DATASETS[name]
    y, s, labels = np.array(d["y"]), np.array(d[sn], dtype=float), d["labels"]
    golden = d["vurocs"][sn]["vus"]
    assert d["vurocs"][sn]["count"] == d["sizes"]
    ours = rw.vus(y, s, labels=labels)
    terms, strict, _, _ = vurocs_terms(y, s, s, labels, "strict")
    assert abs(strict - golden) <= TOL
    if not _cross_class_ties(y, s):
        assert abs(ours - golden) <= TOL
    else:
        _, share, _, _ = vurocs_terms(y, s, s, labels, "share")
        assert abs(ours - share) <= TOL
        assert ours >= golden  # a tie only ever adds a share


def test_vurocs_convention_split_is_exercised():
    """Both branches above run: some scores have ties across classes (where VUROCS and
    rankwise differ), some none."""
    tied = {(n, sn): _cross_class_ties(np.array(DATASETS[n]["y"]), np.array(DATASETS[n][sn])) for n, sn in SCORES}
    assert any(tied.values()) and not all(tied.values())
    differ = [k for k, t in tied.items() if t and rw.vus(DATASETS[k[0]]["y"], DATASETS[k[0]][k[1]],
                                                         labels=DATASETS[k[0]]["labels"])
              - DATASETS[k[0]]["vurocs"][k[1]]["vus"] > 1e-3]
    assert differ


def test_vurocs_help_examples():
    """VUROCS's own examples: VUS 0 on the first (ties and reversals), VUSvar and VUScov by
    the transcription, also by the loop over every pair of chains (the grouping checked)."""
    ex = {e["call"].split("(")[0]: e for e in DOC["vurocs_examples"]}
    e = ex["VUS"]
    labels = sorted(set(e["y"]))
    assert e["vus"] == 0.0
    assert rw.vus(e["y"], e["s1"], labels=labels) == 0.0
    e = ex["VUSvar"]
    assert abs(vurocs_cov(e["y"], e["s1"], e["s1"], labels) - e["var"]) <= TOL
    terms, theta, _, _ = vurocs_terms(e["y"], e["s1"], e["s1"], labels)
    assert abs(theta - e["vus"]) <= TOL
    e = ex["VUScov"]
    labels = [1, 2, 3]
    s1, s2 = np.array(e["s1"], dtype=float), np.array(e["s2"], dtype=float)
    for a, b, key in ((s1, s2, "cov"), (s1, s1, "var1"), (s2, s2, "var2")):
        assert abs(vurocs_cov(e["y"], a, b, labels) - e[key]) <= TOL
        assert abs(vurocs_cov_pairs(e["y"], a, b, labels) - e[key]) <= TOL


def test_chain_scores_share_is_the_tie_share():
    """The vectorised ``h`` of reference_vurocs against reference_vus's literal VUS."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 4, 30)
    y[:4] = [0, 1, 2, 3]
    s = rng.integers(0, 4, 30).astype(float)
    _, share, _, _ = vurocs_terms(y, s, s, [0, 1, 2, 3], "share")
    assert abs(share - vus_reference(y, s, [0, 1, 2, 3])) <= 1e-12
    _, strict, _, _ = vurocs_terms(y, s, s, [0, 1, 2, 3], "strict")
    assert strict < share
    one_each = [np.array([0]), np.array([1]), np.array([2])]
    assert chain_scores([1.0, 1.0, 1.0], one_each, "share")[0] == pytest.approx(1 / 6)
    assert chain_scores([1.0, 1.0, 2.0], one_each, "share")[0] == pytest.approx(1 / 2)
    assert chain_scores([1.0, 1.0, 2.0], one_each, "strict")[0] == 0.0


# --- VUROCS variances ----------------------------------------------------------------------

@pytest.mark.parametrize("name,sn", SCORES)
def test_vusvar_transcription(name, sn):
    """The estimator written out in tests/_support/reference_vurocs.py is VUROCS's VUSvar,
    ties (counted 0) included."""
    terms, _, _, _ = _terms(name, sn, sn, "strict")
    assert abs(sum(terms.values()) - DATASETS[name]["vurocs"][sn]["var"]) <= TOL
    assert terms[()] == pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize("name", COV_NAMES)
def test_vuscov_transcription(name):
    terms, _, _, _ = _terms(name, "s1", "s2", "strict")
    assert abs(sum(terms.values()) - DATASETS[name]["vurocs"]["cov"]) <= TOL


@needs_stats
@pytest.mark.parametrize("name,sn", SCORES)
def test_rankwise_variance_vs_vusvar(name, sn):
    """rankwise's K-sample DeLong variance is VUROCS's single-class terms times
    prod n_k / prod (n_k - 1) (placement variances with n_k - 1 denominators instead of
    n_k, and without VUROCS's (n_j - 1) / n_j factors of the other classes); VUSvar adds the
    terms of the sets of two classes or more. Without ties across classes this ties
    rankwise's number to the golden VUSvar exactly; with them (VUROCS's h is then the strict
    count), to the same decomposition with rankwise's tie shares."""
    d = DATASETS[name]
    y, s, labels = np.array(d["y"]), np.array(d[sn], dtype=float), d["labels"]
    e = rw.stats.estimate(y, s, criterion="vus", labels=labels)
    ours = e.std_error ** 2
    share_terms, _, _, sizes = _terms(name, sn, sn, "share")
    assert abs(ours - delong_from_terms(share_terms, sizes)) <= TOL * max(1.0, ours)
    if not _cross_class_ties(y, s):
        golden = d["vurocs"][sn]["var"]
        higher = sum(v for S, v in share_terms.items() if len(S) >= 2)
        factor = math.prod(sizes) / math.prod(n - 1 for n in sizes)
        assert abs(ours - factor * (golden - higher)) <= TOL
        assert abs(ours - golden) > 1e-6  # a different estimator, never equal by accident


@needs_stats
@pytest.mark.parametrize("name", COV_NAMES)
def test_rankwise_covariance_vs_vuscov(name):
    d = DATASETS[name]
    y, labels = np.array(d["y"]), d["labels"]
    s1, s2 = np.array(d["s1"], dtype=float), np.array(d["s2"], dtype=float)
    c = rw.stats.compare(y, [s1, s2], criterion="vus", labels=labels)
    ours = float(c.cov[0, 1])
    share_terms, _, _, sizes = _terms(name, "s1", "s2", "share")
    assert abs(ours - delong_from_terms(share_terms, sizes)) <= TOL
    if not (_cross_class_ties(y, s1) or _cross_class_ties(y, s2)):
        higher = sum(v for S, v in share_terms.items() if len(S) >= 2)
        factor = math.prod(sizes) / math.prod(n - 1 for n in sizes)
        assert abs(ours - factor * (d["vurocs"]["cov"] - higher)) <= TOL
    # The diagonal is each score's own estimate.
    for k, sn in enumerate(("s1", "s2")):
        e = rw.stats.estimate(y, d[sn], criterion="vus", labels=labels)
        assert abs(c.cov[k, k] - e.std_error ** 2) <= TOL


# --- scikit-learn, live -------------------------------------------------------------------

OVR = ["macro", "weighted", "micro", None]
OVO = ["macro", "weighted"]


def _all_averages(y, P, labels, w=None):
    """rankwise with the columns in the order of ``labels``; scikit-learn (which wants its
    labels sorted) with the columns sorted by label."""
    perm = np.argsort(np.array(labels, dtype=object).astype(str), kind="stable")
    sk_labels = [labels[k] for k in perm]
    for mc, avs in (("ovr", OVR), ("ovo", OVO)):
        for av in avs:
            if w is not None and mc == "ovo":
                continue  # scikit-learn does not weight OvO
            ours = rw.multiclass_auc(y, P, multi_class=mc, average=av, labels=labels, sample_weight=w)
            ref = roc_auc_score(y, P[:, perm], multi_class=mc, average=av, labels=sk_labels, sample_weight=w)
            if av is None:
                ours = ours[perm]
            assert np.allclose(ours, ref, rtol=0, atol=1e-12), (mc, av, ours, ref)


@pytest.mark.parametrize("name", NAMES)
def test_sklearn_live_on_golden_datasets(name):
    y, P, labels = _data(name)
    _all_averages(y, P, labels)
    w = np.random.default_rng(len(y)).choice([0.5, 1.0, 2.0, 3.0], size=len(y))
    _all_averages(y, P, labels, w)


@pytest.mark.parametrize("loader", ["load_iris", "load_wine", "load_digits"])
def test_sklearn_live_on_shipped_datasets(loader):
    """The multiclass datasets scikit-learn ships (3, 3 and 10 classes), with the held-out
    probabilities of a logistic regression fitted on half the rows (small C: the classes
    overlap), string labels in an order other than sorted."""
    from sklearn import datasets
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    X, t = getattr(datasets, loader)(return_X_y=True)
    rng = np.random.default_rng(7)
    idx = rng.permutation(t.size)
    fit, test = idx[: t.size // 2], idx[t.size // 2:]
    X = StandardScaler().fit(X[fit]).transform(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = LogisticRegression(C=0.02, max_iter=500).fit(X[fit], t[fit])
    P = model.predict_proba(X[test])
    names = np.array([f"class_{k:02d}" for k in model.classes_])
    y = names[np.searchsorted(model.classes_, t[test])]
    _all_averages(y, P, list(names))
    order = list(rng.permutation(len(names)))
    _all_averages(y, P[:, order], list(names[order]))
