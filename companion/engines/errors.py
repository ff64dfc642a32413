"""One family of errors for every rules engine, in the manner of python-chess.

Every engine raises these (never its own root class), so the service, the CLI
and the tests catch one family:

* :class:`RulesError` - the root: a request the rules cannot answer.  Its
  message is one English sentence for a developer or a CLI user; ``reason`` is
  machine-readable (the engine's reason value, e.g. a race game's ``Reason``
  named tuple with a ``why`` member) and ``code`` is a short stable string
  (``"own-piece-on-target"``, ``"notation"``...) for programs and tests.
* :class:`NotationError` - a position, an action or a record that cannot be read.
* :class:`IllegalMove` - a well-formed action the rules refuse.
* :class:`AmbiguousMove` - an action that fits more than one legal move.
* :class:`GameOver` - an action after the end of the game.

Czech sentences for the table are made from ``reason`` by each engine's
``describe`` module, never from the English message.
"""

from __future__ import annotations

from typing import Any, ClassVar


class RulesError(ValueError):
    """A request the rules cannot answer (the message is one sentence)."""

    default_code: ClassVar[str] = "rules"

    def __init__(self, message: str, reason: Any = None, *, code: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self._code = code

    @property
    def code(self) -> str:
        """A short machine-readable name of what went wrong."""
        if self._code is not None:
            return self._code
        why = getattr(self.reason, "why", None)
        value = getattr(why, "value", why)
        return str(value) if value is not None else self.default_code


class NotationError(RulesError):
    """A position, action or record text that cannot be read."""

    default_code = "notation"


class IllegalMove(RulesError):
    """A well-formed action the rules refuse; ``reason`` says why."""

    default_code = "illegal"


class AmbiguousMove(RulesError):
    """An action that matches more than one legal move."""

    default_code = "ambiguous"


class GameOver(RulesError):
    """An action after the game has ended."""

    default_code = "game-over"
