"""Libraries by their public face: no private name of gpiozero used, nothing bolted onto PIL's objects.

* gpiozero: no ``obj._name`` of a name gpiozero keeps private (``_state``, ``_factory``,
  ``_change_state``, ...) in a module that imports gpiozero, except a class's own
  attributes (``self._x`` in a class of ours that does not derive from gpiozero); a
  class deriving from gpiozero's reads or writes none of them on ``self`` and overrides
  only the hooks gpiozero's ``Pin`` documents for its descendants (``_get_state``, ...).
* PIL: no attribute assigned to a PIL object (a font, an image, a drawing context) that its
  class does not have (``font.source_path = ...``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import gpiozero
import PIL
from gpiozero.pins import Pin

ROOT = Path(__file__).resolve().parents[1]
CHECKED = [*sorted((ROOT / "companion").rglob("*.py")), ROOT / "benchmarks" / "pads.py"]


def _private_names(package: Path) -> set[str]:
    """Every ``_name`` (not dunder) a library's source defines or uses as an attribute."""
    names: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = (node.attr if isinstance(node, ast.Attribute)
                    else node.name if isinstance(node, ast.FunctionDef) else "")
            if name.startswith("_") and not name.startswith("__"):
                names.add(name)
    return names


GPIOZERO_PRIVATE = _private_names(Path(gpiozero.__file__).parent)
PIN_HOOKS = set(re.findall(r":meth:`(_\w+)`", Pin.__doc__ or ""))


def _sources(library: str) -> Iterator[tuple[Path, ast.Module]]:
    for path in CHECKED:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.Import) and any(a.name.split(".")[0] == library for a in n.names)
               or isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == library
               for n in ast.walk(tree)):
            yield path, tree


def _imported_from(tree: ast.Module, library: str) -> set[str]:
    return {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
            and (n.module or "").split(".")[0] == library for a in n.names}


def gpiozero_private_uses(path: Path, tree: ast.Module) -> list[str]:
    library_classes = _imported_from(tree, "gpiozero")
    derived = {c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
               and any(ast.unparse(b).split(".")[0] in library_classes
                       for b in c.bases)}
    found = []
    for cls in (c for c in ast.walk(tree) if isinstance(c, ast.ClassDef)):
        ours = cls.name not in derived
        for node in ast.walk(cls):
            if (isinstance(node, ast.FunctionDef) and not ours and node.name in GPIOZERO_PRIVATE
                    and node.name not in PIN_HOOKS):
                found.append(f"{path.name}:{node.lineno} overrides gpiozero's {node.name}")
    own = {id(n) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and c.name not in derived
           for n in ast.walk(c)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in GPIOZERO_PRIVATE:
            on_self = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if not (on_self and id(node) in own):
                found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return sorted(found, key=lambda use: int(use.split(":")[1].split()[0]))


def test_no_private_name_of_gpiozero_is_used():
    found = [use for path, tree in _sources("gpiozero") for use in gpiozero_private_uses(path, tree)]
    assert found == []


def test_the_check_finds_what_the_old_simulated_pins_did():
    old = ast.parse(
        "from gpiozero.pins.mock import MockPin\n"
        "class Clocked(MockPin):\n"
        "    def _change_state(self, value):\n"
        "        if self._state != value:\n"
        "            self._last_change = self._factory.ticks()\n"
        "class Ours:\n"
        "    def __init__(self, factory):\n"
        "        self._factory = factory\n"
        "def drive(pin):\n"
        "    pin._state = True\n")
    found = gpiozero_private_uses(Path("old.py"), old)
    assert found == ["old.py:3 overrides gpiozero's _change_state", "old.py:4 self._state",
                     "old.py:5 self._last_change", "old.py:5 self._factory", "old.py:10 pin._state"]
    assert {"_get_state", "_set_pull", "_get_when_changed"} <= PIN_HOOKS


def _pil_attributes() -> set[str]:
    names: set[str] = set()
    for path in Path(PIL.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name):
                names.add(node.id)
    return names


def pil_attributes_added(path: Path, tree: ast.Module, known: set[str]) -> list[str]:
    found = []
    for node in ast.walk(tree):
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            for attr in (t for t in ast.walk(target) if isinstance(t, ast.Attribute)):
                on_self = isinstance(attr.value, ast.Name) and attr.value.id in ("self", "cls")
                if not on_self and attr.attr not in known:
                    found.append(f"{path.name}:{attr.lineno} {ast.unparse(attr)}")
    return found


def test_nothing_is_bolted_onto_pil_objects():
    known = _pil_attributes()
    assert "fontmode" in known and "source_path" not in known
    found = [use for path, tree in _sources("PIL") for use in pil_attributes_added(path, tree, known)]
    assert found == []
    bolted = ast.parse("from PIL import ImageFont\nf = ImageFont.load_default()\nf.source_path = 'x'\n")
    assert pil_attributes_added(Path("old.py"), bolted, known) == ["old.py:3 f.source_path"]
