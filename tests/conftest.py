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
