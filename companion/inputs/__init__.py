"""What the outside world tells the table: input values the adapters post to the service loop.

These are plain values with no behaviour, below the hardware adapters that make
them and the hosts that consume them (see the layer order in docs/dev/DEVELOPING.md).
"""
