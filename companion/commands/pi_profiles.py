"""``python -m companion.commands.pi_profiles``: setup-pi.sh's profiles for the Pi's interfaces
(:mod:`companion.service.pi_profiles`), with the companion's games handed in."""

from __future__ import annotations

from companion.games import playable
from companion.service.pi_profiles import main

if __name__ == "__main__":
    raise SystemExit(main(games=playable()))
