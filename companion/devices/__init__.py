"""Hardware adapters behind small ports, each with a simulated twin."""
