"""Settings every test shares.

Hypothesis: no per-example deadline and no "too slow" health check, because CI and the
development machine are shared and noisy; a property is about what the code does, and the
speed targets live in benchmarks/ (measured as ratios), never in a test.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "companion", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("companion")


# --- tests leave no trace -------------------------------------------------------------------
# Every test writes under its own temporary folders (tmp_path, tmp_path_factory).  The run
# notes what is in the places a stray write would land — the checkout (files git does not
# know), the home folder and the root folder (a path handed to the CLI as a hostile value) —
# when it starts, and fails when it ends if any of them holds something new.

import os  # noqa: E402
import subprocess  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

CHECKOUT = Path(__file__).resolve().parents[1]
# what tools keep beside the code between runs, not what a test wrote
TOOL_CACHES = ("__pycache__", ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache",
               "node_modules", ".venv", "build", "companion.egg-info", ".coverage")


def _untracked() -> set[str]:
    try:
        out = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "-z"],
                             cwd=CHECKOUT, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return set()
    if out.returncode != 0:
        return set()
    return {p for p in out.stdout.split("\0")
            if p and not any(part in TOOL_CACHES for part in Path(p).parts)}


def _entries(folder: str) -> set[str]:
    try:
        return {str(Path(folder) / name) for name in os.listdir(folder)}
    except OSError:
        return set()


def _places() -> dict[str, set[str]]:
    return {"the checkout": _untracked(), "the home folder": _entries(os.path.expanduser("~")),
            "the root folder": _entries("/")}


_BEFORE = pytest.StashKey[dict[str, set[str]]]()


def _is_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput")  # pytest-xdist's workers have it


def pytest_configure(config: pytest.Config) -> None:
    if _is_controller(config):
        config.stash[_BEFORE] = _places()



def new_traces(before: dict[str, set[str]], after: dict[str, set[str]]) -> list[str]:
    """What appeared in each place since ``before``, as "place: path" lines."""
    return [f"{place}: {path}" for place, paths in after.items()
            for path in sorted(paths - before.get(place, set()))]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if not _is_controller(config) or _BEFORE not in config.stash:
        return
    found = new_traces(config.stash[_BEFORE], _places())
    if found:
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        text = ("tests left files outside their temporary folders (write under tmp_path):\n  "
                + "\n  ".join(found[:50]))
        if reporter is not None:
            reporter.write_line(text, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
