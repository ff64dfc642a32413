"""What the table keeps on disk: the journal of the game in play (``journal/``: two files,
checkpoints, recovery to the last certain state) and the preferences (``prefs``)."""
