"""Every criterion unit names itself in words (``describe()``), for the report's headers and
the command line's tables: the registry is the one place that knows the wording."""

import pytest

from rankwise import criteria
from rankwise import phi as rw_phi

ALL_EXAMPLES = [spec for name in criteria.names() for spec in criteria.unit_class(name).examples]


@pytest.mark.parametrize(
    "spec, text",
    [
        ("auc", "AUC"),
        ("gini", "Gini (2 AUC \u2212 1)"),
        ("ks_statistic", "KS statistic"),
        ("average_precision", "average precision"),
        ("partial_auc:max_fpr=0.1,standardize=mcclish", "partial AUC, FPR \u2264 0.1 (McClish)"),
        ("partial_auc:max_fpr=0.1", "partial AUC, FPR \u2264 0.1"),
        ("partial_auc:min_fpr=0.2,max_fpr=0.6", "partial AUC, FPR 0.2\u20130.6"),
        ("partial_auc:min_tpr=0.9,standardize=mcclish", "partial AUC, TPR \u2265 0.9 (McClish)"),
        ("partial_auc:min_tpr=0.5,max_tpr=0.8", "partial AUC, TPR 0.5\u20130.8"),
        ("partial_auc:max_fpr=1,standardize=mcclish", "partial AUC, the whole curve"),
        ("local_auc:top=0.1", "local AUC, top 10%"),
        ("local_auc:top=0.125", "local AUC, top 12.5%"),
        ("pnorm_push:p=4", "p-norm push, p = 4"),
        ("pnorm_push:p=2.5,ties=max,normalize=False", "p-norm push, p = 2.5 (ties counted fully, raw sum)"),
        ("dcg", "DCG"),
        ("dcg:k=100", "DCG@100"),
        ("ndcg:k=100", "NDCG@100"),
        ("rank_statistic:phi=auc,scale=minmax", "W_\u03c6, \u03c6(u) = u (minmax scale)"),
        ("rank_statistic:phi=pnorm_push,p=4", "W_\u03c6, \u03c6(u) = u^4"),
        ("rank_statistic:phi=local_auc,u0=0.9,ties=max", "W_\u03c6, \u03c6(u) = u 1{u \u2265 0.9} (ties counted fully)"),
        ("rank_statistic:phi=dcg,k=20", "W_\u03c6, \u03c6 = DCG@20 weights"),
        ("ranking_risk", "ranking risk (comparable pairs)"),
        ("ranking_risk:pairs=all", "ranking risk (all pairs)"),
    ],
)
def test_describe_words_the_parameters(spec, text):
    assert criteria.get(spec).describe() == text


def test_describe_a_callable_phi_by_its_name():
    def my_phi(u):
        return u * u

    assert criteria.get(("rank_statistic", {"phi": my_phi})).describe() == "W_\u03c6, \u03c6 = my_phi"
    assert rw_phi.from_callable(my_phi).describe() == "\u03c6 = my_phi"


@pytest.mark.parametrize("spec", ALL_EXAMPLES)
def test_every_example_has_a_readable_name(spec):
    unit = criteria.get(spec)
    text = unit.describe()
    assert isinstance(text, str) and text and "\n" not in text
    assert text != unit.label or unit.label == "auc"  # words, not the spec (the AUC's spec is its name)
    assert ":" not in text and "=" not in text.replace("p = ", "").replace("\u03c6(u) = ", "").replace("\u03c6 = ", "")


def test_different_parameters_read_differently():
    texts = {spec: criteria.get(spec).describe() for spec in ALL_EXAMPLES}
    assert len(set(texts.values())) == len(texts)
