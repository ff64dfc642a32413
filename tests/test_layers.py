"""The package's layers point one way: no module imports from a layer above its own.

Every import is read from the source with :mod:`ast` - module level, inside
functions (lazy imports) and under ``TYPE_CHECKING`` alike - and resolved to the
``companion`` module it names.  The layers, bottom up, are the table below
(docs/dev/DEVELOPING.md describes them); the most specific prefix decides a
module's layer.  Also: no import cycle between packages, no module imports
a private (``_name``) name from another module, and the core names no game: no
module outside the games and the top layer imports ``companion.games`` or mentions
a registered game's name or title (the names are read from the registry, so a new
game is covered as soon as it is added).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("companion", "companion.errors", "companion.engines.errors", "companion.rules_text"),
    ("companion.engines",),
    ("companion.players", "companion.selfplay"),
    ("companion.inputs",),
    ("companion.devices", "companion.dice"),
    ("companion.ui", "companion.web.snapshot", "companion.web.svg"),
    ("companion.service.hosts", "companion.storage"),
    ("companion.service", "companion.web", "companion.commandline", "companion.plugin"),
    ("companion.games",),
    ("companion.sim", "companion.commands", "companion.cli", "companion.__main__"),
)


def layer_of(module: str) -> int:
    best, depth = -1, -1
    for level, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and prefix.count(".") > depth:
                best, depth = level, prefix.count(".")
    assert best >= 0, f"{module} is in no layer: add it to LAYERS and docs/dev/DEVELOPING.md"
    return best


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str, path: Path) -> list[tuple[str, tuple[str, ...], int]]:
    """(imported module, names taken from it, line) for every import in the file."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[str, tuple[str, ...], int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, (), node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((target, tuple(a.name for a in node.names), node.lineno))
    return [(t, names, line) for t, names, line in out if t == "companion" or
            t.startswith("companion.")]


ALL = modules()


def resolve(target: str, names: tuple[str, ...]) -> list[str]:
    """The modules an import statement depends on (``from pkg import mod`` names a module)."""
    found = [f"{target}.{n}" for n in names if f"{target}.{n}" in ALL]
    return found or [target]


def test_every_module_is_in_a_layer():
    for name in ALL:
        layer_of(name)


@pytest.mark.parametrize("name", sorted(ALL))
def test_imports_point_down(name):
    mine = layer_of(name)
    bad = []
    for target, names, line in imports(name, ALL[name]):
        for dep in resolve(target, names):
            if layer_of(dep) > mine:
                bad.append(f"{name}:{line} imports {dep} (layer {layer_of(dep)} > {mine})")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", sorted(ALL))
def test_no_private_names_are_imported(name):
    bad = [f"{name}:{line} imports {n} from {target}"
           for target, names, line in imports(name, ALL[name])
           for n in names if n.startswith("_") and not n.startswith("__")]
    assert not bad, "\n".join(bad)


def package_of(module: str) -> str:
    path = ALL.get(module)
    if path is not None and path.name == "__init__.py":
        return module
    return module.rpartition(".")[0] or module


def test_no_import_cycle_between_packages():
    graph: dict[str, set[str]] = {}
    for name, path in ALL.items():
        src = package_of(name)
        for target, names, _ in imports(name, path):
            for dep in resolve(target, names):
                dst = package_of(dep)
                if dst != src and not src.startswith(dst + ".") and dep in ALL:
                    graph.setdefault(src, set()).add(dst)
    # Tarjan's strongly connected components
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, f"import cycles between packages: {cycles}"


def test_the_checker_sees_a_lazy_upward_import(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from companion.service.app import App\n")
    [(target, names, line)] = imports("companion.engines.m", src)
    assert target == "companion.service.app" and line == 2
    assert layer_of(target) > layer_of("companion.engines.m")


TOP = ("companion.games", "companion.sim", "companion.commands", "companion.cli",
       "companion.__main__")
"""The games and the layer above them; everything else is the core."""


def is_core(module: str) -> bool:
    return not any(module == p or module.startswith(p + ".") for p in TOP)


def game_words() -> list[str]:
    """Every registered game's name and title, and its set-up lines' labels."""
    from companion.games import GAMES

    words = set()
    for plugin in GAMES:
        words.add(plugin.name)
        words.add(plugin.title)
        words.update(label for _, label in plugin.table_lines())
        words.add(plugin.engine().title)
    return sorted({w.casefold(): w for w in sorted(words)}.values())


def mentions(text: str, words: list[str]) -> list[str]:
    found = []
    for word in words:
        if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE):
            found.append(word)
    return found


CORE = sorted(name for name in ALL if is_core(name))


@pytest.mark.parametrize("name", CORE)
def test_the_core_names_no_game(name):
    bad = [f"{name}:{line} imports {target}" for target, _, line in imports(name, ALL[name])
           if target == "companion.games" or target.startswith("companion.games.")]
    words = game_words()
    for n, line in enumerate(ALL[name].read_text("utf-8").splitlines(), 1):
        bad += [f"{name}:{n} mentions {w!r}: {line.strip()}" for w in mentions(line, words)]
    assert not bad, "\n".join(bad)


STATIC = sorted((ROOT / "companion" / "web" / "static").glob("*.*"))
"""The phone page's own files (served as they are: the core's too)."""


@pytest.mark.parametrize("path", STATIC, ids=lambda p: p.name)
def test_the_phone_page_names_no_game(path):
    words = game_words()
    bad = [f"{path.name}:{n} mentions {w!r}: {line.strip()}"
           for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
           for w in mentions(line, words)]
    assert not bad, "\n".join(bad)


def test_the_check_of_game_names_sees_a_title_and_a_lazy_import(tmp_path):
    words = game_words()
    assert {"clovece", "napij", "gobbit"} <= {w.lower() for w in words}
    assert [w.lower() for w in mentions("a comment on Gobbit's pads", words)] == ["gobbit"]
    assert mentions("gobbitish", words) == [] and len(mentions("GOBBIT", words)) == 1
    assert mentions("Člověče, napij se!", words)
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from companion.games import playable\n")
    [(target, _, _)] = imports("companion.service.m", src)
    assert target == "companion.games" and is_core("companion.service.m")
    assert not is_core("companion.games.clovece.host") and not is_core("companion.sim.demo")
    assert is_core("companion.commandline") and is_core("companion.plugin")
