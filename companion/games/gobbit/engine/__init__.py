"""Gobbit: the rules engine, the judge and the game protocol."""
