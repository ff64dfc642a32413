"""Simulated twins put together: the terminal simulator and the headless demo."""
