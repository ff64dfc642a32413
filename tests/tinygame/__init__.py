"""The living example of docs/dev/DEVELOPING.md's "How to add a game": a two-player dice race.

Its own package (``engine.py``: the rules on the game protocol; ``host.py``: the table) and
the one registry line below, which the tests add with :func:`companion.registry.register`
(the conformance suite in ``tests/conformance/`` checks it like every registered game).
"""

from companion.registry import GameInfo

INFO = GameInfo("race", "Závod", "tests.tinygame.engine:GAME", "tests.tinygame.host:RaceHost")
"""The race's registry line."""
