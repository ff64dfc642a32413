"""The ``companion`` command line, one module per group of commands.

Each module has ``register(commands, games)`` (see :mod:`companion.cli`) and keeps
its imports of engines, hardware and the service inside the command functions, so
that building the parser - and so the start of the service - stays cheap.
"""
