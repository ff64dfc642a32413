"""Člověče, napij se! on the one protocol of every game (:class:`companion.engines.game.Game`).

:data:`GAME` wraps the engine (:mod:`companion.games.napij.engine.rules`): a
:class:`Setup` makes a new game; chance comes in as actions (the shuffle
of a virtual deck, every throw, and every card drawn from a physical deck);
each action is a compact JSON record for the journal, and a journal replays
exactly with :func:`companion.engines.game.replay`.

**Who acts.**  :meth:`NapijGame.to_move` names the colour whose *decision* it
is: the player on turn in the play phase, the drawer of a card that waits for
a choice - or the co-player a card's deal was offered to, who answers it.  Throws, the shuffle and drawn cards are chance
(:meth:`NapijGame.chance`), so ``to_move`` is ``None`` then; in the throw
phase :meth:`NapijGame.legal_actions` lists the six throws and, when the
player may still say it, :class:`DeclareBottle` (the one decision taken at a
chance node: it is said before the first throw).  A shuffle has 32! outcomes:
``legal_actions`` lists none, the caller builds it with :meth:`chance_action`.

**Debts.**  While the player on turn owes a due debt (D22), the state waits for
that player's decision, not for chance: ``chance`` is ``None``, ``to_move`` is the
player and ``legal_actions`` offers settling (:class:`Drank`) and, as the seed
allows, throwing anyway (:class:`ThrowOwing`), after which chance gives the throw,
which is void and costs the penalty.  So any driver of the protocol plays a game
to its end.

**The table's call-outs.**  "Red drank" (:class:`Drank`, also "red drank what was
just announced"), "later" (:class:`Later`) and a called duty (:class:`Duty`:
dropped die, delay, cheating, getting upset) belong to no player's turn and are
in ``legal_actions`` only as above; :meth:`NapijGame.apply` accepts them whenever
they are legal - in every phase, out of turn, after the end of the game - and
they change nothing but the drink ledger.  A throw made at the real table while
the thrower owes a due debt is legal without :class:`ThrowOwing` too: it is void
and costs the penalty (docs/players/napij-rules.md, D22).

**Files.**  The board and the deck are data files ("default" for the shipped
ones, or a path).  The journal header keeps the names and a short hash of each
file's text; a resumed game whose file has changed, or is gone, is refused with
one sentence (:class:`~companion.engines.errors.NotationError`).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.engines.colours import COLOURS, SEATS_BY_PLAYERS, colour_index
from companion.engines.errors import NotationError, RulesError
from companion.engines.game import HEADER, ROLL, Chance, ChanceKind, Game, Record, Source
from companion.games.napij.engine import describe as czech
from companion.games.napij.engine.actions import (
    Action,
    Choose,
    DeclareBottle,
    Decline,
    Drank,
    Draw,
    Duty,
    Later,
    Offer,
    Play,
    Shuffle,
    Step,
    Throw,
    ThrowOwing,
)
from companion.games.napij.engine.board import (
    DataFileError,
    default_board_text,
    parse_board,
    read_text,
)
from companion.games.napij.engine.deck import default_deck_text, parse_deck
from companion.games.napij.engine.events import Event
from companion.games.napij.engine.notation import format_position, parse_position
from companion.games.napij.engine.reasons import Why
from companion.games.napij.engine.rules import (
    UNSHUFFLED,
    apply,
    can_declare_bottle,
    choices,
    chooser,
    legal_plays,
    new_game,
    why_not,
)
from companion.games.napij.engine.state import (
    BOTTLE,
    CALLED_DUTIES,
    PIECES,
    DeckMode,
    DrinkReason,
    Phase,
    Rules,
    State,
    default_rules,
)

DEFAULT = "default"
"""The file name of the shipped board or deck."""
HASH_CHARS = 12
"""How many hex digits of a file's SHA-256 the header keeps."""


@dataclass(frozen=True, slots=True)
class Setup:
    """How a game is set up (the journal header, :meth:`NapijGame.setup_record`)."""

    players: int = 4
    first: int | None = None
    """The colour that starts (``None``: the first seat, red)."""
    deck_mode: DeckMode = DeckMode.VIRTUAL
    board_file: str = DEFAULT
    """``"default"`` or the path of a board file (docs/players/boards.md)."""
    deck_file: str = DEFAULT
    """``"default"`` or the path of a deck file (docs/players/deck.md)."""
    board_hash: str | None = None
    """The board file's hash when the game began (a resumed game); ``None``: a new game."""
    deck_hash: str | None = None


