"""Seeded self-play drivers: the randomness lives here, never in an engine."""
