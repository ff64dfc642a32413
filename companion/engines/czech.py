"""Czech words for the four colours of the table, in the cases the sentences need.

Shared by the descriptions of the colour games (the words of docs/dev/words.md):
whole sentences are built from these so that the endings agree.
"""

from __future__ import annotations

PLAYER = ("Červený", "Modrý", "Zelený", "Žlutý")
"""The player of a colour, nominative (the subject of a sentence)."""
PLAYER_LOWER = ("červený", "modrý", "zelený", "žlutý")
"""Nominative inside a sentence (hraje modrý)."""
PLAYER_ACC = ("červeného", "modrého", "zeleného", "žlutého")
"""Accusative = genitive of these adjectives (vyhodil zeleného, figurka zeleného)."""
PLAYER_DAT = ("červenému", "modrému", "zelenému", "žlutému")
"""Dative (patří modrému)."""
WITH_PLAYER = ("s červeným", "s modrým", "se zeleným", "se žlutým")
"""Instrumental with the right form of the preposition."""
COLOUR_NAME = ("červená", "modrá", "zelená", "žlutá")
MARK_NAME = ("tečka", "kosočtverec", "pruh", "trojúhelník")
"""The mark each colour carries on its pieces and start field."""
