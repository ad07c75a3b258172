"""Shared test set-up: hypothesis profiles and helpers.

Profiles: ``ci`` (hypothesis's own, loaded when CI is set: derandomized, no
deadline), ``default`` here (no deadline: engine timings belong in benchmarks), and
``thorough`` for local or nightly runs (``HYPOTHESIS_PROFILE=thorough``).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", deadline=None)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=1000,
    stateful_step_count=200,
    suppress_health_check=[HealthCheck.too_slow],
)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
elif not os.environ.get("CI"):
    settings.load_profile("dev")
