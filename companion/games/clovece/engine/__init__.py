"""Člověče, nezlob se: rules, notation, board geometry, Czech descriptions, the game protocol."""
