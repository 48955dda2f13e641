"""Test-wide settings: hypothesis profiles.

`ci` (the default) is derandomized and small so runs are repeatable and fast;
`deep` is for fuzz campaigns: `HYPOTHESIS_PROFILE=deep pytest -m deep fuzz/`.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "deep",
    max_examples=20_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
