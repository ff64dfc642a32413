"""The rules browser's texts: each game's rules in short Czech topics, written for this product.

Facts come from the rules sources in ``shared/seeds``; every sentence here is our
own wording (the seeds' sentences are not copied).
"""

Topic = tuple[str, str]
