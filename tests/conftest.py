"""Hypothesis profiles: "ci" when CI is set, else "dev"; HYPOTHESIS_PROFILE overrides both."""

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)
