"""The companion: a referee for three Czech table games on a Raspberry Pi."""

__version__ = "0.1.0"
