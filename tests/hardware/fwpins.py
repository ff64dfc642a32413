"""Module-level constants of a MicroPython file (``const(x)`` unwrapped), read without running it."""

from __future__ import annotations

import ast
from pathlib import Path


def constants(path: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                value = node.value
                if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                        and value.func.id == "const" and len(value.args) == 1):
                    value = value.args[0]  # MicroPython's const(x)
                try:
                    out[target.id] = ast.literal_eval(value)
                except ValueError:
                    pass
    return out
