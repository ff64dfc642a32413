"""The phone view: a read-only live page of the game in play, served by the box itself.

* :mod:`.snapshot` builds a JSON-able :class:`~.snapshot.Snapshot` of a game from the
  engines' values (pure); the boards are SVG drawn by :mod:`.clovece_svg`,
  :mod:`.napij_svg` and :mod:`.gobbit_svg` from the engines' own geometry and data;
* :mod:`.server` runs the web server (aiohttp) in its own thread:
  :class:`~.server.WebView` takes snapshots from the service loop and pushes them to
  the browsers as server-sent events;
* :mod:`.qr` turns the page's URL into a QR code for the OLED;
* ``static/`` holds the page (HTML, CSS, JavaScript; no CDN, no inline script).

See ``docs/dev/web.md``.  The package sits at the service level of the layers: it reads
engines, ui and referee values, and only the service and the commands import it.
"""
