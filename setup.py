"""The wheel's packages: ``companion`` and the boards' firmware.

The boards' MicroPython (the top-level ``firmware/`` folder: one flash image per board,
``<board>/main.py`` and its logic package, and the shared ``lib/``) ships whole inside the
wheel as ``companion/firmware/``, so that an installed companion finds it (the simulated
boards load it, ``companion firmware --path`` names it).  It is data, not an importable
part of the companion.  Everything else is in pyproject.toml.
"""

from pathlib import Path

from setuptools import find_namespace_packages, find_packages, setup

HERE = Path(__file__).resolve().parent
FIRMWARE_PACKAGES = [
    "companion.firmware" + ("." + name if name else "")
    for name in ["", *find_namespace_packages(where=str(HERE / "firmware"),
                                              exclude=["*__pycache__*"])]
]

setup(
    packages=[*find_packages(include=["companion", "companion.*"]), *FIRMWARE_PACKAGES],
    package_dir={"companion.firmware": "firmware"},
    package_data={name: ["*.py", "*.json", "*.md"] for name in FIRMWARE_PACKAGES},
)
