"""Gobbit: the rules engine and the judge."""
