"""What a first-time family presses per turn of napij se, people's seats and the computer's.

A table of four - three people and one computer seat (yellow), the dice on the
table - where everyone presses only what the screen asks: ● when it asks to
confirm (a drink, a card, a debt, a play made on the board), the first choice
offered, the die when a throw is wanted; nobody browses, drops the die or says
"later".  The shell and the napij host are driven directly on a virtual clock.
Printed: presses per turn of a person and of the computer seat, and what they
were pressed on.  ``--auto`` sets "Jediný tah: sám po 2 s" and "PC potvrdí
sám: 3 s".

The numbers of an older checkout, with the same seeds: run this file
with ``PYTHONPATH`` pointing at an export of that commit (the same screens,
``expects()`` and buttons were there)::

    git archive c456df4 | tar -x -C /tmp/before
    PYTHONPATH=/tmp/before .venv/bin/python benchmarks/napij_presses.py

    .venv/bin/python benchmarks/napij_presses.py [--seed 3] [--games 2] [--auto]
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from companion.games import playable


def evening(seed: int, games: int, auto: bool) -> tuple[Counter[str], Counter[str],
                                                         Counter[tuple[str, str]], int]:
    from companion.inputs.events import ButtonPress, Rolled
    from companion.service.hosts.base import DiceStatus, Expect, HostContext
    from companion.service.shell import Shell
    from companion.storage.journal import Journal
    from companion.storage.prefs import Prefs

    select = ButtonPress("select")
    presses: Counter[str] = Counter()
    turns: Counter[str] = Counter()
    kinds: Counter[tuple[str, str]] = Counter()
    throws = 0
    for g in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            prefs = Prefs(computer_confirm=3.0) if auto else Prefs()
            ctx = HostContext(Journal(Path(tmp) / "g.journal"), prefs,
                              rng=random.Random(seed + g),
                              dice=DiceStatus(configured=True, up=True),
                              defaults={"players": 4, "computer": ("y",)}, data=Path(tmp))
            shell = Shell(ctx, start_with="napij", games=playable())
            now = 100.0
            shell.begin(now)
            rng = random.Random(seed * 7 + g)
            host: Any = shell.host
            if auto:
                host.set_option("single", 2)
            shell.handle(ButtonPress("left"), now)  # the set-up's last line: Začít hru
            shell.handle(select, now)
            last = None
            for _ in range(60_000):
                if host.turn.mode.value in ("over", "tally"):
                    break
                s = host.turn.state
                whose = "computer" if s.turn in host.turn.seats_computer else "person"
                if s.turn != last:
                    turns[whose] += 1
                    last = s.turn
                expect = host.expects()
                if expect is Expect.ROLL:
                    shell.handle(Rolled(rng.randint(1, 6)), now)
                    throws += 1
                elif expect in (Expect.CONFIRM, Expect.CHOOSE):
                    kinds[(whose, _what(host, s))] += 1
                    shell.handle(select, now)
                    presses[whose] += 1
                else:
                    deadline = host.next_deadline()
                    now = max(now + 0.25, (deadline or now) + 0.01)
                    shell.tick(now)
                    continue
                now += 0.3
                shell.tick(now)
            else:
                raise SystemExit("napij_presses: a game did not end")
    return presses, turns, kinds, throws


def _what(host: Any, s: Any) -> str:
    """What the press answers (a name for the table printed at the end)."""
    shown = host.turn.shown
    if shown is not None:
        return "card" if shown.card is not None else "drink banner"
    phase = s.phase.value
    if phase == "throw":
        return "debt asked for"
    if phase == "play":
        return "only play" if len(host.turn.plays()) == 1 else "a play of several"
    return {"choose": "card's choice", "draw": "printed card"}.get(phase, phase)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--auto", action="store_true",
                    help='"Jediný tah: sám po 2 s" and "PC potvrdí sám: 3 s"')
    args = ap.parse_args()
    import companion

    presses, turns, kinds, throws = evening(args.seed, args.games, args.auto)
    print(f"code: {Path(companion.__file__).parent}; {args.games} games, seed {args.seed}, "
          f"{throws} throws{', auto' if args.auto else ''}")
    for who in ("person", "computer"):
        print(f"{who}: {presses[who]} presses in {turns[who]} turns = "
              f"{presses[who] / max(1, turns[who]):.2f} per turn")
        for (whose, what), n in sorted(kinds.items()):
            if whose == who:
                print(f"  {what:18s} {n:5d}  {n / max(1, turns[who]):.2f} per turn")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
