import os
import sys

from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))

# Derandomised everywhere (CI and local): the same examples every run, so a failure
# reproduces and a green run means the same thing twice.
settings.register_profile(
    "rankwise",
    derandomize=True,
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "rankwise"))


def pytest_collection_modifyitems(config, items):
    # scikit-learn 1.6 (the oldest release rankwise supports) binarises the labels of
    # check_sample_weight_equivalence_* by each data set's first label, taken after the
    # weighted copy is shuffled: the weighted and the repeated fits then see opposite
    # positive classes, and any ranker's scores differ in sign. scikit-learn 1.7 binarises
    # both by the smallest label. Under 1.6 those checks say nothing about rankwise.
    import pytest
    import sklearn

    if tuple(int(p) for p in sklearn.__version__.split(".")[:2]) >= (1, 7):
        return
    mark = pytest.mark.xfail(reason="scikit-learn 1.6's check_sample_weight_equivalence gives the "
                                    "weighted and repeated fits opposite positive classes", strict=False)
    for item in items:
        if "check_sample_weight_equivalence" in item.name:
            item.add_marker(mark)
