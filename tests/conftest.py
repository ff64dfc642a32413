"""Settings every test shares.

Hypothesis: no per-example deadline and no "too slow" health check, because CI and the
development machine are shared and noisy; a property is about what the code does, and the
speed targets live in benchmarks/ (measured as ratios), never in a test.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "companion", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("companion")
