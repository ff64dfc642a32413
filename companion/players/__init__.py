"""Computer players: choose a move for a free seat (pure functions of the position)."""