def file_hash(text: str) -> str:
    """The short content hash the header keeps."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_CHARS]


def _text(path: str, what: str) -> str:
    if path == DEFAULT:
        return default_board_text() if what == "board" else default_deck_text()
    try:
        return read_text(path, what)
    except DataFileError as exc:
        why = exc.problems[0].message.rstrip(".")
        raise NotationError(f"The {what} file {path} cannot be read "
                            f"({why[:1].lower() + why[1:]}).") from None


@functools.lru_cache(maxsize=8)
def _compiled(board_text: str, deck_text: str, board_source: str, deck_source: str) -> Rules:
    if board_text == default_board_text() and deck_text == default_deck_text():
        return default_rules()  # one Rules object for every default game
    return Rules(parse_board(board_text, board_source), parse_deck(deck_text, deck_source))


def load_rules(setup: Setup) -> tuple[Rules, str, str]:
    """The rules of a setup and the hashes of its board and deck files; a file that changed
    since the header was written, or cannot be played with, is one sentence."""
    texts = []
    for what, path, expected in (("board", setup.board_file, setup.board_hash),
                                 ("deck", setup.deck_file, setup.deck_hash)):
        text = _text(path, what)
        if expected is not None and file_hash(text) != expected:
            raise NotationError(f"The {what} file {path} has changed since this game began, "
                                "so the game cannot go on with it.")
        texts.append(text)
    try:
        rules = _compiled(texts[0], texts[1], setup.board_file, setup.deck_file)
    except DataFileError as exc:
        raise NotationError(f"{exc.problems[0].text(exc.source)}") from None
    return rules, file_hash(texts[0]), file_hash(texts[1])


def _colour(value: Any, key: str) -> int:
    if not isinstance(value, str):
        raise NotationError(f"The record's {key} must be a colour letter, not {value!r}.")
    return colour_index(value)


def _int(value: Any, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise NotationError(f"The record's {key} must be a whole number, not {value!r}.")
    return value


def _ints(value: Any, key: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise NotationError(f"The record's {key} must be a list of whole numbers.")
    return tuple(_int(v, key) for v in value)


def _reason(value: Any) -> DrinkReason:
    try:
        return DrinkReason(value)
    except ValueError:
        names = ", ".join(r.value for r in DrinkReason)
        raise NotationError(f"The record's why must be one of {names}, not {value!r}.") from None


def _piece_text(colour: int, piece: int) -> str:
    return f"{COLOURS[colour]}{piece + 1}"


class NapijGame:
    """The protocol object of Člověče, napij se! (module-level :data:`GAME`)."""

    name = "napij"
    title = "Člověče, napij se!"

    def __init__(self, rules: Rules | None = None) -> None:
        self._rules = rules

    @property
    def rules(self) -> Rules:
        """The rules :meth:`parse` reads positions with (the shipped board and deck)."""
        return self._rules or default_rules()

    def with_rules(self, setup: Setup) -> NapijGame:
        """The same game reading positions on the setup's board and deck."""
        return NapijGame(load_rules(setup)[0])

    # --- set-up ---------------------------------------------------------------------
    def default_setup(self) -> Setup:
        return Setup()

    def setup_record(self, setup: Setup) -> Record:
        _rules, board_hash, deck_hash = load_rules(setup)
        first = setup.first if setup.first is not None else SEATS_BY_PLAYERS[setup.players][0]
        return {"t": HEADER, "game": self.name, "players": setup.players,
                "first": COLOURS[first], "deck": setup.deck_mode.value,
                "board": setup.board_file, "board_hash": board_hash,
                "cards": setup.deck_file, "cards_hash": deck_hash}

    def setup_from_record(self, record: Record) -> Setup:
        """The setup of a header (keys it does not know are left alone); the board and deck
        files must still be the ones the game began with."""
        if record.get("t") != HEADER or record.get("game") != self.name:
            raise NotationError("That record is not the header of a game of napij se.")
        players = record.get("players")
        if players not in SEATS_BY_PLAYERS or isinstance(players, bool):
            raise NotationError(f"A game of napij se has 2 to 4 players, not {players!r}.")
        first = _colour(record.get("first"), "first")
        if first not in SEATS_BY_PLAYERS[players]:
            raise NotationError(f"{COLOURS[first]} does not play in a {players}-player game.")
        mode = record.get("deck")
        if mode not in tuple(DeckMode):
            raise NotationError(f"The deck is virtual or physical, not {mode!r}.")
        files = []
        for key in ("board", "board_hash", "cards", "cards_hash"):
            value = record.get(key)
            if not isinstance(value, str) or not value:
                raise NotationError(f"The header needs {key} as text.")
            files.append(value)
        setup = Setup(players, first, DeckMode(mode), files[0], files[2], files[1],
                           files[3])
        load_rules(setup)  # refuse a file that changed now, not halfway through the replay
        return setup

    def new_game(self, setup: Setup) -> State:
        rules = load_rules(setup)[0]
        try:
            if setup.deck_mode is DeckMode.PHYSICAL:
                return new_game(rules, setup.players, setup.first, deck=DeckMode.PHYSICAL)
            return new_game(rules, setup.players, setup.first, UNSHUFFLED)
        except RulesError as exc:
            raise NotationError(str(exc)) from None

    # --- play -------------------------------------------------------------------------
    @staticmethod
    def owing(state: State) -> bool:
        """The player on turn owes a due debt and has not chosen to throw anyway: the state
        waits for that player's decision (settle, or throw anyway), not for chance."""
        return state.phase is Phase.THROW and not state.anyway and state.due(state.turn) > 0

    def chance(self, state: State) -> Chance | None:
        phase = state.phase
        if phase is Phase.THROW:
            return None if self.owing(state) else ROLL
        if phase is Phase.SHUFFLE:
            return Chance(ChanceKind.SHUFFLE, size=len(state.rules.deck.cards))
        if phase is Phase.DRAW:
            return Chance(ChanceKind.DRAW, state.rules.deck.numbers)
        return None

    def chance_action(self, state: State, outcome: int | Sequence[int],
                      src: Source = Source.DICE) -> Action:
        """A die value (a throw), a card number (a physical deck's draw), or a permutation of
        ``range(size)`` (a shuffle: the deck file's cards in that order, top first).  ``src`` is
        not kept: a throw is a throw, whoever made it."""
        chance = self.chance(state)
        if chance is None:
            raise RulesError("The game does not wait for chance now.", code="no-chance")
        if chance.kind is ChanceKind.SHUFFLE:
            if isinstance(outcome, int) or sorted(outcome) != list(range(chance.size)):
                raise NotationError(f"A shuffle is an order of the numbers 0 to "
                                    f"{chance.size - 1}, each once.")
            numbers = state.rules.deck.numbers
            return Shuffle(tuple(numbers[i] for i in outcome))
        if not isinstance(outcome, int) or outcome not in chance.outcomes:
            raise NotationError(f"{outcome!r} is not an outcome of this {chance.kind.value}.")
        return Throw(outcome) if chance.kind is ChanceKind.ROLL else Draw(outcome)

    def to_move(self, state: State) -> int | None:
        phase = state.phase
        if phase is Phase.PLAY or self.owing(state):
            return state.turn
        if phase is Phase.CHOOSE:
            return chooser(state)
        return None

    def legal_actions(self, state: State) -> list[Action]:
        phase = state.phase
        if self.owing(state):
            return [Drank(state.turn), ThrowOwing()]
        if phase is Phase.THROW:
            actions: list[Action] = [Throw(v) for v in ROLL.outcomes]
            if can_declare_bottle(state) is Why.LEGAL:
                actions.append(DeclareBottle())
            return actions
        if phase is Phase.PLAY:
            return list(legal_plays(state))
        if phase is Phase.CHOOSE:
            return list(choices(state))
        if phase is Phase.DRAW:
            return [Draw(n) for n in state.rules.deck.numbers]
        return []

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return apply(state, action)

    def why_not(self, state: State, action: Action) -> str | None:
        reason = why_not(state, action)
        return None if reason.why is Why.LEGAL else czech.explain(reason)

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def winners(self, state: State) -> tuple[int, ...]:
        return () if state.winner is None else (state.winner,)

    # --- text and records ---------------------------------------------------------------
    def parse(self, text: str) -> State:
        return parse_position(text, self.rules)

    def format(self, state: State) -> str:
        return format_position(state)

    def encode(self, action: Action) -> Record:
        if isinstance(action, Throw):
            return {"t": "throw", "v": action.value}
        if isinstance(action, Shuffle):
            return {"t": "shuffle", "order": list(action.order)}
        if isinstance(action, Draw):
            return {"t": "draw", "card": action.card}
        if isinstance(action, DeclareBottle):
            return {"t": "bottle"}
        if isinstance(action, Play):
            steps: list[list[Any]] = []
            for s in action.steps:
                step: list[Any] = ["bottle" if s.piece == BOTTLE else s.piece + 1, list(s.values)]
                if s.exit is not None:
                    step.append(s.exit)
                steps.append(step)
            return {"t": "play", "steps": steps}
        if isinstance(action, Choose):
            return {"t": "choose", "piece": _piece_text(action.colour, action.piece)}
        if isinstance(action, Offer):
            return {"t": "offer", "c": COLOURS[action.colour]}
        if isinstance(action, Decline):
            return {"t": "decline", "c": COLOURS[action.colour]}
        if isinstance(action, Drank):
            if action.reason is None:
                return {"t": "drank", "c": COLOURS[action.colour]}
            return {"t": "drank", "c": COLOURS[action.colour], "why": action.reason.value}
        if isinstance(action, Later):
            return {"t": "later", "c": COLOURS[action.colour], "why": action.reason.value}
        if isinstance(action, ThrowOwing):
            return {"t": "throw-owing"}
        if isinstance(action, Duty):
            return {"t": "duty", "c": COLOURS[action.colour], "why": action.reason.value}
        raise TypeError(f"not an action of napij se: {action!r}")

    def decode(self, record: Record, state: State) -> Action:
        kind = record.get("t")
        if kind == "throw":
            return Throw(_int(record.get("v"), "v"))
        if kind == "shuffle":
            return Shuffle(_ints(record.get("order"), "order"))
        if kind == "draw":
            return Draw(_int(record.get("card"), "card"))
        if kind == "bottle":
            return DeclareBottle()
        if kind == "play":
            return Play(tuple(self._step(s, state) for s in self._list(record.get("steps"))))
        if kind == "choose":
            ref = record.get("piece")
            if not isinstance(ref, str) or len(ref) != 2 or ref[1] not in "1234":
                raise NotationError(f"The record's piece must be like g1, not {ref!r}.")
            return Choose(colour_index(ref[0]), int(ref[1]) - 1)
        if kind == "offer":
            return Offer(_colour(record.get("c"), "c"))
        if kind == "decline":
            return Decline(_colour(record.get("c"), "c"))
        if kind == "drank":
            why = record.get("why")
            return Drank(_colour(record.get("c"), "c"), None if why is None else _reason(why))
        if kind == "later":
            return Later(_colour(record.get("c"), "c"), _reason(record.get("why")))
        if kind == "throw-owing":
            return ThrowOwing()
        if kind == "duty":
            names = {r.value: r for r in CALLED_DUTIES}
            why = record.get("why")
            if why not in names:
                raise NotationError(f"The record's duty must be one of {', '.join(names)}, "
                                    f"not {why!r}.")
            return Duty(_colour(record.get("c"), "c"), names[why])
        raise NotationError(f"A record of kind {kind!r} is not an action of napij se.")

    @staticmethod
    def _list(value: Any) -> list[Any]:
        if not isinstance(value, list) or not value:
            raise NotationError("The record's steps must be a list of steps.")
        return value

    @staticmethod
    def _step(raw: Any, state: State) -> Step:
        if not isinstance(raw, list) or len(raw) not in (2, 3):
            raise NotationError("A step of a play record is [piece, [values]] or "
                                "[piece, [values], exit].")
        piece = raw[0]
        if piece == "bottle":
            p = BOTTLE
        elif isinstance(piece, int) and not isinstance(piece, bool) and 1 <= piece <= PIECES:
            p = piece - 1
        else:
            raise NotationError(f"A step's piece is 1 to 4 or bottle, not {piece!r}.")
        exit_ = _int(raw[2], "exit") if len(raw) == 3 else None
        if exit_ is not None and not 0 <= exit_ < state.rules.graph.nodes:
            raise NotationError(f"The board has no place {exit_}.")
        return Step(p, _ints(raw[1], "values"), exit_)

    def describe(self, event: Event, state: State) -> str:
        return czech.describe_event(event, state.rules)


GAME = NapijGame()
"""The registry's engine object for napij se (``companion.games.GAMES["napij"]``)."""

_conforms: Game[State, Action, Event, Setup] = GAME
"""mypy checks here that :class:`NapijGame` speaks the protocol."""
