"""Pure rules engines: state values, legal moves, apply -> (state, events), notation."""
