"""`make cases`: the printable parts' STL files, manifest and pictures (casecad/build.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from casecad.build import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
