"""Člověče, napij se!: board and deck as data, the rules engine, drinking duties."""
